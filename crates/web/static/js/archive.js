// My games: the archive the server keeps of every game played (and of imported ones) — the
// list with its filters, opening a game, deleting, exporting all and importing a file — and
// the link between the game on the board and its row: its key, kept for a reload, and a
// failed save said to the player.

import * as api from './api.js';
import { ask } from './dialogs.js';
import { currentLanguage, nameSaid, t, sentences } from './i18n.js';
import { explainArchiveReason, explainError, explainRecordNote } from './reasons.js';
import { read, write } from './settings.js';

/** Where the key of the game being played is kept across a reload. */
const CURRENT_KEY = 'xiangqi.archive';

/** The end reasons with a short name in the list. */
const REASONS = ['checkmate', 'stalemate', 'time', 'perpetual-check', 'perpetual-chase', 'no-capture', 'insufficient-material'];

/** The key of the archived game the page played last, or null. */
export function currentKey() {
  return read(CURRENT_KEY)?.key ?? null;
}

/**
 * Tells the server who plays game `view` (`players` = {red, black, level, flagged}) and keeps
 * the key the game is saved under, for a reload; `warn(text)` says a save that failed, a game
 * deleted from My games, or a copy that went on as a new game because the saved one had moved
 * on in another tab.
 */
export async function follow(view, players, warn) {
  if (!view?.id) return;
  try {
    const answer = await api.keepSession(view.id, players);
    if (answer?.key) {
      write(CURRENT_KEY, { key: answer.key });
      api.setArchiveKey(view.id, answer.key);
    }
    if (answer?.notice?.code === 'archive-forked') warn(t('archive.forked'));
    if (answer?.write_error) {
      warn(answer.write_error.code === 'archive-deleted' ? explainArchiveReason('archive-deleted') : t('archive.writeFailed'));
    }
  } catch {
    // A game the server no longer knows is brought back by its next request.
  }
}

/** Brings back the game `saved` (the page's copy) under the kept key: its view, or null. */
export async function resume(saved) {
  const key = currentKey();
  if (!key || !saved) return null;
  try {
    return await api.resumeArchived({ key, fen: saved.fen, moves: saved.moves, redo: saved.redo });
  } catch {
    return null;
  }
}

/**
 * Opens the archive's game `id` on a new board (`{game, archived}`), the game on the board
 * from then on: its key is kept for a reload.
 */
export async function openStored(id) {
  const answer = await api.openArchived(id, currentLanguage());
  write(CURRENT_KEY, { key: answer.archived.key });
  api.setArchiveKey(answer.game.id, answer.archived.key);
  return answer;
}

/** What a list row says of how a game stands: the result and why, or "in progress". */
function resultText(game) {
  if (!game.finished) return t('archive.inProgress');
  const result = game.result === 'draw' ? t('draw')
    : game.result ? t(game.result === 'red-wins' ? 'wins.red' : 'wins.black') : t('archive.noResult');
  return REASONS.includes(game.end_reason) ? `${result} (${t(`archive.reason.${game.end_reason}`)})` : result;
}

/**
 * A time control as the list shows it in every language: `300+3` (seconds + seconds a move,
 * as the server keeps it) reads `5+3`, main time not in whole minutes `m:ss` (`0:30+0`); no
 * clock reads `—`, and a control written otherwise (an imported record's) as it is.
 */
export function timeControlText(control) {
  if (!control) return '—';
  const parts = /^(\d+)\+(\d+)$/.exec(control);
  if (!parts) return control;
  const seconds = Number(parts[1]);
  const main = seconds % 60 === 0 ? String(seconds / 60) : `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  return `${main}+${parts[2]}`;
}

/** The time control in words of the page's language (`5 min + 3 s`), for the cell's tooltip. */
function timeControlWords(control) {
  if (!control) return t('clockOff');
  const parts = /^(\d+)\+(\d+)$/.exec(control);
  if (!parts || Number(parts[1]) % 60 !== 0) return control;
  return t('clockControl', { minutes: Number(parts[1]) / 60, seconds: parts[2] });
}

/** The "My games" page. */
export class MyGames {
  /**
   * `panel`: the element it fills; `open(id)`: shows the archive's game `id` on the board
   * (see `openStored`); `levels()`: the named levels; `levelName(level)`: a level as the
   * level menu names it; `notation()`: the notation chosen, for the export.
   */
  constructor(panel, { open, levels, levelName, notation }) {
    this.panel = panel;
    this.openGame = open;
    this.levels = levels;
    this.levelName = levelName;
    this.notation = notation;
    this.filters = { result: '', level: '' };
    this.note = '';
  }

  /** Shows the page again in the language just chosen, when it is on screen. */
  relabel() {
    if (!this.panel.hidden) this.show();
  }

  /** Shows the page with the list as it stands. */
  async show() {
    this.panel.replaceChildren();
    const title = document.createElement('h2');
    title.textContent = t('myGames');
    const status = document.createElement('p');
    status.className = 'archive-status';
    status.id = 'archive-status';
    status.setAttribute('role', 'status');
    this.panel.append(title, status);
    let state;
    try {
      state = await api.archiveState();
    } catch (e) {
      status.textContent = explainError(e);
      return;
    }
    if (!state.available) {
      status.textContent = explainArchiveReason(state.error?.params?.reason, state.error?.params?.path);
      status.classList.add('bad');
      return;
    }
    status.textContent = this.note;
    this.panel.append(this.controls());
    const list = document.createElement('div');
    list.className = 'archive-list';
    this.panel.append(list);
    await this.fill(list);
  }

  /** The filters and the export and import buttons. */
  controls() {
    const row = document.createElement('div');
    row.className = 'row archive-controls';
    const select = (id, label, options, key) => {
      const wrap = document.createElement('label');
      const span = document.createElement('span');
      span.textContent = label;
      const s = document.createElement('select');
      s.id = id;
      for (const [value, text] of options) {
        const o = document.createElement('option');
        o.value = value;
        o.textContent = text;
        s.append(o);
      }
      s.value = this.filters[key];
      s.addEventListener('change', () => {
        this.filters[key] = s.value;
        this.note = '';
        this.show();
      });
      wrap.append(span, ' ', s);
      return wrap;
    };
    row.append(select('archive-result', t('archive.result'), [
      ['', t('archive.anyResult')],
      ['red-wins', t('wins.red')],
      ['black-wins', t('wins.black')],
      ['draw', t('draw')],
    ], 'result'));
    row.append(select('archive-level', t('archive.opponent'), [
      ['', t('archive.anyOpponent')],
      ...this.levels().map((l) => [String(l.level), this.levelName(l.level)]),
    ], 'level'));
    const button = (id, text, action) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.id = id;
      b.textContent = text;
      b.addEventListener('click', action);
      return b;
    };
    const file = document.createElement('input');
    file.type = 'file';
    file.id = 'archive-file';
    file.accept = '.pgn,.xqf,.txt,.ubb,.dhtml';
    file.hidden = true;
    file.addEventListener('change', () => {
      const chosen = file.files?.[0];
      file.value = '';
      if (chosen) this.importFile(chosen);
    });
    row.append(
      button('archive-export', t('archive.exportAll'), () => this.exportAll()),
      button('archive-import', t('archive.import'), () => file.click()),
      file,
    );
    return row;
  }

  /** Asks for the page of the list that starts at `offset`, openings named in the page's language. */
  page(offset) {
    const query = new URLSearchParams({ lang: currentLanguage() });
    if (this.filters.result) query.set('result', this.filters.result);
    if (this.filters.level) query.set('level', this.filters.level);
    if (offset) query.set('offset', String(offset));
    return api.archivedGames(query);
  }

  /** Fills `list` with the games the filters choose, newest first, a page at a time. */
  async fill(list) {
    let answer;
    try {
      answer = await this.page(0);
    } catch (e) {
      list.textContent = explainError(e);
      return;
    }
    if (!answer.games.length) {
      const p = document.createElement('p');
      p.className = 'archive-empty';
      p.textContent = t('archive.empty');
      list.append(p);
      return;
    }
    const table = document.createElement('table');
    const head = table.createTHead().insertRow();
    for (const key of ['archive.date', 'archive.players', 'level', 'archive.result', 'archive.opening', 'moves', 'clock', '']) {
      const th = document.createElement('th');
      th.textContent = key ? t(key) : '';
      head.append(th);
    }
    const body = table.createTBody();
    list.append(table);
    // The list comes a page at a time; "Show more" asks for the next one.
    const more = document.createElement('button');
    more.type = 'button';
    more.id = 'archive-more';
    more.className = 'archive-more';
    const show = (page) => {
      for (const game of page.games) this.addRow(body, game);
      more.hidden = page.next === null;
      more.textContent = t('archive.more', { count: page.total - body.rows.length });
      more.onclick = async () => {
        more.disabled = true;
        try {
          show(await this.page(page.next));
        } catch (e) {
          this.say(explainError(e));
        }
        more.disabled = false;
      };
    };
    show(answer);
    list.append(more);
  }

  /** Adds the row of `game` to the table body `body`. */
  addRow(body, game) {
    const row = body.insertRow();
    row.dataset.id = String(game.id);
    row.dataset.key = game.key;
    row.classList.toggle('in-progress', !game.finished);
    const level = game.level === null ? (game.source === 'imported' ? t('archive.imported') : t('twoPlayers')) : this.levelName(game.level);
    // Names the app gave are said in the language of now, whatever the language they were kept in.
    const named = (name) => nameSaid(name, () => (game.level === null || game.level === undefined ? null : this.levelName(game.level))) || '?';
    const cells = [game.date, `${named(game.red)} – ${named(game.black)}`, level, resultText(game), game.opening ?? '', String(game.moves)];
    for (const text of cells) row.insertCell().textContent = text;
    const clock = row.insertCell();
    clock.className = 'archive-clock';
    clock.textContent = timeControlText(game.time_control);
    clock.title = timeControlWords(game.time_control);
    const actions = row.insertCell();
    const open = document.createElement('button');
    open.type = 'button';
    open.dataset.open = String(game.id);
    open.textContent = game.finished ? t('archive.replay') : t('archive.resume');
    open.addEventListener('click', () => this.openGame(game.id));
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.dataset.delete = String(game.id);
    remove.textContent = t('archive.delete');
    remove.addEventListener('click', () => this.remove(game));
    actions.append(open, ' ', remove);
  }

  /** Says `text` on the page. */
  say(text) {
    this.note = text;
    const status = this.panel.querySelector('#archive-status');
    if (status) status.textContent = text;
  }

  async remove(game) {
    const text = t('archive.confirmDelete', { date: game.date, red: game.red || '?', black: game.black || '?' });
    const choice = await ask(text, [
      { key: 'delete', label: t('archive.delete') },
      { key: 'keep', label: t('cancel'), primary: true },
    ]);
    if (choice !== 'delete') return;
    try {
      await api.deleteArchived(game.id);
      this.note = t('archive.deleted');
    } catch (e) {
      this.note = explainError(e);
    }
    this.show();
  }

  async exportAll() {
    const format = this.notation() === 'iccs' ? 'pgn-iccs' : this.notation() === 'chinese' ? 'pgn-chinese' : 'pgn-wxf';
    try {
      const { name } = await api.exportArchive(format, 'xiangqi-games.pgn');
      this.say(t('saved', { name }));
    } catch (e) {
      this.say(explainError(e));
    }
  }

  async importFile(file) {
    try {
      const answer = await api.importArchive(file.name, file);
      let text = t('archive.importedCount', { count: answer.imported, name: file.name });
      if (answer.broken.length) {
        const what = answer.broken.map(explainRecordNote).join('; ');
        text = sentences(text, t('archive.skippedGames', { count: answer.broken.length, what }));
      }
      if (answer.warnings.length) text = sentences(text, t('skipped', { what: answer.warnings.map(explainRecordNote).join('; ') }));
      this.note = text;
    } catch (e) {
      this.note = t('badRecord', { name: file.name, reason: explainError(e) });
    }
    this.show();
  }
}
