// Browser test of the trainer: a line of the Central Cannon vs Screen Horses played
// as Black (the board turned, the app opening as Red) with one deliberate move off the line,
// named with the main line's move and the engine's evaluation; Try again, the right move, the
// line played to its end; after a reload the progress is kept and the missed line is offered
// again, due. The sentence in Russian has no English words, and the page fits a phone.
// The server is started by ./run (with a data folder) and its address given in XIANGQI_URL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp } from './fixture.js';


const page = useApp();

const view = '#trainer .trainer';
const message = () => page.textContent('[data-trainer-message]');

async function click(iccs) {
  await page.click(`.trainer-board [data-square="${iccs.slice(0, 2)}"]`);
  await page.click(`.trainer-board [data-square="${iccs.slice(2, 4)}"]`);
}

/** Waits until the run is `state` after `ply` moves. */
async function reach(state, ply) {
  await page.waitForFunction(([s, p]) => {
    const v = document.querySelector('#trainer .trainer');
    return v?.dataset.state === s && (p === undefined || v.dataset.ply === String(p));
  }, [state, ply]);
}

/** The moves (ICCS) of a branch of a line, as the server lists them. */
async function branchMoves(line, branch) {
  const catalogue = await page.evaluate(async () => (await fetch('/api/trainer')).json());
  const l = catalogue.lines.find((x) => x.id === line);
  return l.branches.find((b) => b.id === branch).moves.map((m) => m.iccs);
}

/** Opens the trainer view. */
async function openTrainer() {
  await page.click('[data-nav="trainer"]');
  await page.waitForSelector(view);
}

/** Chooses the setting `name` in the game view's settings, then comes back to the trainer. */
async function setting(name, value) {
  await page.click('[data-nav="play"]');
  await page.selectOption(`[data-setting="${name}"]`, value);
  await openTrainer();
}

test('a line as Black: a move off it is named, then played to its end', async () => {
  await page.selectOption('[data-setting="notation"]', 'chinese');
  await openTrainer();
  assert.equal(await page.textContent('#trainer h2'), 'Openings trainer');
  await page.selectOption('[data-trainer-choice="line"]', 'screen-horses');
  await page.selectOption('[data-trainer-choice="side"]', 'black');
  await page.click('[data-trainer="start"]');
  await reach('playing', 1);
  const branch = await page.getAttribute(view, 'data-branch');
  const line = await branchMoves('screen-horses', branch);
  // Black's side of the board faces the learner; the app has opened with 炮二平五.
  const flipped = await page.evaluate(() => document.querySelector('.trainer-board [data-square="a0"]').getAttribute('transform'));
  assert.ok(flipped, 'the board is turned for Black');
  assert.match(await page.textContent('[data-trainer-moves]'), /炮二平五/);
  // The card names the line, then the ECCO code its branch ends in by the code's own name.
  const info = await page.textContent('.trainer-info');
  assert.ok(info.startsWith('Central Cannon vs Screen Horses · Black · C41 Central Cannon with Cross-river Chariot '), info);
  assert.ok(info.includes(' — Black: edge cannon back · '), info);

  // The deliberate deviation: 炮８平５ instead of the line's 马８进７.
  await click('h7e7');
  await reach('off');
  const said = await message();
  assert.match(said, /^This leaves the line; the main line is 马8进7\./, said);
  assert.match(said, /Engine: [+−]?\d+\.\d\d after your move, [+−]?\d+\.\d\d after the main move/, said);
  assert.ok(await page.isVisible('[data-trainer="show"]'), 'Show the line is offered');
  await page.screenshot({ path: 'screenshots/50-trainer-deviation.png' });

  // Try again, the right move, and the rest of the line with the app's replies.
  await page.click('[data-trainer="retry"]');
  await reach('playing', 1);
  let ply = 1;
  while (ply < line.length) {
    await click(line[ply]);
    ply = Math.min(ply + 2, line.length);
    await page.waitForFunction((p) => {
      const v = document.querySelector('#trainer .trainer');
      return v?.dataset.ply === String(p) && ['playing', 'done'].includes(v.dataset.state);
    }, ply);
  }
  await reach('done', line.length);
  assert.match(await message(), /^Line complete: Central Cannon vs Screen Horses\. It had a slip/);
  await page.screenshot({ path: 'screenshots/51-trainer-done.png' });
});

test('after a reload the progress is kept and the missed line comes back due', async () => {
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await openTrainer();
  const row = '.trainer-progress li[data-line="screen-horses"]';
  await page.waitForSelector(row);
  assert.equal(await page.getAttribute(row, 'data-due'), '1', 'the missed card is due');
  assert.equal(await page.$('[data-not-saved]'), null, 'progress is saved');
  const next = '[data-trainer="next"]';
  assert.equal(await page.getAttribute(next, 'data-next-line'), 'screen-horses');
  const branch = await page.getAttribute(next, 'data-next-branch');
  await page.click(next);
  await reach('playing', 1);
  assert.equal(await page.getAttribute(view, 'data-branch'), branch);
  assert.match(await page.textContent('.trainer-info'), /due$/);
});

test('in Russian the move off the line is named without English words', async () => {
  await setting('language', 'ru');
  await page.selectOption('[data-trainer-choice="side"]', 'black');
  await page.selectOption('[data-trainer-choice="line"]', 'screen-horses');
  await page.click('[data-trainer="start"]');
  await reach('playing', 1);
  await click('h7e7');
  await reach('off');
  const said = await message();
  assert.match(said, /^Этот ход уходит с линии; по основной линии — 马8进7\./, said);
  assert.match(said, /Оценка программы: [+−]?\d+\.\d\d после вашего хода/, said);
  assert.doesNotMatch(said, /[A-Za-z]{2,}/, `no English words: ${said}`);
  // The card's ECCO code is named in Russian too.
  const info = await page.textContent('.trainer-info');
  assert.match(info, / · C\d\d [А-ЯЁ]/, info);
  assert.doesNotMatch(info, /[A-Za-z]{2,}/, `no English words: ${info}`);
  assert.equal(await page.textContent('#trainer h2'), 'Тренер дебютов');
  await setting('language', 'en');
});

test('the trainer fits a phone', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openTrainer();
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    board: document.querySelector('.trainer-board').getBoundingClientRect().width,
  }));
  assert.ok(widths.page <= 392, `no sideways scrolling: ${widths.page}`);
  assert.ok(widths.board >= 300, `the board fills the width: ${widths.board}`);
  await page.screenshot({ path: 'screenshots/52-trainer-phone.png' });
  await page.setViewportSize({ width: 1200, height: 820 });
});
