//! Snapshots of the rendered report (colour off) of every solver (`S01xx`) and character
//! (`S02xx`) error, each built through the public API from a small in-memory dataset (or,
//! for `rulebook calc`, a character file on the example dataset). Problems with a place in
//! the data are asserted at their file, line and column; character-file problems have no
//! source span and render without an excerpt.

use rulebook::character::file::{build, parse};
use rulebook::character::{Character, InstanceId};
use rulebook::diagnostic::{Diagnostic, Severity, render, to_json};
use rulebook::load::{MemoryFs, PcgenRoot};
use rulebook::model::check::{CheckedSet, check_load_set};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// Every format's default, for the datasets that are not about a missing one.
const DEFAULTS: &str = "DEFAULTVARIABLEVALUE:NUMBER|0\nDEFAULTVARIABLEVALUE:ORDEREDPAIR|0,0\nDEFAULTVARIABLEVALUE:BOOLEAN|false\nDEFAULTVARIABLEVALUE:STRING|\nDEFAULTVARIABLEVALUE:DICE|0\n";

/// A load of `data/t/t.pcc` with these DATACONTROL, VARIABLE, FEAT and EQUIPMENT files.
fn load(defaults: &str, vars: &str, feats: &str, equip: &str) -> CheckedSet {
    let fs = MemoryFs::new()
        .with("/pc/system/gameModes/Test/miscinfo.lst", "ALLOWEDMODES:Test\n")
        .with(
            "/pc/data/t/t.pcc",
            "CAMPAIGN:Test\nGAMEMODE:Test\nDATACONTROL:ctl.lst\nVARIABLE:vars.lst\nEQUIPMENT:equip.lst\nFEAT:feats.lst\n",
        )
        .with("/pc/data/t/ctl.lst", defaults)
        .with("/pc/data/t/vars.lst", vars)
        .with("/pc/data/t/feats.lst", feats)
        .with("/pc/data/t/equip.lst", equip);
    let root = PcgenRoot::at(&fs, Path::new("/pc"));
    check_load_set(&fs, &root, &[PathBuf::from("/pc/data/t/t.pcc")])
}

/// The load's errors as `CODE file:line:column`.
fn load_errors(set: &CheckedSet) -> Vec<String> {
    set.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| place(d, set))
        .collect()
}

/// `CODE file:line:column` of a diagnostic (file empty and 0:0 when it has no span).
fn place(d: &Diagnostic, set: &CheckedSet) -> String {
    let j = to_json(d, &set.load.sources);
    format!("{} {}:{}:{}", j.code, j.file, j.line, j.column)
}

fn character(set: &CheckedSet) -> Character {
    Character::new(Arc::new(set.dataset.clone()))
}

#[test]
fn s0102_settled_cycle() {
    let set = load(
        DEFAULTS,
        "GLOBAL:NUMBER=A\nGLOBAL:NUMBER=B\n",
        "Loop\tKEY:Loop\tMODIFY:A|SET|B\tMODIFY:B|SET|A\n",
        "",
    );
    assert!(load_errors(&set).is_empty(), "{:?}", load_errors(&set));
    let mut c = character(&set);
    c.grant_key("FEAT", "Loop").unwrap();
    let problems = c.take_problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].severity, Severity::Warning);
    assert_eq!(place(&problems[0], &set), "S0102 data/t/feats.lst:1:22");
    assert_eq!(
        problems[0].labels.len(),
        1,
        "both closing modifiers are labelled"
    );
    assert_eq!(c.get_global("A").unwrap().to_string(), "0");
    insta::assert_snapshot!(render(&problems, &set.load.sources, false));
}

#[test]
fn s0103_modifier_failed() {
    let set = load(
        DEFAULTS,
        "GLOBAL:NUMBER=Speed\n",
        "Slow\tKEY:Slow\tMODIFY:Speed|SET|30\tMODIFY:Speed|DIVIDE|0\n",
        "",
    );
    assert!(load_errors(&set).is_empty(), "{:?}", load_errors(&set));
    let mut c = character(&set);
    c.grant_key("FEAT", "Slow").unwrap();
    let problems = c.take_problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(place(&problems[0], &set), "S0103 data/t/feats.lst:1:42");
    // The failed modifier is skipped; the running value passes through.
    assert_eq!(c.get_global("Speed").unwrap().to_string(), "30");
    insta::assert_snapshot!(render(&problems, &set.load.sources, false));
}

/// A dataset with an equipment, a NUMBER channel and a BOOLEAN variable.
fn equipment_set() -> CheckedSet {
    let set = load(
        DEFAULTS,
        "CHANNEL:PC.EQUIPMENT|NUMBER=Grip\nLOCAL:PC.EQUIPMENT|NUMBER=Hold\n",
        "",
        "Club\tKEY:Club\tMODIFY:Hold|SET|input(\"Grip\")\n",
    );
    assert!(load_errors(&set).is_empty(), "{:?}", load_errors(&set));
    set
}

/// What `build` reports for a character file on `set`, rendered.
fn file_problems(set: &CheckedSet, toml: &str) -> (Vec<Diagnostic>, String) {
    let (mut c, mut problems) = build(Arc::new(set.dataset.clone()), &parse(toml).unwrap());
    problems.extend(c.take_problems());
    let rendered = render(&problems, &set.load.sources, false);
    (problems, rendered)
}

#[test]
fn s0201_unknown_object() {
    let set = equipment_set();
    let mut c = character(&set);
    let api = *c.grant_key("EQUIPMENT", "Clubb").unwrap_err();
    let (problems, file) = file_problems(
        &set,
        r#"grant = ["EQUIPMENT:Longsord", "Club"]
remove = ["EQUIPMENT:Axe"]
[[input]]
object = "EQUIPMENT:Mace"
channel = "Grip"
value = "1"
[[equipmod]]
equipment = "EQUIPMENT:Mace"
key = "Spiked"
[[equipmod]]
equipment = "EQUIPMENT:Club"
key = "Spiked"
"#,
    );
    let mut all = vec![api];
    all.extend(problems);
    assert!(all.iter().all(|d| d.code.id == "S0201"), "{all:?}");
    assert_eq!(all.len(), 7, "{all:?}");
    // No span: the JSON form has no file and line 0.
    assert!(all.iter().all(|d| place(d, &set) == "S0201 :0:0"));
    let rendered = format!(
        "{}-- character file --\n{file}",
        render(&all[..1], &set.load.sources, false)
    );
    insta::assert_snapshot!(rendered);
}

#[test]
fn s0202_unknown_character_variable() {
    let set = equipment_set();
    let mut c = character(&set);
    let club = c.grant_key("EQUIPMENT", "Club").unwrap();
    let api = *c.set_input(club, "Grp", "1").unwrap_err();
    let global = *c.set_input(InstanceId::GLOBAL, "Grip", "1").unwrap_err();
    for d in [&api, &global] {
        assert_eq!(place(d, &set), "S0202 :0:0");
    }
    let (problems, file) = file_problems(
        &set,
        "grant = [\"EQUIPMENT:Club\"]\n[[input]]\nobject = \"EQUIPMENT:Club\"\nchannel = \"GRP\"\nvalue = \"1\"\n",
    );
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].code.id, "S0202");
    let rendered = format!(
        "{}-- character file --\n{file}",
        render(&[api, global], &set.load.sources, false)
    );
    insta::assert_snapshot!(rendered);
}

#[test]
fn s0203_modifier_unusable() {
    // The MODIFYOTHER's formula names a variable equipment cannot see: the load reports it
    // (F0101, checked in the addressed scope), and each equipment the feat reaches on a
    // character leaves the modifier out with S0203.
    let set = load(
        DEFAULTS,
        "LOCAL:PC.EQUIPMENT|NUMBER=Bulk\nLOCAL:PC.SKILL|NUMBER=SkillRank\n",
        "Skilled\tKEY:Skilled\tMODIFYOTHER:PC.EQUIPMENT|ALL|Bulk|ADD|SkillRank\n",
        "Club\tKEY:Club\tMODIFY:Bulk|SET|2\n",
    );
    assert_eq!(
        load_errors(&set),
        vec!["F0101 data/t/feats.lst:1:59".to_owned()]
    );
    let mut c = character(&set);
    let club = c.grant_key("EQUIPMENT", "Club").unwrap();
    c.grant_key("FEAT", "Skilled").unwrap();
    let problems = c.take_problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(place(&problems[0], &set), "S0203 data/t/feats.lst:1:50");
    assert_eq!(problems[0].labels.len(), 1);
    assert!(problems[0].notes[0].starts_with("F0101"), "{problems:?}");
    assert_eq!(c.get(club, "Bulk").unwrap().to_string(), "2");
    insta::assert_snapshot!(render(&problems, &set.load.sources, false));
}

#[test]
fn s0204_no_default_value() {
    // No BOOLEAN default: the variable has no starting value (reported once, not once per
    // modifier), and a formula reading the BOOLEAN channel cannot be used either.
    let set = load(
        "DEFAULTVARIABLEVALUE:NUMBER|0\nDEFAULTVARIABLEVALUE:ORDEREDPAIR|0,0\n",
        "LOCAL:PC.EQUIPMENT|BOOLEAN=Tilt\nCHANNEL:PC.EQUIPMENT|BOOLEAN=Grip\nLOCAL:PC.EQUIPMENT|NUMBER=Hold\n",
        "",
        "Club\tKEY:Club\tMODIFY:Tilt|SET|true\tMODIFY:Tilt|SET|false\tMODIFY:Hold|SET|if(input(\"Grip\"),1,0)\n",
    );
    let load = load_errors(&set);
    assert!(load.iter().all(|e| e.starts_with("M0106")), "{load:?}");
    let mut c = character(&set);
    c.grant_key("EQUIPMENT", "Club").unwrap();
    let problems = c.take_problems();
    let places: Vec<String> = problems.iter().map(|d| place(d, &set)).collect();
    assert_eq!(
        places,
        vec![
            "S0204 data/t/vars.lst:1:28",
            "S0204 data/t/vars.lst:2:30",
            "S0203 data/t/equip.lst:1:65",
        ]
    );
    assert!(problems[2].notes[0].starts_with("S0202"), "{problems:?}");
    insta::assert_snapshot!(render(&problems, &set.load.sources, false));
}

#[test]
fn s0205_bad_input() {
    let set = equipment_set();
    let mut c = character(&set);
    let club = c.grant_key("EQUIPMENT", "Club").unwrap();
    let api = *c.set_input(club, "Grip", "fifteen").unwrap_err();
    assert_eq!(place(&api, &set), "S0205 :0:0");
    let (problems, file) = file_problems(
        &set,
        "grant = [\"EQUIPMENT:Club\"]\n[[input]]\nobject = \"EQUIPMENT:Club\"\nchannel = \"Grip\"\nvalue = \"1d6\"\n",
    );
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].code.id, "S0205");
    let rendered = format!(
        "{}-- character file --\n{file}",
        render(&[api], &set.load.sources, false)
    );
    insta::assert_snapshot!(rendered);
}

/// What `rulebook calc` prints on stderr for a character file with problems (the example
/// dataset; exit code 1).
#[test]
fn calc_reports_character_file_problems() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let toml = std::env::temp_dir().join(format!("rulebook-{}-snap.toml", std::process::id()));
    std::fs::write(
        &toml,
        "grant = [\"STAT:STR\", \"EQUIPMENT:Longsord\"]\n[[input]]\nobject = \"STAT:STR\"\nchannel = \"StatScor\"\nvalue = \"15\"\n[[input]]\nobject = \"STAT:STR\"\nchannel = \"StatScore\"\nvalue = \"fifteen\"\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args(["calc", "--pcgen-root"])
        .arg(&data)
        .arg(data.join("handsworld/handsworld.pcc"))
        .arg("--character")
        .arg(&toml)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&toml);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for code in ["S0201", "S0202", "S0205"] {
        assert!(stderr.contains(code), "{stderr}");
    }
    insta::assert_snapshot!(stderr);
}
