//! The validator: every token of every line checked against the vocabulary.
//!
//! One mistake gives one diagnostic, on the token name (or sub-token) it is about. Token
//! values are not validated here, except for the sub-token that picks a BONUS type, a CHOOSE,
//! ADD, AUTO, QUALIFY, REMOVE or TEMPBONUS form. FACT/FACTSET names are checked by the model
//! against the load's FACTDEFs (`M0111`), FACE under a game mode that replaces it by
//! `M0114`, and VARIABLE, GLOBALMODIFIER and DATATABLE lines entirely by the model.

use super::bonus;
use super::codes;
use super::deprecation;
use super::lines::{FirstColumn, LineType, line_type, plain_object_kind};
use super::names::{find_byte, find_pre};
use super::suggest::suggest;
use super::table::{KindTable, Status, TokenRow, Vocabulary};
use super::tokenmap::{ShortName, TokenMap};
use crate::diagnostic::Diagnostic;
use crate::load::text::{LineMode, lines};
use crate::load::{FileCache, FileKind, Line, LoadSet};
use crate::source::{FileId, SourceFile, Span};
use std::path::Path;
use std::sync::Arc;

/// Whether the values of token `name` are scanned for nested PREs (`|PRExxx:…`,
/// `[PRExxx:…]`): the tokens that carry trailing prerequisites. Free-text tokens (DESC,
/// BENEFIT, INFO, ASPECT) are the bulk of the bytes of real data and are not scanned. A
/// `match` on string literals compiles to a switch on the length and one comparison, not a
/// walk over a list.
fn takes_nested_pres(name: &str) -> bool {
    matches!(
        name,
        "ABILITY"
            | "ADD"
            | "AUTO"
            | "BONUS"
            | "CCSKILL"
            | "CSKILL"
            | "DOMAIN"
            | "DR"
            | "KIT"
            | "MOVE"
            | "NATURALATTACKS"
            | "SAB"
            | "SPELLKNOWN"
            | "SPELLLEVEL"
            | "SPELLS"
            | "SR"
            | "TEMPLATE"
            | "UDAM"
            | "VISION"
            | "CHANGEPROF"
            | "FOLLOWERS"
            | "COMPANIONLIST"
            | "SERVESAS"
    )
}

/// The first index of byte `b` in `s`. A plain loop: the strings searched here are short (a
/// token name before its `:`, a sub-token before its `|`), where `str::find`'s memchr set-up
/// costs more than the search.
fn byte_at(s: &str, b: u8) -> Option<usize> {
    s.bytes().position(|c| c == b)
}

/// Whether a BONUS (`form` [`SubForm::Bonus`]) or TEMPBONUS value has no field PCGen
/// drops after the bonus's value.
fn bonus_quiet(form: SubForm, value: &str) -> bool {
    let token = match form {
        SubForm::Bonus => "BONUS",
        SubForm::TempBonus => "TEMPBONUS",
        _ => return true,
    };
    bonus::bonus_start(token, value)
        .and_then(|s| value.get(s..))
        .is_none_or(bonus::all_kept)
}

/// Whether `value` contains `PRE` anywhere: a nested prerequisite (`PRE…` or `!PRE…`, `PRE`
/// in capitals) cannot be present otherwise.
fn may_hold_pre(value: &str) -> bool {
    find_pre(value.as_bytes(), 0).is_some()
}

/// What the validator has to look at in a token past its name, per row of the table (the
/// flags of [`Vocabulary::flags`]); a row with none is quiet as soon as its name is found.
pub(crate) fn row_flags(row: &TokenRow) -> u8 {
    let mut flags = 0;
    // Deprecated and rejected tokens (and the CLASS tokens on level lines, all deprecated
    // rows) always take the full path.
    if row.status != Status::Active {
        flags |= FULL;
    }
    if row.has_subtokens() {
        flags |= SUBTOKEN;
    }
    if takes_nested_pres(row.token) {
        flags |= NESTED_PRES;
    }
    if super::values::checks(row.source) {
        flags |= VALUE;
    }
    flags | ((sub_form(row.token) as u8) << FORM_SHIFT)
}

/// Row flag: the value's nested PREs are checked.
const NESTED_PRES: u8 = 1;
/// Row flag: the value's sub-token (BONUS type, CHOOSE form …) is checked.
const SUBTOKEN: u8 = 2;
/// Row flag: the token is always checked on the full path (it may give a diagnostic).
const FULL: u8 = 4;
/// The row flags' bits from this one (three of them) hold the token's [`SubForm`].
const FORM_SHIFT: u32 = 3;
/// Row flag: the value itself is checked ([`super::values`]).
const VALUE: u8 = 64;

/// Where the sub-token of a token's value is (the tokens whose sub-token is checked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SubForm {
    /// No sub-token is checked.
    None = 0,
    /// `BONUS:[level|]TYPE|…`, `TYPE=` for types that take a name.
    Bonus,
    /// `CHOOSE:[NUMCHOICES=n|]FORM|…`.
    Choose,
    /// `ADD:FORM[(n)]|…`, except `ADD:.CLEAR…`.
    Add,
    /// `QUALIFY:CLASS[=…]|…`, in exact case.
    Qualify,
    /// The first `|` piece (AUTO, REMOVE).
    First,
    /// The first `|` piece, then a bonus (TEMPBONUS).
    TempBonus,
}

fn sub_form(token: &str) -> SubForm {
    match token {
        "BONUS" => SubForm::Bonus,
        "CHOOSE" => SubForm::Choose,
        "ADD" => SubForm::Add,
        "QUALIFY" => SubForm::Qualify,
        "AUTO" | "REMOVE" => SubForm::First,
        "TEMPBONUS" => SubForm::TempBonus,
        _ => SubForm::None,
    }
}

/// The [`SubForm`] held in a row's flags.
fn form_in(flags: u8) -> SubForm {
    match (flags >> FORM_SHIFT) & 7 {
        1 => SubForm::Bonus,
        2 => SubForm::Choose,
        3 => SubForm::Add,
        4 => SubForm::Qualify,
        5 => SubForm::First,
        6 => SubForm::TempBonus,
        _ => SubForm::None,
    }
}

/// How many kinds a "valid on" help line names before "and N more".
const KINDS_SHOWN: usize = 6;

/// Checks every PCC and LST line of a load set; returns the diagnostics.
pub fn check_load_set(load: &LoadSet) -> Vec<Diagnostic> {
    check_files(load, None)
}

/// [`check_load_set`] over files read through `cache`: a file's findings depend on the file
/// and its kind alone, so each file is checked once per run and its findings are handed to
/// every other load set that lists it (a core rulebook is listed by every supplement).
/// Files not in the cache are checked here.
pub fn check_load_set_cached(load: &LoadSet, cache: &FileCache) -> Vec<Diagnostic> {
    check_files(load, Some(cache))
}

// Never inlined: a profile then shows the validator's share of a check as one inclusive cost
// (issue 10 holds that share within 10 %).
#[inline(never)]
fn check_files(load: &LoadSet, cache: Option<&FileCache>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut seen: Vec<FileId> = Vec::new();
    for c in &load.campaigns {
        if seen.contains(&c.file) {
            continue;
        }
        seen.push(c.file);
        let Some(src) = load.sources.get_shared(c.file) else {
            continue;
        };
        let pcc = |id: FileId| {
            let mut found = Vec::new();
            check_pcc(id, &src.text, &mut found);
            found
        };
        out.extend(file_findings(cache, &c.path, src, "PCC", c.file, pcc));
    }
    for f in &load.files {
        let Some(src) = load.sources.get_shared(f.file) else {
            continue;
        };
        // Checked over the run's shared split (spans in the cache's placeholder file), then
        // moved onto the load set's file: placing every line of the file in the load set
        // first would copy all its tokens for findings that are mostly empty.
        let lst = |id: FileId| {
            let mut found = Vec::new();
            check_lines(f.kind, &src.text, f.lines.shared(), &mut found);
            for d in &mut found {
                d.move_to(id);
            }
            found
        };
        // The load set's own copy of the file is the cached one its text came from.
        match cache {
            Some(_) if Arc::ptr_eq(f.cached.source(), src) => {
                out.extend(f.cached.findings(f.kind.token(), f.file, lst));
            }
            _ => out.extend(lst(f.file)),
        }
    }
    out
}

/// What `check` finds in the load set's file `id`, read from `path` as `src`: from `cache`
/// when one is given and holds that very text (computed there once per run, under the name `kind`, and
/// shared by every load set), else computed here.
fn file_findings(
    cache: Option<&FileCache>,
    path: &Path,
    src: &Arc<SourceFile>,
    kind: &'static str,
    id: FileId,
    check: impl FnOnce(FileId) -> Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    match cache.and_then(|c| c.get(path)) {
        Some(cached) if Arc::ptr_eq(cached.source(), src) => cached.findings(kind, id, check),
        _ => check(id),
    }
}

/// Checks the lines of a PCC file (`text` is the whole file).
pub fn check_pcc(file: FileId, text: &str, out: &mut Vec<Diagnostic>) {
    let mut c = Checker::new(text, out);
    let table = c.table_for("PCC");
    let map = table.map(|t| c.vocab.token_map(t));
    for line in lines(file, text, LineMode::Whole) {
        for t in &line.tokens {
            c.token("PCC", table, map, *t, None);
        }
    }
}

/// Checks the lines of one file of `kind` (`text` is the whole file).
pub fn check_lines(kind: FileKind, text: &str, lines: &[Line], out: &mut Vec<Diagnostic>) {
    let mut c = Checker::new(text, out);
    c.plain = plain_object_kind(kind);
    for line in lines {
        c.line(kind, line);
    }
}

struct Checker<'t, 'o> {
    text: &'t str,
    out: &'o mut Vec<Diagnostic>,
    cache: KindCache,
    vocab: &'static Vocabulary,
    /// The `PRE` kind's table, looked up once per file for nested prerequisites.
    pre: Option<&'static KindTable>,
    /// The table kind of every line of the file but `SOURCE…` lines, when its file kind
    /// has one ([`plain_object_kind`]).
    plain: Option<&'static str>,
    /// Whether tokens are first tried on the quiet path (always, but in a test that proves
    /// the quiet path changes no diagnostic).
    quick: bool,
    /// The last `CLASS:` line of the file: where a CLASS token on a level-1 line moves to.
    class_line: Option<Span>,
    /// The name column of the line being checked, when it has one (the object a dropped
    /// token belonged to).
    object: Option<Span>,
    /// The class level of the line being checked, on a CLASS file's level line.
    level: Option<u32>,
}

/// The last kind looked up and its table (lines of one file nearly always share a kind).
type KindCache = Option<(&'static str, Option<&'static KindTable>)>;

fn sub_span(span: Span, from: usize, len: usize) -> Span {
    let start = span.start as usize + from;
    Span::new(span.file, start..start + len)
}

impl<'t, 'o> Checker<'t, 'o> {
    fn new(text: &'t str, out: &'o mut Vec<Diagnostic>) -> Self {
        let vocab = Vocabulary::get();
        Checker {
            text,
            out,
            cache: None,
            vocab,
            pre: vocab.kind_table("PRE"),
            plain: None,
            quick: true,
            class_line: None,
            object: None,
            level: None,
        }
    }
}

impl<'t> Checker<'t, '_> {
    fn slice(&self, span: Span) -> &'t str {
        let text: &'t str = self.text;
        text.get(span.range()).unwrap_or("")
    }

    /// The table of `kind`, looked up once per run of lines of one kind.
    fn table_for(&mut self, kind: &'static str) -> Option<&'static KindTable> {
        match self.cache {
            // The same static string nearly always: its address is compared first.
            Some((k, t)) if std::ptr::eq(k, kind) || k == kind => t,
            _ => {
                let t = self.vocab.kind_table(kind);
                self.cache = Some((kind, t));
                t
            }
        }
    }

    fn line(&mut self, kind: FileKind, line: &Line) {
        let Some(first) = line.tokens.first().copied() else {
            return;
        };
        let first_text = self.slice(first);
        let line_type = match self.plain {
            Some(k) if !first_text.starts_with("SOURCE") => LineType::Kind {
                kind: k,
                first: FirstColumn::Name,
                level: None,
            },
            _ => line_type(kind, first_text),
        };
        match line_type {
            LineType::Model => {}
            LineType::Unknown { expected } => {
                let head = first_text.split(':').next().unwrap_or(first_text);
                let shown = head.trim();
                // The label starts where the shown name does (after any leading blanks).
                let blanks = head.len() - head.trim_start().len();
                let shown_span = sub_span(first, blanks, shown.len());
                self.out.push(
                    Diagnostic::error(
                        codes::UNKNOWN_LINE_TYPE,
                        shown_span,
                        format!("`{shown}` does not start a line of a {} file", kind.token()),
                    )
                    .with_label("PCGen drops this whole line")
                    .with_help(expected.to_owned()),
                );
            }
            LineType::Kind {
                kind: table_kind,
                first: first_col,
                level,
            } => {
                self.level = level;
                if table_kind == "CLASS" && first_text.starts_with("CLASS:") {
                    self.class_line = Some(line.span);
                }
                let skip = match first_col {
                    FirstColumn::Token => {
                        self.object = None;
                        0
                    }
                    FirstColumn::Name => {
                        self.object = Some(first);
                        self.name_column(table_kind, first);
                        1
                    }
                };
                if table_kind == "BIOSET:RACENAME" {
                    for t in line.tokens.iter().skip(skip) {
                        self.bio_tag(*t);
                    }
                } else {
                    let table = self.table_for(table_kind);
                    let map = table.map(|t| self.vocab.token_map(t));
                    let tokens = line.tokens.get(skip..).unwrap_or(&[]);
                    self.tokens(table_kind, table, map, tokens, level);
                }
            }
        }
    }

    /// An object name column holding `KEY:`, `TYPE:` … after a space: the author used spaces
    /// where PCGen needs tabs.
    fn name_column(&mut self, kind: &str, first: Span) {
        let text = self.slice(first);
        // Most names have no space, or no `:` after one: no token can follow then.
        let bytes = text.as_bytes();
        // A `:` after the first space: the last `:` (vectorised; most names have none)
        // must follow a space.
        let Some(last_colon) = memchr::memrchr(b':', bytes) else {
            return;
        };
        let before = bytes.get(..last_colon).unwrap_or(bytes);
        if find_byte(before, 0, b' ').is_none() {
            return;
        }
        let vocab = Vocabulary::get();
        let mut at = 0usize;
        for word in text.split(' ') {
            let here = at;
            at += word.len() + 1;
            if here == 0 {
                continue;
            }
            let Some((name, _)) = word.split_once(':') else {
                continue;
            };
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_uppercase() || b == b'!') {
                continue;
            }
            if vocab
                .find(kind, name)
                .is_some_and(|r| !r.is_line_identifier())
            {
                self.out.push(
                    Diagnostic::warning(
                        codes::SPACES_NOT_TABS,
                        sub_span(first, here, name.len() + 1),
                        format!("`{name}:` is inside the object name"),
                    )
                    .with_label("separated from the name by a space")
                    .with_help("tokens must be separated by tabs: put a TAB before it"),
                );
                return;
            }
        }
    }

    /// A `TAG:value` column of a BIOSET RACENAME line: any tag is stored, PREs qualify the
    /// next tag.
    fn bio_tag(&mut self, tok: Span) {
        let text = self.slice(tok);
        if text.starts_with("PRE") || text.starts_with("!PRE") {
            let pre = self.pre;
            let map = pre.map(|t| self.vocab.token_map(t));
            self.token("PRE", pre, map, tok, None);
        } else if !text.contains(':') {
            self.no_colon(tok, text);
        }
    }

    fn no_colon(&mut self, tok: Span, text: &str) {
        let message = if text.starts_with(':') {
            format!("`{text}` starts with `:`")
        } else {
            format!("`{text}` is not a token: it has no `:`")
        };
        self.out.push(
            Diagnostic::error(codes::NO_COLON, tok, message)
                .with_label("PCGen ignores this column")
                .with_help("write `NAME:value`; columns are separated by tabs"),
        );
    }

    /// Checks the token columns `tokens` of one line against `kind` (whose table is
    /// `table`, keyed by name in `map`): [`Checker::token`] in one tight loop, the hot path
    /// of the validator.
    fn tokens(
        &mut self,
        kind: &'static str,
        table: Option<&'static KindTable>,
        map: Option<&'static TokenMap>,
        tokens: &[Span],
        level: Option<u32>,
    ) {
        if !self.quick {
            for t in tokens {
                self.token_in_full(kind, *t, level);
            }
            return;
        }
        let text = self.text.as_bytes();
        for t in tokens {
            let (start, end) = (t.start as usize, t.end as usize);
            let quiet = match (ShortName::before_colon(text, start, end), map) {
                (Some((name, colon)), Some(map)) => match map.get(name) {
                    Some((_, 0)) => true,
                    Some((row, flags)) => self.value_quiet(row, flags, start + colon + 1, end),
                    None => false,
                },
                _ => self.quiet(table, *t),
            };
            if !quiet {
                self.token_in_full(kind, *t, level);
            }
        }
    }

    /// Checks one token column against `kind` (whose table is `table`).
    #[inline(always)]
    fn token(
        &mut self,
        kind: &'static str,
        table: Option<&'static KindTable>,
        map: Option<&'static TokenMap>,
        tok: Span,
        level: Option<u32>,
    ) {
        if self.quick {
            // The name's `:` among the token's first 16 bytes (nearly every token): one
            // probe of the kind's map; else the general lookup.
            let (start, end) = (tok.start as usize, tok.end as usize);
            let quiet = match ShortName::before_colon(self.text.as_bytes(), start, end) {
                Some((name, colon)) => map.and_then(|m| m.get(name)).is_some_and(|(row, flags)| {
                    flags == 0 || self.value_quiet(row, flags, start + colon + 1, end)
                }),
                None => self.quiet(table, tok),
            };
            if quiet {
                return;
            }
        }
        self.token_in_full(kind, tok, level);
    }

    /// Whether [`Checker::token_in_full`] would report nothing for the token at `tok`,
    /// decided on the common path only: its name is found in `table` and its row needs no
    /// more, or its sub-token is a current one and its nested PREs are known. `false` when
    /// anything else holds (a diagnostic may be due): the full path then decides, so the
    /// diagnostics are those of the full path alone.
    #[inline(never)]
    fn quiet(&self, table: Option<&'static KindTable>, tok: Span) -> bool {
        let Some(table) = table else {
            return false;
        };
        let text = self.slice(tok);
        let bytes = text.as_bytes();
        let Some(colon) = find_byte(bytes, 0, b':').filter(|c| *c > 0) else {
            return false;
        };
        let Some(row) = self.vocab.row_in_prefix(table, bytes, colon) else {
            return false;
        };
        match self.vocab.flags(row) {
            0 => true,
            flags => {
                let start = tok.start as usize + colon + 1;
                self.value_quiet(row, flags, start, tok.end as usize)
            }
        }
    }

    /// [`Checker::quiet`] for a row with flags: the sub-token and nested PREs of the value
    /// `text[start..end]`.
    #[inline(never)]
    fn value_quiet(&self, row: usize, flags: u8, start: usize, end: usize) -> bool {
        if flags & FULL != 0 {
            return false;
        }
        let Some(value) = self.text.get(start..end) else {
            return false;
        };
        if flags & VALUE != 0
            && self
                .vocab
                .row(row)
                .is_some_and(|r| super::values::problem(r.source, value).is_some())
        {
            return false;
        }
        let form = form_in(flags);
        if flags & SUBTOKEN != 0 && !self.subtoken_quiet(row, form, value) {
            return false;
        }
        if !bonus_quiet(form, value) {
            return false;
        }
        flags & NESTED_PRES == 0 || self.nested_pres_quiet(value.as_bytes())
    }

    /// Whether the sub-token of `value` is a current sub-token of row `row` (an active
    /// row whose token's sub-token sits where `form` says): [`Checker::subtoken`] would
    /// report nothing.
    fn subtoken_quiet(&self, row: usize, form: SubForm, value: &str) -> bool {
        let Some((sub, _)) = subtoken_in(form, value) else {
            return true;
        };
        if sub.is_empty() {
            return true;
        }
        // BONUS types that take a name (`WEAPONPROF=Club`) are found by `WEAPONPROF=`.
        let key = match form {
            SubForm::Bonus => byte_at(sub, b'=').map_or(sub.as_bytes(), |e| {
                sub.as_bytes().get(..=e).unwrap_or(sub.as_bytes())
            }),
            _ => sub.as_bytes(),
        };
        // Matched ignoring case but for QUALIFY's class names.
        let fold = form != SubForm::Qualify;
        self.vocab
            .subtoken_index(row)
            .and_then(|ix| ix.find_key(key, fold))
            == Some(false)
    }

    /// Whether every PRE nested in `value` (where [`Checker::nested_pres`] looks: at the
    /// start, after `|` or `[`, `!` allowed) is a PRE token in exact case: nothing to report.
    fn nested_pres_quiet(&self, value: &[u8]) -> bool {
        let Some(pre) = self.pre else {
            return false;
        };
        let map = self.vocab.token_map(pre);
        let opens = |at: usize| at == 0 || matches!(value.get(at - 1), Some(b'|' | b'['));
        let mut from = 0;
        while let Some(p) = find_pre(value, from) {
            from = p + 3;
            let start = if opens(p) {
                p
            } else if p > 0 && value.get(p - 1) == Some(&b'!') && opens(p - 1) {
                p - 1
            } else {
                continue;
            };
            let rest = value.get(start..).unwrap_or(&[]);
            // The name runs to the `:`, which must come before the piece's end at `|`.
            let Some(colon) = find_byte(rest, 0, b':') else {
                continue;
            };
            let name = rest.get(..colon).unwrap_or(rest);
            if find_byte(name, 0, b'|').is_some() {
                continue;
            }
            let found = match ShortName::of(name) {
                Some(short) => map.get(short).is_some(),
                None => self.vocab.row_in_prefix(pre, rest, colon).is_some(),
            };
            if !found {
                return false;
            }
        }
        true
    }

    /// Checks one token column against `kind`, every rule in order: the path for tokens
    /// that may give a diagnostic.
    #[cold]
    #[inline(never)]
    fn token_in_full(&mut self, kind: &'static str, tok: Span, level: Option<u32>) {
        let text = self.slice(tok);
        let name = match byte_at(text, b':').and_then(|i| text.get(..i)) {
            Some(n) if !n.is_empty() => n,
            _ => return self.no_colon(tok, text),
        };
        let name_span = sub_span(tok, 0, name.len());
        let value_span = sub_span(tok, name.len() + 1, text.len() - name.len() - 1);
        let value = text.get(name.len() + 1..).unwrap_or("");
        let vocab = self.vocab;
        let Some(row) = vocab.find(kind, name) else {
            return self.unknown(kind, name, name_span);
        };
        if row.status == Status::DeprecatedRejected {
            self.out.push(
                Diagnostic::error(
                    codes::UNSUPPORTED_TOKEN,
                    name_span,
                    format!("`{name}` is no longer supported on {kind} lines"),
                )
                .with_label("PCGen rejects every use of this token")
                .with_help(format!("remove `{name}:`")),
            );
            return;
        }
        if row.kind == "CLASSLEVEL"
            && row.status == Status::DeprecatedAccepted
            && row.notes.contains("ClassWrappedToken")
            && level != Some(1)
        {
            self.out.push(
                Diagnostic::error(
                    codes::MISPLACED_TOKEN,
                    name_span,
                    format!("`{name}` is a CLASS token, not a level token"),
                )
                .with_label("PCGen reads it on level lines only on level 1")
                .with_help(format!("move `{name}:` to the CLASS line")),
            );
            return;
        }
        if row.has_subtokens() {
            if self.subtoken(kind, row, value, value_span) {
                return;
            }
        } else if row.status == Status::DeprecatedAccepted {
            self.deprecated(kind, row, name, name_span, replacement(row, kind));
            // The whole token rewritten, when the form has an exact replacement; a CLASS
            // token on a level-1 line moved to the CLASS line.
            let edits = match super::rewrite::exact_replacement(name, value) {
                Some(text) => vec![(tok, text)],
                None if row.kind == "CLASSLEVEL" => self.class_token_move(tok),
                None => Vec::new(),
            };
            self.attach_safe_fix(edits);
        }
        if let Some(problem) = super::values::problem(row.source, value) {
            self.bad_value(name, value, value_span, &problem);
        }
        self.bonus_fields(name, value, value_span);
        if takes_nested_pres(name) && may_hold_pre(value) {
            self.nested_pres(value, value_span);
        }
    }

    /// A `T0119`: the value (or the part of it at `problem.at`) that PCGen's parser of
    /// token `name` rejects, dropping the token.
    fn bad_value(
        &mut self,
        name: &str,
        value: &str,
        value_span: Span,
        problem: &super::values::ValueProblem,
    ) {
        let at = problem.at.clone();
        let text = value.get(at.clone()).unwrap_or(value);
        let span = sub_span(value_span, at.start, at.len());
        let owner = self.owner();
        let message = match &owner {
            Some(owner) => format!("{} (`{owner}`)", problem.message(name, text)),
            None => problem.message(name, text),
        };
        self.out.push(
            Diagnostic::error(codes::BAD_TOKEN_VALUE, span, message)
                .with_label(format!("PCGen: \"{}\"", problem.pcgen))
                .with_help(problem.help())
                .with_note(match owner {
                    Some(owner) => {
                        format!("PCGen drops this {name} token: `{owner}` loads without it")
                    }
                    None => format!("PCGen drops this {name} token"),
                }),
        );
    }

    /// The object the line being checked belongs to, as PCGen names it: the name column, or
    /// on a class level line the class and its level (`Archer(1)`).
    fn owner(&self) -> Option<String> {
        if let (Some(level), Some(class)) = (self.level, self.class_line) {
            let line = self.slice(class);
            let head = line.split('\t').next().unwrap_or(line);
            let class = head.strip_prefix("CLASS:").unwrap_or(head).trim();
            return Some(format!("{class}({level})"));
        }
        let object = self.slice(self.object?).trim();
        // `Base.COPY=New` makes `New`; `Key.MOD` changes `Key` (`CATEGORY=Cat|Key.MOD`).
        let object = match object.split_once(".COPY=") {
            Some((_, new)) => new,
            None => object.strip_suffix(".MOD").unwrap_or(object),
        };
        let object = object
            .rsplit_once('|')
            .map_or(object, |(_, key)| key)
            .trim();
        (!object.is_empty()).then(|| object.to_owned())
    }

    /// A `T0118` at the first field of a BONUS (or TEMPBONUS's bonus) that PCGen drops
    /// after the value ([`bonus`]).
    fn bonus_fields(&mut self, name: &str, value: &str, span: Span) {
        let Some(start) = bonus::bonus_start(name, value) else {
            return;
        };
        let bonus = value.get(start..).unwrap_or("");
        let ignored = bonus::ignored_fields(bonus);
        let Some(first) = ignored.first() else {
            return;
        };
        let repeated = bonus::repeats_its_head(bonus);
        // `BONUS:ABILITYPOOL|BONUS:ABILITYPOOL|…` names the category `BONUS:ABILITYPOOL`:
        // that is the one error (`R0103`; PCGen drops the token).
        if repeated && bonus::names_a_category(bonus) {
            return;
        }
        let field = bonus.get(first.clone()).unwrap_or("");
        let others = match ignored.len() - 1 {
            0 => String::new(),
            1 => " (and 1 more field)".to_owned(),
            n => format!(" (and {n} more fields)"),
        };
        let mut d = Diagnostic::warning(
            codes::BONUS_FIELD_IGNORED,
            sub_span(span, start + first.start, field.len()),
            format!("PCGen ignores `{field}` after this {name}'s value{others}"),
        )
        .with_label("neither a PRExxx prerequisite nor a TYPE=")
        .with_note(
            "PCGen reads a bonus as `TYPE|targets|value`, then only `PRExxx:`/`!PRExxx:` and \
             `TYPE=` fields; it drops any other field without a word",
        );
        let field_span = d.span;
        d = match bonus::rewrite(field) {
            _ if repeated => d.with_help(
                "the bonus writes its `BONUS:TYPE|` twice, which moves every field one place \
                 right: remove the repeat",
            ),
            Some(fixed) => d.with_help(format!("write `{fixed}`")).with_fix(
                field_span,
                fixed,
                crate::diagnostic::Safety::Unsafe,
            ),
            None => d.with_help(
                "remove the field, or make it part of the bonus: targets are one field \
                 separated by `,`, and the value is the third field",
            ),
        };
        self.out.push(d);
    }

    /// Gives the diagnostic just pushed the safe fix of `edits` (nothing when empty).
    fn attach_safe_fix(&mut self, edits: Vec<(Span, String)>) {
        if let (Some(d), false) = (self.out.last_mut(), edits.is_empty()) {
            *d = d.clone().with_fixes(edits, crate::diagnostic::Safety::Safe);
        }
    }

    /// The edits moving the token `tok` of a level-1 line to the end of the file's last
    /// `CLASS:` line (PCGen reads it there as it reads it on level 1): the token and the
    /// blanks before it removed, a tab and the token added there. None without a CLASS line
    /// before it.
    fn class_token_move(&self, tok: Span) -> Vec<(Span, String)> {
        let Some(class) = self.class_line.filter(|c| c.end <= tok.start) else {
            return Vec::new();
        };
        let bytes = self.text.as_bytes();
        let mut from = tok.start as usize;
        while from > 0 && matches!(bytes.get(from - 1), Some(b'\t' | b' ')) {
            from -= 1;
        }
        let token = self.slice(tok);
        vec![
            (Span::new(tok.file, from..tok.end as usize), String::new()),
            (
                Span::new(class.file, class.end as usize..class.end as usize),
                format!("\t{token}"),
            ),
        ]
    }

    /// A `T0113` for the deprecated form `what` (of `row`) on a `kind` line, saying what
    /// PCGen does when it reads it ([`deprecation`]: most load silently).
    fn deprecated(&mut self, kind: &str, row: &TokenRow, what: &str, span: Span, instead: String) {
        let pcgen = deprecation::lookup(kind, row.kind, what);
        let message = match pcgen.map(|d| d.status) {
            Some(deprecation::OldForm::ClassToken) => {
                format!("`{what}` is a CLASS token, read on a level-1 line for compatibility")
            }
            _ => format!("`{what}` is deprecated"),
        };
        let label = pcgen.map_or_else(|| "PCGen still reads it".to_owned(), |d| d.label());
        self.out.push(
            Diagnostic::warning(codes::DEPRECATED_TOKEN, span, message)
                .with_label(label)
                .with_help(instead),
        );
    }

    fn unknown(&mut self, kind: &'static str, name: &str, span: Span) {
        let vocab = Vocabulary::get();
        let elsewhere = vocab.kinds_taking(name);
        if !elsewhere.is_empty() {
            self.out.push(
                Diagnostic::error(
                    codes::MISPLACED_TOKEN,
                    span,
                    format!("`{name}` is not a token of {kind} lines"),
                )
                .with_label(format!("PCGen does not read `{name}` on {kind} lines"))
                .with_help(format!("`{name}` is valid on {}", kinds_list(&elsewhere))),
            );
            return;
        }
        let candidates: Vec<&str> = vocab
            .tokens_for(kind)
            .into_iter()
            .filter(|r| !r.token.starts_with('<'))
            .map(|r| r.token)
            .collect();
        let d = Diagnostic::error(
            codes::UNKNOWN_TOKEN,
            span,
            format!("unknown token `{name}`"),
        )
        .with_label(format!("PCGen has no `{name}` token"));
        self.out
            .push(match suggest(name, candidates.iter().copied()) {
                Some(s) if s.eq_ignore_ascii_case(name) => {
                    d.with_did_you_mean_as(span, s, "", "token names are case-sensitive")
                }
                Some(s) => d.with_did_you_mean(span, s),
                None => d.with_help(format!("see the {kind} tokens in docs/loading.md")),
            });
    }

    /// Checks the sub-token of BONUS, CHOOSE, ADD, AUTO, QUALIFY, REMOVE or TEMPBONUS.
    /// Returns true when a diagnostic was given.
    fn subtoken(&mut self, kind: &'static str, row: &TokenRow, value: &str, span: Span) -> bool {
        let Some((sub, at)) = subtoken_of(row.token, value) else {
            return false;
        };
        if sub.is_empty() {
            return false;
        }
        let sub_span = sub_span(span, at, sub.len());
        let exact_case = row.token == "QUALIFY";
        let bonus_name = sub.split_once('=').map(|(n, _)| n);
        let is_bonus = row.token == "BONUS";
        let matches = |s: &&str| -> bool {
            if is_bonus {
                // Types are upper-cased by PCGen; `WEAPONPROF=x` matches on `WEAPONPROF=`.
                if let Some(p) = s.strip_suffix('=') {
                    return bonus_name.is_some_and(|n| n.eq_ignore_ascii_case(p));
                }
                return sub.eq_ignore_ascii_case(s);
            }
            if exact_case {
                sub == *s
            } else {
                sub.eq_ignore_ascii_case(s)
            }
        };
        let found = row.subtokens.iter().find(|s| matches(s)).copied();
        match found {
            Some(s) => {
                if row.deprecated_subtokens.contains(&s) || row.status == Status::DeprecatedAccepted
                {
                    let what = format!("{}:{s}", row.token);
                    let instead = sub_replacement(row.token, s, kind);
                    self.deprecated(kind, row, &what, sub_span, instead);
                    // The whole token (`NAME:` before the value) rewritten, when exact.
                    let head = row.token.len() + 1;
                    let start = (span.start as usize).saturating_sub(head);
                    let tok = Span::new(span.file, start..span.end as usize);
                    let named = self.slice(tok).get(..head) == Some(&format!("{}:", row.token));
                    let edits = match super::rewrite::exact_replacement(row.token, value) {
                        Some(text) if named => vec![(tok, text)],
                        _ => Vec::new(),
                    };
                    self.attach_safe_fix(edits);
                    return true;
                }
                false
            }
            None => {
                let full = format!("{}:{}", row.token, sub);
                let vocab = Vocabulary::get();
                let elsewhere: Vec<&'static str> = vocab
                    .kinds()
                    .iter()
                    .copied()
                    .filter(|k| !matches!(*k, "*" | "PRE" | "KIT:*") && !k.starts_with("GM:"))
                    .filter(|k| {
                        vocab
                            .find(k, row.token)
                            .is_some_and(|r| r.subtokens.iter().any(&matches))
                    })
                    .collect();
                let diag = if elsewhere.is_empty() {
                    let d = Diagnostic::error(
                        codes::UNKNOWN_SUBTOKEN,
                        sub_span,
                        format!("unknown {} sub-token `{sub}`", row.token),
                    )
                    .with_label(format!("PCGen has no `{full}`"));
                    match suggest(sub, row.subtokens.iter().copied()) {
                        Some(s) => {
                            let remark = match s.eq_ignore_ascii_case(sub) && exact_case {
                                true => "this name is case-sensitive",
                                false => "",
                            };
                            // A bonus type that takes a name (`WEAPONPROF=`): only the type
                            // before the `=` is replaced, the name after it kept.
                            let (name, written) = match s.strip_suffix('=') {
                                Some(n) => (n, sub.split('=').next().unwrap_or(sub)),
                                None => (s, sub),
                            };
                            let before = format!("{}:", row.token);
                            let replaced = Span::new(
                                sub_span.file,
                                sub_span.start as usize..sub_span.start as usize + written.len(),
                            );
                            d.with_did_you_mean_as(replaced, name, &before, remark)
                        }
                        None => d.with_help(format!(
                            "{} takes {}",
                            row.token,
                            row.subtokens
                                .iter()
                                .filter(|s| !row.deprecated_subtokens.contains(s))
                                .copied()
                                .collect::<Vec<_>>()
                                .join(", ")
                        )),
                    }
                } else {
                    Diagnostic::error(
                        codes::UNKNOWN_SUBTOKEN,
                        sub_span,
                        format!("`{full}` is not valid on {kind} lines"),
                    )
                    .with_label(format!("PCGen does not read `{full}` here"))
                    .with_help(format!("`{full}` is valid on {}", kinds_list(&elsewhere)))
                };
                self.out.push(diag);
                true
            }
        }
    }

    /// PREs nested in a value (`…|PREVARGT:1,x`, `[PREALIGN:LG]`), looked up case-insensitively.
    fn nested_pres(&mut self, value: &str, span: Span) {
        // One pass over the bytes: a PRE may start the value, follow a `|`, or follow a `[`;
        // it ends at the next `|` (the piece it is in).
        let bytes = value.as_bytes();
        let mut piece_end = byte_at(value, b'|').unwrap_or(value.len());
        let piece = |from: usize, to: usize| value.get(from..to).unwrap_or("");
        self.nested_pre(piece(0, piece_end), 0, span);
        for (i, b) in bytes.iter().enumerate() {
            match *b {
                b'|' => {
                    let piece_start = i + 1;
                    piece_end = byte_at(piece(piece_start, value.len()), b'|')
                        .map_or(value.len(), |e| piece_start + e);
                    self.nested_pre(piece(piece_start, piece_end), piece_start, span);
                }
                b'[' => {
                    self.nested_pre(piece(i + 1, piece_end), i + 1, span);
                }
                _ => {}
            }
        }
    }

    /// `text` (at byte `at` of the value) if it starts with a PRE token.
    fn nested_pre(&mut self, text: &str, at: usize, span: Span) {
        // `PRE` itself is written in capitals; the rest is matched ignoring case.
        if !text.strip_prefix('!').unwrap_or(text).starts_with("PRE") {
            return;
        }
        let Some(name) = byte_at(text, b':').and_then(|i| text.get(..i)) else {
            return;
        };
        let piece_at = at;
        if self.pre.and_then(|t| self.vocab.find_in(t, name)).is_some() {
            return;
        }
        {
            let upper = name.to_ascii_uppercase();
            let bare = upper.strip_prefix('!').unwrap_or(&upper);
            if bare.len() < 4 || !name.bytes().all(|c| c.is_ascii_alphabetic() || c == b'!') {
                return;
            }
            let vocab = Vocabulary::get();
            if vocab.find("PRE", &upper).is_some() {
                return;
            }
            let candidates = vocab.tokens_for("PRE");
            let d = Diagnostic::error(
                codes::UNKNOWN_TOKEN,
                sub_span(span, piece_at, name.len()),
                format!("unknown prerequisite `{name}`"),
            )
            .with_label(format!("PCGen has no `{name}` prerequisite"));
            // The name after a negating `!`, which the fix keeps.
            let negated = usize::from(name.starts_with('!'));
            let written = sub_span(span, piece_at + negated, name.len() - negated);
            self.out.push(d.with_did_you_mean_or(
                written,
                suggest(bare, candidates.iter().map(|r| r.token)),
                "see the PRE tokens in docs/loading.md",
            ));
        }
    }
}

/// The sub-token of a value and its byte offset in the value, for the tokens that have one.
fn subtoken_of<'v>(token: &str, value: &'v str) -> Option<(&'v str, usize)> {
    subtoken_in(sub_form(token), value)
}

/// [`subtoken_of`] for a token whose sub-token sits where `form` says.
fn subtoken_in<'v>(form: SubForm, value: &'v str) -> Option<(&'v str, usize)> {
    let first_piece = |from: usize| -> (&'v str, usize) {
        let rest = value.get(from..).unwrap_or("");
        let end = byte_at(rest, b'|').unwrap_or(rest.len());
        (rest.get(..end).unwrap_or(""), from)
    };
    match form {
        SubForm::Bonus => {
            let (p, at) = first_piece(0);
            if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) {
                let (q, at) = first_piece(p.len() + 1);
                return Some((q, at));
            }
            Some((p, at))
        }
        SubForm::Choose => {
            let (p, at) = first_piece(0);
            // Compared in place: no upper-cased copy of the value.
            if p.get(..11)
                .is_some_and(|h| h.eq_ignore_ascii_case("NUMCHOICES="))
            {
                return Some(first_piece(p.len() + 1));
            }
            Some((p, at))
        }
        SubForm::Add => {
            if value.starts_with(".CLEAR") {
                return None;
            }
            let (p, at) = first_piece(0);
            let end = p.find('(').unwrap_or(p.len());
            Some((p.get(..end).unwrap_or(p), at))
        }
        SubForm::Qualify => {
            let (p, at) = first_piece(0);
            let end = p.find('=').unwrap_or(p.len());
            Some((p.get(..end).unwrap_or(p), at))
        }
        SubForm::First | SubForm::TempBonus => Some(first_piece(0)),
        SubForm::None => None,
    }
}

fn kinds_list(kinds: &[&str]) -> String {
    let shown: Vec<&str> = kinds.iter().take(KINDS_SHOWN).copied().collect();
    let more = kinds.len().saturating_sub(KINDS_SHOWN);
    let mut s = shown.join(", ");
    if more > 0 {
        s.push_str(&format!(" and {more} more"));
    }
    format!("{s} lines")
}

/// What to write instead of a deprecated token.
pub fn replacement(row: &TokenRow, kind: &str) -> String {
    let fact = |n: &str| format!("write `FACT:{n}|…` (a FACTDEF of the game mode)");
    match row.token {
        "FEAT" if kind.starts_with("KIT") => "write `ABILITY:CATEGORY=FEAT|…`".to_owned(),
        "FEAT" if kind == "PCC" => "list the file with `ABILITY:`".to_owned(),
        "FEAT" => "write `ABILITY:FEAT|AUTOMATIC|…`".to_owned(),
        "VFEAT" => "write `ABILITY:FEAT|VIRTUAL|…`".to_owned(),
        "PREFEAT" | "!PREFEAT" => "write `PREABILITY:n,CATEGORY=FEAT,…`".to_owned(),
        "MODIFYFEATCHOICE" => "remove it: PCGen 6 has no replacement".to_owned(),
        "ABB" => fact("Abb"),
        "APPLIEDNAME" => fact("AppliedName"),
        "APPEARANCE" => fact("Appearance"),
        "CLASSTYPE" => fact("ClassType"),
        "RACE" => "write `FACTSET:Race|…`".to_owned(),
        "PANTHEON" => "write `FACTSET:Pantheon|…`".to_owned(),
        "RATEOFFIRE" => fact("RateOfFire"),
        "SPELLTYPE" => fact("SpellType"),
        "SYMBOL" => fact("Symbol"),
        "TITLE" => fact("Title"),
        "WORSHIPPERS" => fact("Worshippers"),
        t if row.kind == "CLASSLEVEL" => format!("move `{t}:` to the CLASS line"),
        t => format!("see PCGen's documentation for what replaces `{t}`"),
    }
}

/// What to write instead of a deprecated sub-token.
pub fn sub_replacement(token: &str, sub: &str, kind: &str) -> String {
    match (token, sub) {
        ("CHOOSE", "NUMBER") => "write `TEMPVALUE:…`".to_owned(),
        ("CHOOSE", "FEAT") => "write `CHOOSE:ABILITY|FEAT|…`".to_owned(),
        ("CHOOSE", "FEATSELECTION") => "write `CHOOSE:ABILITYSELECTION|FEAT|…`".to_owned(),
        ("CHOOSE", "LANGAUTO") => "write `CHOOSE:LANG|…`".to_owned(),
        ("ADD", "FEAT") => "write `ADD:ABILITY|FEAT|NORMAL|…`".to_owned(),
        ("ADD", "VFEAT") => "write `ADD:ABILITY|FEAT|VIRTUAL|…`".to_owned(),
        ("AUTO", "FEAT") => "write `ABILITY:FEAT|AUTOMATIC|…`".to_owned(),
        ("REMOVE", "FEAT") => {
            "remove it: REMOVE is deprecated and PCGen 6 has no direct replacement".to_owned()
        }
        _ => format!("`{token}:{sub}` is deprecated on {kind} lines"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;

    /// (code, column, help) of every diagnostic for `text` as a `kind` file.
    fn run(kind: FileKind, text: &str) -> Vec<(&'static str, usize, String)> {
        let mut out = Vec::new();
        check_lines(
            kind,
            text,
            &lines(FileId(0), text, LineMode::Object),
            &mut out,
        );
        out.iter()
            .map(|d| {
                let col = text
                    .get(..d.span.start as usize)
                    .map_or(0, |t| t.rfind('\n').map_or(t.len(), |n| t.len() - n - 1))
                    + 1;
                (d.code.id, col, d.help.clone().unwrap_or_default())
            })
            .collect()
    }

    fn codes(kind: FileKind, text: &str) -> Vec<&'static str> {
        run(kind, text).into_iter().map(|d| d.0).collect()
    }

    #[test]
    fn class_tokens_on_level_lines_only_on_level_one() {
        let text = "CLASS:Wizard\tHD:4\n1\tPROHIBITSPELL:SCHOOL=Evocation\n2\tPROHIBITSPELL:SCHOOL=Evocation\n";
        assert_eq!(codes(FileKind::Class, text), vec!["T0113", "T0111"]);
        assert_eq!(
            codes(FileKind::Class, "CLASS:Wizard\nWizard\tHD:4\n"),
            vec!["T0115"]
        );
        assert!(
            codes(
                FileKind::Class,
                "CLASS:Wizard\n3:REPEATLEVEL:4\tBONUS:STAT|INT|1\n"
            )
            .is_empty()
        );
    }

    #[test]
    fn a_did_you_mean_replaces_only_the_misspelt_name_in_its_token() {
        // (line, what the fix replaces, what it writes, the help)
        let cases = [
            (
                "A\tVISIBEL:YES\n",
                "VISIBEL",
                "VISIBLE",
                "did you mean `VISIBLE`?",
            ),
            (
                "A\tvisible:YES\n",
                "visible",
                "VISIBLE",
                "did you mean `VISIBLE`? token names are case-sensitive",
            ),
            (
                "A\tBONUS:COMBT|AC|1\n",
                "COMBT",
                "COMBAT",
                "did you mean `BONUS:COMBAT`?",
            ),
            (
                "A\tBONUS:WEAPONPRF=Club|DAMAGE|1\n",
                "WEAPONPRF",
                "WEAPONPROF",
                "did you mean `BONUS:WEAPONPROF`?",
            ),
            (
                "A\tQUALIFY:ability=FEAT|Dodge\n",
                "ability",
                "ABILITY",
                "did you mean `QUALIFY:ABILITY`? this name is case-sensitive",
            ),
            (
                "A\tBONUS:VAR|x|1|!PREVRAGT:x,1\n",
                "PREVRAGT",
                "PREVARGT",
                "did you mean `PREVARGT`?",
            ),
        ];
        for (text, replaced, written, help) in cases {
            let mut out = Vec::new();
            let lines = lines(FileId(0), text, LineMode::Object);
            check_lines(FileKind::Feat, text, &lines, &mut out);
            let d = out.first().unwrap_or_else(|| panic!("{text}: no finding"));
            let edit = d.edit(text).unwrap_or_else(|| panic!("{text}: no fix"));
            assert_eq!(
                (&text[edit.range], edit.text.as_str(), d.help.as_deref()),
                (replaced, written, Some(help)),
                "{text}"
            );
        }
    }

    #[test]
    fn subtokens_by_kind_and_form() {
        // CHOOSE forms other than NUMBER only on some kinds: the help names them.
        let d = run(FileKind::Spell, "Fireball\tCHOOSE:SKILL|ALL\n");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].0, "T0112");
        assert!(d[0].2.contains("ABILITY"), "{}", d[0].2);
        // An old leading level before the BONUS type; NAME= types; .CLEAR forms.
        assert!(
            codes(
                FileKind::Feat,
                "A\tBONUS:1|COMBAT|BAB|1\tBONUS:WEAPONPROF=Club|DAMAGE|1\tADD:.CLEAR\n"
            )
            .is_empty()
        );
        assert!(codes(FileKind::Feat, "A\tCHOOSE:NUMCHOICES=2|skill|ALL\n").is_empty());
        // QUALIFY class names are exact-case.
        assert_eq!(
            codes(FileKind::Feat, "A\tQUALIFY:ability=FEAT|Dodge\n"),
            vec!["T0112"]
        );
        assert_eq!(
            codes(FileKind::Feat, "A\tCHOOSE:FEAT=Dodge|x\n"),
            vec!["T0112"]
        );
    }

    #[test]
    fn fields_pcgen_drops_after_a_bonus_value() {
        let d = run(
            FileKind::Feat,
            "A\tBONUS:SKILL|Appraise|Diplomacy|1|TYPE=Trait\tTEMPBONUS:PC|COMBAT|AC|2|TYPE:Dodge\n",
        );
        let found: Vec<(&str, usize, &str)> =
            d.iter().map(|(c, col, h)| (*c, *col, h.as_str())).collect();
        assert_eq!(
            found,
            [
                (
                    "T0118",
                    34,
                    "remove the field, or make it part of the bonus: targets are one field separated by `,`, and the value is the third field"
                ),
                ("T0118", 72, "write `TYPE=Dodge`"),
            ]
        );
        // Prerequisites, types, an old level and empty fields are read (or lose nothing).
        assert!(
            codes(
                FileKind::Feat,
                "A\tBONUS:2|COMBAT|AC|1||PREVARGT:x,1|type=Dodge\n"
            )
            .is_empty()
        );
        // A repeated `BONUS:ABILITYPOOL|` is the unknown category's error, not this one.
        assert!(
            codes(
                FileKind::Feat,
                "A\tBONUS:ABILITYPOOL|BONUS:ABILITYPOOL|Feats|1\n"
            )
            .is_empty()
        );
        let d = run(FileKind::Feat, "A\tBONUS:VAR|BONUS:VAR|X|1\n");
        assert_eq!(d.len(), 1);
        assert!(d[0].2.contains("twice"), "{d:?}");
    }

    #[test]
    fn nested_pres_and_kit_lines() {
        let d = run(FileKind::Feat, "A\tBONUS:COMBAT|BAB|1|PREVARGTQE:1,x\n");
        assert_eq!(d.len(), 1);
        assert_eq!((d[0].0, d[0].1), ("T0110", 22));
        assert!(d[0].2.contains("PREVARGTEQ"));
        assert!(codes(FileKind::Feat, "A\tDESC:Prerequisites: none|PREvarGT:1,x\n").is_empty());
        let kit = "STARTPACK:Kit\tVISIBLE:YES\nGEAR:Rope\tQTY:1\tOPTION:1\nGAER:Rope\n";
        assert_eq!(codes(FileKind::Kit, kit), vec!["T0115"]);
        assert_eq!(codes(FileKind::Kit, "GEAR:Rope\tKEY:x\n"), vec!["T0111"]);
    }

    #[test]
    fn source_and_mod_lines() {
        assert!(
            codes(
                FileKind::Race,
                "SOURCELONG:Book\tSOURCESHORT:B\nElf.MOD\tMOVE:Walk,30\n"
            )
            .is_empty()
        );
        assert_eq!(
            codes(FileKind::Race, "SOURCELONG:Book\tSTARTFEATS:1\n"),
            vec!["T0111"]
        );
        assert_eq!(codes(FileKind::Race, "Elf\tFEAT:Dodge\n"), vec!["T0113"]);
    }

    #[test]
    fn choose_number_is_active_on_equipment_modifiers_only() {
        // EQUIPMOD has its own NUMBER sub-token (equipmentmodifier/choose/NumberToken): the
        // CDOMObject-wide deprecated CHOOSE:NUMBER is never reached there.
        assert!(
            codes(
                FileKind::EquipMod,
                "Plus\tCHOOSE:NUMBER|MIN=1|MAX=5|TITLE=x\n"
            )
            .is_empty()
        );
        assert_eq!(
            codes(FileKind::Feat, "A\tCHOOSE:NUMBER|MIN=1|MAX=5|TITLE=x\n"),
            vec!["T0113"]
        );
    }

    /// Every diagnostic of `text` as a `kind` file, with or without the quiet path.
    fn all(kind: FileKind, text: &str, quick: bool) -> Vec<String> {
        let mut out = Vec::new();
        let lines = lines(FileId(0), text, LineMode::Object);
        let mut c = Checker::new(text, &mut out);
        c.quick = quick;
        for line in &lines {
            c.line(kind, line);
        }
        out.iter()
            .map(|d| {
                format!(
                    "{} {:?} {} {:?}",
                    d.code.id,
                    d.span.range(),
                    d.message,
                    d.help
                )
            })
            .collect()
    }

    /// Token columns built from the table's names, sub-tokens and nested PREs, with typos
    /// and case changes: what the quiet path has to tell apart.
    fn column() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let names = prop::sample::select(vec![
            "KEY",
            "TYPE",
            "BONUS",
            "bonus",
            "CHOOSE",
            "ADD",
            "AUTO",
            "QUALIFY",
            "REMOVE",
            "TEMPBONUS",
            "ABILITY",
            "DESC",
            "FEAT",
            "VFEAT",
            "PREVARGT",
            "!PREFEAT",
            "PRECLASS",
            "SPELLS",
            "SAB",
            "DR",
            "MOVE",
            "VISION",
            "KIT",
            "HD",
            "FACE",
            "MODIFY",
            "KYE",
            "SOURCEPAGE",
            "PROHIBITSPELL",
            "CSKILL",
            "NATURALATTACKS",
            "TEMPLATE",
            "",
        ]);
        let pieces = prop::sample::select(vec![
            "COMBAT",
            "combat",
            "Combt",
            "WEAPONPROF=Club",
            "weaponprof=x",
            "WEAPONPROF",
            "SKILL",
            "skill",
            "SKIL",
            "FEAT",
            "FEAT=Dodge",
            "ABILITY",
            "ability",
            "NUMCHOICES=2",
            "numchoices=1",
            "SCHOOLS",
            "LANGAUTO",
            "NUMBER",
            "1",
            "BAB",
            "ALL",
            ".CLEAR",
            "PREVARGT:1,x",
            "PREVARGTQE:1,x",
            "prevargt:1,x",
            "!PREFEAT:1,Dodge",
            "[PREALIGN:LG]",
            "x[PREFOO:1]",
            "PREPARED",
            "!!PREFEAT:1",
            "PRE",
            "!PRE:",
            "CLASS=Wizard",
            "class",
            "Dodge(x)",
            "",
            "SPELLCASTER.Arcane",
        ]);
        (names, prop::collection::vec(pieces, 0..5), prop::bool::ANY).prop_map(
            |(name, pieces, colon)| {
                let value = pieces.join("|");
                if colon {
                    format!("{name}:{value}")
                } else {
                    format!("{name}{value}")
                }
            },
        )
    }

    proptest::proptest! {
        #[test]
        fn the_quiet_path_changes_no_diagnostic(
            cols in proptest::collection::vec(column(), 1..6),
            kind in proptest::sample::select(vec![
                FileKind::Feat, FileKind::Ability, FileKind::Race, FileKind::Class,
                FileKind::Spell, FileKind::Equipment, FileKind::Kit, FileKind::Template,
                FileKind::Bioset, FileKind::Skill,
            ]),
            first in proptest::sample::select(vec![
                "Name", "CLASS:Wizard", "1", "2", "GEAR:Rope", "STARTPACK:Kit",
                "RACENAME:Elf", "AGESET:0|Adult", "SOURCELONG:Book", "Elf.MOD",
            ]),
        ) {
            let text = format!("{first}\t{}\n", cols.join("\t"));
            proptest::prop_assert_eq!(all(kind, &text, true), all(kind, &text, false), "{}", text);
        }

        #[test]
        fn any_text_is_checked_without_panicking(text in "[A-Za-z!.:|=\\[\\]\\t\\n 0-9]{0,80}") {
            for kind in FileKind::LOAD_ORDER {
                let mut out = Vec::new();
                check_lines(kind, &text, &lines(FileId(0), &text, LineMode::Object), &mut out);
            }
            let mut out = Vec::new();
            check_pcc(FileId(0), &text, &mut out);
        }
    }
}
