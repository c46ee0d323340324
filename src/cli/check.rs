//! `rulebook check [PATH...] [--pcgen-root DIR] [--format human|concise|github|json|sarif]
//! [--statistics] [--baseline FILE | --write-baseline FILE] [--changed-since REV]
//! [--config PATH]`.
//!
//! Settings not given come from `rulebook.toml` ([`super::config`]); a baseline
//! ([`super::baseline`]) and `--changed-since` ([`super::changed`]) narrow what is reported.
//!
//! `.pcc` files given together form one load set; a folder means every selectable PCC below
//! it, each checked as its own load set (a folder without one is reported and skipped).
//! Exit codes: 0 clean (warnings allowed unless `--deny warnings`), 1 errors found, 2 usage
//! or I/O failure.
//!
//! Load sets are checked in parallel over one [`FileCache`] ([`check_in_order`];
//! `RAYON_NUM_THREADS` sets the thread count), and each set's errors are printed as soon as
//! it and every set before it are done, so the output does not depend on the thread count.
//! The human report shows every error of the run first, then the warnings, then the notes
//! (the campaigns added to load sets summed up, see [`super::added`]), then the summary.

use super::added::AddedCampaigns;
use super::baseline::Accepted;
use super::changed::Changed;
use super::findings::{self, Finding, Fixable, Tally};
use super::output::{Out, OutputArgs, Stream};
use super::sarif;
use clap::{Args, ValueEnum};
use rulebook::check::{RunReport, SetReport, check_in_order, write_set};
use rulebook::diagnostic::Severity;
use rulebook::load::{
    CampaignIndex, DiskFs, FileCache, FileSystem, OutsideRoot, PcgenRoot, selectable_pccs,
};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Examples shown by `rulebook check --help`.
pub const EXAMPLES: &str = "Examples:
  rulebook check data/                          every selectable PCC below data/, each alone
  rulebook check data/handsworld/handsworld.pcc  one PCC (PCCs named together load together)
  rulebook check data/ --deny warnings          fail on warnings too (CI)
  rulebook check data/ --allow notes --quiet    no notes; errors only
  rulebook check data/ --statistics             how many findings of each code
  rulebook check data/ --format concise         one line per finding
  rulebook check data/ --format sarif > rulebook.sarif   for code scanning (docs/ci.md)
  rulebook check data/ --format json | jq .summary
  rulebook check data/ --changed-since HEAD     only load sets reading a file changed since HEAD
  rulebook check data/ --fix --diff             the safe fixes as a diff (--fix alone writes them)

A baseline (--write-baseline FILE once, then --baseline FILE) fails only on new findings;
rulebook.toml (found upward, or --config PATH) holds a project's settings: docs/ci.md.

Exit codes: 0 clean, 1 errors found, 2 usage or I/O failure.";

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// ariadne reports (errors, then warnings, then notes) and a summary line.
    Human,
    /// One `path:line:col: severity[CODE] message` line per finding (summary on stderr).
    Concise,
    /// GitHub Actions workflow commands: an annotation per finding (summary on stderr).
    Github,
    /// One JSON object (see `schemas/check-output.schema.json`).
    Json,
    /// A SARIF 2.1.0 log, for code scanning (see docs/ci.md).
    Sarif,
}

/// Arguments of `rulebook check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// PCC files (loaded together) or folders (each selectable PCC below is its own load);
    /// default: `data` of `rulebook.toml`.
    pub paths: Vec<PathBuf>,
    /// The PCGen root holding `data/` and `system/gameModes/` (found from the paths if absent).
    #[arg(long)]
    pub pcgen_root: Option<PathBuf>,
    /// Output format (default: `format` of `rulebook.toml`, else human).
    #[arg(long, value_enum)]
    pub format: Option<OutputFormat>,
    /// Read files a PCC names outside the PCGen root (refused by default).
    #[arg(long)]
    pub allow_outside_root: bool,
    /// Print how many findings each code has (most first) instead of the findings
    /// (`human` and `concise` formats).
    #[arg(long)]
    pub statistics: bool,
    /// Where SARIF rules link to (`docs/errors.md` as a URL; default: this build's copy).
    #[arg(long, value_name = "URL")]
    pub errors_doc_url: Option<String>,
    /// Report (and fail on) only the findings not in this baseline file; say how many of
    /// its findings are gone.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Record today's findings in this baseline file (none are reported; exit 0 unless the
    /// run fails otherwise).
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    pub write_baseline: Option<PathBuf>,
    /// Report only the load sets that read a file git says changed since REV (a commit,
    /// branch or tag), their findings outside the changed files noted as such.
    #[arg(long, value_name = "REV")]
    pub changed_since: Option<String>,
    /// The config file (default: the nearest `rulebook.toml` at or above the current
    /// folder; see docs/ci.md).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Apply the fixes the findings suggest (the safe ones: exact rewrites of deprecated
    /// forms), then report what remains (docs/formatting.md).
    #[arg(long)]
    pub fix: bool,
    /// With --fix: apply the unsafe fixes too ("did you mean" guesses).
    #[arg(long, requires = "fix")]
    pub unsafe_fixes: bool,
    /// With --fix: show the fixes as a unified diff and write nothing.
    #[arg(long, requires = "fix")]
    pub diff: bool,
}

impl From<rulebook::config::Format> for OutputFormat {
    fn from(f: rulebook::config::Format) -> Self {
        use rulebook::config::Format;
        match f {
            Format::Human => OutputFormat::Human,
            Format::Concise => OutputFormat::Concise,
            Format::Github => OutputFormat::Github,
            Format::Json => OutputFormat::Json,
            Format::Sarif => OutputFormat::Sarif,
        }
    }
}

/// The load sets named by the command line: all PCC files together, each folder's PCCs apart.
/// A folder without a selectable PCC is reported on stderr and skipped, and so is what a
/// folder's walk could not read (the count is returned: the run then ends with 2 after
/// checking the rest); an error when nothing is left to check, or for a path that is no PCC
/// file or folder.
fn load_sets(fs: &dyn FileSystem, paths: &[PathBuf]) -> Result<(Vec<Vec<PathBuf>>, usize), String> {
    let mut together = Vec::new();
    let mut sets = Vec::new();
    let mut skipped = Vec::new();
    let mut unwalked = 0usize;
    for p in paths {
        if fs.is_dir(p) {
            let walk = selectable_pccs(fs, p);
            for problem in &walk.problems {
                super::output::eprint(&format!(
                    "rulebook: cannot walk {problem}; the rest of {} is checked\n",
                    p.display()
                ));
            }
            unwalked = unwalked.saturating_add(walk.problems.len());
            let pccs = walk.files;
            if pccs.is_empty() {
                super::output::eprint(&format!(
                    "rulebook: no selectable .pcc file (one with a GAMEMODE line) below {}; skipped\n",
                    p.display()
                ));
                skipped.push(p);
            }
            sets.extend(pccs.into_iter().map(|x| vec![x]));
        } else if fs.is_file(p) {
            if !p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pcc")) {
                return Err(format!(
                    "{}: not a .pcc file; give the PCC that lists it, or a folder of datasets \
                     (e.g. `rulebook check {}`)",
                    p.display(),
                    p.parent()
                        .map_or_else(|| ".".into(), |d| d.display().to_string())
                ));
            }
            together.push(p.clone());
        } else if p.exists() {
            return Err(format!("{}: not a regular file or folder", p.display()));
        } else {
            return Err(format!("{}: no such file or folder", p.display()));
        }
    }
    if !together.is_empty() {
        sets.insert(0, together);
    }
    if sets.is_empty() {
        return Err(match skipped.as_slice() {
            [one] => format!("no selectable .pcc file below {}", one.display()),
            _ => "no selectable .pcc file below any of the folders".to_owned(),
        });
    }
    Ok((sets, unwalked))
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The root given by `--pcgen-root`, or an error saying what a root holds (and where one is,
/// when one is found above the paths).
pub(crate) fn given_root(
    fs: &dyn FileSystem,
    dir: &Path,
    paths: &[PathBuf],
) -> Result<PcgenRoot, String> {
    if !fs.is_dir(dir) {
        return Err(format!("--pcgen-root {}: no such folder", dir.display()));
    }
    let root = PcgenRoot::at(fs, &absolute(dir));
    if fs.is_dir(&root.game_modes()) {
        return Ok(root);
    }
    let mut message = format!(
        "--pcgen-root {}: no system/gameModes folder there; a PCGen root is the folder \
         holding data/ and system/gameModes/",
        dir.display()
    );
    if let Some(found) = paths.first().and_then(|p| PcgenRoot::find(fs, p)) {
        message.push_str(&format!(
            " (one is at {}: give that, or leave --pcgen-root out)",
            found.root.display()
        ));
    }
    Err(message)
}

/// Runs `rulebook check`.
pub fn run(args: CheckArgs, out: &OutputArgs) -> ExitCode {
    let fs = DiskFs;
    let policy = match out.policy() {
        Ok(p) => p,
        Err(e) => return super::usage_error(e),
    };
    let loaded = match super::config::load(args.config.as_deref(), out) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let policy = match &loaded {
        Some(l) => match l.policy(policy, out) {
            Ok(p) => p,
            Err(code) => return code,
        },
        None => policy,
    };
    let config = loaded.as_ref().map(|l| &l.config);
    let format = args
        .format
        .or_else(|| config.and_then(|c| c.format).map(OutputFormat::from))
        .unwrap_or(OutputFormat::Human);
    if args.statistics && !matches!(format, OutputFormat::Human | OutputFormat::Concise) {
        return super::usage_error(
            "--statistics prints a table: use it with --format human or concise",
        );
    }
    let paths: Vec<PathBuf> = match (&args.paths[..], config) {
        ([], Some(c)) if !c.data.is_empty() => c.data.clone(),
        ([], _) => {
            return super::usage_error(
                "give the PCC files or folders to check (or `data` in rulebook.toml)",
            );
        }
        (given, _) => given.iter().map(|p| absolute(p)).collect(),
    };
    let pcgen_root = args
        .pcgen_root
        .clone()
        .or_else(|| config.and_then(|c| c.pcgen_root.clone()));
    let root = match &pcgen_root {
        Some(r) => match given_root(&fs, r, &paths) {
            Ok(root) => root,
            Err(e) => return super::usage_error(e),
        },
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
    let root = match config {
        Some(c) => root.with_extra_roots(c.extra_roots.clone()),
        None => root,
    };
    let (sets, unwalked) = match load_sets(&fs, &paths) {
        Ok(s) => s,
        Err(e) => return super::usage_error(e),
    };
    if args.fix {
        match super::fix::fix(&root, &sets, &policy, args.unsafe_fixes, args.diff) {
            Ok(_) if args.diff => return ExitCode::SUCCESS,
            // Written: the check below reports what remains.
            Ok(_) => {}
            Err(e) => return super::usage_error(e),
        }
    }
    // A baseline being written is not compared with.
    let baseline = match &args.write_baseline {
        Some(_) => None,
        None => args
            .baseline
            .clone()
            .or_else(|| config.and_then(|c| c.baseline.clone())),
    };
    let mut accepted = match Accepted::new(baseline.as_deref(), args.write_baseline.as_deref()) {
        Ok(a) => a,
        Err(e) => return super::usage_error(e),
    };
    let mut changed = match args.changed_since.as_deref().map(Changed::since) {
        Some(Ok(c)) => Some(c),
        Some(Err(e)) => return super::usage_error(e),
        None => None,
    };
    let mut run = RunReport::new();
    let options = out.render_options(Stream::Stdout);
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut stdout = Out::new();
    let mut written = Ok(());
    let mut tally = Tally::default();
    let mut added = AddedCampaigns::default();
    let mut refused: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut found: Vec<Finding> = Vec::new();
    let mut fixable = Fixable::default();
    // The human report's warnings and notes, held back until every error is out: on a
    // whole data folder the errors come first, whatever load set they are in.
    let mut later: (Vec<u8>, Vec<u8>) = (Vec::new(), Vec::new());
    check_sets(&root, &sets, |mut report| {
        let changed_files = match &mut changed {
            Some(c) => match c.select(&mut report) {
                Some(files) => Some(files),
                None => return,
            },
            None => None,
        };
        policy.apply_in(&mut report.diagnostics, &report.sources, &report.root);
        let mut prints = Vec::new();
        let new = run.add_kept(&report, |d, j| {
            let (print, reported) = accepted.judge(d, j, &report.sources);
            if reported {
                prints.push(print);
            }
            reported
        });
        if let (Some(c), Some(files)) = (&mut changed, &changed_files) {
            c.elsewhere += new.iter().filter(|d| !files.contains(&d.span.file)).count();
        }
        for d in &new {
            tally.add(d);
            if let Some(code) = policy.refused(d) {
                *refused.entry(code).or_default() += 1;
            }
        }
        if args.statistics {
            return;
        }
        match format {
            OutputFormat::Human if written.is_ok() => {
                let mut new = new;
                new.retain(|d| policy.shown(d) && (out.verbose || !added.take(d)));
                for d in &mut new {
                    findings::say_fix(d, &report.sources, &mut fixable);
                }
                // Errors now; warnings and notes after every error of the run.
                let (errors, others): (Vec<_>, Vec<_>) =
                    new.into_iter().partition(|d| d.severity == Severity::Error);
                let (warnings, notes): (Vec<_>, Vec<_>) = others
                    .into_iter()
                    .partition(|d| d.severity == Severity::Warning);
                written = write_set(&mut stdout, &errors, &report, &options)
                    .and_then(|()| stdout.flush())
                    .and_then(|()| write_set(&mut later.0, &warnings, &report, &options))
                    .and_then(|()| write_set(&mut later.1, &notes, &report, &options));
            }
            OutputFormat::Concise | OutputFormat::Github => {
                found.extend(new.iter().zip(prints).filter(|(d, _)| policy.shown(d)).map(
                    |(d, print)| {
                        let mut f = Finding::new(d, &report, &cwd, print);
                        f.unchanged = changed_files
                            .as_ref()
                            .is_some_and(|files| !files.contains(&d.span.file));
                        f
                    },
                ))
            }
            OutputFormat::Sarif => found.extend(
                new.iter()
                    .zip(prints)
                    .map(|(d, print)| Finding::new(d, &report, &cwd, print)),
            ),
            OutputFormat::Human | OutputFormat::Json => {}
        }
    });
    findings::sort(&mut found);
    for f in &found {
        fixable.add(f.json.fix.as_ref().map(|fix| fix.safety));
    }
    let totals = run.summary();
    let summary_line = !policy.quiet;
    // The summary, and how many findings have a fix.
    let summary = match fixable.line() {
        Some(fixes) => format!("{}\n{fixes}", totals.line()),
        None => totals.line(),
    };
    let written = written.and_then(|()| match format {
        _ if args.statistics => tally.write(&mut stdout).and_then(|()| match summary_line {
            true => writeln!(stdout, "{}", totals.line()),
            false => Ok(()),
        }),
        OutputFormat::Human => stdout
            .write_all(&later.0)
            .and_then(|()| stdout.write_all(&later.1))
            .and_then(|()| added.write(&mut stdout))
            .and_then(|()| match summary_line {
                true => writeln!(stdout, "{summary}"),
                false => Ok(()),
            }),
        OutputFormat::Concise | OutputFormat::Github => {
            let w = match format {
                OutputFormat::Github => findings::write_github(&mut stdout, &found),
                _ => findings::write_concise(&mut stdout, &found),
            };
            if summary_line {
                super::output::eprint(&format!("{summary}\n"));
            }
            w
        }
        OutputFormat::Json => serde_json::to_string_pretty(&run.into_json())
            .map_err(std::io::Error::other)
            .and_then(|s| writeln!(stdout, "{s}")),
        OutputFormat::Sarif => {
            let docs = args
                .errors_doc_url
                .clone()
                .unwrap_or_else(rulebook::lsp::diagnostics::default_docs_base);
            serde_json::to_string_pretty(&sarif::log(&found, &docs, &cwd))
                .map_err(std::io::Error::other)
                .and_then(|s| writeln!(stdout, "{s}"))
        }
    });
    if let Err(e) = written.and_then(|()| stdout.flush()) {
        return super::usage_error(format!("cannot write the report: {e}"));
    }
    if let Some(c) = &changed {
        if !policy.quiet {
            super::output::eprint(&format!("rulebook: {}\n", c.summary()));
        }
    }
    match accepted.finish(changed.is_some()) {
        Ok(Some(line)) if !policy.quiet => super::output::eprint(&format!("rulebook: {line}\n")),
        Ok(_) => {}
        Err(e) => return super::usage_error(e),
    }
    for (code, n) in refused {
        super::output::eprint(&format!(
            "rulebook: --allow {code}: {n} {code} error{} reported all the same: errors cannot \
             be allowed, only warnings and notes\n",
            if n == 1 { " was" } else { "s were" }
        ));
    }
    if unwalked > 0 {
        // An I/O failure: what could not be read was not checked (reported above).
        ExitCode::from(2)
    } else if totals.errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Checks the load sets in parallel over one file cache and hands each set's report to
/// `emit` in the order of `sets`, as soon as it and every earlier set are done (the model of
/// a set is dropped as soon as it is checked). A progress bar shows on a terminal once
/// checking takes over 1 s.
pub(crate) fn check_sets(root: &PcgenRoot, sets: &[Vec<PathBuf>], mut emit: impl FnMut(SetReport)) {
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(sets.len() as u64),
        indicatif::ProgressDrawTarget::hidden(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} checking: {pos}/{len} load sets, {msg} [{elapsed}]",
    ) {
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
    // The data folder's PCCs indexed, and each file read, once for every load set.
    let index = CampaignIndex::build_parallel(&DiskFs, root);
    let cache = FileCache::new();
    check_in_order(&DiskFs, root, sets, &index, &cache, |report| {
        emit(report);
        bar.inc(1);
        bar.set_message(format!("{} files", cache.len()));
    });
    bar.finish_and_clear();
    // Every file of the run, split, with what was derived from it: freeing it all took
    // ≈ 2 % of a whole-corpus run, on one thread after the last set, and the process ends
    // once the report is written (the system takes the memory back at once).
    std::mem::forget(cache);
    std::mem::forget(index);
}
