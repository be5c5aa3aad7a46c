// My games, the archive of every game played: a game in progress survives a kill -9 of the
// server and a reload and goes on in the same row; five tabs finishing games at once lose
// none; the page filters, deletes (after asking), exports all as one PGN and imports a file's
// games; a second tab with an older copy goes on as a new game and says so; a long list comes
// a page at a time; a move that cannot be saved (another program holds the database's lock)
// is refused and the page says changes are not being saved until they are kept again; a
// damaged database is said in the interface language and the app still plays.
// This file starts its own server (the release build that ./run makes) on a free loopback
// port, with its own data folder.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from './browser.js';
import { freePort, startServer, stopServer } from './server.js';

/** Red mates with the chariot i0i9. */
const MATE_IN_ONE = '3k5/2R6/9/9/9/9/9/9/9/4K3R w - - 0 1';
const data = mkdtempSync(join(tmpdir(), 'xq-archive-'));
let port;
let server;
let browser;
let page;

/** Starts the server on `port` with the data folder; resolves once it says where the games are. */
const start = () => startServer(port, ['--data', data], /Games are|Your games/);
const stop = (signal) => stopServer(server, signal);

const url = () => `http://127.0.0.1:${port}/`;
const moveCount = (p = page) => p.locator('#moves [data-ply]').count();
const click = (square, p = page) => p.click(`#board [data-square="${square}"]`);

/** Waits until tab `p`'s move list has `n` moves; a timeout says what the page shows. */
async function waitMoves(n, p = page) {
  try {
    await p.waitForFunction((k) => document.querySelectorAll('#moves [data-ply]').length === k, n, { timeout: 20000 });
  } catch (e) {
    const shown = await p.evaluate(() => ({
      moves: [...document.querySelectorAll('#moves [data-ply]')].map((m) => m.textContent),
      status: document.querySelector('#status')?.textContent,
    })).catch(() => null);
    throw new Error(`${n} moves were not listed: ${JSON.stringify(shown)} (${e.message})`);
  }
}

/**
 * Plays `from`→`to` on tab `p` by clicking, or, where the engine's replies made that move
 * illegal (a check, a piece in the way), the first legal move of the first piece that has one.
 */
async function playLegal(from, to, p = page) {
  await click(from, p);
  if (await p.locator(`#board [data-square="${to}"] .target`).count()) return click(to, p);
  const own = await p.$$eval('#board [data-square]', (points) => points
    .filter((g) => /^[A-Z]$/.test(g.querySelector('.piece')?.dataset.piece ?? ''))
    .map((g) => g.dataset.square));
  for (const square of own) {
    await click(square, p);
    const target = p.locator('#board [data-square]:has(.target)').first();
    if (await target.count()) return click(await target.getAttribute('data-square'), p);
  }
  throw new Error('no piece has a legal move');
}

/** The archive's games as the server lists them. */
async function archived(query = '') {
  const response = await page.request.get(`${url()}api/archive/games${query}`);
  assert.equal(response.status(), 200, await response.text());
  return (await response.json()).games;
}

/** Waits until `check(games)` holds for the archive's games. */
async function waitArchive(check, what) {
  const deadline = Date.now() + 10000;
  for (;;) {
    const games = await archived();
    if (check(games)) return games;
    if (Date.now() > deadline) assert.fail(`${what}: ${JSON.stringify(games)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Opens My games and waits for its list (or its message). */
async function openMyGames(p = page) {
  await p.click('[data-nav="games"]');
  await p.waitForSelector('#archive-status');
  await p.waitForFunction(() => document.querySelector('.archive-list table, .archive-empty, #archive-status.bad'));
}

const rows = () => page.locator('.archive-list tbody tr').count();

/** Plays `moves` ([from, to] points) on tab `p`, each once the one before is on its list. */
async function playMoves(p, moves) {
  for (const [from, to] of moves) {
    const n = await moveCount(p);
    await click(from, p);
    await click(to, p);
    await waitMoves(n + 1, p);
  }
}

before(async () => {
  port = await freePort();
  server = await start();
  ({ context: browser, page } = await launch());
  // The safety net's question would stop the scripted moves.
  await browser.addInitScript(() => {
    const settings = JSON.parse(localStorage.getItem('xiangqi.settings') || '{}');
    if (settings.safetyNet === undefined) localStorage.setItem('xiangqi.settings', JSON.stringify({ ...settings, safetyNet: false }));
  });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(url());
  await page.waitForSelector('body[data-ready="true"]');
});

after(async () => {
  await browser?.close();
  await stop();
  rmSync(data, { recursive: true, force: true });
});

test('the server says where the games are kept', () => {
  assert.match(server.output, new RegExp(`Your games are kept in ${join(data, 'games.sqlite3').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
});

test('a game against the engine survives kill -9 of the server and a reload, and goes on in its row', async () => {
  await page.selectOption('[data-setting="mode"]', 'engine');
  await page.selectOption('[data-setting="level"]', '0');
  await click('h2');
  await click('e2');
  await waitMoves(2);
  await playLegal('a3', 'a4');
  await waitMoves(4);
  const before = await waitArchive((g) => g.length === 1 && g[0].moves === 4, 'the game is saved with its 4 moves');
  assert.equal(before[0].finished, false);
  await stop('SIGKILL');
  server = await start();
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await moveCount(), 4, 'the moves are there');
  await playLegal('c3', 'c4');
  await waitMoves(6);
  const after = await waitArchive((g) => g.length === 1 && g[0].moves === 6, 'the same row goes on');
  assert.equal(after[0].id, before[0].id);
  assert.equal(after[0].level, 0);
  await openMyGames();
  assert.equal(await rows(), 1);
  const row = await page.textContent('.archive-list tbody tr');
  assert.match(row, /in progress/);
  assert.match(row, /Xiangqi · Beginner \(~800 Elo\)/, 'the engine is named by its level once, without nested brackets');
  await page.click('[data-nav="play"]');
});

test('five tabs finishing games at once lose none', async () => {
  const tabs = await Promise.all([1, 2, 3, 4, 5].map(async () => {
    const tab = await browser.newPage();
    await tab.goto(url());
    await tab.waitForSelector('body[data-ready="true"]');
    await tab.selectOption('[data-setting="mode"]', 'two');
    await tab.fill('#fen', MATE_IN_ONE);
    await tab.click('[data-action="load-fen"]');
    await tab.waitForFunction(() => document.querySelector('#fen').value.startsWith('3k5/2R6'));
    return tab;
  }));
  await Promise.all(tabs.map(async (tab) => {
    await click('i0', tab);
    await click('i9', tab);
  }));
  await Promise.all(tabs.map((tab) => waitMoves(1, tab)));
  const games = await waitArchive((g) => g.filter((x) => x.result === 'red-wins').length === 5, 'five finished games');
  assert.ok(games.filter((g) => g.result === 'red-wins').every((g) => g.end_reason === 'checkmate'));
  await Promise.all(tabs.map((tab) => tab.close()));
  await openMyGames();
  assert.equal(await rows(), 6, 'My games lists the five and the game in progress');
});

test('My games filters by result, deletes after asking, exports all and imports a file', async () => {
  await openMyGames();
  await page.selectOption('#archive-result', 'red-wins');
  await page.waitForFunction(() => document.querySelectorAll('.archive-list tbody tr').length === 5);
  await page.selectOption('#archive-result', 'black-wins');
  await page.waitForSelector('.archive-empty');
  await page.selectOption('#archive-result', '');
  await page.waitForFunction(() => document.querySelectorAll('.archive-list tbody tr').length === 6);
  // A language chosen on the page words it at once, without a reload.
  await page.selectOption('select[data-setting="language"]', 'ru');
  await page.waitForFunction(() => document.querySelector('#archive h2')?.textContent === 'Мои партии');
  await page.waitForFunction(() => document.querySelectorAll('.archive-list tbody tr').length === 6);
  await page.selectOption('select[data-setting="language"]', 'en');
  await page.waitForFunction(() => document.querySelector('#archive h2')?.textContent === 'My games');
  await page.waitForFunction(() => document.querySelectorAll('.archive-list tbody tr').length === 6);

  // Deleting asks first; cancelling keeps the game.
  await page.click('.archive-list tbody tr:last-child [data-delete]');
  await page.click('#ask [data-choice="keep"]');
  assert.equal(await rows(), 6);
  await page.click('.archive-list tbody tr:last-child [data-delete]');
  await page.click('#ask [data-choice="delete"]');
  await page.waitForFunction(() => document.querySelectorAll('.archive-list tbody tr').length === 5);
  assert.equal((await archived()).length, 5);

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#archive-export')]);
  assert.match(download.suggestedFilename(), /\.pgn$/);
  const text = readFileSync(await download.path(), 'utf8');
  assert.equal(text.match(/\[Game "Chinese Chess"\]/g).length, 5, text);
  assert.equal(text.match(/\[Result "1-0"\]/g).length, 5, text);

  const file = `=== club games ===\n[Game "Chinese Chess"]\n[Red "Lü Qin"]\n[Black "Xu Yinchuan"]\n[Date "1999.05.01"]\n[Format "ICCS"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n`
    + `[Game "Chinese Chess"]\n[Format "ICCS"]\n\n1. h2e2 h9g7 2. a0a5 *\n\n`
    + `[Game "Chinese Chess"]\n[Red "A"]\n[Black "B"]\n[Format "ICCS"]\n\n1. b2e2 b9c7 1-0\n`;
  await page.setInputFiles('#archive-file', { name: 'more.pgn', mimeType: 'application/x-chess-pgn', buffer: Buffer.from(file) });
  await page.waitForFunction(() => document.querySelectorAll('.archive-list tbody tr').length === 7);
  const status = await page.textContent('#archive-status');
  assert.match(status, /2 game\(s\) from more\.pgn added/);
  assert.match(status, /1 game\(s\) skipped/);
  assert.match(status, /Skipped: .*=== club games ===/);
  assert.match(await page.textContent('.archive-list'), /Lü Qin – Xu Yinchuan/);

  // An imported game opens on the board for replay.
  const imported = page.locator('.archive-list tbody tr', { hasText: 'Lü Qin' });
  await imported.locator('[data-open]').click();
  await page.waitForSelector('#game:not([hidden])');
  await waitMoves(4);
});

test('a second tab with an older copy saves its move as a new game and says so', async () => {
  const [a, b] = await Promise.all([1, 2].map(async () => {
    const tab = await browser.newPage();
    await tab.goto(url());
    await tab.waitForSelector('body[data-ready="true"]');
    await tab.selectOption('[data-setting="mode"]', 'two');
    return tab;
  }));
  await a.click('[data-action="new"]');
  await waitMoves(0, a);
  await playMoves(a, [['h2', 'e2'], ['h9', 'g7']]);
  const key = await a.evaluate(() => JSON.parse(localStorage.getItem('xiangqi.archive')).key);
  await waitArchive((g) => g.some((x) => x.key === key && x.moves === 2), 'the game of tab A is saved');
  // Tab B resumes it from My games while it has two moves; tab A plays on.
  await openMyGames(b);
  await b.click(`.archive-list tbody tr[data-key="${key}"] [data-open]`);
  await b.waitForSelector('#game:not([hidden])');
  await waitMoves(2, b);
  await playMoves(a, [['h0', 'g2'], ['i9', 'h9']]);
  await click('b0', b);
  await click('c2', b);
  await waitMoves(3, b);
  await b.waitForFunction(() => /another tab/.test(document.querySelector('#message').textContent), null, { timeout: 10000 });
  const games = await waitArchive((g) => g.some((x) => x.key !== key && x.moves === 3), "tab B's copy is a game of its own");
  assert.equal(games.find((x) => x.key === key).moves, 4, "tab A's moves are kept");
  await Promise.all([a.close(), b.close()]);
});

test('a game reviewed in a fresh browser, and reloaded there, adds no row and keeps its players', async () => {
  // A finished game between Ann and Bob, played through the API.
  const post = async (path, data) => {
    const response = await page.request.post(`${url()}${path}`, { data });
    assert.ok(response.ok(), await response.text());
    return response.json();
  };
  const game = await post('api/games', { fen: MATE_IN_ONE });
  await post(`api/archive/sessions/${game.id}`, { red: 'Ann', black: 'Bob' });
  await post(`api/games/${game.id}/move`, { from: 'i0', to: 'i9' });
  const games = await waitArchive((g) => g.some((x) => x.red === 'Ann' && x.finished), 'the game is saved');
  const row = games.find((x) => x.red === 'Ann');
  // Another browser, with settings of its own (against the engine), opens its review.
  const { context, page: other } = await launch();
  try {
    other.on('pageerror', (e) => console.error('page error:', e.message));
    await other.goto(`${url()}#/review/${row.id}`);
    await other.waitForSelector('body[data-ready="true"]');
    await other.waitForSelector('#review .review-graph', { timeout: 30000 });
    for (let i = 0; i < 2; i++) {
      await other.reload();
      await other.waitForSelector('body[data-ready="true"]');
      await other.waitForFunction(() => document.querySelectorAll('#moves [data-ply]').length === 1);
    }
    await new Promise((r) => setTimeout(r, 500));
    const now = await archived();
    assert.equal(now.length, games.length, `no row added: ${JSON.stringify(now.map((x) => [x.red, x.black, x.moves]))}`);
    const kept = now.find((x) => x.id === row.id);
    assert.deepEqual([kept.red, kept.black], ['Ann', 'Bob']);
  } finally {
    await context.close();
  }
});

test('names the app gave are said in the language of now, whatever language they were kept in', async () => {
  const post = async (path, data) => {
    const response = await page.request.post(`${url()}${path}`, { data });
    assert.ok(response.ok(), await response.text());
    return response.json();
  };
  // Kept by a Russian page: «Игрок» against the engine at the first level.
  const game = await post('api/games', {});
  await post(`api/archive/sessions/${game.id}`, { red: 'Игрок', black: 'Сянци · Новичок (~800)', level: 0 });
  await post(`api/games/${game.id}/move`, { from: 'h2', to: 'e2' });
  await waitArchive((g) => g.some((x) => x.red === 'Игрок'), 'the game is saved');
  await page.selectOption('[data-setting="language"]', 'en');
  await openMyGames();
  const row = page.locator('.archive-list tbody tr', { hasText: 'Central Cannon' }).first();
  const text = await page.textContent('.archive-list tbody');
  assert.doesNotMatch(text, /Игрок|Сянци/, text);
  assert.match(text, /Player – Xiangqi · Beginner/, text);
  await page.selectOption('[data-setting="language"]', 'zh');
  await page.waitForFunction(() => /棋手 – 象棋引擎·/.test(document.querySelector('.archive-list tbody')?.textContent));
  await page.selectOption('[data-setting="language"]', 'en');
  assert.ok(row);
});

test('My games shows a long list a page at a time', async () => {
  const before = (await page.request.get(`${url()}api/archive/games`).then((r) => r.json())).total;
  const one = (i) => `[Game "Chinese Chess"]\n[Round "${i}"]\n[Format "ICCS"]\n\n1. h2e2 *\n\n`;
  const file = Array.from({ length: 210 }, (_, i) => one(i)).join('');
  await openMyGames();
  await page.setInputFiles('#archive-file', { name: 'many.pgn', mimeType: 'application/x-chess-pgn', buffer: Buffer.from(file) });
  await page.waitForFunction(() => document.querySelectorAll('.archive-list tbody tr').length === 200);
  const total = before + 210;
  assert.match(await page.textContent('#archive-more'), new RegExp(`${total - 200} left`));
  await page.click('#archive-more');
  await page.waitForFunction((n) => document.querySelectorAll('.archive-list tbody tr').length === n, total);
  assert.equal(await page.isVisible('#archive-more'), false, 'nothing more to show');
  await page.click('[data-nav="play"]');
});

/** Holds the write lock of the database named by its argument until its input closes or it is killed. */
const LOCK_HOLDER = `
import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('BEGIN IMMEDIATE')
print('locked', flush=True)
sys.stdin.read()
`;

/** Plays `from`→`to` by clicking until tab `p` lists `n` moves (a refusal may leave a piece picked up). */
async function playUntil(from, to, n, p = page) {
  for (let attempt = 0; attempt < 3 && (await moveCount(p)) < n; attempt++) {
    await p.keyboard.press('Escape');
    await click(from, p);
    await click(to, p);
    await p.waitForFunction((k) => document.querySelectorAll('#moves [data-ply]').length === k, n, { timeout: 3000 }).catch(() => {});
  }
  await waitMoves(n, p);
}

test('a move that cannot be saved is refused, and the page says so until changes are kept again', async () => {
  await page.selectOption('[data-setting="mode"]', 'two');
  await page.click('[data-action="new"]');
  await waitMoves(0);
  await playUntil('h2', 'e2', 1);
  assert.equal(await page.isVisible('#not-saving'), false, 'no note while games are saved');
  // Another program takes the database's write lock and holds it.
  const holder = spawn('python3', ['-c', LOCK_HOLDER, join(data, 'games.sqlite3')], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    holder.stdout.once('data', resolve);
    holder.once('exit', () => reject(new Error('the lock holder stopped')));
  });
  try {
    await click('h9');
    await click('g7');
    await page.waitForSelector('#not-saving:not([hidden])', { timeout: 15000 });
    assert.match(await page.textContent('#not-saving'), /Not being saved/);
    assert.equal(await moveCount(), 1, 'the refused move is not played');
  } finally {
    holder.kill();
  }
  // The lock is gone: the server finds it can write again by itself, and the note goes.
  await page.waitForSelector('#not-saving', { state: 'hidden', timeout: 30000 });
  await playUntil('h9', 'g7', 2);
});

test('a damaged database is said in Russian without English words and a move can still be played', async () => {
  await stop();
  writeFileSync(join(data, 'games.sqlite3'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 31) % 253)));
  rmSync(join(data, 'games.sqlite3-wal'), { force: true });
  rmSync(join(data, 'games.sqlite3-shm'), { force: true });
  server = await start();
  assert.match(server.output, /Games are not kept: .*games\.sqlite3.*not a database or is damaged/);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.selectOption('[data-setting="language"]', 'ru');
  await openMyGames();
  const said = await page.textContent('#archive-status');
  assert.match(said, /повреждён/);
  const withoutPath = said.replace(join(data, 'games.sqlite3'), '');
  assert.deepEqual(withoutPath.match(/[A-Za-z]{3,}/g) ?? [], [], said);
  await page.click('[data-nav="play"]');
  await page.selectOption('[data-setting="mode"]', 'two');
  await page.click('[data-action="new"]');
  await waitMoves(0);
  await click('h2');
  await click('e2');
  await waitMoves(1);
  await page.selectOption('[data-setting="language"]', 'en');
});
