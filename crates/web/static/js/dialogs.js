// Questions the page asks before it acts: a modal dialog with a sentence and a few answers,
// answered by a click (or Escape, which is the last answer).

let open = null;

/**
 * Asks `text` with the answers `choices` = [{key, label, primary?}], the last one the answer
 * to Escape; resolves to the key of the answer chosen. A question asked while another is open
 * answers the older one with its last choice.
 */
export function ask(text, choices) {
  open?.cancel();
  const dialog = document.createElement('dialog');
  dialog.className = 'ask';
  dialog.id = 'ask';
  const p = document.createElement('p');
  p.textContent = text;
  const row = document.createElement('div');
  row.className = 'row';
  dialog.append(p, row);
  return new Promise((resolve) => {
    const fallback = choices[choices.length - 1].key;
    const done = (key) => {
      if (open?.dialog !== dialog) return;
      open = null;
      dialog.close();
      dialog.remove();
      resolve(key);
    };
    for (const choice of choices) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.choice = choice.key;
      button.textContent = choice.label;
      if (choice.primary) button.className = 'primary';
      button.addEventListener('click', () => done(choice.key));
      row.append(button);
    }
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      done(fallback);
    });
    open = { dialog, cancel: () => done(fallback) };
    document.body.append(dialog);
    dialog.showModal();
    row.querySelector('.primary, button')?.focus();
  });
}
