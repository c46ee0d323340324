//! Item 6 (in part): language-server work that grew with the square of the workspace: many
//! PCCs sharing one file, a long include cycle, a file with many findings, the symbols of a
//! large file. Each is
//! timed against `rulebook check` of the same data in the same run.

use super::cli;
use super::data;
use super::server::Server;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long `rulebook check` (JSON) of `path` takes.
fn cli_time(path: &Path) -> Duration {
    let r = cli::run(
        &["check", path.to_str().unwrap(), "--format", "json"],
        2_000_000,
        Duration::from_secs(120),
    );
    assert!(r.code.is_some(), "check did not finish: {}", r.stderr);
    r.took
}

/// The time from sending `text` as version `version` of `file` to its diagnostics.
fn keystroke(s: &mut Server, file: &Path, text: &str, version: i64) -> Duration {
    let uri = data::uri(file);
    let start = Instant::now();
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
    );
    loop {
        let (v, _) = s.versioned_diagnostics(&uri);
        if v == Some(version) {
            return start.elapsed();
        }
    }
}

fn within(lsp: Duration, cli: Duration, what: &str) {
    assert!(
        lsp < cli * 2 + Duration::from_secs(2),
        "{what}: the server took {lsp:?}, rulebook check {cli:?}"
    );
}

#[test]
fn a_keystroke_in_a_file_many_pccs_share_costs_what_checking_them_does() {
    const PCCS: usize = 1000;
    let root = data::root("shared");
    let shared = root.join("data/shared/shared.lst");
    std::fs::create_dir_all(shared.parent().unwrap()).unwrap();
    let text = "Climb\tKEY:Climb\n";
    std::fs::write(&shared, text).unwrap();
    for i in 0..PCCS {
        let dir = root.join(format!("data/p{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        let pcc = data::pcc(&["SKILL:@/shared/shared.lst"]).replace("Hostile", &format!("P{i}"));
        std::fs::write(dir.join(format!("p{i}.pcc")), pcc).unwrap();
    }
    let cli = cli_time(&root.join("data"));
    let mut s = Server::start(Some(&root));
    s.open(&shared, text);
    s.diagnostics(&data::uri(&shared));
    let typed = format!("{text}Swim\tKEY:Swim\tNOSUCHTOKEN:1\n");
    let lsp = keystroke(&mut s, &shared, &typed, 2);
    within(lsp, cli, "1,000 PCCs sharing one file");
    assert!(s.shutdown().is_some_and(|e| e.success()));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_long_include_cycle_is_opened_and_edited_as_fast_as_checked() {
    // Every PCC includes the next, the last the first: each of the 600 load sets holds all
    // 600 PCCs, and the server's index of what reaches what held all 360,000 pairs.
    const PCCS: usize = 600;
    let root = data::root("cycle");
    for i in 0..PCCS {
        let dir = root.join(format!("data/p{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        let next = (i + 1) % PCCS;
        let pcc = data::pcc(&[
            &format!("PCC:@/p{next}/p{next}.pcc"),
            &format!("SKILL:s{i}.lst"),
        ])
        .replace("Hostile", &format!("P{i}"));
        std::fs::write(dir.join(format!("p{i}.pcc")), pcc).unwrap();
        std::fs::write(
            dir.join(format!("s{i}.lst")),
            format!("Climb{i}\tKEY:Climb{i}\n"),
        )
        .unwrap();
    }
    let cli = cli_time(&root.join("data"));
    let file = root.join("data/p0/s0.lst");
    let text = "Climb0\tKEY:Climb0\n";
    let mut s = Server::start(Some(&root));
    let start = Instant::now();
    s.open(&file, text);
    s.diagnostics(&data::uri(&file));
    within(
        start.elapsed(),
        cli,
        "opening a file of a 600-PCC include cycle",
    );
    let lsp = keystroke(&mut s, &file, &format!("{text}X\tNOSUCHTOKEN:1\n"), 2);
    within(lsp, cli, "a keystroke in a 600-PCC include cycle");
    assert!(s.shutdown().is_some_and(|e| e.success()));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_hundred_watched_file_events_cost_about_one_check() {
    // A `git pull` that changes 100 files of a load set: the client sends an event per
    // file. Each used to be re-checked on its own (5.8 s for 100).
    const FILES: usize = 100;
    let (root, _, _) = many_findings("watched", 3_000);
    let dir = root.join("data/handsworld");
    for i in 0..FILES {
        data::add_file(
            &root,
            "EQUIPMENT",
            &format!("w{i}.lst"),
            &format!("W{i}\tKEY:W{i}\n"),
        );
    }
    let cli = cli_time(&dir.join("handsworld.pcc"));
    let mut s = Server::start(Some(&root));
    let first = dir.join("w0.lst");
    s.open(&first, "W0\tKEY:W0\n");
    s.diagnostics(&data::uri(&first));
    for i in 1..FILES {
        std::fs::write(
            dir.join(format!("w{i}.lst")),
            format!("W{i}\tKEY:W{i}\tNOSUCH:1\n"),
        )
        .unwrap();
    }
    let start = Instant::now();
    for i in 1..FILES {
        let uri = data::uri(&dir.join(format!("w{i}.lst")));
        s.notify(
            "workspace/didChangeWatchedFiles",
            json!({"changes": [{"uri": uri, "type": 2}]}),
        );
    }
    let last = data::uri(&dir.join(format!("w{}.lst", FILES - 1)));
    while s.diagnostics(&last).len() != 1 {}
    within(start.elapsed(), cli, "100 watched-file events");
    assert!(s.shutdown().is_some_and(|e| e.success()));
    std::fs::remove_dir_all(&root).unwrap();
}

/// The example dataset with one more file of `lines` lines, each a finding.
fn many_findings(name: &str, lines: usize) -> (PathBuf, PathBuf, String) {
    let root = data::handsworld(name);
    let text: String = (0..lines)
        .map(|i| format!("Thing{i}\tKEY:Thing{i}\tMODIFY:Nope|SET|1\n"))
        .collect();
    data::add_file(&root, "EQUIPMENT", "many.lst", &text);
    let file = root.join("data/handsworld/many.lst");
    (root, file, text)
}

#[test]
fn a_file_with_many_findings_is_published_as_fast_as_checked() {
    let (root, file, text) = many_findings("findings", 50_000);
    let cli = cli_time(&root.join("data/handsworld/handsworld.pcc"));
    let mut s = Server::start(Some(&root));
    s.open(&file, &text);
    s.diagnostics(&data::uri(&file));
    let lsp = keystroke(
        &mut s,
        &file,
        &format!("{text}Last\tMODIFY:Nope|SET|2\n"),
        2,
    );
    within(lsp, cli, "50,000 findings");
    let start = Instant::now();
    let symbols = s.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": data::uri(&file)}}),
    );
    let took = start.elapsed();
    assert_eq!(symbols["result"].as_array().map(Vec::len), Some(50_001));
    within(took, cli, "the symbols of 50,000 objects");
    assert!(s.shutdown().is_some_and(|e| e.success()));
    std::fs::remove_dir_all(&root).unwrap();
}
