// Puzzles: the learner plays the solver's side of a shipped puzzle (the board turned to the
// solver), the server checks each move (`api.puzzleMove`) and answers with the
// automatic reply, or with the engine's refutation of a wrong move (an arrow and a sentence).
// Hint shows the piece to move, then the move; "Show solution" steps through the line. The
// learner's Glicko-2 rating is computed by the server (`api.ratePuzzle`) and kept,
// with the streaks, the last puzzles and the filters, in localStorage under `xiangqi.puzzles`.

import * as api from './api.js';
import { moveText } from './notation.js';
import { Board, generalToMove, pickMove, piecesOfFen, shape } from './board.js';
import { actionButton, element, labelledSelect } from './elements.js';
import { currentLanguage, pieceName, t, sentences } from './i18n.js';
import { keepNames, nameOnLongPress } from './legend.js';
import { Exercise } from './exercise.js';
import { explainError } from './reasons.js';
import { keepProgress, trainedToday } from './progress.js';
import { read } from './settings.js';
import { pieceLook } from './pieces.js';
import { moveSound, playSound } from './sounds.js';

const STORE_KEY = 'xiangqi.puzzles';
/** Puzzles remembered as seen, so that the next one is another. */
const RECENT_KEPT = 60;
/** Puzzles listed in the history. */
const HISTORY_KEPT = 20;
/** The difficulty choices: how far from the learner's rating the next puzzle is sought. */
const DIFFICULTIES = { easiest: -600, easier: -300, normal: 0, harder: 300, hardest: 600 };
/** The rating bands a learner can choose instead of "near my rating": 600–799 … 2200–2400. */
const BANDS = [600, 800, 1000, 1200, 1400, 1600, 1800, 2000, 2200];

/** The lowest and the highest rating of the band starting at `low` (the last one ends at 2400). */
function bandRange(low) {
  return [low, low === 2200 ? 2400 : low + 199];
}


/**
 * The learner's saved state, with the values of `newcomer` (the server's starting state) for
 * anything missing or unreadable.
 */
function loadLearner(newcomer) {
  const saved = read(STORE_KEY) ?? {};
  const number = (v, fallback) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
  return {
    rating: number(saved.rating, newcomer.rating),
    deviation: number(saved.deviation, newcomer.deviation),
    volatility: number(saved.volatility, newcomer.volatility),
    streak: number(saved.streak, 0),
    best_streak: number(saved.best_streak, 0),
    history: Array.isArray(saved.history) ? saved.history.slice(0, HISTORY_KEPT) : [],
    recent: Array.isArray(saved.recent) ? saved.recent.filter((id) => typeof id === 'string').slice(-RECENT_KEPT) : [],
    current: typeof saved.current === 'string' ? saved.current : null,
    filters: { theme: '', pattern: '', difficulty: 'normal', band: '', source: '', ...(saved.filters ?? {}) },
  };
}

/** The name of a theme (`mateIn2`, `fork` …) or of a pattern theme (`pattern:<id>`). */
export function themeName(theme) {
  if (theme.startsWith('pattern:')) return patternName(theme.slice('pattern:'.length));
  const key = `theme.${theme}`;
  const name = t(key);
  return name === key ? theme : name;
}

/** What a theme is about, in a sentence or two (`mateIn3` as every `mateInN`); '' for none. */
export function themeAbout(theme) {
  if (!theme || theme.startsWith('pattern:')) return '';
  const key = `themeAbout.${theme.replace(/\d+$/, '')}`;
  const about = t(key);
  return about === key ? '' : about;
}

/** Each pattern's names by id, from its lesson, as the server lists them. */
const patternNames = new Map();

/** The name of the named mating pattern `id`: its Chinese name, with a translation beside it. */
export function patternName(id) {
  const names = patternNames.get(id);
  if (!names) return id;
  const lang = currentLanguage();
  return lang === 'zh' ? names.chinese : `${names[lang] ?? names.en} (${names.chinese})`;
}

/** A server refusal in the interface language: a puzzle's own codes here, the rest as anywhere. */

/** A button for one of this view's actions. */
const button = (action, text, extra) => actionButton('puzzle', action, text, extra);

/**
 * The puzzle trainer inside `root`; `settings` is the app's settings object (symbols,
 * notation); `onShown(id)` hears which puzzle is shown, for the address bar.
 */
export class Puzzles extends Exercise {
  constructor(root, settings, { onShown } = {}) {
    super();
    this.root = root;
    this.settings = settings;
    this.onShown = onShown;
    /** The learner's rating, streaks, history and filters: read once the catalogue says how a newcomer starts. */
    this.learner = null;
    this.catalog = null;
    this.puzzle = null;
    this.state = 'loading';
    this.boardBox = element('div', { class: 'puzzle-board' });
    this.board = new Board(this.boardBox, (square) => this.onPoint(square));
    keepNames(this.board);
    nameOnLongPress(this.board.svg);
    root.addEventListener('click', (e) => {
      const target = e.target.closest('[data-puzzle]');
      if (target && root.contains(target) && target.tagName === 'BUTTON') this.act(target.dataset.puzzle);
    });
    root.addEventListener('change', async (e) => {
      const filter = e.target.dataset?.puzzleFilter;
      if (!filter) return;
      this.learner.filters[filter] = e.target.value;
      this.save();
      // Puzzles from my games: the games played since the last look are looked at first.
      if (filter === 'source' && e.target.value === 'own') await this.lookInMyGames();
      this.next();
    });
    /** What was found in the learner's own games, once looked: `{puzzles, games, games_left}`. */
    this.own = null;
  }

  /**
   * Opens the trainer on puzzle `id` when given (the one under way is kept as it stands),
   * else on the puzzle under way, else on the next one near the learner's rating.
   */
  async open(id = null) {
    this.root.hidden = false;
    if (!this.catalog) {
      this.root.replaceChildren(element('p', { class: 'course-note' }, t('loadingPuzzles')));
      try {
        this.catalog = await api.puzzleThemes();
        this.learner = loadLearner(this.catalog.newcomer);
        for (const p of this.catalog.patterns) if (p.name) patternNames.set(p.id, p.name);
      } catch (e) {
        this.unavailable(e);
        return;
      }
    }
    if (this.puzzle && (id === null || id === this.puzzle.id)) {
      this.render();
      this.onShown?.(this.puzzle.id);
      return;
    }
    const wanted = id ?? this.learner.current;
    if (wanted) {
      const turn = this.newTurn();
      try {
        const puzzle = await api.puzzle(wanted);
        if (turn.live()) this.begin(puzzle);
        return;
      } catch {
        // The puzzle is no longer shipped: take another.
      }
    }
    await this.next();
  }

  /** The interface language or a setting changed: the texts are drawn again. */
  relabel() {
    if (!this.root.hidden && this.catalog) this.render();
  }

  unavailable(error) {
    this.root.replaceChildren(element('p', { class: 'course-note bad', role: 'alert' }, t('puzzlesUnavailable', { reason: explainError(error) })));
  }

  save() {
    const { history, recent, current, filters, ...rating } = this.learner;
    keepProgress(STORE_KEY, { ...rating, history, recent, current, filters });
  }

  /** The rating state the server rates from. */
  ratingState() {
    const { rating, deviation, volatility, streak, best_streak: best } = this.learner;
    return { rating, deviation, volatility, streak, best_streak: best };
  }

  /** Asks for the next puzzle near the learner's rating, with the chosen filters. */
  async next() {
    const f = this.learner.filters;
    const offset = DIFFICULTIES[f.difficulty] ?? 0;
    const query = new URLSearchParams({ rating: String(Math.round(this.learner.rating + offset)) });
    if (f.theme) query.set('theme', f.theme);
    if (f.pattern) query.set('pattern', f.pattern);
    if (f.source === 'own') query.set('source', 'own');
    // A band chosen replaces "near my rating": the puzzles of that band, from its middle out.
    const band = BANDS.includes(Number(f.band)) ? Number(f.band) : null;
    if (band !== null) {
      const [min, max] = bandRange(band);
      query.set('rating', String(Math.round((min + max) / 2)));
      query.set('min', String(min));
      query.set('max', String(max));
    }
    if (this.learner.recent.length) query.set('recent', this.learner.recent.join(','));
    const turn = this.newTurn();
    try {
      // Filters that match nothing are told from the count, not from a refused request.
      if ((f.theme || f.pattern || band !== null || f.source === 'own') && (await api.countPuzzles(query)).count === 0) {
        throw new api.ApiError(404, {
          code: 'no-puzzles', message: 'no puzzle matches the chosen theme, pattern and difficulty',
          params: { theme: f.theme ?? null, pattern: f.pattern ?? null, band: band === null ? null : bandRange(band).join('–') },
        });
      }
      const puzzle = await api.nextPuzzle(query);
      if (turn.live()) this.begin(puzzle);
    } catch (e) {
      if (!turn.live()) return;
      this.puzzle = null;
      this.state = 'none';
      // With nothing to match the filters, asking again gives nothing: the filters are the way on.
      this.nothingMatches = e.code === 'no-puzzles';
      this.say(() => explainError(e), 'bad');
      this.render();
    }
  }

  /** Sets up `puzzle` (as the server shows it) from its start. */
  begin(puzzle) {
    this.puzzle = puzzle;
    this.learner.current = puzzle.id;
    this.learner.recent = [...this.learner.recent.filter((id) => id !== puzzle.id), puzzle.id].slice(-RECENT_KEPT);
    this.save();
    this.newTurn();
    this.fen = puzzle.fen;
    this.ply = 0;
    this.plyFen = puzzle.fen;
    /** The solver's legal moves where the solver is to move, by origin point (the dots). */
    this.legal = puzzle.legal ?? {};
    /** The general in check on the board shown, if any. */
    this.check = null;
    /** The general left without a move when the solution ended, if it did. */
    this.ended = null;
    this.lastMove = null;
    this.selected = null;
    this.marks = [];
    this.arrows = [];
    this.failed = false;
    this.rated = null;
    this.hintStep = 0;
    this.solution = null;
    this.state = 'playing';
    this.say(() => this.task());
    this.render();
    this.onShown?.(puzzle.id);
  }

  /** The task: which side plays and what to find. */
  task() {
    const side = t(this.puzzle.side);
    const sideOf = t(`of.${this.puzzle.side}`);
    if (this.puzzle.mate) return t('findMate', { side, sideOf, n: this.puzzle.mate });
    if (this.puzzle.stalemate) return t('findStalemate', { side, sideOf, n: this.puzzle.stalemate });
    return t('findBest', { side, sideOf });
  }

  act(action) {
    switch (action) {
      case 'hint': this.hint(); break;
      case 'retry': this.retry(); break;
      case 'solution': this.showSolution(); break;
      case 'step-back': this.step(-1); break;
      case 'step-on': this.step(1); break;
      case 'next': this.next(); break;
      case 'look-more': this.lookInMyGames().then(() => this.next()); break;
      default: break;
    }
  }

  /** Looks at the learner's games not looked at yet for puzzles, saying so while it runs. */
  async lookInMyGames() {
    this.say(() => t('lookingInMyGames'));
    try {
      this.own = await api.mineOwnPuzzles();
    } catch (e) {
      this.own = null;
      this.say(() => explainError(e), 'bad');
    }
  }

  onPoint(square) {
    if (this.state !== 'playing') return;
    const { selected, move } = pickMove(this.fen, this.puzzle.side, this.selected, square);
    this.selected = selected;
    if (move) this.play(move);
    else this.drawBoard();
  }

  /** Sends the learner's `move` (ICCS) to be checked, then plays the reply or says why not. */
  async play(move) {
    const turn = this.turn();
    // A move the rules refuse is explained from an answer, before it is sent.
    const answer = await this.submit(move, () => api.refuseIllegal(this.fen, move, this.legal).then(() => api.puzzleMove(this.puzzle.id, this.ply, move)));
    if (!answer) return;
    this.showMove(answer.played);
    this.check = answer.check ?? null;
    if (!answer.correct) {
      await this.wrong(answer, turn);
      return;
    }
    if (answer.solved) {
      if (answer.ending) playSound('end');
      this.ended = answer.ending?.general ?? null;
      await this.finish(true, turn, answer.ending);
      return;
    }
    this.say(() => t('puzzleRight'), 'good');
    this.render();
    if (!(await this.pause(turn))) return;
    if (answer.reply) this.showMove(answer.reply);
    this.check = null;
    this.legal = answer.legal ?? {};
    this.ply = answer.ply;
    this.plyFen = this.fen;
    this.hintStep = 0;
    this.state = 'playing';
    this.say(() => t('puzzleGoOn'));
    this.render();
  }

  /** Shows the position after `move` (a move as the server writes it) with its marks. */
  showMove(move) {
    moveSound(this.fen, move.fen, { check: false });
    this.fen = move.fen;
    this.lastMove = { from: move.from, to: move.to };
  }

  /** A wrong move: the refutation on the board and in words; the puzzle counts as failed. */
  async wrong(answer, turn) {
    this.state = 'wrong';
    const why = answer.refutation;
    if (why) {
      this.arrows = [shape.arrow(why.reply.from, why.reply.to, 'refutation')];
      if (why.square) this.marks = [why.square];
    }
    this.say(() => sentences(t('puzzleWrong', { move: moveText(answer.played, this.settings.notation) }), why ? this.whyText(why) : ''), 'bad');
    this.render();
    await this.fail(turn);
  }

  /** The refutation `why` in words: whose answer it is, what follows, and what it attacks. */
  whyText(why) {
    const move = moveText(why.reply, this.settings.notation);
    const side = t(why.side);
    const piece = why.piece ? pieceName(why.piece).toLowerCase() : '';
    const attacks = why.threat && why.kind !== 'material' && why.kind !== 'mate'
      ? t('why.threat', { move, piece: pieceName(why.threat.piece).toLowerCase(), square: why.threat.square })
      : '';
    switch (why.kind) {
      case 'mate':
        return why.moves === 1 ? t('why.mate1', { move, side }) : t('why.mate', { move, side, moves: why.moves });
      case 'material': return t('why.material', { move, piece, square: why.square });
      case 'no-mate': return sentences(t('why.no-mate', { move, side }), attacks);
      case 'no-win': return sentences(t('why.no-win', { move, side }), attacks);
      default: return sentences(t('why.positional', { move, side, sideOf: t(`of.${why.side}`) }), attacks);
    }
  }

  /** Counts the puzzle as failed, once: the rating goes down. */
  async fail(turn) {
    if (this.failed) return;
    this.failed = true;
    await this.rate(false, turn);
  }

  /**
   * The puzzle is solved; it raises the rating only when nothing failed before. `ending`
   * (`{code}`, when the last move left the other side without a move) is said first: a
   * checkmate and a stalemate are told apart.
   */
  async finish(clean, turn, ending = null) {
    this.state = 'solved';
    this.selected = null;
    const loser = this.puzzle.side === 'red' ? 'black' : 'red';
    this.say(() => sentences(ending ? t(`end.${ending.code}.${loser}`) : '', t('puzzleSolved')), 'good');
    this.render();
    if (clean && !this.failed) await this.rate(true, turn);
    this.learner.current = null;
    this.save();
  }

  /** Sends the result to be rated and keeps the learner's new state. */
  async rate(solved, turn) {
    const id = this.puzzle.id;
    const send = () => api.ratePuzzle({ id, solved, state: this.ratingState() });
    try {
      const result = await send().catch((e) => {
        if (e.code !== 'bad-rating-state') throw e;
        // A saved state the server cannot rate from (edited by hand, or older): start anew.
        const said = this.message;
        this.say(() => sentences(said(), explainError(e)), this.tone);
        Object.assign(this.learner, this.catalog.newcomer);
        return send();
      });
      Object.assign(this.learner, result.state);
      trainedToday('puzzle');
      if (result.rated === false) {
        // Tried before: a puzzle counts once.
        if (turn.live()) {
          const said = this.message;
          this.say(() => sentences(said(), t('puzzleRatedBefore')), this.tone);
        }
      } else {
        this.learner.history = [{ id, solved, change: result.change, rating: result.puzzle_rating }, ...this.learner.history].slice(0, HISTORY_KEPT);
        if (turn.live()) this.rated = result.change;
      }
      this.save();
    } catch (e) {
      if (turn.live()) {
        const said = this.message;
        this.say(() => sentences(said(), explainError(e)), 'bad');
      }
    }
    if (turn.live()) this.render();
  }

  /** Back to the position before the wrong move. */
  retry() {
    if (this.state !== 'wrong') return;
    this.newTurn();
    this.fen = this.plyFen;
    this.check = null;
    this.ended = null;
    this.lastMove = null;
    this.marks = [];
    this.arrows = [];
    this.state = 'playing';
    this.say(() => this.task());
    this.render();
  }

  /** First the piece to move, then the move; a hint counts the puzzle as failed. */
  async hint() {
    if (this.state !== 'playing') return;
    const turn = this.turn();
    try {
      const hint = await api.puzzleHint(this.puzzle.id, this.ply);
      if (!turn.live()) return;
      this.hintStep = Math.min(this.hintStep + 1, 2);
      // The first help of a puzzle not failed yet costs rating points: said, not hidden.
      const costs = !this.failed;
      const cost = () => (costs ? t('puzzleHintCosts') : '');
      if (this.hintStep === 1) {
        this.marks = [hint.from];
        const piece = piecesOfFen(this.fen)[hint.from] ?? 'k';
        this.say(() => sentences(t('puzzleHintPiece', { piece: pieceName(piece).toLowerCase(), square: hint.from }), cost()));
      } else {
        this.marks = [];
        this.arrows = [shape.arrow(hint.move.from, hint.move.to, 'hint')];
        this.say(() => sentences(t('puzzleHintMove', { move: moveText(hint.move, this.settings.notation) }), cost()));
      }
      this.render();
      await this.fail(turn);
    } catch (e) {
      if (turn.live()) {
        this.say(() => explainError(e), 'bad');
        this.render();
      }
    }
  }

  /** Shows the whole line, from the start, to be stepped through. */
  async showSolution() {
    if (!this.puzzle || this.state === 'busy' || this.state === 'loading') return;
    const turn = this.newTurn();
    try {
      const solution = await api.puzzleSolution(this.puzzle.id);
      if (!turn.live()) return;
      this.solution = solution.moves;
      this.solutionAt = 0;
      this.state = 'solution';
      this.arrows = [];
      this.marks = [];
      this.step(1);
      if (this.learner.current === this.puzzle.id) {
        this.learner.current = null;
        this.save();
      }
      await this.fail(turn);
    } catch (e) {
      if (turn.live()) {
        this.say(() => explainError(e), 'bad');
        this.render();
      }
    }
  }

  /** Steps the shown solution by `delta` moves. */
  step(delta) {
    if (this.state !== 'solution') return;
    const moves = this.solution;
    this.solutionAt = Math.max(0, Math.min(moves.length, this.solutionAt + delta));
    const at = this.solutionAt;
    const last = moves[at - 1];
    this.fen = last ? last.fen : this.puzzle.fen;
    this.lastMove = last ? { from: last.from, to: last.to } : null;
    this.check = null;
    // The end of a forced win: the general left without a move, and how (mate or stalemate).
    const end = at === moves.length && (this.puzzle.mate ? 'checkmate' : this.puzzle.stalemate ? 'stalemate' : null);
    this.ended = end ? generalToMove(this.fen) : null;
    const loser = this.puzzle.side === 'red' ? 'black' : 'red';
    this.say(() => {
      const line = moves.slice(0, at).map((m) => moveText(m, this.settings.notation)).join(' ');
      return sentences(end ? t(`end.${end}.${loser}`) : '', `${t('solutionStep', { n: at, count: moves.length })}${line ? `: ${line}` : ''}`);
    });
    this.render();
  }

  drawBoard() {
    this.board.style = pieceLook(this.settings);
    this.board.notation = this.settings.notation;
    this.board.flipped = this.puzzle?.side === 'black';
    if (!this.puzzle) return;
    this.board.render({
      fen: this.fen,
      selected: this.selected,
      // The points the selected piece can go to, as on the Play board.
      targets: this.state === 'playing' && this.selected ? this.legal[this.selected] ?? [] : [],
      check: this.check,
      shapes: this.shapes(),
    });
  }

  render() {
    if (!this.catalog) return;
    const view = element('div', { class: 'puzzle', 'data-state': this.state });
    if (this.puzzle) {
      view.dataset.puzzleId = this.puzzle.id;
      view.dataset.ply = String(this.ply);
      view.dataset.side = this.puzzle.side;
    }
    const side = element('div', { class: 'puzzle-side' });
    side.append(element('h2', {}, t('puzzlesTitle')), this.ratingLine(), this.filterRow());
    if (this.puzzle) {
      const themes = this.puzzle.themes.map(themeName).join(' · ');
      side.append(element('p', { class: 'puzzle-info' }, `${t('puzzleRated', { rating: this.puzzle.rating })} · ${themes}`));
    }
    side.append(element('p', { class: `puzzle-message ${this.tone ?? ''}`, role: 'alert', 'data-puzzle-message': '' }, this.said()));
    side.append(this.controls(), this.historyList());
    // With no puzzle there is no board: the last one's position is not left without a word.
    if (this.puzzle) view.append(this.boardBox);
    view.append(side);
    this.root.replaceChildren(view);
    this.boardBox.setAttribute('aria-label', t('board'));
    this.drawBoard();
  }

  ratingLine() {
    const rating = element('p', { class: 'puzzle-rating' });
    rating.append(element('span', { 'data-puzzle-rating': '' }, t('yourRating', { rating: Math.round(this.learner.rating) })));
    // The first few puzzles calibrate a newcomer's rating.
    if (this.learner.deviation > this.catalog.provisional_deviation) {
      rating.append(' ', element('span', { class: 'rating-provisional', 'data-provisional': '' }, t('ratingProvisional')));
    }
    if (this.rated !== null && this.rated !== undefined) {
      const sign = this.rated > 0 ? '+' : this.rated < 0 ? '−' : '±';
      rating.append(' ', element('span', { class: `rating-change ${this.rated >= 0 ? 'good' : 'bad'}`, 'data-rating-change': String(this.rated) }, `${sign}${Math.abs(this.rated)}`));
    }
    rating.append(' · ', element('span', { 'data-streak': String(this.learner.streak) }, t('streak', { streak: this.learner.streak, best: this.learner.best_streak })));
    return rating;
  }

  filterRow() {
    const row = element('div', { class: 'puzzle-filters' });
    const select = (filter, label, options) => {
      row.append(labelledSelect(label, { 'data-puzzle-filter': filter }, options, this.learner.filters[filter] ?? ''));
    };
    select('theme', t('puzzleTheme'), [['', t('allThemes')], ...this.catalog.themes.map((th) => [th.id, `${themeName(th.id)} (${th.count})`])]);
    if (this.catalog.patterns.length) {
      select('pattern', t('puzzlePattern'), [['', t('anyPattern')], ...this.catalog.patterns.map((p) => [p.id, `${patternName(p.id)} (${p.count})`])]);
    }
    select('source', t('puzzleSource'), [['', t('allPuzzles')], ['own', t('fromMyGames')]]);
    const bands = BANDS.map((low) => [String(low), bandRange(low).join('–')]);
    select('band', t('puzzleBand'), [['', t('nearMyRating')], ...bands]);
    // The difficulty moves "near my rating"; a band chosen says the ratings itself.
    if (!this.learner.filters.band) {
      select('difficulty', t('difficulty'), Object.keys(DIFFICULTIES).map((d) => [d, t(`difficulty.${d}`)]));
    }
    // What the looks at the learner's own games found, and a look at more when games are left.
    if (this.learner.filters.source === 'own' && this.own) {
      const note = element('p', { class: 'theme-about', 'data-own-puzzles': String(this.own.puzzles) },
        t('ownPuzzlesFound', { puzzles: this.own.puzzles, games: this.own.games }));
      if (this.own.games_left > 0) {
        note.append(' ', element('button', { type: 'button', 'data-puzzle': 'look-more' }, t('lookAtMoreGames', { games: this.own.games_left })));
      }
      row.append(note);
    }
    // The theme chosen, explained.
    const about = themeAbout(this.learner.filters.theme ?? '');
    if (about) row.append(element('p', { class: 'theme-about', 'data-theme-about': this.learner.filters.theme }, about));
    return row;
  }

  controls() {
    const row = element('div', { class: 'row puzzle-controls' });
    switch (this.state) {
      case 'playing':
        row.append(button('hint', t('hint'), { title: t('puzzleHintCosts') }), button('solution', t('showSolution')), button('next', t('skipPuzzle')));
        break;
      case 'wrong':
        row.append(button('retry', t('puzzleRetry'), { class: 'primary' }), button('solution', t('showSolution')), button('next', t('nextPuzzle')));
        break;
      case 'solution': {
        const back = button('step-back', `◀ ${t('stepBack')}`);
        const on = button('step-on', `${t('stepOn')} ▶`);
        back.disabled = this.solutionAt <= 0;
        on.disabled = this.solutionAt >= this.solution.length;
        row.append(back, on, button('next', t('nextPuzzle'), { class: 'primary' }));
        break;
      }
      case 'none':
        if (!this.nothingMatches) row.append(button('next', t('nextPuzzle'), { class: 'primary' }));
        break;
      case 'solved':
        row.append(button('next', t('nextPuzzle'), { class: 'primary' }));
        break;
      default:
        break;
    }
    return row;
  }

  historyList() {
    const list = element('ol', { class: 'puzzle-history', 'aria-label': t('puzzleHistory') });
    for (const h of this.learner.history.slice(0, 10)) {
      const sign = h.change > 0 ? '+' : h.change < 0 ? '−' : '±';
      list.append(element('li', { class: h.solved ? 'good' : 'bad', title: t('puzzleRated', { rating: h.rating }) },
        `${h.solved ? '✓' : '✗'} ${sign}${Math.abs(h.change)}`));
    }
    return list;
  }
}
