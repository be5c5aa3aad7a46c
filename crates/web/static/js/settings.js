// Settings and the unfinished game, kept in localStorage so that they survive a reload.

import { LANGUAGES } from './i18n.js';

const SETTINGS_KEY = 'xiangqi.settings';
const GAME_KEY = 'xiangqi.game';

/** The settings used before the user changes any. */
export const DEFAULTS = {
  language: 'en', notation: 'wxf', pieceTheme: 'beijing', boardTheme: 'wood', pieceStyle: 'characters',
  // The characters drawn (simplified or traditional), and in the mixed style how many kinds of
  // piece are drawn as characters (see pieces.js).
  characterSet: 'simplified', knownPieces: 0,
  // The board's sounds (a move, a capture, a check, the end).
  sound: true,
  mode: 'engine', humanColor: 'red', level: 0, markers: true, analysis: false, flipped: false, clock: 'off',
  // Ask before a move that leaves a piece hanging: null follows the level.
  safetyNet: null,
};

/** The value kept under `key` in localStorage, or null when there is none or it is unreadable. */
export function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

/** Keeps `value` under `key` in localStorage. */
export function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the app works, only without memory.
  }
}

/**
 * The interface language the browser asks for (`navigator.languages`, in its order of
 * preference: `ru-RU` gives Russian, `zh-CN` or `zh-TW` Chinese); English when it asks for
 * none of ours.
 */
export function browserLanguage(tags = globalThis.navigator?.languages ?? []) {
  for (const tag of tags) {
    const language = String(tag).toLowerCase().split('-')[0];
    if (Object.hasOwn(LANGUAGES, language)) return language;
  }
  return 'en';
}

/** The notation a language's players read until one is chosen: Chinese in Chinese, WXF otherwise. */
export function notationFor(language) {
  return language === 'zh' ? 'chinese' : 'wxf';
}

/**
 * The saved settings, with defaults for anything missing; the language follows the browser
 * until one is chosen, and the notation the language until one is chosen (`notationChosen`).
 */
export function loadSettings() {
  const saved = read(SETTINGS_KEY) ?? {};
  const settings = { ...DEFAULTS, language: browserLanguage(), ...saved };
  if (!saved.notationChosen && !saved.notation) settings.notation = notationFor(settings.language);
  return settings;
}

/** Saves `settings`. */
export function saveSettings(settings) {
  write(SETTINGS_KEY, settings);
}

/** The saved game as `{fen, moves, redo, clock}`, or null. */
export function loadGame() {
  return read(GAME_KEY);
}

/** Saves the game shown by the server view `game`, with its `clock` when given. */
export function saveGame(game, clock = null) {
  write(GAME_KEY, { fen: game.start_fen, moves: game.moves.map((m) => m.iccs), redo: game.redo, clock: clock?.toJSON() ?? null });
}
