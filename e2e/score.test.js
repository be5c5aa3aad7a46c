// End-to-end tests of how the app shows a mate: the server sends `{mate: n}` from Red's point
// of view and the page writes it as a count of moves, `+M2` when Red mates in 2 and `−M2` when
// Black does. The server is started by ./run and its address given in XIANGQI_URL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp } from './fixture.js';

// Red to move mates in 2: Ra6-e6+ leaves the black king only d9, and Rb5-d5 mates there
// (Red's king holds the f-file). `xiangqi uci` says `score mate 2` from depth 2 on.
const RED_MATES_IN_2 = '4k4/9/9/R8/1R7/9/9/9/9/5K3 w - - 0 1';
// The same position mirrored, Black to move: Black mates in 2, which is -M2 for Red.
const BLACK_MATES_IN_2 = '5k3/9/9/9/9/1r7/r8/9/9/4K4 b - - 0 1';

const page = useApp();

const bestLine = () => page.evaluate(() => document.querySelector('#analysis li')?.textContent ?? '');
const bestLineStartsWith = (score) => page.waitForFunction(
  (s) => (document.querySelector('#analysis li')?.textContent ?? '').startsWith(`${s} `),
  score,
  { timeout: 20000 },
);

async function setUp(fen) {
  await page.click('[data-action="setup"]');
  await page.fill('#editor-fen', fen);
  await page.waitForFunction(() => document.getElementById('editor-verdict').textContent === 'The position is valid.');
  await page.click('[data-action="editor-start"]');
  await page.waitForFunction(() => document.getElementById('editor').hidden);
}

test('a mate in 2 for the side to move is shown as a positive mate count', async () => {
  await page.selectOption('[data-setting="mode"]', 'two');
  await setUp(RED_MATES_IN_2);
  await page.check('[data-setting="analysis"]');
  await bestLineStartsWith('+M2');
  assert.match(await bestLine(), /^\+M2 /);
  assert.match(await page.textContent('#analysis h2'), /\+M2\b/);
  await page.uncheck('[data-setting="analysis"]');
});

test('a mate in 2 for Black is shown from Red\'s side, as a negative mate count', async () => {
  await setUp(BLACK_MATES_IN_2);
  await page.check('[data-setting="analysis"]');
  await bestLineStartsWith('−M2');
  assert.match(await page.textContent('#analysis h2'), /−M2\b/);
  await page.uncheck('[data-setting="analysis"]');
});
