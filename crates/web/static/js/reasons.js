// The rules core's reasons — why a move is illegal, why a game ended — in the interface
// language, from the reason's code and its blanks. English comes from the server as it is.

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

/** Every reason code the tables of `language` cover, for checking that they are complete. */
export function reasonCodes(language) {
  return Object.keys(REASONS[language] ?? {});
}
