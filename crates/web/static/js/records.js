// Games as files: download the game's record (PGN, XQF or DhtmlXQ) and import a record file
// into a new game.

import * as api from './api.js';

/** The record formats the server writes, `pgn-wxf` being the default. */
export const FORMATS = ['pgn-iccs', 'pgn-wxf', 'pgn-chinese', 'xqf', 'dhtmlxq'];

/**
 * What the server says the format could not hold (the x-record-warnings header): warnings as
 * `{code, params, message}`, for the page to word.
 */
function writeWarnings(response) {
  try {
    const list = JSON.parse(response.headers.get('x-record-warnings') ?? '[]');
    return Array.isArray(list) ? list.filter((w) => w && typeof w === 'object') : [];
  } catch {
    return [];
  }
}

/**
 * Downloads the record of game `id` in `format` (one of FORMATS), with the players' names
 * `names` = `{red, black}` where given; answers `{name, warnings}`: the file name and what the
 * format could not hold (cut names or comments, tags it has no field for) as
 * `{code, params, message}`. Throws an ApiError
 * with the server's message when the server refuses.
 */
export async function downloadRecord(id, format = 'pgn-wxf', names = {}) {
  const query = new URLSearchParams({ format });
  if (names?.red) query.set('red', names.red);
  if (names?.black) query.set('black', names.black);
  const extension = format.startsWith('pgn') ? 'pgn' : format === 'xqf' ? 'xqf' : 'txt';
  const { name, response } = await api.downloadRecord(id, query, `xiangqi.${extension}`);
  return { name, warnings: writeWarnings(response) };
}

/**
 * Imports the record file `file` (a File; game `index` of it, the first by default) into a new
 * game. Answers `{game, games, index, tags, result, warning, warnings, unreadable}`:
 * `warning` says what was cut off when only part of the game could be read, `warnings` what
 * text outside the games was skipped, `unreadable` which other games of the file are broken
 * and why (each as `{code, params, message}`); throws an ApiError with the server's message when the file cannot be read.
 */
export async function importRecord(file, index = 0) {
  const query = new URLSearchParams({ name: file.name ?? '', index: String(index) });
  const bytes = new Blob([await file.arrayBuffer()], { type: 'application/octet-stream' });
  return api.importRecord(query, bytes);
}
