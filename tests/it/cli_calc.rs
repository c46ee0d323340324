//! `rulebook calc`, `explain` and `graph` on the Starfinder fixture (skipped when absent).

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture() -> Option<PathBuf> {
    let pcc = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/pcgen/data/starfinder/paizo/core/_starfinder_core_rulebook.pcc");
    if pcc.exists() {
        Some(pcc)
    } else {
        eprintln!("skipped: {} is missing", pcc.display());
        None
    }
}

fn character_file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("rulebook-{}-{name}.toml", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

const CHARACTER: &str = r#"grant = ["STAT:STR", "SIZE:L", "MOVEMENT:Walk", "EQUIPMENT:Ceremonial Plate (Troop)", "EQUIPMENT:Club", "EQUIPMENT:Second Skin"]
[[input]]
object = "STAT:STR"
channel = "STATSCORE"
value = "15"

[[equipmod]]
equipment = "EQUIPMENT:Second Skin"
key = "Armor (Infrared sensors)"
"#;

#[test]
fn calc_prints_every_value_as_json() {
    let Some(pcc) = fixture() else { return };
    let file = character_file("calc", CHARACTER);
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args([
            "calc",
            pcc.to_str().unwrap(),
            "--character",
            file.to_str().unwrap(),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let value = |name: &str| {
        json["values"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == name)
            .map(|v| v["value"].as_str().unwrap().to_owned())
    };
    assert_eq!(value("STR").as_deref(), Some("2"));
    assert_eq!(value("Face").as_deref(), Some("10,10"));
    assert_eq!(value("Walk.Speed").as_deref(), Some("-10"));
    assert_eq!(value("Club.PART1.Damage").as_deref(), Some("1d6"));
    assert_eq!(value("Second Skin.UpgradeSlot").as_deref(), Some("1"));
    assert_eq!(value("Second Skin.UpgradeSlotTaken").as_deref(), Some("1"));
    assert_eq!(value("Club.UpgradeSlotTaken").as_deref(), Some("0"));
    // The only problems: the old-system tokens of the granted objects, not applied (S0208).
    let problems = json["problems"].as_array().unwrap();
    assert!(
        problems.iter().all(|p| p["code"] == "S0208"),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p["message"].as_str().unwrap().contains("`EQUIPMENT:Club`")),
        "{problems:?}"
    );
}

/// The project's example (`data/`) copied, with old-system tokens added to the Extra
/// Hands template that the sample character is granted: `calc` computes the same values and
/// says, in one warning at the template's line, which tokens it left out (S0208).
#[test]
fn calc_says_which_old_system_tokens_it_left_out() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("rulebook-calc-old-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    support::copy_dir(&manifest.join("data"), &dir);
    let calc = |dir: &Path| {
        Command::new(env!("CARGO_BIN_EXE_rulebook"))
            .args(["calc", "handsworld/handsworld.pcc"])
            .args(["--character", "sample-character.toml"])
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    };
    let before = calc(&dir);
    assert!(before.status.success());
    assert!(!String::from_utf8_lossy(&before.stderr).contains("S0208"));
    let templates = dir.join("handsworld/hw_templates.lst");
    let text = std::fs::read_to_string(&templates).unwrap();
    let text = text.replacen(
        "Extra Hands\tMODIFY:Hands|ADD|2",
        "Extra Hands\tMODIFY:Hands|ADD|2\tBONUS:VAR|Hands|1\tDEFINE:HandCount|2\tBONUS:VAR|Hands|HandCount",
        1,
    );
    std::fs::write(&templates, text).unwrap();
    let after = calc(&dir);
    let stderr = String::from_utf8_lossy(&after.stderr);
    // A warning: the values are computed as before (the exit code is 0).
    assert!(after.status.success(), "{stderr}");
    assert_eq!(after.stdout, before.stdout);
    assert_eq!(stderr.matches("[S0208]").count(), 1, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
    insta::assert_snapshot!(stderr.replace(dir.to_str().unwrap(), "[TMP]"));
}

#[test]
fn explain_lists_the_modifiers_with_file_and_line() {
    let Some(pcc) = fixture() else { return };
    let file = character_file("explain", CHARACTER);
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args([
            "explain",
            pcc.to_str().unwrap(),
            "--character",
            file.to_str().unwrap(),
            "Face",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("Face = 10,10"), "{text}");
    assert!(text.contains("SET 5,5 PRIORITY=5"), "{text}");
    assert!(
        text.contains("SET 10,10 PRIORITY=100  from L at "),
        "{text}"
    );
    assert!(text.contains("scr__sizes.lst:"), "{text}");
}

#[test]
fn graph_writes_dot_and_unknown_objects_fail() {
    let Some(pcc) = fixture() else { return };
    let file = character_file("graph", CHARACTER);
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args([
            "graph",
            pcc.to_str().unwrap(),
            "--character",
            file.to_str().unwrap(),
            "--var",
            "STR",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let dot = String::from_utf8_lossy(&out.stdout);
    assert!(dot.starts_with("digraph variables {"), "{dot}");
    assert!(dot.contains("STR.Mod = 2") && dot.contains("->"), "{dot}");
    assert!(
        !dot.contains("Walk.Speed"),
        "only STR's neighbourhood: {dot}"
    );

    let bad = character_file("bad", "grant = [\"EQUIPMENT:Longsord\"]\n");
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args([
            "calc",
            pcc.to_str().unwrap(),
            "--character",
            bad.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("S0201"));
}

/// Copies `data/` (the example) into a scratch folder, `extra` appended to its abilities.
fn example_copy(name: &str, extra: &str) -> PathBuf {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap().flatten() {
            let target = to.join(e.file_name());
            if e.path().is_dir() {
                copy(&e.path(), &target);
            } else {
                std::fs::copy(e.path(), target).unwrap();
            }
        }
    }
    let dir = std::env::temp_dir().join(format!("rulebook-calc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data"), &dir);
    let abilities = dir.join("handsworld/hw_abilities.lst");
    let text = std::fs::read_to_string(&abilities).unwrap() + extra;
    std::fs::write(abilities, text).unwrap();
    dir
}

#[test]
fn character_file_keys_get_guesses_and_ability_categories() {
    // A second `Many Arms`, in another category: `ABILITY:Many Arms` is ambiguous.
    let dir = example_copy("categories", "Many Arms\tCATEGORY:Internal\n");
    std::fs::write(
        dir.join("c.toml"),
        r#"grant = [
  "RACE:Humn",
  "FEAT:Improved Critical",
  "ABILITY:Many Arms",
  "ABILITY:Internal|Many Arms",
  "ABILITY:Special|Weapon Training",
  "STAT:STR",
]

[[input]]
object = "STAT:STR"
channel = "StatScore"
value = 15
"#,
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .current_dir(&dir)
        .args(["calc", "handsworld/handsworld.pcc", "--character", "c.toml"])
        .args(["--color", "never"])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    // The unquoted 15 is read as "15"; `ABILITY:Internal|Many Arms` is granted (2 Hands:
    // the Feat's Many Arms would make 6).
    assert!(stdout.contains("STR.StatScore  15"), "{stdout}");
    assert!(stdout.contains("Hands          2"), "{stdout}");
    insta::assert_snapshot!("character_file_guesses", stderr);
}
