// End-to-end test of the game review: a short game in which Red throws its chariot away is
// reviewed from the Review button; the progress bar shows while the server works, then the
// evaluation graph, the class of every move (the blunder marked), the better move as an arrow
// with its line, why the blunder was one, and each side's summary. The server is started by
// ./run and its address given in XIANGQI_URL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playMove, useApp } from './fixture.js';

// 1. H2+3 H8+7 2. R1+1 H2+3 3. R1=2?? C8+6: the cannon takes the chariot over Red's own
// cannon on the h-file.
const GAME = [['h0', 'g2'], ['h9', 'g7'], ['i0', 'i1'], ['b9', 'c7'], ['i1', 'h1'], ['h7', 'h1']];

const page = useApp();

const play = (from, to) => playMove(page, from, to);

test('a review shows its progress, then the graph and the blunder with its reason', async () => {
  await page.selectOption('[data-setting="mode"]', 'two');
  await page.click('[data-action="new"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 0);
  for (const [from, to] of GAME) await play(from, to);

  await page.click('[data-action="review"]');
  // The bar is there from the click on, until the review is in.
  assert.ok(await page.isVisible('#review-progress'), 'the progress bar shows');
  await page.waitForSelector('#review .review-graph', { timeout: 30000 });
  assert.equal(await page.locator('#review-progress').count(), 0);

  const marks = await page.$$eval('#moves span[data-ply]', (spans) => spans.map((s) => s.querySelector('.judged')?.dataset.class ?? null));
  assert.equal(marks.length, 6);
  assert.ok(marks.every((c) => c !== null), `every move is classified: ${marks}`);
  assert.equal(marks[4], 'blunder', `${marks}`);
  assert.equal(marks.filter((c) => c === 'blunder').length, 1, `${marks}`);
  const blunder = page.locator('#moves span[data-ply="5"]');
  assert.equal(await blunder.getAttribute('title'), 'Blunder');
  assert.equal(await blunder.locator('.judged').textContent(), '??');
  assert.equal(await page.locator('#review .graph-dot.judged-blunder').count(), 1);

  // Selecting the blunder: the better move as an arrow, its line, and why.
  await blunder.click();
  await page.waitForSelector('#review .review-why');
  const arrow = await page.getAttribute('.arrow.hint', 'data-move');
  assert.ok(arrow && arrow !== 'i1h1', `the better move ${arrow}`);
  assert.match(await page.textContent('#review .review-better'), /^Better was \S+ \([+−]?\d/);
  // The engine's reply is not the game's: the reason says what would follow.
  assert.match(await page.textContent('#review .review-why'), /^If Black answers \S+, the chariot on h1 falls/);
  // The evaluation says whose side it is from, and which side it favours.
  assert.match(await page.textContent('#review .review-detail'), /Evaluation from Red's side: −\d+\.\d+ \(Black is better\)/);
  assert.ok(await page.isVisible('#review .review-side'), 'the panel says scores are from Red\'s side');
  assert.match(await page.textContent('#review .review-side'), /from Red's side/);
  // The legend under the table names every mark in words.
  assert.ok(await page.isVisible('#review .review-legend'), 'the legend shows');
  const legend = await page.$$eval('#review .review-legend li', (items) => items.map((li) => [li.dataset.class, li.textContent]));
  assert.deepEqual(legend.map(([c]) => c), ['only', 'best', 'excellent', 'good', 'inaccuracy', 'mistake', 'blunder']);
  assert.match(legend[0][1], /^! only move: .*every other move would have been a blunder/);
  assert.match(legend[6][1], /^\?\? blunder: /);
  const red = await page.textContent('#review .review-summary tr[data-side="red"]');
  const black = await page.textContent('#review .review-summary tr[data-side="black"]');
  const accuracy = (row) => Number(/([\d.]+)%/.exec(row)[1]);
  assert.ok(accuracy(red) < accuracy(black), `${red} / ${black}`);
  await page.screenshot({ path: 'screenshots/25-review.png' });

  // A click on the graph's start shows the first position; the Russian interface names the class.
  const graph = page.locator('#review .review-graph');
  await graph.scrollIntoViewIfNeeded();
  const box = await graph.boundingBox();
  await page.mouse.click(box.x + 1, box.y + box.height / 2);
  await page.waitForFunction(() => document.querySelector('#moves')?.classList.contains('browsing')
    && !document.querySelector('#moves span.current'));
  await page.selectOption('[data-setting="language"]', 'ru');
  assert.equal(await blunder.getAttribute('title'), 'Грубая ошибка');
  await page.selectOption('[data-setting="language"]', 'en');
});
