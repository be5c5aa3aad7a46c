// Play a friend: two players in two browsers and a spectator in a third. A room is made
// from the form and joined by its link; the game is played by clicking to mate, with a
// take-back asked for and granted and a draw offered and declined; the spectator sees every
// move and can move nothing; a player reloads and plays on in the same seat; the server
// restarts and the game goes on with the clocks where they should be; the finished game is
// in My games with both names; a game on a clock of seconds ends by the flag with no one
// moving. The spectator may turn on the engine's analysis while the players allow it; the
// players are never offered it.
// This file starts and restarts its own server (the release build that ./run makes) on a
// free loopback port, with its own data folder.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from './browser.js';
import { freePort, startServer, stopServer } from './server.js';

const data = mkdtempSync(join(tmpdir(), 'xq-rooms-'));
let port;
let server;
/** The three browsers: `red` makes the room, `black` joins by the link, `watcher` watches. */
const people = {};
/** What the watcher's page sends on its room's socket. */
const watcherSent = [];
let roomId = null;

const url = () => `http://127.0.0.1:${port}/`;
const start = () => startServer(port, ['--data', data], /Games are|Your games/);

/** A fresh browser with the app open. */
async function openBrowser() {
  const { context, page } = await launch();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(url());
  await page.waitForSelector('body[data-ready="true"]');
  return { context, page };
}

/** The pieces on the room's board of `page`, point → FEN letter. */
const boardOf = (page) => page.$$eval('.room-board [data-square]', (points) => Object.fromEntries(points
  .filter((p) => p.querySelector('.piece'))
  .map((p) => [p.dataset.square, p.querySelector('.piece').dataset.piece])));

/** Waits until `page`'s room board holds `piece` on `square` (null: no piece there). */
async function waitPiece(page, square, piece) {
  try {
    await page.waitForFunction(([sq, p]) => {
      const shown = document.querySelector(`.room-board [data-square="${sq}"] .piece`)?.dataset.piece ?? null;
      return shown === p;
    }, [square, piece], { timeout: 15000 });
  } catch (e) {
    const status = await page.textContent('.room-status').catch(() => null);
    const message = await page.textContent('.room-message').catch(() => null);
    throw new Error(`${square} does not hold ${piece}: ${JSON.stringify({ status, message, board: await boardOf(page) })} (${e.message})`);
  }
}

const clickPoint = (page, square) => page.click(`.room-board [data-square="${square}"]`);
const everyone = () => [people.red.page, people.black.page, people.watcher.page];

/** Plays `from`→`to` by two clicks on `page`, and waits until every board shows it. */
async function play(page, from, to) {
  const piece = (await boardOf(page))[from];
  assert.ok(piece, `a piece stands on ${from}`);
  await clickPoint(page, from);
  await clickPoint(page, to);
  await Promise.all(everyone().map(async (p) => {
    await waitPiece(p, to, piece);
    await waitPiece(p, from, null);
  }));
}

/** The room as the server tells it. */
async function roomState() {
  const response = await people.red.page.request.get(`${url()}api/rooms/${roomId}`);
  assert.equal(response.status(), 200, await response.text());
  return response.json();
}

/** A clock's text (`m:ss`, or `s.t` under ten seconds) in milliseconds. */
function clockMs(text) {
  const short = /^(\d+)\.(\d)$/.exec(text);
  if (short) return Number(short[1]) * 1000 + Number(short[2]) * 100;
  const [, m, s] = /^(\d+):(\d\d)$/.exec(text);
  return (Number(m) * 60 + Number(s)) * 1000;
}

const clockOf = async (page, side) => clockMs((await page.textContent(`.room-clock[data-clock="${side}"]`)).trim());
const statusOf = (page) => page.textContent('.room-status');

/** Waits until `page` shows offer `kind` (or no offer, for null). */
const waitOffer = (page, kind) => page.waitForFunction(
  (k) => (document.querySelector('.room-offer')?.dataset.offer ?? null) === k, kind, { timeout: 10000 },
);

before(async () => {
  port = await freePort();
  server = await start();
  people.red = await openBrowser();
  people.black = await openBrowser();
  people.watcher = await openBrowser();
  people.watcher.page.on('websocket', (ws) => ws.on('framesent', (frame) => watcherSent.push(String(frame.payload))));
});

after(async () => {
  for (const { context } of Object.values(people)) await context?.close();
  await stopServer(server);
  rmSync(data, { recursive: true, force: true });
});

test('a room made from the form is joined by its link, and a later visitor watches', async () => {
  const { page } = people.red;
  await page.click('[data-nav="room"]');
  await page.fill('.room-new [name="name"]', 'Ann');
  await page.selectOption('.room-new [name="side"]', 'red');
  await page.selectOption('.room-new [name="clock"]', '5+3');
  await page.click('[data-room="create"]');
  await page.waitForSelector('.room-link');
  roomId = await page.getAttribute('.room', 'data-room-id');
  assert.match(roomId, /^[A-Za-z0-9_-]{16,}$/, 'the room has an unguessable id');
  const link = (await page.textContent('.room-link')).trim();
  assert.equal(link, `${url()}#/room/${roomId}`);
  assert.match(await page.textContent('.room-status'), /Waiting for your friend/);
  assert.match(await page.textContent('.room-role'), /You play Red/);
  const tokens = await page.evaluate(() => JSON.parse(localStorage.getItem('xiangqi.roomTokens')));
  assert.ok(tokens[roomId], 'the seat token is kept in the browser');
  assert.ok(!link.includes(tokens[roomId]), 'the link does not carry the seat token');

  await people.black.page.evaluate(() => localStorage.setItem('xiangqi.roomName', 'Bo'));
  await people.black.page.goto(link);
  await people.black.page.waitForSelector('.room-role[data-role="black"]');
  assert.match(await people.black.page.textContent('.room-role'), /You play Black/);
  await people.watcher.page.goto(link);
  await people.watcher.page.waitForSelector('.room-role[data-role="spectator"]');
  assert.match(await people.watcher.page.textContent('.room-role'), /You are watching/);
  for (const p of everyone()) {
    await p.waitForFunction(() => document.querySelector('.room-status')?.dataset.status === 'playing');
    await p.waitForFunction(() => /Watching: 1/.test(document.querySelector('.room-spectators')?.textContent));
    assert.match(await p.textContent('.room-seat[data-side="red"]'), /Ann/);
    assert.match(await p.textContent('.room-seat[data-side="black"]'), /Bo/);
  }
  // The spectator has no buttons to offer, resign or turn the analysis off.
  assert.equal(await people.watcher.page.locator('.room-actions button, .room-analysis').count(), 0);
  assert.ok(await people.red.page.locator('.room-actions [data-room="resign"]').count());
});

test('the spectator sees the moves and cannot move', async () => {
  await play(people.red.page, 'b2', 'b4');
  // Black to move: the spectator clicks a black piece and a point it could go to.
  const page = people.watcher.page;
  const board = await boardOf(page);
  const sentBefore = watcherSent.length;
  await clickPoint(page, 'a9');
  await clickPoint(page, 'a8');
  await clickPoint(page, 'h7');
  await clickPoint(page, 'h0');
  await page.waitForTimeout(500);
  assert.deepEqual(await boardOf(page), board, 'the board is unchanged');
  assert.deepEqual(watcherSent.slice(sentBefore), [], 'no message was sent');
  assert.equal(await page.locator('.room-board .selected, .room-board .target').count(), 0, 'no piece is picked up');
  assert.deepEqual(await boardOf(people.black.page), board);
});

test('the spectator may turn the analysis on while the players allow it; the players are never offered it', async () => {
  const page = people.watcher.page;
  for (const p of [people.red.page, people.black.page]) {
    assert.equal(await p.locator('.room-watch-analysis, .room-lines').count(), 0);
  }
  assert.equal(await page.locator('.room-watch-analysis').count(), 0, 'off until a player allows it');
  await people.red.page.check('.room-analysis input');
  await page.waitForSelector('.room-watch-analysis input');
  assert.equal(await page.locator('.room-lines li').count(), 0, 'off until asked for');
  await page.check('.room-watch-analysis input');
  await page.waitForSelector('.room-lines[data-version="1"] li');
  assert.match(await page.textContent('.room-lines h3'), /Analysis — Evaluation/);
  // A move: the lines are of the new position.
  await play(people.black.page, 'a9', 'a8');
  await page.waitForSelector('.room-lines[data-version="2"] li');
  // A player turns the spectators' analysis off: the lines and the switch go.
  await people.red.page.uncheck('.room-analysis input');
  await page.waitForSelector('.room-no-analysis');
  assert.equal(await page.locator('.room-watch-analysis, .room-lines li').count(), 0);
  const refused = await page.request.get(`${url()}api/rooms/${roomId}/analysis?lines=1&millis=100`);
  assert.equal(refused.status(), 403);
  // Back on: the spectator's lines come back; the spectator then turns them off.
  await people.red.page.check('.room-analysis input');
  await page.waitForSelector('.room-lines[data-version="2"] li');
  await page.uncheck('.room-watch-analysis input');
  assert.equal(await page.locator('.room-lines li').count(), 0);
});

test('a take-back asked for is granted; a draw offered is declined', async () => {
  const red = people.red.page;
  const black = people.black.page;
  await black.click('[data-room="takeback"]');
  await waitOffer(red, 'takeback');
  await waitOffer(people.watcher.page, 'takeback');
  assert.match(await red.textContent('.room-offer'), /Black asks to take back a move/);
  assert.equal(await people.watcher.page.locator('.room-offer button').count(), 0, 'the spectator cannot answer');
  // On a 1280×720 screen the offer's Accept button and Red's own clock are in view unscrolled,
  // and the moves are listed beside the board.
  await red.setViewportSize({ width: 1280, height: 720 });
  for (const selector of ['.room-offer [data-room="accept"]', '.room-seat[data-side="red"] .room-clock']) {
    const box = await red.locator(selector).boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= 720, `${selector} is in view at 1280×720: ${JSON.stringify(box)}`);
  }
  assert.ok(await red.locator('.room-moves li').count() >= 2, 'the moves are listed');
  await red.setViewportSize({ width: 1200, height: 820 });
  await red.click('.room-offer [data-room="accept"]');
  for (const p of everyone()) {
    await waitPiece(p, 'a9', 'r');
    await waitPiece(p, 'a8', null);
    await waitOffer(p, null);
  }
  assert.match(await statusOf(red), /Black to move/);
  await play(black, 'a9', 'a8');

  await red.click('[data-room="draw"]');
  await waitOffer(black, 'draw');
  assert.match(await black.textContent('.room-offer'), /Red offers a draw/);
  await black.click('.room-offer [data-room="decline"]');
  for (const p of everyone()) await waitOffer(p, null);
  assert.equal((await roomState()).status, 'playing');
});

test('a player who reloads plays on in the same seat', async () => {
  await play(people.red.page, 'b4', 'c4');
  const black = people.black.page;
  await black.reload();
  await black.waitForSelector('.room-role[data-role="black"]');
  await waitPiece(black, 'c4', 'C');
  await play(black, 'a8', 'e8');
  const room = await roomState();
  assert.equal(room.spectators, 1);
  assert.equal(room.black.name, 'Bo');
});

test('the server restarts mid-game; the game goes on with the clocks right', async () => {
  const before = await roomState();
  assert.equal(before.clocks.running, 'red');
  const red = people.red.page;
  await stopServer(server);
  // The pages say the connection dropped, and take no move meanwhile.
  await red.waitForSelector('.room[data-connected="false"]');
  assert.match(await red.textContent('.room-message'), /connecting again/);
  await clickPoint(red, 'c4');
  assert.equal(await red.locator('.room-board .selected').count(), 0);
  await new Promise((r) => setTimeout(r, 1500));
  server = await start();
  // The pages come back by themselves, in their seats; Red's clock ran all the while.
  for (const p of everyone()) await p.waitForSelector('.room[data-connected="true"]', { timeout: 15000 });
  assert.equal(await red.getAttribute('.room-role', 'data-role'), 'red');
  assert.equal(await people.black.page.getAttribute('.room-role', 'data-role'), 'black');
  const back = await roomState();
  const spent = back.server_ms - before.server_ms;
  assert.ok(spent >= 1500, `${spent} ms passed`);
  assert.ok(Math.abs(back.clocks.red_ms - (before.clocks.red_ms - spent)) <= 50,
    `Red's clock: ${back.clocks.red_ms} ms left, ${before.clocks.red_ms} ms ${spent} ms before`);
  assert.equal(back.clocks.black_ms, before.clocks.black_ms, "Black's clock stood still");
  // A page that opens the room now shows the clocks as the server keeps them.
  const watcher = people.watcher.page;
  await watcher.reload();
  await watcher.waitForSelector('.room[data-connected="true"] .room-clock[data-clock="red"]');
  await watcher.waitForSelector('.room-role[data-role="spectator"]');
  const expected = before.clocks.red_ms - (Date.now() - before.server_ms);
  for (const p of [watcher, red]) {
    const shown = await clockOf(p, 'red');
    assert.ok(Math.abs(shown - expected) <= 1500, `Red's clock shows ${shown} ms, ${expected} ms are left`);
    const black = await clockOf(p, 'black');
    assert.ok(Math.abs(black - before.clocks.black_ms) <= 1000, `Black's clock shows ${black} ms, ${before.clocks.black_ms} ms are left`);
  }

  // Red mates: the cannon takes the elephant behind the pawn's screen.
  await play(red, 'c4', 'c9');
  for (const p of everyone()) {
    await p.waitForFunction(() => document.querySelector('.room-status')?.dataset.status === 'over');
    assert.match(await statusOf(p), /Red wins/);
    assert.match(await statusOf(p), /mate/i);
  }
  const after = await roomState();
  assert.equal(after.result.code, 'checkmate');
  assert.equal(after.game.moves.length, 5);
  // My games keeps it with both names.
  let games = [];
  for (let tries = 0; tries < 50 && !games.some((g) => g.red === 'Ann'); tries++) {
    await new Promise((r) => setTimeout(r, 100));
    games = (await (await red.request.get(`${url()}api/archive/games`)).json()).games;
  }
  const kept = games.find((g) => g.red === 'Ann');
  assert.ok(kept, JSON.stringify(games));
  assert.deepEqual([kept.black, kept.result, kept.end_reason, kept.moves], ['Bo', 'red-wins', 'checkmate', 5]);
  assert.equal(kept.time_control, '300+3');
  // Its row in My games shows the clock it was played at.
  const black = people.black.page;
  await black.click('[data-nav="games"]');
  const row = black.locator(`.archive-list tbody tr[data-id="${kept.id}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), /Ann – Bo/);
  assert.equal((await row.locator('.archive-clock').textContent()).trim(), '5+3');
});

test('a game on a clock of seconds ends by the flag', async () => {
  const red = people.red.page;
  const made = await red.evaluate(async () => {
    const response = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ side: 'red', seconds: 3, increment: 0, name: 'Ann' }),
    });
    const room = await response.json();
    const tokens = JSON.parse(localStorage.getItem('xiangqi.roomTokens') ?? '{}');
    tokens[room.id] = room.token;
    localStorage.setItem('xiangqi.roomTokens', JSON.stringify(tokens));
    return room;
  });
  await red.goto(`${url()}#/room/${made.id}`);
  await red.waitForSelector('.room-role[data-role="red"]');
  // Black comes by the short code, typed in lower case.
  const black = people.black.page;
  await black.goto(`${url()}#/room`);
  await black.fill('.room-code-entry [name="room-code"]', made.code.toLowerCase());
  await black.click('[data-room="code"]');
  await black.waitForSelector('.room-role[data-role="black"]');
  assert.equal(await black.getAttribute('.room', 'data-room-id'), made.id);
  // No clock runs before Red's first move; from it, Black's runs, and Black never moves.
  const stateOfMade = async () => (await red.request.get(`${url()}api/rooms/${made.id}`)).json();
  await red.waitForTimeout(3500);
  assert.equal((await stateOfMade()).status, 'playing', 'no flag falls before Red has moved');
  await clickPoint(red, 'h2');
  await clickPoint(red, 'e2');
  await waitPiece(black, 'e2', 'C');
  for (const p of [red, black]) {
    await p.waitForFunction(() => document.querySelector('.room-status')?.dataset.status === 'over', null, { timeout: 10000 });
    assert.match(await statusOf(p), /Red wins/);
    assert.match(await statusOf(p), /Black lost on time/);
    assert.equal(await clockOf(p, 'black'), 0);
  }
  const room = await stateOfMade();
  assert.equal(room.result.code, 'time');
  assert.equal(room.clocks.black_ms, 0);
});
