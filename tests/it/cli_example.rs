//! `rulebook` with no arguments checks `data/` and computes the sample character
//! (`data/sample-character.toml`) against the example dataset, printing its values.

use std::process::Command;

/// The `name  value` rows of the values table (after the `sample character` heading).
fn values(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("sample character"))
        .skip(1)
        .filter_map(|l| {
            let (name, value) = l.split_once("  ")?;
            Some((name.trim().to_owned(), value.trim().to_owned()))
        })
        .collect()
}

#[test]
fn no_arguments_computes_the_sample_character() {
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("0 errors"), "{stdout}");
    let values = values(&stdout);
    let value = |name: &str| {
        values
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no `{name}` in\n{stdout}"))
    };
    // The spec's PRIORITY example (Many Arms): SET 2 @50, ADD 1 @50, MULTIPLY 2 @100.
    assert_eq!(value("Hands"), "6");
    // Improved Critical raises CritMultAdder of every weapon; part 1 pulls it in: 2 + 1.
    assert_eq!(value("Bastard Sword.CritMultAdder"), "1");
    assert_eq!(value("Bastard Sword.PART1.CritMult"), "3");
    assert_eq!(value("Longsword.PART1.CritMult"), "3");
    assert_eq!(value("Bastard Sword.PART1.Damage"), "1d10");
    // HandsRequired: SET 1 (global MODIFYOTHER), ADD -1 (Weapon Training), ADD -1 (Lighter
    // Than Normal on part 1), then SET 2 at PRIORITY=1.
    assert_eq!(value("Bastard Sword.HandsRequired"), "2");
    assert_eq!(value("Longsword.HandsRequired"), "0");
    assert_eq!(value("Bastard Sword.Penalized"), "false");
    // lookup("Encumbrance",StrMod*2+10,"Light") with STR 14: StrMod 2, row 14.
    assert_eq!(value("StrMod"), "2");
    assert_eq!(value("LightLoad"), "58");
    // getFact("EQUIPMENT",…,"Forged"): the Bastard Sword has FACT:Forged|true.
    assert_eq!(value("ForgedWeapons"), "1");
    // The race grants Walk and sets its Speed; the equipment modifier has no row of its own.
    assert_eq!(value("Walk.Speed"), "30");
    assert_eq!(values.iter().filter(|(n, _)| n == "Walk.Speed").count(), 1);
    assert!(
        !values
            .iter()
            .any(|(n, _)| n.starts_with("Lighter Than Normal"))
    );
    assert!(!stderr.contains("error"), "{stderr}");
}

#[test]
fn no_arguments_away_from_the_example_prints_the_help() {
    let dir = std::env::temp_dir().join(format!("rulebook-bare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .current_dir(&dir)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir(&dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("Usage: rulebook"), "{stderr}");
    assert!(stderr.contains("no example dataset"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn explain_of_a_mistyped_variable_suggests_names() {
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "explain",
            "data/handsworld/handsworld.pcc",
            "--character",
            "data/sample-character.toml",
            "STRR",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("did you mean `STR.Mod`, `STR.Score` or `STR.StatScore`?"),
        "{stderr}"
    );
}
