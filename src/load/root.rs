//! The PCGen root: the folder holding `data/` (what `@/` means) and `system/gameModes/`.

use crate::load::fs::{FileSystem, normalize};
use std::path::{Path, PathBuf};

/// Where a load's data and game modes live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PcgenRoot {
    /// The root folder; file paths in reports are relative to it.
    pub root: PathBuf,
    /// The data folder (`@/`, `*/`).
    pub data: PathBuf,
    /// Whether files outside the root may be read.
    pub outside: OutsideRoot,
    /// Folders outside the root whose files may be read all the same (homebrew kept beside
    /// an install: `extra-roots` in `rulebook.toml`), absolute and normalised.
    pub extra: Vec<PathBuf>,
}

/// What the loader does with a file a PCC names outside the PCGen root (through `../`, an
/// absolute path or a symbolic link): a dataset from a stranger must not read the machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutsideRoot {
    /// Not read; an error at the PCC line (the default).
    #[default]
    Refuse,
    /// Read like any other file (`rulebook check --allow-outside-root`).
    Allow,
}

/// Why a path may not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Escape {
    /// The path itself (after folding `..`) is outside the root.
    Lexical,
    /// The path is inside, but a symbolic link on it leads to this place outside.
    Link(PathBuf),
}

impl PcgenRoot {
    /// A root with an explicit data folder.
    pub fn new(root: PathBuf, data: PathBuf) -> Self {
        PcgenRoot {
            root,
            data,
            outside: OutsideRoot::Refuse,
            extra: Vec::new(),
        }
    }

    /// The same root with files outside it allowed (or refused).
    pub fn with_outside(self, outside: OutsideRoot) -> Self {
        PcgenRoot { outside, ..self }
    }

    /// The same root with files below `extra` (absolute folders) readable too.
    pub fn with_extra_roots(self, extra: Vec<PathBuf>) -> Self {
        let extra = extra.iter().map(|p| normalize(p)).collect();
        PcgenRoot { extra, ..self }
    }

    /// `None` when `path` may be read: it is inside the root (links resolved) or below one
    /// of the extra roots (judged by the path as written), or files outside are allowed. A
    /// path that does not exist yet is judged lexically.
    pub fn escape(&self, fs: &dyn FileSystem, path: &Path) -> Option<Escape> {
        self.escape_with(path, |p| fs.canonical(p), |p| fs.canonical(p))
    }

    /// [`PcgenRoot::escape`] with the links resolved by `real_root` (for the root) and
    /// `real` (for the normalised path): a caller that checks many paths resolves each
    /// folder once.
    pub fn escape_with(
        &self,
        path: &Path,
        real_root: impl FnOnce(&Path) -> Option<PathBuf>,
        real: impl FnOnce(&Path) -> Option<PathBuf>,
    ) -> Option<Escape> {
        if self.outside == OutsideRoot::Allow {
            return None;
        }
        let path = normalize(path);
        if self.extra.iter().any(|e| path.starts_with(e)) {
            return None;
        }
        if !path.starts_with(&self.root) {
            return Some(Escape::Lexical);
        }
        let real = real(&path)?;
        let root = real_root(&self.root).unwrap_or_else(|| self.root.clone());
        (!real.starts_with(&root)).then_some(Escape::Link(real))
    }

    /// The game-modes folder, `system/gameModes` under the root.
    pub fn game_modes(&self) -> PathBuf {
        self.root.join("system").join("gameModes")
    }

    /// The root given by `--pcgen-root`: `DIR/data` when it exists, else `DIR` itself.
    pub fn at(fs: &dyn FileSystem, dir: &Path) -> Self {
        let root = normalize(dir);
        let data = root.join("data");
        if fs.is_dir(&data) {
            PcgenRoot::new(root, data)
        } else {
            PcgenRoot::new(root.clone(), root)
        }
    }

    /// Finds the root from a path inside it: the nearest ancestor holding `system/gameModes`
    /// (its `data/` is the data folder, or the ancestor itself when it has none).
    pub fn find(fs: &dyn FileSystem, from: &Path) -> Option<Self> {
        let from = normalize(from);
        from.ancestors()
            .find(|a| fs.is_dir(&a.join("system").join("gameModes")))
            .map(|a| PcgenRoot::at(fs, a))
    }

    /// A path as shown to users: relative to the root, with `/` separators.
    pub fn display(&self, path: &Path) -> String {
        let rel = path.strip_prefix(&self.root).unwrap_or(path);
        rel.to_string_lossy().replace('\\', "/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::fs::MemoryFs;

    #[test]
    fn finds_root_above_a_pcc() {
        let fs = MemoryFs::new()
            .with("/pc/system/gameModes/X/miscinfo.lst", "")
            .with("/pc/data/a/a.pcc", "");
        let r = PcgenRoot::find(&fs, Path::new("/pc/data/a/a.pcc")).unwrap();
        assert_eq!(r.root, PathBuf::from("/pc"));
        assert_eq!(r.data, PathBuf::from("/pc/data"));
        assert_eq!(r.display(Path::new("/pc/data/a/a.pcc")), "data/a/a.pcc");
        assert!(PcgenRoot::find(&fs, Path::new("/elsewhere/x.pcc")).is_none());
    }

    #[test]
    fn paths_out_of_the_root_escape_unless_allowed() {
        let fs = MemoryFs::new().with("/pc/data/a.lst", "");
        let r = PcgenRoot::new(PathBuf::from("/pc"), PathBuf::from("/pc/data"));
        assert_eq!(r.escape(&fs, Path::new("/pc/data/a.lst")), None);
        assert_eq!(
            r.escape(&fs, Path::new("/pc/data/../../etc/passwd")),
            Some(Escape::Lexical)
        );
        assert_eq!(
            r.escape(&fs, Path::new("/etc/passwd")),
            Some(Escape::Lexical)
        );
        let allowed = r.clone().with_outside(OutsideRoot::Allow);
        assert_eq!(allowed.escape(&fs, Path::new("/etc/passwd")), None);
        let extra = r.with_extra_roots(vec![PathBuf::from("/home/me/brew/")]);
        assert_eq!(
            extra.escape(&fs, Path::new("/home/me/brew/x/../a.lst")),
            None
        );
        assert!(extra.escape(&fs, Path::new("/home/me/a.lst")).is_some());
    }
}
