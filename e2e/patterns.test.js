// Browser test of the mating-patterns course: its tab on the course map lists every pattern
// with its Chinese name, pinyin and translated name; a mate in two is solved by clicking,
// Black's reply is played by the app between the learner's moves, and the solved exercise is
// counted on the lesson and on the map, and kept across a reload.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { APP_URL as URL, useApp } from './fixture.js';

const SHOTS = new globalThis.URL('./screenshots/', import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });
const page = useApp(async (page) => {
  if (await page.isVisible('#welcome')) await page.click('#welcome [data-action="play"]');
});

const shot = (name) => page.screenshot({ path: join(SHOTS, `${name}.png`) });

async function patterns(lang = 'en') {
  return page.evaluate(async (l) => (await fetch(`/api/lessons?course=patterns&lang=${l}`)).json(), lang);
}

async function openPatternsMap() {
  await page.click('[data-nav="learn"]');
  await page.waitForSelector('#course .course-tabs [data-course-id="patterns"]');
  await page.click('#course .course-tabs [data-course-id="patterns"]');
  await page.waitForSelector('#course .course-map[data-course-map="patterns"] [data-lesson]');
}

async function solvedOnPage() {
  return Number(await page.getAttribute('#course .course-count', 'data-solved'));
}

/** Waits until the lesson view shows exercise `index` in one of `states`, with `played` moves at least. */
async function waitExercise(index, states, played = 0) {
  await page.waitForFunction(([i, s, p]) => {
    const view = document.querySelector('.lesson[data-lesson-view]');
    if (!view || !s.includes(view.dataset.state)) return false;
    if (view.dataset.state !== 'finished' && view.dataset.exercise !== String(i)) return false;
    return view.dataset.state === 'finished' || Number(view.dataset.played) >= p;
  }, [index, states, played]);
}

async function move(iccs) {
  await page.click(`.lesson-board [data-square="${iccs.slice(0, 2)}"]`);
  await page.click(`.lesson-board [data-square="${iccs.slice(2, 4)}"]`);
}

test('the patterns tab lists every named mate with its Chinese name, pinyin and name', async () => {
  const all = await patterns();
  assert.ok(all.length >= 13, `${all.length} patterns`);
  await openPatternsMap();
  assert.equal(await page.locator('#course [data-lesson]').count(), all.length);
  assert.equal(await page.getAttribute('#course [data-course-id="patterns"]', 'aria-selected'), 'true');
  const first = await page.textContent(`[data-lesson="${all[0].id}"] .lesson-title`);
  assert.equal(first, `${all[0].chinese} (${all[0].pinyin}) — ${all[0].title}`);
  assert.equal(await solvedOnPage(), 0);
  await shot('40-patterns-map');
});

test('a mate in two is solved by clicking, the reply comes by itself and the solve is counted', async () => {
  const all = await patterns();
  const lesson = all.find((l) => l.exercises.some((e) => e.solutions[0].length === 3));
  const index = lesson.exercises.findIndex((e) => e.solutions[0].length === 3);
  const line = lesson.exercises[index].solutions[0];
  await page.click(`[data-lesson="${lesson.id}"] button`);
  await page.waitForSelector(`.lesson[data-lesson-view="${lesson.id}"]`);
  assert.match(await page.textContent('.lesson-side h2'), new RegExp(lesson.chinese));
  while ((await page.getAttribute('.lesson[data-lesson-view]', 'data-state')) === 'page') {
    await page.click('[data-course="next-page"]');
  }
  // Step to the mate in two through the exercises before it.
  for (let i = 0; i < index; i++) {
    await waitExercise(i, ['playing']);
    const earlier = lesson.exercises[i].solutions[0];
    for (let j = 0; j < earlier.length; j += 2) {
      await move(earlier[j]);
      await waitExercise(i, ['playing', 'solved'], Math.min(j + 2, earlier.length));
    }
    await waitExercise(i, ['solved']);
    await page.click('[data-course="next-exercise"]');
  }
  await waitExercise(index, ['playing']);
  const before = await solvedOnPage();
  await move(line[0]);
  // The app plays Black's reply: the board shows it as the last move, and it is the learner's turn again.
  await waitExercise(index, ['playing'], 2);
  const reply = line[1];
  assert.ok(
    (await page.locator(`.lesson-board [data-square="${reply.slice(2, 4)}"] [data-piece]`).count()) > 0,
    `Black's reply ${reply} is on the board`,
  );
  await shot('41-patterns-reply');
  await move(line[2]);
  await waitExercise(index, ['solved', 'finished'], 3);
  assert.equal(await solvedOnPage(), before + 1);
  await shot('42-patterns-solved');
  await page.click('.lesson-nav [data-course="map"]');
  await page.waitForSelector('#course .course-map[data-course-map="patterns"]');
  assert.equal(await solvedOnPage(), index + 1);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await openPatternsMap();
  assert.equal(await solvedOnPage(), index + 1, 'the count is kept across a reload');
});

test('the pattern titles follow the interface language', async () => {
  const ru = await patterns('ru');
  const zh = await patterns('zh');
  await page.click('[data-nav="play"]');
  await page.selectOption('header [data-setting="language"]', 'ru');
  await openPatternsMap();
  assert.equal(
    await page.textContent(`[data-lesson="${ru[0].id}"] .lesson-title`),
    `${ru[0].chinese} (${ru[0].pinyin}) — ${ru[0].title}`,
  );
  await page.click('[data-nav="play"]');
  await page.selectOption('header [data-setting="language"]', 'zh');
  await openPatternsMap();
  assert.equal(await page.textContent(`[data-lesson="${zh[0].id}"] .lesson-title`), `${zh[0].chinese}（${zh[0].pinyin}）`);
  await shot('43-patterns-map-zh');
  await page.click('[data-nav="play"]');
  await page.selectOption('header [data-setting="language"]', 'en');
});
