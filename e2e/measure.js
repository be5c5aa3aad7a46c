// Measures what users feel: page load time, how soon a clicked move appears, and how long
// the engine takes to answer at the beginner level. Prints medians in milliseconds.

import { launch } from './browser.js';

const URL = process.env.XIANGQI_URL ?? 'http://127.0.0.1:8080/';
const RUNS = Number(process.env.RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { context, page } = await launch();
const loads = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = Date.now();
  await page.goto(URL);
  await page.waitForSelector('body[data-ready="true"]');
  loads.push(Date.now() - t0);
}
await page.selectOption('[data-setting="mode"]', 'two');
const moves = [];
for (let i = 0; i < RUNS; i++) {
  await page.click('[data-action="new"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 0);
  await page.click('[data-square="h2"]');
  const ms = await page.evaluate(() => new Promise((resolve) => {
    const t0 = performance.now();
    const seen = () => document.querySelector('[data-square="e2"] [data-piece="C"]');
    const watch = () => (seen() ? resolve(performance.now() - t0) : requestAnimationFrame(watch));
    document.querySelector('[data-square="e2"]').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    watch();
  }));
  moves.push(ms);
}
const answers = await page.evaluate(async (runs) => {
  const post = (path, body) => fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
  const times = [];
  for (let i = 0; i < runs; i++) {
    const game = await post('/api/games', { moves: ['h2e2'] });
    const t0 = performance.now();
    await post(`/api/games/${game.id}/engine`, { level: 0 });
    times.push(performance.now() - t0);
  }
  return times;
}, RUNS);
await page.selectOption('[data-setting="mode"]', 'engine');
await context.close();
console.log(`page load (to first playable board): median ${median(loads)} ms  [${loads.join(', ')}]`);
console.log(`move appears after click: median ${median(moves).toFixed(1)} ms  [${moves.map((m) => m.toFixed(1)).join(', ')}]`);
console.log(`engine answer, beginner level: median ${median(answers).toFixed(0)} ms  [${answers.map((m) => m.toFixed(0)).join(', ')}]`);
