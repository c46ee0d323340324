//! `rulebook check --fix` through the binary, on a copy of the project's dataset with one
//! finding of each fix kind added: a deprecated `PREFEAT` (a safe fix: `PREABILITY` of
//! category FEAT), a deprecated `CHOOSE:NUMBER` (a safe fix: `TEMPVALUE`), CLASS tokens on a
//! level-1 line (a safe fix: moved to the CLASS line) and a misspelt token name (an unsafe
//! "did you mean" fix). A snapshot of the diff of each
//! kind; `--fix` applies the safe ones only, `--unsafe-fixes` the other too; the re-check
//! after writing reports the same findings less the fixed ones. A copy with a misspelt name
//! of each kind a "did you mean" covers shows each replaced exactly, and what every output
//! format says of a finding's fix.

use crate::support;
use crate::support::text;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A copy of `data/` with the two findings added to `hw_abilities.lst`.
fn dataset(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulebook-fix-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    support::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data"), &dir);
    let file = dir.join("handsworld/hw_abilities.lst");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("Old Style\tCATEGORY:Feat\tPREFEAT:1,Fleet\n");
    text.push_str("Misspelt\tCATEGORY:Feat\tVISIBEL:YES\n");
    std::fs::write(&file, text).unwrap();
    dir
}

/// Runs `rulebook check handsworld --format concise ARGS` in `dir`.
fn check(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .current_dir(dir)
        .args([
            "check",
            "handsworld",
            "--format",
            "concise",
            "--color",
            "never",
        ])
        .args(args)
        .output()
        .unwrap()
}

/// The findings of a concise report whose code is one of `codes`.
fn findings(out: &Output, codes: &[&str]) -> Vec<String> {
    text(&out.stdout)
        .lines()
        .filter(|l| codes.iter().any(|c| l.contains(&format!("[{c}]"))))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_safe_fix_rewrites_prefeat_and_the_recheck_finds_nothing_new() {
    let dir = dataset("safe");
    let before = check(&dir, &[]);
    assert_eq!(
        findings(&before, &["T0113"]).len(),
        1,
        "{}",
        text(&before.stdout)
    );
    assert_eq!(
        findings(&before, &["T0110"]).len(),
        1,
        "{}",
        text(&before.stdout)
    );

    let preview = check(&dir, &["--fix", "--diff"]);
    assert_eq!(preview.status.code(), Some(0), "{}", text(&preview.stderr));
    insta::assert_snapshot!("fix_safe_prefeat_diff", text(&preview.stdout));
    let stderr = text(&preview.stderr);
    assert!(stderr.contains("would apply 1 fix in 1 file"), "{stderr}");
    assert!(stderr.contains("1 unsafe fix left"), "{stderr}");

    let fixed = check(&dir, &["--fix"]);
    assert_eq!(findings(&fixed, &["T0113"]), Vec::<String>::new());
    assert_eq!(findings(&fixed, &["T0110"]).len(), 1);
    // The re-check reports the same findings as before, less the one fixed.
    let mut expected: Vec<String> = text(&before.stdout)
        .lines()
        .filter(|l| !l.contains("[T0113]"))
        .map(str::to_owned)
        .collect();
    let mut after: Vec<String> = text(&fixed.stdout).lines().map(str::to_owned).collect();
    expected.sort();
    after.sort();
    assert_eq!(after, expected);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unsafe_fixes_apply_the_did_you_mean_too() {
    let dir = dataset("unsafe");
    let preview = check(&dir, &["--fix", "--unsafe-fixes", "--diff"]);
    assert_eq!(preview.status.code(), Some(0), "{}", text(&preview.stderr));
    insta::assert_snapshot!("fix_unsafe_did_you_mean_diff", text(&preview.stdout));
    let fixed = check(&dir, &["--fix", "--unsafe-fixes"]);
    assert_eq!(findings(&fixed, &["T0110", "T0113"]), Vec::<String>::new());
    let file = std::fs::read_to_string(dir.join("handsworld/hw_abilities.lst")).unwrap();
    assert!(
        file.contains("Misspelt\tCATEGORY:Feat\tVISIBLE:YES\n"),
        "{file}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn class_tokens_on_a_level_one_line_move_to_the_class_line() {
    let dir = dataset("class");
    let pcc = dir.join("handsworld/handsworld.pcc");
    let mut listing = std::fs::read_to_string(&pcc).unwrap();
    listing.push_str("CLASS:hw_classes.lst\n");
    std::fs::write(&pcc, listing).unwrap();
    std::fs::write(
        dir.join("handsworld/hw_classes.lst"),
        "CLASS:Wizard\tHD:4\tTYPE:Base\n\
         1\tPROHIBITSPELL:SCHOOL.Evocation\tSPELLLIST:1|Wizard\tBONUS:VAR|x|1\n\
         2\tBONUS:VAR|x|1\n",
    )
    .unwrap();
    let before = check(&dir, &[]);
    let moved = findings(&before, &["T0113"])
        .iter()
        .filter(|l| l.contains("hw_classes.lst"))
        .count();
    assert_eq!(moved, 2, "{}", text(&before.stdout));
    let preview = check(&dir, &["--fix", "--diff"]);
    insta::assert_snapshot!("fix_safe_class_token_move_diff", text(&preview.stdout));
    let fixed = check(&dir, &["--fix"]);
    let left: Vec<String> = findings(&fixed, &["T0113"])
        .into_iter()
        .filter(|l| l.contains("hw_classes.lst"))
        .collect();
    assert_eq!(left, Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn choose_number_becomes_tempvalue() {
    let dir = dataset("choose");
    let file = dir.join("handsworld/hw_abilities.lst");
    let mut lst = std::fs::read_to_string(&file).unwrap();
    lst.push_str("Chooser\tCATEGORY:Feat\tCHOOSE:NUMBER|MIN=1|MAX=5|TITLE=Pick\n");
    std::fs::write(&file, lst).unwrap();
    let before = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .current_dir(&dir)
        .args(["check", "handsworld", "--format", "json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&before.stdout).unwrap();
    let choose = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["message"] == "`CHOOSE:NUMBER` is deprecated")
        .cloned()
        .unwrap_or_default();
    // The JSON report carries the fix itself: a safe one, its edit replacing the token.
    assert_eq!(choose["fix"]["safety"], "safe", "{choose:#}");
    assert_eq!(
        choose["fix"]["edits"][0]["text"], "TEMPVALUE:MIN=1|MAX=5|TITLE=Pick",
        "{choose:#}"
    );
    let preview = check(&dir, &["--fix", "--diff"]);
    insta::assert_snapshot!("fix_safe_choose_number_diff", text(&preview.stdout));
    let fixed = check(&dir, &["--fix"]);
    let left: Vec<String> = findings(&fixed, &["T0113"]);
    assert_eq!(left, Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A copy of `data/` with a misspelt name of each kind a "did you mean" covers: a token, a
/// variable in a formula, a MODIFY's variable, a MODIFYOTHER's object key, an old-formula
/// variable, a BONUS sub-token, a nested prerequisite (negated), a prerequisite's key and a
/// `.MOD`'s object key; and the deprecated `PREFEAT` of [`dataset`] (a safe fix).
fn typos(name: &str) -> PathBuf {
    let dir = dataset(name);
    let abilities = dir.join("handsworld/hw_abilities.lst");
    let mut text = std::fs::read_to_string(&abilities).unwrap();
    text.push_str(
        "Definer\tCATEGORY:Feat\tDEFINE:PowerLevel|0\n\
         Typo Formula\tCATEGORY:Feat\tMODIFY:Hands|ADD|Lukc+1\n\
         Typo Target\tCATEGORY:Feat\tMODIFY:Hnads|ADD|1\n\
         Typo Key\tCATEGORY:Feat\tMODIFYOTHER:PC.EQUIPMENT|Bastard Swrd|HandsRequired|ADD|-1\n\
         Typo Old\tCATEGORY:Feat\tBONUS:VAR|PowerLevel|PowerLevle+1\n\
         Typo Sub\tCATEGORY:Feat\tBONUS:COMBT|AC|1\n\
         Typo Pre\tCATEGORY:Feat\tBONUS:VAR|PowerLevel|1|!PREVRAGT:PowerLevel,1\n\
         Typo Prereq\tCATEGORY:Feat\tPREABILITY:1,CATEGORY=FEAT,Flet\n",
    );
    std::fs::write(&abilities, text).unwrap();
    let equipment = dir.join("handsworld/hw_equip.lst");
    let mut text = std::fs::read_to_string(&equipment).unwrap();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str("Bastard Swrod.MOD\tTYPE:Extra\n");
    std::fs::write(&equipment, text).unwrap();
    dir
}

/// The codes of the misspelt names of [`typos`].
const TYPO_CODES: [&str; 9] = [
    "T0110", "F0101", "M0107", "M0115", "J0120", "T0112", "R0106", "R0101", "T0113",
];

#[test]
fn unsafe_fixes_replace_each_kind_of_misspelt_name() {
    let dir = typos("typos");
    let before = check(&dir, &[]);
    // One finding of each code, two of T0110 (the misspelt token and the nested
    // prerequisite).
    let found = findings(&before, &TYPO_CODES);
    assert_eq!(found.len(), 10, "{}", text(&before.stdout));
    let preview = check(&dir, &["--fix", "--unsafe-fixes", "--diff"]);
    assert_eq!(preview.status.code(), Some(0), "{}", text(&preview.stderr));
    insta::assert_snapshot!("fix_unsafe_every_kind_of_typo_diff", text(&preview.stdout));
    let stderr = text(&preview.stderr);
    assert!(
        stderr.contains("would apply 10 fixes in 2 files"),
        "{stderr}"
    );
    let fixed = check(&dir, &["--fix", "--unsafe-fixes"]);
    assert_eq!(
        findings(&fixed, &TYPO_CODES),
        Vec::<String>::new(),
        "{}",
        text(&fixed.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_format_says_whether_a_finding_has_a_fix() {
    let dir = typos("formats");
    // concise: `[*]` before a safe fix's message, `[?]` before an unsafe one's; the
    // summary (on stderr) counts them.
    let concise = check(&dir, &[]);
    insta::assert_snapshot!("fix_marks_in_concise", text(&concise.stdout));
    let stderr = text(&concise.stderr);
    assert!(
        stderr.contains(
            "fixable: 1 finding with `rulebook check --fix`, 9 more with \
             `rulebook check --fix --unsafe-fixes`"
        ),
        "{stderr}"
    );
    let run = |format: &str| {
        Command::new(env!("CARGO_BIN_EXE_rulebook"))
            .current_dir(&dir)
            .args([
                "check",
                "handsworld",
                "--format",
                format,
                "--color",
                "never",
            ])
            .output()
            .unwrap()
    };
    // github: the same marks, and the note saying what makes the fix.
    let github = text(&run("github").stdout);
    let annotation = github
        .lines()
        .find(|l| l.contains("title=T0113"))
        .unwrap_or_default();
    assert!(
        annotation.contains("::[*] `PREFEAT` is deprecated"),
        "{github}"
    );
    assert!(
        annotation.contains("note: `rulebook check --fix` makes this change"),
        "{github}"
    );
    assert!(github.contains("::[?] unknown token `VISIBEL`"), "{github}");
    // human: a note on each finding with a fix.
    let human = text(&run("human").stdout);
    assert_eq!(
        human
            .matches("`rulebook check --fix --unsafe-fixes` makes this change")
            .count(),
        9,
        "{human}"
    );
    assert_eq!(
        human
            .matches("`rulebook check --fix` makes this change")
            .count(),
        1,
        "{human}"
    );
    // JSON: the fix itself, or null.
    let json: serde_json::Value = serde_json::from_slice(&run("json").stdout).unwrap();
    let diagnostics = json["diagnostics"].as_array().unwrap();
    let with = |safety: &str| {
        diagnostics
            .iter()
            .filter(|d| d["fix"]["safety"] == safety)
            .count()
    };
    assert_eq!((with("safe"), with("unsafe")), (1, 9));
    assert!(diagnostics.iter().all(|d| d.get("fix").is_some()));
    let token = diagnostics
        .iter()
        .find(|d| d["code"] == "T0112")
        .unwrap_or(&serde_json::Value::Null);
    assert_eq!(
        token["fix"]["edits"],
        serde_json::json!([{
            "line": 18, "column": 30, "end_line": 18, "end_column": 35, "text": "COMBAT"
        }]),
        "{token:#}"
    );
    // SARIF: the fixes as replacements.
    let sarif: serde_json::Value = serde_json::from_slice(&run("sarif").stdout).unwrap();
    let fixes = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r.get("fixes").is_some())
        .count();
    assert_eq!(fixes, 10);
    let _ = std::fs::remove_dir_all(&dir);
}
