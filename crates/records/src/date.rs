//! Calendar dates for the `Date` tag of records, from the system clock (UTC), without a
//! date library.

use std::time::{SystemTime, UNIX_EPOCH};

/// The proleptic Gregorian date `days` after 1970-01-01 (negative: before it), as year,
/// month (1–12) and day (1–31).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The days from 1970-01-01 to the proleptic Gregorian date `year-month-day` (negative:
/// before it); the inverse of [`civil_from_days`] for a real date (month 1–12, day within
/// the month).
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    // Years counted from March, so that the leap day ends a year.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Today's date (UTC): year, month, day.
pub fn today() -> (i64, u32, u32) {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_from_days(i64::try_from(secs / 86_400).unwrap_or(0))
}

/// Today's date (UTC) as a PGN `Date` tag writes it: `YYYY.MM.DD`.
pub fn pgn_today() -> String {
    let (y, m, d) = today();
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_000), (2024, 10, 4));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        for days in [-800_000, -1, 0, 59, 11_016, 20_000, 400_000] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }

    #[test]
    fn today_is_a_pgn_date() {
        let text = pgn_today();
        assert_eq!(text.len(), 10);
        assert_eq!(&text[4..5], ".");
        assert!(text[..4].parse::<u32>().unwrap() >= 2024);
    }
}
