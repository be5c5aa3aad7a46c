// A walk of the whole app by clicking, in English, Russian and Chinese: every section and
// every tab of Learn opened from the bars, the language switched while each is shown. On each
// view, in each language: no word of the interface is left in another language (no English
// sentence of the page's own words in Russian or Chinese), no key of the words shows in place
// of its text, no tab of Learn is cut, nothing sticks out sideways, and nothing goes wrong in the page's console.
// Screenshots of every view in every language go to screenshots/walk-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { useFreshApp } from './fixture.js';

const SHOTS = new globalThis.URL('./screenshots/', import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });
const WORDS = Object.fromEntries(['en', 'ru', 'zh'].map((l) => [l, JSON.parse(readFileSync(new globalThis.URL(`../crates/web/static/i18n/${l}.json`, import.meta.url), 'utf8'))]));
const problems = [];
const page = useFreshApp((p) => {
  p.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
});

/** Each view: how to open it by clicking, and what shows it is ready. */
const VIEWS = [
  ['play', ['[data-nav="play"]'], '#board svg'],
  ['today', ['[data-nav="today"]'], '#today .dose-list'],
  ['rules', ['[data-nav="learn"]', '#course .course-tabs [data-course-id="rules"]'], '#course .course-map [data-lesson]'],
  ['patterns', ['[data-nav="learn"]', '#course .course-tabs [data-course-id="patterns"]'], '#course .course-map [data-lesson]'],
  ['endgames', ['[data-nav="learn"]', '#course .course-tabs [data-learn-tab="endgames"]'], '#endgames [data-ending], #endgames .course-map'],
  ['characters', ['[data-nav="learn"]', '#course .course-tabs [data-learn-tab="characters"]'], '#characters [data-characters-view]'],
  ['puzzles', ['[data-nav="puzzles"]'], '#puzzles .puzzle[data-state="playing"]'],
  ['trainer', ['[data-nav="trainer"]'], '[data-trainer-choice="line"]'],
  ['games', ['[data-nav="games"]'], '#archive:not([hidden])'],
  ['room', ['[data-nav="room"]'], '#room:not([hidden])'],
];

/** The page's own English sentences: words of at least two words and 12 letters that the other language says otherwise. */
function englishOnly(lang) {
  return Object.entries(WORDS.en)
    .filter(([key, en]) => typeof en === 'string' && WORDS[lang][key] !== undefined && WORDS[lang][key] !== en)
    .map(([, en]) => en.replace(/\{[^}]*\}/g, '\u0000'))
    .flatMap((en) => en.split('\u0000'))
    .map((part) => part.trim())
    .filter((part) => part.length >= 12 && /[a-z]+ [a-z]+/i.test(part));
}

/** What is wrong with the view shown in `lang`. */
async function check(name, lang) {
  const text = await page.evaluate(() => {
    const shown = [...document.querySelectorAll('header, [data-panel]:not([hidden])')];
    return shown.map((e) => e.innerText).join('\n');
  });
  const found = [];
  for (const key of Object.keys(WORDS.en).filter((k) => k.includes('.'))) {
    if (new RegExp(`(^|\\s)${key.replace(/\./g, '\\.')}($|\\s)`).test(text)) found.push(`the key ${key} shows`);
  }
  if (lang !== 'en') {
    for (const sentence of englishOnly(lang)) if (text.includes(sentence)) found.push(`English: "${sentence}"`);
  }
  // No tab of a section is cut by its bar.
  const cut = await page.evaluate(() => [...document.querySelectorAll('[data-panel]:not([hidden]) .course-tabs [role="tab"]')]
    .filter((tab) => {
      const bar = tab.parentElement.getBoundingClientRect();
      const box = tab.getBoundingClientRect();
      return box.width > 0 && (box.right > bar.right + 1 || box.left < bar.left - 1);
    }).map((tab) => tab.textContent));
  for (const tab of cut) found.push(`the tab "${tab}" is cut`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width > 1280) found.push(`${width}px wide`);
  return found.map((f) => `${name} (${lang}): ${f}`);
}

test('every view, in each language, speaks that language only, fits, and raises no error', async () => {
  await page.setViewportSize({ width: 1280, height: 860 });
  const found = [];
  for (const [name, clicks, ready] of VIEWS) {
    for (const selector of clicks) await page.click(selector);
    await page.waitForSelector(ready);
    for (const lang of ['en', 'ru', 'zh']) {
      await page.selectOption('header [data-setting="language"]', lang);
      await page.waitForFunction((l) => document.documentElement.lang === l, lang);
      // The views ask the server again for their words in the new language.
      await page.waitForTimeout(700);
      found.push(...await check(name, lang));
      await page.screenshot({ path: join(SHOTS, `walk-${name}-${lang}.png`) });
    }
    await page.selectOption('header [data-setting="language"]', 'en');
    await page.waitForTimeout(300);
  }
  assert.deepEqual(found, [], found.join('\n'));
  assert.deepEqual(problems, [], problems.join('\n'));
});
