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
