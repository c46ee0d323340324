//! The acceptance harness of real-data fidelity: every selectable PCC of the whole PCGen
//! corpus (`shared/pcgen-corpus`, beside the repository or beside a worktree's parent) is
//! checked by the `rulebook` binary, and every error and warning, as
//! `severity code file:line` (sorted, without repeats, notes left out), is compared with a
//! reviewed snapshot, after a count per code. Skipped, with a note, when the corpus is absent.
//!
//! The whole corpus takes about 90 s with a release binary and six to eight times as long
//! with a debug one, so the test runs a binary rather than the library:
//! `RULEBOOK_CORPUS_BIN` names it (CI, after `cargo build --release`:
//! `RULEBOOK_CORPUS_BIN=target/release/rulebook cargo test --test it corpus_findings::`), else
//! the binary this `cargo test` built when it is optimised (`cargo test --release`). A debug
//! `cargo test` without `RULEBOOK_CORPUS_BIN` skips it with a note saying so.
//! `RULEBOOK_CORPUS` overrides where the corpus is.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The corpus: `$RULEBOOK_CORPUS`, else the first `shared/pcgen-corpus` found beside the
/// crate or one of its ancestors (the main checkout has `../shared`, a worktree under
/// `wt/` has `../../shared`).
fn corpus() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("RULEBOOK_CORPUS") {
        return Some(PathBuf::from(dir));
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(1)
        .map(|a| a.join("shared/pcgen-corpus"))
        .find(|c| c.join("data").is_dir() && c.join("system/gameModes").is_dir())
}

/// The binary to run: `$RULEBOOK_CORPUS_BIN`, else this build's when optimised.
fn binary() -> Option<PathBuf> {
    match std::env::var_os("RULEBOOK_CORPUS_BIN") {
        Some(p) => {
            let p = PathBuf::from(p);
            Some(std::path::absolute(&p).unwrap_or(p))
        }
        None if cfg!(debug_assertions) => None,
        None => Some(PathBuf::from(env!("CARGO_BIN_EXE_rulebook"))),
    }
}

/// `severity code file:line` for each error and warning of a `check --format json` run.
fn findings(json: &serde_json::Value) -> Vec<String> {
    let mut out: Vec<String> = json["diagnostics"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .filter(|d| d["severity"] != "note")
        .map(|d| {
            format!(
                "{} {} {}:{}",
                d["severity"].as_str().unwrap_or("?"),
                d["code"].as_str().unwrap_or("?"),
                d["file"].as_str().unwrap_or("?"),
                d["line"]
            )
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// A count per `severity code`, then every finding.
fn report(findings: &[String]) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for f in findings {
        let kind = f.rsplit_once(' ').map_or(f.as_str(), |(k, _)| k);
        *counts.entry(kind).or_default() += 1;
    }
    let mut out = String::new();
    for (kind, n) in &counts {
        out.push_str(&format!("{kind}: {n}\n"));
    }
    out.push_str(&format!("total: {}\n\n", findings.len()));
    for f in findings {
        out.push_str(f);
        out.push('\n');
    }
    out
}

#[test]
fn every_finding_on_the_whole_corpus_matches_the_reviewed_snapshot() {
    let Some(corpus) = corpus() else {
        eprintln!("note: shared/pcgen-corpus is missing; whole-corpus findings test skipped");
        return;
    };
    let Some(bin) = binary() else {
        eprintln!(
            "note: whole-corpus findings test skipped in a debug build (many minutes); run \
             `cargo test --release --test it corpus_findings::`, or set RULEBOOK_CORPUS_BIN to a \
             release binary"
        );
        return;
    };
    let started = std::time::Instant::now();
    let out = Command::new(&bin)
        .args(["check", "data", "--pcgen-root", ".", "--format", "json"])
        .current_dir(&corpus)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()));
    eprintln!(
        "note: {} checked the corpus in {:.1} s",
        bin.display(),
        started.elapsed().as_secs_f64()
    );
    // 0 clean, 1 errors found; 2 is a usage or IO failure, never a finding.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{} exited with {:?}: {}",
        bin.display(),
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("check --format json prints JSON");
    insta::assert_snapshot!(report(&findings(&json)));
}

#[test]
fn findings_keep_errors_and_warnings_once_each_in_order() {
    let json = serde_json::json!({ "diagnostics": [
        { "severity": "error", "code": "M0111", "file": "data/b.lst", "line": 5 },
        { "severity": "note", "code": "L0106", "file": "data/a.pcc", "line": 1 },
        { "severity": "warning", "code": "L0101", "file": "data/a.lst", "line": 2 },
        { "severity": "error", "code": "M0111", "file": "data/b.lst", "line": 5 },
    ]});
    assert_eq!(
        report(&findings(&json)),
        "error M0111: 1\nwarning L0101: 1\ntotal: 2\n\n\
         error M0111 data/b.lst:5\nwarning L0101 data/a.lst:2\n"
    );
}
