//! The old token system's references between objects, resolved across a load set as PCGen's
//! loader resolves them: which objects each kind of file makes (by key, abilities by
//! category), the `.COPY=`, `.MOD` and `.FORGET` lines that look one up, and the ability
//! categories that lines name.
//!
//! PCGen (`LstObjectFileLoader`) reads every file of a kind, then makes the copies, then
//! applies the mods, then the forgets; a copy or mod whose object is missing is skipped with
//! an error, an ability whose category is unknown is dropped, and an ability line without a
//! category fails. Each is one error here, at the name it is about (`R01xx`,
//! [`codes`]); an unknown category is reported once per file, however many lines name it.

mod abilities;
pub mod codes;
mod heads;
mod tokens;

pub use abilities::{LookedUp, OldObjects, looked_up};
pub use tokens::{NameInToken, names_in_token};

use crate::diagnostic::{Diagnostic, MissingKind};
use crate::fxhash::FxHashMap;
use crate::load::{FileKind, KeyFilter, LoadSet, LoadedFile};
use crate::name::{Name, closest};
use crate::source::{FileId, Span};
use heads::{FileObjects, Head, Target, Written};
use std::sync::Arc;

/// Whether files of `kind` hold objects other lines look up by key, or whose tokens name
/// ability categories: the object kinds of PCGen's load order, SIZE to KIT.
fn is_object_kind(kind: FileKind) -> bool {
    (FileKind::Size..=FileKind::Kit).contains(&kind)
}

/// The namespace an object's key lives in: its file kind, or an ability's category (the
/// parent category, whose abilities a child category draws from).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Space {
    File(FileKind),
    Ability(Name),
}

/// Checks the `.COPY=`/`.MOD`/`.FORGET` targets and ability categories of `load`.
pub fn check(load: &LoadSet) -> Vec<Diagnostic> {
    check_with(load, None, &Default::default())
}

/// The objects of every campaign under the data folder (`model::elsewhere`'s index): what
/// "in any load" means for [`check_with`].
pub trait DataFolder {
    /// Whether some campaign defines an object of `kind` keyed `key`.
    fn defines(&self, kind: FileKind, key: &str) -> bool;

    /// The key of an object of `kind` that the campaigns of the game system of the file
    /// `path` define closest to `key`: `Some(None)` when none is near, `None` when `path`
    /// is outside the data folder (the load set's own keys are then searched). It must not
    /// depend on the load set asking: the answer is kept with the file for the run.
    fn closest(&self, kind: FileKind, key: &str, path: &std::path::Path) -> Option<Option<String>>;
}

/// What [`check_with`] is given of the data folder.
pub type DefinedAnywhere<'a> = &'a dyn DataFolder;

/// [`check`], and, given `anywhere`, the keys prerequisites name that neither the load set
/// nor any campaign defines (`R0106`): PCGen never looks them up at load, so it is silent
/// while the prerequisite can never pass. `facts_reported` are the (file, FACT) pairs the
/// model already reported without a FACTDEF (`M0111`): a PREFACT of the same file testing
/// the same FACT is that mistake again, and the FACTDEF its help asks for mends both.
pub fn check_with(
    load: &LoadSet,
    anywhere: Option<DefinedAnywhere<'_>>,
    facts_reported: &crate::fxhash::FxHashSet<(FileId, Name)>,
) -> Vec<Diagnostic> {
    let mut r = Resolver::new(load, facts_reported);
    for kind in FileKind::LOAD_ORDER
        .into_iter()
        .filter(|k| is_object_kind(*k))
    {
        r.kind(kind);
    }
    // PCGen resolves the names token values give once every file is read, then the groups.
    r.references();
    r.empty_groups();
    if let Some(anywhere) = anywhere {
        r.prerequisite_keys(anywhere);
    }
    r.finish()
}

/// The name under which an ABILITYCATEGORY file's categories are kept in the file cache.
const CATEGORIES: &str = "model::references::categories";

/// The load set's ability categories: each name (any case) and its parent.
struct Categories {
    parents: FxHashMap<Name, Name>,
}

impl Categories {
    fn of(load: &LoadSet) -> Categories {
        let mut parents = FxHashMap::default();
        let game_mode = load
            .game_mode
            .iter()
            .flat_map(|g| g.ability_categories.iter());
        for (name, parent) in game_mode {
            parents
                .entry(Name::new(name))
                .or_insert_with(|| Name::new(parent));
        }
        // Each ABILITYCATEGORY file's lines are read once per run.
        for f in load
            .files
            .iter()
            .filter(|f| f.kind == FileKind::AbilityCategory)
        {
            let file = f.cached.derived(CATEGORIES, 0, |c| {
                crate::load::gamemode::ability_categories(&c.source().text)
                    .into_iter()
                    .map(|(n, p)| (Name::new(&n), Name::new(&p)))
                    .collect::<Vec<_>>()
            });
            for (name, parent) in file.iter() {
                parents
                    .entry(name.clone())
                    .or_insert_with(|| parent.clone());
            }
        }
        // PCGen puts FEAT in every game mode before it reads miscinfo.lst
        // (`GameModeFileLoader`), so a mode that never names it still has it.
        let feat = Name::new("FEAT");
        parents.entry(feat.clone()).or_insert(feat);
        Categories { parents }
    }

    /// The namespace of abilities of category `name`, when the category exists.
    fn space(&self, name: &Name) -> Option<Space> {
        let parent = self.parents.get(name)?;
        // A parent that is itself a child: follow it once more (PCGen allows one level).
        let parent = self.parents.get(parent).unwrap_or(parent);
        Some(Space::Ability(parent.clone()))
    }
}

/// An unknown category named in one file: where first, and how many lines name it.
struct UnknownCategory {
    span: Span,
    name: Name,
    lines: usize,
}

/// A file read so far.
struct ReadFile<'a> {
    file: &'a LoadedFile,
    objects: Arc<FileObjects>,
    /// The namespace of each of `objects.groups` in this load set.
    spaces: Vec<Option<Space>>,
}

impl ReadFile<'_> {
    /// The groups of abilities of a category the load set lacks: PCGen drops them before it
    /// reads their tokens (the category is the one error).
    fn dropped(&self) -> Vec<&heads::Group> {
        (self.objects.groups.iter().zip(&self.spaces))
            .filter(|(_, space)| space.is_none())
            .map(|(g, _)| g)
            .collect()
    }
}

struct Resolver<'a> {
    load: &'a LoadSet,
    categories: Categories,
    /// The object files read so far (kinds before and of the current one).
    read: Vec<ReadFile<'a>>,
    /// The groups of `read` in each namespace, as (file, group) indices.
    by_space: FxHashMap<Space, Vec<(usize, usize)>>,
    /// The files of `read` that the load set keeps whole (no `(INCLUDE:…)`/`(EXCLUDE:…)`),
    /// by [`FileObjects::id`]: where a hint says an object was found before.
    whole: FxHashMap<u64, usize>,
    /// Unknown categories by file and category, in the order first met.
    unknown: Vec<(FileId, UnknownCategory)>,
    /// The `.COPY=`/`.MOD` lines of the current kind whose object is missing, reported once
    /// the kind is done (how many a file has decides the help).
    misses: Vec<Miss<'a>>,
    /// The keys of the `.MOD` lines skipped for want of their object, by file: PCGen never
    /// reads those lines' tokens, so the names they give are no further error.
    skipped_mods: crate::fxhash::FxHashSet<(FileId, Name)>,
    /// (file, FACT) pairs already reported without a FACTDEF (see [`check_with`]).
    facts_reported: &'a crate::fxhash::FxHashSet<(FileId, Name)>,
    out: Vec<Diagnostic>,
}

/// A `.COPY=` or `.MOD` of a missing object, waiting to be reported.
struct Miss<'a> {
    file: &'a LoadedFile,
    kind: FileKind,
    space: Space,
    target: Target,
    what: &'static str,
}

/// How many misses of one kind of object a file may have and still be told "did you
/// mean": beyond it the file is written for a book the load set lacks, and the help says so
/// (and no suggestion search runs for each).
const FEW: usize = 5;

/// The line that looks an object up: a copy (to this new key), a mod or a forget.
#[derive(Clone, Copy)]
enum Looking<'n> {
    Copy(&'n Name),
    Mod,
    Forget,
}

/// Whether a key is in a namespace, and if not whether a filter left it out.
enum Found {
    Yes,
    Excluded,
    No,
}

impl<'a> Resolver<'a> {
    fn new(
        load: &'a LoadSet,
        facts_reported: &'a crate::fxhash::FxHashSet<(FileId, Name)>,
    ) -> Self {
        Resolver {
            load,
            categories: Categories::of(load),
            read: Vec::new(),
            by_space: FxHashMap::default(),
            whole: FxHashMap::default(),
            unknown: Vec::new(),
            misses: Vec::new(),
            skipped_mods: Default::default(),
            facts_reported,
            out: Vec::new(),
        }
    }

    /// Reads every file of `kind`: the objects its lines make, then its copies and mods in
    /// PCGen's order.
    fn kind(&mut self, kind: FileKind) {
        let load = self.load;
        let first_new = self.read.len();
        for f in load.files.iter().filter(|f| f.kind == kind) {
            let objects = FileObjects::of(&f.cached, kind);
            for (first, key) in &objects.no_category {
                self.out.push(without_category(f, *first, key));
            }
            for named in &objects.named_categories {
                // PCGen looks an `ABILITY:` token's category up while it parses the token,
                // before a filtered entry drops the object (its load log reports the
                // categories of objects that `(INCLUDE:…)` leaves out), so every base line
                // counts; a pool's, or a `.MOD` line's, only on the objects the entry keeps.
                if f.filter.is_some()
                    && !named.always
                    && !named.owners.iter().any(|o| passes(&f.filter, o))
                {
                    continue;
                }
                let _ = self.category(f, &named.name, named.uses);
            }
            let file_index = self.read.len();
            let mut spaces = Vec::with_capacity(objects.groups.len());
            for (i, g) in objects.groups.iter().enumerate() {
                let space = match (&g.category, kind) {
                    (Some(cat), _) => self.category(f, cat, g.lines),
                    (None, FileKind::Feat) => Some(self.feat_space()),
                    (None, _) => Some(Space::File(kind)),
                };
                if let Some(space) = &space {
                    self.by_space
                        .entry(space.clone())
                        .or_default()
                        .push((file_index, i));
                }
                spaces.push(space);
            }
            if f.filter.is_none() {
                self.whole.insert(objects.id, file_index);
            }
            self.read.push(ReadFile {
                file: f,
                objects,
                spaces,
            });
        }
        let files: Vec<(&'a LoadedFile, Arc<FileObjects>)> = self.read[first_new..]
            .iter()
            .map(|r| (r.file, Arc::clone(&r.objects)))
            .collect();
        // A file's own copies and mods are found unless its entry filters it.
        fn lines<'o>(
            f: &LoadedFile,
            objects: &'o FileObjects,
        ) -> impl Iterator<Item = &'o heads::HeadLine> {
            let own = if f.filter.is_some() {
                &objects.own[..]
            } else {
                &[]
            };
            own.iter().chain(&objects.deferred)
        }
        for (f, objects) in &files {
            for line in lines(f, objects) {
                match &line.head {
                    Head::Copy { base, new } => self.copy(f, kind, line, base, new),
                    Head::Forget(target) => {
                        // PCGen never reports a missing object to forget, only one it
                        // cannot look up.
                        let _ = self.space_of(f, kind, target, Looking::Forget);
                    }
                    Head::Mod(target) => self.modify(f, kind, line, target),
                    Head::Make { .. } => {}
                }
            }
        }
        let misses = std::mem::take(&mut self.misses);
        let crowd = |m: &Miss<'_>| {
            misses
                .iter()
                .filter(|o| o.file.file == m.file.file && o.space == m.space)
                .count()
        };
        for m in &misses {
            let d = self.missing(m, crowd(m));
            self.out.push(d);
            if m.what == ".MOD" {
                self.skipped_mods
                    .insert((m.file.file, m.target.key.name.clone()));
            }
        }
    }

    /// `Base.COPY=New`: the base must exist (the copy's key is known from its file).
    fn copy(
        &mut self,
        f: &'a LoadedFile,
        kind: FileKind,
        line: &heads::HeadLine,
        base: &Target,
        new: &Written,
    ) {
        let Some(space) = self.space_of(f, kind, base, Looking::Copy(&new.name)) else {
            return;
        };
        if self.hinted(&line.found_in, &space) {
            return;
        }
        let (found, at) = self.find_where(&space, &base.key.name);
        if let (Found::Yes, Some((file, group))) = (&found, at) {
            line.found_in.set(file, group);
        } else if !matches!(found, Found::Yes) && passes(&f.filter, &new.name) {
            // PCGen: a copy left out by the entry's INCLUDE/EXCLUDE is not reported.
            self.misses.push(Miss {
                file: f,
                kind,
                space,
                target: base.clone(),
                what: ".COPY=",
            });
        }
    }

    /// `Key.MOD`: the object must exist unless the entry's filter left it out.
    fn modify(
        &mut self,
        f: &'a LoadedFile,
        kind: FileKind,
        line: &heads::HeadLine,
        target: &Target,
    ) {
        let Some(space) = self.space_of(f, kind, target, Looking::Mod) else {
            return;
        };
        if self.hinted(&line.found_in, &space) {
            return;
        }
        match self.find_where(&space, &target.key.name) {
            (Found::Yes, at) => {
                if let Some((file, group)) = at {
                    line.found_in.set(file, group);
                }
                return;
            }
            (Found::Excluded, _) => return,
            (Found::No, _) => {}
        }
        if let Some(KeyFilter::Include(keys)) = &f.filter {
            if !keys.iter().any(|k| target.key.name.is(k.trim())) {
                return;
            }
        }
        self.misses.push(Miss {
            file: f,
            kind,
            space,
            target: target.clone(),
            what: ".MOD",
        });
    }

    /// Whether the file and group of `hint` are here, the file kept whole, in `space`: the
    /// group then makes the key (a file's objects are the same in every load set), found
    /// with one look-up where [`Resolver::find_where`] searches every file of the namespace.
    fn hinted(&self, hint: &heads::Hint, space: &Space) -> bool {
        let Some((file, group)) = hint.get() else {
            return false;
        };
        self.whole
            .get(&file)
            .and_then(|i| self.read.get(*i))
            .and_then(|r| r.spaces.get(group))
            .is_some_and(|s| s.as_ref() == Some(space))
    }

    /// Whether an object of `space` has `key` (made or copied by a line a file entry
    /// keeps), with the run cache entry's address of the file that made it and the group
    /// it is in.
    fn find_where(&self, space: &Space, key: &Name) -> (Found, Option<(u64, usize)>) {
        let mut excluded = false;
        let groups = self.by_space.get(space).map_or(&[][..], Vec::as_slice);
        for (file, group) in groups {
            let Some(r) = self.read.get(*file) else {
                continue;
            };
            let Some(g) = r.objects.groups.get(*group) else {
                continue;
            };
            if g.keys.contains_key(key) {
                if passes(&r.file.filter, key) {
                    return (Found::Yes, Some((r.objects.id, *group)));
                }
                excluded = true;
            }
        }
        let found = if excluded { Found::Excluded } else { Found::No };
        (found, None)
    }

    /// Whether a file entry that leaves `key` of `space` out is read after the names of
    /// `by` are given: of a later kind, or `by` itself.
    fn left_out_later(&self, space: &Space, by: &ReadFile<'_>, key: &Name) -> bool {
        self.groups(space).any(|(r, g)| {
            g.keys.contains_key(key)
                && !passes(&r.file.filter, key)
                && (r.file.kind > by.file.kind || r.file.file == by.file.file)
        })
    }

    /// The groups of the files read so far whose objects live in `space`.
    fn groups<'s>(
        &'s self,
        space: &Space,
    ) -> impl Iterator<Item = (&'s ReadFile<'a>, &'s heads::Group)> + 's {
        let groups = self.by_space.get(space).map_or(&[][..], Vec::as_slice);
        groups.iter().filter_map(|(file, group)| {
            let r = self.read.get(*file)?;
            Some((r, r.objects.groups.get(*group)?))
        })
    }

    /// The namespace a `.COPY=`/`.MOD`/`.FORGET` target of a `kind` file is looked up in;
    /// `None` (reported) when PCGen cannot look it up.
    fn space_of(
        &mut self,
        f: &LoadedFile,
        kind: FileKind,
        target: &Target,
        looking: Looking<'_>,
    ) -> Option<Space> {
        match kind {
            FileKind::Ability if target.no_category => {
                let suffix = match looking {
                    Looking::Copy(new) => format!(".COPY={new}"),
                    Looking::Mod => ".MOD".to_owned(),
                    Looking::Forget => ".FORGET".to_owned(),
                };
                self.out.push(target_without_category(f, target, &suffix));
                None
            }
            FileKind::Ability => {
                let cat = target.category.as_ref()?;
                self.category(f, cat, 1)
            }
            FileKind::Feat => Some(self.feat_space()),
            _ => Some(Space::File(kind)),
        }
    }

    /// The namespace of FEAT files' abilities.
    fn feat_space(&self) -> Space {
        let feat = Name::new("FEAT");
        self.categories.space(&feat).unwrap_or(Space::Ability(feat))
    }

    /// The namespace of category `cat` named on `lines` lines of `f`; an unknown one is
    /// counted for its file's one report.
    fn category(&mut self, f: &LoadedFile, cat: &Written, lines: usize) -> Option<Space> {
        if let Some(space) = self.categories.space(&cat.name) {
            return Some(space);
        }
        match self
            .unknown
            .iter_mut()
            .find(|(file, u)| *file == f.file && u.name == cat.name)
        {
            Some((_, u)) => u.lines += lines,
            None => self.unknown.push((
                f.file,
                UnknownCategory {
                    span: f.lines.place(cat.span),
                    name: cat.name.clone(),
                    lines,
                },
            )),
        }
        None
    }

    /// `d`, about the key `key` written at `span`, with its help: "did you mean" among the
    /// keys of `space`, unless the file misses `crowd` objects of it: then the book that
    /// makes them is what is missing.
    fn with_help(
        &self,
        d: Diagnostic,
        span: Span,
        space: &Space,
        key: &Name,
        noun: &str,
        crowd: usize,
    ) -> Diagnostic {
        if crowd > FEW {
            return d.with_help(format!(
                "this file names {crowd} {noun}s the load set does not have: load the campaign \
                 that makes them (a `PRECAMPAIGN` in the PCC), or correct the names"
            ));
        }
        // The closest of every group's keys: each group's closest, kept for the run. A
        // group holding the key itself (an object the load set filters out) has no guess.
        let best = self
            .groups(space)
            .filter_map(|(_, g)| g.closest(key))
            .filter(|(_, c)| c != key)
            .min_by(|(d, c), (e, b)| d.cmp(e).then_with(|| c.as_str().cmp(b.as_str())));
        d.with_did_you_mean_or(
            span,
            best.map(|(_, s)| s.as_str().to_owned()),
            format!(
                "correct the name, or load the campaign that makes this {noun} (a `PRECAMPAIGN` in the PCC)"
            ),
        )
    }

    /// The error for a `.COPY=` or `.MOD` of a missing object, one of `crowd` of its file.
    fn missing(&self, m: &Miss<'_>, crowd: usize) -> Diagnostic {
        let key = &m.target.key.name;
        let noun = match &m.space {
            Space::Ability(cat) => format!("ability of category `{cat}`"),
            Space::File(_) => format!("{} object", kind_noun(m.kind)),
        };
        let skipped = if m.what == ".MOD" {
            ".MOD skipped"
        } else {
            ".COPY skipped"
        };
        let what = m.what;
        let span = m.file.lines.place(m.target.key.span);
        let d = Diagnostic::error(
            codes::MOD_TARGET_MISSING,
            span,
            format!("`{what}` of `{key}`, but no {noun} of the load set has this key"),
        )
        .with_label(format!("no {noun} `{key}`"))
        .with_note(format!(
            "PCGen skips the whole line: \"PObject {key} not found; {skipped}\""
        ))
        .with_missing(
            key.as_str(),
            MissingKind::Object {
                kind: m.kind.token(),
            },
        );
        self.with_help(d, span, &m.space, key, &noun, crowd)
    }

    /// Every name a token value of a file read gives must be an object of its kind (or
    /// one a loaded PCC's `FORWARDREF:` lets stay unmade): one error per file, kind and
    /// name, at its first use.
    fn references(&mut self) {
        let forward = forward_refs(self.load);
        let facts = fact_defs(self.load);
        // What the files make as their tokens are read, and what `.MOD` lines clear: only
        // a name no file makes asks (most are found), so gathered on the first such name.
        type Cleared<'n> =
            crate::fxhash::FxHashSet<(FileKind, &'n Name, &'n str, Option<&'n Name>)>;
        let made = std::cell::OnceCell::new();
        let made = || {
            made.get_or_init(|| {
                self.read
                    .iter()
                    .flat_map(|r| r.objects.also_makes.iter().map(|(k, n)| (*k, n)))
                    .collect::<crate::fxhash::FxHashSet<(FileKind, &Name)>>()
            })
        };
        let cleared = std::cell::OnceCell::new();
        let cleared = || {
            cleared.get_or_init(|| {
                self.read
                    .iter()
                    .flat_map(|r| {
                        r.objects.clears.iter().map(|(key, token, item)| {
                            (r.file.kind, key, token.as_str(), item.as_ref())
                        })
                    })
                    .collect::<Cleared<'_>>()
            })
        };
        let mut missing = Vec::new();
        for r in &self.read {
            let dropped = r.dropped();
            for reference in r.objects.references.iter().filter(|r| !r.tested) {
                // A PREFACT fails as PCGen parses the line, whatever the entry keeps.
                let always = reference.target == FileKind::DataControl && reference.on_base_line;
                if !self.read_by_pcgen(r, &reference.owners, always, &dropped) {
                    continue;
                }
                if reference.target == FileKind::DataControl {
                    // A PREFACT's FACT: defined by any FACTDEF of the load set.
                    if !facts.contains(&reference.name.name) {
                        missing.push((r.file, reference));
                    }
                    continue;
                }
                let space = Space::File(reference.target);
                if self.hinted(&reference.found_in, &space) {
                    continue;
                }
                match self.find_where(&space, &reference.name.name) {
                    (Found::Yes, at) => {
                        if let Some((file, group)) = at {
                            reference.found_in.set(file, group);
                        }
                    }
                    // An object a file entry's `(INCLUDE:…)`/`(EXCLUDE:…)` leaves out is
                    // made, then forgotten: PCGen's log is silent on the names given before
                    // that (a file of an earlier kind, or the same file), and reports those
                    // given after (`legends_of_excalibur.pcc` keeps a few SRD classes; its
                    // abilities' `ADD:SPELLCASTER|Bard` passes, a later class's
                    // `SERVESAS:CLASS|Cleric` fails).
                    (Found::Excluded, _)
                        if self.left_out_later(&space, r, &reference.name.name) => {}
                    _ if forward.contains(&(reference.target, reference.name.name.clone())) => {}
                    _ if made().contains(&(reference.target, &reference.name.name)) => {}
                    // Every token that gave the name was cleared by a later `.MOD`:
                    // PCGen forgets the name with the token's value.
                    _ if !reference.owners.is_empty()
                        && reference.owners.iter().all(|(o, token)| {
                            let name = Some(&reference.name.name);
                            cleared().contains(&(r.file.kind, o, *token, None))
                                || cleared().contains(&(r.file.kind, o, *token, name))
                        }) => {}
                    _ => missing.push((r.file, reference)),
                }
            }
        }
        // PCGen stops at a PREFACT's first unknown FACT: the others of that PREFACT are no
        // further error.
        let mut last_fact: Option<(FileId, Span)> = None;
        missing
            .sort_by_key(|(f, r)| (r.target != FileKind::DataControl, f.file, r.name.span.start));
        missing.retain(|(f, r)| {
            if r.target != FileKind::DataControl {
                return true;
            }
            let span = r.name.span;
            // A file listed twice gives its uses twice, at the same place.
            let same_prefact = last_fact.is_some_and(|(file, before)| {
                file == f.file
                    && (before == span
                        || f.cached
                            .source()
                            .text
                            .get(before.end as usize..span.start as usize)
                            .is_some_and(|between| {
                                !between.contains("PREFACT") && !between.contains(['\t', '\n'])
                            }))
            });
            last_fact = Some((f.file, span));
            !same_prefact
        });
        // A FACT the model reported without a FACTDEF in the same file is no second error.
        missing.retain(|(f, r)| {
            r.target != FileKind::DataControl
                || !self.facts_reported.contains(&(f.file, r.name.name.clone()))
        });
        // Then one error per file and FACT, at its first use, counting the others.
        let mut fact_uses: FxHashMap<(FileId, Name), usize> = FxHashMap::default();
        for (f, r) in missing
            .iter()
            .filter(|(_, r)| r.target == FileKind::DataControl)
        {
            *fact_uses.entry((f.file, r.name.name.clone())).or_default() += 1;
        }
        let mut first_fact = crate::fxhash::FxHashSet::default();
        missing.retain(|(f, r)| {
            r.target != FileKind::DataControl || first_fact.insert((f.file, r.name.name.clone()))
        });
        let crowd = |f: &LoadedFile, target: FileKind| {
            missing
                .iter()
                .filter(|(o, r)| o.file == f.file && r.target == target)
                .count()
        };
        for (f, reference) in &missing {
            let d = if reference.target == FileKind::DataControl {
                let uses = fact_uses
                    .get(&(f.file, reference.name.name.clone()))
                    .copied()
                    .unwrap_or(1);
                unknown_prefact(f, reference, uses, &facts)
            } else {
                self.unknown_reference(f, reference, crowd(f, reference.target))
            };
            self.out.push(d);
        }
    }

    /// Whether PCGen reads what the lines of `owners` in `r` say: a filtered entry keeps one
    /// of those objects (or the text is read `always`, as the line is parsed), not every one
    /// is a `.MOD` skipped for want of its object, nor an ability PCGen drops (`dropped`, or
    /// without `CATEGORY:`).
    fn read_by_pcgen(
        &self,
        r: &ReadFile<'_>,
        owners: &[(Name, &'static str)],
        always: bool,
        dropped: &[&heads::Group],
    ) -> bool {
        if r.file.filter.is_some()
            && !always
            && !owners.iter().any(|(o, _)| passes(&r.file.filter, o))
        {
            return false;
        }
        let skipped = |o: &Name| self.skipped_mods.contains(&(r.file.file, o.clone()));
        if !self.skipped_mods.is_empty()
            && !owners.is_empty()
            && owners.iter().all(|(o, _)| skipped(o))
        {
            return false;
        }
        let failed = |o: &Name| {
            dropped.iter().any(|g| g.keys.contains_key(o))
                || r.objects.no_category.iter().any(|(_, k)| k.name == *o)
        };
        owners.is_empty() || !owners.iter().all(|(o, _)| failed(o))
    }

    /// The groups token values name (`CSKILL:TYPE=Perform`, `LANGBONUS:ALL`,
    /// `AUTO:ARMORPROF|ARMORTYPE=Medium`, every `MONCSKILL:`) that no object of the load set
    /// joins: PCGen reports each at the end of the load and the token gives nothing. One
    /// error per file and group, at its first use.
    fn empty_groups(&mut self) {
        let mut joined: FxHashMap<&tokens::Members, bool> = FxHashMap::default();
        let mut out = Vec::new();
        for r in &self.read {
            if r.objects.group_references.is_empty() {
                continue;
            }
            let dropped = r.dropped();
            for g in &r.objects.group_references {
                if !self.read_by_pcgen(r, &g.owners, false, &dropped) {
                    continue;
                }
                let has = *joined
                    .entry(&g.members)
                    .or_insert_with(|| self.joined(&g.members));
                if !has {
                    out.push(self.empty_group(r.file, g));
                }
            }
        }
        self.out.extend(out);
    }

    /// Whether some object of the load set is a member of `members`.
    fn joined(&self, members: &tokens::Members) -> bool {
        match members {
            tokens::Members::Typed { kind, types } => {
                let all = |have: &[Name]| types.iter().all(|t| have.contains(t));
                let only = |t: &str| types.iter().all(|x| x.as_str().eq_ignore_ascii_case(t));
                let also_made = || {
                    (self.read.iter()).any(|r| r.objects.also_makes.iter().any(|(k, _)| k == kind))
                };
                // Objects PCGen makes besides the data's lines: the tokens' own (a
                // `NATURALATTACKS:` weapon's proficiency has TYPE=Natural), and the
                // proficiency "Unarmed Strike" (TYPE=Simple) when no file makes it
                // (`SourceFileLoader`).
                let made_by_pcgen = match kind {
                    FileKind::WeaponProf => only("Simple") || (only("Natural") && also_made()),
                    _ => types.is_empty() && also_made(),
                };
                if types.is_empty() {
                    // Every object: one that a line the load set keeps makes.
                    let space = Space::File(*kind);
                    return made_by_pcgen
                        || self
                            .groups(&space)
                            .any(|(r, g)| g.keys.keys().any(|key| passes(&r.file.filter, key)));
                }
                made_by_pcgen || self.any_object(*kind, all)
            }
            tokens::Members::MonsterClasses => {
                let monster: Vec<Name> = (self.load.game_mode.iter())
                    .flat_map(|g| g.monster_class_types.iter().map(|t| Name::new(t)))
                    .chain([Name::new(heads::MONSTER_MARK)])
                    .collect();
                self.any_object(FileKind::Class, |have| {
                    have.iter().any(|t| monster.contains(t))
                })
            }
        }
    }

    /// Whether an object of `kind` the load set keeps has types that `has` accepts: first
    /// by each whole file's own lines (one look at its distinct type sets), then each
    /// filtered file's kept objects, else with every file's lines of each object together
    /// (a `.MOD` elsewhere adds types) and each copy given its base's.
    fn any_object(&self, kind: FileKind, has: impl Fn(&[Name]) -> bool) -> bool {
        let files = || self.read.iter().filter(move |r| r.file.kind == kind);
        if files().any(|r| r.file.filter.is_none() && r.objects.type_sets.iter().any(|s| has(s))) {
            return true;
        }
        // A filtered file: the objects it makes and keeps.
        let kept_member = |r: &ReadFile<'_>| {
            let made = |key: &Name| r.objects.groups.iter().any(|g| g.keys.contains_key(key));
            (heads::object_types_of(&r.file.cached, kind).iter())
                .any(|(key, types)| passes(&r.file.filter, key) && made(key) && has(types))
        };
        if files().any(|r| r.file.filter.is_some() && kept_member(r)) {
            return true;
        }
        let mut merged: FxHashMap<Name, Vec<Name>> = FxHashMap::default();
        for r in files() {
            let types_of = heads::object_types_of(&r.file.cached, kind);
            for (key, types) in types_of.iter() {
                if passes(&r.file.filter, key) {
                    merged
                        .entry(key.clone())
                        .or_default()
                        .extend(types.iter().cloned());
                }
            }
        }
        for r in files() {
            for line in r.objects.own.iter().chain(&r.objects.deferred) {
                if let Head::Copy { base, new } = &line.head {
                    let from = merged.get(&base.key.name).cloned().unwrap_or_default();
                    merged.entry(new.name.clone()).or_default().extend(from);
                }
            }
        }
        // Only objects a line makes: a `.MOD` of a missing object adds no member.
        let space = Space::File(kind);
        merged
            .iter()
            .any(|(key, types)| has(types) && matches!(self.find_where(&space, key).0, Found::Yes))
    }

    /// The error for a group no object joins.
    fn empty_group(&self, f: &LoadedFile, g: &tokens::GroupReference) -> Diagnostic {
        let others = crate::diagnostic::more_uses(g.uses);
        let span = f.lines.place(g.written.span);
        let token = g.token_name();
        let (message, label, pcgen, typed) = match &g.members {
            tokens::Members::Typed { kind, types } if types.is_empty() => {
                let noun = kind_noun(*kind);
                (
                    format!("`{token}` names every {noun}, and this load set has none{others}"),
                    format!("no {noun} is loaded"),
                    format!("No {} objects were loaded", pcgen_class(*kind)),
                    None,
                )
            }
            tokens::Members::Typed { kind, types } => {
                let noun = kind_noun(*kind);
                let group = types.iter().map(Name::as_str).collect::<Vec<_>>().join(".");
                (
                    format!("no {noun} of `TYPE={group}` in this load set{others}"),
                    format!("no {noun} has every type of this group"),
                    format!(
                        "No {} objects of TYPE={group} were loaded",
                        pcgen_class(*kind)
                    ),
                    Some((*kind, types)),
                )
            }
            tokens::Members::MonsterClasses => (
                format!(
                    "no monster class in this load set: `{token}` gives class skills to the \
                     monster classes (TYPE=Monster){others}"
                ),
                "no class is a monster class: PCGen's ClassSkillList of TYPE=Monster is empty"
                    .to_owned(),
                "No ClassSkillList objects of TYPE=Monster were loaded".to_owned(),
                None,
            ),
        };
        let d = Diagnostic::error(codes::EMPTY_GROUP, span, message)
            .with_label(label)
            .with_note(format!(
                "PCGen: \"{pcgen} but were referred to in the data\"; the token gives nothing \
                 from this group"
            ));
        let fallback = "load the campaign that makes these objects (a `PRECAMPAIGN` in the PCC), \
                        or correct the group";
        // One type: the closest type objects of the kind do have.
        let guess = typed.and_then(|(kind, types)| {
            let [only] = types.as_slice() else {
                return None;
            };
            let mut known: Vec<&str> = self
                .read
                .iter()
                .filter(|r| r.file.kind == kind)
                .flat_map(|r| r.objects.type_sets.iter().flatten().map(Name::as_str))
                .collect();
            known.sort_unstable();
            known.dedup();
            let close = closest(only.as_str(), known.iter().copied())?;
            let written = g.written.name.as_str();
            let at = written.len().checked_sub(only.as_str().len())?;
            Some(format!("{}{close}", written.get(..at)?))
        });
        match guess {
            Some(fix) => d.with_did_you_mean(span, fix),
            None => d.with_help(fallback),
        }
    }

    /// The keys prerequisites name (the table's `test` rows) that no object of the load
    /// set, no `FORWARDREF:` and no campaign under the data folder (`anywhere`) has: one
    /// warning per file, kind and key, at its first use.
    fn prerequisite_keys(&mut self, anywhere: DefinedAnywhere<'_>) {
        let forward = forward_refs(self.load);
        // What tokens make as they are read: a `NATURALATTACKS:` entry's weapon (a weapon
        // proficiency and an item), a `SUBCLASS:` line's class (PCGen gives the class the
        // sub-class's key once it is chosen).
        let made: crate::fxhash::FxHashSet<(FileKind, &Name)> = (self.read.iter())
            .flat_map(|r| r.objects.also_makes.iter().map(|(k, n)| (*k, n)))
            .collect();
        let mut out = Vec::new();
        let mut pools: FxHashMap<FileKind, u64> = FxHashMap::default();
        for r in &self.read {
            // The data folder's index first, once per file and run: what it defines is
            // defined for every load set listing the file. Not waited for: the index is
            // built by every thread that asks while it is being built, and a load set
            // waiting here behind another's build would leave its thread idle.
            let unknown = r
                .file
                .cached
                .derived_without_waiting(UNKNOWN_ANYWHERE, 0, |_| {
                    (r.objects.references.iter().enumerate())
                        .filter(|(_, reference)| reference.tested)
                        .filter(|(_, reference)| {
                            !tokens::key_forms(reference.target, reference.name.name.as_str())
                                .iter()
                                .any(|k| anywhere.defines(reference.target, k))
                        })
                        .map(|(i, _)| i)
                        .collect::<Vec<usize>>()
                });
            for reference in unknown.iter().filter_map(|i| r.objects.references.get(*i)) {
                let target = reference.target;
                // Then the load set (files outside the data folder) and its FORWARDREFs.
                let known = |key: &str| {
                    let key = Name::new(key);
                    let natural = target == FileKind::Equipment
                        && made.contains(&(FileKind::WeaponProf, &key));
                    natural
                        || made.contains(&(target, &key))
                        || forward.contains(&(target, key.clone()))
                        || self
                            .spaces_of(target)
                            .iter()
                            .any(|space| !matches!(self.find_where(space, &key).0, Found::No))
                };
                if tokens::key_forms(target, reference.name.name.as_str())
                    .iter()
                    .any(|k| known(k))
                {
                    continue;
                }
                out.push(self.unknown_prerequisite_key(r.file, reference, anywhere, &mut pools));
            }
        }
        self.out.extend(out);
    }

    /// The namespaces objects of `target` live in: every ability category's for abilities.
    fn spaces_of(&self, target: FileKind) -> Vec<Space> {
        match target {
            FileKind::Ability | FileKind::Feat => self
                .by_space
                .keys()
                .filter(|s| matches!(s, Space::Ability(_)))
                .cloned()
                .collect(),
            kind => vec![Space::File(kind)],
        }
    }

    /// What identifies the keys a prerequisite's key of `target` is suggested among (see
    /// [`Resolver::unknown_prerequisite_key`]): the groups of objects, by file and place,
    /// of the namespaces `target` lives in. Load sets with the same groups share their
    /// suggestions.
    fn suggestion_pool(&self, target: FileKind) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut groups: Vec<(u64, usize)> = (self.spaces_of(target).iter())
            .flat_map(|s| self.by_space.get(s).into_iter().flatten())
            .filter_map(|(file, group)| Some((self.read.get(*file)?.objects.id, *group)))
            .collect();
        groups.sort_unstable();
        groups.dedup();
        let mut h = crate::fxhash::FxHasher::default();
        groups.hash(&mut h);
        // Never 0, which stands for the game system's pool.
        h.finish() | 1
    }

    /// The warning for a prerequisite's key no campaign defines, with the closest key of
    /// its game system under the data folder (else, for a file outside it, of the load
    /// set: `pools` holds the load set's [`Resolver::suggestion_pool`] by kind).
    fn unknown_prerequisite_key(
        &self,
        f: &LoadedFile,
        reference: &tokens::Reference,
        anywhere: DefinedAnywhere<'_>,
        pools: &mut FxHashMap<FileKind, u64>,
    ) -> Diagnostic {
        let name = &reference.name.name;
        let noun = kind_noun(reference.target);
        let token = reference.token;
        // The "did you mean" is kept with the file for the run, by what it was chosen
        // among: the file's game system (0), the same for every load set listing the file,
        // or for a file outside the data folder the load set's keys. It is the same
        // whichever load set asks first: the report does not depend on how the load sets
        // were spread over threads.
        let memo = f
            .cached
            .derived(SUGGESTIONS, 0, |_| SuggestionMemo::default());
        let known = |pool: u64| {
            let wanted = (pool, reference.target, name.clone());
            memo.lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&wanted)
                .cloned()
        };
        let keep = |pool: u64, found: &Option<String>| {
            let wanted = (pool, reference.target, name.clone());
            memo.lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(wanted, found.clone());
        };
        let in_system = known(0).or_else(|| {
            let found = anywhere.closest(reference.target, name.as_str(), &f.path)?;
            keep(0, &found);
            Some(found)
        });
        let suggestion = in_system.unwrap_or_else(|| {
            let pool = *pools
                .entry(reference.target)
                .or_insert_with(|| self.suggestion_pool(reference.target));
            if let Some(found) = known(pool) {
                return found;
            }
            // Among the keys that start as the name does (as the old formulas' suggestions
            // do): a load set's prerequisite keys are looked for among every key of their
            // kind, and most of the whole corpus's run went into comparing with all of them.
            let initial = |s: &str| s.bytes().next().map(|b| b.to_ascii_lowercase());
            let want = initial(name.as_str());
            let spaces = self.spaces_of(reference.target);
            let made = spaces
                .iter()
                .flat_map(|s| self.groups(s))
                .flat_map(|(_, g)| g.keys.keys())
                .map(Name::as_str)
                .filter(|k| initial(k) == want);
            let found = closest(name.as_str(), made).map(str::to_owned);
            keep(pool, &found);
            found
        });
        let others = crate::diagnostic::more_uses(reference.uses);
        let span = f.lines.place(reference.name.span);
        let d = Diagnostic::warning(
            codes::UNKNOWN_PREREQUISITE_KEY,
            span,
            format!("`{token}` names the {noun} `{name}`, which no campaign defines{others}"),
        )
        .with_label(format!("no {noun} of this key in any load"))
        .with_note(
            "PCGen looks a prerequisite's keys up only when it tests the prerequisite, and then \
             silently: it never reports this, and the prerequisite can never pass (negated, it \
             always passes)",
        );
        d.with_did_you_mean_or(
            span,
            suggestion,
            format!("correct the key: no campaign under the data folder makes a {noun} `{name}`"),
        )
    }

    fn unknown_reference(
        &self,
        f: &LoadedFile,
        reference: &tokens::Reference,
        crowd: usize,
    ) -> Diagnostic {
        let space = Space::File(reference.target);
        let name = &reference.name.name;
        let noun = kind_noun(reference.target);
        let others = crate::diagnostic::more_uses(reference.uses);
        let span = f.lines.place(reference.name.span);
        let d = Diagnostic::error(
            codes::UNKNOWN_REFERENCE,
            span,
            format!("no {noun} `{name}` in this load set{others}"),
        )
        .with_label(format!("not the key of any {noun}"))
        .with_note(format!(
            "PCGen: \"Unconstructed Reference: {} {name}\"; the token loses this name",
            pcgen_class(reference.target)
        ))
        .with_missing(
            name.as_str(),
            MissingKind::Object {
                kind: reference.target.token(),
            },
        );
        self.with_help(d, span, &space, name, noun, crowd)
    }

    /// The collected reports, with one per file and unknown category.
    fn finish(mut self) -> Vec<Diagnostic> {
        let names: Vec<Name> = self.categories.parents.keys().cloned().collect();
        for (_, u) in std::mem::take(&mut self.unknown) {
            self.out.push(unknown_category(&u, &names));
        }
        self.out
    }
}

/// The name under which the file cache keeps which of a file's prerequisite keys (by
/// their place in [`heads::FileObjects::references`]) no campaign of the data folder
/// defines.
const UNKNOWN_ANYWHERE: &str = "model::references::unknown_anywhere";

/// The name under which a file's [`SuggestionMemo`] is kept in the file cache.
const SUGGESTIONS: &str = "model::references::prerequisite_suggestions";

/// The "did you mean" of each unknown prerequisite key of a file, by the pool of keys it
/// was chosen among (0: the file's game system; else the load set's keys, see
/// [`Resolver::suggestion_pool`]), kind and key.
type SuggestionMemo = std::sync::Mutex<FxHashMap<(u64, FileKind, Name), Option<String>>>;

/// The name under which a DATACONTROL file's FACTDEF names are kept in the file cache.
const FACT_DEFS: &str = "model::references::fact_defs";

/// Every FACT a `FACTDEF:LOCATION|Name` line of the load set's DATACONTROL files defines,
/// whatever its location: PCGen's `FactKey` is one table (what a PREFACT may name).
fn fact_defs(load: &LoadSet) -> crate::fxhash::FxHashSet<Name> {
    let mut out = crate::fxhash::FxHashSet::default();
    for f in load
        .files
        .iter()
        .filter(|f| f.kind == FileKind::DataControl)
    {
        let names = f.cached.derived(FACT_DEFS, 0, |c| {
            c.source()
                .text
                .lines()
                .filter_map(|l| l.trim_start().strip_prefix("FACTDEF:"))
                .filter_map(|v| {
                    let (_, name) = v.split_once('|')?;
                    let name = name.split('\t').next()?.trim();
                    (!name.is_empty()).then(|| Name::new(name))
                })
                .collect::<Vec<Name>>()
        });
        out.extend(names.iter().cloned());
    }
    out
}

/// The error for a PREFACT naming a FACT no FACTDEF of the load set defines.
fn unknown_prefact(
    f: &LoadedFile,
    reference: &tokens::Reference,
    uses: usize,
    facts: &crate::fxhash::FxHashSet<Name>,
) -> Diagnostic {
    let name = &reference.name.name;
    let others = crate::diagnostic::more_uses(uses);
    let span = f.lines.place(reference.name.span);
    let d = Diagnostic::error(
        codes::UNKNOWN_REFERENCE,
        span,
        format!("no FACTDEF defines `{name}` in this load set{others}"),
    )
    .with_label("not a FACT of this load set")
    .with_note(format!(
        "PCGen: \"Unknown FACT in PREFACT. Test was: {name}=…\"; the prerequisite is not read"
    ));
    d.with_did_you_mean_or(
        span,
        closest(name.as_str(), facts.iter().map(Name::as_str)),
        format!(
            "load the campaign whose DATACONTROL file defines it (`FACTDEF:…|{name}`), or correct the name"
        ),
    )
}

/// The names the load set's PCCs declare with `FORWARDREF:TYPE|key,…`, by the kind of
/// object they name: PCGen's `LoadValidator` lets them stay unmade in silence. A class's
/// or domain's spell list is named as the class or domain is here.
fn forward_refs(load: &LoadSet) -> crate::fxhash::FxHashSet<(FileKind, Name)> {
    load.campaigns
        .iter()
        .flat_map(|c| &c.forward_refs)
        .filter_map(|(kind, key)| {
            let kind = match kind.as_str() {
                "CLASSSPELLLIST" => FileKind::Class,
                "DOMAINSPELLLIST" => FileKind::Domain,
                "EQMOD" => FileKind::EquipMod,
                k => FileKind::from_token(k)?,
            };
            Some((kind, Name::new(key)))
        })
        .collect()
}

/// Whether a file entry's `(INCLUDE:…)`/`(EXCLUDE:…)` keeps the object `key`.
fn passes(filter: &Option<KeyFilter>, key: &Name) -> bool {
    let listed = |keys: &[String]| {
        keys.iter().any(|k| {
            let k = k.trim();
            // Abilities may be listed as `CATEGORY=cat,key`.
            key.is(k) || k.rsplit_once(',').is_some_and(|(_, k)| key.is(k.trim()))
        })
    };
    match filter {
        None => true,
        Some(KeyFilter::Include(keys)) => listed(keys),
        Some(KeyFilter::Exclude(keys)) => !listed(keys),
    }
}

/// The name of PCGen's class for objects of a file kind, as its messages say it.
fn pcgen_class(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Class => "PCClass",
        FileKind::Template => "PCTemplate",
        FileKind::EquipMod => "EquipmentModifier",
        FileKind::Skill => "Skill",
        FileKind::Language => "Language",
        FileKind::Domain => "Domain",
        FileKind::Spell => "Spell",
        FileKind::Equipment => "Equipment",
        FileKind::Kit => "Kit",
        FileKind::Race => "Race",
        FileKind::WeaponProf => "WeaponProf",
        FileKind::ArmorProf => "ArmorProf",
        FileKind::ShieldProf => "ShieldProf",
        FileKind::Deity => "Deity",
        FileKind::Size => "SizeAdjustment",
        FileKind::Stat => "PCStat",
        FileKind::Save => "PCCheck",
        FileKind::Alignment => "PCAlignment",
        other => other.token(),
    }
}

/// How a report names objects of a file kind.
fn kind_noun(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Class => "CLASS",
        FileKind::Kit => "KIT",
        other => other.token(),
    }
}

fn without_category(f: &LoadedFile, first: Span, key: &Written) -> Diagnostic {
    let name = key.name.as_str();
    let help = match name
        .strip_prefix("CATEGORY=")
        .and_then(|r| r.split_once('|'))
    {
        Some((cat, k)) => format!(
            "to change the ability `{k}`, write `CATEGORY={cat}|{k}.MOD`; to make it, name it `{k}` and add `CATEGORY:{cat}`"
        ),
        None => "add `CATEGORY:` with the ability's category, e.g. `CATEGORY:FEAT`".to_owned(),
    };
    Diagnostic::error(
        codes::ABILITY_WITHOUT_CATEGORY,
        f.lines.place(first),
        format!("the ability `{name}` has no `CATEGORY:`"),
    )
    .with_label("an ability line needs a CATEGORY: token")
    .with_help(help)
    .with_note("PCGen fails on this line (a NullPointerException) and drops the ability")
}

fn target_without_category(f: &LoadedFile, target: &Target, suffix: &str) -> Diagnostic {
    let key = &target.key.name;
    Diagnostic::error(
        codes::TARGET_WITHOUT_CATEGORY,
        f.lines.place(target.key.span),
        format!("`{key}` names an ability without its category"),
    )
    .with_label("PCGen looks abilities up as `CATEGORY=cat|key`")
    .with_help(format!(
        "write `CATEGORY=FEAT|{key}{suffix}` (with the ability's category)"
    ))
    .with_note("PCGen: \"Attempt to Modify/Copy/Forget an Ability without a CATEGORY=\"; the line is skipped")
}

fn unknown_category(u: &UnknownCategory, known: &[Name]) -> Diagnostic {
    let name = &u.name;
    let others = match u.lines.saturating_sub(1) {
        0 => String::new(),
        1 => " (and 1 more line of this file)".to_owned(),
        n => format!(" (and {n} more lines of this file)"),
    };
    let d = Diagnostic::error(
        codes::UNKNOWN_ABILITY_CATEGORY,
        u.span,
        format!("`{name}` is not an ability category of this load set{others}"),
    )
    .with_label("no ABILITYCATEGORY of this name in the game mode or the load set")
    .with_note(format!(
        "PCGen drops every ability of this category (\"Cannot find Ability Category: {name}\") \
         and every ABILITY: or BONUS:ABILITYPOOL token that names it"
    ));
    d.with_did_you_mean_or(
        u.span,
        closest(name.as_str(), known.iter().map(Name::as_str)),
        "define it in an ABILITYCATEGORY file, or load the campaign that does",
    )
}

#[cfg(test)]
mod tests;
