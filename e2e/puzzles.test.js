// Browser test of the puzzle trainer: a mate in 2 solved by clicking (the reply comes by
// itself, "solved" shows, the rating goes up), another puzzle failed once (the refutation as
// an arrow on the board and a sentence, the rating goes down, Retry), the rating kept across a
// reload, a hint, the solution stepped through, and the trainer on a phone-sized screen.
// Screenshots go to screenshots/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { APP_URL as URL, useApp } from './fixture.js';

const SHOTS = new globalThis.URL('./screenshots/', import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });
const page = useApp();

const shot = (name) => page.screenshot({ path: join(SHOTS, `${name}.png`) });
const view = '#puzzles .puzzle';

/** Waits until the trainer shows a puzzle in one of `states`; its id, ply and state. */
async function waitState(states, minPly = 0) {
  await page.waitForFunction(([s, p]) => {
    const v = document.querySelector('#puzzles .puzzle');
    return v && s.includes(v.dataset.state) && Number(v.dataset.ply ?? 0) >= p;
  }, [states, minPly]);
  return page.evaluate(() => {
    const v = document.querySelector('#puzzles .puzzle');
    return { id: v.dataset.puzzleId, ply: Number(v.dataset.ply), state: v.dataset.state };
  });
}

async function api(path, body) {
  return page.evaluate(async ([p, b]) => {
    const init = b ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) } : {};
    return (await fetch(p, init)).json();
  }, [path, body]);
}

async function click(iccs) {
  await page.click(`.puzzle-board [data-square="${iccs.slice(0, 2)}"]`);
  await page.click(`.puzzle-board [data-square="${iccs.slice(2, 4)}"]`);
}

/** Chooses `value` in the trainer's `filter` select and waits for the new puzzle. */
async function choose(filter, value) {
  const before = await page.getAttribute(view, 'data-puzzle-id');
  await page.selectOption(`[data-puzzle-filter="${filter}"]`, value);
  await page.waitForFunction((b) => {
    const v = document.querySelector('#puzzles .puzzle');
    return v?.dataset.state === 'playing' && (v.dataset.puzzleId !== b || !b);
  }, before);
}

async function ratingShown() {
  const text = await page.textContent('[data-puzzle-rating]');
  return Number(text.match(/\d+/)[0]);
}

async function ratingChange() {
  await page.waitForSelector('[data-rating-change]');
  return Number(await page.getAttribute('[data-rating-change]', 'data-rating-change'));
}

test('a mate in 2 is solved by clicking, the reply comes by itself, and the rating goes up', async () => {
  await page.click('[data-nav="puzzles"]');
  const first = await waitState(['playing']);
  // A newcomer starts near the easy end, marked provisional, on a puzzle near that rating.
  assert.equal(await ratingShown(), 900);
  assert.match(await page.textContent('[data-provisional]'), /provisional/);
  const easy = await api(`/api/puzzles/${first.id}`);
  assert.ok(easy.rating >= 800 && easy.rating <= 1000, `the first puzzle is an easy one (${easy.rating})`);
  await choose('theme', 'mateIn2');
  const { id } = await waitState(['playing']);
  const puzzle = await api(`/api/puzzles/${id}`);
  assert.equal(puzzle.mate, 2);
  const flipped = await page.evaluate(() => document.querySelector('.puzzle-board [data-square="a0"]').getAttribute('transform'));
  if (puzzle.side === 'black') assert.match(flipped, /translate\(544/, 'the board is turned to the solver');
  const { moves } = await api(`/api/puzzles/${id}/solution`);
  assert.ok(moves.length >= 3, 'a mate in 2 has a reply between the two moves');
  const before = await ratingShown();
  // A piece picked up shows where it can go, as on the Play board.
  await page.click(`.puzzle-board [data-square="${moves[0].from}"]`);
  assert.ok(await page.$(`.puzzle-board [data-square="${moves[0].to}"] .target`), 'the solving move has its dot');
  await page.click(`.puzzle-board [data-square="${moves[0].to}"]`);
  const after = await waitState(['playing'], 2);
  assert.equal(after.id, id);
  // The reply was played by the app: the board shows the position after it.
  const last = await page.evaluate(() => [...document.querySelectorAll('.puzzle-board .last-move')].length);
  assert.equal(last, 2, 'the reply is marked as the last move');
  assert.ok(await page.$(`.puzzle-board [data-square="${moves[1].to}"] .piece`), 'the replying piece stands on its point');
  const mating = page.waitForResponse((r) => r.url().includes(`/api/puzzles/${id}/move`) && r.request().method() === 'POST');
  await click(moves[2].iccs);
  const { check } = await (await mating).json();
  await waitState(['solved']);
  // The mated general is marked, as on the Play board: in check, and ringed as left without a
  // move. A mate puzzle ends in check; a line that ends without check is a stalemate puzzle.
  assert.ok(check, 'a mate in 2 ends in check');
  assert.equal(await page.locator('.puzzle-board .in-check').count(), 1, 'the mated general glows');
  assert.equal(await page.locator(`.puzzle-board [data-square="${check}"] .ended-ring`).count(), 1, 'the mated general is ringed');
  assert.match(await page.textContent('[data-puzzle-message]'), /checkmated\. Solved/);
  const change = await ratingChange();
  assert.ok(change > 0, `the rating goes up (${change})`);
  assert.equal(await ratingShown(), before + change);
  assert.match(await page.textContent('[data-streak]'), /streak 1/);
  await shot('30-puzzle-solved');
});

test('a wrong move shows the refutation as an arrow and in words, and the rating goes down', async () => {
  await page.click('[data-puzzle="next"]');
  const { id } = await waitState(['playing']);
  // The new puzzle starts clean: no rating change, no marks or arrows left from the last one.
  assert.equal(await page.locator('[data-rating-change]').count(), 0, 'the last puzzle\'s +/− chip is gone');
  assert.equal(await page.locator('.puzzle-board .arrow, .puzzle-board .explain, .puzzle-board .in-check').count(), 0);
  const puzzle = await api(`/api/puzzles/${id}`);
  const { moves } = await api(`/api/puzzles/${id}/solution`);
  // A legal move that is not the solution's: the legal moves come from a game on the position.
  const game = await api('/api/games', { fen: puzzle.fen });
  const wrong = Object.entries(game.legal).flatMap(([from, tos]) => tos.map((to) => `${from}${to}`))
    .find((m) => m !== moves[0].iccs);
  const before = await ratingShown();
  await click(wrong);
  await waitState(['wrong']);
  const arrow = await page.getAttribute('.puzzle-board .arrow.refutation', 'data-move');
  assert.match(arrow, /^[a-i]\d[a-i]\d$/, 'the refutation is drawn on the board');
  const message = await page.textContent('[data-puzzle-message]');
  assert.match(message, /does not work/);
  // The reason, with whose answer it is where nothing is won any more.
  assert.match(message, /After|mates|(Red|Black) answers/, `the reason is given: ${message}`);
  const change = await ratingChange();
  assert.ok(change < 0, `the rating goes down (${change})`);
  assert.equal(await ratingShown(), before + change);
  await shot('31-puzzle-refuted');

  // Retry goes back to the position before the wrong move; solving now changes nothing more.
  await page.click('[data-puzzle="retry"]');
  await waitState(['playing']);
  assert.equal(await page.$('.puzzle-board .arrow'), null);
  const rating = await ratingShown();
  for (let ply = 0; ply < moves.length; ply += 2) {
    await click(moves[ply].iccs);
    await waitState(ply + 2 >= moves.length ? ['solved'] : ['playing', 'solved'], Math.min(ply + 2, moves.length - 1));
  }
  await waitState(['solved']);
  assert.equal(await ratingShown(), rating, 'a puzzle failed once does not raise the rating');
});

test('the rating and the streaks are kept across a reload', async () => {
  const rating = await ratingShown();
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.click('[data-nav="puzzles"]');
  await waitState(['playing']);
  assert.equal(await ratingShown(), rating);
  assert.match(await page.textContent('[data-streak]'), /best 1/);
  assert.equal(await page.locator('.puzzle-history li').count(), 2, 'the last puzzles are listed');
});

test('hint shows the piece, then the move; the solution steps through the line', async () => {
  const { id } = await waitState(['playing']);
  const { moves } = await api(`/api/puzzles/${id}/solution`);
  await page.click('[data-puzzle="hint"]');
  await page.waitForSelector(`.puzzle-board [data-square="${moves[0].from}"] .explain`, { state: 'attached' });
  // The hint says what it costs.
  assert.match(await page.textContent('[data-puzzle-message]'), /A hint counts the puzzle as not solved: your rating goes down\./);
  await page.click('[data-puzzle="hint"]');
  const hinted = await page.waitForSelector('.puzzle-board .arrow.hint', { state: 'attached' });
  assert.equal(await hinted.getAttribute('data-move'), moves[0].iccs);
  await page.click('[data-puzzle="solution"]');
  await waitState(['solution']);
  assert.match(await page.textContent('[data-puzzle-message]'), new RegExp(`1 of ${moves.length}`));
  await page.click('[data-puzzle="step-on"]');
  assert.match(await page.textContent('[data-puzzle-message]'), new RegExp(`2 of ${moves.length}`));
  assert.ok(await page.$(`.puzzle-board [data-square="${moves[1].to}"] .piece`));
  for (let at = 2; at < moves.length; at++) await page.click('[data-puzzle="step-on"]');
  assert.match(await page.textContent('[data-puzzle-message]'), new RegExp(`${moves.length} of ${moves.length}`));
  assert.equal(await page.isDisabled('[data-puzzle="step-on"]'), true, 'Forward stops at the last move');
  assert.equal(await page.isDisabled('[data-puzzle="step-back"]'), false);
});

test('the trainer speaks Russian and Chinese', async () => {
  // The language is chosen in the game's settings; the trainer speaks it when opened again.
  for (const [lang, word, theme] of [['ru', 'Ваш рейтинг', /Мат в 2 хода/], ['zh', '你的等级分', /两步杀/], ['en', 'Your rating', /Mate in 2/]]) {
    await page.click('[data-nav="play"]');
    await page.selectOption('[data-setting="language"]', lang);
    await page.click('[data-nav="puzzles"]');
    await page.waitForFunction((w) => document.querySelector('[data-puzzle-rating]')?.textContent.includes(w), word);
    assert.match(await page.textContent('[data-puzzle-filter="theme"]'), theme);
    assert.match(await page.textContent('[data-nav="puzzles"]'), lang === 'zh' ? /习题/ : lang === 'ru' ? /Задачи/ : /Puzzles/);
    if (lang === 'zh') {
      // The message shown before the change is worded again in the new language.
      assert.match(await page.textContent('[data-puzzle-message]'), /答案：第/);
      assert.match(await page.textContent('[data-puzzle="step-on"]'), /下一步/);
      await shot('33-puzzle-chinese');
    }
  }
});

test('the trainer works on a phone-sized screen', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('[data-puzzle="next"]');
  await waitState(['playing']);
  const box = await page.locator('.puzzle-board svg').boundingBox();
  assert.ok(box.width <= 390 && box.width > 300, `the board fits the screen (${box.width}px)`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `nothing sticks out sideways (${width}px)`);
  for (const action of ['hint', 'solution', 'next']) {
    const control = page.locator(`[data-puzzle="${action}"]`);
    await control.scrollIntoViewIfNeeded();
    assert.ok(await control.isVisible(), `${action} can be reached`);
    const b = await control.boundingBox();
    assert.ok(b.x >= 0 && b.x + b.width <= 390, `${action} lies on the screen`);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot('32-puzzle-phone');
  await page.setViewportSize({ width: 1200, height: 820 });
});

test('with nothing to match the filters the trainer says so and offers no Next', async () => {
  const catalog = await api('/api/puzzles/themes');
  const status = (query) => page.evaluate(async (q) => (await fetch(`/api/puzzles/next?${q}`)).status, query);
  let empty = null;
  for (const theme of catalog.themes) {
    for (const pattern of catalog.patterns) {
      if (!empty && (await status(`theme=${theme.id}&pattern=${pattern.id}`)) === 404) empty = { theme: theme.id, pattern: pattern.id };
    }
  }
  assert.ok(empty, 'some theme and pattern share no puzzle');
  await choose('theme', empty.theme);
  await page.selectOption('[data-puzzle-filter="pattern"]', empty.pattern);
  await waitState(['none']);
  assert.equal(await page.locator('[data-puzzle="next"]').count(), 0, 'Next would find nothing either');
  assert.match(await page.textContent('[data-puzzle-message]'), /\S/);
  await page.selectOption('[data-puzzle-filter="pattern"]', '');
  await waitState(['playing']);
  await page.selectOption('[data-puzzle-filter="theme"]', '');
  await waitState(['playing']);
});

test('a win by stalemate is set, solved and said as a stalemate, never as a mate', async () => {
  // d3d8 leaves Black without a legal move and not in check: in Xiangqi that loses.
  const id = 'm1-2b74b4462c63';
  const puzzle = await api(`/api/puzzles/${id}`);
  assert.deepEqual([puzzle.mate, puzzle.stalemate, puzzle.themes[0]], [null, 1, 'stalemateIn1']);
  await page.goto(`${URL}#/puzzles/${id}`);
  await waitState(['playing']);
  assert.match(await page.textContent('[data-puzzle-message]'), /without a legal move in 1 — in Xiangqi a stalemate wins/);
  assert.match(await page.textContent('.puzzle-info'), /Win by stalemate in 1/);
  await click('d3d8');
  await waitState(['solved']);
  const message = await page.textContent('[data-puzzle-message]');
  assert.match(message, /Black has no legal move — stalemate loses\. Solved!/);
  assert.doesNotMatch(message, /\bmate|checkmat/i, 'no word of mate');
  assert.equal(await page.locator('.puzzle-board .in-check').count(), 0, 'no check to mark');
  const general = await page.evaluate(() => [...document.querySelectorAll('.puzzle-board [data-piece="k"]')][0].closest('[data-square]').dataset.square);
  assert.equal(await page.locator(`.puzzle-board [data-square="${general}"] .ended-ring`).count(), 1, 'the general left without a move is ringed');
  assert.match(await page.getAttribute(`.puzzle-board [data-square="${general}"]`, 'aria-label'), /no legal move/);
  await shot('30b-puzzle-stalemate');
  // Said again in the language chosen, without a reload: 困毙 and пат, not 将死 or мат.
  for (const [lang, said, not] of [['zh', /困毙/, /将死|杀/], ['ru', /пат/, /мат/i], ['en', /stalemate/, /checkmate/]]) {
    await page.click('[data-nav="play"]');
    await page.selectOption('[data-setting="language"]', lang);
    await page.click('[data-nav="puzzles"]');
    await page.waitForFunction((r) => new RegExp(r).test(document.querySelector('[data-puzzle-message]')?.textContent), said.source);
    const text = await page.textContent('[data-puzzle-message]');
    assert.match(text, said, `${lang}: ${text}`);
    assert.doesNotMatch(text, not, `${lang}: ${text}`);
  }
  // Solved again through its address: a puzzle counts once, and the rating stays.
  const before = await ratingShown();
  await page.goto(`${URL}#/play`);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.goto(`${URL}#/puzzles/${id}`);
  await waitState(['playing']);
  await click('d3d8');
  await waitState(['solved']);
  await page.waitForFunction(() => /counts once/.test(document.querySelector('[data-puzzle-message]').textContent));
  assert.equal(await ratingShown(), before);
});

test('a theme chosen is explained, and its puzzles are served: double check, in English and Russian', async () => {
  await page.click('[data-nav="puzzles"]');
  await waitState(['playing', 'solved', 'wrong', 'solution']);
  await choose('theme', 'doubleCheck');
  const { id } = await waitState(['playing']);
  const puzzle = await api(`/api/puzzles/${id}`);
  assert.ok(puzzle.themes.includes('doubleCheck'), `${id}: ${puzzle.themes}`);
  assert.match(await page.textContent('[data-theme-about="doubleCheck"]'), /Check with two pieces at once/);
  assert.match(await page.textContent('[data-puzzle-filter="theme"] option[value="doubleCheck"]'), /^Double check \(\d+\)$/);
  await page.selectOption('[data-setting="language"]', 'ru');
  await page.waitForFunction(() => /Шах сразу двумя фигурами/.test(document.querySelector('[data-theme-about]')?.textContent ?? ''));
  await page.selectOption('[data-setting="language"]', 'en');
  await choose('theme', '');
  assert.equal(await page.locator('[data-theme-about]').count(), 0, 'all themes: nothing to explain');
});

test('a theme and a rating band chosen: a puzzle of both is solved, and the next is of both too', async () => {
  await page.click('[data-nav="puzzles"]');
  await waitState(['playing', 'solved', 'wrong', 'solution', 'none']);
  await choose('theme', 'fork');
  await choose('band', '1400');
  // A band says the ratings itself: the difficulty offset is not offered beside it.
  assert.equal(await page.locator('[data-puzzle-filter="difficulty"]').count(), 0);
  assert.equal(await page.textContent('[data-puzzle-filter="band"] option[value="2200"]'), '2200–2400');
  const inChoice = async (id) => {
    const puzzle = await api(`/api/puzzles/${id}`);
    assert.ok(puzzle.themes.includes('fork'), `${id}: ${puzzle.themes}`);
    assert.ok(puzzle.rating >= 1400 && puzzle.rating <= 1599, `${id} is rated ${puzzle.rating}`);
  };
  const { id } = await waitState(['playing']);
  await inChoice(id);
  const { moves } = await api(`/api/puzzles/${id}/solution`);
  for (let ply = 0; ply < moves.length; ply += 2) {
    await click(moves[ply].iccs);
    await waitState(ply + 2 >= moves.length ? ['solved'] : ['playing', 'solved'], Math.min(ply + 2, moves.length - 1));
  }
  await waitState(['solved']);
  await page.click('[data-puzzle="next"]');
  await page.waitForFunction((old) => {
    const v = document.querySelector('#puzzles .puzzle');
    return v?.dataset.state === 'playing' && v.dataset.puzzleId !== old;
  }, id);
  const next = await waitState(['playing']);
  await inChoice(next.id);
  // The choice is kept across a reload.
  await page.reload();
  await page.click('[data-nav="puzzles"]');
  await waitState(['playing']);
  assert.equal(await page.inputValue('[data-puzzle-filter="band"]'), '1400');
  await choose('band', '');
  await choose('theme', '');
  assert.equal(await page.locator('[data-puzzle-filter="difficulty"]').count(), 1);
});

test('puzzles from my own games: a game played to mate is looked at, and its puzzle is served', async () => {
  // A game from a set-up position, played to mate: its start holds a mate in three.
  const game = await api('/api/games', { fen: '3ak4/4a4/9/9/9/9/9/9/9/3K2R2 w - - 0 1' });
  for (const m of ['d0e0', 'e9f9', 'g0f0', 'e8f7', 'f0f7']) {
    await api(`/api/games/${game.id}/move`, { from: m.slice(0, 2), to: m.slice(2) });
  }
  await page.click('[data-nav="puzzles"]');
  await waitState(['playing', 'solved', 'wrong', 'solution', 'none']);
  await page.selectOption('[data-puzzle-filter="source"]', 'own');
  await page.waitForSelector('[data-own-puzzles]');
  const found = Number(await page.getAttribute('[data-own-puzzles]', 'data-own-puzzles'));
  assert.ok(found >= 1, `puzzles found in my games: ${found}`);
  assert.match(await page.textContent('[data-own-puzzles]'), /puzzles found in \d+ of your games/);
  const { id } = await waitState(['playing']);
  assert.match(id, /^own-/);
  // Among them the mate at the start of the game played here (games played before in this
  // browser's archive may have given others).
  const { count } = await api('/api/puzzles/count?source=own&theme=mateIn3');
  assert.ok(count >= 1, 'the mate in three of the game played is among them');
  // The theme chosen too (the puzzle may already be that one).
  await page.selectOption('[data-puzzle-filter="theme"]', 'mateIn3');
  await page.waitForFunction(() => {
    const v = document.querySelector('#puzzles .puzzle');
    return v?.dataset.state === 'playing' && v.dataset.puzzleId.startsWith('own-m3-');
  });
  const mate = await waitState(['playing']);
  const puzzle = await api(`/api/puzzles/${mate.id}`);
  assert.equal(puzzle.mate, 3);
  await page.selectOption('[data-puzzle-filter="theme"]', '');
  await page.selectOption('[data-puzzle-filter="source"]', '');
  await waitState(['playing']);
  assert.equal(await page.locator('[data-own-puzzles]').count(), 0);
});
