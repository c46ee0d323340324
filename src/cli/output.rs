//! What every command shares about output: colour, width, paths, which diagnostics are
//! shown, and writing to a pipe that may close.
//!
//! - Colour: `--color auto|always|never` (default `auto`). `auto` colours a terminal, unless
//!   `NO_COLOR` is set (non-empty) or `CLICOLOR=0`; `CLICOLOR_FORCE` (not `0`) colours even a
//!   pipe. The flag beats the environment.
//! - Width: reports are fitted to the terminal's width, or 120 columns when not a terminal.
//! - Paths: shown relative to the current folder when the file is below it, else absolute.
//! - `--allow CODE` hides a warning or note, `--deny CODE` makes it an error, `--deny warnings`
//!   makes every warning an error; `--quiet` shows errors only, without the summary line.
//! - A closed pipe (`rulebook check … | head -1`) ends the run quietly with status 0.

use clap::{Args, ValueEnum};
use rulebook::diagnostic::{DEFAULT_WIDTH, Diagnostic, PathView, RenderOptions, Severity};
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

/// When to colour output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour a terminal, unless `NO_COLOR` is set or `CLICOLOR=0` (`CLICOLOR_FORCE` colours
    /// a pipe too).
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// The options every command takes.
#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// When to colour reports: auto (a terminal, unless NO_COLOR is set), always, never.
    #[arg(
        long,
        value_enum,
        default_value = "auto",
        global = true,
        value_name = "WHEN"
    )]
    pub color: ColorChoice,
    /// Show errors only: no warnings, notes or summary line.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Make warnings (`--deny warnings`) or one code (`--deny M0120`) errors; repeatable.
    #[arg(long, global = true, value_name = "warnings|CODE")]
    pub deny: Vec<String>,
    /// Do not report CODE (a warning or note; errors cannot be allowed); repeatable.
    #[arg(long, global = true, value_name = "CODE")]
    pub allow: Vec<String>,
}

/// Which output stream a report goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

impl Stream {
    fn is_terminal(self) -> bool {
        match self {
            Stream::Stdout => io::stdout().is_terminal(),
            Stream::Stderr => io::stderr().is_terminal(),
        }
    }
}

/// A variable of the environment that is set and not empty.
fn env_set(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

impl ColorChoice {
    /// Whether to colour `stream`.
    pub fn enabled(self, stream: Stream) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                if env_set("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
                    true
                } else if env_set("NO_COLOR").is_some()
                    || env_set("CLICOLOR").is_some_and(|v| v == "0")
                {
                    false
                } else {
                    stream.is_terminal()
                }
            }
        }
    }
}

/// The columns reports on `stream` are fitted to: the terminal's, or 120.
pub fn width(stream: Stream) -> usize {
    let term = match stream {
        Stream::Stdout => console::Term::stdout(),
        Stream::Stderr => console::Term::stderr(),
    };
    if !stream.is_terminal() {
        return DEFAULT_WIDTH;
    }
    term.size_checked()
        .map_or(DEFAULT_WIDTH, |(_, cols)| usize::from(cols))
}

impl OutputArgs {
    /// How reports on `stream` are drawn (paths relative to the current folder; the root is
    /// set per load).
    pub fn render_options(&self, stream: Stream) -> RenderOptions {
        RenderOptions {
            color: self.color.enabled(stream),
            width: width(stream),
            paths: std::env::current_dir().ok().map(|cwd| PathView {
                root: PathBuf::new(),
                cwd,
            }),
        }
    }

    /// The same, with the PCGen root of the load.
    pub fn render_options_at(&self, stream: Stream, root: &std::path::Path) -> RenderOptions {
        let mut options = self.render_options(stream);
        if let Some(view) = &mut options.paths {
            view.root = root.to_path_buf();
        }
        options
    }

    /// The `--allow`/`--deny` policy; an error for a malformed code.
    pub fn policy(&self) -> Result<Policy, String> {
        let mut policy = Policy {
            quiet: self.quiet,
            ..Policy::default()
        };
        for d in &self.deny {
            if d.eq_ignore_ascii_case("warnings") {
                policy.deny_warnings = true;
            } else {
                policy.deny.push(code(d, "--deny")?);
            }
        }
        for a in &self.allow {
            policy.allow.push(code(a, "--allow")?);
        }
        Ok(policy)
    }
}

/// A diagnostic code as written on the command line (`m0120` is `M0120`).
fn code(text: &str, flag: &str) -> Result<String, String> {
    let upper = text.to_ascii_uppercase();
    let mut chars = upper.chars();
    let letter = chars.next().is_some_and(|c| c.is_ascii_uppercase());
    let digits: Vec<char> = chars.collect();
    if letter && digits.len() == 4 && digits.iter().all(char::is_ascii_digit) {
        Ok(upper)
    } else if flag == "--deny" {
        Err(format!(
            "{flag} `{text}`: write `warnings` or a code such as M0120 (docs/errors.md lists them)"
        ))
    } else {
        Err(format!(
            "{flag} `{text}`: write a code such as M0120 (docs/errors.md lists them)"
        ))
    }
}

/// Which diagnostics are reported, and how seriously.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    /// Codes not reported (warnings and notes only).
    pub allow: Vec<String>,
    /// Codes made errors.
    pub deny: Vec<String>,
    /// Every warning made an error.
    pub deny_warnings: bool,
    /// Only errors are shown.
    pub quiet: bool,
}

impl Policy {
    /// Applies `--allow` and `--deny` to `diagnostics`: allowed warnings and notes are
    /// removed, denied ones become errors.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        diagnostics.retain_mut(|d| {
            if d.severity == Severity::Error {
                return true;
            }
            if self.deny.iter().any(|c| c == d.code.id)
                || (self.deny_warnings && d.severity == Severity::Warning)
            {
                d.severity = Severity::Error;
                return true;
            }
            !self.allow.iter().any(|c| c == d.code.id)
        });
    }

    /// Whether a diagnostic (after [`Policy::apply`]) is shown.
    pub fn shown(&self, d: &Diagnostic) -> bool {
        !self.quiet || d.severity == Severity::Error
    }
}

/// Standard output for a run: buffered, and a closed pipe ends the process quietly.
pub struct Out(io::BufWriter<io::StdoutLock<'static>>);

impl Out {
    /// Locks standard output.
    pub fn new() -> Self {
        Out(io::BufWriter::with_capacity(1 << 16, io::stdout().lock()))
    }
}

impl Default for Out {
    fn default() -> Self {
        Self::new()
    }
}

/// A closed pipe: the reader has what it wanted (`| head`). Ends quietly, status 0.
fn closed_pipe() -> ! {
    std::process::exit(0)
}

fn guard<T>(r: io::Result<T>) -> io::Result<T> {
    match r {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => closed_pipe(),
        r => r,
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        guard(self.0.write(buf))
    }
    fn flush(&mut self) -> io::Result<()> {
        guard(self.0.flush())
    }
}

impl Drop for Out {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// Writes `text` to standard output (see [`Out`]); false when writing failed otherwise.
pub fn print(text: &str) -> bool {
    let mut out = Out::new();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_ok()
}

/// Writes `text` to standard error; a closed standard error is ignored.
pub fn eprint(text: &str) {
    let mut err = io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_checked_and_upper_cased() {
        assert_eq!(code("m0120", "--allow").as_deref(), Ok("M0120"));
        assert!(code("M012", "--allow").is_err());
        assert!(code("warning", "--deny").unwrap_err().contains("warnings"));
    }
}
