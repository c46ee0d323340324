//! `rulebook check` on a folder checks its load sets in parallel and streams their reports:
//! the output (human and JSON) is byte for byte the same with one thread and with several,
//! and a finding in a file that several load sets share is reported once.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `rulebook check <paths> --pcgen-root <root> --format <format>` on `threads` threads;
/// returns (exit code, stdout).
fn check(root: &Path, paths: &[PathBuf], format: &str, threads: usize) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .arg("check")
        .args(paths)
        .arg("--pcgen-root")
        .arg(root)
        .args(["--format", format])
        .env("RAYON_NUM_THREADS", threads.to_string())
        .output()
        .unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

/// An empty PCGen install in a temporary folder named after `name`, with the game mode
/// `GM`, and a writer of its files by path within it.
fn data_folder(name: &str) -> (PathBuf, impl Fn(&str, &str)) {
    let dir = std::env::temp_dir().join(format!("rulebook-check-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let root = dir.clone();
    let write = move |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("system/gameModes/GM/miscinfo.lst", "ALLOWEDMODES:GM\n");
    (dir, write)
}

/// The same output, whatever the thread count.
fn assert_thread_count_does_not_matter(root: &Path, paths: &[PathBuf]) -> (String, String) {
    let human = check(root, paths, "human", 1);
    let json = check(root, paths, "json", 1);
    for threads in [2, 4] {
        assert_eq!(
            human,
            check(root, paths, "human", threads),
            "human, {threads} threads"
        );
        assert_eq!(
            json,
            check(root, paths, "json", threads),
            "json, {threads} threads"
        );
    }
    (human.1, json.1)
}

#[test]
fn the_broken_examples_give_the_same_output_on_one_thread_and_on_four() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let (human, json) = assert_thread_count_does_not_matter(&fixtures, &[fixtures.join("broken")]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let sets = json["summary"]["load_sets"].as_u64().unwrap();
    assert!(sets >= 45, "{sets} load sets");
    let errors = json["summary"]["errors"].as_u64().unwrap();
    assert!(human.contains(&format!("{errors} errors")), "{human}");
}

#[test]
fn the_real_fixture_datasets_give_the_same_output_on_one_thread_and_on_four() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/pcgen");
    assert!(
        root.join("system/gameModes").is_dir(),
        "../shared/pcgen is missing: this test needs the fixture datasets"
    );
    assert_thread_count_does_not_matter(&root, &[root.join("data")]);
}

#[test]
fn a_finding_in_a_shared_file_is_reported_once_after_the_first_load_set() {
    let (dir, write) = data_folder("parallel");
    // Eight load sets list one file with an unknown variable, and one file of their own with
    // another; the shared finding is reported by the first set, each own finding by its set.
    write("data/shared/vars.lst", "GLOBAL:NUMBER=Known\n");
    write("data/shared/common.lst", "Thing\tMODIFY:Nowhere|ADD|1\n");
    for i in 0..8 {
        write(
            &format!("data/s{i}/s{i}.pcc"),
            &format!(
                "CAMPAIGN:S{i}\nGAMEMODE:GM\nVARIABLE:@/shared/vars.lst\n\
                 ABILITY:@/shared/common.lst\nABILITY:own.lst\n"
            ),
        );
        write(
            &format!("data/s{i}/own.lst"),
            &format!("Own{i}\tMODIFY:Missing{i}|ADD|1\n"),
        );
    }
    let (human, json) = assert_thread_count_does_not_matter(&dir, &[dir.join("data")]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        human.matches("Nowhere").count(),
        human.matches("Missing3").count(),
        "{human}"
    );
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let messages: Vec<&str> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    let count = |word: &str| messages.iter().filter(|m| m.contains(word)).count();
    assert_eq!((count("Nowhere"), count("Missing")), (1, 8), "{messages:?}");
    assert_eq!(json["summary"]["load_sets"], 8);
    // Streamed in the order of the load sets: s0's own finding before s7's.
    let at = |s: &str| human.find(s).unwrap();
    assert!(at("Missing0") < at("Missing7"));
}

#[test]
fn a_shared_files_unknown_prerequisite_key_is_suggested_alike_in_every_load_set() {
    let (dir, write) = data_folder("suggest");
    // Two books share a file whose prerequisite names `Dodg`, which no campaign makes;
    // one book has `Dodge`, the other only `Dodger`. The "did you mean" is chosen among
    // the game system's keys, so it is the same whichever load set reports the file (it
    // was the first load set's to ask, which depended on the threads).
    write(
        "data/sys/shared/uses.lst",
        "Mobility\tCATEGORY:FEAT\tPREABILITY:1,CATEGORY=FEAT,Dodg\n",
    );
    for (book, feat) in [("a", "Dodge"), ("b", "Dodger")] {
        write(
            &format!("data/sys/{book}/{book}.pcc"),
            &format!(
                "CAMPAIGN:{book}\nGAMEMODE:GM\nABILITY:feats.lst\nABILITY:@/sys/shared/uses.lst\n"
            ),
        );
        write(
            &format!("data/sys/{book}/feats.lst"),
            &format!("{feat}\tCATEGORY:FEAT\n"),
        );
    }
    let help = |json: &str| -> Vec<String> {
        let json: serde_json::Value = serde_json::from_str(json).unwrap();
        json["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "R0106")
            .map(|d| d["help"].as_str().unwrap().to_owned())
            .collect()
    };
    let (_, json) = assert_thread_count_does_not_matter(&dir, &[dir.join("data")]);
    let b_alone = check(&dir, &[dir.join("data/sys/b/b.pcc")], "json", 2).1;
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(help(&json), ["did you mean `Dodge`?"]);
    assert_eq!(help(&b_alone), ["did you mean `Dodge`?"]);
}
