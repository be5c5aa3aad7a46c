// Interface strings in English, Russian and Chinese, with the piece names of each language.

const STRINGS = {
  en: {
    depth: 'depth', you: 'Player', saved: 'Saved {name}.', loaded: 'Opened {name} (game {index} of {games}).',
    partly: 'Only part of it could be read: {reason}', badRecord: '{name} cannot be opened: {reason}',
    skipped: 'Skipped: {what}', unreadable: '{count} other game(s) of the file cannot be read: {what}', notKept: 'This format could not keep: {what}',
    clock: 'Clock', clockOff: 'No clock', clockControl: '{minutes} min + {seconds} s', lostOnTime: '{side} ran out of time.',
    gameFile: 'Game file', saveGame: 'Save game', loadGame: 'Open game',
    title: 'Xiangqi', new: 'New game', undo: 'Undo', redo: 'Redo', hint: 'Hint', flip: 'Flip board',
    setup: 'Set up position', mode: 'Opponent', vsEngine: 'Computer', twoPlayers: 'Two players',
    playAs: 'You play', red: 'Red', black: 'Black', level: 'Level', notation: 'Notation',
    chinese: 'Chinese', pieceTheme: 'Pieces', beijing: 'Beijing (red–blue)', taipei: 'Taipei (red–black)',
    boardTheme: 'Board', wood: 'Classic wood', green: 'Green, blue river', pieceStyle: 'Symbols',
    characters: 'Chinese characters', european: 'European symbols', language: 'Language',
    markers: 'Capture markers', analysis: 'Analysis', moves: 'Moves', fen: 'FEN', copy: 'Copy', load: 'Load',
    turn: '{side} to move', thinking: 'The computer is thinking…', inCheck: '{side} is in check!',
    wins: '{side} wins', draw: 'Draw', illegal: 'Illegal move: {reason}', notYours: 'It is {side}’s turn.',
    hintText: 'Hint: {move}', threatens: 'it attacks the {piece} on {square}', copied: 'FEN copied.',
    badFen: 'This position cannot be played: {reason}', start: 'Start', clear: 'Clear board',
    initial: 'Initial position', cancel: 'Cancel', sideToMove: 'Side to move', eraser: 'Eraser',
    valid: 'The position is valid.', savePgn: 'Save PGN', loadPgn: 'Load PGN', settings: 'Settings',
    board: 'Board', point: 'point {square}', empty: 'empty', gameOver: 'Game over',
    'levels.beginner': 'Beginner', 'levels.casual': 'Casual', 'levels.club': 'Club player',
    'levels.strong': 'Strong', 'levels.expert': 'Expert', 'levels.full': 'Full strength',
    'end.checkmate': '{loser} is checkmated.', 'end.stalemate': '{loser} has no legal move — stalemate loses.',
    unprotected: 'unprotected', attacked: 'can be captured', score: 'Evaluation',
    pieces: { k: 'General', a: 'Advisor', b: 'Elephant', n: 'Horse', r: 'Chariot', c: 'Cannon', p: 'Soldier' },
  },
  ru: {
    depth: 'глубина', you: 'Игрок', saved: 'Сохранено: {name}.', loaded: 'Открыта партия {index} из {games} ({name}).',
    partly: 'Прочитана только часть: {reason}', badRecord: 'Не удалось открыть {name}: {reason}',
    skipped: 'Пропущено: {what}', unreadable: 'Не удалось прочитать другие партии файла ({count}): {what}', notKept: 'Этот формат не сохранил: {what}',
    clock: 'Часы', clockOff: 'Без часов', clockControl: '{minutes} мин + {seconds} с', lostOnTime: '{side}: время истекло.',
    gameFile: 'Файл партии', saveGame: 'Сохранить партию', loadGame: 'Открыть партию',
    title: 'Сянци', new: 'Новая игра', undo: 'Назад', redo: 'Вперёд', hint: 'Подсказка', flip: 'Перевернуть',
    setup: 'Расстановка', mode: 'Соперник', vsEngine: 'Компьютер', twoPlayers: 'Два игрока',
    playAs: 'Вы играете', red: 'Красные', black: 'Чёрные', level: 'Уровень', notation: 'Запись',
    chinese: 'Китайская', pieceTheme: 'Фигуры', beijing: 'Пекин (красные–синие)', taipei: 'Тайбэй (красные–чёрные)',
    boardTheme: 'Доска', wood: 'Классическое дерево', green: 'Зелёная, синяя река', pieceStyle: 'Символы',
    characters: 'Иероглифы', european: 'Европейские символы', language: 'Язык',
    markers: 'Метки взятий', analysis: 'Анализ', moves: 'Ходы', fen: 'FEN', copy: 'Копировать', load: 'Загрузить',
    turn: 'Ход: {side}', thinking: 'Компьютер думает…', inCheck: '{side}: шах!',
    wins: 'Победа: {side}', draw: 'Ничья', illegal: 'Ход невозможен: {reason}', notYours: 'Сейчас ход: {side}.',
    hintText: 'Подсказка: {move}', threatens: 'нападает на фигуру «{piece}» на {square}', copied: 'FEN скопирован.',
    badFen: 'Позиция невозможна: {reason}', start: 'Начать', clear: 'Очистить',
    initial: 'Начальная позиция', cancel: 'Отмена', sideToMove: 'Чей ход', eraser: 'Ластик',
    valid: 'Позиция допустима.', savePgn: 'Сохранить PGN', loadPgn: 'Открыть PGN', settings: 'Настройки',
    board: 'Доска', point: 'пункт {square}', empty: 'пусто', gameOver: 'Игра окончена',
    'levels.beginner': 'Новичок', 'levels.casual': 'Любитель', 'levels.club': 'Клубный игрок',
    'levels.strong': 'Сильный', 'levels.expert': 'Эксперт', 'levels.full': 'Полная сила',
    'end.checkmate': '{loser}: мат.', 'end.stalemate': '{loser}: нет ходов — пат, это поражение.',
    unprotected: 'без защиты', attacked: 'под боем', score: 'Оценка',
    pieces: { k: 'Король', a: 'Советник', b: 'Слон', n: 'Конь', r: 'Ладья', c: 'Пушка', p: 'Пешка' },
  },
  zh: {
    depth: '深度', you: '棋手', saved: '已保存 {name}。', loaded: '已打开 {name}（第 {index} 局，共 {games} 局）。',
    partly: '只读出了一部分：{reason}', badRecord: '无法打开 {name}：{reason}',
    skipped: '已跳过：{what}', unreadable: '文件中另有 {count} 局无法读取：{what}', notKept: '此格式未能保存：{what}',
    clock: '棋钟', clockOff: '不计时', clockControl: '{minutes} 分 + {seconds} 秒', lostOnTime: '{side}超时。',
    gameFile: '棋谱文件', saveGame: '保存棋谱', loadGame: '打开棋谱',
    title: '象棋', new: '新局', undo: '悔棋', redo: '还原', hint: '提示', flip: '翻转棋盘',
    setup: '摆棋', mode: '对手', vsEngine: '电脑', twoPlayers: '双人对弈',
    playAs: '执子', red: '红方', black: '黑方', level: '难度', notation: '记谱',
    chinese: '中文', pieceTheme: '棋子', beijing: '北京（红蓝）', taipei: '台北（红黑）',
    boardTheme: '棋盘', wood: '经典木纹', green: '绿色蓝河', pieceStyle: '棋子符号',
    characters: '汉字', european: '国际符号', language: '语言',
    markers: '吃子提示', analysis: '分析', moves: '棋谱', fen: 'FEN', copy: '复制', load: '载入',
    turn: '{side}走棋', thinking: '电脑思考中…', inCheck: '{side}被将军！',
    wins: '{side}胜', draw: '和棋', illegal: '着法不合规则：{reason}', notYours: '现在轮到{side}。',
    hintText: '提示：{move}', threatens: '攻击{square}的{piece}', copied: 'FEN 已复制。',
    badFen: '局面不合法：{reason}', start: '开始', clear: '清空',
    initial: '初始局面', cancel: '取消', sideToMove: '走棋方', eraser: '橡皮',
    valid: '局面合法。', savePgn: '保存 PGN', loadPgn: '载入 PGN', settings: '设置',
    board: '棋盘', point: '{square} 点', empty: '空', gameOver: '对局结束',
    'levels.beginner': '入门', 'levels.casual': '业余', 'levels.club': '棋协',
    'levels.strong': '高手', 'levels.expert': '大师', 'levels.full': '全力',
    'end.checkmate': '{loser}被将死。', 'end.stalemate': '{loser}无子可走，困毙判负。',
    unprotected: '无保护', attacked: '可被吃', score: '评分',
    pieces: {
      k: '将', a: '士', b: '象', n: '马', r: '车', c: '炮', p: '卒',
      K: '帅', A: '仕', B: '相', N: '马', R: '车', C: '炮', P: '兵',
    },
  },
};

/** The languages offered, by code. */
export const LANGUAGES = { en: 'English', ru: 'Русский', zh: '中文' };

let current = 'en';

/** Switches the interface language (`en`, `ru` or `zh`). */
export function setLanguage(lang) {
  current = STRINGS[lang] ? lang : 'en';
  document.documentElement.lang = current;
}

/** The string `key` in the current language with `{name}` blanks filled from `vars`. */
export function t(key, vars = {}) {
  const text = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => vars[k] ?? '');
}

/** The code of the current interface language. */
export function currentLanguage() {
  return current;
}

/** The name of the piece with FEN letter `letter` (upper case Red) in the current language. */
export function pieceName(letter) {
  const names = STRINGS[current].pieces;
  return names[letter] ?? names[letter.toLowerCase()];
}

/** Fills every element carrying `data-i18n` (text) or `data-i18n-label` (aria-label). */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-label]')) {
    el.setAttribute('aria-label', t(el.dataset.i18nLabel));
    el.title = t(el.dataset.i18nLabel);
  }
}
