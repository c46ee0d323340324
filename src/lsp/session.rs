//! The server's state and the functions that change it: open, change, save and close a
//! document. Each returns the diagnostics to publish. Read-only requests (hover, completion,
//! …) take a [`Snapshot`], which shares the checked load sets and document texts by `Arc`.

use crate::config::policy::Policy;
use crate::load::fs::normalize;
use crate::load::{CampaignIndex, FileCache, FileSystem};
use crate::lsp::checked::Checked;
use crate::lsp::diagnostics;
use crate::lsp::merged::{SetLists, merge};
use crate::lsp::overlay::OverlayFs;
use crate::lsp::recheck::{CheckDone, CheckInputs, CheckJob, First};
use crate::lsp::settings::Settings;
use crate::lsp::workspace::{Workspace, is_pcc};
use crate::lsp::workspace_report::{self, ReportJob, SetFindings};
use lsp_types as lsp;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Diagnostics to send for one file (an empty list clears the file's earlier ones).
#[derive(Clone, Debug, PartialEq)]
pub struct Publish {
    /// The file.
    pub path: PathBuf,
    /// Its diagnostics now.
    pub diagnostics: Vec<lsp::Diagnostic>,
    /// The document version they were computed from, when the file is open.
    pub version: Option<i32>,
}

/// Everything the server knows.
#[derive(Debug)]
pub struct Session {
    fs: OverlayFs,
    workspace: Option<Arc<Workspace>>,
    versions: HashMap<PathBuf, i32>,
    /// The version of each open document its diagnostics were last published for.
    shown_versions: HashMap<PathBuf, i32>,
    checked: BTreeMap<PathBuf, Arc<Checked>>,
    published: Arc<HashMap<PathBuf, Vec<lsp::Diagnostic>>>,
    stale: BTreeSet<PathBuf>,
    docs_base: String,
    /// The workspace's parsed files, shared by every re-check: an edit forgets only the
    /// files it changed. Open files are cached with the editor's text.
    cache: Arc<FileCache>,
    /// The workspace's PCCs by name and book type, rebuilt only when a PCC changes.
    index: Option<Arc<CampaignIndex>>,
    /// A check in full has run over `index`: the data folder's indexes it holds (built on
    /// first need) are built, and a first stage need not check its load set alone.
    index_used: bool,
    /// `allow`/`deny` of the editor's settings and the workspace's `rulebook.toml`, applied
    /// as `rulebook check` applies its flags and the file.
    policy: Option<Policy>,
    /// The editor's folder (none: the folder of the first file opened decides).
    folder: Option<PathBuf>,
    /// The editor's settings.
    settings: Settings,
    /// Messages for the user not yet shown ([`Session::take_messages`]).
    messages: Vec<String>,
    /// Re-checks run off the caller's thread ([`Session::check_in_background`]).
    background: bool,
    /// The last re-check planned and not yet taken ([`Session::take_job`]).
    job: Option<CheckJob>,
    /// The re-check whose result is awaited.
    in_flight: Option<InFlight>,
    /// The number of re-checks planned.
    generation: u64,
    /// What the load sets not around the open documents found, checked for the workspace's
    /// report ([`Session::report_job`]), by PCC.
    findings: HashMap<PathBuf, Arc<SetFindings>>,
    /// Counts the changes of the workspace that make every finding kept for its report
    /// stale (a new root, settings, game mode).
    report_epoch: u64,
    /// The files changed since the last report job was planned, while it runs: what it
    /// finds in load sets holding them is stale when it comes.
    changed_for_report: Option<Vec<PathBuf>>,
}

/// A re-check planned and not yet finished: what a newer one takes over when it cancels it.
#[derive(Debug)]
struct InFlight {
    generation: u64,
    sets: BTreeSet<PathBuf>,
    /// The files to publish when it is done.
    touched: BTreeSet<PathBuf>,
    cancel: Arc<AtomicBool>,
}

/// An immutable view for read-only requests: cheap to take (maps of `Arc`s) and `Send`, so
/// requests can be answered off the loop while the session moves on.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The editor's texts over the disk.
    pub fs: OverlayFs,
    /// The checked load sets by PCC.
    pub checked: BTreeMap<PathBuf, Arc<Checked>>,
    /// The workspace, if one was found.
    pub workspace: Option<Arc<Workspace>>,
    /// The diagnostics last published, by file.
    pub published: Arc<HashMap<PathBuf, Vec<lsp::Diagnostic>>>,
}

/// What [`workspace_for`] finds.
struct Configured {
    workspace: Workspace,
    /// The campaign index of the workspace's data folder (none when it is not walked).
    index: Option<CampaignIndex>,
    policy: Policy,
    /// What is wrong in the settings or the file, for the user.
    problems: Vec<String>,
}

/// The workspace of the folder `dir` an editor opened, as `rulebook check` would see it
/// with the editor's `settings` as its flags: around the PCGen root they or the nearest
/// `rulebook.toml` at or above `dir` name (else around `dir`), with the extra roots of
/// both, and `allow`/`deny` (the settings' first, the file's on top). `dir`, the extra roots
/// and the config's `data` folders outside the root are read for PCCs too. What is wrong in
/// the settings or the file is returned as messages for the user; the rest still applies.
fn workspace_for(fs: &(dyn FileSystem + Sync), dir: &Path, settings: &Settings) -> Configured {
    let mut problems = Vec::new();
    let config = crate::config::discover(fs, dir).and_then(|path| {
        let bytes = fs.read(&path).ok()?;
        let text = String::from_utf8_lossy(&bytes);
        match crate::config::parse(&text, &path, crate::source::FileId(0)) {
            Ok(c) => Some(c),
            Err(d) => {
                problems.push(config_problem(&path, &text, &d));
                None
            }
        }
    });
    let settings = settings.clone().absolute(dir);
    let given = settings
        .pcgen_root
        .clone()
        .or_else(|| config.as_ref().and_then(|c| c.pcgen_root.clone()));
    let root_dir = match given {
        Some(r) if fs.is_dir(&r.join("system").join("gameModes")) => r,
        Some(r) => {
            problems.push(format!(
                "rulebook: the PCGen root {} has no system/gameModes folder; a PCGen root is \
                 the folder holding data/ and system/gameModes/",
                r.display()
            ));
            dir.to_path_buf()
        }
        None => dir.to_path_buf(),
    };
    let mut extra: Vec<PathBuf> = config
        .as_ref()
        .map(|c| c.extra_roots.clone())
        .unwrap_or_default();
    extra.extend(settings.extra_roots.iter().cloned());
    let (mut ws, index) = Workspace::around_indexed(fs, &root_dir);
    ws.root = ws.root.clone().with_extra_roots(extra.clone());
    let mut folders = vec![dir.to_path_buf()];
    folders.extend(extra);
    if let Some(c) = &config {
        folders.extend(c.data.iter().filter(|d| fs.is_dir(d)).cloned());
    }
    let outside: Vec<PathBuf> = folders
        .into_iter()
        .filter(|f| !normalize(f).starts_with(&ws.root.root))
        .collect();
    let ws = ws.with_folders(fs, &outside);
    let base = match settings.policy() {
        Ok(p) => p,
        Err(e) => {
            problems.push(format!("rulebook settings: {e}"));
            Policy::default()
        }
    };
    let policy = match &config {
        Some(c) => match c.policy(base.clone()) {
            Ok(p) => p,
            Err(d) => {
                problems.push(format!("{}: {}", crate::config::FILE_NAME, d.message));
                base
            }
        },
        None => base,
    };
    Configured {
        workspace: ws,
        index,
        policy,
        problems,
    }
}

/// The first stage of a re-check of `sets` after `paths` changed: the smallest of the load
/// sets holding one of them (the quickest to check; usually the book's own PCC, where the
/// loaders that include the book read hundreds of files), checked alone while no check in
/// full has built the data folder's indexes (`indexed`). None when the whole re-check is
/// that one set, in full.
fn first_stage(
    ws: &Workspace,
    paths: &[PathBuf],
    sets: &BTreeSet<PathBuf>,
    indexed: bool,
) -> Option<First> {
    if indexed && sets.len() < 2 {
        return None;
    }
    let pcc = paths
        .iter()
        .flat_map(|p| ws.load_sets_of(p))
        .filter(|pcc| sets.contains(pcc))
        .min_by_key(|pcc| (ws.files_listed(pcc), pcc.clone()))?;
    Some(First {
        pcc,
        alone: !indexed,
    })
}

/// Frees checked load sets off the caller's thread: a loader's model takes tens of
/// milliseconds to free, which the event loop, replacing it, need not wait for.
fn drop_elsewhere(checked: Vec<Arc<Checked>>) {
    if !checked.is_empty() {
        rayon::spawn(move || drop(checked));
    }
}

/// True for a `rulebook.toml`: saving or changing one configures the session again.
fn is_config(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n == crate::config::FILE_NAME)
}

/// A problem of `rulebook.toml` as one line: the file, the line, what is wrong.
fn config_problem(path: &Path, text: &str, d: &crate::diagnostic::Diagnostic) -> String {
    let line = text
        .get(..d.span.start as usize)
        .map_or(1, |before| before.matches('\n').count() + 1);
    let mut m = format!("{}:{line}: {}", path.display(), d.message);
    if let Some(help) = &d.help {
        m.push_str(&format!(" ({help})"));
    }
    m
}

impl Session {
    /// A session for the workspace folder `root` (none: found from the first opened file).
    pub fn new(root: Option<&Path>) -> Self {
        Session::with_settings(root, Settings::default())
    }

    /// A session for the workspace folder `root` with the editor's `settings`
    /// (`initializationOptions`).
    pub fn with_settings(root: Option<&Path>, settings: Settings) -> Self {
        let mut session = Session {
            fs: OverlayFs::new(),
            folder: root.map(normalize),
            workspace: None,
            versions: HashMap::new(),
            shown_versions: HashMap::new(),
            checked: BTreeMap::new(),
            published: Arc::default(),
            stale: BTreeSet::new(),
            docs_base: diagnostics::default_docs_base(),
            cache: Arc::new(FileCache::new()),
            index: None,
            index_used: false,
            policy: None,
            settings: Settings::default(),
            messages: Vec::new(),
            background: false,
            job: None,
            in_flight: None,
            generation: 0,
            findings: HashMap::new(),
            report_epoch: 0,
            changed_for_report: None,
        };
        session.configure(settings);
        session
    }

    /// New settings from the editor (`workspace/didChangeConfiguration`), or the same ones
    /// after `rulebook.toml` changed: the workspace is found again, the open documents'
    /// load sets checked again from a fresh cache, and what changed in any file published.
    pub fn configure(&mut self, settings: Settings) -> Vec<Publish> {
        self.docs_base = settings
            .errors_doc_url
            .clone()
            .unwrap_or_else(diagnostics::default_docs_base);
        self.settings = settings;
        let folder = self.folder.clone().or_else(|| {
            // No editor folder: the workspace the first file found stands for it.
            self.workspace.as_ref().map(|w| w.root.root.clone())
        });
        let Some(folder) = folder else {
            return Vec::new();
        };
        let found = workspace_for(&self.fs, &folder, &self.settings);
        self.messages.extend(found.problems);
        self.abandon_in_flight();
        self.use_workspace(found.workspace, found.index);
        self.policy = Some(found.policy);
        drop_elsewhere(std::mem::take(&mut self.checked).into_values().collect());
        // What was shown is cleared unless the new checks find it again.
        self.stale.extend(self.published.keys().cloned());
        let open: Vec<PathBuf> = self.versions.keys().cloned().collect();
        if open.is_empty() {
            return Vec::new();
        }
        self.recheck_all(&open)
    }

    /// The diagnostics last published for `path`.
    pub fn published(&self, path: &Path) -> Vec<lsp::Diagnostic> {
        self.published
            .get(&normalize(path))
            .cloned()
            .unwrap_or_default()
    }

    /// True when `path` is open in the editor.
    pub fn is_open(&self, path: &Path) -> bool {
        self.versions.contains_key(&normalize(path))
    }

    /// The editor's settings now.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Keeps `message` for the user (see [`Session::take_messages`]).
    pub fn tell(&mut self, message: String) {
        self.messages.push(message);
    }

    /// Messages for the user that came up since last asked (a setting or a `rulebook.toml`
    /// that could not be read), for `window/showMessage`.
    pub fn take_messages(&mut self) -> Vec<String> {
        std::mem::take(&mut self.messages)
    }

    /// The workspace.
    pub fn workspace(&self) -> Option<&Workspace> {
        self.workspace.as_deref()
    }

    /// A document was opened with `text`.
    pub fn open(&mut self, path: &Path, text: &str, version: i32) -> Vec<Publish> {
        let path = normalize(path);
        self.fs.set(&path, Arc::from(text));
        self.versions.insert(path.clone(), version);
        self.forget(&path);
        match &self.workspace {
            None => {
                let (ws, index) = Workspace::around_indexed(&self.fs, &path);
                self.use_workspace(ws, index);
            }
            Some(w) if !w.contains(&path) => {
                // A file of another PCGen root: that root becomes the workspace. A file with
                // no root around it stays outside (no diagnostics).
                if crate::load::PcgenRoot::find(&self.fs, &path).is_some() {
                    self.abandon_in_flight();
                    let (ws, index) = Workspace::around_indexed(&self.fs, &path);
                    self.use_workspace(ws, index);
                    self.checked.clear();
                    // The old root's findings are cleared with the next publish.
                    self.stale.extend(self.published.keys().cloned());
                }
            }
            Some(_) => {}
        }
        self.recheck(&path)
    }

    /// The whole new text of a document (full sync).
    pub fn change(&mut self, path: &Path, text: &str, version: i32) -> Vec<Publish> {
        let path = normalize(path);
        self.fs.set(&path, Arc::from(text));
        self.versions.insert(path.clone(), version);
        self.forget(&path);
        self.recheck(&path)
    }

    /// A document was saved (with its text when the client sends it).
    pub fn save(&mut self, path: &Path, text: Option<&str>) -> Vec<Publish> {
        let path = normalize(path);
        if let Some(t) = text {
            self.fs.set(&path, Arc::from(t));
        }
        if is_config(&path) {
            return self.configure(self.settings.clone());
        }
        self.forget(&path);
        self.recheck(&path)
    }

    /// A document was closed: the disk's text counts again.
    pub fn close(&mut self, path: &Path) -> Vec<Publish> {
        let path = normalize(path);
        self.fs.remove(&path);
        self.versions.remove(&path);
        self.shown_versions.remove(&path);
        self.forget(&path);
        self.recheck(&path)
    }

    /// Files changed on disk (the client's watched-file events): those not open in the
    /// editor are read again, and the load sets holding them re-checked.
    pub fn files_changed(&mut self, paths: &[PathBuf]) -> Vec<Publish> {
        // Every file forgotten first, then each load set holding any of them checked once
        // (a `git pull` of 100 files was 100 rounds of checks).
        if paths.iter().any(|p| is_config(p)) {
            return self.configure(self.settings.clone());
        }
        let mut changed: Vec<PathBuf> = Vec::new();
        for path in paths {
            let path = normalize(path);
            if self.fs.text(&path).is_some() || changed.contains(&path) {
                continue;
            }
            self.forget(&path);
            changed.push(path);
        }
        if changed.is_empty() {
            return Vec::new();
        }
        self.recheck_all(&changed)
    }

    /// Works in `ws` from now on, with a fresh cache and the campaign `index` read with it.
    fn use_workspace(&mut self, ws: Workspace, index: Option<CampaignIndex>) {
        self.workspace = Some(Arc::new(ws));
        self.reset_cache();
        self.index = index.map(Arc::new);
    }

    /// A fresh cache and campaign index (the workspace or its game mode changed); what was
    /// kept for the workspace's report goes too.
    fn reset_cache(&mut self) {
        self.cache = Arc::new(FileCache::new());
        self.index = None;
        self.index_used = false;
        self.findings.clear();
        self.report_epoch += 1;
    }

    /// Drops what the cache holds for `path` (its text changed): under every spelling the
    /// loader used for it; a PCC is read again into the campaign index. A game-mode file
    /// empties the cache (the game modes are read once per cache).
    fn forget(&mut self, path: &Path) {
        if is_pcc(path) {
            // Only this PCC is read again; the data folder is not walked per keystroke.
            if let Some(index) = &self.index {
                self.index = Some(Arc::new(index.with_pcc_read_again(&self.fs, path)));
                self.index_used = false;
            }
        }
        if let Some(ws) = &self.workspace {
            if path.starts_with(normalize(&ws.root.game_modes())) {
                self.reset_cache();
                return;
            }
        }
        let mut spellings: Vec<&Path> = vec![path];
        for checked in self.checked.values() {
            spellings.extend(checked.raw_paths(path));
        }
        if self.in_flight.is_some() {
            // The check in flight may still read the old text into the cache it holds.
            self.cache = Arc::new(self.cache.without(&spellings));
            return;
        }
        for p in spellings {
            self.cache.forget(p);
        }
    }

    /// A read-only view of the current state.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            fs: self.fs.clone(),
            checked: self.checked.clone(),
            workspace: self.workspace.clone(),
            published: self.published.clone(),
        }
    }

    /// Re-checks the load sets that include `path` and returns what changed.
    fn recheck(&mut self, path: &Path) -> Vec<Publish> {
        self.recheck_all(&[path.to_path_buf()])
    }

    /// Re-checks the load sets that include any of `paths`, each once, and returns what
    /// changed. Those are the load sets `paths` belong to ([`Workspace::load_sets_of`]) and
    /// every load set checked before that read one of them (a campaign its PRECAMPAIGN
    /// added), whose findings about them would otherwise go stale. The sets are checked in
    /// parallel over the shared file cache, as `rulebook check` checks a folder.
    fn recheck_all(&mut self, paths: &[PathBuf]) -> Vec<Publish> {
        let mut touched: BTreeSet<PathBuf> = std::mem::take(&mut self.stale);
        touched.extend(paths.iter().cloned());
        if paths.iter().any(|p| is_pcc(p)) {
            if let Some(ws) = self.workspace.as_mut().map(Arc::make_mut) {
                for path in paths.iter().filter(|p| is_pcc(p)) {
                    ws.reindex_pcc(&self.fs, path);
                }
            }
            // A PCC deleted (or no longer read) names no load set: its findings go.
            let gone: Vec<PathBuf> = (self.checked.keys())
                .filter(|pcc| self.workspace.as_ref().is_some_and(|ws| !ws.has_pcc(pcc)))
                .cloned()
                .collect();
            for pcc in gone {
                if let Some(old) = self.checked.remove(&pcc) {
                    touched.extend(self.shown_in(&old));
                }
            }
        }
        let Some(ws) = self.workspace.clone() else {
            return self.publish_changes(touched, &BTreeSet::new());
        };
        let mut sets: BTreeSet<PathBuf> = paths.iter().flat_map(|p| ws.load_sets_of(p)).collect();
        for (pcc, checked) in &self.checked {
            if paths.iter().any(|p| checked.file(p).is_some()) {
                sets.insert(pcc.clone());
            }
        }
        // What a report found in these sets, or in sets holding these files, is stale.
        self.findings
            .retain(|pcc, f| !sets.contains(pcc) && !f.holds_any(paths) && ws.has_pcc(pcc));
        if let Some(changed) = &mut self.changed_for_report {
            changed.extend(paths.iter().cloned());
        }
        // A check still running covers older texts: this one takes over its work.
        if let Some(old) = self.in_flight.take() {
            old.cancel.store(true, Ordering::Relaxed);
            sets.extend(old.sets);
            touched.extend(old.touched);
        }
        if sets.is_empty() {
            return self.publish_changes(touched, &BTreeSet::new());
        }
        let Some(inputs) = self.inputs() else {
            return self.publish_changes(touched, &BTreeSet::new());
        };
        for pcc in &sets {
            if let Some(old) = self.checked.get(pcc) {
                touched.extend(self.shown_in(old));
            }
        }
        // Stages only where the editor sees them (off the caller's thread).
        let first = self
            .background
            .then(|| first_stage(&ws, paths, &sets, self.index_used))
            .flatten();
        let last: Vec<PathBuf> = sets
            .iter()
            .filter(|pcc| first.as_ref().is_none_or(|f| f.alone || f.pcc != **pcc))
            .cloned()
            .collect();
        self.generation += 1;
        let cancel = Arc::new(AtomicBool::new(false));
        let job = CheckJob {
            generation: self.generation,
            first,
            sets: last,
            inputs,
            cancel: Arc::clone(&cancel),
        };
        self.in_flight = Some(InFlight {
            generation: self.generation,
            sets,
            touched,
            cancel,
        });
        if self.background {
            self.job = Some(job);
            return Vec::new();
        }
        let mut published = Vec::new();
        job.run(|done| published = self.finish(done));
        published
    }

    /// A job checking the load sets of the workspace whose findings are not known yet
    /// (neither checked around the open documents nor for an earlier report); none when
    /// every one is known.
    pub fn report_job(&mut self) -> Option<ReportJob> {
        let ws = self.workspace.clone()?;
        let sets: Vec<PathBuf> = (ws.load_sets())
            .filter(|pcc| !self.checked.contains_key(*pcc) && !self.findings.contains_key(*pcc))
            .cloned()
            .collect();
        if sets.is_empty() {
            return None;
        }
        let inputs = self.inputs()?;
        self.changed_for_report = Some(Vec::new());
        Some(ReportJob {
            epoch: self.report_epoch,
            sets,
            inputs,
            docs_base: self.docs_base.clone(),
        })
    }

    /// Takes in what a report job found (planned in report `epoch`): nothing when the
    /// workspace changed since, and nothing of a load set holding a file changed since.
    pub fn take_findings(&mut self, epoch: u64, found: Vec<SetFindings>) {
        let changed = self.changed_for_report.take().unwrap_or_default();
        if epoch != self.report_epoch {
            return;
        }
        for f in found {
            if !f.holds_any(&changed) && !self.checked.contains_key(&f.pcc) {
                self.findings.insert(f.pcc.clone(), Arc::new(f));
            }
        }
    }

    /// The workspace's report from every load set known ([`workspace_report::report`]).
    pub fn workspace_report(
        &self,
        previous: &[lsp::PreviousResultId],
    ) -> lsp::WorkspaceDiagnosticReport {
        let mut sets: Vec<&SetFindings> = (self.checked.values())
            .map(|c| c.findings(&self.docs_base))
            .collect();
        let others = self.findings.iter();
        sets.extend(
            others
                .filter(|(pcc, _)| !self.checked.contains_key(*pcc))
                .map(|(_, f)| f.as_ref()),
        );
        let root = self.workspace.as_ref().map(|w| w.root.root.as_path());
        workspace_report::report(&sets, root, &self.versions, previous)
    }

    /// What checks read now (the campaign index built on first need); none without a
    /// workspace.
    fn inputs(&mut self) -> Option<CheckInputs> {
        let root = self.workspace.as_ref()?.root.clone();
        let index = match &self.index {
            Some(i) => i.clone(),
            None => {
                let i = Arc::new(CampaignIndex::build(&self.fs, &root));
                self.index = Some(i.clone());
                i
            }
        };
        Some(CheckInputs {
            fs: self.fs.clone(),
            root,
            index,
            cache: Arc::clone(&self.cache),
            policy: self.policy.clone(),
        })
    }

    /// Re-checks run off the caller's thread from now on: an edit plans a [`CheckJob`]
    /// ([`Session::take_job`]) instead of running it, and its result comes back through
    /// [`Session::finish`]. Without it (tests, benchmarks) each edit checks at once.
    pub fn check_in_background(&mut self) {
        self.background = true;
    }

    /// The re-check the last edit planned, to run on a worker ([`CheckJob::run`]) and hand
    /// to [`Session::finish`].
    pub fn take_job(&mut self) -> Option<CheckJob> {
        self.job.take()
    }

    /// True while a planned re-check has not come back: what was published may be older
    /// than the editor's texts.
    pub fn is_checking(&self) -> bool {
        self.in_flight.is_some()
    }

    /// Takes in the result of a stage of a re-check and returns the diagnostics that
    /// changed; nothing when a newer re-check superseded it (that one covers its load sets).
    /// After the last stage, every file the re-check touched; after a first stage, the files
    /// of its load set, from the load sets the re-check is not still checking.
    pub fn finish(&mut self, done: CheckDone) -> Vec<Publish> {
        if self.in_flight.as_ref().map(|f| f.generation) != Some(done.generation) {
            return Vec::new();
        }
        if !done.last {
            return done
                .checked
                .map_or_else(Vec::new, |fresh| self.first_done(fresh));
        }
        let (Some(flight), Some(fresh)) = (self.in_flight.take(), done.checked) else {
            return Vec::new();
        };
        let mut touched = flight.touched;
        let mut replaced = Vec::new();
        for checked in fresh {
            touched.extend(self.to_show(&checked));
            replaced.extend(self.checked.insert(checked.pcc.clone(), Arc::new(checked)));
        }
        drop_elsewhere(replaced);
        self.index_used = true;
        self.publish_changes(touched, &BTreeSet::new())
    }

    /// Takes in a first stage: its load set's files are published from it and the load
    /// sets the re-check does not hold (a load set still being checked would speak from the
    /// old text, lines off after a line is added or removed).
    fn first_done(&mut self, fresh: Vec<Checked>) -> Vec<Publish> {
        let Some(flight) = &self.in_flight else {
            return Vec::new();
        };
        let mut pending = flight.sets.clone();
        let mut files = BTreeSet::new();
        let mut replaced = Vec::new();
        for checked in fresh {
            pending.remove(&checked.pcc);
            files.extend(self.to_show(&checked));
            let shown = flight.touched.iter();
            files.extend(shown.filter(|p| checked.file(p).is_some()).cloned());
            replaced.extend(self.checked.insert(checked.pcc.clone(), Arc::new(checked)));
        }
        drop_elsewhere(replaced);
        self.publish_changes(files, &pending)
    }

    /// The files of `checked` shown with diagnostics now: those whose lists a new check of
    /// its load set may have to clear.
    fn shown_in<'a>(&'a self, checked: &'a Checked) -> impl Iterator<Item = PathBuf> + 'a {
        (checked.paths())
            .filter(|p| self.published.contains_key(*p))
            .map(Path::to_path_buf)
    }

    /// The files whose lists a fresh check `checked` may change beyond those shown before
    /// ([`Session::shown_in`] of its predecessor): those it finds something in, and the open
    /// ones (an open file is published even when its list stays empty).
    fn to_show(&self, checked: &Checked) -> BTreeSet<PathBuf> {
        let mut files: BTreeSet<PathBuf> = checked.paths_with_findings().collect();
        let open = self.versions.keys();
        files.extend(open.filter(|p| checked.file(p).is_some()).cloned());
        files
    }

    /// Drops the re-check in flight without taking over its load sets (the workspace
    /// changed under it); the files it would have published are published with the next.
    fn abandon_in_flight(&mut self) {
        if let Some(old) = self.in_flight.take() {
            old.cancel.store(true, Ordering::Relaxed);
            self.stale.extend(old.touched);
        }
        self.job = None;
    }

    /// Recomputes the diagnostics of `files` over every cached load set but those `left
    /// out`; returns those that differ from what was last published, and an open
    /// document's not yet published for its version. A file held by several load sets gets
    /// each finding once; one that not every such set finds is labelled with the sets that
    /// do ([`merge`]). An open data file that no PCC lists gets [`diagnostics::unlisted`].
    fn publish_changes(
        &mut self,
        files: BTreeSet<PathBuf>,
        left_out: &BTreeSet<PathBuf>,
    ) -> Vec<Publish> {
        let holding: Vec<(&Arc<Checked>, Vec<&Path>)> = (self.checked.iter())
            .filter(|(pcc, _)| !left_out.contains(*pcc))
            .map(|(_, checked)| {
                let holds = files.iter().filter(|p| checked.holds(p));
                (checked, holds.map(PathBuf::as_path).collect::<Vec<_>>())
            })
            .filter(|(_, holds)| !holds.is_empty())
            .collect();
        let converted: Vec<Vec<(PathBuf, Vec<lsp::Diagnostic>)>> = (holding.iter())
            .map(|(checked, _)| {
                diagnostics::by_file(checked, &self.docs_base, |p| files.contains(p))
            })
            .collect();
        let lists: Vec<SetLists<'_>> = (holding.into_iter().zip(&converted))
            .map(|((checked, holds), lists)| SetLists {
                pcc: &checked.pcc,
                holds,
                lists,
            })
            .collect();
        let root = self.workspace.as_ref().map(|w| w.root.root.clone());
        let mut now = merge(&lists, root.as_deref());
        let mut out = Vec::new();
        let mut changes = Vec::new();
        for path in files {
            let list = match now.remove(&path) {
                Some(list) => list,
                None => self.unlisted(&path).into_iter().collect(),
            };
            let before = self.published.get(&path);
            let version = self.versions.get(&path).copied();
            // An open document gets its list once for each of its versions at least.
            let unshown = version.is_some() && self.shown_versions.get(&path).copied() != version;
            let changed = before.map_or(!list.is_empty(), |b| *b != list);
            if changed || unshown {
                if let Some(v) = version {
                    self.shown_versions.insert(path.clone(), v);
                }
                out.push(Publish {
                    version,
                    path: path.clone(),
                    diagnostics: list.clone(),
                });
            }
            changes.push((path, list));
        }
        let published = Arc::make_mut(&mut self.published);
        for (path, list) in changes {
            if list.is_empty() {
                published.remove(&path);
            } else {
                published.insert(path, list);
            }
        }
        out
    }

    /// [`diagnostics::unlisted`] for `path` when it is an open data file of the workspace's
    /// data folder that no PCC lists (game-mode files are the game mode's, not a PCC's).
    fn unlisted(&self, path: &Path) -> Option<lsp::Diagnostic> {
        let ws = self.workspace.as_ref()?;
        let is_lst = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("lst"));
        if !is_lst
            || !self.versions.contains_key(path)
            || !path.starts_with(&ws.root.data)
            || ws.is_listed(path)
        {
            return None;
        }
        let shown = |p: &Path| {
            p.strip_prefix(&ws.root.root)
                .unwrap_or(p)
                .display()
                .to_string()
        };
        let nearest = ws.nearest_pcc(path).map(shown);
        let d = diagnostics::unlisted(crate::source::FileId(0), &shown(path), nearest.as_deref());
        Some(diagnostics::at_file_start(&d, &self.docs_base))
    }
}

/// Line `n` (0-based) of `text`, without its line break.
fn nth_line(text: &str, n: usize) -> Option<&str> {
    text.split('\n').nth(n).map(|l| l.trim_end_matches('\r'))
}

impl Snapshot {
    /// The checked load sets that hold `path`, with its file id in each, the smallest first:
    /// requests about `path` are answered from it. That is the file's own book, usually,
    /// where the loaders including the book read hundreds of files: the first checked
    /// again after an edit ([`crate::lsp::recheck::First`]), and the quickest to index on
    /// a request's first need (the old system's variables and objects).
    pub fn sets_of(&self, path: &Path) -> Vec<(&Checked, crate::source::FileId)> {
        let mut sets: Vec<(&Checked, crate::source::FileId)> = (self.checked.values())
            .filter_map(|c| Some((c.as_ref(), c.file(path)?)))
            .collect();
        sets.sort_by_key(|(c, _)| c.set.load.files.len());
        sets
    }

    /// True when what the checked load sets hold of `path` agrees with the editor's text at
    /// `line` (0-based; `None`: the whole text), so that a request there can be answered
    /// from them while a newer check runs. A file not open agrees; an open one no load set
    /// holds yet does not.
    pub fn agrees(&self, path: &Path, line: Option<usize>) -> bool {
        let Some(now) = self.fs.text(path) else {
            return true;
        };
        let Some((checked, file)) = self.sets_of(path).into_iter().next() else {
            return false;
        };
        let Some(source) = checked.source(file) else {
            return false;
        };
        match line {
            None => source.text.as_str() == &**now,
            Some(n) => {
                let checked_line = nth_line(&source.text, n);
                checked_line.is_some() && checked_line == nth_line(now, n)
            }
        }
    }

    /// The current text of `path` (the editor's, else the disk's, decoded).
    pub fn text(&self, path: &Path) -> Option<String> {
        if let Some(t) = self.fs.text(path) {
            return Some(t.to_string());
        }
        let bytes = self.fs.read(path).ok()?;
        Some(crate::source::decode_text(&bytes).0)
    }
}
