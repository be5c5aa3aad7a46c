// End-to-end tests of the move list's variations, the learner's safety net, the review offered
// when a game ends or is opened, and record warnings worded in the interface language. The
// server is started by ./run and its address given in XIANGQI_URL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickPoint, playMove, useApp } from './fixture.js';

/** Ten moves of a cannon opening (ICCS). */
const GAME = ['h2e2', 'h9g7', 'h0g2', 'i9h9', 'i0h0', 'b9c7', 'b0c2', 'b7b3', 'a0a1', 'g6g5'];
/** Red's horse on c2 and Black's chariot on a4, which sweeps the fourth rank. */
const HANGING = '5k3/9/9/9/9/r8/9/2N6/9/4K4 w - - 0 1';

const page = useApp(async (page) => {
  await page.selectOption('[data-setting="notation"]', 'iccs');
});

const click = (square) => clickPoint(page, square);
const choose = (setting, value) => page.selectOption(`[data-setting="${setting}"]`, value);
const plies = () => page.locator('#moves span[data-ply]').count();

/** A PGN of `moves` (ICCS), with `trailer` after it. */
function pgn(moves, trailer = '') {
  const text = moves.map((m, i) => `${i % 2 === 0 ? `${i / 2 + 1}. ` : ''}${m.slice(0, 2).toUpperCase()}-${m.slice(2).toUpperCase()}`).join(' ');
  return `[Game "Chinese Chess"]\n[Format "ICCS"]\n\n${text} *\n${trailer}`;
}

/** Opens a record of `moves` from a file named `name`; waits until the list shows them. */
async function open(moves, name = 'game.pgn', trailer = '') {
  await page.setInputFiles('#record-file', { name, mimeType: 'text/plain', buffer: Buffer.from(pgn(moves, trailer)) });
  await page.waitForFunction((n) => document.querySelectorAll('#moves span[data-ply]').length === n
    && !document.querySelector('#moves li.variations'), moves.length);
}

/** The moves of the main line as the list shows them, variations left out. */
const mainLine = () => page.$$eval('#moves > li:not(.variations) > span', (spans) => spans.map((s) => s.textContent).filter((t) => t !== '…'));

/** Browses back to ply 3 and plays Black's horse b9–c7 there. */
async function playFromMoveThree() {
  await page.click('#moves span[data-ply="3"]');
  assert.equal(await page.getAttribute('#moves span.current', 'data-ply'), '3');
  await click('b9');
  await click('c7');
  await page.waitForSelector('#ask');
}

test('a move from an earlier position starts a variation, and the main line stays', async () => {
  await choose('mode', 'two');
  await open(GAME);
  await playFromMoveThree();
  assert.equal(await page.locator('#ask button').count(), 3, 'variation, replace and cancel');
  await page.click('#ask button[data-choice="variation"]');
  await page.waitForSelector('#moves li.variations');
  assert.deepEqual(await mainLine(), GAME, 'the main line is still there');
  const variation = await page.textContent('#moves li.variations');
  assert.match(variation, /^\(2… b9c7\)/, `the variation stands in parentheses: ${variation}`);
  assert.equal(await plies(), 4, 'play goes on in the variation');
  assert.equal(await page.getAttribute('[data-square="c7"] [data-piece]', 'data-piece'), 'n');
  assert.ok(await page.isVisible('#line-actions'), 'a variation can be made the main line or deleted');
  // Play goes on in the variation; a main-line move takes the game back to the main line.
  await click('i0');
  await click('i1');
  await page.waitForFunction(() => /b9c7 3\. i0i1/.test(document.querySelector('#moves li.variations').textContent));
  await page.click('#moves span[data-line="0"][data-line-ply="6"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 10);
  assert.equal(await page.getAttribute('#moves span.current', 'data-ply'), '6');
  assert.match(await page.textContent('#moves li.variations'), /b9c7 .*i0i1/, 'the variation stays');
  assert.ok(!(await page.isVisible('#line-actions')), 'the main line is not a variation');
});

test('a move from an earlier position can replace the rest of the game', async () => {
  await open(GAME);
  await playFromMoveThree();
  await page.click('#ask button[data-choice="replace"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 4);
  assert.deepEqual(await mainLine(), ['h2e2', 'h9g7', 'h0g2', 'b9c7'], 'the rest is gone');
  assert.equal(await page.locator('#moves li.variations').count(), 0);
  assert.equal(await page.locator('#ask').count(), 0);
});

test('cancelling the question leaves the game as it was', async () => {
  await open(GAME);
  await playFromMoveThree();
  await page.click('#ask button[data-choice="cancel"]');
  assert.equal(await page.locator('#ask').count(), 0);
  assert.deepEqual(await mainLine(), GAME);
  assert.equal(await page.getAttribute('[data-square="b9"] [data-piece]', 'data-piece'), 'n');
  assert.ok(!(await page.isVisible('#line-actions')), 'no variation, nothing to promote or delete');
});

test('a game opened from a file offers its review, and so does a game that ends', async () => {
  await open(GAME);
  assert.ok(await page.isVisible('#review-offer'), 'an opened game offers its review');
  await page.click('#review-offer');
  assert.ok(await page.isVisible('#review'), 'one click starts the review');
  assert.ok(!(await page.isVisible('#review-offer')));
  await page.click('[data-action="new"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 0);
  assert.ok(!(await page.isVisible('#review-offer')), 'a new game offers nothing');
  // The chariot to c9 mates.
  await page.fill('#fen', '4k4/7R1/9/9/6n2/2R1N4/9/9/9/3K5 w - - 0 1');
  await page.click('[data-action="load-fen"]');
  await page.waitForFunction(() => document.querySelector('[data-square="c4"] [data-piece]')?.dataset.piece === 'R');
  await click('c4');
  await click('c9');
  await page.waitForSelector('#review-offer:not([hidden])');
  assert.match(await page.textContent('#status'), /checkmated/);
});

/** Loads the position where the horse c2–d4 hangs, playing Red against the beginner level. */
async function hangingPosition() {
  await choose('mode', 'engine');
  await choose('humanColor', 'red');
  await choose('level', '0');
  await page.fill('#fen', HANGING);
  await page.click('[data-action="load-fen"]');
  await page.waitForFunction((fen) => document.getElementById('fen').value === fen, HANGING);
}

test('the safety net asks before a move that leaves a piece hanging, and Take back keeps the position', async () => {
  await hangingPosition();
  assert.ok(await page.isChecked('#safety-net'), 'on by default at the beginner level');
  await click('c2');
  await click('d4');
  await page.waitForSelector('#ask');
  const question = await page.textContent('#ask p');
  assert.match(question, /The chariot on a4 can take your horse on d4, and nothing protects it/, question);
  assert.ok(await page.isVisible('#ask button[data-choice="play"]'));
  await page.click('#ask button[data-choice="back"]');
  assert.equal(await page.locator('#ask').count(), 0);
  assert.equal(await page.inputValue('#fen'), HANGING, 'the position is unchanged');
  assert.equal(await plies(), 0);
  assert.equal(await page.getAttribute('[data-square="c2"] [data-piece]', 'data-piece'), 'N');
  // A safe move is played without a question.
  await click('c2');
  await click('e1');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length >= 1);
  assert.equal(await page.locator('#ask').count(), 0);
});

test('with the safety net off the hanging move is played at once', async () => {
  await hangingPosition();
  await page.uncheck('#safety-net');
  await click('c2');
  await click('d4');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length >= 1);
  assert.equal(await page.locator('#ask').count(), 0);
  assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('xiangqi.settings')).safetyNet), false, 'the choice is kept');
  await page.check('#safety-net');
});

test('an import with a skipped part says so with no English words in the Russian interface', async () => {
  await choose('mode', 'two');
  await choose('language', 'ru');
  await open(GAME.slice(0, 2), 'trailer.pgn', '======================\n');
  // An engine answer from the previous game may still rewrite the message: wait for the import's.
  await page.waitForFunction(() => document.querySelector('#message').textContent.includes('Пропущено'));
  const told = await page.textContent('#message');
  const skipped = told.slice(told.indexOf('Пропущено'));
  assert.match(skipped, /^Пропущено: .*строка \d+, позиция \d+: пропущен текст вне партий: «=+»/, told);
  assert.doesNotMatch(skipped, /[A-Za-z]/, `no English words: ${skipped}`);
  await choose('language', 'en');
});

test('the Play page keeps its scroll position through 20 moves, an undo and a redo at 1280×860', async () => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.selectOption('[data-setting="mode"]', 'two');
  // Some of these moves leave a piece where it can be taken: no question about it here.
  const net = await page.isChecked('#safety-net');
  if (net) await page.uncheck('#safety-net');
  await page.click('[data-action="new"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 0);
  // The opening explorer open above the move list puts the list's end below the fold.
  if (await page.isHidden('#explorer')) await page.click('[data-action="explorer"]');
  await page.waitForSelector('#explorer table');
  await page.evaluate(() => window.scrollTo(0, 0));
  const moves = ['a3a4', 'a6a5', 'c3c4', 'c6c5', 'g3g4', 'g6g5', 'i3i4', 'i6i5', 'e3e4', 'e6e5',
    'b2b3', 'b7b6', 'h2h3', 'h7h6', 'b0c2', 'b9c7', 'h0g2', 'h9g7', 'i0h0', 'i9h9'];
  for (const m of moves) await playMove(page, m.slice(0, 2), m.slice(2));
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page did not scroll itself');
  await page.click('[data-action="undo"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 19);
  await page.click('[data-action="redo"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 20);
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'nor on undo and redo');
  // The move list itself follows the last move.
  const shown = await page.evaluate(() => {
    const list = document.getElementById('moves');
    const last = list.lastElementChild.getBoundingClientRect();
    const box = list.getBoundingClientRect();
    return last.bottom <= box.bottom + 1 && last.top >= box.top - 1;
  });
  assert.ok(shown, 'the last move is in view in the list');
  await page.click('[data-action="explorer"]');
  if (net) await page.check('#safety-net');
  await page.selectOption('[data-setting="mode"]', 'engine');
  await page.setViewportSize({ width: 1200, height: 820 });
});
