// Play a friend: a room made here and joined by link (`#/room/<id>`), played over one
// socket per tab. The server is the referee and keeps the clocks; this view sends the
// clicks and shows what the room says. A seat's token is kept in localStorage, never in the
// link.

import * as api from './api.js';
import { renderAnalysis } from './analysis.js';
import { Board, endedShapes, lastMoveShapes, pickMove } from './board.js';
import { formatTime } from './clock.js';
import { ask } from './dialogs.js';
import { actionButton, element, labelledSelect } from './elements.js';
import { t } from './i18n.js';
import { guestName, whoAmI } from './me.js';
import { explainError, explainOutcome } from './reasons.js';
import { pieceLook } from './pieces.js';
import { moveSound } from './sounds.js';

const TOKENS = 'xiangqi.roomTokens';
const NAME = 'xiangqi.roomName';
/** The clocks a room may be made with: bullet, blitz, rapid and classical, as minutes + seconds a move. */
/** The time controls a room or a challenge offers: `[value, label or its key]`. */
export const CLOCKS = [['', 'room.time.none'], ['1+0', '1+0'], ['2+1', '2+1'], ['3+0', '3+0'], ['3+2', '3+2'], ['5+0', '5+0'], ['5+3', '5+3'], ['10+5', '10+5'], ['15+10', '15+10'], ['30+0', '30+0']];

/** Puts `text` on the clipboard; whether it is there. */
async function copyText(text) {
  if (!navigator.clipboard?.writeText) return false;
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

function tokens() {
  try {
    return JSON.parse(localStorage.getItem(TOKENS) ?? '{}') ?? {};
  } catch {
    return {};
  }
}

/** Keeps (or forgets, for null) this browser's seat token in room `id`. */
export function keepToken(id, token) {
  const all = tokens();
  if (token) all[id] = token;
  else delete all[id];
  localStorage.setItem(TOKENS, JSON.stringify(all));
}

export class Rooms {
  constructor(root, settings, { go }) {
    this.root = root;
    this.settings = settings;
    this.go = go;
    /** Who one is (`GET /api/me`), once known. */
    this.me = null;
    /** The version of the room's last state shown. */
    this.version = -1;
    whoAmI().then((me) => {
      this.me = me;
      if (!this.root.hidden && !this.id) this.render();
    });
    this.socket = null;
    // Whether the socket has joined the room (false while it connects again).
    this.connected = false;
    this.id = null;
    this.room = null;
    this.role = null;
    this.selected = null;
    this.message = '';
    this.boardBox = element('div', { class: 'room-board' });
    this.board = new Board(this.boardBox, (square) => this.onPoint(square));
    this.ticker = null;
    // A spectator's analysis of the room's position: whether it was asked for, the stream,
    // and the lines as they came (kept across renders).
    this.watchAnalysis = false;
    this.analysisSource = null;
    this.analysedFen = null;
    this.analysisBox = element('div', { class: 'room-lines', 'aria-live': 'polite' });
    root.addEventListener('click', (e) => {
      const action = e.target.closest('[data-room]')?.dataset.room;
      if (action) this.act(action, e.target.closest('[data-room]'));
    });
  }

  /** The name one sits down with: the one typed last, else an account's, else a guest's. */
  defaultName() {
    const typed = localStorage.getItem(NAME);
    if (this.me?.account) return this.me.account.name;
    if (typed) return typed;
    return this.me?.guest ? guestName(this.me.guest) : '';
  }

  /** Shows room `id`, or the form that makes one. */
  open(id) {
    if (id && id === this.id && this.socket) return this.render();
    this.close();
    this.id = id ?? null;
    this.room = null;
    this.role = null;
    this.message = '';
    this.watchAnalysis = false;
    if (this.id) this.connect();
    this.render();
  }

  /** The words again in the language chosen now, while the room is shown. */
  relabel() {
    if (!this.root.hidden) this.render();
  }

  close() {
    if (this.socket) {
      this.socket.onclose = null;
      this.socket.close();
    }
    this.socket = null;
    clearInterval(this.ticker);
    this.ticker = null;
    this.stopAnalysis();
  }

  /** Whether this tab may show the analysis: a spectator's, while the players allow it. */
  get analysisAllowed() {
    const room = this.room;
    return this.role === 'spectator' && !!room && room.status !== 'waiting' && (room.analysis || room.status === 'over');
  }

  stopAnalysis() {
    this.analysisSource?.close();
    this.analysisSource = null;
    this.analysedFen = null;
    this.analysisBox.replaceChildren();
  }

  /**
   * Streams the analysis of the room's position while the spectator wants it and the players
   * allow it; a new position starts it again.
   */
  analyse() {
    const room = this.room;
    if (!this.watchAnalysis || !this.analysisAllowed || room.game.outcome) {
      this.stopAnalysis();
      return;
    }
    if (this.analysedFen === room.game.fen) return;
    this.stopAnalysis();
    this.analysedFen = room.game.fen;
    const version = room.game.moves.length;
    const source = api.roomAnalysisStream(room.id, 3, 30000);
    this.analysisSource = source;
    source.addEventListener('lines', (event) => {
      if (source !== this.analysisSource) return;
      const update = JSON.parse(event.data);
      if (update.version !== version) return;
      this.showAnalysis(update, version);
      if (update.done) source.close();
    });
    source.onerror = () => {
      if (source === this.analysisSource) source.close();
    };
  }

  /** Shows the analysis `update` of the position after `version` moves. */
  showAnalysis(update, version) {
    renderAnalysis(this.analysisBox, update, { fen: this.analysedFen, notation: this.settings.notation, heading: 'h3' });
    this.analysisBox.dataset.version = String(version);
  }

  connect() {
    const id = this.id;
    const socket = api.roomSocket(id);
    this.socket = socket;
    this.connected = false;
    socket.onopen = () => {
      socket.send(JSON.stringify({ type: 'join', token: tokens()[id] ?? null, name: this.defaultName() }));
    };
    socket.onmessage = (event) => this.receive(JSON.parse(event.data));
    socket.onclose = () => {
      if (this.socket !== socket || this.id !== id) return;
      // A dropped connection comes back in its seat (its token is kept); meanwhile nothing
      // can be sent, and the page says so.
      if (this.connected) {
        this.connected = false;
        this.selected = null;
        this.render();
      }
      setTimeout(() => {
        if (this.socket === socket && this.id === id) this.connect();
      }, 1000);
    };
  }

  receive(message) {
    if (message.type === 'welcome') {
      this.role = message.role;
      // A (re)joined socket takes the room's next state, whatever its version.
      if (!this.connected) this.version = -1;
      this.connected = true;
      if (message.token) keepToken(this.id, message.token);
    } else if (message.type === 'state') {
      // States come in order; one already seen (sent again on joining) changes nothing.
      if (this.room && message.version <= this.version) return;
      this.version = message.version;
      const before = this.room?.game.fen;
      const plies = this.room?.game.moves.length;
      this.room = message.room;
      // A move played in the room (by either side) is heard, once.
      if (plies !== undefined && this.room.game.moves.length === plies + 1) {
        moveSound(before, this.room.game.fen, { check: Boolean(this.room.game.check), ended: Boolean(this.room.game.outcome) });
      }
      this.receivedAt = Date.now();
      if (this.role === null) return;
      // A state that leaves the position as it was (someone came or went) keeps the piece
      // picked up.
      if (this.room.game.fen !== before || this.room.status !== 'playing') this.selected = null;
      if (!this.room.offer && this.message === t('room.offered')) this.message = '';
    } else if (message.type === 'crowd') {
      // Who is here; a crowd after a state this page has not seen asks for the room afresh.
      if (!this.room) return;
      if (message.version > this.version) this.send({ type: 'sync' });
      this.room.spectators = message.spectators;
      for (const side of ['red', 'black']) {
        if (this.room[side] && message[side]) Object.assign(this.room[side], message[side]);
      }
    } else if (message.type === 'error') {
      if (message.error.code === 'bad-seat-token') keepToken(this.id, null);
      if (message.error.code === 'no-room') this.id = null;
      this.message = explainError({ ...message.error, status: message.status });
    }
    this.render();
  }

  send(message) {
    if (api.socketOpen(this.socket)) this.socket.send(JSON.stringify(message));
  }

  get mySide() {
    return this.role === 'red' || this.role === 'black' ? this.role : null;
  }

  onPoint(square) {
    const room = this.room;
    if (!room || !this.connected || !this.mySide || room.status !== 'playing' || room.game.turn !== this.mySide) return;
    const pick = pickMove(room.game.fen, this.mySide, this.selected, square);
    this.selected = pick.selected ?? null;
    if (pick.move) {
      const from = pick.move.slice(0, 2);
      const to = pick.move.slice(2);
      this.message = '';
      this.send({ type: 'move', from, to });
    }
    this.drawBoard();
  }

  async act(action, target) {
    const offer = (kind) => {
      this.send({ type: 'offer', kind });
      this.message = t('room.offered');
    };
    switch (action) {
      case 'create': return this.create();
      case 'code': {
        const code = this.root.querySelector('[name=room-code]').value;
        try {
          const found = await api.roomOfCode(code);
          this.go(found.id);
        } catch (e) {
          this.message = explainError(e);
          this.render();
        }
        return;
      }
      case 'copy': {
        // "Copied" only when the clipboard took it: off a secure page there is no clipboard,
        // and the link is selected for the player to copy instead.
        const copied = await copyText(target.dataset.text);
        if (!copied) {
          const shown = this.root.querySelector('.room-link');
          if (shown) getSelection()?.selectAllChildren(shown);
        }
        target.textContent = t(copied ? 'room.copied' : 'room.copyByHand');
        return;
      }
      case 'draw': offer('draw'); break;
      case 'takeback': offer('takeback'); break;
      case 'rematch': offer('rematch'); break;
      case 'resign': {
        const choice = await ask(t('room.resignAsk'), [
          { key: 'resign', label: t('room.resign') },
          { key: 'keep', label: t('cancel'), primary: true },
        ]);
        if (choice === 'resign') this.send({ type: 'resign' });
        break;
      }
      case 'claim': this.send({ type: 'claim' }); break;
      case 'admin-close': {
        const choice = await ask(t('room.adminCloseAsk'), [
          { key: 'close', label: t('room.adminClose') },
          { key: 'keep', label: t('cancel'), primary: true },
        ]);
        if (choice !== 'close') break;
        try {
          await api.closeRoom(this.id);
        } catch (e) {
          this.message = explainError(e);
        }
        break;
      }
      case 'accept': this.send({ type: 'answer', kind: this.room.offer.kind, accept: true }); break;
      case 'decline': this.send({ type: 'answer', kind: this.room.offer.kind, accept: false }); break;
      case 'analysis': this.send({ type: 'analysis', on: target.checked }); return;
      case 'watch-analysis':
        this.watchAnalysis = target.checked;
        this.analyse();
        return;
      default: return;
    }
    this.render();
  }

  async create() {
    const form = this.root.querySelector('form.room-new');
    const data = new FormData(form);
    const [minutes, increment] = (data.get('clock') || '0+0').split('+').map(Number);
    const name = String(data.get('name') ?? this.defaultName()).trim();
    if (data.has('name')) localStorage.setItem(NAME, name);
    try {
      const made = await api.newRoom({
        side: data.get('side'), minutes, increment, rules: data.get('rules'), name, rated: data.get('rated') === 'on',
      });
      keepToken(made.id, made.token);
      this.go(made.id);
    } catch (e) {
      this.message = explainError(e);
      this.render();
    }
  }

  /** The clocks as they run now: the server's figures less the time since they came. */
  clocksNow() {
    const c = this.room?.clocks;
    if (!c) return null;
    const spent = Date.now() - this.receivedAt;
    return {
      red: Math.max(0, c.red_ms - (c.running === 'red' ? spent : 0)),
      black: Math.max(0, c.black_ms - (c.running === 'black' ? spent : 0)),
    };
  }

  resultText() {
    const r = this.room.result;
    if (!r) return '';
    const winner = r.result === 'red-wins' ? 'red' : r.result === 'black-wins' ? 'black' : null;
    const result = winner ? t(`wins.${winner}`) : t('draw');
    const side = r.params?.loser ? t(r.params.loser) : '';
    const own = ['time', 'resignation', 'agreement', 'abandoned'].includes(r.code);
    const reason = own ? t(`room.end.${r.code}`, { side }) : explainOutcome(r);
    return t('gameOverLine', { result, reason });
  }

  drawBoard() {
    const room = this.room;
    if (!room) return;
    this.board.style = pieceLook(this.settings);
    this.board.notation = this.settings.notation;
    this.board.flipped = this.role === 'black';
    const mine = this.mySide && room.status === 'playing' && room.game.turn === this.mySide;
    this.board.render({
      fen: room.game.fen,
      selected: this.selected,
      targets: mine && this.selected ? room.game.legal[this.selected] ?? [] : [],
      check: room.game.check,
      shapes: [...lastMoveShapes(room.game.last_move), ...endedShapes(room.game.fen, room.game.outcome)],
    });
  }

  renderForm() {
    const form = element('form', { class: 'room-new' });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.create();
    });
    let name;
    let rated = null;
    if (this.me?.account) {
      // An account plays under its own name, and may play for its rating.
      name = element('p', { class: 'room-playing-as' }, t('room.playingAs', { name: this.me.account.name }));
      rated = element('label', { class: 'room-rated' });
      rated.append(element('input', { type: 'checkbox', name: 'rated' }), element('span', {}, t('room.rated')));
    } else {
      name = element('label');
      name.append(element('span', {}, t('room.name')), element('input', { name: 'name', maxlength: '40', value: this.defaultName() }));
    }
    form.append(
      element('p', {}, t('room.intro')),
      name,
      ...(rated ? [rated] : []),
      labelledSelect(t('room.side'), { name: 'side' }, [['random', t('room.side.random')], ['red', t('red')], ['black', t('black')]], 'random'),
      labelledSelect(t('room.time'), { name: 'clock' }, CLOCKS.map(([v, k]) => [v, v ? k : t(k)]), ''),
      labelledSelect(t('room.rules'), { name: 'rules' }, [['asian', t('room.rules.asian')], ['cxq', t('room.rules.cxq')]], 'asian'),
      actionButton('room', 'create', t('room.create'), { class: 'primary' }),
    );
    const code = element('div', { class: 'room-code-entry' });
    code.append(element('span', {}, t('room.enterCode')), element('input', { name: 'room-code', maxlength: '12', 'aria-label': t('room.code') }),
      actionButton('room', 'code', t('room.join')));
    return [form, code];
  }

  seatRow(side) {
    const seat = this.room[side];
    const clocks = this.clocksNow();
    const row = element('div', { class: 'room-seat', 'data-side': side });
    const label = element('span', { class: 'room-name' }, `${t(side)}: `);
    if (seat?.account) label.append(element('a', { href: `#/@/${encodeURIComponent(seat.account)}`, 'data-profile': seat.account }, seat.name));
    else label.append(seat ? seat.name : '—');
    row.append(label);
    if (seat && !seat.present) row.append(element('span', { class: 'room-away' }, t('room.away', { name: seat.name })));
    if (clocks) {
      row.append(element('span', {
        class: `room-clock${this.room.clocks.running === side ? ' running' : ''}`, 'data-clock': side,
      }, formatTime(clocks[side])));
    }
    return row;
  }

  renderRoom() {
    const room = this.room;
    if (!room) return [];
    const top = this.role === 'black' ? 'red' : 'black';
    const bottom = top === 'red' ? 'black' : 'red';
    // The board with both players' rows in one column, sized to the window's height; the
    // rest beside it, so that one's own clock, an offer and the buttons stay in view.
    const play = element('div', { class: 'room-play' });
    play.append(this.seatRow(top), this.boardBox, this.seatRow(bottom));
    const parts = [];
    const status = element('p', { class: 'room-status', 'data-status': room.status });
    if (room.result) status.textContent = this.resultText();
    else if (room.closed) status.textContent = t('room.closedByAdmin');
    else if (room.status === 'waiting') status.textContent = t('room.waiting');
    else status.textContent = t(room.game.check ? `inCheck.${room.game.turn}` : `turn.${room.game.turn}`);
    parts.push(status);
    const who = element('p', { class: 'room-role', 'data-role': this.role ?? '' },
      this.mySide ? t('room.youPlay', { side: t(this.mySide), sideOf: t(`of.${this.mySide}`) }) : this.role ? t('room.watching') : '');
    parts.push(who, element('p', { class: 'room-spectators' }, t('room.spectators', { n: room.spectators })));
    parts.push(element('p', { class: 'room-kind', 'data-rated': String(room.rated) }, t(room.rated ? 'room.ratedGame' : 'room.casualGame')));
    if (this.me?.account?.role === 'admin' && !room.closed) {
      parts.push(actionButton('room', 'admin-close', t('room.adminClose')));
    }
    if (room.offer) {
      const offer = element('div', { class: 'room-offer', 'data-offer': room.offer.kind });
      offer.append(element('span', {}, t(`room.offer.${room.offer.kind}`, { side: t(room.offer.by) })));
      if (this.mySide && room.offer.by !== this.mySide) {
        offer.append(actionButton('room', 'accept', t('room.accept')), actionButton('room', 'decline', t('room.decline')));
      }
      parts.push(offer);
    }
    if (this.mySide) {
      const buttons = element('div', { class: 'room-actions' });
      if (room.status === 'playing') {
        buttons.append(
          actionButton('room', 'draw', t('room.offerDraw')),
          actionButton('room', 'takeback', t('room.takeback')),
          actionButton('room', 'resign', t('room.resign')),
        );
        const other = room[this.mySide === 'red' ? 'black' : 'red'];
        if (other && !other.present) buttons.append(actionButton('room', 'claim', t('room.claim')));
      } else if (room.status === 'over' && !room.closed) {
        buttons.append(actionButton('room', 'rematch', t('room.rematch')));
      }
      parts.push(buttons);
    }
    // A rated game is analysed for no one while it is played.
    if (this.mySide && !(room.rated && room.status === 'playing')) {
      const analysis = element('label', { class: 'room-analysis' });
      const box = element('input', { type: 'checkbox', 'data-room': 'analysis' });
      box.checked = room.analysis;
      analysis.append(box, element('span', {}, t('room.analysis')));
      parts.push(analysis);
    }
    if (room.game.opening && (this.mySide || room.analysis)) {
      const lang = document.documentElement.lang || 'en';
      parts.push(element('p', { class: 'room-opening' }, `${room.game.opening.code} ${room.game.opening.title[lang] ?? room.game.opening.name}`));
    } else if (!room.analysis && !this.mySide) {
      parts.push(element('p', { class: 'room-no-analysis' }, t('room.noAnalysis')));
    }
    if (this.analysisAllowed) {
      const watch = element('label', { class: 'room-watch-analysis' });
      const box = element('input', { type: 'checkbox', 'data-room': 'watch-analysis' });
      box.checked = this.watchAnalysis;
      watch.append(box, element('span', {}, t('room.watchAnalysis')));
      parts.push(watch, this.analysisBox);
    }
    parts.push(this.moveList());
    const link = `${location.origin}/#/room/${room.id}`;
    const share = element('div', { class: 'room-share' });
    share.append(
      element('span', {}, t('room.link')), element('code', { class: 'room-link' }, link),
      actionButton('room', 'copy', t('room.copy'), { 'data-text': link }),
      element('span', {}, t('room.code')), element('code', { class: 'room-short-code' }, room.code),
    );
    parts.push(share);
    const side = element('div', { class: 'room-side' });
    side.append(...parts);
    const body = element('div', { class: 'room-body' });
    body.append(play, side);
    return [body];
  }

  /** The moves of the game so far, numbered, in the notation the settings name. */
  moveList() {
    const list = element('ol', { class: 'room-moves', 'aria-label': t('moves') });
    const notation = this.settings.notation;
    this.room.game.moves.forEach((m, i) => {
      list.append(element('li', { 'data-ply': String(i + 1), value: String(Math.floor(i / 2) + 1) }, m[notation] ?? m.iccs));
    });
    return list;
  }

  render() {
    const view = element('div', { class: 'room', 'data-room-id': this.id ?? '', 'data-connected': String(this.connected) });
    view.append(element('h2', {}, t('room.title')));
    if (this.id) view.append(...this.renderRoom());
    else view.append(...this.renderForm());
    const lost = this.id && this.room && !this.connected;
    const message = element('p', { class: 'room-message', role: 'status' }, lost ? t('room.reconnecting') : this.message);
    // Beside the board, under the status, where a refusal is seen.
    const status = view.querySelector('.room-side .room-status');
    if (status) status.after(message);
    else view.append(message);
    this.root.replaceChildren(view);
    this.drawBoard();
    this.analyse();
    clearInterval(this.ticker);
    this.ticker = null;
    if (this.room?.clocks?.running) {
      this.ticker = setInterval(() => {
        const clocks = this.clocksNow();
        if (!clocks) return;
        for (const side of ['red', 'black']) {
          const node = this.root.querySelector(`[data-clock=${side}]`);
          if (node) node.textContent = formatTime(clocks[side]);
        }
      }, 200);
    }
  }
}
