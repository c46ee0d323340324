//! `rulebook fmt` through the binary: the layout of the project's own dataset (a snapshot of
//! the diff), `--check` failing then passing once the files are written (idempotence),
//! `--verify` confirming the load set reads the same, line breaks kept, files that are not
//! UTF-8 or that no PCC lists left alone; and, on a copy of a whole Pathfinder dataset from
//! `../shared/pcgen-corpus` (which must be there), formatting twice changes nothing the
//! second time and `--verify` finds the same findings before and after.

use crate::support;
use crate::support::text;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh temporary folder for one test.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulebook-fmt-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `rulebook fmt ARGS` in `dir`.
fn fmt(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .current_dir(dir)
        .arg("fmt")
        .args(args)
        .args(["--color", "never"])
        .output()
        .unwrap()
}

/// A copy of the project's `data/` folder (a PCGen root: `handsworld` and `system`).
fn handsworld(name: &str) -> PathBuf {
    let dir = temp(name);
    support::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data"), &dir);
    dir
}

#[test]
fn handsworld_is_laid_out_verified_and_then_stable() {
    let dir = handsworld("handsworld");
    let check = fmt(&dir, &["--check", "handsworld"]);
    assert_eq!(check.status.code(), Some(1), "{}", text(&check.stderr));
    let stderr = text(&check.stderr);
    assert!(
        stderr.contains("verified: 1 load set read the same"),
        "{stderr}"
    );
    insta::assert_snapshot!("fmt_handsworld_diff", text(&check.stdout));

    let write = fmt(&dir, &["handsworld"]);
    assert_eq!(write.status.code(), Some(0), "{}", text(&write.stderr));
    let again = fmt(&dir, &["--check", "handsworld"]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert_eq!(text(&again.stdout), "");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn crlf_stays_crlf_and_other_files_are_left_alone() {
    let dir = temp("kept");
    // No GAMEMODE: a PCC no load set starts from, so nothing is verified here.
    std::fs::write(
        dir.join("kept.pcc"),
        "CAMPAIGN:Kept\nABILITY:crlf.lst\nABILITY:latin1.lst\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("crlf.lst"),
        "# comment\r\nDodge\tTYPE:General\tCATEGORY:FEAT\r\n\r\nAlert\tCATEGORY:FEAT",
    )
    .unwrap();
    let latin1 = b"Caf\xe9\tTYPE:x\tCATEGORY:FEAT\n".to_vec();
    std::fs::write(dir.join("latin1.lst"), &latin1).unwrap();
    std::fs::write(dir.join("unlisted.lst"), "Dodge\tTYPE:x\tCATEGORY:FEAT\n").unwrap();

    let out = fmt(&dir, &[".", "--verbose"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("latin1.lst: not UTF-8"), "{stderr}");
    assert!(
        stderr.contains("unlisted.lst: no PCC file lists it"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("crlf.lst")).unwrap(),
        "# comment\r\nDodge\t\t\tCATEGORY:FEAT\t\tTYPE:General\r\n\r\nAlert\t\t\tCATEGORY:FEAT"
    );
    assert_eq!(std::fs::read(dir.join("latin1.lst")).unwrap(), latin1);
    assert_eq!(
        std::fs::read_to_string(dir.join("unlisted.lst")).unwrap(),
        "Dodge\tTYPE:x\tCATEGORY:FEAT\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_named_alone_takes_its_kind_from_the_pcc_beside_it() {
    let dir = handsworld("alone");
    let out = fmt(&dir, &["--diff", "handsworld/hw_abilities.lst"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let diff = text(&out.stdout);
    assert!(
        diff.starts_with("--- handsworld/hw_abilities.lst"),
        "{diff}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_whole_dataset_is_idempotent_and_verified() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/pcgen-corpus");
    assert!(
        corpus.is_dir(),
        "{} is missing: this test needs the PCGen corpus",
        corpus.display()
    );
    let dir = temp("corpus");
    support::copy_dir(&corpus.join("system"), &dir.join("system"));
    let dataset = "data/pathfinder/paizo/roleplaying_game/core_rulebook";
    support::copy_dir(&corpus.join(dataset), &dir.join(dataset));

    let check = fmt(&dir, &["--check", dataset]);
    let stderr = text(&check.stderr);
    assert_eq!(check.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("read the same before and after"),
        "{stderr}"
    );
    let write = fmt(&dir, &[dataset]);
    assert_eq!(write.status.code(), Some(0), "{}", text(&write.stderr));
    let again = fmt(&dir, &["--check", "--no-verify", dataset]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}
