// The endgame course in the browser: a learner wins an ending by clicking the table's best
// moves (read from the API), makes a slip that the page names with the winning move, and
// holds a drawn ending to its move limit. The server makes each ending's table on first use.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp } from './fixture.js';

const page = useApp();

/** The attempt after the learner's `moves` in position `position` of ending `lesson`, as the server says. */
async function attempt(lesson, position, moves) {
  return page.evaluate(async (body) => (await fetch('/api/endgames/play', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  })).json(), { lesson, position, moves });
}

/** Opens ending `id` from the Learn section's endgame tab and starts position `index`. */
async function startPosition(id, index) {
  await page.click('[data-nav="learn"]');
  await page.waitForSelector('#course .course-tabs a[href="#/endgames"]');
  await page.click('#course .course-tabs a[href="#/endgames"]');
  await page.waitForSelector(`#endgames .course-map [data-ending="${id}"]`);
  await page.click(`#endgames [data-ending="${id}"] button`);
  await page.waitForSelector(`#endgames [data-endgame-view="${id}"] [data-endgame-plan]`);
  await page.click(`#endgames [data-endgame="play"][data-index="${index}"]`);
  await page.waitForSelector(`#endgames [data-endgame-view="${id}"] [data-endgame-status="playing"]`);
}

/** Plays `iccs` on the endgame board by two clicks and waits until the page shows move `n`. */
async function clickMove(iccs, n) {
  await page.click(`#endgames .lesson-board [data-square="${iccs.slice(0, 2)}"]`);
  await page.click(`#endgames .lesson-board [data-square="${iccs.slice(2, 4)}"]`);
  await page.waitForSelector(`#endgames [data-endgame-view][data-moves="${n}"]`);
}

test('a learner wins an ending by clicking and is told the moves against the shortest', async () => {
  await startPosition('chariot-advisor', 0);
  const moves = [];
  let now = await attempt('chariot-advisor', 0, moves);
  while (now.status === 'playing') {
    const best = now.options[0];
    assert.equal(best.result, 'win');
    moves.push(best.iccs);
    await clickMove(best.iccs, moves.length);
    now = await attempt('chariot-advisor', 0, moves);
  }
  assert.equal(now.status, 'won');
  await page.waitForSelector('#endgames [data-endgame-status="won"]');
  const message = await page.textContent('#endgames [data-endgame-message]');
  // The end is named as the board shows it: mate (in check) or stalemate (no move, no check),
  // and the general left without a move is ringed.
  const how = now.ending.code === 'checkmate' ? 'is checkmated\\.' : 'has no legal move — stalemate loses\\.';
  assert.match(message, new RegExp(`^(Red|Black) ${how} Won! You needed ${now.moves_used} moves?; the shortest win takes ${now.shortest}`));
  assert.equal(await page.locator(`#endgames .lesson-board [data-square="${now.ending.general}"] .ended-ring`).count(), 1);
  assert.equal(await page.locator('#endgames .lesson-board .in-check').count(), now.check ? 1 : 0);
});

test('the lone chariot wins by stalemate, and it is called one in every language', async () => {
  // The table's quickest line in chariot-general ends with the general not in check and
  // without a move (车e8 against 将f7 in the course's first position).
  await startPosition('chariot-general', 0);
  const moves = [];
  let now = await attempt('chariot-general', 0, moves);
  while (now.status === 'playing') {
    moves.push(now.options[0].iccs);
    await clickMove(now.options[0].iccs, moves.length);
    now = await attempt('chariot-general', 0, moves);
  }
  assert.equal(now.status, 'won');
  await page.waitForSelector('#endgames [data-endgame-status="won"]');
  assert.equal(now.ending.code, 'stalemate', 'the quickest win leaves the general without a move and not in check');
  const words = { checkmate: [/is checkmated/, /被将死/, /мат/], stalemate: [/stalemate loses/, /困毙/, /пат/] }[now.ending.code];
  const wrong = { checkmate: [/stalemate/, /困毙/, /пат/], stalemate: [/checkmate|Mate!/, /将死|杀/, /[^а-я]мат/i] }[now.ending.code];
  for (const [i, lang] of ['en', 'zh', 'ru'].entries()) {
    await page.selectOption('[data-setting="language"]', lang);
    await page.waitForFunction((r) => new RegExp(r).test(document.querySelector('#endgames [data-endgame-message]')?.textContent), words[i].source);
    const text = await page.textContent('#endgames [data-endgame-message]');
    assert.doesNotMatch(text, wrong[i], `${lang}: ${text}`);
  }
  await page.selectOption('[data-setting="language"]', 'en');
});

test('a slip is named with the winning move', async () => {
  await startPosition('chariot-advisor', 1);
  const start = await attempt('chariot-advisor', 1, []);
  const slip = start.options.find((o) => o.result === 'draw');
  assert.ok(slip, 'a move that gives the chariot away');
  await clickMove(slip.iccs, 1);
  const message = page.locator('#endgames [data-endgame-message]');
  assert.equal(await message.getAttribute('data-verdict'), 'slipped');
  const best = await message.getAttribute('data-best');
  assert.equal(start.options.find((o) => o.iccs === best)?.result, 'win');
  const after = await attempt('chariot-advisor', 1, [slip.iccs]);
  const text = await message.textContent();
  assert.ok(text.includes('That lets the win slip to a draw — the winning move was'), text);
  assert.ok(text.includes(after.steps[0].best.wxf), `${text} names ${after.steps[0].best.wxf}`);
  // The table's reason: both moves' results.
  assert.match(text, new RegExp(`By the table, \\S+ gives a draw; ${after.steps[0].best.wxf.replace(/[+.=-]/g, '\\$&')} gives a win in \\d+ moves?\\. The move list shows both as arrows\\.`));
  // Looked back at in the move list: the move played and the better one as arrows.
  await page.click('#endgames [data-endgame="view"][data-step="0"]');
  await page.waitForSelector('#endgames [data-endgame-viewed="0"]');
  assert.equal(await page.getAttribute('#endgames .lesson-board .arrow.refutation', 'data-move'), slip.iccs);
  assert.equal(await page.getAttribute('#endgames .lesson-board .arrow.hint', 'data-move'), best);
  await page.click('#endgames [data-endgame="now"]');
  assert.equal(await page.locator('#endgames [data-endgame-viewed]').count(), 0);
  assert.equal(await page.locator('#endgames .lesson-board .arrow.hint').count(), 0);
});

test('the plan is taught in steps with arrows, and says what the tables are', async () => {
  await page.goto(`${page.url().split('#')[0]}#/endgames/chariot-general`);
  await page.waitForSelector('#endgames [data-endgame-plan="0"]');
  assert.match(await page.textContent('#endgames [data-plan-steps]'), /Step 1 of 3/);
  assert.match(await page.textContent('#endgames .lesson'), /The tables: every position of this ending worked out in advance/);
  await page.click('#endgames [data-endgame="plan-step"][data-delta="1"]');
  await page.waitForSelector('#endgames [data-endgame-plan="1"]');
  assert.equal(await page.getAttribute('#endgames .lesson-board .arrow.lesson', 'data-move'), 'a0a7');
  await page.click('#endgames [data-endgame="plan-step"][data-delta="1"]');
  await page.waitForSelector('#endgames [data-endgame-plan="2"]');
  assert.equal(await page.getAttribute('#endgames .lesson-board .arrow.lesson', 'data-move'), 'a1d1');
  assert.match(await page.textContent('#endgames [data-endgame-plan]'), /mate/);
  assert.equal(await page.isDisabled('#endgames [data-endgame="plan-step"][data-delta="1"]'), true);
});

test('a drawn ending is held to its move limit', async () => {
  await startPosition('bottom-soldier', 0);
  const moves = [];
  let now = await attempt('bottom-soldier', 0, moves);
  while (now.status === 'playing') {
    const hold = now.options.find((o) => o.result === 'draw');
    moves.push(hold.iccs);
    await clickMove(hold.iccs, moves.length);
    now = await attempt('bottom-soldier', 0, moves);
  }
  assert.equal(now.status, 'held');
  assert.equal(moves.length, now.limit);
  await page.waitForSelector('#endgames [data-endgame-status="held"]');
  const message = await page.textContent('#endgames [data-endgame-message]');
  assert.match(message, new RegExp(`Draw held for ${now.limit} moves`));
});
