//! `rulebook graph`.

use clap::Args;
use std::process::ExitCode;

/// Arguments of `rulebook graph`.
#[derive(Args, Debug)]
pub struct GraphArgs {
    /// Arguments (not defined yet).
    pub rest: Vec<String>,
}

/// Runs `rulebook graph`.
pub fn run(_args: GraphArgs) -> ExitCode {
    super::usage_error("`graph` is not available yet")
}
