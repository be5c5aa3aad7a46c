//! The ECCO data shipped in `crates/teaching/openings/`: every code with its names (in
//! Chinese, and for the named codes in English and Russian), the opening families in three
//! languages, and the steps (lines) that lead to each code. Read once from the embedded text;
//! a fault in that text names its file and line.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;
use xiangqi_rules::{Move, Square};

/// The moves of a data field, in ICCS and apart by spaces; the error names the move that
/// does not read.
pub(crate) fn read_moves(text: &str) -> Result<Vec<Move>, String> {
    text.split_whitespace()
        .map(|m| {
            m.parse::<Move>()
                .map_err(|e| format!("bad move {m:?}: {e}"))
        })
        .collect()
}

const CODES: &str = include_str!("../../openings/codes.tsv");
const FAMILIES: &str = include_str!("../../openings/families.tsv");
const NAMES: &str = include_str!("../../openings/names.tsv");
const LINES: &str = include_str!("../../openings/lines.tsv");
const STOPS: &str = include_str!("../../openings/stops.tsv");

/// Red and Black's moves are looked at up to this many each, as ECCO does.
pub const WINDOW: usize = 10;

/// One ECCO code and its names.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The code, `A00`–`E99`.
    pub code: String,
    /// The opening's Chinese name, e.g. `中炮过河车互进七兵对屏风马平炮兑车`.
    pub opening: String,
    /// The variation's Chinese name, e.g. `红仕角炮对黑退边炮`; empty when the code has none.
    pub variation: String,
    /// False for codes the classification leaves unused (their name is their group's).
    pub named: bool,
    /// Index into [`Table::families`].
    pub family: usize,
    /// The code's own names in English and Russian; `None` for the reserved codes.
    pub names: Option<Names>,
}

/// A code's opening and variation named in one language, and where the name comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Translated {
    /// The opening, e.g. `Central Cannon with Cross-river Chariot … vs Screen Horses …`.
    pub opening: String,
    /// The variation, e.g. `Red: palcorner cannon; Black: edge cannon back`; empty where the
    /// Chinese variation is.
    pub variation: String,
    /// The citation of the name's source (defined in `families.tsv` or `names.tsv`).
    pub source: String,
}

/// A named code's names in English and Russian (`names.tsv`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Names {
    /// The English names.
    pub en: Translated,
    /// The Russian names.
    pub ru: Translated,
}

/// An opening family, named in the three interface languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    /// A stable key, e.g. `screen-horses`.
    pub key: String,
    /// The Chinese name, e.g. `中炮对屏风马`.
    pub zh: String,
    /// The English name, e.g. `Central Cannon vs Screen Horses`.
    pub en: String,
    /// The Russian name, e.g. `Центральная пушка против ширмы из коней`.
    pub ru: String,
    /// Where the English name comes from: the citation of its source in `families.tsv`.
    pub en_source: String,
    /// Where the Russian name comes from: the citation of its source in `families.tsv`.
    pub ru_source: String,
}

/// A move a step needs: any of `moves`, among the side's first `within` moves.
#[derive(Clone, Debug)]
pub struct Need {
    /// The moves that satisfy the need (one of them suffices).
    pub moves: Vec<Move>,
    /// How many of the side's first moves are searched.
    pub within: usize,
}

/// A step from one code to another: the moves of each side it needs.
#[derive(Clone, Debug)]
pub struct Step {
    /// Index of the entry the step leaves, `None` for the start.
    pub parent: Option<usize>,
    /// Index of the entry the step reaches.
    pub child: usize,
    /// Lower ranks are preferred among the steps that can be taken.
    pub rank: i32,
    /// Red's moves.
    pub red: Vec<Need>,
    /// Black's moves.
    pub black: Vec<Need>,
}

/// Where the reading of one side's moves stops at a code: from move `from` (0-based) on, the
/// first move that is neither in `passing` nor needed by a step leaving the code.
#[derive(Clone, Debug)]
pub struct Stop {
    /// The first move (0-based) read.
    pub from: usize,
    /// The moves that do not settle the game at the code.
    pub passing: Vec<Move>,
}

/// The whole shipped table.
#[derive(Debug)]
pub struct Table {
    /// Every code A00–E99, in order.
    pub entries: Vec<Entry>,
    /// The opening families.
    pub families: Vec<Family>,
    /// The steps between codes.
    pub steps: Vec<Step>,
    /// By entry: where the reading of Red's and Black's moves stops there, if it does.
    pub stops: Vec<[Option<Stop>; 2]>,
    index: HashMap<String, usize>,
}

/// A fault in the shipped data: the file, the line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The data file, e.g. `lines.tsv`.
    pub file: &'static str,
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} line {}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for TableError {}

impl Table {
    /// The index of `code` (e.g. `C48`), if the table has it.
    pub fn position(&self, code: &str) -> Option<usize> {
        self.index.get(code).copied()
    }
}

/// The lines of a data file that hold data (not comments, not blank), numbered from 1.
fn data_lines(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| (i + 1, l.split('\t').collect()))
}

/// Every code from `A00` to `E99`, in order.
pub fn all_codes() -> impl Iterator<Item = String> {
    ['A', 'B', 'C', 'D', 'E']
        .into_iter()
        .flat_map(|letter| (0..100).map(move |n| format!("{letter}{n:02}")))
}

/// The first and last code of each family, in the order of the families.
type CodeRanges = Vec<(String, String)>;

fn parse_families() -> Result<(Vec<Family>, CodeRanges), TableError> {
    parse_families_text(FAMILIES)
}

/// The sources that `families.tsv` defines in its comments, one a line:
/// `# source <key>: <citation>`, keyed by `key`.
fn family_sources(text: &str) -> Result<HashMap<&str, &str>, TableError> {
    let mut sources = HashMap::new();
    add_sources(&mut sources, text, "families.tsv")?;
    Ok(sources)
}

/// Adds the sources that `text` (the data file `file`) defines to `sources`, refusing a key
/// defined twice, here or before.
fn add_sources<'t>(
    sources: &mut HashMap<&'t str, &'t str>,
    text: &'t str,
    file: &'static str,
) -> Result<(), TableError> {
    for (i, l) in text.lines().enumerate() {
        let Some(rest) = l.strip_prefix("# source ") else {
            continue;
        };
        let err = |message: String| TableError {
            file,
            line: i + 1,
            message,
        };
        let (key, citation) = rest
            .split_once(':')
            .ok_or_else(|| err("a source needs `<key>: <citation>`".into()))?;
        let (key, citation) = (key.trim(), citation.trim());
        if key.is_empty() || citation.is_empty() {
            return Err(err("a source needs a key and a citation".into()));
        }
        if sources.insert(key, citation).is_some() {
            return Err(err(format!("source {key} is defined twice")));
        }
    }
    Ok(())
}

fn parse_families_text(text: &str) -> Result<(Vec<Family>, CodeRanges), TableError> {
    let sources = family_sources(text)?;
    let mut families = Vec::new();
    let mut ranges = Vec::new();
    for (line, cols) in data_lines(text) {
        let err = |message: String| TableError {
            file: "families.tsv",
            line,
            message,
        };
        let [key, first, last, zh, en, ru, en_source, ru_source] = cols[..] else {
            return Err(err(format!("expected 8 columns, found {}", cols.len())));
        };
        if [key, zh, en, ru].iter().any(|s| s.trim().is_empty()) {
            return Err(err("a name is empty".into()));
        }
        let cite = |source: &str| {
            sources
                .get(source)
                .map(|c| c.to_string())
                .ok_or_else(|| err(format!("source {source:?} is not defined in the file")))
        };
        families.push(Family {
            key: key.into(),
            zh: zh.into(),
            en: en.into(),
            ru: ru.into(),
            en_source: cite(en_source)?,
            ru_source: cite(ru_source)?,
        });
        ranges.push((first.to_string(), last.to_string()));
    }
    Ok((families, ranges))
}

fn parse_entries(ranges: &[(String, String)]) -> Result<Vec<Entry>, TableError> {
    let mut entries = Vec::new();
    let mut expected = all_codes();
    for (line, cols) in data_lines(CODES) {
        let err = |message: String| TableError {
            file: "codes.tsv",
            line,
            message,
        };
        let [code, opening, variation, status] = cols[..] else {
            return Err(err(format!("expected 4 columns, found {}", cols.len())));
        };
        let want = expected.next().unwrap_or_default();
        if code != want {
            return Err(err(format!("expected code {want:?}, found {code:?}")));
        }
        if opening.trim().is_empty() {
            return Err(err(format!("{code} has no name")));
        }
        let named = match status {
            "named" => true,
            "reserved" => false,
            other => return Err(err(format!("unknown status {other:?}"))),
        };
        let family = ranges
            .iter()
            .position(|(first, last)| first.as_str() <= code && code <= last.as_str())
            .ok_or_else(|| err(format!("{code} is in no family of families.tsv")))?;
        entries.push(Entry {
            code: code.into(),
            opening: opening.into(),
            variation: variation.into(),
            named,
            family,
            names: None,
        });
    }
    if let Some(missing) = expected.next() {
        return Err(TableError {
            file: "codes.tsv",
            line: CODES.lines().count(),
            message: format!("the codes stop before {missing}"),
        });
    }
    Ok(entries)
}

/// Gives each named code of `entries` its English and Russian names from `text` (the
/// contents of `names.tsv`), citing the sources `families` (the contents of `families.tsv`)
/// and `text` define. Refuses a row whose code is unknown, reserved or named before, whose
/// Chinese names are not those of `codes.tsv`, with a name missing or a variation where the
/// Chinese has none (or none where it has one), or with a source defined nowhere; and a named
/// code without a row.
fn parse_names_text(text: &str, families: &str, entries: &mut [Entry]) -> Result<(), TableError> {
    let mut sources = family_sources(families)?;
    add_sources(&mut sources, text, "names.tsv")?;
    let index: HashMap<String, usize> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.code.clone(), i))
        .collect();
    let mut named_on: HashMap<usize, usize> = HashMap::new();
    for (line, cols) in data_lines(text) {
        let err = |message: String| TableError {
            file: "names.tsv",
            line,
            message,
        };
        let [
            code,
            zh,
            zh_variation,
            en,
            en_variation,
            ru,
            ru_variation,
            en_source,
            ru_source,
        ] = cols[..]
        else {
            return Err(err(format!("expected 9 columns, found {}", cols.len())));
        };
        let &at = index
            .get(code)
            .ok_or_else(|| err(format!("unknown code {code:?}")))?;
        let entry = &entries[at];
        if !entry.named {
            return Err(err(format!(
                "{code} is reserved in codes.tsv: only named codes have names"
            )));
        }
        if let Some(first) = named_on.insert(at, line) {
            return Err(err(format!(
                "{code} is named twice (first on line {first})"
            )));
        }
        if zh != entry.opening || zh_variation != entry.variation {
            return Err(err(format!(
                "{code} reads {zh:?} {zh_variation:?} here but {:?} {:?} in codes.tsv",
                entry.opening, entry.variation
            )));
        }
        let cite = |source: &str| {
            sources.get(source).map(|c| c.to_string()).ok_or_else(|| {
                err(format!(
                    "source {source:?} is not defined in families.tsv or names.tsv"
                ))
            })
        };
        let translated = |lang: &str, opening: &str, variation: &str, source: &str| {
            if opening.trim().is_empty() {
                return Err(err(format!("{code} has no {lang} opening name")));
            }
            if variation.trim().is_empty() != zh_variation.is_empty() {
                return Err(err(format!(
                    "{code}: the {lang} variation must be empty exactly where the Chinese one is"
                )));
            }
            Ok(Translated {
                opening: opening.into(),
                variation: variation.into(),
                source: cite(source)?,
            })
        };
        let names = Names {
            en: translated("English", en, en_variation, en_source)?,
            ru: translated("Russian", ru, ru_variation, ru_source)?,
        };
        entries[at].names = Some(names);
    }
    if let Some(missing) = entries.iter().find(|e| e.named && e.names.is_none()) {
        return Err(TableError {
            file: "names.tsv",
            line: text.lines().count(),
            message: format!("the named code {} has no row", missing.code),
        });
    }
    Ok(())
}

/// Reads one column of moves: `-`, or needs separated by spaces (`a|b@n`).
fn parse_needs(text: &str) -> Result<Vec<Need>, String> {
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split_whitespace()
        .map(|token| {
            let (alternatives, within) = match token.split_once('@') {
                Some((moves, n)) => {
                    let n: usize = n
                        .parse()
                        .map_err(|_| format!("bad move count in {token:?}"))?;
                    if n == 0 || n > WINDOW {
                        return Err(format!("move count out of 1..={WINDOW} in {token:?}"));
                    }
                    (moves, n)
                }
                None => (token, WINDOW),
            };
            let moves = alternatives
                .split('|')
                .map(|m| {
                    m.parse::<Move>()
                        .map_err(|e| format!("bad move {m:?} in {token:?}: {e}"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Need { moves, within })
        })
        .collect()
}

fn parse_steps(index: &HashMap<String, usize>) -> Result<Vec<Step>, TableError> {
    let mut steps = Vec::new();
    for (line, cols) in data_lines(LINES) {
        let err = |message: String| TableError {
            file: "lines.tsv",
            line,
            message,
        };
        let [parent, child, rank, red, black] = cols[..] else {
            return Err(err(format!("expected 5 columns, found {}", cols.len())));
        };
        let code = |c: &str| {
            index
                .get(c)
                .copied()
                .ok_or_else(|| err(format!("unknown code {c:?}")))
        };
        let parent = if parent == "-" {
            None
        } else {
            Some(code(parent)?)
        };
        let step = Step {
            parent,
            child: code(child)?,
            rank: rank
                .parse()
                .map_err(|_| err(format!("bad rank {rank:?}")))?,
            red: parse_needs(red).map_err(&err)?,
            black: parse_needs(black).map_err(&err)?,
        };
        if step.red.is_empty() && step.black.is_empty() {
            return Err(err("a step needs at least one move".into()));
        }
        steps.push(step);
    }
    Ok(steps)
}

fn parse_stops(index: &HashMap<String, usize>) -> Result<Vec<[Option<Stop>; 2]>, TableError> {
    let mut stops = vec![[None, None]; index.len()];
    for (line, cols) in data_lines(STOPS) {
        let err = |message: String| TableError {
            file: "stops.tsv",
            line,
            message,
        };
        let [code, side, from, passing] = cols[..] else {
            return Err(err(format!("expected 4 columns, found {}", cols.len())));
        };
        let entry = *index
            .get(code)
            .ok_or_else(|| err(format!("unknown code {code:?}")))?;
        let side = match side {
            "red" => 0,
            "black" => 1,
            other => return Err(err(format!("unknown side {other:?}"))),
        };
        let from: usize = from
            .parse()
            .ok()
            .filter(|n| (1..=WINDOW).contains(n))
            .ok_or_else(|| err(format!("bad first move {from:?}")))?;
        let passing = read_moves(passing).map_err(err)?;
        if stops[entry][side].is_some() {
            return Err(err(format!("{code} has two stops for one side")));
        }
        stops[entry][side] = Some(Stop {
            from: from - 1,
            passing,
        });
    }
    Ok(stops)
}

/// Reads the shipped data.
pub fn load() -> Result<Table, TableError> {
    let (families, ranges) = parse_families()?;
    let mut entries = parse_entries(&ranges)?;
    parse_names_text(NAMES, FAMILIES, &mut entries)?;
    let index: HashMap<String, usize> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.code.clone(), i))
        .collect();
    let steps = parse_steps(&index)?;
    let stops = parse_stops(&index)?;
    Ok(Table {
        entries,
        families,
        steps,
        stops,
        index,
    })
}

/// The shipped table, read on first use. The embedded data is checked by this crate's tests,
/// so a fault here is a build defect, reported with its file and line.
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| match load() {
        Ok(table) => table,
        Err(e) => panic!("the shipped ECCO data is broken: {e}"),
    })
}

/// `m` seen in a mirror standing on the board's middle file (a↔i, b↔h, …).
pub fn mirrored(m: Move) -> Move {
    let flip = |s: Square| Square::new(8 - s.file(), s.rank()).unwrap_or(s);
    Move::new(flip(m.from()), flip(m.to()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCES: &str =
        "# source a: Author, \"A page\", example.org\n# source b: our translation\n";

    #[test]
    fn each_family_name_carries_the_citation_of_its_source() {
        let text = format!("{SOURCES}x\tA00\tA00\t其他\tOther\tПрочие\ta\tb\n");
        let (families, ranges) = parse_families_text(&text).unwrap();
        assert_eq!(families[0].en_source, "Author, \"A page\", example.org");
        assert_eq!(families[0].ru_source, "our translation");
        assert_eq!(ranges, [("A00".to_string(), "A00".to_string())]);
    }

    #[test]
    fn a_source_that_is_not_defined_is_an_error_naming_the_line() {
        let text = format!("{SOURCES}x\tA00\tA00\t其他\tOther\tПрочие\ta\tc\n");
        let err = parse_families_text(&text).unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.to_string().contains("\"c\" is not defined"), "{err}");
    }

    #[test]
    fn a_row_without_its_source_columns_is_an_error() {
        let text = format!("{SOURCES}x\tA00\tA00\t其他\tOther\tПрочие\n");
        let err = parse_families_text(&text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "families.tsv line 3: expected 8 columns, found 6"
        );
    }

    #[test]
    fn a_source_defined_twice_or_without_a_citation_is_an_error() {
        let twice = format!("{SOURCES}# source a: again\n");
        assert!(
            parse_families_text(&twice)
                .unwrap_err()
                .to_string()
                .contains("defined twice")
        );
        let bare = parse_families_text("# source a:\n").unwrap_err();
        assert_eq!(bare.line, 1);
    }

    fn entry(code: &str, opening: &str, variation: &str, named: bool) -> Entry {
        Entry {
            code: code.into(),
            opening: opening.into(),
            variation: variation.into(),
            named,
            family: 0,
            names: None,
        }
    }

    /// Two named codes (A01, A02, the second with a variation) and a reserved one (A03).
    fn entries() -> Vec<Entry> {
        vec![
            entry("A01", "上仕局", "", true),
            entry("A02", "边马局", "红左横车", true),
            entry("A03", "非常见开局", "", false),
        ]
    }

    const A01: &str = "A01\t上仕局\t\tAdvisor Opening\t\tДебют советника\t\ta\tb\n";
    const A02: &str = "A02\t边马局\t红左横车\tEdge Horse\tRed: left\tКонь\tкрасные\tb\tb\n";

    fn names_error(text: &str) -> String {
        parse_names_text(text, SOURCES, &mut entries())
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn each_named_code_gets_its_names_and_their_citations() {
        let mut entries = entries();
        parse_names_text(&format!("{A01}{A02}"), SOURCES, &mut entries).unwrap();
        let a02 = entries[1].names.as_ref().unwrap();
        assert_eq!(a02.en.opening, "Edge Horse");
        assert_eq!(a02.en.variation, "Red: left");
        assert_eq!(a02.ru.variation, "красные");
        assert_eq!(a02.ru.source, "our translation");
        let a01 = entries[0].names.as_ref().unwrap();
        assert_eq!(a01.en.source, "Author, \"A page\", example.org");
        assert_eq!(a01.en.variation, "");
        assert!(entries[2].names.is_none());
    }

    #[test]
    fn a_source_may_be_defined_in_the_names_file_too() {
        let text = format!("# source c: A book\n{}{A02}", A01.replace("\ta\t", "\tc\t"));
        let mut entries = entries();
        parse_names_text(&text, SOURCES, &mut entries).unwrap();
        assert_eq!(entries[0].names.as_ref().unwrap().en.source, "A book");
        let twice = format!("# source a: again\n{A01}{A02}");
        assert_eq!(
            names_error(&twice),
            "names.tsv line 1: source a is defined twice"
        );
    }

    #[test]
    fn a_named_code_without_a_row_is_an_error() {
        assert_eq!(
            names_error(A01),
            "names.tsv line 1: the named code A02 has no row"
        );
    }

    #[test]
    fn a_code_named_twice_unknown_or_reserved_is_an_error_naming_the_line() {
        assert_eq!(
            names_error(&format!("{A01}{A02}{A01}")),
            "names.tsv line 3: A01 is named twice (first on line 1)"
        );
        assert_eq!(
            names_error(&format!("{A01}{A02}{}", A01.replace("A01", "F01"))),
            "names.tsv line 3: unknown code \"F01\""
        );
        let reserved = "A03\t非常见开局\t\tRare\t\tРедкие\t\ta\tb\n";
        assert_eq!(
            names_error(&format!("{A01}{A02}{reserved}")),
            "names.tsv line 3: A03 is reserved in codes.tsv: only named codes have names"
        );
    }

    #[test]
    fn a_row_must_match_the_chinese_names_and_cite_defined_sources() {
        let other = A01.replace("上仕局", "上士局");
        assert!(
            names_error(&format!("{other}{A02}")).starts_with("names.tsv line 1: A01 reads"),
            "{}",
            names_error(&format!("{other}{A02}"))
        );
        let undefined = A02.replace("\tb\tb\n", "\tb\tz\n");
        assert_eq!(
            names_error(&format!("{A01}{undefined}")),
            "names.tsv line 2: source \"z\" is not defined in families.tsv or names.tsv"
        );
        let short = "A01\t上仕局\t\tAdvisor Opening\n";
        assert_eq!(
            names_error(short),
            "names.tsv line 1: expected 9 columns, found 4"
        );
    }

    #[test]
    fn a_name_is_never_empty_and_a_variation_follows_the_chinese() {
        let no_english = A01.replace("Advisor Opening", " ");
        assert_eq!(
            names_error(&format!("{no_english}{A02}")),
            "names.tsv line 1: A01 has no English opening name"
        );
        let no_variation = A02.replace("\tкрасные\t", "\t\t");
        assert_eq!(
            names_error(&format!("{A01}{no_variation}")),
            "names.tsv line 2: A02: the Russian variation must be empty exactly where the \
             Chinese one is"
        );
        let extra = A01.replace("Advisor Opening\t", "Advisor Opening\tmore");
        assert!(names_error(&format!("{extra}{A02}")).contains("A01: the English variation"));
    }
}
