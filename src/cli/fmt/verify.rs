//! `rulebook fmt --verify`: the load sets holding the files are checked as they are on disk
//! and as they would be after formatting (the new texts laid over the disk), and the two
//! runs must agree: the same findings (code, file, line and message: only columns may move)
//! and the same number of tokens read from every file. The formatter's own guard
//! (`rulebook::fmt::verify`) already compares the token lines of each file; this compares
//! what the whole pipeline — loader, model, checks — makes of them.

use rulebook::check::{SetReport, check_in_order};
use rulebook::load::{CampaignIndex, DiskFs, FileCache, FileSystem, PcgenRoot};
use rulebook::lsp::overlay::OverlayFs;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// One finding, without its column: `(file, line, code, message)`.
type Finding = (String, usize, String, String);

/// What one run saw.
#[derive(Default, PartialEq, Eq)]
struct Seen {
    /// How many times each finding was reported.
    findings: BTreeMap<Finding, usize>,
    /// Tokens read per file.
    tokens: BTreeMap<String, usize>,
}

impl Seen {
    fn add(&mut self, report: &SetReport) {
        for d in &report.diagnostics {
            let Some(file) = report.sources.get(d.span.file) else {
                continue;
            };
            let (line, _) = file.line_col(d.span.start as usize);
            let key = (
                file.path.clone(),
                line,
                d.code.to_string(),
                d.message.clone(),
            );
            *self.findings.entry(key).or_default() += 1;
        }
        for (id, n) in &report.tokens {
            if let Some(file) = report.sources.get(*id) {
                self.tokens.insert(file.path.clone(), *n);
            }
        }
    }
}

/// What `--verify` found: the number of load sets checked twice and findings compared, and
/// the differences (empty when the meaning is the same).
pub struct Verified {
    /// Load sets checked before and after.
    pub sets: usize,
    /// Findings compared.
    pub findings: usize,
    /// Each difference, as a line to show.
    pub differences: Vec<String>,
}

/// Checks `sets` with the files on disk and with `new_texts` laid over them, and compares.
pub fn verify(
    root: &PcgenRoot,
    sets: &[Vec<PathBuf>],
    new_texts: &BTreeMap<PathBuf, String>,
) -> Verified {
    let mut overlay = OverlayFs::new();
    for (path, text) in new_texts {
        overlay.set(path, Arc::from(text.as_str()));
    }
    let before = run(&DiskFs, root, sets);
    let after = run(&overlay, root, sets);
    let mut differences = Vec::new();
    let mut keys: Vec<&Finding> = before
        .findings
        .keys()
        .chain(after.findings.keys())
        .collect();
    keys.sort();
    keys.dedup();
    for key in keys {
        let (a, b) = (
            before.findings.get(key).copied().unwrap_or(0),
            after.findings.get(key).copied().unwrap_or(0),
        );
        if a != b {
            let (file, line, code, message) = key;
            differences.push(format!(
                "{file}:{line}: [{code}] {message}: reported {a} time(s) before, {b} after"
            ));
        }
    }
    for (file, n) in &before.tokens {
        let m = after.tokens.get(file).copied().unwrap_or(0);
        if *n != m {
            differences.push(format!("{file}: {n} tokens read before, {m} after"));
        }
    }
    Verified {
        sets: sets.len(),
        findings: before.findings.values().sum(),
        differences,
    }
}

fn run(fs: &(dyn FileSystem + Sync), root: &PcgenRoot, sets: &[Vec<PathBuf>]) -> Seen {
    let index = CampaignIndex::build_parallel(fs, root);
    let cache = FileCache::new();
    let mut seen = Seen::default();
    check_in_order(fs, root, sets, &index, &cache, |report| seen.add(&report));
    seen
}
