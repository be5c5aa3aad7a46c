// End-to-end test of the opening's name above the move list: 炮二平五 马８进７ 马二进三 车９平８
// played on the board, each ECCO code named by its own name after each move, in English,
// Russian and Chinese.
// The server is started by ./run and its address given in XIANGQI_URL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playMove, useApp } from './fixture.js';


const page = useApp();

const play = (from, to) => playMove(page, from, to);

const opening = () => page.locator('#opening');

test('the opening is named above the move list as the game goes on', async () => {
  await page.selectOption('[data-setting="mode"]', 'two');
  await page.click('[data-action="new"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 0);
  assert.equal(await opening().isHidden(), true, 'no opening before the first move');

  // Each code is named by its own name, not only by its family's (Central Cannon).
  await play('h2', 'e2'); // 炮二平五
  assert.equal(await opening().textContent(), 'Opening: B00 Central Cannon Opening');
  await play('h9', 'g7'); // 马８进７
  assert.equal(await opening().getAttribute('data-code'), 'B05');
  assert.equal(await opening().textContent(), 'Opening: B05 Central Cannon vs Left Horse');
  await page.selectOption('[data-setting="language"]', 'ru');
  assert.equal(await opening().textContent(), 'Дебют: B05 Центральная пушка против левого коня');
  await page.selectOption('[data-setting="language"]', 'en');
  await play('h0', 'g2'); // 马二进三
  await play('i9', 'h9'); // 车９平８
  assert.equal(await opening().textContent(), 'Opening: B05 Central Cannon vs Left Horse');
  assert.equal(await opening().getAttribute('title'), '中炮对进左马');

  // 车一平二 卒７进１ 车二进六 马２进３: Screen Horses, and the name changes with it.
  for (const [from, to] of [['i0', 'h0'], ['g6', 'g5'], ['h0', 'h6'], ['b9', 'c7']]) await play(from, to);
  assert.equal(await opening().textContent(), 'Opening: C17 Central Cannon with Cross-river Chariot vs Screen Horses');

  await page.selectOption('[data-setting="language"]', 'zh');
  assert.equal(await opening().textContent(), '开局：C17 中炮过河车对屏风马');
  await page.selectOption('[data-setting="language"]', 'ru');
  assert.equal(await opening().textContent(), 'Дебют: C17 Центральная пушка с колесницей за рекой против ширмы из коней');
  await page.selectOption('[data-setting="language"]', 'en');
  await page.screenshot({ path: 'screenshots/30-opening.png' });

  // Taking a move back names the opening of the shorter game.
  await page.click('[data-action="undo"]');
  await page.waitForFunction(() => document.querySelector('#opening')?.dataset.code === 'B05');
});
