//! Item 5 (in part): a character file cannot make rulebook hold an instance per line of
//! TOML without bound (`S0207`), and entries are looked up by hash, not by scans.

use super::cli;
use rulebook::character::file::{MAX_ENTRIES, build_located, parse_located};
use rulebook::check::check_load_set;
use rulebook::diagnostic::render;
use rulebook::load::{DiskFs, PcgenRoot};
use rulebook::source::{SourceFile, TextEncoding};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

fn pcc() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/handsworld/handsworld.pcc")
}

fn write(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "rulebook-hostile-{name}-{}.toml",
        std::process::id()
    ));
    std::fs::write(&path, text).unwrap();
    path
}

/// `n` grants of one object, one a line.
fn grants(n: usize) -> String {
    let mut text = "grant = [\n".to_owned();
    for _ in 0..n {
        text.push_str("  \"EQUIPMENT:Longsword\",\n");
    }
    text.push_str("]\n");
    text
}

#[test]
fn two_hundred_thousand_grants_are_cut_at_the_limit() {
    let file = write("grants", &grants(200_000));
    let run = cli::run(
        &[
            "calc",
            pcc().to_str().unwrap(),
            "--character",
            file.to_str().unwrap(),
        ],
        1_000_000,
        Duration::from_secs(60),
    );
    assert_eq!(
        run.code,
        Some(1),
        "{:?} {}",
        run.took,
        run.stderr.get(..2000).unwrap_or(&run.stderr)
    );
    assert_eq!(run.stderr.matches("[S0207]").count(), 1);
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn a_hundred_thousand_unknown_channels_are_reported_in_linear_time() {
    let mut text = "grant = [\"STAT:STR\"]\n".to_owned();
    for i in 0..100_000 {
        text.push_str(&format!(
            "[[input]]\nobject = \"STAT:STR\"\nchannel = \"Nope{i}\"\nvalue = \"1\"\n"
        ));
    }
    let file = write("channels", &text);
    let run = cli::run(
        &[
            "calc",
            pcc().to_str().unwrap(),
            "--character",
            file.to_str().unwrap(),
        ],
        1_000_000,
        Duration::from_secs(60),
    );
    assert_eq!(run.code, Some(1), "{:?}", run.took);
    assert_eq!(run.stderr.matches("[S0202]").count(), MAX_ENTRIES);
    assert_eq!(run.stderr.matches("[S0207]").count(), 1);
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn the_limit_is_reported_at_the_first_entry_not_read() {
    let root = PcgenRoot::find(&DiskFs, &pcc()).unwrap();
    let mut set = check_load_set(&DiskFs, &root, &[pcc()]);
    let text = grants(MAX_ENTRIES + 2);
    let id = set.load.sources.add(SourceFile::new(
        "many.toml",
        text.as_str(),
        TextEncoding::Utf8,
    ));
    let located = parse_located(&text, id).unwrap();
    let (_, problems) = build_located(
        Arc::new(std::mem::take(&mut set.dataset)),
        &located,
        id,
        &set.load.sources,
    );
    let found: Vec<_> = problems
        .into_iter()
        .filter(|d| d.code.id == "S0207")
        .collect();
    assert_eq!(found.len(), 1);
    let report = render(&found, &set.load.sources, false);
    insta::with_settings!({snapshot_path => "../snapshots"}, {
        insta::assert_snapshot!("S0207-too-many-entries", report);
    });
}
