//! The file system the loader reads through: the real disk in the CLI, memory in tests.
//!
//! The core never touches the disk directly (see the crate's architecture notes); everything
//! the loader needs is one of these four questions.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

/// The largest file the loader reads, in bytes. PCGen's largest data file is under 1.5 MB;
/// 64 MiB leaves room for any real one and keeps a crafted file (a sparse 1 GiB LST took
/// 5 GB of memory) from exhausting the machine. Every [`FileSystem::read`] keeps to it.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The error of a file over [`MAX_FILE_BYTES`] (of `size` bytes, or more): its kind is
/// [`io::ErrorKind::FileTooLarge`], which the loader reports as `L0116`.
pub fn too_large(size: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("the file is {size} bytes; data files are read up to {MAX_FILE_BYTES}"),
    )
}

/// `bytes` unless they are over [`MAX_FILE_BYTES`] (a file in memory or an editor's text).
pub fn within_limit(bytes: &[u8]) -> io::Result<Vec<u8>> {
    let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if size > MAX_FILE_BYTES {
        return Err(too_large(size));
    }
    Ok(bytes.to_vec())
}

/// Reads an open file of `size` bytes (as its metadata says) up to [`MAX_FILE_BYTES`]: one
/// over it is refused before any byte is read, and one that grows past it while it is read
/// stops there.
pub fn read_limited(file: impl Read, size: u64) -> io::Result<Vec<u8>> {
    if size > MAX_FILE_BYTES {
        return Err(too_large(size));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(MAX_FILE_BYTES.saturating_add(1))
        .read_to_end(&mut bytes)?;
    let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if read > MAX_FILE_BYTES {
        return Err(too_large(read));
    }
    Ok(bytes)
}

/// What the loader needs from a file system.
pub trait FileSystem {
    /// The bytes of a file; a file over [`MAX_FILE_BYTES`] is an error made by [`too_large`].
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    /// True when `path` is an existing regular file.
    fn is_file(&self, path: &Path) -> bool;
    /// True when `path` is an existing directory.
    fn is_dir(&self, path: &Path) -> bool;
    /// Every regular file below `dir` (recursively), sorted by path.
    fn files_below(&self, dir: &Path) -> Vec<PathBuf>;
    /// Every regular file below `dir` with the problems met on the way (an unreadable
    /// sub-folder, a link leading out of `dir`): a walk never drops a folder silently.
    fn walk(&self, dir: &Path) -> Walk {
        Walk {
            files: self.files_below(dir),
            problems: Vec::new(),
        }
    }
    /// True when something exists at `path` (a file, a folder, a device or a pipe).
    fn exists(&self, path: &Path) -> bool {
        self.is_file(path) || self.is_dir(path)
    }
    /// The path with every symbolic link resolved, for the file systems that have links
    /// (`None` when it does not exist). The default is the lexical form.
    fn canonical(&self, path: &Path) -> Option<PathBuf> {
        Some(normalize(path))
    }
    /// True when `path` exists and is certainly not a symbolic link itself (its folders
    /// may be): then its [`FileSystem::canonical`] is that of its folder joined with its
    /// name. The default, `false`, always resolves the whole path.
    fn not_a_link(&self, path: &Path) -> bool {
        let _ = path;
        false
    }
}

/// The result of walking a folder: its files and what could not be walked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Walk {
    /// Regular files below the folder, sorted by path.
    pub files: Vec<PathBuf>,
    /// Entries that were not walked, with the reason.
    pub problems: Vec<WalkProblem>,
}

/// A folder entry a walk could not follow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkProblem {
    /// The entry.
    pub path: PathBuf,
    /// Why it was not walked.
    pub reason: String,
}

impl std::fmt::Display for WalkProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)
    }
}

/// The real disk.
#[derive(Clone, Copy, Debug, Default)]
pub struct DiskFs;

impl FileSystem for DiskFs {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        let file = std::fs::File::open(path)?;
        let size = file.metadata()?.len();
        read_limited(file, size)
    }

    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
    }

    fn files_below(&self, dir: &Path) -> Vec<PathBuf> {
        self.walk(dir).files
    }

    /// Walks `dir` without following folder links (a link to `/` or `..` would walk the
    /// machine or the sibling datasets). A link to a regular file inside `dir` counts as
    /// that file; a link leading out of `dir`, or to a folder, is a problem. Errors (an
    /// unreadable folder) are problems too, never dropped.
    fn walk(&self, dir: &Path) -> Walk {
        let mut walk = Walk::default();
        let inside = std::fs::canonicalize(dir).ok();
        // Each folder's entries by name: the walk then yields the files in path order, and
        // the sort below only confirms it (sorting ≈ 7,000 corpus paths component by
        // component cost more than walking them).
        let entries = walkdir::WalkDir::new(dir)
            .follow_links(false)
            .sort_by_file_name();
        for entry in entries {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    let path = e.path().unwrap_or(dir).to_path_buf();
                    let reason = e
                        .io_error()
                        .map_or_else(|| e.to_string(), ToString::to_string);
                    walk.problems.push(WalkProblem { path, reason });
                    continue;
                }
            };
            let kind = entry.file_type();
            if kind.is_file() {
                walk.files.push(entry.into_path());
            } else if kind.is_symlink() {
                let target = std::fs::canonicalize(entry.path()).ok();
                let within = match (&target, &inside) {
                    (Some(t), Some(i)) => t.starts_with(i),
                    _ => false,
                };
                if within && target.as_deref().is_some_and(Path::is_file) {
                    walk.files.push(entry.into_path());
                } else if !within {
                    walk.problems.push(WalkProblem {
                        path: entry.into_path(),
                        reason: "a link leading out of the folder (not followed)".to_owned(),
                    });
                }
                // A link to a folder inside: its files are walked where they are.
            }
        }
        walk.files.sort();
        walk
    }

    fn exists(&self, path: &Path) -> bool {
        path.symlink_metadata().is_ok()
    }

    fn canonical(&self, path: &Path) -> Option<PathBuf> {
        std::fs::canonicalize(path).ok()
    }

    fn not_a_link(&self, path: &Path) -> bool {
        std::fs::symlink_metadata(path).is_ok_and(|m| !m.file_type().is_symlink())
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
        match self.files.get(&normalize(path)) {
            Some(bytes) => within_limit(bytes),
            None => Err(io::Error::new(io::ErrorKind::NotFound, "no such file")),
        }
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
    fn files_over_the_limit_are_refused_before_they_are_read() {
        let limit = usize::try_from(MAX_FILE_BYTES).unwrap();
        let fs = MemoryFs::new().with("/big.lst", vec![b'x'; limit + 1]);
        let e = fs.read(Path::new("/big.lst")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        // The size alone decides; nothing is read.
        let never = std::io::repeat(b'x');
        let e = read_limited(never, MAX_FILE_BYTES + 1).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        // A file that grows while it is read stops at the limit.
        let e = read_limited(std::io::repeat(b'x'), 10).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
    }

    #[test]
    fn normalize_folds_parent_dirs() {
        assert_eq!(
            normalize(Path::new("/a/b/../c/./d")),
            PathBuf::from("/a/c/d")
        );
    }
}
