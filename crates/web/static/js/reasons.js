// The server's reasons — why a move is illegal, why a game ended, why a FEN or a record file
// cannot be read, why a request was refused — in the interface language, from the reason's
// code and its blanks. English comes from the server as it is.

import { currentLanguage, pieceName, t } from './i18n.js';

const REASONS = {
  ru: {
    'no-piece-there': 'на {from} нет фигуры',
    'opponents-piece': 'это фигура соперника',
    'same-point': 'ход должен вести на другой пункт',
    'own-piece-on-target': 'нельзя бить свою фигуру ({piece} на {to})',
    'general-leaves-palace': 'генерал не может покинуть дворец',
    'advisor-leaves-palace': 'советники не покидают дворец',
    'general-move-shape': 'генерал ходит на один пункт вперёд, назад или в сторону',
    'advisor-move-shape': 'советник ходит на один пункт по диагонали',
    'elephant-move-shape': 'слон ходит ровно на два пункта по диагонали',
    'elephant-crosses-river': 'слоны не переходят реку',
    'elephant-eye-blocked': '«глаз» слона на {point} занят',
    'horse-move-shape': 'конь ходит на один пункт прямо и затем на один по диагонали наружу',
    'horse-leg-blocked': '«нога» коня на {point} занята',
    'chariot-move-shape': 'колесница ходит по прямой — по вертикали или горизонтали',
    'chariot-path-blocked': 'путь колесницы перекрыт фигурой на {point}',
    'cannon-move-shape': 'пушка ходит по прямой — по вертикали или горизонтали',
    'cannon-path-blocked': 'путь пушки перекрыт фигурой на {point}; пушка прыгает только при взятии',
    'cannon-needs-screen': 'пушка бьёт, перепрыгивая ровно через одну фигуру, а между ними фигур нет',
    'cannon-too-many-screens': 'пушка бьёт, перепрыгивая ровно через одну фигуру, а между ними их {count} ({points})',
    'soldier-moves-backward': 'солдаты никогда не ходят назад',
    'soldier-sideways-before-river': 'солдат ходит в сторону только после перехода реки',
    'soldier-move-shape': 'солдат ходит на один пункт вперёд, а за рекой — и на один в сторону',
    'leaves-general-in-check': 'после этого хода ваш генерал под шахом{attackers}',
    'generals-face': 'генералы окажутся лицом к лицу на вертикали {file}',
    attackersList: ' (от: {list})',
    unprotectedPiece: '{piece} на {square} (без защиты)',
    placedPiece: '{piece} на {square}',
    span: 'ходы {first}–{last}',
    'perpetual-check': '{loser}: вечный шах ({pieces}; {span}) — нарушение правил.',
    'perpetual-chase': '{loser}: вечное преследование — {pieces} ({span}) — нарушение правил.',
    'check-against-chase': '{loser} вечно шаховали, а соперник вечно преследовал: {pieces}; менять ходы должна шахующая сторона ({span}).',
    'mutual-check': 'Обе стороны вечно шаховали ({span}).',
    'mutual-chase': 'Обе стороны вечно преследовали ({span}).',
    repetition: 'Позиция повторилась без вечного шаха и преследования ({span}).',
    'no-capture': '{moves} ходов каждой стороны без взятий.',
    'insufficient-material': 'Ни у одной стороны не осталось фигур, способных поставить мат.',
    'cxq-efficiency': 'Каждая сторона сделала {moves} результативных ходов (правило эффективности CXQ).',
    'cxq-progress': '{moves} ходов каждой стороны без взятий и без продвижения перешедших реку пешек (правило CXQ).',
    'cxq-move-limit': 'Каждая сторона сделала {moves} ходов (предел ходов CXQ).',
  },
  zh: {
    'no-piece-there': '{from}没有棋子',
    'opponents-piece': '这是对方的棋子',
    'same-point': '必须走到另一个点',
    'own-piece-on-target': '不能吃自己的棋子（{to}的{piece}）',
    'general-leaves-palace': '帅（将）不能走出九宫',
    'advisor-leaves-palace': '仕（士）不能走出九宫',
    'general-move-shape': '帅（将）每次只能横竖走一格',
    'advisor-move-shape': '仕（士）每次只能斜走一格',
    'elephant-move-shape': '相（象）走田字，斜走两格',
    'elephant-crosses-river': '相（象）不能过河',
    'elephant-eye-blocked': '塞象眼：{point}有棋子',
    'horse-move-shape': '马走日字：先直走一格，再向外斜走一格',
    'horse-leg-blocked': '蹩马腿：{point}有棋子',
    'chariot-move-shape': '车只能沿直线横走或竖走',
    'chariot-path-blocked': '车的路线被{point}的棋子挡住',
    'cannon-move-shape': '炮只能沿直线横走或竖走',
    'cannon-path-blocked': '炮的路线被{point}的棋子挡住；炮只有吃子时才隔子跳',
    'cannon-needs-screen': '炮吃子必须隔一个棋子（炮架），中间没有棋子',
    'cannon-too-many-screens': '炮吃子只能隔一个棋子，中间却有{count}个（{points}）',
    'soldier-moves-backward': '兵（卒）不能后退',
    'soldier-sideways-before-river': '兵（卒）过河以后才能横走',
    'soldier-move-shape': '兵（卒）每次向前走一格，过河后也可横走一格',
    'leaves-general-in-check': '走后己方帅（将）被将军{attackers}',
    'generals-face': '走后将帅在{file}线上照面',
    attackersList: '（{list}）',
    unprotectedPiece: '{square}的无根{piece}',
    placedPiece: '{square}的{piece}',
    span: '第{first}–{last}着',
    'perpetual-check': '{loser}长将（{pieces}；{span}），违例判负。',
    'perpetual-chase': '{loser}长捉{pieces}（{span}），违例判负。',
    'check-against-chase': '{loser}长将，对方长捉{pieces}；长将方必须变着（{span}），判负。',
    'mutual-check': '双方长将（{span}），判和。',
    'mutual-chase': '双方长捉（{span}），判和。',
    repetition: '局面重复，双方均无长将长捉（{span}），判和。',
    'no-capture': '双方各{moves}回合未吃子，判和。',
    'insufficient-material': '双方都没有能将死对方的子力，判和。',
    'cxq-efficiency': '双方各走满{moves}步有效着法（中国象棋协会规则），判和。',
    'cxq-progress': '双方各{moves}步未吃子也未进过河兵（中国象棋协会规则），判和。',
    'cxq-move-limit': '双方各走满{moves}步（中国象棋协会规则步数上限），判和。',
  },
};

/** Why a FEN, a record file or a request was refused, by code; `unreachable.*` by piece. */
const ERRORS = {
  ru: {
    'fen-empty': 'запись позиции пуста',
    'fen-rank-count': 'горизонталей в расстановке: {found}, а нужно 10 (через «/»)',
    'fen-point-count': 'на горизонтали {rank} описано пунктов: {found}, а нужно 9',
    'fen-unknown-letter': 'неизвестный знак «{letter}» на горизонтали {rank} ({column}-й символ расстановки); фигуры обозначаются буквами K A B N R C P (чёрные — строчными), пустые пункты — цифрами 1–9',
    'fen-missing-general': 'у {sideOf} нет генерала',
    'fen-extra-general': 'у {sideOf} больше одного генерала',
    'fen-too-many-pieces': 'у {sideOf} фигур «{piece}» — {found}, а можно не больше {max}',
    'unreachable.palace': '{colour} {piece} на {square} стоит вне дворца',
    'unreachable.elephant': '{colour} слон на {square} стоит на пункте, куда слон попасть не может',
    'unreachable.soldier': '{colour} солдат на {square} стоит на пункте, куда солдат попасть не может',
    'fen-generals-facing': 'генералы стоят лицом к лицу на открытой вертикали {file}',
    'fen-opponent-in-check': '{side} под шахом, хотя сейчас не их ход',
    'fen-missing-side': 'не указано, чей ход (w — красные, b — чёрные)',
    'fen-bad-side': 'неверное обозначение очереди хода «{found}»: w (или r) — красные, b — чёрные',
    'fen-bad-halfmove-clock': 'неверный счётчик полуходов «{found}»: нужно целое число от 0',
    'fen-bad-move-number': 'неверный номер хода «{found}»: нужно целое число от 1',
    'fen-trailing-text': 'лишний текст «{found}» после номера хода',
    red: 'красные', black: 'чёрные', redOf: 'красных', blackOf: 'чёрных', redColour: 'красный', blackColour: 'чёрный',
    'bad-request': 'сервер не понял запрос',
    'no-game': 'этой партии на сервере уже нет; начните новую',
    busy: 'движок занят другими партиями; попробуйте ещё раз через {retry_after} с',
    'game-over': 'партия уже окончена',
    'game-changed': 'позиция изменилась, пока движок думал',
    'no-move': 'допустимых ходов нет',
    'engine-failed': 'движок не смог сделать ход',
    'too-large': 'файл слишком большой',
    'record-failed': 'не удалось записать партию',
    'bad-host': 'запрос отклонён: сервер открыт не по своему адресу',
    'shutting-down': 'сервер завершает работу',
    'lessons-unreadable': 'уроки не удалось прочитать',
    refused: 'сервер отклонил запрос',
    offline: 'сервер не отвечает',
    where: 'партия {game}, строка {line}, позиция {column}: ',
    whereGame: 'партия {game}: ',
    whereLine: 'строка {line}, позиция {column}: ',
    recordMove: '{n}-й ход {sideOf} «{text}» невозможен: {reason}',
    'record.empty-file': 'файл пуст',
    'record.no-game': 'в файле не найдено ни одной партии',
    'record.no-such-game': 'партий в файле: {count}; партии {game} в нём нет',
    'record.syntax': 'запись партии не читается',
    'record.truncated': 'файл обрывается посреди партии',
    'record.unreadable-move': '{n}-й ход {sideOf} «{text}» не удалось прочитать',
    'record.bad-position': 'начальная позиция записи невозможна',
    'record.encoding': 'кодировка текста не распознана',
    'record.too-deep': 'варианты вложены слишком глубоко',
    whereByte: 'байт {byte}: ',
    'warning.skipped-text': 'пропущен текст вне партий: «{text}»',
    'warning.tag-cut': 'поле «{tag}» длиннее {limit} байт, которые вмещает формат: сохранено «{kept}», отрезано «{cut}»',
    'warning.comment-cut': 'комментарий к {n}-му ходу {sideOf} длиннее {limit} байт, которые вмещает формат: отрезано символов — {cut_chars}',
    'warning.game-comment-cut': 'комментарий к партии длиннее {limit} байт, которые вмещает формат: отрезано символов — {cut_chars}',
    'warning.tag-dropped': 'для поля «{tag}» в формате нет места, оно не сохранено',
    'warning.nags-dropped': 'знаки оценки ходов (NAG) не сохранены — в формате для них нет места: {count}',
    'tag.Red': 'красные', 'tag.Black': 'чёрные', 'tag.Event': 'соревнование', 'tag.Site': 'место',
    'tag.Date': 'дата', 'tag.Round': 'тур', 'tag.Opening': 'дебют', 'tag.Result': 'результат',
    'bad-ply': 'позиции после {ply}-го полухода в партии нет: сделано полуходов — {moves}',
    'choice-needed': 'нужно выбрать: начать вариант или заменить остаток партии',
    'no-line': 'в партии нет такой линии',
    'main-line': 'главную линию удалить нельзя — сначала сделайте главной другую',
  },
  zh: {
    'fen-empty': '局面代码是空的',
    'fen-rank-count': '棋盘部分有{found}行，应为以“/”分隔的10行',
    'fen-point-count': '第{rank}横线上描述了{found}个点，应为9个',
    'fen-unknown-letter': '第{rank}横线上有无法识别的字符“{letter}”（棋盘部分第{column}个字符）；棋子用字母 K A B N R C P 表示（黑方用小写），空点用数字1–9表示',
    'fen-missing-general': '{side}没有{general}',
    'fen-extra-general': '{side}的{general}不止一个',
    'fen-too-many-pieces': '{side}有{found}个{piece}，最多只能有{max}个',
    'unreachable.palace': '{side}{square}的{piece}在九宫之外',
    'unreachable.elephant': '{side}{square}的{piece}在{piece}永远走不到的位置',
    'unreachable.soldier': '{side}{square}的{piece}在{piece}永远走不到的位置',
    'fen-generals-facing': '将帅在{file}线上照面，中间没有棋子',
    'fen-opponent-in-check': '{side}正被将军，但现在不该{side}走',
    'fen-missing-side': '缺少走棋方（w 表示红方，b 表示黑方）',
    'fen-bad-side': '走棋方“{found}”有误：红方用 w（或 r），黑方用 b',
    'fen-bad-halfmove-clock': '半回合计数“{found}”有误：应为不小于0的整数',
    'fen-bad-move-number': '回合数“{found}”有误：应为从1开始的整数',
    'fen-trailing-text': '回合数后面有多余的文字“{found}”',
    red: '红方', black: '黑方',
    'bad-request': '服务器无法理解这个请求',
    'no-game': '服务器上已没有这盘棋，请开始新的一局',
    busy: '引擎正忙于其他对局，请在{retry_after}秒后重试',
    'game-over': '本局已经结束',
    'game-changed': '引擎思考期间局面已经改变',
    'no-move': '没有合法着法',
    'engine-failed': '引擎未能走棋',
    'too-large': '文件太大',
    'record-failed': '无法写出棋谱',
    'bad-host': '请求被拒绝：服务器地址不符',
    'shutting-down': '服务器正在关闭',
    'lessons-unreadable': '无法读取课程',
    refused: '服务器拒绝了请求',
    offline: '服务器没有响应',
    where: '第{game}局第{line}行第{column}列：',
    whereGame: '第{game}局：',
    whereLine: '第{line}行第{column}列：',
    recordMove: '第{n}回合{side}“{text}”不合规则：{reason}',
    'record.empty-file': '文件是空的',
    'record.no-game': '文件中没有找到棋局',
    'record.no-such-game': '文件中共有{count}局，没有第{game}局',
    'record.syntax': '棋谱格式有误',
    'record.truncated': '文件在对局中途被截断',
    'record.unreadable-move': '第{n}回合{side}“{text}”无法识别',
    'record.bad-position': '棋谱的起始局面不合法',
    'record.encoding': '无法识别文本的编码',
    'record.too-deep': '变着嵌套太深',
    whereByte: '第{byte}字节：',
    'warning.skipped-text': '跳过了棋局以外的文字：“{text}”',
    'warning.tag-cut': '“{tag}”超出格式允许的{limit}字节：保留“{kept}”，截去“{cut}”',
    'warning.comment-cut': '第{n}回合{side}着法的注释超出格式允许的{limit}字节：截去了{cut_chars}个字',
    'warning.game-comment-cut': '对局注释超出格式允许的{limit}字节：截去了{cut_chars}个字',
    'warning.tag-dropped': '格式中没有“{tag}”的位置，未能保存',
    'warning.nags-dropped': '格式无法保存着法评注符号（NAG），省略了{count}个',
    'tag.Red': '红方', 'tag.Black': '黑方', 'tag.Event': '赛事', 'tag.Site': '地点',
    'tag.Date': '日期', 'tag.Round': '轮次', 'tag.Opening': '布局', 'tag.Result': '结果',
    'bad-ply': '本局没有第{ply}步之后的局面：只走了{moves}步',
    'choice-needed': '需要选择：开始变着，还是替换后面的着法',
    'no-line': '本局没有这条线路',
    'main-line': '主线不能删除，请先把另一条线路设为主线',
  },
};

const LIST_SEPARATOR = { ru: ', ', zh: '、' };

function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ''));
}

function phrase(table, key, vars) {
  return fill(table[key], vars);
}

/** Whether the current language has its own text for reason `code`. */
function tableFor(code) {
  const table = REASONS[currentLanguage()];
  return table && table[code] ? table : null;
}

/** Why a move is illegal, from the server's error (`code`, `params`, English `message`). */
export function explainIllegal(error) {
  const table = tableFor(error.code);
  if (!table) return error.message;
  const p = error.params ?? {};
  const sep = LIST_SEPARATOR[currentLanguage()];
  const vars = { ...p };
  if (p.piece) vars.piece = pieceName(p.piece);
  if (p.points) vars.points = p.points.join(sep);
  if (p.attackers) {
    const list = p.attackers.map((a) => phrase(table, 'placedPiece', { piece: pieceName(a.piece), square: a.square }));
    vars.attackers = list.length ? phrase(table, 'attackersList', { list: list.join(sep) }) : '';
  }
  return phrase(table, error.code, vars);
}

/** Why a game ended, from the server's outcome (`code`, `params`, English `message`). */
export function explainOutcome(outcome) {
  const p = outcome.params ?? {};
  if (outcome.code === 'checkmate' || outcome.code === 'stalemate') {
    return t(`end.${outcome.code}`, { loser: t(p.loser) });
  }
  const table = tableFor(outcome.code);
  if (!table) return outcome.message;
  const sep = LIST_SEPARATOR[currentLanguage()];
  const pieces = (p.pieces ?? []).map((x) => phrase(table, p.unprotected ? 'unprotectedPiece' : 'placedPiece', {
    piece: pieceName(x.piece), square: x.square,
  }));
  return phrase(table, outcome.code, {
    ...p,
    loser: p.loser ? t(p.loser) : '',
    pieces: pieces.join(sep),
    span: phrase(table, 'span', p),
  });
}

/**
 * Why a FEN cannot be played, from the rules core's FEN code and blanks (`{code, params,
 * message}`, as `/api/fen` answers); the English message when the language is English.
 */
export function explainFen(fault) {
  const table = ERRORS[currentLanguage()];
  const p = fault.params ?? {};
  let key = fault.code;
  if (key === 'fen-unreachable-point') {
    const kind = (p.piece ?? '').toLowerCase();
    key = kind === 'b' ? 'unreachable.elephant' : kind === 'p' ? 'unreachable.soldier' : 'unreachable.palace';
  }
  if (!table || !table[key]) return fault.message ?? '';
  const ru = currentLanguage() === 'ru';
  const vars = {
    ...p,
    side: p.side ? table[p.side] : '',
    sideOf: p.side ? table[`${p.side}Of`] : '',
    colour: p.side ? table[`${p.side}Colour`] : '',
    general: pieceName(p.side === 'black' ? 'k' : 'K'),
  };
  if (p.piece) vars.piece = ru ? pieceName(p.piece).toLowerCase() : pieceName(p.piece);
  return fill(table[key], vars);
}

/** The blanks of a record's move number (`12.` for Red, `12...` for Black): its number and side. */
function moveVars(table, p) {
  if (p.move === undefined) return p;
  const side = String(p.move).endsWith('...') ? 'black' : 'red';
  return { ...p, n: parseInt(p.move, 10), side: table[side], sideOf: table[`${side}Of`] };
}

/** Where in a record file an error is, from its blanks (game, line and column). */
function recordPlace(table, p) {
  if (p.game !== undefined && p.line !== undefined) return fill(table.where, p);
  if (p.game !== undefined) return fill(table.whereGame, p);
  if (p.line !== undefined) return fill(table.whereLine, p);
  return '';
}

/**
 * Any error the server answered (an `ApiError` with `code`, `params` and an English
 * `message`), or a failed request, in the interface language.
 */
export function explainError(error) {
  const table = ERRORS[currentLanguage()];
  if (!table) return error.message;
  const p = error.params ?? {};
  if (error.code === 'bad-fen') return explainFen({ code: p.reason, params: p, message: error.message });
  if (error.code === 'bad-record') {
    const what = table[`record.${p.what}`];
    if (!what) return table.refused;
    const place = p.what === 'no-such-game' ? '' : recordPlace(table, p);
    return place + fill(what, moveVars(table, p));
  }
  if (tableFor(error.code)) {
    const reason = explainIllegal(error);
    if (p.move === undefined) return reason;
    return recordPlace(table, p) + fill(table.recordMove, { ...moveVars(table, p), reason });
  }
  if (table[error.code]) return fill(table[error.code], p);
  return error.status ? table.refused : table.offline;
}

/**
 * A refusal from one part of the app (`group`, e.g. `puzzleError`): its own text under
 * `<group>.<code>` in i18n.js when there is one, otherwise worded as any error.
 */
export function explainErrorIn(group, error) {
  const key = `${group}.${error.code}`;
  const text = t(key, error.params ?? {});
  return text === key ? explainError(error) : text;
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
  const table = ERRORS[currentLanguage()];
  if (!table || !note) return note?.message ?? '';
  if (!WARNINGS.includes(note.code)) return explainError({ status: 422, ...note });
  const p = note.params ?? {};
  const key = note.code === 'comment-cut' && !p.move ? 'warning.game-comment-cut' : `warning.${note.code}`;
  const place = p.byte !== undefined ? fill(table.whereByte, p) : recordPlace(table, p);
  return place + fill(table[key], { ...moveVars(table, p), tag: table[`tag.${p.tag}`] ?? p.tag });
}

/** Every reason code the tables of `language` cover, for checking that they are complete. */
export function reasonCodes(language) {
  return Object.keys(REASONS[language] ?? {});
}
