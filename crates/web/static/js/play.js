// Play: the game on the main board against the engine or a second player on the same screen.
// The server keeps the game; this view shows it (board, status, clocks, move list with its
// variations, opening, capture markers), sends the moves, asks the engine for its reply and
// for hints, streams the analysis, and holds the panels beside the board: the position
// editor, the explorer, the review, the FEN and the game files.

import * as api from './api.js';
import { renderAnalysis } from './analysis.js';
import { follow as followInArchive, resume as resumeFromArchive } from './archive.js';
import { Board, START_FEN, drawUnprotectedBadge, endedShapes, explainShapes, lastMoveShapes, piecesOfFen, shape } from './board.js';
import { Clock, formatTime } from './clock.js';
import { ask } from './dialogs.js';
import { Editor } from './editor.js';
import { element, svgElement } from './elements.js';
import { Explorer } from './explorer.js';
import { currentLanguage, pieceName, sentences, t } from './i18n.js';
import { keepNames, nameOnLongPress } from './legend.js';
import { renderMoveTree } from './movetree.js';
import { moveText } from './notation.js';
import { explainError, explainIllegal, explainOutcome, explainRecordNote } from './reasons.js';
import { downloadRecord, importRecord } from './records.js';
import { Review } from './review.js';
import { scoreText } from './score.js';
import { loadGame, saveGame, saveSettings } from './settings.js';
import { pieceLook } from './pieces.js';
import { moveSound } from './sounds.js';

const $ = (id) => document.getElementById(id);

/** The board part of the initial position's FEN. */
const INITIAL_BOARD = START_FEN.split(' ')[0];
/** Levels below this one (Club) ask before a move that leaves a piece hanging, unless the user chose. */
const SAFETY_NET_BELOW = 8;

const isRed = (piece) => piece === piece.toUpperCase();

/** The hint (or the review's better move) `{from, to}` as the board draws it. */
const hintArrows = (move) => (move ? [shape.arrow(move.from, move.to, 'hint')] : []);

/** The end of a game `o` (`{result, code, params}`) as the status line says it. */
function describeOutcome(o) {
  const winner = o.result === 'red-wins' ? 'red' : o.result === 'black-wins' ? 'black' : null;
  const result = winner ? t(`wins.${winner}`) : t('draw');
  return t('gameOverLine', { result, reason: explainOutcome(o) });
}

/** A ring as the board draws it, for the marker key: `unprotected` adds the "!" badge. */
function markerSwatch(unprotected) {
  const svg = svgElement('svg', { viewBox: '-34 -34 68 68', 'aria-hidden': 'true' });
  svgElement('circle', { r: 26, class: `capture-marker${unprotected ? ' unprotected' : ''}` }, svg);
  if (unprotected) drawUnprotectedBadge(svg, 18, -18);
  return svg;
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

/** How far the evaluation bar leans to Red for a score, in percent from the middle. */
function barLean(score) {
  const most = 48;
  if (score.mate !== undefined) return Math.sign(score.mate) * most;
  return Math.max(-most, Math.min(most, score.cp / 10));
}

/**
 * The Play view in the page's game panel `root`; `settings` is the app's settings object;
 * `engineName()` names the engine as a player at the level chosen; `onShown(game)` hears
 * each drawing of the game shown, for the address bar.
 */
/**
 * Scrolls the list `list` (a scrolling box) so that its item `item` shows, and nothing else:
 * the page itself stays where the player put it (an element's own scrollIntoView would move
 * the window too).
 */
function revealInList(list, item) {
  if (!item) return;
  const box = list.getBoundingClientRect();
  const at = item.getBoundingClientRect();
  if (at.top < box.top) list.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
}

/**
 * What a hinted move `h` does, in words, the most important first and at most two things: it
 * mates (or stalemates, which wins), it forces mate, it takes a piece, it checks, it attacks
 * a piece; empty when it does none of these.
 */
export function hintEffect(h) {
  const e = h.effect ?? {};
  const piece = (p) => ({ piece: pieceName(p.piece).toLowerCase(), square: p.square });
  if (e.ends) return t(e.ends === 'checkmate' ? 'hint.mates' : 'hint.stalemates');
  const said = [];
  if (h.score?.mate > 0) said.push(t('hint.matesIn', { n: h.score.mate }));
  if (e.captures) said.push(t('hint.takes', piece(e.captures)));
  if (e.check) said.push(t('hint.check'));
  if (e.threat) said.push(t('hint.attacks', piece(e.threat)));
  return said.slice(0, 2).join(t('hint.and'));
}

export class Play {
  constructor(root, settings, { engineName, onShown }) {
    this.root = root;
    this.settings = settings;
    this.engineName = engineName;
    this.onShown = onShown;
    /** The game as the server shows it. */
    this.game = null;
    /** The point picked up to move from. */
    this.selected = null;
    /** The points the message speaks of (an illegal move's reason). */
    this.highlights = [];
    /** The hint's arrow `{from, to}`. */
    this.arrow = null;
    /** Whether the engine is choosing its move. */
    this.thinking = false;
    /** Whether the position editor is open. */
    this.editing = false;
    this.message = '';
    this.clock = new Clock(settings.clock, loadGame()?.clock);
    this.analysisSource = null;
    /** The ply whose position the board shows while browsing the move list; null: the game now. */
    this.viewPly = null;
    /** The id of the game last opened from a file: it offers its review at once. */
    this.openedFromFile = null;
    this.board = new Board($('board'), (square) => this.onPoint(square));
    keepNames(this.board);
    nameOnLongPress(this.board.svg);
    this.editor = new Editor($('palette'), () => this.render());
    this.review = new Review($('review'), {
      browse: (ply) => this.browse(ply),
      notation: () => settings.notation,
      changed: () => this.render(),
    });
    this.explorer = new Explorer($('explorer'), {
      game: () => this.game,
      ply: () => this.viewPly ?? this.game.moves.length,
      notation: () => settings.notation,
      score: (s) => scoreText(s),
      play: (from, to) => this.playExplored(from, to),
    });
    api.onRestore((oldId, view) => this.followRestored(oldId, view));
    this.listen();
  }

  /** Hears the panel's buttons, fields and file input, the arrow keys, the clock's tick and the page's leaving. */
  listen() {
    this.root.addEventListener('click', (e) => {
      const button = e.target.closest('[data-action]');
      if (button && this.root.contains(button)) this.act(button.dataset.action);
    });
    $('safety-net').addEventListener('change', (e) => {
      this.settings.safetyNet = e.target.checked;
      saveSettings(this.settings);
    });
    $('editor-side').addEventListener('change', (e) => {
      this.editor.side = e.target.value;
      this.editor.validate();
    });
    $('editor-fen').addEventListener('input', (e) => {
      const [field, side] = e.target.value.trim().split(/\s+/);
      this.editor.side = side === 'b' ? 'b' : 'w';
      this.editor.set(piecesOfFen(field ?? ''));
    });
    document.addEventListener('keydown', (e) => this.onKey(e));
    $('record-file').addEventListener('change', (e) => {
      const file = e.target.files?.[0];
      e.target.value = '';
      if (file) this.openFile(file);
    });
    setInterval(() => this.tickClock(), 100);
    window.addEventListener('pagehide', () => {
      if (this.game) saveGame(this.game, this.clock);
    });
  }

  /** The arrow keys, Home and End browse the move list while the board has the keys. */
  onKey(e) {
    if (!this.game || this.editing || document.body.dataset.view !== 'game' || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest?.('input, select, textarea, svg, dialog')) return;
    const now = this.viewPly ?? this.game.moves.length;
    const ply = { ArrowLeft: now - 1, ArrowRight: now + 1, Home: 0, End: Infinity }[e.key];
    if (ply === undefined) return;
    e.preventDefault();
    this.browse(ply);
  }

  /** The settings (or the language) changed: the fields that follow them are set again. */
  relabel() {
    $('safety-net').checked = this.safetyNetOn();
    if (this.editing) this.editor.drawPalette(pieceLook(this.settings));
  }

  /** Setting `key` changed: the clock starts again on a new time control, and the game is drawn and analysed again. */
  settingChanged(key) {
    if (key === 'clock') this.clock = new Clock(this.settings.clock);
    if (key === 'clock' || key === 'analysis') {
      this.followClock();
      if (this.game) saveGame(this.game, this.clock);
    }
    this.render();
    if (key === 'analysis' || key === 'notation') this.analyse();
    this.engineTurn();
  }

  /** Says `text` under the status line. */
  say(text) {
    this.message = text;
    $('message').textContent = text;
  }

  /** The status line: whose move, check, the engine thinking, or how the game ended. */
  statusText() {
    if (this.editing) return t('setup');
    if (!this.game) return '';
    if (this.game.outcome) return describeOutcome(this.game.outcome);
    if (this.clock.flagged) {
      const winner = this.clock.flagged === 'red' ? 'black' : 'red';
      return t('gameOverLine', { result: t(`wins.${winner}`), reason: t(`lostOnTime.${this.clock.flagged}`) });
    }
    if (this.thinking) return t('thinking');
    if (this.game.check) return t(`inCheck.${this.game.turn}`);
    return t(`turn.${this.game.turn}`);
  }

  /** Shows the position after ply `ply` (0: the start) while browsing; the last ply ends browsing. */
  browse(ply) {
    if (!this.game) return;
    const last = this.game.moves.length;
    this.viewPly = ply >= last ? null : Math.max(0, ply);
    this.selected = null;
    this.render();
    revealInList($('moves'), $('moves').querySelector('span.current'));
  }

  /** Plays on in variation `variation` of the game's tree, showing the position after its ply `ply`. */
  async playVariation(variation, ply) {
    try {
      await this.show(await api.changeLine(this.game.id, variation, 'switch'));
      this.browse(ply);
    } catch (e) {
      if (!(await this.recover(e))) this.say(explainError(e));
    }
  }

  /** Makes the variation being played the main line (`promote`) or deletes it (`delete`). */
  async changeVariation(action) {
    if (!this.game?.tree || !this.game.line) return;
    try {
      await this.show(await api.changeLine(this.game.id, this.game.line, action));
    } catch (e) {
      if (!(await this.recover(e))) this.say(explainError(e));
    }
  }

  /**
   * The game's ECCO opening above the move list: the code and its own name in the interface
   * language (the view carries all three, so a change of language needs no request).
   */
  renderOpening() {
    const heading = $('opening');
    const o = this.game.opening;
    heading.hidden = !o;
    if (!o) return;
    const lang = currentLanguage();
    const name = o.title[lang] ?? o.title.en;
    heading.textContent = t('opening', { name: `${o.code} ${name}` });
    heading.title = [o.name, o.variation].filter(Boolean).join(' ');
    heading.dataset.code = o.code;
  }

  /** The move list: the move tree of a game with variations, else the moves two to a row. */
  renderMoves() {
    this.renderOpening();
    const list = $('moves');
    list.replaceChildren();
    const shown = this.viewPly ?? this.game.moves.length;
    const startsBlack = this.game.start_fen.split(' ')[1] === 'b';
    if (this.game.tree) {
      renderMoveTree(list, this.game, {
        notation: this.settings.notation,
        shown,
        browse: (ply) => this.browse(ply),
        playVariation: (variation, ply) => this.playVariation(variation, ply),
      });
    }
    const moves = this.game.tree ? [] : startsBlack ? [null, ...this.game.moves] : this.game.moves;
    for (let i = 0; i < moves.length; i += 2) {
      const li = document.createElement('li');
      for (const [k, m] of [moves[i], moves[i + 1]].entries()) {
        if (m === undefined) continue;
        const span = document.createElement('span');
        span.textContent = m ? moveText(m, this.settings.notation) : '…';
        if (m) {
          span.dataset.ply = String(i + k - (startsBlack ? 1 : 0) + 1);
          span.tabIndex = -1;
          span.addEventListener('click', () => this.browse(Number(span.dataset.ply)));
        }
        if (m && Number(span.dataset.ply) === shown) span.className = 'current';
        li.append(span);
      }
      list.append(li);
    }
    list.classList.toggle('browsing', this.viewPly !== null);
    $('line-actions').hidden = !(this.game.tree && this.game.line > 0);
    this.review.mark(list);
    if (this.viewPly === null) revealInList(list, list.lastElementChild);
  }

  /** Draws the game panel: the board, the status, the move list and the panels beside them. */
  render() {
    this.onShown?.(this.game);
    this.drawClocks();
    this.board.style = pieceLook(this.settings);
    this.board.notation = this.settings.notation;
    this.board.flipped = this.settings.flipped;
    $('status').textContent = this.statusText();
    $('message').textContent = this.message;
    this.showReviewOffer();
    $('editor').hidden = !this.editing;
    if (this.editing) {
      this.board.render({ pieces: this.editor.pieces });
      const verdict = $('editor-verdict');
      verdict.textContent = this.editor.verdict.message;
      verdict.className = `verdict ${this.editor.verdict.valid ? 'good' : 'bad'}`;
      if (document.activeElement !== $('editor-fen')) $('editor-fen').value = this.editor.fen();
      $('editor-side').value = this.editor.side;
      return;
    }
    if (!this.game) return;
    this.explorer.refresh();
    if (this.viewPly !== null) {
      const fen = this.viewPly === 0 ? this.game.start_fen : this.game.moves[this.viewPly - 1].fen;
      if (document.activeElement !== $('fen')) $('fen').value = fen;
      this.board.render({
        fen,
        selected: this.selected,
        shapes: [...lastMoveShapes(this.viewPly === 0 ? null : this.game.moves[this.viewPly - 1]), ...hintArrows(this.review.arrow(this.viewPly))],
      });
      this.renderMoves();
      this.review.show(this.viewPly);
      return;
    }
    const markers = this.shownMarkers();
    this.showMarkerKey(markers);
    this.board.render({
      fen: this.game.fen,
      selected: this.selected,
      targets: this.selected ? this.game.legal[this.selected] ?? [] : [],
      check: this.game.check,
      shapes: [
        ...lastMoveShapes(this.game.last_move),
        ...endedShapes(this.game.fen, this.game.outcome),
        ...markers.map((m) => shape.mark(m.square, m.unprotected ? 'unprotected' : 'attacked')),
        ...explainShapes(this.highlights),
        ...this.analysisShapes(),
        ...hintArrows(this.arrow ?? this.review.arrow(this.game.moves.length)),
      ],
    });
    this.renderMoves();
    this.review.show(this.game.moves.length);
    if (document.activeElement !== $('fen')) $('fen').value = this.game.fen;
  }

  /**
   * The capture markers the board shows: none when they are turned off or the game is over, and none on the opening
   * position before the first move (its four horses stand where a cannon could take them, which
   * is the same in every game and says nothing yet).
   */
  shownMarkers() {
    if (!this.settings.markers || this.game.outcome) return [];
    if (!this.game.moves.length && this.game.start_fen.split(' ')[0] === INITIAL_BOARD) return [];
    return this.game.markers;
  }

  /**
   * Explains the capture markers beside the board while the board shows some, until the user
   * says it is understood: which ring means what, and where to turn them off.
   */
  showMarkerKey(markers) {
    const key = $('marker-key');
    key.hidden = !markers.length || Boolean(this.settings.markerKeySeen);
    if (key.hidden) return;
    const entry = (unprotected, text) => {
      const span = element('span', { 'data-marker-key': unprotected ? 'unprotected' : 'attacked' });
      span.append(markerSwatch(unprotected), ` ${text}`);
      return span;
    };
    const seen = element('button', { type: 'button' }, t('markerKey.seen'));
    seen.addEventListener('click', () => {
      this.settings.markerKeySeen = true;
      saveSettings(this.settings);
      key.hidden = true;
    });
    key.replaceChildren(entry(false, t('markerKey.attacked')), entry(true, t('markerKey.unprotected')),
      document.createTextNode(t('markerKey.settings')), seen);
  }

  /** Offers the review of a finished game, or of one opened from a file, when it has moves. */
  showReviewOffer() {
    const ended = this.game && (this.game.outcome || this.clock.flagged || this.game.id === api.currentId(this.openedFromFile ?? ''));
    $('review-offer').hidden = this.editing || !ended || !this.game.moves.length || !$('review').hidden;
  }

  /** Whether a move that leaves a piece hanging is asked about first. */
  safetyNetOn() {
    return this.settings.safetyNet ?? (this.settings.mode === 'engine' && Number(this.settings.level) < SAFETY_NET_BELOW);
  }

  /**
   * The options of a move from `from` to `to` played now, or from the position browsed: the ply
   * it is played from and, when it is not the move the game went on with, whether it starts a
   * variation or replaces the rest (asked); null when the question was cancelled.
   */
  async moveOptions(from, to) {
    const options = { check_hanging: this.safetyNetOn() };
    if (this.viewPly === null) return options;
    options.ply = this.viewPly;
    if (this.game.moves[this.viewPly]?.iccs === `${from}${to}`) return options;
    const choice = await ask(t('branchQuestion'), [
      { key: 'variation', label: t('branchVariation'), primary: true },
      { key: 'replace', label: t('branchReplace') },
      { key: 'cancel', label: t('cancel') },
    ]);
    if (choice === 'cancel') return null;
    options.choice = choice;
    return options;
  }

  /** Whether the side to move is played on this screen. */
  humanToMove() {
    return this.settings.mode === 'two' || this.settings.analysis || this.game.turn === this.settings.humanColor;
  }

  /** Whether the game can go on: not finished and no flag fallen. */
  playable() {
    return this.game && !this.game.outcome && !this.clock.flagged;
  }

  /** The clock follows the game: it runs for the side to move, and stops while setting up or analysing. */
  followClock() {
    if (this.game) this.clock.follow(this.game, this.editing || this.settings.analysis);
  }

  /** Draws both clocks, the running one marked and a low one warned. */
  drawClocks() {
    const box = $('clocks');
    box.hidden = !this.clock.enabled;
    if (!this.clock.enabled) return;
    box.classList.toggle('flipped', Boolean(this.settings.flipped));
    for (const side of ['red', 'black']) {
      const face = box.querySelector(`[data-clock="${side}"]`);
      const ms = this.clock.remaining(side);
      face.textContent = `${t(side)}  ${formatTime(ms)}`;
      face.classList.toggle('running', this.clock.running === side);
      face.classList.toggle('low', ms < 20000);
    }
  }

  /** The clock's tick: a flag that falls ends the game and is kept. */
  tickClock() {
    const fallen = this.clock.flagged;
    if (this.clock.check() && !fallen) {
      if (this.game) saveGame(this.game, this.clock);
      this.keepInArchive();
      this.selected = null;
      this.render();
    }
    this.drawClocks();
  }

  /** Shows the game `view` as the server answered it, keeps it, and lets the engine and the analysis go on from it. */
  async show(view) {
    const before = this.game;
    // A move added to the game on the board is heard: not a new game, an undo or a reload.
    if (before && before.id === view.id && view.moves.length === before.moves.length + 1) {
      moveSound(before.fen, view.fen, { check: Boolean(view.check), ended: Boolean(view.outcome) });
    }
    this.game = view;
    this.viewPly = null;
    api.remember(view);
    this.selected = null;
    this.arrow = null;
    this.review.follow(view);
    this.followClock();
    saveGame(this.game, this.clock);
    this.keepInArchive();
    this.render();
    this.analyse();
    this.engineTurn();
  }

  /** The players of the game as the archive keeps them, and whose flag fell. */
  archivePlayers() {
    const engineName = this.engineName();
    const flagged = this.clock.flagged ?? null;
    if (this.settings.mode !== 'engine' || this.settings.analysis) return { red: t('red'), black: t('black'), level: null, flagged };
    const human = t('you');
    return {
      red: this.settings.humanColor === 'red' ? human : engineName,
      black: this.settings.humanColor === 'black' ? human : engineName,
      level: Number(this.settings.level),
      flagged,
    };
  }

  /** Tells the archive who plays the game shown; a save that failed is said. */
  keepInArchive() {
    if (this.game) followInArchive(this.game, this.archivePlayers(), (text) => this.say(text));
  }

  /**
   * Shows a game opened from My games (`{game, archived}`): to replay and review it, or to
   * play on; its review is started when `reviewed` and none was made before.
   */
  async openArchived({ game: view, archived }, reviewed = false) {
    this.clock = new Clock(this.settings.clock);
    this.highlights = [];
    this.say('');
    await this.show(view);
    if (archived.review) {
      // The review made before is shown again as it was.
      this.review.close();
      this.review.game = { id: view.id, version: view.version };
      this.review.result = archived.review;
      this.review.panel.hidden = false;
      this.render();
    } else if (reviewed) this.review.start(this.game);
  }

  /** Asks the engine for its move when it is the engine's turn. */
  async engineTurn() {
    if (this.thinking || !this.playable() || this.humanToMove() || this.editing) return;
    this.thinking = true;
    this.render();
    try {
      const timed = this.clock.enabled ? { clock_ms: Math.floor(this.clock.remaining(this.game.turn)), increment_ms: this.clock.increment } : {};
      const answer = await api.engineMove(this.game.id, this.settings.level, timed);
      this.game = answer.game;
      this.followClock();
      saveGame(this.game, this.clock);
      this.keepInArchive();
    } catch (e) {
      if (e.status !== 409) this.say(explainError(e));
    } finally {
      this.thinking = false;
    }
    this.render();
    this.analyse();
    this.engineTurn();
  }

  /** Shows the score on the evaluation bar: its lean and its number. */
  showEval(best) {
    $('eval-fill').style.height = `${50 + barLean(best)}%`;
    let number = $('eval-bar').querySelector('.eval-number');
    if (!number) {
      number = $('eval-bar').appendChild(element('span', { class: 'eval-number' }));
    }
    number.textContent = scoreText(best);
  }

  /** Shows the analysis `update` as the server streamed it, and its score on the evaluation bar. */
  showAnalysis(update) {
    this.showEval(update.lines[0]?.score_red ?? { cp: 0 });
    const box = $('analysis');
    renderAnalysis(box, update, { fen: this.game.fen, notation: this.settings.notation, turn: this.game.turn });
    box.dataset.version = String(update.version);
    const first = (update.lines ?? []).map((line) => line.pv?.[0]).filter(Boolean);
    if (first.join() !== (this.analysisArrows ?? []).join()) {
      this.analysisArrows = first;
      this.analysisFor = update.version;
      this.render();
    }
  }

  /** The analysis lines' first moves as arrows, the best the strongest; none when it is off or for another position. */
  analysisShapes() {
    if (!this.settings.analysis || !this.game || this.game.outcome || this.analysisFor !== this.game.version) return [];
    return (this.analysisArrows ?? []).slice(0, 3).map((m, i) => shape.arrow(m.slice(0, 2), m.slice(2, 4), `analysis-${i + 1}`));
  }

  /** Closes the analysis stream. */
  stopAnalysis() {
    this.analysisSource?.close();
    this.analysisSource = null;
  }

  /** Streams the analysis of the position shown; a newer position replaces it. */
  analyse() {
    this.stopAnalysis();
    const panel = $('analysis');
    panel.hidden = !this.settings.analysis;
    $('eval-bar').hidden = !this.settings.analysis;
    if (!this.settings.analysis || !this.game || this.game.outcome) {
      panel.replaceChildren();
      return;
    }
    const { id, version } = this.game;
    const source = api.analysisStream(id, 3, 30000);
    this.analysisSource = source;
    let heard = false;
    source.addEventListener('lines', (event) => {
      if (source !== this.analysisSource) return;
      heard = true;
      const update = JSON.parse(event.data);
      if (!this.game || this.game.id !== id || this.game.version !== version || update.version !== version) return;
      this.showAnalysis(update);
      if (update.done) this.stopAnalysis();
    });
    source.onerror = () => {
      if (source !== this.analysisSource) return;
      this.stopAnalysis();
      // A stream refused at once may be for a game the server dropped: asking for the game
      // brings it back (under a new id), and its analysis starts again.
      if (!heard) {
        api.getGame(id).then(() => {
          if (this.game && this.game.id !== id && !this.analysisSource) this.analyse();
        }).catch(() => {});
      }
    };
  }

  /** A game the server no longer has (404) is brought back: whether `error` was that. */
  async recover(error) {
    if (error.status === 404) {
      await this.restore();
      return true;
    }
    return false;
  }

  /** Plays `from`→`to`, asking first where the move branches or leaves a piece hanging. */
  async tryMove(from, to) {
    this.selected = null;
    try {
      // A move the rules refuse is explained without a failed request: the current position's
      // legal moves are known, an earlier one's are asked for.
      const shown = this.viewPly === null ? null : this.viewPly === 0 ? this.game.start_fen : this.game.moves[this.viewPly - 1].fen;
      await api.refuseIllegal(shown ?? this.game.fen, `${from}${to}`, shown ? null : this.game.legal);
      const options = await this.moveOptions(from, to);
      if (!options) {
        this.render();
        return;
      }
      let view = await api.playMove(this.game.id, from, to, options);
      if (view.hanging) {
        if (!(await playHangingMove(view.hanging))) {
          this.render();
          return;
        }
        view = await api.playMove(this.game.id, from, to, { ...options, check_hanging: false });
      }
      this.highlights = [];
      this.say('');
      await this.show(view);
    } catch (e) {
      if (await this.recover(e)) return;
      if (e.status === 422) {
        this.say(t('illegal', { reason: explainIllegal(e) }));
        this.highlights = e.highlights.length ? e.highlights : [from, to];
      } else this.say(explainError(e));
      this.render();
    }
  }

  /** Plays a move the opening explorer offers, as a move made on the board. */
  playExplored(from, to) {
    if (!this.game || this.thinking || this.editing) return;
    if (this.viewPly === null && (!this.playable() || !this.humanToMove())) {
      this.say(this.statusText());
      return;
    }
    this.tryMove(from, to);
  }

  /** A point of the board chosen: a piece picked up, a move played, or the browsing ended. */
  onPoint(square) {
    if (this.editing) {
      this.editor.place(square);
      this.render();
      return;
    }
    if (this.viewPly !== null) {
      // Browsing an earlier position: a piece of the side to move there is picked up and
      // played from there; any other click goes back to the game.
      const fen = this.viewPly === 0 ? this.game.start_fen : this.game.moves[this.viewPly - 1].fen;
      const piece = piecesOfFen(fen)[square];
      const mine = piece && isRed(piece) === (fen.split(' ')[1] !== 'b');
      if (!this.thinking && mine && this.selected !== square) {
        this.selected = square;
        this.render();
      } else if (!this.thinking && this.selected && !mine) this.tryMove(this.selected, square);
      else this.browse(Infinity);
      return;
    }
    if (!this.game || this.thinking) return;
    if (!this.playable()) {
      this.say(this.statusText());
      return;
    }
    if (!this.humanToMove()) return;
    const pieces = piecesOfFen(this.game.fen);
    const piece = pieces[square];
    const mine = piece && isRed(piece) === (this.game.turn === 'red');
    if (this.selected === square) this.selected = null;
    else if (mine) {
      this.selected = square;
      this.highlights = [];
      this.say('');
    } else if (this.selected) {
      this.tryMove(this.selected, square);
      return;
    } else if (piece) this.say(t(`notYours.${this.game.turn}`));
    this.render();
  }

  /** How many moves undo and redo step at once: the engine's reply goes with the move. */
  stepCount(available) {
    if (this.settings.mode !== 'engine' || this.settings.analysis) return 1;
    return Math.min(available, 2);
  }

  /**
   * Brings back the game of the last visit: `early` (a promise), when given, is the answer
   * to the request the page made for it before the modules loaded.
   */
  async restore(early = null) {
    const ready = await early;
    if (ready) {
      await this.show(ready);
      return;
    }
    const saved = loadGame();
    try {
      this.game = (await resumeFromArchive(saved)) ?? (saved ? await api.newGame(saved.fen, saved.moves, saved.redo) : await api.newGame(null));
    } catch {
      this.game = await api.newGame(null);
    }
    await this.show(this.game);
  }

  /** A game the server dropped and the page brought back: the page follows its new id. */
  followRestored(oldId, view) {
    if (this.game?.id !== oldId) return;
    this.game = view;
    saveGame(this.game, this.clock);
  }

  /** Does what the panel's button `action` stands for. */
  act(action) {
    switch (action) {
      case 'new': return this.newGame(null);
      case 'undo': return this.undo();
      case 'redo': return this.redo();
      case 'hint': return this.hint();
      case 'flip': return this.flip();
      case 'setup': return this.openEditor();
      case 'review': return this.game && this.review.start(this.game);
      case 'review-offer': return this.startReview();
      case 'explorer': return this.explorer.toggle();
      case 'editor-start': return this.startFromEditor();
      case 'editor-clear': return this.editor.set({});
      case 'editor-initial':
        this.editor.side = 'w';
        return this.editor.set(piecesOfFen(INITIAL_BOARD));
      case 'editor-cancel':
        this.editing = false;
        return this.render();
      case 'copy-fen': return this.copyFen();
      case 'load-fen': return this.newGame($('fen').value);
      case 'save-record': return this.saveRecord();
      case 'load-record': return $('record-file').click();
      case 'promote-line': return this.changeVariation('promote');
      case 'delete-line': return this.changeVariation('delete');
      default: return null;
    }
  }

  /** Starts a new game from `fen` (the initial position when null), on a new clock. */
  async newGame(fen) {
    try {
      this.highlights = [];
      this.say('');
      // A FEN that cannot be read is said from the check's answer, with no failed request.
      const view = await api.newGame(fen === null ? null : await api.checkedFen(fen));
      this.clock = new Clock(this.settings.clock);
      this.show(view);
    } catch (e) {
      this.say(fen === null ? explainError(e) : t('badFen', { reason: explainError(e) }));
    }
  }

  /** Takes back the last move, and the engine's reply before it in a game against the engine. */
  async undo() {
    const game = this.game;
    if (!game || game.moves.length === 0) return;
    let count = this.stepCount(game.moves.length);
    if (this.settings.mode === 'engine' && !this.settings.analysis && game.turn !== this.settings.humanColor) count = 1;
    this.highlights = [];
    this.say('');
    try {
      this.show(await api.undo(game.id, count));
    } catch (e) {
      if (!(await this.recover(e))) this.say(explainError(e));
    }
  }

  /** Replays what undo took back. */
  async redo() {
    if (!this.game || this.game.redo.length === 0) return;
    try {
      this.show(await api.redo(this.game.id, this.stepCount(this.game.redo.length)));
    } catch (e) {
      if (!(await this.recover(e))) this.say(explainError(e));
    }
  }

  /** Shows the engine's suggestion as an arrow and says it, with what it does, the most important first. */
  async hint() {
    if (!this.playable() || this.thinking) return;
    try {
      const h = await api.hint(this.game.id);
      this.arrow = { from: h.hint.from, to: h.hint.to };
      const move = moveText(h.hint, this.settings.notation);
      const what = hintEffect(h);
      this.say(what ? t('hintThreat', { move, threat: what }) : t('hintText', { move }));
      this.render();
    } catch (e) {
      if (!(await this.recover(e))) this.say(explainError(e));
    }
  }

  /** Turns the board round. */
  flip() {
    this.settings.flipped = !this.settings.flipped;
    saveSettings(this.settings);
    this.render();
  }

  /** Opens the position editor on the position shown. */
  openEditor() {
    this.editing = true;
    this.editor.style = pieceLook(this.settings);
    this.editor.open(piecesOfFen(this.game?.fen ?? ''), this.game?.turn === 'black' ? 'b' : 'w');
    this.render();
  }

  /** Starts a game from the editor's position, when it is a legal one. */
  async startFromEditor() {
    if (!this.editor.verdict.valid) {
      this.say(t('badFen', { reason: this.editor.verdict.message }));
      return;
    }
    try {
      const view = await api.newGame(this.editor.fen());
      this.editing = false;
      this.clock = new Clock(this.settings.clock);
      this.say('');
      this.highlights = [];
      this.show(view);
    } catch (e) {
      this.say(t('badFen', { reason: explainError(e) }));
    }
  }

  /** Copies the position's FEN. */
  async copyFen() {
    try {
      await navigator.clipboard.writeText(this.game.fen);
    } catch {
      $('fen').select();
      document.execCommand('copy');
    }
    this.say(t('copied'));
  }

  /** Downloads the game's record in the format chosen, with the players' names. */
  async saveRecord() {
    if (!this.game) return;
    const engineName = this.engineName();
    const human = t('you');
    const { humanColor } = this.settings;
    const names = this.settings.mode === 'engine'
      ? { red: humanColor === 'red' ? human : engineName, black: humanColor === 'black' ? human : engineName }
      : {};
    try {
      const { name, warnings } = await downloadRecord(this.game.id, $('record-format').value, names);
      let text = t('saved', { name });
      if (warnings.length) text = sentences(text, t('notKept', { what: warnings.map(explainRecordNote).join('; ') }));
      this.say(text);
    } catch (e) {
      if (!(await this.recover(e))) this.say(explainError(e));
    }
  }

  /** Opens the game in the record file `file` on the board, saying what could not be read. */
  async openFile(file) {
    try {
      const answer = await importRecord(file);
      this.highlights = [];
      this.clock = new Clock(this.settings.clock);
      this.openedFromFile = answer.game.id;
      await this.show(answer.game);
      let text = t('loaded', { name: file.name, index: answer.index + 1, games: answer.games });
      if (answer.warning) text = sentences(text, t('partly', { reason: explainRecordNote(answer.warning) }));
      if (answer.unreadable?.length) {
        text = sentences(text, t('unreadable', { count: answer.unreadable.length, what: answer.unreadable.map(explainRecordNote).join('; ') }));
      }
      if (answer.warnings?.length) text = sentences(text, t('skipped', { what: answer.warnings.map(explainRecordNote).join('; ') }));
      this.say(text);
    } catch (err) {
      this.say(t('badRecord', { name: file.name, reason: explainError(err) }));
    }
  }

  /** Starts the review the panel offers. */
  startReview() {
    if (!this.game) return;
    this.review.start(this.game);
    this.render();
  }
}
