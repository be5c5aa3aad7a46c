//! Today's training: the day's dose — the next lesson, a few puzzles near the learner's rating,
//! the opening trainer's next card, an ending to practise — and the streak of days trained.
//!
//! The day is the learner's own calendar day (`YYYY-MM-DD`, as their page says it), so that a
//! streak follows the learner's midnight, not the server's. A day counts for the streak once
//! one piece of training is finished on it (a lesson passed, a puzzle tried, a card played, an
//! ending won or held); a streak runs back from today, or from yesterday while today has
//! nothing yet, so that it is not lost in the morning.

use crate::catalog::CourseId;
use crate::endgames::Endgame;
use crate::puzzles::Puzzle;
use std::fmt;
use xiangqi_records::date::{civil_from_days, days_from_civil};
use xiangqi_rules::random::SplitMix64;

/// The puzzles of a day's dose.
pub const DAILY_PUZZLES: usize = 3;

/// A calendar day, counted in days from 1970-01-01.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(i64);

/// Text that is not a day `YYYY-MM-DD`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadDay(pub String);

impl fmt::Display for BadDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a day written YYYY-MM-DD", self.0)
    }
}

impl std::error::Error for BadDay {}

impl Day {
    /// The day `year-month-day` of the proleptic Gregorian calendar, if there is one.
    pub fn from_ymd(year: i64, month: u32, day: u32) -> Option<Day> {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        let length = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        if day == 0 || day > length {
            return None;
        }
        Some(Day(days_from_civil(year, month, day)))
    }

    /// The day `days` after this one (before it when negative).
    pub const fn plus(self, days: i64) -> Day {
        Day(self.0 + days)
    }

    /// A number of the day, the same for everyone on that day (for choosing the day's puzzles).
    pub const fn number(self) -> i64 {
        self.0
    }

    /// The day's year, month and day.
    pub fn ymd(self) -> (i64, u32, u32) {
        civil_from_days(self.0)
    }
}

impl std::str::FromStr for Day {
    type Err = BadDay;

    fn from_str(text: &str) -> Result<Day, BadDay> {
        let bad = || BadDay(text.chars().take(40).collect());
        let parts: Vec<&str> = text.split('-').collect();
        let [year, month, day] = parts[..] else {
            return Err(bad());
        };
        let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
        if !(digits(year, 4) && digits(month, 2) && digits(day, 2)) {
            return Err(bad());
        }
        let (Ok(y), Ok(m), Ok(d)) = (year.parse(), month.parse(), day.parse()) else {
            return Err(bad());
        };
        Day::from_ymd(y, m, d).ok_or_else(bad)
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.ymd();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

/// A piece of the day's training.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Training {
    /// A lesson of a course passed.
    Lesson,
    /// A puzzle tried.
    Puzzle,
    /// A card of the opening trainer played.
    Card,
    /// A position of the endgame course won or held.
    Ending,
}

impl Training {
    /// Every piece, in the order the day's page lists them.
    pub const ALL: [Training; 4] = [
        Training::Lesson,
        Training::Puzzle,
        Training::Card,
        Training::Ending,
    ];

    /// The piece's code as the API writes it.
    pub const fn code(self) -> &'static str {
        match self {
            Training::Lesson => "lesson",
            Training::Puzzle => "puzzle",
            Training::Card => "card",
            Training::Ending => "ending",
        }
    }

    /// The piece a code names.
    pub fn from_code(code: &str) -> Option<Training> {
        Training::ALL.into_iter().find(|t| t.code() == code)
    }
}

/// The streak on `today`: the days in a row, up to today, with training on each — counted
/// from yesterday while today has none yet (a streak is not lost before the day's training).
/// `days` may be in any order and hold repeats.
pub fn streak(days: &[Day], today: Day) -> u32 {
    let trained = |d: Day| days.contains(&d);
    let mut day = if trained(today) {
        today
    } else {
        today.plus(-1)
    };
    let mut n = 0;
    while trained(day) {
        n += 1;
        day = day.plus(-1);
    }
    n
}

/// The lesson to take next: the first of the rules course not passed, then the first of the
/// mating patterns; `None` once every lesson of both is passed. `passed` holds each course's
/// passed lesson ids.
pub fn next_lesson(passed: impl Fn(CourseId) -> Vec<String>) -> Option<(CourseId, &'static str)> {
    CourseId::ALL.into_iter().find_map(|course| {
        let done = passed(course);
        course
            .ids()
            .iter()
            .find(|id| !done.iter().any(|d| d == *id))
            .map(|id| (course, *id))
    })
}

/// The ending to practise on `day`: the first of the course with a position not finished yet
/// (`finished` holds `id#index` keys, as the page keeps them); once every position is
/// finished, one of the course in turn, a different one each day.
pub fn ending_to_practise<'a>(
    course: &'a [Endgame],
    finished: &[String],
    day: Day,
) -> Option<&'a Endgame> {
    let open = |e: &Endgame| e.finished_positions(finished) < e.positions.len();
    course.iter().find(|e| open(e)).or_else(|| {
        let n = i64::try_from(course.len()).ok().filter(|&n| n > 0)?;
        course.get(usize::try_from(day.number().rem_euclid(n)).ok()?)
    })
}

/// The day's puzzles for a learner rated `rating`: [`DAILY_PUZZLES`] of the puzzles nearest
/// the rating that the learner has not tried (`tried`), drawn by the day (the same all day,
/// another set tomorrow), easiest first. Fewer when fewer are left.
pub fn daily_puzzles<'a>(
    catalog: &'a [Puzzle],
    tried: &[String],
    rating: f64,
    day: Day,
) -> Vec<&'a Puzzle> {
    let mut near: Vec<&Puzzle> = catalog.iter().filter(|p| !tried.contains(&p.id)).collect();
    near.sort_by(|a, b| {
        let da = (f64::from(a.rating) - rating).abs();
        let db = (f64::from(b.rating) - rating).abs();
        da.total_cmp(&db).then_with(|| a.id.cmp(&b.id))
    });
    // Three from the nearest dozen, drawn by the day.
    near.truncate(DAILY_PUZZLES * 4);
    let mut random = SplitMix64::new(day.number() as u64 ^ 0x7fd4_a1c3_0d55_9e21);
    let mut chosen = Vec::new();
    while chosen.len() < DAILY_PUZZLES && !near.is_empty() {
        let i = random.below(near.len());
        chosen.push(near.swap_remove(i));
    }
    chosen.sort_by(|a, b| a.rating.cmp(&b.rating).then_with(|| a.id.cmp(&b.id)));
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> Day {
        text.parse().unwrap()
    }

    #[test]
    fn days_read_and_write_as_the_calendar_has_them() {
        assert_eq!(day("1970-01-01").number(), 0);
        assert_eq!(day("2026-12-07").to_string(), "2026-12-07");
        assert_eq!(day("2024-02-29").plus(1), day("2024-03-01"));
        assert_eq!(day("2026-12-31").plus(1), day("2027-01-01"));
        assert_eq!(day("2000-03-01").plus(-1), day("2000-02-29"));
        for bad in [
            "",
            "2026-13-01",
            "2026-02-29",
            "2026-1-01",
            "2026-01-01T00",
            "２０２６-01-01",
            "1900-02-29",
            "2026-00-10",
            "2026-04-31",
        ] {
            let err = bad.parse::<Day>().unwrap_err();
            assert!(err.to_string().contains("YYYY-MM-DD"), "{bad}: {err}");
        }
        // Every day of four centuries goes there and back.
        let mut d = day("1900-01-01");
        while d < day("2300-01-01") {
            assert_eq!(d.to_string().parse::<Day>().unwrap(), d);
            d = d.plus(1);
        }
    }

    #[test]
    fn a_streak_counts_days_in_a_row_up_to_today_or_yesterday() {
        let today = day("2026-12-07");
        let days = |list: &[&str]| list.iter().map(|d| day(d)).collect::<Vec<_>>();
        assert_eq!(streak(&[], today), 0);
        assert_eq!(streak(&days(&["2026-12-07"]), today), 1);
        // Not trained yet today: yesterday's streak still stands.
        assert_eq!(streak(&days(&["2026-12-05", "2026-12-06"]), today), 2);
        // A day missed ends it.
        assert_eq!(streak(&days(&["2026-12-04", "2026-12-05"]), today), 0);
        assert_eq!(
            streak(
                &days(&[
                    "2026-12-07",
                    "2026-12-03",
                    "2026-12-06",
                    "2026-12-05",
                    "2026-12-07"
                ]),
                today
            ),
            3
        );
        // Across a month's and a year's end.
        let days = days(&["2026-12-30", "2026-12-31", "2027-01-01"]);
        assert_eq!(streak(&days, day("2027-01-01")), 3);
    }

    #[test]
    fn the_next_lesson_is_the_first_not_passed_rules_before_patterns() {
        let none = |_| Vec::new();
        assert_eq!(next_lesson(none), Some((CourseId::Rules, "board")));
        let some = |c| match c {
            CourseId::Rules => vec!["board".to_string(), "advisor".to_string()],
            CourseId::Patterns => vec![],
        };
        assert_eq!(next_lesson(some), Some((CourseId::Rules, "general")));
        let rules_done = |c| match c {
            CourseId::Rules => CourseId::Rules
                .ids()
                .iter()
                .map(|s| s.to_string())
                .collect(),
            CourseId::Patterns => vec![CourseId::Patterns.ids()[0].to_string()],
        };
        assert_eq!(
            next_lesson(rules_done),
            Some((CourseId::Patterns, CourseId::Patterns.ids()[1]))
        );
        let all = |c: CourseId| c.ids().iter().map(|s| s.to_string()).collect();
        assert_eq!(next_lesson(all), None);
    }

    #[test]
    fn the_ending_is_the_first_unfinished_then_each_in_turn() {
        let course = crate::endgames::endgames().unwrap();
        let today = day("2026-12-07");
        assert_eq!(
            ending_to_practise(course, &[], today).unwrap().id,
            course[0].id
        );
        let first_done: Vec<String> = (0..course[0].positions.len())
            .map(|i| course[0].position_key(i))
            .collect();
        assert_eq!(
            ending_to_practise(course, &first_done, today).unwrap().id,
            course[1].id
        );
        let all: Vec<String> = course
            .iter()
            .flat_map(|e| (0..e.positions.len()).map(move |i| e.position_key(i)))
            .collect();
        let a = ending_to_practise(course, &all, today).unwrap();
        let b = ending_to_practise(course, &all, today.plus(1)).unwrap();
        assert_ne!(a.id, b.id, "another ending the next day");
        assert!(ending_to_practise(&[], &all, today).is_none());
    }

    #[test]
    fn the_days_puzzles_are_near_the_rating_untried_and_the_same_all_day() {
        let catalog = crate::puzzles::shipped().unwrap();
        let today = day("2026-12-07");
        let chosen = daily_puzzles(catalog, &[], 1500.0, today);
        assert_eq!(chosen.len(), DAILY_PUZZLES);
        let ids: Vec<String> = chosen.iter().map(|p| p.id.clone()).collect();
        assert_eq!(
            ids,
            daily_puzzles(catalog, &[], 1500.0, today)
                .iter()
                .map(|p| p.id.clone())
                .collect::<Vec<_>>()
        );
        // Each among the dozen nearest the rating.
        let mut by_distance: Vec<u32> = catalog
            .iter()
            .map(|p| (f64::from(p.rating) - 1500.0).abs() as u32)
            .collect();
        by_distance.sort();
        let dozenth = by_distance[DAILY_PUZZLES * 4 - 1];
        for p in &chosen {
            assert!(
                (f64::from(p.rating) - 1500.0).abs() as u32 <= dozenth,
                "{}",
                p.id
            );
        }
        assert!(chosen.windows(2).all(|w| w[0].rating <= w[1].rating));
        // Tried puzzles are not offered again.
        let again = daily_puzzles(catalog, &ids, 1500.0, today);
        assert!(again.iter().all(|p| !ids.contains(&p.id)));
        // Another day, another draw (over a week, at least one differs).
        let week: Vec<Vec<String>> = (1..8)
            .map(|n| {
                daily_puzzles(catalog, &[], 1500.0, today.plus(n))
                    .iter()
                    .map(|p| p.id.clone())
                    .collect()
            })
            .collect();
        assert!(week.iter().any(|w| *w != ids));
    }
}
