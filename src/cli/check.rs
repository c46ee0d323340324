//! `rulebook check`.

use clap::Args;
use std::process::ExitCode;

/// Arguments of `rulebook check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Arguments (not defined yet).
    pub rest: Vec<String>,
}

/// Runs `rulebook check`.
pub fn run(_args: CheckArgs) -> ExitCode {
    super::usage_error("`check` is not available yet")
}

/// `rulebook` with no arguments: check the example dataset.
pub fn run_example(data: &std::path::Path) -> ExitCode {
    super::usage_error(format!("checking {} is not available yet", data.display()))
}
