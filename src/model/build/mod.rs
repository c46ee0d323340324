//! Building the [`Dataset`] from a load set, file kind by file kind in load order, with every
//! load-time rule as a diagnostic.

use super::codes;
use super::literal;
use super::scope::{ScopeId, ScopeSpelling};
use super::*;
use crate::diagnostic::{Diagnostic, MissingKind};
use crate::formula::Value;
use crate::load::codes as lcodes;
use crate::load::syntax::{self, At, ModifyItem, Slice};
use crate::load::{KeyFilter, LoadSet, LoadedFile};
use crate::name::closest;
use crate::source::Span;

mod copy;
mod datacontrol;
mod fact_index;
mod key_ids;
mod modifiers;
pub(in crate::model) mod object_lines;
pub(super) use object_lines::ObjectLines;
mod objects;
mod suggest;
mod variables;
mod wanted_keys;

/// Object formats PCGen registers besides the built-in value formats (and DYNAMICSCOPEs).
/// The deepest `ARRAY[…]`/`OPTIONAL[…]` nesting of a format name that is parsed. Format names
/// are data and their parsing, checking and dropping recurse once per level.
const MAX_FORMAT_NESTING: usize = 16;

/// [`Format::from_name`], except that names nested deeper than [`MAX_FORMAT_NESTING`] are
/// not formats (the caller reports them as unknown).
pub(super) fn format_from_name(text: &str) -> Option<Format> {
    if text.matches('[').count() > MAX_FORMAT_NESTING {
        return None;
    }
    Format::from_name(text)
}

/// PCGen object kinds that are both object formats and FACTDEF locations.
const OBJECT_KINDS: &[&str] = &[
    "ALIGNMENT",
    "CHECK",
    "DEITY",
    "DOMAIN",
    "CLASS",
    "LANGUAGE",
    "RACE",
    "SPELL",
    "SKILL",
    "STAT",
    "SIZEADJUSTMENT",
    "TEMPLATE",
    "WEAPONPROF",
    "ARMORPROF",
    "SHIELDPROF",
    "CLASSSPELLLIST",
    "CLASSSKILLLIST",
    "DOMAINSPELLLIST",
    "WIELDCATEGORY",
];

/// Object formats beyond [`OBJECT_KINDS`].
const OTHER_OBJECT_FORMATS: &[&str] = &["HANDED"];

/// FACTDEF locations beyond `GLOBAL` and [`OBJECT_KINDS`].
const OTHER_FACT_LOCATIONS: &[&str] = &["COMPANIONMOD", "EQUIPMENT", "EQMOD", "KIT", "ABILITY"];

/// Names of the object formats PCGen defines.
fn object_formats() -> impl Iterator<Item = &'static str> {
    OBJECT_KINDS.iter().chain(OTHER_OBJECT_FORMATS).copied()
}

/// FACTDEF locations PCGen accepts.
pub(super) fn fact_locations() -> impl Iterator<Item = &'static str> {
    std::iter::once("GLOBAL").chain(OBJECT_KINDS.iter().chain(OTHER_FACT_LOCATIONS).copied())
}

/// Functions of PCGen's plugins that are neither formula built-ins nor the model's host
/// functions: a FUNCTION of one of these names would shadow them too.
const PLUGIN_FUNCTIONS: &[&str] = &["getOther", "group", "key", "listAll"];

/// True for a function built into the formula language ([`crate::formula::function::builtin_names`]),
/// one the model provides ([`super::HostFn`]) or one of PCGen's plugins: names a FUNCTION
/// cannot take.
pub(crate) fn is_builtin_function(name: &str) -> bool {
    crate::formula::function::is_builtin(name)
        || super::HostFn::named(name).is_some()
        || PLUGIN_FUNCTIONS
            .iter()
            .any(|p| p.eq_ignore_ascii_case(name))
}

/// The FACTDEF location objects of a file kind use.
fn fact_location(kind: FileKind) -> Option<&'static str> {
    Some(match kind {
        FileKind::Ability | FileKind::Feat => "ABILITY",
        FileKind::Race => "RACE",
        FileKind::Template => "TEMPLATE",
        FileKind::Deity => "DEITY",
        FileKind::Class => "CLASS",
        FileKind::Equipment => "EQUIPMENT",
        FileKind::EquipMod => "EQMOD",
        FileKind::Spell => "SPELL",
        FileKind::Save => "CHECK",
        FileKind::Domain => "DOMAIN",
        FileKind::Skill => "SKILL",
        FileKind::Stat => "STAT",
        FileKind::Size => "SIZEADJUSTMENT",
        FileKind::Language => "LANGUAGE",
        FileKind::Alignment => "ALIGNMENT",
        FileKind::WeaponProf => "WEAPONPROF",
        FileKind::ArmorProf => "ARMORPROF",
        FileKind::ShieldProf => "SHIELDPROF",
        FileKind::CompanionMod => "COMPANIONMOD",
        FileKind::Kit => "KIT",
        _ => return None,
    })
}

/// The scope an object file's tokens are read in.
fn file_scope(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Stat => "PC.STAT",
        FileKind::Save => "PC.SAVE",
        FileKind::Skill => "PC.SKILL",
        FileKind::Size => "PC.SIZE",
        FileKind::Equipment => "PC.EQUIPMENT",
        FileKind::EquipMod => "PC.EQUIPMENT.PART",
        _ => "PC",
    }
}

/// A formula waiting to be checked once every definition is known.
#[derive(Clone, Debug)]
#[allow(dead_code)] // read by the formula checker once the formula core lands
pub(crate) struct PendingFormula {
    pub(crate) modifier: Option<ModId>,
    pub(crate) scope: ScopeId,
    pub(crate) format: Format,
    pub(crate) text: String,
    pub(crate) span: Span,
}

/// A reference to an object checked after all objects are loaded.
struct PendingRef {
    scope: ScopeId,
    key: Name,
    span: Span,
    what: &'static str,
}

/// What the first token of an object line says it does.
#[derive(Debug)]
pub(in crate::model) enum LineForm {
    Base(String),
    Copy(String, String),
    Mod(String),
    Forget(String),
}

/// The facts of one FACTDEF location to suggest from, and the "did you mean" given so far
/// for each unknown fact name as written.
type UnknownFacts = (
    suggest::Candidates,
    crate::model::fxhash::FxHashMap<String, Option<String>>,
);

pub(crate) struct Builder<'a> {
    pub(crate) load: &'a LoadSet,
    pub(crate) ds: Dataset,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) formulas: Vec<PendingFormula>,
    pub(crate) used: Vec<bool>,
    refs: Vec<PendingRef>,
    /// (FACTSET?, location, name) → index of its first definition in `ds.fact_defs`.
    fact_index: fact_index::FactIndex,
    /// Every variable by name and channel-ness, whatever its scope (for the overlap rule).
    names: crate::model::fxhash::FxHashMap<(Name, bool), Vec<VarId>>,
    /// Every FACT/FACTSET token an object wrote (valid or not), for `REQUIRED:YES`.
    facts_written: crate::model::fxhash::FxHashSet<(ObjectId, bool, Name)>,
    /// Objects that exist only because a `.MOD` line named them.
    made_by_mod: crate::model::fxhash::FxHashSet<ObjectId>,
    /// (FACTSET?, location, name) of each `REQUIRED:YES` FACTDEF: only the facts these name
    /// are kept in [`Builder::facts_written`], the only ones its check asks about.
    facts_required: Vec<(bool, Name, Name)>,
    /// By (FACTSET?, location): the facts defined there, to suggest from, and the help of
    /// each "no FACTDEF" error given so far by the fact name as written (the same unknown
    /// fact is usually written on many objects).
    unknown_facts: crate::model::fxhash::FxHashMap<(bool, &'static str), UnknownFacts>,
    /// Each "no FACTDEF" error so far by (file, FACTSET?, location, fact name as written):
    /// its index in [`Builder::diags`] and the uses it stands for. One missing FACTDEF is
    /// one mistake: a file writing the fact on a hundred objects gets one error saying how
    /// many more uses it has, as an unknown reference does.
    unknown_fact_errors: crate::model::fxhash::FxHashMap<
        (crate::source::FileId, bool, &'static str, Name),
        (usize, usize),
    >,
    /// The FACTDEF location of the facts read last and its [`crate::model::key_hash`]
    /// (the facts of one file kind are read together).
    fact_location: (&'static str, u64),
    /// The global `Face` variable and the number of variables when it was looked up.
    face_variable: Option<(usize, Option<VarId>)>,
    /// The objects that `.COPY=`, `.MOD`, `.FORGET` and `GRANT:` can look up: every object
    /// with a key of its own, and each object made from a cached line whose key was in
    /// [`Builder::wanted`] (see [`crate::model::object_index`]).
    index: crate::model::object_index::ObjectIndex,
    /// The keys the deferred lines of the object kind being built look up.
    wanted: wanted_keys::WantedKeys,
    /// What the load set's `.COPY=` lines have copied so far.
    copies: copy::CopyBudget,
}

/// Builds the dataset of a load set; returns it with the model's diagnostics (the load set's
/// own diagnostics are not repeated).
pub fn build(load: &LoadSet) -> (Dataset, Vec<Diagnostic>) {
    let mut b = Builder {
        load,
        ds: Dataset {
            controls: load
                .game_mode
                .as_ref()
                .map(|g| g.controls.clone())
                .unwrap_or_default(),
            ..Dataset::default()
        },
        diags: Vec::new(),
        formulas: Vec::new(),
        used: Vec::new(),
        refs: Vec::new(),
        fact_index: fact_index::FactIndex::default(),
        names: crate::model::fxhash::FxHashMap::default(),
        facts_written: crate::model::fxhash::FxHashSet::default(),
        made_by_mod: crate::model::fxhash::FxHashSet::default(),
        facts_required: Vec::new(),
        unknown_facts: crate::model::fxhash::FxHashMap::default(),
        unknown_fact_errors: crate::model::fxhash::FxHashMap::default(),
        fact_location: ("", key_hash("")),
        face_variable: None,
        index: Default::default(),
        wanted: Default::default(),
        copies: Default::default(),
    };
    // Nearly every line of an object file is an object: sized once, the object table is
    // not grown a dozen times per load set.
    let lines: usize = load.files.iter().map(|f| f.lines.len()).sum();
    b.ds.objects.reserve(lines);
    b.ds.reserve_object_lines(load.files.len());
    b.run();
    b.count_unknown_fact_uses();
    (b.ds, b.diags)
}

fn token_parts(text: &str, span: Span) -> Option<(Slice<'_>, Slice<'_>)> {
    split_at_byte(Slice::new(text, span), b':')
}

/// [`Slice::split_once`] for an ASCII separator, by a plain byte loop: token names and fact
/// names before the separator are short, shorter than what `str::find`'s `memchr` set-up
/// pays off for, and every token of every load set goes through here.
fn split_at_byte(s: Slice<'_>, sep: u8) -> Option<(Slice<'_>, Slice<'_>)> {
    debug_assert!(sep.is_ascii());
    let at = s.text.bytes().position(|b| b == sep)?;
    Some((s.sub(0..at), s.sub(at + 1..s.text.len())))
}

impl<'a> Builder<'a> {
    pub(super) fn text(&self, span: Span) -> &'a str {
        let load: &'a LoadSet = self.load;
        load.sources.get(span.file).map_or("", |f| f.slice(span))
    }

    pub(super) fn files(&self, kind: FileKind) -> impl Iterator<Item = &'a LoadedFile> + use<'a> {
        let load: &'a LoadSet = self.load;
        load.files.iter().filter(move |f| f.kind == kind)
    }

    pub(super) fn run(&mut self) {
        for f in self.files(FileKind::DataControl) {
            // The shared split, each first token placed in the load set's file: placing
            // every line would copy all their tokens per load set.
            for line in f.lines.shared() {
                if let Some(t) = line.tokens.first().map(|t| f.lines.place(*t)) {
                    let text = self.text(t);
                    if let Some(v) = text.strip_prefix("DYNAMICSCOPE:") {
                        let start = t.start as usize + "DYNAMICSCOPE:".len();
                        let s = Slice::new(v, Span::new(t.file, start..start + v.len()));
                        match syntax::legal_name(s.trim(), "DYNAMICSCOPE") {
                            Ok(n) => {
                                self.ds.scopes.add_dynamic(&n.value);
                            }
                            Err(d) => self.diags.push(d),
                        }
                    }
                }
            }
        }
        for f in self.files(FileKind::DataControl) {
            self.data_control_file(f);
        }
        for f in self.files(FileKind::DataTable) {
            self.table_file(f);
        }
        for f in self.files(FileKind::Variable) {
            for line in &f.lines {
                self.variable_line(line);
            }
        }
        self.builtins();
        for f in self.files(FileKind::Dynamic) {
            for line in &f.lines {
                self.dynamic_line(line);
            }
        }
        for f in self.files(FileKind::GlobalModifier) {
            for line in &f.lines {
                self.global_modifier_line(line);
            }
        }
        let object_kinds: Vec<FileKind> = FileKind::LOAD_ORDER
            .into_iter()
            .filter(|k| *k >= FileKind::AbilityCategory)
            .collect();
        self.facts_required = self
            .ds
            .fact_defs
            .iter()
            .filter(|d| d.required)
            .map(|d| (d.set, d.location.clone(), d.name.clone()))
            .collect();
        for kind in object_kinds {
            self.object_kind(kind);
        }
        self.check_refs();
        self.required_facts();
        self.required_defaults();
        self.check_formulas();
        self.unused_variables();
    }

    // ----- shared helpers -------------------------------------------------------------

    pub(super) fn scope(&mut self, at: &At<String>) -> Option<ScopeId> {
        self.scope_or_guess(at).ok()
    }

    /// [`Builder::scope`], except that an unknown scope (reported) gives the scope its
    /// "did you mean" names, if any, as `Err(Some(guess))`.
    pub(super) fn scope_or_guess(&mut self, at: &At<String>) -> Result<ScopeId, Option<ScopeId>> {
        let found = self.scope_found(at);
        found.ok_or_else(|| {
            let names: Vec<String> = self.ds.scopes.names().map(str::to_owned).collect();
            let exact = self.ds.scopes.resolve(&at.value).map(|(id, _)| id);
            exact.or_else(|| {
                closest(&at.value, names.iter().map(String::as_str))
                    .and_then(|s| self.ds.scopes.resolve(s))
                    .map(|(id, _)| id)
            })
        })
    }

    fn scope_found(&mut self, at: &At<String>) -> Option<ScopeId> {
        match self.ds.scopes.resolve(&at.value) {
            Some((id, ScopeSpelling::Exact)) => Some(id),
            Some((id, ScopeSpelling::SpecAlias)) => {
                let full = self.ds.scopes.name(id).to_owned();
                self.diags.push(
                    Diagnostic::note(
                        codes::SCOPE_ALIAS,
                        at.span,
                        format!("scope `{}` is the spec's name for `{full}`", at.value),
                    )
                    .with_label(format!("read as `{full}`"))
                    .with_help(format!("write `{full}`; PCGen requires the `PC.` form"))
                    .with_note("PCGen reports \"Could not find scope\" for this name"),
                );
                Some(id)
            }
            Some((id, ScopeSpelling::WrongCase)) => {
                let full = self.ds.scopes.name(id).to_owned();
                self.diags.push(
                    Diagnostic::error(
                        codes::UNKNOWN_SCOPE,
                        at.span,
                        format!("unknown scope `{}`", at.value),
                    )
                    .with_label("scope names are case-sensitive")
                    .with_did_you_mean(at.span, full),
                );
                None
            }
            None => {
                let names: Vec<String> = self.ds.scopes.names().map(str::to_owned).collect();
                self.diags.push(
                    Diagnostic::error(
                        codes::UNKNOWN_SCOPE,
                        at.span,
                        format!("unknown scope `{}`", at.value),
                    )
                    .with_label("no such scope")
                    .with_did_you_mean_or(
                        at.span,
                        closest(&at.value, names.iter().map(String::as_str)),
                        format!("known scopes: {}", names.join(", ")),
                    ),
                );
                None
            }
        }
    }

    /// Whether every object format inside `f` is known. Recursive over `ARRAY[…]`, whose
    /// nesting [`format_from_name`] bounds.
    pub(super) fn known_format(&self, f: &Format) -> bool {
        match f {
            Format::Array(x) | Format::Optional(x) => self.known_format(x),
            Format::Object(n) => {
                object_formats().any(|o| n.is(o))
                    || self
                        .ds
                        .scopes
                        .iter()
                        .any(|(_, s)| s.dynamic.as_ref().is_some_and(|d| d == n))
            }
            _ => true,
        }
    }

    pub(super) fn format(&mut self, at: &At<String>) -> Option<Format> {
        self.format_or_guess(at).ok()
    }

    /// [`Builder::format`], except that an unknown format (reported) gives the format its
    /// "did you mean" names, if any, as `Err(Some(guess))`.
    pub(super) fn format_or_guess(&mut self, at: &At<String>) -> Result<Format, Option<Format>> {
        let f = format_from_name(&at.value).filter(|f| self.known_format(f));
        let mut guessed = None;
        if f.is_none() {
            let mut names: Vec<String> = ["NUMBER", "BOOLEAN", "STRING", "ORDEREDPAIR", "DICE"]
                .into_iter()
                .chain(object_formats())
                .map(str::to_owned)
                .collect();
            names.extend(
                self.ds
                    .scopes
                    .iter()
                    .filter_map(|(_, s)| s.dynamic.as_ref().map(|d| d.to_string())),
            );
            let guess = closest(&at.value, names.iter().map(String::as_str));
            guessed = guess.and_then(format_from_name);
            self.diags.push(
                Diagnostic::error(
                    codes::UNKNOWN_FORMAT,
                    at.span,
                    format!("unknown format `{}`", at.value),
                )
                .with_label("no such format")
                .with_did_you_mean_or(
                    at.span,
                    guess,
                    "use NUMBER, BOOLEAN, STRING, ORDEREDPAIR, DICE, ARRAY[…] or an object format",
                ),
            );
        }
        f.ok_or(guessed)
    }

    pub(super) fn malformed(&mut self, span: Span, message: impl Into<String>, help: &str) {
        self.diags
            .push(Diagnostic::error(lcodes::MALFORMED, span, message).with_help(help.to_owned()));
    }

    pub(super) fn check_formulas(&mut self) {
        super::formulas::check_all(self);
    }

    pub(super) fn unused_variables(&mut self) {
        super::formulas::unused_variables(self);
    }
}

trait SecondaryOpt {
    fn with_secondary_opt(self, span: Option<Span>, text: String) -> Self;
}

impl SecondaryOpt for Diagnostic {
    fn with_secondary_opt(self, span: Option<Span>, text: String) -> Self {
        match span {
            Some(s) => self.with_secondary(s, text),
            None => self,
        }
    }
}

fn passes_filter(filter: &Option<KeyFilter>, key: &str) -> bool {
    match filter {
        None => true,
        Some(KeyFilter::Include(keys)) => keys.iter().any(|k| k.eq_ignore_ascii_case(key)),
        Some(KeyFilter::Exclude(keys)) => !keys.iter().any(|k| k.eq_ignore_ascii_case(key)),
    }
}

#[cfg(test)]
mod split_tests {
    use super::*;

    #[test]
    fn splitting_at_a_byte_is_splitting_at_the_char() {
        for text in ["KEY:a:b", "no separator", ":x", "x:", "é:ü|z", ""] {
            let span = Span::new(crate::source::FileId(2), 5..5 + text.len());
            for (sep, c) in [(b':', ':'), (b'|', '|')] {
                let by_byte = split_at_byte(Slice::new(text, span), sep);
                let by_char = Slice::new(text, span).split_once(c);
                type Part<'t> = (&'t str, Span);
                fn parts<'t>(p: Option<(Slice<'t>, Slice<'t>)>) -> Option<(Part<'t>, Part<'t>)> {
                    p.map(|(a, b)| ((a.text, a.span), (b.text, b.span)))
                }
                assert_eq!(parts(by_byte), parts(by_char), "{text:?} at {c:?}");
            }
        }
    }
}
