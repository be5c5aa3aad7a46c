// Browser test of the app on a phone held upright (390×844, touch): a lesson's words and its
// buttons, and a puzzle's task and its buttons, are on the first screen under the board
// without scrolling, in the three languages, and the board's coordinates are readable.
// Screenshots go to screenshots/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { APP_URL as URL, useApp } from './fixture.js';

const SHOTS = new globalThis.URL('./screenshots/', import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });
const PHONE = { width: 390, height: 844 };
const page = useApp(null, { viewport: PHONE, isMobile: true, hasTouch: true });

/** The smallest rendered font size of the board's coordinates in `scope`, in CSS pixels. */
const smallestCoordinate = (scope) => page.evaluate((s) => Math.min(...[...document.querySelectorAll(`${s} text.coord`)]
  .map((t) => t.getBoundingClientRect().height)), scope);

/** Asserts that `selector` is shown wholly inside the first screen, with the page not scrolled. */
async function onFirstScreen(selector, what) {
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page is not scrolled');
  const box = await page.locator(selector).first().boundingBox();
  assert.ok(box, `${what} is shown`);
  assert.ok(box.y >= 0 && box.y + box.height <= PHONE.height, `${what} lies on the first screen (${Math.round(box.y)}–${Math.round(box.y + box.height)} px)`);
  assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `${what} lies within the width`);
}

async function open(address, language) {
  await page.goto(`${URL}#/play`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.selectOption('[data-setting="language"]', language);
  await page.goto(`${URL}${address}`);
  await page.evaluate(() => window.scrollTo(0, 0));
}

for (const language of ['en', 'ru', 'zh']) {
  test(`a lesson's words and its Next button are on the first screen (${language})`, async () => {
    await open('#/learn/horse', language);
    await page.waitForSelector('.lesson-text');
    await onFirstScreen('.lesson-text', 'the lesson text');
    await onFirstScreen('.lesson-controls [data-course="next-page"]', 'the Next button');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `nothing sticks out sideways (${width}px)`);
    assert.ok(await smallestCoordinate('.lesson-board') >= 11, 'the coordinates are readable');
    await page.screenshot({ path: join(SHOTS, `40-phone-lesson-${language}.png`) });
  });

  test(`a puzzle's task and its buttons are on the first screen (${language})`, async () => {
    await open('#/puzzles', language);
    await page.waitForSelector('.puzzle[data-state="playing"]');
    await onFirstScreen('[data-puzzle-message]', 'the task');
    for (const action of ['hint', 'solution', 'next']) await onFirstScreen(`[data-puzzle="${action}"]`, `the ${action} button`);
    assert.ok(await smallestCoordinate('.puzzle-board') >= 11, 'the coordinates are readable');
    await page.screenshot({ path: join(SHOTS, `41-phone-puzzle-${language}.png`) });
  });
}

test('the sections bar says that it scrolls, and keeps the section open in sight (ru)', async () => {
  await open('#/play', 'ru');
  const bar = () => page.evaluate(() => {
    const nav = document.querySelector('.app-nav');
    const current = nav.querySelector('[aria-current="page"]').getBoundingClientRect();
    const box = nav.getBoundingClientRect();
    return {
      more: nav.dataset.more, wider: nav.scrollWidth > nav.clientWidth,
      mask: getComputedStyle(nav).maskImage ?? getComputedStyle(nav).webkitMaskImage,
      inSight: current.left >= box.left - 1 && current.right <= box.right + 1,
    };
  });
  const start = await bar();
  assert.ok(start.wider, 'the Russian bar is wider than a phone');
  assert.equal(start.more, 'end', 'more links lie beyond the end');
  assert.match(start.mask, /gradient/, 'the end fades out');
  await page.click('[data-nav="games"]');
  await page.waitForSelector('#archive:not([hidden])');
  const later = await bar();
  assert.ok(later.inSight, 'My games, at the far end, is scrolled into sight');
  assert.match(later.more, /start/, 'now links lie before the start');
  await page.screenshot({ path: join(SHOTS, '42-phone-sections-ru.png') });
});

test("the trainer's chosen line reads whole on a phone (ru)", async () => {
  await open('#/trainer', 'ru');
  await page.waitForSelector('[data-trainer-choice="line"]');
  const longest = await page.$$eval('[data-trainer-choice="line"] option', (options) => options
    .reduce((a, b) => (b.textContent.length > a.textContent.length ? b : a)).value);
  await page.selectOption('[data-trainer-choice="line"]', longest);
  const chosen = await page.$eval('[data-trainer-choice="line"]', (s) => s.selectedOptions[0].textContent);
  assert.equal(await page.textContent('[data-line-chosen]'), chosen, 'the whole name and codes');
  const box = await page.locator('[data-line-chosen]').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, 'within the width');
  assert.ok(box.height > 20, 'wrapped onto more lines');
  const cut = await page.$eval('[data-line-chosen]', (p) => p.scrollWidth > p.clientWidth);
  assert.equal(cut, false, 'nothing of it is cut');
});
