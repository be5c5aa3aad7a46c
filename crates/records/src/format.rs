//! Telling record formats apart, and reading or writing any of them.

use crate::collection::{Collection, Written};
use crate::error::{RecordError, WriteError};
use crate::game::Game;
use crate::{dhtmlxq, pgn, xqf};
use std::fmt;
use xiangqi_rules::notation::Notation;

/// A kind of record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordFormat {
    /// PGN text, any notation, any number of games.
    Pgn,
    /// XQStudio's binary format, one game.
    Xqf,
    /// DhtmlXQ/UBB text, one game a record.
    DhtmlXq,
}

impl RecordFormat {
    /// The format's name: `PGN`, `XQF` or `DhtmlXQ`.
    pub const fn name(self) -> &'static str {
        match self {
            RecordFormat::Pgn => "PGN",
            RecordFormat::Xqf => "XQF",
            RecordFormat::DhtmlXq => "DhtmlXQ",
        }
    }

    /// The format of a file from its content, and its extension (without the dot) where the
    /// content does not tell: the XQF signature with a whole header, else the extension
    /// `xqf` or `pgn`, else a `[DhtmlXQ` element, else PGN.
    pub fn detect(bytes: &[u8], extension: Option<&str>) -> RecordFormat {
        let ext = extension.map(str::to_ascii_lowercase);
        if bytes.starts_with(b"XQ") && bytes.len() >= 0x400 {
            return RecordFormat::Xqf;
        }
        match ext.as_deref() {
            Some("xqf") => return RecordFormat::Xqf,
            Some("pgn") => return RecordFormat::Pgn,
            _ => {}
        }
        if bytes.windows(8).any(|w| w == b"[DhtmlXQ") {
            RecordFormat::DhtmlXq
        } else {
            RecordFormat::Pgn
        }
    }

    /// Reads every game of a file in this format: each game or the error that stopped it,
    /// and warnings for what was skipped. The error is for a file that cannot be read as a
    /// whole (not text, or no game in it); an XQF file's one game is in the collection,
    /// read or not.
    pub fn read(self, bytes: &[u8]) -> Result<Collection, RecordError> {
        match self {
            RecordFormat::Pgn => pgn::read_all(bytes),
            RecordFormat::Xqf => Ok(Collection {
                games: vec![xqf::read(bytes)],
                warnings: Vec::new(),
                encoding: None,
            }),
            RecordFormat::DhtmlXq => dhtmlxq::read_all(bytes),
        }
    }
}

impl fmt::Display for RecordFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format to write, with the notation for PGN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputFormat {
    /// PGN in the xqbase convention, moves in this notation.
    Pgn(Notation),
    /// XQF version 1.0.
    Xqf,
    /// DhtmlXQ text.
    DhtmlXq,
}

impl OutputFormat {
    /// Every output format, in the order of [`OutputFormat::NAMES`].
    pub const ALL: [OutputFormat; 5] = [
        OutputFormat::Pgn(Notation::Iccs),
        OutputFormat::Pgn(Notation::Wxf),
        OutputFormat::Pgn(Notation::Chinese),
        OutputFormat::Xqf,
        OutputFormat::DhtmlXq,
    ];

    /// The names [`OutputFormat::from_name`] takes.
    pub const NAMES: [&'static str; 5] = ["pgn-iccs", "pgn-wxf", "pgn-chinese", "xqf", "dhtmlxq"];

    /// The format's name: `pgn-iccs`, `pgn-wxf`, `pgn-chinese`, `xqf` or `dhtmlxq`.
    pub const fn name(self) -> &'static str {
        match self {
            OutputFormat::Pgn(Notation::Iccs) => "pgn-iccs",
            OutputFormat::Pgn(Notation::Wxf) => "pgn-wxf",
            OutputFormat::Pgn(Notation::Chinese) => "pgn-chinese",
            OutputFormat::Xqf => "xqf",
            OutputFormat::DhtmlXq => "dhtmlxq",
        }
    }

    /// The format named `name` (see [`OutputFormat::NAMES`]; case does not matter).
    pub fn from_name(name: &str) -> Option<OutputFormat> {
        OutputFormat::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The format a file extension (without the dot) stands for: `pgn` is PGN in Chinese
    /// notation (what the xqbase convention assumes without a `[Format]` tag), `xqf` is XQF,
    /// `txt`, `ubb`, `dhtml` and `dhtmlxq` are DhtmlXQ.
    pub fn from_extension(extension: &str) -> Option<OutputFormat> {
        match extension.to_ascii_lowercase().as_str() {
            "pgn" => Some(OutputFormat::Pgn(Notation::Chinese)),
            "xqf" => Some(OutputFormat::Xqf),
            "txt" | "ubb" | "dhtml" | "dhtmlxq" => Some(OutputFormat::DhtmlXq),
            _ => None,
        }
    }

    /// The kind of file this format writes.
    pub const fn record_format(self) -> RecordFormat {
        match self {
            OutputFormat::Pgn(_) => RecordFormat::Pgn,
            OutputFormat::Xqf => RecordFormat::Xqf,
            OutputFormat::DhtmlXq => RecordFormat::DhtmlXq,
        }
    }

    /// The bytes of a file holding `games`, and a warning for each thing the format could
    /// not hold (cut or left out). XQF holds exactly one game.
    pub fn write(self, games: &[Game]) -> Result<Written, WriteError> {
        match self {
            OutputFormat::Pgn(notation) => Ok(Written {
                bytes: pgn::write_games(games, notation)?.into_bytes(),
                warnings: Vec::new(),
            }),
            OutputFormat::DhtmlXq => Ok(Written {
                bytes: dhtmlxq::write_games(games)?.into_bytes(),
                warnings: dhtmlxq::left_out(games),
            }),
            OutputFormat::Xqf => match games {
                [game] => xqf::write(game),
                _ => Err(WriteError::OneGameOnly {
                    format: "XQF",
                    games: games.len(),
                }),
            },
        }
    }
}

impl fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for (f, n) in OutputFormat::ALL.iter().zip(OutputFormat::NAMES) {
            assert_eq!(f.name(), n);
            assert_eq!(OutputFormat::from_name(n), Some(*f));
        }
        assert_eq!(
            OutputFormat::from_name("PGN-WXF"),
            Some(OutputFormat::Pgn(Notation::Wxf))
        );
        assert_eq!(OutputFormat::from_name("cbf"), None);
    }

    #[test]
    fn detection_by_content_then_extension() {
        let mut xqf = vec![0u8; 0x400];
        xqf[..2].copy_from_slice(b"XQ");
        assert_eq!(RecordFormat::detect(&xqf, Some("pgn")), RecordFormat::Xqf);
        assert_eq!(RecordFormat::detect(b"XQ", Some("XQF")), RecordFormat::Xqf);
        assert_eq!(
            RecordFormat::detect(b"<br>[DhtmlXQ_movelist]7747", Some("html")),
            RecordFormat::DhtmlXq
        );
        assert_eq!(RecordFormat::detect(b"1. h2e2 *", None), RecordFormat::Pgn);
        assert_eq!(
            OutputFormat::from_extension("PGN"),
            Some(OutputFormat::Pgn(Notation::Chinese))
        );
        assert_eq!(OutputFormat::from_extension("doc"), None);
    }
}
