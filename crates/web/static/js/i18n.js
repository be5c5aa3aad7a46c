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
    learn: 'Learn', legend: 'Legend', play: 'Play', welcome: 'New to Xiangqi?', startCourse: 'Start the course',
    courseTitle: 'The rules course',
    courseIntro: '{count} short lessons take you from the empty board to your first game. Each one explains a rule on the board and ends with exercises: you move the pieces yourself, and every try is checked.',
    continueLesson: 'Continue: {title}', startLesson: 'Start: {title}', nextUp: 'next', lessonDone: 'done',
    lessonNumber: 'Lesson {n}', allLessons: 'All lessons', back: 'Back', next: 'Next', toExercises: 'To the exercises',
    pageOf: 'Page {n} of {count}', exerciseOf: 'Exercise {n} of {count}',
    notThisOne: 'That move is legal, but it is not the one this exercise asks for. Try another.',
    retry: 'Start again', solved: 'Well done — that’s it!', nextExercise: 'Next exercise',
    lessonComplete: 'Lesson complete! It is marked as done on the course map.', nextLesson: 'Next lesson: {title}',
    courseComplete: 'You have finished the whole course. Time for a real game!',
    found: 'Found {found} of {count}.', alreadyFound: 'You have already found that one — look for the others.',
    replyPlayed: 'The reply: {move}.', yourAnswer: 'Your answer', checkAnswer: 'Check',
    wrongAnswer: 'Not quite. Look at the arrow on the board again: which piece moves, from where, and where to?',
    hintPiece: 'Hint: move the piece marked on the board.', hintAnswer: 'Hint: the piece on {square} moves, along the arrow.',
    loadingCourse: 'Loading the lessons…', courseUnavailable: 'The lessons cannot be loaded: {reason}',
    legendTitle: 'What the board shows', close: 'Close',
    'legend.selected': 'The piece you have picked up.',
    'legend.target': 'A point the picked-up piece can move to.',
    'legend.captureTarget': 'A piece the picked-up piece can capture.',
    'legend.lastMove': 'The last move: the point it left and the point it reached.',
    'legend.check': 'A general in check.',
    'legend.marker': 'Capture marker (dashed ring): this piece can be captured, but it is defended.',
    'legend.unprotected': 'Capture marker (solid red ring): this piece can be captured and nothing defends it.',
    'legend.hint': 'Hint arrow: the move suggested by the Hint button.',
    'legend.explain': 'Pulsing ring: the points that explain a refused move, or that a lesson points out.',
    'legend.lessonArrow': 'Lesson arrow: a move the lesson shows you.',
    'legend.pieces': 'The pieces. Hover over a piece (or press and hold it on a touch screen) to see its name.',
    'piece.K': 'Red general (帅)', 'piece.A': 'Red advisor (仕)', 'piece.B': 'Red elephant (相)', 'piece.N': 'Red horse (马)',
    'piece.R': 'Red chariot (车)', 'piece.C': 'Red cannon (炮)', 'piece.P': 'Red soldier (兵)',
    'piece.k': 'Black general (将)', 'piece.a': 'Black advisor (士)', 'piece.b': 'Black elephant (象)', 'piece.n': 'Black horse (马)',
    'piece.r': 'Black chariot (车)', 'piece.c': 'Black cannon (炮)', 'piece.p': 'Black soldier (卒)',
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
    pieces: { k: 'Генерал', a: 'Советник', b: 'Слон', n: 'Конь', r: 'Колесница', c: 'Пушка', p: 'Солдат' },
    learn: 'Обучение', legend: 'Обозначения', play: 'Играть', welcome: 'Впервые играете в сянци?', startCourse: 'Пройти курс правил',
    courseTitle: 'Курс правил',
    courseIntro: '{count} коротких уроков проведут вас от пустой доски до первой партии. В каждом правило показано на доске, а в конце — задания: вы сами ходите фигурами, и каждая попытка проверяется.',
    continueLesson: 'Продолжить: {title}', startLesson: 'Начать: {title}', nextUp: 'следующий', lessonDone: 'пройден',
    lessonNumber: 'Урок {n}', allLessons: 'Все уроки', back: 'Назад', next: 'Дальше', toExercises: 'К заданиям',
    pageOf: 'Страница {n} из {count}', exerciseOf: 'Задание {n} из {count}',
    notThisOne: 'Так ходить можно, но в этом задании нужен другой ход. Попробуйте ещё.',
    retry: 'Заново', solved: 'Верно, отлично!', nextExercise: 'Следующее задание',
    lessonComplete: 'Урок пройден! На карте курса он отмечен.', nextLesson: 'Следующий урок: {title}',
    courseComplete: 'Весь курс пройден. Пора сыграть настоящую партию!',
    found: 'Найдено {found} из {count}.', alreadyFound: 'Этот ход уже найден — ищите остальные.',
    replyPlayed: 'Ответ соперника: {move}.', yourAnswer: 'Ваш ответ', checkAnswer: 'Проверить',
    wrongAnswer: 'Не совсем. Посмотрите на стрелку ещё раз: какая фигура ходит, откуда и куда?',
    hintPiece: 'Подсказка: ходите фигурой, отмеченной на доске.', hintAnswer: 'Подсказка: ходит фигура с {square}, по стрелке.',
    loadingCourse: 'Загружаем уроки…', courseUnavailable: 'Не удалось загрузить уроки: {reason}',
    legendTitle: 'Что показывает доска', close: 'Закрыть',
    'legend.selected': 'Фигура, которую вы взяли.',
    'legend.target': 'Пункт, куда взятая фигура может пойти.',
    'legend.captureTarget': 'Фигура, которую взятая фигура может побить.',
    'legend.lastMove': 'Последний ход: откуда и куда пошла фигура.',
    'legend.check': 'Генералу объявлен шах.',
    'legend.marker': 'Метка взятия (пунктирное кольцо): фигуру можно побить, но она защищена.',
    'legend.unprotected': 'Метка взятия (сплошное красное кольцо): фигуру можно побить, и её никто не защищает.',
    'legend.hint': 'Стрелка подсказки: ход, который предлагает кнопка «Подсказка».',
    'legend.explain': 'Мигающее кольцо: пункты, из-за которых ход невозможен, или то, что показывает урок.',
    'legend.lessonArrow': 'Стрелка урока: ход, который показывает урок.',
    'legend.pieces': 'Фигуры. Наведите указатель на фигуру (на сенсорном экране — нажмите и подержите), чтобы увидеть её название.',
    'piece.K': 'Красный генерал (帅)', 'piece.A': 'Красный советник (仕)', 'piece.B': 'Красный слон (相)', 'piece.N': 'Красный конь (马)',
    'piece.R': 'Красная колесница (车)', 'piece.C': 'Красная пушка (炮)', 'piece.P': 'Красный солдат (兵)',
    'piece.k': 'Чёрный генерал (将)', 'piece.a': 'Чёрный советник (士)', 'piece.b': 'Чёрный слон (象)', 'piece.n': 'Чёрный конь (马)',
    'piece.r': 'Чёрная колесница (车)', 'piece.c': 'Чёрная пушка (炮)', 'piece.p': 'Чёрный солдат (卒)',
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
    learn: '学棋', legend: '图例', play: '下棋', welcome: '刚接触象棋？', startCourse: '从规则学起',
    courseTitle: '象棋规则入门',
    courseIntro: '{count}节短课，带你从认识棋盘走到下第一盘棋。每课先在棋盘上讲一条规则，最后是练习：你亲手走子，每一步都由规则引擎检查。',
    continueLesson: '继续：{title}', startLesson: '开始：{title}', nextUp: '下一课', lessonDone: '已学完',
    lessonNumber: '第{n}课', allLessons: '课程目录', back: '上一页', next: '下一页', toExercises: '开始练习',
    pageOf: '第{n}页，共{count}页', exerciseOf: '练习{n}/{count}',
    notThisOne: '这步棋合乎规则，但不是本题要的着法。换一步试试。',
    retry: '重来', solved: '答对了！', nextExercise: '下一题',
    lessonComplete: '本课学完了！课程目录里已经打上了勾。', nextLesson: '下一课：{title}',
    courseComplete: '全部课程都学完了，去下一盘真正的棋吧！',
    found: '已找到{found}个，共{count}个。', alreadyFound: '这步已经找到了，再找找别的。',
    replyPlayed: '对方应着：{move}。', yourAnswer: '你的答案', checkAnswer: '提交',
    wrongAnswer: '不对。再看看棋盘上的箭头：哪个子走，从哪里走到哪里？',
    hintPiece: '提示：走棋盘上标出的这个子。', hintAnswer: '提示：{square}的棋子沿箭头走。',
    loadingCourse: '正在载入课程…', courseUnavailable: '课程无法载入：{reason}',
    legendTitle: '棋盘标记说明', close: '关闭',
    'legend.selected': '你拿起的棋子。',
    'legend.target': '拿起的棋子可以走到的点。',
    'legend.captureTarget': '拿起的棋子可以吃掉的子。',
    'legend.lastMove': '上一步棋：起点和落点。',
    'legend.check': '被将军的帅（将）。',
    'legend.marker': '吃子提示（虚线圈）：这个子可以被吃，但有保护。',
    'legend.unprotected': '吃子提示（红色实线圈）：这个子可以被吃，而且没有保护。',
    'legend.hint': '提示箭头：“提示”按钮给出的着法。',
    'legend.explain': '闪动的圈：说明着法为何不合规则的点，或课程要你注意的点。',
    'legend.lessonArrow': '课程箭头：课程演示的着法。',
    'legend.pieces': '棋子。把鼠标停在棋子上（触屏上长按棋子）就能看到它的名字。',
    'piece.K': '红帅', 'piece.A': '红仕', 'piece.B': '红相', 'piece.N': '红马', 'piece.R': '红车', 'piece.C': '红炮', 'piece.P': '红兵',
    'piece.k': '黑将', 'piece.a': '黑士', 'piece.b': '黑象', 'piece.n': '黑马', 'piece.r': '黑车', 'piece.c': '黑炮', 'piece.p': '黑卒',
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
