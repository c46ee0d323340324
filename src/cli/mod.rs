//! Command-line interface. Each subcommand lives in its own module; this one parses the
//! arguments every command shares ([`output::OutputArgs`]) and dispatches.
//!
//! Exit codes: 0 success (warnings and notes allowed, unless `--deny`), 1 problems found
//! (errors in data or a failed formula), 2 usage or I/O failure. A closed output pipe ends
//! a run quietly with 0.

mod added;
mod baseline;
mod calc;
mod changed;
mod check;
mod config;
mod conformance;
mod dialect;
mod eval;
mod example;
mod explain;
mod findings;
mod fix;
mod fmt;
mod graph;
mod input;
mod output;
mod sarif;

use clap::{CommandFactory, Parser, Subcommand};
use output::OutputArgs;
use rulebook::diagnostic::escape::escape;
use std::process::ExitCode;

/// rulebook — a rules engine for PCGen-style game data.
///
/// With no subcommand, in a folder holding the example dataset (`data/handsworld`, as the
/// project's own folder does), checks `data/` and computes its sample character; anywhere
/// else prints this help.
#[derive(Parser, Debug)]
#[command(
    name = "rulebook",
    version,
    about,
    long_about = None,
    after_help = "Examples:\n  rulebook check data/                 check every dataset below data/\n  rulebook check data/ --deny warnings   fail on warnings too (CI)\n  rulebook eval 'floor((14-10)/2)'      evaluate a formula\n\nExit codes: 0 clean, 1 problems found, 2 usage or I/O failure."
)]
pub struct Cli {
    /// What to do (default: check and compute the example in `./data`, if there).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options of every command.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Load PCC/LST datasets and report every problem.
    #[command(after_help = check::EXAMPLES)]
    Check(check::CheckArgs),
    /// Lay out LST and PCC files as PrettyLST does, without changing what PCGen reads.
    #[command(after_help = fmt::EXAMPLES)]
    Fmt(fmt::FmtArgs),
    /// Evaluate one formula.
    #[command(after_help = eval::EXAMPLES)]
    Eval(eval::EvalArgs),
    /// Run conformance vector files and print `N passed, N failed`.
    #[command(after_help = conformance::EXAMPLES)]
    Conformance(conformance::ConformanceArgs),
    /// Compute every variable of a character.
    #[command(after_help = calc::EXAMPLES)]
    Calc(calc::CalcArgs),
    /// Explain how one variable of a character got its value.
    #[command(after_help = explain::EXAMPLES)]
    Explain(explain::ExplainArgs),
    /// Write the dependency graph as DOT.
    #[command(after_help = graph::EXAMPLES)]
    Graph(graph::GraphArgs),
    /// Evaluate a FICS, ICC or UnterMUD formula.
    #[command(after_help = dialect::EXAMPLES)]
    Dialect(dialect::DialectArgs),
    /// Print a shell completion script.
    #[command(
        after_help = "Example:\n  rulebook completions bash > ~/.local/share/bash-completion/completions/rulebook"
    )]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page of rulebook or of one of its commands (roff).
    #[command(after_help = "Example:\n  rulebook man check | man -l -")]
    Man {
        /// The command (default: rulebook itself).
        command: Option<String>,
    },
    /// Run the language server over stdin/stdout (see docs/editors.md).
    #[command(
        after_help = "Example:\n  rulebook lsp --stdio      (started by an editor, not by hand)"
    )]
    Lsp {
        /// Accepted for editors that pass it; stdio is the only transport.
        #[arg(long)]
        stdio: bool,
    },
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    let out = &cli.output;
    match cli.command {
        Some(Command::Check(a)) => check::run(a, out),
        Some(Command::Fmt(a)) => fmt::run(a, out),
        Some(Command::Eval(a)) => eval::run(a, out),
        Some(Command::Conformance(a)) => conformance::run(a, out),
        Some(Command::Calc(a)) => calc::run(a, out),
        Some(Command::Explain(a)) => explain::run(a, out),
        Some(Command::Graph(a)) => graph::run(a, out),
        Some(Command::Dialect(a)) => dialect::run(a, out),
        Some(Command::Completions { shell }) => completions(shell),
        Some(Command::Man { command }) => man(command.as_deref()),
        Some(Command::Lsp { .. }) => match rulebook::lsp::run_stdio() {
            Ok(rulebook::lsp::Ending::AfterShutdown) => ExitCode::SUCCESS,
            // LSP: `exit` without `shutdown` first ends with 1.
            Ok(rulebook::lsp::Ending::WithoutShutdown) => ExitCode::from(1),
            Err(e) => usage_error(e),
        },
        None => run_example(out),
    }
}

/// `rulebook completions SHELL`.
fn completions(shell: clap_complete::Shell) -> ExitCode {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "rulebook", &mut buf);
    print_bytes(&buf)
}

/// `rulebook man [COMMAND]`.
fn man(command: Option<&str>) -> ExitCode {
    let mut cmd = Cli::command();
    cmd.build();
    let page = match command {
        None => cmd,
        Some(name) => match cmd.find_subcommand(name) {
            Some(sub) => {
                let full = format!("rulebook-{}", sub.get_name());
                sub.clone().bin_name(full.clone()).display_name(full)
            }
            None => {
                let names: Vec<String> = cmd
                    .get_subcommands()
                    .map(|s| s.get_name().to_owned())
                    .collect();
                return usage_error(format!(
                    "no command `{name}`; use one of: {}",
                    names.join(", ")
                ));
            }
        },
    };
    let mut buf = Vec::new();
    if let Err(e) = clap_mangen::Man::new(page).render(&mut buf) {
        return usage_error(e);
    }
    print_bytes(&buf)
}

fn print_bytes(bytes: &[u8]) -> ExitCode {
    if output::print(&String::from_utf8_lossy(bytes)) {
        ExitCode::SUCCESS
    } else {
        usage_error("cannot write to standard output")
    }
}

/// `rulebook` with no arguments: in a folder holding the example (`data/handsworld`, as the
/// project's own folder does), check `data/` and compute its sample character; anywhere
/// else print the help (exit 2: nothing was done).
fn run_example(out: &OutputArgs) -> ExitCode {
    let data = std::path::Path::new("data");
    if data.join("handsworld").join("handsworld.pcc").is_file() {
        let data = std::path::absolute(data).unwrap_or_else(|_| data.to_path_buf());
        return example::run_example(&data, out);
    }
    let help = Cli::command().render_help().to_string();
    output::eprint(&format!(
        "{help}\nrulebook: nothing to do here: give a command (no example dataset \
         data/handsworld/handsworld.pcc below the current folder to check)\n"
    ));
    ExitCode::from(2)
}

/// Prints an error about the command line or I/O and returns exit code 2. The message may
/// quote an argument or a file's text: its control characters are shown escaped
/// (`\u{1b}`), never sent to the terminal.
pub(crate) fn usage_error(message: impl std::fmt::Display) -> ExitCode {
    let message = message.to_string();
    output::eprint(&format!("rulebook: {}\n", escape(&message)));
    ExitCode::from(2)
}

/// The command line, parsed; or the exit code after clap's message. clap quotes a bad
/// argument as it is: when that holds control characters, the message is printed escaped
/// (and plain) instead.
pub fn parse_args() -> Result<Cli, ExitCode> {
    match Cli::try_parse() {
        Ok(cli) => Ok(cli),
        Err(e) => {
            let plain = e.render().to_string();
            if e.use_stderr()
                && plain
                    .chars()
                    .any(rulebook::diagnostic::escape::needs_escape)
            {
                output::eprint(&escape(&plain));
                return Err(ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2)));
            }
            e.exit()
        }
    }
}
