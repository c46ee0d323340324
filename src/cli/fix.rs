//! `rulebook check --fix [--unsafe-fixes] [--diff]`: the edits the findings suggest
//! ([`Diagnostic::fix_in`], the same the reports say a finding has and the language server
//! offers), applied to the files.
//!
//! Safe edits (exact rewrites of deprecated forms) are applied by default, unsafe ones ("did
//! you mean" guesses) only with `--unsafe-fixes`. Only the findings the run reports (after
//! `--allow`/`--deny` and `rulebook.toml`) are fixed; a file read from several load sets is
//! edited once; edits that overlap an earlier one wait for the next run; files that are not
//! UTF-8 are never rewritten. With `--diff` nothing is written and the edits are shown as a
//! unified diff; otherwise the files are written and `check` then reports what remains.

use super::output::eprint;
use rulebook::check::SetReport;
use rulebook::config::policy::Policy;
use rulebook::diagnostic::fix::apply;
use rulebook::diagnostic::{Diagnostic, Edit, PathView, Safety};
use rulebook::load::PcgenRoot;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The fixes of one file.
struct FileEdits {
    /// Its text as checked.
    text: String,
    /// The fixes (each its edits, applied together), without repeats.
    fixes: Vec<Vec<Edit>>,
}

/// What `--fix` found and did.
pub struct Fixed {
    /// Edits applied (or shown), per kind of safety.
    pub applied: usize,
    /// Unsafe edits left out (no `--unsafe-fixes`).
    pub unsafe_left: usize,
    /// Files changed (or that would change).
    pub files: usize,
}

/// Collects the edits of one checked load set into `files`.
fn collect(
    report: &SetReport,
    policy: &Policy,
    unsafe_fixes: bool,
    files: &mut BTreeMap<PathBuf, FileEdits>,
    unsafe_left: &mut usize,
) {
    let mut diagnostics: Vec<Diagnostic> = report.diagnostics.clone();
    policy.apply_in(&mut diagnostics, &report.sources, &report.root);
    for d in diagnostics.iter().filter(|d| policy.shown(d)) {
        // What every report says of the finding's fix (none in a file that is not UTF-8).
        let (edits, Some(source)) = d.fix_in(&report.sources) else {
            continue;
        };
        let Some(first) = edits.first() else {
            continue;
        };
        if first.safety == Safety::Unsafe && !unsafe_fixes {
            *unsafe_left += 1;
            continue;
        }
        let Some(path) = PathView::absolute(&report.root, &source.path) else {
            continue;
        };
        let entry = files.entry(path).or_insert_with(|| FileEdits {
            text: source.text.clone(),
            fixes: Vec::new(),
        });
        if !entry.fixes.contains(&edits) {
            entry.fixes.push(edits);
        }
    }
}

/// Checks `sets`, applies (or, with `diff`, shows) the edits of their findings.
pub fn fix(
    root: &PcgenRoot,
    sets: &[Vec<PathBuf>],
    policy: &Policy,
    unsafe_fixes: bool,
    diff: bool,
) -> Result<Fixed, String> {
    let mut files: BTreeMap<PathBuf, FileEdits> = BTreeMap::new();
    let mut unsafe_left = 0;
    super::check::check_sets(root, sets, |report| {
        collect(&report, policy, unsafe_fixes, &mut files, &mut unsafe_left);
    });
    let mut fixed = Fixed {
        applied: 0,
        unsafe_left,
        files: 0,
    };
    let mut shown = String::new();
    for (path, f) in &files {
        let (new, applied) = apply(&f.text, &f.fixes);
        if applied == 0 || new == f.text {
            continue;
        }
        fixed.applied += applied;
        fixed.files += 1;
        if diff {
            shown.push_str(&super::output::unified_diff(path, &f.text, &new));
        } else {
            std::fs::write(path, &new)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
    }
    if diff && !super::output::print(&shown) {
        return Err("cannot write to standard output".to_owned());
    }
    let verb = if diff { "would apply" } else { "applied" };
    let mut line = format!(
        "rulebook: --fix {verb} {} fix{} in {} file{}",
        fixed.applied,
        if fixed.applied == 1 { "" } else { "es" },
        fixed.files,
        if fixed.files == 1 { "" } else { "s" },
    );
    if fixed.unsafe_left > 0 {
        line.push_str(&format!(
            "; {} unsafe fix{} left (\"did you mean\" guesses: --unsafe-fixes applies them)",
            fixed.unsafe_left,
            if fixed.unsafe_left == 1 { "" } else { "es" }
        ));
    }
    eprint(&format!("{line}\n"));
    Ok(fixed)
}
