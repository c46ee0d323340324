//! Command-line interface. Each subcommand lives in its own module; this one only parses
//! arguments and dispatches. Exit codes: 0 success, 1 problems found (errors in data or a
//! failed formula), 2 usage or I/O failure.

mod calc;
mod check;
mod conformance;
mod dialect;
mod eval;
mod explain;
mod graph;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// rulebook — a rules engine for PCGen-style game data.
///
/// With no subcommand, checks the project's own example dataset under `data/` and computes
/// its sample character.
#[derive(Parser, Debug)]
#[command(name = "rulebook", version, about, long_about = None)]
pub struct Cli {
    /// What to do (default: check and compute the example in `data/`).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Load PCC/LST datasets and report every problem.
    Check(check::CheckArgs),
    /// Evaluate one formula.
    Eval(eval::EvalArgs),
    /// Run conformance vector files and print `N passed, N failed`.
    Conformance(conformance::ConformanceArgs),
    /// Compute every variable of a character.
    Calc(calc::CalcArgs),
    /// Explain how one variable of a character got its value.
    Explain(explain::ExplainArgs),
    /// Write the dependency graph as DOT.
    Graph(graph::GraphArgs),
    /// Evaluate a FICS, ICC or UnterMUD formula.
    Dialect(dialect::DialectArgs),
    /// Run the language server over stdin/stdout (see docs/editors.md).
    Lsp {
        /// Accepted for editors that pass it; stdio is the only transport.
        #[arg(long)]
        stdio: bool,
    },
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Some(Command::Check(a)) => check::run(a),
        Some(Command::Eval(a)) => eval::run(a),
        Some(Command::Conformance(a)) => conformance::run(a),
        Some(Command::Calc(a)) => calc::run(a),
        Some(Command::Explain(a)) => explain::run(a),
        Some(Command::Graph(a)) => graph::run(a),
        Some(Command::Dialect(a)) => dialect::run(a),
        Some(Command::Lsp { .. }) => match rulebook::lsp::run_stdio() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => usage_error(e),
        },
        None => run_example(),
    }
}

/// `rulebook` with no arguments: check `data/` and compute its sample character.
fn run_example() -> ExitCode {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    check::run_example(&data)
}

/// Prints an error about the command line or I/O and returns exit code 2.
pub(crate) fn usage_error(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("rulebook: {message}");
    ExitCode::from(2)
}
