//! `rulebook conformance FILE...`

use super::output::OutputArgs;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Examples shown by `rulebook conformance --help`.
pub const EXAMPLES: &str = "Examples:
  rulebook conformance ../shared/conformance/dialects/*.json ../shared/conformance/pcgen/*.json

Exit codes: 0 all passed, 1 a vector failed, 2 a file could not be read.";

/// Arguments of `rulebook conformance`.
#[derive(Args, Debug)]
pub struct ConformanceArgs {
    /// Vector files (JSON arrays) to run.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// Runs the files, prints one line per failure and a final `N passed, N failed` line.
pub fn run(args: ConformanceArgs, _out: &OutputArgs) -> ExitCode {
    let (mut passed, mut failed) = (0, 0);
    let mut text = String::new();
    for file in &args.files {
        // Only regular files of bounded size (not a device or FIFO).
        if let Err(e) = super::input::check_file(file, "vector file", super::input::MAX_INPUT) {
            return super::usage_error(e);
        }
        match rulebook::conformance::run_file(file) {
            Ok(outcomes) => {
                for o in &outcomes {
                    if let Err(why) = &o.result {
                        let line = format!("FAIL {} {}: {}\n", file.display(), o.id, why);
                        text.push_str(&rulebook::diagnostic::escape::escape(&line));
                    }
                }
                let (p, f) = rulebook::conformance::tally(&outcomes);
                passed += p;
                failed += f;
            }
            Err(e) => return super::usage_error(e),
        }
    }
    text.push_str(&format!("{passed} passed, {failed} failed\n"));
    super::output::print(&text);
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
