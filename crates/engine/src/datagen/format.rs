//! The self-play data file: a header, then finished games back to back, each a start
//! position, the result, and every move with the search score of the position before it.
//!
//! Layout (all integers little-endian):
//! ```text
//! b"XQDG"  u32 version = 1
//! per game:
//!   u8  fen_len, fen bytes       start position (UTF-8 FEN, ranks 0-9)
//!   u8  result                   0 = Black won, 1 = draw, 2 = Red won
//!   u16 plies
//!   per ply: u8 from, u8 to, i16 score
//!                                from/to as Square::index; score of the position before the
//!                                move, side to move's view, centipawns, mates clamped to ±32000
//! ```
//! A position costs 4 bytes plus its game's share of the start FEN and the 4-byte game header.
//!
//! [`DataReader`] checks everything it reads — magic, version, FEN, result code, squares, the
//! legality of each move in its position — and names the game and byte offset of what is
//! wrong. A file that ends inside a game (a run killed while writing) reads as every complete
//! game and then one [`DataErrorKind::TruncatedGame`] error.

use crate::score::{Score, is_mate};
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::path::Path;
use xiangqi_rules::{Color, GameResult, Move, Position, Square};

/// The four bytes every data file starts with.
pub const MAGIC: [u8; 4] = *b"XQDG";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;
/// Length of the file header (magic and version) in bytes.
pub const HEADER_LEN: u64 = 8;
/// Bytes each ply takes in a game record.
pub const PLY_BYTES: u64 = 4;
/// Stored scores are clamped to this magnitude; a score at the clamp is a mate score.
pub const SCORE_CLAMP: i16 = 32_000;

/// One finished self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The position the game started from.
    pub start: Position,
    /// How the game ended.
    pub result: GameResult,
    /// Each move played with the search score of the position before it (side to move's
    /// view, centipawns; mates stored as ±[`SCORE_CLAMP`]).
    pub plies: Vec<(Move, i16)>,
}

impl GameRecord {
    /// The positions of the game with the move played from each and its score, in order.
    pub fn positions(&self) -> impl Iterator<Item = (Position, Move, i16)> + '_ {
        let mut position = self.start.clone();
        self.plies.iter().map(move |&(m, score)| {
            let before = position.clone();
            position.make_move(m);
            (before, m, score)
        })
    }

    /// The result as a score for `side`: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn result_for(&self, side: Color) -> f32 {
        match self.result.winner() {
            None => 0.5,
            Some(winner) if winner == side => 1.0,
            Some(_) => 0.0,
        }
    }

    /// The bytes this game takes in a data file.
    pub fn encoded_len(&self) -> u64 {
        1 + self.start.to_fen().len() as u64 + 1 + 2 + PLY_BYTES * self.plies.len() as u64
    }
}

/// A search score as stored: a mate score for either side becomes ±[`SCORE_CLAMP`], so a
/// loader can spot it; other scores are kept (they lie well inside the `i16` range).
pub fn stored_score(score: Score) -> i16 {
    if is_mate(score) {
        if score > 0 { SCORE_CLAMP } else { -SCORE_CLAMP }
    } else {
        score.clamp(-i32::from(SCORE_CLAMP) + 1, i32::from(SCORE_CLAMP) - 1) as i16
    }
}

/// Whether a stored score is a mate score.
pub fn is_stored_mate(score: i16) -> bool {
    score.abs() >= SCORE_CLAMP
}

/// The result code of the format.
fn result_code(result: GameResult) -> u8 {
    match result {
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
        GameResult::RedWins => 2,
    }
}

/// Writes the file header (magic and version).
pub fn write_header(w: &mut impl Write) -> io::Result<()> {
    w.write_all(&MAGIC)?;
    w.write_all(&VERSION.to_le_bytes())
}

/// The bytes of one game record, or an error if it does not fit the format (a FEN over 255
/// bytes or more than 65535 plies).
pub fn encode_game(game: &GameRecord) -> io::Result<Vec<u8>> {
    let fen = game.start.to_fen();
    let fen_len = u8::try_from(fen.len()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("start FEN is {} bytes, the format allows 255", fen.len()),
        )
    })?;
    let plies = u16::try_from(game.plies.len()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "game has {} plies, the format allows 65535",
                game.plies.len()
            ),
        )
    })?;
    let mut bytes = Vec::with_capacity(game.encoded_len() as usize);
    bytes.push(fen_len);
    bytes.extend_from_slice(fen.as_bytes());
    bytes.push(result_code(game.result));
    bytes.extend_from_slice(&plies.to_le_bytes());
    for &(m, score) in &game.plies {
        bytes.push(m.from().index() as u8);
        bytes.push(m.to().index() as u8);
        bytes.extend_from_slice(&score.to_le_bytes());
    }
    Ok(bytes)
}

/// Writes one game record (in a single `write_all`, so a killed writer leaves at most one
/// partial game at the end of the file).
pub fn write_game(w: &mut impl Write, game: &GameRecord) -> io::Result<()> {
    w.write_all(&encode_game(game)?)
}

/// An error reading a data file: where it is and what is wrong.
#[derive(Debug)]
pub struct DataError {
    /// Byte offset in the file where the faulty item starts.
    pub offset: u64,
    /// Number of the game (0 = first) the error is in; `None` for the header.
    pub game: Option<u64>,
    /// What is wrong.
    pub kind: DataErrorKind,
}

/// What is wrong in a data file.
#[derive(Debug)]
pub enum DataErrorKind {
    /// Reading failed.
    Io(io::Error),
    /// The file is shorter than the 8-byte header.
    TruncatedHeader {
        /// Bytes the file has.
        len: u64,
    },
    /// The file does not start with `XQDG`.
    BadMagic {
        /// The first four bytes found.
        found: [u8; 4],
    },
    /// The version is not one this code reads.
    BadVersion {
        /// The version found.
        found: u32,
    },
    /// The file ends inside a game (a run stopped while writing it).
    TruncatedGame {
        /// Bytes of the game that are present.
        present: u64,
    },
    /// The start position is not valid UTF-8 or not a valid FEN.
    BadFen {
        /// What is wrong with it.
        reason: String,
    },
    /// The result byte is not 0, 1 or 2.
    BadResult {
        /// The byte found.
        found: u8,
    },
    /// A move names a point off the board.
    BadSquare {
        /// Ply of the move (0 = first move of the game).
        ply: usize,
        /// The byte found.
        found: u8,
    },
    /// A move is not legal in the position it was recorded in.
    IllegalMove {
        /// Ply of the move (0 = first move of the game).
        ply: usize,
        /// The move.
        mv: Move,
        /// The position it was recorded in.
        fen: String,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.game {
            Some(game) => write!(f, "game {} at byte {}: ", game + 1, self.offset)?,
            None => write!(f, "file header at byte {}: ", self.offset)?,
        }
        match &self.kind {
            DataErrorKind::Io(e) => write!(f, "read failed: {e}"),
            DataErrorKind::TruncatedHeader { len } => write!(
                f,
                "file is {len} bytes, shorter than the {HEADER_LEN}-byte header (not a datagen file)"
            ),
            DataErrorKind::BadMagic { found } => write!(
                f,
                "not a datagen file: starts with {:?}, expected \"XQDG\"",
                String::from_utf8_lossy(found)
            ),
            DataErrorKind::BadVersion { found } => write!(
                f,
                "datagen file version {found}, this program reads version {VERSION}"
            ),
            DataErrorKind::TruncatedGame { present } => write!(
                f,
                "file ends inside the game ({present} bytes of it present): truncated"
            ),
            DataErrorKind::BadFen { reason } => write!(f, "bad start position: {reason}"),
            DataErrorKind::BadResult { found } => {
                write!(f, "result byte {found}, expected 0, 1 or 2")
            }
            DataErrorKind::BadSquare { ply, found } => write!(
                f,
                "move {} names point {found}, which is off the board (0-89)",
                ply + 1
            ),
            DataErrorKind::IllegalMove { ply, mv, fen } => {
                write!(f, "move {} ({mv}) is illegal in {fen}", ply + 1)
            }
        }
    }
}

impl std::error::Error for DataError {}

/// Reads games from a data file, checking each; an iterator of `Result<GameRecord,
/// DataError>` that ends after the first error.
pub struct DataReader<R: Read> {
    reader: R,
    /// Byte offset of the next unread byte; after a complete game, where the next game starts.
    offset: u64,
    games: u64,
    positions: u64,
    failed: bool,
}

impl DataReader<BufReader<File>> {
    /// Opens the data file at `path` and checks its header.
    pub fn open(path: &Path) -> Result<DataReader<BufReader<File>>, DataError> {
        let file = File::open(path).map_err(|e| DataError {
            offset: 0,
            game: None,
            kind: DataErrorKind::Io(e),
        })?;
        DataReader::new(BufReader::with_capacity(1 << 16, file))
    }
}

/// How a read of a fixed number of bytes ended.
enum Fill {
    Full,
    /// The stream ended after this many bytes.
    Short(usize),
}

fn fill(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<Fill> {
    let mut done = 0;
    while done < buf.len() {
        match reader.read(&mut buf[done..]) {
            Ok(0) => return Ok(Fill::Short(done)),
            Ok(n) => done += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(Fill::Full)
}

impl<R: Read> DataReader<R> {
    /// A reader over `reader`, which must be at the start of a data file; checks the header.
    pub fn new(mut reader: R) -> Result<DataReader<R>, DataError> {
        let header_error = |kind| DataError {
            offset: 0,
            game: None,
            kind,
        };
        let mut header = [0u8; HEADER_LEN as usize];
        match fill(&mut reader, &mut header).map_err(|e| header_error(DataErrorKind::Io(e)))? {
            Fill::Full => {}
            Fill::Short(len) => {
                return Err(header_error(DataErrorKind::TruncatedHeader {
                    len: len as u64,
                }));
            }
        }
        let magic = [header[0], header[1], header[2], header[3]];
        if magic != MAGIC {
            return Err(header_error(DataErrorKind::BadMagic { found: magic }));
        }
        let version = u32::from_le_bytes([header[4], header[5], header[6], header[7]]);
        if version != VERSION {
            return Err(DataError {
                offset: 4,
                game: None,
                kind: DataErrorKind::BadVersion { found: version },
            });
        }
        Ok(DataReader {
            reader,
            offset: HEADER_LEN,
            games: 0,
            positions: 0,
            failed: false,
        })
    }

    /// Where the next game starts: after a truncated game, the length of the complete part.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Complete games read so far.
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// Positions (plies) in the complete games read so far.
    pub fn positions_read(&self) -> u64 {
        self.positions
    }

    /// Reads the next game; `Ok(None)` at a clean end of file.
    fn read_game(&mut self) -> Result<Option<GameRecord>, DataErrorKind> {
        let mut fen_len = [0u8; 1];
        if let Fill::Short(_) = fill(&mut self.reader, &mut fen_len).map_err(DataErrorKind::Io)? {
            return Ok(None);
        }
        let mut present = 1u64;
        // Reads exactly `buf.len()` bytes of this game, or reports where the file ended.
        let mut take = |reader: &mut R, buf: &mut [u8]| -> Result<(), DataErrorKind> {
            match fill(reader, buf).map_err(DataErrorKind::Io)? {
                Fill::Full => {
                    present += buf.len() as u64;
                    Ok(())
                }
                Fill::Short(n) => Err(DataErrorKind::TruncatedGame {
                    present: present + n as u64,
                }),
            }
        };
        let mut fen = vec![0u8; usize::from(fen_len[0])];
        take(&mut self.reader, &mut fen)?;
        let mut head = [0u8; 3];
        take(&mut self.reader, &mut head)?;
        let plies = usize::from(u16::from_le_bytes([head[1], head[2]]));
        let mut moves = vec![0u8; plies * PLY_BYTES as usize];
        take(&mut self.reader, &mut moves)?;

        let fen = String::from_utf8(fen).map_err(|_| DataErrorKind::BadFen {
            reason: "not UTF-8".to_string(),
        })?;
        let start = Position::from_fen(&fen).map_err(|e| DataErrorKind::BadFen {
            reason: format!("{fen:?}: {e}"),
        })?;
        let result = match head[0] {
            0 => GameResult::BlackWins,
            1 => GameResult::Draw,
            2 => GameResult::RedWins,
            found => return Err(DataErrorKind::BadResult { found }),
        };
        let mut position = start.clone();
        let mut record = Vec::with_capacity(plies);
        for (ply, bytes) in moves.chunks_exact(PLY_BYTES as usize).enumerate() {
            let square = |found: u8| {
                Square::from_index(usize::from(found))
                    .ok_or(DataErrorKind::BadSquare { ply, found })
            };
            let mv = Move::new(square(bytes[0])?, square(bytes[1])?);
            if !position.is_legal(mv) {
                return Err(DataErrorKind::IllegalMove {
                    ply,
                    mv,
                    fen: position.to_fen(),
                });
            }
            position.make_move(mv);
            record.push((mv, i16::from_le_bytes([bytes[2], bytes[3]])));
        }
        Ok(Some(GameRecord {
            start,
            result,
            plies: record,
        }))
    }
}

impl<R: Read> Iterator for DataReader<R> {
    type Item = Result<GameRecord, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.read_game() {
            Ok(None) => None,
            Ok(Some(game)) => {
                self.offset += game.encoded_len();
                self.games += 1;
                self.positions += game.plies.len() as u64;
                Some(Ok(game))
            }
            Err(kind) => {
                self.failed = true;
                Some(Err(DataError {
                    offset: self.offset,
                    game: Some(self.games),
                    kind,
                }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::positions as bench_fens;

    /// A game of a few legal moves from `fen`, each with a made-up score.
    fn sample_game(fen: &str, result: GameResult, moves: usize) -> GameRecord {
        let start = Position::from_fen(fen).unwrap();
        let mut position = start.clone();
        let mut plies = Vec::new();
        for ply in 0..moves {
            let legal = position.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal.as_slice()[ply % legal.len()];
            position.make_move(m);
            plies.push((m, (ply as i16 * 37) - 100));
        }
        GameRecord {
            start,
            result,
            plies,
        }
    }

    fn file_with(games: &[GameRecord]) -> Vec<u8> {
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        for game in games {
            write_game(&mut bytes, game).unwrap();
        }
        bytes
    }

    fn read_all(bytes: &[u8]) -> Result<Vec<Result<GameRecord, DataError>>, DataError> {
        Ok(DataReader::new(bytes)?.collect())
    }

    #[test]
    fn games_round_trip_with_scores_and_results() {
        let games: Vec<GameRecord> = bench_fens()
            .into_iter()
            .zip([GameResult::RedWins, GameResult::Draw, GameResult::BlackWins])
            .map(|(fen, result)| sample_game(fen, result, 12))
            .chain([GameRecord {
                start: Position::startpos(),
                result: GameResult::Draw,
                plies: vec![(Position::startpos().legal_moves().as_slice()[0], -32000)],
            }])
            .collect();
        let bytes = file_with(&games);
        let expected_len = HEADER_LEN + games.iter().map(GameRecord::encoded_len).sum::<u64>();
        assert_eq!(bytes.len() as u64, expected_len);
        let read: Vec<GameRecord> = read_all(&bytes)
            .unwrap()
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(read, games);
    }

    #[test]
    fn positions_follow_the_moves() {
        let game = sample_game(bench_fens()[0], GameResult::Draw, 6);
        let mut expected = game.start.clone();
        for (position, m, score) in game.positions().collect::<Vec<_>>() {
            assert_eq!(position, expected);
            assert!(position.is_legal(m));
            assert!(game.plies.contains(&(m, score)));
            expected.make_move(m);
        }
        assert_eq!(game.positions().count(), game.plies.len());
    }

    #[test]
    fn result_for_each_side() {
        let mut game = sample_game(bench_fens()[0], GameResult::RedWins, 0);
        assert_eq!(game.result_for(Color::Red), 1.0);
        assert_eq!(game.result_for(Color::Black), 0.0);
        game.result = GameResult::Draw;
        assert_eq!(game.result_for(Color::Black), 0.5);
    }

    #[test]
    fn wrong_magic_is_refused() {
        let mut bytes = file_with(&[]);
        bytes[..4].copy_from_slice(b"PK\x03\x04");
        let err = read_all(&bytes).unwrap_err();
        assert!(matches!(err.kind, DataErrorKind::BadMagic { .. }));
        assert!(err.to_string().contains("not a datagen file"), "{err}");
    }

    #[test]
    fn short_file_is_refused_as_truncated_header() {
        let err = read_all(b"XQD").unwrap_err();
        assert!(matches!(
            err.kind,
            DataErrorKind::TruncatedHeader { len: 3 }
        ));
    }

    #[test]
    fn wrong_version_is_refused() {
        let mut bytes = file_with(&[]);
        bytes[4..8].copy_from_slice(&7u32.to_le_bytes());
        let err = read_all(&bytes).unwrap_err();
        assert!(matches!(err.kind, DataErrorKind::BadVersion { found: 7 }));
        assert!(err.to_string().contains("version 7"), "{err}");
    }

    #[test]
    fn truncated_last_game_is_reported_after_the_complete_ones() {
        let games = [
            sample_game(bench_fens()[0], GameResult::Draw, 10),
            sample_game(bench_fens()[1], GameResult::RedWins, 10),
        ];
        let full = file_with(&games);
        let first_end = HEADER_LEN + games[0].encoded_len();
        // Every cut inside the second game reads the first and then reports the truncation.
        for cut in first_end + 1..full.len() as u64 {
            let mut reader = DataReader::new(&full[..cut as usize]).unwrap();
            assert_eq!(reader.next().unwrap().unwrap(), games[0]);
            let err = reader.next().unwrap().unwrap_err();
            assert_eq!(err.game, Some(1));
            assert_eq!(err.offset, first_end);
            match err.kind {
                DataErrorKind::TruncatedGame { present } => assert_eq!(present, cut - first_end),
                other => panic!("expected a truncated game, got {other:?}"),
            }
            assert!(reader.next().is_none());
            assert_eq!(reader.offset(), first_end);
            assert_eq!(reader.games_read(), 1);
            assert_eq!(reader.positions_read(), games[0].plies.len() as u64);
        }
    }

    #[test]
    fn move_off_the_board_is_reported_with_its_ply() {
        let game = sample_game(bench_fens()[0], GameResult::Draw, 4);
        let mut bytes = file_with(std::slice::from_ref(&game));
        let fen_len = game.start.to_fen().len();
        // The `to` byte of the third move.
        let at = HEADER_LEN as usize + 1 + fen_len + 3 + 2 * 4 + 1;
        bytes[at] = 90;
        let results = read_all(&bytes).unwrap();
        let err = results[0].as_ref().unwrap_err();
        assert!(matches!(
            err.kind,
            DataErrorKind::BadSquare { ply: 2, found: 90 }
        ));
        assert_eq!(err.offset, HEADER_LEN);
        assert!(err.to_string().starts_with("game 1 at byte 8"), "{err}");
    }

    #[test]
    fn illegal_move_is_reported_with_its_position() {
        let game = sample_game(bench_fens()[0], GameResult::Draw, 4);
        let mut bytes = file_with(std::slice::from_ref(&game));
        let fen_len = game.start.to_fen().len();
        // The second move replaced by the first (the same side cannot play it again).
        let first = HEADER_LEN as usize + 1 + fen_len + 3;
        let (a, b) = (bytes[first], bytes[first + 1]);
        bytes[first + 4] = a;
        bytes[first + 5] = b;
        let results = read_all(&bytes).unwrap();
        let err = results[0].as_ref().unwrap_err();
        match &err.kind {
            DataErrorKind::IllegalMove { ply, fen, .. } => {
                assert_eq!(*ply, 1);
                assert_eq!(*fen, game.start.after(game.plies[0].0).to_fen());
            }
            other => panic!("expected an illegal move, got {other:?}"),
        }
        assert_eq!(results.len(), 1);
    }

    #[test]
    fn bad_result_byte_and_bad_fen_are_reported() {
        let game = sample_game(bench_fens()[0], GameResult::Draw, 2);
        let fen_len = game.start.to_fen().len();
        let mut bytes = file_with(std::slice::from_ref(&game));
        bytes[HEADER_LEN as usize + 1 + fen_len] = 3;
        let err = read_all(&bytes).unwrap().remove(0).unwrap_err();
        assert!(matches!(err.kind, DataErrorKind::BadResult { found: 3 }));

        let mut bytes = file_with(std::slice::from_ref(&game));
        bytes[HEADER_LEN as usize + 1] = b'!';
        let err = read_all(&bytes).unwrap().remove(0).unwrap_err();
        assert!(matches!(err.kind, DataErrorKind::BadFen { .. }), "{err}");
    }

    #[test]
    fn mate_scores_are_stored_at_the_clamp() {
        assert_eq!(stored_score(crate::score::mate_in(3)), SCORE_CLAMP);
        assert_eq!(stored_score(crate::score::mated_in(8)), -SCORE_CLAMP);
        assert_eq!(stored_score(-123), -123);
        assert!(is_stored_mate(stored_score(crate::score::mated_in(8))));
        assert!(!is_stored_mate(stored_score(2_500)));
    }
}
