// End-to-end tests of the app in headless Chromium: the server is started by ./run and its
// address given in XIANGQI_URL. Screenshots go to screenshots/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_URL as URL, clickPoint, playMove, useApp } from './fixture.js';

const SHOTS = new globalThis.URL('./screenshots/', import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });
const page = useApp();

const shot = (name) => page.screenshot({ path: join(SHOTS, `${name}.png`) });
const moveCount = () => page.locator('#moves span[data-ply]').count();
const click = (square) => clickPoint(page, square);
const choose = (setting, value) => page.selectOption(`[data-setting="${setting}"]`, value);

async function newGame() {
  await page.click('[data-action="new"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 0);
}

test('the board has 90 points and 32 pieces', async () => {
  assert.equal(await page.locator('[data-square]').count(), 90);
  assert.equal(await page.locator('[data-piece]').count(), 32);
  assert.equal(await page.getAttribute('[data-square="e0"] [data-piece]', 'data-piece'), 'K');
  await shot('01-start');
});

test('the board draws the simplified characters the texts name the pieces by', async () => {
  const glyph = (square) => page.textContent(`[data-square="${square}"] .glyph`);
  const drawn = {};
  for (const square of ['e0', 'e9', 'd0', 'd9', 'c0', 'c9', 'b0', 'b9', 'a0', 'a9', 'b2', 'b7', 'a3', 'a6']) {
    drawn[square] = await glyph(square);
  }
  assert.deepEqual(drawn, {
    e0: '帅', e9: '将', d0: '仕', d9: '士', c0: '相', c9: '象', b0: '马', b9: '马',
    a0: '车', a9: '车', b2: '炮', b7: '炮', a3: '兵', a6: '卒',
  });
});

test('no capture marker stands on the opening position before the first move', async () => {
  assert.equal(await moveCount(), 0);
  assert.equal(await page.locator('#board .capture-marker').count(), 0, 'the horses a cannon could take are not ringed yet');
  assert.ok(await page.locator('#marker-key').isHidden());
});

test('capture markers are explained beside the board, an unprotected piece by a badge no check mark has', async () => {
  // Black's chariot on a4 attacks Red's horse on c4, which nothing protects.
  const fen = '3k5/9/9/9/9/r1N6/9/9/9/4K4 w - - 0 1';
  await page.fill('#fen', fen);
  await page.click('[data-action="load-fen"]');
  await page.waitForFunction(() => document.querySelectorAll('#board .capture-marker').length === 1);
  assert.equal(await page.locator('[data-square="c4"] .capture-marker.unprotected').count(), 1);
  assert.equal(await page.locator('[data-square="c4"] .unprotected-badge').count(), 1, 'the unprotected piece carries the "!" badge');
  assert.equal(await page.locator('#board .in-check').count(), 0);
  assert.ok(await page.locator('#marker-key').isVisible(), 'the key explains the rings where they first appear');
  assert.match(await page.textContent('#marker-key [data-marker-key="attacked"]'), /can be captured next move/);
  assert.match(await page.textContent('#marker-key [data-marker-key="unprotected"]'), /nothing protects it/);
  assert.equal(await page.locator('#marker-key [data-marker-key="unprotected"] .unprotected-badge').count(), 1);
  await shot('01-marker-key');
  await page.click('#marker-key button');
  assert.ok(await page.locator('#marker-key').isHidden());
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForFunction(() => document.querySelectorAll('#board .capture-marker').length === 1);
  assert.ok(await page.locator('#marker-key').isHidden(), 'once understood, the key stays away');
  await newGame();
});

test('a move is played and the engine answers', async () => {
  await choose('level', '0');
  await newGame();
  await click('h2');
  assert.ok((await page.locator('.target').count()) > 0, 'legal destinations are shown');
  await click('e2');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 2, null, { timeout: 10000 });
  assert.equal(await page.getAttribute('[data-square="e2"] [data-piece]', 'data-piece'), 'C');
  assert.equal(await page.locator('.last-move').count(), 2);
  await shot('02-engine-answered');
});

test('an illegal move is explained', async () => {
  await click('b0');
  await click('b4');
  await page.waitForFunction(() => document.getElementById('message').textContent.length > 0);
  const text = await page.textContent('#message');
  assert.match(text, /Illegal move/);
  assert.ok((await page.locator('.explain').count()) > 0, 'the reason’s points are highlighted');
  await shot('03-illegal');
});

test('undo and redo step back and forth', async () => {
  await page.click('[data-action="undo"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 0);
  await page.click('[data-action="redo"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 2);
  assert.equal(await moveCount(), 2);
});

test('a hint is drawn as an arrow', async () => {
  await page.click('[data-action="hint"]');
  await page.waitForSelector('.arrow.hint', { state: 'attached', timeout: 10000 });
  assert.match(await page.textContent('#message'), /Hint/);
  await shot('04-hint');
});

test('the move list switches notation', async () => {
  await choose('notation', 'iccs');
  assert.equal(await page.textContent('#moves span[data-ply="1"]'), 'h2e2');
  await choose('notation', 'chinese');
  assert.equal(await page.textContent('#moves span[data-ply="1"]'), '炮二平五');
  await choose('notation', 'wxf');
  assert.equal(await page.textContent('#moves span[data-ply="1"]'), 'C2=5');
});

test('themes and piece symbols switch', async () => {
  await choose('boardTheme', 'green');
  await choose('pieceTheme', 'taipei');
  await choose('pieceStyle', 'european');
  assert.ok(await page.evaluate(() => document.body.classList.contains('board-green')));
  assert.ok((await page.locator('.symbol').count()) >= 32);
  await shot('05-green-european');
  await choose('pieceStyle', 'characters');
  await choose('boardTheme', 'wood');
  await choose('pieceTheme', 'beijing');
});

/** The kinds of piece (FEN letters) the game's board draws as characters, and the characters. */
async function drawnAsCharacters() {
  return page.evaluate(() => {
    const found = [...document.querySelectorAll('#board [data-piece]')].filter((p) => p.querySelector('.glyph'));
    return {
      kinds: [...new Set(found.map((p) => p.dataset.piece.toLowerCase()))].sort(),
      characters: [...new Set(found.map((p) => p.querySelector('.glyph').textContent))].sort(),
      symbols: document.querySelectorAll('#board .symbol').length,
    };
  });
}

test('the traditional set and the mixed style learn the characters one kind at a time', async () => {
  await newGame();
  await choose('characterSet', 'traditional');
  const traditional = await drawnAsCharacters();
  for (const c of ['俥', '車', '傌', '馬', '帥', '將', '包']) assert.ok(traditional.characters.includes(c), `${c} is drawn`);
  assert.equal(traditional.symbols, 0);
  await shot('05b-traditional');
  // Mixed: symbols for every piece but the first N kinds of the learning order.
  await choose('pieceStyle', 'mixed');
  assert.equal(await page.isVisible('[data-setting="knownPieces"]'), true);
  await choose('knownPieces', '0');
  assert.deepEqual((await drawnAsCharacters()).kinds, []);
  await choose('knownPieces', '1');
  const one = await drawnAsCharacters();
  assert.deepEqual(one.kinds, ['k'], 'only the generals are characters');
  assert.deepEqual(one.characters, ['將', '帥']);
  assert.equal(one.symbols, 30);
  await page.click('[data-action="know-one-more"]');
  const two = await drawnAsCharacters();
  assert.deepEqual(two.kinds, ['k', 'r']);
  assert.equal(two.symbols, 26);
  await shot('05c-mixed-two');
  // Kept across a reload, and the simplified set again on request.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.deepEqual((await drawnAsCharacters()).kinds, ['k', 'r']);
  await choose('characterSet', 'simplified');
  assert.deepEqual((await drawnAsCharacters()).characters, ['将', '帅', '车']);
  await choose('pieceStyle', 'characters');
  assert.equal(await page.isVisible('[data-setting="knownPieces"]'), false);
  assert.equal((await drawnAsCharacters()).kinds.length, 7);
});

test('the interface switches language', async () => {
  await choose('language', 'ru');
  assert.equal(await page.textContent('[data-action="new"]'), 'Новая игра');
  assert.match(await page.getAttribute('[data-square="e0"]', 'aria-label'), /Генерал/);
  // The settings' longer Russian words stay in their own cells: no field runs into another.
  const overlaps = await page.evaluate(() => {
    const fields = [...document.querySelectorAll('#settings .settings-grid > label')].filter((l) => l.offsetParent);
    const boxes = fields.map((l) => [l, ...l.querySelectorAll('select, button')].map((e) => e.getBoundingClientRect()));
    const found = [];
    boxes.forEach(([cell, ...parts], i) => {
      for (const p of parts) if (p.left < cell.left - 1 || p.right > cell.right + 1) found.push(`${fields[i].textContent.trim()} sticks out`);
      boxes.forEach(([other], j) => {
        if (j > i && cell.left < other.right - 1 && other.left < cell.right - 1 && cell.top < other.bottom - 1 && other.top < cell.bottom - 1) {
          found.push(`${fields[i].textContent.trim()} / ${fields[j].textContent.trim()}`);
        }
      });
    });
    return found;
  });
  assert.deepEqual(overlaps, []);
  await shot('06-russian');
  await choose('language', 'zh');
  assert.equal(await page.textContent('[data-action="new"]'), '新局');
  await choose('language', 'en');
});

test('a hint says what its move threatens', async () => {
  // A lone red horse against a chariot: its only move that does not lose is the fork c5d7,
  // which checks the general and attacks the chariot; the hint names the chariot.
  await page.fill('#fen', '4k4/9/9/5r3/2N6/9/9/9/9/3K5 w - - 0 1');
  await page.click('[data-action="load-fen"]');
  await page.waitForFunction(() => document.getElementById('fen').value.startsWith('4k4/9/9/5r3/'));
  await page.click('[data-action="hint"]');
  await page.waitForSelector('.arrow.hint', { state: 'attached', timeout: 10000 });
  assert.match(await page.textContent('#message'), /^Hint: H7\+6 — it gives check and attacks the chariot on f6$/);
  // A mate in one is said as a mate, not as a check.
  await page.fill('#fen', '3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1');
  await page.click('[data-action="load-fen"]');
  await page.waitForFunction(() => document.getElementById('fen').value.startsWith('3k5/9/3P5/'));
  await page.click('[data-action="hint"]');
  await page.waitForFunction(() => /^Hint: /.test(document.getElementById('message').textContent));
  assert.match(await page.textContent('#message'), /^Hint: R9\+9 — it mates$/);
  // A capture with check that forces mate: the mate first, then the capture (the check, third,
  // is left out).
  await page.fill('#fen', '4k4/9/9/4c4/9/9/9/9/9/3KR4 w - - 0 1');
  await page.click('[data-action="load-fen"]');
  await page.waitForFunction(() => document.getElementById('fen').value.startsWith('4k4/9/9/4c4/'));
  await page.click('[data-action="hint"]');
  await page.waitForFunction(() => /^Hint: R5\+6/.test(document.getElementById('message').textContent));
  assert.match(await page.textContent('#message'), /^Hint: R5\+6 — it forces mate in 2 and takes the cannon on e6$/);
});

test('a set-up position is finished by mate', async () => {
  await page.click('[data-action="setup"]');
  // The black cannon on d8 can be taken by the soldier: a capture ring, until the game ends.
  await page.fill('#editor-fen', '3k5/3c5/3P5/9/9/9/9/9/9/R3K4 w - - 0 1');
  await page.waitForFunction(() => document.getElementById('editor-verdict').textContent === 'The position is valid.');
  await shot('07-editor');
  await page.click('[data-action="editor-start"]');
  await page.waitForFunction(() => document.getElementById('editor').hidden);
  await page.waitForSelector('#board [data-square="d8"] .capture-marker');
  await click('a0');
  await click('a9');
  await page.waitForFunction(() => /checkmated/.test(document.getElementById('status').textContent));
  assert.match(await page.textContent('#status'), /Red wins/);
  // The mated general is ringed; no capture ring stays on the finished position.
  assert.equal(await page.locator('#board [data-square="d9"] .ended-ring').count(), 1);
  assert.equal(await page.locator('#board .capture-marker').count(), 0);
  await shot('08-mate');
  // Each language says it in its own grammar and punctuation.
  await choose('language', 'ru');
  await page.waitForFunction((w) => document.getElementById('status').textContent === w, 'Игра окончена. Победили красные. Чёрным поставлен мат.');
  await choose('language', 'zh');
  await page.waitForFunction((w) => document.getElementById('status').textContent === w, '对局结束：红方胜。黑方被将死。');
  await choose('language', 'en');
  await page.waitForFunction((w) => document.getElementById('status').textContent === w, 'Game over: Red wins. Black is checkmated.');
});

test('the editor reports an invalid position in plain words', async () => {
  await page.click('[data-action="setup"]');
  await page.fill('#editor-fen', '4k4/9/9/9/9/9/9/9/9/9 w - - 0 1');
  await page.waitForFunction(() => document.getElementById('editor-verdict').classList.contains('bad')
    && document.getElementById('editor-verdict').textContent.length > 0);
  assert.match(await page.textContent('#editor-verdict'), /general/i);
  await page.click('[data-action="editor-cancel"]');
});

test('the game survives a reload', async () => {
  await newGame();
  await choose('mode', 'two');
  await click('h2');
  await click('e2');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 1);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await moveCount(), 1);
  assert.equal(await page.inputValue('[data-setting="mode"]'), 'two');
  await choose('mode', 'engine');
});

test('an illegal move is explained in the chosen language', async () => {
  await choose('mode', 'two');
  await newGame();
  await choose('language', 'ru');
  await click('b0');
  await click('d1');
  await page.waitForFunction(() => /нога/.test(document.getElementById('message').textContent));
  assert.match(await page.textContent('#message'), /Ход невозможен: «нога» коня на c0 занята/);
  await choose('language', 'zh');
  await click('b0');
  await click('d1');
  await page.waitForFunction(() => /蹩马腿/.test(document.getElementById('message').textContent));
  assert.match(await page.textContent('#message'), /着法不合规则：蹩马腿（c0有棋子）/, 'one colon, the point in brackets');
  await shot('10-illegal-chinese');
  await choose('language', 'en');
});

test('analysis deepens and follows pieces moved freely', async () => {
  await choose('mode', 'engine');
  await choose('notation', 'iccs');
  await newGame();
  await page.check('[data-setting="analysis"]');
  const depth = () => page.evaluate(() => Number(document.getElementById('analysis').dataset.depth ?? 0));
  await page.waitForFunction(() => Number(document.getElementById('analysis').dataset.depth ?? 0) >= 3, null, { timeout: 15000 });
  const first = await depth();
  await page.waitForFunction((d) => Number(document.getElementById('analysis').dataset.depth ?? 0) > d, first, { timeout: 20000 });
  assert.ok((await depth()) > first, 'the analysis deepens while it runs');
  // Both sides move by hand; the engine does not answer in analysis mode.
  await playMove(page, 'h2', 'e2');
  await playMove(page, 'h9', 'g7');
  await page.waitForFunction(() => {
    const li = document.querySelector('#analysis li');
    const from = li?.textContent.trim().split(/\s+/).find((w) => /^[a-i]\d[a-i]\d$/.test(w))?.slice(0, 2);
    const piece = from && document.querySelector(`[data-square="${from}"] [data-piece]`)?.dataset.piece;
    return piece && piece === piece.toUpperCase() && Number(document.getElementById('analysis').dataset.depth) >= 4;
  }, null, { timeout: 20000 });
  // The lines' first moves are arrows on the board, the best the strongest, each its line's.
  await page.waitForFunction(() => document.querySelectorAll('#board .arrow.analysis-1').length === 1);
  const arrows = await page.$$eval('#board .arrow[class*="analysis-"]', (els) => els.map((e) => [e.getAttribute('class'), e.dataset.move]));
  const lines = await page.$$eval('#analysis li', (els) => els.map((li) => li.textContent.trim().split(/\s+/).find((w) => /^[a-i]\d[a-i]\d$/.test(w))));
  assert.ok(arrows.length >= 1 && arrows.length <= 3, JSON.stringify(arrows));
  for (const [cls, move] of arrows) assert.equal(move, lines[Number(cls.match(/analysis-(\d)/)[1]) - 1], JSON.stringify({ arrows, lines }));
  await shot('11-analysis');
  assert.equal(await moveCount(), 2);
  await page.uncheck('[data-setting="analysis"]');
  assert.equal(await page.locator('#board .arrow[class*="analysis-"]').count(), 0, 'no analysis, no arrows');
  await choose('notation', 'wxf');
});

test('a game is saved as PGN and opened again', async () => {
  await choose('mode', 'two');
  await newGame();
  await playMove(page, 'h2', 'e2');
  await playMove(page, 'h9', 'g7');
  await page.selectOption('#record-format', 'pgn-wxf');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action="save-record"]')]);
  assert.match(download.suggestedFilename(), /\.pgn$/);
  const text = readFileSync(await download.path(), 'utf8');
  assert.match(text, /C2=5/);
  assert.match(text, /H8\+7/);
  await newGame();
  await page.setInputFiles('#record-file', { name: 'saved.pgn', mimeType: 'application/x-chess-pgn', buffer: Buffer.from(text) });
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 2);
  assert.match(await page.textContent('#message'), /Opened saved\.pgn/);
  assert.equal(await page.getAttribute('[data-square="g7"] [data-piece]', 'data-piece'), 'n');
  await page.setInputFiles('#record-file', { name: 'broken.pgn', mimeType: 'text/plain', buffer: Buffer.from('[Event "x"]\n\n1. C2=5 Z9+9 *\n') });
  await page.waitForFunction(() => /cannot be opened/.test(document.getElementById('message').textContent));
  assert.equal(await moveCount(), 2, 'a file that cannot be read leaves the game alone');
  const collection = '[Event "one"]\n\n1. C2=5 H8+7 *\n\n[Event "two"]\n\n1. C2=5 Z9+9 *\n\n'
    + '====================\nwww.example.org\n';
  await page.setInputFiles('#record-file', { name: 'collection.pgn', mimeType: 'text/plain', buffer: Buffer.from(collection) });
  await page.waitForFunction(() => /Opened collection/.test(document.getElementById('message').textContent));
  const told = await page.textContent('#message');
  assert.match(told, /Opened collection\.pgn \(game 1 of 2\)/);
  assert.match(told, /1 other game\(s\) of the file cannot be read: .*game 2/);
  assert.match(told, /Skipped: .*www\.example\.org/, 'the trailer after the last game is skipped with a warning');
  await shot('12-record');
  await choose('mode', 'engine');
  await newGame();
  const [engineGame] = await Promise.all([page.waitForEvent('download'), page.click('[data-action="save-record"]')]);
  const tags = readFileSync(await engineGame.path(), 'utf8');
  assert.match(tags, /\[Black "Xiangqi · Beginner \(~800 Elo\)"\]/, 'the engine is named by its level as the app names it, without nested brackets');
  await choose('mode', 'two');
});

test('a perpetual chase ends the game with its verdict in the chosen language', async () => {
  const record = await page.evaluate(async () => {
    const game = await fetch('/api/games', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        fen: '2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1',
        moves: 'c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2'.split(' '),
      }),
    }).then((r) => r.json());
    return fetch(`/api/games/${game.id}/record?format=pgn-iccs`).then((r) => r.text());
  });
  await page.setInputFiles('#record-file', { name: 'chase.pgn', mimeType: 'text/plain', buffer: Buffer.from(record) });
  await page.waitForFunction(() => /perpetually/.test(document.getElementById('status').textContent));
  assert.match(await page.textContent('#status'), /Black wins/);
  await choose('language', 'zh');
  assert.match(await page.textContent('#status'), /红方长捉.*违例判负/);
  await shot('13-verdict-chinese');
  await choose('language', 'ru');
  assert.match(await page.textContent('#status'), /Красные: вечное преследование/);
  await choose('language', 'en');
});

test('the clock runs for the side to move and a fallen flag ends the game', async () => {
  const timed = await page.context().newPage();
  await timed.clock.install();
  await timed.goto(URL);
  await timed.waitForSelector('body[data-ready="true"]');
  await timed.selectOption('[data-setting="mode"]', 'two');
  // A new game first, its answer awaited, then the clock: a clock chosen starts at once, so
  // that the five seconds below are Red's whatever the server's pace.
  const made = timed.waitForResponse((r) => r.url().endsWith('/api/games') && r.request().method() === 'POST');
  await timed.click('[data-action="new"]');
  await made;
  await timed.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 0);
  await timed.selectOption('[data-setting="clock"]', '3+2');
  await timed.waitForFunction(() => document.querySelector('[data-clock="red"]').classList.contains('running'));
  assert.ok(await timed.isVisible('#clocks'));
  await timed.clock.fastForward(5000);
  await timed.click('[data-square="h2"]');
  await timed.click('[data-square="e2"]');
  await timed.waitForFunction(() => document.querySelector('[data-clock="black"]').classList.contains('running'));
  assert.match(await timed.textContent('[data-clock="red"]'), /2:5[78]/, 'five seconds spent, two added');
  await timed.clock.fastForward('03:05');
  await timed.waitForFunction(() => /ran out of time/.test(document.getElementById('status').textContent));
  assert.match(await timed.textContent('#status'), /Red wins/);
  await timed.click('[data-square="h9"]');
  await timed.click('[data-square="g7"]');
  assert.equal(await timed.locator('#moves span[data-ply]').count(), 1, 'no move after the flag falls');
  await timed.screenshot({ path: join(SHOTS, '14-clock.png') });
  await timed.selectOption('[data-setting="clock"]', 'off');
  await timed.selectOption('[data-setting="mode"]', 'engine');
  await timed.close();
});

/** The file labels of the board's top and bottom edges, each read left to right. */
async function edgeLabels() {
  return page.evaluate(() => {
    const labels = [...document.querySelectorAll('text.coord')]
      .map((t) => ({ x: Number(t.getAttribute('x')), y: Number(t.getAttribute('y')), text: t.textContent }));
    const ys = [...new Set(labels.map((l) => l.y))].sort((a, b) => a - b);
    const row = (y) => labels.filter((l) => l.y === y).sort((a, b) => a.x - b.x).map((l) => l.text);
    return { top: row(ys[0]), bottom: row(ys[ys.length - 1]) };
  });
}

/** The label of the edge row `where` ('top' or 'bottom') standing above or below point `square`. */
const labelAt = (where, square) => page.evaluate(([edge, sq]) => {
  const box = document.querySelector(`[data-square="${sq}"]`).getBoundingClientRect();
  const x = box.x + box.width / 2;
  const labels = [...document.querySelectorAll('text.coord')].map((t) => ({ box: t.getBoundingClientRect(), text: t.textContent }));
  const ys = labels.map((l) => l.box.y);
  const y = edge === 'top' ? Math.min(...ys) : Math.max(...ys);
  const row = labels.filter((l) => Math.abs(l.box.y - y) < 2);
  row.sort((a, b) => Math.abs(a.box.x + a.box.width / 2 - x) - Math.abs(b.box.x + b.box.width / 2 - x));
  return row[0].text;
}, [where, square]);

/** The points' letters under the board, read left to right. */
const letterRow = () => page.evaluate(() => [...document.querySelectorAll('#board text[data-coord="letter"]')]
  .sort((a, b) => Number(a.getAttribute('x')) - Number(b.getAttribute('x'))).map((t) => t.textContent).join(''));

test('flipped board labels show each side its own file numbers', async () => {
  await newGame();
  for (const notation of ['wxf', 'chinese']) {
    await choose('notation', notation);
    const red = notation === 'chinese' ? '三' : '3';
    assert.equal(await labelAt('bottom', 'g3'), red, `${notation}: Red's pawn on its file 3, Red at the bottom`);
    assert.equal(await labelAt('top', 'c6'), '3', `${notation}: Black's pawn on its file 3, Red at the bottom`);
    assert.equal(await letterRow(), 'abcdefghi', `${notation}: the points' letters, as the texts name points, stand under the board`);
    await page.click('[data-action="flip"]');
    assert.equal(await labelAt('top', 'g3'), red, `${notation}: Red's pawn on its file 3, Black at the bottom`);
    assert.equal(await labelAt('bottom', 'c6'), '3', `${notation}: Black's pawn on its file 3, Black at the bottom`);
    const { top, bottom } = await edgeLabels();
    assert.deepEqual(bottom, ['9', '8', '7', '6', '5', '4', '3', '2', '1'], `${notation}: Black reads 9 to 1 at its edge`);
    assert.equal(top[0], notation === 'chinese' ? '一' : '1', `${notation}: Red's file 1 is on the screen's left when flipped`);
    assert.equal(await letterRow(), 'ihgfedcba', `${notation}: the letters turn with the board`);
    if (notation === 'wxf') await shot('15-flipped');
    await page.click('[data-action="flip"]');
  }
  await choose('notation', 'wxf');
});

test('the move list shows every move of a long game and steps through its positions', async () => {
  // A game of at least 80 plies played by the engine against itself, saved as a record.
  const { record, fens } = await page.evaluate(async () => {
    const post = async (path, body) => (await fetch(path, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    })).json();
    for (let tries = 0; tries < 6; tries++) {
      let game = await post('/api/games', {});
      while (game.moves.length < 80 && !game.outcome) {
        game = (await post(`/api/games/${game.id}/engine`, { level: 6 })).game;
      }
      if (game.moves.length >= 80) {
        const record = await (await fetch(`/api/games/${game.id}/record?format=pgn-iccs`)).text();
        return { record, fens: [game.start_fen, ...game.moves.map((m) => m.fen)] };
      }
    }
    return { record: null, fens: [] };
  });
  assert.ok(record, 'the engine played a game of 80 plies');
  await page.setInputFiles('#record-file', { name: 'long.pgn', mimeType: 'text/plain', buffer: Buffer.from(record) });
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 80);
  const plies = await page.$$eval('#moves span[data-ply]', (spans) => spans.map((s) => Number(s.dataset.ply)));
  assert.deepEqual(plies, Array.from({ length: 80 }, (_, i) => i + 1), 'every move is in the list, in order');
  const misplaced = await page.evaluate(() => {
    const list = document.getElementById('moves');
    const box = list.getBoundingClientRect();
    const rows = [...list.children].map((li) => li.getBoundingClientRect());
    const outOfOrder = rows.filter((r, i) => i > 0 && r.top <= rows[i - 1].top).length;
    const outside = [...list.querySelectorAll('span[data-ply]')]
      .filter((s) => s.getBoundingClientRect().left < box.left || s.getBoundingClientRect().right > box.right + 1).length;
    return { outOfOrder, outside };
  });
  assert.deepEqual(misplaced, { outOfOrder: 0, outside: 0 }, 'every move stands in one column, row under row, inside the list');
  await page.click('#moves span[data-ply="5"]');
  assert.equal(await page.inputValue('#fen'), fens[5], 'clicking move 3 for Red shows the position after it');
  assert.equal(await page.getAttribute('#moves span.current', 'data-ply'), '5');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.inputValue('#fen'), fens[4]);
  await page.keyboard.press('Home');
  assert.equal(await page.inputValue('#fen'), fens[0]);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.inputValue('#fen'), fens[1]);
  await shot('16-browsing');
  await page.keyboard.press('End');
  assert.equal(await page.inputValue('#fen'), fens[80], 'End goes back to the game as it stands');
});

test('a refusal is an answer: an illegal move, a bad FEN and filters that match nothing leave no error in the console', async () => {
  const errors = [];
  const listen = (m) => { if (m.type() === 'error') errors.push(m.text()); };
  page.on('console', listen);
  try {
    // Play: an illegal move, and one from an earlier position of the game.
    await page.click('[data-nav="play"]');
    await newGame();
    await click('b0');
    await click('b4');
    await page.waitForFunction(() => /Illegal move/.test(document.getElementById('message').textContent));
    // A FEN that cannot be read.
    await page.fill('#fen', '9/9/9 w');
    await page.click('[data-action="load-fen"]');
    await page.waitForFunction(() => /cannot be played/.test(document.getElementById('message').textContent));
    // The endgames: an illegal move of the learner.
    await page.goto(`${URL}#/endgames/chariot-general`);
    await page.click('#endgames [data-endgame="play"][data-index="0"]');
    await page.waitForSelector('#endgames [data-endgame-status="playing"]');
    const [from, to] = await page.evaluate(() => {
      const red = [...document.querySelectorAll('#endgames .lesson-board [data-piece="R"]')][0].closest('[data-square]').dataset.square;
      // A knight's jump is never a chariot's move.
      const f = 'abcdefghi'.indexOf(red[0]);
      const r = Number(red[1]);
      const to = `${'abcdefghi'[f < 7 ? f + 2 : f - 2]}${r < 9 ? r + 1 : r - 1}`;
      return [red, to];
    });
    await page.click(`#endgames .lesson-board [data-square="${from}"]`);
    await page.click(`#endgames .lesson-board [data-square="${to}"]`);
    await page.waitForFunction(() => /Illegal move/.test(document.querySelector('#endgames [data-endgame-message]')?.textContent));
    // Puzzles: a theme and a pattern that share no puzzle.
    await page.click('[data-nav="puzzles"]');
    await page.waitForSelector('#puzzles .puzzle[data-state="playing"]');
    const catalog = await page.evaluate(async () => (await fetch('/api/puzzles/themes')).json());
    let empty = null;
    for (const theme of catalog.themes) {
      for (const pattern of catalog.patterns) {
        if (empty) break;
        const { count } = await page.evaluate(async (q) => (await fetch(`/api/puzzles/count?${q}`)).json(), `theme=${theme.id}&pattern=${pattern.id}`);
        if (count === 0) empty = { theme: theme.id, pattern: pattern.id };
      }
    }
    await page.selectOption('[data-puzzle-filter="theme"]', empty.theme);
    await page.waitForSelector('#puzzles .puzzle[data-state="playing"]');
    await page.selectOption('[data-puzzle-filter="pattern"]', empty.pattern);
    await page.waitForSelector('#puzzles .puzzle[data-state="none"]');
    assert.equal(await page.locator('#puzzles .puzzle-board').count(), 0, 'no board is left from the puzzle before');
    assert.match(await page.textContent('[data-puzzle-message]'), /No puzzle|no puzzle/);
    await page.selectOption('[data-puzzle-filter="pattern"]', '');
    await page.selectOption('[data-puzzle-filter="theme"]', '');
    await page.waitForSelector('#puzzles .puzzle[data-state="playing"]');
    assert.deepEqual(errors, []);
  } finally {
    page.off('console', listen);
    await page.click('[data-nav="play"]');
  }
});

test('a move, a capture, a check and the end each have their sound, and the switch silences them', async () => {
  await page.click('[data-nav="play"]');
  await choose('mode', 'two');
  const heard = () => page.evaluate(() => [document.body.dataset.lastSound ?? null, Number(document.body.dataset.sounds ?? 0)]);
  // Red's chariot takes the cannon on e6 with check, Black's general steps aside, and the
  // chariot's next check mates.
  await page.fill('#fen', '4k4/9/9/4c4/9/9/9/9/9/3KR4 w - - 0 1');
  await page.click('[data-action="load-fen"]');
  await page.waitForFunction(() => document.getElementById('fen').value.startsWith('4k4/9/9/4c4/'));
  assert.ok(await page.isChecked('[data-setting="sound"]'), 'on by default');
  await click('d0');
  await click('d1');
  await page.waitForFunction(() => document.body.dataset.lastSound === 'move');
  await click('e9');
  await click('f9');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 2);
  assert.equal((await heard())[0], 'move');
  await click('e0');
  await click('e6');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 3);
  assert.equal((await heard())[0], 'capture');
  // A check.
  await click('f9');
  await click('f8');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 4);
  await click('e6');
  await click('f6');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 5);
  assert.equal((await heard())[0], 'check');
  // Off: nothing more is played.
  await page.uncheck('[data-setting="sound"]');
  const [, count] = await heard();
  await click('f8');
  await click('e8');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 6);
  assert.equal((await heard())[1], count, 'silent');
  await page.check('[data-setting="sound"]');
  // The end: a set-up mate in one.
  await page.fill('#fen', '3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1');
  await page.click('[data-action="load-fen"]');
  await page.waitForFunction(() => document.getElementById('fen').value.startsWith('3k5/9/3P5/'));
  await click('a0');
  await click('a9');
  await page.waitForFunction(() => document.body.dataset.lastSound === 'end');
  await choose('mode', 'engine');
  await newGame();
});
