//! Every diagnostic code defined in the source is unique and documented in docs/errors.md.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Finds `id: "X0000"` inside `Code { ... }` constructions.
fn defined_codes() -> BTreeMap<String, Vec<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut codes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("Code {") {
            rest = &rest[at + 6..];
            let window = &rest[..rest.len().min(200)];
            if let Some(id_at) = window.find("id: \"") {
                let tail = &window[id_at + 5..];
                if let Some(end) = tail.find('"') {
                    let id = &tail[..end];
                    if id.len() == 5
                        && id.as_bytes()[0].is_ascii_uppercase()
                        && id[1..].bytes().all(|b| b.is_ascii_digit())
                    {
                        codes
                            .entry(id.to_owned())
                            .or_default()
                            .push(file.strip_prefix(root).unwrap().display().to_string());
                    }
                }
            }
        }
    }
    codes
}

#[test]
fn every_code_is_unique_and_documented() {
    let codes = defined_codes();
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/errors.md"))
            .unwrap_or_default();
    let mut problems = Vec::new();
    for (id, places) in &codes {
        // The diagnostic module's own unit-test code is not a real code.
        if id == "X0001" {
            continue;
        }
        if places.len() > 1 {
            problems.push(format!("{id} is defined more than once: {places:?}"));
        }
        if !docs.contains(&format!("`{id}`")) {
            problems.push(format!(
                "{id} (defined in {places:?}) is not documented in docs/errors.md as `{id}`"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every `.snap` file under `dir` (recursively), as text.
fn snapshots(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            snapshots(&path, out);
        } else if path.extension().is_some_and(|e| e == "snap") {
            out.push(std::fs::read_to_string(&path).unwrap());
        }
    }
}

/// The codes documented in docs/errors.md: every `` `X0000` `` in backticks.
fn documented_codes() -> Vec<String> {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/errors.md"))
            .unwrap();
    let mut codes: Vec<String> = docs
        .split('`')
        .filter(|w| {
            w.len() == 5
                && w.as_bytes()[0].is_ascii_uppercase()
                && w[1..].bytes().all(|b| b.is_ascii_digit())
        })
        .map(str::to_owned)
        .collect();
    codes.sort();
    codes.dedup();
    codes
}

/// Every documented code has a rendered report under review: at least one insta snapshot
/// (tests/it/snapshots, src/**/snapshots) shows it as `[CODE]`.
#[test]
fn every_documented_code_has_a_rendered_snapshot() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut snaps = Vec::new();
    snapshots(&root.join("tests/it/snapshots"), &mut snaps);
    snapshots(&root.join("src"), &mut snaps);
    let codes = documented_codes();
    assert!(codes.len() > 100, "{} codes documented", codes.len());
    let missing: Vec<&String> = codes
        .iter()
        .filter(|c| !snaps.iter().any(|s| s.contains(&format!("[{c}]"))))
        .collect();
    assert!(
        missing.is_empty(),
        "documented codes without a snapshot of their rendered report: {missing:?}"
    );
}
