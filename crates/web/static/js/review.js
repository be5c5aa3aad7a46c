// Game review: asks the server to judge every move (a stream of progress events, then the
// review), shows a progress bar while it works, then an evaluation graph that jumps to a move
// when clicked, each move's class in the move list, the selected move's better move and line,
// why a mistake was one (as what would follow, the engine's reply not being the game's), each
// side's accuracy and counts, and a legend that says what each mark means. Evaluations are
// from Red's side, and the panel says so.

import { reviewStream } from './api.js';
import { element, svgElement } from './elements.js';
import { t, pieceName } from './i18n.js';
import { scoreText } from './score.js';

/** The classes from best to worst, as the server names them. */
export const CLASSES = ['only', 'best', 'excellent', 'good', 'inaccuracy', 'mistake', 'blunder'];
/**
 * The mark each class carries in the move list: `!` only for an only move (the engine's
 * choice where every other move would have been a blunder), the PGN glyphs for the moves that
 * gave something away, and plain signs for the rest.
 */
export const SYMBOLS = { only: '!', best: '★', excellent: '✓', good: '○', inaccuracy: '?!', mistake: '?', blunder: '??' };
const GRAPH = { width: 300, height: 90 };

/** Red's expected score (0–1) for an evaluation `{cp}`, `{mate}` or `{end}`, as the review's model. */
function expected(score) {
  if (score.end !== undefined) return score.end === 'red' ? 1 : score.end === 'black' ? 0 : 0.5;
  if (score.mate !== undefined) return score.mate > 0 ? 1 : 0;
  return 1 / (1 + 10 ** (-score.cp / 400));
}

/** An evaluation for Red as the page shows it: `+1.35`, `−M3`, or the result. */
function evaluationText(score) {
  if (score.end !== undefined) return score.end === 'draw' ? t('draw') : t(`wins.${score.end}`);
  return scoreText(score);
}

/** The side an evaluation `{cp}` or `{mate}` favours: `red`, `black`, or `level` — the one rule every sentence about it follows. */
function favoured(score) {
  const p = expected(score);
  return p > 0.55 ? 'red' : p < 0.45 ? 'black' : 'level';
}

/** An evaluation for Red with whose side it favours: `+1.35 (Red is better)`, `+M2 (Red mates by force)`, or the result. */
export function evaluationSaid(score) {
  if (score.end !== undefined) return evaluationText(score);
  const verdict = score.mate !== undefined ? `${score.mate > 0 ? 'red' : 'black'}Mates` : favoured(score);
  return t('review.evalRed', { score: scoreText(score), verdict: t(`review.verdict.${verdict}`) });
}

/** The name of a class in the interface language. */
export function className(cls) {
  return t(`class.${cls}`);
}

/**
 * Why a move was a mistake, in the interface language, its reply in `notation`. The reply is
 * the engine's: when the game played it next (`played`, the next move's ICCS) the sentence
 * says what was played, else what would follow. A sentence on who stands better follows the
 * evaluation `score` shown beside it (the position after the mistake, for Red), never
 * against it: the answering side better, the mover still better but by less, or level.
 */
export function whyText(why, notation, { played = null, score = null, mover = null } = {}) {
  const move = why.reply[notation];
  const side = t(why.side);
  const mode = played === why.reply.iccs ? 'did' : 'if';
  const words = {
    move, side, sideOf: t(`of.${why.side}`), mover: mover ? t(mover) : '', moverOf: mover ? t(`of.${mover}`) : '',
    piece: why.piece ? pieceName(why.piece).toLowerCase() : '', square: why.square, moves: why.moves,
  };
  switch (why.kind) {
    case 'mate':
      return t(why.moves === 1 ? `review.${mode}.mate1` : `review.${mode}.mate`, words);
    case 'material':
      return t(`review.${mode}.material`, words);
    case 'threat':
      return t(`review.${mode}.threat`, words);
    default: {
      const lean = score && score.end === undefined ? favoured(score) : why.side;
      const said = lean === why.side ? 'positional' : lean === 'level' || !mover ? 'level' : 'less';
      return t(`review.${mode}.${said}`, words);
    }
  }
}

/**
 * How an endgame table judged a move, in the interface language, for a move that changed the
 * result or its distance (`table`: the change and the moves to mate before and after);
 * nothing for a move that kept them.
 */
function tableJudgement(table) {
  const n = table.best_mate;
  const m = table.played_mate;
  switch (table.change) {
    case 'win-thrown':
      return table.played === 'draw' ? t('review.table.winToDraw', { n }) : t('review.table.winToLoss', { n, m });
    case 'draw-slipped':
      return t('review.table.drawSlipped', { m });
    case 'slower':
      return t('review.table.slower', { n, m });
    case 'sooner':
      return t('review.table.sooner', { n, m });
    default:
      return '';
  }
}

/** The review panel of one game. */
export class Review {
  /**
   * `panel`: the element it fills; `browse(ply)`: shows the position after ply `ply`;
   * `notation()`: the notation chosen; `changed()`: redraws the page when the review is in.
   */
  constructor(panel, { browse, notation, changed }) {
    this.panel = panel;
    this.browse = browse;
    this.notation = notation;
    this.changed = changed;
    this.source = null;
    this.result = null;
    this.game = null;
    this.ply = null;
  }

  /** Whether the review shown belongs to `game` as it stands. */
  current(game) {
    return Boolean(game && this.game && this.game.id === game.id && this.game.version === game.version);
  }

  /** Forgets the review when `game` is no longer the game reviewed. */
  follow(game) {
    if (this.game && !this.current(game)) this.close();
  }

  /** Stops a review in progress and hides the panel. */
  close() {
    this.source?.close();
    this.source = null;
    this.result = null;
    this.game = null;
    this.panel.hidden = true;
    this.panel.replaceChildren();
  }

  /** Starts the review of `game`. */
  start(game) {
    this.close();
    this.game = { id: game.id, version: game.version };
    this.panel.hidden = false;
    const title = this.panel.appendChild(element('h2'));
    title.textContent = t('reviewing');
    const bar = this.panel.appendChild(element('progress', { id: 'review-progress', max: Math.max(1, game.moves.length), value: 0 }));
    const count = this.panel.appendChild(element('span', { class: 'review-count' }));
    const source = reviewStream(game.id);
    this.source = source;
    source.addEventListener('progress', (event) => {
      if (source !== this.source) return;
      const { done, total } = JSON.parse(event.data);
      bar.max = Math.max(1, total);
      bar.value = done;
      count.textContent = ` ${done} / ${total}`;
    });
    source.addEventListener('review', (event) => {
      if (source !== this.source) return;
      source.close();
      this.source = null;
      this.result = JSON.parse(event.data);
      this.changed();
    });
    source.addEventListener('failed', (event) => {
      if (source !== this.source) return;
      this.fail(event.data);
    });
    source.onerror = () => {
      if (source !== this.source) return;
      this.fail(t('reviewFailed'));
    };
  }

  fail(text) {
    this.source?.close();
    this.source = null;
    this.game = null;
    const p = element('p', { class: 'review-error' });
    p.textContent = text;
    this.panel.replaceChildren(p);
  }

  /** The judged move at `ply` (1 is the first move), if reviewed. */
  move(ply) {
    return this.result?.moves[ply - 1] ?? null;
  }

  /** The better move of the move at `ply`, as an arrow `{from, to}`, when it was not the best. */
  arrow(ply) {
    const m = this.move(ply);
    if (!m?.best || m.class === 'best') return null;
    return { from: m.best.from, to: m.best.to };
  }

  /** Adds each move's class mark to the spans of the move list `list`. */
  mark(list) {
    if (!this.result) return;
    for (const span of list.querySelectorAll('span[data-ply]')) {
      const m = this.move(Number(span.dataset.ply));
      if (!m) continue;
      span.classList.add(`judged-${m.class}`);
      span.title = className(m.class);
      const mark = span.appendChild(element('b', { class: 'judged', 'data-class': m.class, 'aria-label': className(m.class) }));
      mark.textContent = SYMBOLS[m.class];
    }
  }

  /** Fills the panel for the position after `ply`: graph, summary, and the move's details. */
  show(ply) {
    if (!this.result) return;
    this.ply = ply;
    const title = element('h2');
    title.textContent = t('review');
    const side = element('p', { class: 'review-side' });
    side.textContent = t('review.redSide');
    this.panel.replaceChildren(title, this.graph(ply), side, this.detail(ply), this.summary(), this.legend());
  }

  graph(ply) {
    const moves = this.result.moves;
    const { width, height } = GRAPH;
    const svg = svgElement('svg', { class: 'review-graph', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': t('evalGraph') });
    const step = width / Math.max(1, moves.length);
    const xOf = (k) => k * step;
    const pad = 5;
    const yOf = (p) => pad + (1 - p) * (height - 2 * pad);
    svgElement('rect', { x: 0, y: 0, width, height, class: 'graph-black' }, svg);
    const first = moves[0] ? expected(moves[0].best_score_red) : 0.5;
    const points = [[0, first], ...moves.map((m, i) => [i + 1, expected(m.score_red)])];
    const curve = points.map(([k, p]) => `${xOf(k).toFixed(1)},${yOf(p).toFixed(1)}`);
    svgElement('polygon', { points: `0,${height} ${curve.join(' ')} ${xOf(moves.length).toFixed(1)},${height}`, class: 'graph-red' }, svg);
    svgElement('line', { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: 'graph-mid' }, svg);
    if (ply !== null && ply > 0) svgElement('line', { x1: xOf(ply), y1: 0, x2: xOf(ply), y2: height, class: 'graph-now' }, svg);
    moves.forEach((m, i) => {
      if (!['inaccuracy', 'mistake', 'blunder'].includes(m.class)) return;
      const dot = svgElement('circle', { cx: xOf(i + 1), cy: yOf(expected(m.score_red)), r: 3.5, class: `graph-dot judged-${m.class}`, 'data-ply': i + 1 }, svg);
      svgElement('title', {}, dot).textContent = `${i + 1}. ${className(m.class)}`;
    });
    svg.addEventListener('click', (event) => {
      const box = svg.getBoundingClientRect();
      const x = ((event.clientX - box.left) / box.width) * width;
      this.browse(Math.max(0, Math.min(moves.length, Math.round(x / step))));
    });
    return svg;
  }

  detail(ply) {
    const box = element('div', { class: 'review-detail' });
    const m = ply ? this.move(ply) : null;
    if (!m) {
      box.textContent = t('reviewPick');
      return box;
    }
    const notation = this.notation();
    const head = box.appendChild(element('p'));
    const mark = head.appendChild(element('b', { class: `judged judged-${m.class}` }));
    mark.textContent = `${SYMBOLS[m.class]} ${className(m.class)}`;
    head.append(`  ${evaluationSaid(m.score_red)}`);
    if (m.best && m.class !== 'best') {
      const better = box.appendChild(element('p', { class: 'review-better' }));
      const line = (m.line[notation] ?? []).slice(0, 8).join(' ');
      better.textContent = t('betterMove', { move: m.best[notation], score: evaluationText(m.best_score_red), line });
      better.title = t('review.redSide');
    }
    const exact = m.table ? tableJudgement(m.table) : '';
    if (exact) box.appendChild(element('p', { class: 'review-table' })).textContent = exact;
    if (m.why && (m.class === 'mistake' || m.class === 'blunder')) {
      const why = box.appendChild(element('p', { class: 'review-why' }));
      why.textContent = whyText(m.why, notation, { played: this.move(ply + 1)?.played ?? null, score: m.score_red, mover: m.side });
    }
    return box;
  }

  summary() {
    const table = element('table', { class: 'review-summary' });
    const head = table.appendChild(element('thead')).appendChild(element('tr'));
    for (const text of ['', t('accuracy'), ...CLASSES.map((c) => SYMBOLS[c])]) head.appendChild(element('th')).textContent = text;
    CLASSES.forEach((c, i) => { head.children[i + 2].title = className(c); });
    const body = table.appendChild(element('tbody'));
    for (const side of ['red', 'black']) {
      const s = this.result[side];
      const row = body.appendChild(element('tr', { 'data-side': side }));
      row.appendChild(element('th')).textContent = t(side);
      row.appendChild(element('td')).textContent = `${s.accuracy.toFixed(1)}%`;
      for (const c of CLASSES) row.appendChild(element('td', { class: `judged-${c}`, title: className(c) })).textContent = String(s.counts[c] ?? 0);
    }
    return table;
  }

  /** What each mark of the table and the move list means, in words. */
  legend() {
    const box = element('div', { class: 'review-legend' });
    box.appendChild(element('h3')).textContent = t('review.legend');
    const list = box.appendChild(element('ul'));
    for (const c of CLASSES) {
      const item = list.appendChild(element('li', { 'data-class': c }));
      item.appendChild(element('b', { class: `judged judged-${c}` })).textContent = SYMBOLS[c];
      item.append(` ${t(`review.legend.${c}`)}`);
    }
    box.appendChild(element('p')).textContent = t('review.legend.scale');
    if (this.result.moves.some((m) => m.table)) {
      box.appendChild(element('p', { class: 'review-legend-tables' })).textContent = t('review.legend.tables');
    }
    return box;
  }
}
