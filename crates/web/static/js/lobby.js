// The lobby of a club's server (`#/lobby`): the open challenges, live, and a form to post one
// (a time control, rated or casual, a side, the rules). Accepting a challenge, or having one's
// own accepted, opens the new room with one's seat.

import * as api from './api.js';
import { actionButton, element, labelledSelect } from './elements.js';
import { t } from './i18n.js';
import { defaultName, whoAmI } from './me.js';
import { explainError } from './reasons.js';
import { CLOCKS, keepToken } from './rooms.js';

/** A challenge's time control as the lobby shows it: "5+3", or "no clock". */
function clockText(seek) {
  if (!seek.seconds && !seek.increment) return t('room.time.none');
  const minutes = seek.seconds % 60 === 0 ? seek.seconds / 60 : (seek.seconds / 60).toFixed(1);
  return `${minutes}+${seek.increment}`;
}

export class Lobby {
  constructor(root, { go }) {
    this.root = root;
    this.go = go;
    this.source = null;
    this.seeks = [];
    this.message = '';
    this.me = null;
    root.addEventListener('click', (e) => {
      const button = e.target.closest('[data-lobby]');
      if (button) this.act(button.dataset.lobby, button.dataset.seek);
    });
  }

  async open() {
    this.me = await whoAmI();
    this.message = '';
    this.listen();
    this.render();
  }

  /** Stops listening (another view is shown); one's challenges close with it. */
  /** The words again in the language chosen now, while the lobby is shown. */
  relabel() {
    if (!this.root.hidden) this.render();
  }

  close() {
    this.source?.close();
    this.source = null;
  }

  listen() {
    if (this.source) return;
    const source = api.lobbyStream();
    this.source = source;
    source.addEventListener('seeks', (e) => {
      this.seeks = JSON.parse(e.data).seeks;
      this.render();
    });
    source.addEventListener('matched', (e) => {
      const seat = JSON.parse(e.data);
      keepToken(seat.id, seat.token);
      this.close();
      this.go(seat.id);
    });
  }

  async act(action, id) {
    try {
      if (action === 'post') {
        const form = this.root.querySelector('form.lobby-new');
        const data = new FormData(form);
        const [minutes, increment] = (data.get('clock') || '0+0').split('+').map(Number);
        await api.postSeek({
          minutes, increment, side: data.get('side'), rules: data.get('rules'),
          rated: data.get('rated') === 'on', name: await defaultName(),
        });
        this.message = t('lobby.posted');
      } else if (action === 'cancel') {
        await api.cancelSeek(id);
      } else if (action === 'accept') {
        const seat = await api.acceptSeek(id, await defaultName());
        keepToken(seat.id, seat.token);
        this.close();
        this.go(seat.id);
        return;
      }
    } catch (e) {
      this.message = explainError(e);
    }
    this.render();
  }

  renderForm() {
    const form = element('form', { class: 'lobby-new' });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.act('post');
    });
    form.append(
      labelledSelect(t('room.time'), { name: 'clock' }, CLOCKS.map(([v, k]) => [v, v ? k : t(k)]), '5+3'),
      labelledSelect(t('room.side'), { name: 'side' }, [['random', t('room.side.random')], ['red', t('red')], ['black', t('black')]], 'random'),
      labelledSelect(t('room.rules'), { name: 'rules' }, [['asian', t('room.rules.asian')], ['cxq', t('room.rules.cxq')]], 'asian'),
    );
    if (this.me?.account) {
      const rated = element('label', { class: 'room-rated' });
      rated.append(element('input', { type: 'checkbox', name: 'rated', checked: '' }), element('span', {}, t('lobby.rated')));
      form.append(rated);
    }
    form.append(actionButton('lobby', 'post', t('lobby.post'), { class: 'primary' }));
    return form;
  }

  renderSeeks() {
    if (this.seeks.length === 0) return element('p', { class: 'lobby-empty' }, t('lobby.empty'));
    const table = element('table', { class: 'lobby-seeks' });
    const head = element('tr');
    for (const key of ['lobby.player', 'lobby.rating', 'room.time', 'lobby.mode', 'room.side', '']) head.append(element('th', {}, key ? t(key) : ''));
    table.append(element('thead'), element('tbody'));
    table.tHead.append(head);
    for (const seek of this.seeks) {
      const row = element('tr', { 'data-seek': seek.id });
      const who = element('td');
      if (seek.account) who.append(element('a', { href: `#/@/${encodeURIComponent(seek.account)}` }, seek.name));
      else who.append(seek.name);
      const rating = seek.rating === null ? '—' : `${seek.rating}${seek.provisional ? '?' : ''}`;
      const side = seek.side === 'random' ? t('room.side.random') : t(seek.side);
      row.append(who, element('td', {}, rating), element('td', {}, `${clockText(seek)} · ${t(`lobby.speed.${seek.speed}`)}`),
        element('td', {}, t(seek.rated ? 'lobby.ratedShort' : 'lobby.casualShort')), element('td', {}, side));
      const act = element('td');
      if (seek.mine) act.append(actionButton('lobby', 'cancel', t('cancel'), { 'data-seek': seek.id }));
      else act.append(actionButton('lobby', 'accept', t('lobby.accept'), { 'data-seek': seek.id, class: 'primary' }));
      row.append(act);
      table.tBodies[0].append(row);
    }
    return table;
  }

  render() {
    if (!this.me) return;
    const parts = [element('h2', {}, t('lobby.title'))];
    if (this.me.mode !== 'site') {
      parts.push(element('p', {}, t('lobby.ownApp')));
    } else {
      parts.push(element('p', {}, t('lobby.intro')), this.renderForm(), this.renderSeeks());
    }
    parts.push(element('p', { class: 'message', role: 'alert', 'data-lobby-message': '' }, this.message));
    this.root.replaceChildren(...parts);
  }
}
