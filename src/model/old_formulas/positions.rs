//! Where a token's value holds old (JEP) formulas, found by one declarative table (`old-formulas.tsv`: per token, where the formulas are) rather
//! than a reader per token.

use std::ops::Range;
use std::sync::LazyLock;

/// Where a token value's formulas are (the table's `shape` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// The n-th `|` field.
    Field(usize),
    /// Everything after the n-th `|`.
    Rest(usize),
    /// `book|TIMES=F|CASTERLEVEL=F|Spell,DC|…`.
    Spells,
    /// `A,B[,A,B…]` up to the first `|`, also inside other tokens' values (PREVARxx).
    Operands,
}

/// One row of the table.
#[derive(Debug)]
struct Row {
    token: String,
    sub: Option<String>,
    shape: Shape,
    what: String,
}

/// The table, read once.
static ROWS: LazyLock<Vec<Row>> = LazyLock::new(|| parse(include_str!("old-formulas.tsv")));

/// The rows of each token name, for one look-up per token of the data.
static BY_TOKEN: LazyLock<crate::fxhash::FxHashMap<&'static str, Vec<&'static Row>>> =
    LazyLock::new(|| crate::model::token_table::by_token(&ROWS, |r| r.token.as_str()));

fn parse(text: &str) -> Vec<Row> {
    crate::model::token_table::rows(text)
        .filter_map(|cols| {
            let [token, shape, what] = cols.as_slice() else {
                return None;
            };
            let (token, sub) = crate::model::token_table::token_and_sub(token);
            let words: Vec<&str> = shape.split(' ').collect();
            let shape = match words.as_slice() {
                ["field", n] => Shape::Field(n.parse().ok()?),
                ["rest", n] => Shape::Rest(n.parse().ok()?),
                ["spells"] => Shape::Spells,
                ["operands"] => Shape::Operands,
                _ => return None,
            };
            Some(Row {
                token,
                sub,
                shape,
                what: (*what).to_owned(),
            })
        })
        .collect()
}

/// One old formula inside a token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormulaAt {
    /// Its bytes in the token's text.
    pub range: Range<usize>,
    /// How a report names it (`BONUS value`, `PREVAR operand`, …).
    pub what: &'static str,
}

/// The fields of `value` (starting at byte `at` of the token) split at `|`, each with its
/// start.
fn fields(value: &str, at: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = at;
    for part in value.split('|') {
        out.push((start, part));
        start += part.len() + 1;
    }
    out
}

/// Every old formula of one token (`NAME:value`, trimmed), in text order.
///
/// ```
/// use rulebook::model::old_formulas::formulas_in_token;
/// let token = "BONUS:COMBAT|AC|min(STR,2)|PREVARGT:TL,1";
/// let found: Vec<&str> = formulas_in_token(token).iter().map(|f| &token[f.range.clone()]).collect();
/// assert_eq!(found, ["min(STR,2)", "TL", "1"]);
/// ```
pub fn formulas_in_token(token: &str) -> Vec<FormulaAt> {
    let mut out = Vec::new();
    let Some((name, value)) = token.split_once(':') else {
        return out;
    };
    let value_at = name.len() + 1;
    let rows = BY_TOKEN.get(name).map_or(&[][..], Vec::as_slice);
    for row in rows.iter().copied() {
        let (value, at) = match &row.sub {
            Some(sub) => match value.strip_prefix(sub.as_str()) {
                Some(rest) if rest.starts_with('|') => (&rest[1..], value_at + sub.len() + 1),
                _ => continue,
            },
            None => (value, value_at),
        };
        let what = row.what.as_str();
        let mut push = |start: usize, text: &str| {
            out.push(FormulaAt {
                range: start..start + text.len(),
                what,
            })
        };
        match row.shape {
            Shape::Field(n) => {
                if let Some((start, f)) = fields(value, at).get(n) {
                    push(*start, f);
                }
            }
            Shape::Rest(n) => {
                if let Some((start, _)) = fields(value, at).get(n) {
                    let from = start - at;
                    push(*start, &value[from..]);
                }
            }
            Shape::Spells => {
                for (start, part) in fields(value, at).into_iter().skip(1) {
                    if let Some(v) = part.strip_prefix("TIMES=") {
                        push(start + 6, v);
                    } else if let Some(v) = part.strip_prefix("CASTERLEVEL=") {
                        push(start + 12, v);
                    } else if part.starts_with("PRE")
                        || part.starts_with("!PRE")
                        || part.starts_with("TIMEUNIT=")
                    {
                    } else if let Some(c) = part.find(',') {
                        push(start + c + 1, &part[c + 1..]);
                    }
                }
            }
            // Found anywhere in the token, below.
            Shape::Operands => {}
        }
    }
    // Most tokens hold no PREVAR: one search rules them out.
    static PREVAR: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new("PREVAR"));
    if PREVAR.find(token.as_bytes()).is_some() {
        operands(token, &mut out);
        out.sort_by_key(|f| f.range.start);
    }
    out
}

/// The operands of every `PREVARxx:` (an `operands` row) in `token`, wherever it stands
/// (`load::prerequisites`).
fn operands(token: &str, out: &mut Vec<FormulaAt>) {
    for pre in crate::load::prerequisites::embedded(token) {
        let Some(row) = BY_TOKEN
            .get(pre.name)
            .and_then(|rows| rows.iter().find(|r| r.shape == Shape::Operands))
        else {
            continue;
        };
        for (o, part) in split_top(pre.value) {
            out.push(FormulaAt {
                range: pre.value_start + o..pre.value_start + o + part.len(),
                what: row.what.as_str(),
            });
        }
    }
}

/// `s` split at commas outside `( )` and `[ ]`, as PCGen's `ParsingSeparator` splits
/// PREVAR operands; each part with its offset.
fn split_top(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b',' if depth <= 0 => {
                out.push((start, &s[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push((start, &s[start..]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(token: &str) -> Vec<String> {
        formulas_in_token(token)
            .iter()
            .map(|f| format!("{}: {}", f.what, &token[f.range.clone()]))
            .collect()
    }

    #[test]
    fn the_table_reads_whole() {
        let rows = include_str!("old-formulas.tsv")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        assert_eq!(ROWS.len(), rows - 1, "a row of the table did not parse");
    }

    #[test]
    fn finds_the_formulas_of_each_shape() {
        assert_eq!(
            found("BONUS:COMBAT|AC|min(ACAbilityStat,MXDXEN)|TYPE=Ability"),
            ["BONUS value: min(ACAbilityStat,MXDXEN)"]
        );
        assert_eq!(
            found("TEMPBONUS:EQ|Weapon|WEAPON|DAMAGE|2+TL"),
            ["TEMPBONUS value: 2+TL"]
        );
        assert_eq!(found("TEMPBONUS:PC|COMBAT|AC|2"), ["TEMPBONUS value: 2"]);
        assert_eq!(found("DEFINE:X|a|b"), ["DEFINE value: a|b"]);
        assert_eq!(found("DEFINE:X"), Vec::<String>::new());
        assert_eq!(
            found("DEFINESTAT:MINVALUE|STR|STRMin+1"),
            ["DEFINESTAT value: STRMin+1"]
        );
        assert!(found("DEFINESTAT:NONSTAT|STR").is_empty());
        assert_eq!(
            found("SPELLS:Innate|TIMES=1|CASTERLEVEL=TL|Daze,10+INT|Light|PRELEVEL:MIN=3"),
            [
                "SPELLS formula: 1",
                "SPELLS formula: TL",
                "SPELLS formula: 10+INT"
            ]
        );
        assert_eq!(
            found("PREMULT:1,[PREVARGT:max(A,B),2],[!PREVAREQ:C,0]"),
            [
                "PREVAR operand: max(A,B)",
                "PREVAR operand: 2",
                "PREVAR operand: C",
                "PREVAR operand: 0"
            ]
        );
        assert_eq!(
            found("BONUS:VAR|X|1|PREVARGTEQ:TL,2|TYPE=Foo"),
            ["BONUS value: 1", "PREVAR operand: TL", "PREVAR operand: 2"]
        );
        // Not a token start: no formula.
        assert!(found("DESC:XPREVARGT:1,2").is_empty());
    }
}
