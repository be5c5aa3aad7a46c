// End-to-end tests that what the server refuses is said in the interface language: a bad FEN
// pasted into the FEN box, a bad position in the editor and a record file that cannot be
// opened read, in Russian and in Chinese,
// without English words (only the quoted FEN text and single letters or points remain); and
// that an analysis line carries move numbers and says which side moves. The server is
// started by ./run and its address given in XIANGQI_URL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp } from './fixture.js';


/** FENs the FEN box refuses, one per kind of fault. */
const BAD_FENS = [
  '9/9/9 w',
  '4k4/9/9/9/9/9/9/9/9/3K4 w',
  'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w',
  '9/9/9/9/9/9/9/9/9/3K5 w',
  '4k4/9/9/9/9/9/9/9/9/3K4A w',
  '4k4/9/9/9/9/9/9/9/9/4K4 w',
  '4k4/9/4R4/9/9/9/9/9/9/3K5 w',
  '4k4/9/9/9/9/9/9/9/9/3K5 xyz',
  '4k4/9/9/9/9/9/9/9/9/3K5 w - - abc 1',
  '4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 extra',
];

/** Positions the editor refuses: no Red general, an advisor off its points, too many pieces. */
const BAD_POSITIONS = [
  '4k4/9/9/9/9/9/9/9/9/9 w - - 0 1',
  '4k4/9/9/9/9/9/9/9/9/3K4A w - - 0 1',
  '4k4/9/9/9/9/9/9/9/RRR6/3K5 w - - 0 1',
];

/** Words of three or more Latin letters in `text` outside «…» and “…” quotes. */
function latinWords(text) {
  const unquoted = text.replace(/«[^»]*»/g, '').replace(/“[^”]*”/g, '');
  return unquoted.match(/[A-Za-z]{3,}/g) ?? [];
}

const page = useApp(async (page) => {
  await page.selectOption('[data-setting="mode"]', 'two');
});

/** The message the FEN box's Load answers for `fen`. */
async function loadFen(fen) {
  await page.evaluate(() => { document.getElementById('message').textContent = ''; });
  await page.fill('#fen', fen);
  await page.click('[data-action="load-fen"]');
  await page.waitForFunction(() => document.getElementById('message').textContent.length > 0);
  return page.textContent('#message');
}

/** The editor's verdict on `fen`, once it has a new one (each bad position has its own). */
async function editorVerdict(fen) {
  const before = await page.textContent('#editor-verdict');
  await page.fill('#editor-fen', fen);
  await page.waitForFunction((prev) => {
    const v = document.getElementById('editor-verdict');
    return v.classList.contains('bad') && v.textContent.length > 0 && v.textContent !== prev;
  }, before);
  return page.textContent('#editor-verdict');
}

for (const [language, opening, general] of [['ru', /^Позиция невозможна: /, /генерал/], ['zh', /^局面不合法：/, /帅/]]) {
  test(`a bad FEN in the FEN box is explained in ${language} without English words`, async () => {
    await page.selectOption('[data-setting="language"]', language);
    const seen = new Set();
    for (const fen of BAD_FENS) {
      const text = await loadFen(fen);
      assert.match(text, opening, fen);
      assert.deepEqual(latinWords(text), [], `${fen}: ${text}`);
      seen.add(text);
    }
    assert.equal(seen.size, BAD_FENS.length, 'each fault has its own words');
    await page.selectOption('[data-setting="language"]', 'en');
  });

  test(`the editor's verdict on a bad position is in ${language} without English words`, async () => {
    await page.selectOption('[data-setting="language"]', language);
    await page.click('[data-action="setup"]');
    const verdicts = [];
    for (const fen of BAD_POSITIONS) {
      const text = await editorVerdict(fen);
      assert.deepEqual(latinWords(text), [], `${fen}: ${text}`);
      verdicts.push(text);
    }
    assert.match(verdicts[0], general, verdicts[0]);
    assert.match(verdicts[1], /i0/, 'the advisor is named by its point');
    await page.click('[data-action="editor-cancel"]');
    await page.selectOption('[data-setting="language"]', 'en');
  });
}

/** Record files that cannot be opened: empty, cut off in the first move, a move that breaks a rule. */
const BAD_RECORDS = [
  ' \n',
  '[Game "Chinese Chess"]\n[Format "ICCS"]\n\n1. H2-E',
  '[Game "Chinese Chess"]\n[Format "ICCS"]\n\n1. B0-B2 *\n',
];

for (const [language, where] of [['ru', /строка 4/], ['zh', /第4行/]]) {
  test(`a record file that cannot be opened is explained in ${language} without English words`, async () => {
    await page.selectOption('[data-setting="language"]', language);
    const seen = [];
    for (const text of BAD_RECORDS) {
      await page.evaluate(() => { document.getElementById('message').textContent = ''; });
      await page.setInputFiles('#record-file', { name: 'game.pgn', mimeType: 'text/plain', buffer: Buffer.from(text) });
      await page.waitForFunction(() => document.getElementById('message').textContent.length > 0);
      const message = (await page.textContent('#message')).replace('game.pgn', '');
      assert.deepEqual(latinWords(message), [], message);
      seen.push(message);
    }
    assert.match(seen[1], where, `the cut-off record names its line: ${seen[1]}`);
    assert.match(seen[2], /«B0-B2»|“B0-B2”/, `the refused move is quoted: ${seen[2]}`);
    assert.equal(new Set(seen).size, seen.length, 'each fault has its own words');
    await page.selectOption('[data-setting="language"]', 'en');
  });
}

test('an analysis line carries move numbers and says which side moves', async () => {
  await page.selectOption('[data-setting="language"]', 'ru');
  await page.selectOption('[data-setting="notation"]', 'iccs');
  await page.click('[data-action="new"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length === 0);
  await page.check('[data-setting="analysis"]');
  const line = () => page.evaluate(() => document.querySelector('#analysis li')?.textContent ?? '');
  await page.waitForFunction(() => /\s1\. [a-i]\d[a-i]\d [a-i]\d[a-i]\d 2\. /.test(document.querySelector('#analysis li')?.textContent ?? ''), null, { timeout: 20000 });
  assert.match(await page.textContent('#analysis h2'), /Ход красных/);
  const [bar, title] = await page.evaluate(() => [document.getElementById('eval-bar').textContent, document.querySelector('#analysis h2').textContent]);
  assert.match(bar, /^[+−]?(\d+\.\d\d|M\d+)$/, 'the bar shows its number');
  assert.ok(title.includes(`: ${bar}`), `the bar's number is the best line's score: ${bar} in ${title}`);
  await page.click('[data-square="h2"]');
  await page.click('[data-square="e2"]');
  await page.waitForFunction(() => /\s1… [a-i]\d[a-i]\d 2\. /.test(document.querySelector('#analysis li')?.textContent ?? ''), null, { timeout: 20000 });
  assert.match(await page.textContent('#analysis h2'), /Ход чёрных/);
  assert.match(await line(), /^[+−]?(\d+\.\d\d|M\d+) {2}\(глубина \d+\) {2}1… /);
  await page.uncheck('[data-setting="analysis"]');
  await page.selectOption('[data-setting="language"]', 'en');
});

test('a count takes the form its number needs: Russian мат в 1 ход, 2 хода, 5 ходов', async () => {
  // A module of its own (the page's modules live under the build's path), so the page's
  // language is left alone.
  const said = await page.evaluate(async () => {
    const i18n = await import('/js/i18n.js');
    const say = (lang) => {
      i18n.setLanguage(lang);
      return [1, 2, 5, 21, 22].map((n) => i18n.t('findMate', { side: 'X', sideOf: 'Y', n }));
    };
    const all = { ru: say('ru'), zh: say('zh'), en: say('en') };
    return all;
  });
  assert.deepEqual(said.ru, [1, 2, 5, 21, 22].map((n, i) => `Ход Y: мат в ${n} ${['ход', 'хода', 'ходов', 'ход', 'хода'][i]}.`));
  assert.equal(said.zh[1], 'X先走，2步杀。');
  assert.equal(said.en[1], 'X to move: mate in 2.');
});

test('the Chinese interface uses the words Chinese players use', async () => {
  await page.selectOption('[data-setting="language"]', 'zh');
  await page.waitForFunction(() => document.querySelector('[data-action="undo"]').textContent === '悔棋');
  assert.equal(await page.textContent('[data-action="redo"]'), '撤销悔棋');
  assert.equal(await page.textContent('[data-setting="pieceStyle"] option[value="european"]'), '西式图标');
  const levels = await page.locator('[data-setting="level"] option').allTextContents();
  assert.ok(levels.some((l) => l.startsWith('业余棋手')), levels.join(' / '));
  assert.ok(!levels.some((l) => l.includes('棋协')), levels.join(' / '));
  await page.selectOption('[data-setting="language"]', 'en');
});

test('a Chinese browser reads moves in Chinese notation until another is chosen, and pinyin sits in full-width brackets', async () => {
  const { openApp } = await import('./browser.js');
  const { APP_URL } = await import('./fixture.js');
  const { context, page: zh } = await openApp(APP_URL, { locale: 'zh-CN' });
  try {
    assert.equal(await zh.inputValue('[data-setting="notation"]'), 'chinese');
    await zh.click('#board [data-square="h2"]');
    await zh.click('#board [data-square="e2"]');
    await zh.waitForFunction(() => document.querySelectorAll('#moves span[data-ply]').length >= 1);
    assert.match(await zh.textContent('#moves span[data-ply="1"]'), /^炮二平五/);
    // The mating patterns' titles: 二鬼拍门（èr guǐ pāi mén）, no ASCII bracket.
    await zh.click('[data-nav="learn"]');
    await zh.click('#course .course-tabs [data-course-id="patterns"]');
    await zh.waitForSelector('#course [data-course-map="patterns"] .lesson-title');
    const titles = await zh.$$eval('#course .lesson-title', (els) => els.map((e) => e.textContent));
    assert.ok(titles.some((x) => /^[\u4e00-\u9fff]+（[a-zāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü ]+）/.test(x)), titles.join(' | '));
    assert.ok(titles.every((x) => !/ \(/.test(x)), titles.join(' | '));
    // Switching to English goes back to WXF; a notation chosen by hand stays.
    await zh.selectOption('[data-setting="language"]', 'en');
    assert.equal(await zh.inputValue('[data-setting="notation"]'), 'wxf');
    await zh.selectOption('[data-setting="notation"]', 'iccs');
    await zh.selectOption('[data-setting="language"]', 'zh');
    assert.equal(await zh.inputValue('[data-setting="notation"]'), 'iccs');
  } finally {
    await context.close();
  }
});
