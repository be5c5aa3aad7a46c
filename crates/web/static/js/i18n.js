// The interface in English, Russian and Chinese: every word of the page in one table per
// language (`../i18n/<language>.json`: the interface's strings, the piece names, and in
// Russian and Chinese the words for the server's reasons and refusals, which come in English
// from the server), and the current language.

import en from '../i18n/en.json' with { type: 'json' };
import ru from '../i18n/ru.json' with { type: 'json' };
import zh from '../i18n/zh.json' with { type: 'json' };

const STRINGS = { en, ru, zh };

/** The languages offered, by code. */
export const LANGUAGES = { en: 'English', ru: 'Русский', zh: '中文' };

let current = 'en';

/** Switches the interface language (`en`, `ru` or `zh`). */
export function setLanguage(lang) {
  current = STRINGS[lang] ? lang : 'en';
  document.documentElement.lang = current;
}

/** The plural categories in the order a counted blank lists its forms, by language. */
const PLURAL_ORDER = { en: ['one', 'other'], ru: ['one', 'few', 'many'], zh: ['other'] };

/** `n` with the form of `forms` (`ход|хода|ходов`) the language's plural rules choose for it. */
function counted(n, forms) {
  const category = new Intl.PluralRules(current).select(Number(n));
  const i = PLURAL_ORDER[current].indexOf(category);
  return `${n} ${forms[i >= 0 && i < forms.length ? i : forms.length - 1]}`;
}

/**
 * The string `key` in the current language with `{name}` blanks filled from `vars`; a counted
 * blank `{name#form|form…}` is the number with the word's form for it (`{n#ход|хода|ходов}`
 * gives `2 хода`, `5 ходов`).
 */
export function t(key, vars = {}) {
  const text = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return text
    .replace(/\{(\w+)#([^}]*)\}/g, (_, k, forms) => counted(vars[k] ?? '', forms.split('|')))
    .replace(/\{(\w+)\}/g, (_, k) => vars[k] ?? '');
}

/**
 * A player's name as kept with a game, said in the current language when it is one the app
 * gave in some language: "Player", "Red", "Black", or the engine's name at a level (then
 * `level()` words the level now); any other name (one a player typed) stays as it is.
 */
export function nameSaid(name, level = () => null) {
  if (!name) return name;
  for (const strings of Object.values(STRINGS)) {
    for (const key of ['you', 'red', 'black']) if (strings[key] === name) return t(key);
    const [before, after] = (strings.engineName ?? '').split('{level}');
    const said = level();
    if (said && after !== undefined && name.startsWith(before) && name.endsWith(after) && name.length > before.length + after.length) {
      return t('engineName', { level: said });
    }
  }
  return name;
}

/**
 * Sentences said one after another: with a space between them, or none in Chinese, whose
 * full stop needs no space after it.
 */
export function sentences(...parts) {
  return parts.filter((p) => p).join(current === 'zh' ? '' : ' ');
}

/** The code of the current interface language. */
export function currentLanguage() {
  return current;
}

/**
 * The current language's words for the server's `group` of codes (`reasons`: why a move is
 * illegal or a game ended; `errors`: why a FEN, a record or a request was refused), or null in
 * English, where the server's own message is shown.
 */
export function serverWords(group) {
  return STRINGS[current][group] ?? null;
}

/** The name of the piece with FEN letter `letter` (upper case Red) in the current language. */
export function pieceName(letter) {
  const names = STRINGS[current].pieces;
  return names[letter] ?? names[letter.toLowerCase()];
}

/** Fills every element carrying `data-i18n` (text) or `data-i18n-label` (aria-label). */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-label]')) {
    el.setAttribute('aria-label', t(el.dataset.i18nLabel));
    el.title = t(el.dataset.i18nLabel);
  }
}
