//! `rulebook check --changed-since REV`: the files git says changed since `REV` (committed,
//! staged, in the working tree, or new and not ignored), and which findings of a run they
//! select. Every load set is still loaded and checked whole (a change can break another
//! file); only the load sets that read a changed file are reported, and their findings
//! outside the changed files carry a note saying so.

use rulebook::check::SetReport;
use rulebook::diagnostic::PathView;
use rulebook::source::FileId;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The files changed since a revision.
#[derive(Debug)]
pub struct Changed {
    /// The revision, as given.
    rev: String,
    /// The changed files, canonical.
    files: HashSet<PathBuf>,
    /// Whether a file read by a load set (absolute, as loaded) is one of them, cached.
    known: HashMap<PathBuf, bool>,
    /// Load sets that read a changed file.
    sets: usize,
    /// Findings reported outside the changed files (counted by the caller).
    pub elsewhere: usize,
}

/// Runs `git ARGS` in the current folder; its standard output, or an error with its
/// standard error.
fn git(args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .args(args)
        .output()
        .map_err(|e| format!("--changed-since needs git: cannot run it: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "--changed-since: git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(out.stdout)
}

/// `-z` output: NUL-separated paths.
fn names(bytes: &[u8]) -> impl Iterator<Item = String> + '_ {
    bytes
        .split(|b| *b == 0)
        .filter(|n| !n.is_empty())
        .map(|n| String::from_utf8_lossy(n).into_owned())
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

impl Changed {
    /// Asks git (in the current folder's repository) what changed since `rev`.
    pub fn since(rev: &str) -> Result<Self, String> {
        let top = git(&["rev-parse", "--show-toplevel"])?;
        let top = PathBuf::from(String::from_utf8_lossy(&top).trim());
        let diff = git(&["diff", "--name-only", "-z", rev, "--"])?;
        let new = git(&[
            "ls-files",
            "--others",
            "--exclude-standard",
            "--full-name",
            "-z",
        ])?;
        let files = names(&diff)
            .chain(names(&new))
            .map(|n| canonical(&top.join(n)))
            .collect();
        Ok(Changed {
            rev: rev.to_owned(),
            files,
            known: HashMap::new(),
            sets: 0,
            elsewhere: 0,
        })
    }

    /// Whether the file at `abs` changed.
    fn is_changed(&mut self, abs: &Path) -> bool {
        if let Some(&known) = self.known.get(abs) {
            return known;
        }
        let changed = self.files.contains(&canonical(abs));
        self.known.insert(abs.to_path_buf(), changed);
        changed
    }

    /// The changed files `set` reads (none: the set is not reported); each of its findings
    /// outside them gets a note naming one that changed.
    pub fn select(&mut self, set: &mut SetReport) -> Option<HashSet<FileId>> {
        let mut changed = HashSet::new();
        let mut first = None;
        for (id, f) in set.sources.iter() {
            let Some(abs) = PathView::absolute(&set.root, &f.path) else {
                continue;
            };
            if self.is_changed(&abs) {
                changed.insert(id);
                first.get_or_insert_with(|| f.path.clone());
            }
        }
        let first = first?;
        self.sets += 1;
        let note = format!(
            "not in a file changed since {}: reported because its load set also reads {first}, \
             which changed",
            self.rev
        );
        for d in &mut set.diagnostics {
            if !changed.contains(&d.span.file) {
                d.notes.push(note.clone());
            }
        }
        Some(changed)
    }

    /// What stderr says at the end: how many load sets read a changed file.
    pub fn summary(&self) -> String {
        match self.sets {
            0 => format!(
                "--changed-since {}: no load set reads a file changed since then",
                self.rev
            ),
            n => format!(
                "--changed-since {}: {n} load set{} read{} a changed file; {} finding{} outside \
                 the changed files",
                self.rev,
                if n == 1 { "" } else { "s" },
                if n == 1 { "s" } else { "" },
                self.elsewhere,
                if self.elsewhere == 1 { " is" } else { "s are" },
            ),
        }
    }
}
