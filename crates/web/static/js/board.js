// Board rendering: the SVG board, its pieces and every mark on it. Each point is a group with
// data-square; the board reports clicks and keys through the `onPoint` callback.

import { svgElement } from './elements.js';
import { pieceGlyph } from './pieces.js';
import { t, pieceName } from './i18n.js';

const CELL = 60;
const MARGIN = 64;
/** The extra height under the board for a second row of file labels: the points' letters
 * above the files' numbers when the notation counts files by number. */
const NUMBERS_ROW = 30;
const FILES = 'abcdefghi';
/** Boards made so far: each has its own number, for the ids inside its drawing. */
let boardCount = 0;

/** The pieces of a FEN's board field, by ICCS point. */
export function piecesOfFen(fen) {
  const pieces = {};
  fen.split(' ')[0].split('/').forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else pieces[`${FILES[file++]}${9 - i}`] = ch;
    }
  });
  return pieces;
}

/** The position every game starts from, as FEN. */
export const START_FEN = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

/** The point of the general of the side to move in `fen` (null when it has none). */
export function generalToMove(fen) {
  const general = fen.split(' ')[1] === 'b' ? 'k' : 'K';
  return Object.entries(piecesOfFen(fen)).find(([, p]) => p === general)?.[0] ?? null;
}

/**
 * What choosing `square` does when `side` (`red` or `black`) moves by clicks in `fen`, with
 * `selected` the point picked before (or null): `{selected}`, the point picked now (one of
 * the side's pieces; null when the same point is chosen again), or `{selected: null, move}`,
 * the move (ICCS) from the picked point to `square`.
 */
export function pickMove(fen, side, selected, square) {
  const piece = piecesOfFen(fen)[square];
  const mine = piece && (piece === piece.toUpperCase()) === (side === 'red');
  if (selected === square) return { selected: null };
  if (mine) return { selected: square };
  if (selected) return { selected: null, move: `${selected}${square}` };
  return { selected };
}

/**
 * The shapes a view draws on a board, for `render`'s `shapes` list; `tone` says what a shape
 * shows and so how it looks.
 */
export const shape = {
  /** An arrow for the move `from`→`to`: tone `hint` (a suggested or better move), `lesson`
   * (a move a lesson points at), `found` (a move of the exercise already found) or
   * `refutation` (the answer to a wrong move). */
  arrow: (from, to, tone) => ({ type: 'arrow', from, to, tone }),
  /** A square under the point's piece: tone `last-move`. */
  highlight: (square, tone) => ({ type: 'highlight', square, tone }),
  /** A ring round a point: tone `explain` (a point a message speaks of). */
  circle: (square, tone) => ({ type: 'circle', square, tone }),
  /** A piece that can be captured next move, said in the point's label too: tone `attacked`,
   * or `unprotected` when none of its own side guards it. */
  mark: (square, tone) => ({ type: 'mark', square, tone }),
  /** The general of a side left without a legal move (mated or stalemated): a ring of its
   * own, said in the point's label. */
  ended: (square) => ({ type: 'ended', square }),
};

/** The "!" badge of an unprotected capture marker, at the upper right of the piece in `parent`. */
export function drawUnprotectedBadge(parent, x = 20, y = -20) {
  const badge = svgElement('g', { class: 'unprotected-badge', transform: `translate(${x} ${y})` }, parent);
  svgElement('circle', { r: 9 }, badge);
  svgElement('text', { 'text-anchor': 'middle', 'dominant-baseline': 'central' }, badge).textContent = '!';
  return badge;
}

/**
 * The ring round the general left without a move when `outcome` (a game's ending, `{code}`)
 * is a checkmate or a stalemate in `fen`; none otherwise.
 */
export function endedShapes(fen, outcome) {
  const general = outcome && ['checkmate', 'stalemate'].includes(outcome.code) ? generalToMove(fen) : null;
  return general ? [shape.ended(general)] : [];
}

/** The highlights of the last move `{from, to}`; none for null. */
export function lastMoveShapes(move) {
  return move ? [shape.highlight(move.from, 'last-move'), shape.highlight(move.to, 'last-move')] : [];
}

/** A ring of tone `explain` round each of `squares`. */
export function explainShapes(squares) {
  return (squares ?? []).map((square) => shape.circle(square, 'explain'));
}

/** An SVG board inside `container`; `onPoint(square)` is called when a point is chosen. */
export class Board {
  constructor(container, onPoint) {
    this.uid = ++boardCount;
    this.onPoint = onPoint;
    this.flipped = false;
    this.style = 'characters';
    this.focus = 'e0';
    this.svg = svgElement('svg', {
      viewBox: `0 0 ${CELL * 8 + MARGIN * 2} ${CELL * 9 + MARGIN * 2}`,
      class: 'board', role: 'grid',
    });
    container.append(this.svg);
    this.svg.addEventListener('keydown', (e) => this.key(e));
    this.svg.addEventListener('pointerdown', (e) => this.dragStart(e));
  }

  xy(square) {
    let file = FILES.indexOf(square[0]);
    let rank = Number(square[1]);
    if (this.flipped) {
      file = 8 - file;
      rank = 9 - rank;
    }
    return [MARGIN + file * CELL, MARGIN + (9 - rank) * CELL];
  }

  /** Whether the files carry numbers as well as the points' letters (WXF and Chinese notation). */
  get numberedFiles() {
    return this.notation === 'wxf' || this.notation === 'chinese';
  }

  drawGrid() {
    const width = CELL * 8 + MARGIN * 2;
    const height = CELL * 9 + MARGIN * 2 + (this.numberedFiles ? NUMBERS_ROW : 0);
    this.svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    const g = svgElement('g', { class: 'grid', 'aria-hidden': 'true' }, this.svg);
    svgElement('rect', { x: 0, y: 0, width, height, class: 'board-bg', rx: 10 }, g);
    const x0 = MARGIN, y0 = MARGIN, x1 = MARGIN + 8 * CELL, y1 = MARGIN + 9 * CELL;
    svgElement('rect', { x: x0, y: y0 + 4 * CELL, width: 8 * CELL, height: CELL, class: 'river' }, g);
    svgElement('rect', { x: x0 - 6, y: y0 - 6, width: 8 * CELL + 12, height: 9 * CELL + 12, class: 'frame' }, g);
    for (let r = 0; r < 10; r++) svgElement('line', { x1: x0, y1: y0 + r * CELL, x2: x1, y2: y0 + r * CELL }, g);
    for (let f = 0; f < 9; f++) {
      if (f === 0 || f === 8) svgElement('line', { x1: x0 + f * CELL, y1: y0, x2: x0 + f * CELL, y2: y1 }, g);
      else {
        svgElement('line', { x1: x0 + f * CELL, y1: y0, x2: x0 + f * CELL, y2: y0 + 4 * CELL }, g);
        svgElement('line', { x1: x0 + f * CELL, y1: y0 + 5 * CELL, x2: x0 + f * CELL, y2: y1 }, g);
      }
    }
    for (const top of [0, 7]) {
      const ya = y0 + top * CELL, yb = ya + 2 * CELL;
      svgElement('line', { x1: x0 + 3 * CELL, y1: ya, x2: x0 + 5 * CELL, y2: yb }, g);
      svgElement('line', { x1: x0 + 5 * CELL, y1: ya, x2: x0 + 3 * CELL, y2: yb }, g);
    }
    const riverY = y0 + 4.5 * CELL;
    const left = svgElement('text', { x: x0 + 2 * CELL, y: riverY, class: 'river-text', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g);
    left.textContent = this.flipped ? '汉 界' : '楚 河';
    const right = svgElement('text', { x: x0 + 6 * CELL, y: riverY, class: 'river-text', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g);
    right.textContent = this.flipped ? '楚 河' : '汉 界';
    // The points are named by letter and rank everywhere in the app's words (c4, e9), so the
    // letters are always drawn; with numbered files each side's numbers (counted from its own
    // right) stand at its own edge, the nearer side's under the letters.
    const label = (x, y, text, kind) => {
      svgElement('text', { x, y, class: `coord ${kind}`, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'data-coord': kind }, g).textContent = text;
    };
    for (let f = 0; f < 9; f++) {
      const file = this.flipped ? 8 - f : f;
      const x = x0 + f * CELL;
      if (!this.numberedFiles) {
        label(x, y0 - 44, FILES[file], 'letter');
        label(x, y1 + 44, FILES[file], 'letter');
        continue;
      }
      const far = this.flipped ? this.redFileLabel(file) : this.blackFileLabel(file);
      const near = this.flipped ? this.blackFileLabel(file) : this.redFileLabel(file);
      label(x, y0 - 44, far, this.flipped ? 'red-number' : 'black-number');
      label(x, y1 + 42, FILES[file], 'letter');
      label(x, y1 + 42 + NUMBERS_ROW, near, this.flipped ? 'black-number' : 'red-number');
    }
    for (let r = 0; r < 10; r++) {
      const rank = this.flipped ? r : 9 - r;
      label(x0 - 44, y0 + r * CELL, String(rank), 'rank');
    }
  }

  /** Black's number of `file` (0 = a): 1 at Black's right, file a. */
  blackFileLabel(file) {
    return String(file + 1);
  }

  /** Red's number of `file` (0 = a): 1 at Red's right, file i; Chinese numerals in Chinese. */
  redFileLabel(file) {
    const n = 9 - file;
    return this.notation === 'chinese' ? '一二三四五六七八九'[n - 1] : String(n);
  }

  /**
   * Draws everything from `state`: `{fen, pieces, selected, targets, check, shapes}` —
   * `pieces` (by point) stands for the FEN's board when given, `targets` are the points the
   * selected piece may go to, and `shapes` is the one list of what a view draws on top
   * (made with `shape`).
   */
  render(state) {
    this.state = state;
    this.svg.replaceChildren();
    this.drawGrid();
    const pieces = state.pieces ?? piecesOfFen(state.fen);
    const shapes = state.shapes ?? [];
    const on = (type) => shapes.filter((s) => s.type === type);
    const marks = svgElement('g', { class: 'marks', 'aria-hidden': 'true' }, this.svg);
    for (const { square, tone } of on('highlight')) {
      const [x, y] = this.xy(square);
      svgElement('rect', { x: x - 29, y: y - 29, width: 58, height: 58, rx: 6, class: tone }, marks);
    }
    const points = svgElement('g', { class: 'points' }, this.svg);
    const marksBy = Object.fromEntries(on('mark').map((m) => [m.square, m]));
    const circled = on('circle');
    const ended = new Set(on('ended').map((s) => s.square));
    for (let rank = 9; rank >= 0; rank--) {
      for (const f of FILES) {
        const sq = `${f}${rank}`;
        const [x, y] = this.xy(sq);
        const piece = pieces[sq];
        const point = svgElement('g', {
          'data-square': sq, class: 'point', role: 'gridcell', transform: `translate(${x} ${y})`,
          tabindex: sq === this.focus ? '0' : '-1',
        }, points);
        svgElement('circle', { r: 29, class: 'hit' }, point);
        let label = t('point', { square: sq }) + ': ';
        label += piece ? `${t(piece === piece.toUpperCase() ? 'red' : 'black')} ${pieceName(piece)}` : t('empty');
        if (piece) {
          const p = pieceGlyph(piece, this.style, 26);
          p.setAttribute('data-piece', piece);
          p.classList.add('piece');
          if (sq === state.selected) p.classList.add('selected');
          if (sq === state.check) p.classList.add('in-check');
          point.append(p);
        }
        const mark = marksBy[sq];
        if (mark) {
          const unprotected = mark.tone === 'unprotected';
          svgElement('circle', { r: 29, class: `capture-marker${unprotected ? ' unprotected' : ''}` }, point);
          // Nothing guards it: a badge with "!", a shape no other mark (the check's glow) has.
          if (unprotected) drawUnprotectedBadge(point);
          label += `, ${t('attacked')}${unprotected ? `, ${t('unprotected')}` : ''}`;
        }
        if (ended.has(sq)) {
          svgElement('circle', { r: 31, class: 'ended-ring' }, point);
          label += `, ${t('noLegalMove')}`;
        }
        if (state.targets?.includes(sq)) {
          svgElement('circle', { r: piece ? 29 : 8, class: piece ? 'target capture' : 'target' }, point);
        }
        for (const { tone } of circled.filter((c) => c.square === sq)) svgElement('circle', { r: 30, class: tone }, point);
        point.setAttribute('aria-label', label);
        point.addEventListener('click', () => this.choose(sq));
      }
    }
    this.drawArrows(on('arrow'));
  }

  /** Draws the arrow shapes; each line carries its move as `data-move` (e.g. `h2e2`). */
  drawArrows(arrows) {
    const drawn = arrows.filter(({ from, to }) => from && to && from !== to);
    if (!drawn.length) return;
    const defs = svgElement('defs', {}, this.svg);
    for (const tone of new Set(drawn.map((a) => a.tone))) {
      const marker = svgElement('marker', {
        id: `arrow-head-${tone}-${this.uid}`, markerWidth: 4, markerHeight: 4, refX: 2, refY: 2, orient: 'auto',
      }, defs);
      svgElement('path', { d: 'M0 0 L4 2 L0 4 Z', class: `arrow-head ${tone}` }, marker);
    }
    for (const { from, to, tone } of drawn) {
      const [x1, y1] = this.xy(from);
      const [x2, y2] = this.xy(to);
      const k = (Math.hypot(x2 - x1, y2 - y1) - 22) / Math.hypot(x2 - x1, y2 - y1);
      svgElement('line', {
        x1, y1, x2: x1 + (x2 - x1) * k, y2: y1 + (y2 - y1) * k, class: `arrow ${tone}`,
        'marker-end': `url(#arrow-head-${tone}-${this.uid})`, 'data-move': `${from}${to}`,
      }, this.svg);
    }
  }

  choose(square) {
    this.focus = square;
    this.onPoint(square);
  }

  key(event) {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      const sq = event.target.closest?.('[data-square]')?.dataset.square ?? this.focus;
      this.choose(sq);
      this.svg.querySelector(`[data-square="${sq}"]`)?.focus();
      return;
    }
    const step = moves[event.key];
    if (!step) return;
    event.preventDefault();
    const sign = this.flipped ? -1 : 1;
    const file = Math.min(8, Math.max(0, FILES.indexOf(this.focus[0]) + step[0] * sign));
    const rank = Math.min(9, Math.max(0, Number(this.focus[1]) + step[1] * sign));
    this.focus = `${FILES[file]}${rank}`;
    for (const p of this.svg.querySelectorAll('[data-square]')) {
      p.setAttribute('tabindex', p.dataset.square === this.focus ? '0' : '-1');
    }
    this.svg.querySelector(`[data-square="${this.focus}"]`)?.focus();
  }

  // Drag and drop: pressing on a piece chooses it; releasing over another point chooses that.
  dragStart(event) {
    const from = event.target.closest('[data-square]');
    if (!from || !from.querySelector('.piece') || event.button !== 0) return;
    const piece = from.querySelector('.piece');
    const pt = this.svg.createSVGPoint();
    const [x0, y0] = this.xy(from.dataset.square);
    let moved = false;
    const move = (e) => {
      pt.x = e.clientX;
      pt.y = e.clientY;
      const p = pt.matrixTransform(this.svg.getScreenCTM().inverse());
      if (!moved && Math.hypot(p.x - x0, p.y - y0) < 12) return;
      if (!moved) {
        moved = true;
        this.choose(from.dataset.square);
      }
      const live = this.svg.querySelector(`[data-square="${from.dataset.square}"] .piece`) ?? piece;
      live.setAttribute('transform', `translate(${p.x - x0} ${p.y - y0})`);
      live.classList.add('dragging');
    };
    const up = (e) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      if (!moved) return;
      const target = document.elementsFromPoint(e.clientX, e.clientY)
        .map((n) => n.closest?.('[data-square]')).find((n) => n && n.dataset.square !== from.dataset.square);
      if (target) this.choose(target.dataset.square);
      else this.render(this.state);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  }
}
