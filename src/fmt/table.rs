//! PrettyLST's layout as data: which line types each file type has, the order of the columns
//! of each line type and the text of the column headers. The three tables are TSV files
//! compiled in (`line-types.tsv`, `column-order.tsv`, `headers.tsv`; facts read from
//! `prettylst.pl`), parsed once.

use std::collections::HashMap;
use std::sync::OnceLock;

/// How a line type is recognised from the start of a (trimmed) line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstToken {
    /// `SOURCExxx:` (the SOURCE line of every file).
    Source,
    /// Any line that does not start with a colon (an object name).
    Name,
    /// A class level: digits, then the end, a tab or `:REPEATLEVEL:` and a digit.
    Level,
    /// A line starting with this text (`CLASS:`, `GEAR:`…).
    Prefix(&'static str),
}

impl FirstToken {
    /// True when a line starting with `line` is of this type.
    pub fn matches(self, line: &str) -> bool {
        match self {
            FirstToken::Source => line.strip_prefix("SOURCE").is_some_and(|rest| {
                let word = rest
                    .bytes()
                    .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                    .count();
                rest.as_bytes().get(word) == Some(&b':')
            }),
            FirstToken::Name => {
                !line.is_empty() && !line.starts_with(':') && !line.starts_with('\t')
            }
            FirstToken::Level => {
                let digits = line.bytes().take_while(u8::is_ascii_digit).count();
                let rest = line.get(digits..).unwrap_or("");
                digits > 0
                    && (rest.is_empty()
                        || rest.starts_with('\t')
                        || rest
                            .strip_prefix(":REPEATLEVEL:")
                            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit())))
            }
            FirstToken::Prefix(p) => line.starts_with(p),
        }
    }
}

/// How lines of a type relate to the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// An object line that starts a block (its sub lines follow it).
    Main,
    /// A line belonging to the main line before it (class levels, kit lines).
    Sub,
    /// A line on its own (SOURCE).
    Single,
}

/// How a line type's columns are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Each line by itself: its tokens in column order, one tab apart.
    Line,
    /// Lines of the block share column widths.
    Block,
    /// Only the first column is aligned over the block; the rest one tab apart.
    FirstColumn,
}

/// Which header comment a line type has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Header {
    /// None.
    None,
    /// One before each line.
    Line,
    /// One before each block.
    Block,
}

/// One row of `line-types.tsv`.
#[derive(Clone, Debug)]
pub struct LineSpec {
    /// PrettyLST's name of the line type (`ABILITY`, `CLASS Level`, `KIT GEAR`).
    pub line_type: &'static str,
    /// How its lines start.
    pub first: FirstToken,
    /// Main, sub or single.
    pub mode: Mode,
    /// Column layout.
    pub format: Format,
    /// Header comments.
    pub header: Header,
    /// The key of the tag-less first column, when the first token is a name rather than a
    /// token like the others.
    pub first_column: Option<&'static str>,
}

/// The three tables, parsed.
#[derive(Debug, Default)]
pub struct Tables {
    /// Line types per PrettyLST file type, in matching order.
    line_types: HashMap<&'static str, Vec<LineSpec>>,
    /// Rank of each key per line type.
    order: HashMap<&'static str, HashMap<&'static str, usize>>,
    /// The first key of each line type's order (the one its header comment starts with).
    first_key: HashMap<&'static str, &'static str>,
    /// Header text per (line type or `default`, key).
    headers: HashMap<(&'static str, &'static str), &'static str>,
}

const LINE_TYPES: &str = include_str!("line-types.tsv");
const COLUMN_ORDER: &str = include_str!("column-order.tsv");
const HEADERS: &str = include_str!("headers.tsv");

/// The rows of a compiled-in TSV: comment and blank lines skipped, fields split at tabs.
fn rows(text: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').collect())
}

impl Tables {
    /// The tables, parsed on first use.
    pub fn get() -> &'static Tables {
        static TABLES: OnceLock<Tables> = OnceLock::new();
        TABLES.get_or_init(Tables::parse)
    }

    fn parse() -> Tables {
        let mut t = Tables::default();
        for row in rows(LINE_TYPES) {
            let [file_type, line_type, first, mode, format, header, column] = row[..] else {
                continue;
            };
            let first = match first {
                "source" => FirstToken::Source,
                "name" => FirstToken::Name,
                "level" => FirstToken::Level,
                other => match other.strip_prefix("prefix ") {
                    Some(p) => FirstToken::Prefix(p),
                    None => continue,
                },
            };
            let mode = match mode {
                "main" => Mode::Main,
                "sub" => Mode::Sub,
                _ => Mode::Single,
            };
            let format = match format {
                "block" => Format::Block,
                "first-column" => Format::FirstColumn,
                _ => Format::Line,
            };
            let header = match header {
                "block" => Header::Block,
                "line" => Header::Line,
                _ => Header::None,
            };
            t.line_types.entry(file_type).or_default().push(LineSpec {
                line_type,
                first,
                mode,
                format,
                header,
                first_column: (column != "-").then_some(column),
            });
        }
        for row in rows(COLUMN_ORDER) {
            if let [line_type, key] = row[..] {
                t.first_key.entry(line_type).or_insert(key);
                let keys = t.order.entry(line_type).or_default();
                let rank = keys.len();
                keys.entry(key).or_insert(rank);
            }
        }
        for row in rows(HEADERS) {
            if let [line_type, key, text] = row[..] {
                t.headers.insert((line_type, key), text);
            }
        }
        t
    }

    /// The line types of a PrettyLST file type (`FEAT`, `CLASS`…), in matching order.
    pub fn line_types(&self, file_type: &str) -> Option<&[LineSpec]> {
        self.line_types.get(file_type).map(Vec::as_slice)
    }

    /// The column order of a line type: key → rank (`None` when PrettyLST has no order for
    /// it, and its lines are left as they are).
    pub fn order(&self, line_type: &str) -> Option<&HashMap<&'static str, usize>> {
        self.order.get(line_type)
    }

    /// The key a line type's order starts with (its name column).
    pub fn first_key(&self, line_type: &str) -> Option<&'static str> {
        self.first_key.get(line_type).copied()
    }

    /// The header text of a column (PrettyLST's `get_header`): the line type's own, else the
    /// default, else the key itself.
    pub fn header<'k>(&self, key: &'k str, line_type: &str) -> &'k str
    where
        'static: 'k,
    {
        self.headers
            .get(&(line_type, key))
            .or_else(|| self.headers.get(&("default", key)))
            .copied()
            .unwrap_or(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_parse_with_every_line_type_ordered_or_known_to_lack_an_order() {
        let t = Tables::get();
        let ability = t.line_types("ABILITY").expect("ABILITY");
        assert_eq!(ability.len(), 2);
        assert_eq!(ability[1].first_column, Some("000AbilityName"));
        let order = t.order("ABILITY").expect("order");
        assert!(order["000AbilityName"] < order["KEY"]);
        assert!(order["TYPE:.CLEAR"] < order["TYPE"]);
        assert_eq!(t.header("000AbilityName", "ABILITY"), "# Ability Name");
        assert_eq!(t.header("NOSUCHKEY", "ABILITY"), "NOSUCHKEY");
        // PrettyLST has no order for these two; their lines are kept as they are.
        let unordered: Vec<&str> = t
            .line_types
            .values()
            .flatten()
            .filter(|s| t.order(s.line_type).is_none())
            .map(|s| s.line_type)
            .collect();
        assert!(
            unordered
                .iter()
                .all(|l| ["GLOBALMODIFIER", "KIT LANGAUTO"].contains(l)),
            "{unordered:?}"
        );
    }

    #[test]
    fn first_tokens_match_as_prettylst_regexes_do() {
        assert!(FirstToken::Source.matches("SOURCELONG:x"));
        assert!(!FirstToken::Source.matches("SOURCE"));
        assert!(FirstToken::Level.matches("1\tBONUS:x"));
        assert!(FirstToken::Level.matches("12"));
        assert!(FirstToken::Level.matches("1:REPEATLEVEL:4\tx"));
        assert!(!FirstToken::Level.matches("1x"));
        assert!(FirstToken::Name.matches("Power Attack"));
        assert!(!FirstToken::Name.matches(":x"));
        assert!(FirstToken::Prefix("CLASS:").matches("CLASS:Fighter"));
    }
}
