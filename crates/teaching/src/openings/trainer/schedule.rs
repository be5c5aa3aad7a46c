//! The spaced-repetition schedule of the trainer's cards, Leitner boxes: a card is one branch
//! of a line played from one side. A line played to its end without a miss moves the card up
//! a box and waits longer before it is due again; a miss sends it back to the first box, due
//! at once. Pure functions of the card and the clock the caller passes in (milliseconds
//! since 1970).

/// One day, in milliseconds.
pub const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// How long a card waits in each box after a clean run, in days: box 1 one day, box 2 three …
pub const BOX_DAYS: [i64; 7] = [0, 1, 3, 7, 16, 35, 90];

/// The highest box.
pub const TOP_BOX: u8 = (BOX_DAYS.len() - 1) as u8;

/// From this box on a card counts as learnt: played cleanly twice in a row, days apart.
pub const LEARNT_BOX: u8 = 2;

/// Where a card stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CardState {
    /// Its box, 0 (new or missed) to [`TOP_BOX`].
    pub level: u8,
    /// Runs recorded: clean ends and misses.
    pub reps: u32,
    /// Misses recorded.
    pub lapses: u32,
    /// When it is due again (ms since 1970); 0 for a card never played.
    pub due_ms: i64,
    /// When it was last recorded (ms since 1970); 0 for a card never played.
    pub last_ms: i64,
}

/// How a run of a card went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    /// The line was played to its end without a move off it.
    Clean,
    /// The learner left the line.
    Missed,
}

impl CardState {
    /// The card after a run that went `outcome`, recorded at `now_ms`.
    pub fn after(self, outcome: Run, now_ms: i64) -> CardState {
        let (level, lapses) = match outcome {
            Run::Clean => ((self.level + 1).min(TOP_BOX), self.lapses),
            Run::Missed => (0, self.lapses + 1),
        };
        CardState {
            level,
            reps: self.reps + 1,
            lapses,
            due_ms: now_ms + BOX_DAYS[usize::from(level)] * DAY_MS,
            last_ms: now_ms,
        }
    }

    /// Whether the card has never been recorded.
    pub fn is_new(&self) -> bool {
        self.reps == 0
    }

    /// Whether it is due at `now_ms`: played before and its wait is over.
    pub fn is_due(&self, now_ms: i64) -> bool {
        !self.is_new() && self.due_ms <= now_ms
    }

    /// Whether it counts as learnt.
    pub fn is_learnt(&self) -> bool {
        self.level >= LEARNT_BOX
    }

    /// Its place in the order cards are preferred in at `now_ms`, lowest first: the due ones
    /// (the most overdue first), then the new ones, then the others by when they come due.
    pub fn preference(&self, now_ms: i64) -> u64 {
        const NEW: u64 = 1 << 62;
        let due = self.due_ms.max(0) as u64;
        if self.is_due(now_ms) {
            due
        } else if self.is_new() {
            NEW
        } else {
            NEW + due
        }
    }
}

/// Which of `cards` to play next at `now_ms`: the most overdue of the due ones; else the
/// first new one (in the given order); else the one due soonest (see
/// [`CardState::preference`]). `None` when there is none.
pub fn next_card<K>(cards: &[(K, CardState)], now_ms: i64) -> Option<&K> {
    cards
        .iter()
        .min_by_key(|(_, c)| c.preference(now_ms))
        .map(|(k, _)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000_000;

    #[test]
    fn clean_runs_space_the_card_out_box_by_box() {
        let mut card = CardState::default();
        let mut now = NOW;
        let mut waits = Vec::new();
        for _ in 0..8 {
            card = card.after(Run::Clean, now);
            waits.push((card.due_ms - now) / DAY_MS);
            now = card.due_ms;
        }
        assert_eq!(waits, [1, 3, 7, 16, 35, 90, 90, 90]);
        assert_eq!(card.reps, 8);
        assert_eq!(card.lapses, 0);
        assert_eq!(card.level, TOP_BOX);
    }

    #[test]
    fn a_miss_sends_the_card_back_and_makes_it_due_at_once() {
        let learnt = CardState::default()
            .after(Run::Clean, NOW)
            .after(Run::Clean, NOW + DAY_MS);
        assert!(learnt.is_learnt());
        assert!(!learnt.is_due(NOW + 2 * DAY_MS));
        let later = NOW + 2 * DAY_MS;
        let missed = learnt.after(Run::Missed, later);
        assert_eq!(missed.level, 0);
        assert_eq!(missed.lapses, 1);
        assert_eq!(missed.reps, 3);
        assert!(missed.is_due(later));
        assert!(!missed.is_learnt());
        assert_eq!(missed.last_ms, later);
    }

    #[test]
    fn a_new_card_is_neither_due_nor_learnt() {
        let card = CardState::default();
        assert!(card.is_new());
        assert!(!card.is_due(NOW));
        assert!(!card.is_learnt());
    }

    #[test]
    fn the_next_card_is_the_most_overdue_then_a_new_one_then_the_soonest() {
        let played = |due_ms| CardState {
            level: 1,
            reps: 1,
            due_ms,
            last_ms: due_ms - DAY_MS,
            ..CardState::default()
        };
        let new = CardState::default();
        let cards = [
            ("new", new),
            ("overdue-a-day", played(NOW - DAY_MS)),
            ("overdue-a-week", played(NOW - 7 * DAY_MS)),
            ("tomorrow", played(NOW + DAY_MS)),
        ];
        assert_eq!(next_card(&cards, NOW), Some(&"overdue-a-week"));
        // Nothing due: a new card before one that waits.
        assert_eq!(next_card(&cards, NOW - 8 * DAY_MS), Some(&"new"));
        // Nothing due and nothing new: the one due soonest.
        let waiting = [
            ("in-a-week", played(NOW + 7 * DAY_MS)),
            ("tomorrow", played(NOW + DAY_MS)),
        ];
        assert_eq!(next_card(&waiting, NOW), Some(&"tomorrow"));
        assert_eq!(next_card::<&str>(&[], NOW), None);
    }
}
