// The rules course's steps the browser tests share: the lessons as the server serves them,
// the lesson view's state, and solving an exercise or a whole lesson by clicking its
// solutions (read from /api/lessons) — a Chinese answer built from the answer tiles, with
// no Chinese typed; the perpetual drill by clicking the way out the server names each time.

/** The lessons of the rules course in `lang`, as the page gets them. */
export async function lessons(page, lang = 'en') {
  return page.evaluate(async (l) => (await fetch(`/api/lessons?lang=${l}`)).json(), lang);
}

const lessonView = '.lesson[data-lesson-view]';

/** The state of the lesson view (`page`, `playing`, `solved`, `finished` …). */
export async function lessonState(page) {
  return page.getAttribute(lessonView, 'data-state');
}

/** Waits until the lesson view shows exercise `index` in `states`, with `attr` at least `min`. */
export async function waitExercise(page, index, states, attr = null, min = 0) {
  await page.waitForFunction(([i, s, a, m]) => {
    const view = document.querySelector('.lesson[data-lesson-view]');
    if (!view || !s.includes(view.dataset.state)) return false;
    if (view.dataset.state !== 'finished' && view.dataset.exercise !== String(i)) return false;
    return !a || view.dataset.state === 'finished' || Number(view.dataset[a]) >= m;
  }, [index, states, attr, min]);
}

/** Plays `iccs` on the lesson board by two clicks. */
export async function lessonMove(page, iccs) {
  await page.click(`.lesson-board [data-square="${iccs.slice(0, 2)}"]`);
  await page.click(`.lesson-board [data-square="${iccs.slice(2, 4)}"]`);
}

/** Opens the course map from the sections bar. */
export async function openMap(page) {
  await page.click('[data-nav="learn"]');
  await page.waitForSelector('#course .course-map [data-lesson]');
}

/** Writes `text` as the answer: a Chinese answer tile by tile, any other typed. */
export async function writeAnswer(page, text, notation) {
  if (notation !== 'chinese') {
    await page.fill('[data-course-answer]', text);
    return;
  }
  for (const sign of text) await page.click(`[data-course="tile"][data-tile="${sign}"]`);
}

/** Where the drill of exercise `i` of lesson `lesson` stands after `escapes`, as the server says. */
export async function drillState(page, lesson, i, escapes, lang = 'en') {
  return page.evaluate(async (body) => (await fetch('/api/lessons/drill', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  })).json(), { lesson, exercise: i, moves: escapes, lang });
}

/**
 * Plays the drill of exercise `i` of lesson `lesson` by clicking, until the rules' verdict:
 * each time the way out the server names. `afterCheck(escapes, state)` runs after each
 * check the app answers with; the escapes played are returned.
 */
export async function playDrill(page, lesson, i, afterCheck = async () => {}) {
  const escapes = [];
  for (;;) {
    const state = await drillState(page, lesson, i, escapes);
    if (state.verdict || !state.escape) return escapes;
    await lessonMove(page, state.escape.iccs);
    escapes.push(state.escape.iccs);
    await waitExercise(page, i, ['playing', 'solved', 'finished'], 'played', 2 * escapes.length);
    await afterCheck(escapes, state);
  }
}

/**
 * Solves exercise `i` of lesson `lesson` (its id), `ex`, by clicking its first solution; a
 * drill by escaping each check until the verdict.
 */
export async function solveExercise(page, i, ex, lesson = null) {
  await waitExercise(page, i, ['playing']);
  if (ex.kind === 'perpetual') {
    await playDrill(page, lesson, i);
  } else if (ex.kind === 'notation') {
    await writeAnswer(page, ex.answers[ex.notation][0], ex.notation);
    await page.click('[data-course="answer"]');
  } else if (ex.kind === 'all') {
    for (const [k, line] of ex.solutions.entries()) {
      await waitExercise(page, i, ['playing']);
      await lessonMove(page, line[0]);
      await waitExercise(page, i, ['playing', 'solved', 'finished'], 'found', k + 1);
      if (k + 1 < ex.solutions.length) {
        // Back at the start, the moves found so far stay marked on the board.
        await page.waitForFunction((n) => document.querySelectorAll('#course .arrow.found').length === n, k + 1);
      }
    }
  } else {
    const line = ex.solutions[0];
    for (let j = 0; j < line.length; j += 2) {
      await lessonMove(page, line[j]);
      await waitExercise(page, i, ['playing', 'solved', 'finished'], 'played', Math.min(j + 2, line.length));
    }
  }
}

/**
 * Opens lesson `lesson` from the map, reads it through and solves every exercise;
 * `afterSolved(i)` runs on each solved exercise but the last (for the caller's checks).
 */
export async function completeLesson(page, lesson, afterSolved = async () => {}) {
  await page.click(`[data-lesson="${lesson.id}"] button`);
  await page.waitForSelector(`.lesson[data-lesson-view="${lesson.id}"]`);
  while ((await lessonState(page)) === 'page') await page.click('[data-course="next-page"]');
  for (const [i, ex] of lesson.exercises.entries()) {
    const last = i + 1 === lesson.exercises.length;
    await solveExercise(page, i, ex, lesson.id);
    await waitExercise(page, i, [last ? 'finished' : 'solved']);
    if (!last) {
      await afterSolved(i);
      await page.click('[data-course="next-exercise"]');
    }
  }
}
