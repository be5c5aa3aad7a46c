// The one HTTP client of the page: every address of the server is named here once, each
// request answers with its JSON or throws an error that carries the server's message and the
// points to highlight, and the streams (server-sent events) and the rooms' sockets are opened
// here too.
//
// The page keeps a copy of each game it plays (start position, moves, redo moves). A server
// that has dropped a game (too many games, a restart) answers `no-game`; the game is then
// sent again from the copy and the request repeated once on it, so nothing played is lost.
// A busy server (503) is asked again after the seconds it names, a few times.

/** An error answered by the server. */
export class ApiError extends Error {
  constructor(status, detail) {
    super(detail?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = detail?.code ?? 'error';
    this.highlights = detail?.highlights ?? [];
    this.params = detail?.params ?? {};
  }
}

/** How often a request the server was too busy for is sent again. */
const BUSY_RETRIES = 3;
/** The longest wait before sending it again, in seconds. */
const BUSY_WAIT_MAX = 10;

/** The page's copy of each game by id: `{fen, moves, redo}`. */
const copies = new Map();
/** The new id of each game that was brought back. */
const renamed = new Map();
/** The archive key of each game the server saves, so that a game brought back keeps its row. */
const archiveKeys = new Map();
/** Restores under way, by the old id, so that requests at once share one. */
const restoring = new Map();
let restoredListener = null;

const wait = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** Keeps the page's copy of the game `view` (a game as the server shows it). */
export function remember(view) {
  if (typeof view?.id !== 'string' || typeof view.start_fen !== 'string' || !Array.isArray(view.moves)) return;
  copies.set(view.id, { fen: view.start_fen, moves: view.moves.map((m) => m.iccs), redo: view.redo ?? [] });
}

/** Notes that game `id` is saved in the archive under `key`. */
export function setArchiveKey(id, key) {
  archiveKeys.set(id, key);
}

/** Calls `listener(oldId, view)` whenever a dropped game is brought back as `view`. */
export function onRestore(listener) {
  restoredListener = listener;
}

/** The id game `id` has now: a game brought back has a new one. */
export function currentId(id) {
  let current = id;
  while (renamed.has(current)) current = renamed.get(current);
  return current;
}

/**
 * `method` on `path` with `body` (sent as JSON; a Blob as it is; none when absent): the
 * server's JSON answer (null for 204 No Content). A busy server (503 with `Retry-After`) is
 * asked again after the seconds it names, a few times; any other refusal throws an ApiError
 * with its reason.
 */
async function request(method, path, body) {
  const options = { method, headers: {} };
  if (body instanceof Blob) {
    options.body = body;
  } else if (body !== undefined && body !== null) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(path, options);
    if (response.status === 204) return null;
    const data = await response.json().catch(() => null);
    if (response.ok) return data;
    const error = new ApiError(response.status, data?.error);
    if (error.code === 'not-saved') notSaved(error);
    const retryAfter = Number(response.headers.get('Retry-After'));
    if (response.status !== 503 || attempt >= BUSY_RETRIES || !(retryAfter > 0)) throw error;
    await wait(Math.min(retryAfter, BUSY_WAIT_MAX));
  }
}

/** The file name a Content-Disposition header gives, or `fallback`. */
function fileName(disposition, fallback) {
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition ?? '');
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // Fall through to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(disposition ?? '');
  return (plain && (plain[2] ?? plain[1].trim())) || fallback;
}

/**
 * Downloads the file the server answers `GET path` with, under the name it gives (else
 * `fallback`): `{name, response}`; throws an ApiError with the reason when it refuses.
 */
async function download(path, fallback) {
  const response = await fetch(path);
  if (!response.ok) {
    const data = await response.json().catch(() => null);
    throw new ApiError(response.status, data?.error);
  }
  const name = fileName(response.headers.get('Content-Disposition'), fallback);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  return { name, response };
}

/** Who is told that a change could not be saved (`onNotSaved`). */
const notSavedListeners = new Set();

/**
 * Calls `listener(error)` whenever the server refuses a change because it cannot save it now
 * (`not-saved`: a full disk, a read-only or locked file), from a request or a room's socket.
 */
export function onNotSaved(listener) {
  notSavedListeners.add(listener);
}

function notSaved(error) {
  for (const listener of notSavedListeners) listener(error);
}

/** Opens the server-sent event stream at `path`. */
const stream = (path) => new EventSource(path);

/** Opens a socket to `path` on this server (`wss:` when the page came over HTTPS). */
function socket(path) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return new WebSocket(`${scheme}://${location.host}${path}`);
}

/** Whether `socket` (from `roomSocket`) is open for sending. */
export const socketOpen = (socket) => socket?.readyState === WebSocket.OPEN;

/** `request`, keeping the page's copy of the game it answers with. */
async function call(method, path, body) {
  const data = await request(method, path, body);
  remember(data?.game ?? data);
  return data;
}

/** Sends game `id` again from the page's copy; the new view. */
function restoreGame(id) {
  if (!restoring.has(id)) {
    const copy = copies.get(id);
    const key = archiveKeys.get(id);
    // A game with a row in the archive comes back under its key, so that it keeps its row.
    const sent = key
      ? resumeArchived({ key, ...copy }).catch(() => newGame(copy.fen, copy.moves, copy.redo))
      : newGame(copy.fen, copy.moves, copy.redo);
    const pending = sent.then((view) => {
      renamed.set(id, view.id);
      if (key) archiveKeys.set(view.id, key);
      copies.delete(id);
      restoredListener?.(id, view);
      return view;
    });
    restoring.set(id, pending);
    pending.finally(() => restoring.delete(id)).catch(() => {});
  }
  return restoring.get(id);
}

/** The address of game `id`'s own requests. */
const gamePath = (id) => `/api/games/${encodeURIComponent(id)}`;

/** `method` on `suffix` of game `id`, bringing the game back once when the server dropped it. */
async function gameCall(method, id, suffix, body) {
  const path = (gid) => `${gamePath(gid)}${suffix}`;
  const current = currentId(id);
  try {
    return await call(method, path(current), body);
  } catch (e) {
    if (e.status !== 404 || e.code !== 'no-game') throw e;
    let next = null;
    if (renamed.has(current)) next = currentId(current);
    else if (restoring.has(current) || copies.has(current)) next = (await restoreGame(current)).id;
    if (next === null) throw e;
    return call(method, path(next), body);
  }
}

/** Starts a game from `fen` with `moves` played and `redo` moves to replay. */
export const newGame = (fen, moves = [], redo = []) => call('POST', '/api/games', { fen, moves, redo });
/** The game `id` as it stands. */
export const getGame = (id) => gameCall('GET', id, '');
/**
 * Plays `from`→`to`; throws with the reason when illegal. `options`: `ply` to play from an
 * earlier position with `choice` (`replace` or `variation`), `check_hanging` to be answered
 * `{hanging}` instead when the move leaves a piece hanging.
 */
export const playMove = (id, from, to, options = {}) => gameCall('POST', id, '/move', { from, to, ...options });
/** Plays on in variation `line` (`switch`), makes it the main line (`promote`) or deletes it (`delete`). */
export const changeLine = (id, line, action) => gameCall('POST', id, '/line', { line, action });
/** Takes back `count` moves. */
export const undo = (id, count = 1) => gameCall('POST', id, '/undo', { count });
/** Replays `count` moves taken back. */
export const redo = (id, count = 1) => gameCall('POST', id, '/redo', { count });
/** The engine plays at `level` (with `timed` = `{clock_ms, increment_ms}` on a clock); answers `{game, reply}`. */
export const engineMove = (id, level, timed = {}) => gameCall('POST', id, '/engine', { level, ...timed });
/** The engine's suggestion: `{hint, line, score, threat}`. */
export const hint = (id) => gameCall('POST', id, '/hint');
/** The streamed analysis of game `id`: server-sent `lines` events, the best `lines` for up to `millis`. */
export const analysisStream = (id, lines, millis) => stream(`${gamePath(currentId(id))}/analysis?lines=${lines}&millis=${millis}`);
/** The streamed review of game `id`: server-sent `progress` events, then `review` (or `failed`). */
export const reviewStream = (id) => stream(`${gamePath(currentId(id))}/review`);
/** The opening explorer's continuations from the position after `ply`: `{ply, version, opening, rows}`. */
export const explorer = (id, ply) => gameCall('GET', id, `/explorer?ply=${ply}`);
/**
 * Downloads the record of game `id` with the query `query` (format, players), named
 * `fallback` unless the server names it: `{name, response}`.
 */
export const downloadRecord = (id, query, fallback) => download(`${gamePath(id)}/record?${query}`, fallback);
/** Reads a record file's `bytes` (a Blob) into a new game; `query`: its name and the game's index. */
export const importRecord = (query, bytes) => request('POST', `/api/games/import?${query}`, bytes);
/** Checks a FEN: `{valid, message, fen}`. */
export const checkFen = (fen) => call('POST', '/api/fen', { fen });
/** The named levels: `[{level, key, elo}]`. */
export const levels = () => call('GET', '/api/levels');

/** The address of the archive's game `id`. */
const archivedPath = (id) => `/api/archive/games/${encodeURIComponent(id)}`;

/** The archive: tells it who plays game `id` (`players`); answers `{key, notice, write_error}`. */
export const keepSession = (id, players) => request('POST', `/api/archive/sessions/${encodeURIComponent(currentId(id))}`, players);
/** Brings back the game saved under `key` (`{key, fen, moves, redo}`) as a new game. */
export const resumeArchived = (saved) => call('POST', '/api/archive/resume', saved);
/** Opens the archive's game `id` on a new board, openings named in `lang`: `{game, archived}`. */
export const openArchived = (id, lang) => request('POST', `${archivedPath(id)}/open?lang=${encodeURIComponent(lang)}`);
/** The archive's state: whether it is kept and how many games it holds. */
export const archiveState = () => request('GET', '/api/archive');
/** A page of the archive's list of games; `query` its filters and offset. */
export const archivedGames = (query) => request('GET', `/api/archive/games?${query}`);
/** Deletes the archive's game `id`. */
export const deleteArchived = (id) => request('DELETE', archivedPath(id));
/** Downloads every archived game in `format` (named `fallback` unless the server names it). */
export const exportArchive = (format, fallback) => download(`/api/archive/export?format=${format}`, fallback);
/** Imports the record file `file` (named `name`) into the archive: `{imported, broken}`. */
export const importArchive = (name, file) => request('POST', `/api/archive/import?name=${encodeURIComponent(name)}`, file);

/** The lessons of `course` in `lang` (the rules course is the address's default). */
export function lessons(course, lang) {
  const which = course === 'rules' ? '' : `&course=${encodeURIComponent(course)}`;
  return request('GET', `/api/lessons?lang=${encodeURIComponent(lang)}${which}`);
}
/** Plays `moves` from `fen`: `{fen, check, status, moves, escape}` or `{refused}`. */
export const tryLessonMoves = (fen, moves) => request('POST', '/api/lessons/try', { fen, moves });

/**
 * Plays `moves` from `fen` on the server: `{fen, check, status, moves, escape}`; or throws the
 * rules core's reason for the first illegal move (an `ApiError` of status 422, as a refused
 * move is everywhere) — learnt from an answer, so that a refusal is no failed request.
 */
export async function tryMoves(fen, moves) {
  const result = await tryLessonMoves(fen, moves);
  if (result.refused) throw new ApiError(422, result.refused);
  return result;
}

/**
 * Before a move is sent: when `move` (ICCS) is not among `legal` (origin point → points, the
 * legal moves the view was given for `fen`), throws the rules core's reason why (see
 * `tryMoves`); a legal move passes.
 */
export async function refuseIllegal(fen, move, legal) {
  if (legal?.[move.slice(0, 2)]?.includes(move.slice(2, 4))) return;
  await tryMoves(fen, [move]);
}

/** The FEN `fen` as the rules core writes it; or throws why it cannot be read (an `ApiError` of status 422, learnt from an answer). */
export async function checkedFen(fen) {
  const check = await checkFen(fen);
  // The refusal a game made of it would answer: `bad-fen`, its reason among the blanks.
  if (!check.valid) throw new ApiError(422, { code: 'bad-fen', message: check.message, params: { reason: check.code, ...check.params } });
  return check.fen;
}
/** Plays a drill's escapes (`{course, lesson, exercise, moves, lang}`): the verdict, or `{refused}`. */
export const drillLessonMoves = (drill) => request('POST', '/api/lessons/drill', drill);
/** Judges a written answer (`{course, lesson, exercise, text}`). */
export const answerLesson = (answer) => request('POST', '/api/lessons/answer', answer);

/** The endgame course's endings, worded in `lang`. */
/** The pieces' characters with pinyin and memory aids in `lang`, for the characters drill. */
export const characters = (lang) => request('GET', `/api/characters?lang=${encodeURIComponent(lang)}`);
export const endings = (lang) => request('GET', `/api/endgames?lang=${encodeURIComponent(lang)}`);
/** Makes the endgame table of ending `id` (once; later calls answer at once). */
export const prepareEnding = (id) => request('POST', `/api/endgames/${encodeURIComponent(id)}/table`);
/** Plays the learner's `moves` in position `position` of ending `lesson`: the attempt as judged. */
export const playEnding = (lesson, position, moves) => request('POST', '/api/endgames/play', { lesson, position, moves });

/** The address of puzzle `id`. */
const puzzlePath = (id) => `/api/puzzles/${encodeURIComponent(id)}`;

/** The puzzles' themes and patterns. */
export const puzzleThemes = () => request('GET', '/api/puzzles/themes');
/** Puzzle `id`. */
export const puzzle = (id) => request('GET', puzzlePath(id));
/** The next puzzle for the query `query` (rating, theme, pattern, recent). */
export const nextPuzzle = (query) => request('GET', `/api/puzzles/next?${query}`);
/** How many puzzles match the filters of `query` (as `nextPuzzle` takes them): `{count}`. */
export const countPuzzles = (query) => request('GET', `/api/puzzles/count?${query}`);
/** What was found in the learner's own games: `{puzzles, games, games_left, found}`. */
export const ownPuzzles = () => request('GET', '/api/puzzles/own');
/** Looks at the learner's next games for puzzles; the same answer as `ownPuzzles`. */
export const mineOwnPuzzles = () => request('POST', '/api/puzzles/own/mine');
/** Plays `move` at `ply` of puzzle `id`: whether it is right, and the reply. */
export const puzzleMove = (id, ply, move) => request('POST', `${puzzlePath(id)}/move`, { ply, move });
/** Rates the learner's result (`{id, solved, state}`): the new rating state. */
export const ratePuzzle = (result) => request('POST', '/api/puzzles/result', result);
/** The hint for `ply` of puzzle `id`. */
export const puzzleHint = (id, ply) => request('GET', `${puzzlePath(id)}/hint?ply=${ply}`);
/** The solution of puzzle `id`. */
export const puzzleSolution = (id) => request('GET', `${puzzlePath(id)}/solution`);

/** The trainer's opening lines and the learner's cards, from `side`. */
export const trainerCatalogue = (side) => request('GET', `/api/trainer?side=${encodeURIComponent(side)}`);
/** Starts a run of the trainer (`{line, side, branch?}`): its first moves and its card. */
export const startTraining = (run) => request('POST', '/api/trainer/start', run);
/** Sends the learner's move in a trainer run (`{line, side, branch, moves, move, missed}`). */
export const trainerMove = (step) => request('POST', '/api/trainer/move', step);

/** The address of room `id`. */
const roomPath = (id) => `/api/rooms/${encodeURIComponent(id)}`;

/** Makes a room (`{side, minutes, increment, rules, name}`): `{id, token}`. */
export const newRoom = (room) => request('POST', '/api/rooms', room);
/** The room a short code names: `{id}`. */
export const roomOfCode = (code) => request('GET', `/api/room-codes/${encodeURIComponent(code)}`);
/** The socket of room `id`; a refusal it carries because a change cannot be saved is told to `onNotSaved`'s listeners too. */
export function roomSocket(id) {
  const opened = socket(`${roomPath(id)}/socket`);
  opened.addEventListener('message', (event) => {
    try {
      const message = JSON.parse(event.data);
      if (message.type === 'error' && message.error?.code === 'not-saved') notSaved(new ApiError(message.status ?? 503, message.error));
    } catch {
      // The room's view reads its messages; a broken one is its to ignore.
    }
  });
  return opened;
}
/** The streamed analysis of room `id`'s position: server-sent `lines` events. */
export const roomAnalysisStream = (id, lines, millis) => stream(`${roomPath(id)}/analysis?lines=${lines}&millis=${millis}`);

// The lobby and the players.
export const lobbyStream = () => stream('/api/lobby/stream');

export const postSeek = (seek) => request('POST', '/api/lobby/seeks', seek);

export const cancelSeek = (id) => request('DELETE', `/api/lobby/seeks/${encodeURIComponent(id)}`);

export const acceptSeek = (id, name) => request('POST', `/api/lobby/seeks/${encodeURIComponent(id)}/accept`, { name });

export const closeRoom = (id) => request('POST', `/api/admin/rooms/${encodeURIComponent(id)}/close`);

export const player = (name) => request('GET', `/api/players/${encodeURIComponent(name)}`);

// A learner's progress, kept for its owner.
export const progress = () => request('GET', '/api/progress');

export const keepProgress = (topic, value) => request('PUT', `/api/progress/${encodeURIComponent(topic)}`, { value });

/** The browser's calendar day, `YYYY-MM-DD`: the day the learner's streak counts by. */
export function localDay(date = new Date()) {
  const two = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/** Today's training (`{day, streak, trained, rating, lesson, puzzles, ending}`), titles in `lang`. */
export const today = (lang) => request('GET', `/api/today?day=${localDay()}&lang=${encodeURIComponent(lang)}`);

/**
 * Counts a piece of today's training finished (`lesson`, `puzzle`, `card` or `ending`) for the
 * streak; the answer is the day's dose, or null where nothing is kept (no data folder, a visitor).
 */
export const trained = (kind) => request('POST', '/api/today/trained', { day: localDay(), kind }).catch(() => null);

// Accounts (a club's server).
export const me = () => request('GET', '/api/me');

export const signIn = (name, password) => request('POST', '/api/account/sign-in', { name, password });

export const signUp = (name, password, invite) => request('POST', '/api/account/sign-up', { name, password, ...(invite ? { invite } : {}) });

export const signOut = () => request('POST', '/api/account/sign-out');

export const changePassword = (current, next) => request('POST', '/api/account/password', { current, new: next });

export const deleteAccount = (password) => request('DELETE', '/api/account', { password });

export const downloadAccountData = () => download('/api/account/data', 'xiangqi-data.json');
