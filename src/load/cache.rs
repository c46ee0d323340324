//! The run's shared file cache: each file read, decoded, indexed and split into lines once.
//!
//! A folder of PCCs is checked as many load sets, and most of them read the same files (a
//! core rulebook is listed by every supplement). [`FileCache`] keeps what depends on a file
//! alone — its decoded text with the line index ([`SourceFile`]), the not-UTF-8 warning, its
//! token lines per [`LineMode`], the findings of checks that read the file alone (the token
//! vocabulary's, [`CachedFile::findings`]) — behind `Arc`s that every load set shares; what depends on the
//! load set (which files, in which order, filters, the model and its checks) is built per
//! load set on top of it. The cache is `Send + Sync`: load sets are checked in parallel.
//!
//! A load set numbers its files itself ([`FileId`]s are per [`SourceMap`]), so spans from the
//! cache are stored against [`CACHE_FILE`] and moved onto the load set's id when handed out.
//! One cache serves one PCGen root (display paths are taken from the first reader); an editor
//! that changes a file drops it with [`FileCache::forget`] and reads it again.

use crate::diagnostic::Diagnostic;
use crate::fxhash::FxHashMap;
use crate::load::fs::FileSystem;
use crate::load::gamemode::{GameMode, read_game_modes};
use crate::load::root::{Escape, PcgenRoot};
use crate::load::text::{Line, LineMode, lines, read_source};
use crate::source::{FileId, SourceFile, SourceMap, Span};
use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// The placeholder file id of spans stored in the cache.
pub const CACHE_FILE: FileId = FileId(0);

/// One file as read: everything about it that does not depend on a load set.
#[derive(Debug)]
pub struct CachedFile {
    source: Arc<SourceFile>,
    not_utf8: Option<Diagnostic>,
    lines: [OnceLock<Vec<Line>>; 3],
    /// Findings about the file alone, by what found them (see [`CachedFile::findings`]).
    findings: Mutex<Vec<Findings>>,
    /// What later layers derived from the file alone (see [`CachedFile::derived`]).
    derived: Mutex<Vec<Derived>>,
    /// What later layers keep for every file of its cache (see [`CachedFile::run_shared`]).
    run: Arc<RunShared>,
}

/// Values later layers keep for every file of one [`FileCache`] (one run), by name: what
/// they number or intern across files lives as long as the cache, and no longer.
#[derive(Default)]
struct RunShared {
    values: Mutex<Vec<(&'static str, Arc<dyn Any + Send + Sync>)>>,
}

/// Printed as the names of the values kept.
impl std::fmt::Debug for RunShared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let values = self.values.lock().unwrap_or_else(|e| e.into_inner());
        f.debug_list()
            .entries(values.iter().map(|(n, _)| n))
            .finish()
    }
}

/// One value derived from a file by a later layer: its name, its variant, the value (empty
/// while the first asker computes it).
type Derived = (&'static str, u32, Arc<DerivedSlot>);

/// Where a derived value is kept; locked while it is computed.
type DerivedSlot = Mutex<Option<Arc<dyn Any + Send + Sync>>>;

/// The value of a [`DerivedSlot`] as a `T`, when it holds one.
fn stored<T: Any + Send + Sync>(value: &Option<Arc<dyn Any + Send + Sync>>) -> Option<Arc<T>> {
    value
        .as_ref()
        .and_then(|v| Arc::clone(v).downcast::<T>().ok())
}

/// What one finder found in a file, with spans against [`CACHE_FILE`].
type Findings = (&'static str, Arc<[Diagnostic]>);

/// `d` with every span in file `from` moved to file `to`; `None` when a span lies in
/// another file (such a finding is not the file's alone).
fn moved(d: &Diagnostic, from: FileId, to: FileId) -> Option<Diagnostic> {
    if d.spans().any(|s| s.file != from) {
        return None;
    }
    let mut d = d.clone();
    d.move_to(to);
    Some(d)
}

impl CachedFile {
    /// The value named `name` that every file of this file's cache shares (made with
    /// `Default` on first use): for what a later layer numbers or interns across the files
    /// of a run, such as object keys.
    pub fn run_shared<T: Any + Send + Sync + Default>(&self, name: &'static str) -> Arc<T> {
        let mut values = self.run.values.lock().unwrap_or_else(|e| e.into_inner());
        let known = values
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| Arc::clone(v).downcast::<T>().ok());
        known.unwrap_or_else(|| {
            let made = Arc::new(T::default());
            values.push((name, made.clone()));
            made
        })
    }

    /// The decoded text, display path and line index.
    pub fn source(&self) -> &Arc<SourceFile> {
        &self.source
    }

    /// The [`crate::load::codes::NOT_UTF8`] warning (when the file is not UTF-8), placed in
    /// the load set's file `id`.
    pub fn not_utf8(&self, id: FileId) -> Option<Diagnostic> {
        self.not_utf8
            .as_ref()
            .and_then(|d| moved(d, CACHE_FILE, id))
    }

    /// What `finder` (a name, e.g. the token vocabulary's check of one file kind) finds in
    /// this file alone, computed by the first load set that asks and handed to the others:
    /// `compute` gets the load set's file `id` and returns diagnostics in it; they are kept
    /// against [`CACHE_FILE`] and moved onto each later asker's id. A result with a span in
    /// another file is not kept (it is not the file's alone).
    pub fn findings(
        &self,
        finder: &'static str,
        id: FileId,
        compute: impl FnOnce(FileId) -> Vec<Diagnostic>,
    ) -> Vec<Diagnostic> {
        let lock = || self.findings.lock().unwrap_or_else(|e| e.into_inner());
        let known = lock()
            .iter()
            .find(|(f, _)| *f == finder)
            .map(|(_, d)| Arc::clone(d));
        if let Some(known) = known {
            return known
                .iter()
                .filter_map(|d| moved(d, CACHE_FILE, id))
                .collect();
        }
        let found = compute(id);
        let kept: Option<Vec<Diagnostic>> =
            found.iter().map(|d| moved(d, id, CACHE_FILE)).collect();
        if let Some(kept) = kept {
            let mut all = lock();
            if !all.iter().any(|(f, _)| *f == finder) {
                all.push((finder, kept.into()));
            }
        }
        found
    }

    /// What a later layer derives from this file alone — `name` says what, `variant` how it
    /// was read (e.g. the file kind) — computed by the first load set that asks and shared
    /// with the others (a later layer's type: the loader stores it without knowing it). A
    /// load set asking while another computes it waits for that value rather than compute
    /// it again (load sets checked at once share their core books, whose values are the
    /// dearest). `compute` must depend on the file alone (its text and
    /// [`CachedFile::shared_lines`]) and must not ask for the same value of the same file.
    pub fn derived<T: Any + Send + Sync>(
        &self,
        name: &'static str,
        variant: u32,
        compute: impl FnOnce(&Self) -> T,
    ) -> Arc<T> {
        let slot = self.slot(name, variant);
        // Held while computing: a second asker waits here. A panic in `compute` leaves the
        // slot empty, and the next asker computes it.
        let mut value = slot.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(known) = stored(&value) {
            return known;
        }
        let made = Arc::new(compute(self));
        if value.is_none() {
            *value = Some(made.clone());
        }
        made
    }

    /// As [`CachedFile::derived`], for a value whose `compute` waits on work shared by the
    /// whole run (an index of the data folder that every thread helps build): a second
    /// asker computes it too rather than wait behind the slot while the first builds the
    /// shared work alone, and the first value stored is the one kept.
    pub fn derived_without_waiting<T: Any + Send + Sync>(
        &self,
        name: &'static str,
        variant: u32,
        compute: impl FnOnce(&Self) -> T,
    ) -> Arc<T> {
        let slot = self.slot(name, variant);
        let lock = || slot.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(known) = stored(&lock()) {
            return known;
        }
        let made = Arc::new(compute(self));
        let mut value = lock();
        match stored(&value) {
            Some(first) => first,
            None => {
                *value = Some(made.clone());
                made
            }
        }
    }

    /// The slot of the value `name` derived with `variant`, made empty on first ask.
    fn slot(&self, name: &'static str, variant: u32) -> Arc<DerivedSlot> {
        // A panic while the lock was held cannot leave the list half-changed (one push).
        let mut all = self.derived.lock().unwrap_or_else(|e| e.into_inner());
        match all.iter().find(|(n, v, _)| *n == name && *v == variant) {
            Some((_, _, slot)) => Arc::clone(slot),
            None => {
                let slot: Arc<DerivedSlot> = Arc::default();
                all.push((name, variant, Arc::clone(&slot)));
                slot
            }
        }
    }

    /// The file's meaningful lines read with `mode`, split once per mode and run, with spans
    /// against [`CACHE_FILE`] (for what is derived from the file alone).
    pub fn shared_lines(&self, mode: LineMode) -> &[Line] {
        let slot = match mode {
            LineMode::Object => &self.lines[0],
            LineMode::Trimmed => &self.lines[1],
            LineMode::Whole => &self.lines[2],
        };
        slot.get_or_init(|| lines(CACHE_FILE, &self.source.text, mode))
    }

    /// The file's meaningful lines read with `mode` (split once per mode and run), with spans
    /// in the load set's file `id`.
    pub fn lines(&self, mode: LineMode, id: FileId) -> Vec<Line> {
        self.shared_lines(mode)
            .iter()
            .map(|l| Line {
                number: l.number,
                span: Span { file: id, ..l.span },
                tokens: l.tokens.iter().map(|t| Span { file: id, ..*t }).collect(),
            })
            .collect()
    }
}

/// A file's lines in one load set: the run's shared split ([`CachedFile::shared_lines`]),
/// placed in the load set's file (spans re-tagged with its [`FileId`]) only when first read
/// as a slice. Most load sets never read most of their lines that way — the model reads
/// the shared split ([`FileLines::shared`]) and the token vocabulary's findings are kept per
/// file — so a load set does not copy every line of every file it lists.
#[derive(Clone)]
pub struct FileLines {
    file: Arc<CachedFile>,
    mode: LineMode,
    id: FileId,
    placed: OnceLock<Vec<Line>>,
}

impl FileLines {
    /// The lines of `file` read with `mode`, for the load set's file `id`.
    pub fn new(file: Arc<CachedFile>, mode: LineMode, id: FileId) -> Self {
        Self {
            file,
            mode,
            id,
            placed: OnceLock::new(),
        }
    }

    /// The shared lines, spans against [`CACHE_FILE`] (move a span onto the load set's
    /// file with [`FileLines::place`]).
    pub fn shared(&self) -> &[Line] {
        self.file.shared_lines(self.mode)
    }

    /// `span` of a shared line moved onto the load set's file.
    pub fn place(&self, span: Span) -> Span {
        Span {
            file: self.id,
            ..span
        }
    }

    /// Number of lines (without placing them).
    pub fn len(&self) -> usize {
        self.shared().len()
    }

    /// True when the file has no meaningful line.
    pub fn is_empty(&self) -> bool {
        self.shared().is_empty()
    }
}

impl std::ops::Deref for FileLines {
    type Target = [Line];

    /// The lines with spans in the load set's file (placed on first use).
    fn deref(&self) -> &[Line] {
        self.placed
            .get_or_init(|| self.file.lines(self.mode, self.id))
    }
}

impl<'a> IntoIterator for &'a FileLines {
    type Item = &'a Line;
    type IntoIter = std::slice::Iter<'a, Line>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl std::fmt::Debug for FileLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A path as a hash key: its bytes (the loader's paths are normalised, so equal paths are
/// equal bytes). Hashing a `Path` walks its components, and every load set looks up each
/// file it lists: that walk cost more than the look-up.
pub(crate) fn path_key(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

/// Paths asked about, by [`path_key`].
type ByPath<V> = FxHashMap<Box<[u8]>, V>;

/// Files read once per run, shared by every load set (see the module doc).
#[derive(Debug, Default)]
pub struct FileCache {
    files: Mutex<ByPath<Arc<CachedFile>>>,
    game_modes: OnceLock<(PathBuf, Arc<[GameMode]>)>,
    /// [`PcgenRoot::escape`] of each path asked about, by root folder and path: resolving
    /// links costs a system call per folder on the path, and every load set asks again for
    /// each file it lists.
    escapes: Mutex<Vec<(PathBuf, ByPath<Option<Escape>>)>>,
    /// Folders with their links resolved (`None`: not there), for [`FileCache::escape`]:
    /// the files of a dataset share a few folders, and the root is asked about each time.
    folders: Mutex<ByPath<Option<PathBuf>>>,
    /// What later layers keep for every file of the cache ([`CachedFile::run_shared`]).
    run: Arc<RunShared>,
}

impl FileCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    fn map(&self) -> std::sync::MutexGuard<'_, ByPath<Arc<CachedFile>>> {
        // A panic while the lock was held cannot leave the map half-changed (one insert or
        // remove), so a poisoned lock is still good.
        self.files
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The file at `path` if it was read already.
    pub fn get(&self, path: &Path) -> Option<Arc<CachedFile>> {
        self.map().get(path_key(path)).cloned()
    }

    /// The file at `path` (shown to users as `display`), read through `fs` the first time.
    /// Read errors are not kept: each load set that lists the file reports them.
    pub fn read(
        &self,
        fs: &dyn FileSystem,
        path: &Path,
        display: impl FnOnce() -> String,
    ) -> std::io::Result<Arc<CachedFile>> {
        if let Some(f) = self.get(path) {
            return Ok(f);
        }
        // Read without holding the lock: two load sets may read one file at the same time,
        // and the first to finish wins (both read the same bytes).
        let mut one = SourceMap::new();
        let (id, not_utf8) = read_source(fs, path, display(), &mut one)?;
        let Some(source) = one.get_shared(id).cloned() else {
            return Err(std::io::Error::other("file vanished from its source map"));
        };
        let file = Arc::new(CachedFile {
            source,
            not_utf8,
            lines: Default::default(),
            findings: Mutex::default(),
            derived: Mutex::default(),
            run: Arc::clone(&self.run),
        });
        Ok(self
            .map()
            .entry(path_key(path).into())
            .or_insert(file)
            .clone())
    }

    /// Drops the file at `path` (it changed); load sets holding it keep their copy.
    pub fn forget(&self, path: &Path) {
        self.map().remove(path_key(path));
        for (_, paths) in self.escape_memo().iter_mut() {
            paths.remove(path_key(path));
        }
        self.folder_memo().clear();
    }

    /// A cache holding what this one holds but the files at `paths` (they changed), for
    /// an editor whose check of the old texts still runs over this one: that check may
    /// still read the old texts into this cache, never into the new one. Files are shared,
    /// not copied; what later layers keep for the run is shared too.
    pub fn without(&self, paths: &[&Path]) -> FileCache {
        let mut files = self.map().clone();
        let mut escapes = self.escape_memo().clone();
        for p in paths {
            files.remove(path_key(p));
            for (_, known) in escapes.iter_mut() {
                known.remove(path_key(p));
            }
        }
        FileCache {
            files: Mutex::new(files),
            game_modes: self.game_modes.clone(),
            escapes: Mutex::new(escapes),
            folders: Mutex::default(),
            run: Arc::clone(&self.run),
        }
    }

    fn escape_memo(&self) -> std::sync::MutexGuard<'_, Vec<(PathBuf, ByPath<Option<Escape>>)>> {
        // As for `map`: one insert or remove cannot be left half-done.
        self.escapes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn folder_memo(&self) -> std::sync::MutexGuard<'_, ByPath<Option<PathBuf>>> {
        // As for `map`.
        self.folders
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The folder `dir` with its links resolved, once per run.
    fn real_folder(&self, fs: &dyn FileSystem, dir: &Path) -> Option<PathBuf> {
        if let Some(known) = self.folder_memo().get(path_key(dir)) {
            return known.clone();
        }
        let real = fs.canonical(dir);
        self.folder_memo()
            .insert(path_key(dir).into(), real.clone());
        real
    }

    /// [`PcgenRoot::escape`] of `path`, worked out once per run (the links on a path do
    /// not change during a check; [`FileCache::forget`] drops it with the file), with the
    /// links of its folder and of the root resolved once per folder
    /// ([`FileSystem::not_a_link`] tells when the file's own name is no link).
    pub fn escape(&self, fs: &dyn FileSystem, root: &PcgenRoot, path: &Path) -> Option<Escape> {
        if root.outside == crate::load::root::OutsideRoot::Allow {
            return None;
        }
        if let Some(known) = self
            .escape_memo()
            .iter()
            .find(|(r, _)| path_key(r) == path_key(&root.root))
            .and_then(|(_, paths)| paths.get(path_key(path)))
        {
            return known.clone();
        }
        let found = root.escape_with(
            path,
            |p| self.real_folder(fs, p),
            |p| match (p.parent(), p.file_name()) {
                (Some(dir), Some(name)) if fs.not_a_link(p) => {
                    self.real_folder(fs, dir).map(|d| d.join(name))
                }
                _ => fs.canonical(p),
            },
        );
        let mut memo = self.escape_memo();
        let at = match memo
            .iter()
            .position(|(r, _)| path_key(r) == path_key(&root.root))
        {
            Some(at) => at,
            None => {
                memo.push((root.root.clone(), ByPath::default()));
                memo.len() - 1
            }
        };
        if let Some((_, paths)) = memo.get_mut(at) {
            paths.insert(path_key(path).into(), found.clone());
        }
        found
    }

    /// Number of files read.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// True before any file was read.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The game modes below `dir` (read once and shared; another folder is read each time).
    pub fn game_modes(&self, fs: &dyn FileSystem, dir: &Path) -> Arc<[GameMode]> {
        let (at, modes) = self
            .game_modes
            .get_or_init(|| (dir.to_path_buf(), read_game_modes(fs, dir).into()));
        if at == dir {
            Arc::clone(modes)
        } else {
            read_game_modes(fs, dir).into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::fs::MemoryFs;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn the_files_of_one_cache_share_their_run_values_and_another_cache_has_its_own() {
        let fs = MemoryFs::new()
            .with("/d/a.lst", "A\n")
            .with("/d/b.lst", "B\n");
        let read = |cache: &FileCache, path: &str| {
            cache
                .read(&fs, Path::new(path), || path.into())
                .expect("in memory")
        };
        let (one, other) = (FileCache::new(), FileCache::new());
        let a = read(&one, "/d/a.lst").run_shared::<Mutex<Vec<u32>>>("test::numbers");
        a.lock().expect("not poisoned").push(7);
        let b = read(&one, "/d/b.lst").run_shared::<Mutex<Vec<u32>>>("test::numbers");
        assert_eq!(*b.lock().expect("not poisoned"), vec![7]);
        let c = read(&other, "/d/a.lst").run_shared::<Mutex<Vec<u32>>>("test::numbers");
        assert!(c.lock().expect("not poisoned").is_empty());
    }

    #[test]
    fn a_derived_value_asked_for_at_once_is_computed_once() {
        let fs = MemoryFs::new().with("/d/a.lst", "A\n");
        let cache = FileCache::new();
        let a = cache
            .read(&fs, Path::new("/d/a.lst"), || "a.lst".into())
            .expect("in memory");
        let runs = std::sync::atomic::AtomicUsize::new(0);
        let ask = || {
            a.derived("test::slow", 0, |f| {
                runs.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                std::thread::sleep(std::time::Duration::from_millis(20));
                f.source().text.len()
            })
        };
        let values: Vec<usize> = std::thread::scope(|s| {
            let askers: Vec<_> = (0..4).map(|_| s.spawn(ask)).collect();
            askers
                .into_iter()
                .map(|h| *h.join().expect("no panic"))
                .collect()
        });
        assert_eq!(values, [2, 2, 2, 2]);
        assert_eq!(runs.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[test]
    fn a_files_findings_are_computed_once_and_follow_the_askers_id() {
        let fs = MemoryFs::new().with("/d/a.lst", "A\tKEY:x\n");
        let cache = FileCache::new();
        let a = cache
            .read(&fs, Path::new("/d/a.lst"), || "a.lst".into())
            .unwrap();
        let code = crate::load::codes::NOT_UTF8;
        let finding = |id: FileId| {
            let span = Span {
                file: id,
                start: 2,
                end: 5,
            };
            Diagnostic::error(code, span, "found").with_secondary(span, "here")
        };
        let mut runs = 0;
        let first = a.findings("test", FileId(3), |id| {
            runs += 1;
            vec![finding(id)]
        });
        let second = a.findings("test", FileId(9), |id| {
            runs += 1;
            vec![finding(id)]
        });
        assert_eq!(runs, 1, "computed by the first asker only");
        assert_eq!(first, vec![finding(FileId(3))]);
        assert_eq!(second, vec![finding(FileId(9))]);
        // Another finder computes its own; a finding pointing into another file is not kept.
        let elsewhere = |id: FileId| {
            let mut d = finding(id);
            d.labels[0].span.file = FileId(100);
            vec![d]
        };
        for _ in 0..2 {
            a.findings("other", FileId(3), |id| {
                runs += 1;
                elsewhere(id)
            });
        }
        assert_eq!(runs, 3);
    }

    #[test]
    fn a_file_is_read_once_and_its_lines_follow_the_load_sets_id() {
        assert_send_sync::<FileCache>();
        let fs = MemoryFs::new().with("/d/a.lst", "# c\nA\tKEY:x\n\nB\n");
        let cache = FileCache::new();
        let a = cache
            .read(&fs, Path::new("/d/a.lst"), || "a.lst".into())
            .unwrap();
        let b = cache
            .read(&fs, Path::new("/d/a.lst"), || "other".into())
            .unwrap();
        assert!(Arc::ptr_eq(&a, &b), "the second read is the cached file");
        assert_eq!((cache.len(), b.source().path.as_str()), (1, "a.lst"));
        let id = FileId(7);
        let lines = a.lines(LineMode::Object, id);
        assert_eq!(
            lines,
            crate::load::text::lines(id, &a.source().text, LineMode::Object)
        );
        assert_eq!(lines.len(), 2);
        cache.forget(Path::new("/d/a.lst"));
        assert!(cache.is_empty());
    }

    #[test]
    fn the_not_utf8_warning_is_placed_in_the_asking_file() {
        let fs = MemoryFs::new().with("/d/w.lst", b"Caf\xe9\n".to_vec());
        let cache = FileCache::new();
        let f = cache
            .read(&fs, Path::new("/d/w.lst"), || "w.lst".into())
            .unwrap();
        let w = f.not_utf8(FileId(3)).unwrap();
        assert_eq!(
            (w.code.id, w.span.file, w.span.range()),
            ("L0101", FileId(3), 3..5)
        );
    }

    #[test]
    fn read_errors_are_not_kept() {
        let cache = FileCache::new();
        assert!(
            cache
                .read(&MemoryFs::new(), Path::new("/nope"), String::new)
                .is_err()
        );
        assert!(cache.is_empty());
    }
}
