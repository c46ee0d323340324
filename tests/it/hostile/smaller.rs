//! Item 10: `round` at 28 digits, a folder that cannot be walked, dice with no sides.

use super::cli;
use super::data;
use std::time::Duration;

fn run(args: &[&str]) -> cli::Run {
    cli::run(args, 1_000_000, Duration::from_secs(30))
}

#[test]
fn round_keeps_the_last_of_28_digits() {
    for n in [
        "9999999999999999999999999999",
        "-9999999999999999999999999999",
    ] {
        let r = run(&["eval", &format!("round({n})")]);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        assert_eq!(r.stdout.trim(), n);
    }
}

#[test]
fn dice_without_sides_are_not_dice() {
    for bad in ["5d-6", "0d0", "1d0"] {
        let r = run(&["eval", bad, "--as", "DICE"]);
        assert_eq!(r.code, Some(1), "{bad}: {}", r.stdout);
    }
    let r = run(&["eval", "0d6", "--as", "DICE"]);
    assert_eq!((r.code, r.stdout.trim()), (Some(0), "0d6"));
}

fn deep_name(i: usize) -> String {
    format!("{i:02}{}", "d".repeat(248))
}

/// Takes [`too_deep`]'s folder apart by the same renames in reverse (its full path is too
/// long to remove), then removes `dir`.
fn remove_too_deep(dir: &std::path::Path) {
    let mut at = dir.join("data/deep");
    for i in 1..20 {
        let next = dir.join(format!("x{i}"));
        std::fs::rename(at.join(deep_name(i)), &next).unwrap();
        at = next;
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// A folder below `dir` whose path is longer than the system allows (`ENAMETOOLONG`): nobody
/// can walk it, root included. Built bottom-up by renames of short paths.
fn too_deep(dir: &std::path::Path) {
    let name = deep_name;
    let scratch = dir.join("scratch");
    std::fs::create_dir_all(scratch.join(name(19))).unwrap();
    std::fs::write(
        scratch.join(name(19)).join("deep.pcc"),
        "CAMPAIGN:Deep\nGAMEMODE:Handsworld\n",
    )
    .unwrap();
    for i in (0..19).rev() {
        std::fs::create_dir(scratch.join(name(i))).unwrap();
        std::fs::rename(
            scratch.join(name(i + 1)),
            scratch.join(name(i)).join(name(i + 1)),
        )
        .unwrap();
    }
    std::fs::rename(scratch.join(name(0)), dir.join("data/deep")).unwrap();
    std::fs::remove_dir(&scratch).unwrap();
}

#[test]
fn a_folder_that_cannot_be_walked_is_reported_and_the_rest_checked() {
    let root = data::handsworld("unwalkable");
    data::add_file(&root, "EQUIPMENT", "typo.lst", "Thing\tMODIFY:Nope|SET|1\n");
    too_deep(&root);
    let r = run(&[
        "check",
        root.join("data").to_str().unwrap(),
        "--format",
        "concise",
    ]);
    assert!(r.stderr.contains("cannot walk"), "{}", r.stderr);
    assert!(
        r.stdout.contains("typo.lst:1:"),
        "the rest is checked: {}{}",
        r.stdout,
        r.stderr
    );
    assert_eq!(r.code, Some(2), "an I/O failure all the same");
    remove_too_deep(&root);
}
