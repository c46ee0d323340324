//! `rulebook dialect`.

use clap::Args;
use std::process::ExitCode;

/// Arguments of `rulebook dialect`.
#[derive(Args, Debug)]
pub struct DialectArgs {
    /// Arguments (not defined yet).
    pub rest: Vec<String>,
}

/// Runs `rulebook dialect`.
pub fn run(_args: DialectArgs) -> ExitCode {
    super::usage_error("`dialect` is not available yet")
}
