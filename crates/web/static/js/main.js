// The app: wires the board, the server's game, the settings and the controls together.

import * as api from './api.js';
import { Board, drawUnprotectedBadge, explainShapes, lastMoveShapes, piecesOfFen, shape } from './board.js';
import { Clock, TIME_CONTROLS, formatTime } from './clock.js';
import { Course, dismissWelcome, welcomeWanted } from './course.js';
import { Endgames } from './endgames.js';
import { Puzzles } from './puzzles.js';
import { Trainer } from './trainer.js';
import { Editor } from './editor.js';
import { Legend, keepNames, nameOnLongPress } from './legend.js';
import { explainError, explainIllegal, explainOutcome, explainRecordNote } from './reasons.js';
import { ask } from './dialogs.js';
import { renderTree } from './lines.js';
import { currentLanguage, setLanguage, t, translatePage, pieceName, sentences } from './i18n.js';
import { downloadRecord, importRecord } from './records.js';
import { Review } from './review.js';
import { scoreText, tableText } from './score.js';
import { Explorer } from './explorer.js';
import { MyGames, follow as followInArchive, openStored, resume as resumeFromArchive } from './archive.js';
import { Router, panel } from './router.js';
import { Rooms } from './rooms.js';
import { loadGame, loadSettings, saveGame, saveSettings } from './settings.js';

const settings = loadSettings();
const $ = (id) => document.getElementById(id);
const board = new Board($('board'), onPoint);
const editor = new Editor($('palette'), render);
const legend = new Legend($('legend'));
/** The address of each course's pages. */
const COURSE_ROUTES = { rules: 'learn', patterns: 'patterns' };
/** Tells the address bar what view `panel` shows now, while it is the one on screen. */
const noteShown = (panel, name, id, push) => {
  if (!$(panel).hidden) router.note(name, id, push);
};
const course = new Course(panel('course'), settings, {
  onLegend: () => legend.open(settings.pieceStyle),
  onShown: (courseId, lesson) => noteShown('course', COURSE_ROUTES[courseId], lesson, true),
});
const endgames = new Endgames(panel('endgames', 'course'), settings, { onShown: (id) => noteShown('endgames', 'endgames', id, true) });
const puzzles = new Puzzles(panel('puzzles'), settings, { onShown: (id) => noteShown('puzzles', 'puzzles', id) });
const trainer = new Trainer(panel('trainer', 'trainer-view'), settings, {
  onShown: (run) => noteShown('trainer', run ? 'trainer' : 'openings', run ? `${run.line}/${run.side}` : null, true),
});
const review = new Review($('review'), { browse: (ply) => browse(ply), notation: () => settings.notation, changed: () => render() });
const myGames = new MyGames(panel('archive'), {
  open: (id) => router.go('games', String(id)),
  levels: () => levels,
  levelName: (n) => levelNumbered(n),
  notation: () => settings.notation,
});
const rooms = new Rooms(panel('room', 'room-view'), settings, { go: (id) => router.go('room', id) });
const explorer = new Explorer($('explorer'), {
  game: () => game,
  ply: () => viewPly ?? game.moves.length,
  notation: () => settings.notation,
  score: (s) => scoreText(s),
  play: (from, to) => playExplored(from, to),
});
keepNames(board);
nameOnLongPress(board.svg);
let game = null;
let selected = null;
let highlights = [];
let arrow = null;
/** The hint (or the review's better move) `{from, to}` as the board draws it. */
const hintArrows = (move) => (move ? [shape.arrow(move.from, move.to, 'hint')] : []);
let thinking = false;
let editing = false;
let message = '';
let levels = [];
let clock = new Clock(settings.clock, loadGame()?.clock);
let analysisSource = null;

const isRed = (piece) => piece === piece.toUpperCase();
const sideName = (color) => t(color);

function say(text) {
  message = text;
  $('message').textContent = text;
}

function describeOutcome(o) {
  const winner = o.result === 'red-wins' ? 'red' : o.result === 'black-wins' ? 'black' : null;
  const result = winner ? t(`wins.${winner}`) : t('draw');
  return t('gameOverLine', { result, reason: explainOutcome(o) });
}

function statusText() {
  if (editing) return t('setup');
  if (!game) return '';
  if (game.outcome) return describeOutcome(game.outcome);
  if (clock.flagged) {
    const winner = clock.flagged === 'red' ? 'black' : 'red';
    return t('gameOverLine', { result: t(`wins.${winner}`), reason: t(`lostOnTime.${clock.flagged}`) });
  }
  if (thinking) return t('thinking');
  if (game.check) return t(`inCheck.${game.turn}`);
  return t(`turn.${game.turn}`);
}

/** The ply whose position the board shows while browsing the move list; null: the game now. */
let viewPly = null;

/** Shows the position after ply `ply` (0: the start) while browsing; the last ply ends browsing. */
function browse(ply) {
  if (!game) return;
  const last = game.moves.length;
  viewPly = ply >= last ? null : Math.max(0, ply);
  selected = null;
  render();
  $('moves').querySelector('span.current')?.scrollIntoView({ block: 'nearest' });
}

/** Plays on in line `line` of the game's tree, showing the position after its ply `ply`. */
async function switchLine(line, ply) {
  try {
    await show(await api.changeLine(game.id, line, 'switch'));
    browse(ply);
  } catch (e) {
    if (!(await recover(e))) say(explainError(e));
  }
}

/** Makes the line being played the main line (`promote`) or deletes it (`delete`). */
async function changeLine(action) {
  if (!game?.tree || !game.line) return;
  try {
    await show(await api.changeLine(game.id, game.line, action));
  } catch (e) {
    if (!(await recover(e))) say(explainError(e));
  }
}

/**
 * The game's ECCO opening above the move list: the code and its own name in the interface
 * language (the view carries all three, so a change of language needs no request).
 */
function renderOpening() {
  const line = $('opening');
  const o = game.opening;
  line.hidden = !o;
  if (!o) return;
  const lang = currentLanguage();
  const name = o.title[lang] ?? o.title.en;
  line.textContent = t('opening', { name: `${o.code} ${name}` });
  line.title = [o.name, o.variation].filter(Boolean).join(' ');
  line.dataset.code = o.code;
}

function renderMoves() {
  renderOpening();
  const list = $('moves');
  list.replaceChildren();
  const shown = viewPly ?? game.moves.length;
  const startsBlack = game.start_fen.split(' ')[1] === 'b';
  if (game.tree) renderTree(list, game, { notation: settings.notation, shown, browse, switchLine });
  const moves = game.tree ? [] : startsBlack ? [null, ...game.moves] : game.moves;
  for (let i = 0; i < moves.length; i += 2) {
    const li = document.createElement('li');
    for (const [k, m] of [moves[i], moves[i + 1]].entries()) {
      if (m === undefined) continue;
      const span = document.createElement('span');
      span.textContent = m ? m[settings.notation] : '…';
      if (m) {
        span.dataset.ply = String(i + k - (startsBlack ? 1 : 0) + 1);
        span.tabIndex = -1;
        span.addEventListener('click', () => browse(Number(span.dataset.ply)));
      }
      if (m && Number(span.dataset.ply) === shown) span.className = 'current';
      li.append(span);
    }
    list.append(li);
  }
  list.classList.toggle('browsing', viewPly !== null);
  $('line-actions').hidden = !(game.tree && game.line > 0);
  review.mark(list);
  if (viewPly === null) list.lastElementChild?.scrollIntoView({ block: 'nearest' });
}

function render() {
  followOpenedRow();
  drawClocks();
  board.style = settings.pieceStyle;
  board.notation = settings.notation;
  board.flipped = settings.flipped;
  $('status').textContent = statusText();
  $('message').textContent = message;
  showReviewOffer();
  $('editor').hidden = !editing;
  if (editing) {
    board.render({ pieces: editor.pieces });
    const verdict = $('editor-verdict');
    verdict.textContent = editor.verdict.message;
    verdict.className = `verdict ${editor.verdict.valid ? 'good' : 'bad'}`;
    if (document.activeElement !== $('editor-fen')) $('editor-fen').value = editor.fen();
    $('editor-side').value = editor.side;
    return;
  }
  if (!game) return;
  explorer.refresh();
  if (viewPly !== null) {
    const fen = viewPly === 0 ? game.start_fen : game.moves[viewPly - 1].fen;
    if (document.activeElement !== $('fen')) $('fen').value = fen;
    board.render({
      fen,
      selected,
      shapes: [...lastMoveShapes(viewPly === 0 ? null : game.moves[viewPly - 1]), ...hintArrows(review.arrow(viewPly))],
    });
    renderMoves();
    review.show(viewPly);
    return;
  }
  const markers = shownMarkers();
  showMarkerKey(markers);
  board.render({
    fen: game.fen,
    selected,
    targets: selected ? game.legal[selected] ?? [] : [],
    check: game.check,
    shapes: [
      ...lastMoveShapes(game.last_move),
      ...markers.map((m) => shape.mark(m.square, m.unprotected ? 'unprotected' : 'attacked')),
      ...explainShapes(highlights),
      ...hintArrows(arrow ?? review.arrow(game.moves.length)),
    ],
  });
  renderMoves();
  review.show(game.moves.length);
  if (document.activeElement !== $('fen')) $('fen').value = game.fen;
}

/**
 * The capture markers the board shows: none when they are turned off, and none on the opening
 * position before the first move (its four horses stand where a cannon could take them, which
 * is the same in every game and says nothing yet).
 */
function shownMarkers() {
  if (!settings.markers) return [];
  if (!game.moves.length && game.start_fen.split(' ')[0] === INITIAL_BOARD) return [];
  return game.markers;
}

/** The board part of the initial position's FEN. */
const INITIAL_BOARD = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR';

/** A ring as the board draws it, for the marker key: `unprotected` adds the "!" badge. */
function markerSwatch(unprotected) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '-34 -34 68 68');
  svg.setAttribute('aria-hidden', 'true');
  const ring = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
  ring.setAttribute('r', 26);
  ring.setAttribute('class', `capture-marker${unprotected ? ' unprotected' : ''}`);
  svg.append(ring);
  if (unprotected) drawUnprotectedBadge(svg, 18, -18);
  return svg;
}

/**
 * Explains the capture markers beside the board while the board shows some, until the user
 * says it is understood: which ring means what, and where to turn them off.
 */
function showMarkerKey(markers) {
  const key = $('marker-key');
  key.hidden = !markers.length || Boolean(settings.markerKeySeen);
  if (key.hidden) return;
  const entry = (unprotected, text) => {
    const span = document.createElement('span');
    span.dataset.markerKey = unprotected ? 'unprotected' : 'attacked';
    span.append(markerSwatch(unprotected), ` ${text}`);
    return span;
  };
  const seen = document.createElement('button');
  seen.type = 'button';
  seen.textContent = t('markerKey.seen');
  seen.addEventListener('click', () => {
    settings.markerKeySeen = true;
    saveSettings(settings);
    key.hidden = true;
  });
  key.replaceChildren(entry(false, t('markerKey.attacked')), entry(true, t('markerKey.unprotected')),
    document.createTextNode(t('markerKey.settings')), seen);
}

/** The id of the game last opened from a file: it offers its review at once. */
let openedFromFile = null;

/** Offers the review of a finished game, or of one opened from a file, when it has moves. */
function showReviewOffer() {
  const ended = game && (game.outcome || clock.flagged || game.id === api.currentId(openedFromFile ?? ''));
  $('review-offer').hidden = editing || !ended || !game.moves.length || !$('review').hidden;
}

/** Levels below this one (Club) ask before a move that leaves a piece hanging, unless the user chose. */
const SAFETY_NET_BELOW = 8;

/** Whether a move that leaves a piece hanging is asked about first. */
function safetyNetOn() {
  return settings.safetyNet ?? (settings.mode === 'engine' && Number(settings.level) < SAFETY_NET_BELOW);
}

/**
 * The options of a move from `from` to `to` played now, or from the position browsed: the ply
 * it is played from and, when it is not the move the game went on with, whether it starts a
 * variation or replaces the rest (asked); null when the question was cancelled.
 */
async function moveOptions(from, to) {
  const options = { check_hanging: safetyNetOn() };
  if (viewPly === null) return options;
  options.ply = viewPly;
  if (game.moves[viewPly]?.iccs === `${from}${to}`) return options;
  const choice = await ask(t('branchQuestion'), [
    { key: 'variation', label: t('branchVariation'), primary: true },
    { key: 'replace', label: t('branchReplace') },
    { key: 'cancel', label: t('cancel') },
  ]);
  if (choice === 'cancel') return null;
  options.choice = choice;
  return options;
}

/**
 * Asks whether to play a move that leaves the piece `hanging` ({piece, square, defended,
 * attacker, attacker_square}) to be won, naming the piece that takes it.
 */
async function playHangingMove(hanging) {
  const piece = pieceName(hanging.piece).toLowerCase();
  const attacker = pieceName(hanging.attacker).toLowerCase();
  const text = t(hanging.defended ? 'hangingExchange' : 'hanging',
    { piece, square: hanging.square, attacker, from: hanging.attacker_square });
  const choice = await ask(text, [
    { key: 'play', label: t('playAnyway') },
    { key: 'back', label: t('takeBack'), primary: true },
  ]);
  return choice === 'play';
}

function humanToMove() {
  return settings.mode === 'two' || settings.analysis || game.turn === settings.humanColor;
}

/** Whether the game can go on: not finished and no flag fallen. */
function playable() {
  return game && !game.outcome && !clock.flagged;
}

function followClock() {
  if (game) clock.follow(game, editing || settings.analysis);
}

function drawClocks() {
  const box = $('clocks');
  box.hidden = !clock.enabled;
  if (!clock.enabled) return;
  box.classList.toggle('flipped', Boolean(settings.flipped));
  for (const side of ['red', 'black']) {
    const el = box.querySelector(`[data-clock="${side}"]`);
    const ms = clock.remaining(side);
    el.textContent = `${sideName(side)}  ${formatTime(ms)}`;
    el.classList.toggle('running', clock.running === side);
    el.classList.toggle('low', ms < 20000);
  }
}

function tickClock() {
  const fallen = clock.flagged;
  if (clock.check() && !fallen) {
    if (game) saveGame(game, clock);
    keepInArchive();
    selected = null;
    render();
  }
  drawClocks();
}

async function show(view) {
  game = view;
  viewPly = null;
  api.remember(view);
  selected = null;
  arrow = null;
  review.follow(view);
  followClock();
  saveGame(game, clock);
  keepInArchive();
  render();
  analyse();
  engineTurn();
}

/** The players of the game as the archive keeps them, and whose flag fell. */
function archivePlayers() {
  const engineName = engineNamed();
  const flagged = clock.flagged ?? null;
  if (settings.mode !== 'engine' || settings.analysis) return { red: t('red'), black: t('black'), level: null, flagged };
  const human = t('you');
  return {
    red: settings.humanColor === 'red' ? human : engineName,
    black: settings.humanColor === 'black' ? human : engineName,
    level: Number(settings.level),
    flagged,
  };
}

/** Tells the archive who plays the game shown; a save that failed is said. */
function keepInArchive() {
  if (game) followInArchive(game, archivePlayers(), say);
}

/** Shows a game opened from My games: to replay and review it, or to play on. */
async function openArchived({ game: view, archived }) {
  clock = new Clock(settings.clock);
  highlights = [];
  say('');
  router.showPanel('game');
  await show(view);
  if (archived.review) {
    // The review made before is shown again as it was.
    review.close();
    review.game = { id: view.id, version: view.version };
    review.result = archived.review;
    review.panel.hidden = false;
    render();
  }
}

async function engineTurn() {
  if (thinking || !playable() || humanToMove() || editing) return;
  thinking = true;
  render();
  try {
    const timed = clock.enabled ? { clock_ms: Math.floor(clock.remaining(game.turn)), increment_ms: clock.increment } : {};
    const answer = await api.engineMove(game.id, settings.level, timed);
    game = answer.game;
    followClock();
    saveGame(game, clock);
    keepInArchive();
  } catch (e) {
    if (e.status !== 409) say(explainError(e));
  } finally {
    thinking = false;
  }
  render();
  analyse();
  engineTurn();
}

/** How far the evaluation bar leans to Red for a score, in percent from the middle. */
function barLean(score) {
  const most = 48;
  if (score.mate !== undefined) return Math.sign(score.mate) * most;
  return Math.max(-most, Math.min(most, score.cp / 10));
}

/**
 * The moves of a line from position `fen` with their numbers, as a record writes them:
 * `12. a b 13. c`, or `12… b 13. c` when Black moves first.
 */
function numberedLine(moves, fen) {
  const fields = fen.split(' ');
  let number = Number(fields[5]) || 1;
  let red = fields[1] !== 'b';
  const parts = [];
  moves.forEach((m, i) => {
    if (red) parts.push(`${number}.`);
    else if (i === 0) parts.push(`${number}…`);
    parts.push(m);
    if (!red) number += 1;
    red = !red;
  });
  return parts.join(' ');
}

/** Shows the score on the evaluation bar: its lean and its number. */
function showEval(best) {
  $('eval-fill').style.height = `${50 + barLean(best)}%`;
  let number = $('eval-bar').querySelector('.eval-number');
  if (!number) {
    number = document.createElement('span');
    number.className = 'eval-number';
    $('eval-bar').append(number);
  }
  number.textContent = scoreText(best);
}

/**
 * Shows the analysis' lines; `table`, where an endgame table covers the position, is its
 * exact result, and each line then carries its first move's own result.
 */
function showLines(lines, done, table) {
  const best = lines[0]?.score_red ?? { cp: 0 };
  showEval(best);
  const ol = document.createElement('ol');
  for (const l of lines) {
    const li = document.createElement('li');
    const moves = settings.notation === 'iccs' ? l.pv : settings.notation === 'chinese' ? l.pv_chinese : l.pv_wxf;
    const said = l.table ? tableText(l.table) : `${scoreText(l.score_red)}  (${t('depth')} ${l.depth})`;
    li.textContent = `${said}  ${numberedLine(moves.slice(0, 10), game.fen)}`;
    ol.append(li);
  }
  const title = document.createElement('h2');
  const side = t(`turn.${game.turn}`);
  const verdict = table ? tableText(table) : t('scoreIs', { score: scoreText(best) });
  title.textContent = `${t('analysis')} (${side}) — ${verdict}${done ? '' : ' …'}`;
  $('analysis').replaceChildren(title, ol);
  $('analysis').dataset.depth = String(lines[0]?.depth ?? 0);
  $('analysis').dataset.table = table ? table.result : '';
}

function stopAnalysis() {
  analysisSource?.close();
  analysisSource = null;
}

/** Streams the analysis of the position shown; a newer position replaces it. */
function analyse() {
  stopAnalysis();
  const panel = $('analysis');
  panel.hidden = !settings.analysis;
  $('eval-bar').hidden = !settings.analysis;
  if (!settings.analysis || !game || game.outcome) {
    panel.replaceChildren();
    return;
  }
  const { id, version } = game;
  const source = api.analysisStream(id, 3, 30000);
  analysisSource = source;
  let heard = false;
  source.addEventListener('lines', (event) => {
    if (source !== analysisSource) return;
    heard = true;
    const update = JSON.parse(event.data);
    if (!game || game.id !== id || game.version !== version || update.version !== version) return;
    showLines(update.lines, update.done, update.table);
    $('analysis').dataset.version = String(update.version);
    if (update.done) stopAnalysis();
  });
  source.onerror = () => {
    if (source !== analysisSource) return;
    stopAnalysis();
    // A stream refused at once may be for a game the server dropped: asking for the game
    // brings it back (under a new id), and its analysis starts again.
    if (!heard) {
      api.getGame(id).then(() => {
        if (game && game.id !== id && !analysisSource) analyse();
      }).catch(() => {});
    }
  };
}

async function recover(error) {
  if (error.status === 404) {
    await restore();
    return true;
  }
  return false;
}

async function tryMove(from, to) {
  selected = null;
  try {
    const options = await moveOptions(from, to);
    if (!options) {
      render();
      return;
    }
    let view = await api.playMove(game.id, from, to, options);
    if (view.hanging) {
      if (!(await playHangingMove(view.hanging))) {
        render();
        return;
      }
      view = await api.playMove(game.id, from, to, { ...options, check_hanging: false });
    }
    highlights = [];
    say('');
    await show(view);
  } catch (e) {
    if (await recover(e)) return;
    if (e.status === 422) {
      say(t('illegal', { reason: explainIllegal(e) }));
      highlights = e.highlights.length ? e.highlights : [from, to];
    } else say(explainError(e));
    render();
  }
}

/** Plays a move the opening explorer offers, as a move made on the board. */
function playExplored(from, to) {
  if (!game || thinking || editing) return;
  if (viewPly === null && (!playable() || !humanToMove())) {
    say(statusText());
    return;
  }
  tryMove(from, to);
}

function onPoint(square) {
  if (editing) {
    editor.place(square);
    render();
    return;
  }
  if (viewPly !== null) {
    // Browsing an earlier position: a piece of the side to move there is picked up and
    // played from there; any other click goes back to the game.
    const fen = viewPly === 0 ? game.start_fen : game.moves[viewPly - 1].fen;
    const piece = piecesOfFen(fen)[square];
    const mine = piece && isRed(piece) === (fen.split(' ')[1] !== 'b');
    if (!thinking && mine && selected !== square) {
      selected = square;
      render();
    } else if (!thinking && selected && !mine) tryMove(selected, square);
    else browse(Infinity);
    return;
  }
  if (!game || thinking) return;
  if (!playable()) {
    say(statusText());
    return;
  }
  if (!humanToMove()) return;
  const pieces = piecesOfFen(game.fen);
  const piece = pieces[square];
  const mine = piece && isRed(piece) === (game.turn === 'red');
  if (selected === square) selected = null;
  else if (mine) {
    selected = square;
    highlights = [];
    say('');
  } else if (selected) {
    tryMove(selected, square);
    return;
  } else if (piece) say(t(`notYours.${game.turn}`));
  render();
}

function stepCount(available) {
  if (settings.mode !== 'engine' || settings.analysis) return 1;
  return Math.min(available, 2);
}

/** The game opened from My games (`{id, version, row}`) while its address is shown. */
let openedRow = null;

/** Opens the archive's game `row` on the board, with its review started when `reviewed`. */
async function openRow(row, reviewed) {
  const route = router.current;
  try {
    const answer = await openStored(row);
    // An answer that comes once another view is chosen is not shown.
    if (router.current !== route) return;
    await openArchived(answer);
    openedRow = { id: answer.game.id, version: answer.game.version, row };
    if (reviewed && !answer.archived.review) review.start(game);
  } catch (e) {
    if (router.current !== route) return;
    router.showPanel('archive');
    await myGames.show();
    myGames.say(explainError(e));
  }
}

/** Once the game opened from My games changes on the board, the address is Play's again. */
function followOpenedRow() {
  if (openedRow && router.current?.id !== openedRow.row) openedRow = null;
  if (openedRow && (game?.id !== openedRow.id || game.version !== openedRow.version)) {
    openedRow = null;
    router.note('play');
  }
}

/**
 * Every view of the app, in one place: its address (`#/<name>`, see router.js), the panel it
 * shows, the navigation link it belongs to (with the words of its own link, if it has one)
 * and what opening an id does.
 */
const router = new Router({
  play: { panel: 'game', nav: 'play', label: 'play', show: () => render() },
  learn: { panel: 'course', nav: 'learn', label: 'learn', show: (lesson) => course.open('rules', lesson) },
  patterns: { panel: 'course', nav: 'learn', show: (lesson) => course.open('patterns', lesson) },
  endgames: { panel: 'endgames', nav: 'learn', show: (id) => endgames.open(id) },
  puzzles: { panel: 'puzzles', nav: 'puzzles', label: 'puzzles', show: (id) => puzzles.open(id) },
  openings: { panel: 'trainer', nav: 'openings', label: 'openings', show: () => trainer.open() },
  trainer: {
    panel: 'trainer',
    nav: 'openings',
    show: (id) => {
      const [line, side] = (id ?? '').split('/');
      return trainer.open(line && ['red', 'black'].includes(side) ? { line, side } : null);
    },
  },
  games: {
    panel: (row) => (row ? 'game' : 'archive'),
    nav: 'games',
    label: 'myGames',
    show: (row) => (row ? openRow(row, false) : myGames.show()),
  },
  review: { panel: 'game', nav: 'games', show: (row) => (row ? openRow(row, true) : render()) },
  room: { panel: 'room', nav: 'room', label: 'room.title', show: (id) => rooms.open(id) },
}, 'play', {
  // The welcome goes once another view is chosen.
  onRoute: (name) => {
    if (name !== 'play') dismissWelcome();
    openedRow = null;
  },
  onPanel: (id) => {
    $('welcome').hidden = id !== 'game' || !welcomeWanted();
  },
});
router.buildNav(document.querySelector('.app-nav'));

const actions = {
  'start-course'() {
    dismissWelcome();
    router.showPanel('course');
    course.start();
  },
  play() {
    dismissWelcome();
    router.go('play');
  },
  legend() {
    legend.open(settings.pieceStyle);
  },
  settings() {
    const panel = $('settings');
    panel.open = true;
    panel.scrollIntoView({ block: 'nearest' });
    panel.querySelector('summary').focus();
  },
  review() {
    if (game) review.start(game);
  },
  async new() {
    highlights = [];
    say('');
    const view = await api.newGame(null);
    clock = new Clock(settings.clock);
    show(view);
  },
  async undo() {
    if (!game || game.moves.length === 0) return;
    let count = stepCount(game.moves.length);
    if (settings.mode === 'engine' && !settings.analysis && game.turn !== settings.humanColor) count = 1;
    highlights = [];
    say('');
    try {
      show(await api.undo(game.id, count));
    } catch (e) {
      if (!(await recover(e))) say(explainError(e));
    }
  },
  async redo() {
    if (!game || game.redo.length === 0) return;
    try {
      show(await api.redo(game.id, stepCount(game.redo.length)));
    } catch (e) {
      if (!(await recover(e))) say(explainError(e));
    }
  },
  async hint() {
    if (!playable() || thinking) return;
    try {
      const h = await api.hint(game.id);
      arrow = { from: h.hint.from, to: h.hint.to };
      const move = h.hint[settings.notation];
      const threat = !h.threat ? null
        : h.threat.piece.toLowerCase() === 'k' ? t('threatensCheck')
          : t('threatens', { piece: pieceName(h.threat.piece).toLowerCase(), square: h.threat.square });
      say(threat ? t('hintThreat', { move, threat }) : t('hintText', { move }));
      render();
    } catch (e) {
      if (!(await recover(e))) say(explainError(e));
    }
  },
  flip() {
    settings.flipped = !settings.flipped;
    saveSettings(settings);
    render();
  },
  setup() {
    editing = true;
    editor.style = settings.pieceStyle;
    editor.open(piecesOfFen(game?.fen ?? ''), game?.turn === 'black' ? 'b' : 'w');
    render();
  },
  async 'editor-start'() {
    if (!editor.verdict.valid) {
      say(t('badFen', { reason: editor.verdict.message }));
      return;
    }
    try {
      const view = await api.newGame(editor.fen());
      editing = false;
      clock = new Clock(settings.clock);
      say('');
      highlights = [];
      show(view);
    } catch (e) {
      say(t('badFen', { reason: explainError(e) }));
    }
  },
  'editor-clear'() {
    editor.set({});
  },
  'editor-initial'() {
    editor.side = 'w';
    editor.set(piecesOfFen('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR'));
  },
  'editor-cancel'() {
    editing = false;
    render();
  },
  async 'copy-fen'() {
    try {
      await navigator.clipboard.writeText(game.fen);
    } catch {
      $('fen').select();
      document.execCommand('copy');
    }
    say(t('copied'));
  },
  async 'load-fen'() {
    try {
      highlights = [];
      say('');
      const view = await api.newGame($('fen').value);
      clock = new Clock(settings.clock);
      show(view);
    } catch (e) {
      say(t('badFen', { reason: explainError(e) }));
    }
  },
  async 'save-record'() {
    if (!game) return;
    const engineName = engineNamed();
    const human = t('you');
    const names = settings.mode === 'engine'
      ? { red: settings.humanColor === 'red' ? human : engineName, black: settings.humanColor === 'black' ? human : engineName }
      : {};
    try {
      const { name, warnings } = await downloadRecord(game.id, $('record-format').value, names);
      let text = t('saved', { name });
      if (warnings.length) text = sentences(text, t('notKept', { what: warnings.map(explainRecordNote).join('; ') }));
      say(text);
    } catch (e) {
      if (!(await recover(e))) say(explainError(e));
    }
  },
  'load-record'() {
    $('record-file').click();
  },
  'review-offer'() {
    if (!game) return;
    review.start(game);
    render();
  },
  openings() {
    explorer.toggle();
  },
  'promote-line'() {
    changeLine('promote');
  },
  'delete-line'() {
    changeLine('delete');
  },
};

/** A level as the level menu names it, e.g. "Beginner (~800 Elo)". */
function levelName(l) {
  return t('levelLabel', { name: t(`levels.${l.key}`), elo: l.elo });
}

/** Level `n` as the level menu names it, or "Level 5" for a level the menu does not list. */
function levelNumbered(n) {
  const shown = levels.find((l) => l.level === Number(n));
  return shown ? levelName(shown) : `${t('level')} ${n}`;
}

/** The engine as a player of the game, named by the level chosen: `Xiangqi · Beginner (~800 Elo)`. */
function engineNamed() {
  return t('engineName', { level: levelNumbered(settings.level) });
}

function applySettings() {
  setLanguage(settings.language);
  document.body.classList.toggle('board-green', settings.boardTheme === 'green');
  document.body.classList.toggle('board-wood', settings.boardTheme !== 'green');
  document.body.classList.toggle('pieces-taipei', settings.pieceTheme === 'taipei');
  document.body.classList.toggle('pieces-beijing', settings.pieceTheme !== 'taipei');
  translatePage();
  const level = $('level');
  level.replaceChildren(...levels.map((l) => {
    const o = document.createElement('option');
    o.value = String(l.level);
    o.textContent = levelName(l);
    return o;
  }));
  $('clock-setting').replaceChildren(...Object.keys(TIME_CONTROLS).map((key) => {
    const o = document.createElement('option');
    o.value = key;
    o.textContent = key === 'off' ? t('clockOff') : t('clockControl', { minutes: key.split('+')[0], seconds: key.split('+')[1] });
    return o;
  }));
  for (const input of document.querySelectorAll('[data-setting]')) {
    const value = settings[input.dataset.setting];
    if (input.type === 'checkbox') input.checked = Boolean(value);
    else input.value = String(value);
  }
  $('safety-net').checked = safetyNetOn();
  if (editing) editor.drawPalette(settings.pieceStyle);
}

function settingChanged(event) {
  const input = event.target;
  const key = input.dataset.setting;
  const value = input.type === 'checkbox' ? input.checked : input.value;
  settings[key] = key === 'level' ? Number(value) : value;
  if (key === 'humanColor') settings.flipped = value === 'black';
  saveSettings(settings);
  if (key === 'clock') clock = new Clock(settings.clock);
  if (key === 'clock' || key === 'analysis') {
    followClock();
    if (game) saveGame(game, clock);
  }
  applySettings();
  render();
  course.relabel();
  endgames.relabel();
  puzzles.relabel();
  trainer.relabel();
  if (key === 'analysis' || key === 'notation') analyse();
  engineTurn();
}

/** The answer to a request the page made before the modules loaded, if it succeeded. */
async function early(key) {
  const pending = window.xiangqiEarly?.[key];
  if (!pending) return null;
  window.xiangqiEarly[key] = null;
  try {
    const response = await pending;
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

async function restore() {
  const ready = await early('game');
  if (ready) {
    await show(ready);
    return;
  }
  const saved = loadGame();
  try {
    game = (await resumeFromArchive(saved)) ?? (saved ? await api.newGame(saved.fen, saved.moves, saved.redo) : await api.newGame(null));
  } catch {
    game = await api.newGame(null);
  }
  await show(game);
}

/** A game the server dropped and the page brought back: the page follows its new id. */
function followRestored(oldId, view) {
  if (game?.id !== oldId) return;
  game = view;
  saveGame(game, clock);
}

async function start() {
  api.onRestore(followRestored);
  for (const button of document.querySelectorAll('[data-action]')) {
    button.addEventListener('click', () => actions[button.dataset.action]?.());
  }
  for (const input of document.querySelectorAll('[data-setting]')) input.addEventListener('change', settingChanged);
  $('safety-net').addEventListener('change', (e) => {
    settings.safetyNet = e.target.checked;
    saveSettings(settings);
  });
  $('editor-side').addEventListener('change', (e) => {
    editor.side = e.target.value;
    editor.validate();
  });
  $('editor-fen').addEventListener('input', (e) => {
    const [field, side] = e.target.value.trim().split(/\s+/);
    editor.side = side === 'b' ? 'b' : 'w';
    editor.set(piecesOfFen(field ?? ''));
  });
  document.addEventListener('keydown', (e) => {
    if (!game || editing || document.body.dataset.view !== 'game' || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest?.('input, select, textarea, svg, dialog')) return;
    const now = viewPly ?? game.moves.length;
    const ply = { ArrowLeft: now - 1, ArrowRight: now + 1, Home: 0, End: Infinity }[e.key];
    if (ply === undefined) return;
    e.preventDefault();
    browse(ply);
  });
  $('record-file').addEventListener('change', async (e) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    try {
      const answer = await importRecord(file);
      highlights = [];
      clock = new Clock(settings.clock);
      openedFromFile = answer.game.id;
      await show(answer.game);
      let text = t('loaded', { name: file.name, index: answer.index + 1, games: answer.games });
      if (answer.warning) text = sentences(text, t('partly', { reason: explainRecordNote(answer.warning) }));
      if (answer.unreadable?.length) {
        text = sentences(text, t('unreadable', { count: answer.unreadable.length, what: answer.unreadable.map(explainRecordNote).join('; ') }));
      }
      if (answer.warnings?.length) text = sentences(text, t('skipped', { what: answer.warnings.map(explainRecordNote).join('; ') }));
      say(text);
    } catch (err) {
      say(t('badRecord', { name: file.name, reason: explainError(err) }));
    }
  });
  setInterval(tickClock, 100);
  window.addEventListener('pagehide', () => {
    if (game) saveGame(game, clock);
  });
  const loading = early('levels').then((l) => l ?? api.levels()).catch(() => []);
  applySettings();
  router.showPanel('game');
  const restored = restore();
  levels = await loading;
  applySettings();
  await restored;
  await router.start();
  document.body.dataset.ready = 'true';
}

start();
