//! The `rulebook` command line: the only place that prints, touches the terminal or exits.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::parse_args() {
        Ok(args) => cli::run(args),
        Err(code) => code,
    }
}
