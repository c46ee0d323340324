//! The data model built from token lines (scopes, variables, modifiers, objects) and every
//! load-time check.
//!
//! # Using the model
//!
//! [`build()`] turns a [`crate::load::LoadSet`] into a [`Dataset`] and the model's
//! diagnostics. A [`Dataset`] is plain, read-only data for the solver and the character API:
//!
//! * [`Dataset::scopes`] — the [`ScopeTree`] (`PC`, `PC.STAT`, …, `PC.EQUIPMENT.PART`,
//!   one `PC.<NAME>` per DYNAMICSCOPE).
//! * [`Dataset::variables`] — every [`Variable`], indexed by [`VarId`] (`variables[id.0]`):
//!   name, scope, [`crate::formula::Format`], whether it is a channel (`CHANNEL:`, read with
//!   `input("Name")`) or built-in. Look names up with [`Dataset::resolve_variable`] (what a
//!   formula in a scope sees) and [`Dataset::channel`].
//! * [`Dataset::defaults`] — the DEFAULTVARIABLEVALUE of each format ([`Dataset::default_for`]).
//! * [`Dataset::objects`] — every [`Object`] (kind, key, scope, `GROUP:`s, `GRANT:`s, facts,
//!   parts via [`Dataset::parts`],
//!   its modifiers), indexed by [`ObjectId`]; [`Dataset::object`] finds one by kind and key.
//! * [`Dataset::modifiers`] — every [`Modifier`], indexed by [`ModId`]: target variable,
//!   [`ModifierKind`] (SET/ADD/MULTIPLY/DIVIDE/MAX/MIN, with [`ModifierKind::inherent_priority`]),
//!   user `priority`, the value ([`ModifierValue`]: a checked constant or a formula), the source
//!   object, and where it applies ([`Applies`]: globally, on its own object, on PART n, or on
//!   other objects addressed by MODIFYOTHER).
//! * [`Dataset::functions`], [`Dataset::tables`], [`Dataset::fact_defs`] — user functions,
//!   DATATABLE tables and fact definitions; [`Dataset::controls`] — the game mode's switches.
//!
//! Solving order is `(priority, kind.inherent_priority(), ModId)` ascending, as in PCGen.
//!
//! Formulas: a [`ModifierValue::Formula`] holds its text, span and, when it checked clean,
//! the [`crate::formula::CompiledFormula`] (checked once, in [`Modifier::scope`], asserted
//! and `value()`-typed as the target's format). Its `dependencies()` are
//! [`crate::formula::VarRef`]s whose number is the [`VarId`] (`VarId(r.0)`); channels read
//! by `input()` are variables too ([`VariableOrigin::is_channel`]). Host calls at evaluation
//! are `HostFnRef(0)` input, `1` lookup, `2` getFact, `3` get. User functions are in
//! [`Dataset::registry`].

pub mod bioset;
mod build;
pub mod codes;
pub mod elsewhere;
mod formulas;
mod hosts;
pub(crate) use crate::fxhash;
pub mod literal;
mod object_index;
pub(crate) use object_index::KindHash;
pub mod old_formulas;
pub mod references;
pub mod scope;
mod table;
#[cfg(test)]
mod tests;
mod token_table;
pub mod unapplied;

pub use build::build;
pub use formulas::ScopeEnv;
pub use hosts::HostFn;
pub use scope::{Scope, ScopeId, ScopeTree};
pub use table::{LookupKind, Table};

use crate::formula::{CompiledFormula, Format, Value};
use crate::load::{CodeControls, FileKind};
use crate::name::Name;
use crate::source::Span;
use indexmap::IndexMap;

/// Identity of a variable: its index in [`Dataset::variables`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// Identity of an object: its index in [`Dataset::objects`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(pub u32);

/// Identity of a modifier: its index in [`Dataset::modifiers`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModId(pub u32);

/// Where a variable came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariableOrigin {
    /// GLOBAL or LOCAL in a VARIABLE file.
    Data,
    /// CHANNEL in a VARIABLE file.
    Channel,
    /// PCGen's built-in variables (`Face`).
    BuiltIn,
    /// PCGen's built-in channels (`Age`, `Alignment`, …).
    BuiltInChannel,
}

impl VariableOrigin {
    /// True for channels (read with `input()`, named `CHANNEL*Name` in PCGen).
    pub fn is_channel(self) -> bool {
        matches!(
            self,
            VariableOrigin::Channel | VariableOrigin::BuiltInChannel
        )
    }
}

/// A variable definition.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    /// Its id.
    pub id: VarId,
    /// Name (for channels, without `CHANNEL*`).
    pub name: Name,
    /// Scope it lives in.
    pub scope: ScopeId,
    /// Its format.
    pub format: Format,
    /// Where it was defined (`None` for built-ins).
    pub span: Option<Span>,
    /// EXPLANATION text (the last one loaded wins).
    pub explanation: Option<String>,
    /// Data, channel or built-in.
    pub origin: VariableOrigin,
    /// Its definition was an error (an unknown format or scope, a conflict with a built-in)
    /// that was reported once: the name is defined with the best-known format so that its
    /// uses are not reported again, and it is never offered as a "did you mean".
    pub flawed: bool,
}

/// A DEFAULTVARIABLEVALUE.
#[derive(Clone, Debug, PartialEq)]
pub struct DefaultValue {
    /// The format.
    pub format: Format,
    /// The value.
    pub value: Value,
    /// Where it was written.
    pub span: Span,
}

/// Modifier types with PCGen's inherent priorities. The solver uses this same type
/// (`crate::solve::ModifierKind` is a re-export).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ModifierKind {
    /// SET (0).
    Set,
    /// MULTIPLY (1).
    Multiply,
    /// DIVIDE (2).
    Divide,
    /// ADD (3).
    Add,
    /// MAX (4): the larger of the running value and the operand.
    Max,
    /// MIN (5): the smaller of the running value and the operand.
    Min,
}

impl ModifierKind {
    /// Every kind, in inherent-priority order.
    pub const ALL: [ModifierKind; 6] = [
        ModifierKind::Set,
        ModifierKind::Multiply,
        ModifierKind::Divide,
        ModifierKind::Add,
        ModifierKind::Max,
        ModifierKind::Min,
    ];

    /// From the name as written (case-sensitive, as PCGen). There is no SUBTRACT.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "SET" => ModifierKind::Set,
            "MULTIPLY" => ModifierKind::Multiply,
            "DIVIDE" => ModifierKind::Divide,
            "ADD" => ModifierKind::Add,
            "MAX" => ModifierKind::Max,
            "MIN" => ModifierKind::Min,
            _ => return None,
        })
    }

    /// The name as written in data.
    pub fn name(self) -> &'static str {
        match self {
            ModifierKind::Set => "SET",
            ModifierKind::Multiply => "MULTIPLY",
            ModifierKind::Divide => "DIVIDE",
            ModifierKind::Add => "ADD",
            ModifierKind::Max => "MAX",
            ModifierKind::Min => "MIN",
        }
    }

    /// PCGen's inherent priority (ties within one user PRIORITY).
    pub fn inherent_priority(self) -> u32 {
        match self {
            ModifierKind::Set => 0,
            ModifierKind::Multiply => 1,
            ModifierKind::Divide => 2,
            ModifierKind::Add => 3,
            ModifierKind::Max => 4,
            ModifierKind::Min => 5,
        }
    }
}

impl std::fmt::Display for ModifierKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A formula value: its text, where it sits, and (once checked) its compiled form.
#[derive(Clone, Debug)]
pub struct FormulaValue {
    /// The formula text.
    pub text: String,
    /// Its span.
    pub span: Span,
    /// The checked formula; `None` when it had errors (they were reported).
    pub compiled: Option<CompiledFormula>,
}

/// A modifier's operand.
#[derive(Clone, Debug)]
pub enum ModifierValue {
    /// A constant checked against the variable's format.
    Constant(Value),
    /// A formula, evaluated in the modifier's scope.
    Formula(FormulaValue),
}

/// MODIFYOTHER's selection of objects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    /// Every object of the scope.
    All,
    /// Objects with `GROUP:x`.
    Group(Name),
    /// The object with this key.
    Key(Name),
}

/// Where a modifier applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Applies {
    /// A GLOBALMODIFIER line: always active.
    Global,
    /// A MODIFY on its source object: active while the object is granted; a local target is
    /// the object's own instance.
    Own,
    /// `PART:n|MODIFY:…` on an equipment object: the object's part n.
    Part(u32),
    /// MODIFYOTHER: on the objects of `scope` chosen by `selector` (and `child`, for their
    /// sub-scope parts), while the source object is granted.
    Other {
        /// The addressed scope (e.g. `PC.EQUIPMENT`).
        scope: ScopeId,
        /// Which objects.
        selector: Selector,
        /// Which parts of them (`[…]`), if any.
        child: Option<Selector>,
    },
}

/// One MODIFY, MODIFYOTHER, PART or FACE modification.
#[derive(Clone, Debug)]
pub struct Modifier {
    /// Its id.
    pub id: ModId,
    /// The target variable.
    pub variable: VarId,
    /// SET, ADD, …
    pub kind: ModifierKind,
    /// User priority (PRIORITY=, 0 when absent).
    pub priority: u32,
    /// The operand.
    pub value: ModifierValue,
    /// The scope the target was resolved in and the formula is evaluated in.
    pub scope: ScopeId,
    /// The object carrying it (`None` for GLOBALMODIFIER lines).
    pub source: Option<ObjectId>,
    /// Where it applies.
    pub applies: Applies,
    /// The token.
    pub span: Span,
}

/// What an object is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    /// Loaded from a file of this kind.
    File(FileKind),
    /// A DYNAMIC object of this category (e.g. `MOVEMENT`).
    Dynamic(Name),
}

/// A FACT or FACTSET on an object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// The fact name.
    pub name: Name,
    /// Its value as written (shared with the file cache when read there).
    pub value: std::sync::Arc<str>,
    /// True for FACTSET.
    pub set: bool,
}

/// A `GRANT:CATEGORY|Key` on an object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grant {
    /// The DYNAMICSCOPE category.
    pub category: Name,
    /// The granted object's key.
    pub key: Name,
    /// The granted object, when it exists.
    pub object: Option<ObjectId>,
    /// The token.
    pub span: Span,
}

/// A data object (race, equipment, stat, dynamic movement, …).
///
/// Small on purpose: every object line of every load set makes one, and most objects carry
/// no `GROUP:`, modifier, `GRANT:` or fact, so those four lists live in one boxed
/// [`ObjectExtras`] made only for the objects that have one (read them with
/// [`Object::groups`], [`Object::modifiers`], [`Object::grants`] and [`Object::facts`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Object {
    /// Its id.
    pub id: ObjectId,
    /// What it is.
    pub kind: ObjectKind,
    /// Its key (`KEY:` or the name) and name: read them with [`Dataset::key_of`] and
    /// [`Dataset::name_of`].
    key: ObjectKey,
    /// The scope its tokens are read in.
    pub scope: ScopeId,
    /// The line's first token.
    pub span: Span,
    /// Removed by `.FORGET`.
    pub forgotten: bool,
    /// The number of its key, when it has one (see [`KeyId`]).
    key_id: KeyId,
    /// Its groups, modifiers, grants and facts; `None` while it has none.
    extras: Option<Box<ObjectExtras>>,
}

/// The number of an object key, the same for equal keys (without regard to ASCII case)
/// throughout a run (the numbers belong to its file cache), given to the keys of cached
/// object lines and to the keys their `.COPY=`, `.MOD` and `.FORGET` lines look up;
/// [`KeyId::NONE`] for the other keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KeyId(pub(crate) u32);

impl KeyId {
    /// No number: the key is compared as text.
    pub(crate) const NONE: KeyId = KeyId(u32::MAX);

    /// Whether `self` and `other` are known to be the same key (`Some(true)`) or
    /// different keys (`Some(false)`); `None` when either has no number.
    #[inline]
    fn same(self, other: KeyId) -> Option<bool> {
        (self != KeyId::NONE && other != KeyId::NONE).then_some(self == other)
    }
}

// Every object line of every load set makes an `Object`: it stays within a cache line.
const _: () = assert!(std::mem::size_of::<Object>() <= 64);

/// Where an object's key and name are kept.
///
/// Most objects are the object lines of files the run's cache has read once
/// ([`build::ObjectLines`]): their key and name stay there, and the object names the line.
/// Copying them in would raise two shared reference counts per object and load set (and
/// lower them again when the set is dropped) — locked instructions on memory last touched
/// by another load set, which cost more than the rest of making the object.
///
/// An object's own key (objects of DYNAMIC lines, `.COPY=` and made by `.MOD`, a few in a
/// load set) is kept in the dataset too ([`ObjectKeys::own`]): kept in the object, its two
/// shared strings made every [`Object`] 16 bytes larger (80 bytes rather than one 64-byte
/// cache line) and dropping one a call per object.
#[derive(Clone, Copy, Debug, PartialEq)]
enum ObjectKey {
    /// Its own key: entry `n` of the dataset's own keys.
    Own(u32),
    /// The key and name of line `line` of the dataset's object lines `lines` (see
    /// [`Dataset::key_of`]).
    Cached {
        /// Index in the dataset's object lines.
        lines: u32,
        /// Index of the line in them.
        line: u32,
    },
}

/// The key of objects whose key cannot be found (none: a cached key always names a line
/// that makes an object).
static NO_KEY: std::sync::LazyLock<Name> = std::sync::LazyLock::new(|| Name::new(""));

/// Where a dataset's objects take their keys and names from (see [`ObjectKey`]).
#[derive(Clone, Debug, Default)]
struct ObjectKeys {
    /// The object lines (shared with the run's cache) of [`ObjectKey::Cached`].
    lines: Vec<std::sync::Arc<build::ObjectLines>>,
    /// The keys of [`ObjectKey::Own`]: the key, and the name as written (not trimmed)
    /// when that is not the key's spelling.
    own: Vec<(Name, Option<std::sync::Arc<str>>)>,
}

impl ObjectKeys {
    /// The key and name of `key`. Inlined: every probe of the object index that meets a
    /// likely match reads a key (out of line, the call cost a tenth of the look-up).
    #[inline(always)]
    fn resolve(&self, key: ObjectKey) -> (&Name, Option<&str>) {
        let found = match key {
            ObjectKey::Own(n) => self
                .own
                .get(n as usize)
                .map(|(key, name)| (key, name.as_deref())),
            ObjectKey::Cached { lines: l, line } => self
                .lines
                .get(l as usize)
                .and_then(|l| l.base_key(line as usize)),
        };
        found.unwrap_or((&NO_KEY, None))
    }
}

/// What an [`Object`] carries besides its identity (most objects carry none of it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjectExtras {
    /// `GROUP:` values.
    pub groups: Vec<Name>,
    /// Modifiers it carries (MODIFY, MODIFYOTHER, PART, FACE).
    pub modifiers: Vec<ModId>,
    /// Objects it grants.
    pub grants: Vec<Grant>,
    /// Facts.
    pub facts: Vec<Fact>,
}

impl Object {
    /// An object with nothing on it yet (the id is set when it is added to a dataset) whose
    /// key and name are `key` (the dataset's own, see [`Dataset::push_own_key`], or a line
    /// of its object lines, see [`Dataset::push_object_lines`]); `key_id` is the key's
    /// number, if it has one.
    pub(in crate::model) fn new(
        kind: ObjectKind,
        key: ObjectKey,
        key_id: KeyId,
        scope: ScopeId,
        span: Span,
    ) -> Self {
        Object {
            id: ObjectId(0),
            kind,
            key,
            scope,
            span,
            forgotten: false,
            key_id,
            extras: None,
        }
    }

    /// `GROUP:` values.
    pub fn groups(&self) -> &[Name] {
        self.extras.as_deref().map_or(&[], |e| &e.groups)
    }

    /// Modifiers it carries (MODIFY, MODIFYOTHER, PART, FACE).
    pub fn modifiers(&self) -> &[ModId] {
        self.extras.as_deref().map_or(&[], |e| &e.modifiers)
    }

    /// Objects it grants.
    pub fn grants(&self) -> &[Grant] {
        self.extras.as_deref().map_or(&[], |e| &e.grants)
    }

    /// Facts.
    pub fn facts(&self) -> &[Fact] {
        self.extras.as_deref().map_or(&[], |e| &e.facts)
    }

    /// Its groups, modifiers, grants and facts, made empty on first use.
    pub(crate) fn extras_mut(&mut self) -> &mut ObjectExtras {
        self.extras.get_or_insert_with(Box::default)
    }

    /// Its groups, modifiers, grants and facts, if it has any.
    pub(crate) fn extras(&self) -> Option<&ObjectExtras> {
        self.extras.as_deref()
    }

    /// Gives it a copy of `extras` (a `.COPY=` of an object that has them).
    pub(crate) fn set_extras(&mut self, extras: Option<ObjectExtras>) {
        self.extras = extras.map(Box::new);
    }
}

/// A FUNCTION defined in data.
#[derive(Clone, Debug)]
pub struct UserFunction {
    /// Name (case-insensitive).
    pub name: Name,
    /// The VALUE formula.
    pub body: FormulaValue,
    /// Number of arguments callers must pass (highest `arg(n)` + 1).
    pub arity: usize,
    /// The FUNCTION token.
    pub span: Span,
}

/// A FACTDEF or FACTSETDEF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FactDef {
    /// Object kind it applies to (e.g. `TEMPLATE`, `CHECK`).
    pub location: Name,
    /// Fact name.
    pub name: Name,
    /// True for FACTSETDEF.
    pub set: bool,
    /// DATAFORMAT, when given and known.
    pub format: Option<Format>,
    /// Where it was defined.
    pub span: Span,
    /// `REQUIRED:YES`: every object of the location must give the fact (PCGen reports
    /// "FACT X was required but not set in …" for each one that does not).
    pub required: bool,
    /// `SELECTABLE:YES`: the fact may be used to select objects (PCGen's `FACT=` groupings).
    pub selectable: bool,
    /// `VISIBLE:` — where PCGen shows the fact.
    pub visibility: FactVisibility,
    /// `DISPLAYNAME:`, if given (shared: a load set copies each FACTDEF of its files).
    pub display_name: Option<std::sync::Arc<str>>,
    /// `EXPLANATION:`, if given (shared, as `display_name`).
    pub explanation: Option<std::sync::Arc<str>>,
}

/// A FACTDEF's `VISIBLE:` value (PCGen's `Visibility`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FactVisibility {
    /// `YES` (or no `VISIBLE:`): shown and exported.
    #[default]
    Yes,
    /// `DISPLAY`: shown in the interface only.
    Display,
    /// `EXPORT`: in output sheets only.
    Export,
    /// `NO`: hidden.
    No,
}

/// Everything a load defines, checked.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Scopes.
    pub scopes: ScopeTree,
    /// Variables by id.
    pub variables: Vec<Variable>,
    /// Defaults by format name (upper case, e.g. `NUMBER`, `ARRAY[NUMBER]`).
    pub defaults: IndexMap<String, DefaultValue>,
    /// Objects by id.
    pub objects: Vec<Object>,
    /// Modifiers by id.
    pub modifiers: Vec<Modifier>,
    /// User functions.
    pub functions: Vec<UserFunction>,
    /// Tables.
    pub tables: Vec<Table>,
    /// Fact definitions.
    pub fact_defs: Vec<FactDef>,
    /// The user functions as the formula checker and evaluator use them.
    pub registry: crate::formula::FunctionRegistry,
    /// The game mode's code controls.
    pub controls: CodeControls,
    /// Formula-system tokens read.
    pub tokens_checked: usize,
    /// The old-system tokens each object carries that the solver does not apply
    /// ([`unapplied`]); recorded by the paths that build characters, `None` otherwise.
    pub old_tokens: Option<unapplied::OldTokens>,
    var_index: fxhash::FxHashMap<(ScopeId, Name, bool), VarId>,
    /// Objects by kind and key (the first made of each), made on the first look-up
    /// ([`Dataset::object`]) and dropped when an object is added.
    object_index: std::sync::OnceLock<object_index::ObjectIndex>,
    /// Where objects take their key and name from (see [`ObjectKey`]).
    object_keys: ObjectKeys,
}

/// The hash of an object key as [`Dataset`]'s index uses it: the key's letters folded to
/// lower case (keys compare without regard to ASCII case, as [`Name`]s do).
pub(crate) fn key_hash(key: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = fxhash::FxHasher::default();
    crate::name::NameStr(key).hash(&mut h);
    h.finish()
}

impl Dataset {
    /// Makes room for the object lines of `n` more files (see
    /// [`Dataset::push_object_lines`]).
    pub(crate) fn reserve_object_lines(&mut self, n: usize) {
        self.object_keys.lines.reserve(n);
    }

    /// Keeps `lines` for objects to take their keys and names from; returns its index for
    /// [`ObjectKey::Cached`].
    pub(in crate::model) fn push_object_lines(
        &mut self,
        lines: std::sync::Arc<build::ObjectLines>,
    ) -> u32 {
        let i = u32::try_from(self.object_keys.lines.len()).unwrap_or(u32::MAX);
        self.object_keys.lines.push(lines);
        i
    }

    /// Keeps `key` and `name` (`None` when it is the key's spelling) for an object of
    /// its own; returns their index for [`ObjectKey::Own`].
    pub(in crate::model) fn push_own_key(
        &mut self,
        key: Name,
        name: Option<std::sync::Arc<str>>,
    ) -> u32 {
        let i = u32::try_from(self.object_keys.own.len()).unwrap_or(u32::MAX);
        self.object_keys.own.push((key, name));
        i
    }

    /// The key of `object` (an object of this dataset).
    pub fn key_of<'a>(&'a self, object: &'a Object) -> &'a Name {
        self.object_keys.resolve(object.key).0
    }

    /// The name of `object` (an object of this dataset) as written: the whole first token
    /// of its line, not trimmed.
    pub fn name_of<'a>(&'a self, object: &'a Object) -> &'a str {
        let (key, name) = self.object_keys.resolve(object.key);
        name.unwrap_or(key.as_str())
    }

    /// Adds `object`; returns its id.
    pub(crate) fn push_object(&mut self, mut object: Object) -> ObjectId {
        let id = ObjectId(u32::try_from(self.objects.len()).unwrap_or(u32::MAX));
        object.id = id;
        self.objects.push(object);
        if self.object_index.get().is_some() {
            self.object_index = std::sync::OnceLock::new();
        }
        id
    }

    /// The objects and their keys, for an [`object_index::ObjectIndex`] of them.
    pub(in crate::model) fn indexed(&self) -> object_index::Indexed<'_> {
        object_index::Indexed {
            objects: &self.objects,
            keys: &self.object_keys,
        }
    }

    /// The variable with this id.
    pub fn variable(&self, id: VarId) -> Option<&Variable> {
        self.variables.get(id.0 as usize)
    }

    /// The variable `name` as seen from `scope` (the scope itself, then its ancestors).
    pub fn resolve_variable(&self, scope: ScopeId, name: &str) -> Option<VarId> {
        self.resolve_in(scope, name, false).map(|(v, _)| v)
    }

    /// Like [`Dataset::resolve_variable`], also returning how many scopes up it was found.
    pub fn resolve_in(&self, scope: ScopeId, name: &str, channel: bool) -> Option<(VarId, usize)> {
        let key = Name::new(name);
        self.scopes
            .ancestors(scope)
            .enumerate()
            .find_map(|(depth, s)| {
                self.var_index
                    .get(&(s, key.clone(), channel))
                    .map(|v| (*v, depth))
            })
    }

    /// The channel `name` (as in `input("name")`) seen from `scope`.
    pub fn channel(&self, scope: ScopeId, name: &str) -> Option<VarId> {
        self.resolve_in(scope, name, true).map(|(v, _)| v)
    }

    /// The channels seen from `scope` (its own and its ancestors'), sorted by name.
    pub fn channel_names(&self, scope: ScopeId) -> Vec<&Name> {
        let visible: Vec<ScopeId> = self.scopes.ancestors(scope).collect();
        let mut names: Vec<&Name> = self
            .var_index
            .keys()
            .filter(|(s, _, channel)| *channel && visible.contains(s))
            .map(|(_, n, _)| n)
            .collect();
        names.sort_unstable_by_key(|n| n.to_string());
        names
    }

    /// The default value of a format.
    pub fn default_for(&self, format: &Format) -> Option<&DefaultValue> {
        self.defaults.get(&format.to_string())
    }

    /// The object with this id.
    pub fn object_by_id(&self, id: ObjectId) -> Option<&Object> {
        self.objects.get(id.0 as usize)
    }

    /// The object of `kind` with `key` (the first made of that kind and key).
    pub fn object(&self, kind: &ObjectKind, key: &str) -> Option<ObjectId> {
        let index = self
            .object_index
            .get_or_init(|| object_index::ObjectIndex::of_all(self.indexed()));
        index.find_key(self.indexed(), kind, key)
    }

    /// The modifier with this id.
    pub fn modifier(&self, id: ModId) -> Option<&Modifier> {
        self.modifiers.get(id.0 as usize)
    }

    /// The MODIFY lines of GLOBALMODIFIER files (always active, on the global instance).
    /// MODIFYOTHER lines of those files are modifiers with `source: None` and
    /// [`Applies::Other`]: always in force for every addressed object.
    pub fn global_modifiers(&self) -> impl Iterator<Item = &Modifier> {
        self.modifiers
            .iter()
            .filter(|m| matches!(m.applies, Applies::Global))
    }

    /// Objects whose tokens are read in `scope` (e.g. all equipment for `PC.EQUIPMENT`).
    pub fn objects_in(&self, scope: ScopeId) -> impl Iterator<Item = &Object> {
        self.objects
            .iter()
            .filter(move |o| o.scope == scope && !o.forgotten)
    }

    /// The parts (heads) of an equipment object: 1 always, plus every n of its `PART:n`
    /// tokens, ascending. Other objects have none.
    pub fn parts(&self, id: ObjectId) -> Vec<u32> {
        let Some(o) = self.object_by_id(id) else {
            return Vec::new();
        };
        if o.kind != ObjectKind::File(FileKind::Equipment) {
            return Vec::new();
        }
        let mut parts = vec![1];
        for m in o.modifiers().iter().filter_map(|m| self.modifier(*m)) {
            if let Applies::Part(n) = m.applies {
                parts.push(n);
            }
        }
        parts.sort_unstable();
        parts.dedup();
        parts
    }

    /// A user function by name.
    pub fn function(&self, name: &str) -> Option<&UserFunction> {
        self.functions.iter().find(|f| f.name.is(name))
    }

    /// A table by name.
    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.name.is(name))
    }
}
