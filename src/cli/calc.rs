//! `rulebook calc`.

use clap::Args;
use std::process::ExitCode;

/// Arguments of `rulebook calc`.
#[derive(Args, Debug)]
pub struct CalcArgs {
    /// Arguments (not defined yet).
    pub rest: Vec<String>,
}

/// Runs `rulebook calc`.
pub fn run(_args: CalcArgs) -> ExitCode {
    super::usage_error("`calc` is not available yet")
}
