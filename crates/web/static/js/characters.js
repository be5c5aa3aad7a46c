// The characters drill in Learn: the pieces' characters learnt one piece at a time, for a
// learner who does not read Chinese. The pieces learnt so far and the next one are studied as
// cards (the character, its pinyin, the piece, a memory aid from its shape); then a round of
// questions in the character set of the settings, red and black forms mixed: name the piece a
// character stands for, or find a piece written so on the board. A round passed (PASS of
// ROUND right, the new piece answered right) adds the next piece: the mixed style then draws
// it as a character on every board. The material comes from the server (`api.characters`,
// the teaching crate's list); progress is kept like the courses' (`xiangqi.characters`).

import * as api from './api.js';
import { Board, START_FEN, piecesOfFen, shape } from './board.js';
import { actionButton, element, svgElement } from './elements.js';
import { currentLanguage, pieceName, t } from './i18n.js';
import { CHARACTER_SETS, LEARNING_ORDER, pieceGlyph } from './pieces.js';
import { learnTabs } from './learn-tabs.js';
import { keepProgress } from './progress.js';
import { read } from './settings.js';

const PROGRESS_KEY = 'xiangqi.characters';
/** Questions in a round, and how many must be right to pass it. */
export const ROUND = 8;
export const PASS = 7;

const button = (action, text, extra) => actionButton('characters', action, text, extra);

/** The learner's progress: how many pieces of the learning order are learnt, and the rounds played. */
function loadProgress() {
  const saved = read(PROGRESS_KEY) ?? {};
  const learnt = Number.isInteger(saved.learnt) ? Math.max(0, Math.min(LEARNING_ORDER.length, saved.learnt)) : 0;
  return { learnt, rounds: Number.isInteger(saved.rounds) ? saved.rounds : 0 };
}

const pick = (items) => items[Math.floor(Math.random() * items.length)];
const pieceWord = (letter) => pieceName(letter).toLowerCase();

/** The characters drill inside `root`; `onLearnt(n)` hears that the first `n` pieces are learnt. */
export class Characters {
  constructor(root, settings, { onLearnt }) {
    this.root = root;
    this.settings = settings;
    this.onLearnt = onLearnt;
    this.material = null;
    this.lang = null;
    this.progress = loadProgress();
    this.round = null;
    this.boardBox = element('div', { class: 'lesson-board', 'data-i18n-label': 'board' });
    this.board = new Board(this.boardBox, (square) => this.answer(square));
    root.addEventListener('click', (e) => {
      const target = e.target.closest('[data-characters]');
      if (target && root.contains(target)) this.act(target.dataset.characters, target);
    });
  }

  /** Shows the drill: the cards, and a round started anew. */
  async open() {
    this.root.hidden = false;
    this.progress = loadProgress();
    if (!(await this.ensureMaterial())) return;
    this.newRound();
    this.render();
  }

  async relabel() {
    if (this.root.hidden || !this.material) return;
    if (await this.ensureMaterial()) this.render();
  }

  async ensureMaterial() {
    const lang = currentLanguage();
    if (this.material && this.lang === lang) return true;
    try {
      this.material = await api.characters(lang);
      this.lang = lang;
      return true;
    } catch (e) {
      this.root.replaceChildren(element('p', { class: 'course-note bad' }, e.message));
      return false;
    }
  }

  /** The character set the settings draw the pieces with. */
  get set() {
    return CHARACTER_SETS[this.settings.characterSet] ? this.settings.characterSet : 'simplified';
  }

  /** The pieces the drill covers: those learnt and the next one (all seven once all are learnt). */
  scope() {
    return LEARNING_ORDER.slice(0, Math.min(LEARNING_ORDER.length, this.progress.learnt + 1));
  }

  /** The piece being learnt, or null once every piece is. */
  newPiece() {
    return LEARNING_ORDER[this.progress.learnt] ?? null;
  }

  /** The entry of character `c` in the material. */
  entry(c) {
    return this.material.characters.find((x) => x.character === c);
  }

  /** A round of questions: every other one on the new piece; sides and kinds of question mixed. */
  newRound() {
    const scope = this.scope();
    const fresh = this.newPiece();
    const questions = [];
    for (let i = 0; i < ROUND; i++) {
      const piece = fresh && i % 2 === 0 ? fresh : pick(scope);
      const side = pick(['red', 'black']);
      const letter = side === 'red' ? piece.toUpperCase() : piece;
      questions.push({ kind: i % 3 === 2 ? 'find' : 'name', piece, letter, character: CHARACTER_SETS[this.set][letter] });
    }
    this.round = { questions, at: 0, right: 0, freshRight: !fresh, answered: null, done: false };
  }

  act(action, target) {
    if (action === 'name') this.answer(null, target.dataset.piece);
    else if (action === 'next') this.next();
    else if (action === 'again') {
      this.newRound();
      this.render();
    }
  }

  /** The learner's answer to the question now: a piece named, or a point of the board chosen. */
  answer(square, named = null) {
    const round = this.round;
    const q = round?.questions[round.at];
    if (!q || round.answered || round.done) return;
    if (q.kind === 'find' && !square) return;
    if (q.kind === 'name' && !named) return;
    let right;
    if (q.kind === 'find') {
      const letter = piecesOfFen(START_FEN)[square];
      if (!letter) return;
      right = CHARACTER_SETS[this.set][letter] === q.character;
      round.chosen = square;
    } else {
      right = named === q.piece;
      round.chosen = named;
    }
    round.answered = { right };
    if (right) round.right += 1;
    if (right && q.piece === this.newPiece()) round.freshRight = true;
    this.render();
  }

  /** On to the next question, or the round's result. */
  next() {
    const round = this.round;
    if (!round?.answered) return;
    round.answered = null;
    round.chosen = null;
    round.at += 1;
    if (round.at >= round.questions.length) this.finish();
    this.render();
  }

  /** The round is over: passed, the next piece is learnt and kept. */
  finish() {
    const round = this.round;
    round.done = true;
    round.passed = round.right >= PASS && round.freshRight;
    round.learnt = null;
    const fresh = this.newPiece();
    this.progress.rounds += 1;
    if (round.passed && fresh) {
      this.progress.learnt += 1;
      round.learnt = fresh;
      this.onLearnt?.(this.progress.learnt);
    }
    keepProgress(PROGRESS_KEY, this.progress);
  }

  /** A character in the text, its pinyin on hover. */
  characterSpan(c) {
    return element('span', { class: 'character', lang: 'zh', title: this.entry(c)?.pinyin ?? '' }, c);
  }

  /** A card of piece `piece`: its characters in the set of the settings, pinyin, name and aids. */
  card(piece) {
    const fresh = piece === this.newPiece();
    const card = element('li', { class: `character-card${fresh ? ' fresh' : ''}`, 'data-character-card': piece });
    const letters = [piece.toUpperCase(), piece];
    const chars = [...new Set(letters.map((l) => CHARACTER_SETS[this.set][l]))];
    const discs = element('div', { class: 'character-discs' });
    for (const letter of letters) {
      if (letters.indexOf(letter) === 1 && chars.length === 1) continue;
      discs.append(this.disc(letter, 22));
    }
    card.append(discs, element('strong', {}, `${pieceName(piece)}${fresh ? ` — ${t('characters.new')}` : ''}`));
    for (const c of chars) {
      const e = this.entry(c);
      const line = element('p');
      line.append(this.characterSpan(c), ` ${e.pinyin} — ${e.aid}`);
      card.append(line);
    }
    return card;
  }

  /** A piece disc with `letter`'s character, its pinyin on hover. */
  disc(letter, radius) {
    const size = radius * 2 + 4;
    const svg = svgElement('svg', { viewBox: `${-size / 2} ${-size / 2} ${size} ${size}`, width: size, height: size, class: 'character-disc' });
    const c = CHARACTER_SETS[this.set][letter];
    const title = svgElement('title', {}, svg);
    title.textContent = this.entry(c)?.pinyin ?? '';
    svg.append(pieceGlyph(letter, `characters:${this.set}:0`, radius));
    return svg;
  }

  render() {
    if (!this.material || !this.round) return;
    const view = element('div', { class: 'lesson characters-drill', 'data-characters-view': '', 'data-learnt': String(this.progress.learnt) });
    const side = element('div', { class: 'lesson-side' });
    side.append(learnTabs('characters'), element('h2', {}, t('characters.title')),
      element('p', {}, t('characters.intro', { count: ROUND, pass: PASS })));
    const learnt = this.progress.learnt;
    side.append(element('p', { class: 'course-count', 'data-characters-learnt': String(learnt) },
      t('characters.learnt', { n: learnt, count: LEARNING_ORDER.length, set: t(this.set).toLowerCase() })));
    const cards = element('ul', { class: 'character-cards' });
    for (const piece of this.scope()) cards.append(this.card(piece));
    side.append(cards);
    const round = this.round;
    const q = round.questions[round.at];
    const drill = element('div', { class: 'character-question', 'data-question': round.done ? 'done' : q.kind });
    if (round.done) {
      drill.append(element('p', { 'data-round-result': round.passed ? 'passed' : 'failed' }, t('characters.result', { right: round.right, count: ROUND })));
      let said;
      if (round.passed && round.learnt) said = t('characters.passed', { piece: pieceWord(round.learnt) });
      else if (round.passed) said = t('characters.allLearnt');
      else said = t('characters.failed', { pass: PASS });
      drill.append(element('p', { class: `course-note ${round.passed ? 'good' : 'bad'}` }, said));
      drill.append(button('again', t('characters.again'), { class: 'primary' }));
    } else {
      drill.dataset.answer = q.kind === 'name' ? q.piece : q.character;
      drill.append(element('p', { class: 'lesson-step' }, t('characters.question', { n: round.at + 1, count: ROUND })));
      if (q.kind === 'name') {
        drill.append(element('p', {}, t('characters.nameIt')), this.disc(q.letter, 40));
        const names = element('div', { class: 'row character-names' });
        for (const piece of LEARNING_ORDER) {
          const chosen = round.answered && round.chosen === piece;
          names.append(button('name', pieceName(piece), { 'data-piece': piece, class: chosen ? (round.answered.right ? 'right' : 'wrong') : '' }), ' ');
        }
        drill.append(names);
      } else {
        const prompt = element('p', {}, t('characters.findIt', { character: '#' }));
        const [before, after] = prompt.textContent.split('#');
        prompt.replaceChildren(before, this.characterSpan(q.character), after);
        drill.append(prompt);
      }
      if (round.answered) {
        const e = this.entry(q.character);
        const words = { character: q.character, pinyin: e.pinyin, piece: pieceWord(q.piece) };
        const verdict = t(round.answered.right ? 'characters.right' : 'characters.wrong', words);
        drill.append(element('p', { class: `course-note ${round.answered.right ? 'good' : 'bad'}`, 'data-character-verdict': round.answered.right ? 'right' : 'wrong' }, `${verdict} ${e.aid}`));
        drill.append(button('next', t('characters.next'), { class: 'primary' }));
      }
    }
    side.append(drill);
    view.append(side);
    if (!round.done && q.kind === 'find') {
      this.board.style = `characters:${this.set}:0`;
      this.board.flipped = false;
      const marks = round.chosen ? [shape.circle(round.chosen, round.answered?.right ? 'found' : 'refutation')] : [];
      this.board.render({ fen: START_FEN, shapes: marks });
      view.prepend(this.boardBox);
    }
    this.root.replaceChildren(view);
  }
}
