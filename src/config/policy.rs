//! Which findings are reported, and how seriously: `allow` and `deny` of codes, of every
//! warning or note, and of the files a glob matches — what `--allow`/`--deny` and
//! `rulebook.toml` say, applied the same way by `rulebook check` and the language server.

use super::codes::Selector;
use crate::diagnostic::{Diagnostic, PathView, Severity};
use crate::source::SourceMap;
use std::path::{Path, PathBuf};

/// Which diagnostics are reported, and how seriously.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    /// What is not reported (warnings and notes only).
    pub allow: Vec<Selector>,
    /// What is made an error.
    pub deny: Vec<Selector>,
    /// Only errors are shown.
    pub quiet: bool,
    /// `allow` and `deny` for some files (`[[paths]]` of `rulebook.toml`), on top of the
    /// above; their globs are relative to `dir`.
    pub rules: Vec<PathRule>,
    /// The folder of `rulebook.toml`.
    pub dir: PathBuf,
}

/// `allow` and `deny` for the files a glob matches.
#[derive(Clone, Debug)]
pub struct PathRule {
    /// The files.
    pub glob: super::glob::Glob,
    /// Not reported there.
    pub allow: Vec<Selector>,
    /// Made errors there.
    pub deny: Vec<Selector>,
}

/// Whether `selectors` name a diagnostic.
fn names(selectors: &[Selector], d: &Diagnostic) -> bool {
    selectors.iter().any(|s| match s {
        Selector::Warnings => d.severity == Severity::Warning,
        Selector::Notes => d.severity == Severity::Note,
        Selector::Code(c) => c == d.code.id,
    })
}

impl Policy {
    /// Applies `--allow` and `--deny` to `diagnostics`: allowed warnings and notes are
    /// removed, denied ones become errors (deny wins over allow).
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        diagnostics.retain_mut(|d| self.keep(d, &[]));
    }

    /// [`Policy::apply`] with the path rules too, for diagnostics in `sources` (paths
    /// relative to the PCGen root `root`).
    pub fn apply_in(&self, diagnostics: &mut Vec<Diagnostic>, sources: &SourceMap, root: &Path) {
        if self.rules.is_empty() {
            return self.apply(diagnostics);
        }
        diagnostics.retain_mut(|d| {
            let rules: Vec<&PathRule> = sources
                .get(d.span.file)
                .and_then(|f| PathView::absolute(root, &f.path))
                .and_then(|p| super::relative(&self.dir, &p))
                .map(|rel| self.rules.iter().filter(|r| r.glob.matches(&rel)).collect())
                .unwrap_or_default();
            self.keep(d, &rules)
        });
    }

    /// Whether `d` stays (a denied one made an error); `rules` are the path rules of its
    /// file. The last rule naming `d` decides, else the options for every file; at one level
    /// deny beats allow.
    fn keep(&self, d: &mut Diagnostic, rules: &[&PathRule]) -> bool {
        if d.severity == Severity::Error {
            return true;
        }
        let levels = rules
            .iter()
            .rev()
            .map(|r| (&r.deny, &r.allow))
            .chain([(&self.deny, &self.allow)]);
        for (deny, allow) in levels {
            if names(deny, d) {
                d.severity = Severity::Error;
                return true;
            }
            if names(allow, d) {
                return false;
            }
        }
        true
    }

    /// Whether a diagnostic (after [`Policy::apply`]) is shown.
    pub fn shown(&self, d: &Diagnostic) -> bool {
        !self.quiet || d.severity == Severity::Error
    }

    /// The code of `d` when it is an error that `--allow` names: errors cannot be allowed.
    pub fn refused(&self, d: &Diagnostic) -> Option<&'static str> {
        let named = self
            .allow
            .iter()
            .any(|s| matches!(s, Selector::Code(c) if c == d.code.id));
        (named && d.severity == Severity::Error).then_some(d.code.id)
    }
}
