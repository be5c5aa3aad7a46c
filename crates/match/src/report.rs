//! The words a match prints: the live progress line and the final summary.

use crate::stats::{EloEstimate, Tally};
use crate::tournament::Standing;
use std::fmt::Write as _;

/// An Elo estimate as `+12.3 ± 45.6`, or `-` before any game.
pub fn format_elo(estimate: Option<EloEstimate>) -> String {
    let Some(e) = estimate else {
        return "-".into();
    };
    let elo = if e.elo.is_infinite() {
        if e.elo > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{:+.1}", e.elo)
    };
    if e.error.is_finite() {
        format!("{elo} ± {:.1}", e.error)
    } else {
        format!("{elo} ± inf")
    }
}

/// Wins, draws and losses as `+W =D -L`.
fn win_draw_loss(t: &Tally) -> String {
    format!("+{} ={} -{}", t.wins, t.draws, t.losses)
}

/// The one-line progress report: games, W/D/L, score, Elo ± error, LOS, pentanomial counts,
/// and the LLR when an SPRT runs.
pub fn progress_line(standing: &Standing) -> String {
    let t = &standing.tally;
    let mut line = format!(
        "Games {}/{}: {}",
        t.games(),
        standing.planned,
        win_draw_loss(t)
    );
    if let Some(score) = t.score() {
        let _ = write!(line, ", score {:.1}%", 100.0 * score);
    }
    let _ = write!(
        line,
        ", Elo {}, LOS {:.1}%, Ptnml {:?}",
        format_elo(t.elo()),
        100.0 * t.los(),
        t.pentanomial
    );
    if let (Some(sprt), Some(llr)) = (standing.sprt, standing.llr) {
        let (lower, upper) = sprt.bounds();
        let _ = write!(line, ", LLR {llr:.2} ({lower:.2}, {upper:.2})");
    }
    line
}

/// The final summary, several lines.
pub fn summary(standing: &Standing, conditions: &str) -> String {
    let t = &standing.tally;
    let [first, second] = &standing.names;
    let mut out = String::new();
    let _ = writeln!(out, "Match {first} vs {second} ({conditions})");
    let _ = writeln!(
        out,
        "Games: {} of {} planned; {first}: {}",
        t.games(),
        standing.planned,
        win_draw_loss(t)
    );
    if let Some(score) = t.score() {
        let _ = writeln!(out, "Score of {first}: {:.1}%", 100.0 * score);
    }
    let _ = writeln!(out, "Elo (games):  {}", format_elo(t.elo()));
    let _ = writeln!(out, "Elo (pairs):  {}", format_elo(t.elo_pentanomial()));
    let _ = writeln!(out, "LOS: {:.1}%", 100.0 * t.los());
    let _ = writeln!(
        out,
        "Pentanomial [0, 0.5, 1, 1.5, 2 points per pair]: {:?} ({} pairs)",
        t.pentanomial,
        t.pairs()
    );
    let [red, draw, black] = standing.by_colour;
    let _ = writeln!(
        out,
        "By colour: Red wins {red}, draws {draw}, Black wins {black}"
    );
    if t.games() > 0 {
        let _ = writeln!(
            out,
            "Average length: {:.1} plies",
            standing.plies as f64 / f64::from(t.games())
        );
    }
    if let Some(sprt) = standing.sprt {
        let (lower, upper) = sprt.bounds();
        let verdict = standing
            .decision
            .map_or("no decision yet".to_string(), |d| d.to_string());
        let _ = writeln!(
            out,
            "SPRT ({sprt}): LLR {:.2} ({lower:.2}, {upper:.2}): {verdict}",
            standing.llr.unwrap_or(0.0)
        );
    }
    let _ = writeln!(out, "Endings:");
    for (reason, count) in &standing.terminations {
        let _ = writeln!(out, "  {reason}: {count}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_is_formatted_with_sign_and_error() {
        let e = EloEstimate {
            elo: 12.345,
            error: 45.67,
        };
        assert_eq!(format_elo(Some(e)), "+12.3 ± 45.7");
        let e = EloEstimate {
            elo: f64::NEG_INFINITY,
            error: 0.0,
        };
        assert_eq!(format_elo(Some(e)), "-inf ± 0.0");
        assert_eq!(format_elo(None), "-");
    }

    #[test]
    fn progress_line_shows_counts_and_ptnml() {
        let standing = Standing {
            names: ["a".into(), "b".into()],
            planned: 10,
            tally: Tally {
                wins: 3,
                draws: 1,
                losses: 0,
                pentanomial: [0, 0, 0, 1, 1],
            },
            ..Standing::default()
        };
        let line = progress_line(&standing);
        assert!(
            line.starts_with("Games 4/10: +3 =1 -0, score 87.5%"),
            "{line}"
        );
        assert!(line.contains("Ptnml [0, 0, 0, 1, 1]"), "{line}");
        assert!(line.contains("LOS"), "{line}");
    }
}
