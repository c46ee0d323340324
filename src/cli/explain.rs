//! `rulebook explain`.

use clap::Args;
use std::process::ExitCode;

/// Arguments of `rulebook explain`.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// Arguments (not defined yet).
    pub rest: Vec<String>,
}

/// Runs `rulebook explain`.
pub fn run(_args: ExplainArgs) -> ExitCode {
    super::usage_error("`explain` is not available yet")
}
