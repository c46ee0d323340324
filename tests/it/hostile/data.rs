//! Generated datasets: a PCGen root in a fresh temporary folder with the example game mode
//! (`data/system`) and whatever files a test writes.

use std::path::{Path, PathBuf};

/// A PCGen root at a fresh temporary folder named after the test: `system/gameModes` copied
/// from the example, an empty `data/`.
pub fn root(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulebook-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let system = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/system");
    copy_dir(&system, &dir.join("system"));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    dir
}

use crate::support::copy_dir;

/// The header of a PCC of the example game mode, followed by `entries` (one a line).
pub fn pcc(entries: &[&str]) -> String {
    let mut text = "CAMPAIGN:Hostile\nKEY:Hostile\nGAMEMODE:Handsworld\n".to_owned();
    for e in entries {
        text.push_str(e);
        text.push('\n');
    }
    text
}

/// The `file://` URI of a path.
pub fn uri(p: &Path) -> String {
    rulebook::lsp::uri::from_path(p)
        .unwrap()
        .as_str()
        .to_owned()
}

/// A PCGen root holding the example dataset (`data/handsworld`, its PCC `handsworld.pcc`)
/// to which a test adds files.
pub fn handsworld(name: &str) -> PathBuf {
    let root = root(name);
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/handsworld");
    copy_dir(&from, &root.join("data/handsworld"));
    root
}

/// Adds `file` with `text` to the example dataset under `root`, listed by its PCC as `kind`.
pub fn add_file(root: &Path, kind: &str, file: &str, text: &str) -> PathBuf {
    let dir = root.join("data/handsworld");
    std::fs::write(dir.join(file), text).unwrap();
    let pcc = dir.join("handsworld.pcc");
    let mut listed = std::fs::read_to_string(&pcc).unwrap();
    listed.push_str(&format!("{kind}:{file}\n"));
    std::fs::write(&pcc, listed).unwrap();
    pcc
}
