//! One ending's table in memory and in its file.
//!
//! # File format (version 1), all numbers little-endian
//! | bytes | field |
//! |---|---|
//! | 4 | magic `XQTB` |
//! | 2 | version, 1 |
//! | 1 | length of the ending's name, then the name (`KRKAABB`) |
//! | 8 | entries per side to move (the index size) |
//! | 2 × 6 × 8 | per side to move (the stronger side first): wins, draws, losses, illegal entries, draws lost under the Asian rules, draws won under the Asian rules |
//! | 2 + 8 | the longest win in plies and its entry (`side × entries + index`) |
//! | 8 | generation time in milliseconds |
//! | 8 | payload length in bytes |
//! | 8 | FNV-1a 64 checksum of the payload |
//! | 8 | FNV-1a 64 checksum of the unpacked codes |
//! | 8 | FNV-1a 64 checksum of every header byte before this field |
//! | … | payload: the codes, low bytes of all entries then high bytes, DEFLATE-compressed |
//!
//! Each entry is a 16-bit code: 0 illegal, 1 draw, 2 draw lost under the Asian rules by the
//! side to move, 3 draw won under the Asian rules, `4 + d` mate in `d` plies (won by the side
//! to move when `d` is odd, lost when even). The entries of Red (the stronger side) to move
//! come first, then Black's. A table is written under a temporary name and renamed when
//! complete, so a file under the table's own name is whole or reported damaged.

use crate::ending::Ending;
use crate::error::EgtbError;
use crate::layout::{GONE, Layout, MAX_SLOTS, color_of_code, flip_rank, kind_code, kind_of_code};
use crate::value::{self, Asian, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use xiangqi_rules::{Piece, Position, Square};

const MAGIC: &[u8; 4] = b"XQTB";
const VERSION: u16 = 1;

/// Counts over one side to move of a table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideCounts {
    /// Positions the side to move wins.
    pub wins: u64,
    /// Drawn positions (including those the Asian rules decide).
    pub draws: u64,
    /// Positions the side to move loses.
    pub losses: u64,
    /// Entries of the index that are no legal position.
    pub illegal: u64,
    /// Draws that the side to move loses under the Asian rules.
    pub asian_losses: u64,
    /// Draws that the side to move wins under the Asian rules.
    pub asian_wins: u64,
}

impl SideCounts {
    /// Legal positions: wins, draws and losses.
    pub fn positions(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// A table's figures, kept in its header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableStats {
    /// Entries of the index per side to move.
    pub entries: u64,
    /// Counts with the stronger side to move (index 0) and the weaker side to move (1).
    pub sides: [SideCounts; 2],
    /// The longest win in plies (0 when nothing is won).
    pub longest_win: u16,
    /// Its entry: `side × entries + index`.
    pub longest_entry: u64,
    /// How long generating the table took, in milliseconds (not counting its sub-endings).
    pub generation_ms: u64,
}

/// One ending's table: a code for each entry, with both sides to move.
pub struct Table {
    pub(crate) layout: Layout,
    pub(crate) codes: Vec<u16>,
    stats: TableStats,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("ending", &self.layout.ending.name())
            .field("stats", &self.stats)
            .finish()
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn codes_bytes(codes: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(codes.len() * 2);
    out.extend(codes.iter().map(|&c| c as u8));
    out.extend(codes.iter().map(|&c| (c >> 8) as u8));
    out
}

/// The layout of `ending`, or why it is too large.
pub(crate) fn layout_of(ending: Ending) -> Result<Layout, EgtbError> {
    let layout = Layout::new(ending).ok_or_else(|| EgtbError::TooLarge {
        ending: ending.name(),
        reason: "its index does not fit in memory".into(),
    })?;
    if layout
        .size
        .checked_mul(2)
        .is_none_or(|n| n > u32::MAX as usize)
    {
        return Err(EgtbError::TooLarge {
            ending: ending.name(),
            reason: format!(
                "{} entries per side to move; this generator handles up to {}",
                layout.size,
                u32::MAX / 2
            ),
        });
    }
    Ok(layout)
}

impl Table {
    /// A table from its codes, counting its figures.
    pub(crate) fn from_codes(layout: Layout, codes: Vec<u16>, generation_ms: u64) -> Table {
        let n = layout.size;
        let mut sides = [SideCounts::default(); 2];
        let mut longest_win = 0u16;
        let mut longest_entry = 0u64;
        for (e, &code) in codes.iter().enumerate() {
            let c = &mut sides[e / n];
            match value::decode(code) {
                None => c.illegal += 1,
                Some((Value::Win(d), _)) => {
                    c.wins += 1;
                    if d > longest_win {
                        longest_win = d;
                        longest_entry = e as u64;
                    }
                }
                Some((Value::Loss(_), _)) => c.losses += 1,
                Some((Value::Draw, asian)) => {
                    c.draws += 1;
                    match asian {
                        Asian::Loss => c.asian_losses += 1,
                        Asian::Win => c.asian_wins += 1,
                        Asian::Same => {}
                    }
                }
            }
        }
        let stats = TableStats {
            entries: n as u64,
            sides,
            longest_win,
            longest_entry,
            generation_ms,
        };
        Table {
            layout,
            codes,
            stats,
        }
    }

    /// The ending.
    pub fn ending(&self) -> Ending {
        self.layout.ending
    }

    /// The table's figures.
    pub fn stats(&self) -> &TableStats {
        &self.stats
    }

    /// The result for the side to move in `pos` and its Asian-rules verdict; `None` when the
    /// table marks the position illegal (a damaged table) or the position's material is not
    /// the table's ending (either colour may be the stronger side).
    pub fn lookup(&self, pos: &Position) -> Option<(Value, Asian)> {
        let (ending, flip) = Ending::of_position(pos);
        if ending != self.ending() {
            return None;
        }
        value::decode(self.codes[self.entry_of(pos, flip)])
    }

    /// The entry of `pos` (of this table's ending), with colours swapped when `flip`.
    fn entry_of(&self, pos: &Position, flip: bool) -> usize {
        let layout = &self.layout;
        let mut sq = [GONE; MAX_SLOTS];
        for s in Square::all() {
            let Some(p) = pos.piece_at(s) else {
                continue;
            };
            let color = p.color.index() as u8 ^ flip as u8;
            let point = if flip {
                flip_rank(s.index() as u8)
            } else {
                s.index() as u8
            };
            let kind = kind_code(p.kind);
            let slot = (0..layout.slots())
                .find(|&u| sq[u] == GONE && layout.color[u] == color && layout.kind[u] == kind)
                .expect("the table's ending is the position's material");
            sq[slot] = point;
        }
        let stm = pos.side_to_move().index() ^ flip as usize;
        stm * layout.size + layout.encode(&sq[..layout.slots()])
    }

    /// Wins, draws and losses for the side to move among the legal positions with `stm` (0
    /// the stronger side, 1 the weaker) to move whose pieces `keep` accepts. `keep` sees each
    /// piece with its square, the stronger side as Red.
    pub fn tally(&self, stm: u8, keep: impl Fn(&[(Piece, Square)]) -> bool) -> SideCounts {
        let layout = &self.layout;
        let n = layout.size;
        let mut counts = SideCounts::default();
        let mut pieces = Vec::with_capacity(layout.slots());
        for idx in 0..n {
            let Some((v, _)) = value::decode(self.codes[stm as usize * n + idx]) else {
                continue;
            };
            let b = layout.decode(idx).expect("a legal entry decodes");
            pieces.clear();
            for slot in 0..layout.slots() {
                let color = color_of_code(layout.color[slot]);
                let kind = kind_of_code(layout.kind[slot]);
                let square = Square::from_index(b.sq[slot] as usize).expect("on the board");
                pieces.push((Piece { color, kind }, square));
            }
            if !keep(&pieces) {
                continue;
            }
            match v {
                Value::Win(_) => counts.wins += 1,
                Value::Draw => counts.draws += 1,
                Value::Loss(_) => counts.losses += 1,
            }
        }
        counts
    }

    /// The FEN of an entry (`side × entries + index`), when it is a legal position; Red is
    /// the stronger side.
    pub fn entry_fen(&self, entry: u64) -> Option<String> {
        let n = self.layout.size as u64;
        let (stm, idx) = ((entry / n) as u8, (entry % n) as usize);
        if stm > 1 || value::decode(self.codes[entry as usize]).is_none() {
            return None;
        }
        let b = self.layout.decode(idx)?;
        Some(self.layout.fen(&b, stm))
    }

    /// The FEN of the longest win, if anything is won.
    pub fn longest_win_fen(&self) -> Option<String> {
        if self.stats.longest_win == 0 {
            None
        } else {
            self.entry_fen(self.stats.longest_entry)
        }
    }

    /// The value and Asian verdict of each legal entry with `stm` (0 the stronger side, 1 the
    /// weaker) to move, with its FEN, in index order.
    pub fn positions(&self, stm: u8) -> impl Iterator<Item = (String, Value, Asian)> + '_ {
        let n = self.layout.size;
        (0..n).filter_map(move |idx| {
            let (v, a) = value::decode(self.codes[stm as usize * n + idx])?;
            let b = self.layout.decode(idx)?;
            Some((self.layout.fen(&b, stm), v, a))
        })
    }

    /// Writes the table to `dir` under its own name, through a temporary file that is
    /// renamed once written and synced. Returns the file's path.
    pub fn save(&self, dir: &Path) -> Result<PathBuf, EgtbError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |error| EgtbError::Io { path, error }
        };
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let path = dir.join(self.ending().file_name());
        let tmp = dir.join(format!("{}.tmp", self.ending().file_name()));
        let raw = codes_bytes(&self.codes);
        let payload = miniz_oxide::deflate::compress_to_vec(&raw, 6);
        let mut header = Vec::new();
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&VERSION.to_le_bytes());
        let name = self.ending().name();
        header.push(name.len() as u8);
        header.extend_from_slice(name.as_bytes());
        header.extend_from_slice(&self.stats.entries.to_le_bytes());
        for s in &self.stats.sides {
            for v in [
                s.wins,
                s.draws,
                s.losses,
                s.illegal,
                s.asian_losses,
                s.asian_wins,
            ] {
                header.extend_from_slice(&v.to_le_bytes());
            }
        }
        header.extend_from_slice(&self.stats.longest_win.to_le_bytes());
        header.extend_from_slice(&self.stats.longest_entry.to_le_bytes());
        header.extend_from_slice(&self.stats.generation_ms.to_le_bytes());
        header.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        header.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        header.extend_from_slice(&fnv1a(&raw).to_le_bytes());
        let sum = fnv1a(&header);
        header.extend_from_slice(&sum.to_le_bytes());
        let mut file = std::fs::File::create(&tmp).map_err(io(&tmp))?;
        file.write_all(&header).map_err(io(&tmp))?;
        file.write_all(&payload).map_err(io(&tmp))?;
        file.sync_all().map_err(io(&tmp))?;
        drop(file);
        std::fs::rename(&tmp, &path).map_err(io(&path))?;
        Ok(path)
    }

    /// Reads the table of `ending` from `dir`, checking every checksum.
    pub fn load(dir: &Path, ending: Ending) -> Result<Table, EgtbError> {
        let path = dir.join(ending.file_name());
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(EgtbError::NoTable {
                    ending: ending.name(),
                    path,
                });
            }
            Err(error) => return Err(EgtbError::Io { path, error }),
        };
        let damaged = |reason: String| EgtbError::Damaged {
            ending: ending.name(),
            path: path.clone(),
            reason,
        };
        let layout = layout_of(ending)?;
        let mut r = Reader {
            bytes: &bytes,
            at: 0,
        };
        let cut = || damaged("the file is cut short".to_string());
        if r.take(4).ok_or_else(cut)? != MAGIC {
            return Err(damaged("it is not a table file (no XQTB mark)".into()));
        }
        let version = r.u16().ok_or_else(cut)?;
        if version != VERSION {
            return Err(damaged(format!(
                "format version {version}, this program reads version {VERSION}"
            )));
        }
        let len = r.take(1).ok_or_else(cut)?[0] as usize;
        let name = String::from_utf8_lossy(r.take(len).ok_or_else(cut)?).into_owned();
        if name != ending.name() {
            return Err(damaged(format!("it holds the ending {name}")));
        }
        let entries = r.u64().ok_or_else(cut)?;
        if entries != layout.size as u64 {
            return Err(damaged(format!(
                "{entries} entries per side, the ending has {}",
                layout.size
            )));
        }
        let mut sides = [SideCounts::default(); 2];
        for s in &mut sides {
            let mut v = [0u64; 6];
            for x in &mut v {
                *x = r.u64().ok_or_else(cut)?;
            }
            *s = SideCounts {
                wins: v[0],
                draws: v[1],
                losses: v[2],
                illegal: v[3],
                asian_losses: v[4],
                asian_wins: v[5],
            };
        }
        let longest_win = r.u16().ok_or_else(cut)?;
        let longest_entry = r.u64().ok_or_else(cut)?;
        let generation_ms = r.u64().ok_or_else(cut)?;
        let payload_len = r.u64().ok_or_else(cut)? as usize;
        let payload_sum = r.u64().ok_or_else(cut)?;
        let raw_sum = r.u64().ok_or_else(cut)?;
        let header_end = r.at;
        let header_sum = r.u64().ok_or_else(cut)?;
        if fnv1a(&bytes[..header_end]) != header_sum {
            return Err(damaged("the header's checksum does not match".into()));
        }
        let payload = r.take(payload_len).ok_or_else(cut)?;
        if r.at != bytes.len() {
            return Err(damaged(format!(
                "{} bytes after the end of the table",
                bytes.len() - r.at
            )));
        }
        if fnv1a(payload) != payload_sum {
            return Err(damaged("the data's checksum does not match".into()));
        }
        let raw = miniz_oxide::inflate::decompress_to_vec_with_limit(payload, layout.size * 4)
            .map_err(|e| damaged(format!("the data does not unpack ({:?})", e.status)))?;
        if raw.len() != layout.size * 4 || fnv1a(&raw) != raw_sum {
            return Err(damaged(
                "the unpacked data does not match its checksum".into(),
            ));
        }
        let n = layout.size * 2;
        let codes: Vec<u16> = (0..n)
            .map(|i| raw[i] as u16 | (raw[n + i] as u16) << 8)
            .collect();
        let table = Table::from_codes(layout, codes, generation_ms);
        let stored = TableStats {
            entries,
            sides,
            longest_win,
            longest_entry,
            generation_ms,
        };
        if table.stats != stored {
            return Err(damaged(
                "the counts in the header do not match the data".into(),
            ));
        }
        Ok(table)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let s = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(s)
    }
    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
}
