//! `rulebook fmt --verify`: the load sets holding the files are checked as they are on disk
//! and as they would be after formatting (the new texts laid over the disk), and the two
//! runs must agree: the same model (every object in order with its kind, key, name, scope,
//! groups, facts by name and grants, and every modifier in order with its variable, kind,
//! priority, scope, source and value as written — places left out), the same findings (code, file, line and
//! message: only columns may move) and the same number of tokens read from every file. The
//! formatter's own guard (`rulebook::fmt::verify`) already compares the token lines of each
//! file; this compares what the whole pipeline — loader, model, checks — makes of them.

use rayon::prelude::*;
use rulebook::check::{CheckedSet, SetReport, check_load_set_cached};
use rulebook::load::{CampaignIndex, DiskFs, FileCache, FileSystem, PcgenRoot};
use rulebook::lsp::overlay::OverlayFs;
use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
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
    /// Per load set (by its PCC), a hash of each object and each modifier of its model.
    models: BTreeMap<PathBuf, Vec<u64>>,
}

/// A hash of each object and then each modifier of `set`'s model, without their places (the
/// same in both runs of one process, which is all `--verify` compares).
fn model_hashes(set: &CheckedSet) -> Vec<u64> {
    let d = &set.dataset;
    let hash = |write: &dyn Fn(&mut DefaultHasher)| {
        let mut h = DefaultHasher::new();
        write(&mut h);
        h.finish()
    };
    let objects = d.objects.iter().map(|o| {
        hash(&|h| {
            o.kind.hash(h);
            d.key_of(o).as_str().hash(h);
            d.name_of(o).hash(h);
            (o.forgotten, o.scope.0).hash(h);
            for g in o.groups() {
                g.as_str().hash(h);
            }
            // Facts are looked up by name: their order across names means nothing (and the
            // formatter may change it), within one name it is kept.
            let mut facts: Vec<_> = o.facts().iter().collect();
            facts.sort_by(|a, b| a.name.as_str().cmp(b.name.as_str()));
            for f in facts {
                (f.name.as_str(), &*f.value, f.set).hash(h);
            }
            for g in o.grants() {
                (g.category.as_str(), g.key.as_str(), g.object.map(|i| i.0)).hash(h);
            }
        })
    });
    let modifiers = d.modifiers.iter().map(|m| {
        let written = set.load.sources.get(m.span.file).map(|f| f.slice(m.span));
        hash(&|h| {
            (m.variable.0, format!("{:?}", m.kind), m.priority, m.scope.0).hash(h);
            (m.source.map(|o| o.0), written).hash(h);
        })
    });
    objects.chain(modifiers).collect()
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
    /// Objects and modifiers compared, over every load set.
    pub model_entries: usize,
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
    for (pcc, a) in &before.models {
        let b = after.models.get(pcc).map_or(&[][..], Vec::as_slice);
        if let Some(at) = (0..a.len().max(b.len())).find(|i| a.get(*i) != b.get(*i)) {
            differences.push(format!(
                "{}: its model differs from entry {at} of {} (objects, then modifiers)",
                pcc.display(),
                a.len()
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
        model_entries: before.models.values().map(Vec::len).sum(),
        findings: before.findings.values().sum(),
        differences,
    }
}

fn run(fs: &(dyn FileSystem + Sync), root: &PcgenRoot, sets: &[Vec<PathBuf>]) -> Seen {
    let index = CampaignIndex::build_parallel(fs, root);
    let cache = FileCache::new();
    // Each set's model summed up as it is checked, then dropped: only the hashes are kept.
    let checked: Vec<(PathBuf, Vec<u64>, SetReport)> = sets
        .par_iter()
        .map(|set| {
            let checked = check_load_set_cached(fs, root, set, &index, &cache);
            let model = model_hashes(&checked);
            let pcc = set.first().cloned().unwrap_or_default();
            (pcc, model, checked.into_report())
        })
        .collect();
    let mut seen = Seen::default();
    for (pcc, model, report) in checked {
        seen.add(&report);
        seen.models.insert(pcc, model);
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The project's own dataset, as the CLI finds it.
    fn handsworld() -> (PcgenRoot, Vec<Vec<PathBuf>>, PathBuf) {
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        let root = PcgenRoot::at(&DiskFs, &data);
        let pcc = data.join("handsworld/handsworld.pcc");
        (
            root,
            vec![vec![pcc]],
            data.join("handsworld/hw_abilities.lst"),
        )
    }

    #[test]
    fn the_same_text_verifies_and_a_changed_meaning_does_not() {
        let (root, sets, lst) = handsworld();
        let text = std::fs::read_to_string(&lst).unwrap_or_default();
        let same = verify(&root, &sets, &BTreeMap::from([(lst.clone(), text.clone())]));
        assert_eq!(same.differences, Vec::<String>::new());
        assert!(same.model_entries > 0);
        // A renamed object: the model differs (and so do findings naming it).
        let renamed = text.replacen("Keen Edges", "Keen Edge", 1);
        let changed = verify(&root, &sets, &BTreeMap::from([(lst, renamed)]));
        assert!(
            changed
                .differences
                .iter()
                .any(|d| d.contains("its model differs")),
            "{:?}",
            changed.differences
        );
    }
}
