// Browser test of the app's addresses and its navigation: each view has its own address, so
// that a reload keeps a puzzle, a lesson, the trainer's line or a game from My games;
// Back and Forward move between views; the sections bar marks the view shown; a Russian or
// Chinese browser's first visit is in its language, and the language can be changed from the
// course; on a phone the board starts near the top.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './browser.js';
import { APP_URL as URL, clickPoint, openView, useApp } from './fixture.js';

const page = useApp();

const hash = () => page.evaluate(() => location.hash);
const current = () => page.getAttribute('[data-nav][aria-current="page"]', 'data-nav');
const puzzleId = () => page.getAttribute('#puzzles .puzzle', 'data-puzzle-id');

/** Waits until the address is `wanted` (a string or a pattern). */
async function waitHash(wanted) {
  await page.waitForFunction((w) => (w.startsWith('^') ? new RegExp(w).test(location.hash) : location.hash === w),
    wanted instanceof RegExp ? wanted.source : wanted);
  return hash();
}

test('a fresh visit opens on Play at #/play, marked in the sections bar', async () => {
  assert.equal(await hash(), '#/play');
  assert.equal(await current(), 'play');
  assert.equal(await page.isVisible('#game'), true);
});

test('a reload on a puzzle\'s address shows the same puzzle', async () => {
  await openView(page, 'puzzles');
  await page.waitForSelector('#puzzles .puzzle[data-state="playing"]');
  const id = await puzzleId();
  assert.equal(await waitHash(`#/puzzles/${id}`), `#/puzzles/${id}`);
  assert.equal(await current(), 'puzzles');
  // Another puzzle takes the address in place.
  await page.click('[data-puzzle="next"]');
  await page.waitForFunction((old) => {
    const v = document.querySelector('#puzzles .puzzle[data-state="playing"]');
    return v && v.dataset.puzzleId !== old;
  }, id);
  const other = await puzzleId();
  await waitHash(`#/puzzles/${other}`);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('#puzzles .puzzle[data-state="playing"]');
  assert.equal(await puzzleId(), other, 'the same puzzle after the reload');
  // A puzzle's address opened anew shows that puzzle, not the one under way.
  await page.goto(`${URL}#/puzzles/${id}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForFunction((want) => document.querySelector('#puzzles .puzzle')?.dataset.puzzleId === want, id);
});

test('Back from Puzzles returns to the view before it, and Forward goes again', async () => {
  await openView(page, 'learn');
  await page.waitForSelector('.course-map');
  assert.equal(await waitHash('#/learn'), '#/learn');
  await openView(page, 'puzzles');
  await page.waitForSelector('#puzzles .puzzle[data-state="playing"]');
  await waitHash(/^#\/puzzles\/.+/);
  await page.goBack();
  await page.waitForSelector('.course-map');
  assert.equal(await page.isVisible('#puzzles'), false);
  assert.equal(await hash(), '#/learn');
  assert.equal(await current(), 'learn');
  await page.goForward();
  await page.waitForSelector('#puzzles .puzzle[data-state="playing"]');
  assert.equal(await current(), 'puzzles');
  // Play's own address takes the board back; Back returns to the puzzle.
  await openView(page, 'play');
  await page.waitForSelector('#game:not([hidden])');
  assert.equal(await hash(), '#/play');
  await page.goBack();
  await page.waitForSelector('#puzzles:not([hidden])');
});

test('a lesson has its address: a reload and Back keep the learner where they were', async () => {
  await openView(page, 'learn');
  await page.waitForSelector('.course-map');
  const lesson = await page.getAttribute('.lesson-list li:nth-child(2)', 'data-lesson');
  await page.click('.lesson-list li:nth-child(2) button');
  await page.waitForSelector(`.lesson[data-lesson-view="${lesson}"]`);
  assert.equal(await waitHash(`#/learn/${lesson}`), `#/learn/${lesson}`);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector(`.lesson[data-lesson-view="${lesson}"]`);
  await page.goBack();
  await page.waitForSelector('.course-map[data-course-map="rules"]');
  // The patterns course has addresses of its own.
  await page.click('[data-course="switch"][data-course-id="patterns"]');
  await page.waitForSelector('.course-map[data-course-map="patterns"]');
  assert.equal(await waitHash('#/patterns'), '#/patterns');
  assert.equal(await current(), 'learn');
  const pattern = await page.getAttribute('.lesson-list li:first-child', 'data-lesson');
  await page.goto(`${URL}#/patterns/${pattern}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector(`.lesson[data-lesson-view="${pattern}"]`);
});

test('the language can be changed from the course, and the course follows', async () => {
  await page.goto(`${URL}#/learn`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('.course-map');
  await page.selectOption('header [data-setting="language"]', 'ru');
  await page.waitForFunction(() => document.querySelector('.course-map h2')?.textContent.includes('Курс правил'));
  assert.equal(await page.textContent('[data-nav="puzzles"]'), 'Задачи');
  assert.equal(await hash(), '#/learn', 'the view stays');
  await page.selectOption('header [data-setting="language"]', 'en');
  await page.waitForFunction(() => !/[А-я]/.test(document.querySelector('.course-map h2')?.textContent ?? 'Я'));
  // The other settings are a click away too, and the course follows them.
  await page.click('header [data-action="settings"]');
  assert.equal(await page.isVisible('[data-setting="pieceStyle"]'), true);
  await page.click('.lesson-list li:first-child button');
  await page.waitForSelector('.lesson[data-lesson-view] .lesson-board [data-piece]');
  // Whether the pieces are drawn as characters is `drawn`: such a piece has its character as
  // text (its title names it in any style).
  const charactersAre = (drawn) => [...document.querySelectorAll('.lesson-board [data-piece] text')]
    .some((t) => /[帥帅將将車车俥馬马傌炮砲包相象仕士兵卒]/.test(t.textContent)) === drawn;
  await page.waitForFunction(charactersAre, true);
  await page.selectOption('[data-setting="pieceStyle"]', 'european');
  await page.waitForFunction(charactersAre, false);
  await page.selectOption('[data-setting="pieceStyle"]', 'characters');
});

test('a line of the trainer has its address', async () => {
  await openView(page, 'trainer');
  await page.waitForSelector('.trainer');
  assert.equal(await waitHash('#/trainer'), '#/trainer');
  await page.click('[data-trainer="start"]');
  await page.waitForSelector('.trainer[data-state="playing"]');
  const { line, side } = await page.evaluate(() => ({ ...document.querySelector('.trainer').dataset }));
  assert.equal(await waitHash(`#/trainer/${line}/${side}`), `#/trainer/${line}/${side}`);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForFunction(([l, s]) => {
    const v = document.querySelector('.trainer[data-state="playing"]');
    return v && v.dataset.line === l && v.dataset.side === s;
  }, [line, side]);
  assert.equal(await current(), 'trainer');
});

test("the trainer's former address opens it", async () => {
  await page.goto(`${URL}#/openings`);
  // The run under way stays, with its own address.
  assert.match(await waitHash(/^#\/trainer(\/|$)/), /^#\/trainer(\/|$)/);
  await page.waitForSelector('#trainer .trainer');
  assert.equal(await current(), 'trainer');
});

test('a game of My games has its address, and so has its review', async () => {
  await page.goto(`${URL}#/play`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.selectOption('[data-setting="mode"]', 'two');
  await page.click('[data-action="new"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves [data-ply]').length === 0);
  for (const [from, to, n] of [['h2', 'e2', 1], ['h9', 'g7', 2]]) {
    await clickPoint(page, from);
    await clickPoint(page, to);
    await page.waitForFunction((k) => document.querySelectorAll('#moves [data-ply]').length === k, n);
  }
  const key = await page.evaluate(() => JSON.parse(localStorage.getItem('xiangqi.archive')).key);
  let row = null;
  for (let tries = 0; !row && tries < 50; tries++) {
    const list = await page.evaluate(async () => (await (await fetch('/api/archive/games')).json()).games);
    row = list.find((g) => g.key === key && g.moves === 2);
    if (!row) await page.waitForTimeout(100);
  }
  assert.ok(row, 'the game is in My games');
  await openView(page, 'games');
  await page.waitForSelector('.archive-list table');
  await page.click(`.archive-list tbody tr:has([data-open]) >> nth=0 >> [data-open]`);
  assert.equal(await waitHash(`#/games/${row.id}`), `#/games/${row.id}`);
  await page.waitForSelector('#game:not([hidden])');
  assert.equal(await current(), 'games');
  // The address opened anew shows the game; once it changes on the board, it is Play's again.
  await page.goto(`${URL}#/play`);
  await page.goto(`${URL}#/games/${row.id}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves [data-ply]').length === 2);
  assert.equal(await hash(), `#/games/${row.id}`);
  await clickPoint(page, 'b0');
  await clickPoint(page, 'c2');
  await page.waitForFunction(() => document.querySelectorAll('#moves [data-ply]').length === 3);
  assert.equal(await waitHash('#/play'), '#/play');
  // A review's address opens the game and reviews it.
  await page.goto(`${URL}#/review/${row.id}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('#review .review-graph', { timeout: 30000 });
  assert.equal(await hash(), `#/review/${row.id}`);
  assert.equal(await current(), 'games');
  // An id My games does not have is said there.
  await page.goto(`${URL}#/games/999999`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('#archive:not([hidden]) #archive-status');
  await page.waitForFunction(() => document.querySelector('#archive-status').textContent.includes('999999'));
  // Play's own settings are shown on Play only.
  assert.equal(await page.isVisible('[data-setting="mode"]'), false);
  await openView(page, 'play');
  await page.selectOption('[data-setting="mode"]', 'engine');
});

test('an address that names no view shows Play', async () => {
  await page.goto(`${URL}#/nowhere/at-all`);
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await hash(), '#/play');
  assert.equal(await page.isVisible('#game'), true);
});

test('on a phone the sections are in reach and the board starts within the first 200 px', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${URL}#/play`);
  await page.waitForSelector('body[data-ready="true"]');
  if (await page.isVisible('#welcome')) await page.click('#welcome [data-action="play"]');
  const box = await page.locator('#board svg').boundingBox();
  assert.ok(box.y < 200, `the board's top is at ${box.y}px`);
  assert.ok(box.x >= 0 && box.x + box.width <= 390, 'the board fits across');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `nothing sticks out sideways (${width}px)`);
  // The bar scrolls sideways where its links do not fit (phone.test.js checks that it says so).
  for (const nav of ['play', 'today', 'learn', 'puzzles', 'trainer', 'games']) {
    const link = page.locator(`[data-nav="${nav}"]`);
    await link.scrollIntoViewIfNeeded();
    const b = await link.boundingBox();
    assert.ok(b && b.y < 150 && b.x >= 0 && b.x + b.width <= 390, `${nav} is in the bar at the top`);
  }
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page itself did not scroll');
  await page.setViewportSize({ width: 1200, height: 820 });
});

for (const [locale, language, word] of [['ru-RU', 'ru', 'Задачи'], ['zh-CN', 'zh', '习题']]) {
  test(`a ${locale} browser's first visit is in its language, and the choice is kept`, async () => {
    const { context, page: fresh } = await openApp(URL, { locale });
    try {
      assert.equal(await fresh.textContent('[data-nav="puzzles"]'), word);
      assert.equal(await fresh.inputValue('header [data-setting="language"]'), language);
      await fresh.selectOption('header [data-setting="language"]', 'en');
      await fresh.reload();
      await fresh.waitForSelector('body[data-ready="true"]');
      assert.equal(await fresh.textContent('[data-nav="puzzles"]'), 'Puzzles', 'the choice outlives the browser\'s language');
    } finally {
      await context.close();
    }
  });
}

test('every view loads under the content security policy the server sends, with nothing refused', async () => {
  const { context, page: fresh } = await openApp(URL, { bypassCSP: false });
  try {
    await fresh.addInitScript(() => {
      window.cspRefused = [];
      document.addEventListener('securitypolicyviolation', (e) => window.cspRefused.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const response = await fresh.goto(URL);
    assert.match(response.headers()['content-security-policy'] ?? '', /script-src 'self'; .*frame-ancestors 'none'/);
    assert.equal(response.headers()['x-content-type-options'], 'nosniff');
    await fresh.waitForSelector('body[data-ready="true"]');
    await clickPoint(fresh, 'h2');
    await clickPoint(fresh, 'e2');
    for (const view of ['today', 'learn', 'puzzles', 'trainer', 'games', 'room', 'play']) {
      await openView(fresh, view);
      await fresh.waitForTimeout(300);
    }
    assert.deepEqual(await fresh.evaluate(() => window.cspRefused), [], 'nothing the page does is refused');
  } finally {
    await context.close();
  }
});
