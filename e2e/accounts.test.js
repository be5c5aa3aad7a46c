// Accounts on a club's server (`xiangqi serve`): a newcomer is a guest ("Guest 4821" in the
// header), plays a game, signs up and keeps it; a second browser signs up as someone else and
// sees none of it; a wrong password is refused in the page's language; signing out turns the
// header back to a guest. This file starts its own hosted server on a free loopback port,
// with its own data folder.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from './browser.js';
import { freePort, startHosted, stopServer } from './server.js';

const data = mkdtempSync(join(tmpdir(), 'xq-accounts-'));
let port;
let server;
const people = {};
/** The rows of Ann's games in My games. */
let annRows = [];

const url = () => `http://127.0.0.1:${port}/`;

async function openBrowser(options = {}) {
  const { context, page } = await launch(options);
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(url());
  await page.waitForSelector('body[data-ready="true"]');
  return { context, page };
}

/** Fills and sends the account view's form `form` with `values`. */
async function sendForm(page, form, values) {
  for (const [name, value] of Object.entries(values)) await page.fill(`form[data-form="${form}"] input[name="${name}"]`, value);
  await page.click(`form[data-form="${form}"] button[type="submit"]`);
}

/** The ids of the rows in My games. */
async function myGames(page) {
  await page.click('[data-nav="games"]');
  await page.waitForFunction(() => document.querySelector('#archive:not([hidden]) :is(.archive-list table, .archive-empty)'));
  return page.$$eval('.archive-list tbody tr', (rows) => rows.map((r) => r.dataset.id));
}

before(async () => {
  port = await freePort();
  server = await startHosted(port, `http://127.0.0.1:${port}`, ['--data', data, '--searchers', '1']);
  people.ann = await openBrowser();
  people.bob = await openBrowser({ locale: 'ru-RU' });
});

after(async () => {
  for (const p of Object.values(people)) await p.context.close();
  await stopServer(server);
  rmSync(data, { recursive: true, force: true });
});

test('a newcomer is a guest, plays, signs up and keeps the game', async () => {
  const { page } = people.ann;
  const badge = page.locator('[data-account-link]');
  await badge.waitFor({ state: 'visible' });
  assert.match(await badge.textContent(), /^Guest \d{4} · Sign in$/);
  // A move on Play's board, then the engine's reply: the game is kept for this browser.
  await page.click('#board [data-square="h2"]');
  await page.click('#board [data-square="e2"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 1);
  await page.waitForTimeout(500);
  await badge.click();
  await page.waitForSelector('form[data-form="sign-up"]');
  await sendForm(page, 'sign-up', { name: 'Ann', password: 'correct horse' });
  await page.waitForFunction(() => document.querySelector('[data-account-link]')?.textContent === 'Ann');
  annRows = await myGames(page);
  assert.equal(annRows.length, 1, `Ann's game was kept: ${annRows}`);
});

test('another account sees none of it, and a wrong password is refused in its language', async () => {
  const { page } = people.bob;
  const badge = page.locator('[data-account-link]');
  await badge.waitFor({ state: 'visible' });
  await page.selectOption('select[data-setting="language"]', 'ru');
  assert.match(await badge.textContent(), /^Гость \d{4} · Войти$/);
  await badge.click();
  await sendForm(page, 'sign-in', { name: 'Ann', password: 'wrong horse' });
  await page.waitForFunction(() => document.querySelector('[data-account-message]')?.textContent === 'неверное имя или пароль');
  await sendForm(page, 'sign-up', { name: 'Боб', password: 'battery staple' });
  await page.waitForFunction(() => document.querySelector('[data-account-link]')?.textContent === 'Боб');
  const rows = await myGames(page);
  assert.ok(annRows.every((row) => !rows.includes(row)), `Bob sees none of Ann's games: ${rows}`);
});

test('signing out turns the header back to a guest', async () => {
  const { page } = people.ann;
  await page.click('[data-account-link]');
  await page.click('[data-account="sign-out"]');
  await page.waitForFunction(() => /^Guest \d{4} · Sign in$/.test(document.querySelector('[data-account-link]')?.textContent ?? ''));
  const rows = await myGames(page);
  assert.ok(annRows.every((row) => !rows.includes(row)), `signed out, Ann's games are not shown: ${rows}`);
});
