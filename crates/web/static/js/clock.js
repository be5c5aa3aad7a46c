// The optional game clock: minutes per side plus an increment per move. It runs for the side
// to move, adds the increment to the side that just moved, and notices a fallen flag.

/** The time controls offered: minutes per side and seconds added per move. */
export const TIME_CONTROLS = {
  off: null,
  '3+2': { minutes: 3, increment: 2 },
  '5+0': { minutes: 5, increment: 0 },
  '10+5': { minutes: 10, increment: 5 },
  '15+10': { minutes: 15, increment: 10 },
  '30+0': { minutes: 30, increment: 0 },
};

/** A chess clock for one game, kept as plain data so that it survives a reload. */
export class Clock {
  /** A clock for time control `control` (a key of TIME_CONTROLS), or one restored from `saved`. */
  constructor(control, saved = null) {
    const spec = TIME_CONTROLS[control] ?? null;
    this.control = spec ? control : 'off';
    this.increment = spec ? spec.increment * 1000 : 0;
    const full = spec ? spec.minutes * 60000 : 0;
    this.left = { red: full, black: full };
    this.running = null;
    this.since = 0;
    this.plies = 0;
    this.flagged = null;
    if (saved && saved.control === this.control) {
      this.left = { red: saved.left.red, black: saved.left.black };
      this.plies = saved.plies;
      this.flagged = saved.flagged;
    }
  }

  /** Whether the clock is in use at all. */
  get enabled() {
    return this.control !== 'off';
  }

  /** Milliseconds left for `side` now. */
  remaining(side) {
    const spent = this.running === side ? performance.now() - this.since : 0;
    return Math.max(0, this.left[side] - spent);
  }

  /** Stops the clock, keeping what each side has left. */
  pause() {
    if (this.running) this.left[this.running] = this.remaining(this.running);
    this.running = null;
  }

  /**
   * Follows the game: a side whose move was added gets its increment, and the clock then runs
   * for the side to move unless the game is over or `hold` says to wait.
   */
  follow(game, hold) {
    this.pause();
    const plies = game.moves.length;
    if (plies > this.plies) {
      const startsRed = game.start_fen.split(' ')[1] !== 'b';
      for (let ply = this.plies; ply < plies; ply++) {
        const mover = (ply % 2 === 0) === startsRed ? 'red' : 'black';
        this.left[mover] += this.increment;
      }
    }
    this.plies = plies;
    if (!this.enabled || this.flagged || game.outcome || hold) return;
    this.running = game.turn;
    this.since = performance.now();
  }

  /** The side whose flag has just fallen, if any (it then stays fallen). */
  check() {
    if (this.running && this.remaining(this.running) <= 0) {
      this.flagged = this.running;
      this.pause();
      this.left[this.flagged] = 0;
    }
    return this.flagged;
  }

  /** The clock as data for saving. */
  toJSON() {
    return { control: this.control, left: { red: this.remaining('red'), black: this.remaining('black') }, plies: this.plies, flagged: this.flagged };
  }
}

/** `m:ss`, or `s.t` under ten seconds. */
export function formatTime(ms) {
  if (ms < 10000) return `${(Math.floor(ms / 100) / 10).toFixed(1)}`;
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
