//! `rulebook calc PCC... --character FILE [--format table|json]`: every variable of a
//! character. Exit codes: 0 computed without errors, 1 the character has problems (unknown
//! objects, unusable modifiers, cycles, failed evaluations; a character file that is not
//! valid TOML or has unknown keys, `S0206`), 2 usage or I/O failure. Problems with the
//! character file's entries are reported at their line in it; a character file that is not
//! UTF-8 is read as Windows-1252 with an `L0101` warning, like a data file.

use super::output::{OutputArgs, Stream};
use clap::{Args, ValueEnum};
use rulebook::character::Character;
use rulebook::character::file::{self, CalcOutput, CalcValue, CharacterFile};
use rulebook::check::{CheckedSet, check_load_set};
use rulebook::diagnostic::{self, Diagnostic, Severity};
use rulebook::load::text::read_source;
use rulebook::load::{DiskFs, FileSystem, PcgenRoot};
use rulebook::source::SourceMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// Examples shown by `rulebook calc --help`.
pub const EXAMPLES: &str = "Examples:
  rulebook calc data/handsworld/handsworld.pcc --character data/sample-character.toml
  rulebook calc data/handsworld/handsworld.pcc --character data/sample-character.toml --format json

Exit codes: 0 computed without errors, 1 the character has problems, 2 usage or I/O failure.";

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// An aligned `name  value` table.
    Table,
    /// One JSON object (see `schemas/calc-output.schema.json`).
    Json,
}

/// Arguments of `rulebook calc`.
#[derive(Args, Debug)]
pub struct CalcArgs {
    /// PCC files loaded together.
    #[arg(required = true)]
    pub pcc: Vec<PathBuf>,
    /// The character file (TOML; see `schemas/character.schema.json`).
    #[arg(long)]
    pub character: PathBuf,
    /// The PCGen root holding `data/` and `system/gameModes/` (found from the PCC if absent).
    #[arg(long)]
    pub pcgen_root: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: OutputFormat,
}

/// A loaded dataset and the character built on it.
pub(crate) struct Loaded {
    /// The load (sources for rendering spans).
    pub set: CheckedSet,
    /// The character.
    pub character: Character,
    /// Problems building the character (file problems first, then the character's).
    pub problems: Vec<Diagnostic>,
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Why [`load`] built no character.
pub(crate) enum LoadError {
    /// A usage or I/O failure (exit code 2).
    Usage(String),
    /// The character file is not valid TOML or not a character file (exit code 1): the
    /// problems (the TOML error, after an `L0101` warning if the file is not UTF-8), with a
    /// source map holding the file's text, and the PCGen root its path is shown under.
    File(SourceMap, Vec<Diagnostic>, PathBuf),
}

impl From<String> for LoadError {
    fn from(message: String) -> Self {
        LoadError::Usage(message)
    }
}

impl From<&str> for LoadError {
    fn from(message: &str) -> Self {
        LoadError::Usage(message.to_owned())
    }
}

impl LoadError {
    /// Reports the failure on stderr; the exit code.
    pub(crate) fn exit(self, out: &OutputArgs) -> ExitCode {
        match self {
            LoadError::Usage(message) => super::usage_error(message),
            LoadError::File(sources, problems, root) => {
                super::output::eprint(&diagnostic::render_with(
                    &problems,
                    &sources,
                    &out.render_options_at(Stream::Stderr, &root),
                ));
                ExitCode::from(1)
            }
        }
    }
}

/// Loads the PCC files and builds the character of `character` (none: nothing granted).
/// The character file is read first (a TOML error is reported without loading the data)
/// and becomes a source file of the load, so problems with its entries point into it.
pub(crate) fn load(
    pcc: &[PathBuf],
    pcgen_root: Option<&Path>,
    character: Option<&Path>,
) -> Result<Loaded, LoadError> {
    let fs = DiskFs;
    let pccs: Vec<PathBuf> = pcc.iter().map(|p| absolute(p)).collect();
    for p in &pccs {
        if !fs.is_file(p) {
            return Err(format!("{}: no such file", p.display()).into());
        }
    }
    let root = match pcgen_root {
        Some(r) => super::check::given_root(&fs, r, &pccs)?,
        None => pccs
            .first()
            .and_then(|p| PcgenRoot::find(&fs, p))
            .ok_or("cannot find the PCGen root above the PCC; give --pcgen-root")?,
    };
    let file = match character {
        Some(path) => {
            // Only a regular file of bounded size (not a device or FIFO).
            super::input::check_file(path, "--character", super::input::MAX_INPUT)?;
            // Read like a data file: not UTF-8 is decoded as Windows-1252 and reported. Its
            // path is shown like a data file's (relative to the root when under it).
            let mut alone = SourceMap::new();
            let display = root.display(&absolute(path));
            let (id, not_utf8) = read_source(&fs, path, display, &mut alone)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            let mut read: Vec<Diagnostic> = not_utf8
                .map(|w| w.with_note("read as Windows-1252"))
                .into_iter()
                .collect();
            let source = alone
                .get(id)
                .cloned()
                .ok_or_else(|| format!("{}: could not be read", path.display()))?;
            match file::parse_located(&source.text, id) {
                Ok(located) => Some((source, located, read)),
                Err(problem) => {
                    read.push(*problem);
                    return Err(LoadError::File(alone, read, root.root.clone()));
                }
            }
        }
        None => None,
    };
    let mut set = check_load_set(&fs, &root, &pccs);
    // Moved, not cloned: calc never reads `set.dataset` again, and a clone of a large
    // dataset cost a tenth of the run.
    let dataset = Arc::new(std::mem::take(&mut set.dataset));
    let (character, mut problems) = match file {
        Some((source, located, read)) => {
            let id = set.load.sources.add(source);
            let (character, mut problems) =
                file::build_located(dataset, &located, id, &set.load.sources);
            // The reading problems were found with the file alone: move them to its place
            // in the load's sources.
            problems.extend(read.into_iter().map(|mut d| {
                d.move_to(id);
                d
            }));
            (character, problems)
        }
        None => file::build(dataset, &CharacterFile::default()),
    };
    problems.extend(character.problems());
    // A sheet that leaves out old-system tokens of granted objects says so.
    problems.extend(character.unapplied());
    diagnostic::sort(&mut problems, &set.load.sources);
    Ok(Loaded {
        set,
        character,
        problems,
    })
}

/// Writes `text` to stdout; a closed pipe (`| head`) ends the run quietly. It holds names
/// and values from data (an object key may hold ESC or BEL): their control characters are
/// shown escaped (`\u{1b}`), never sent to the terminal.
pub(crate) fn emit(text: &str) {
    super::output::print(&rulebook::diagnostic::escape::escape(text));
}

/// Prints problems to stderr (those `--quiet` leaves); true when one is an error.
pub(crate) fn report(loaded: &Loaded, out: &OutputArgs) -> bool {
    let quiet = out.quiet;
    let shown: Vec<Diagnostic> = loaded
        .problems
        .iter()
        .filter(|d| !quiet || d.severity == Severity::Error)
        .cloned()
        .collect();
    if !shown.is_empty() {
        super::output::eprint(&diagnostic::render_with(
            &shown,
            &loaded.set.load.sources,
            &out.render_options_at(Stream::Stderr, &loaded.set.load.root.root),
        ));
    }
    loaded
        .problems
        .iter()
        .any(|d| d.severity == Severity::Error)
}

/// Every value as an aligned `name  value` table, one line each.
pub(crate) fn table(values: &[(String, rulebook::formula::Value)]) -> String {
    let width = values.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut out = String::new();
    for (name, value) in values {
        let _ = writeln!(out, "{name:<width$}  {value}");
    }
    out
}

/// Runs `rulebook calc`.
pub fn run(args: CalcArgs, out: &OutputArgs) -> ExitCode {
    let policy = match out.policy() {
        Ok(p) => p,
        Err(e) => return super::usage_error(e),
    };
    let loaded = match load(&args.pcc, args.pcgen_root.as_deref(), Some(&args.character)) {
        Ok(mut l) => {
            policy.apply(&mut l.problems);
            l
        }
        Err(LoadError::File(sources, problems, root)) if args.format == OutputFormat::Json => {
            let json = CalcOutput {
                values: Vec::new(),
                problems: problems
                    .iter()
                    .map(|d| diagnostic::to_json_rooted(d, &sources, &root))
                    .collect(),
            };
            return match serde_json::to_string_pretty(&json) {
                Ok(s) => {
                    emit(&format!("{s}\n"));
                    ExitCode::from(1)
                }
                Err(e) => super::usage_error(e),
            };
        }
        Err(e) => return e.exit(out),
    };
    let values = loaded.character.values();
    let mut text = String::new();
    let failed = match args.format {
        OutputFormat::Table => {
            text.push_str(&table(&values));
            report(&loaded, out)
        }
        OutputFormat::Json => {
            let json = CalcOutput {
                values: values
                    .iter()
                    .map(|(n, v)| CalcValue {
                        name: n.clone(),
                        value: v.to_string(),
                    })
                    .collect(),
                problems: loaded
                    .problems
                    .iter()
                    .map(|d| {
                        diagnostic::to_json_rooted(
                            d,
                            &loaded.set.load.sources,
                            &loaded.set.load.root.root,
                        )
                    })
                    .collect(),
            };
            match serde_json::to_string_pretty(&json) {
                Ok(s) => {
                    let _ = writeln!(text, "{s}");
                }
                Err(e) => return super::usage_error(e),
            }
            loaded
                .problems
                .iter()
                .any(|d| d.severity == Severity::Error)
        }
    };
    emit(&text);
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
