// The move list of a game with variations: the main line row by row, each variation inline
// in parentheses after the move it stands beside, nested ones inside it. A move of the line
// being played (up to the position shown) shows its position when clicked; a move of
// another line, or one taken back, plays on in that line.

/** The number before the move that makes ply `ply` (from 1) from the start FEN: `3.` or `3…`. */
function moveNumber(ply, startFen) {
  const fields = startFen.split(' ');
  const blackFirst = fields[1] === 'b';
  const first = Number(fields[5]) || 1;
  const half = ply - 1 + (blackFirst ? 1 : 0);
  const number = first + Math.floor(half / 2);
  return half % 2 === 0 ? `${number}.` : `${number}…`;
}

/** Whether ply `ply` from the start FEN is a move of Red. */
function redMoves(ply, startFen) {
  return moveNumber(ply, startFen).endsWith('.');
}

/**
 * Fills the list `list` with the move tree of `game` (its `tree`): `notation` the notation
 * shown, `shown` the ply whose position the board shows, `browse(ply)` called for a move of
 * the line being played, `playVariation(variation, ply)` for a move of another line.
 */
export function renderMoveTree(list, game, { notation, shown, browse, playVariation }) {
  const start = game.start_fen;
  const span = (node) => {
    const s = document.createElement('span');
    s.textContent = node[notation];
    s.tabIndex = -1;
    if (node.played) {
      s.dataset.ply = String(node.ply);
      if (node.ply === shown) s.className = 'current';
      s.addEventListener('click', () => browse(node.ply));
    } else {
      const variation = node.on_current_line ? game.line : node.line;
      s.dataset.line = String(variation);
      s.dataset.linePly = String(node.ply);
      s.className = node.on_current_line ? 'ahead' : 'other-line';
      s.addEventListener('click', () => playVariation(variation, node.ply));
    }
    return s;
  };
  /** A variation inline: `(3… a b 4. c (…) d)`. */
  const inline = (nodes) => {
    const box = document.createElement('span');
    box.className = 'variation';
    box.append('(');
    nodes.forEach((node, i) => {
      if (i === 0 || redMoves(node.ply, start)) box.append(`${moveNumber(node.ply, start)} `);
      box.append(span(node), ' ');
      for (const v of node.variations) box.append(inline(v), ' ');
    });
    box.lastChild?.remove?.();
    box.append(')');
    return box;
  };
  list.replaceChildren();
  let row = null;
  const newRow = (ply) => {
    row = document.createElement('li');
    row.value = parseInt(moveNumber(ply, start), 10);
    list.append(row);
    if (!redMoves(ply, start)) {
      const gap = document.createElement('span');
      gap.textContent = '…';
      row.append(gap);
    }
  };
  for (const node of game.tree) {
    if (!row || redMoves(node.ply, start)) newRow(node.ply);
    row.append(span(node));
    if (node.variations.length) {
      const side = document.createElement('li');
      side.className = 'variations';
      for (const v of node.variations) side.append(inline(v), ' ');
      list.append(side);
      row = null;
    }
  }
}
