//! `rulebook fmt [PATH...] [--check] [--diff] [--verify | --no-verify] [--pcgen-root DIR]`:
//! lays LST and PCC files out as PrettyLST does (`rulebook::fmt`, `docs/formatting.md`).
//!
//! Files are found by [`targets`]; each is laid out in memory, and then written (by
//! default), shown as a unified diff (`--diff`) or both shown and counted (`--check`, which
//! ends with 1 when a file would change). `--verify` (the default with `--check`) checks the
//! load sets before and after and refuses to write when they differ ([`verify`]).
//! Exit codes: 0 done (or nothing to change), 1 `--check` found files to change, 2 usage or
//! I/O failure, or a verification that failed.

mod targets;
mod verify;

use super::output::{eprint, print, shown_path as shown};
use clap::Args;
use rulebook::fmt::{Refusal, format_bytes};
use rulebook::load::{DiskFs, FileSystem, PcgenRoot};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Examples shown by `rulebook fmt --help`.
pub const EXAMPLES: &str = "Examples:
  rulebook fmt --diff data/handsworld            show what would change; write nothing
  rulebook fmt --diff data/handsworld/hw_abilities.lst   one file (its kind from the PCC listing it)
  rulebook fmt --check data/                     show the diff and exit 1 when a file would change
  rulebook fmt --verify --diff data/handsworld   also check the datasets before and after

Without --check or --diff the files are written: `fmt data/mydataset/`. --check verifies by
default (--no-verify skips it). See docs/formatting.md.

Exit codes: 0 done, 1 --check found files to change, 2 usage or I/O failure.";

/// Arguments of `rulebook fmt`.
#[derive(Args, Debug)]
pub struct FmtArgs {
    /// LST or PCC files, or folders (every LST and PCC file below).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Write nothing; show the diff and exit 1 when a file would change (verifies by
    /// default).
    #[arg(long)]
    pub check: bool,
    /// Write nothing; show what would change as a unified diff.
    #[arg(long)]
    pub diff: bool,
    /// Check the load sets holding the files before and after, and write nothing unless
    /// the findings and the tokens read are the same.
    #[arg(long, conflicts_with = "no_verify")]
    pub verify: bool,
    /// Do not check the load sets (with --check).
    #[arg(long)]
    pub no_verify: bool,
    /// The PCGen root holding `data/` and `system/gameModes/`, for --verify (found from the
    /// paths if absent).
    #[arg(long)]
    pub pcgen_root: Option<PathBuf>,
}

/// Counts of a run.
#[derive(Default)]
struct Tally {
    changed: usize,
    unchanged: usize,
    left_alone: usize,
    kept_lines: usize,
}

/// Runs `rulebook fmt`.
pub fn run(args: FmtArgs, out: &super::output::OutputArgs) -> ExitCode {
    let fs = DiskFs;
    let targets = match targets::find(&fs, &args.paths) {
        Ok(t) => t,
        Err(e) => return super::usage_error(e),
    };
    let mut tally = Tally::default();
    for (path, why) in &targets.skipped {
        if out.verbose {
            eprint(&format!("rulebook: {}: {why}\n", shown(path)));
        }
        tally.left_alone += 1;
    }
    let mut new_texts: BTreeMap<PathBuf, String> = BTreeMap::new();
    let mut old_texts: BTreeMap<PathBuf, String> = BTreeMap::new();
    let mut failed = false;
    // Read and laid out in parallel; reported in path order.
    let laid: Vec<_> = {
        use rayon::prelude::*;
        let files: Vec<_> = targets.files.iter().collect();
        files
            .par_iter()
            .map(|(path, target)| {
                let read = fs.read(path).map(|b| (format_bytes(**target, &b), b));
                (*path, read)
            })
            .collect()
    };
    for (path, read) in laid {
        let (formatted, bytes) = match read {
            Ok(r) => r,
            Err(e) => {
                eprint(&format!("rulebook: cannot read {}: {e}\n", shown(path)));
                failed = true;
                continue;
            }
        };
        match formatted {
            Ok(f) => {
                tally.kept_lines += f.kept.len();
                if out.verbose {
                    for (line, why) in &f.kept {
                        eprint(&format!(
                            "rulebook: {}:{line}: kept as it is ({})\n",
                            shown(path),
                            kept_reason(*why)
                        ));
                    }
                }
                if f.text.as_bytes() == bytes.as_slice() {
                    tally.unchanged += 1;
                } else {
                    tally.changed += 1;
                    old_texts.insert(path.clone(), String::from_utf8_lossy(&bytes).into_owned());
                    new_texts.insert(path.clone(), f.text);
                }
            }
            Err(refusal) => {
                if matches!(refusal, Refusal::WouldChangeMeaning(_)) {
                    failed = true;
                }
                // Said whatever --verbose says: a file the user named is not rewritten.
                eprint(&format!("rulebook: {}: {refusal}\n", shown(path)));
                tally.left_alone += 1;
            }
        }
    }
    let verify = args.verify || (args.check && !args.no_verify);
    if verify && !new_texts.is_empty() {
        match verify_run(&fs, &args, &targets, &new_texts) {
            Ok(true) => {}
            Ok(false) => return ExitCode::from(2),
            Err(e) => return super::usage_error(e),
        }
    }
    let show = args.check || args.diff;
    if show {
        let mut text = String::new();
        for (path, new) in &new_texts {
            let old = old_texts.get(path).map_or("", String::as_str);
            text.push_str(&super::output::unified_diff(path, old, new));
        }
        if !print(&text) {
            return super::usage_error("cannot write to standard output");
        }
    } else {
        for (path, new) in &new_texts {
            if let Err(e) = std::fs::write(path, new) {
                eprint(&format!("rulebook: cannot write {}: {e}\n", shown(path)));
                failed = true;
            }
        }
    }
    if !out.quiet {
        let verb = if show {
            "would be laid out"
        } else {
            "laid out"
        };
        eprint(&format!(
            "rulebook: {} file{} {verb}, {} unchanged, {} left alone; {} line{} kept as {} \
             (--verbose says which)\n",
            tally.changed,
            if tally.changed == 1 { "" } else { "s" },
            tally.unchanged,
            tally.left_alone,
            tally.kept_lines,
            if tally.kept_lines == 1 { "" } else { "s" },
            if tally.kept_lines == 1 {
                "it was"
            } else {
                "they were"
            },
        ));
    }
    if failed {
        ExitCode::from(2)
    } else if args.check && tally.changed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `--verify`: true when the load sets read the same before and after (the differences are
/// printed otherwise).
fn verify_run(
    fs: &DiskFs,
    args: &FmtArgs,
    targets: &targets::Targets,
    new_texts: &BTreeMap<PathBuf, String>,
) -> Result<bool, String> {
    let root = match &args.pcgen_root {
        Some(dir) => PcgenRoot::at(fs, &std::path::absolute(dir).unwrap_or_else(|_| dir.clone())),
        None => args
            .paths
            .first()
            .and_then(|p| PcgenRoot::find(fs, &std::path::absolute(p).unwrap_or_else(|_| p.clone())))
            .ok_or("--verify: cannot find the PCGen root (a folder holding system/gameModes) above the paths; give --pcgen-root")?,
    };
    let sets: Vec<Vec<PathBuf>> = targets
        .pccs
        .iter()
        .filter(|p| selectable(fs, p))
        .map(|p| vec![p.clone()])
        .collect();
    let verified = verify::verify(&root, &sets, new_texts);
    if verified.differences.is_empty() {
        eprint(&format!(
            "rulebook: verified: {} load set{} read the same before and after ({} objects \
             and modifiers, {} findings compared)\n",
            verified.sets,
            if verified.sets == 1 { "" } else { "s" },
            verified.model_entries,
            verified.findings
        ));
        return Ok(true);
    }
    let mut text = format!(
        "rulebook: --verify: formatting would change what {} load set{} read; nothing written:\n",
        verified.sets,
        if verified.sets == 1 { "" } else { "s" }
    );
    for d in verified.differences.iter().take(20) {
        text.push_str(&format!("  {d}\n"));
    }
    if verified.differences.len() > 20 {
        text.push_str(&format!(
            "  … and {} more\n",
            verified.differences.len() - 20
        ));
    }
    eprint(&text);
    Ok(false)
}

/// A PCC PCGen offers to load (one with a `GAMEMODE:` line), as `check` selects them.
fn selectable(fs: &DiskFs, pcc: &Path) -> bool {
    fs.read(pcc).is_ok_and(|b| {
        String::from_utf8_lossy(&b)
            .lines()
            .any(|l| l.trim_start().starts_with("GAMEMODE:"))
    })
}

/// Why a line was kept, in words.
fn kept_reason(k: rulebook::fmt::Kept) -> &'static str {
    use rulebook::fmt::Kept;
    match k {
        Kept::UnknownLineType => "no PrettyLST line type of this file's kind starts like it",
        Kept::NoOrder => "PrettyLST has no column order for its line type",
        Kept::Indented => "it starts with white space",
        Kept::SameNameOrder => {
            "column order would swap two tokens PCGen reads in order (of one name, one BONUS or FACT kind, or MODIFY and MODIFYOTHER)"
        }
    }
}
