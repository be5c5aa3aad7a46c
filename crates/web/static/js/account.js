// Who one is on a club's server (`xiangqi serve`): the header names the account, or the
// guest ("Guest 4821"), and links to `#/account`, where one signs in or up, and once signed in
// changes the password, downloads all one's data, signs out or deletes the account. On the
// learner's own app there are no accounts: the header shows nothing and the view says so.
// Signing in, up or out reloads the page, so that every view shows the new owner's things.

import * as api from './api.js';
import { ask } from './dialogs.js';
import { element } from './elements.js';
import { t } from './i18n.js';
import { forgetProgress } from './progress.js';
import { guestName, whoAmI } from './me.js';
import { explainError } from './reasons.js';

/** The header's link to the account view, showing who one is (hidden on one's own app). */
export class AccountBadge {
  constructor(link) {
    this.link = link;
  }

  async render() {
    const who = await whoAmI();
    this.link.hidden = who.mode !== 'site';
    if (who.mode !== 'site') return;
    this.link.textContent = who.account ? who.account.name : `${guestName(who.guest)} · ${t('account.signIn')}`;
    this.link.dataset.signedIn = who.account ? 'true' : 'false';
  }
}

/** A labelled text field. */
function field(name, labelKey, type = 'text', autocomplete = 'off') {
  const input = element('input', { name, type, autocomplete, required: '', spellcheck: 'false' });
  const label = element('label', {}, '');
  label.append(element('span', {}, t(labelKey)), input);
  return label;
}

/** The account view: sign in and up, or one's account. */
export class AccountView {
  constructor(root) {
    this.root = root;
  }

  /** Says `text` under the forms, as an error when `bad`. */
  say(text, bad = true) {
    const note = this.root.querySelector('[data-account-message]');
    if (!note) return;
    note.textContent = text;
    note.classList.toggle('bad', bad);
  }

  /** A form that sends its fields to `send` and then reloads the page (or says why not). */
  form(titleKey, fields, buttonKey, send, attrs = {}) {
    const form = element('form', { class: 'account-form', ...attrs });
    form.append(element('h3', {}, t(titleKey)), ...fields,
      element('button', { type: 'submit', class: 'primary' }, t(buttonKey)));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const values = Object.fromEntries(new FormData(form).entries());
      try {
        await send(values);
      } catch (e) {
        this.say(explainError(e));
      }
    });
    return form;
  }

  async show() {
    const who = await whoAmI();
    this.root.replaceChildren(element('h2', {}, t('account.title')));
    const message = element('p', { class: 'message', role: 'alert', 'data-account-message': '' });
    if (who.mode !== 'site') {
      this.root.append(element('p', {}, t('account.ownApp')));
      return;
    }
    const reload = () => {
      // The next owner's progress comes from the server.
      forgetProgress();
      location.hash = '#/play';
      location.reload();
    };
    if (!who.account) {
      this.root.append(element('p', {}, t('account.guestNote', { name: guestName(who.guest) })));
      const signIn = this.form('account.signIn', [
        field('name', 'account.name', 'text', 'username'),
        field('password', 'account.password', 'password', 'current-password'),
      ], 'account.signIn', async (v) => {
        await api.signIn(v.name, v.password);
        reload();
      }, { 'data-form': 'sign-in' });
      const parts = [signIn];
      if (who.sign_up !== 'closed') {
        const fields = [
          field('name', 'account.name', 'text', 'username'),
          field('password', 'account.newPassword', 'password', 'new-password'),
        ];
        if (who.sign_up === 'invite') fields.push(field('invite', 'account.invite'));
        parts.push(this.form('account.signUp', fields, 'account.signUp', async (v) => {
          await api.signUp(v.name, v.password, v.invite);
          reload();
        }, { 'data-form': 'sign-up' }));
      } else {
        parts.push(element('p', {}, t('account.signUpClosed')));
      }
      this.root.append(element('div', { class: 'account-forms' }, ''), message);
      this.root.querySelector('.account-forms').append(...parts);
      return;
    }
    const { account } = who;
    this.root.append(element('p', { 'data-account-name': '' }, t('account.signedInAs', { name: account.name })));
    if (account.role === 'admin') this.root.append(element('p', {}, t('account.admin')));
    const actions = element('div', { class: 'row' });
    const out = element('button', { type: 'button', 'data-account': 'sign-out' }, t('account.signOut'));
    out.addEventListener('click', async () => {
      try {
        await api.signOut();
        reload();
      } catch (e) {
        this.say(explainError(e));
      }
    });
    const data = element('button', { type: 'button', 'data-account': 'data' }, t('account.download'));
    data.addEventListener('click', async () => {
      try {
        await api.downloadAccountData();
      } catch (e) {
        this.say(explainError(e));
      }
    });
    actions.append(out, data);
    const password = this.form('account.changePassword', [
      field('current', 'account.password', 'password', 'current-password'),
      field('new', 'account.newPassword', 'password', 'new-password'),
    ], 'account.changePassword', async (v) => {
      await api.changePassword(v.current, v.new);
      this.say(t('account.passwordChanged'), false);
    }, { 'data-form': 'password' });
    const remove = this.form('account.delete', [
      element('p', {}, t('account.deleteNote')),
      field('password', 'account.password', 'password', 'current-password'),
    ], 'account.delete', async (v) => {
      const sure = await ask(t('account.deleteConfirm', { name: account.name }), [
        { key: 'delete', label: t('account.delete') },
        { key: 'keep', label: t('cancel'), primary: true },
      ]);
      if (sure !== 'delete') return;
      await api.deleteAccount(v.password);
      reload();
    }, { 'data-form': 'delete' });
    this.root.append(actions, message, element('div', { class: 'account-forms' }, ''));
    this.root.querySelector('.account-forms').append(password, remove);
  }
}
