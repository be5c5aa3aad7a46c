// How pieces look: Chinese characters, or European-style symbols drawn in SVG.

import { svgElement } from './elements.js';

// The simplified characters, the ones every text of the app names the pieces by: the
// general, the advisor, the elephant and the soldier differ between the sides, the chariot,
// the horse and the cannon only by colour.
const SIMPLIFIED = {
  K: '帅', A: '仕', B: '相', N: '马', R: '车', C: '炮', P: '兵',
  k: '将', a: '士', b: '象', n: '马', r: '车', c: '炮', p: '卒',
};

// The traditional characters of printed books and wooden sets: here the chariot, the horse and
// the cannon differ between the sides too (俥/車, 傌/馬, 炮/包).
const TRADITIONAL = {
  K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
  k: '將', a: '士', b: '象', n: '馬', r: '車', c: '包', p: '卒',
};

/** The character sets: `simplified` and `traditional`, by FEN letter. */
export const CHARACTER_SETS = { simplified: SIMPLIFIED, traditional: TRADITIONAL };

/**
 * The order in which the mixed style shows the pieces as characters, one more each step:
 * general, chariot, horse, cannon, soldier, advisor, elephant (the pieces a beginner meets
 * first, and the characters that tell the sides apart last).
 */
export const LEARNING_ORDER = ['k', 'r', 'n', 'c', 'p', 'a', 'b'];

/**
 * How pieces look, from the settings: `characters`, `european` or `mixed` (European symbols
 * but for the first `knownPieces` of `LEARNING_ORDER`, drawn as characters), each with the
 * character set `characterSet`. A string, so that views can tell a change by comparing.
 */
export function pieceLook({ pieceStyle = 'characters', characterSet = 'simplified', knownPieces = 0 } = {}) {
  const set = CHARACTER_SETS[characterSet] ? characterSet : 'simplified';
  const known = Math.max(0, Math.min(LEARNING_ORDER.length, Number(knownPieces) || 0));
  return `${pieceStyle}:${set}:${known}`;
}

/** Whether `look` (see `pieceLook`; a bare style is read as one) draws `letter` as a character; its character set. */
function drawnAs(letter, look) {
  const [style, set = 'simplified', known = '0'] = String(look ?? 'characters').split(':');
  const chars = CHARACTER_SETS[set] ?? SIMPLIFIED;
  if (style === 'european') return null;
  if (style === 'mixed') return LEARNING_ORDER.indexOf(letter.toLowerCase()) < Number(known) ? chars : null;
  return chars;
}

/** The character of the piece `letter` in character set `set` (`simplified` or `traditional`). */
export function pieceCharacter(letter, set = 'simplified') {
  return (CHARACTER_SETS[set] ?? SIMPLIFIED)[letter];
}

// Symbols on a 40×40 box centred on the piece: crown, shield, elephant, horse, tower, cannon,
// soldier.
const SYMBOLS = {
  k: 'M-13 8 L-15 -8 L-7 -1 L0 -12 L7 -1 L15 -8 L13 8 Z M-13 11 H13 V14 H-13 Z',
  a: 'M0 -14 L12 -9 C12 3 7 10 0 14 C-7 10 -12 3 -12 -9 Z M0 -8 V8 M-6 -2 H6',
  b: 'M-12 8 V-2 C-12 -10 -4 -12 2 -11 C9 -10 12 -5 12 0 V6 C12 9 9 9 9 6 V3 L6 3 V8 H2 V3 H-5 V8 H-9 V3 '
    + 'C-10 0 -12 4 -12 8 Z M6 -8 C10 -6 11 -2 10 2 M-2 -7 A1.5 1.5 0 1 0 -2 -6.9',
  n: 'M-9 13 C-9 4 -4 1 -3 -3 C-7 -2 -10 -1 -11 -4 C-9 -9 -4 -13 2 -13 C9 -13 12 -5 11 4 L10 13 Z '
    + 'M-1 -8 A1.5 1.5 0 1 0 -1 -7.9',
  r: 'M-10 13 V10 H-7 V-4 H-10 V-13 H-5 V-9 H-2 V-13 H2 V-9 H5 V-13 H10 V-4 H7 V10 H10 V13 Z',
  c: 'M-14 3 L8 -9 L11 -3 L-11 8 Z M-9 9 a6 6 0 1 0 12 0 a6 6 0 1 0 -12 0 Z M-6 9 a3 3 0 1 0 6 0 a3 3 0 1 0 -6 0 Z',
  p: 'M0 -12 A5 5 0 1 0 0.1 -12 M-6 -4 C-3 -2 3 -2 6 -4 L8 10 H-8 Z M-11 10 H11 V13 H-11 Z',
};

/** Draws the piece with FEN letter `letter` as `look` says (see `pieceLook`) into a new SVG group, centred at 0,0. */
export function pieceGlyph(letter, look, radius) {
  const red = letter === letter.toUpperCase();
  const g = svgElement('g', { class: `piece-body ${red ? 'red' : 'black'}` });
  svgElement('circle', { r: radius, class: 'disc' }, g);
  svgElement('circle', { r: radius - 4, class: 'ring' }, g);
  const chars = drawnAs(letter, look);
  if (!chars) {
    svgElement('path', {
      d: SYMBOLS[letter.toLowerCase()], class: 'symbol', transform: `scale(${radius / 22})`, 'fill-rule': 'evenodd',
    }, g);
  } else {
    const text = svgElement('text', {
      class: 'glyph', 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': radius * 1.15,
    }, g);
    text.textContent = chars[letter];
  }
  return g;
}
