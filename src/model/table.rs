//! DATATABLE tables: every cell parsed once at load with its column's format, and an index
//! on the key (first) column so that `lookup()` finds a row without re-reading any text.
//!
//! The three lookup types keep PCGen's file-order semantics exactly:
//!
//! * `EXACT` — the first row (in file order) whose key equals the key (`==` of formulas:
//!   numbers numerically, `2 == 2.0`);
//! * `LASTLTEQ` — the last row in file order whose key is ≤ the key;
//! * `NEXTGTEQ` — the first row in file order whose key is ≥ the key.
//!
//! Rows need not be sorted. For NUMBER and STRING key columns (totally ordered) a sorted
//! index answers all three in O(log n): the keys sorted stably (equal keys keep file order)
//! with, per position, the largest row number of the prefix and the smallest of the suffix.
//! Other key formats are answered by a scan of the typed keys.

use crate::formula::{Format, Number, Value};
use crate::name::Name;
use crate::source::Span;
use std::cmp::Ordering;
use std::sync::Arc;

/// How `lookup()` matches the key (its optional fourth argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LookupKind {
    /// The first row whose key equals the key.
    Exact,
    /// The last row (file order) whose key is less than or equal to the key.
    LastLtEq,
    /// The first row (file order) whose key is greater than or equal to the key.
    NextGtEq,
}

impl LookupKind {
    /// The kind named `text` (any case): `EXACT`, `LASTLTEQ` or `NEXTGTEQ`.
    pub fn from_name(text: &str) -> Option<LookupKind> {
        match text.to_ascii_uppercase().as_str() {
            "EXACT" => Some(LookupKind::Exact),
            "LASTLTEQ" => Some(LookupKind::LastLtEq),
            "NEXTGTEQ" => Some(LookupKind::NextGtEq),
            _ => None,
        }
    }
}

/// A DATATABLE table.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Name.
    pub name: Name,
    /// Columns with their formats.
    pub columns: Vec<(Name, Format)>,
    /// STARTTABLE line.
    pub span: Span,
    /// Rows of typed cells, one per column (private: the index is built from them).
    rows: Vec<Vec<Value>>,
    index: KeyIndex,
}

impl Table {
    /// A table of already-parsed rows; builds the key index.
    pub fn new(
        name: Name,
        columns: Vec<(Name, Format)>,
        rows: Vec<Vec<Value>>,
        span: Span,
    ) -> Self {
        let index = KeyIndex::build(&rows);
        Table {
            name,
            columns,
            rows,
            span,
            index,
        }
    }

    /// Rows of typed cells, one per column, parsed at load with the column's format.
    pub fn rows(&self) -> &[Vec<Value>] {
        &self.rows
    }

    /// The row `lookup()` picks for `key`, or `None` when no row matches.
    pub fn find_row(&self, key: &Value, kind: LookupKind) -> Option<&[Value]> {
        let row = match &self.index {
            KeyIndex::Number(sorted) => match key {
                Value::Number(n) => sorted.find(n, kind),
                _ => None,
            },
            KeyIndex::Text(sorted) => match key {
                Value::String(s) => sorted.find(s, kind),
                _ => None,
            },
            KeyIndex::Scan => self.scan(key, kind),
        }?;
        self.rows.get(row).map(Vec::as_slice)
    }

    /// The reference answer: today's scan over the rows in file order.
    fn scan(&self, key: &Value, kind: LookupKind) -> Option<usize> {
        let mut keys = self.rows.iter().map(|r| r.first()).enumerate();
        match kind {
            LookupKind::Exact => keys.find(|(_, k)| k.is_some_and(|k| k == key)),
            LookupKind::LastLtEq => {
                keys.rfind(|(_, k)| k.is_some_and(|k| compare(k, key).is_some_and(Ordering::is_le)))
            }
            LookupKind::NextGtEq => {
                keys.find(|(_, k)| k.is_some_and(|k| compare(k, key).is_some_and(Ordering::is_ge)))
            }
        }
        .map(|(i, _)| i)
    }
}

/// How `lookup()` orders a table key against the key asked for: numbers numerically, strings
/// by code point, anything else only equal or unordered.
fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.partial_cmp(y),
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        _ => (a == b).then_some(Ordering::Equal),
    }
}

/// The index on a table's key column.
#[derive(Clone, Debug, PartialEq)]
enum KeyIndex {
    /// Every key is a NUMBER.
    Number(Sorted<Number>),
    /// Every key is a STRING.
    Text(Sorted<Arc<str>>),
    /// Other key formats: scan the typed keys.
    Scan,
}

impl KeyIndex {
    fn build(rows: &[Vec<Value>]) -> KeyIndex {
        let keys = || rows.iter().map(|r| r.first());
        if let Some(numbers) = keys()
            .map(|k| match k {
                Some(Value::Number(n)) => Some(*n),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
        {
            return KeyIndex::Number(Sorted::new(numbers));
        }
        if let Some(texts) = keys()
            .map(|k| match k {
                Some(Value::String(s)) => Some(Arc::clone(s)),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
        {
            return KeyIndex::Text(Sorted::new(texts));
        }
        KeyIndex::Scan
    }
}

/// Keys sorted stably with their row numbers, plus prefix maxima and suffix minima of the
/// row numbers, so each lookup type is one binary search.
#[derive(Clone, Debug, PartialEq)]
struct Sorted<K> {
    /// (key, row), sorted by key; equal keys in file order.
    entries: Vec<(K, usize)>,
    /// `last_upto[i]`: the largest row number among `entries[..=i]`.
    last_upto: Vec<usize>,
    /// `first_from[i]`: the smallest row number among `entries[i..]`.
    first_from: Vec<usize>,
}

impl<K: Ord> Sorted<K> {
    fn new(keys: Vec<K>) -> Self {
        let mut entries: Vec<(K, usize)> =
            keys.into_iter().enumerate().map(|(i, k)| (k, i)).collect();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let last_upto = entries
            .iter()
            .scan(None::<usize>, |max, (_, row)| {
                let m = max.map_or(*row, |m| m.max(*row));
                *max = Some(m);
                Some(m)
            })
            .collect();
        let mut first_from: Vec<usize> = entries
            .iter()
            .rev()
            .scan(None::<usize>, |min, (_, row)| {
                let m = min.map_or(*row, |m| m.min(*row));
                *min = Some(m);
                Some(m)
            })
            .collect();
        first_from.reverse();
        Sorted {
            entries,
            last_upto,
            first_from,
        }
    }

    fn find(&self, key: &K, kind: LookupKind) -> Option<usize> {
        // First position whose key is ≥ `key`.
        let lower = self.entries.partition_point(|(k, _)| k < key);
        match kind {
            LookupKind::Exact => self
                .entries
                .get(lower)
                .filter(|(k, _)| k == key)
                .map(|(_, row)| *row),
            LookupKind::NextGtEq => self.first_from.get(lower).copied(),
            LookupKind::LastLtEq => {
                let upper = self.entries.partition_point(|(k, _)| k <= key);
                upper
                    .checked_sub(1)
                    .and_then(|i| self.last_upto.get(i))
                    .copied()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(text: &str) -> Value {
        Format::Number.parse_value(text).unwrap()
    }

    fn table(format: Format, rows: &[(&str, &str)]) -> Table {
        let rows = rows
            .iter()
            .map(|(k, v)| vec![format.parse_value(k).unwrap(), Value::string(v)])
            .collect();
        Table::new(
            Name::new("T"),
            vec![
                (Name::new("Key"), format),
                (Name::new("Out"), Format::String),
            ],
            rows,
            Span::default(),
        )
    }

    fn out(t: &Table, key: &Value, kind: LookupKind) -> Option<String> {
        t.find_row(key, kind).map(|r| r.get(1).unwrap().to_string())
    }

    #[test]
    fn exact_numbers_match_in_any_spelling_and_the_first_duplicate_wins() {
        let t = table(
            Format::Number,
            &[
                ("2.0", "a"),
                ("5", "b"),
                ("02", "c"),
                ("-0", "d"),
                ("0.50", "e"),
            ],
        );
        assert!(matches!(t.index, KeyIndex::Number(_)));
        for spelling in ["2", "2.0", "2.000", "002", " 2 ", "2e0", "0.2e1"] {
            let k = num(spelling);
            assert_eq!(
                out(&t, &k, LookupKind::Exact).as_deref(),
                Some("a"),
                "{spelling}"
            );
        }
        assert_eq!(out(&t, &num("0"), LookupKind::Exact).as_deref(), Some("d"));
        assert_eq!(out(&t, &num(".5"), LookupKind::Exact).as_deref(), Some("e"));
        assert_eq!(out(&t, &num("3"), LookupKind::Exact), None);
        // A key of another type never equals a NUMBER key.
        assert_eq!(out(&t, &Value::string("2"), LookupKind::Exact), None);
        assert_eq!(out(&t, &Value::string("2"), LookupKind::LastLtEq), None);
        assert_eq!(out(&t, &Value::string("2"), LookupKind::NextGtEq), None);
    }

    #[test]
    fn lastlteq_and_nextgteq_at_the_edges() {
        let t = table(
            Format::Number,
            &[("1", "one"), ("5", "five"), ("10", "ten")],
        );
        let q = |k: &str, kind| out(&t, &num(k), kind);
        assert_eq!(q("0", LookupKind::LastLtEq), None);
        assert_eq!(q("1", LookupKind::LastLtEq).as_deref(), Some("one"));
        assert_eq!(q("4.99", LookupKind::LastLtEq).as_deref(), Some("one"));
        assert_eq!(q("5", LookupKind::LastLtEq).as_deref(), Some("five"));
        assert_eq!(q("1000", LookupKind::LastLtEq).as_deref(), Some("ten"));
        assert_eq!(q("-7", LookupKind::NextGtEq).as_deref(), Some("one"));
        assert_eq!(q("5", LookupKind::NextGtEq).as_deref(), Some("five"));
        assert_eq!(q("5.01", LookupKind::NextGtEq).as_deref(), Some("ten"));
        assert_eq!(q("10", LookupKind::NextGtEq).as_deref(), Some("ten"));
        assert_eq!(q("10.5", LookupKind::NextGtEq), None);
    }

    #[test]
    fn unsorted_tables_keep_file_order_semantics() {
        // LASTLTEQ is the LAST row in file order with key ≤ k, NEXTGTEQ the FIRST with ≥.
        let t = table(
            Format::Number,
            &[
                ("3", "r0"),
                ("1", "r1"),
                ("3", "r2"),
                ("2", "r3"),
                ("9", "r4"),
                ("1", "r5"),
            ],
        );
        let q = |k: &str, kind| out(&t, &num(k), kind);
        assert_eq!(q("2", LookupKind::LastLtEq).as_deref(), Some("r5"));
        assert_eq!(q("3", LookupKind::LastLtEq).as_deref(), Some("r5"));
        assert_eq!(q("3", LookupKind::NextGtEq).as_deref(), Some("r0"));
        assert_eq!(q("4", LookupKind::NextGtEq).as_deref(), Some("r4"));
        assert_eq!(q("3", LookupKind::Exact).as_deref(), Some("r0"));
        assert_eq!(q("1", LookupKind::Exact).as_deref(), Some("r1"));
    }

    /// The index gives the same row as the file-order scan for every key and kind, on
    /// pseudo-random tables with duplicates, unsorted rows and fractional keys.
    #[test]
    fn the_index_agrees_with_the_scan() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        let kinds = [
            LookupKind::Exact,
            LookupKind::LastLtEq,
            LookupKind::NextGtEq,
        ];
        for _ in 0..200 {
            let n = next(12);
            let keys: Vec<String> = (0..n)
                .map(|_| format!("{}.{}", next(7), next(2) * 5))
                .collect();
            let rows: Vec<(&str, &str)> = keys.iter().map(|k| (k.as_str(), "x")).collect();
            let numbers = table(Format::Number, &rows);
            let texts = table(Format::String, &rows);
            for probe in 0..16 {
                let text = format!("{}.{}", probe / 2, (probe % 2) * 5);
                for kind in kinds {
                    let k = num(&text);
                    assert_eq!(
                        numbers.find_row(&k, kind),
                        numbers
                            .scan(&k, kind)
                            .and_then(|i| numbers.rows.get(i))
                            .map(Vec::as_slice),
                        "{keys:?} {text} {kind:?}"
                    );
                    let s = Value::string(&text);
                    assert_eq!(
                        texts.find_row(&s, kind),
                        texts
                            .scan(&s, kind)
                            .and_then(|i| texts.rows.get(i))
                            .map(Vec::as_slice),
                        "{keys:?} {text} {kind:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn other_key_formats_are_scanned() {
        let t = table(
            Format::Boolean,
            &[("false", "no"), ("true", "yes"), ("TRUE", "again")],
        );
        assert_eq!(t.index, KeyIndex::Scan);
        assert_eq!(
            out(&t, &Value::Boolean(true), LookupKind::Exact).as_deref(),
            Some("yes")
        );
        assert_eq!(
            out(&t, &Value::Boolean(true), LookupKind::LastLtEq).as_deref(),
            Some("again")
        );
        assert_eq!(
            out(&t, &Value::Boolean(false), LookupKind::NextGtEq).as_deref(),
            Some("no")
        );
    }

    #[test]
    fn lookup_kinds_by_name() {
        assert_eq!(LookupKind::from_name("exact"), Some(LookupKind::Exact));
        assert_eq!(
            LookupKind::from_name("LastLtEq"),
            Some(LookupKind::LastLtEq)
        );
        assert_eq!(
            LookupKind::from_name("NEXTGTEQ"),
            Some(LookupKind::NextGtEq)
        );
        assert_eq!(LookupKind::from_name("NEAREST"), None);
    }
}
