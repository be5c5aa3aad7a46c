// Starts headless Chromium with a fresh profile, as the tests and the measurements use it.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

/**
 * A browser context with a fresh profile and its first page; `options` (e.g. `{locale:
 * 'ru-RU'}`, `{viewport}`) go to Playwright, but `extraArgs`, which Chromium is started with
 * besides its usual ones.
 */
export async function launch({ extraArgs = [], ...options } = {}) {
  const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'xq-chromium-')), {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', ...extraArgs],
    viewport: { width: 1200, height: 820 },
    // The tests' own string predicates are evaluated in the page, which the app's content
    // security policy forbids; the test of that policy opens a page that keeps it.
    bypassCSP: true,
    ...options,
  });
  const page = context.pages()[0] ?? await context.newPage();
  return { context, page };
}

/** A fresh browser with the app at `url` loaded and ready; page errors go to stderr. */
export async function openApp(url, options = {}) {
  const { context, page } = await launch(options);
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return { context, page };
}
