//! What the first column of an object line says, as PCGen's `LstObjectFileLoader` reads it:
//! an object made (with the key it is known by and, for abilities, its category), or a
//! `.COPY=`, `.MOD` or `.FORGET` of another object. Worked out once per file and run.

use crate::load::cache::CachedFile;
use crate::load::loadset::line_mode;
use crate::load::{FileKind, Line};
use crate::name::Name;
use crate::source::Span;
use std::sync::Arc;

/// The name under which a file's heads are kept in the file cache.
const DERIVED: &str = "model::references::heads";

/// A name as written in a file, trimmed, with its span (in the cache's file: place it with
/// [`crate::load::cache::FileLines::place`]).
#[derive(Clone, Debug)]
pub(super) struct Written {
    /// The text, compared without regard to case.
    pub(super) name: Name,
    /// Where it is.
    pub(super) span: Span,
}

/// The object a `.COPY=`, `.MOD` or `.FORGET` line looks up.
#[derive(Clone, Debug)]
pub(super) struct Target {
    /// `CATEGORY=cat|` before an ability's key, when written.
    pub(super) category: Option<Written>,
    /// The key looked up.
    pub(super) key: Written,
    /// True for an ability target written without `CATEGORY=cat|`, which PCGen cannot look
    /// up ("Attempt to Modify/Copy/Forget an Ability without a CATEGORY=").
    pub(super) no_category: bool,
}

/// What one object line does.
#[derive(Clone, Debug)]
pub(super) enum Head {
    /// Makes an object known by `key`; `category` is an ability's `CATEGORY:` token, `None`
    /// when an ability line has none (PCGen then drops the line).
    Make {
        /// The `KEY:` token's value, else the name column.
        key: Written,
        /// The `CATEGORY:` token of an ability line (its value).
        category: Option<Written>,
    },
    /// `Base.COPY=New`: makes `new` from `base`.
    Copy {
        /// The object copied.
        base: Target,
        /// The new object's key.
        new: Written,
    },
    /// `Key.MOD`.
    Mod(Target),
    /// `Key.FORGET` (PCGen never reports a missing one).
    Forget(Target),
}

/// One object line of a file.
#[derive(Debug)]
pub(super) struct HeadLine {
    /// The line's first token.
    pub(super) first: Span,
    /// What it does.
    pub(super) head: Head,
    /// For a `.COPY=`/`.MOD`: where a load set found the object it looks up before.
    pub(super) found_in: Hint,
}

/// Where a load set found an object before: the [`FileObjects::id`] of the file that made
/// it and the group it is in, packed in one word (0 for none). A later load set holding
/// that file whole finds the object there with one look-up instead of searching every file
/// of the kind. Only a hint, shared by the load sets checked in parallel: it is believed
/// only when that file is here, kept whole, and its group is in the same namespace.
#[derive(Debug, Default)]
pub(super) struct Hint(std::sync::atomic::AtomicU64);

impl Hint {
    /// The file's id and the group, if any.
    pub(super) fn get(&self) -> Option<(u64, usize)> {
        let word = self.0.load(std::sync::atomic::Ordering::Relaxed);
        (word != 0).then(|| (word >> 16, usize::from(word as u16)))
    }

    /// Remembers where the object was found (not when the numbers do not fit the word).
    pub(super) fn set(&self, file: u64, group: usize) {
        if let (Ok(group), true) = (u16::try_from(group), file < 1 << 48) {
            let word = (file << 16) | u64::from(group);
            self.0.store(word, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// The object lines of one file read as one kind.
#[derive(Debug, Default)]
pub(super) struct FileHeads {
    /// In file order.
    pub(super) lines: Vec<HeadLine>,
}

impl FileHeads {
    /// Reads `lines` of a file whose text is `text` as object lines of `kind`.
    #[cfg(test)]
    pub(super) fn read(lines: &[Line], text: &str, kind: FileKind) -> FileHeads {
        Self::read_with_owners(lines, text, kind).0
    }

    /// The heads of `lines`, with the key of the object each line belongs to (the object it
    /// makes, copies to or modifies; a class level line or kit line belongs to the object
    /// before it), for a file entry's `(INCLUDE:…)`/`(EXCLUDE:…)` to keep or drop what the
    /// line says; and whether each line belongs to a `.COPY=`/`.MOD`/`.FORGET` line, which
    /// PCGen reads only when it applies it.
    fn read_with_owners(
        lines: &[Line],
        text: &str,
        kind: FileKind,
    ) -> (FileHeads, Vec<Option<Name>>, Vec<bool>) {
        let mut heads = Vec::new();
        let mut owners = Vec::with_capacity(lines.len());
        let mut looked_up = Vec::with_capacity(lines.len());
        let mut owner = None;
        let mut looks_up = false;
        for line in lines {
            if let Some(h) = head_line(line, text, kind) {
                owner = Some(match &h.head {
                    Head::Make { key, .. } => key.name.clone(),
                    Head::Copy { new, .. } => new.name.clone(),
                    Head::Mod(t) | Head::Forget(t) => t.key.name.clone(),
                });
                looks_up = !matches!(h.head, Head::Make { .. });
                heads.push(h);
            }
            owners.push(owner.clone());
            looked_up.push(looks_up);
        }
        (FileHeads { lines: heads }, owners, looked_up)
    }
}

/// A category a file's tokens name.
#[derive(Debug)]
pub(super) struct NamedCategory {
    /// The category (first use).
    pub(super) name: Written,
    /// How many uses (PCGen looks an `ABILITY:` token's category up while it parses the
    /// line, whether a filtered entry keeps its object or not).
    pub(super) uses: usize,
    /// A `BONUS:ABILITYPOOL` category: PCGen checks a pool once the objects are kept, so a
    /// filtered entry counts only those it keeps (the one `Rot Grub Swarm` that
    /// `_oracle's_curse.pcc` takes from Bestiary 3 names no other pool).
    pub(super) pool: bool,
    /// Whether a base line (one that makes an object) names it in a token PCGen reads as
    /// it parses the line: counted whatever a filtered entry keeps.
    pub(super) always: bool,
    /// The objects whose other lines name it (pools, and `.MOD`/`.COPY=` lines, which
    /// PCGen reads only when it applies them): counted when a filtered entry keeps one.
    pub(super) owners: Vec<Name>,
}

/// The objects one file makes, grouped by the category its lines name (abilities) or in one
/// group (every other kind), with the lines that look objects up. It depends on the file
/// alone, so it is worked out once per run and a load set only looks keys up in it: a core
/// rulebook is listed by hundreds of load sets.
#[derive(Debug, Default)]
pub(super) struct FileObjects {
    /// This file's number in the run (from 1), for [`Hint`]s.
    pub(super) id: u64,
    /// The objects made, by category as written (`None`: not an ability file's line).
    pub(super) groups: Vec<Group>,
    /// Ability lines without `CATEGORY:`: their first token and key.
    pub(super) no_category: Vec<(Span, Written)>,
    /// The `.COPY=`, `.MOD` and `.FORGET` lines that look up objects other files may
    /// make, in file order.
    pub(super) deferred: Vec<HeadLine>,
    /// The categories this file's `ABILITY:cat|…` and `BONUS:ABILITYPOOL|cat|…` tokens
    /// name (each once, at its first use, with the number of uses).
    pub(super) named_categories: Vec<NamedCategory>,
    /// The objects this file's token values name (`token-references.tsv`), each once.
    pub(super) references: Vec<super::tokens::Reference>,
    /// The groups of objects this file's token values name (`TYPE=Perform`), each once.
    pub(super) group_references: Vec<super::tokens::GroupReference>,
    /// The distinct type sets of the objects this file makes (by [`object_types_of`]), for a
    /// kind a group may name by type: what a group is matched against in a load set that
    /// keeps the file whole. Only these are kept for the run (each object's own list is
    /// worked out again when a group is not found so, which is rare).
    pub(super) type_sets: Vec<Vec<Name>>,
    /// The `.COPY=` and `.MOD` lines whose object this file makes itself (in the same
    /// category as written): found in every load set whose entry keeps the file whole, so a
    /// load set reads them only when its entry filters the file. Every copy's new key is in
    /// [`FileObjects::groups`] (a copy of a copy a later file makes is found, where PCGen,
    /// making copies in file order, would not).
    pub(super) own: Vec<HeadLine>,
    /// `Key.MOD` lines' `TOKEN:.CLEAR` and `TOKEN:.CLEAR.Name`s: (the key, the token, the
    /// name or `None` for all). PCGen forgets what the token gave before, names it could
    /// not find included.
    pub(super) clears: Vec<(Name, String, Option<Name>)>,
    /// Objects of other kinds this file's tokens make as they are read: a
    /// `NATURALATTACKS:` entry's weapon proficiency, a `SUBCLASS:` line's spell list (named
    /// as a class by a spell's `CLASSES:`).
    pub(super) also_makes: Vec<(FileKind, Name)>,
}

/// The objects of one category made by one file.
#[derive(Debug)]
pub(super) struct Group {
    /// The category as first written (`CATEGORY:` value), `None` outside ABILITY files.
    pub(super) category: Option<Written>,
    /// How many lines name it.
    pub(super) lines: usize,
    /// Each key, with the span that made it first.
    pub(super) keys: crate::fxhash::FxHashMap<Name, Span>,
    /// The closest key to each name asked about (`closest_with_distance`), kept for the
    /// run: the same missing names are looked for in the same files by many load sets.
    suggestions: std::sync::Mutex<crate::fxhash::FxHashMap<Name, Option<(usize, Name)>>>,
}

impl Group {
    /// The key of this group closest to `name`, with its edit distance (see
    /// [`crate::name::closest_with_distance`]), searched once per name and run.
    pub(super) fn closest(&self, name: &Name) -> Option<(usize, Name)> {
        let memo = || {
            // A panic while the lock was held cannot leave the map half-changed.
            self.suggestions
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if let Some(known) = memo().get(name) {
            return known.clone();
        }
        let found =
            crate::name::closest_with_distance(name.as_str(), self.keys.keys().map(Name::as_str))
                .map(|(d, c)| (d, Name::new(c)));
        memo().insert(name.clone(), found.clone());
        found
    }
}

impl FileObjects {
    /// The objects of `file` read as `kind`, computed once per file, kind and run.
    pub(super) fn of(file: &CachedFile, kind: FileKind) -> Arc<FileObjects> {
        file.derived(DERIVED, kind as u32, |f| {
            let lines = f.shared_lines(line_mode(kind));
            let text = &f.source().text;
            let (heads, owners, looked_up) = FileHeads::read_with_owners(lines, text, kind);
            let types = (super::tokens::typed_kinds().contains(&kind))
                .then(|| object_types(lines, text, kind, &owners, &heads));
            let mut objects = FileObjects::from_heads(heads, kind);
            objects.named_categories = named_categories(lines, text, kind, &owners);
            (objects.references, objects.group_references) =
                super::tokens::references(lines, text, kind, &owners, &looked_up);
            if let Some(types) = types {
                let made = |key: &Name| objects.groups.iter().any(|g| g.keys.contains_key(key));
                let mut sets: Vec<Vec<Name>> = types
                    .into_iter()
                    .filter(|(key, _)| made(key))
                    .map(|(_, types)| types)
                    .collect();
                sets.sort_by(|a, b| a.iter().map(Name::as_str).cmp(b.iter().map(Name::as_str)));
                sets.dedup();
                objects.type_sets = sets;
            }
            objects.also_makes = also_makes(lines, text, kind);
            objects.clears = clears(lines, text, kind);
            objects
        })
    }

    fn from_heads(heads: FileHeads, kind: FileKind) -> FileObjects {
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let mut objects = FileObjects {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            ..FileObjects::default()
        };
        let mut looked_up = Vec::new();
        for line in heads.lines {
            match line.head {
                Head::Make { key, category } => {
                    if kind == FileKind::Ability && category.is_none() {
                        objects.no_category.push((line.first, key));
                        continue;
                    }
                    objects.add(category, key, true);
                }
                _ => looked_up.push(line),
            }
        }
        // PCGen makes every copy (in file order) before it applies any mod.
        let (copies, rest): (Vec<_>, Vec<_>) = looked_up
            .into_iter()
            .partition(|l| matches!(l.head, Head::Copy { .. }));
        for line in copies.into_iter().chain(rest) {
            let own = match &line.head {
                Head::Copy { base, new } => {
                    // A copy is known even when its base is missing (its own mods are
                    // consequences of that one error), so every copy makes its key.
                    let own = objects.makes(base);
                    objects.add(base.category.clone(), new.clone(), false);
                    own
                }
                Head::Mod(target) => objects.makes(target),
                _ => false,
            };
            if own {
                objects.own.push(line);
            } else {
                objects.deferred.push(line);
            }
        }
        objects
    }

    /// Whether this file makes the object `target` looks up (same category as written).
    fn makes(&self, target: &Target) -> bool {
        !target.no_category
            && self.groups.iter().any(|g| {
                g.category.as_ref().map(|c| &c.name) == target.category.as_ref().map(|c| &c.name)
                    && g.keys.contains_key(&target.key.name)
            })
    }

    /// Adds `key` to the group of `category` (made by a line when `line` is true, which
    /// counts the line as naming the category).
    fn add(&mut self, category: Option<Written>, key: Written, line: bool) {
        let same =
            |g: &Group| g.category.as_ref().map(|c| &c.name) == category.as_ref().map(|c| &c.name);
        let group = match self.groups.iter().position(same) {
            Some(i) => i,
            None => {
                self.groups.push(Group {
                    category,
                    lines: 0,
                    keys: Default::default(),
                    suggestions: Default::default(),
                });
                self.groups.len() - 1
            }
        };
        if let Some(g) = self.groups.get_mut(group) {
            g.lines += usize::from(line);
            g.keys.entry(key.name).or_insert(key.span);
        }
    }
}

/// The categories named by the `ABILITY:cat|…`, `ADD:ABILITY|[n|]cat|…`,
/// `CHOOSE:ABILITY[SELECTION]|cat|…` and `BONUS:ABILITYPOOL|cat[,cat]|…` tokens of `lines`
/// (every line: class level lines grant abilities too), each once with its count.
/// PCGen checks a pool's category only on objects it keeps whole (equipment, templates,
/// abilities …), not on a class's lines, whose bonuses live in its levels: its load log has
/// no class among the 13 it reports.
fn named_categories(
    lines: &[Line],
    text: &str,
    kind: FileKind,
    owners: &[Option<Name>],
) -> Vec<NamedCategory> {
    let mut named: Vec<NamedCategory> = Vec::new();
    // Kit lines are tokens from their first column on, and write `ABILITY:CATEGORY=cat|key`.
    let skip = usize::from(kind != FileKind::Kit);
    for (i, line) in lines.iter().enumerate() {
        let owner = owners.get(i).cloned().flatten();
        // What the line does, worked out only when a token names a category: makes its
        // object (`Some(true)`), looks one up (`Some(false)`), or fails (`None`: an ability
        // without `CATEGORY:`, whose tokens PCGen never reads).
        let mut base: Option<Option<bool>> = None;
        let mut add = |w: Written, pool: bool| {
            if w.name.as_str().is_empty() || w.name.as_str().starts_with('.') {
                return;
            }
            let does = *base.get_or_insert_with(|| match head_line(line, text, kind) {
                Some(HeadLine {
                    head: Head::Make { category: None, .. },
                    ..
                }) if kind == FileKind::Ability => None,
                Some(h) => Some(matches!(h.head, Head::Make { .. })),
                None => Some(true),
            });
            let Some(makes) = does else {
                return;
            };
            let always = !pool && makes;
            let same = |n: &NamedCategory| n.name.name == w.name && n.pool == pool;
            let at = match named.iter().position(same) {
                Some(at) => at,
                None => {
                    named.push(NamedCategory {
                        name: w,
                        uses: 0,
                        pool,
                        always: false,
                        owners: Vec::new(),
                    });
                    named.len() - 1
                }
            };
            if let Some(n) = named.get_mut(at) {
                n.uses += 1;
                n.always |= always;
                if let Some(o) = owner.as_ref().filter(|_| !always) {
                    if !n.owners.contains(o) {
                        n.owners.push(o.clone());
                    }
                }
            }
        };
        for t in line.tokens.iter().skip(skip) {
            let value = slice(text, *t);
            let start = t.range().start;
            if kind == FileKind::Kit {
                if let Some(v) = value.strip_prefix("ABILITY:CATEGORY=") {
                    let cat = v.split('|').next().unwrap_or("");
                    add(written(cat, start + "ABILITY:CATEGORY=".len(), *t), false);
                }
            } else if let Some(v) = value.strip_prefix("ABILITY:") {
                let cat = v.split('|').next().unwrap_or("");
                add(written(cat, start + "ABILITY:".len(), *t), false);
            } else if let Some((prefix, v)) = ["CHOOSE:ABILITY|", "CHOOSE:ABILITYSELECTION|"]
                .iter()
                .find_map(|p| Some((*p, value.strip_prefix(p)?)))
            {
                let cat = v.split('|').next().unwrap_or("");
                add(written(cat, start + prefix.len(), *t), false);
            } else if let Some(v) = value.strip_prefix("ADD:ABILITY|") {
                // `ADD:ABILITY|[count|]category|…`.
                let mut at = start + "ADD:ABILITY|".len();
                let mut fields = v.split('|');
                let mut cat = fields.next().unwrap_or("");
                if !cat.is_empty() && cat.bytes().all(|b| b.is_ascii_digit()) {
                    at += cat.len() + 1;
                    cat = fields.next().unwrap_or("");
                }
                add(written(cat, at, *t), false);
            } else if let Some(v) = value
                .strip_prefix("BONUS:ABILITYPOOL|")
                .filter(|_| kind != FileKind::Class)
            {
                let mut at = start + "BONUS:ABILITYPOOL|".len();
                for cat in v.split('|').next().unwrap_or("").split(',') {
                    add(written(cat, at, *t), true);
                    at += cat.len() + 1;
                }
            }
        }
    }
    named
}

/// The name under which a file's [`object_types_of`] are kept in the file cache.
const TYPES: &str = "model::references::object_types";

/// The types each object of `file` (read as `kind`) has by its lines there (`TYPE:` on the
/// lines that make, copy to or modify it; a class's `ISMONSTER:YES` as [`MONSTER_MARK`]),
/// each key once, in the order first met; worked out once per file and run, when first asked.
pub(super) fn object_types_of(file: &CachedFile, kind: FileKind) -> Arc<Vec<(Name, Vec<Name>)>> {
    file.derived(TYPES, kind as u32, |f| {
        let lines = f.shared_lines(line_mode(kind));
        let text = &f.source().text;
        let (heads, owners, _) = FileHeads::read_with_owners(lines, text, kind);
        object_types(lines, text, kind, &owners, &heads)
    })
}

/// The type a class with `ISMONSTER:YES` is given in [`object_types_of`]: no
/// `TYPE:` can write it (a type has no `:`).
pub(super) const MONSTER_MARK: &str = "ISMONSTER:YES";

/// What [`object_types_of`] says: the types of each object `lines` make or
/// change, read as PCGen's `TYPE:` token reads them (dot-separated; `.CLEAR` and `ADD` are
/// no types, `REMOVE.x` takes `x` away, which is kept here: a group that some object may
/// join is not reported), and a copy has its base's when this file makes the base. A
/// class's type also comes from its `CLASSTYPE:` and
/// `FACT:ClassType|…` (PCGen's `isMonster` reads both).
fn object_types(
    lines: &[Line],
    text: &str,
    kind: FileKind,
    owners: &[Option<Name>],
    heads: &FileHeads,
) -> Vec<(Name, Vec<Name>)> {
    let mut out: Vec<(Name, Vec<Name>)> = Vec::new();
    let mut at: crate::fxhash::FxHashMap<Name, usize> = Default::default();
    let skip = usize::from(kind != FileKind::Kit);
    for (i, line) in lines.iter().enumerate() {
        let Some(owner) = owners.get(i).cloned().flatten() else {
            continue;
        };
        let mut types: Vec<&str> = Vec::new();
        for t in line.tokens.iter().skip(skip) {
            let value = slice(text, *t);
            if let Some(v) = value.strip_prefix("TYPE:") {
                types.extend(
                    v.split('.')
                        .map(str::trim)
                        .filter(|w| !w.is_empty() && !["CLEAR", "ADD", "REMOVE"].contains(w)),
                );
            } else if kind == FileKind::Class {
                if let Some(v) = value.strip_prefix("CLASSTYPE:") {
                    types.push(v.trim());
                } else if let Some(v) = value.strip_prefix("FACT:ClassType|") {
                    types.push(v.trim());
                } else if value
                    .strip_prefix("ISMONSTER:")
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("YES"))
                {
                    types.push(MONSTER_MARK);
                }
            }
        }
        let entry = *at.entry(owner.clone()).or_insert_with(|| {
            out.push((owner, Vec::new()));
            out.len() - 1
        });
        if let Some((_, have)) = out.get_mut(entry) {
            for t in types {
                if !have.iter().any(|h| h.as_str().eq_ignore_ascii_case(t)) {
                    have.push(Name::new(t));
                }
            }
        }
    }
    // A copy has its base's types too, when this file makes the base (in file order).
    for line in &heads.lines {
        if let Head::Copy { base, new } = &line.head {
            let (Some(&from), Some(&to)) = (at.get(&base.key.name), at.get(&new.name)) else {
                continue;
            };
            let inherited = out.get(from).map(|(_, t)| t.clone()).unwrap_or_default();
            if let Some((_, have)) = out.get_mut(to) {
                for t in inherited {
                    if !have.contains(&t) {
                        have.push(t);
                    }
                }
            }
        }
    }
    for (_, types) in &mut out {
        types.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    }
    out
}

/// What [`FileObjects::also_makes`] says: the objects `lines` make besides their own.
fn also_makes(lines: &[Line], text: &str, kind: FileKind) -> Vec<(FileKind, Name)> {
    let mut out = Vec::new();
    for line in lines {
        for (i, t) in line.tokens.iter().enumerate() {
            let value = slice(text, *t);
            if i == 0 && kind == FileKind::Class {
                if let Some(sub) = value.strip_prefix("SUBCLASS:") {
                    out.push((FileKind::Class, Name::new(sub.trim())));
                }
            } else if let Some(v) = value.strip_prefix("NATURALATTACKS:") {
                // `Bite,Weapon.Natural.Melee,*1,1d6|Claw,…`: each attack's name first.
                for attack in v.split('|') {
                    let name = attack.split(',').next().unwrap_or("").trim();
                    if !name.is_empty() {
                        out.push((FileKind::WeaponProf, Name::new(name)));
                    }
                }
            }
        }
    }
    out
}

/// What [`FileObjects::clears`] says: each `Key.MOD` line's `TOKEN:.CLEAR[.Name]` tokens.
fn clears(lines: &[Line], text: &str, kind: FileKind) -> Vec<(Name, String, Option<Name>)> {
    let mut out = Vec::new();
    for line in lines {
        let Some(HeadLine {
            head: Head::Mod(target),
            ..
        }) = head_line(line, text, kind)
        else {
            continue;
        };
        for t in line.tokens.iter().skip(1) {
            let Some((token, value)) = slice(text, *t).split_once(':') else {
                continue;
            };
            for item in value.split('|') {
                let Some(rest) = item.strip_prefix(".CLEAR") else {
                    continue;
                };
                let name = match rest.strip_prefix('.') {
                    Some(name) => Some(Name::new(name.trim())),
                    None if rest.is_empty() => None,
                    None => continue,
                };
                out.push((target.key.name.clone(), token.to_owned(), name));
            }
        }
    }
    out
}

/// The text of `span` in `text` (empty when out of range).
fn slice(text: &str, span: Span) -> &str {
    text.get(span.range()).unwrap_or("")
}

/// `s` (at byte `at` of the file of `file`) trimmed, with its span.
fn written(s: &str, at: usize, file: Span) -> Written {
    let lead = s.len() - s.trim_start().len();
    let t = s.trim();
    Written {
        name: Name::new(t),
        span: Span::new(file.file, at + lead..at + lead + t.len()),
    }
}

/// The value of the token `t` when it is `name` (e.g. `KEY:`), trimmed, with its span.
fn token_value(text: &str, t: Span, name: &str) -> Option<Written> {
    let v = slice(text, t).strip_prefix(name)?;
    Some(written(v, t.range().start + name.len(), t))
}

/// The value of a line's last `KEY:` token (after the first column), which PCGen makes the
/// object's key; for sizes, stats and alignments `ABB:` sets the key too.
fn key_token(line: &Line, text: &str, kind: FileKind) -> Option<Written> {
    let abb_is_key = matches!(kind, FileKind::Size | FileKind::Stat | FileKind::Alignment);
    line.tokens.iter().skip(1).rev().find_map(|t| {
        token_value(text, *t, "KEY:")
            .or_else(|| abb_is_key.then(|| token_value(text, *t, "ABB:")).flatten())
    })
}

/// The head of one line, or `None` for a line that makes and changes no object of the kind
/// (a class level line, a kit component, a `SOURCE` line).
pub(super) fn head_line(line: &Line, text: &str, kind: FileKind) -> Option<HeadLine> {
    let first = *line.tokens.first()?;
    let first_text = slice(text, first);
    // PCGen: `line.startsWith("SOURCE")` is a source line whatever follows.
    if slice(text, line.span).starts_with("SOURCE") {
        return None;
    }
    let is_ability = matches!(kind, FileKind::Ability);
    let at = first.range().start;
    let target = |s: &str, start: usize, strip_token: bool| -> Target {
        // `.MOD` strips a leading `TOKEN:` (`CLASS:Druid.MOD`); an ability's key is
        // `CATEGORY=cat|key`.
        let (mut s, mut start) = (s, start);
        if strip_token {
            if let Some(i) = s.find(':').filter(|i| *i > 0) {
                s = s.get(i + 1..).unwrap_or("");
                start += i + 1;
            }
        }
        if !is_ability {
            return Target {
                category: None,
                key: written(s, start, first),
                no_category: false,
            };
        }
        let parts: Vec<&str> = s.split('|').collect();
        match parts.as_slice() {
            [cat, key] if cat.starts_with("CATEGORY=") => Target {
                category: Some(written(
                    cat.get("CATEGORY=".len()..).unwrap_or(""),
                    start + "CATEGORY=".len(),
                    first,
                )),
                key: written(key, start + cat.len() + 1, first),
                no_category: false,
            },
            _ => Target {
                category: None,
                key: written(s, start, first),
                no_category: true,
            },
        }
    };
    // Most first columns hold no `.`: no `.COPY=`, `.MOD` or `.FORGET` to look for.
    let dotted = first_text.contains('.');
    if let Some(i) = dotted
        .then(|| first_text.find(".COPY"))
        .flatten()
        .filter(|i| *i > 0)
    {
        let base = first_text.get(..i).unwrap_or("");
        let new = first_text.get(i + ".COPY=".len()..).unwrap_or("");
        let new_at = at + (i + ".COPY=".len()).min(first_text.len());
        // The copy is known by the line's `KEY:` when it has one (`Padded Armor (Base).COPY=
        // Padded Armor` with `KEY:Padded`), else by its new name.
        let new = key_token(line, text, kind).unwrap_or_else(|| written(new, new_at, first));
        return Some(HeadLine {
            first,
            head: Head::Copy {
                base: target(base, at, false),
                new,
            },
            found_in: Default::default(),
        });
    }
    if let Some(i) = dotted
        .then(|| first_text.find(".MOD"))
        .flatten()
        .filter(|i| *i > 0)
    {
        let key = first_text.get(..i).unwrap_or("");
        return Some(HeadLine {
            first,
            head: Head::Mod(target(key, at, true)),
            found_in: Default::default(),
        });
    }
    if let Some(i) = dotted
        .then(|| first_text.find(".FORGET"))
        .flatten()
        .filter(|i| *i > 0)
    {
        let key = first_text.get(..i).unwrap_or("");
        return Some(HeadLine {
            first,
            head: Head::Forget(target(key, at, false)),
            found_in: Default::default(),
        });
    }
    // A base line: which lines start an object depends on the kind.
    let name = match kind {
        FileKind::Class => (first_text.strip_prefix("CLASS:")?, at + "CLASS:".len()),
        FileKind::Kit => (
            first_text.strip_prefix("STARTPACK:")?,
            at + "STARTPACK:".len(),
        ),
        _ => (first_text, at),
    };
    let key = key_token(line, text, kind).unwrap_or_else(|| written(name.0, name.1, first));
    // PCGen keeps the first CATEGORY: of a line and ignores a second.
    let category = line
        .tokens
        .iter()
        .skip(1)
        .filter(|_| is_ability)
        .find_map(|t| token_value(text, *t, "CATEGORY:"));
    Some(HeadLine {
        first,
        head: Head::Make { key, category },
        found_in: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::text::LineMode;
    use crate::source::FileId;

    fn heads(kind: FileKind, text: &str) -> Vec<String> {
        let lines = crate::load::text::lines(FileId(0), text, LineMode::Object);
        let show = |w: &Written| format!("{}@{}", w.name, slice(text, w.span));
        let target = |t: &Target| {
            let cat = t.category.as_ref().map(|c| format!("{}|", show(c)));
            let missing = if t.no_category { "!" } else { "" };
            format!("{missing}{}{}", cat.unwrap_or_default(), show(&t.key))
        };
        FileHeads::read(&lines, text, kind)
            .lines
            .iter()
            .map(|l| match &l.head {
                Head::Make { key, category } => format!(
                    "make {} {}",
                    show(key),
                    category.as_ref().map_or("-".to_owned(), show)
                ),
                Head::Copy { base, new } => format!("copy {} {}", target(base), show(new)),
                Head::Mod(t) => format!("mod {}", target(t)),
                Head::Forget(t) => format!("forget {}", target(t)),
            })
            .collect()
    }

    #[test]
    fn reads_abilities_with_their_categories_and_targets() {
        let text = "Power Attack\tCATEGORY:FEAT\tKEY:PA \n\
                    No Category\tTYPE:General\n\
                    CATEGORY=FEAT|Dodge.MOD\tTYPE:X\n\
                    Dodge.MOD\n\
                    CATEGORY=Special Ability|Rage.COPY=Greater Rage\tCATEGORY:Special Ability\n\
                    SOURCELONG:Book\tSOURCESHORT:B\n";
        assert_eq!(
            heads(FileKind::Ability, text),
            [
                "make PA@PA FEAT@FEAT",
                "make No Category@No Category -",
                "mod FEAT@FEAT|Dodge@Dodge",
                "mod !Dodge@Dodge",
                "copy Special Ability@Special Ability|Rage@Rage Greater Rage@Greater Rage",
            ]
        );
    }

    #[test]
    fn class_lines_start_classes_and_mods_strip_their_token() {
        let text = "CLASS:Fighter\tHD:10\n1\tBONUS:x\nCLASS:Druid.MOD\tHD:8\nSUBCLASS:Abjurer\n";
        assert_eq!(
            heads(FileKind::Class, text),
            ["make Fighter@Fighter -", "mod Druid@Druid"]
        );
    }
}
