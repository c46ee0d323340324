//! The editor's view of the files: open documents' unsaved text over the disk.

use crate::load::fs::normalize;
use crate::load::fs::{Walk, within_limit};
use crate::load::{DiskFs, FileSystem};
use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A [`FileSystem`] where open documents (keyed by normalised path) hide the disk's bytes.
/// Texts are `Arc`s: a snapshot of the overlay shares them instead of copying.
#[derive(Clone, Debug, Default)]
pub struct OverlayFs {
    open: HashMap<PathBuf, Arc<str>>,
}

impl OverlayFs {
    /// No open documents: the disk as it is.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the editor's text of `path`.
    pub fn set(&mut self, path: &Path, text: Arc<str>) {
        self.open.insert(normalize(path), text);
    }

    /// Forgets the editor's text of `path` (the disk shows through again).
    pub fn remove(&mut self, path: &Path) {
        self.open.remove(&normalize(path));
    }

    /// The editor's text of `path`, when it is open.
    pub fn text(&self, path: &Path) -> Option<&Arc<str>> {
        self.open.get(&normalize(path))
    }

    /// The open documents.
    pub fn paths(&self) -> impl Iterator<Item = &PathBuf> {
        self.open.keys()
    }
}

impl FileSystem for OverlayFs {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        match self.text(path) {
            Some(t) => within_limit(t.as_bytes()),
            None => DiskFs.read(path),
        }
    }

    fn is_file(&self, path: &Path) -> bool {
        self.text(path).is_some() || DiskFs.is_file(path)
    }

    fn is_dir(&self, path: &Path) -> bool {
        DiskFs.is_dir(path)
    }

    fn files_below(&self, dir: &Path) -> Vec<PathBuf> {
        self.walk(dir).files
    }

    /// The disk's walk (links leading out of `dir` are problems, not files) with the open
    /// documents below `dir` that are not on disk yet.
    fn walk(&self, dir: &Path) -> Walk {
        let dir = normalize(dir);
        let mut walk = DiskFs.walk(&dir);
        let known: HashSet<PathBuf> = walk.files.iter().cloned().collect();
        for p in self.open.keys() {
            if p.starts_with(&dir) && !known.contains(p) && !DiskFs.exists(p) {
                walk.files.push(p.clone());
            }
        }
        walk.files.sort();
        walk
    }

    fn exists(&self, path: &Path) -> bool {
        self.text(path).is_some() || DiskFs.exists(path)
    }

    /// The disk's answer: an open document that is a link on disk is judged by where the
    /// link leads, as `rulebook check` judges it (the editor's text does not move the file
    /// inside the root). An unsaved document is its folder's real path joined with its name.
    fn canonical(&self, path: &Path) -> Option<PathBuf> {
        if DiskFs.exists(path) {
            return DiskFs.canonical(path);
        }
        self.text(path)?;
        let path = normalize(path);
        match (path.parent(), path.file_name()) {
            (Some(dir), Some(name)) => Some(DiskFs.canonical(dir)?.join(name)),
            _ => Some(path),
        }
    }

    fn not_a_link(&self, path: &Path) -> bool {
        DiskFs.not_a_link(path) || (self.text(path).is_some() && !DiskFs.exists(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_text_hides_the_disk_and_unopened_files_read_through() {
        let dir = std::env::temp_dir().join(format!("rulebook-overlay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let disk = dir.join("a.lst");
        std::fs::write(&disk, "on disk").unwrap();
        let mut fs = OverlayFs::new();
        assert_eq!(fs.read(&disk).unwrap(), b"on disk");
        fs.set(&disk, Arc::from("typed"));
        assert_eq!(fs.read(&dir.join("./a.lst")).unwrap(), b"typed");
        let unsaved = dir.join("new.lst");
        fs.set(&unsaved, Arc::from("new"));
        assert!(fs.is_file(&unsaved));
        assert!(fs.files_below(&dir).contains(&unsaved));
        fs.remove(&disk);
        assert_eq!(fs.read(&disk).unwrap(), b"on disk");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
