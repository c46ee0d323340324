//! The workspace: a PCGen root, its PCC files, and which load sets each file belongs to.
//!
//! A file belongs to the load set of every selectable PCC (one with a `GAMEMODE:` line, as
//! `rulebook check DIR` picks them) that lists it, directly or through `PCC:` includes: the
//! editor checks it wherever CI does. A PCC without a game mode (an include-only fragment) is
//! no load set of its own; a file only such PCCs list is checked in the topmost of them, as
//! `rulebook check FRAGMENT.pcc` would.

use crate::load::campaign::parse_pcc;
use crate::load::fs::normalize;
use crate::load::{CampaignIndex, FileSystem, PcgenRoot, names_game_mode};
use crate::source::{FileId, SourceFile, decode_text};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// What one PCC lists.
#[derive(Clone, Debug, Default)]
struct Listing {
    /// Listed LST files.
    files: Vec<PathBuf>,
    /// `PCC:` includes.
    includes: Vec<PathBuf>,
    /// It has a `GAMEMODE:` line: a user can select it, and `rulebook check DIR` checks it
    /// as a load set of its own.
    selectable: bool,
}

/// A PCGen root and the PCC files below its data folder.
#[derive(Clone, Debug)]
pub struct Workspace {
    /// The root (found as `rulebook check` finds it).
    pub root: PcgenRoot,
    /// The folders whose PCCs are read: the root's data folder, and the editor's folder and
    /// extra roots that lie outside it (homebrew beside an install).
    folders: Vec<PathBuf>,
    pccs: BTreeMap<PathBuf, Listing>,
    /// For each listed file and included PCC, the PCCs that list or include it directly.
    /// What reaches a file through includes is walked back from here when asked: kept whole,
    /// the pairs of an include cycle of n PCCs grew with n² (a 1,000-PCC cycle took 25 s to
    /// open a file).
    listed_by: HashMap<PathBuf, Vec<PathBuf>>,
}

/// True for paths ending in `.pcc` (any case).
pub fn is_pcc(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pcc"))
}

impl Workspace {
    /// The workspace around `dir` (a folder or a file): the nearest ancestor holding
    /// `system/gameModes`, else `dir` itself as the root (its `data/` when it has one; a
    /// file's folder). Without a PCGen root, a folder that does not exist and the file
    /// system's root `/` are not walked: a missing folder used to stand for its parent, and
    /// `rootUri` at `/` walked the whole machine.
    pub fn around(fs: &(dyn FileSystem + Sync), dir: &Path) -> Self {
        let mut ws = Workspace::unread(fs, dir);
        ws.reindex(fs);
        ws
    }

    /// [`Workspace::around`] with the campaign index of its data folder (none when the
    /// folder is not walked), both read at once on two threads: what a session needs before
    /// its first check, on PCGen's whole data two walks of thousands of files.
    pub fn around_indexed(
        fs: &(dyn FileSystem + Sync),
        dir: &Path,
    ) -> (Self, Option<CampaignIndex>) {
        let mut ws = Workspace::unread(fs, dir);
        let root = ws.root.clone();
        let walked = !ws.folders.is_empty();
        let ((), index) = rayon::join(
            || ws.reindex(fs),
            || walked.then(|| CampaignIndex::build_parallel(fs, &root)),
        );
        (ws, index)
    }

    /// The workspace around `dir` with no PCC read yet.
    fn unread(fs: &dyn FileSystem, dir: &Path) -> Self {
        let dir = normalize(dir);
        let found = PcgenRoot::find(fs, &dir);
        let walk = found.is_some();
        let root = found.unwrap_or_else(|| {
            let folder = if fs.is_file(&dir) {
                dir.parent().map_or_else(|| dir.clone(), Path::to_path_buf)
            } else {
                dir.clone()
            };
            PcgenRoot::at(fs, &folder)
        });
        let walk = walk || walkable(fs, &root.data);
        Workspace {
            folders: if walk {
                vec![root.data.clone()]
            } else {
                Vec::new()
            },
            root,
            pccs: BTreeMap::new(),
            listed_by: HashMap::new(),
        }
    }

    /// This workspace with the PCCs of `folders` read too (those that exist and lie
    /// outside the folders read already; the disk's root `/` is not walked): a data folder
    /// outside the PCGen install is checked against it, as `rulebook check DIR
    /// --pcgen-root ROOT` checks it.
    pub fn with_folders(mut self, fs: &(dyn FileSystem + Sync), folders: &[PathBuf]) -> Self {
        let mut changed = false;
        for f in folders {
            let f = normalize(f);
            if walkable(fs, &f) && !self.folders.iter().any(|w| f.starts_with(w)) {
                self.folders.retain(|w| !w.starts_with(&f));
                self.folders.push(f);
                changed = true;
            }
        }
        if changed {
            self.reindex(fs);
        }
        self
    }

    /// True when `path` lies below this workspace's root or one of its folders.
    pub fn contains(&self, path: &Path) -> bool {
        let path = normalize(path);
        path.starts_with(&self.root.root) || self.folders.iter().any(|f| path.starts_with(f))
    }

    /// True when `path` lies below a folder whose PCCs are read (a data file's place).
    pub fn in_data(&self, path: &Path) -> bool {
        let path = normalize(path);
        path.starts_with(&self.root.data) || self.folders.iter().any(|f| path.starts_with(f))
    }

    /// Re-reads every PCC below the data folders (after the workspace changed), on rayon's
    /// threads.
    pub fn reindex(&mut self, fs: &(dyn FileSystem + Sync)) {
        use rayon::prelude::*;
        let found: Vec<PathBuf> = (self.folders.iter())
            .flat_map(|folder| fs.files_below(folder))
            .filter(|p| is_pcc(p))
            .collect();
        let pccs = found
            .into_par_iter()
            .map(|p| {
                let listing = self.read_listing(fs, &p);
                (p, listing)
            })
            .collect();
        self.pccs = pccs;
        self.index();
    }

    /// Re-reads one PCC (a changed or new one).
    pub fn reindex_pcc(&mut self, fs: &dyn FileSystem, pcc: &Path) {
        let pcc = normalize(pcc);
        if fs.is_file(&pcc) {
            let listing = self.read_listing(fs, &pcc);
            self.pccs.insert(pcc, listing);
        } else {
            self.pccs.remove(&pcc);
        }
        self.index();
    }

    /// Recomputes which PCCs list or include which files: linear in what the PCCs list.
    fn index(&mut self) {
        self.listed_by.clear();
        for (pcc, listing) in &self.pccs {
            for f in listing.files.iter().chain(&listing.includes) {
                let by = self.listed_by.entry(f.clone()).or_default();
                if by.last() != Some(pcc) {
                    by.push(pcc.clone());
                }
            }
        }
    }

    fn read_listing(&self, fs: &dyn FileSystem, pcc: &Path) -> Listing {
        let Ok(bytes) = fs.read(pcc) else {
            return Listing::default();
        };
        let (text, encoding) = decode_text(&bytes);
        let selectable = names_game_mode(&text);
        let source = SourceFile::new(String::new(), text, encoding);
        let c = parse_pcc(pcc, FileId(0), &source, &self.root, &mut Vec::new());
        Listing {
            files: c.entries.into_iter().map(|e| normalize(&e.path)).collect(),
            includes: c.includes.into_iter().map(|(p, _)| normalize(&p)).collect(),
            selectable,
        }
    }

    /// True when `pcc` is a PCC of the workspace (read, and not deleted since).
    pub fn has_pcc(&self, pcc: &Path) -> bool {
        self.pccs.contains_key(pcc)
    }

    /// The load sets of the workspace: its selectable PCCs, as `rulebook check` of its
    /// folders picks them, sorted.
    pub fn load_sets(&self) -> impl Iterator<Item = &PathBuf> {
        (self.pccs.iter())
            .filter(|(_, listing)| listing.selectable)
            .map(|(pcc, _)| pcc)
    }

    /// Every PCC known, sorted.
    pub fn pccs(&self) -> impl Iterator<Item = &PathBuf> {
        self.pccs.keys()
    }

    /// The PCCs that reach `path` (a PCC reaches itself): walked back from the PCCs
    /// listing or including it. Linear in what reaches it.
    fn reaching(&self, path: &Path) -> BTreeSet<&Path> {
        let mut seen: BTreeSet<&Path> = BTreeSet::new();
        let mut todo: Vec<&Path> = Vec::new();
        if let Some((pcc, _)) = self.pccs.get_key_value(path) {
            todo.push(pcc);
        }
        todo.extend(
            self.listed_by
                .get(path)
                .into_iter()
                .flatten()
                .map(|p| p.as_path()),
        );
        while let Some(p) = todo.pop() {
            if seen.insert(p) {
                todo.extend(
                    self.listed_by
                        .get(p)
                        .into_iter()
                        .flatten()
                        .map(|q| q.as_path()),
                );
            }
        }
        seen
    }

    /// The load sets (named by their PCC) that `path` belongs to: every selectable PCC
    /// that reaches it, as `rulebook check` of the data folder checks them; when none does,
    /// the topmost of the PCCs that reach it (those no other one includes without being
    /// included back: the PCCs of an include cycle each stay one). Linear in the PCCs that
    /// reach `path` and their includes (10,000 PCCs sharing one file made a pairwise rule
    /// 10^8 look-ups).
    pub fn load_sets_of(&self, path: &Path) -> Vec<PathBuf> {
        let path = normalize(path);
        let candidates = self.reaching(&path);
        let selectable: Vec<PathBuf> = candidates
            .iter()
            .filter(|p| self.pccs.get(**p).is_some_and(|l| l.selectable))
            .map(|p| p.to_path_buf())
            .collect();
        if !selectable.is_empty() {
            return selectable;
        }
        self.topmost(&candidates)
    }

    /// The PCCs of `candidates` (a set closed under "is included by") that no PCC outside
    /// their own include cycle reaches: the members of the source components of the include
    /// graph among them, in path order.
    fn topmost(&self, candidates: &BTreeSet<&Path>) -> Vec<PathBuf> {
        use petgraph::graph::{DiGraph, NodeIndex};
        let nodes: Vec<&Path> = candidates.iter().copied().collect();
        let at: HashMap<&Path, NodeIndex> = nodes
            .iter()
            .enumerate()
            .map(|(i, p)| (*p, NodeIndex::new(i)))
            .collect();
        let mut graph: DiGraph<(), ()> = DiGraph::with_capacity(nodes.len(), nodes.len());
        for _ in &nodes {
            graph.add_node(());
        }
        for (i, p) in nodes.iter().enumerate() {
            for q in self.pccs.get(*p).into_iter().flat_map(|l| &l.includes) {
                if let Some(&j) = at.get(q.as_path()) {
                    graph.add_edge(NodeIndex::new(i), j, ());
                }
            }
        }
        let components = petgraph::algo::tarjan_scc(&graph);
        let mut component = vec![0; nodes.len()];
        for (c, members) in components.iter().enumerate() {
            for n in members {
                component[n.index()] = c;
            }
        }
        let mut entered = vec![false; components.len()];
        for e in graph.raw_edges() {
            let (from, to) = (component[e.source().index()], component[e.target().index()]);
            if from != to {
                entered[to] = true;
            }
        }
        nodes
            .iter()
            .enumerate()
            .filter(|(i, _)| !entered[component[*i]])
            .map(|(_, p)| p.to_path_buf())
            .collect()
    }

    /// How many files the load set of `pcc` lists, through its includes too: how much its
    /// check reads, near enough to choose the quickest of several.
    pub fn files_listed(&self, pcc: &Path) -> usize {
        let mut seen: std::collections::HashSet<&Path> = std::collections::HashSet::new();
        let mut todo = vec![pcc];
        let mut files = 0;
        while let Some(p) = todo.pop() {
            let Some((p, listing)) = self.pccs.get_key_value(p) else {
                continue;
            };
            if seen.insert(p) {
                files += listing.files.len();
                todo.extend(listing.includes.iter().map(PathBuf::as_path));
            }
        }
        files
    }

    /// True when some PCC of the workspace lists `path` (directly or through includes).
    pub fn is_listed(&self, path: &Path) -> bool {
        let path = normalize(path);
        self.listed_by.contains_key(&path) || self.pccs.contains_key(&path)
    }

    /// The PCC nearest to `path` in the folder tree: the one whose folder shares the longest
    /// ancestry with `path`, then the shallowest below that, then the first by name. What
    /// the editor suggests listing a file in that no PCC lists.
    pub fn nearest_pcc(&self, path: &Path) -> Option<&Path> {
        let path = normalize(path);
        let shared = |pcc: &Path| {
            pcc.parent().map_or(0, |dir| {
                dir.components()
                    .zip(path.components())
                    .take_while(|(a, b)| a == b)
                    .count()
            })
        };
        self.pccs
            .keys()
            .map(|pcc| {
                let depth = pcc.components().count();
                (std::cmp::Reverse(shared(pcc)), depth, pcc)
            })
            .min()
            .map(|(_, _, pcc)| pcc.as_path())
    }
}

/// True for a folder that exists and is not the disk's root (walking `/` walked the whole
/// machine).
fn walkable(fs: &dyn FileSystem, dir: &Path) -> bool {
    fs.is_dir(dir) && dir.parent().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::MemoryFs;

    fn fs() -> MemoryFs {
        MemoryFs::new()
            .with("/pc/system/gameModes/X/miscinfo.lst", "")
            .with(
                "/pc/data/a/a.pcc",
                "CAMPAIGN:A\nGAMEMODE:X\nPCC:@/a/sub/sub.pcc\nVARIABLE:a.lst\n",
            )
            .with("/pc/data/a/sub/sub.pcc", "CAMPAIGN:Sub\nEQUIPMENT:e.lst\n")
            .with(
                "/pc/data/b/b.pcc",
                "CAMPAIGN:B\nGAMEMODE:X\nVARIABLE:@/a/a.lst\n",
            )
            .with("/pc/data/a/a.lst", "")
            .with("/pc/data/a/sub/e.lst", "")
            .with("/pc/data/loose.lst", "")
    }

    #[test]
    fn a_file_belongs_to_every_pcc_listing_it_and_includes_fold_into_their_parent() {
        let fs = fs();
        let ws = Workspace::around(&fs, Path::new("/pc/data/a"));
        assert_eq!(ws.root.root, PathBuf::from("/pc"));
        let sets = |p: &str| ws.load_sets_of(Path::new(p));
        assert_eq!(
            sets("/pc/data/a/a.lst"),
            vec![
                PathBuf::from("/pc/data/a/a.pcc"),
                PathBuf::from("/pc/data/b/b.pcc")
            ]
        );
        assert_eq!(
            sets("/pc/data/a/sub/e.lst"),
            vec![PathBuf::from("/pc/data/a/a.pcc")]
        );
        assert_eq!(
            sets("/pc/data/a/sub/sub.pcc"),
            vec![PathBuf::from("/pc/data/a/a.pcc")]
        );
        assert_eq!(
            sets("/pc/data/b/b.pcc"),
            vec![PathBuf::from("/pc/data/b/b.pcc")]
        );
        assert!(sets("/pc/data/loose.lst").is_empty());
    }

    #[test]
    fn neither_a_missing_folder_nor_the_root_of_the_disk_is_walked() {
        let fs = MemoryFs::new().with("/a/a.pcc", "CAMPAIGN:A\nGAMEMODE:X\n");
        assert_eq!(Workspace::around(&fs, Path::new("/")).pccs().count(), 0);
        assert_eq!(
            Workspace::around(&fs, Path::new("/missing")).pccs().count(),
            0
        );
        assert_eq!(Workspace::around(&fs, Path::new("/a")).pccs().count(), 1);
        assert_eq!(
            Workspace::around(&fs, Path::new("/a/a.pcc")).pccs().count(),
            1
        );
    }

    #[test]
    fn a_selectable_book_a_loader_includes_is_a_load_set_of_its_own_too() {
        let fs = MemoryFs::new()
            .with("/pc/system/gameModes/X/miscinfo.lst", "")
            .with(
                "/pc/data/loader.pcc",
                "CAMPAIGN:All\nGAMEMODE:X\nPCC:@/book/book.pcc\n",
            )
            .with(
                "/pc/data/book/book.pcc",
                "CAMPAIGN:Book\nGAMEMODE:X\nABILITY:abilities.lst\n",
            )
            .with("/pc/data/book/abilities.lst", "")
            .with("/pc/data/book/loose.lst", "")
            .with("/pc/data/other/deep/o.pcc", "CAMPAIGN:O\nGAMEMODE:X\n");
        let ws = Workspace::around(&fs, Path::new("/pc"));
        assert_eq!(
            ws.load_sets_of(Path::new("/pc/data/book/abilities.lst")),
            vec![
                PathBuf::from("/pc/data/book/book.pcc"),
                PathBuf::from("/pc/data/loader.pcc")
            ]
        );
        let loose = Path::new("/pc/data/book/loose.lst");
        assert!(!ws.is_listed(loose));
        assert_eq!(
            ws.nearest_pcc(loose),
            Some(Path::new("/pc/data/book/book.pcc"))
        );
        assert_eq!(
            ws.nearest_pcc(Path::new("/pc/data/other/x.lst")),
            Some(Path::new("/pc/data/other/deep/o.pcc"))
        );
    }

    #[test]
    fn include_cycles_keep_both_sets() {
        let fs = MemoryFs::new()
            .with("/pc/system/gameModes/X/miscinfo.lst", "")
            .with("/pc/data/x.pcc", "PCC:y.pcc\nVARIABLE:v.lst\n")
            .with("/pc/data/y.pcc", "PCC:x.pcc\n")
            .with("/pc/data/v.lst", "");
        let ws = Workspace::around(&fs, Path::new("/pc"));
        assert_eq!(ws.load_sets_of(Path::new("/pc/data/v.lst")).len(), 2);
    }
}
