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
  // The engine's reply is the game's: the reason says what was played, as played.
  assert.match(await page.textContent('#review .review-why'), /^Black answered C8\+6, and the chariot on h1 falls/);
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

// Chariot against one advisor: Red mates in 5. 1. K4+1 K5+1 2. R6+8?? lets the general take
// the chariot (2. K4+1 mates in 4), and 2… K5=4 takes it.
const KRKA = '9/9/3ak4/9/9/9/9/9/9/3K1R3 w - - 0 1';
const THROWN = [['d0', 'd1'], ['e7', 'e8'], ['f0', 'f8'], ['e8', 'f8']];

test('a position an endgame table covers is analysed and reviewed exactly', async () => {
  // The endgame course makes the table (and those its captures lead to) in the data folder.
  const state = await page.evaluate(async () => (await fetch('/api/endgames/chariot-advisor/table', { method: 'POST' })).json());
  assert.equal(state.state, 'ready');
  await page.selectOption('[data-setting="mode"]', 'two');
  await page.fill('#fen', KRKA);
  await page.click('[data-action="load-fen"]');
  await page.waitForFunction((fen) => document.getElementById('fen').value === fen, KRKA);

  // The analysis is the table's: the result and the distance, and its best moves each with its own.
  await page.check('[data-setting="analysis"]');
  await page.waitForSelector('#analysis[data-table="red"]');
  assert.equal(await page.textContent('#analysis h2'), 'Analysis (Red to move) — Red wins: mate in 5 moves (table)');
  const lines = await page.$$eval('#analysis li', (items) => items.map((li) => li.textContent));
  assert.equal(lines.length, 3);
  for (const line of lines) assert.match(line, /^Red wins: mate in 5 moves \(table\) {2}1\. /);
  assert.equal(await page.textContent('#eval-bar .eval-number'), '+M5');

  for (const [from, to] of THROWN.slice(0, 3)) await playMove(page, from, to);
  await page.waitForSelector('#analysis[data-table="draw"]');
  assert.match(await page.textContent('#analysis h2'), /— Draw \(table\)$/);
  await playMove(page, ...THROWN[3]);
  await page.uncheck('[data-setting="analysis"]');

  // The review names the move that threw the win away by the table's results.
  await page.click('[data-action="review"]');
  await page.waitForSelector('#review .review-graph', { timeout: 30000 });
  const thrown = page.locator('#moves span[data-ply="3"]');
  assert.equal(await thrown.getAttribute('title'), 'Blunder');
  await thrown.click();
  await page.waitForSelector('#review .review-table');
  assert.equal(await page.textContent('#review .review-table'), 'This throws away the win (table): mate in 4 moves became a draw.');
  // The legend says how the tables judge.
  assert.match(await page.textContent('#review .review-legend-tables'), /^In an ending our exact tables cover, a move is judged by the table/);
  await page.locator('#review').screenshot({ path: 'screenshots/53-review-tables-legend.png' });
  await page.selectOption('[data-setting="language"]', 'zh');
  assert.equal(await page.textContent('#review .review-table'), '这步棋丢掉了胜局（残局库）：4步杀变成了和棋。');
  await page.selectOption('[data-setting="language"]', 'en');
});

test('the review never says a side stands better against the number beside it, and says a reply the game played as played', async () => {
  const said = await page.evaluate(async () => {
    // The page's own module (under the build's versioned path), speaking the page's language.
    const { whyText, evaluationSaid } = await import(document.querySelector('link[href$="/js/review.js"]').href);
    const reply = { wxf: 'H2+3', iccs: 'b9c7' };
    const why = { kind: 'positional', side: 'black', reply };
    return {
      // Red's mistake left +0.46, and Black answered with the engine's reply.
      playedRedStillBetter: whyText(why, 'wxf', { played: 'b9c7', score: { cp: 46 }, mover: 'red' }),
      ifBlackBetter: whyText(why, 'wxf', { played: 'a9a8', score: { cp: -150 }, mover: 'red' }),
      ifLevel: whyText(why, 'wxf', { played: null, score: { cp: 5 }, mover: 'red' }),
      playedMaterial: whyText({ kind: 'material', side: 'black', reply, piece: 'R', square: 'h1' }, 'wxf', { played: 'b9c7', score: { cp: -600 }, mover: 'red' }),
      evaluation: evaluationSaid({ cp: 46 }),
      mate: evaluationSaid({ mate: 1 }),
    };
  });
  assert.equal(said.evaluation, "Evaluation from Red's side: +0.46 (Red is better)");
  assert.equal(said.playedRedStillBetter, 'Black answered H2+3: Red is still better, but by less.');
  assert.equal(said.ifBlackBetter, 'If Black answers H2+3, Black stands better.');
  assert.equal(said.ifLevel, 'If Black answers H2+3, the game is about level.');
  assert.equal(said.playedMaterial, 'Black answered H2+3, and the chariot on h1 falls.');
  assert.equal(said.mate, "Evaluation from Red's side: +M1 (Red mates by force)");
  // In Russian: «у чёрных», never «у стороны «Чёрные»».
  await page.selectOption('[data-setting="language"]', 'ru');
  await page.waitForFunction(() => document.querySelector('[data-action="new"]').textContent === 'Новая игра');
  const ru = await page.evaluate(async () => {
    const { whyText } = await import(document.querySelector('link[href$="/js/review.js"]').href);
    return whyText({ kind: 'positional', side: 'black', reply: { wxf: 'H2+3', iccs: 'b9c7' } }, 'wxf', { played: null, score: { cp: -150 }, mover: 'red' });
  });
  assert.equal(ru, 'Если ответить H2+3, позиция будет лучше у чёрных.');
  await page.selectOption('[data-setting="language"]', 'en');
});
