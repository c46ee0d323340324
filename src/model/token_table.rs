//! The tab-separated tables that say, per token, where something sits in its value
//! (`references/token-references.tsv`, `old_formulas/old-formulas.tsv`): both are read and
//! indexed the same way, here.

use crate::fxhash::FxHashMap;

/// The data rows of a table's text, each split at tabs: `#` comment lines and blank lines
/// are dropped and the header (the first other line) is skipped.
pub(crate) fn rows(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
        .map(|l| l.split('\t').collect())
}

/// A `TOKEN` or `TOKEN:SUB` column: the token name, and the sub-token its value must start
/// with (`AUTO:LANG` is `AUTO:LANG|…`).
pub(crate) fn token_and_sub(column: &str) -> (String, Option<String>) {
    match column.split_once(':') {
        Some((t, s)) => (t.to_owned(), Some(s.to_owned())),
        None => (column.to_owned(), None),
    }
}

/// `rows` indexed by their token name (`token`), for one look-up per token of the data.
pub(crate) fn by_token<R>(
    rows: &'static [R],
    token: fn(&'static R) -> &'static str,
) -> FxHashMap<&'static str, Vec<&'static R>> {
    let mut map: FxHashMap<&'static str, Vec<&'static R>> = FxHashMap::default();
    for row in rows {
        map.entry(token(row)).or_default().push(row);
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rows_after_the_header_and_splits_sub_tokens() {
        let text = "# a comment\nkind\ttoken\n\n*\tAUTO:LANG\nRACE\tSIZE\n";
        let rows: Vec<Vec<&str>> = rows(text).collect();
        assert_eq!(rows, [vec!["*", "AUTO:LANG"], vec!["RACE", "SIZE"]]);
        assert_eq!(
            token_and_sub("AUTO:LANG"),
            ("AUTO".to_owned(), Some("LANG".to_owned()))
        );
        assert_eq!(token_and_sub("SIZE"), ("SIZE".to_owned(), None));
    }
}
