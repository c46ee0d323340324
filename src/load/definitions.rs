//! What each campaign under the data folder defines: FACTDEF/FACTSETDEF names, GLOBAL, LOCAL
//! and CHANNEL variables, DYNAMICSCOPE categories and object keys, with the file and line of
//! each definition. A supplement checked alone misses what its core book defines; this index
//! lets the report name the campaign to declare (`PRECAMPAIGN:1,INCLUDES=…`).
//!
//! The scan is a cheap line scan (no token grammar, no model): it only needs names. It is
//! built lazily, at most once per run, and only when some load set has an unknown-name
//! finding ([`LazyDefinitions`], held by [`crate::load::CampaignIndex`]); the object keys,
//! which need every object file read, are a second part built only when an unknown object
//! is reported. Both are immutable once built (`Send + Sync`).

use crate::load::cache::FileCache;
use crate::load::campaign::{FileKind, parse_pcc, parse_pcc_cached};
use crate::load::fs::FileSystem;
use crate::load::index::CampaignIndex;
use crate::load::root::PcgenRoot;
use crate::load::text::{Line, lines};
use crate::source::{FileId, SourceFile, TextEncoding, decode_text};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// What a definition defines.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DefinedKind {
    /// `FACTDEF:<location>|Name` (`set` for FACTSETDEF).
    Fact {
        /// FACTSETDEF rather than FACTDEF.
        set: bool,
        /// The object kind the fact is defined for (`ABILITY`, `GLOBAL`, …), as written.
        location: String,
    },
    /// `GLOBAL:`/`LOCAL:`/`CHANNEL:` in a VARIABLE file; `scope` is `PC` for globals.
    Variable {
        /// The scope as written (`PC.EQUIPMENT`), `PC` for GLOBAL.
        scope: String,
        /// True for CHANNEL.
        channel: bool,
    },
    /// `DYNAMICSCOPE:Name` in a DATACONTROL file.
    DynamicScope,
    /// An object of a file kind (its KEY, else its name; `.COPY=` targets too).
    Object(FileKind),
    /// `CATEGORY:Name` in a DYNAMIC file.
    DynamicObject(String),
}

/// One definition found by the scan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// What it is.
    pub kind: DefinedKind,
    /// The name as written (shared by the campaigns listing its file).
    pub name: Arc<str>,
    /// The PCC that lists the file (a position in [`CampaignIndex::campaigns`]).
    pub campaign: usize,
    /// The defining file (shared by its definitions).
    pub path: Arc<Path>,
    /// 1-based line number.
    pub line: u32,
}

/// What one file's scan finds: `(name, kind, line)` of each definition.
type Scan = Vec<Scanned>;

/// One definition of a file's scan: the name as written and lower-cased (the index's key,
/// made while the files are scanned in parallel), what it is and its 1-based line.
#[derive(Debug)]
struct Scanned {
    name: Arc<str>,
    key: Arc<str>,
    kind: DefinedKind,
    line: u32,
}

/// Adds the definition of `name` at `line` to a file's scan.
fn defined(out: &mut Scan, name: &str, kind: DefinedKind, line: u32) {
    let name: Arc<str> = name.into();
    let key = if name.chars().any(char::is_uppercase) {
        name.to_lowercase().into()
    } else {
        Arc::clone(&name)
    };
    out.push(Scanned {
        name,
        key,
        kind,
        line,
    });
}

/// A file to scan: its path, its kind and the campaigns (by index) listing it.
type ScannedFile = (PathBuf, FileKind, Vec<usize>);

/// The name under which an object file's keys are kept in the run's file cache.
const OBJECT_KEYS: &str = "load::definitions::object_keys";

/// Definitions by lower-cased name.
///
/// Each definition is kept once, as its file and its place in the file's scan, chained to
/// the next of its name: the index of a whole data folder holds hundreds of thousands, and
/// a [`Definition`] (one per listing campaign) is made only for the names asked about.
#[derive(Clone, Debug, Default)]
pub struct Definitions {
    /// Each name's first and last entry in `entries`.
    by_name: crate::fxhash::FxHashMap<Arc<str>, (u32, u32)>,
    entries: Vec<Entry>,
    files: Vec<IndexedFile>,
}

/// One definition of [`Definitions`]: its file, its place in the file's scan, and the
/// next entry of the same name ([`NO_ENTRY`] for none).
#[derive(Clone, Copy, Debug)]
struct Entry {
    file: u32,
    at: u32,
    next: u32,
}

/// The end of a chain of [`Entry`]s.
const NO_ENTRY: u32 = u32::MAX;

/// A scanned file of [`Definitions`]: its path, the campaigns listing it (in path order)
/// and its scan.
#[derive(Clone, Debug)]
struct IndexedFile {
    path: Arc<Path>,
    campaigns: Vec<usize>,
    scan: Arc<Scan>,
}

impl Definitions {
    /// Every definition of `name` (case-insensitive), one per campaign listing its file:
    /// by file (campaign path order), place in the file, then campaign.
    pub fn named(&self, name: &str) -> Vec<Definition> {
        let mut out = Vec::new();
        let Some(&(first, _)) = self.by_name.get(name.to_lowercase().as_str()) else {
            return out;
        };
        let mut at = first;
        while let Some(e) = self.entries.get(at as usize) {
            let found = self.files.get(e.file as usize).and_then(|f| {
                let d = f.scan.get(e.at as usize)?;
                Some((f, d))
            });
            if let Some((f, d)) = found {
                out.extend(f.campaigns.iter().map(|&campaign| Definition {
                    kind: d.kind.clone(),
                    name: Arc::clone(&d.name),
                    campaign,
                    path: Arc::clone(&f.path),
                    line: d.line,
                }));
            }
            at = e.next;
        }
        out
    }

    /// How many names are defined.
    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    /// True when nothing was found.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// Adds the definition at `at` of the scan of file `file` under its `key`.
    fn add(&mut self, key: &Arc<str>, file: u32, at: u32) {
        let Ok(new) = u32::try_from(self.entries.len()) else {
            return;
        };
        self.entries.push(Entry {
            file,
            at,
            next: NO_ENTRY,
        });
        match self.by_name.get_mut(key) {
            Some((_, last)) => {
                if let Some(e) = self.entries.get_mut(*last as usize) {
                    e.next = new;
                }
                *last = new;
            }
            None => {
                self.by_name.insert(Arc::clone(key), (new, new));
            }
        }
    }

    /// Scans the files of `kinds` listed by every indexed campaign (each file once, under
    /// every campaign that lists it).
    pub fn scan(
        fs: &dyn FileSystem,
        root: &PcgenRoot,
        index: &CampaignIndex,
        wanted: impl Fn(FileKind) -> bool,
    ) -> Self {
        let files = Self::files_to_scan(fs, root, index, None, wanted);
        Self::of_files(&files, |path, kind| {
            let bytes = fs.read(path).ok()?;
            Some(Arc::new(scan_file(kind, &decode_text(&bytes).0)))
        })
    }

    /// The files of `kinds` listed by every indexed campaign, each once with its kind and
    /// the campaigns listing it, in campaign order.
    fn files_to_scan(
        fs: &dyn FileSystem,
        root: &PcgenRoot,
        index: &CampaignIndex,
        cache: Option<&FileCache>,
        wanted: impl Fn(FileKind) -> bool,
    ) -> Vec<ScannedFile> {
        // File → the campaigns listing it, and its kind; in campaign order.
        let mut files: Vec<ScannedFile> = Vec::new();
        let mut seen: HashMap<PathBuf, usize> = HashMap::new();
        for (ci, c) in index.campaigns().iter().enumerate() {
            // Through the run's cache when there is one: the load sets read the same PCCs.
            let campaign = match cache {
                Some(cache) => {
                    let Ok(pcc) = cache.read(fs, &c.path, || root.display(&c.path)) else {
                        continue;
                    };
                    parse_pcc_cached(&c.path, FileId(0), &pcc, root, &mut Vec::new())
                }
                None => {
                    let Ok(bytes) = fs.read(&c.path) else {
                        continue;
                    };
                    let source = SourceFile::new(
                        c.path.display().to_string(),
                        decode_text(&bytes).0,
                        TextEncoding::Utf8,
                    );
                    parse_pcc(&c.path, FileId(0), &source, root, &mut Vec::new())
                }
            };
            for e in campaign.entries.iter().filter(|e| wanted(e.kind)) {
                // A file listed again is known not to escape the root: asked once.
                if let Some(&i) = seen.get(&e.path) {
                    if let Some(f) = files.get_mut(i) {
                        if !f.2.contains(&ci) {
                            f.2.push(ci);
                        }
                    }
                    continue;
                }
                let escapes = match cache {
                    Some(cache) => cache.escape(fs, root, &e.path).is_some(),
                    None => root.escape(fs, &e.path).is_some(),
                };
                if escapes {
                    continue;
                }
                seen.insert(e.path.clone(), files.len());
                files.push((e.path.clone(), e.kind, vec![ci]));
            }
        }
        files
    }

    /// The definitions of `files`, each file's found by `scan_of` (`None`: unreadable).
    fn of_files(
        files: &[ScannedFile],
        scan_of: impl Fn(&Path, FileKind) -> Option<Arc<Scan>>,
    ) -> Self {
        let mut out = Definitions::default();
        for (path, kind, campaigns) in files {
            let Some(scan) = scan_of(path, *kind) else {
                continue;
            };
            let Ok(file) = u32::try_from(out.files.len()) else {
                break;
            };
            for (at, d) in (0u32..).zip(scan.iter()) {
                out.add(&d.key, file, at);
            }
            out.files.push(IndexedFile {
                path: Arc::from(path.as_path()),
                campaigns: campaigns.clone(),
                scan,
            });
        }
        out
    }
}

/// The object keys of a data folder by game system (the folder under the data folder),
/// kind (a FEAT file's objects are abilities) and lower-cased first letter: the pool a "did
/// you mean" for a key no campaign defines is chosen from. It does not depend on the load
/// set asking, so the answer is the same for every load set of the system.
#[derive(Debug, Default)]
pub struct KeyPools {
    pools: crate::fxhash::FxHashMap<(std::ffi::OsString, FileKind, u8), KeyPool>,
}

/// One pool's keys by length in characters (then key), and their lengths.
type KeyPool = (Vec<Arc<str>>, Vec<usize>);

impl KeyPools {
    fn of(objects: &Definitions, root: &PcgenRoot) -> Self {
        let mut pools: crate::fxhash::FxHashMap<_, Vec<Arc<str>>> = Default::default();
        for f in &objects.files {
            let Some(system) = system_of(root, &f.path) else {
                continue;
            };
            for d in f.scan.iter() {
                let (DefinedKind::Object(kind), Some(initial)) = (&d.kind, d.key.bytes().next())
                else {
                    continue;
                };
                pools
                    .entry((system.to_os_string(), pool_kind(*kind), initial))
                    .or_default()
                    .push(Arc::clone(&d.name));
            }
        }
        let pools = pools
            .into_iter()
            .map(|(at, mut keys)| {
                keys.sort_unstable_by(|a, b| (a.chars().count(), a).cmp(&(b.chars().count(), b)));
                keys.dedup();
                let lengths = keys.iter().map(|k| k.chars().count()).collect();
                (at, (keys, lengths))
            })
            .collect();
        KeyPools { pools }
    }

    /// The key of an object of `kind` in the game system of the data folder's file `path`
    /// closest to `key` (starting with the same letter), `Some(None)` when there is none
    /// near, and `None` when `path` is not under the data folder (no system to search).
    pub fn closest(
        &self,
        root: &PcgenRoot,
        path: &Path,
        kind: FileKind,
        key: &str,
    ) -> Option<Option<&str>> {
        let system = system_of(root, path)?;
        let Some(initial) = key.to_lowercase().bytes().next() else {
            return Some(None);
        };
        let Some((keys, lengths)) =
            self.pools
                .get(&(system.to_os_string(), pool_kind(kind), initial))
        else {
            return Some(None);
        };
        // Only the keys whose length is within the suggestion's bound can be suggested.
        let chars = key.chars().count();
        let bound = crate::name::suggestion_bound(chars);
        let from = lengths.partition_point(|&n| n + bound < chars);
        let to = lengths.partition_point(|&n| n <= chars + bound);
        let near = keys.get(from..to).unwrap_or(&[]);
        Some(crate::name::closest(key, near.iter().map(|k| &**k)))
    }
}

/// The game system folder of a file under the data folder.
fn system_of<'p>(root: &PcgenRoot, path: &'p Path) -> Option<&'p std::ffi::OsStr> {
    path.strip_prefix(&root.data).ok()?.iter().next()
}

/// The kind whose pool an object of `kind` is in: FEAT files make abilities.
fn pool_kind(kind: FileKind) -> FileKind {
    match kind {
        FileKind::Feat => FileKind::Ability,
        other => other,
    }
}

/// True for the file kinds whose definitions are names of the formula system.
fn control_kind(kind: FileKind) -> bool {
    matches!(
        kind,
        FileKind::DataControl | FileKind::Variable | FileKind::Dynamic
    )
}

/// True for the object file kinds.
fn object_kind(kind: FileKind) -> bool {
    !kind.is_formula_file()
}

/// The definitions of one file's text: `(name, kind, line)`.
fn scan_file(kind: FileKind, text: &str) -> Scan {
    let mode = crate::load::loadset::line_mode(kind);
    scan_lines(kind, text, &lines(FileId(0), text, mode))
}

/// The definitions of a file's `text` split into `lines` as the loader reads its `kind`.
fn scan_lines(kind: FileKind, text: &str, lines: &[Line]) -> Scan {
    let mut out = Vec::new();
    for line in lines {
        let token = |i: usize| {
            line.tokens
                .get(i)
                .and_then(|s| text.get(s.start as usize..s.end as usize))
                .map(str::trim)
        };
        let Some(first) = token(0) else {
            continue;
        };
        match kind {
            FileKind::DataControl => {
                let Some((key, value)) = first.split_once(':') else {
                    continue;
                };
                match key {
                    "FACTDEF" | "FACTSETDEF" => {
                        if let Some((loc, name)) = value.split_once('|') {
                            let what = DefinedKind::Fact {
                                set: key == "FACTSETDEF",
                                location: loc.trim().to_owned(),
                            };
                            defined(&mut out, name.trim(), what, line.number);
                        }
                    }
                    "DYNAMICSCOPE" => {
                        defined(
                            &mut out,
                            value.trim(),
                            DefinedKind::DynamicScope,
                            line.number,
                        );
                    }
                    _ => {}
                }
            }
            FileKind::Variable => {
                let (key, value) = first.split_once(':').unwrap_or(("GLOBAL", first));
                let (scope, decl) = match key {
                    "GLOBAL" => ("PC", value),
                    "LOCAL" | "CHANNEL" => match value.split_once('|') {
                        Some((s, d)) => (s.trim(), d),
                        None => continue,
                    },
                    _ => continue,
                };
                let name = decl.split_once('=').map_or(decl, |(_, n)| n).trim();
                let what = DefinedKind::Variable {
                    scope: scope.to_owned(),
                    channel: key == "CHANNEL",
                };
                defined(&mut out, name, what, line.number);
            }
            FileKind::Dynamic => {
                if let Some((cat, name)) = first.split_once(':') {
                    let what = DefinedKind::DynamicObject(cat.trim().to_owned());
                    defined(&mut out, name.trim(), what, line.number);
                }
            }
            _ if object_kind(kind) => {
                if let Some(name) = object_key(kind, first, |k| {
                    (1..line.tokens.len()).find_map(|i| token(i).and_then(|t| t.strip_prefix(k)))
                }) {
                    defined(&mut out, &name, DefinedKind::Object(kind), line.number);
                }
            }
            _ => {}
        }
    }
    out
}

/// The old-system variables one object file's text defines, as written, in text order. A
/// quick scan: only the lines that hold `DEFINE:` or `VAR|` (found with a vectorised
/// search over the whole text: most lines hold neither) are cut into tokens.
fn scan_old_variables(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut starts: Vec<usize> = [&b"DEFINE:"[..], &b"VAR|"[..]]
        .iter()
        .flat_map(|pat| memchr::memmem::find_iter(bytes, pat))
        .map(|i| {
            bytes
                .get(..i)
                .and_then(|b| memchr::memrchr(b'\n', b))
                .map_or(0, |n| n + 1)
        })
        .collect();
    starts.sort_unstable();
    starts.dedup();
    let mut out = Vec::new();
    for start in starts {
        let line = text
            .get(start..)
            .and_then(|t| t.split('\n').next())
            .unwrap_or("");
        if line.starts_with('#') {
            continue;
        }
        for token in line.split('\t').filter(|t| !t.is_empty()) {
            for v in old_variables_in_token(token.trim()) {
                out.push(v.name.to_owned());
            }
        }
    }
    out
}

/// The name under which a file's old-system variables are kept in the run's file cache.
const OLD_VARIABLES: &str = "load::definitions::old_variables";

/// The files of every campaign under the data folder that define each old-system variable
/// (`DEFINE`, `BONUS:VAR`; see [`old_variables_in_token`]). Built once per run from the
/// run's [`FileCache`]: each file is read once per run whether a load set or this index
/// asks first, and scanned once.
#[derive(Debug, Default)]
pub struct OldVariableFiles {
    /// Each scanned file, once.
    files: Vec<PathBuf>,
    /// Positions in `files` by lower-cased name, each file once per name, in campaign
    /// path order.
    by_name: HashMap<String, Vec<u32>>,
}

impl OldVariableFiles {
    /// The object files of every indexed campaign, each once, in campaign path order.
    fn to_scan(
        fs: &dyn FileSystem,
        root: &PcgenRoot,
        index: &CampaignIndex,
        cache: &FileCache,
    ) -> Vec<PathBuf> {
        let mut files = Vec::new();
        let mut seen: HashMap<PathBuf, ()> = HashMap::new();
        for c in index.campaigns() {
            let Ok(pcc) = cache.read(fs, &c.path, || root.display(&c.path)) else {
                continue;
            };
            let campaign = parse_pcc_cached(&c.path, FileId(0), &pcc, root, &mut Vec::new());
            for e in campaign.entries.iter().filter(|e| object_kind(e.kind)) {
                if seen.contains_key(&e.path) || cache.escape(fs, root, &e.path).is_some() {
                    continue;
                }
                seen.insert(e.path.clone(), ());
                files.push(e.path.clone());
            }
        }
        files
    }

    /// The old-system variables the file at `path` defines, read through `cache` and
    /// scanned once per run; `None` when it cannot be read.
    fn names_in(
        fs: &dyn FileSystem,
        root: &PcgenRoot,
        cache: &FileCache,
        path: &Path,
    ) -> Option<Arc<Vec<String>>> {
        let file = cache.read(fs, path, || root.display(path)).ok()?;
        Some(file.derived(OLD_VARIABLES, 0, |f| scan_old_variables(&f.source().text)))
    }

    /// The index of `files` (in their order), each file's names from `names_in`.
    fn of(files: &[PathBuf], names_in: impl Fn(&Path) -> Option<Arc<Vec<String>>>) -> Self {
        let mut out = OldVariableFiles::default();
        for path in files {
            let Some(names) = names_in(path) else {
                continue;
            };
            let Ok(at) = u32::try_from(out.files.len()) else {
                continue;
            };
            out.files.push(path.clone());
            for name in names.iter() {
                let files = out.by_name.entry(name.to_lowercase()).or_default();
                if files.last() != Some(&at) {
                    files.push(at);
                }
            }
        }
        out
    }

    /// The files that define the old-system variable `name` (case-insensitive).
    pub fn files_defining(&self, name: &str) -> impl Iterator<Item = &Path> {
        self.by_name
            .get(&name.to_lowercase())
            .into_iter()
            .flatten()
            .filter_map(|&i| self.files.get(i as usize))
            .map(PathBuf::as_path)
    }
}

/// The key an object line defines: `.COPY=` targets, else the KEY token, else the name
/// (without `CATEGORY=…|` or a `CLASS:`-style prefix); none for `.MOD`/`.FORGET`, SOURCE
/// lines and continuation lines.
fn object_key<'t>(
    kind: FileKind,
    first: &str,
    token: impl Fn(&str) -> Option<&'t str>,
) -> Option<String> {
    if first.starts_with("SOURCE") && first.contains(':') {
        return None;
    }
    if let Some(i) = first.find(".COPY=") {
        return Some(first.get(i + 6..)?.trim().to_owned());
    }
    if first.ends_with(".MOD") || first.ends_with(".FORGET") {
        return None;
    }
    match kind {
        FileKind::Class if !first.starts_with("CLASS:") => return None,
        FileKind::Kit if !first.starts_with("STARTPACK:") => return None,
        _ => {}
    }
    if let Some(key) = token("KEY:") {
        return Some(key.trim().to_owned());
    }
    let name = match kind {
        FileKind::Ability | FileKind::Feat => first
            .strip_prefix("CATEGORY=")
            .and_then(|r| r.split_once('|').map(|(_, k)| k))
            .unwrap_or(first),
        _ => first,
    };
    let name = match name.split_once(':') {
        Some((p, rest)) if !p.is_empty() && p.chars().all(|c| c.is_ascii_uppercase()) => rest,
        _ => name,
    };
    Some(name.trim().to_owned())
}

/// An old-system variable a token defines, with its bytes in the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OldVariable<'t> {
    /// The name, trimmed.
    pub name: &'t str,
    /// Where it is in the token.
    pub range: std::ops::Range<usize>,
}

/// The old-system variables a token defines: `DEFINE:name|…` (not the stat locks
/// `LOCK.STR`/`UNLOCK.STR`), and the targets of `BONUS:VAR|a,b|…` and
/// `TEMPBONUS:…|VAR|a,b|…` (PCGen keeps a bonus to a variable no DEFINE makes as a variable
/// of that name). Names holding a `%` placeholder are left out: their value is chosen.
pub fn old_variables_in_token<'t>(token: &'t str) -> Vec<OldVariable<'t>> {
    let mut out = Vec::new();
    // Most tokens are none of the three: their first byte rules them out (the scans of
    // whole files ask of millions of tokens).
    if !matches!(token.as_bytes().first(), Some(b'D' | b'B' | b'T')) {
        return out;
    }
    let Some((name, value)) = ["DEFINE", "BONUS", "TEMPBONUS"]
        .into_iter()
        .find_map(|name| {
            let value = token.strip_prefix(name)?.strip_prefix(':')?;
            Some((name, value))
        })
    else {
        return out;
    };
    let at = name.len() + 1;
    let mut push = |text: &'t str, start: usize| {
        let lead = text.len() - text.trim_start().len();
        let t = text.trim();
        let starts = |prefix: &str| {
            t.get(..prefix.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
        };
        if t.is_empty() || t.contains('%') || starts("LOCK.") || starts("UNLOCK.") {
            return;
        }
        out.push(OldVariable {
            name: t,
            range: start + lead..start + lead + t.len(),
        });
    };
    match name {
        "DEFINE" => {
            let head = value.split('|').next().unwrap_or("");
            push(head, at);
        }
        "BONUS" | "TEMPBONUS" => {
            let mut fs = Vec::new();
            let mut start = at;
            for part in value.split('|') {
                fs.push((start, part));
                start += part.len() + 1;
            }
            // `VAR|names|…`, after `PC|`/`ANYPC|` or `EQ|types|` for TEMPBONUS.
            if let Some(i) = fs.iter().position(|(_, f)| f.eq_ignore_ascii_case("VAR")) {
                let at_head = match name {
                    "BONUS" => i == 0,
                    _ => (1..=2).contains(&i),
                };
                if let (Some((start, names)), true) = (fs.get(i + 1), at_head) {
                    let mut s = *start;
                    for item in names.split(',') {
                        push(item, s);
                        s += item.len() + 1;
                    }
                }
            }
        }
        _ => {}
    }
    out
}

/// The definitions index of one run, built on first need: the formula-system names
/// (DATACONTROL, VARIABLE and DYNAMIC files) and, separately, the object keys.
#[derive(Debug, Default)]
pub struct LazyDefinitions {
    names: OnceLock<Definitions>,
    /// The object files [`LazyDefinitions::objects`] scans, and the next of them no thread
    /// has taken yet.
    object_files: OnceLock<Vec<ScannedFile>>,
    object_next: AtomicUsize,
    objects: OnceLock<Definitions>,
    key_pools: OnceLock<KeyPools>,
    /// The files [`LazyDefinitions::old_variables`] scans, and the next of them no thread
    /// has taken yet.
    old_variable_files: OnceLock<Vec<PathBuf>>,
    old_variable_next: AtomicUsize,
    old_variables: OnceLock<OldVariableFiles>,
}

impl Clone for LazyDefinitions {
    /// A clone starts unbuilt (the index is cheap to rebuild and rarely cloned).
    fn clone(&self) -> Self {
        LazyDefinitions::default()
    }
}

impl LazyDefinitions {
    /// FACTDEFs, variables, channels, DYNAMICSCOPEs and DYNAMIC objects of every campaign
    /// (scanned on the first call).
    pub fn names(
        &self,
        fs: &dyn FileSystem,
        root: &PcgenRoot,
        index: &CampaignIndex,
    ) -> &Definitions {
        self.names
            .get_or_init(|| Definitions::scan(fs, root, index, control_kind))
    }

    /// Object keys of every campaign's object files, read through the run's `cache` and
    /// scanned once per file and run (on the first call). As for
    /// [`LazyDefinitions::old_variables`], every thread that needs the index while it is
    /// being built scans the files no other has taken: the prerequisite keys (`R0106`) and
    /// the defining-campaign hints ask for it in most load sets of a data folder.
    pub fn objects(
        &self,
        fs: &dyn FileSystem,
        root: &PcgenRoot,
        index: &CampaignIndex,
        cache: &FileCache,
    ) -> &Definitions {
        if let Some(built) = self.objects.get() {
            return built;
        }
        let files = self
            .object_files
            .get_or_init(|| Definitions::files_to_scan(fs, root, index, Some(cache), object_kind));
        let scan_of = |path: &Path, kind: FileKind| -> Option<Arc<Scan>> {
            let file = cache.read(fs, path, || root.display(path)).ok()?;
            Some(file.derived(OBJECT_KEYS, kind as u32, |f| {
                // The lines the load sets read the file by, split once per run.
                let mode = crate::load::loadset::line_mode(kind);
                scan_lines(kind, &f.source().text, f.shared_lines(mode))
            }))
        };
        while let Some((path, kind, _)) =
            files.get(self.object_next.fetch_add(1, Ordering::Relaxed))
        {
            scan_of(path, *kind);
        }
        self.objects
            .get_or_init(|| Definitions::of_files(files, scan_of))
    }

    /// The keys of [`LazyDefinitions::objects`] by game system, kind and first letter: what
    /// a key no campaign defines is suggested from (built on the first call).
    pub fn key_pools(
        &self,
        fs: &dyn FileSystem,
        root: &PcgenRoot,
        index: &CampaignIndex,
        cache: &FileCache,
    ) -> &KeyPools {
        if let Some(built) = self.key_pools.get() {
            return built;
        }
        let objects = self.objects(fs, root, index, cache);
        self.key_pools.get_or_init(|| KeyPools::of(objects, root))
    }

    /// The files defining each old-system variable (`DEFINE`, `BONUS:VAR`) among every
    /// campaign's object files, read through the run's `cache` (scanned on the first call).
    pub fn old_variables(
        &self,
        fs: &dyn FileSystem,
        root: &PcgenRoot,
        index: &CampaignIndex,
        cache: &FileCache,
    ) -> &OldVariableFiles {
        if let Some(built) = self.old_variables.get() {
            return built;
        }
        let files = self
            .old_variable_files
            .get_or_init(|| OldVariableFiles::to_scan(fs, root, index, cache));
        // Every thread that needs the index while it is being built reads and scans the
        // files no other has taken (load sets are checked in parallel, and one thread alone
        // took a good part of the whole check's time), then one of them puts it together
        // from what the cache then holds.
        let names_in = |path: &Path| OldVariableFiles::names_in(fs, root, cache, path);
        while let Some(path) = files.get(self.old_variable_next.fetch_add(1, Ordering::Relaxed)) {
            names_in(path);
        }
        self.old_variables
            .get_or_init(|| OldVariableFiles::of(files, names_in))
    }

    /// True once the names part has been scanned (for tests: the scan is lazy).
    pub fn names_built(&self) -> bool {
        self.names.get().is_some()
    }

    /// True once the objects part has been scanned.
    pub fn objects_built(&self) -> bool {
        self.objects.get().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::fs::MemoryFs;

    fn fixture() -> (MemoryFs, PcgenRoot) {
        let fs = MemoryFs::new()
            .with(
                "/pc/data/pf/core/core.pcc",
                "CAMPAIGN:Core Rulebook\nGAMEMODE:Pathfinder\nDATACONTROL:dc.lst\n\
                 VARIABLE:var.lst\nDYNAMIC:dyn.lst\nABILITY:abilities.lst\nCLASS:classes.lst\n\
                 EQUIPMENT:eq.lst|(EXCLUDE:Nothing)\n",
            )
            .with(
                "/pc/data/pf/core/dc.lst",
                "# FACTDEF:ABILITY|Commented\nFACTDEF:ABILITY|Archetype_X\tDATAFORMAT:STRING\n\
                 FACTSETDEF:RACE|Types\nDYNAMICSCOPE:MOVEMENT\n",
            )
            .with(
                "/pc/data/pf/core/var.lst",
                "GLOBAL:NUMBER=Hands\nLOCAL:PC.EQUIPMENT|NUMBER=Weight\r\nPlain\n",
            )
            .with("/pc/data/pf/core/dyn.lst", "MOVEMENT:Walk\n")
            .with(
                "/pc/data/pf/core/abilities.lst",
                "SOURCELONG:Core\nCATEGORY=Feat|Power Attack\tKEY:PA\nDodge\n\
                 Dodge.MOD\tTYPE:x\nDodge.COPY=Mobility\n",
            )
            .with(
                "/pc/data/pf/core/classes.lst",
                "CLASS:Fighter\tHD:10\n1\tBONUS:COMBAT|BASEAB|1\n",
            )
            .with("/pc/data/pf/core/eq.lst", "Longsword\tCOST:15\n")
            .with(
                "/pc/data/pf/bundle.pcc",
                "CAMPAIGN:Bundle\nGAMEMODE:Pathfinder\nDATACONTROL:core/dc.lst\n",
            );
        (fs, PcgenRoot::new("/pc".into(), "/pc/data".into()))
    }

    fn names(d: &Definitions) -> Vec<(String, u32, usize)> {
        let mut all: Vec<(String, u32, usize)> = d
            .by_name
            .keys()
            .flat_map(|k| d.named(k))
            .map(|x| (x.name.to_string(), x.line, x.campaign))
            .collect();
        all.sort();
        all
    }

    #[test]
    fn scans_formula_names_with_their_lines_under_every_listing_campaign() {
        let (fs, root) = fixture();
        let index = CampaignIndex::build(&fs, &root);
        let lazy = LazyDefinitions::default();
        assert!(!lazy.names_built());
        let d = lazy.names(&fs, &root, &index);
        // Campaigns in path order: bundle.pcc (0), core/core.pcc (1).
        assert_eq!(
            names(d),
            vec![
                ("Archetype_X".into(), 2, 0),
                ("Archetype_X".into(), 2, 1),
                ("Hands".into(), 1, 1),
                ("MOVEMENT".into(), 4, 0),
                ("MOVEMENT".into(), 4, 1),
                ("Plain".into(), 3, 1),
                ("Types".into(), 3, 0),
                ("Types".into(), 3, 1),
                ("Walk".into(), 1, 1),
                ("Weight".into(), 2, 1),
            ]
        );
        let weight = d.named("weight").first().map(|x| x.kind.clone());
        assert_eq!(
            weight,
            Some(DefinedKind::Variable {
                scope: "PC.EQUIPMENT".into(),
                channel: false
            })
        );
        assert!(lazy.names_built() && !lazy.objects_built());
    }

    #[test]
    fn scans_object_keys_without_mods_or_continuations() {
        let (fs, root) = fixture();
        let index = CampaignIndex::build(&fs, &root);
        let d = Definitions::scan(&fs, &root, &index, object_kind);
        let found: Vec<String> = names(&d).into_iter().map(|x| x.0).collect();
        assert_eq!(
            found,
            vec!["Dodge", "Fighter", "Longsword", "Mobility", "PA"]
        );
    }

    #[test]
    fn the_lazy_index_can_be_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<LazyDefinitions>();
    }

    #[test]
    fn scans_old_variables_outside_comments() {
        let text = "# DEFINE:Not|0\nA\tDEFINE:X|0\n\nB\tBONUS:VAR|Y,Z|1\tDEFINE:W|2\r\n";
        assert_eq!(scan_old_variables(text), ["X", "Y", "Z", "W"]);
    }

    #[test]
    fn finds_the_files_defining_an_old_variable_through_the_run_cache() {
        let (fs, root) = fixture();
        let fs = fs.with(
            "/pc/data/pf/core/classes.lst",
            "CLASS:Fighter\tHD:10\tDEFINE:FighterLevel|0\n1\tBONUS:VAR|fighterlevel|1\n",
        );
        let index = CampaignIndex::build(&fs, &root);
        let cache = FileCache::new();
        let lazy = LazyDefinitions::default();
        let files = lazy.old_variables(&fs, &root, &index, &cache);
        let found: Vec<&Path> = files.files_defining("FIGHTERLEVEL").collect();
        assert_eq!(found, [Path::new("/pc/data/pf/core/classes.lst")]);
        assert_eq!(files.files_defining("Other").count(), 0);
        assert!(
            cache
                .get(Path::new("/pc/data/pf/core/classes.lst"))
                .is_some(),
            "read through the run's cache"
        );
    }

    #[test]
    fn finds_object_keys_through_the_run_cache() {
        let (fs, root) = fixture();
        let fs = fs.with(
            "/pc/data/pf/core/classes.lst",
            "CLASS:Fighter\tHD:10\n1\tBONUS:VAR|FighterLevel|1\nCLASS:Rogue\tKEY:Thief\n",
        );
        let index = CampaignIndex::build(&fs, &root);
        let cache = FileCache::new();
        let lazy = LazyDefinitions::default();
        let objects = lazy.objects(&fs, &root, &index, &cache);
        let kinds = |name: &str| -> Vec<DefinedKind> {
            objects.named(name).iter().map(|d| d.kind.clone()).collect()
        };
        assert_eq!(kinds("fighter"), [DefinedKind::Object(FileKind::Class)]);
        assert_eq!(kinds("Thief"), [DefinedKind::Object(FileKind::Class)]);
        assert!(kinds("Rogue").is_empty(), "a KEY replaces the name");
        assert!(lazy.objects_built());
        assert!(
            cache
                .get(Path::new("/pc/data/pf/core/classes.lst"))
                .is_some(),
            "read through the run's cache"
        );
    }

    #[test]
    fn finds_the_variables_a_token_defines() {
        let names = |t: &str| {
            old_variables_in_token(t)
                .iter()
                .map(|d| {
                    assert_eq!(&t[d.range.clone()], d.name);
                    d.name.to_owned()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names("DEFINE:MAXLEVELSTAT=STR|STRSCORE-10"),
            ["MAXLEVELSTAT=STR"]
        );
        assert!(names("DEFINE:LOCK.STR|10").is_empty());
        assert_eq!(names("BONUS:VAR|A, B|2"), ["A", "B"]);
        assert!(names("BONUS:VAR|%LIST|2").is_empty());
        assert_eq!(names("TEMPBONUS:PC|VAR|Rage|4"), ["Rage"]);
        assert!(names("BONUS:COMBAT|AC|2").is_empty());
    }
}
