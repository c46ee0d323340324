//! Checking whole load sets: load, build the model, solve what the data alone decides
//! (`data_alone`), collect and sort every diagnostic, and summarise. The CLI
//! (`rulebook check`) and the language server report what this returns; tests call it
//! directly.
//!
//! This layer sits above [`crate::character`]: the model cannot run the solver, but a check
//! of the data must solve the variables whose values do not depend on a character.

use crate::diagnostic::{self, Diagnostic, JsonDiagnostic, RenderOptions, Severity};
use crate::load::definitions::DefinedKind;
use crate::load::{
    CampaignIndex, FileCache, FileKind, FileSystem, LoadSet, PcgenRoot, load, load_cached,
    load_with,
};
use crate::model::{Dataset, build};

mod data_alone;
mod object_cycles;
use crate::source::{FileId, SourceMap};
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

/// One load set, loaded and checked.
#[derive(Clone, Debug)]
pub struct CheckedSet {
    /// What was read.
    pub load: LoadSet,
    /// The model.
    pub dataset: Dataset,
    /// Loader and model diagnostics, sorted by file and position.
    pub diagnostics: Vec<Diagnostic>,
    /// The values of the global variables no character can change that a GLOBALMODIFIER
    /// line sets (what the data alone decides), by variable, as PCGen writes them: the
    /// language server shows them in hovers and inlay hints.
    pub decided: Vec<(crate::model::VarId, String)>,
}

/// Loads the PCCs `pccs` (selected together) under `root` and checks them.
pub fn check_load_set(fs: &dyn FileSystem, root: &PcgenRoot, pccs: &[PathBuf]) -> CheckedSet {
    let elsewhere = Elsewhere {
        fs,
        root,
        index: IndexOf::Lazy(std::cell::OnceCell::new()),
    };
    checked_with(load(fs, root, pccs), None, Some(&elsewhere))
}

/// [`check_load_set`] with the data folder's campaign index built once for many load sets.
pub fn check_load_set_with(
    fs: &dyn FileSystem,
    root: &PcgenRoot,
    pccs: &[PathBuf],
    index: &CampaignIndex,
) -> CheckedSet {
    let elsewhere = Elsewhere {
        fs,
        root,
        index: IndexOf::Given(index),
    };
    let set = checked_with(load_with(fs, root, pccs, index), None, Some(&elsewhere));
    name_defining_campaigns(fs, root, index, &FileCache::new(), set)
}

/// [`check_load_set_with`], also reading files through `cache` (shared by the load sets of
/// one run: each file read, decoded and split once). The CLI and the language server
/// check through here, so the unknown-name findings name their defining campaign here too.
pub fn check_load_set_cached(
    fs: &dyn FileSystem,
    root: &PcgenRoot,
    pccs: &[PathBuf],
    index: &CampaignIndex,
    cache: &FileCache,
) -> CheckedSet {
    let elsewhere = Elsewhere {
        fs,
        root,
        index: IndexOf::Given(index),
    };
    let set = checked_with(
        load_cached(fs, root, pccs, index, cache),
        Some(cache),
        Some(&elsewhere),
    );
    name_defining_campaigns(fs, root, index, cache, set)
}

/// Checks `load` (read through `cache`: [`load_cached`]) as [`check_load_set_cached`] does,
/// without what needs the data folder's other campaigns: the prerequisite keys the load set
/// lacks (`R0106`) are not looked for, no old variable the load set lacks is reported
/// (`J0120`: another campaign may define it), and unknown names do not name a campaign
/// defining them. What the load set says by itself: a subset of the full check's findings,
/// some with shorter messages, in the time of its own files — the full check first reads
/// and indexes every campaign of the data folder. The language server shows it while those
/// indexes are built.
pub fn check_alone(load: LoadSet, cache: &FileCache) -> CheckedSet {
    checked_with(load, Some(cache), None)
}

/// `set` with each unknown-name finding naming the campaign under the data folder that
/// defines the name (`model::elsewhere`): the index is what a load over a data folder has;
/// its files are read through `cache`.
fn name_defining_campaigns(
    fs: &dyn FileSystem,
    root: &PcgenRoot,
    index: &CampaignIndex,
    cache: &FileCache,
    mut set: CheckedSet,
) -> CheckedSet {
    crate::model::elsewhere::name_defining_campaigns(
        fs,
        root,
        index,
        cache,
        &set.load,
        &mut set.diagnostics,
    );
    set
}

/// The data folder's other campaigns, which define what a supplement checked alone lacks.
struct Elsewhere<'a> {
    fs: &'a dyn FileSystem,
    root: &'a PcgenRoot,
    index: IndexOf<'a>,
}

/// The campaign index of the data folder: the run's, or one built on first need.
enum IndexOf<'a> {
    Given(&'a CampaignIndex),
    Lazy(std::cell::OnceCell<CampaignIndex>),
}

impl Elsewhere<'_> {
    fn index(&self) -> &CampaignIndex {
        match &self.index {
            IndexOf::Given(index) => index,
            IndexOf::Lazy(cell) => cell.get_or_init(|| CampaignIndex::build(self.fs, self.root)),
        }
    }
}

/// The objects of the data folder's campaigns, read through the run's file cache.
struct DataFolderObjects<'a> {
    elsewhere: &'a Elsewhere<'a>,
    cache: &'a FileCache,
}

impl crate::model::references::DataFolder for DataFolderObjects<'_> {
    fn defines(&self, kind: FileKind, key: &str) -> bool {
        let e = self.elsewhere;
        let index = e.index();
        let objects = index.definitions().objects(e.fs, e.root, index, self.cache);
        objects.named(key).iter().any(|d| match (&d.kind, kind) {
            (DefinedKind::Object(FileKind::Ability | FileKind::Feat), FileKind::Ability) => true,
            (DefinedKind::Object(k), kind) => *k == kind,
            _ => false,
        })
    }

    fn closest(&self, kind: FileKind, key: &str, path: &std::path::Path) -> Option<Option<String>> {
        let e = self.elsewhere;
        let index = e.index();
        let pools = index
            .definitions()
            .key_pools(e.fs, e.root, index, self.cache);
        pools
            .closest(e.root, path, kind, key)
            .map(|found| found.map(str::to_owned))
    }
}

/// Builds and checks `load`; the token vocabulary's findings of each file come from `cache`
/// when given (computed once per file and run).
///
/// With `elsewhere`, an old formula's variable that another campaign of the data folder
/// defines is not reported (see [`crate::model::elsewhere::OldVariablesElsewhere`]), and
/// prerequisite keys are looked up there; without it neither unknown old variables nor
/// unknown prerequisite keys are reported ([`check_alone`]).
fn checked_with(
    mut load: LoadSet,
    cache: Option<&FileCache>,
    elsewhere: Option<&Elsewhere<'_>>,
) -> CheckedSet {
    let (mut dataset, model_diags) = build(&load);
    if cache.is_none() {
        // The single-load-set paths build characters: a sheet must say what it leaves out.
        dataset.old_tokens = Some(crate::model::unapplied::record(&load, &dataset));
    }
    let mut diagnostics = std::mem::take(&mut load.diagnostics);
    diagnostics.extend(model_diags);
    diagnostics.extend(match cache {
        Some(cache) => crate::vocabulary::check_load_set_cached(&load, cache),
        None => crate::vocabulary::check_load_set(&load),
    });
    // Without the run's cache, the data folder's files are read through one of this check.
    let own_cache;
    let cache_of_run = match cache {
        Some(cache) => cache,
        None => {
            own_cache = FileCache::new();
            &own_cache
        }
    };
    // A prerequisite's key is looked up in the data folder's object index only when the
    // load set lacks it (the index is then built, once per run).
    let anywhere = elsewhere.map(|e| DataFolderObjects {
        elsewhere: e,
        cache: cache_of_run,
    });
    let anywhere = anywhere
        .as_ref()
        .map(|a| a as crate::model::references::DefinedAnywhere<'_>);
    // The FACTs the model found without a FACTDEF, by file: the PREFACTs testing them there
    // are the same mistake.
    let facts_reported = diagnostics
        .iter()
        .filter(|d| d.code == crate::model::codes::UNKNOWN_FACT)
        .filter_map(|d| {
            Some((
                d.span.file,
                crate::name::Name::new(&d.missing.as_ref()?.name),
            ))
        })
        .collect();
    diagnostics.extend(crate::model::references::check_with(
        &load,
        anywhere,
        &facts_reported,
    ));
    let others = std::cell::OnceCell::new();
    let defined_elsewhere = |name: &str| {
        elsewhere.is_none_or(|e| {
            others
                .get_or_init(|| {
                    crate::model::elsewhere::OldVariablesElsewhere::new(
                        e.fs,
                        e.root,
                        e.index(),
                        cache_of_run,
                        &load,
                    )
                })
                .defines(name)
        })
    };
    diagnostics.extend(crate::model::bioset::check(&load));
    diagnostics.extend(crate::model::old_formulas::check(
        &load,
        &dataset,
        &defined_elsewhere,
    ));
    let (dataset, decided) = data_alone::check(dataset, &mut diagnostics);
    diagnostic::sort(&mut diagnostics, &load.sources);
    CheckedSet {
        load,
        dataset,
        diagnostics,
        decided,
    }
}

/// Checks each of `sets` (the PCCs of one load set each) over one campaign `index` and one
/// file `cache`, in parallel on a
/// rayon pool (`RAYON_NUM_THREADS` sets its size), and hands each set's report to `emit` in
/// the order of `sets` as soon as it and every earlier set are done. A set's model is dropped
/// as soon as it is checked, so memory holds the cache and the sets being checked, not every
/// set; what `emit` sees does not depend on the number of threads.
pub fn check_in_order(
    fs: &(dyn FileSystem + Sync),
    root: &PcgenRoot,
    sets: &[Vec<PathBuf>],
    index: &CampaignIndex,
    cache: &FileCache,
    mut emit: impl FnMut(SetReport),
) {
    let check = |set: &[PathBuf]| check_load_set_cached(fs, root, set, index, cache).into_report();
    let mut next = 0;
    let mut done = BTreeMap::new();
    let mut receive = |i: usize, report: SetReport| {
        done.insert(i, report);
        while let Some(report) = done.remove(&next) {
            emit(report);
            next += 1;
        }
    };
    let Ok(pool) = rayon::ThreadPoolBuilder::new().build() else {
        for (i, set) in sets.iter().enumerate() {
            receive(i, check(set));
        }
        return;
    };
    let (tx, rx) = std::sync::mpsc::channel();
    // FIFO tasks: the sets are taken up in order, so a report rarely waits for an earlier
    // one; the calling thread only receives.
    pool.in_place_scope_fifo(|scope| {
        for (i, set) in sets.iter().enumerate() {
            let tx = tx.clone();
            let check = &check;
            scope.spawn_fifo(move |_| {
                let _ = tx.send((i, check(set)));
            });
        }
        drop(tx);
        for (i, report) in rx {
            receive(i, report);
        }
    });
}

/// Totals of a check run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Summary {
    /// Number of errors.
    pub errors: usize,
    /// Number of warnings.
    pub warnings: usize,
    /// Number of notes.
    pub notes: usize,
    /// Distinct files read.
    pub files: usize,
    /// Tokens checked: every tab-separated token of every line of the distinct files read
    /// (PCC and LST), each validated against PCGen's token vocabulary.
    pub tokens: usize,
    /// Load sets checked.
    pub load_sets: usize,
}

impl Summary {
    /// The human summary line: `N errors, N warnings, N notes in N files, N tokens checked`.
    pub fn line(&self) -> String {
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        format!(
            "{}, {}, {} in {}, {} checked",
            plural(self.errors, "error"),
            plural(self.warnings, "warning"),
            plural(self.notes, "note"),
            plural(self.files, "file"),
            plural(self.tokens, "token"),
        )
    }
}

/// `rulebook check --format json` output.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct CheckOutput {
    /// Every diagnostic, sorted by file and position (duplicates across load sets removed).
    pub diagnostics: Vec<JsonDiagnostic>,
    /// Totals.
    pub summary: Summary,
}

/// A rendered diagnostic's identity, for removing repeats across load sets.
type Identity = (String, usize, usize, String, String);

/// Where a diagnostic points before it is rendered: its text's address, its load set's
/// root (an index), its span's byte range and its code.
type RawPlace = (usize, usize, u32, u32, &'static str);

fn identity(j: &JsonDiagnostic) -> Identity {
    (
        j.file.clone(),
        j.line,
        j.column,
        j.code.clone(),
        j.message.clone(),
    )
}

/// What the run's report needs of a checked load set once its model is dropped: its
/// diagnostics and the sources they point into (shared with the file cache, so keeping them
/// costs no copy of any text).
#[derive(Clone, Debug)]
pub struct SetReport {
    /// Every file the load set read.
    pub sources: SourceMap,
    /// The PCGen root its paths are relative to.
    pub root: PathBuf,
    /// Its diagnostics, sorted by file and position.
    pub diagnostics: Vec<Diagnostic>,
    /// The tokens of each file it read (see [`Summary::tokens`]).
    pub tokens: Vec<(FileId, usize)>,
}

/// The tokens of each file of `load`: every token of every line of its LST files and PCC
/// files, each of which the vocabulary validates.
fn tokens_per_file(load: &LoadSet) -> Vec<(FileId, usize)> {
    let lst = load.files.iter().map(|f| {
        let n = f.lines.shared().iter().map(|l| l.tokens.len()).sum();
        (f.file, n)
    });
    let pcc = load.campaigns.iter().filter_map(|c| {
        let text = &load.sources.get(c.file)?.text;
        let lines = crate::load::text::lines(c.file, text, crate::load::text::LineMode::Whole);
        Some((c.file, lines.iter().map(|l| l.tokens.len()).sum()))
    });
    lst.chain(pcc).collect()
}

impl CheckedSet {
    /// The value the data alone decides for variable `var`, if it does (see
    /// [`CheckedSet::decided`]).
    pub fn decided_value(&self, var: crate::model::VarId) -> Option<&str> {
        let at = self
            .decided
            .binary_search_by_key(&var.0, |(v, _)| v.0)
            .ok()?;
        self.decided.get(at).map(|(_, value)| value.as_str())
    }

    /// Every old (JEP) formula of the load set (`BONUS` values, `DEFINE` values, `PREVARxx`
    /// operands, …), parsed into its tree with every name it reads, placed in the set's
    /// files: the old system as data, for an evaluator of it or a tool (the model holds the
    /// new formula system). Parsed on each call.
    pub fn old_formulas(&self) -> Vec<crate::model::old_formulas::ParsedFormula> {
        crate::model::old_formulas::formulas_of_load(&self.load)
    }

    /// Every old-system variable the load set makes (`DEFINE`, `BONUS:VAR` targets), by
    /// name, with each place that makes it. Computed on each call.
    pub fn old_variables(
        &self,
    ) -> indexmap::IndexMap<crate::name::Name, Vec<crate::model::old_formulas::OldVariableDef>>
    {
        crate::model::old_formulas::old_variables(&self.load)
    }

    /// The old system's objects as tokens name them: abilities by their category's pool
    /// and key, other objects by kind and key (what `ABILITY:`, `PREABILITY:` or a `.MOD`
    /// line stands for). Computed on each call (cheap: the files' objects are cached).
    pub fn old_objects(&self) -> crate::model::references::OldObjects {
        crate::model::references::OldObjects::of(&self.load)
    }

    /// The part of this set the run's report needs (a cheap copy: the texts are shared).
    pub fn report(&self) -> SetReport {
        SetReport {
            sources: self.load.sources.clone(),
            root: self.load.root.root.clone(),
            diagnostics: self.diagnostics.clone(),
            tokens: tokens_per_file(&self.load),
        }
    }

    /// [`CheckedSet::report`], dropping the model and the rest of the load.
    pub fn into_report(self) -> SetReport {
        let tokens = tokens_per_file(&self.load);
        SetReport {
            root: self.load.root.root,
            sources: self.load.sources,
            diagnostics: self.diagnostics,
            tokens,
        }
    }
}

/// The report of a whole run, built one load set at a time in the order they were named:
/// a diagnostic that an earlier load set reported already (the same file, position, code
/// and message: a file shared by both) is reported once.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    seen: HashSet<Identity>,
    /// Diagnostics met before, as they came from their load set: by the shared text they
    /// point into (its address, see `texts`), the set's root (index in `roots`), span and
    /// code, the messages met there. Load sets share files, so most diagnostics of a set
    /// were met before; one met before has an identity already in `seen` and is not
    /// rendered again to find that out.
    raw_seen: crate::fxhash::FxHashMap<RawPlace, Vec<Box<str>>>,
    /// The texts of `raw_seen`, kept so that no other text takes their address.
    texts: crate::fxhash::FxHashMap<usize, std::sync::Arc<crate::source::SourceFile>>,
    /// The roots of the load sets added.
    roots: Vec<PathBuf>,
    files: HashSet<String>,
    diagnostics: Vec<JsonDiagnostic>,
    summary: Summary,
}

impl RunReport {
    /// An empty report.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the next load set; returns its diagnostics that are new to the run, in order.
    pub fn add(&mut self, set: &SetReport) -> Vec<Diagnostic> {
        self.add_kept(set, |_, _| true)
    }

    /// [`RunReport::add`], reporting and counting only the new diagnostics `keep` accepts
    /// (it sees each new one once, in order, with its JSON form): a baseline's findings or
    /// those outside the changed files are left out of the run, totals included, and are
    /// still not reported again by a later load set.
    pub fn add_kept(
        &mut self,
        set: &SetReport,
        mut keep: impl FnMut(&Diagnostic, &JsonDiagnostic) -> bool,
    ) -> Vec<Diagnostic> {
        let mut new = Vec::new();
        let root = match self.roots.iter().position(|r| *r == set.root) {
            Some(i) => i,
            None => {
                self.roots.push(set.root.clone());
                self.roots.len() - 1
            }
        };
        for d in &set.diagnostics {
            // The same text, root, span, code and message render to the same identity.
            let text = set.sources.get_shared(d.span.file);
            let raw = text.map(|t| {
                let at = std::sync::Arc::as_ptr(t) as usize;
                (at, root, d.span.start, d.span.end, d.code.id)
            });
            if let Some(raw) = raw {
                let met = self.raw_seen.get(&raw);
                if met.is_some_and(|m| m.iter().any(|m| **m == *d.message)) {
                    continue;
                }
            }
            let j = diagnostic::to_json_rooted(d, &set.sources, &set.root);
            if let (Some(raw), Some(text)) = (raw, text) {
                self.texts
                    .entry(raw.0)
                    .or_insert_with(|| std::sync::Arc::clone(text));
                let met = self.raw_seen.entry(raw).or_default();
                met.push(d.message.as_str().into());
            }
            if self.seen.insert(identity(&j)) && keep(d, &j) {
                match d.severity {
                    Severity::Error => self.summary.errors += 1,
                    Severity::Warning => self.summary.warnings += 1,
                    Severity::Note => self.summary.notes += 1,
                }
                self.diagnostics.push(j);
                new.push(d.clone());
            }
        }
        let mut first_read = HashSet::new();
        for (id, f) in set.sources.iter() {
            if !self.files.contains(f.path.as_str()) {
                self.files.insert(f.path.clone());
                first_read.insert(id);
            }
        }
        // Each distinct file's tokens once, as its files are counted once.
        for &(id, n) in &set.tokens {
            if first_read.contains(&id) {
                self.summary.tokens += n;
            }
        }
        self.summary.files = self.files.len();
        self.summary.load_sets += 1;
        new
    }

    /// Totals so far.
    pub fn summary(&self) -> Summary {
        self.summary.clone()
    }

    /// The JSON output: every diagnostic reported, sorted by file and position.
    pub fn into_json(self) -> CheckOutput {
        let mut diagnostics = self.diagnostics;
        diagnostics.sort_by(|a, b| {
            (&a.file, a.line, a.column, &a.code).cmp(&(&b.file, b.line, b.column, &b.code))
        });
        CheckOutput {
            diagnostics,
            summary: self.summary,
        }
    }
}

fn run_report(sets: &[CheckedSet]) -> RunReport {
    let mut run = RunReport::new();
    for s in sets {
        run.add(&s.report());
    }
    run
}

/// Totals over a run.
pub fn summary(sets: &[CheckedSet]) -> Summary {
    run_report(sets).summary()
}

/// The JSON output of a run.
pub fn json_output(sets: &[CheckedSet]) -> CheckOutput {
    run_report(sets).into_json()
}

/// The human report of a run: each load set's new diagnostics rendered with ariadne, in the
/// order of the sets (as `rulebook check` streams them), then the summary line.
pub fn render_human(sets: &[CheckedSet], color: bool) -> String {
    let mut out = Vec::new();
    let mut run = RunReport::new();
    for s in sets {
        let report = s.report();
        let new = run.add(&report);
        // Writing to a Vec cannot fail.
        let _ = write_set(&mut out, &new, &report, &RenderOptions::new(color));
    }
    let mut text = String::from_utf8_lossy(&out).into_owned();
    text.push_str(&run.summary().line());
    text.push('\n');
    text
}

/// Writes every diagnostic of a run (without repeats, in order) to `w`, one report at a time.
/// With `options.paths`, paths are shown from its current folder, each set's under its own
/// root. The summary line is the caller's (see [`summary`]).
pub fn write_human(
    w: &mut dyn std::io::Write,
    sets: &[CheckedSet],
    options: &RenderOptions,
) -> std::io::Result<()> {
    let mut run = RunReport::new();
    for s in sets {
        let report = s.report();
        let new = run.add(&report);
        write_set(w, &new, &report, options)?;
    }
    Ok(())
}

/// Writes `diagnostics` (the new ones of the load set `set`, see [`RunReport::add`]) to `w`,
/// one report at a time, paths shown under the set's own root.
pub fn write_set(
    w: &mut dyn std::io::Write,
    diagnostics: &[Diagnostic],
    set: &SetReport,
    options: &RenderOptions,
) -> std::io::Result<()> {
    let mut local = options.clone();
    if let Some(view) = &mut local.paths {
        view.root.clone_from(&set.root);
    }
    for d in diagnostics {
        diagnostic::write_report(w, d, &set.sources, &local)?;
    }
    Ok(())
}
