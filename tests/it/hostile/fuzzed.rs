//! What the fuzz targets found (docs/fuzzing.md), replayed through the binary on the data
//! that shows it: each once panicked the process.

use super::cli;
use super::data;
use std::time::Duration;

/// `check_lst`, 2026-11-28: an old formula naming a variable whose third byte falls inside a
/// character (`ÖÖÖ`), in a load set without a STAT file, panicked on a byte slice where the
/// name was compared with a stat abbreviation.
#[test]
fn a_wide_character_in_an_old_formula_name_is_checked_not_a_panic() {
    let root = data::root("wide_old_name");
    let dir = root.join("data/wide");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("wide.pcc"), data::pcc(&["TEMPLATE:t.lst"])).unwrap();
    std::fs::write(
        dir.join("t.lst"),
        "Odd\tDEFINE:Known|0\tBONUS:VAR|Known|ÖÖÖ+1\n",
    )
    .unwrap();
    let pcc = dir.join("wide.pcc");
    let r = cli::run(
        &["check", pcc.to_str().unwrap(), "--format", "concise"],
        1_000_000,
        Duration::from_secs(30),
    );
    assert_eq!(r.code, Some(1), "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("ÖÖÖ"), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&root);
}
