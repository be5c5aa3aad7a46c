// The server's reasons — why a move is illegal, why a game ended, why a FEN or a record file
// cannot be read, why a request was refused — in the interface language, from the reason's
// code and its blanks. English comes from the server as it is.

import { currentLanguage, pieceName, serverWords, t } from './i18n.js';

function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ''));
}

function phrase(words, key, vars) {
  return fill(words[key], vars);
}

/** Whether the current language has its own text for reason `code`. */
function wordsFor(code) {
  const words = serverWords('reasons');
  return words && words[code] ? words : null;
}

/** Why a move is illegal, from the server's error (`code`, `params`, English `message`). */
export function explainIllegal(error) {
  const words = wordsFor(error.code);
  if (!words) return error.message;
  const p = error.params ?? {};
  const sep = words.listSeparator;
  const vars = { ...p };
  if (p.piece) vars.piece = pieceName(p.piece);
  if (p.points) vars.points = p.points.join(sep);
  if (p.attackers) {
    const list = p.attackers.map((a) => phrase(words, 'placedPiece', { piece: pieceName(a.piece), square: a.square }));
    vars.attackers = list.length ? phrase(words, 'attackersList', { list: list.join(sep) }) : '';
  }
  return phrase(words, error.code, vars);
}

/** Why a game ended, from the server's outcome (`code`, `params`, English `message`). */
export function explainOutcome(outcome) {
  const p = outcome.params ?? {};
  if (outcome.code === 'checkmate' || outcome.code === 'stalemate') {
    return t(`end.${outcome.code}.${p.loser}`);
  }
  const words = wordsFor(outcome.code);
  if (!words) return outcome.message;
  const sep = words.listSeparator;
  const pieces = (p.pieces ?? []).map((x) => phrase(words, p.unprotected ? 'unprotectedPiece' : 'placedPiece', {
    piece: pieceName(x.piece), square: x.square,
  }));
  return phrase(words, outcome.code, {
    ...p,
    loser: p.loser ? t(p.loser) : '',
    pieces: pieces.join(sep),
    span: phrase(words, 'span', p),
  });
}

/**
 * Why a FEN cannot be played, from the rules core's FEN code and blanks (`{code, params,
 * message}`, as `api.checkFen` answers); the English message when the language is English.
 */
export function explainFen(fault) {
  const words = serverWords('errors');
  const p = fault.params ?? {};
  let key = fault.code;
  if (key === 'fen-unreachable-point') {
    const kind = (p.piece ?? '').toLowerCase();
    key = kind === 'b' ? 'unreachable.elephant' : kind === 'p' ? 'unreachable.soldier' : 'unreachable.palace';
  }
  if (!words || !words[key]) return fault.message ?? '';
  const ru = currentLanguage() === 'ru';
  const vars = {
    ...p,
    side: p.side ? words[p.side] : '',
    sideOf: p.side ? words[`${p.side}Of`] : '',
    colour: p.side ? words[`${p.side}Colour`] : '',
    general: pieceName(p.side === 'black' ? 'k' : 'K'),
  };
  if (p.piece) vars.piece = ru ? pieceName(p.piece).toLowerCase() : pieceName(p.piece);
  return fill(words[key], vars);
}

/** The blanks of a record's move number (`12.` for Red, `12...` for Black): its number and side. */
function moveVars(words, p) {
  if (p.move === undefined) return p;
  const side = String(p.move).endsWith('...') ? 'black' : 'red';
  return { ...p, n: parseInt(p.move, 10), side: words[side], sideOf: words[`${side}Of`] };
}

/** Where in a record file an error is, from its blanks (game, line and column). */
function recordPlace(words, p) {
  if (p.game !== undefined && p.line !== undefined) return fill(words.where, p);
  if (p.game !== undefined) return fill(words.whereGame, p);
  if (p.line !== undefined) return fill(words.whereLine, p);
  return '';
}

/**
 * Any error the server answered (an `ApiError` with `code`, `params` and an English
 * `message`), or a failed request, in the interface language: the text for its code in the
 * language's `errors` words. The Russian and Chinese word lists word every code the server sends;
 * the English one only those the page words otherwise than the server's own message.
 */
export function explainError(error) {
  const words = serverWords('errors') ?? {};
  const p = error.params ?? {};
  if (error.code === 'bad-fen') return explainFen({ code: p.reason, params: p, message: error.message });
  const what = error.code === 'bad-record' && words[`record.${p.what}`];
  if (what) {
    const place = p.what === 'no-such-game' ? '' : recordPlace(words, p);
    return place + fill(what, moveVars(words, p));
  }
  if (wordsFor(error.code)) {
    const reason = explainIllegal(error);
    if (p.move === undefined) return reason;
    return recordPlace(words, p) + fill(words.recordMove, { ...moveVars(words, p), reason });
  }
  if (words[error.code]) return fill(words[error.code], p);
  if (!error.status) return words.offline ?? error.message;
  return words.refused ?? error.message;
}

/** Why My games cannot be kept, from the archive's reason code and its `path`. */
export function explainArchiveReason(reason, path) {
  const words = serverWords('errors') ?? {};
  return fill(words[reason] ?? words['archive-unavailable'], { path: path ?? '' });
}

/**
 * A move `move` (ICCS) that the server refused: `text`, a function that words why in the
 * interface language (an illegal move by its rule, any other refusal by `explain`), and
 * `marks`, the points to show (an illegal move's own, or its two points; none otherwise).
 */
export function refusedMove(error, move, explain = explainError) {
  if (error.status !== 422) return { text: () => explain(error), marks: [] };
  return {
    text: () => t('illegal', { reason: explainIllegal(error) }),
    marks: error.highlights.length ? error.highlights : [move.slice(0, 2), move.slice(2)],
  };
}

/** The kinds of warning a record reader or writer gives, as the server names them. */
const WARNINGS = ['skipped-text', 'tag-cut', 'comment-cut', 'tag-dropped', 'nags-dropped'];

/**
 * What the server said about a record file (`{code, params, message}`): a warning (text
 * skipped, a name or a comment cut, tags or NAGs left out) or the error that made a game of it
 * unreadable or cut it short, in the interface language.
 */
export function explainRecordNote(note) {
  if (!note) return '';
  if (!WARNINGS.includes(note.code)) return explainError({ status: 422, ...note });
  const words = serverWords('errors') ?? {};
  const p = note.params ?? {};
  const key = note.code === 'comment-cut' && !p.move ? 'warning.game-comment-cut' : `warning.${note.code}`;
  if (!words[key]) return note.message ?? '';
  const place = p.byte !== undefined ? fill(words.whereByte, p) : recordPlace(words, p);
  return place + fill(words[key], { ...moveVars(words, p), tag: words[`tag.${p.tag}`] ?? p.tag });
}
