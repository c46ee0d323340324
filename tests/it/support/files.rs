//! Folders copied for a test or a benchmark (`benches/scaling.rs` reads this file too).

use std::path::Path;

/// Copies the folder `from` (recursively) to `to`: tests change copies of real datasets.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}
