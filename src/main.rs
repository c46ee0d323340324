//! The `rulebook` command line: the only place that prints, touches the terminal or exits.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    cli::run(args)
}
