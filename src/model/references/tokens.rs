//! The names old-system token values give, found by one declarative table
//! (`token-references.tsv`: per line kind and token, where the names are and what they
//! name) rather than a parser per token.

use super::heads::Written;
use crate::load::{FileKind, Line};
use crate::name::Name;
use crate::source::Span;
use std::sync::LazyLock;

/// Where a token value's names are (the table's `shape` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// Every item between the separator.
    List(char),
    /// The n-th field between the separator, itself a `,` list.
    Field(usize, char),
    /// The text before the first separator.
    Head(char),
    /// `a,b=1|c=2`.
    Levels,
    /// `CLASS|Wizard=1|spell,spell|…`.
    SpellLists,
    /// `book|TIMES=…|spell,DC|…`.
    Spells,
    /// `KEY|choice.KEY2`.
    Eqmods,
    /// The last field between the separator (an `ADD:` token's optional count comes
    /// first), itself a `,` list.
    Last(char),
    /// The value's first character (`PRESIZEGTEQ:Medium` names the size `M`).
    Initial,
    /// A kit's `SPELLBOOK=…|CLASS=…|spell[=count]|…`: each spell's name.
    KitSpells,
    /// `count,LOCATION,Fact=value,…`: each FACT's name.
    PreFact,
    /// A prerequisite's `count,key,key=n,[key],CHECKMULT`: each key after the first n
    /// fields, without its `=n`.
    PreList(usize),
    /// An ability token's `|` fields: the category first (after the prefix, when the
    /// form has one), the keys from the n-th field on.
    Abilities(usize, CategoryForm),
}

/// How an ability token writes its category in its first field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CategoryForm {
    /// `FEAT` (`ABILITY:FEAT|AUTOMATIC|…`).
    Bare,
    /// `CATEGORY=FEAT` (a kit's `ABILITY:CATEGORY=FEAT|…`).
    Category,
    /// `ABILITY=FEAT` (`SERVESAS:ABILITY=FEAT|…`).
    Ability,
}

impl CategoryForm {
    /// The category a first field names in this form, if it is written so.
    fn category(self, field: &str) -> Option<&str> {
        let c = match self {
            CategoryForm::Bare => Some(field),
            CategoryForm::Category => field.strip_prefix("CATEGORY="),
            CategoryForm::Ability => field.strip_prefix("ABILITY="),
        }?;
        let c = c.trim();
        (!c.is_empty()).then_some(c)
    }
}

/// One row of the table.
#[derive(Debug)]
struct Row {
    /// The line kind (`None`: every object kind).
    kind: Option<FileKind>,
    /// The token name.
    token: String,
    /// The sub-token the value must start with (`LANG` for `AUTO:LANG|…`), if any.
    sub: Option<String>,
    shape: Shape,
    /// What each name must be.
    target: FileKind,
    /// Words that are not names in this token (compared as PCGen does, with case:
    /// `ADD:SPELLCASTER|Arcane` is a spell type, `Sorcerer` a class).
    except: Vec<String>,
    /// PCGen looks the names up only when the prerequisite is tested (the `when` column is
    /// `test`), never at load.
    tested: bool,
    /// Only the row's groups are read (the `when` column is `groups`): its other items are
    /// not told from a choice's qualifiers yet.
    groups_only: bool,
    /// The groups PCGen makes a group reference of from the token's items (the `groups`
    /// column).
    groups: GroupForms,
}

/// Which items of a token PCGen reads as a group of objects it resolves at the end of the
/// load (the table's `groups` column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct GroupForms {
    /// `TYPE=a.b`, `TYPE.a`: the target's objects with every type.
    types: bool,
    /// `ALL`: every object of the target kind.
    all: bool,
    /// `ANY`: the same.
    any: bool,
    /// Items are `,`-separated filters whose `LEVEL=n` are dropped first; none left is
    /// every object of the kind.
    level: bool,
    /// `ARMORTYPE=a` (`"ARMOR"`) or `SHIELDTYPE=a` (`"SHIELD"`): equipment of TYPE=ARMOR.a.
    equipment: Option<&'static str>,
    /// Every use names the monster classes' skill lists.
    monster: bool,
}

impl GroupForms {
    fn parse(column: &str) -> Option<GroupForms> {
        let mut g = GroupForms::default();
        for word in column.split(',').filter(|w| !w.is_empty()) {
            match word {
                "TYPE" => g.types = true,
                "ALL" => g.all = true,
                "ANY" => g.any = true,
                "LEVEL" => g.level = true,
                "ARMORTYPE" => g.equipment = Some("ARMOR"),
                "SHIELDTYPE" => g.equipment = Some("SHIELD"),
                "MONSTER" => g.monster = true,
                _ => return None,
            }
        }
        Some(g)
    }

    /// The group the item `text` (trimmed) names, if it is one of these forms.
    fn group(self, target: FileKind, text: &str) -> Option<Members> {
        // A choice (`TYPE=%CHOICE`, `%LIST`) is made when the character chooses.
        if text.contains(['%', '[', '(']) {
            return None;
        }
        let typed = |kind: FileKind, first: Option<&str>, rest: &str| {
            let types: Vec<Name> = first
                .into_iter()
                .chain(rest.split('.'))
                .map(|t| Name::new(t.trim()))
                .collect();
            (!types.iter().any(|t| t.as_str().is_empty())).then_some(Members::Typed { kind, types })
        };
        if self.level {
            let mut rest = text.split(',').filter(|f| !f.trim().starts_with("LEVEL="));
            return match (rest.next(), rest.next()) {
                (None, _) => Some(Members::Typed {
                    kind: target,
                    types: Vec::new(),
                }),
                (Some(one), None) => GroupForms {
                    level: false,
                    ..self
                }
                .group(target, one.trim()),
                _ => None,
            };
        }
        if (self.all && text == "ALL") || (self.any && text == "ANY") {
            return Some(Members::Typed {
                kind: target,
                types: Vec::new(),
            });
        }
        if self.types {
            if let Some(rest) = text
                .strip_prefix("TYPE=")
                .or_else(|| text.strip_prefix("TYPE."))
            {
                return typed(target, None, rest);
            }
        }
        let word = self.equipment?;
        let rest = text.strip_prefix(word)?.strip_prefix("TYPE")?;
        let rest = rest.strip_prefix('=').or_else(|| rest.strip_prefix('.'))?;
        typed(FileKind::Equipment, Some(word), rest)
    }
}

/// The kinds of object a group may name by type (a `TYPE`, `ARMORTYPE`/`SHIELDTYPE` or
/// `MONSTER` form of the table's `groups` column): those whose files' types are kept.
pub(super) fn typed_kinds() -> &'static [FileKind] {
    static KINDS: LazyLock<Vec<FileKind>> = LazyLock::new(|| {
        let mut kinds: Vec<FileKind> = ROWS
            .iter()
            .flat_map(|r| {
                let g = r.groups;
                [
                    g.types.then_some(r.target),
                    g.equipment.map(|_| FileKind::Equipment),
                    g.monster.then_some(FileKind::Class),
                ]
            })
            .flatten()
            .collect();
        kinds.sort();
        kinds.dedup();
        kinds
    });
    &KINDS
}

/// The objects a group reference stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Members {
    /// The objects of `kind` with every one of `types` (no types: every object of it).
    Typed {
        /// The kind of object.
        kind: FileKind,
        /// The types each member has (compared without case, as PCGen's `Type` does).
        types: Vec<Name>,
    },
    /// The skill lists of the monster classes (`MONCSKILL:` fills them): classes of a type
    /// the game mode marks `ISMONSTER:YES`, or with `ISMONSTER:YES` themselves.
    MonsterClasses,
}

impl Row {
    /// Whether the row is a prerequisite's: found wherever a `PRExxx` sits in a value,
    /// not only as a token of its own.
    fn is_pre(&self) -> bool {
        self.token.starts_with("PRE")
    }

    /// Whether the checker resolves the row's names: not yet the keys of the ability
    /// shapes, which live in categories (the editor reads them, [`names_in_token`]).
    fn checked(&self) -> bool {
        !matches!(self.shape, Shape::Abilities(..))
    }

    /// Whether the row applies to the lines of a file of `kind`. Kit lines have token
    /// grammars of their own: only KIT rows apply to them (and the prerequisites, which
    /// read alike everywhere).
    fn applies(&self, kind: FileKind) -> bool {
        match self.kind {
            None => kind != FileKind::Kit || self.is_pre(),
            Some(k) => k == kind,
        }
    }
}

/// The table, read once.
static ROWS: LazyLock<Vec<Row>> = LazyLock::new(|| parse(include_str!("token-references.tsv")));

/// The rows of each token name, for one look-up per token of the data.
static BY_TOKEN: LazyLock<crate::fxhash::FxHashMap<&'static str, Vec<&'static Row>>> =
    LazyLock::new(|| crate::model::token_table::by_token(&ROWS, |r| r.token.as_str()));

fn parse(text: &str) -> Vec<Row> {
    crate::model::token_table::rows(text)
        .filter_map(|cols| {
            let (kind, token, shape, target, except, when, groups) = match cols.as_slice() {
                [kind, token, shape, target] => (kind, token, shape, target, "", "load", ""),
                [kind, token, shape, target, except] => {
                    (kind, token, shape, target, *except, "load", "")
                }
                [kind, token, shape, target, except, when] => {
                    (kind, token, shape, target, *except, *when, "")
                }
                [kind, token, shape, target, except, when, groups] => {
                    (kind, token, shape, target, *except, *when, *groups)
                }
                _ => return None,
            };
            let groups = GroupForms::parse(groups)?;
            let (tested, groups_only) = match when {
                "load" | "" => (false, false),
                "test" => (true, false),
                "groups" => (false, true),
                _ => return None,
            };
            let kind = match *kind {
                "*" => None,
                k => Some(FileKind::from_token(k)?),
            };
            let (token, sub) = crate::model::token_table::token_and_sub(token);
            let sep = |s: &str| s.chars().next();
            let words: Vec<&str> = shape.split(' ').collect();
            let shape = match words.as_slice() {
                ["list", s] => Shape::List(sep(s)?),
                ["field", n, s] => Shape::Field(n.parse().ok()?, sep(s)?),
                ["head", s] => Shape::Head(sep(s)?),
                ["levels"] => Shape::Levels,
                ["spelllists"] => Shape::SpellLists,
                ["spells"] => Shape::Spells,
                ["eqmods"] => Shape::Eqmods,
                ["last", s] => Shape::Last(sep(s)?),
                ["initial"] => Shape::Initial,
                ["kitspells"] => Shape::KitSpells,
                ["prefact"] => Shape::PreFact,
                ["prelist", n] => Shape::PreList(n.parse().ok()?),
                ["abilities", n] => Shape::Abilities(n.parse().ok()?, CategoryForm::Bare),
                ["abilities", n, "CATEGORY="] => {
                    Shape::Abilities(n.parse().ok()?, CategoryForm::Category)
                }
                ["abilities", n, "ABILITY="] => {
                    Shape::Abilities(n.parse().ok()?, CategoryForm::Ability)
                }
                _ => return None,
            };
            Some(Row {
                kind,
                token,
                sub,
                shape,
                target: FileKind::from_token(target)?,
                except: except
                    .split(',')
                    .filter(|w| !w.is_empty())
                    .map(str::to_owned)
                    .collect(),
                tested,
                groups_only,
                groups,
            })
        })
        .collect()
}

/// A name a file's tokens give, with the kind it must be and how many times it is given.
#[derive(Debug)]
pub(super) struct Reference {
    /// What it must be.
    pub(super) target: FileKind,
    /// The name (first use).
    pub(super) name: Written,
    /// How many uses in the file.
    pub(super) uses: usize,
    /// The keys of the objects whose lines give it, each with the token that gives it (a
    /// filtered file entry keeps the name only when it keeps one of them; a later
    /// `Key.MOD` with `TOKEN:.CLEAR` takes it back).
    pub(super) owners: Vec<(Name, &'static str)>,
    /// Whether a line that makes its object gives it (PCGen parses those lines whatever an
    /// entry's filter keeps; a `.MOD` line only when it applies it).
    pub(super) on_base_line: bool,
    /// The file (its run cache entry's address) that made the object in a load set before,
    /// or 0: a later load set holding that file whole finds the name there with one look-up
    /// instead of searching every file of the kind. Only ever a hint: it is checked.
    pub(super) found_in: super::heads::Hint,
    /// The token that gives it first (`PREABILITY`).
    pub(super) token: &'static str,
    /// PCGen looks it up only when a prerequisite is tested: never an error of the load
    /// set, a warning when no load defines it (`R0106`).
    pub(super) tested: bool,
}

/// A group of objects a file's tokens name (`TYPE=Perform` in `CSKILL:`, `ALL` in
/// `LANGBONUS:`), each once: PCGen resolves it at the end of the load and reports one no
/// object joins.
#[derive(Debug)]
pub(super) struct GroupReference {
    /// The objects it stands for.
    pub(super) members: Members,
    /// The item as written (first use; for `MONCSKILL:`, its value).
    pub(super) written: Written,
    /// How many uses in the file.
    pub(super) uses: usize,
    /// The keys of the objects whose lines name it, with the token (as for [`Reference`]).
    pub(super) owners: Vec<(Name, &'static str)>,
    /// The token that names it first.
    pub(super) token: &'static str,
    /// Its sub-token (`LANGUAGE` of `ADD:LANGUAGE|…`), if the table's row has one.
    pub(super) sub: Option<&'static str>,
}

impl GroupReference {
    /// The token as a report names it: `CSKILL`, `ADD:LANGUAGE`.
    pub(super) fn token_name(&self) -> String {
        match self.sub {
            Some(sub) => format!("{}:{sub}", self.token),
            None => self.token.to_owned(),
        }
    }
}

/// Every name the tokens of `lines` (a file of `kind` whose text is `text`) give, each once,
/// and every group of objects they name.
pub(super) fn references(
    lines: &[Line],
    text: &str,
    kind: FileKind,
    owners: &[Option<Name>],
    looked_up: &[bool],
) -> (Vec<Reference>, Vec<GroupReference>) {
    let applies = |r: &Row| r.applies(kind) && r.checked();
    let mut found = Found::default();
    // Kit lines are tokens from their first column on; other lines start with a name.
    let skip = usize::from(kind != FileKind::Kit);
    for (i, line) in lines.iter().enumerate() {
        let owner = owners.get(i).cloned().flatten();
        let base = !looked_up.get(i).copied().unwrap_or(false);
        for t in line.tokens.iter().skip(skip) {
            let Some(token) = text.get(t.range()) else {
                continue;
            };
            let start = t.range().start;
            let mut give = |row: &'static Row, value: &str, at: usize| {
                let (value, at) = match &row.sub {
                    Some(sub) => match value.strip_prefix(sub.as_str()) {
                        Some(rest) if rest.starts_with('|') => (&rest[1..], at + sub.len() + 1),
                        _ => return,
                    },
                    None => (value, at),
                };
                let value = without_pres(value);
                if row.groups.monster {
                    let span = Span::new(t.file, at..at + value.len());
                    found.group(row, Members::MonsterClasses, value, span, owner.as_ref());
                }
                names(row.shape, value, at, &mut |s, at| {
                    found.add(row, s, Span::new(t.file, at..at), owner.as_ref(), base);
                });
            };
            if let Some((name, value)) = token.split_once(':') {
                let rows = BY_TOKEN.get(name).map_or(&[][..], Vec::as_slice);
                for row in rows.iter().copied().filter(|r| !r.is_pre() && applies(r)) {
                    give(row, value, start + name.len() + 1);
                }
            }
            if crate::load::prerequisites::may_hold_one(token) {
                for pre in crate::load::prerequisites::embedded(token) {
                    let rows = BY_TOKEN.get(pre.name).map_or(&[][..], Vec::as_slice);
                    for row in rows.iter().copied().filter(|r| r.is_pre() && applies(r)) {
                        give(row, pre.value, start + pre.value_start);
                    }
                }
            }
        }
    }
    (found.out, found.groups)
}

/// The names found so far in one file, each once.
#[derive(Default)]
struct Found {
    out: Vec<Reference>,
    /// The groups, each once.
    groups: Vec<GroupReference>,
    /// The owners and tokens each group of `groups` has (by its place).
    group_owned: crate::fxhash::FxHashSet<(usize, Name, &'static str)>,
    /// Where each name of each kind (and whether PCGen looks it up only when a
    /// prerequisite is tested) is in `out`.
    at_of: crate::fxhash::FxHashMap<
        (FileKind, bool),
        indexmap::IndexMap<Name, usize, crate::fxhash::FxBuildHasher>,
    >,
    /// The owners and tokens each reference of `out` has (by its place): a name a file
    /// gives on thousands of lines is told from its owners' list without searching it.
    owned: crate::fxhash::FxHashSet<(usize, Name, &'static str)>,
}

impl Found {
    /// Counts the item `s` (starting where `at` starts) a token gives as `row` says, on the
    /// line of the object `owner`.
    fn add(&mut self, row: &'static Row, s: &str, at: Span, owner: Option<&Name>, base: bool) {
        let Some((lead, text)) = key_in(row, s) else {
            let text = s.trim();
            if let Some(members) = row.groups.group(row.target, text) {
                let start = at.range().start + (s.len() - s.trim_start().len());
                let span = Span::new(at.file, start..start + text.len());
                self.group(row, members, text, span, owner);
            }
            return;
        };
        if row.groups_only {
            return;
        }
        // A name given before is found by its text: no `Name` is made for it. A PREFACT's
        // FACT is kept per use: PCGen stops at the first unknown FACT of each.
        let seen = self.at_of.entry((row.target, row.tested)).or_default();
        let known = (row.target != FileKind::DataControl)
            .then(|| seen.get(&crate::name::NameStr(text)).copied())
            .flatten();
        let i = match known {
            Some(i) => i,
            None => {
                let name = Name::new(text);
                seen.insert(name.clone(), self.out.len());
                let start = at.range().start + lead;
                self.out.push(Reference {
                    target: row.target,
                    name: Written {
                        name,
                        span: Span::new(at.file, start..start + text.len()),
                    },
                    uses: 0,
                    owners: Vec::new(),
                    on_base_line: false,
                    found_in: Default::default(),
                    token: row.token.as_str(),
                    tested: row.tested,
                });
                self.out.len() - 1
            }
        };
        if let Some(r) = self.out.get_mut(i) {
            r.uses += 1;
            r.on_base_line |= base;
            if let Some(o) = owner {
                let by = row.token.as_str();
                if self.owned.insert((i, o.clone(), by)) {
                    r.owners.push((o.clone(), by));
                }
            }
        }
    }
}

impl Found {
    /// Counts a use of the group `members`, written `text` at `span`.
    fn group(
        &mut self,
        row: &'static Row,
        members: Members,
        text: &str,
        span: Span,
        owner: Option<&Name>,
    ) {
        let i = match self.groups.iter().position(|g| g.members == members) {
            Some(i) => i,
            None => {
                self.groups.push(GroupReference {
                    members,
                    written: Written {
                        name: Name::new(text),
                        span,
                    },
                    uses: 0,
                    owners: Vec::new(),
                    token: row.token.as_str(),
                    sub: row.sub.as_deref(),
                });
                self.groups.len() - 1
            }
        };
        if let Some(g) = self.groups.get_mut(i) {
            g.uses += 1;
            if let Some(o) = owner {
                let by = row.token.as_str();
                if self.group_owned.insert((i, o.clone(), by)) {
                    g.owners.push((o.clone(), by));
                }
            }
        }
    }
}

/// The key the item `s` of a token value names as `row` reads it, with how many bytes of
/// the item come before it; `None` for a group, a choice or a word that is no name.
fn key_in<'s>(row: &Row, s: &'s str) -> Option<(usize, &'s str)> {
    if is_group(s.trim()) {
        return None;
    }
    let (skipped, s) = key_of(row.target, s);
    let lead = skipped + s.len() - s.trim_start().len();
    let text = s.trim();
    // A word of `except` ending in `.` is a prefix (`PANTHEON.`).
    let except = |w: &String| {
        w == text || (w.ends_with('.') && text.len() > w.len() && text.starts_with(w.as_str()))
    };
    (!is_group(text) && !row.except.iter().any(except)).then_some((lead, text))
}

/// A name an old-system token's value gives, as `token-references.tsv` reads it: what the
/// editor resolves under the cursor and completes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameInToken<'t> {
    /// Its bytes in the token's text (the key alone: trimmed, without `BASE.` and the like).
    pub range: std::ops::Range<usize>,
    /// The kind of object it names (`FEAT`: an ability of category FEAT).
    pub target: FileKind,
    /// The ability category the token names with it (`ABILITY:FEAT|…`,
    /// `PREABILITY:1,CATEGORY=FEAT,…`), for a name of an ability.
    pub category: Option<&'t str>,
}

/// Every name `token` (a token's whole text, on a line of a `kind` file) gives, in the
/// order the table finds them, prerequisites inside its value included. Unlike the
/// checker's pass, names of abilities are given too.
///
/// ```
/// use rulebook::load::FileKind;
/// use rulebook::model::references::names_in_token;
/// let token = "ABILITY:FEAT|AUTOMATIC|Dodge|PREABILITY:1,CATEGORY=FEAT,Power Attack";
/// let names: Vec<(&str, Option<&str>)> = names_in_token(FileKind::Class, token)
///     .iter()
///     .map(|n| (&token[n.range.clone()], n.category))
///     .collect();
/// assert_eq!(names, [("Dodge", Some("FEAT")), ("Power Attack", Some("FEAT"))]);
/// ```
pub fn names_in_token<'t>(kind: FileKind, token: &'t str) -> Vec<NameInToken<'t>> {
    let mut out = Vec::new();
    let mut give = |row: &'static Row, value: &'t str, at: usize| {
        if row.groups_only {
            return;
        }
        let (value, at) = match &row.sub {
            Some(sub) => match value.strip_prefix(sub.as_str()) {
                Some(rest) if rest.starts_with('|') => (&rest[1..], at + sub.len() + 1),
                _ => return,
            },
            None => (value, at),
        };
        let value = without_pres(value);
        let category = category_in(row.shape, value);
        names(row.shape, value, at, &mut |s, at| {
            if let Some((lead, text)) = key_in(row, s) {
                let start = at + lead;
                out.push(NameInToken {
                    range: start..start + text.len(),
                    target: row.target,
                    category,
                });
            }
        });
    };
    if let Some((name, value)) = token.split_once(':') {
        let rows = BY_TOKEN.get(name).map_or(&[][..], Vec::as_slice);
        for row in rows
            .iter()
            .copied()
            .filter(|r| !r.is_pre() && r.applies(kind))
        {
            give(row, value, name.len() + 1);
        }
    }
    if token.contains("PRE") {
        for pre in crate::load::prerequisites::embedded(token) {
            let rows = BY_TOKEN.get(pre.name).map_or(&[][..], Vec::as_slice);
            for row in rows
                .iter()
                .copied()
                .filter(|r| r.is_pre() && r.applies(kind))
            {
                give(row, pre.value, pre.value_start);
            }
        }
    }
    out
}

/// Where the ability category a value read as `shape` names is, in the value.
fn category_in(shape: Shape, value: &str) -> Option<&str> {
    match shape {
        Shape::Abilities(_, form) => form.category(value.split('|').next()?),
        // A prerequisite's list: its `CATEGORY=` item, if any.
        _ => value
            .split(',')
            .find_map(|f| f.trim().strip_prefix("CATEGORY="))
            .map(str::trim),
    }
}

/// The key an item names, as PCGen's token reads it for objects of `target`, with how many
/// bytes of the item come before it.
fn key_of(target: FileKind, item: &str) -> (usize, &str) {
    match target {
        // `Wizard.Illusionist` names a class's sub-class: the class must exist.
        FileKind::Class => (0, item.split('.').next().unwrap_or(item)),
        // `BONUS:SAVE|BASE.Fortitude`: the base save of the check `Fortitude` (PCGen
        // upper-cases a bonus's info before it strips the prefix).
        FileKind::Save => match item.get(..5) {
            Some(p) if p.eq_ignore_ascii_case("BASE.") => (5, &item[5..]),
            _ => (0, item),
        },
        // A kit's `TEMPLATE:Name[Other]`: `Other` is chosen within `Name`; `Name.REMOVE`
        // takes the template away.
        FileKind::Template => {
            let item = item.split('[').next().unwrap_or(item);
            (0, item.strip_suffix(".REMOVE").unwrap_or(item))
        }
        _ => (0, item),
    }
}

/// Whether an item names a group, a choice or a formula rather than one object.
fn is_group(item: &str) -> bool {
    const WORDS: [&str; 8] = [
        "ALL",
        "ANY",
        "NONE",
        "LIST",
        "CLEAR",
        "HIGHESTLEVELCLASS",
        "DEITYWEAPONS",
        "",
    ];
    WORDS.iter().any(|w| item.eq_ignore_ascii_case(w))
        || item.starts_with('.')
        || item.contains('%')
        // `ARMORTYPE=Light`, `CLASS=Cleric`: a group or an option, not a key.
        || item.contains('=')
        || ["TYPE=", "TYPE.", "!TYPE", "STAT.", "CHOOSE:", "ADDCHOICE:", "REMOVE:"]
            .iter()
            .any(|p| item.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p)))
}

/// The keys a prerequisite's key may name an object of `target` by, as PCGen's parsers
/// split a choice off (`convertKeysToSubKeys`): an ability's `Weapon Focus (Longsword)` is
/// the ability `Weapon Focus` with a choice, or one keyed `Weapon Focus (Longsword)` or
/// `Weapon Focus(Longsword)`; a skill's `Knowledge(history)` is `Knowledge (history)`.
pub(super) fn key_forms(target: FileKind, key: &str) -> Vec<String> {
    let split = key
        .strip_suffix(')')
        .and_then(|k| k.split_once('('))
        .map(|(base, sub)| (base.trim(), sub.trim()));
    match (target, split) {
        (FileKind::Ability, Some((base, sub))) if !base.is_empty() => vec![
            base.to_owned(),
            format!("{base} ({sub})"),
            format!("{base}({sub})"),
        ],
        (FileKind::Skill, Some((base, sub))) if !base.is_empty() => {
            vec![format!("{base} ({sub})")]
        }
        _ => vec![key.to_owned()],
    }
}

/// A prerequisite list's item without its required value: `Knowledge (Arcana)=5` and
/// `Fighter=ANY` are keys with a value; `TYPE=Feat` is a key (PCGen keeps an item whose
/// text after its last `=` is no number and not `ANY` whole).
fn required_key(item: &str) -> &str {
    match item.rsplit_once('=') {
        Some((key, value))
            if value.trim() == "ANY"
                || (!value.trim().is_empty()
                    && value.trim().bytes().all(|b| b.is_ascii_digit())) =>
        {
            key
        }
        _ => item,
    }
}

/// `value` up to its first `|PRExxx`, `|!PRExxx` or `|[…]` field: what follows is a
/// prerequisite, whatever separator the names use (`DOMAINS:Law,War|PREALIGN:LN`).
fn without_pres(value: &str) -> &str {
    let mut rest = value;
    let mut end = 0;
    while let Some(i) = rest.find('|') {
        if is_pre(&rest[i + 1..]) {
            return &value[..end + i];
        }
        end += i + 1;
        rest = &rest[i + 1..];
    }
    value
}

/// Whether a field ends the names: a trailing prerequisite.
fn is_pre(field: &str) -> bool {
    let f = field.trim_start();
    f.starts_with("PRE") || f.starts_with("!PRE") || f.starts_with('[')
}

/// The fields of `value` (at byte `at`) split at `sep`, each with its start, up to the first
/// prerequisite.
fn fields(value: &str, at: usize, sep: char) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for part in value.split(sep) {
        if is_pre(part) {
            break;
        }
        out.push((part, at + start));
        start += part.len() + sep.len_utf8();
    }
    out
}

/// Calls `name` with each name of `value` (at byte `at`) read as `shape`.
fn names(shape: Shape, value: &str, at: usize, name: &mut dyn FnMut(&str, usize)) {
    match shape {
        Shape::List(sep) => {
            for (f, a) in fields(value, at, sep) {
                name(f, a);
            }
        }
        Shape::Field(n, sep) => {
            if let Some((f, a)) = fields(value, at, sep).into_iter().nth(n) {
                for (item, ia) in fields(f, a, ',') {
                    name(item, ia);
                }
            }
        }
        Shape::Head(sep) => {
            let head = value.split(sep).next().unwrap_or("");
            if !is_pre(head) {
                name(head, at);
            }
        }
        Shape::Levels => {
            for (f, a) in fields(value, at, '|') {
                let names_part = f.split('=').next().unwrap_or("");
                for (item, ia) in fields(names_part, a, ',') {
                    name(item, ia);
                }
            }
        }
        Shape::SpellLists => {
            // CLASS|list=level|spells|list=level|spells…: only the spells are names of
            // this row's target (the lists are classes or domains).
            for (i, (f, a)) in fields(value, at, '|').into_iter().enumerate() {
                if i > 0 && i % 2 == 0 {
                    for (item, ia) in fields(f, a, ',') {
                        name(item, ia);
                    }
                }
            }
        }
        Shape::Spells => {
            for (i, (f, a)) in fields(value, at, '|').into_iter().enumerate() {
                let option = ["TIMES=", "TIMEUNIT=", "CASTERLEVEL="]
                    .iter()
                    .any(|p| f.starts_with(p));
                if i == 0 || option {
                    continue;
                }
                // `Spell,DC formula`: the name is before the first comma.
                name(f.split(',').next().unwrap_or(""), a);
            }
        }
        Shape::Eqmods => {
            let mut start = 0;
            for part in value.split('.') {
                if is_pre(part) {
                    break;
                }
                name(part.split('|').next().unwrap_or(""), at + start);
                start += part.len() + 1;
            }
        }
        Shape::Last(sep) => {
            if let Some((f, a)) = fields(value, at, sep).pop() {
                for (item, ia) in fields(f, a, ',') {
                    name(item, ia);
                }
            }
        }
        Shape::Initial => {
            if let Some(c) = value.chars().next() {
                name(&value[..c.len_utf8()], at);
            }
        }
        Shape::PreFact => {
            for (f, a) in fields(value, at, ',').into_iter().skip(2) {
                // PCGen's `FactKey.valueOf` of the text before `=`.
                if let Some((fact, _)) = f.split_once('=') {
                    name(fact, a);
                }
            }
        }
        Shape::Abilities(from, form) => {
            let fields = fields(value, at, '|');
            let written = fields.first().and_then(|(f, _)| form.category(f));
            if written.is_some() {
                for (f, a) in fields.into_iter().skip(from) {
                    name(f, a);
                }
            }
        }
        Shape::PreList(skip) => {
            let mut start = 0;
            for (i, part) in value.split(',').enumerate() {
                let at_part = at + start;
                start += part.len() + 1;
                if i < skip || part.trim().eq_ignore_ascii_case("CHECKMULT") {
                    continue;
                }
                // A `:` is a token run into the value (a space where a tab belongs,
                // `PRECLASS:1,Oracle=19 DESC:…`): no key follows.
                if part.contains(':') {
                    break;
                }
                // `[key]`, `[a,b]`: keys negated within the list.
                let (lead, key) = match part.trim_start().strip_prefix('[') {
                    Some(rest) => (part.len() - rest.len(), rest),
                    None => (0, part),
                };
                let key = key.trim_end().trim_end_matches(']');
                name(required_key(key), at_part + lead);
            }
        }
        Shape::KitSpells => {
            for (f, a) in fields(value, at, '|') {
                if ["SPELLBOOK=", "CLASS="].iter().any(|p| f.starts_with(p)) {
                    continue;
                }
                // `Spell[Metamagic Feat]=2`: the spell is before any `[` or `=`.
                let end = f.find(['[', '=']).unwrap_or(f.len());
                name(&f[..end], a);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::text::{LineMode, lines};
    use crate::source::FileId;

    fn refs(kind: FileKind, text: &str) -> Vec<String> {
        let lines = lines(FileId(0), text, LineMode::Object);
        let owners = vec![None; lines.len()];
        references(&lines, text, kind, &owners, &vec![false; lines.len()])
            .0
            .iter()
            .map(|r| {
                let at = text.get(r.name.span.range()).unwrap_or("?");
                format!("{} {}@{} x{}", r.target.token(), r.name.name, at, r.uses)
            })
            .collect()
    }

    /// `names_in_token` as `text kind category` strings.
    fn named(kind: FileKind, token: &str) -> Vec<String> {
        names_in_token(kind, token)
            .iter()
            .map(|n| {
                let cat = n.category.unwrap_or("-");
                format!("{} {} {cat}", &token[n.range.clone()], n.target.token())
            })
            .collect()
    }

    #[test]
    fn the_editor_reads_ability_keys_with_their_category() {
        assert_eq!(
            named(
                FileKind::Class,
                "ABILITY:Special Ability|AUTOMATIC|Bite| Talons |%LIST|PREVARGT:TL,1"
            ),
            [
                "Bite ABILITY Special Ability",
                "Talons ABILITY Special Ability"
            ]
        );
        assert_eq!(
            named(
                FileKind::Feat,
                "PREABILITY:1,CATEGORY=FEAT,Exotic Weapon Proficiency (Sword (Bastard)),TYPE.Combat"
            ),
            ["Exotic Weapon Proficiency (Sword (Bastard)) ABILITY FEAT"]
        );
        assert_eq!(
            named(
                FileKind::Race,
                "BONUS:SKILL|Climb|2|!PREABILITY:1,CATEGORY=FEAT,Dodge"
            ),
            ["Climb SKILL -", "Dodge ABILITY FEAT"]
        );
        assert_eq!(
            named(FileKind::Kit, "ABILITY:CATEGORY=FEAT|Weapon Finesse"),
            ["Weapon Finesse ABILITY FEAT"]
        );
        assert_eq!(
            named(FileKind::Class, "SERVESAS:ABILITY=FEAT|Dodge|Mobility"),
            ["Dodge ABILITY FEAT", "Mobility ABILITY FEAT"]
        );
        assert_eq!(
            named(FileKind::Class, "SERVESAS:CLASS|Wizard"),
            Vec::<String>::new()
        );
        // PREFEAT names abilities without a category: the editor looks in FEAT.
        assert_eq!(
            named(FileKind::Race, "PREFEAT:1,Dodge"),
            ["Dodge ABILITY -"]
        );
        // The checker does not resolve them (yet): they give no reference.
        assert_eq!(
            refs(FileKind::Class, "Fighter\tABILITY:FEAT|AUTOMATIC|Dodge\n"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn kit_lines_take_only_kit_rows_and_prerequisites() {
        let text =
            "STARTPACK:Cleric Kit\nSPELLS:SPELLBOOK=Prepared|CLASS=Cleric|Bless=1\nRACE:Elf\n";
        assert_eq!(
            refs(FileKind::Kit, text),
            ["SPELL Bless@Bless x1", "RACE Elf@Elf x1"]
        );
    }

    #[test]
    fn the_table_reads_whole() {
        let rows = include_str!("token-references.tsv")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        assert_eq!(ROWS.len(), rows - 1, "a row of the table did not parse");
    }

    #[test]
    fn finds_the_names_of_each_shape() {
        let text = "Wizard Spell\tCLASSES:Sorcerer,Wizard=1|Witch=2\tDOMAINS:Fire=3|PRExxx:1\n";
        assert_eq!(
            refs(FileKind::Spell, text),
            [
                "CLASS Sorcerer@Sorcerer x1",
                "CLASS Wizard@Wizard x1",
                "CLASS Witch@Witch x1",
                "DOMAIN Fire@Fire x1",
            ]
        );
        let text = "CLASS:Monk\tCSKILL:Climb|TYPE=Craft|Clkimb\tSPELLLEVEL:CLASS|Monk=1|Light,Shield|Monk=2|Web|PRELEVEL:MIN=3\n\
                    1\tSPELLS:Innate|TIMES=1|CASTERLEVEL=TL|Daze,10+INT|Light\tBONUS:SKILL|Climb,%LIST|2\n";
        assert_eq!(
            refs(FileKind::Class, text),
            [
                "SKILL Climb@Climb x2",
                "SKILL Clkimb@Clkimb x1",
                "SPELL Light@Light x2",
                "SPELL Shield@Shield x1",
                "SPELL Web@Web x1",
                "SPELL Daze@Daze x1",
            ]
        );
        let text = "Sword\tEQMOD:Material ~ Steel.Masterwork|x\tBASEITEM:Sword (Base)\n";
        assert_eq!(
            refs(FileKind::Equipment, text),
            [
                "EQUIPMOD Material ~ Steel@Material ~ Steel x1",
                "EQUIPMOD Masterwork@Masterwork x1",
                "EQUIPMENT Sword (Base)@Sword (Base) x1",
            ]
        );
        let text = "Elf\tMONSTERCLASS:Fey:2\tAUTO:LANG|Common|Elven\tLANGBONUS:Orc,TYPE=Spoken|PREALIGN:LG,NG\n";
        assert_eq!(
            refs(FileKind::Race, text),
            [
                "CLASS Fey@Fey x1",
                "LANGUAGE Common@Common x1",
                "LANGUAGE Elven@Elven x1",
                "LANGUAGE Orc@Orc x1",
            ]
        );
    }

    #[test]
    fn prerequisites_name_sizes_wherever_they_sit() {
        let text = "Spider\tSIZE:M\tBONUS:SKILL|Hide|4|PRESIZELTEQ:Small\t\
                    PREMULT:1,[PRESIZEEQ:L],[!PRESIZEEQ:H]\tDESC:Big|!PRESIZEGT:G\tPREFOO:PRESIZEEQ:X\n";
        assert_eq!(
            refs(FileKind::Race, text),
            [
                "SIZE M@M x1",
                "SKILL Hide@Hide x1",
                "SIZE S@S x1",
                "SIZE L@L x1",
                "SIZE H@H x1",
                "SIZE G@G x1",
            ]
        );
        // Kit lines read prerequisites too, and a kit's `SIZE:PC` is the character's size.
        let text = "GEAR:Longsword\tSIZE:PC\tEQMOD:PLUS1W\tPRESIZEEQ:T\n";
        assert_eq!(
            refs(FileKind::Kit, text),
            [
                "EQUIPMENT Longsword@Longsword x1",
                "EQUIPMOD PLUS1W@PLUS1W x1",
                "SIZE T@T x1"
            ]
        );
    }

    #[test]
    fn add_tokens_take_their_last_field_and_spell_types_are_not_classes() {
        let text = "Gift\tADD:LANGUAGE|2|Elven,Orc\tADD:SPELLCASTER|Arcane,Bard,arcane\tBONUS:SAVE|BASE.Fortitude,Base.Will,ALL|1\n";
        assert_eq!(
            refs(FileKind::Feat, text),
            [
                "LANGUAGE Elven@Elven x1",
                "LANGUAGE Orc@Orc x1",
                "CLASS Bard@Bard x1",
                "CLASS arcane@arcane x1",
                "SAVE Fortitude@Fortitude x1",
                "SAVE Will@Will x1",
            ]
        );
    }

    #[test]
    fn kit_spells_stats_and_alignments() {
        let text = "SPELLS:SPELLBOOK=Known|CLASS=Wizard|Daze|Shield[Extend Spell]=2\tSTAT:STR=15|DEX=max(1,2)\tALIGN:LG|CN\tTEMPLATE:Lycanthrope[Hybrid]\n";
        assert_eq!(
            refs(FileKind::Kit, text),
            [
                "SPELL Daze@Daze x1",
                "SPELL Shield@Shield x1",
                "STAT STR@STR x1",
                "STAT DEX@DEX x1",
                "ALIGNMENT LG@LG x1",
                "ALIGNMENT CN@CN x1",
                "TEMPLATE Lycanthrope@Lycanthrope x1",
            ]
        );
    }
}
