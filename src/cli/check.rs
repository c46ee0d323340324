//! `rulebook check PATH... [--pcgen-root DIR] [--format human|json]`.
//!
//! `.pcc` files given together form one load set; a folder means every selectable PCC below
//! it, each checked as its own load set. Exit codes: 0 clean (warnings allowed), 1 errors
//! found, 2 usage or I/O failure.

use clap::{Args, ValueEnum};
use rulebook::load::{CampaignIndex, DiskFs, FileSystem, OutsideRoot, PcgenRoot, selectable_pccs};
use rulebook::model::check::{
    CheckedSet, check_load_set, check_load_set_with, json_output, render_human, summary,
};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// ariadne reports and a summary line.
    Human,
    /// One JSON object (see `schemas/check-output.schema.json`).
    Json,
}

/// Arguments of `rulebook check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// PCC files (loaded together) or folders (each selectable PCC below is its own load).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The PCGen root holding `data/` and `system/gameModes/` (found from the paths if absent).
    #[arg(long)]
    pub pcgen_root: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: OutputFormat,
    /// Read files a PCC names outside the PCGen root (refused by default).
    #[arg(long)]
    pub allow_outside_root: bool,
}

/// The load sets named by the command line: all PCC files together, each folder's PCCs apart.
fn load_sets(fs: &dyn FileSystem, paths: &[PathBuf]) -> Result<Vec<Vec<PathBuf>>, String> {
    let mut together = Vec::new();
    let mut sets = Vec::new();
    for p in paths {
        if fs.is_dir(p) {
            let pccs = selectable_pccs(fs, p).map_err(|problems| {
                let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
                format!("cannot walk {}: {}", p.display(), list.join("; "))
            })?;
            if pccs.is_empty() {
                return Err(format!("no selectable .pcc file below {}", p.display()));
            }
            sets.extend(pccs.into_iter().map(|x| vec![x]));
        } else if fs.is_file(p) {
            together.push(p.clone());
        } else {
            return Err(format!("{}: no such file or folder", p.display()));
        }
    }
    if !together.is_empty() {
        sets.insert(0, together);
    }
    Ok(sets)
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Runs `rulebook check`.
pub fn run(args: CheckArgs) -> ExitCode {
    let fs = DiskFs;
    let paths: Vec<PathBuf> = args.paths.iter().map(|p| absolute(p)).collect();
    let sets = match load_sets(&fs, &paths) {
        Ok(s) => s,
        Err(e) => return super::usage_error(e),
    };
    let root = match &args.pcgen_root {
        Some(r) => {
            if !fs.is_dir(r) {
                return super::usage_error(format!("--pcgen-root {}: no such folder", r.display()));
            }
            PcgenRoot::at(&fs, &absolute(r))
        }
        None => match paths.first().and_then(|p| PcgenRoot::find(&fs, p)) {
            Some(r) => r,
            None => {
                return super::usage_error(
                    "cannot find the PCGen root (a folder holding system/gameModes) above the paths; give --pcgen-root",
                );
            }
        },
    };
    let root = if args.allow_outside_root {
        root.with_outside(OutsideRoot::Allow)
    } else {
        root
    };
    let checked = check_sets(&fs, &root, &sets);
    match args.format {
        OutputFormat::Human => {
            print!(
                "{}",
                render_human(&checked, std::io::stdout().is_terminal())
            );
        }
        OutputFormat::Json => match serde_json::to_string_pretty(&json_output(&checked)) {
            Ok(s) => println!("{s}"),
            Err(e) => return super::usage_error(e),
        },
    }
    if summary(&checked).errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Checks each load set, showing a progress bar on a terminal once loading takes over 1 s.
fn check_sets(fs: &dyn FileSystem, root: &PcgenRoot, sets: &[Vec<PathBuf>]) -> Vec<CheckedSet> {
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(sets.len() as u64),
        indicatif::ProgressDrawTarget::hidden(),
    );
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{spinner} checking {msg} [{pos}/{len}] {elapsed}")
    {
        bar.set_style(style);
    }
    if std::io::stderr().is_terminal() {
        let b = bar.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(1));
            if !b.is_finished() {
                b.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                b.enable_steady_tick(Duration::from_millis(120));
            }
        });
    }
    // The data folder's PCCs, indexed once for every load set.
    let index = CampaignIndex::build(fs, root);
    let mut out = Vec::new();
    for set in sets {
        if let Some(name) = set.first().and_then(|p| p.file_name()) {
            bar.set_message(name.to_string_lossy().into_owned());
        }
        out.push(check_load_set_with(fs, root, set, &index));
        bar.inc(1);
    }
    bar.finish_and_clear();
    out
}

/// `rulebook` with no arguments: check the example dataset in `data/`, summarise it, then
/// compute `data/sample-character.toml` on it and print its values (as `rulebook calc`).
/// Exit 1 when the dataset or the character has errors.
pub fn run_example(data: &Path) -> ExitCode {
    let fs = DiskFs;
    let pcc = data.join("handsworld").join("handsworld.pcc");
    let root = PcgenRoot::at(&fs, data);
    if !fs.is_file(&pcc) {
        return super::usage_error(format!("{}: no such file", pcc.display()));
    }
    let checked = vec![check_load_set(&fs, &root, &[pcc])];
    print!(
        "{}",
        render_human(&checked, std::io::stdout().is_terminal())
    );
    if let Some(set) = checked.first() {
        let ds = &set.dataset;
        println!(
            "example dataset: {} variables, {} objects, {} modifiers, {} functions, {} tables",
            ds.variables.len(),
            ds.objects.len(),
            ds.modifiers.len(),
            ds.functions.len(),
            ds.tables.len()
        );
    }
    let mut failed = summary(&checked).errors > 0;
    if let Some(set) = checked.first() {
        failed |= sample_character(set, &data.join("sample-character.toml"));
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Computes the sample character file against the checked example dataset and prints its
/// values (the table `rulebook calc` prints); problems go to stderr. True on errors.
fn sample_character(set: &CheckedSet, path: &Path) -> bool {
    use rulebook::character::file;
    use rulebook::diagnostic::{self, Severity};
    let parsed = std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|text| file::parse(&text));
    let character_file = match parsed {
        Ok(f) => f,
        Err(e) => {
            eprintln!("rulebook: {}: {e}", path.display());
            return true;
        }
    };
    let (character, mut problems) =
        file::build(std::sync::Arc::new(set.dataset.clone()), &character_file);
    problems.extend(character.problems());
    diagnostic::sort(&mut problems, &set.load.sources);
    println!(
        "\nsample character ({}, {} objects granted):",
        path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned()
        ),
        character_file.grant.len()
    );
    super::calc::emit(&super::calc::table(&character.values()));
    if !problems.is_empty() {
        eprint!(
            "{}",
            diagnostic::render(
                &problems,
                &set.load.sources,
                std::io::stderr().is_terminal()
            )
        );
    }
    problems.iter().any(|d| d.severity == Severity::Error)
}
