// The position editor: place pieces from a palette, pick the side to move, and see the rules
// core's verdict on the position as it changes.

import { checkFen } from './api.js';
import { svgElement } from './elements.js';
import { pieceGlyph } from './pieces.js';
import { t, pieceName } from './i18n.js';
import { explainError, explainFen } from './reasons.js';

const FILES = 'abcdefghi';
const LETTERS = ['K', 'A', 'B', 'N', 'R', 'C', 'P', 'k', 'a', 'b', 'n', 'r', 'c', 'p'];

/** The FEN of `pieces` (by ICCS point) with `side` (`w` or `b`) to move. */
export function fenOf(pieces, side) {
  const rows = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = '';
    let gap = 0;
    for (const f of FILES) {
      const p = pieces[`${f}${rank}`];
      if (p) {
        row += (gap || '') + p;
        gap = 0;
      } else gap++;
    }
    rows.push(row + (gap || ''));
  }
  return `${rows.join('/')} ${side} - - 0 1`;
}

/** The editor's state and its palette inside `palette`; `changed()` is called on every edit. */
export class Editor {
  constructor(palette, changed) {
    this.palette = palette;
    this.changed = changed;
    this.pieces = {};
    this.side = 'w';
    this.tool = 'K';
    this.verdict = { valid: false, message: '' };
  }

  /** Starts editing from `pieces`. */
  open(pieces, side) {
    this.pieces = { ...pieces };
    this.side = side;
    this.drawPalette();
    this.validate();
  }

  drawPalette(style = this.style) {
    this.style = style;
    this.palette.replaceChildren();
    for (const letter of [...LETTERS, '']) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.tool = letter;
      button.setAttribute('aria-pressed', String(this.tool === letter));
      const label = letter ? `${t(letter === letter.toUpperCase() ? 'red' : 'black')} ${pieceName(letter)}` : t('eraser');
      button.setAttribute('aria-label', label);
      button.title = label;
      if (letter) {
        const svg = svgElement('svg', { viewBox: '-28 -28 56 56' }, button);
        svg.append(pieceGlyph(letter, style, 26));
      } else button.textContent = '⌫';
      button.addEventListener('click', () => {
        this.tool = letter;
        this.drawPalette();
      });
      this.palette.append(button);
    }
  }

  /** Applies the current tool to `square`. */
  place(square) {
    if (this.tool && this.pieces[square] !== this.tool) this.pieces[square] = this.tool;
    else delete this.pieces[square];
    this.validate();
  }

  /** Replaces the position with `pieces`. */
  set(pieces) {
    this.pieces = { ...pieces };
    this.validate();
  }

  /** The FEN being edited. */
  fen() {
    return fenOf(this.pieces, this.side);
  }

  async validate() {
    const fen = this.fen();
    try {
      const answer = await checkFen(fen);
      if (fen === this.fen()) this.verdict = answer.valid ? { valid: true, message: t('valid') } : { valid: false, message: explainFen(answer) };
    } catch (e) {
      this.verdict = { valid: false, message: explainError(e) };
    }
    this.changed();
  }
}
