// A club's server as its members use it: `xiangqi serve` behind Debian's nginx (the deploy
// folder's proxy settings) on a name that is not loopback's, in three browsers. Two people
// sign up; one posts a challenge in the lobby and the other accepts it; they play a rated game
// to mate by clicking, with a draw offered and declined on a 1280×720 screen where the offer's
// Accept button and one's own clock are in view; a guest watches and cannot move; both
// ratings change and both profiles show the game; each finds it in their own My games and
// not the other's own games; a rematch is played with the colours swapped on every page.
// This file starts its own server and nginx on free loopback ports, with its own data folder.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from './browser.js';
import { freePort, startHosted, startNginx, stopServer } from './server.js';

const NAME = 'club.test';
const data = mkdtempSync(join(tmpdir(), 'xq-club-'));
let server;
let nginx;
let url;
const people = {};
let roomId = null;

/** A browser that finds the club's name on this machine, with the app open. */
async function openBrowser(viewport = { width: 1280, height: 720 }) {
  const { context, page } = await launch({ viewport, extraArgs: [`--host-resolver-rules=MAP ${NAME} 127.0.0.1`] });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return { context, page };
}

const clickPoint = (page, square) => page.click(`.room-board [data-square="${square}"]`);

/** The piece on `square` of `page`'s room board (its FEN letter), or null. */
const pieceOn = (page, square) => page.evaluate((sq) => document.querySelector(`.room-board [data-square="${sq}"] .piece`)?.dataset.piece ?? null, square);

/** Plays `from`→`to` by two clicks on `page`; waits until every page shows it. */
async function play(page, from, to) {
  const piece = await pieceOn(page, from);
  assert.ok(piece, `a piece stands on ${from}`);
  await clickPoint(page, from);
  await clickPoint(page, to);
  for (const p of [people.ann.page, people.bob.page, people.guest.page]) {
    await p.waitForFunction(([sq, pc]) => document.querySelector(`.room-board [data-square="${sq}"] .piece`)?.dataset.piece === pc, [to, piece], { timeout: 15000 });
  }
}

/** Signs `page` up as `name` from the account view. */
async function signUp(page, name) {
  await page.click('[data-account-link]');
  await page.fill('form[data-form="sign-up"] input[name="name"]', name);
  await page.fill('form[data-form="sign-up"] input[name="password"]', 'correct horse battery');
  await page.click('form[data-form="sign-up"] button[type="submit"]');
  await page.waitForFunction((n) => document.querySelector('[data-account-link]')?.textContent === n, name);
}

/** The rows of `page`'s My games, as their text. */
async function myGames(page) {
  await page.click('[data-nav="games"]');
  await page.waitForFunction(() => document.querySelector('#archive:not([hidden]) :is(.archive-list table, .archive-empty)'));
  return page.$$eval('.archive-list tbody tr', (rows) => rows.map((r) => r.textContent));
}

/** Whether `selector` on `page` lies wholly within the window, unscrolled. */
async function inView(page, selector) {
  const box = await page.locator(selector).boundingBox();
  const { height, width } = page.viewportSize();
  return box !== null && box.y >= 0 && box.y + box.height <= height && box.x + box.width <= width;
}

before(async () => {
  const [serverPort, port] = [await freePort(), await freePort()];
  url = `http://${NAME}:${port}/`;
  server = await startHosted(serverPort, url, ['--data', join(data, 'server'), '--trusted-proxy', '127.0.0.1', '--searchers', '1']);
  nginx = await startNginx(join(data, 'nginx'), port, serverPort, NAME);
  people.ann = await openBrowser();
  people.bob = await openBrowser();
  people.guest = await openBrowser({ width: 1200, height: 820 });
});

after(async () => {
  for (const { context } of Object.values(people)) await context?.close();
  await stopServer(server);
  await stopServer(nginx);
  rmSync(data, { recursive: true, force: true });
});

test('two people sign up through nginx on the club\'s name, and Ann plays a game of her own', async () => {
  assert.match(await people.ann.page.textContent('[data-account-link]'), /^Guest \d{4}/);
  await signUp(people.ann.page, 'Ann');
  await signUp(people.bob.page, 'Bob');
  // A game of Ann's own against the engine: hers alone.
  const { page } = people.ann;
  await page.click('[data-nav="play"]');
  await page.click('#board [data-square="h2"]');
  await page.click('#board [data-square="e2"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 1);
});

test('Ann posts a challenge, Bob accepts it from the lobby, and a guest watches', async () => {
  const ann = people.ann.page;
  const bob = people.bob.page;
  await ann.click('[data-nav="lobby"]');
  await ann.selectOption('.lobby-new [name="clock"]', '5+3');
  await ann.selectOption('.lobby-new [name="side"]', 'red');
  assert.equal(await ann.isChecked('.lobby-new [name="rated"]'), true);
  await ann.click('[data-lobby="post"]');
  await ann.waitForSelector('.lobby-seeks [data-lobby="cancel"]');
  await bob.click('[data-nav="lobby"]');
  const accept = bob.locator('.lobby-seeks tr', { hasText: 'Ann' }).locator('[data-lobby="accept"]');
  await accept.waitFor();
  assert.match(await bob.textContent('.lobby-seeks tbody tr'), /5\+3 · blitz/);
  await accept.click();
  await bob.waitForSelector('.room-role[data-role="black"]');
  await ann.waitForSelector('.room-role[data-role="red"]');
  roomId = await ann.getAttribute('.room', 'data-room-id');
  assert.equal(await ann.getAttribute('.room-kind', 'data-rated'), 'true');
  const guest = people.guest.page;
  await guest.goto(`${url}#/room/${roomId}`);
  await guest.waitForSelector('.room-role[data-role="spectator"]');
  assert.match(await guest.textContent('.room-seat[data-side="red"]'), /Ann/);
  // The guest cannot move: a click selects nothing, and no move is sent.
  await clickPoint(guest, 'b2');
  assert.equal(await guest.locator('.room-board .selected').count(), 0);
  assert.equal(await guest.locator('.room-actions').count(), 0);
  assert.equal(await guest.locator('[data-room="watch-analysis"]').count(), 0, 'a rated game is analysed for no one');
});

test('a rated game to mate by clicking, with a draw declined in view at 1280×720', async () => {
  const ann = people.ann.page;
  const bob = people.bob.page;
  await play(ann, 'b2', 'b4');
  await play(bob, 'a9', 'a8');
  // Bob offers a draw: Ann's Accept button and her own clock are in view, unscrolled.
  await bob.click('[data-room="draw"]');
  await ann.waitForSelector('.room-offer [data-room="accept"]');
  assert.equal(await ann.evaluate(() => window.scrollY), 0);
  assert.ok(await inView(ann, '.room-offer [data-room="accept"]'), 'the offer\'s Accept button is in view');
  assert.ok(await inView(ann, '.room-clock[data-clock="red"]'), 'Ann\'s own clock is in view');
  await ann.click('[data-room="decline"]');
  await bob.waitForFunction(() => !document.querySelector('.room-offer'));
  await play(ann, 'b4', 'c4');
  await play(bob, 'a8', 'e8');
  await play(ann, 'c4', 'c9');
  for (const p of [ann, bob, people.guest.page]) {
    await p.waitForFunction(() => document.querySelector('.room-status')?.dataset.status === 'over');
    assert.match(await p.textContent('.room-status'), /mate/i);
  }
});

test('both ratings changed and both profiles show the game', async () => {
  const ann = people.ann.page;
  const profile = async (page, name) => {
    await page.goto(`${url}#/@/${name}`);
    await page.waitForSelector(`[data-profile-name="${name}"]`);
    // The game is counted just after it ends.
    for (let i = 0; i < 50 && await page.locator('.profile-games li').count() === 0; i++) {
      await new Promise((r) => setTimeout(r, 200));
      await page.reload();
      await page.waitForSelector(`[data-profile-name="${name}"]`);
    }
    return page;
  };
  await profile(ann, 'Ann');
  const annRating = Number((await ann.textContent('.profile-rating[data-speed="blitz"] .profile-rating-value')).replace('?', ''));
  assert.ok(annRating > 1500, `Ann's blitz rating rose: ${annRating}`);
  assert.equal(await ann.getAttribute('.profile-games li', 'data-outcome'), 'win');
  assert.equal(await ann.locator('.profile-chart polyline[data-speed="blitz"]').count(), 1);
  assert.equal(await ann.locator('.profile-games [data-review]').count(), 1, 'Ann may review her own game');
  await profile(ann, 'Bob');
  const bobRating = Number((await ann.textContent('.profile-rating[data-speed="blitz"] .profile-rating-value')).replace('?', ''));
  assert.ok(bobRating < 1500, `Bob's blitz rating fell: ${bobRating}`);
  assert.equal(await ann.getAttribute('.profile-games li', 'data-outcome'), 'loss');
  assert.equal(await ann.locator('.profile-games [data-review]').count(), 0, 'not Bob\'s review');
});

test('each finds the game in their own My games, and not the other\'s own game', async () => {
  const annRows = await myGames(people.ann.page);
  const bobRows = await myGames(people.bob.page);
  assert.equal(annRows.filter((r) => /Ann – Bob/.test(r)).length, 1, annRows.join(' | '));
  assert.equal(bobRows.filter((r) => /Ann – Bob/.test(r)).length, 1, bobRows.join(' | '));
  assert.equal(annRows.length, 2, 'Ann has her own game too');
  assert.equal(bobRows.length, 1, `Bob sees only the game they played: ${bobRows.join(' | ')}`);
});

test('a rematch swaps the colours on every page', async () => {
  const ann = people.ann.page;
  const bob = people.bob.page;
  for (const p of [ann, bob]) {
    await p.goto(`${url}#/room/${roomId}`);
    await p.waitForSelector('.room[data-connected="true"]');
  }
  await ann.click('[data-room="rematch"]');
  await bob.waitForSelector('.room-offer [data-room="accept"]');
  await bob.click('.room-offer [data-room="accept"]');
  await bob.waitForSelector('.room-role[data-role="red"]');
  await ann.waitForSelector('.room-role[data-role="black"]');
  // Bob now plays Red and moves first; Ann answers as Black.
  await play(bob, 'h2', 'e2');
  await play(ann, 'h9', 'g7');
  assert.equal(await pieceOn(people.guest.page, 'g7'), 'n');
});
