// End-to-end test of the opening explorer: opened at the start it lists the Central Cannon
// (炮二平五) with its code and an evaluation; a click on the row plays the move on the board,
// the opening's name above the move list changes and the explorer goes on with Black's
// answers; the names follow the language and the moves the notation.
// The server is started by ./run and its address given in XIANGQI_URL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp } from './fixture.js';


const page = useApp();

const explorer = () => page.locator('#explorer');
const row = (iccs) => page.locator(`#explorer tr[data-move="${iccs}"]`);
const ready = () => page.waitForSelector('#explorer[data-state="ready"]');

test('the explorer lists the central cannon and a click plays it', async () => {
  await page.selectOption('[data-setting="mode"]', 'two');
  await page.selectOption('[data-setting="notation"]', 'wxf');
  await page.click('[data-action="new"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 0);
  assert.equal(await explorer().isHidden(), true, 'the explorer starts closed');

  await page.click('[data-action="explorer"]');
  await ready();
  assert.equal(await explorer().locator('h2').textContent(), 'Opening explorer');
  const cannon = row('h2e2');
  const cells = await cannon.locator('td').allTextContents();
  // 炮八平五 leads to the same opening: it is in the same row, never a row of the same name.
  assert.equal(cells[0], 'C2=5 C8=5');
  assert.equal(await cannon.locator('button.explorer-also').getAttribute('data-move'), 'b2e2');
  const names = await page.locator('#explorer tbody tr td:nth-child(3)').allTextContents();
  assert.equal(new Set(names).size, names.length, `no name stands twice: ${names}`);
  assert.equal(cells[1], 'B00');
  assert.equal(cells[2], 'Central Cannon Opening');
  assert.match(cells[3], /^[+−]?\d+\.\d\d$|^[+−]M\d+$/, `an evaluation: ${cells[3]}`);
  const order = await page.locator('#explorer tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.move));
  assert.ok(order.indexOf('h2e2') < 4, `the central cannon among the first rows: ${order}`);
  await page.screenshot({ path: 'screenshots/31-explorer.png' });

  // Chinese: the moves in Chinese notation, the openings by their Chinese names.
  await page.selectOption('[data-setting="language"]', 'zh');
  await page.selectOption('[data-setting="notation"]', 'chinese');
  assert.equal(await explorer().locator('h2').textContent(), '开局浏览');
  const zh = await cannon.locator('td').allTextContents();
  assert.equal(zh[0], '炮二平五 炮八平五');
  assert.match(zh[2], /中炮/);
  assert.equal(zh[2], '中炮局');
  await page.selectOption('[data-setting="language"]', 'ru');
  assert.equal(await explorer().locator('h2').textContent(), 'Справочник дебютов');
  assert.equal((await cannon.locator('td').allTextContents())[2], 'Дебют центральной пушки');
  await page.selectOption('[data-setting="language"]', 'en');
  await page.selectOption('[data-setting="notation"]', 'wxf');

  assert.equal(await page.locator('#opening').isHidden(), true, 'no opening before the first move');
  await row('h2e2').click();
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 1);
  assert.equal(await page.locator('#opening').textContent(), 'Opening: B00 Central Cannon Opening');

  // The explorer now answers for Black: the screen horse leads on to another code.
  await page.waitForSelector('#explorer tr[data-move="h9g7"]');
  const horse = await row('h9g7').locator('td').allTextContents();
  assert.equal(horse[0], 'H8+7');
  assert.equal(horse[1], 'B05');
  assert.equal(horse[2], 'Central Cannon vs Left Horse', 'the row names the code, not its family');
  await row('h9g7').click();
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 2);
  assert.equal(await page.locator('#opening').getAttribute('data-code'), horse[1]);

  // 中炮对进左马 (B05) reaches 中炮对屏风马 (C00) by Black's 马2进3 alone, but Red's 马二进三
  // is on the lines below C00: it is listed as heading there (→), and so is 车一平二 a move
  // later, after 车9平8.
  await page.waitForSelector('#explorer tr[data-move="h0g2"]');
  const onTheWay = await row('h0g2').locator('td').allTextContents();
  assert.equal(onTheWay[0], 'H2+3');
  assert.match(onTheWay[1], /^→ C00( and \d+ more)?$/);
  // The code's cell names every opening the move heads for, in the interface language.
  const headed = await row('h0g2').locator('td').nth(1).getAttribute('title');
  assert.match(headed, /^C00 Central Cannon vs Screen Horses/m, headed);
  await page.screenshot({ path: 'screenshots/32-explorer-on-the-way.png' });
  await row('h0g2').click();
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 3);
  await page.waitForSelector('#explorer tr[data-move="i9h9"]');
  await row('i9h9').click();
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 4);
  await page.waitForSelector('#explorer tr[data-move="i0h0"]');
  assert.match((await row('i0h0').locator('td').allTextContents())[1], /^→ C00( and \d+ more)?$/);

  // Browsing back to the start shows the start's continuations again.
  await page.keyboard.press('Home');
  await page.waitForSelector('#explorer tr[data-move="h2e2"]');
  await page.keyboard.press('End');
  await page.waitForSelector('#explorer tr[data-move="i0h0"]');

  // 仕角 (A01) has no line below it: the explorer says that no move changes the opening.
  await page.click('[data-action="new"]');
  await page.waitForSelector('#explorer tr[data-move="f0e1"]');
  await row('f0e1').click();
  await page.waitForFunction(() => document.querySelector('#explorer .explorer-note')?.textContent === 'No move from here changes the opening.');
  await page.click('[data-action="explorer"]');
  assert.equal(await explorer().isHidden(), true, 'the button closes the explorer');
});

test("the second move of a row that leads to the same opening is played by its own button", async () => {
  await page.click('[data-action="new"]');
  if (await explorer().isHidden()) await page.click('[data-action="explorer"]');
  await page.waitForSelector('#explorer button.explorer-also[data-move="b2e2"]');
  await page.click('#explorer button.explorer-also[data-move="b2e2"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 1);
  assert.equal(await page.textContent('#moves span[data-ply="1"]'), 'C8=5');
  assert.equal(await page.locator('#opening').textContent(), 'Opening: B00 Central Cannon Opening');
});
