//! Building a load set: the selected PCCs, their sub-campaigns and prerequisites, the game
//! mode, and every listed file read in PCGen's fixed load order.

use crate::diagnostic::Diagnostic;
use crate::load::cache::{CachedFile, FileCache};
use crate::load::campaign::{Campaign, FileKind, KeyFilter, parse_pcc};
use crate::load::codes;
use crate::load::fs::{FileSystem, normalize};
use crate::load::gamemode::GameMode;
use crate::load::root::PcgenRoot;
use crate::load::text::{Line, LineMode};
use crate::source::{FileId, SourceFile, SourceMap, Span, TextEncoding};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One file of the load, read and split into lines.
#[derive(Clone, Debug)]
pub struct LoadedFile {
    /// Its kind (decides how its lines are read and in which scope).
    pub kind: FileKind,
    /// Resolved path.
    pub path: PathBuf,
    /// Its source.
    pub file: FileId,
    /// Meaningful lines (comments and blank lines removed).
    pub lines: Vec<Line>,
    /// `(INCLUDE:…)`/`(EXCLUDE:…)` from the PCC entry.
    pub filter: Option<KeyFilter>,
    /// The PCC entry that listed it (`None` for game-mode fallbacks).
    pub listed_at: Option<Span>,
}

/// Everything read for one load set.
#[derive(Clone, Debug)]
pub struct LoadSet {
    /// The PCGen root.
    pub root: PcgenRoot,
    /// Every file read (PCCs, LSTs, game-mode files).
    pub sources: SourceMap,
    /// Selected campaigns in RANK order, then the sub-campaigns they include.
    pub campaigns: Vec<Campaign>,
    /// How many of `campaigns` were selected (the rest are includes).
    pub selected: usize,
    /// The game mode, when one matched.
    pub game_mode: Option<GameMode>,
    /// The files in load order.
    pub files: Vec<LoadedFile>,
    /// Problems found while loading.
    pub diagnostics: Vec<Diagnostic>,
}

/// The line mode a file kind is read with.
pub fn line_mode(kind: FileKind) -> LineMode {
    match kind {
        FileKind::DataControl | FileKind::Dynamic | FileKind::GlobalModifier => LineMode::Trimmed,
        FileKind::DataTable => LineMode::Whole,
        _ => LineMode::Object,
    }
}

/// The PCCs below `dir` that a user can select (those with a GAMEMODE line), sorted.
pub fn selectable_pccs(fs: &dyn FileSystem, dir: &Path) -> Vec<PathBuf> {
    fs.files_below(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pcc")))
        .filter(|p| {
            fs.read(p).is_ok_and(|b| {
                String::from_utf8_lossy(&b)
                    .lines()
                    .any(|l| l.trim_start().starts_with("GAMEMODE:"))
            })
        })
        .collect()
}

struct Loader<'a> {
    fs: &'a dyn FileSystem,
    root: PcgenRoot,
    sources: SourceMap,
    diagnostics: Vec<Diagnostic>,
    by_path: HashMap<PathBuf, usize>,
    campaigns: Vec<Campaign>,
    read: HashMap<PathBuf, (FileId, Arc<CachedFile>)>,
    cache: &'a FileCache,
}

impl Loader<'_> {
    fn missing(&mut self, path: &Path, at: Option<Span>, what: &str) {
        let display = self.root.display(path);
        let span = at.unwrap_or_else(|| {
            let id = self
                .sources
                .add(SourceFile::new(display.clone(), "", TextEncoding::Utf8));
            Span::new(id, 0..0)
        });
        self.diagnostics.push(
            Diagnostic::error(
                codes::FILE_NOT_FOUND,
                span,
                format!("{what} `{display}` does not exist"),
            )
            .with_label("no such file")
            .with_help(
                "check the path and its upper/lower case (PCGen runs on case-sensitive systems)",
            ),
        );
    }

    fn read(&mut self, path: &Path, at: Option<Span>, what: &str) -> Option<FileId> {
        self.read_cached(path, at, what).map(|(id, _)| id)
    }

    /// Reads `path` through the run's cache (once per run) and gives it an id in this load.
    fn read_cached(
        &mut self,
        path: &Path,
        at: Option<Span>,
        what: &str,
    ) -> Option<(FileId, Arc<CachedFile>)> {
        if let Some(found) = self.read.get(path) {
            return Some(found.clone());
        }
        let cached = self.cache.get(path);
        if cached.is_none() && !self.fs.is_file(path) {
            self.missing(path, at, what);
            return None;
        }
        let display = self.root.display(path);
        let read = match cached {
            Some(f) => Ok(f),
            None => self.cache.read(self.fs, path, || display.clone()),
        };
        match read {
            Ok(file) => {
                let id = self.sources.add_shared(file.source().clone());
                if let Some(w) = file.not_utf8(id) {
                    self.diagnostics.push(w.with_note(
                        "read as Windows-1252; PCGen refuses such a file and skips all of it",
                    ));
                }
                self.read.insert(path.to_path_buf(), (id, file.clone()));
                Some((id, file))
            }
            Err(e) => {
                let id = self
                    .sources
                    .add(SourceFile::new(display.clone(), "", TextEncoding::Utf8));
                self.diagnostics.push(
                    Diagnostic::error(
                        codes::READ_FAILED,
                        at.unwrap_or(Span::new(id, 0..0)),
                        format!("cannot read `{display}`: {e}"),
                    )
                    .with_help("check the file's permissions"),
                );
                None
            }
        }
    }

    /// Parses a PCC and (recursively) its includes; returns its index. The recursion depth
    /// is the include chain's length, which the data controls: it stops at
    /// [`MAX_INCLUDE_DEPTH`] with [`codes::INCLUDE_TOO_DEEP`].
    fn campaign(
        &mut self,
        path: &Path,
        at: Option<Span>,
        stack: &mut Vec<PathBuf>,
    ) -> Option<usize> {
        let path = normalize(path);
        if stack.len() >= MAX_INCLUDE_DEPTH {
            if let Some(span) = at {
                self.diagnostics.push(
                    Diagnostic::error(
                        codes::INCLUDE_TOO_DEEP,
                        span,
                        format!("`PCC:` includes are nested more than {MAX_INCLUDE_DEPTH} deep"),
                    )
                    .with_label("this include is not loaded")
                    .with_help(
                        "include the campaigns side by side from one PCC instead of chaining them",
                    )
                    .with_note(format!(
                        "the chain started at {}",
                        self.root.display(stack.first().map_or(&path, |p| p))
                    )),
                );
            }
            return None;
        }
        if stack.contains(&path) {
            if let Some(span) = at {
                self.diagnostics.push(
                    Diagnostic::warning(
                        codes::INCLUDE_CYCLE,
                        span,
                        "this PCC includes itself through `PCC:`",
                    )
                    .with_help("remove the include that closes the cycle"),
                );
            }
            return None;
        }
        if let Some(i) = self.by_path.get(&path) {
            return Some(*i);
        }
        let id = self.read(&path, at, "campaign file")?;
        let source = self.sources.get_shared(id)?.clone();
        let c = parse_pcc(&path, id, &source, &self.root, &mut self.diagnostics);
        let includes = c.includes.clone();
        let index = self.campaigns.len();
        self.campaigns.push(c);
        self.by_path.insert(path.clone(), index);
        stack.push(path);
        for (p, span) in includes {
            self.campaign(&p, Some(span), stack);
        }
        stack.pop();
        Some(index)
    }

    /// Every campaign reachable from `i` (itself first, then includes depth-first). An
    /// explicit stack, not recursion: include graphs are data (pushing the includes in
    /// reverse and marking at pop gives the recursive pre-order).
    fn reachable(&self, i: usize, seen: &mut HashSet<usize>, out: &mut Vec<usize>) {
        let mut todo = vec![i];
        while let Some(i) = todo.pop() {
            if !seen.insert(i) {
                continue;
            }
            out.push(i);
            let Some(c) = self.campaigns.get(i) else {
                continue;
            };
            todo.extend(
                c.includes
                    .iter()
                    .rev()
                    .filter_map(|(p, _)| self.by_path.get(p).copied()),
            );
        }
    }
}

/// Finds a campaign by key or name among all PCCs under the data folder.
fn find_campaign(
    fs: &dyn FileSystem,
    root: &PcgenRoot,
    name: &str,
    cache: &FileCache,
) -> Option<PathBuf> {
    cache.campaign_named(fs, &root.data, name)
}

/// The longest chain of `PCC:` includes that is followed (real data nests two or three).
pub const MAX_INCLUDE_DEPTH: usize = 100;

/// Loads the campaigns `pccs` (selected together) from `root`.
pub fn load(fs: &dyn FileSystem, root: &PcgenRoot, pccs: &[PathBuf]) -> LoadSet {
    load_cached(fs, root, pccs, &FileCache::new())
}

/// [`load`], reading files through `cache` (shared by the load sets of one run).
pub fn load_cached(
    fs: &dyn FileSystem,
    root: &PcgenRoot,
    pccs: &[PathBuf],
    cache: &FileCache,
) -> LoadSet {
    let mut l = Loader {
        fs,
        root: root.clone(),
        sources: SourceMap::new(),
        diagnostics: Vec::new(),
        by_path: HashMap::new(),
        campaigns: Vec::new(),
        read: HashMap::new(),
        cache,
    };
    let mut selected: Vec<usize> = Vec::new();
    for p in pccs {
        if let Some(i) = l.campaign(p, None, &mut Vec::new()) {
            if !selected.contains(&i) {
                selected.push(i);
            }
        }
    }

    // PRECAMPAIGN on the selected campaigns: add what is missing, warn on conflicts.
    let mut k = 0;
    while let Some(&i) = selected.get(k) {
        k += 1;
        let pres = l
            .campaigns
            .get(i)
            .map(|c| c.pre.clone())
            .unwrap_or_default();
        for pre in pres {
            if pre.negated {
                continue;
            }
            for name in pre.included_names() {
                let present = l
                    .campaigns
                    .iter()
                    .any(|c| c.key.eq_ignore_ascii_case(name) || c.name.eq_ignore_ascii_case(name));
                if present {
                    continue;
                }
                match find_campaign(fs, root, name, cache) {
                    Some(path) => {
                        if let Some(j) = l.campaign(&path, None, &mut Vec::new()) {
                            if !selected.contains(&j) {
                                selected.push(j);
                            }
                            l.diagnostics.push(
                                Diagnostic::note(
                                    codes::CAMPAIGN_ADDED,
                                    pre.span,
                                    format!("required campaign `{name}` was added to the load"),
                                )
                                .with_note(format!("from {}", root.display(&path))),
                            );
                        }
                    }
                    None => l.diagnostics.push(
                        Diagnostic::error(
                            codes::MISSING_CAMPAIGN,
                            pre.span,
                            format!("required campaign `{name}` is not in the data folder"),
                        )
                        .with_label("needs this campaign")
                        .with_help("install the campaign, or select it together with this one"),
                    ),
                }
            }
        }
    }

    // The campaigns loaded, for prerequisites: (key, name, book types).
    let mut loaded_idx = Vec::new();
    let mut seen = HashSet::new();
    for &i in &selected {
        l.reachable(i, &mut seen, &mut loaded_idx);
    }
    let info: Vec<(String, String, Vec<String>)> = loaded_idx
        .iter()
        .filter_map(|i| l.campaigns.get(*i))
        .map(|c| (c.key.clone(), c.name.clone(), c.book_types.clone()))
        .collect();
    let info_ref: Vec<(&str, &str, &[String])> = info
        .iter()
        .map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_slice()))
        .collect();
    let selected_info: Vec<(&str, &str, &[String])> = selected
        .iter()
        .filter_map(|i| l.campaigns.get(*i))
        .map(|c| (c.key.as_str(), c.name.as_str(), c.book_types.as_slice()))
        .collect();
    let mut conflicts = Vec::new();
    for &i in &selected {
        if let Some(c) = l.campaigns.get(i) {
            for pre in c.pre.iter().filter(|p| p.negated) {
                if !pre.passes(&selected_info) {
                    conflicts.push(
                        Diagnostic::warning(
                            codes::CAMPAIGN_CONFLICT,
                            pre.span,
                            format!("`{}` does not allow the other selected campaigns", c.name),
                        )
                        .with_help("PCGen refuses this selection; load the campaigns separately"),
                    );
                }
            }
        }
    }
    l.diagnostics.extend(conflicts);

    // Game mode.
    let modes = cache.game_modes(fs, &root.game_modes());
    let mut game_mode: Option<GameMode> = None;
    for &i in &selected {
        let Some(c) = l.campaigns.get(i) else {
            continue;
        };
        let Some(span) = c.game_mode_span else {
            continue;
        };
        match &game_mode {
            None => {
                game_mode = modes
                    .iter()
                    .find(|m| c.game_modes.iter().any(|g| m.accepts(g)))
                    .cloned();
                if game_mode.is_none() {
                    let known: Vec<&str> = modes
                        .iter()
                        .flat_map(|m| m.allowed.iter().map(String::as_str))
                        .collect();
                    let mut d = Diagnostic::error(
                        codes::UNKNOWN_GAME_MODE,
                        span,
                        format!("no game mode allows `{}`", c.game_modes.join("|")),
                    )
                    .with_label("matched against each game mode's ALLOWEDMODES");
                    d = match crate::name::closest(
                        c.game_modes.first().map_or("", |s| s),
                        known.iter().copied(),
                    ) {
                        Some(s) => d.with_help(format!("did you mean `{s}`?")),
                        None => d.with_help(format!(
                            "install the game mode, or use one of: {}",
                            known.join(", ")
                        )),
                    };
                    l.diagnostics.push(d);
                }
            }
            Some(m) => {
                if !c.game_modes.iter().any(|g| m.accepts(g)) {
                    l.diagnostics.push(
                        Diagnostic::error(
                            codes::MIXED_GAME_MODES,
                            span,
                            format!("`{}` is not for game mode `{}`", c.name, m.dir),
                        )
                        .with_help("select campaigns of one game mode together"),
                    );
                }
            }
        }
    }

    if game_mode.is_none() {
        let any_mode = selected
            .iter()
            .filter_map(|i| l.campaigns.get(*i))
            .any(|c| c.game_mode_span.is_some());
        if let Some(c) = selected.first().and_then(|i| l.campaigns.get(*i)) {
            if !any_mode {
                l.diagnostics.push(
                    Diagnostic::warning(
                        codes::NO_GAME_MODE,
                        Span::new(c.file, 0..0),
                        "no selected campaign names a GAMEMODE",
                    )
                    .with_label("include-only PCC")
                    .with_help("select a PCC with a GAMEMODE: line; this one is meant to be included by another"),
                );
            }
        }
    }

    // RANK order (descending, stable), then flatten the file lists.
    let mut order = selected.clone();
    order.sort_by_key(|i| std::cmp::Reverse(l.campaigns.get(*i).map_or(9, |c| c.rank)));
    let mut entries = Vec::new();
    let mut excludes: HashSet<PathBuf> = HashSet::new();
    let mut seen = HashSet::new();
    for &i in &order {
        let mut reach = Vec::new();
        l.reachable(i, &mut seen, &mut reach);
        for j in reach {
            if let Some(c) = l.campaigns.get(j) {
                entries.extend(c.entries.iter().cloned());
                excludes.extend(c.lst_excludes.iter().cloned());
            }
        }
    }
    let mut listed: HashSet<(PathBuf, Option<KeyFilter>, FileKind)> = HashSet::new();
    let mut plan: Vec<(FileKind, PathBuf, Option<KeyFilter>, Option<Span>)> = Vec::new();
    for kind in FileKind::LOAD_ORDER {
        for e in entries.iter().filter(|e| e.kind == kind) {
            if excludes.contains(&e.path) || !e.pre.iter().all(|p| p.passes(&info_ref)) {
                continue;
            }
            if listed.insert((e.path.clone(), e.filter.clone(), kind)) {
                plan.push((kind, e.path.clone(), e.filter.clone(), Some(e.span)));
            }
        }
        let fallback = match kind {
            FileKind::DataControl => Some("compatibilityDataControl.lst"),
            FileKind::GlobalModifier => Some("compatibilityGlobalModifier.lst"),
            _ => None,
        };
        if let Some(name) = fallback {
            if !plan.iter().any(|p| p.0 == kind) {
                let path = root.game_modes().join("default").join(name);
                if fs.is_file(&path) {
                    plan.push((kind, path, None, None));
                }
            }
        }
    }
    let mut files = Vec::new();
    for (kind, path, filter, at) in plan {
        let Some((id, cached)) = l.read_cached(&path, at, &format!("{} file", kind.token())) else {
            continue;
        };
        let lines = cached.lines(line_mode(kind), id);
        files.push(LoadedFile {
            kind,
            path,
            file: id,
            lines,
            filter,
            listed_at: at,
        });
    }

    // Campaigns: selected in rank order first, then the rest.
    let mut ordered: Vec<usize> = order.clone();
    ordered.extend(loaded_idx.iter().filter(|i| !order.contains(i)));
    let selected_count = order.len();
    let mut all: Vec<Option<Campaign>> = l.campaigns.into_iter().map(Some).collect();
    let campaigns = ordered
        .into_iter()
        .filter_map(|i| all.get_mut(i).and_then(Option::take))
        .collect();
    LoadSet {
        root: l.root,
        sources: l.sources,
        campaigns,
        selected: selected_count,
        game_mode,
        files,
        diagnostics: l.diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::fs::MemoryFs;

    fn fs() -> MemoryFs {
        MemoryFs::new()
            .with("/pc/system/gameModes/GM/miscinfo.lst", "ALLOWEDMODES:Mode1|Mode2\n")
            .with(
                "/pc/system/gameModes/default/compatibilityGlobalModifier.lst",
                "MODIFY:Face|SET|5,0|PRIORITY=5\n",
            )
            .with(
                "/pc/data/a/main.pcc",
                "CAMPAIGN:Main\r\nGAMEMODE:Mode2\r\nPCC:@\\b\\sub.pcc\r\nVARIABLE:v.lst\r\n\
                 DATACONTROL:dc.lst\r\nABILITY:x.lst|PRECAMPAIGN:1,INCLUDES=Nothing\r\n\
                 ABILITY:y.lst|PRECAMPAIGN:1,INCLUDES=Sub\r\nABILITY:y.lst|PRECAMPAIGN:1,INCLUDES=Sub",
            )
            .with("/pc/data/b/sub.pcc", "CAMPAIGN:Sub\nVARIABLE:../b/w.lst\nPCC:../a/main.pcc\n")
            .with("/pc/data/a/v.lst", "GLOBAL:NUMBER=A\n")
            .with("/pc/data/a/dc.lst", "DEFAULTVARIABLEVALUE:NUMBER|0\n")
            .with("/pc/data/a/y.lst", b"Caf\xe9\tKEY:Y\n".to_vec())
            .with("/pc/data/b/w.lst", "GLOBAL:NUMBER=B")
    }

    #[test]
    fn builds_a_load_set_in_pcgen_order() {
        let fs = fs();
        let root = PcgenRoot::find(&fs, Path::new("/pc/data/a/main.pcc")).unwrap();
        let set = load(&fs, &root, &[PathBuf::from("/pc/data/a/main.pcc")]);
        let files: Vec<(FileKind, String)> = set
            .files
            .iter()
            .map(|f| (f.kind, root.display(&f.path)))
            .collect();
        assert_eq!(
            files,
            vec![
                (FileKind::DataControl, "data/a/dc.lst".to_owned()),
                (FileKind::Variable, "data/a/v.lst".to_owned()),
                (FileKind::Variable, "data/b/w.lst".to_owned()),
                (
                    FileKind::GlobalModifier,
                    "system/gameModes/default/compatibilityGlobalModifier.lst".to_owned()
                ),
                (FileKind::Ability, "data/a/y.lst".to_owned()),
            ]
        );
        assert_eq!(set.game_mode.as_ref().map(|g| g.dir.as_str()), Some("GM"));
        assert_eq!((set.campaigns.len(), set.selected), (2, 1));
        // The include cycle back to main.pcc is cut with a warning; y.lst is read as
        // Windows-1252 with a warning. Nothing else.
        let codes: Vec<&str> = set.diagnostics.iter().map(|d| d.code.id).collect();
        assert_eq!(codes, vec!["L0107", "L0101"]);
        let w = set
            .files
            .iter()
            .find(|f| f.path.ends_with("w.lst"))
            .unwrap();
        assert_eq!(
            w.lines.len(),
            1,
            "a missing final newline still ends the line"
        );
    }

    #[test]
    fn missing_files_and_game_modes_are_reported_at_the_pcc_token() {
        let fs = MemoryFs::new()
            .with(
                "/pc/system/gameModes/GM/miscinfo.lst",
                "ALLOWEDMODES:Mode1\n",
            )
            .with(
                "/pc/data/m.pcc",
                "CAMPAIGN:M\nGAMEMODE:Mode3\nSKILL:nope.lst\n",
            );
        let root = PcgenRoot::find(&fs, Path::new("/pc/data/m.pcc")).unwrap();
        let set = load(&fs, &root, &[PathBuf::from("/pc/data/m.pcc")]);
        let found: Vec<(&str, (usize, usize))> = set
            .diagnostics
            .iter()
            .map(|d| {
                let f = set.sources.get(d.span.file).unwrap();
                (d.code.id, f.line_col(d.span.range().start))
            })
            .collect();
        assert_eq!(found, vec![("L0104", (2, 10)), ("L0102", (3, 7))]);
    }
}
