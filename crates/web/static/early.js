// Loaded before the modules, as a plain script of the page's own (no inline script, so that
// the content security policy allows only the app's files).
// Asks for the saved game and the levels at once, while the modules load.
try {
  const saved = JSON.parse(localStorage.getItem('xiangqi.game') || 'null');
  const body = saved ? { fen: saved.fen, moves: saved.moves, redo: saved.redo } : {};
  // A game saved in the archive comes back under its key, so that it keeps its row.
  const key = saved && JSON.parse(localStorage.getItem('xiangqi.archive') || 'null')?.key;
  const json = { method: 'POST', headers: { 'Content-Type': 'application/json' } };
  window.xiangqiEarly = {
    game: key
      ? fetch('/api/archive/resume', { ...json, body: JSON.stringify({ key, ...body }) })
      : fetch('/api/games', { ...json, body: JSON.stringify(body) }),
    levels: fetch('/api/levels'),
  };
} catch {
  window.xiangqiEarly = null;
}
