// End-to-end tests of the app in headless Chromium: the server is started by ./run and its
// address given in XIANGQI_URL. Screenshots go to screenshots/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch } from './browser.js';

const URL = process.env.XIANGQI_URL ?? 'http://127.0.0.1:8080/';
const SHOTS = new globalThis.URL('./screenshots/', import.meta.url).pathname;
let browser;
let page;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  ({ context: browser, page } = await launch());
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(URL);
  await page.waitForSelector('body[data-ready="true"]');
});

after(async () => {
  await browser?.close();
});

const shot = (name) => page.screenshot({ path: join(SHOTS, `${name}.png`) });
const moveCount = () => page.locator('#moves span[data-ply]').count();
const click = (square) => page.click(`[data-square="${square}"]`);
const choose = (setting, value) => page.selectOption(`[data-setting="${setting}"]`, value);

async function newGame() {
  await page.click('[data-action="new"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 0);
}

test('the board has 90 points and 32 pieces', async () => {
  assert.equal(await page.locator('[data-square]').count(), 90);
  assert.equal(await page.locator('[data-piece]').count(), 32);
  assert.equal(await page.getAttribute('[data-square="e0"] [data-piece]', 'data-piece'), 'K');
  await shot('01-start');
});

test('a move is played and the engine answers', async () => {
  await choose('level', '0');
  await newGame();
  await click('h2');
  assert.ok((await page.locator('.target').count()) > 0, 'legal destinations are shown');
  await click('e2');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 2, null, { timeout: 10000 });
  assert.equal(await page.getAttribute('[data-square="e2"] [data-piece]', 'data-piece'), 'C');
  assert.equal(await page.locator('.last-move').count(), 2);
  await shot('02-engine-answered');
});

test('an illegal move is explained', async () => {
  await click('b0');
  await click('b4');
  await page.waitForFunction(() => document.getElementById('message').textContent.length > 0);
  const text = await page.textContent('#message');
  assert.match(text, /Illegal move/);
  assert.ok((await page.locator('.explain').count()) > 0, 'the reason’s points are highlighted');
  await shot('03-illegal');
});

test('undo and redo step back and forth', async () => {
  await page.click('[data-action="undo"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 0);
  await page.click('[data-action="redo"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 2);
  assert.equal(await moveCount(), 2);
});

test('a hint is drawn as an arrow', async () => {
  await page.click('[data-action="hint"]');
  await page.waitForSelector('.hint-arrow', { state: 'attached', timeout: 10000 });
  assert.match(await page.textContent('#message'), /Hint/);
  await shot('04-hint');
});

test('the move list switches notation', async () => {
  await choose('notation', 'iccs');
  assert.equal(await page.textContent('#moves span[data-ply="1"]'), 'h2e2');
  await choose('notation', 'chinese');
  assert.equal(await page.textContent('#moves span[data-ply="1"]'), '炮二平五');
  await choose('notation', 'wxf');
  assert.equal(await page.textContent('#moves span[data-ply="1"]'), 'C2=5');
});

test('themes and piece symbols switch', async () => {
  await choose('boardTheme', 'green');
  await choose('pieceTheme', 'taipei');
  await choose('pieceStyle', 'european');
  assert.ok(await page.evaluate(() => document.body.classList.contains('board-green')));
  assert.ok((await page.locator('.symbol').count()) >= 32);
  await shot('05-green-european');
  await choose('pieceStyle', 'characters');
  await choose('boardTheme', 'wood');
  await choose('pieceTheme', 'beijing');
});

test('the interface switches language', async () => {
  await choose('language', 'ru');
  assert.equal(await page.textContent('[data-action="new"]'), 'Новая игра');
  assert.match(await page.getAttribute('[data-square="e0"]', 'aria-label'), /Король/);
  await shot('06-russian');
  await choose('language', 'zh');
  assert.equal(await page.textContent('[data-action="new"]'), '新局');
  await choose('language', 'en');
});

test('a set-up position is finished by mate', async () => {
  await page.click('[data-action="setup"]');
  await page.fill('#editor-fen', '3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1');
  await page.waitForFunction(() => document.getElementById('editor-verdict').textContent === 'The position is valid.');
  await shot('07-editor');
  await page.click('[data-action="editor-start"]');
  await page.waitForFunction(() => document.getElementById('editor').hidden);
  await click('a0');
  await click('a9');
  await page.waitForFunction(() => /checkmated/.test(document.getElementById('status').textContent));
  assert.match(await page.textContent('#status'), /Red wins/);
  await shot('08-mate');
});

test('the editor reports an invalid position in plain words', async () => {
  await page.click('[data-action="setup"]');
  await page.fill('#editor-fen', '4k4/9/9/9/9/9/9/9/9/9 w - - 0 1');
  await page.waitForFunction(() => document.getElementById('editor-verdict').classList.contains('bad')
    && document.getElementById('editor-verdict').textContent.length > 0);
  assert.match(await page.textContent('#editor-verdict'), /general/i);
  await page.click('[data-action="editor-cancel"]');
});

test('the game survives a reload', async () => {
  await newGame();
  await choose('mode', 'two');
  await click('h2');
  await click('e2');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 1);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await moveCount(), 1);
  assert.equal(await page.inputValue('[data-setting="mode"]'), 'two');
  await choose('mode', 'engine');
});
