// The endgame course: classic endings played against the exact endgame tables. The map lists
// the endings (`api.endings`); an ending shows its plan (a paragraph with a board
// picture), then its positions, played by clicking. The server makes the ending's table on
// first use (`api.prepareEnding`, "preparing the table…" meanwhile), judges each
// of the learner's moves and answers with the app's move (`api.playEnding`, the
// learner's moves sent whole each time); the page says what it is told: whether the result
// changed, the winning move after a slip, and at the end the moves used against the shortest.
// The learner's move lands first and the app's reply follows after the exercises' pause, on
// the loop the exercises share (exercise.js).
// Finished positions are kept in localStorage under `xiangqi.course.endgames`.

import * as api from './api.js';
import { Board, explainShapes, generalToMove, pickMove, shape } from './board.js';
import { actionButton, element } from './elements.js';
import { Exercise } from './exercise.js';
import { currentLanguage, sentences, t } from './i18n.js';
import { keepNames, nameOnLongPress } from './legend.js';
import { moveText } from './notation.js';
import { explainError } from './reasons.js';
import { keepProgress, trainedToday } from './progress.js';
import { read } from './settings.js';
import { learnTabs } from './learn-tabs.js';
import { pieceLook } from './pieces.js';
import { moveSound } from './sounds.js';

const PROGRESS_KEY = 'xiangqi.course.endgames';

const button = (action, text, extra) => actionButton('endgame', action, text, extra);

/** The positions finished, as `id#index`. */
function loadDone() {
  const saved = read(PROGRESS_KEY);
  return Array.isArray(saved?.done) ? saved.done.filter((d) => typeof d === 'string') : [];
}

/** An ending's name as the map and the lesson show it: the Chinese name, then the language's. */
export function endgameTitle(e) {
  return e.title === e.chinese ? e.chinese : `${e.chinese} — ${e.title}`;
}

/** A table's result for the learner (`{result, mate_in}`) in words: a win in N, a draw, a loss in N. */
function resultWords(r) {
  if (r.result === 'win') return t('endgames.resultWin', { n: r.mate_in });
  if (r.result === 'loss') return t('endgames.resultLoss', { n: r.mate_in });
  return t('endgames.resultDraw');
}

/** The endgame course inside `root`; `onShown(id)` hears what is shown (null: the map). */
export class Endgames extends Exercise {
  constructor(root, settings, { onShown }) {
    super();
    this.root = root;
    this.settings = settings;
    this.onShown = onShown;
    this.list = null;
    this.lang = null;
    this.done = loadDone();
    this.boardBox = element('div', { class: 'lesson-board', 'data-i18n-label': 'board' });
    this.board = new Board(this.boardBox, (square) => this.onPoint(square));
    keepNames(this.board);
    nameOnLongPress(this.board.svg);
    this.reset(null);
    root.addEventListener('click', (e) => {
      const target = e.target.closest('[data-endgame]');
      if (target && root.contains(target)) this.act(target.dataset.endgame, target);
    });
  }

  /** Shows `ending` (null: the map) from its plan; answers still to come are dropped. */
  reset(ending) {
    this.ending = ending;
    this.leavePosition();
  }

  /** Leaves the position played, if any: back to the ending's plan. */
  leavePosition() {
    this.newTurn();
    this.positionIndex = null;
    this.attempt = null;
    this.moves = [];
    this.fen = null;
    this.lastMove = null;
    this.ended = null;
    this.marks = [];
    this.selected = null;
    /** The plan's step shown (its pages, one at a time). */
    this.planStep = 0;
    /** The learner's move looked back at in the move list (its index), or null: the game now. */
    this.viewStep = null;
    this.state = 'idle';
    this.say('');
    this.preparing = false;
  }

  /** Opens ending `id` (its plan), or the map when there is none such. */
  async open(id = null) {
    this.root.hidden = false;
    if (!(await this.ensureList())) return;
    const ending = this.list.find((e) => e.id === id) ?? null;
    if (!ending || ending.id !== this.ending?.id) this.reset(ending);
    this.render();
    this.onShown?.(ending?.id ?? null);
  }

  async relabel() {
    if (this.root.hidden || !this.list) return;
    if (await this.ensureList()) {
      if (this.ending) this.ending = this.list.find((e) => e.id === this.ending.id) ?? null;
      this.render();
    }
  }

  async ensureList() {
    const lang = currentLanguage();
    if (this.list && this.lang === lang) return true;
    if (!this.list) this.root.replaceChildren(element('p', { class: 'course-note' }, t('loadingCourse')));
    try {
      this.list = await api.endings(lang);
      this.lang = lang;
      return true;
    } catch (e) {
      this.root.replaceChildren(element('p', { class: 'course-note bad', role: 'alert' }, t('courseUnavailable', { reason: explainError(e) })));
      return false;
    }
  }

  act(action, target) {
    switch (action) {
      case 'open': this.open(target.dataset.id); break;
      case 'map': this.reset(null); this.render(); this.onShown?.(null); break;
      case 'plan': this.leavePosition(); this.render(); break;
      case 'play': this.startPosition(Number(target.dataset.index)); break;
      case 'take-back':
        if (this.moves.length) this.send(this.moves.slice(0, -1));
        break;
      case 'again': this.startPosition(this.positionIndex); break;
      case 'plan-step':
        this.planStep = Math.max(0, Math.min(this.ending.pages.length - 1, this.planStep + Number(target.dataset.delta)));
        this.render();
        break;
      case 'view':
        this.viewStep = Number(target.dataset.step);
        this.selected = null;
        this.render();
        break;
      case 'view-back':
        this.viewStep = Math.max(0, (this.viewStep ?? this.attempt.steps.length) - 1);
        this.render();
        break;
      case 'now': this.viewStep = null; this.render(); break;
      default: break;
    }
  }

  /** Starts position `index` of the open ending: its table made first when it is missing. */
  async startPosition(index) {
    this.leavePosition();
    this.positionIndex = index;
    const turn = this.turn();
    if (this.ending.table !== 'ready') {
      const ending = this.ending;
      this.preparing = true;
      this.render();
      try {
        await api.prepareEnding(ending.id);
        ending.table = 'ready';
      } catch (e) {
        if (!turn.live()) return;
        this.preparing = false;
        this.say(() => t('endgames.tableFailed', { reason: explainError(e) }), 'bad');
        this.render();
        return;
      }
      if (!turn.live()) return;
      this.preparing = false;
    }
    await this.send([]);
  }

  /**
   * Plays the learner's `moves` on the server and shows the answer: a move just played lands
   * first, then the app's reply after the pause.
   */
  async send(moves) {
    const turn = this.newTurn();
    this.viewStep = null;
    const played = moves.length > this.moves.length;
    this.selected = null;
    // A move the rules refuse is explained from an answer, before it is sent (the attempt's
    // options are the legal moves).
    const legal = {};
    for (const o of this.attempt?.options ?? []) (legal[o.iccs.slice(0, 2)] ??= []).push(o.iccs.slice(2));
    const checked = played && this.attempt ? () => api.refuseIllegal(this.fen, moves.at(-1), legal) : async () => {};
    const attempt = await this.submit(moves.at(-1) ?? '', () => checked().then(() => api.playEnding(this.ending.id, this.positionIndex, moves)));
    if (!attempt) return;
    this.describe(attempt);
    const step = attempt.steps.at(-1);
    if (played && step?.reply) {
      moveSound(this.fen, step.mv.fen);
      this.fen = step.mv.fen;
      this.lastMove = step.mv;
      this.render();
      if (!(await this.pause(turn))) return;
    }
    this.attempt = attempt;
    this.moves = moves;
    if (played) moveSound(this.fen, attempt.fen, { check: attempt.check, ended: Boolean(attempt.ending) });
    this.fen = attempt.fen;
    this.lastMove = step ? (step.reply ?? step.mv) : null;
    this.ended = attempt.ending?.general ?? null;
    this.state = attempt.status === 'playing' ? 'playing' : 'over';
    if (attempt.status === 'won' || attempt.status === 'held') {
      if (played) trainedToday('ending');
      const key = `${this.ending.id}#${this.positionIndex}`;
      if (!this.done.includes(key)) {
        this.done.push(key);
        keepProgress(PROGRESS_KEY, { done: this.done });
      }
    }
    this.render();
  }

  /** Says what the server judged of `attempt`: the last move's verdict, and the end when it came. */
  describe(attempt) {
    const step = attempt.steps.at(-1);
    const n = attempt.now.mate_in;
    const best = () => moveText(step.best, this.settings.notation);
    const verdicts = {
      best: [() => t('endgames.best', { n }), 'good'],
      slower: [() => t('endgames.slower', { n, best: best() }), ''],
      slipped: [() => sentences(t('endgames.slipped', { best: best() }), this.compare(step), t('endgames.lookBack')), 'bad'],
      held: [() => t('endgames.held'), 'good'],
      lost: [() => sentences(t('endgames.lost', { n: step.after.mate_in, best: best() }), this.compare(step), t('endgames.lookBack')), 'bad'],
    };
    // A side left without a move is mated or stalemated: which, and which side, said first.
    const { ending } = attempt;
    const loser = ending && (attempt.fen.split(' ')[1] === 'b' ? 'black' : 'red');
    const how = () => (ending ? t(`end.${ending.code}.${loser}`) : '');
    const ends = {
      won: [() => sentences(how(), t('endgames.won', { used: attempt.moves_used, shortest: attempt.shortest })), 'good'],
      held: [() => t('endgames.heldToLimit', { limit: attempt.limit }), 'good'],
      'out-of-moves': [() => t('endgames.outOfMoves', { limit: attempt.limit }), 'bad'],
      lost: [() => sentences(how(), t('endgames.lostEnd')), 'bad'],
    };
    // A move that wins at once needs no verdict: the end says it.
    const [verdict, verdictTone] = (step && attempt.status !== 'won' && verdicts[step.verdict]) || [() => '', ''];
    const [end, endTone] = ends[attempt.status] ?? [() => '', ''];
    this.say(() => sentences(verdict(), end()), endTone || verdictTone);
  }

  /**
   * The table's reason after a move that was not the best: its result for the move played and
   * for the better one, and where to see both as arrows.
   */
  compare(step) {
    return t('endgames.compare', {
      played: moveText(step.mv, this.settings.notation), playedResult: resultWords(step.after),
      best: moveText(step.best, this.settings.notation), bestResult: resultWords(step.before),
    });
  }

  /** The position before the learner's move `k` of the attempt (the start for the first). */
  positionBefore(k) {
    const p = this.ending.positions[this.positionIndex];
    return k === 0 ? p.fen : this.attempt.steps[k - 1].reply?.fen ?? this.attempt.steps[k - 1].mv.fen;
  }

  /** The move list: each learner move with its mark, the one looked back at chosen, and the way back to now. */
  moveList() {
    const steps = this.attempt?.steps ?? [];
    const list = element('ol', { class: 'endgame-moves', 'aria-label': t('moves') });
    steps.forEach((s, k) => {
      const li = element('li');
      const mark = { best: '★', held: '✓', slower: '?!', slipped: '?', lost: '??' }[s.verdict] ?? '';
      const b = button('view', `${moveText(s.mv, this.settings.notation)} ${mark}`.trim(), {
        'data-step': String(k), 'data-verdict': s.verdict, 'aria-pressed': String(this.viewStep === k),
      });
      li.append(b);
      if (s.reply) li.append(' ', moveText(s.reply, this.settings.notation));
      list.append(li);
    });
    return list;
  }

  /** What the move looked back at was: the move played and the table's best, both results. */
  viewedText() {
    const s = this.attempt.steps[this.viewStep];
    const played = moveText(s.mv, this.settings.notation);
    if (s.best.iccs === s.mv.iccs || s.verdict === 'best') return t('endgames.viewedBest', { n: this.viewStep + 1, played, result: resultWords(s.after) });
    return sentences(t('endgames.viewed', { n: this.viewStep + 1 }), this.compare(s));
  }

  /** The learner's side: the side to move at the start of the position. */
  get side() {
    const { fen } = this.ending.positions[this.positionIndex];
    return fen.split(' ')[1] === 'b' ? 'black' : 'red';
  }

  onPoint(square) {
    if (this.state !== 'playing' || !this.attempt || this.viewStep !== null) return;
    const pick = pickMove(this.fen, this.side, this.selected, square);
    this.selected = pick.selected;
    if (pick.move) this.send([...this.moves, pick.move]);
    else this.render();
  }

  render() {
    if (!this.list) return;
    if (!this.ending) this.renderMap();
    else this.renderEnding();
  }

  renderMap() {
    const map = element('div', { class: 'course-map', 'data-course-map': 'endgames' });
    const tabs = learnTabs('endgames');
    const positions = this.list.reduce((n, e) => n + e.positions.length, 0);
    map.append(
      tabs,
      element('h2', {}, t('endgames.title')),
      element('p', {}, t('endgames.intro', { count: this.list.length })),
      element('p', { class: 'course-count' }, t('solvedCount', { solved: this.done.length, count: positions })),
    );
    const list = element('ol', { class: 'lesson-list' });
    for (const [i, e] of this.list.entries()) {
      const li = element('li', { 'data-ending': e.id });
      const b = button('open', '', { 'data-id': e.id });
      b.append(
        element('span', { class: 'lesson-n' }, String(i + 1)),
        element('span', { class: 'lesson-title' }, endgameTitle(e)),
        element('span', { class: 'lesson-mark' }, t(e.goal === 'win' ? 'endgames.goalWin' : 'endgames.goalDraw')),
      );
      if (e.positions.every((_, k) => this.done.includes(`${e.id}#${k}`))) {
        li.dataset.done = 'true';
        b.append(element('span', { class: 'lesson-mark done' }, `✓ ${t('lessonDone')}`));
      }
      li.append(b);
      list.append(li);
    }
    map.append(list);
    this.root.replaceChildren(map);
  }

  renderEnding() {
    const e = this.ending;
    const view = element('div', { class: 'lesson', 'data-endgame-view': e.id });
    const side = element('div', { class: 'lesson-side' });
    const nav = element('div', { class: 'row lesson-nav' });
    nav.append(button('map', `← ${t('endgames.all')}`));
    side.append(nav, element('h2', {}, endgameTitle(e)));
    this.board.style = pieceLook(this.settings);
    this.board.notation = this.settings.notation === 'chinese' ? 'chinese' : 'wxf';
    if (this.positionIndex === null) {
      // The plan, a step at a time: its picture with the key points and the moves as arrows.
      const at = Math.min(this.planStep, e.pages.length - 1);
      const page = e.pages[at];
      this.board.flipped = false;
      const arrows = (page.arrows ?? []).map(([from, to]) => shape.arrow(from, to, 'lesson'));
      this.board.render({ fen: page.fen, shapes: [...explainShapes(page.highlights), ...arrows] });
      side.append(element('p', { class: 'lesson-text', 'data-endgame-plan': String(at) }, page.text));
      if (e.pages.length > 1) {
        const steps = element('div', { class: 'row lesson-nav', 'data-plan-steps': String(e.pages.length) });
        const back = button('plan-step', `◀ ${t('stepBack')}`, { 'data-delta': '-1' });
        const on = button('plan-step', `${t('stepOn')} ▶`, { 'data-delta': '1' });
        back.disabled = at === 0;
        on.disabled = at === e.pages.length - 1;
        steps.append(back, ' ', element('span', { class: 'lesson-step' }, t('endgames.planStep', { n: at + 1, count: e.pages.length })), ' ', on);
        side.append(steps);
      }
      side.append(element('p', { class: 'course-note' }, t('endgames.tablesAre')));
      const choices = element('div', { class: 'row lesson-controls' });
      e.positions.forEach((p, i) => {
        const label = t('endgames.playPosition', { n: i + 1 });
        choices.append(button('play', label, { 'data-index': String(i), class: i === 0 ? 'primary' : '' }), ' ');
      });
      side.append(choices);
    } else {
      const p = e.positions[this.positionIndex];
      const a = this.attempt;
      view.dataset.position = String(this.positionIndex);
      view.dataset.moves = String(a?.moves_used ?? 0);
      this.board.flipped = this.side === 'black';
      const last = a?.steps.at(-1);
      if (this.viewStep !== null && a?.steps[this.viewStep]) {
        // A move looked back at: the position before it, the move played and the table's best.
        const s = a.steps[this.viewStep];
        const played = shape.arrow(s.mv.from, s.mv.to, s.verdict === 'best' || s.verdict === 'held' ? 'found' : 'refutation');
        const better = s.best.iccs !== s.mv.iccs ? [shape.arrow(s.best.from, s.best.to, 'hint')] : [];
        this.board.render({ fen: this.positionBefore(this.viewStep), shapes: [played, ...better] });
      } else {
        const check = a?.check && this.fen === a.fen ? generalToMove(a.fen) : null;
        this.board.render({ fen: this.fen ?? p.fen, selected: this.selected, check, shapes: this.shapes() });
      }
      side.append(element('p', { class: 'lesson-text goal' }, e.goal === 'win'
        ? t('endgames.taskWin', { n: p.mate_in, limit: p.limit })
        : t('endgames.taskDraw', { limit: p.limit })));
      const state = this.preparing ? 'preparing' : (a?.status ?? 'loading');
      const status = element('p', { class: 'lesson-step', 'data-endgame-status': state, role: 'status' });
      if (this.preparing) status.textContent = t('endgames.preparing');
      else if (a) status.textContent = t('endgames.movesUsed', { used: a.moves_used, limit: a.limit });
      side.append(status);
      const message = element('p', { class: `course-note ${this.tone}`, 'data-endgame-message': '', role: 'status' }, this.said());
      if (last) {
        message.dataset.verdict = last.verdict;
        message.dataset.best = last.best.iccs;
      }
      side.append(message);
      if (a?.steps.length) {
        side.append(this.moveList());
        const looking = element('div', { class: 'row lesson-nav' });
        const back = button('view-back', `◀ ${t('stepBack')}`);
        back.disabled = this.viewStep === 0;
        looking.append(back);
        if (this.viewStep !== null) {
          looking.append(' ', button('now', t('endgames.backToNow'), { class: 'primary' }));
          side.append(element('p', { class: 'course-note', 'data-endgame-viewed': String(this.viewStep) }, this.viewedText()));
        }
        side.append(looking);
      }
      const actions = element('div', { class: 'row lesson-controls' });
      if (this.moves.length && a) actions.append(button('take-back', t('endgames.takeBack')), ' ');
      actions.append(button('again', t('endgames.again')), ' ', button('plan', t('endgames.plan')));
      if (a && a.status !== 'playing' && this.positionIndex + 1 < e.positions.length) {
        actions.append(' ', button('play', t('endgames.playPosition', { n: this.positionIndex + 2 }), { 'data-index': String(this.positionIndex + 1), class: 'primary' }));
      }
      side.append(actions);
    }
    view.append(this.boardBox, side);
    this.root.replaceChildren(view);
  }
}
