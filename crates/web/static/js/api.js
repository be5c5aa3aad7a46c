// Game state sync: every request to the server, answering with its JSON or throwing an
// error that carries the server's message and the points to highlight.

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

async function call(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data?.error);
  return data;
}

/** Starts a game from `fen` with `moves` played and `redo` moves to replay. */
export const newGame = (fen, moves = [], redo = []) => call('POST', '/api/games', { fen, moves, redo });
/** The game `id` as it stands. */
export const getGame = (id) => call('GET', `/api/games/${id}`);
/** Plays `from`→`to`; throws with the reason when illegal. */
export const playMove = (id, from, to) => call('POST', `/api/games/${id}/move`, { from, to });
/** Takes back `count` moves. */
export const undo = (id, count = 1) => call('POST', `/api/games/${id}/undo`, { count });
/** Replays `count` moves taken back. */
export const redo = (id, count = 1) => call('POST', `/api/games/${id}/redo`, { count });
/** The engine plays at `level` (with `timed` = `{clock_ms, increment_ms}` on a clock); answers `{game, reply}`. */
export const engineMove = (id, level, timed = {}) => call('POST', `/api/games/${id}/engine`, { level, ...timed });
/** The engine's suggestion: `{hint, line, score, threat}`. */
export const hint = (id) => call('POST', `/api/games/${id}/hint`);
/** The best `lines` from the current position. */
export const analyse = (id, lines, millis) => call('POST', `/api/games/${id}/analyse`, { lines, millis });
/** Checks a FEN: `{valid, message, fen}`. */
export const checkFen = (fen) => call('POST', '/api/fen', { fen });
/** The named levels: `[{level, key, elo}]`. */
export const levels = () => call('GET', '/api/levels');
