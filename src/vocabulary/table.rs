//! The token table: `pcgen-token-vocabulary.tsv` compiled into the binary and parsed once.
//!
//! One row per (file kind, token). A row whose token is `*` makes the kinds named in its
//! sub-token column inherited: a lookup tries the kind's own rows, then each inherited kind's
//! (recursively). The resolved map of every kind is built once, so a lookup is one hash probe.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::LazyLock;

/// FxHash (as in rustc): token names are short and trusted keys of a static table, so a
/// fast non-keyed hash is right; a lookup is on the path of every token of every file.
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        for b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(*b)).wrapping_mul(K);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// The tokens of one kind (its own and inherited rows), for one-probe lookups.
#[derive(Debug, Default)]
pub struct KindTable {
    map: FxMap<&'static str, usize>,
}

/// The table's text, as copied from `../shared/reference/pcgen-token-vocabulary.tsv`.
pub const TABLE_TSV: &str = include_str!("pcgen-token-vocabulary.tsv");

/// Whether PCGen still accepts a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Current.
    Active,
    /// Deprecated or kept for compatibility, but still parsed.
    DeprecatedAccepted,
    /// Known by name, but its parse always fails.
    DeprecatedRejected,
}

/// One row of the table: a token PCGen accepts on one file kind or line type.
#[derive(Clone, Debug)]
pub struct TokenRow {
    /// The file kind or line type (`RACE`, `CLASSLEVEL`, `KIT:GEAR`, `*`, `PRE`, `GM:…`).
    pub kind: &'static str,
    /// The token name as written before the `:` (exact case), or `*` for an inheritance row.
    pub token: &'static str,
    /// The sub-tokens PCGen knows for this token on this kind (BONUS types, CHOOSE, ADD …),
    /// deprecated ones included. For an inheritance row: the inherited kinds.
    pub subtokens: Vec<&'static str>,
    /// The sub-tokens that only a deprecated or compatibility class still accepts.
    pub deprecated_subtokens: Vec<&'static str>,
    /// Whether the token is current.
    pub status: Status,
    /// The Java class under `code/src/java` that parses it.
    pub source: &'static str,
    /// Restrictions, line identifiers and other classes tried.
    pub notes: &'static str,
}

impl TokenRow {
    /// Whether the sub-token column holds names (not a `<placeholder>` defined at load time).
    pub fn has_subtokens(&self) -> bool {
        self.token != "*" && self.subtokens.first().is_some_and(|s| !s.starts_with('<'))
    }

    /// Whether the token is a line identifier (`FACTDEF:`, `AGESET:` …) that only a line's
    /// first column may hold.
    pub fn is_line_identifier(&self) -> bool {
        self.notes.starts_with("line identifier")
    }
}

/// The whole vocabulary, with every kind's inheritance resolved.
#[derive(Debug)]
pub struct Vocabulary {
    rows: Vec<TokenRow>,
    /// Kind → token → row index (own rows first, then inherited ones).
    resolved: HashMap<&'static str, KindTable>,
    /// Token → rows with that name, over every kind.
    by_name: HashMap<&'static str, Vec<usize>>,
    /// Every kind, in table order.
    kinds: Vec<&'static str>,
}

static VOCABULARY: LazyLock<Vocabulary> = LazyLock::new(|| Vocabulary::parse(TABLE_TSV));

impl Vocabulary {
    /// The compiled-in vocabulary (parsed on first use).
    pub fn get() -> &'static Vocabulary {
        &VOCABULARY
    }

    /// Parses a table in the TSV form (header line first). Malformed lines are skipped.
    pub fn parse(text: &'static str) -> Vocabulary {
        let mut rows = Vec::new();
        for line in text.lines().skip(1) {
            let mut cols = line.split('\t');
            let (Some(kind), Some(token), Some(subs), Some(status)) =
                (cols.next(), cols.next(), cols.next(), cols.next())
            else {
                continue;
            };
            let source = cols.next().unwrap_or("");
            let notes = cols.next().unwrap_or("");
            let status = match status {
                "deprecated-accepted" => Status::DeprecatedAccepted,
                "deprecated-rejected" => Status::DeprecatedRejected,
                _ => Status::Active,
            };
            let deprecated_subtokens = notes
                .split(';')
                .find_map(|n| {
                    n.trim().strip_prefix(
                        "deprecated sub-token forms (compatibility/deprecated classes):",
                    )
                })
                .map(|s| s.split_whitespace().collect())
                .unwrap_or_default();
            rows.push(TokenRow {
                kind,
                token,
                subtokens: subs.split_whitespace().collect(),
                deprecated_subtokens,
                status,
                source,
                notes,
            });
        }
        let mut own: HashMap<&'static str, Vec<usize>> = HashMap::new();
        let mut kinds = Vec::new();
        let mut by_name: HashMap<&'static str, Vec<usize>> = HashMap::new();
        for (i, r) in rows.iter().enumerate() {
            if !own.contains_key(r.kind) {
                kinds.push(r.kind);
            }
            own.entry(r.kind).or_default().push(i);
            if r.token != "*" {
                by_name.entry(r.token).or_default().push(i);
            }
        }
        let mut resolved = HashMap::new();
        for kind in &kinds {
            let mut map = FxMap::default();
            let mut stack = vec![*kind];
            let mut seen: Vec<&str> = Vec::new();
            while let Some(k) = stack.pop() {
                if seen.contains(&k) {
                    continue;
                }
                seen.push(k);
                let mut inherited = Vec::new();
                for i in own.get(k).map(Vec::as_slice).unwrap_or(&[]) {
                    let Some(r) = rows.get(*i) else { continue };
                    if r.token == "*" {
                        inherited.extend(r.subtokens.iter().copied());
                    } else {
                        map.entry(r.token).or_insert(*i);
                    }
                }
                // Depth-first in the order written: push reversed.
                stack.extend(inherited.into_iter().rev());
            }
            resolved.insert(*kind, KindTable { map });
        }
        Vocabulary {
            rows,
            resolved,
            by_name,
            kinds,
        }
    }

    /// Every row, in table order.
    pub fn rows(&self) -> &[TokenRow] {
        &self.rows
    }

    /// Every file kind and line type, in table order.
    pub fn kinds(&self) -> &[&'static str] {
        &self.kinds
    }

    /// Whether `kind` is a file kind or line type of the table.
    pub fn has_kind(&self, kind: &str) -> bool {
        self.resolved.contains_key(kind)
    }

    /// The row for `token` (exact case) on `kind`, inherited rows included.
    pub fn find(&self, kind: &str, token: &str) -> Option<&TokenRow> {
        self.find_in(self.resolved.get(kind)?, token)
    }

    /// The tokens of `kind`, for repeated [`Vocabulary::find_in`] lookups.
    pub fn kind_table(&self, kind: &str) -> Option<&KindTable> {
        self.resolved.get(kind)
    }

    /// The row for `token` (exact case) in a kind's table.
    pub fn find_in(&self, table: &KindTable, token: &str) -> Option<&TokenRow> {
        let i = table.map.get(token)?;
        self.rows.get(*i)
    }

    /// Every token valid on `kind` (inherited ones included), sorted by name.
    pub fn tokens_for(&self, kind: &str) -> Vec<&TokenRow> {
        let mut out: Vec<&TokenRow> = self
            .resolved
            .get(kind)
            .into_iter()
            .flat_map(|m| m.map.values())
            .filter_map(|i| self.rows.get(*i))
            .collect();
        out.sort_by_key(|r| r.token);
        out
    }

    /// Every row named `token` (exact case), over all kinds.
    pub fn lookup(&self, token: &str) -> Vec<&TokenRow> {
        self.by_name
            .get(token)
            .into_iter()
            .flatten()
            .filter_map(|i| self.rows.get(*i))
            .collect()
    }

    /// The concrete data kinds (not `*`, `PRE`, `KIT:*` or `GM:` game-mode files) on which
    /// `token` is valid, in table order.
    pub fn kinds_taking(&self, token: &str) -> Vec<&'static str> {
        self.kinds
            .iter()
            .copied()
            .filter(|k| !matches!(*k, "*" | "PRE" | "KIT:*") && !k.starts_with("GM:"))
            .filter(|k| self.find(k, token).is_some())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_every_row_and_kind() {
        let v = Vocabulary::get();
        assert_eq!(v.rows().len(), 1941);
        assert_eq!(v.kinds().len(), 90);
    }

    #[test]
    fn inheritance_reaches_globals_and_pre() {
        let v = Vocabulary::get();
        assert!(v.find("RACE", "KEY").is_some());
        assert!(v.find("RACE", "PREVARGTEQ").is_some());
        assert!(v.find("KIT:GEAR", "PREVARGTEQ").is_some());
        assert!(v.find("KIT:GEAR", "OPTION").is_some());
        assert!(v.find("KIT:GEAR", "KEY").is_none());
        assert!(v.find("DATACONTROL:FACTDEF", "KEY").is_none());
        assert!(v.find("RACE", "bonus").is_none());
        assert!(v.find("VARIABLE", "GLOBAL").is_some());
        assert!(v.find("RACE", "GLOBAL").is_none());
    }

    #[test]
    fn rows_carry_status_and_deprecated_subtokens() {
        let v = Vocabulary::get();
        let feat = v.find("RACE", "FEAT").map(|r| r.status);
        assert_eq!(feat, Some(Status::DeprecatedAccepted));
        let choose = v.find("ABILITY", "CHOOSE").unwrap();
        assert!(choose.subtokens.contains(&"SCHOOLS"));
        assert!(choose.deprecated_subtokens.contains(&"FEATSELECTION"));
        assert!(!choose.deprecated_subtokens.contains(&"SCHOOLS"));
        assert_eq!(
            v.find("STAT", "PENALTYVAR").map(|r| r.status),
            Some(Status::DeprecatedRejected)
        );
    }

    #[test]
    fn kinds_taking_names_concrete_kinds() {
        let v = Vocabulary::get();
        assert_eq!(v.kinds_taking("GLOBAL"), vec!["VARIABLE"]);
        let face = v.kinds_taking("FACE");
        assert_eq!(face, vec!["RACE", "TEMPLATE"]);
    }
}
