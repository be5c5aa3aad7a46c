// The app: wires the board, the server's game, the settings and the controls together.

import * as api from './api.js';
import { Board, piecesOfFen } from './board.js';
import { Editor } from './editor.js';
import { setLanguage, t, translatePage, pieceName } from './i18n.js';
import { loadGame, loadSettings, saveGame, saveSettings } from './settings.js';

const settings = loadSettings();
const $ = (id) => document.getElementById(id);
const board = new Board($('board'), onPoint);
const editor = new Editor($('palette'), render);
let game = null;
let selected = null;
let highlights = [];
let arrow = null;
let thinking = false;
let editing = false;
let message = '';
let levels = [];

const isRed = (piece) => piece === piece.toUpperCase();
const sideName = (color) => t(color);

function say(text) {
  message = text;
  $('message').textContent = text;
}

function describeOutcome(o) {
  const winner = o.result === 'red-wins' ? 'red' : o.result === 'black-wins' ? 'black' : null;
  const result = winner ? t('wins', { side: sideName(winner) }) : t('draw');
  const loser = winner === 'red' ? 'black' : 'red';
  const reason = ['checkmate', 'stalemate'].includes(o.code) ? t(`end.${o.code}`, { loser: sideName(loser) }) : o.message;
  return `${t('gameOver')}: ${result}. ${reason}`;
}

function statusText() {
  if (editing) return t('setup');
  if (!game) return '';
  if (game.outcome) return describeOutcome(game.outcome);
  if (thinking) return t('thinking');
  if (game.check) return t('inCheck', { side: sideName(game.turn) });
  return t('turn', { side: sideName(game.turn) });
}

function renderMoves() {
  const list = $('moves');
  list.replaceChildren();
  const startsBlack = game.start_fen.split(' ')[1] === 'b';
  const moves = startsBlack ? [null, ...game.moves] : game.moves;
  for (let i = 0; i < moves.length; i += 2) {
    const li = document.createElement('li');
    for (const [k, m] of [moves[i], moves[i + 1]].entries()) {
      if (m === undefined) continue;
      const span = document.createElement('span');
      span.textContent = m ? m[settings.notation] : '…';
      if (m) span.dataset.ply = String(i + k - (startsBlack ? 1 : 0) + 1);
      if (m && Number(span.dataset.ply) === game.moves.length) span.className = 'current';
      li.append(span);
    }
    list.append(li);
  }
  list.lastElementChild?.scrollIntoView({ block: 'nearest' });
}

function render() {
  board.style = settings.pieceStyle;
  board.notation = settings.notation;
  board.flipped = settings.flipped;
  $('status').textContent = statusText();
  $('message').textContent = message;
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
  board.render({
    fen: game.fen,
    selected,
    targets: selected ? game.legal[selected] ?? [] : [],
    lastMove: game.last_move,
    check: game.check,
    markers: settings.markers ? game.markers : [],
    highlights,
    arrow,
  });
  renderMoves();
  if (document.activeElement !== $('fen')) $('fen').value = game.fen;
}

function humanToMove() {
  return settings.mode === 'two' || settings.analysis || game.turn === settings.humanColor;
}

async function show(view) {
  game = view;
  selected = null;
  arrow = null;
  saveGame(game);
  render();
  analyse();
  engineTurn();
}

async function engineTurn() {
  if (thinking || !game || game.outcome || humanToMove() || editing) return;
  thinking = true;
  render();
  try {
    const answer = await api.engineMove(game.id, settings.level);
    game = answer.game;
    saveGame(game);
  } catch (e) {
    if (e.status !== 409) say(e.message);
  } finally {
    thinking = false;
  }
  render();
  analyse();
  engineTurn();
}

async function analyse() {
  const panel = $('analysis');
  panel.hidden = !settings.analysis;
  $('eval-bar').hidden = !settings.analysis;
  if (!settings.analysis || !game || game.outcome) return;
  const version = game.version;
  const id = game.id;
  try {
    const lines = await api.analyse(id, 3, 700);
    if (!game || game.id !== id || game.version !== version) return;
    const best = lines[0]?.score_red ?? 0;
    $('eval-fill').style.height = `${50 + Math.max(-48, Math.min(48, best / 10))}%`;
    const ol = document.createElement('ol');
    for (const l of lines) {
      const li = document.createElement('li');
      li.textContent = `${(l.score_red / 100).toFixed(2)}  (${l.depth})  ${l.pv_wxf.slice(0, 8).join(' ')}`;
      ol.append(li);
    }
    const title = document.createElement('h2');
    title.textContent = `${t('analysis')} — ${t('score')}: ${(best / 100).toFixed(2)}`;
    panel.replaceChildren(title, ol);
  } catch {
    // A position that changed meanwhile is analysed by the next call.
  }
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
    const view = await api.playMove(game.id, from, to);
    highlights = [];
    say('');
    await show(view);
  } catch (e) {
    if (await recover(e)) return;
    if (e.status === 422) {
      say(t('illegal', { reason: e.message }));
      highlights = e.highlights.length ? e.highlights : [from, to];
    } else say(e.message);
    render();
  }
}

function onPoint(square) {
  if (editing) {
    editor.place(square);
    render();
    return;
  }
  if (!game || thinking) return;
  if (game.outcome) {
    say(describeOutcome(game.outcome));
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
  } else if (piece) say(t('notYours', { side: sideName(game.turn) }));
  render();
}

function stepCount(available) {
  if (settings.mode !== 'engine' || settings.analysis) return 1;
  return Math.min(available, 2);
}

const actions = {
  async new() {
    highlights = [];
    say('');
    show(await api.newGame(null));
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
      if (!(await recover(e))) say(e.message);
    }
  },
  async redo() {
    if (!game || game.redo.length === 0) return;
    try {
      show(await api.redo(game.id, stepCount(game.redo.length)));
    } catch (e) {
      if (!(await recover(e))) say(e.message);
    }
  },
  async hint() {
    if (!game || game.outcome || thinking) return;
    try {
      const h = await api.hint(game.id);
      arrow = { from: h.hint.from, to: h.hint.to };
      let text = t('hintText', { move: h.hint[settings.notation] });
      if (h.threat) text += ` — ${t('threatens', { piece: pieceName(h.threat.piece), square: h.threat.square })}`;
      say(text);
      render();
    } catch (e) {
      if (!(await recover(e))) say(e.message);
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
      say('');
      highlights = [];
      show(view);
    } catch (e) {
      say(t('badFen', { reason: e.message }));
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
      show(await api.newGame($('fen').value));
    } catch (e) {
      say(t('badFen', { reason: e.message }));
    }
  },
};

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
    o.textContent = `${t(`levels.${l.key}`)} (~${l.elo} Elo)`;
    return o;
  }));
  for (const input of document.querySelectorAll('[data-setting]')) {
    const value = settings[input.dataset.setting];
    if (input.type === 'checkbox') input.checked = Boolean(value);
    else input.value = String(value);
  }
  if (editing) editor.drawPalette(settings.pieceStyle);
}

function settingChanged(event) {
  const input = event.target;
  const key = input.dataset.setting;
  const value = input.type === 'checkbox' ? input.checked : input.value;
  settings[key] = key === 'level' ? Number(value) : value;
  if (key === 'humanColor') settings.flipped = value === 'black';
  saveSettings(settings);
  applySettings();
  render();
  if (key === 'analysis') analyse();
  engineTurn();
}

async function restore() {
  const saved = loadGame();
  try {
    game = saved ? await api.newGame(saved.fen, saved.moves, saved.redo) : await api.newGame(null);
  } catch {
    game = await api.newGame(null);
  }
  await show(game);
}

async function start() {
  for (const button of document.querySelectorAll('[data-action]')) {
    button.addEventListener('click', () => actions[button.dataset.action]?.());
  }
  for (const input of document.querySelectorAll('[data-setting]')) input.addEventListener('change', settingChanged);
  $('editor-side').addEventListener('change', (e) => {
    editor.side = e.target.value;
    editor.validate();
  });
  $('editor-fen').addEventListener('input', (e) => {
    const [field, side] = e.target.value.trim().split(/\s+/);
    editor.side = side === 'b' ? 'b' : 'w';
    editor.set(piecesOfFen(field ?? ''));
  });
  const loading = api.levels().catch(() => []);
  applySettings();
  const restored = restore();
  levels = await loading;
  applySettings();
  await restored;
  document.body.dataset.ready = 'true';
}

start();
