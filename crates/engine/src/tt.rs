//! The transposition table: a shared, lock-free cache of search results, sized in megabytes.

use crate::score::Score;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use xiangqi_rules::{Move, Square};

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored score (fail low).
    Upper = 1,
    /// The true score is at least the stored score (fail high).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

/// One probe result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best or refuting move found, if any.
    pub best_move: Option<Move>,
    /// Stored score, relative to the node (see [`crate::score::from_table`]).
    pub score: Score,
    /// Static evaluation of the node.
    pub eval: Score,
    /// Depth searched.
    pub depth: i32,
    /// Kind of bound.
    pub bound: Bound,
}

/// A slot: the key xor-ed with the data, so a torn write from another thread reads as a miss.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const SLOTS_PER_BUCKET: usize = 4;

/// When a bucket is full, the slot kept least is the one with the lowest depth less this many
/// plies for each search since it was written.
const AGE_WEIGHT: i32 = 8;

/// One cache line, so that a probe reads one line from memory.
#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    slots: [Slot; SLOTS_PER_BUCKET],
}

/// The table. All methods take `&self`, so search threads share one table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

fn pack(entry: &TtEntry, generation: u8) -> u64 {
    let m = entry.best_move.map_or(0, |m| m.raw()) as u64;
    let score = (entry.score as i16) as u16 as u64;
    let eval = (entry.eval as i16) as u16 as u64;
    let depth = entry.depth.clamp(0, 255) as u64;
    let bound = entry.bound as u64;
    m | score << 16 | eval << 32 | depth << 48 | bound << 56 | ((generation as u64 & 0x3f) << 58)
}

fn unpack(data: u64) -> Option<TtEntry> {
    let raw = (data & 0x3fff) as u16;
    let best_move = if raw == 0 {
        None
    } else {
        let from = Square::from_index((raw & 0x7f) as usize)?;
        let to = Square::from_index((raw >> 7) as usize)?;
        Some(Move::new(from, to))
    };
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(TtEntry {
        best_move,
        score: ((data >> 16) as u16 as i16) as Score,
        eval: ((data >> 32) as u16 as i16) as Score,
        depth: ((data >> 48) & 0xff) as i32,
        bound,
    })
}

fn generation_of(data: u64) -> u8 {
    ((data >> 58) & 0x3f) as u8
}

/// A table the memory could not be found for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableTooLarge {
    /// The size asked for, in MB.
    pub megabytes: usize,
}

impl std::fmt::Display for TableTooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a hash table of {} MB cannot be allocated: not enough memory",
            self.megabytes
        )
    }
}

impl std::error::Error for TableTooLarge {}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one bucket); the process aborts when the
    /// memory cannot be had (see [`TranspositionTable::try_new`]).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::with_capacity(count);
        crate::memory::advise_huge_pages(&mut buckets);
        buckets.resize_with(count, Bucket::default);
        TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    /// A table of about `megabytes` MB, or why it cannot be had: the size is asked of the
    /// allocator before any of it is used.
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, TableTooLarge> {
        let too_large = TableTooLarge { megabytes };
        let bytes = megabytes
            .max(1)
            .checked_mul(1024 * 1024)
            .ok_or(too_large.clone())?;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count).map_err(|_| too_large)?;
        crate::memory::advise_huge_pages(&mut buckets);
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for bucket in &self.buckets {
            for slot in &bucket.slots {
                slot.check.store(0, Ordering::Relaxed);
                slot.data.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so old entries are replaced first.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & 0x3f, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe soon after finds it
    /// there; a hint that changes nothing else.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch reads nothing the program sees and cannot fault.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in &self.bucket(key).slots {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key && data != 0 {
                return unpack(data);
            }
        }
        None
    }

    /// Stores an entry for `key`, replacing the same key, else the shallowest or oldest slot.
    pub fn store(&self, key: u64, entry: TtEntry) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in bucket.slots.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            if data == 0 || slot.check.load(Ordering::Relaxed) ^ data == key {
                victim = i;
                // Keep a known best move when the new entry has none.
                if let (None, Some(old)) = (entry.best_move, unpack(data)) {
                    let mut merged = entry;
                    merged.best_move = old.best_move;
                    return self.write(&bucket.slots[i], key, &merged, generation);
                }
                break;
            }
            let age = (generation.wrapping_sub(generation_of(data)) & 0x3f) as i32;
            let worth = ((data >> 48) & 0xff) as i32 - AGE_WEIGHT * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        self.write(&bucket.slots[victim], key, &entry, generation);
    }

    fn write(&self, slot: &Slot, key: u64, entry: &TtEntry, generation: u8) {
        let data = pack(entry, generation);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of a sample of slots filled in the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for slot in &bucket.slots {
                let data = slot.data.load(Ordering::Relaxed);
                if data != 0 && generation_of(data) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * SLOTS_PER_BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(
            "h2".parse::<Square>().unwrap(),
            "e2".parse::<Square>().unwrap(),
        );
        let entry = TtEntry {
            best_move: Some(m),
            score: -1234,
            eval: 56,
            depth: 7,
            bound: Bound::Lower,
        };
        tt.store(0xDEAD_BEEF, entry);
        assert_eq!(tt.probe(0xDEAD_BEEF), Some(entry));
        assert_eq!(tt.probe(0xDEAD_BEEE), None);
        tt.clear();
        assert_eq!(tt.probe(0xDEAD_BEEF), None);
    }
}
