// Who one is, as the server says (`GET /api/me`): on the learner's own app the one owner; on a
// club's server a signed-in account or a guest, shown as "Guest 4821" in the page's language.
// Asked once per page load (signing in, up or out reloads the page).

import * as api from './api.js';
import { t } from './i18n.js';

let asked = null;

/** Who one is: `{mode: 'own' | 'site', sign_up, account: {name, role} | null, guest}`. */
export function whoAmI() {
  asked ??= api.me().catch(() => ({ mode: 'own', sign_up: null, account: null, guest: null }));
  return asked;
}

/** The name the page gives a guest: "Guest 4821" in the page's language. */
export const guestName = (number) => t('account.guest', { number });

/** The name one plays under when one gives none: the account's, a guest's, or none. */
export async function defaultName() {
  const me = await whoAmI();
  if (me.account) return me.account.name;
  return me.guest ? guestName(me.guest) : '';
}
