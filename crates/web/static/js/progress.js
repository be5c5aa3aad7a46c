// A learner's progress (the courses, the endgame course, the puzzles), kept on the server for
// its owner — the learner of their own app, an account, or a guest of a club's server — with a
// copy in this browser, so that it follows an account from browser to browser. At start the
// server's values replace the browser's copies, and a copy the server lacks is sent to it
// (progress kept in this browser before the server kept it). Each change is kept in both; a
// change the server has not confirmed yet (the page was reloaded or closed at once, or the
// server was away) is marked pending, and sent again at the next start instead of being
// replaced.

import * as api from './api.js';
import { read, write } from './settings.js';

/** The browser's key of each topic the server keeps. */
export const PROGRESS_TOPICS = {
  'xiangqi.course': 'course',
  'xiangqi.course.patterns': 'patterns',
  'xiangqi.course.endgames': 'endgames',
  'xiangqi.puzzles': 'puzzles',
  'xiangqi.characters': 'characters',
};

/** The browser's key of the topics whose change the server has not confirmed. */
const PENDING_KEY = 'xiangqi.progress.pending';

const pending = () => new Set(Array.isArray(read(PENDING_KEY)) ? read(PENDING_KEY) : []);

function setPending(key, on) {
  const keys = pending();
  if (on) keys.add(key);
  else keys.delete(key);
  write(PENDING_KEY, [...keys]);
}

/** The sends of each key under way. */
const sending = new Map();
/** The sends under way, as promises. */
const inFlight = new Set();

/** Settles once every change sent so far (progress, and training counted) has been answered. */
export async function progressSent() {
  await Promise.allSettled([...inFlight]);
}

/** Keeps `sent` among the sends under way until it is answered; answers it. */
function track(sent) {
  inFlight.add(sent);
  sent.finally(() => inFlight.delete(sent));
  return sent;
}

/**
 * Sends the browser's value of `key` to the server, pending until the server has it (and every
 * later send of it): one that fails stays pending.
 */
function send(key, value) {
  setPending(key, true);
  sending.set(key, (sending.get(key) ?? 0) + 1);
  const done = (kept) => {
    const left = sending.get(key) - 1;
    sending.set(key, left);
    if (left === 0 && kept) setPending(key, false);
  };
  return track(api.keepProgress(PROGRESS_TOPICS[key], value).then(() => done(true), () => done(false)));
}

/** Brings the browser's copies and the server's values together (see the module's words). */
export async function syncProgress() {
  let kept;
  try {
    kept = await api.progress();
  } catch {
    // Kept nowhere (no data folder) or not known yet: the browser's copies stand.
    return;
  }
  const unconfirmed = pending();
  const sends = [];
  for (const [key, topic] of Object.entries(PROGRESS_TOPICS)) {
    const server = kept?.[topic]?.value;
    const local = read(key);
    if (local !== null && (unconfirmed.has(key) || server === undefined || server === null)) {
      sends.push(send(key, local));
    } else if (server !== undefined && server !== null) {
      write(key, server);
    }
  }
  await Promise.all(sends);
}

/**
 * Counts a piece of today's training finished (`lesson`, `puzzle`, `card` or `ending`) for the
 * streak; Today's training waits for it (see `progressSent`).
 */
export function trainedToday(kind) {
  track(api.trained(kind));
}

/** Keeps `value` as the progress under the browser's `key`, here and on the server. */
export function keepProgress(key, value) {
  write(key, value);
  if (PROGRESS_TOPICS[key]) send(key, value);
}

/** Forgets the browser's copies (another owner signs in here: theirs come from the server). */
export function forgetProgress() {
  for (const key of [...Object.keys(PROGRESS_TOPICS), PENDING_KEY]) {
    try {
      localStorage.removeItem(key);
    } catch {
      // Storage disabled: nothing was kept.
    }
  }
}
