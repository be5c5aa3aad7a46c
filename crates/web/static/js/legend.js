// The board legend: what every mark on the board means, with a small drawing of each, and
// the pieces' names — shown on hover (a title) or on a long press on a touch screen.

import { svgElement } from './elements.js';
import { pieceGlyph } from './pieces.js';
import { drawUnprotectedBadge } from './board.js';
import { t } from './i18n.js';

const LETTERS = ['K', 'A', 'B', 'N', 'R', 'C', 'P'];
/** How long a finger rests on a piece before its name is shown, in milliseconds. */
const LONG_PRESS_MS = 450;

/** The name of the piece with FEN letter `letter` in the interface language, with its colour. */
export function pieceTitle(letter) {
  return t(`piece.${letter}`);
}

/** Gives every piece on the board `svg` a title naming it (shown when the pointer rests on it). */
export function namePieces(svg) {
  for (const piece of svg.querySelectorAll('[data-piece]')) {
    piece.querySelector(':scope > title')?.remove();
    const title = svgElement('title');
    title.textContent = pieceTitle(piece.dataset.piece);
    piece.prepend(title);
  }
}

/** Makes `board` (a board.js Board) name its pieces after every drawing. */
export function keepNames(board) {
  const render = board.render.bind(board);
  board.render = (state) => {
    render(state);
    namePieces(board.svg);
  };
}

let tip = null;
let tipTimer = null;

function showTip(text, x, y) {
  if (!tip) {
    tip = document.createElement('div');
    tip.className = 'piece-tip';
    tip.setAttribute('role', 'status');
    document.body.append(tip);
  }
  tip.textContent = text;
  tip.hidden = false;
  tip.style.left = `${Math.max(8, Math.min(window.innerWidth - 8, x))}px`;
  tip.style.top = `${Math.max(8, y - 56)}px`;
  clearTimeout(tipTimer);
  tipTimer = setTimeout(() => { tip.hidden = true; }, 1800);
}

/** On a touch screen, pressing and holding a piece of the board `svg` shows its name. */
export function nameOnLongPress(svg) {
  let timer = null;
  let start = null;
  const cancel = () => {
    clearTimeout(timer);
    timer = null;
  };
  svg.addEventListener('pointerdown', (e) => {
    const piece = e.target.closest?.('[data-piece]');
    if (!piece || e.pointerType === 'mouse') return;
    start = [e.clientX, e.clientY];
    cancel();
    timer = setTimeout(() => showTip(pieceTitle(piece.dataset.piece), start[0], start[1]), LONG_PRESS_MS);
  });
  svg.addEventListener('pointermove', (e) => {
    if (timer && start && Math.hypot(e.clientX - start[0], e.clientY - start[1]) > 10) cancel();
  });
  for (const type of ['pointerup', 'pointercancel', 'pointerleave']) svg.addEventListener(type, cancel);
  svg.addEventListener('contextmenu', (e) => {
    if (e.target.closest?.('[data-piece]')) e.preventDefault();
  });
}

/** A small square of board with something drawn on it by `draw(svg)`. */
function swatch(draw) {
  const svg = svgElement('svg', { viewBox: '-36 -36 72 72', class: 'swatch', 'aria-hidden': 'true' });
  svgElement('rect', { x: -36, y: -36, width: 72, height: 72, class: 'board-bg' }, svg);
  svgElement('line', { x1: -36, y1: 0, x2: 36, y2: 0, class: 'swatch-line' }, svg);
  svgElement('line', { x1: 0, y1: -36, x2: 0, y2: 36, class: 'swatch-line' }, svg);
  draw(svg);
  return svg;
}

function piece(svg, letter, style, extra = '') {
  const p = pieceGlyph(letter, style, 26);
  p.classList.add('piece');
  for (const c of extra.split(' ').filter(Boolean)) p.classList.add(c);
  svg.append(p);
  return p;
}

function arrow(svg, kind) {
  svgElement('line', { x1: -26, y1: 22, x2: 14, y2: -18, class: `arrow ${kind}` }, svg);
  svgElement('path', { d: 'M28 -32 L4 -22 L18 -8 Z', class: `arrow-head ${kind}` }, svg);
}

/** Every mark the board draws: its legend key and its drawing. */
function marks(style) {
  return [
    ['legend.selected', (s) => piece(s, 'N', style, 'selected')],
    ['legend.target', (s) => svgElement('circle', { r: 8, class: 'target' }, s)],
    ['legend.captureTarget', (s) => { piece(s, 'r', style); svgElement('circle', { r: 29, class: 'target capture' }, s); }],
    ['legend.lastMove', (s) => { svgElement('rect', { x: -29, y: -29, width: 58, height: 58, rx: 6, class: 'last-move' }, s); piece(s, 'C', style); }],
    ['legend.check', (s) => piece(s, 'k', style, 'in-check')],
    ['legend.marker', (s) => { piece(s, 'n', style); svgElement('circle', { r: 29, class: 'capture-marker' }, s); }],
    ['legend.unprotected', (s) => {
      piece(s, 'r', style);
      svgElement('circle', { r: 29, class: 'capture-marker unprotected' }, s);
      drawUnprotectedBadge(s);
    }],
    ['legend.hint', (s) => arrow(s, 'hint')],
    ['legend.explain', (s) => svgElement('circle', { r: 30, class: 'explain still' }, s)],
    ['legend.lessonArrow', (s) => arrow(s, 'lesson')],
  ];
}

/** The legend in the dialog `dialog`, built afresh in the interface language on each opening. */
export class Legend {
  constructor(dialog) {
    this.dialog = dialog;
    dialog.addEventListener('click', (e) => {
      if (e.target === dialog || e.target.closest('[data-legend="close"]')) dialog.close();
    });
  }

  /** Opens the legend, drawing the pieces in `style` (`characters` or `european`). */
  open(style) {
    const title = document.createElement('h2');
    title.textContent = t('legendTitle');
    const list = document.createElement('ul');
    list.className = 'legend-marks';
    for (const [key, draw] of marks(style)) {
      const li = document.createElement('li');
      li.dataset.legend = key.split('.')[1];
      const text = document.createElement('span');
      text.textContent = t(key);
      li.append(swatch(draw), text);
      list.append(li);
    }
    const about = document.createElement('p');
    about.textContent = t('legend.pieces');
    const names = document.createElement('ul');
    names.className = 'legend-pieces';
    for (const letter of [...LETTERS, ...LETTERS.map((l) => l.toLowerCase())]) {
      const li = document.createElement('li');
      const svg = svgElement('svg', { viewBox: '-30 -30 60 60', class: 'swatch piece-swatch', 'aria-hidden': 'true' });
      const glyph = piece(svg, letter, style);
      svgElement('title', {}, glyph).textContent = pieceTitle(letter);
      const name = document.createElement('span');
      name.textContent = pieceTitle(letter);
      li.append(svg, name);
      names.append(li);
    }
    const close = document.createElement('button');
    close.type = 'button';
    close.dataset.legend = 'close';
    close.textContent = t('close');
    const box = document.createElement('div');
    box.className = 'legend-box';
    box.append(title, list, about, names, close);
    this.dialog.replaceChildren(box);
    if (!this.dialog.open) this.dialog.showModal();
    close.focus();
  }
}
