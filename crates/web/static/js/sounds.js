// The board's sounds, made here with the Web Audio API (no recordings): a wooden click for a
// move, a heavier knock for a capture, a two-note call for a check and a short falling phrase
// for the end of a game or a line. On by default; the settings' Sounds switch turns them off.
// The last sound asked for is noted on the page (`data-last-sound`, with a count in
// `data-sounds`), so that what a learner would hear can be checked without a speaker.

/** Each sound: its notes as `[frequency Hz, start s, length s, gain]`, and its wave. */
const SOUNDS = {
  move: { wave: 'triangle', notes: [[520, 0, 0.07, 0.35], [260, 0, 0.05, 0.25]] },
  capture: { wave: 'triangle', notes: [[330, 0, 0.09, 0.45], [165, 0.02, 0.12, 0.4], [520, 0.06, 0.05, 0.2]] },
  check: { wave: 'sine', notes: [[880, 0, 0.12, 0.3], [660, 0.13, 0.16, 0.3]] },
  end: { wave: 'sine', notes: [[784, 0, 0.16, 0.3], [659, 0.17, 0.16, 0.3], [523, 0.34, 0.3, 0.3]] },
};

let context = null;
let enabled = () => true;

/** Sounds follow `isOn()` (the settings' switch). */
export function soundsFollow(isOn) {
  enabled = isOn;
}

/** Plays sound `kind` (`move`, `capture`, `check` or `end`) when sounds are on. */
export function playSound(kind) {
  const sound = SOUNDS[kind];
  if (!sound || !enabled()) return;
  document.body.dataset.lastSound = kind;
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds ?? 0) + 1);
  try {
    context ??= new AudioContext();
    if (context.state === 'suspended') context.resume().catch(() => {});
    const now = context.currentTime;
    for (const [frequency, start, length, gain] of sound.notes) {
      const osc = context.createOscillator();
      const level = context.createGain();
      osc.type = sound.wave;
      osc.frequency.value = frequency;
      level.gain.setValueAtTime(gain, now + start);
      level.gain.exponentialRampToValueAtTime(0.001, now + start + length);
      osc.connect(level).connect(context.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
  } catch {
    // No audio here (a browser without Web Audio): the game goes on in silence.
  }
}

/** The number of pieces on the board of `fen`. */
function pieceCount(fen) {
  return (fen.split(' ')[0].match(/[a-zA-Z]/g) ?? []).length;
}

/**
 * The sound of a move that led from `before` to `after` (FENs): the end when `ended`, a check
 * when `check`, a capture when a piece left the board, else a move.
 */
export function moveSound(before, after, { check = false, ended = false } = {}) {
  if (ended) return playSound('end');
  if (check) return playSound('check');
  playSound(before && pieceCount(after) < pieceCount(before) ? 'capture' : 'move');
}
