// Today's training: a newcomer opens Today, sees the day's dose (the first lesson, three
// puzzles near the rating, an opening card, the first ending) with no streak yet; solves one of
// the day's puzzles from there and passes the first lesson; Today then ticks both, offers the
// second lesson, keeps the same three puzzles, and counts a one-day streak, after a reload too
// and in Russian and Chinese.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { useFreshApp } from './fixture.js';
import { completeLesson, lessons, openMap } from './course.js';

const SHOTS = new globalThis.URL('./screenshots/', import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });
const page = useFreshApp();

/** Opens Today from the sections bar and waits for its dose. */
async function openToday() {
  await page.click('[data-nav="today"]');
  await page.waitForSelector('#today .dose-list [data-dose="lesson"]');
}

/** The ids of the day's puzzles, as Today lists them. */
const dailyPuzzles = () => page.$$eval('#today [data-puzzle]', (items) => items.map((i) => i.dataset.puzzle));

async function solution(id) {
  return page.evaluate(async (p) => (await (await fetch(`/api/puzzles/${p}/solution`)).json()).moves, id);
}

test("a newcomer's day: the dose, one puzzle and one lesson done from it, and a streak of one", async () => {
  await openToday();
  assert.equal(await page.getAttribute('#today .today-streak', 'data-streak'), '0');
  assert.match(await page.textContent('#today .today-streak'), /No streak yet/);
  assert.match(await page.textContent('#today .today-count'), /0 of 4 done today/);
  assert.match(await page.textContent('#today [data-dose="lesson"]'), /Rules, lesson 1 of 15: The board/);
  assert.match(await page.textContent('#today [data-dose="ending"]'), /单车胜单将 — Chariot against the lone general: 0 of 2 positions finished/);
  assert.match(await page.textContent('#today [data-dose="card"]'), /A new line to learn: .+, as (Red|Black)\./);
  const puzzles = await dailyPuzzles();
  assert.equal(puzzles.length, 3);
  assert.match(await page.textContent('#today [data-dose="puzzles"]'), /Chosen near your puzzle rating, 900; 0 of 3 tried\./);
  await page.screenshot({ path: join(SHOTS, '90-today-newcomer.png') });

  // One of the day's puzzles, opened from Today and solved by clicking.
  await page.click(`#today [data-puzzle="${puzzles[0]}"] a`);
  await page.waitForSelector(`#puzzles .puzzle[data-puzzle-id="${puzzles[0]}"][data-state="playing"]`);
  const moves = await solution(puzzles[0]);
  for (let i = 0; i < moves.length; i += 2) {
    await page.click(`.puzzle-board [data-square="${moves[i].from}"]`);
    await page.click(`.puzzle-board [data-square="${moves[i].to}"]`);
    const last = i + 1 >= moves.length;
    await page.waitForFunction(([n, done]) => {
      const v = document.querySelector('#puzzles .puzzle');
      return done ? v.dataset.state === 'solved' : Number(v.dataset.ply) >= n && v.dataset.state === 'playing';
    }, [i + 2, last]);
  }
  await page.waitForSelector('[data-rating-change]');

  // The first lesson, passed from the course map.
  const [board] = await lessons(page);
  await openMap(page);
  await completeLesson(page, board);

  await openToday();
  await page.waitForSelector('#today .today-streak[data-streak="1"]');
  assert.match(await page.textContent('#today .today-streak'), /1 day in a row\. Keep it going!/);
  assert.match(await page.textContent('#today [data-dose="lesson"]'), /Rules, lesson 2 of 15: The general/);
  assert.equal(await page.locator('#today [data-dose="lesson"].dose-done').count(), 1, 'the lesson is ticked');
  assert.deepEqual(await dailyPuzzles(), puzzles, "the day's puzzles stay the day's");
  assert.equal(await page.locator(`#today [data-puzzle="${puzzles[0]}"].solved`).count(), 1, 'the puzzle solved is marked');
  assert.match(await page.textContent('#today [data-dose="puzzles"]'), /1 of 3 tried/);
  assert.match(await page.textContent('#today .today-count'), /1 of 4 done today/);
  await page.screenshot({ path: join(SHOTS, '91-today-trained.png') });

  // Kept on the server: a reload shows the same day.
  await page.reload();
  await page.waitForSelector('#today .today-streak[data-streak="1"]');
  assert.equal(await page.locator('#today [data-dose="lesson"].dose-done').count(), 1);

  // In Russian and Chinese.
  await page.selectOption('[data-setting="language"]', 'ru');
  await page.waitForFunction(() => /1 день подряд/.test(document.querySelector('#today .today-streak')?.textContent ?? ''));
  assert.match(await page.textContent('#today h2'), /Тренировка на сегодня/);
  assert.match(await page.textContent('#today [data-dose="lesson"]'), /Правила, урок 2 из 15/);
  await page.selectOption('[data-setting="language"]', 'zh');
  await page.waitForFunction(() => /已连续训练1天/.test(document.querySelector('#today .today-streak')?.textContent ?? ''));
  assert.match(await page.textContent('#today [data-dose="lesson"]'), /规则课，第2课（共15课）/);
  await page.screenshot({ path: join(SHOTS, '92-today-zh.png') });
  await page.selectOption('[data-setting="language"]', 'en');
});
