// The browser tests' one set-up: the app's address, a browser with the app open for a test
// file (started before its tests, closed after them), and the steps every test takes: open a
// view from the sections bar, click a point of a board.

import { before, after } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApp } from './browser.js';
import { freePort, startServer, stopServer } from './server.js';

/** The app the tests run against: the server `e2e/run` started. */
export const APP_URL = process.env.XIANGQI_URL ?? 'http://127.0.0.1:8080/';

/** A stand-in for `state.page`, which reaches the real page once it is open. */
function pageOf(state) {
  return new Proxy({}, {
    get(_, name) {
      if (!state.page) throw new Error(`the page is not open yet (asked for ${String(name)})`);
      const value = state.page[name];
      return typeof value === 'function' ? value.bind(state.page) : value;
    },
  });
}

/**
 * A browser with the app open and ready for the tests of this file, on a server of the file's
 * own with a fresh data folder (for tests that need a learner with no progress yet: the
 * server keeps the progress of the one owner of the app, whatever the browser). Answers the
 * page, as `useApp` does.
 */
export function useFreshApp(prepare = null, options = {}) {
  const state = {};
  before(async () => {
    state.data = mkdtempSync(join(tmpdir(), 'xq-fresh-'));
    const port = await freePort();
    state.server = await startServer(port, ['--data', state.data], /Games are|Your games/);
    Object.assign(state, await openApp(`http://127.0.0.1:${port}/`, options));
    await prepare?.(state.page);
  });
  after(async () => {
    await state.context?.close();
    await stopServer(state.server);
    rmSync(state.data, { recursive: true, force: true });
  });
  return pageOf(state);
}

/**
 * A browser with the app open and ready for the tests of this file: answers the page (a
 * stand-in that reaches the real page once the tests run). `prepare(page)` runs once it is
 * open; `options` go to the browser (e.g. `{locale}`).
 */
export function useApp(prepare = null, options = {}) {
  const opened = {};
  before(async () => {
    Object.assign(opened, await openApp(APP_URL, options));
    await prepare?.(opened.page);
  });
  after(async () => {
    await opened.context?.close();
  });
  return pageOf(opened);
}

/** Opens section `name` (`play`, `learn`, `puzzles`, `trainer`, `games`) from the bar. */
export const openView = (page, name) => page.click(`[data-nav="${name}"]`);

/** Clicks point `square` (ICCS, e.g. `h2`) of the board inside `scope` (the game's by default). */
export const clickPoint = (page, square, scope = '#board') => page.click(`${scope} [data-square="${square}"]`);

/** Plays `from`→`to` on the game's board by two clicks, and waits until the move list has it. */
export async function playMove(page, from, to) {
  const before = await page.locator('#moves span[data-ply]').count();
  await clickPoint(page, from);
  await clickPoint(page, to);
  await page.waitForFunction((n) => document.querySelectorAll('#moves span[data-ply]').length === n + 1, before);
}
