// Browser test of the rules course: the first-visit offer, the course map, lessons completed
// by clicking (solutions read from /api/lessons), done marks that survive a reload, a refused
// move explained in Russian and Chinese, the legend and piece names. Screenshots go to
// screenshots/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { useFreshApp } from './fixture.js';
import * as course from './course.js';

const SHOTS = new globalThis.URL('./screenshots/', import.meta.url).pathname;
/** The lessons the test completes. */
const LESSONS = (process.env.LEARN_LESSONS ?? 'horse,cannon').split(',');
mkdirSync(SHOTS, { recursive: true });
const page = useFreshApp();

const shot = (name) => page.screenshot({ path: join(SHOTS, `${name}.png`) });
const lessonView = '.lesson[data-lesson-view]';

const lessons = (lang) => course.lessons(page, lang);
const state = () => course.lessonState(page);
const waitExercise = (...args) => course.waitExercise(page, ...args);
const move = (iccs) => course.lessonMove(page, iccs);
const openMap = () => course.openMap(page);
const solveExercise = (i, ex) => course.solveExercise(page, i, ex);

/** Opens lesson `lesson` from the map, reads it through and solves every exercise. */
async function completeLesson(lesson) {
  await course.completeLesson(page, lesson, async () => {
    // A solved exercise no longer says whose move it is.
    assert.equal(await page.getAttribute('.lesson-step', 'data-step'), 'solved');
    assert.doesNotMatch(await page.textContent('.lesson-step'), /to move/);
  });
}

test('the first visit offers the course beside Play', async () => {
  assert.equal(await page.isVisible('#welcome'), true);
  assert.equal(await page.isVisible('#welcome [data-action="start-course"]'), true);
  assert.equal(await page.isVisible('#welcome [data-action="play"]'), true);
  await shot('23-first-visit');
  await page.click('#welcome [data-action="play"]');
  assert.equal(await page.isVisible('#welcome'), false);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.isVisible('#welcome'), false, 'the offer is not shown again once dismissed');
});

test('the welcome goes once a whole game is played', async () => {
  await page.evaluate(() => localStorage.removeItem('xiangqi.welcome'));
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.isVisible('#welcome'), true);
  await page.selectOption('[data-setting="mode"]', 'two');
  await page.fill('#fen', '3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1');
  await page.click('[data-action="load-fen"]');
  await page.waitForFunction(() => document.getElementById('fen').value.startsWith('3k5/9/3P5/'));
  await page.click('#board [data-square="a0"]');
  await page.click('#board [data-square="a9"]');
  await page.waitForFunction(() => /checkmated/.test(document.getElementById('status').textContent));
  assert.equal(await page.isVisible('#welcome'), false);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.isVisible('#welcome'), false, 'and stays gone');
  await page.selectOption('[data-setting="mode"]', 'engine');
  await page.click('[data-action="new"]');
  await page.waitForFunction(() => document.getElementById('fen').value.startsWith('rnbakabnr/'));
});

test('the course map lists every lesson and what comes next', async () => {
  const all = await lessons();
  await openMap();
  assert.equal(await page.locator('#course [data-lesson]').count(), all.length);
  assert.equal(await page.locator('#course [data-lesson][data-done="true"]').count(), 0);
  assert.equal(await page.getAttribute('#course [data-next="true"]', 'data-lesson'), all[0].id);
  assert.equal(await page.isVisible('#game'), false, 'the game is hidden while the course is open');
  await shot('15-course-map-en');
});

test(`the ${LESSONS.join(' and ')} lessons are completed by clicking`, async () => {
  const all = await lessons();
  for (const id of LESSONS) {
    const lesson = all.find((l) => l.id === id);
    assert.ok(lesson, `lesson ${id} exists`);
    assert.ok(lesson.exercises.length >= 2, `lesson ${id} has exercises`);
    await completeLesson(lesson);
    assert.match(await page.textContent('.lesson-side'), /Lesson complete/);
    await page.click('.lesson-nav [data-course="map"]');
    await page.waitForSelector(`[data-lesson="${id}"][data-done="true"]`);
  }
});

test('the done marks survive a reload', async () => {
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await openMap();
  for (const id of LESSONS) {
    assert.equal(await page.getAttribute(`[data-lesson="${id}"]`, 'data-done'), 'true', `${id} stays done`);
  }
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('xiangqi.course')));
  assert.deepEqual([...saved.done].sort(), [...LESSONS].sort());
});

test('the course map offers the first lesson not done, and a lesson left part-way beside it', async () => {
  const all = await lessons();
  const first = all.find((l) => !LESSONS.includes(l.id));
  // Completing a lesson makes the one after it current; the untouched lessons before it still come first.
  assert.equal(await page.getAttribute('#course [data-next-lesson]', 'data-next-lesson'), first.id);
  assert.equal(await page.getAttribute('#course [data-next="true"]', 'data-lesson'), first.id);
  assert.equal(await page.locator('#course [data-underway-lesson]').count(), 0, 'a lesson not begun is not offered to continue');
  const later = all.at(-1);
  await page.evaluate(({ id }) => {
    const saved = JSON.parse(localStorage.getItem('xiangqi.course'));
    saved.current = { lesson: id, exercise: 1 };
    localStorage.setItem('xiangqi.course', JSON.stringify(saved));
  }, { id: later.id });
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await openMap();
  assert.equal(await page.getAttribute('#course [data-next-lesson]', 'data-next-lesson'), first.id);
  assert.equal(await page.getAttribute('#course [data-underway-lesson]', 'data-underway-lesson'), later.id);
  assert.match(await page.textContent('#course [data-underway-lesson]'), /^Continue: /);
});

/** A move of the piece on `from` in `fen` that the rules core refuses, with the refusal. */
async function refusedMove(fen, from) {
  return page.evaluate(async ([f, sq]) => {
    const points = [...'abcdefghi'].flatMap((file) => [...'0123456789'].map((rank) => `${file}${rank}`));
    const distance = (p) => Math.abs(p.charCodeAt(0) - sq.charCodeAt(0)) + Math.abs(Number(p[1]) - Number(sq[1]));
    // The nearest points first: a refusal a learner could meet.
    points.sort((a, b) => distance(a) - distance(b));
    for (const to of points) {
      {
        if (to === sq) continue;
        const r = await fetch('/api/lessons/try', {
          method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ fen: f, moves: [`${sq}${to}`] }),
        });
        const body = await r.json();
        if (body.refused && body.refused.code !== 'own-piece-on-target') return { move: `${sq}${to}`, code: body.refused.code };
      }
    }
    return null;
  }, [fen, from]);
}

/** Sets the interface language from the header, where every view has it. */
async function language(lang) {
  await page.selectOption('header [data-setting="language"]', lang);
}

test('a refused move in an exercise is explained in each language', async () => {
  const lesson = (await lessons()).find((l) => l.id === LESSONS[0]);
  const ex = lesson.exercises.find((e) => e.kind !== 'notation');
  const index = lesson.exercises.indexOf(ex);
  const refused = await refusedMove(ex.fen, ex.hint);
  assert.ok(refused, 'some move of the hinted piece is illegal');
  const expected = {
    en: /Illegal move: /,
    ru: /Ход невозможен: .*[а-я]{3}/,
    zh: /着法不合规则：.*[\u4e00-\u9fff]/,
  };
  for (const lang of ['en', 'ru', 'zh']) {
    await language(lang);
    await openMap();
    await shot(`${lang === 'en' ? 15 : lang === 'ru' ? 16 : 17}-course-map-${lang}`);
    const title = (await lessons(lang)).find((l) => l.id === lesson.id).title;
    assert.match(await page.textContent(`[data-lesson="${lesson.id}"]`), new RegExp(title.replace(/[()（）]/g, '.')));
    await page.click(`[data-lesson="${lesson.id}"] button`);
    await page.waitForSelector(`.lesson[data-lesson-view="${lesson.id}"]`);
    while ((await state()) === 'page') await page.click('[data-course="next-page"]');
    // Step to the exercise with the refused move through the solutions of those before it.
    for (let i = 0; i < index; i++) {
      await solveExercise(i, lesson.exercises[i]);
      await waitExercise(i, ['solved']);
      await page.click('[data-course="next-exercise"]');
    }
    await waitExercise(index, ['playing']);
    // Whose move it is, in the language's own grammar (Russian: the genitive, «ход красных»).
    const step = { en: /· (Red|Black) to move$/, ru: /· Ход (красных|чёрных)$/, zh: /· (红|黑)方走棋$/ }[lang];
    assert.match(await page.textContent('.lesson-step'), step);
    // A refusal is an answer, not a failure: the browser's console stays clean.
    const consoleErrors = [];
    const listen = (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); };
    page.on('console', listen);
    await move(refused.move);
    await page.waitForFunction(() => document.querySelector('.lesson-message')?.textContent.length > 0);
    page.off('console', listen);
    assert.deepEqual(consoleErrors, [], 'no error in the console');
    const text = await page.textContent('.lesson-message');
    assert.match(text, expected[lang], `${lang}: ${text}`);
    assert.equal(await state(), 'playing', 'the learner may try again');
    assert.ok((await page.locator('.lesson-board .explain').count()) > 0, 'the reason’s points are marked');
    await page.click('[data-course="hint"]');
    await page.waitForSelector(`.lesson-board [data-square="${ex.hint}"] .explain`, { state: 'attached' });
    await move(refused.move);
    await page.waitForFunction(() => /\S/.test(document.querySelector('.lesson-message')?.textContent ?? ''));
    await shot(`${lang === 'en' ? 18 : lang === 'ru' ? 19 : 20}-exercise-${lang}`);
  }
  await language('en');
});

test('pieces are named in the interface language, on the game board and in the lesson', async () => {
  await page.click('[data-nav="play"]');
  await language('zh');
  await page.waitForFunction(() => document.querySelector('#board [data-square="e0"] [data-piece] > title')?.textContent === '红帅');
  assert.equal(await page.textContent('#board [data-square="e9"] [data-piece] > title'), '黑将');
  await language('ru');
  assert.equal(await page.textContent('#board [data-square="a0"] [data-piece] > title'), 'Красная колесница (车)');
  assert.equal(await page.textContent('#board [data-square="g3"] [data-piece] > title'), 'Красный солдат (兵)');
  await language('en');
  assert.equal(await page.textContent('#board [data-square="b2"] [data-piece] > title'), 'Red cannon (炮)');
  await openMap();
  await page.click(`[data-lesson="${LESSONS[0]}"] button`);
  await page.waitForSelector('.lesson-board [data-piece] > title', { state: 'attached' });
  const titles = await page.$$eval('.lesson-board [data-piece]', (ps) => ps.map((p) => [p.dataset.piece, p.querySelector('title')?.textContent]));
  for (const [letter, title] of titles) {
    assert.match(title, letter === letter.toUpperCase() ? /^Red / : /^Black /, `${letter} is named ${title}`);
  }
});

test('the legend explains the board, from the game and from a lesson', async () => {
  await page.click('header [data-action="legend"]');
  await page.waitForSelector('#legend[open] .legend-marks li');
  const keys = await page.$$eval('#legend .legend-marks li', (items) => items.map((li) => li.dataset.legend));
  for (const key of ['target', 'captureTarget', 'lastMove', 'check', 'marker', 'unprotected', 'hint']) {
    assert.ok(keys.includes(key), `the legend explains ${key}`);
  }
  assert.equal(await page.locator('#legend .legend-pieces li').count(), 14);
  await shot('21-legend');
  await page.click('#legend [data-legend="close"]');
  await page.waitForSelector('#legend:not([open])', { state: 'attached' });
  await openMap();
  await page.click(`[data-lesson="${LESSONS[0]}"] button`);
  await page.click('.lesson-nav [data-course="legend"]');
  await page.waitForSelector('#legend[open] .legend-marks li');
  await page.click('#legend [data-legend="close"]');
});

test('the course works on a phone-sized screen', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openMap();
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, 'the map fits the screen');
  await shot('24-course-map-phone');
  await page.click(`[data-lesson="${LESSONS[1] ?? LESSONS[0]}"] button`);
  await page.waitForSelector('.lesson .lesson-board svg');
  const box = await page.locator('.lesson-board svg').boundingBox();
  assert.ok(box.width <= 390 && box.width > 300, `the board fits the screen (${box.width}px)`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `nothing sticks out sideways (${width}px)`);
  await shot('22-lesson-phone');
  // A long press on a piece names it.
  const square = await page.$eval('.lesson-board [data-piece]', (p) => p.closest('[data-square]').dataset.square);
  const name = await page.textContent(`.lesson-board [data-square="${square}"] [data-piece] > title`);
  await page.$eval(`.lesson-board [data-square="${square}"] [data-piece]`, (p) => {
    const r = p.getBoundingClientRect();
    p.dispatchEvent(new PointerEvent('pointerdown', {
      bubbles: true, pointerType: 'touch', button: 0, clientX: r.x + r.width / 2, clientY: r.y + r.height / 2,
    }));
  });
  await page.waitForSelector('.piece-tip:not([hidden])');
  assert.equal(await page.textContent('.piece-tip'), name);
  await page.$eval('.lesson-board svg', (svg) => svg.dispatchEvent(new PointerEvent('pointerup', { bubbles: true, pointerType: 'touch' })));
  await page.setViewportSize({ width: 1200, height: 820 });
});

/**
 * Serves a course of one lesson with `exercise` (the API's fields; the rest filled in), opens
 * it at its exercise and runs `steps`; the real course is served again after.
 */
async function withLesson(exercise, steps) {
  const lesson = {
    id: 'one-exercise', title: 'One exercise', pages: [],
    exercises: [{ highlights: [], arrows: [], rules: 'asian', ...exercise }],
  };
  await page.route(/\/api\/lessons\?lang=/, (route) => route.fulfill({ json: [lesson] }));
  try {
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await openMap();
    await page.click(`[data-lesson="${lesson.id}"] button`);
    await waitExercise(0, ['playing']);
    await steps();
  } finally {
    await page.unroute(/\/api\/lessons\?lang=/);
  }
}

test('the app plays the scripted reply of a line and shows check', async () => {
  await withLesson({
    fen: '3k5/9/9/9/9/9/9/9/9/R3K4 w', kind: 'line', goal: 'Give check in two moves.',
    solutions: [['a0a5', 'd9d8', 'a5a8']], hint: 'a0',
  }, async () => {
    await move('a0a6');
    await page.waitForFunction(() => /not the one/.test(document.querySelector('.lesson-message')?.textContent));
    assert.equal(await page.getAttribute(lessonView, 'data-played'), '0', 'a legal move that is not a solution is taken back');
    await move('a0a5');
    await waitExercise(0, ['playing'], 'played', 2);
    assert.equal(await page.getAttribute('.lesson-board [data-square="d8"] [data-piece]', 'data-piece'), 'k', 'the reply is played');
    assert.match(await page.textContent('.lesson-message'), /The reply: /);
    // The reply is news, not a fault: it is said in the text's colour, not the error's.
    const colours = await page.evaluate(() => [getComputedStyle(document.querySelector('.lesson-message')).color, getComputedStyle(document.body).color]);
    assert.equal(colours[0], colours[1]);
    await page.click('[data-course="hint"]');
    await page.waitForSelector('.lesson-board [data-square="a5"] .explain', { state: 'attached' });
    // A second press says more: where the piece goes.
    await page.click('[data-course="hint"]');
    const arrow = await page.waitForSelector('.lesson-board .arrow.hint', { state: 'attached' });
    assert.equal(await arrow.getAttribute('data-move'), 'a5a8');
    assert.match(await page.textContent('.lesson-message'), /goes to a8/);
    await move('a5a8');
    await waitExercise(0, ['finished']);
    assert.equal(await page.locator('.lesson-board .in-check').count(), 1, 'the checked general is marked');
  });
});

test('a wrong move in a mate exercise says why it is not mate', async () => {
  await withLesson({
    fen: '3k5/4R4/9/9/9/9/9/9/9/4K2R1 w', kind: 'mate', goal: 'Mate in one move.',
    solutions: [['h0h9']], hint: 'h0',
  }, async () => {
    // A quiet move: no check, so no mate.
    await move('h0h5');
    await page.waitForFunction(() => /gives no check/.test(document.querySelector('.lesson-message')?.textContent));
    // The wrong move's points are ringed as a wrong move, not as the lesson's own marks.
    for (const square of ['h0', 'h5']) {
      assert.equal(await page.locator(`.lesson-board [data-square="${square}"] .wrong-move`).count(), 1, square);
      assert.equal(await page.locator(`.lesson-board [data-square="${square}"] .explain`).count(), 0, square);
    }
    // A check the general answers by taking the chariot: the way out is named and drawn.
    await move('e8d8');
    await page.waitForFunction(() => /gives check, but it is not mate: .* gets out of it/.test(document.querySelector('.lesson-message')?.textContent));
    const arrow = await page.waitForSelector('.lesson-board .arrow.refutation', { state: 'attached' });
    assert.equal(await arrow.getAttribute('data-move'), 'd9d8');
    await language('ru');
    await page.waitForFunction(() => /шах, но не мат/.test(document.querySelector('.lesson-message')?.textContent));
    await language('en');
    await move('h0h9');
    await waitExercise(0, ['finished']);
    assert.equal(await page.locator('.lesson-board .arrow.refutation').count(), 0, 'the way out goes once the mate is found');
  });
});

test('the lesson board names points as the texts do and numbers the files as the notation lesson teaches', async () => {
  // A fresh load, so that the course is the real one again.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await openMap();
  await page.click('[data-lesson="notation"] button');
  await page.waitForSelector('.lesson[data-lesson-view="notation"] .lesson-board svg');
  const row = (kind) => page.evaluate((k) => [...document.querySelectorAll(`.lesson-board text[data-coord="${k}"]`)]
    .sort((a, b) => Number(a.getAttribute('x')) - Number(b.getAttribute('x'))).map((t) => t.textContent).join(''), kind);
  assert.equal(await row('letter'), 'abcdefghi', 'the points\' letters, as every text names points');
  assert.equal(await row('red-number'), '987654321', 'Red counts its files from its own right');
  assert.equal(await row('black-number'), '123456789', 'Black counts its files from its own right');
  const ranks = await page.evaluate(() => [...document.querySelectorAll('.lesson-board text[data-coord="rank"]')].map((t) => t.textContent).join(''));
  assert.equal(ranks, '9876543210');
});
