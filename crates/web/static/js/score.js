// How the page writes an evaluation: pawns with two decimals, or the moves to mate; and an
// endgame table's exact result.

import { t } from './i18n.js';

const signOf = (n) => (n > 0 ? '+' : n < 0 ? '−' : '');

/**
 * A score as the server sends it, `{cp}` or `{mate}` (moves, positive when the side it is
 * counted for mates), as the page shows it: pawns (`+1.35`), or the moves to mate (`+M2`,
 * `−M3`); `?` when there is none.
 */
export function scoreText(score) {
  if (!score) return '?';
  if (score.mate !== undefined) return `${signOf(score.mate)}M${Math.abs(score.mate)}`;
  return `${signOf(score.cp)}${(Math.abs(score.cp) / 100).toFixed(2)}`;
}

/**
 * An endgame table's result as the server sends it, `{result, mate_in}` (`red`, `black` or
 * `draw`, and the winner's moves to mate): `Red wins: mate in 14 (table)`, `Draw (table)`.
 */
export function tableText(table) {
  return table.result === 'draw' ? t('table.draw') : t(`table.${table.result}`, { n: table.mate_in });
}
