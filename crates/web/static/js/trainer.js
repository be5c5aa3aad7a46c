// The trainer: the learner picks a named opening line and a side, plays that side's
// moves while the server answers along the line's branches (`api.trainerMove`); a
// move off the line is named with the main line's move and the engine's evaluation after
// each, with Try again and Show the line. Each line, side and branch is a card of a
// spaced-repetition schedule kept by the server in the games archive; the page shows what is
// due and what is learnt, and offers the most overdue card next. The last choice of line and
// side is kept in localStorage under `xiangqi.trainer`.

import * as api from './api.js';
import { Board, START_FEN, pickMove } from './board.js';
import { actionButton, element, labelledSelect } from './elements.js';
import { currentLanguage, t, sentences } from './i18n.js';
import { keepNames, nameOnLongPress } from './legend.js';
import { Exercise } from './exercise.js';
import { moveText } from './notation.js';
import { explainError } from './reasons.js';
import { scoreText } from './score.js';
import { read, write } from './settings.js';
import { pieceLook } from './pieces.js';
import { trainedToday } from './progress.js';

const STORE_KEY = 'xiangqi.trainer';


/** A button for one of this view's actions. */
const button = (action, text, extra) => actionButton('trainer', action, text, extra);

/** A server refusal in the interface language: the trainer's own codes here, the rest as anywhere. */

/**
 * The trainer inside `root`; `settings` is the app's settings object (symbols,
 * notation); `onShown(run)` hears the run shown (`{line, side}`, null for the choice of
 * lines), for the address bar.
 */
export class Trainer extends Exercise {
  constructor(root, settings, { onShown } = {}) {
    super();
    this.root = root;
    this.settings = settings;
    this.onShown = onShown;
    this.catalogue = null;
    this.run = null;
    this.choice = { line: '', side: 'black', ...(read(STORE_KEY) ?? {}) };
    this.state = 'idle';
    this.boardBox = element('div', { class: 'trainer-board' });
    this.board = new Board(this.boardBox, (square) => this.onPoint(square));
    keepNames(this.board);
    nameOnLongPress(this.board.svg);
    root.addEventListener('click', (e) => {
      const target = e.target.closest('button[data-trainer]');
      if (target && root.contains(target)) this.act(target.dataset.trainer);
    });
    root.addEventListener('change', (e) => {
      const field = e.target.dataset?.trainerChoice;
      if (!field) return;
      this.choice[field] = e.target.value;
      write(STORE_KEY, this.choice);
      if (field === 'line') this.showLineChosen();
      if (field === 'side') this.refresh();
    });
  }

  /**
   * Opens the trainer: the catalogue and the learner's progress, read again each time; with
   * `run` (`{line, side}`) a run of that line from that side (the one under way is kept).
   */
  async open(run = null) {
    this.root.hidden = false;
    if (!this.catalogue) this.root.replaceChildren(element('p', { class: 'course-note' }, t('trainer.loading')));
    await this.refresh();
    if (run && this.catalogue && !(this.run?.line === run.line && this.run?.side === run.side)) await this.start(run.line, run.side);
  }

  /** Reads the catalogue and the cards again. */
  async refresh() {
    try {
      this.catalogue = await api.trainerCatalogue(this.choice.side);
      if (!this.catalogue.lines.some((l) => l.id === this.choice.line)) this.choice.line = this.catalogue.lines[0]?.id ?? '';
    } catch (e) {
      if (!this.catalogue) {
        this.root.replaceChildren(element('p', { class: 'course-note bad', role: 'alert' }, t('trainer.unavailable', { reason: explainError(e) })));
        return;
      }
    }
    this.render();
  }

  /** The interface language or a setting changed: the texts are drawn again. */
  relabel() {
    if (!this.root.hidden && this.catalogue) this.render();
  }

  lineOf(id) {
    return this.catalogue?.lines.find((l) => l.id === id);
  }

  lineName(id) {
    const line = this.lineOf(id);
    return line ? line.name[currentLanguage()] ?? line.name.en : id;
  }

  act(action) {
    switch (action) {
      case 'start': this.start(this.choice.line, this.choice.side); break;
      case 'next': {
        const next = this.catalogue?.next;
        if (next) this.start(next.line, next.side, next.branch);
        break;
      }
      case 'retry': this.retry(); break;
      case 'show': this.showLine(); break;
      case 'again': this.start(this.run.line, this.run.side, this.run.branch); break;
      default: break;
    }
  }

  /** Starts a run of `line` from `side` (the branch the schedule's, unless given). */
  async start(line, side, branch) {
    const turn = this.newTurn();
    this.choice = { line, side };
    write(STORE_KEY, this.choice);
    try {
      const begun = await api.startTraining(branch ? { line, side, branch } : { line, side });
      if (!turn.live()) return;
      this.run = { line, side, branch: begun.branch, moves: [...begun.moves], missed: false, plies: begun.plies, card: begun.card };
      this.progress = begun.progress;
      this.fen = begun.moves.at(-1)?.fen ?? START_FEN;
      this.lastMove = begun.moves.at(-1) ?? null;
      this.selected = null;
      this.marks = [];
      this.state = 'playing';
      this.say(() => t('trainer.yourMove', { side: t(side), line: this.lineName(line) }));
    } catch (e) {
      if (!turn.live()) return;
      this.say(() => explainError(e), 'bad');
    }
    this.render();
  }

  onPoint(square) {
    if (this.state !== 'playing') return;
    const { selected, move } = pickMove(this.fen, this.run.side, this.selected, square);
    this.selected = selected;
    if (move) this.play(move);
    else this.drawBoard();
  }

  /** Sends the learner's `move` (ICCS): the app's reply, the end of the line, or why it leaves it. */
  async play(move) {
    const turn = this.turn();
    const run = this.run;
    const answer = await this.submit(move, () => api.trainerMove({
        line: run.line, side: run.side, branch: run.branch,
        moves: run.moves.map((m) => m.iccs), move, missed: run.missed,
      }));
    if (!answer) return;
    if (answer.record) this.noteRecord(answer.record);
    if (!answer.on_line) {
      this.offLine(answer);
      return;
    }
    run.branch = answer.branch;
    this.advance(answer.played);
    if (answer.reply) {
      this.say(() => t('trainer.onLine'), 'good');
      this.render();
      if (!(await this.pause(turn))) return;
      this.advance(answer.reply);
    }
    if (answer.done) {
      this.finish();
      return;
    }
    this.state = 'playing';
    this.say(() => t('trainer.onLine'), 'good');
    this.render();
  }

  advance(move) {
    this.run.moves.push(move);
    this.fen = move.fen;
    this.lastMove = move;
  }

  /** The card's new place after a recorded run, and whether it was saved. */
  noteRecord(record) {
    this.run.card = record.card;
    trainedToday('card');
    this.progress = record.progress;
    this.refreshLater();
  }

  /** Reads the progress again without disturbing the run. */
  async refreshLater() {
    try {
      this.catalogue = await api.trainerCatalogue(this.choice.side);
      this.render();
    } catch {
      // The progress list stays as it was.
    }
  }

  /** A move off the line: shown on the board, named, with the engine's view and the choices. */
  offLine(answer) {
    this.run.missed = true;
    this.deviation = answer;
    this.state = 'off';
    this.fen = answer.played.fen;
    this.lastMove = answer.played;
    this.marks = [answer.main.from, answer.main.to];
    this.say(() => this.deviationText(answer), 'bad');
    this.render();
  }

  /** "This leaves the line; the main line is 马8进7. Engine: …" in the interface language. */
  deviationText(answer) {
    let text = t('trainer.leaves', { move: moveText(answer.played, this.settings.notation), main: moveText(answer.main, this.settings.notation) });
    if (answer.engine) {
      text = sentences(text, t('trainer.engineView', { played: scoreText(answer.engine.played), main: scoreText(answer.engine.main) }));
    } else text = sentences(text, t('trainer.engineBusy'));
    return text;
  }

  /** Back to the position before the move off the line. */
  retry() {
    if (this.state !== 'off') return;
    const last = this.run.moves.at(-1);
    this.fen = last?.fen ?? START_FEN;
    this.lastMove = last ?? null;
    this.marks = [];
    this.state = 'playing';
    this.say(() => t('trainer.tryAgain'));
    this.render();
  }

  /** Plays the main line's move for the learner and goes on along the line. */
  async showLine() {
    if (this.state !== 'off') return;
    const main = this.deviation.main;
    this.retry();
    await this.play(main.iccs);
  }

  /** The end of the line: said, with the card's new place. */
  finish() {
    this.state = 'done';
    this.selected = null;
    const name = this.lineName(this.run.line);
    this.say(() => (this.run.missed ? t('trainer.doneMissed', { line: name }) : t('trainer.doneClean', { line: name })), 'good');
    this.render();
  }

  drawBoard() {
    this.board.style = pieceLook(this.settings);
    this.board.notation = this.settings.notation;
    this.board.flipped = (this.run?.side ?? this.choice.side) === 'black';
    this.board.render({
      fen: this.fen ?? START_FEN,
      selected: this.selected,
      shapes: this.shapes(),
    });
  }

  render() {
    if (!this.catalogue) return;
    const view = element('div', { class: 'trainer', 'data-state': this.state });
    if (this.run) Object.assign(view.dataset, { line: this.run.line, side: this.run.side, branch: this.run.branch, ply: String(this.run.moves.length) });
    const side = element('div', { class: 'trainer-side' });
    side.append(element('h2', {}, t('trainer.title')), this.picker());
    if (this.run) side.append(element('p', { class: 'trainer-info' }, this.runInfo()));
    side.append(element('p', { class: `trainer-message ${this.tone ?? ''}`, role: 'alert', 'data-trainer-message': '' }, this.message?.() ?? t('trainer.intro')));
    side.append(this.controls(), this.movesLine(), this.progressList());
    view.append(this.boardBox, side);
    this.root.replaceChildren(view);
    this.onShown?.(this.run ? { line: this.run.line, side: this.run.side } : null);
    this.boardBox.setAttribute('aria-label', t('board'));
    this.drawBoard();
  }

  picker() {
    const row = element('div', { class: 'trainer-picker' });
    const select = (field, label, options) => {
      row.append(labelledSelect(label, { 'data-trainer-choice': field }, options, this.choice[field]));
    };
    select('line', t('trainer.line'), this.catalogue.lines.map((l) => [l.id, `${this.lineName(l.id)} (${l.codes.join('–')})`]));
    // A phone's select shows the start of a long name only: the whole name, wrapped, under it.
    row.append(element('p', { class: 'trainer-line-chosen', 'data-line-chosen': '' }, this.lineChosenText()));
    select('side', t('trainer.side'), [['red', t('red')], ['black', t('black')]]);
    row.append(button('start', t('trainer.start'), { class: 'primary' }));
    const next = this.catalogue.next;
    if (next) {
      const label = t('trainer.nextCard', { line: this.lineName(next.line), side: t(next.side) });
      row.append(button('next', label, { 'data-next-line': next.line, 'data-next-branch': next.branch }));
    }
    return row;
  }

  /** The line chosen in the picker, by its whole name and codes. */
  lineChosenText() {
    const line = this.lineOf(this.choice.line);
    return line ? `${this.lineName(line.id)} (${line.codes.join('–')})` : '';
  }

  showLineChosen() {
    const shown = this.root.querySelector('[data-line-chosen]');
    if (shown) shown.textContent = this.lineChosenText();
  }

  runInfo() {
    const line = this.lineOf(this.run.line);
    const opening = line?.branches.find((b) => b.id === this.run.branch)?.opening;
    // The branch's ECCO code by its own name in the interface language.
    const name = opening ? opening.title[currentLanguage()] ?? opening.title.en : '';
    const card = this.run.card;
    const where = card.reps === 0 ? t('trainer.cardNew') : card.learnt ? t('trainer.cardLearnt') : card.due ? t('trainer.cardDue') : t('trainer.cardLearning');
    const title = this.lineName(this.run.line);
    const code = opening ? [opening.code, name === title ? '' : name].filter(Boolean).join(' ') : '';
    return [title, t(this.run.side), code, where].filter(Boolean).join(' · ');
  }

  controls() {
    const row = element('div', { class: 'row trainer-controls' });
    if (this.state === 'off') row.append(button('retry', t('trainer.retry'), { class: 'primary' }), button('show', t('trainer.showLine')));
    if (this.state === 'done') row.append(button('again', t('trainer.again')));
    return row;
  }

  /** The run's moves so far, numbered. */
  movesLine() {
    const moves = this.run?.moves ?? [];
    const parts = [];
    moves.forEach((m, i) => {
      if (i % 2 === 0) parts.push(`${i / 2 + 1}.`);
      parts.push(moveText(m, this.settings.notation));
    });
    return element('p', { class: 'trainer-moves', 'data-trainer-moves': String(moves.length) }, parts.join(' '));
  }

  /** Per line, for the chosen side: what is learnt, what is due, what is new; and whether it is kept. */
  progressList() {
    const box = element('div', { class: 'trainer-progress' });
    const progress = this.progress ?? this.catalogue.progress;
    if (!progress.saved) {
      const reason = progress.error?.params?.reason;
      box.append(element('p', { class: 'trainer-not-saved bad', 'data-not-saved': '' }, t(reason === 'archive-off' ? 'trainer.notSavedOff' : 'trainer.notSaved')));
    }
    box.append(element('h3', {}, t('trainer.progress', { side: t(this.choice.side) })));
    const list = element('ul');
    for (const line of this.catalogue.lines) {
      const cards = this.catalogue.cards.filter((c) => c.line === line.id && c.side === this.choice.side);
      const due = cards.filter((c) => c.due).length;
      const learnt = cards.filter((c) => c.learnt).length;
      const fresh = line.branches.length - cards.length;
      const li = element('li', { 'data-line': line.id, 'data-due': String(due), 'data-learnt': String(learnt) });
      li.append(element('span', { class: 'trainer-progress-name' }, this.lineName(line.id)), ' ',
        element('span', { class: due ? 'bad' : '' }, t('trainer.counts', { learnt, due, fresh, total: line.branches.length })));
      list.append(li);
    }
    box.append(list);
    return box;
  }
}
