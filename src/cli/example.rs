//! `rulebook` with no arguments in the project's folder: check the example dataset in
//! `data/` and compute its sample character.

use super::output::{OutputArgs, Stream};
use rulebook::check::{CheckedSet, check_load_set, summary, write_human};
use rulebook::load::{DiskFs, FileSystem, PcgenRoot};
use std::path::Path;
use std::process::ExitCode;

/// `rulebook` with no arguments: check the example dataset in `data/`, summarise it, then
/// compute `data/sample-character.toml` on it and print its values (as `rulebook calc`).
/// Exit 1 when the dataset or the character has errors.
pub fn run_example(data: &Path, out: &OutputArgs) -> ExitCode {
    let fs = DiskFs;
    let policy = match out.policy() {
        Ok(p) => p,
        Err(e) => return super::usage_error(e),
    };
    let pcc = data.join("handsworld").join("handsworld.pcc");
    let root = PcgenRoot::at(&fs, data);
    if !fs.is_file(&pcc) {
        return super::usage_error(format!("{}: no such file", pcc.display()));
    }
    let mut checked = vec![check_load_set(&fs, &root, &[pcc])];
    for set in &mut checked {
        policy.apply(&mut set.diagnostics);
    }
    let totals = summary(&checked);
    let mut text = Vec::new();
    let shown: Vec<CheckedSet> = checked
        .iter()
        .map(|s| {
            let mut s = s.clone();
            s.diagnostics.retain(|d| policy.shown(d));
            s
        })
        .collect();
    let _ = write_human(&mut text, &shown, &out.render_options(Stream::Stdout));
    let mut text = String::from_utf8_lossy(&text).into_owned();
    if !policy.quiet {
        text.push_str(&totals.line());
        text.push('\n');
    }
    if let Some(set) = checked.first() {
        let ds = &set.dataset;
        text.push_str(&format!(
            "example dataset: {} variables, {} objects, {} modifiers, {} functions, {} tables\n",
            ds.variables.len(),
            ds.objects.len(),
            ds.modifiers.len(),
            ds.functions.len(),
            ds.tables.len()
        ));
    }
    super::output::print(&text);
    let mut failed = totals.errors > 0;
    if let Some(set) = checked.first() {
        failed |= sample_character(set, &data.join("sample-character.toml"), out);
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Computes the sample character file against the checked example dataset and prints its
/// values (the table `rulebook calc` prints); problems go to stderr. True on errors.
fn sample_character(set: &CheckedSet, path: &Path, out: &OutputArgs) -> bool {
    use rulebook::character::file;
    use rulebook::diagnostic::{self, Severity};
    let parsed = std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|text| file::parse(&text));
    let character_file = match parsed {
        Ok(f) => f,
        Err(e) => {
            super::output::eprint(&format!("rulebook: {}: {e}\n", path.display()));
            return true;
        }
    };
    let (character, mut problems) =
        file::build(std::sync::Arc::new(set.dataset.clone()), &character_file);
    problems.extend(character.problems());
    if let Ok(policy) = out.policy() {
        policy.apply(&mut problems);
        problems.retain(|d| policy.shown(d));
    }
    diagnostic::sort(&mut problems, &set.load.sources);
    super::output::print(&format!(
        "\nsample character ({}, {} objects granted):\n{}",
        path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned()
        ),
        character_file.grant.len(),
        super::calc::table(&character.values())
    ));
    if !problems.is_empty() {
        super::output::eprint(&diagnostic::render_with(
            &problems,
            &set.load.sources,
            &out.render_options_at(Stream::Stderr, &set.load.root.root),
        ));
    }
    problems.iter().any(|d| d.severity == Severity::Error)
}
