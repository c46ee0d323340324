//! Checking whole load sets: load, build the model, collect and sort every diagnostic, and
//! summarise. The CLI (`rulebook check`) prints what this returns; tests call it directly.

use crate::diagnostic::{self, Diagnostic, JsonDiagnostic, Severity};
use crate::load::{CampaignIndex, FileSystem, LoadSet, PcgenRoot, load, load_with};
use crate::model::{Dataset, build};
use serde::Serialize;
use std::collections::HashSet;
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
}

/// Loads the PCCs `pccs` (selected together) under `root` and checks them.
pub fn check_load_set(fs: &dyn FileSystem, root: &PcgenRoot, pccs: &[PathBuf]) -> CheckedSet {
    checked(load(fs, root, pccs))
}

/// [`check_load_set`] with the data folder's campaign index built once for many load sets.
pub fn check_load_set_with(
    fs: &dyn FileSystem,
    root: &PcgenRoot,
    pccs: &[PathBuf],
    index: &CampaignIndex,
) -> CheckedSet {
    let mut set = checked(load_with(fs, root, pccs, index));
    super::elsewhere::name_defining_campaigns(fs, root, index, &set.load, &mut set.diagnostics);
    set
}

fn checked(mut load: LoadSet) -> CheckedSet {
    let (dataset, model_diags) = build(&load);
    let mut diagnostics = std::mem::take(&mut load.diagnostics);
    diagnostics.extend(model_diags);
    diagnostic::sort(&mut diagnostics, &load.sources);
    CheckedSet {
        load,
        dataset,
        diagnostics,
    }
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
    /// Formula-system tokens checked.
    pub tokens: usize,
    /// Load sets checked.
    pub load_sets: usize,
}

impl Summary {
    /// The human summary line: `N errors, N warnings in N files, N tokens checked`.
    pub fn line(&self) -> String {
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        format!(
            "{}, {} in {}, {} checked",
            plural(self.errors, "error"),
            plural(self.warnings, "warning"),
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
fn identity(j: &JsonDiagnostic) -> (String, usize, usize, String, String) {
    (
        j.file.clone(),
        j.line,
        j.column,
        j.code.clone(),
        j.message.clone(),
    )
}

/// The diagnostics of all sets (each with its set), without repeats, in order.
fn unique(sets: &[CheckedSet]) -> Vec<(&CheckedSet, &Diagnostic, JsonDiagnostic)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for s in sets {
        for d in &s.diagnostics {
            let j = diagnostic::to_json(d, &s.load.sources);
            if seen.insert(identity(&j)) {
                out.push((s, d, j));
            }
        }
    }
    out.sort_by(|a, b| {
        (&a.2.file, a.2.line, a.2.column, &a.2.code)
            .cmp(&(&b.2.file, b.2.line, b.2.column, &b.2.code))
    });
    out
}

/// Totals over a run.
pub fn summary(sets: &[CheckedSet]) -> Summary {
    let diags = unique(sets);
    let count = |sev: Severity| diags.iter().filter(|(_, d, _)| d.severity == sev).count();
    let files: HashSet<&str> = sets
        .iter()
        .flat_map(|s| s.load.sources.iter().map(|(_, f)| f.path.as_str()))
        .collect();
    Summary {
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        notes: count(Severity::Note),
        files: files.len(),
        tokens: sets.iter().map(|s| s.dataset.tokens_checked).sum(),
        load_sets: sets.len(),
    }
}

/// The JSON output of a run.
pub fn json_output(sets: &[CheckedSet]) -> CheckOutput {
    CheckOutput {
        diagnostics: unique(sets).into_iter().map(|(_, _, j)| j).collect(),
        summary: summary(sets),
    }
}

/// The human report of a run: every diagnostic rendered with ariadne, then the summary line.
pub fn render_human(sets: &[CheckedSet], color: bool) -> String {
    let mut out = String::new();
    let diags = unique(sets);
    // Render consecutive diagnostics of one load set together (one source cache per run).
    let mut rest = diags.as_slice();
    while let Some((set, _, _)) = rest.first() {
        let n = rest
            .iter()
            .take_while(|(s, _, _)| std::ptr::eq(*s, *set))
            .count()
            .max(1);
        let (run, tail) = rest.split_at(n.min(rest.len()));
        let run: Vec<Diagnostic> = run.iter().map(|(_, d, _)| (*d).clone()).collect();
        out.push_str(&diagnostic::render(&run, &set.load.sources, color));
        rest = tail;
    }
    out.push_str(&summary(sets).line());
    out.push('\n');
    out
}
