// How the page writes moves: one move in the notation the settings chose, and a run of moves
// numbered as a record writes them.

/**
 * Move `move` as the server sends it (`{iccs, wxf, chinese}`, one field per notation) written
 * in `notation`; in ICCS when it has no text in that notation.
 */
export function moveText(move, notation) {
  return move[notation] ?? move.iccs;
}

/**
 * The moves `moves` (texts) played from position `fen` with their numbers, as a record writes
 * them: `12. a b 13. c`, or `12… b 13. c` when Black moves first.
 */
export function numberedMoves(moves, fen) {
  const fields = fen.split(' ');
  let number = Number(fields[5]) || 1;
  let red = fields[1] !== 'b';
  const parts = [];
  moves.forEach((m, i) => {
    if (red) parts.push(`${number}.`);
    else if (i === 0) parts.push(`${number}…`);
    parts.push(m);
    if (!red) number += 1;
    red = !red;
  });
  return parts.join(' ');
}
