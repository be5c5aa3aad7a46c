// The tabs of Learn's sections: the rules course, the mating patterns, the endgames and the
// characters, each a link to its address, styled as the course's tabs.

import { element } from './elements.js';
import { t } from './i18n.js';

/** Each section: its id, its address and the key of its name. */
const SECTIONS = [
  ['rules', '#/learn', 'courseRules'],
  ['patterns', '#/patterns', 'coursePatterns'],
  ['endgames', '#/endgames', 'courseEndgames'],
  ['characters', '#/characters', 'courseCharacters'],
];

/** The tab of section `id`, marked when it is `current`. */
export function learnTab(id, current) {
  const [, href, label] = SECTIONS.find(([s]) => s === id);
  return element('a', { href, role: 'tab', 'data-learn-tab': id, 'aria-selected': String(id === current) }, t(label));
}

/** The tab bar of every section, `current` marked. */
export function learnTabs(current) {
  const tabs = element('div', { class: 'course-tabs', role: 'tablist' });
  for (const [id] of SECTIONS) tabs.append(learnTab(id, current));
  return tabs;
}
