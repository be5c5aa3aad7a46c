// Games as files: download the game's record (PGN, XQF or DhtmlXQ) and import a record file
// into a new game.

import { ApiError } from './api.js';

/** The record formats the server writes, `pgn-wxf` being the default. */
export const FORMATS = ['pgn-iccs', 'pgn-wxf', 'pgn-chinese', 'xqf', 'dhtmlxq'];

async function failure(response) {
  const data = await response.json().catch(() => null);
  return new ApiError(response.status, data?.error);
}

/** The file name a Content-Disposition header gives, or `fallback`. */
function fileName(disposition, fallback) {
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition ?? '');
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // Fall through to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(disposition ?? '');
  return (plain && (plain[2] ?? plain[1].trim())) || fallback;
}

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
  const response = await fetch(`/api/games/${encodeURIComponent(id)}/record?${query}`);
  if (!response.ok) throw await failure(response);
  const blob = await response.blob();
  const extension = format.startsWith('pgn') ? 'pgn' : format === 'xqf' ? 'xqf' : 'txt';
  const name = fileName(response.headers.get('Content-Disposition'), `xiangqi.${extension}`);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
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
  const response = await fetch(`/api/games/import?${query}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/octet-stream' },
    body: await file.arrayBuffer(),
  });
  if (!response.ok) throw await failure(response);
  return response.json();
}
