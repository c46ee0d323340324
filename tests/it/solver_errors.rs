//! Snapshots of the rendered report (colour off) of every solver (`S01xx`) and character
//! (`S02xx`) error, each built through the public API from a small in-memory dataset (or,
//! for `rulebook calc`, a character file on the example dataset). Problems with a place in
//! the data are asserted at their file, line and column; character-file problems have no
//! source span and render without an excerpt.

use rulebook::character::file::{build, build_located, parse, parse_located};
use rulebook::character::{Character, InstanceId};
use rulebook::check::{CheckedSet, check_load_set};
use rulebook::diagnostic::{Diagnostic, Severity, render, to_json};
use rulebook::load::{MemoryFs, PcgenRoot};
use rulebook::source::{SourceFile, SourceMap, TextEncoding};
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
    let problems = c.problems();
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
    let problems = c.problems();
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

/// What `build_located` reports for a character file `character.toml` on `set`: the
/// problems, their rendering, and the sources holding the file (for [`place_in`]).
fn file_problems(set: &CheckedSet, toml: &str) -> (Vec<Diagnostic>, String, SourceMap) {
    let mut sources = set.load.sources.clone();
    let id = sources.add(SourceFile::new("character.toml", toml, TextEncoding::Utf8));
    let located = parse_located(toml, id).unwrap();
    assert_eq!(located.file(), parse(toml).unwrap());
    let (c, mut problems) = build_located(
        Arc::new(set.dataset.clone()),
        &located,
        id,
        &set.load.sources,
    );
    problems.extend(c.problems());
    let rendered = render(&problems, &sources, false);
    (problems, rendered, sources)
}

/// `CODE file:line:column` of a diagnostic in `sources`.
fn place_in(d: &Diagnostic, sources: &SourceMap) -> String {
    let j = to_json(d, sources);
    format!("{} {}:{}:{}", j.code, j.file, j.line, j.column)
}

#[test]
fn s0201_unknown_object() {
    let set = equipment_set();
    let mut c = character(&set);
    let api = *c.grant_key("EQUIPMENT", "Clubb").unwrap_err();
    // An API call has no text to point into.
    assert_eq!(place(&api, &set), "S0201 :0:0");
    let (problems, file, sources) = file_problems(
        &set,
        r#"grant = ["EQUIPMENT:Longsord", "Club", "EQUIPMENT:Club"]
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
    assert!(
        problems.iter().all(|d| d.code.id == "S0201"),
        "{problems:?}"
    );
    // Each problem is at its entry: the string in `grant` / `remove`, the `equipment` or
    // `key` of an `[[equipmod]]`, the `object` of an `[[input]]`.
    let places: Vec<String> = problems.iter().map(|d| place_in(d, &sources)).collect();
    assert_eq!(
        places,
        vec![
            "S0201 character.toml:1:10",
            "S0201 character.toml:1:32",
            "S0201 character.toml:8:13",
            "S0201 character.toml:12:7",
            "S0201 character.toml:2:11",
            "S0201 character.toml:4:10",
        ]
    );
    let rendered = format!(
        "{}-- character file --\n{file}",
        render(&[api], &set.load.sources, false)
    );
    insta::assert_snapshot!(rendered);
}

/// A character file built in code (`build`, not read from text) has no places: its
/// problems are detached, as those of API calls.
#[test]
fn character_file_built_in_code_has_detached_problems() {
    let set = equipment_set();
    let file = parse("grant = [\"EQUIPMENT:Longsord\"]\n").unwrap();
    let (_, problems) = build(Arc::new(set.dataset.clone()), &file);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(place(&problems[0], &set), "S0201 :0:0");
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
    let (problems, file, sources) = file_problems(
        &set,
        "grant = [\"EQUIPMENT:Club\"]\n[[input]]\nobject = \"EQUIPMENT:Club\"\nchannel = \"GRP\"\nvalue = \"1\"\n[[input]]\nchannel = \"Grip\"\nvalue = \"1\"\n",
    );
    // The unknown channel is labelled, whether of a granted object or global.
    let places: Vec<String> = problems.iter().map(|d| place_in(d, &sources)).collect();
    assert_eq!(
        places,
        vec!["S0202 character.toml:4:11", "S0202 character.toml:7:11"]
    );
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
    let problems = c.problems();
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
    let problems = c.problems();
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
    let (problems, file, sources) = file_problems(
        &set,
        "grant = [\"EQUIPMENT:Club\"]\n[[input]]\nobject = \"EQUIPMENT:Club\"\nchannel = \"Grip\"\nvalue = \"1d6\"\n",
    );
    assert_eq!(problems.len(), 1, "{problems:?}");
    // The bad value is labelled, not its channel.
    assert_eq!(place_in(&problems[0], &sources), "S0205 character.toml:5:9");
    let rendered = format!(
        "{}-- character file --\n{file}",
        render(&[api], &set.load.sources, false)
    );
    insta::assert_snapshot!(rendered);
}

/// A character file that is not TOML, or not the shape of a character file, is reported at
/// the place TOML names: a syntax error, an unknown key, a value of the wrong type, a
/// missing key.
#[test]
fn s0206_bad_character_file() {
    let mut sources = SourceMap::new();
    let mut rendered = String::new();
    let mut places = Vec::new();
    for (name, text) in [
        ("syntax.toml", "grant = [\"STAT:STR\"\n"),
        (
            "unknown-key.toml",
            "grant = [\"STAT:STR\"]\ngrnat = [\"SIZE:M\"]\n",
        ),
        (
            "wrong-type.toml",
            "[[input]]\nobject = \"STAT:STR\"\nchannel = \"StatScore\"\nvalue = 1.5\n",
        ),
        (
            "missing-key.toml",
            "grant = []\n[[input]]\nvalue = \"15\"\n",
        ),
    ] {
        let id = sources.add(SourceFile::new(name, text, TextEncoding::Utf8));
        let problem = *parse_located(text, id).unwrap_err();
        assert!(parse(text).is_err());
        places.push(place_in(&problem, &sources));
        rendered.push_str(&render(std::slice::from_ref(&problem), &sources, false));
    }
    assert_eq!(
        places,
        vec![
            "S0206 syntax.toml:1:20",
            "S0206 unknown-key.toml:2:1",
            "S0206 wrong-type.toml:4:9",
            "S0206 missing-key.toml:2:1",
        ]
    );
    insta::assert_snapshot!(rendered);
}

/// Runs `rulebook calc` on the example dataset with `toml` as `character.toml` (given as a
/// relative path, so reports name it so), with `args` after; its output.
fn calc(toml: impl AsRef<[u8]>, args: &[&str]) -> std::process::Output {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let dir = std::env::temp_dir().join(format!(
        "rulebook-{}-{}",
        std::process::id(),
        std::thread::current()
            .name()
            .unwrap_or("calc")
            .replace("::", "-")
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("character.toml"), toml).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .current_dir(&dir)
        .args(["calc", "--pcgen-root"])
        .arg(&data)
        .arg(data.join("handsworld/handsworld.pcc"))
        .args(["--character", "character.toml"])
        .args(args)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// A character file with an unknown object, an unknown channel and a bad value.
const BAD_CHARACTER: &str = "grant = [\"STAT:STR\", \"EQUIPMENT:Longsord\"]\n[[input]]\nobject = \"STAT:STR\"\nchannel = \"StatScor\"\nvalue = \"15\"\n[[input]]\nobject = \"STAT:STR\"\nchannel = \"StatScore\"\nvalue = \"fifteen\"\n";

/// What `rulebook calc` prints on stderr for a character file with problems (the example
/// dataset; exit code 1): each problem with the file's line and a label on the entry.
#[test]
fn calc_reports_character_file_problems() {
    let out = calc(BAD_CHARACTER, &[]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for at in [
        "[S0201] Error: there is no EQUIPMENT `Longsord` in the dataset\n   ╭─[ character.toml:1:22 ]",
        "[S0202] Error: `STR` (PC.STAT) has no channel `StatScor`\n   ╭─[ character.toml:4:11 ]",
        "[S0205] Error: input `StatScore` of `STR`: `fifteen` is not a number\n   ╭─[ character.toml:9:9 ]",
    ] {
        assert!(stderr.contains(at), "{stderr}");
    }
    // Data files outside the current folder are named by their absolute path.
    let stderr = stderr.replace(env!("CARGO_MANIFEST_DIR"), "<repo>");
    insta::assert_snapshot!(stderr);
}

/// `rulebook calc --format json` gives each character-file problem its file, line and
/// column (the JSON form CI tools read).
#[test]
fn calc_json_places_character_file_problems() {
    let out = calc(BAD_CHARACTER, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let places: Vec<String> = json["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["file"].as_str().unwrap().ends_with("/character.toml"))
        .map(|p| {
            // A file outside the PCGen root is named by its absolute path.
            format!(
                "{} {}:{}:{}-{}:{}",
                p["code"].as_str().unwrap(),
                "character.toml",
                p["line"],
                p["column"],
                p["end_line"],
                p["end_column"]
            )
        })
        .collect();
    assert_eq!(
        places,
        vec![
            "S0201 character.toml:1:22-1:42",
            "S0202 character.toml:4:11-4:21",
            "S0205 character.toml:9:9-9:18",
        ]
    );
    assert!(!json["values"].as_array().unwrap().is_empty());
}

/// A character file that is not valid TOML is reported (S0206) before the data is used:
/// on stderr with the line, and in JSON with no values.
#[test]
fn calc_reports_a_bad_character_file() {
    let bad = "grant = [\"STAT:STR\"]\n[[input]]\nobject = \"STAT:STR\"\nchanel = \"StatScore\"\nvalue = \"15\"\n";
    let out = calc(bad, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("╭─[ character.toml:4:1 ]"), "{stderr}");
    insta::assert_snapshot!(stderr);
    let out = calc(bad, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["values"], serde_json::json!([]));
    let p = &json["problems"][0];
    assert!(p["file"].as_str().unwrap().ends_with("/character.toml"));
    assert_eq!(
        (&p["code"], &p["path"], &p["line"], &p["column"]),
        (
            &serde_json::json!("S0206"),
            &p["file"],
            &serde_json::json!(4),
            &serde_json::json!(1)
        )
    );
}

/// A character file that is not UTF-8 (a Windows-1252 `é` in a comment) is read and
/// reported like a data file: an `L0101` warning at the byte, and the character is built.
#[test]
fn calc_reads_a_windows_1252_character_file() {
    let file = b"# Ren\xe9e's fighter\ngrant = [\"STAT:STR\"]\n[[input]]\nobject = \"STAT:STR\"\nchannel = \"StatScore\"\nvalue = \"14\"\n";
    let out = calc(file, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("╭─[ character.toml:1:6 ]"), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("STR.StatScore"));
    insta::assert_snapshot!(stderr);
}

/// Equipment modifiers in a character file go onto a part (1 or 2, or a higher `PART:n` of
/// the data) of a granted EQUIPMENT: onto a race, or onto part 0 or 4294967295, they are
/// an error at the entry (`S0104`) and create nothing.
#[test]
fn s0104_equipment_modifier_onto_a_non_equipment_or_a_missing_part() {
    let text = "grant = [\"RACE:Human\", \"EQUIPMENT:Longsword\"]\n\
[[equipmod]]\nequipment = \"RACE:Human\"\nkey = \"Vicious\"\n\
[[equipmod]]\nequipment = \"EQUIPMENT:Longsword\"\npart = 0\nkey = \"Vicious\"\n\
[[equipmod]]\nequipment = \"EQUIPMENT:Longsword\"\npart = 4294967295\nkey = \"Vicious\"\n";
    let out = calc(text, &[]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("[S0104]").count(), 3, "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("PART0"), "{stdout}");
    assert!(!stdout.contains("Human.PART"), "{stdout}");
    insta::assert_snapshot!(stderr);
}
