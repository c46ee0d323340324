//! One truth across load sets: a file several load sets read gets each finding once, and a
//! finding only some of them make is labelled with those (its message ends with `note:
//! only in the load set of …`, and `data.loadSets` holds their URIs). The published
//! diagnostics of the files around the open documents ([`crate::lsp::session`]) and the
//! workspace's report ([`crate::lsp::workspace_report`]) are merged here.

use crate::lsp::uri;
use lsp_types as lsp;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What one load set says about the files merged.
pub struct SetLists<'a> {
    /// The load set, by PCC.
    pub pcc: &'a Path,
    /// The files merged that it holds.
    pub holds: Vec<&'a Path>,
    /// Its diagnostics by file (in files it does not hold, left out).
    pub lists: &'a [(PathBuf, Vec<lsp::Diagnostic>)],
}

/// The merged diagnostics of every file one of `sets` holds (paths shown relative to
/// `root` in the labels).
pub fn merge(sets: &[SetLists<'_>], root: Option<&Path>) -> HashMap<PathBuf, Vec<lsp::Diagnostic>> {
    let mut now: HashMap<&Path, Merged> = HashMap::new();
    for (set, lists) in sets.iter().enumerate() {
        for p in &lists.holds {
            now.entry(p).or_default().held_by.push(set);
        }
        for (path, list) in lists.lists {
            if let Some(merged) = now.get_mut(path.as_path()) {
                for d in list {
                    merged.add(d.clone(), set);
                }
            }
        }
    }
    let pccs: Vec<&Path> = sets.iter().map(|s| s.pcc).collect();
    (now.into_iter())
        .map(|(path, merged)| (path.to_path_buf(), merged.into_list(&pccs, root)))
        .collect()
}

/// One file's diagnostics from the load sets that hold it (`held_by`, indexes into the
/// sets merged), each kept once with the sets that found it. Equal diagnostics are found
/// through a hash of their place and message, not by comparing each new one with every one
/// kept (276,000 findings in one file took 657 s that way).
#[derive(Default)]
struct Merged {
    held_by: Vec<usize>,
    list: Vec<(lsp::Diagnostic, Vec<usize>)>,
    by_hash: HashMap<u64, Vec<usize>>,
}

/// How many load sets a label names before "and n more".
const LABELLED_SETS: usize = 3;

impl Merged {
    /// Adds `d`, found by load set `set`.
    fn add(&mut self, d: lsp::Diagnostic, set: usize) {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        let r = d.range;
        (r.start.line, r.start.character, r.end.line, r.end.character).hash(&mut h);
        d.message.hash(&mut h);
        let same = self.by_hash.entry(h.finish()).or_default();
        if let Some(&i) = same
            .iter()
            .find(|&&i| self.list.get(i).is_some_and(|k| k.0 == d))
        {
            if let Some((_, found)) = self.list.get_mut(i) {
                if found.last() != Some(&set) {
                    found.push(set);
                }
            }
            return;
        }
        same.push(self.list.len());
        self.list.push((d, vec![set]));
    }

    /// The diagnostics; one that only some of the load sets holding the file find says
    /// which (`pccs` names the sets, shown relative to `root`), in its message and as
    /// `data.loadSets` (their URIs) for clients that filter on it.
    fn into_list(self, pccs: &[&Path], root: Option<&Path>) -> Vec<lsp::Diagnostic> {
        let holders = self.held_by.len();
        let shown = |set: &usize| {
            let pcc = pccs.get(*set).copied().unwrap_or(Path::new(""));
            let rel = root.and_then(|r| pcc.strip_prefix(r).ok()).unwrap_or(pcc);
            format!("`{}`", rel.display())
        };
        self.list
            .into_iter()
            .map(|(mut d, found)| {
                if found.len() >= holders {
                    return d;
                }
                let mut names: Vec<String> = found.iter().take(LABELLED_SETS).map(shown).collect();
                if found.len() > LABELLED_SETS {
                    names.push(format!("{} more", found.len() - LABELLED_SETS));
                }
                let sets = if found.len() == 1 { "set" } else { "sets" };
                d.message.push_str(&format!(
                    "\nnote: only in the load {sets} of {} ({} of the {holders} load sets reading this file)",
                    names.join(", "),
                    found.len()
                ));
                let uris: Vec<serde_json::Value> = found
                    .iter()
                    .filter_map(|s| uri::from_path(pccs.get(*s)?))
                    .map(|u| serde_json::Value::String(u.as_str().to_owned()))
                    .collect();
                let mut data = match d.data.take() {
                    Some(serde_json::Value::Object(m)) => m,
                    _ => serde_json::Map::new(),
                };
                data.insert("loadSets".to_owned(), serde_json::Value::Array(uris));
                d.data = Some(serde_json::Value::Object(data));
                d
            })
            .collect()
    }
}
