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
}

impl PcgenRoot {
    /// A root with an explicit data folder.
    pub fn new(root: PathBuf, data: PathBuf) -> Self {
        PcgenRoot { root, data }
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
            PcgenRoot { root, data }
        } else {
            PcgenRoot {
                data: root.clone(),
                root,
            }
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
}
