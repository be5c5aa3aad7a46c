// A game the server has dropped (a restart, or a game it forgot) comes back from the page's
// own copy without the user noticing: the moves stay, play goes on, the engine answers.
// This file starts and restarts its own server (the release build that ./run makes) on a
// free loopback port.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './browser.js';
import { freePort, startServer, stopServer } from './server.js';

let port;
let server;
let browser;
let page;
let gameId = null;

async function restartServer() {
  await stopServer(server);
  server = await startServer(port);
}

const url = () => `http://127.0.0.1:${port}/`;
const moveCount = () => page.locator('#moves span[data-ply]').count();
const waitMoves = (n) => page.waitForFunction((k) => document.querySelectorAll('#moves span[data-ply]').length === k, n, { timeout: 15000 });
const click = (square) => page.click(`[data-square="${square}"]`);
const choose = (setting, value) => page.selectOption(`[data-setting="${setting}"]`, value);
const message = () => page.textContent('#message');

before(async () => {
  port = await freePort();
  server = await startServer(port);
  ({ context: browser, page } = await launch());
  page.on('pageerror', (e) => console.error('page error:', e.message));
  // The id of the game the page plays, as its requests name it.
  page.on('response', (response) => {
    const id = /\/api\/games\/([^/?]+)/.exec(response.url())?.[1];
    if (id && id !== 'import' && response.ok()) gameId = decodeURIComponent(id);
  });
  await page.goto(url());
  await page.waitForSelector('body[data-ready="true"]');
});

after(async () => {
  await browser?.close();
  await stopServer(server);
});

test('moves played before a restart stay, and play goes on without a word', async () => {
  await choose('mode', 'two');
  await click('h2');
  await click('e2');
  // Black's piece answers to a click once Red's move is on the board.
  await waitMoves(1);
  await click('h9');
  await click('g7');
  await waitMoves(2);
  await restartServer();
  await click('h0');
  await click('g2');
  await waitMoves(3);
  assert.equal(await message(), '', 'the user is told nothing');
  assert.equal(await page.getAttribute('[data-square="g2"] [data-piece]', 'data-piece'), 'N');
  assert.equal(await page.getAttribute('[data-square="e2"] [data-piece]', 'data-piece'), 'C');
});

test('after a restart and a reload the moves are there and the engine answers', async () => {
  await restartServer();
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await moveCount(), 3);
  await choose('level', '0');
  await choose('humanColor', 'red');
  await choose('mode', 'engine');
  await waitMoves(4);
  assert.equal(await message(), '');
});

test('a game the server forgot answers a hint and its analysis', async () => {
  assert.ok(gameId, 'the page named its game');
  const forget = async () => {
    const response = await page.request.delete(`${url()}api/games/${encodeURIComponent(gameId)}`);
    assert.equal(response.status(), 204);
  };
  await forget();
  await page.click('[data-action="hint"]');
  await page.waitForSelector('.arrow.hint', { state: 'attached', timeout: 10000 });
  assert.match(await message(), /Hint/);
  await forget();
  await page.check('[data-setting="analysis"]');
  await page.waitForFunction(() => Number(document.getElementById('analysis').dataset.depth ?? 0) >= 2, null, { timeout: 15000 });
  await page.uncheck('[data-setting="analysis"]');
  assert.equal(await moveCount(), 4);
});
