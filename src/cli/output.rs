//! What every command shares about output: colour, width, paths, which diagnostics are
//! shown, and writing to a pipe that may close.
//!
//! - Colour: `--color auto|always|never` (default `auto`). `auto` colours a terminal, unless
//!   `NO_COLOR` is set (non-empty) or `CLICOLOR=0`; `CLICOLOR_FORCE` (not `0`) colours even a
//!   pipe. The flag beats the environment.
//! - Width: reports are fitted to the terminal's width, or 120 columns when not a terminal.
//! - Paths: shown relative to the current folder when the file is below it, else absolute.
//! - `--allow CODE` hides a warning or note, `--deny CODE` makes it an error; `warnings` and
//!   `notes` name every warning or note (`--deny warnings`, `--allow notes`); an unknown code
//!   is a usage error. `--quiet` shows errors only, without the summary line; `--verbose`
//!   shows every note in full.
//! - A closed pipe (`rulebook check … | head -1`) ends the run quietly with status 0.

use clap::{Args, ValueEnum};
use rulebook::config::codes::selector;
use rulebook::config::policy::Policy;
use rulebook::diagnostic::{DEFAULT_WIDTH, PathView, RenderOptions};
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
    /// Make warnings, notes or one code errors (`--deny warnings`, `--deny notes`,
    /// `--deny M0120`); repeatable.
    #[arg(long, global = true, value_name = "warnings|notes|CODE")]
    pub deny: Vec<String>,
    /// Do not report warnings, notes or one code (`--allow notes`, `--allow M0120`; errors
    /// cannot be allowed); repeatable.
    #[arg(long, global = true, value_name = "warnings|notes|CODE")]
    pub allow: Vec<String>,
    /// Show every note in full (`check` otherwise sums up the campaigns it added to load
    /// sets, L0106, once per campaign).
    #[arg(long, short, global = true)]
    pub verbose: bool,
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

    /// The `--allow`/`--deny` policy; an error (with a guess) for a word that names no
    /// documented code.
    pub fn policy(&self) -> Result<Policy, String> {
        let mut policy = Policy {
            quiet: self.quiet,
            ..Policy::default()
        };
        for d in &self.deny {
            policy
                .deny
                .push(selector(d, "--deny").map_err(|e| e.to_string())?);
        }
        for a in &self.allow {
            policy
                .allow
                .push(selector(a, "--allow").map_err(|e| e.to_string())?);
        }
        Ok(policy)
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

/// A path as `fmt` and `check --fix` show it: relative to the current folder when below it.
pub fn shown_path(path: &std::path::Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    path.strip_prefix(&cwd)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The unified diff (one line of context) from `old` to `new`, the text of `path`.
pub fn unified_diff(path: &std::path::Path, old: &str, new: &str) -> String {
    let name = shown_path(path);
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(1)
        .header(&name, &name)
        .to_string()
}
