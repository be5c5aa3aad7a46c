// The loop the course, the mating patterns, the puzzles, the trainer and the endgames share. Each exercise
// view keeps its turn, and an answer that comes back after a newer turn began (the learner
// went to another exercise, or took the move back) is dropped. It says what happened in words
// that follow a language change, sends the learner's move and shows why one is refused, and
// waits the same pause before the program's reply.

import { explainError, refusedMove } from './reasons.js';
import { explainShapes, lastMoveShapes, shape } from './board.js';

/** How long the program waits before its reply, so that the learner sees their move land. */
export const REPLY_DELAY_MS = 450;

/** Resolves after `ms` milliseconds. */
export const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What every exercise view has: its turn, its message and the sending of a move. */
export class Exercise {
  /** Starts a new turn: the answers to earlier ones are dropped from now on; the new turn. */
  newTurn() {
    this.turnCount = (this.turnCount ?? 0) + 1;
    return this.turn();
  }

  /** The current turn: its `live()` turns false once a newer turn begins. */
  turn() {
    const count = this.turnCount ?? 0;
    return { live: () => count === (this.turnCount ?? 0) };
  }

  /** Says `text` (a string, or a function that words it in the current language) in `tone`. */
  say(text, tone = '') {
    this.message = typeof text === 'function' ? text : () => text;
    this.tone = tone;
  }

  /** What was said last, in the current language. */
  said() {
    return this.message?.() ?? '';
  }

  /**
   * The board's shapes of the exercise: its last move (`lastMove`, `{from, to}`), the points
   * its message speaks of (`marks`, points), a wrong move's two points (`wrongMove`, ringed unlike
   * a lesson's marks), its arrows (`arrows`, shapes) and the general left without a move when
   * the line ended (`ended`, a point), then `extra`.
   */
  shapes(extra = []) {
    const ended = this.ended ? [shape.ended(this.ended)] : [];
    const wrong = (this.wrongMove ?? []).map((square) => shape.circle(square, 'wrong-move'));
    return [...lastMoveShapes(this.lastMove), ...explainShapes(this.marks), ...wrong, ...(this.arrows ?? []), ...ended, ...extra];
  }

  /**
   * Sends the learner's `move` (ICCS) with `send()` and answers what the server said; null
   * when the turn went by meanwhile, or when the move was refused: then the view says why
   * (`explain` words a refusal that is not a rule), marks its points and waits for another move.
   */
  async submit(move, send, explain = explainError) {
    const turn = this.turn();
    this.state = 'busy';
    this.marks = [];
    this.wrongMove = [];
    this.arrows = [];
    this.render();
    try {
      const answer = await send();
      return turn.live() ? answer : null;
    } catch (e) {
      if (!turn.live()) return null;
      this.state = 'playing';
      const refusal = refusedMove(e, move, explain);
      this.say(refusal.text, 'bad');
      this.marks = refusal.marks;
      this.render();
      return null;
    }
  }

  /** Waits `ms` (the reply delay unless given): whether `turn` is still the current one. */
  async pause(turn, ms = REPLY_DELAY_MS) {
    await wait(ms);
    return turn.live();
  }
}
