//! The token table: `pcgen-token-vocabulary.tsv` compiled into the binary and parsed once.
//!
//! One row per (file kind, token). A row whose token is `*` makes the kinds named in its
//! sub-token column inherited: a lookup tries the kind's own rows, then each inherited kind's
//! (recursively). Every token name of the table is numbered once ([`NameIndex`]); each kind's
//! resolved tokens are a dense array from that number to the row, built on the kind's first
//! use, so a lookup is one probe of the name index and one array read. The validator's hot
//! path uses each kind's [`TokenMap`] instead (the short names themselves, one probe).

use super::names::{NameIndex, find_byte};
use super::tokenmap::{ShortName, TokenMap};
use std::sync::{LazyLock, OnceLock};

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

/// Whether the sub-tokens of `token` are matched in exact case (QUALIFY's class names);
/// every other token's sub-tokens are matched ignoring ASCII case.
pub fn subtokens_exact_case(token: &str) -> bool {
    token == "QUALIFY"
}

/// "No row" in a [`KindTable`].
const NO_ROW: u16 = u16::MAX;

/// The tokens of one kind (its own and inherited rows): for each token name of the table
/// (by its number), the row of that name valid on the kind, or none.
#[derive(Debug, Default)]
pub struct KindTable {
    rows: Vec<u16>,
    /// The same tokens (short names only) keyed by name, with their flags: the validator's
    /// one-probe lookup, built on first use ([`Vocabulary::token_map`]).
    map: OnceLock<TokenMap>,
}

impl KindTable {
    /// The row index for the token name numbered `name`.
    fn row(&self, name: usize) -> Option<usize> {
        match self.rows.get(name).copied() {
            Some(NO_ROW) | None => None,
            Some(r) => Some(usize::from(r)),
        }
    }
}

/// The sub-tokens of one row, for one-probe lookups (built on first use): keys are the
/// sub-token names upper-cased, or as written when [`subtokens_exact_case`].
#[derive(Debug)]
pub struct SubtokenIndex {
    /// The keys longer than [`super::tokenmap::SHORT_NAME_MAX`] (rare).
    names: NameIndex,
    /// Per long key: whether only a deprecated or compatibility class accepts it.
    deprecated: Vec<bool>,
    /// The short keys, flagged 1 when deprecated: one probe, without copying or
    /// upper-casing the looked-up name byte by byte.
    short: TokenMap,
}

/// The longest sub-token [`SubtokenIndex::find_key`] folds on the stack; longer ones are
/// not found (the validator's full path then decides).
const SUBTOKEN_BUFFER: usize = 64;

impl SubtokenIndex {
    fn build(row: &TokenRow) -> Self {
        let exact = subtokens_exact_case(row.token);
        let mut names = NameIndex::new();
        let mut deprecated = Vec::new();
        let mut short = Vec::with_capacity(row.subtokens.len());
        // The first of two names equal but for case wins, as in a search in order (both
        // indexes keep the first of equal keys).
        for s in &row.subtokens {
            let old = row.deprecated_subtokens.contains(s);
            if let Some(key) = ShortName::of(s.as_bytes()) {
                let key = if exact { key } else { key.upper() };
                short.push((key, 0, u8::from(old)));
                continue;
            }
            let key = if exact {
                (*s).to_owned()
            } else {
                s.to_ascii_uppercase()
            };
            if names.get(key.as_bytes()).is_none() {
                names.insert(key.as_bytes());
                deprecated.push(old);
            }
        }
        SubtokenIndex {
            names,
            deprecated,
            short: TokenMap::from_keys(short),
        }
    }

    /// [`SubtokenIndex::find`] for a sub-token as written: upper-cased first when `fold`
    /// (every row but the exact-case ones).
    pub fn find_key(&self, key: &[u8], fold: bool) -> Option<bool> {
        if let Some(short) = ShortName::of(key) {
            let short = if fold { short.upper() } else { short };
            return self.short.get(short).map(|(_, old)| old != 0);
        }
        let mut buf = [0u8; SUBTOKEN_BUFFER];
        let folded = buf.get_mut(..key.len())?;
        folded.copy_from_slice(key);
        if fold {
            folded.make_ascii_uppercase();
        }
        self.find(folded)
    }

    /// For a key (upper-cased unless the row's sub-tokens are exact-case): whether it is a
    /// sub-token of the row, and if so whether it is deprecated.
    pub fn find(&self, key: &[u8]) -> Option<bool> {
        if let Some(short) = ShortName::of(key) {
            return self.short.get(short).map(|(_, old)| old != 0);
        }
        let i = self.names.get(key)?;
        Some(self.deprecated.get(i).copied().unwrap_or(false))
    }
}

/// The whole vocabulary, with every kind's inheritance resolved.
#[derive(Debug)]
pub struct Vocabulary {
    rows: Vec<TokenRow>,
    /// Every token name of the table, numbered.
    names: NameIndex,
    /// Per row: the number of its token name (`NO_ROW` for an inheritance row).
    row_names: Vec<u16>,
    /// Every kind, in table order; `kind_index` numbers them alike.
    kinds: Vec<&'static str>,
    kind_index: NameIndex,
    /// Per kind (by number): its own rows, and the kinds it inherits in the order written.
    own: Vec<Vec<usize>>,
    inherits: Vec<Vec<usize>>,
    /// Per kind (by number): its resolved tokens, built on first use (a check reads a few
    /// dozen of the 90 kinds).
    tables: Vec<OnceLock<KindTable>>,
    /// Per token name (by number): its [`TokenMap`] key, if it is short enough.
    short_names: Vec<Option<ShortName>>,
    /// Per row: what the validator has to look at past the token's name
    /// ([`super::check::row_flags`]).
    flags: Vec<u8>,
    /// Per row: its sub-tokens indexed, built on first use.
    subtoken_index: Vec<OnceLock<SubtokenIndex>>,
}

/// The first six tab-separated columns of a line (the sixth runs to the next tab or the end).
fn columns(line: &str) -> [Option<&str>; 6] {
    let mut out = [None; 6];
    let mut rest = Some(line);
    for col in &mut out {
        let Some(r) = rest else { break };
        match find_byte(r.as_bytes(), 0, b'\t') {
            Some(t) => {
                *col = r.get(..t);
                rest = r.get(t + 1..);
            }
            None => {
                *col = Some(r);
                rest = None;
            }
        }
    }
    out
}

/// The rest of the first `;`-separated part of `notes` that starts with `label` (spaces
/// around parts ignored).
fn notes_part<'n>(notes: &'n str, label: &str) -> Option<&'n str> {
    let mut rest = notes;
    loop {
        let end = find_byte(rest.as_bytes(), 0, b';').unwrap_or(rest.len());
        if let Some(found) = rest.get(..end)?.trim().strip_prefix(label) {
            return Some(found);
        }
        rest = rest.get(end + 1..)?;
    }
}

/// The lines of `text` as [`str::lines`] cuts them (at `\n`, a `\r` before it dropped, no
/// empty last line), found with `memchr`: the table is read at every start of the program.
fn table_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let r = rest?;
        let (line, next) = match memchr::memchr(b'\n', r.as_bytes()) {
            Some(i) => (r.get(..i)?, r.get(i + 1..).filter(|n| !n.is_empty())),
            None if r.is_empty() => return None,
            None => (r, None),
        };
        rest = next;
        Some(line.strip_suffix('\r').unwrap_or(line))
    })
}

static VOCABULARY: LazyLock<Vocabulary> = LazyLock::new(|| Vocabulary::parse(TABLE_TSV));

impl Vocabulary {
    /// The compiled-in vocabulary (parsed on first use).
    pub fn get() -> &'static Vocabulary {
        &VOCABULARY
    }

    /// Parses a table in the TSV form (header line first). Malformed lines are skipped.
    /// Sub-tokens are separated by ASCII whitespace.
    pub fn parse(text: &'static str) -> Vocabulary {
        // About one row per 130 bytes of the table.
        let mut rows = Vec::with_capacity(text.len() / 100);
        for line in table_lines(text).skip(1) {
            let [kind, token, subs, status, source, notes] = columns(line);
            let (Some(kind), Some(token), Some(subs), Some(status)) = (kind, token, subs, status)
            else {
                continue;
            };
            let notes = notes.unwrap_or("");
            let status = match status {
                "deprecated-accepted" => Status::DeprecatedAccepted,
                "deprecated-rejected" => Status::DeprecatedRejected,
                _ => Status::Active,
            };
            const DEPRECATED_FORMS: &str =
                "deprecated sub-token forms (compatibility/deprecated classes):";
            // Few rows have the part: a vectorised search for its label first.
            static FORMS: LazyLock<memchr::memmem::Finder<'static>> =
                LazyLock::new(|| memchr::memmem::Finder::new(DEPRECATED_FORMS));
            let deprecated_subtokens = FORMS
                .find(notes.as_bytes())
                .and_then(|_| notes_part(notes, DEPRECATED_FORMS))
                .map(|s| s.split_ascii_whitespace().collect())
                .unwrap_or_default();
            rows.push(TokenRow {
                kind,
                token,
                subtokens: subs.split_ascii_whitespace().collect(),
                deprecated_subtokens,
                status,
                source: source.unwrap_or(""),
                notes,
            });
        }
        // A row index must fit a table entry (`NO_ROW` excluded); the table has ~2,000.
        rows.truncate(usize::from(NO_ROW));
        // Sized once: about half the rows name a new token, and there are far fewer kinds.
        let mut names = NameIndex::with_capacity(rows.len());
        let mut kinds = Vec::new();
        let mut kind_index = NameIndex::with_capacity(128);
        // Per row: the number of its token name (`NO_ROW` for an inheritance row).
        let mut row_names: Vec<u16> = Vec::with_capacity(rows.len());
        let mut own: Vec<Vec<usize>> = Vec::new();
        let mut last: Option<(&str, usize)> = None;
        for (i, r) in rows.iter().enumerate() {
            // A kind's rows are consecutive in the table: its number is looked up once.
            let k = match last {
                Some((kind, k)) if kind == r.kind => k,
                _ => kind_index.insert(r.kind.as_bytes()),
            };
            last = Some((r.kind, k));
            if k == kinds.len() {
                kinds.push(r.kind);
                own.push(Vec::new());
            }
            if let Some(o) = own.get_mut(k) {
                o.push(i);
            }
            row_names.push(if r.token == "*" {
                NO_ROW
            } else {
                u16::try_from(names.insert(r.token.as_bytes())).unwrap_or(NO_ROW)
            });
        }
        // Each kind's inherited kinds, in the order written.
        let inherits: Vec<Vec<usize>> = own
            .iter()
            .map(|rs| {
                rs.iter()
                    .filter_map(|i| rows.get(*i))
                    .filter(|r| r.token == "*")
                    .flat_map(|r| r.subtokens.iter())
                    .filter_map(|s| kind_index.get(s.as_bytes()))
                    .collect()
            })
            .collect();
        let tables = kinds.iter().map(|_| OnceLock::new()).collect();
        let short_names = (0..names.len())
            .map(|n| ShortName::of(names.key(n)))
            .collect();
        let flags = rows.iter().map(super::check::row_flags).collect();
        let subtoken_index = rows.iter().map(|_| OnceLock::new()).collect();
        Vocabulary {
            rows,
            names,
            row_names,
            kinds,
            kind_index,
            own,
            inherits,
            tables,
            short_names,
            flags,
            subtoken_index,
        }
    }

    /// The resolved tokens of kind number `k`: its own rows, then each inherited kind's
    /// (depth-first in the order written), the first row of a name winning.
    fn build_table(&self, k: usize) -> KindTable {
        let mut table = vec![NO_ROW; self.names.len()];
        let mut stack = vec![k];
        let mut seen: Vec<usize> = Vec::new();
        while let Some(k) = stack.pop() {
            if seen.contains(&k) {
                continue;
            }
            seen.push(k);
            for i in self.own.get(k).map(Vec::as_slice).unwrap_or(&[]) {
                let name = self.row_names.get(*i).copied().unwrap_or(NO_ROW);
                if let Some(slot) = table.get_mut(usize::from(name)) {
                    if *slot == NO_ROW {
                        *slot = u16::try_from(*i).unwrap_or(NO_ROW);
                    }
                }
            }
            // Depth-first in the order written: push reversed.
            if let Some(inh) = self.inherits.get(k) {
                stack.extend(inh.iter().rev());
            }
        }
        KindTable {
            rows: table,
            map: OnceLock::new(),
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

    /// The table's own string for the kind named `kind`, if the table has it.
    pub fn kind_named(&self, kind: &[u8]) -> Option<&'static str> {
        self.kinds.get(self.kind_index.get(kind)?).copied()
    }

    /// Whether `kind` is a file kind or line type of the table.
    pub fn has_kind(&self, kind: &str) -> bool {
        self.kind_index.get(kind.as_bytes()).is_some()
    }

    /// The row for `token` (exact case) on `kind`, inherited rows included.
    pub fn find(&self, kind: &str, token: &str) -> Option<&TokenRow> {
        self.find_in(self.kind_table(kind)?, token)
    }

    /// The tokens of `kind`, for repeated [`Vocabulary::find_in`] lookups.
    pub fn kind_table(&self, kind: &str) -> Option<&KindTable> {
        let k = self.kind_index.get(kind.as_bytes())?;
        Some(self.tables.get(k)?.get_or_init(|| self.build_table(k)))
    }

    /// The row for `token` (exact case) in a kind's table.
    pub fn find_in(&self, table: &KindTable, token: &str) -> Option<&TokenRow> {
        self.rows.get(self.row_in(table, token.as_bytes())?)
    }

    /// The index of the row for the token name `name` (exact case) in a kind's table.
    #[inline]
    pub fn row_in(&self, table: &KindTable, name: &[u8]) -> Option<usize> {
        table.row(self.names.get(name)?)
    }

    /// The index of the first `:` of a token's text, and the index of the row for the
    /// token name before it (exact case) in a kind's table: the validator's lookup.
    #[inline]
    pub fn row_before_colon(
        &self,
        table: &KindTable,
        text: &[u8],
    ) -> Option<(usize, Option<usize>)> {
        let (colon, name) = self.names.get_before_colon(text)?;
        Some((colon, name.and_then(|n| table.row(n))))
    }

    /// The index of the row for the token name `text[..n]` (exact case) in a kind's table:
    /// the validator's lookup, on a token's text (name, `:`, value) without cutting it.
    #[inline]
    pub fn row_in_prefix(&self, table: &KindTable, text: &[u8], n: usize) -> Option<usize> {
        table.row(self.names.get_prefix(text, n)?)
    }

    /// A kind's tokens keyed by their (short) names, with each row's flags (built on
    /// first use).
    #[inline]
    pub(crate) fn token_map<'v>(&'v self, table: &'v KindTable) -> &'v TokenMap {
        table.map.get_or_init(|| {
            let keys = table
                .rows
                .iter()
                .zip(&self.short_names)
                .filter(|(row, _)| **row != NO_ROW)
                .filter_map(|(row, key)| Some(((*key)?, *row, self.flags(usize::from(*row)))))
                .collect();
            TokenMap::from_keys(keys)
        })
    }

    /// Row `i`.
    pub fn row(&self, i: usize) -> Option<&TokenRow> {
        self.rows.get(i)
    }

    /// What the validator has to look at past the name of row `i`'s token.
    #[inline]
    pub(crate) fn flags(&self, i: usize) -> u8 {
        self.flags.get(i).copied().unwrap_or(u8::MAX)
    }

    /// Row `i`'s sub-tokens, indexed (on first use).
    pub fn subtoken_index(&self, i: usize) -> Option<&SubtokenIndex> {
        let row = self.rows.get(i)?;
        Some(
            self.subtoken_index
                .get(i)?
                .get_or_init(|| SubtokenIndex::build(row)),
        )
    }

    /// Every token valid on `kind` (inherited ones included), sorted by name.
    pub fn tokens_for(&self, kind: &str) -> Vec<&TokenRow> {
        let mut out: Vec<&TokenRow> = self
            .kind_table(kind)
            .into_iter()
            .flat_map(|t| t.rows.iter())
            .filter(|r| **r != NO_ROW)
            .filter_map(|r| self.rows.get(usize::from(*r)))
            .collect();
        out.sort_by_key(|r| r.token);
        out
    }

    /// Every row named `token` (exact case), over all kinds.
    pub fn lookup(&self, token: &str) -> Vec<&TokenRow> {
        let Some(name) = self
            .names
            .get(token.as_bytes())
            .and_then(|n| u16::try_from(n).ok())
        else {
            return Vec::new();
        };
        self.rows
            .iter()
            .zip(&self.row_names)
            .filter(|(_, n)| **n == name)
            .map(|(r, _)| r)
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
    fn table_lines_are_cut_as_str_lines_cuts_them() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "\n\na\n\n",
            "a\rb",
            TABLE_TSV,
        ] {
            let want: Vec<&str> = text.lines().collect();
            assert_eq!(table_lines(text).collect::<Vec<_>>(), want, "{text:?}");
        }
    }

    #[test]
    fn columns_are_the_first_six_tab_fields() {
        for line in TABLE_TSV
            .lines()
            .chain(["", "A", "A\tB", "A\t\tC\tD\tE\tF\tG"])
        {
            let mut split = line.split('\t');
            let want: [Option<&str>; 6] = std::array::from_fn(|_| split.next());
            assert_eq!(columns(line), want, "{line}");
        }
    }

    #[test]
    fn notes_parts_are_found_by_label() {
        for notes in [
            "",
            "a; b",
            "x;deprecated: A B ; y",
            " deprecated:A;deprecated:B",
            ";;",
        ] {
            let want = notes
                .split(';')
                .find_map(|n| n.trim().strip_prefix("deprecated:"));
            assert_eq!(notes_part(notes, "deprecated:"), want, "{notes}");
        }
    }

    #[test]
    fn kinds_taking_names_concrete_kinds() {
        let v = Vocabulary::get();
        assert_eq!(v.kinds_taking("GLOBAL"), vec!["VARIABLE"]);
        let face = v.kinds_taking("FACE");
        assert_eq!(face, vec!["RACE", "TEMPLATE"]);
    }
}
