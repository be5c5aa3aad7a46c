// The courses: the rules course and the named mating patterns, each with its map (two tabs),
// a lesson's pages (text with a board picture) and its exercises, played on a board that
// works like the game's. Every move is checked by the server's rules core
// (`api.tryLessonMoves`); in a mate in two or three the defender's replies of the lesson's
// line are played automatically. In the perpetual-check drill the server plays the game: it
// answers each escape with the app's check, counts the checks and gives the rules' verdict
// (`api.drillLessonMoves`); the page shows what it is told. The lessons come from the server
// (`api.lessons`) in the interface language. Progress is kept in localStorage under `xiangqi.course` (rules) and
// `xiangqi.course.patterns`.

import * as api from './api.js';
import { Board, explainShapes, generalToMove, lastMoveShapes, piecesOfFen, shape } from './board.js';
import { actionButton, element } from './elements.js';
import { currentLanguage, t } from './i18n.js';
import { keepNames, nameOnLongPress } from './legend.js';
import { Exercise } from './exercise.js';
import { explainError } from './reasons.js';
import { keepProgress, trainedToday } from './progress.js';
import { read, write } from './settings.js';
import { learnTab } from './learn-tabs.js';
import { pieceLook } from './pieces.js';

/** The courses, in the order of the map's tabs, with the key their progress is kept under. */
const PROGRESS_KEYS = { rules: 'xiangqi.course', patterns: 'xiangqi.course.patterns' };
const COURSES = Object.keys(PROGRESS_KEYS);
const WELCOME_KEY = 'xiangqi.welcome';
/** How long a found move of an `all` exercise stays on the board before it resets, in ms. */
const SHOW_FOUND_MS = 700;


/**
 * The learner's progress in `course`: `{done: [lesson ids], current: {lesson, exercise} | null,
 * solved: ['lesson#index', …]}`.
 */
export function loadProgress(course = 'rules') {
  const saved = read(PROGRESS_KEYS[course]);
  const strings = (list) => (Array.isArray(list) ? list.filter((id) => typeof id === 'string') : []);
  return {
    done: strings(saved?.done),
    current: typeof saved?.current?.lesson === 'string' ? saved.current : null,
    solved: strings(saved?.solved),
  };
}

/** A lesson's title as the map and the lesson show it: a pattern with its Chinese name and pinyin. */
export function lessonTitle(lesson) {
  if (!lesson.chinese) return lesson.title;
  // Chinese takes full-width brackets with no space before them.
  const named = currentLanguage() === 'zh' ? `${lesson.chinese}（${lesson.pinyin}）` : `${lesson.chinese} (${lesson.pinyin})`;
  return lesson.title === lesson.chinese ? named : `${named} — ${lesson.title}`;
}

/** Whether the first-visit offer of the course is still to be shown. */
export function welcomeWanted() {
  const progress = loadProgress();
  return !read(WELCOME_KEY) && progress.done.length === 0 && !progress.current;
}

/** Remembers that the first-visit offer was answered, so it is not shown again. */
export function dismissWelcome() {
  write(WELCOME_KEY, 'dismissed');
}


const { tryMoves } = api;

/**
 * Plays the learner's escapes `moves` in the drill of exercise `exercise` of lesson `lesson`
 * on the server: `{fen, check, moves, reply, first_check, checks, limit, escape, verdict}`,
 * the verdict worded in `lang`; or throws why not (a move that stays in check: the rules
 * core's reason).
 */
async function drillMoves(course, lesson, exercise, moves, lang) {
  const result = await api.drillLessonMoves({ course, lesson, exercise, moves, lang });
  if (result.refused) throw new api.ApiError(422, result.refused);
  return result;
}

/** A text answer as the hint compares it with the answer it spells: full-width forms folded, spaces dropped, case ignored. */
function foldedAnswer(text) {
  return text.normalize('NFKC').replace(/\s+/g, '').toUpperCase();
}

/**
 * The tiles a Chinese answer is built from, for the side to move (`red` or `black`): the
 * pieces, front and rear, the three directions and the files (Red's in Chinese numerals,
 * Black's in digits), so that no Chinese keyboard is needed.
 */
function answerTiles(side) {
  const pieces = side === 'red' ? ['车', '马', '炮', '相', '仕', '帅', '兵'] : ['车', '马', '炮', '象', '士', '将', '卒'];
  const files = side === 'red' ? [...'一二三四五六七八九'] : [...'123456789'];
  return [pieces, ['前', '后', '进', '退', '平'], files];
}

/** A lesson's arrows (`[from, to]` pairs) as the board draws them. */
const lessonArrows = (pairs) => (pairs ?? []).map(([from, to]) => shape.arrow(from, to, 'lesson'));

/** A button for one of the course's actions. */
const button = (action, text, extra) => actionButton('course', action, text, extra);


/**
 * The course inside `root`. `settings` is the app's settings object (read for the piece
 * symbols and the notation); `onLegend()` opens the board legend; `onShown(course, lesson)`
 * hears what is shown (a course's map: `lesson` null), for the address bar.
 */
export class Course extends Exercise {
  constructor(root, settings, { onLegend, onShown }) {
    super();
    this.root = root;
    this.settings = settings;
    this.onLegend = onLegend;
    this.onShown = onShown;
    this.courseId = 'rules';
    /** Per course: `{lessons, lang}` as last loaded. */
    this.loaded = {};
    this.progressOf = Object.fromEntries(COURSES.map((c) => [c, loadProgress(c)]));
    this.view = 'map';
    this.boardBox = element('div', { class: 'lesson-board', 'data-i18n-label': 'board' });
    this.board = new Board(this.boardBox, (square) => this.onPoint(square));
    keepNames(this.board);
    nameOnLongPress(this.board.svg);
    root.addEventListener('click', (e) => {
      const target = e.target.closest('[data-course]');
      if (target && root.contains(target)) this.act(target.dataset.course, target);
    });
    root.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && e.target.matches?.('[data-course-answer]')) this.answer();
    });
  }

  /**
   * Opens course `courseId` (`rules` or `patterns`): lesson `lessonId` where the course has
   * it (as the learner left it, when it is the one open), else the course's map.
   */
  async open(courseId = this.courseId, lessonId = null) {
    this.root.hidden = false;
    if (COURSES.includes(courseId)) this.courseId = courseId;
    if (!(await this.ensureLessons())) return;
    const index = lessonId === null ? -1 : this.lessons.findIndex((l) => l.id === lessonId);
    if (index < 0) {
      this.view = 'map';
      this.render();
    } else if (this.view === 'lesson' && this.lesson?.id === lessonId) this.render();
    else this.openLesson(index, true);
  }

  /** The lessons of the course shown, or null before they are loaded. */
  get lessons() {
    return this.loaded[this.courseId]?.lessons ?? null;
  }

  /** The learner's progress in the course shown. */
  get progress() {
    return this.progressOf[this.courseId];
  }

  /** Opens the lesson the learner is to take next in the rules course (the first for a newcomer). */
  async start() {
    this.root.hidden = false;
    this.courseId = 'rules';
    if (!(await this.ensureLessons())) return;
    this.openLesson(this.nextIndex(), true);
  }

  /**
   * The interface language or a setting changed: the course is drawn again, with its lessons
   * loaded again in a new language.
   */
  async relabel() {
    if (this.root.hidden || !this.lessons) return;
    if (this.loaded[this.courseId]?.lang === currentLanguage()) {
      this.render();
      return;
    }
    if (await this.ensureLessons()) {
      if (this.view === 'lesson') this.lesson = this.lessons[this.lessonIndex];
      if (this.exercise) this.exercise = this.lesson.exercises[this.exerciseIndex] ?? this.exercise;
      this.render();
      // The drill's verdict is worded by the server: asked again in the new language.
      if (this.drill?.verdict) this.loadDrill();
    }
  }

  /** Shows the map of course `id` (`rules` or `patterns`). */
  async switchCourse(id) {
    if (!COURSES.includes(id)) return;
    this.courseId = id;
    this.view = 'map';
    if (await this.ensureLessons()) this.render();
  }

  async ensureLessons() {
    const lang = currentLanguage();
    const course = this.courseId;
    if (this.loaded[course]?.lang === lang) return true;
    if (!this.lessons) this.root.replaceChildren(element('p', { class: 'course-note' }, t('loadingCourse')));
    try {
      this.loaded[course] = { lessons: await api.lessons(course, lang), lang };
      return true;
    } catch (e) {
      this.root.replaceChildren(element('p', { class: 'course-note bad', role: 'alert' }, t('courseUnavailable', { reason: explainError(e) })));
      return false;
    }
  }

  save() {
    keepProgress(PROGRESS_KEYS[this.courseId], this.progress);
  }

  /** How many exercises of the course shown are solved, and how many there are. */
  solvedCount() {
    const count = this.lessons.reduce((n, l) => n + l.exercises.length, 0);
    const ids = new Set(this.lessons.flatMap((l) => l.exercises.map((_, i) => `${l.id}#${i}`)));
    return { solved: this.progress.solved.filter((id) => ids.has(id)).length, count };
  }

  isDone(id) {
    return this.progress.done.includes(id);
  }

  /** The index of the lesson to take next: the first not done (the first when all are). */
  nextIndex() {
    const open = this.lessons.findIndex((l) => !this.isDone(l.id));
    return open >= 0 ? open : 0;
  }

  /** The lesson left part-way through (an exercise of it done, the lesson not): its index, or -1. */
  underwayIndex() {
    const current = this.progress.current;
    const i = this.lessons.findIndex((l) => l.id === current?.lesson);
    return i >= 0 && current.exercise > 0 && !this.isDone(this.lessons[i].id) ? i : -1;
  }

  act(action, target) {
    switch (action) {
      case 'map': this.view = 'map'; this.render(); break;
      case 'switch': this.switchCourse(target.dataset.courseId); break;
      case 'open': this.openLesson(Number(target.dataset.index), target.dataset.resume === 'true'); break;
      case 'prev-page': this.showPage(this.page - 1); break;
      case 'next-page':
        if (this.page + 1 < this.lesson.pages.length) this.showPage(this.page + 1);
        else this.showExercise(0);
        break;
      case 'exercises': this.showExercise(0); break;
      case 'hint': this.hint(); break;
      case 'retry': this.resetExercise(); this.say(''); this.render(); break;
      case 'next-exercise': this.showExercise(this.exerciseIndex + 1); break;
      case 'next-lesson': this.openLesson(this.lessonIndex + 1, false); break;
      case 'answer': this.answer(); break;
      case 'tile': this.typeTile(target.dataset.tile); break;
      case 'erase': this.typeTile(null); break;
      case 'legend': this.onLegend(); break;
      default: break;
    }
  }

  openLesson(index, resume) {
    if (index < 0 || index >= this.lessons.length) {
      this.view = 'map';
      this.render();
      return;
    }
    this.view = 'lesson';
    this.lessonIndex = index;
    this.lesson = this.lessons[index];
    this.exercise = null;
    this.fen = null;
    this.lastMove = null;
    this.check = null;
    const current = this.progress.current;
    const at = resume && current?.lesson === this.lesson.id ? Number(current.exercise) : -1;
    if (at >= 0 && at < this.lesson.exercises.length) this.showExercise(at);
    else if (this.lesson.pages.length) this.showPage(0);
    else this.showExercise(0);
  }

  showPage(index) {
    this.page = Math.max(0, Math.min(index, this.lesson.pages.length - 1));
    this.exerciseIndex = null;
    this.state = 'page';
    this.say('');
    this.render();
    this.boardBox.scrollIntoView?.({ block: 'nearest' });
  }

  showExercise(index) {
    if (index >= this.lesson.exercises.length) {
      this.finishLesson();
      return;
    }
    this.page = null;
    this.exerciseIndex = index;
    this.exercise = this.lesson.exercises[index];
    this.found = new Set();
    this.resetExercise();
    this.say('');
    this.progress.current = { lesson: this.lesson.id, exercise: index };
    this.save();
    this.render();
  }

  resetExercise() {
    const ex = this.exercise;
    this.fen = ex.fen;
    this.played = [];
    this.selected = null;
    this.lastMove = null;
    this.check = null;
    this.marks = [];
    this.wrongMove = [];
    this.arrows = [];
    this.state = 'playing';
    this.newTurn();
    this.escapes = [];
    this.drill = null;
    if (ex.kind === 'perpetual') this.loadDrill();
  }

  /**
   * Asks the server where the drill stands after the learner's escapes so far (at the start:
   * the first check and the count), and shows it.
   */
  async loadDrill() {
    const turn = this.turn();
    try {
      const drill = await drillMoves(this.courseId, this.lesson.id, this.exerciseIndex, this.escapes, currentLanguage());
      if (!turn.live()) return;
      this.drill = drill;
      if (drill.moves.length) this.show(drill, drill.moves.map((m) => m.iccs));
      else {
        this.lastMove = { from: drill.first_check.from, to: drill.first_check.to };
        this.check = drill.check ? generalToMove(drill.fen) : null;
      }
      if (drill.verdict) this.say(() => this.drill?.verdict?.text ?? '', 'good');
    } catch (e) {
      if (!turn.live()) return;
      this.say(explainError(e), 'bad');
    }
    this.render();
  }

  /**
   * The learner's escape `move` (ICCS) in the drill: the server plays it and the app's check
   * in reply; the escape is shown first, the check after the reply pause, with the count; the
   * rules' verdict, once given, ends the exercise.
   */
  async playDrill(move) {
    const turn = this.turn();
    const escapes = [...this.escapes, move];
    const result = await this.submit(move, () => drillMoves(this.courseId, this.lesson.id, this.exerciseIndex, escapes, currentLanguage()));
    if (!result) return;
    this.escapes = escapes;
    const line = result.moves.map((m) => m.iccs);
    if (result.reply) {
      const escaped = result.moves[line.length - 2];
      this.show({ fen: escaped.fen, check: false }, line.slice(0, -1));
      this.say('');
      this.render();
      if (!(await this.pause(turn))) return;
    }
    this.drill = result;
    this.show(result, line);
    if (result.verdict) {
      this.solved(() => this.drill?.verdict?.text ?? '');
      return;
    }
    const shown = result.reply?.[this.settings.notation] ?? '';
    this.say(() => t('drillReply', { move: shown }));
    this.state = 'playing';
    this.render();
  }

  finishLesson() {
    if (!this.isDone(this.lesson.id)) this.progress.done.push(this.lesson.id);
    const next = this.lessons[this.lessonIndex + 1];
    this.progress.current = next ? { lesson: next.id, exercise: 0 } : null;
    this.save();
    trainedToday('lesson');
    this.state = 'finished';
    this.render();
  }

  onPoint(square) {
    if (this.view !== 'lesson' || this.state !== 'playing' || this.exercise.kind === 'notation') return;
    const pieces = piecesOfFen(this.fen);
    const piece = pieces[square];
    const redToMove = this.fen.split(' ')[1] !== 'b';
    const mine = piece && (piece === piece.toUpperCase()) === redToMove;
    if (this.selected === square) this.selected = null;
    else if (mine) {
      this.selected = square;
      this.marks = [];
      this.wrongMove = [];
    } else if (this.selected) {
      const move = `${this.selected}${square}`;
      this.selected = null;
      this.play(move);
      return;
    } else if (piece) this.say(t(redToMove ? 'notYours.red' : 'notYours.black'), 'bad');
    this.drawBoard();
  }

  /** Shows the server's position after `line` (the moves from the exercise's start). */
  show(result, line) {
    this.fen = result.fen;
    this.played = line;
    const last = line[line.length - 1];
    this.lastMove = last ? { from: last.slice(0, 2), to: last.slice(2, 4) } : null;
    this.check = result.check ? generalToMove(result.fen) : null;
    this.marks = [];
    this.wrongMove = [];
    this.arrows = [];
  }

  /** The learner's move `move` (ICCS): checked by the rules core, then against the solutions. */
  async play(move) {
    const ex = this.exercise;
    const turn = this.turn();
    if (ex.kind === 'perpetual') {
      await this.playDrill(move);
      return;
    }
    const line = [...this.played, move];
    const result = await this.submit(move, () => tryMoves(ex.fen, line));
    if (!result) return;
    if (ex.kind === 'all') {
      await this.foundMove(move, result, turn);
      return;
    }
    const lines = ex.solutions.filter((s) => s.length >= line.length && line.every((m, i) => s[i] === m));
    if (!lines.length) {
      this.state = 'playing';
      this.wrongMove = [move.slice(0, 2), move.slice(2)];
      this.arrows = [];
      this.say(this.whyNotMate(line, result) ?? (() => t('notThisOne')), 'bad');
      this.render();
      return;
    }
    this.show(result, line);
    this.say('');
    if (lines.some((s) => s.length === line.length)) {
      this.solved();
      return;
    }
    this.render();
    if (!(await this.pause(turn))) return;
    const reply = lines[0][line.length];
    try {
      const after = await tryMoves(ex.fen, [...line, reply]);
      if (!turn.live()) return;
      this.show(after, [...line, reply]);
      const shown = after.moves[after.moves.length - 1]?.[this.settings.notation] ?? reply;
      this.say(ex.reply_note || t('replyPlayed', { move: shown }));
    } catch (e) {
      this.say(explainError(e), 'bad');
    }
    if (lines.some((s) => s.length === line.length + 1)) {
      this.solved();
      return;
    }
    this.state = 'playing';
    this.render();
  }

  /**
   * Why the learner's last move of `line` (answered with `result`) is not the mate a mate
   * exercise asks for now, worded in the language of the moment: it gives no check, or the
   * check has a way out (drawn as an arrow); null where the exercise does not ask for mate
   * with this move.
   */
  whyNotMate(line, result) {
    const ex = this.exercise;
    const due = ex.solutions.filter((s) => this.played.every((m, i) => s[i] === m));
    if (ex.kind !== 'mate' || !due.length || due.some((s) => s.length !== line.length) || result.status === 'checkmate') return null;
    if (!result.check) return () => t('noCheckNoMate');
    const { escape } = result;
    if (!escape) return null;
    this.arrows = [shape.arrow(escape.from, escape.to, 'refutation')];
    return () => t('checkNotMate', { move: escape[this.settings.notation] });
  }

  /** A legal move in an exercise where every solution is to be found. */
  async foundMove(move, result, turn) {
    const ex = this.exercise;
    const count = ex.solutions.length;
    if (!ex.solutions.some((s) => s[0] === move)) {
      this.state = 'playing';
      this.say(t('notThisOne'), 'bad');
      this.wrongMove = [move.slice(0, 2), move.slice(2)];
      this.render();
      return;
    }
    if (this.found.has(move)) {
      this.state = 'playing';
      this.say(t('alreadyFound'));
      this.render();
      return;
    }
    this.found.add(move);
    this.show(result, [move]);
    if (this.found.size === count) {
      this.solved();
      return;
    }
    this.say(t('found', { found: this.found.size, count }), 'good');
    this.render();
    if (!(await this.pause(turn, SHOW_FOUND_MS))) return;
    this.resetExercise();
    this.render();
  }

  /** The exercise is solved: `message` (words for the current language) says so. */
  solved(message = () => t('solved')) {
    this.state = 'solved';
    this.selected = null;
    this.say(message, 'good');
    const id = `${this.lesson.id}#${this.exerciseIndex}`;
    if (!this.progress.solved.includes(id)) this.progress.solved.push(id);
    this.save();
    if (this.exerciseIndex + 1 >= this.lesson.exercises.length) {
      this.finishLesson();
      return;
    }
    this.progress.current = { lesson: this.lesson.id, exercise: this.exerciseIndex + 1 };
    this.save();
    this.render();
  }

  /**
   * The first press marks the piece to move; a second press on the same piece shows where it
   * goes, as an arrow.
   */
  hint() {
    const ex = this.exercise;
    if (!ex || this.state !== 'playing') return;
    let from = ex.hint;
    let move = null;
    if (ex.kind === 'perpetual' && this.drill?.escape) {
      // The drill's way out is the server's: the general's own step first.
      move = this.drill.escape.iccs;
      from = move.slice(0, 2);
    } else if (ex.kind === 'all') {
      move = ex.solutions.map((s) => s[0]).find((m) => !this.found.has(m)) ?? null;
      from = move?.slice(0, 2) ?? from;
    } else if (this.played.length) {
      const next = ex.solutions.find((s) => s.length > this.played.length && this.played.every((m, i) => s[i] === m));
      move = next?.[this.played.length] ?? null;
      if (move) from = move.slice(0, 2);
    } else {
      move = ex.solutions.map((s) => s[0]).find((m) => m.startsWith(from)) ?? null;
    }
    const again = move && this.marks.length === 1 && this.marks[0] === from;
    this.marks = [from];
    if (again && ex.kind === 'notation') {
      this.say(this.nextTileHint());
      this.render();
      return;
    }
    if (again) {
      this.arrows = [shape.arrow(from, move.slice(2, 4), 'hint')];
      this.say(t('hintMove', { square: move.slice(2, 4) }));
    } else {
      this.arrows = [];
      this.say(ex.kind === 'notation' ? t('hintAnswer', { square: from }) : t('hintPiece'));
    }
    this.render();
  }

  /**
   * The second hint of a notation exercise: the next sign of the answer, as the tile (or key)
   * that comes next after what is written so far; or, when what is written already goes
   * astray, the sign to start again with.
   */
  nextTileHint() {
    const ex = this.exercise;
    const spelled = [...(ex.answers?.[ex.notation]?.[0] ?? '')];
    const written = [...foldedAnswer(this.pendingAnswer ?? '')];
    const onTrack = written.every((c, i) => foldedAnswer(spelled[i] ?? '') === c);
    if (!onTrack) return t('hintTileAgain', { tile: spelled[0] });
    if (written.length >= spelled.length) return t('hintTileDone');
    return t('hintTile', { tile: spelled[written.length] });
  }

  /** Adds the sign `tile` to the answer being written; null takes the last one away. */
  typeTile(tile) {
    if (this.exercise?.kind !== 'notation' || this.state !== 'playing') return;
    const written = [...(this.pendingAnswer ?? '')];
    if (tile === null) written.pop();
    else written.push(tile);
    this.pendingAnswer = written.join('');
    const input = this.root.querySelector('[data-course-answer]');
    if (input) input.value = this.pendingAnswer;
  }

  /** Sends the written answer to be judged by the server's rules core. */
  async answer() {
    const ex = this.exercise;
    const input = this.root.querySelector('[data-course-answer]');
    if (!ex || ex.kind !== 'notation' || this.state !== 'playing' || !input) return;
    const text = input.value;
    const turn = this.newTurn();
    try {
      const judged = await api.answerLesson({ course: this.courseId, lesson: this.lesson.id, exercise: this.exerciseIndex, text });
      if (!turn.live()) return;
      if (judged.correct) {
        this.answerText = text;
        this.solved();
        return;
      }
      this.say(t('wrongAnswer'), 'bad');
    } catch (e) {
      if (!turn.live()) return;
      this.say(explainError(e), 'bad');
    }
    this.render();
  }

  drawBoard() {
    this.board.style = pieceLook(this.settings);
    // The texts name points by letter and rank, and the notation lesson counts files by number:
    // the lesson board shows both, whatever notation the moves are written in.
    this.board.notation = this.settings.notation === 'chinese' ? 'chinese' : 'wxf';
    this.board.flipped = false;
    if (this.view !== 'lesson') return;
    if (this.state === 'page') {
      const page = this.lesson.pages[this.page];
      this.board.render({ fen: page.fen, shapes: [...explainShapes(page.highlights), ...lessonArrows(page.arrows)] });
    } else if (this.state === 'finished') {
      this.board.render({ fen: this.fen ?? this.lesson.pages[0]?.fen ?? '9/9/9/9/9/9/9/9/9/9 w', shapes: lastMoveShapes(this.lastMove), check: this.check });
    } else {
      const ex = this.exercise;
      const atStart = this.played.length === 0;
      const shownMove = ex.kind === 'notation' ? [[ex.solutions[0][0].slice(0, 2), ex.solutions[0][0].slice(2, 4)]] : [];
      this.board.render({
        fen: this.fen,
        selected: this.selected,
        check: this.check,
        shapes: this.shapes([
          ...explainShapes(atStart ? ex.highlights : []),
          ...lessonArrows([...(atStart ? ex.arrows ?? [] : []), ...shownMove]),
          // In a "find every move" exercise the moves already found stay on the board.
          ...(ex.kind === 'all' && atStart ? [...this.found].map((m) => shape.arrow(m.slice(0, 2), m.slice(2, 4), 'found')) : []),
        ]),
      });
    }
  }

  render() {
    if (!this.lessons) return;
    this.root.dataset.view = this.view;
    this.onShown?.(this.courseId, this.view === 'lesson' ? this.lesson.id : null);
    if (this.view === 'map') this.renderMap();
    else this.renderLesson();
  }

  renderMap() {
    const next = this.nextIndex();
    const allDone = this.lessons.every((l) => this.isDone(l.id));
    const map = element('div', { class: 'course-map', 'data-course-map': this.courseId });
    const tabs = element('div', { class: 'course-tabs', role: 'tablist' });
    for (const id of COURSES) {
      const tab = button('switch', t(id === 'rules' ? 'courseRules' : 'coursePatterns'), {
        role: 'tab', 'data-course-id': id, 'aria-selected': String(id === this.courseId),
      });
      tabs.append(tab);
    }
    tabs.append(learnTab('endgames', this.courseId), learnTab('characters', this.courseId));
    const patterns = this.courseId === 'patterns';
    const { solved, count } = this.solvedCount();
    map.append(
      tabs,
      element('h2', {}, t(patterns ? 'patternsTitle' : 'courseTitle')),
      element('p', {}, t(patterns ? 'patternsIntro' : 'courseIntro', { count: this.lessons.length })),
      element('p', { class: 'course-count', 'data-solved': String(solved) }, t('solvedCount', { solved, count })),
    );
    if (allDone) map.append(element('p', { class: 'course-note good' }, t('courseComplete')));
    else {
      // The first lesson not done comes first; a lesson left part-way is offered beside it.
      const underway = this.underwayIndex();
      const label = t(underway === next ? 'continueLesson' : 'startLesson', { title: lessonTitle(this.lessons[next]) });
      const go = element('p');
      go.append(button('open', label, { class: 'primary', 'data-index': String(next), 'data-resume': 'true', 'data-next-lesson': this.lessons[next].id }));
      if (underway >= 0 && underway !== next) {
        const title = lessonTitle(this.lessons[underway]);
        go.append(' ', button('open', t('continueLesson', { title }), { 'data-index': String(underway), 'data-resume': 'true', 'data-underway-lesson': this.lessons[underway].id }));
      }
      map.append(go);
    }
    const list = element('ol', { class: 'lesson-list' });
    this.lessons.forEach((lesson, i) => {
      const li = element('li', { 'data-lesson': lesson.id });
      if (this.isDone(lesson.id)) li.dataset.done = 'true';
      if (!allDone && i === next) li.dataset.next = 'true';
      const b = button('open', '', { 'data-index': String(i), 'data-resume': String(i === next || i === this.underwayIndex()) });
      b.append(element('span', { class: 'lesson-n' }, String(i + 1)), element('span', { class: 'lesson-title' }, lessonTitle(lesson)));
      if (this.isDone(lesson.id)) b.append(element('span', { class: 'lesson-mark done' }, `✓ ${t('lessonDone')}`));
      else if (!allDone && i === next) b.append(element('span', { class: 'lesson-mark next' }, `→ ${t('nextUp')}`));
      li.append(b);
      list.append(li);
    });
    map.append(list);
    this.root.replaceChildren(map);
  }

  renderLesson() {
    const lesson = this.lesson;
    const view = element('div', { class: 'lesson', 'data-lesson-view': lesson.id, 'data-state': this.state });
    const side = element('div', { class: 'lesson-side' });
    const nav = element('div', { class: 'row lesson-nav' });
    nav.append(button('map', `← ${t('allLessons')}`), button('legend', t('legend')));
    const numbered = t(this.courseId === 'patterns' ? 'patternNumber' : 'lessonNumber', { n: this.lessonIndex + 1 });
    side.append(nav, element('p', { class: 'lesson-number' }, numbered), element('h2', {}, lessonTitle(lesson)));
    const controls = element('div', { class: 'row lesson-controls' });
    if (this.state === 'page') {
      side.append(
        element('p', { class: 'lesson-step' }, t('pageOf', { n: this.page + 1, count: lesson.pages.length })),
        element('p', { class: 'lesson-text' }, lesson.pages[this.page].text),
      );
      if (this.page > 0) controls.append(button('prev-page', t('back')));
      const last = this.page + 1 >= lesson.pages.length;
      controls.append(button('next-page', last ? t('toExercises') : t('next'), { class: 'primary' }));
      if (!last) controls.append(button('exercises', t('toExercises')));
    } else if (this.state === 'finished') {
      side.append(element('p', { class: 'lesson-text good', role: 'status' }, t('lessonComplete')));
      const next = this.lessons[this.lessonIndex + 1];
      if (next) controls.append(button('next-lesson', t('nextLesson', { title: lessonTitle(next) }), { class: 'primary' }));
      else side.append(element('p', { class: 'lesson-text' }, t('courseComplete')));
      controls.append(button('map', t('allLessons')));
    } else {
      const ex = this.exercise;
      view.dataset.exercise = String(this.exerciseIndex);
      view.dataset.kind = ex.kind;
      view.dataset.played = String(this.played.length);
      view.dataset.found = String(this.found.size);
      side.append(
        element('p', { class: 'lesson-step', 'data-step': this.state === 'solved' ? 'solved' : 'turn' }, `${t('exerciseOf', { n: this.exerciseIndex + 1, count: lesson.exercises.length })} · ${
          this.state === 'solved' ? t('exerciseSolved') : t(this.fen.split(' ')[1] === 'b' ? 'turn.black' : 'turn.red')}`),
        element('p', { class: 'lesson-text goal' }, ex.goal),
      );
      if (ex.kind === 'perpetual' && this.drill) {
        const { checks, limit } = this.drill;
        view.dataset.checks = String(checks);
        side.append(element('p', { class: 'lesson-step drill-count', 'data-checks': String(checks) }, t('drillCount', { n: checks, limit })));
      }
      if (ex.kind === 'notation') {
        const label = element('label', { class: 'answer' });
        const input = element('input', { 'data-course-answer': '', spellcheck: 'false', autocomplete: 'off' });
        input.value = this.state === 'solved' ? this.answerText ?? '' : this.pendingAnswer ?? '';
        input.addEventListener('input', () => { this.pendingAnswer = input.value; });
        if (this.state === 'solved') input.disabled = true;
        label.append(element('span', {}, t('yourAnswer')), input);
        side.append(label);
        if (ex.notation === 'chinese' && this.state === 'playing') {
          const tiles = element('div', { class: 'answer-tiles', role: 'group', 'aria-label': t('answerTiles') });
          for (const group of answerTiles(this.fen.split(' ')[1] === 'b' ? 'black' : 'red')) {
            const row = element('div', { class: 'tile-row' });
            for (const tile of group) row.append(button('tile', tile, { class: 'tile', 'data-tile': tile }));
            tiles.append(row);
          }
          tiles.lastChild.append(button('erase', '⌫', { class: 'tile', 'aria-label': t('eraseTile') }));
          side.append(tiles);
        }
        if (this.state === 'playing') controls.append(button('answer', t('checkAnswer'), { class: 'primary' }));
      }
      if (this.state === 'solved') {
        this.pendingAnswer = '';
        controls.append(button('next-exercise', t('nextExercise'), { class: 'primary' }));
      } else {
        controls.append(button('hint', t('hint')), button('retry', t('retry')));
      }
    }
    // The rules' verdict that ended the drill stays said, also once the lesson is finished.
    if (this.state !== 'page' && this.exercise?.kind === 'perpetual' && this.drill?.verdict) view.dataset.verdict = this.drill.verdict.code;
    const message = element('p', { class: `lesson-message ${this.tone ?? ''}`, role: 'alert' }, this.said());
    const { solved, count } = this.solvedCount();
    const tally = element('p', { class: 'course-count', 'data-solved': String(solved) }, t('solvedCount', { solved, count }));
    side.append(message, controls, tally);
    view.append(this.boardBox, side);
    const focused = document.activeElement?.dataset?.course;
    this.root.replaceChildren(view);
    this.boardBox.setAttribute('aria-label', t('board'));
    this.drawBoard();
    // After a solved exercise the way on has the focus, so that Enter goes on.
    const onward = this.state === 'solved' ? 'next-exercise' : this.state === 'finished' ? 'next-lesson' : focused;
    if (onward) this.root.querySelector(`[data-course="${onward}"]`)?.focus({ preventScroll: true });
  }
}
