//! One checked load set as the server keeps it: the checker's output plus the way back from
//! file ids to paths and from paths to file ids.

use crate::check::CheckedSet;
use crate::load::fs::normalize;
use crate::lsp::workspace_report::SetFindings;
use crate::model::old_formulas::OldVariableDef;
use crate::model::references::OldObjects;
use crate::name::Name;
use crate::source::{FileId, SourceFile};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The old-system variables of a load set by name, with the places that make them.
pub type OldVariables = indexmap::IndexMap<Name, Vec<OldVariableDef>>;

/// A checked load set with its files' paths.
#[derive(Debug)]
pub struct Checked {
    /// The PCC naming the load set.
    pub pcc: PathBuf,
    /// What `rulebook check` computes for it.
    pub set: CheckedSet,
    paths: Vec<Option<PathBuf>>,
    ids: HashMap<PathBuf, FileId>,
    /// The loader's spellings of the paths it read that differ from their normal form
    /// (`a/../b.lst`), by that form.
    respelled: HashMap<PathBuf, Vec<PathBuf>>,
    /// The old system's objects as tokens name them, made on the first request that needs
    /// them (most edits are followed by no such request).
    old_objects: OnceLock<OldObjects>,
    /// The old-system variables, made on the first request that needs them.
    old_variables: OnceLock<OldVariables>,
    /// Its findings as the workspace's report merges them, made on the first report.
    findings: OnceLock<SetFindings>,
}

impl Checked {
    /// Indexes a checked set.
    pub fn new(pcc: PathBuf, set: CheckedSet) -> Self {
        let mut paths: Vec<Option<PathBuf>> = vec![None; set.load.sources.len()];
        fn put(paths: &mut [Option<PathBuf>], id: FileId, p: &Path) {
            if let Some(slot) = paths.get_mut(id.0 as usize) {
                *slot = Some(normalize(p));
            }
        }
        for f in &set.load.files {
            put(&mut paths, f.file, &f.path);
        }
        for c in &set.load.campaigns {
            put(&mut paths, c.file, &c.path);
        }
        // Game-mode files: shown relative to the root.
        for (id, f) in set.load.sources.iter() {
            if paths.get(id.0 as usize).is_some_and(Option::is_none) && !f.path.is_empty() {
                let p = set.load.root.root.join(&f.path);
                put(&mut paths, id, &p);
            }
        }
        let ids = paths
            .iter()
            .enumerate()
            .filter_map(|(i, p)| Some((p.clone()?, FileId(u32::try_from(i).ok()?))))
            .collect();
        let mut respelled: HashMap<PathBuf, Vec<PathBuf>> = HashMap::new();
        let files = set.load.files.iter().map(|f| &f.path);
        for raw in files.chain(set.load.campaigns.iter().map(|c| &c.path)) {
            let normal = normalize(raw);
            if normal != *raw {
                respelled.entry(normal).or_default().push(raw.clone());
            }
        }
        Checked {
            pcc,
            set,
            paths,
            ids,
            respelled,
            old_objects: OnceLock::new(),
            old_variables: OnceLock::new(),
            findings: OnceLock::new(),
        }
    }

    /// The old system's objects as tokens name them (abilities by category).
    pub fn old_objects(&self) -> &OldObjects {
        self.old_objects.get_or_init(|| self.set.old_objects())
    }

    /// The old-system variables (`DEFINE`, `BONUS:VAR`) of the load set.
    pub fn old_variables(&self) -> &OldVariables {
        self.old_variables.get_or_init(|| self.set.old_variables())
    }

    /// Its findings for the workspace's report, linked to `docs_base` (the session's, the
    /// same for as long as this set is kept).
    pub fn findings(&self, docs_base: &str) -> &SetFindings {
        self.findings
            .get_or_init(|| SetFindings::of(self, docs_base))
    }

    /// The path of a file of this load.
    pub fn path(&self, id: FileId) -> Option<&Path> {
        self.paths.get(id.0 as usize)?.as_deref()
    }

    /// The id of a path in this load.
    pub fn file(&self, path: &Path) -> Option<FileId> {
        self.ids.get(&normalize(path)).copied()
    }

    /// True when this load holds the file at `path`, already in normal form.
    pub fn holds(&self, normal: &Path) -> bool {
        self.ids.contains_key(normal)
    }

    /// The source of a file of this load.
    pub fn source(&self, id: FileId) -> Option<&SourceFile> {
        self.set.load.sources.get(id)
    }

    /// The paths the loader read for the file at (normalised) `path`, as it spelled them
    /// (the keys of the shared file cache).
    pub fn raw_paths<'a>(&'a self, path: &'a Path) -> impl Iterator<Item = &'a Path> + 'a {
        self.respelled
            .get(path)
            .into_iter()
            .flatten()
            .map(PathBuf::as_path)
    }

    /// The paths of the files this load finds something in.
    pub fn paths_with_findings(&self) -> impl Iterator<Item = PathBuf> + '_ {
        let mut seen = std::collections::HashSet::new();
        (self.set.diagnostics.iter())
            .filter(move |d| seen.insert(d.span.file))
            .filter_map(|d| self.path(d.span.file))
            .map(Path::to_path_buf)
    }

    /// Every file path of this load.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.paths.iter().filter_map(|p| p.as_deref())
    }
}
