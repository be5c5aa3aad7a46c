// The opening explorer: for the position shown, in the first 20 moves of a game from the
// start, each move that leads to an ECCO opening, with the opening's code and name and the
// engine's evaluation; a click on a row plays the move through the page's normal move path.

import * as api from './api.js';
import { currentLanguage, t } from './i18n.js';
import { explainError } from './reasons.js';

/** The server's codes for positions the explorer does not cover, and their texts' keys. */
const REFUSALS = {
  'opening-not-from-start': 'explorerNotFromStart',
  'opening-too-late': 'explorerTooLate',
};

/** The opening's name as the page shows it: the code's own name in the interface language. */
export function openingName(o, lang = currentLanguage()) {
  return o.title[lang] ?? o.title.en;
}

/**
 * The rows in groups that lead to the same opening (the same code, entered or headed for the
 * same codes): one row each, so that no name stands twice — at the start, 炮二平五 and 炮八平五
 * are one Central Cannon. The group's first move is the one from the mover's right-hand side
 * (files f–i for Red, a–d for Black, `red` telling whose move it is), as books write it;
 * groups keep the server's order of their best-ranked move.
 */
export function sameOpening(rows, red) {
  const groups = new Map();
  for (const row of rows) {
    const key = `${row.enters}|${row.opening.code}|${row.toward.map((o) => o.code).join(',')}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(row);
  }
  const rightHand = (row) => (red ? row.move.from[0] > 'e' : row.move.from[0] < 'e');
  return [...groups.values()].map((group) => [...group.filter(rightHand), ...group.filter((r) => !rightHand(r))]);
}

export class Explorer {
  /**
   * `root`: the panel. `options`: `game()` the game view, `ply()` the ply shown, `notation()`
   * the move notation, `score(s)` a score's text, `play(from, to)` plays a move.
   */
  constructor(root, options) {
    this.root = root;
    this.options = options;
    /** The answer shown and the position it is for. */
    this.answer = null;
    this.key = null;
    this.error = null;
  }

  /** Whether the panel is open. */
  get open() {
    return !this.root.hidden;
  }

  /** Opens the panel, or closes it when open. */
  toggle() {
    this.root.hidden = !this.root.hidden;
    this.key = null;
    this.refresh();
  }

  /** Shows the continuations of the position now shown, asking the server when it changed. */
  refresh() {
    if (!this.open) return;
    const game = this.options.game();
    if (!game) return;
    const ply = this.options.ply();
    const key = `${game.id}:${game.version}:${ply}`;
    if (key !== this.key) {
      this.key = key;
      this.answer = null;
      this.error = null;
      this.load(game.id, ply, key);
    }
    this.render();
  }

  async load(id, ply, key) {
    try {
      const answer = await api.explorer(id, ply);
      if (this.key !== key) return;
      this.answer = answer;
    } catch (e) {
      if (this.key !== key) return;
      // A search stopped by the game's next move belongs to a position no longer shown.
      if (e.code === 'game-changed') return;
      this.error = e;
    }
    this.render();
  }

  render() {
    const title = document.createElement('h2');
    title.textContent = t('explorer');
    const parts = [title];
    if (this.error) {
      const p = document.createElement('p');
      const key = REFUSALS[this.error.code];
      p.textContent = key ? t(key) : explainError(this.error);
      p.className = 'explorer-note';
      parts.push(p);
    } else if (!this.answer) {
      const p = document.createElement('p');
      p.textContent = t('explorerLooking');
      p.className = 'explorer-note';
      parts.push(p);
    } else if (!this.answer.rows.length) {
      const p = document.createElement('p');
      p.textContent = t('explorerNone');
      p.className = 'explorer-note';
      parts.push(p);
    } else {
      parts.push(this.table(this.answer.rows));
    }
    this.root.replaceChildren(...parts);
    this.root.dataset.state = this.error ? 'error' : this.answer ? 'ready' : 'loading';
  }

  table(rows) {
    const table = document.createElement('table');
    const head = document.createElement('tr');
    for (const key of ['explorerMove', 'explorerCode', 'explorerOpening', 'explorerEval']) {
      const th = document.createElement('th');
      th.textContent = t(key);
      head.append(th);
    }
    const thead = document.createElement('thead');
    thead.append(head);
    const body = document.createElement('tbody');
    const notation = this.options.notation();
    const said = (row) => row.move[notation] ?? row.move.wxf;
    for (const group of sameOpening(rows, this.answer.ply % 2 === 0)) {
      const [row, ...also] = group;
      const tr = document.createElement('tr');
      tr.dataset.move = row.move.iccs;
      tr.dataset.code = row.opening.code;
      if (also.length) tr.dataset.also = also.map((r) => r.move.iccs).join(' ');
      tr.tabIndex = 0;
      const name = openingName(row.opening);
      // A move on the way to deeper codes shows the most general one and how many more.
      const code = row.enters ? row.opening.code
        : row.toward.length > 1 ? t('explorerToward', { code: row.opening.code, more: row.toward.length - 1 }) : `→ ${row.opening.code}`;
      const cells = [said(row), code, name, row.score_red ? this.options.score(row.score_red) : '—'];
      cells.forEach((text, i) => {
        const td = document.createElement('td');
        td.textContent = text;
        // The openings it heads for, each by its code and name in the interface language.
        if (i === 1 && !row.enters) td.title = row.toward.map((o) => `${o.code} ${openingName(o)}`).join('\n');
        if (i === 1) td.className = 'explorer-code';
        if (i === 3) td.className = 'explorer-eval';
        // The other moves to the same opening (the mirror image of the first), each playable.
        if (i === 0) {
          for (const other of also) {
            const button = document.createElement('button');
            button.type = 'button';
            button.className = 'explorer-also';
            button.dataset.move = other.move.iccs;
            button.textContent = said(other);
            button.title = t('explorerPlay', { move: said(other), name });
            button.addEventListener('click', (e) => {
              e.stopPropagation();
              this.options.play(other.move.from, other.move.to);
            });
            td.append(' ', button);
          }
        }
        tr.append(td);
      });
      tr.title = t('explorerPlay', { move: said(row), name });
      const play = () => this.options.play(row.move.from, row.move.to);
      tr.addEventListener('click', play);
      tr.addEventListener('keydown', (e) => {
        if (e.target !== tr) return;
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          play();
        }
      });
      body.append(tr);
    }
    table.append(thead, body);
    return table;
  }
}
