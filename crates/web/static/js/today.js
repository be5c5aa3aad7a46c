// Today's training (`#/today`): the day's dose — the next lesson, three puzzles near the
// learner's rating, the opening trainer's next card, an ending to practise — each with the way
// to it and a tick once done today, and the streak of days trained. The server chooses the
// dose and keeps the days (`api.today`); the trainer's card is the trainer's own choice
// (`api.trainerCatalogue`). Each view counts its own piece as finished (`api.trained`).

import * as api from './api.js';
import { lessonTitle } from './course.js';
import { element } from './elements.js';
import { endgameTitle } from './endgames.js';
import { currentLanguage, t } from './i18n.js';
import { progressSent } from './progress.js';
import { themeName } from './puzzles.js';
import { explainError } from './reasons.js';

/** One piece of the dose: a heading, what it is, the link to it, and whether it is done today. */
function piece(kind, done, heading, body, link) {
  const item = element('li', { class: `dose${done ? ' dose-done' : ''}`, 'data-dose': kind });
  const mark = element('span', { class: 'dose-mark', 'aria-hidden': 'true' }, done ? '✓' : '');
  const title = element('h3', {}, heading);
  item.append(mark, title, ...body);
  if (done) item.append(element('p', { class: 'dose-said' }, t('today.doneToday')));
  if (link) item.append(link);
  return item;
}

/** The dose's pieces as one list. */
function list(pieces) {
  const ol = element('ol', { class: 'dose-list' });
  ol.append(...pieces);
  return ol;
}

/** A link styled as a button, to `href`. */
const go = (href, text, primary = false) => element('a', { class: `button-link${primary ? ' primary' : ''}`, href }, text);

export class Today {
  constructor(root) {
    this.root = root;
    this.view = null;
    this.card = null;
  }

  /** Shows the day's dose, read afresh (what was done elsewhere is ticked). */
  async open() {
    this.root.hidden = false;
    if (!this.view) this.root.replaceChildren(element('p', { class: 'course-note' }, t('today.loading')));
    const lang = currentLanguage();
    // A lesson or an ending just finished is counted once its progress is kept.
    await progressSent();
    try {
      const [view, trainer] = await Promise.all([api.today(lang), api.trainerCatalogue('').catch(() => null)]);
      this.view = view;
      this.card = trainer;
    } catch (e) {
      this.view = null;
      this.root.replaceChildren(element('p', { class: 'course-note bad', role: 'alert' }, t('today.unavailable', { reason: explainError(e) })));
      return;
    }
    this.render();
  }

  /** The words again in the language chosen now. */
  relabel() {
    if (!this.root.hidden && this.view) this.open();
  }

  render() {
    const v = this.view;
    const trained = new Set(v.trained);
    const pieces = [];
    // The next lesson.
    if (v.lesson) {
      const l = v.lesson;
      const where = l.course === 'rules' ? 'learn' : 'patterns';
      pieces.push(piece('lesson', trained.has('lesson'), t('today.lesson'), [
        element('p', {}, t(l.course === 'rules' ? 'today.lessonOfRules' : 'today.lessonOfPatterns', { n: l.number, of: l.of, title: lessonTitle(l) })),
      ], go(`#/${where}/${encodeURIComponent(l.id)}`, t('today.startLesson'), !trained.has('lesson'))));
    } else {
      pieces.push(piece('lesson', trained.has('lesson'), t('today.lesson'), [element('p', {}, t('today.allLessons'))], go('#/learn', t('today.courseMap'))));
    }
    // The day's puzzles.
    const puzzles = element('ul', { class: 'dose-puzzles' });
    for (const p of v.puzzles) {
      const item = element('li', { 'data-puzzle': p.id, class: p.tried ? (p.solved ? 'solved' : 'tried') : '' });
      const mark = p.tried ? (p.solved ? '✓ ' : '✗ ') : '';
      item.append(mark, go(`#/puzzles/${encodeURIComponent(p.id)}`, `${p.themes.map(themeName).join(' · ')} (${p.rating})`));
      puzzles.append(item);
    }
    const puzzlesDone = v.puzzles.length > 0 && v.puzzles.every((p) => p.tried);
    const tried = v.puzzles.filter((p) => p.tried).length;
    pieces.push(piece('puzzles', puzzlesDone, t('today.puzzles', { n: v.puzzles.length }), [
      element('p', {}, t('today.puzzlesNear', { rating: Math.round(v.rating), tried, n: v.puzzles.length })), puzzles,
    ], null));
    // The opening trainer's next card.
    const card = this.card?.next;
    if (card) {
      const line = this.card.lines.find((l) => l.id === card.line);
      const name = line ? line.name[currentLanguage()] ?? line.name.en : card.line;
      const state = this.card.cards.find((c) => c.line === card.line && c.side === card.side && c.branch === card.branch);
      const due = state ? (state.due ? 'today.cardDue' : 'today.cardAhead') : 'today.cardNew';
      pieces.push(piece('card', trained.has('card'), t('today.card'), [
        element('p', {}, t(due, { line: name, side: t(`of.${card.side}`) })),
      ], go(`#/trainer/${encodeURIComponent(card.line)}/${card.side}`, t('today.train'), !trained.has('card'))));
    }
    // The ending to practise.
    if (v.ending) {
      const e = v.ending;
      pieces.push(piece('ending', trained.has('ending'), t('today.ending'), [
        element('p', {}, t('today.endingOf', { title: endgameTitle(e), finished: e.finished, of: e.positions })),
      ], go(`#/endgames/${encodeURIComponent(e.id)}`, t('today.practise'), !trained.has('ending'))));
    }
    const done = pieces.filter((p) => p.classList.contains('dose-done')).length;
    const streak = v.streak === 0 ? t('today.noStreak') : t(trained.size > 0 ? 'today.streak' : 'today.streakKeep', { n: v.streak });
    this.root.replaceChildren(
      element('h2', {}, t('today.title')),
      element('p', { class: 'today-streak', 'data-streak': String(v.streak) }, streak),
      element('p', { class: 'today-count', 'data-done': String(done) }, done === pieces.length ? t('today.allDone') : t('today.count', { done, n: pieces.length })),
      list(pieces),
      element('p', { class: 'course-note' }, t('today.howCounted')),
    );
  }
}
