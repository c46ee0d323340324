//! `rulebook.toml` for `rulebook check`: found (or named by `--config`), read, and turned
//! into the run's policy; a problem in it is reported at its place on stderr (exit 2). The
//! file's keys and their meaning are [`rulebook::config`]'s.

use super::output::{OutputArgs, Stream};
use rulebook::config::policy::Policy;
use rulebook::config::{self, Config};
use rulebook::diagnostic::{Diagnostic, render_with};
use rulebook::load::{DiskFs, FileSystem};
use rulebook::source::{SourceFile, SourceMap, TextEncoding};
use std::path::Path;
use std::process::ExitCode;

/// A read config file and its text (to point at a word of it later).
pub struct Loaded {
    /// The settings.
    pub config: Config,
    /// The file, for rendering a problem found in it later.
    sources: SourceMap,
}

/// The config file named by `--config`, else the nearest `rulebook.toml` at or above the
/// current folder (none: `Ok(None)`); its problems rendered on stderr (`Err` is exit 2).
pub fn load(given: Option<&Path>, out: &OutputArgs) -> Result<Option<Loaded>, ExitCode> {
    let fs = DiskFs;
    let path = match given {
        Some(p) => std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()),
        None => {
            let cwd = std::env::current_dir().unwrap_or_default();
            match config::discover(&fs, &cwd) {
                Some(p) => p,
                None => return Ok(None),
            }
        }
    };
    let text = match fs.read(&path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            return Err(super::usage_error(format!(
                "config file {}: {e}",
                path.display()
            )));
        }
    };
    let mut sources = SourceMap::new();
    let id = sources.add(SourceFile::new(
        path.to_string_lossy(),
        text.as_str(),
        TextEncoding::Utf8,
    ));
    match config::parse(&text, &path, id) {
        Ok(config) => Ok(Some(Loaded { config, sources })),
        Err(d) => Err(report(&d, &sources, out)),
    }
}

impl Loaded {
    /// `policy` with the file's `allow`, `deny` and `[[paths]]` added; a word naming no code
    /// is reported at its place (`Err` is exit 2).
    pub fn policy(&self, policy: Policy, out: &OutputArgs) -> Result<Policy, ExitCode> {
        self.config
            .policy(policy)
            .map_err(|d| report(&d, &self.sources, out))
    }
}

/// Renders a problem of the config file on stderr; exit 2.
fn report(d: &Diagnostic, sources: &SourceMap, out: &OutputArgs) -> ExitCode {
    super::output::eprint(&render_with(
        std::slice::from_ref(d),
        sources,
        &out.render_options(Stream::Stderr),
    ));
    ExitCode::from(2)
}
