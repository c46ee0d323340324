//! `rulebook conformance FILE...`

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rulebook conformance`.
#[derive(Args, Debug)]
pub struct ConformanceArgs {
    /// Vector files (JSON arrays) to run.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// Runs the files, prints one line per failure and a final `N passed, N failed` line.
pub fn run(args: ConformanceArgs) -> ExitCode {
    let (mut passed, mut failed) = (0, 0);
    for file in &args.files {
        match rulebook::conformance::run_file(file) {
            Ok(outcomes) => {
                for o in &outcomes {
                    if let Err(why) = &o.result {
                        println!("FAIL {} {}: {}", file.display(), o.id, why);
                    }
                }
                let (p, f) = rulebook::conformance::tally(&outcomes);
                passed += p;
                failed += f;
            }
            Err(e) => return super::usage_error(e),
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
