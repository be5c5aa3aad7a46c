// The banner that says changes are not being saved: shown as soon as the server refuses a
// change it cannot save (a full disk, a read-only or locked file, the archive gone), with
// the reason, and taken away once the server says it keeps changes again, which it finds by
// itself when the fault passes.

import * as api from './api.js';
import { t } from './i18n.js';
import { explainError } from './reasons.js';

/** How often the page asks whether changes are kept again, while they are not. */
const RECHECK_MS = 3000;

export class SavingBanner {
  /** The banner in `box`, watching every refusal the page gets. */
  constructor(box) {
    this.box = box;
    this.timer = null;
    api.onNotSaved((error) => this.show(explainError(error)));
  }

  /** Shows the banner with `why` (the refusal in the page's language), and watches for changes being kept. */
  show(why) {
    this.box.textContent = t('notSaving', { why });
    this.box.hidden = false;
    if (!this.timer) this.timer = setInterval(() => this.recheck(), RECHECK_MS);
  }

  /** Asks the server whether changes are kept again; takes the banner away once they are. */
  async recheck() {
    try {
      const state = await api.archiveState();
      if (!state.saving) return;
    } catch {
      return;
    }
    clearInterval(this.timer);
    this.timer = null;
    this.box.hidden = true;
    this.box.textContent = '';
  }
}
