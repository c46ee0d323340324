//! `rulebook eval`.

use clap::Args;
use std::process::ExitCode;

/// Arguments of `rulebook eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// Arguments (not defined yet).
    pub rest: Vec<String>,
}

/// Runs `rulebook eval`.
pub fn run(_args: EvalArgs) -> ExitCode {
    super::usage_error("`eval` is not available yet")
}
