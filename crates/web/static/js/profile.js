// A player's profile on a club's server (`#/@/<name>`): their ratings by speed with the
// deviation (a provisional one marked "?"), their last rated games (each opening its room, and
// for the player themself their own review), and each rating's history as a chart.

import * as api from './api.js';
import { element, svgElement } from './elements.js';
import { t } from './i18n.js';
import { explainError } from './reasons.js';

/** The chart's size, in its own units. */
const WIDTH = 600;
const HEIGHT = 200;
const PAD = 30;
/** A colour a speed's line is drawn in. */
const COLOURS = { bullet: '#b22', blitz: '#c70', rapid: '#27a', classical: '#383' };

/** The history of each speed's rating as one SVG chart: time across, rating up. */
function chart(history) {
  const points = Object.values(history).flat();
  const svg = svgElement('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'profile-chart', role: 'img', 'aria-label': t('profile.history') });
  if (points.length === 0) return svg;
  const times = points.map(([ms]) => ms);
  const ratings = points.map(([, r]) => r);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const [r0, r1] = [Math.min(...ratings) - 20, Math.max(...ratings) + 20];
  const x = (ms) => PAD + (t1 === t0 ? (WIDTH - 2 * PAD) / 2 : ((ms - t0) / (t1 - t0)) * (WIDTH - 2 * PAD));
  const y = (r) => HEIGHT - PAD - ((r - r0) / (r1 - r0)) * (HEIGHT - 2 * PAD);
  svgElement('text', { x: 2, y: y(r1) + 4, class: 'profile-axis' }, svg).textContent = String(Math.round(r1));
  svgElement('text', { x: 2, y: y(r0) + 4, class: 'profile-axis' }, svg).textContent = String(Math.round(r0));
  for (const [speed, line] of Object.entries(history)) {
    const path = line.map(([ms, r]) => `${x(ms).toFixed(1)},${y(r).toFixed(1)}`).join(' ');
    svgElement('polyline', { points: path, fill: 'none', stroke: COLOURS[speed] ?? '#555', 'stroke-width': 2, 'data-speed': speed }, svg);
    for (const [ms, r] of line) svgElement('circle', { cx: x(ms), cy: y(r), r: 3, fill: COLOURS[speed] ?? '#555' }, svg);
  }
  return svg;
}

export class Profile {
  constructor(root) {
    this.root = root;
  }

  /** The words again in the language chosen now, while a profile is shown. */
  relabel() {
    if (!this.root.hidden && this.name !== undefined) this.open(this.name);
  }

  async open(name) {
    this.name = name;
    this.root.replaceChildren(element('p', {}, t('profile.loading')));
    let p;
    try {
      p = await api.player(name ?? '');
    } catch (e) {
      this.root.replaceChildren(element('p', { class: 'bad', role: 'alert' }, explainError(e)));
      return;
    }
    const since = new Date(p.since_ms).toLocaleDateString(document.documentElement.lang || 'en');
    const parts = [element('h2', { 'data-profile-name': p.name }, p.name), element('p', {}, t('profile.since', { date: since }))];
    const ratings = element('div', { class: 'profile-ratings' });
    if (p.ratings.length === 0) ratings.append(element('p', {}, t('profile.unrated')));
    for (const r of p.ratings) {
      const card = element('div', { class: 'profile-rating', 'data-speed': r.speed });
      card.append(element('strong', {}, t(`lobby.speed.${r.speed}`)),
        element('span', { class: 'profile-rating-value' }, `${r.rating}${r.provisional ? '?' : ''}`),
        element('span', {}, t('profile.deviation', { deviation: r.deviation, games: r.games })));
      ratings.append(card);
    }
    parts.push(ratings, element('h3', {}, t('profile.history')), chart(p.history), element('h3', {}, t('profile.games')));
    if (p.games.length === 0) parts.push(element('p', {}, t('profile.noGames')));
    else {
      const list = element('ul', { class: 'profile-games' });
      for (const g of p.games) {
        const change = g.rating[1] - g.rating[0];
        const item = element('li', { 'data-outcome': g.outcome });
        item.append(`${t(`profile.${g.outcome}`)} — ${t(g.side)}, ${t('profile.against', { name: g.opponent || '—' })}, ${t(`lobby.speed.${g.speed}`)} (${change >= 0 ? '+' : ''}${change}) `);
        item.append(element('a', { href: `#/room/${encodeURIComponent(g.room)}` }, t('profile.room')));
        if (g.row !== null) {
          item.append(' · ', element('a', { href: `#/review/${g.row}`, 'data-review': String(g.row) }, t('profile.review')));
        }
        list.append(item);
      }
      parts.push(list);
    }
    this.root.replaceChildren(...parts);
  }
}
