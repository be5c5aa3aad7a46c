// The app's shell: makes every view, names their addresses in one table, does what the
// header's buttons and the settings ask, and starts the page.

import * as api from './api.js';
import { AccountBadge, AccountView } from './account.js';
import { MyGames, openStored } from './archive.js';
import { TIME_CONTROLS } from './clock.js';
import { element } from './elements.js';
import { Course, dismissWelcome, welcomeWanted } from './course.js';
import { Endgames } from './endgames.js';
import { Characters } from './characters.js';
import { pieceName, setLanguage, t, translatePage } from './i18n.js';
import { Legend } from './legend.js';
import { Lobby } from './lobby.js';
import { whoAmI } from './me.js';
import { Play } from './play.js';
import { syncProgress } from './progress.js';
import { Profile } from './profile.js';
import { Puzzles } from './puzzles.js';
import { explainError } from './reasons.js';
import { Rooms } from './rooms.js';
import { Router, panel } from './router.js';
import { loadSettings, notationFor, saveSettings } from './settings.js';
import { SavingBanner } from './saving.js';
import { Today } from './today.js';
import { Trainer } from './trainer.js';
import { LEARNING_ORDER, pieceLook } from './pieces.js';
import { soundsFollow } from './sounds.js';

const settings = loadSettings();
const $ = (id) => document.getElementById(id);
/** The named levels as the server lists them: `[{level, key, elo}]`. */
let levels = [];
/** The game opened from My games (`{id, version, row}`) while its address is shown. */
let openedRow = null;

/** A level as the level menu names it, e.g. "Beginner (~800 Elo)". */
function levelName(l) {
  return t('levelLabel', { name: t(`levels.${l.key}`), elo: l.elo });
}

/** Level `n` as the level menu names it, or "Level 5" for a level the menu does not list. */
function levelNumbered(n) {
  const shown = levels.find((l) => l.level === Number(n));
  return shown ? levelName(shown) : `${t('level')} ${n}`;
}

/** The address of each course's pages. */
const COURSE_ROUTES = { rules: 'learn', patterns: 'patterns' };
/** Tells the address bar what view `panel` shows now, while it is the one on screen. */
const noteShown = (panel, name, id, push) => {
  if (!$(panel).hidden) router.note(name, id, push);
};
new SavingBanner($('not-saving'));
const legend = new Legend($('legend'));
soundsFollow(() => settings.sound !== false);
const play = new Play($('game'), settings, {
  engineName: () => t('engineName', { level: levelNumbered(settings.level) }),
  onShown: (game) => {
    followOpenedRow(game);
    // A whole game played: the newcomer's welcome has done its work.
    if (game?.outcome && !$('welcome').hidden) {
      dismissWelcome();
      $('welcome').hidden = true;
    }
  },
});
const course = new Course(panel('course'), settings, {
  onLegend: () => legend.open(pieceLook(settings)),
  onShown: (courseId, lesson) => noteShown('course', COURSE_ROUTES[courseId], lesson, true),
});
const characters = new Characters(panel('characters', 'course'), settings, {
  // A round passed: the mixed style draws the pieces learnt as characters.
  onLearnt: (n) => {
    if (n <= settings.knownPieces) return;
    settings.knownPieces = n;
    saveSettings(settings);
    applySettings();
    followSettings('knownPieces');
  },
});
const endgames = new Endgames(panel('endgames', 'course'), settings, { onShown: (id) => noteShown('endgames', 'endgames', id, true) });
const puzzles = new Puzzles(panel('puzzles'), settings, { onShown: (id) => noteShown('puzzles', 'puzzles', id) });
const trainer = new Trainer(panel('trainer', 'trainer-view'), settings, {
  onShown: (run) => noteShown('trainer', 'trainer', run ? `${run.line}/${run.side}` : null, true),
});
const today = new Today(panel('today', 'today'));
const myGames = new MyGames(panel('archive'), {
  open: (id) => router.go('games', String(id)),
  levels: () => levels,
  levelName: (n) => levelNumbered(n),
  notation: () => settings.notation,
});
const accountView = new AccountView(panel('account', 'account-view'));
const accountBadge = new AccountBadge(document.querySelector('[data-account-link]'));
const lobby = new Lobby(panel('lobby', 'lobby-view'), { go: (id) => router.go('room', id) });
const profile = new Profile(panel('profile', 'profile-view'));
const rooms = new Rooms(panel('room', 'room-view'), settings, { go: (id) => router.go('room', id) });

/** Opens the archive's game `row` on the board, with its review started when `reviewed`. */
async function openRow(row, reviewed) {
  const route = router.current;
  try {
    const answer = await openStored(row);
    // An answer that comes once another view is chosen is not shown.
    if (router.current !== route) return;
    router.showPanel('game');
    await play.openArchived(answer, reviewed);
    openedRow = { id: answer.game.id, version: answer.game.version, row };
  } catch (e) {
    if (router.current !== route) return;
    router.showPanel('archive');
    await myGames.show();
    myGames.say(explainError(e));
  }
}

/** Once the game opened from My games changes on the board (now `game`), the address is Play's again. */
function followOpenedRow(game) {
  if (openedRow && router.current?.id !== openedRow.row) openedRow = null;
  if (openedRow && (game?.id !== openedRow.id || game.version !== openedRow.version)) {
    openedRow = null;
    router.note('play');
  }
}

/**
 * Every view of the app, in one place: its address (`#/<name>`, see router.js), the panel it
 * shows, the navigation link it belongs to (with the words of its own link, if it has one)
 * and what opening an id does.
 */
const router = new Router({
  play: { panel: 'game', nav: 'play', label: 'play', show: () => play.render() },
  today: { panel: 'today', nav: 'today', label: 'today.nav', show: () => today.open() },
  learn: { panel: 'course', nav: 'learn', label: 'learn', show: (lesson) => course.open('rules', lesson) },
  patterns: { panel: 'course', nav: 'learn', show: (lesson) => course.open('patterns', lesson) },
  endgames: { panel: 'endgames', nav: 'learn', show: (id) => endgames.open(id) },
  characters: { panel: 'characters', nav: 'learn', show: () => characters.open() },
  puzzles: { panel: 'puzzles', nav: 'puzzles', label: 'puzzles', show: (id) => puzzles.open(id) },
  trainer: {
    panel: 'trainer',
    nav: 'trainer',
    label: 'trainer',
    show: (id) => {
      const [line, side] = (id ?? '').split('/');
      return trainer.open(line && ['red', 'black'].includes(side) ? { line, side } : null);
    },
  },
  games: {
    panel: (row) => (row ? 'game' : 'archive'),
    nav: 'games',
    label: 'myGames',
    show: (row) => (row ? openRow(row, false) : myGames.show()),
  },
  review: { panel: 'game', nav: 'games', show: (row) => (row ? openRow(row, true) : play.render()) },
  room: { panel: 'room', nav: 'room', label: 'room.title', show: (id) => rooms.open(id) },
  lobby: { panel: 'lobby', nav: 'lobby', label: 'lobby.title', show: () => lobby.open() },
  '@': { panel: 'profile', nav: 'lobby', show: (name) => profile.open(name) },
  account: { panel: 'account', nav: 'account', show: () => accountView.show() },
}, 'play', {
  // The trainer's address before it had its own name.
  moved: { openings: 'trainer' },
  // The welcome goes once another view is chosen.
  onRoute: (name) => {
    if (name !== 'play') dismissWelcome();
    if (name !== 'lobby') lobby.close();
    openedRow = null;
  },
  onPanel: (id) => {
    $('welcome').hidden = id !== 'game' || !welcomeWanted();
    // The opponent, side, level and clock are Play's: another view (a room has its own
    // players and clock) does not show them.
    for (const row of document.querySelectorAll('#settings [data-play-only]')) row.hidden = id !== 'game';
  },
});
router.buildNav(document.querySelector('.app-nav'));
// The lobby is a club server's: one's own app has no one else to play there.
whoAmI().then((me) => {
  const link = document.querySelector('[data-nav="lobby"]');
  if (link) link.hidden = me.mode !== 'site';
});

/** What the header's and the welcome's buttons do; the game panel's are Play's own. */
const actions = {
  /** The mixed style draws one more kind of piece as characters. */
  'know-one-more'() {
    settings.knownPieces = Math.min(LEARNING_ORDER.length, Number(settings.knownPieces) + 1);
    saveSettings(settings);
    applySettings();
    followSettings('knownPieces');
  },
  'start-course'() {
    dismissWelcome();
    router.showPanel('course');
    course.start();
  },
  play() {
    dismissWelcome();
    router.go('play');
  },
  legend() {
    legend.open(pieceLook(settings));
  },
  settings() {
    const details = $('settings');
    details.open = true;
    details.scrollIntoView({ block: 'nearest' });
    details.querySelector('summary').focus();
  },
};

/** A choice list's options: one per `[value, text]`. */
const options = (pairs) => pairs.map(([value, text]) => element('option', { value }, text));

/** Sets the page as the settings say: the language, the themes, every setting's field. */
function applySettings() {
  setLanguage(settings.language);
  document.body.classList.toggle('board-green', settings.boardTheme === 'green');
  document.body.classList.toggle('board-wood', settings.boardTheme !== 'green');
  document.body.classList.toggle('pieces-taipei', settings.pieceTheme === 'taipei');
  document.body.classList.toggle('pieces-beijing', settings.pieceTheme !== 'taipei');
  translatePage();
  $('level').replaceChildren(...options(levels.map((l) => [String(l.level), levelName(l)])));
  $('clock-setting').replaceChildren(...options(Object.keys(TIME_CONTROLS).map((key) => {
    const [minutes, seconds] = key.split('+');
    return [key, key === 'off' ? t('clockOff') : t('clockControl', { minutes, seconds })];
  })));
  $('known-pieces').replaceChildren(...options(LEARNING_ORDER.map((_, n) => n).concat(LEARNING_ORDER.length).map((n) => [
    String(n), n === 0 ? t('knownNone') : `${n}: ${LEARNING_ORDER.slice(0, n).map((p) => pieceName(p).toLowerCase()).join(', ')}`,
  ])));
  document.querySelector('[data-mixed-only]').hidden = settings.pieceStyle !== 'mixed';
  document.querySelector('[data-characters-only]').hidden = settings.pieceStyle === 'european';
  document.querySelector('[data-action="know-one-more"]').disabled = settings.knownPieces >= LEARNING_ORDER.length;
  for (const input of document.querySelectorAll('[data-setting]')) {
    const value = settings[input.dataset.setting];
    if (input.type === 'checkbox') input.checked = Boolean(value);
    else input.value = String(value);
  }
  play.relabel();
  accountBadge.render();
}

/** A setting's field changed: the setting is kept and every view follows it. */
function settingChanged(event) {
  const input = event.target;
  const key = input.dataset.setting;
  const value = input.type === 'checkbox' ? input.checked : input.value;
  settings[key] = key === 'level' || key === 'knownPieces' ? Number(value) : value;
  if (key === 'notation') settings.notationChosen = true;
  // Until a notation is chosen, it follows the language: Chinese notation for Chinese.
  if (key === 'language' && !settings.notationChosen) settings.notation = notationFor(value);
  if (key === 'humanColor') settings.flipped = value === 'black';
  saveSettings(settings);
  applySettings();
  followSettings(key);
}

/** Every view follows the setting `key` just changed (and kept). */
function followSettings(key) {
  play.settingChanged(key);
  course.relabel();
  endgames.relabel();
  characters.relabel();
  puzzles.relabel();
  trainer.relabel();
  myGames.relabel();
  today.relabel();
  rooms.relabel();
  lobby.relabel();
  profile.relabel();
  if (router.current?.name === 'account') accountView.show();
}

/** The answer to a request the page made before the modules loaded, if it succeeded. */
async function early(key) {
  const pending = window.xiangqiEarly?.[key];
  if (!pending) return null;
  window.xiangqiEarly[key] = null;
  try {
    const response = await pending;
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

async function start() {
  for (const button of document.querySelectorAll('[data-action]')) {
    const action = actions[button.dataset.action];
    if (action) button.addEventListener('click', () => action());
  }
  for (const input of document.querySelectorAll('[data-setting]')) input.addEventListener('change', settingChanged);
  const loading = early('levels').then((l) => l ?? api.levels()).catch(() => []);
  applySettings();
  router.showPanel('game');
  const restored = play.restore(early('game'));
  const synced = syncProgress();
  levels = await loading;
  applySettings();
  await restored;
  await synced;
  await router.start();
  document.body.dataset.ready = 'true';
}

start();
