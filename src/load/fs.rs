//! The file system the loader reads through: the real disk in the CLI, memory in tests.
//!
//! The core never touches the disk directly (see the crate's architecture notes); everything
//! the loader needs is one of these four questions.

use std::collections::BTreeMap;
use std::io;
use std::path::{Component, Path, PathBuf};

/// What the loader needs from a file system.
pub trait FileSystem {
    /// The bytes of a file.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    /// True when `path` is an existing regular file.
    fn is_file(&self, path: &Path) -> bool;
    /// True when `path` is an existing directory.
    fn is_dir(&self, path: &Path) -> bool;
    /// Every regular file below `dir` (recursively), sorted by path.
    fn files_below(&self, dir: &Path) -> Vec<PathBuf>;
}

/// The real disk.
#[derive(Clone, Copy, Debug, Default)]
pub struct DiskFs;

impl FileSystem for DiskFs {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }

    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
    }

    fn files_below(&self, dir: &Path) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
            .follow_links(true)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| e.into_path())
            .collect();
        out.sort();
        out
    }
}

/// Files held in memory, keyed by normalised path (for tests and benchmarks).
#[derive(Clone, Debug, Default)]
pub struct MemoryFs {
    files: BTreeMap<PathBuf, Vec<u8>>,
}

impl MemoryFs {
    /// An empty file system.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) a file.
    pub fn insert(&mut self, path: impl AsRef<Path>, bytes: impl Into<Vec<u8>>) {
        self.files.insert(normalize(path.as_ref()), bytes.into());
    }

    /// Builder form of [`MemoryFs::insert`].
    pub fn with(mut self, path: impl AsRef<Path>, bytes: impl Into<Vec<u8>>) -> Self {
        self.insert(path, bytes);
        self
    }
}

impl FileSystem for MemoryFs {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.files
            .get(&normalize(path))
            .cloned()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no such file"))
    }

    fn is_file(&self, path: &Path) -> bool {
        self.files.contains_key(&normalize(path))
    }

    fn is_dir(&self, path: &Path) -> bool {
        let dir = normalize(path);
        self.files.keys().any(|k| k != &dir && k.starts_with(&dir))
    }

    fn files_below(&self, dir: &Path) -> Vec<PathBuf> {
        let dir = normalize(dir);
        self.files
            .keys()
            .filter(|k| k.starts_with(&dir) && **k != dir)
            .cloned()
            .collect()
    }
}

/// Lexically normalises a path: removes `.` and folds `..` into the previous component (as
/// Java's `URI.normalize()` does for PCGen), never touching the disk.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_fs_answers_like_a_disk() {
        let fs = MemoryFs::new()
            .with("/r/data/a/x.pcc", "A")
            .with("/r/data/b.lst", "B");
        assert!(fs.is_dir(Path::new("/r/data")));
        assert!(fs.is_file(Path::new("/r/data/a/../b.lst")));
        assert!(!fs.is_dir(Path::new("/r/data/b.lst")));
        assert_eq!(fs.files_below(Path::new("/r/data")).len(), 2);
        assert_eq!(fs.read(Path::new("/r/./data/b.lst")).unwrap(), b"B");
    }

    #[test]
    fn normalize_folds_parent_dirs() {
        assert_eq!(
            normalize(Path::new("/a/b/../c/./d")),
            PathBuf::from("/a/c/d")
        );
    }
}
