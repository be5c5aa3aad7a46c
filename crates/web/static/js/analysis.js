// The engine's analysis as the page shows it, for a game on the board and for a room's
// spectator alike: a heading with the verdict, then one row per line the engine found (its
// score, or an endgame table's exact result, and its first moves numbered).

import { element } from './elements.js';
import { t } from './i18n.js';
import { numberedMoves } from './notation.js';
import { scoreText, tableText } from './score.js';

/** How many moves of each line are shown. */
const MOVES_SHOWN = 10;

/** The moves of the engine's line `line` in `notation` (the server sends one list per notation). */
function lineMoves(line, notation) {
  return notation === 'iccs' ? line.pv : notation === 'chinese' ? line.pv_chinese : line.pv_wxf;
}

/**
 * Draws the analysis `update` (`{lines, done, table}` as the server streams it; `table` the
 * endgame table's exact result where one covers the position) into `box`, the position being
 * `fen`: the heading `heading` (an element name) names the side to move when `turn` is given.
 * The box carries the depth reached (`data-depth`) and the table's result (`data-table`).
 */
export function renderAnalysis(box, { lines, done, table }, { fen, notation, turn = null, heading = 'h2' }) {
  const best = lines[0]?.score_red ?? { cp: 0 };
  const verdict = table ? tableText(table) : t('scoreIs', { score: scoreText(best) });
  const side = turn ? ` (${t(`turn.${turn}`)})` : '';
  const title = element(heading, {}, `${t('analysis')}${side} — ${verdict}${done ? '' : ' …'}`);
  const list = element('ol');
  for (const line of lines) {
    const said = line.table ? tableText(line.table) : `${scoreText(line.score_red)}  (${t('depth')} ${line.depth})`;
    list.append(element('li', {}, `${said}  ${numberedMoves(lineMoves(line, notation).slice(0, MOVES_SHOWN), fen)}`));
  }
  box.replaceChildren(title, list);
  box.dataset.depth = String(lines[0]?.depth ?? 0);
  box.dataset.table = table ? table.result : '';
}
