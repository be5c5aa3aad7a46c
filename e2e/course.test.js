// The whole rules course, all its lessons, finished in English by clicking only: every move
// on the board, every Chinese answer built from the answer tiles (no Chinese typed; WXF and
// ICCS answers are plain letters). On the notation lesson the second hint names the next
// tile, and an answer gone astray is told where to start again.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp } from './fixture.js';
import { completeLesson, drillState, lessonMove, lessonState, lessons, openMap, playDrill, solveExercise, waitExercise, writeAnswer } from './course.js';

const page = useApp();

test('the notation lesson: the second hint names the next tile, and a Chinese answer is built from tiles', async () => {
  const notation = (await lessons(page)).find((l) => l.id === 'notation');
  const index = notation.exercises.findIndex((e) => e.notation === 'chinese');
  const ex = notation.exercises[index];
  await openMap(page);
  await page.click('[data-lesson="notation"] button');
  while ((await lessonState(page)) === 'page') await page.click('[data-course="next-page"]');
  for (let i = 0; i < index; i++) {
    await waitExercise(page, i, ['playing']);
    await writeAnswer(page, notation.exercises[i].answers[notation.exercises[i].notation][0], notation.exercises[i].notation);
    await page.click('[data-course="answer"]');
    await waitExercise(page, i, ['solved']);
    await page.click('[data-course="next-exercise"]');
  }
  await waitExercise(page, index, ['playing']);
  const spelled = [...ex.answers.chinese[0]];
  // The first hint marks the piece; the second names the first tile, then the next one.
  await page.click('[data-course="hint"]');
  await page.click('[data-course="hint"]');
  assert.equal(await page.textContent('.lesson-message'), `Hint: the next sign is ${spelled[0]}.`);
  await page.click(`[data-course="tile"][data-tile="${spelled[0]}"]`);
  await page.click('[data-course="hint"]');
  assert.equal(await page.textContent('.lesson-message'), `Hint: the next sign is ${spelled[1]}.`);
  // A wrong tile: the hint says to start again; the erase tile takes it back.
  const wrong = spelled[1] === '三' ? '四' : '三';
  await page.click(`[data-course="tile"][data-tile="${wrong}"]`);
  await page.click('[data-course="hint"]');
  assert.equal(await page.textContent('.lesson-message'), `Hint: the answer has gone astray; erase it and start with ${spelled[0]}.`);
  await page.click('[data-course="erase"]');
  assert.equal(await page.inputValue('[data-course-answer]'), spelled[0]);
  // A wrong answer is refused, the right one built from the tiles is taken.
  await page.click(`[data-course="tile"][data-tile="${wrong}"]`);
  await page.click('[data-course="answer"]');
  await page.waitForFunction(() => /^Not quite\./.test(document.querySelector('.lesson-message')?.textContent ?? ''));
  await page.click('[data-course="erase"]');
  await page.click('[data-course="erase"]');
  assert.equal(await page.inputValue('[data-course-answer]'), '');
  await writeAnswer(page, ex.answers.chinese[0], 'chinese');
  await page.screenshot({ path: 'screenshots/33-notation-tiles.png' });
  await page.click('[data-course="answer"]');
  await waitExercise(page, index, ['solved']);
});

test('the perpetual drill: the chariot checks after every escape, and the sixth check ends it with the CXQ verdict', async () => {
  const perpetual = (await lessons(page)).find((l) => l.id === 'perpetual');
  const index = perpetual.exercises.findIndex((e) => e.kind === 'perpetual');
  await openMap(page);
  await page.click('[data-lesson="perpetual"] button');
  while ((await lessonState(page)) === 'page') await page.click('[data-course="next-page"]');
  for (let i = 0; i < index; i++) {
    await solveExercise(page, i, perpetual.exercises[i], 'perpetual');
    await waitExercise(page, i, ['solved']);
    await page.click('[data-course="next-exercise"]');
  }
  await waitExercise(page, index, ['playing']);
  await page.waitForSelector('.drill-count[data-checks="1"]');
  assert.equal(await page.textContent('.drill-count'), 'Check 1 of 6');
  // The soldier's step leaves the general in check: refused with the reason, not counted.
  await lessonMove(page, 'a1a0');
  await page.waitForFunction(() => /check/.test(document.querySelector('.lesson-message.bad')?.textContent ?? ''));
  assert.equal(await page.textContent('.drill-count'), 'Check 1 of 6');
  const counts = [];
  const escapes = await playDrill(page, 'perpetual', index, async (played) => {
    if (played.length < 5) {
      await page.waitForSelector(`.drill-count[data-checks="${played.length + 1}"]`);
      counts.push(await page.textContent('.drill-count'));
      assert.match(await page.textContent('.lesson-message'), /^Check again: /);
    }
  });
  assert.equal(escapes.length, 5, 'five escapes, six checks');
  assert.deepEqual(counts, ['Check 2 of 6', 'Check 3 of 6', 'Check 4 of 6', 'Check 5 of 6']);
  await page.waitForSelector('.lesson[data-verdict="perpetual-check"]');
  // The verdict is the server's, in the page's language; the chariot stands where the last
  // escape drew it.
  const said = await page.textContent('.lesson-message');
  assert.match(said, /^Red has checked 6 times in a row with one piece \(the chariot on h[79]\): under the CXQ rules Red loses\.$/);
  assert.equal(said, (await drillState(page, 'perpetual', index, escapes)).verdict.text);
  assert.equal(await lessonState(page), 'finished', 'the drill is the lesson\'s last exercise');
  await page.screenshot({ path: 'screenshots/34-perpetual-verdict.png' });
});

test('every lesson of the rules course is finished by clicking', async () => {
  const all = await lessons(page);
  assert.ok(all.length >= 15, `${all.length} lessons`);
  for (const lesson of all) {
    await openMap(page);
    await completeLesson(page, lesson);
    assert.match(await page.textContent('.lesson-side'), /Lesson complete/);
    await page.click('.lesson-nav [data-course="map"]');
    await page.waitForSelector(`[data-lesson="${lesson.id}"][data-done="true"]`);
  }
  assert.equal(await page.locator('#course [data-lesson][data-done="true"]').count(), all.length, 'every lesson is done');
});
