// The characters drill in Learn: a newcomer studies the general's characters, passes a round
// by naming pieces and finding them on the board, and the chariot comes next; the mixed style then
// draws the generals as characters; a wrong answer is told with the memory aid; the pinyin
// shows on hover; progress survives a reload; the traditional set is drilled in its own
// characters, and the drill speaks Chinese.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { useFreshApp } from './fixture.js';

const SHOTS = new globalThis.URL('./screenshots/', import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });
const page = useFreshApp();
const view = '#characters [data-characters-view]';

/** The question shown: its kind (`name`, `find` or `done`) and its answer. */
async function question() {
  await page.waitForSelector(`${view} [data-question]`);
  return page.evaluate(() => {
    const q = document.querySelector('#characters [data-question]');
    return { kind: q.dataset.question, answer: q.dataset.answer };
  });
}

/** Answers the question shown, rightly or not. */
async function answer(right) {
  const { kind, answer: a } = await question();
  if (kind === 'name') {
    const piece = right ? a : (a === 'k' ? 'r' : 'k');
    await page.click(`${view} [data-characters="name"][data-piece="${piece}"]`);
  } else {
    const square = await page.evaluate(([c, r]) => {
      const points = [...document.querySelectorAll('#characters .lesson-board [data-square]')];
      const hit = points.find((p) => (p.querySelector('.glyph')?.textContent === c) === r && p.querySelector('.glyph'));
      return hit.dataset.square;
    }, [a, right]);
    await page.click(`#characters .lesson-board [data-square="${square}"]`);
  }
  await page.waitForSelector(`${view} [data-character-verdict="${right ? 'right' : 'wrong'}"]`);
}

async function nextQuestion() {
  await page.click(`${view} [data-characters="next"]`);
}

test('a round answered right learns the general, and the mixed style draws the generals as characters', async () => {
  await page.click('[data-nav="learn"]');
  await page.click('#course .course-tabs [data-learn-tab="characters"]');
  await page.waitForSelector(view);
  assert.equal(await page.getAttribute(view, 'data-learnt'), '0');
  // The general's card, marked new, with both sides' characters and their aids.
  const card = await page.textContent(`${view} [data-character-card="k"]`);
  assert.match(card, /帅 shuài/);
  assert.match(card, /将 jiàng/);
  assert.match(card, /banner/);
  // Pinyin on hover.
  assert.equal(await page.getAttribute(`${view} [data-character-card="k"] .character >> nth=0`, 'title'), 'shuài');
  const kinds = new Set();
  for (let i = 0; i < 8; i++) {
    kinds.add((await question()).kind);
    await answer(true);
    if (i === 1) await page.screenshot({ path: join(SHOTS, '45-characters-drill.png') });
    await nextQuestion();
  }
  assert.deepEqual([...kinds].sort(), ['find', 'name'], 'both kinds of question are asked');
  await page.waitForSelector(`${view} [data-round-result="passed"]`);
  assert.match(await page.textContent(`${view} .character-question`), /8 of 8 right\.Passed! You read the general now\./);
  assert.equal(await page.getAttribute(view, 'data-learnt'), '1');
  await page.screenshot({ path: join(SHOTS, '46-characters-passed.png') });
  // The mixed style follows what is learnt: the generals are drawn as characters.
  await page.selectOption('[data-setting="pieceStyle"]', 'mixed');
  assert.equal(await page.inputValue('[data-setting="knownPieces"]'), '1');
  await page.click('[data-nav="play"]');
  const drawn = await page.evaluate(() => [...document.querySelectorAll('#board [data-piece]')]
    .filter((p) => p.querySelector('.glyph')).map((p) => p.dataset.piece.toLowerCase()));
  assert.deepEqual([...new Set(drawn)], ['k']);
  await page.selectOption('[data-setting="pieceStyle"]', 'characters');
});

test('a wrong answer is told with the aid; progress survives a reload; the traditional set is drilled', async () => {
  await page.goto(`${page.url().split('#')[0]}#/characters`);
  await page.waitForSelector(view);
  assert.equal(await page.getAttribute(view, 'data-learnt'), '1', 'kept across a reload');
  // The chariot is the new piece now.
  assert.match(await page.textContent(`${view} [data-character-card="r"]`), /车 jū/);
  await answer(false);
  const verdict = await page.textContent(`${view} [data-character-verdict]`);
  assert.match(verdict, /^Not quite: \S+ \(\S+\) is the (general|chariot)\. /);
  // A round with a wrong answer in the first half can still pass (7 of 8), unless the new piece was missed.
  for (let i = 1; i < 8; i++) {
    await nextQuestion();
    await answer(true);
  }
  await nextQuestion();
  await page.waitForSelector(`${view} [data-round-result]`);
  await page.click(`${view} [data-characters="again"]`);
  // The traditional characters: 俥 and 車 on the chariot's card.
  await page.selectOption('[data-setting="characterSet"]', 'traditional');
  await page.waitForFunction(() => /俥/.test(document.querySelector('#characters [data-character-card="r"]')?.textContent));
  const chariot = await page.textContent(`${view} [data-character-card="r"]`);
  assert.match(chariot, /俥 jū/);
  assert.match(chariot, /車 jū/);
  // In Chinese.
  await page.selectOption('[data-setting="language"]', 'zh');
  await page.waitForFunction(() => /认识棋子上的字/.test(document.querySelector('#characters h2')?.textContent));
  assert.match(await page.textContent(`${view} [data-character-card="r"]`), /单人旁/);
  await page.selectOption('[data-setting="language"]', 'en');
  await page.selectOption('[data-setting="characterSet"]', 'simplified');
});
