//! A real dataset with one injected error of each kind is reported at each injected line, and
//! nothing else is reported as an error. Starfinder Core (clean as shipped) is copied into a
//! temporary folder; skipped with a note when `../shared/pcgen` is missing.

use crate::support;

use rulebook::check::check_load_set;
use rulebook::diagnostic::{Severity, to_json};
use rulebook::load::{DiskFs, PcgenRoot};
use std::path::{Path, PathBuf};
use support::copy_dir;

/// Appends `line` to `file` and returns its 1-based line number.
fn inject(file: &Path, line: &str) -> usize {
    let mut text = std::fs::read_to_string(file).unwrap();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(line);
    text.push('\n');
    std::fs::write(file, &text).unwrap();
    text.lines().count()
}

#[test]
fn each_injected_error_is_reported_at_its_line() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/pcgen");
    if !shared.join("system").is_dir() {
        eprintln!("note: ../shared/pcgen is missing; injected-error test skipped");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("rulebook-injected-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    copy_dir(&shared.join("system"), &tmp.join("system"));
    copy_dir(
        &shared.join("data/_universal"),
        &tmp.join("data/_universal"),
    );
    let core = "data/starfinder/paizo/core";
    copy_dir(&shared.join(core), &tmp.join(core));
    let dir: PathBuf = tmp.join(core);

    let vars = "scr__variables.lst";
    let mods = "scr__globalmodifiers.lst";
    let injections: Vec<(&str, &str, &str)> = vec![
        // (expected code, file, injected line)
        ("M0103", vars, "GLOBAL:BOOLEAN=STR"), // format conflict
        ("M0104", vars, "LOCAL:PC.SKILL|NUMBER=DEX"), // global/local overlap
        ("M0101", vars, "LOCAL:PC.WEAPON|NUMBER=Reach"), // unknown scope
        ("M0106", vars, "GLOBAL:SKILL=FavouriteSkill"), // missing default
        ("M0107", mods, "MODIFY:NoSuchVar|SET|1"), // undefined variable (target)
        ("F0101", mods, "MODIFY:Race_Hands|ADD|Race_Legz+1"), // undefined variable (formula)
        ("T0103", mods, "MODIFY:Race_Legs|ADD|1|PRIORITY=high"), // bad PRIORITY
        ("M0110", mods, "MODIFY:Face|SET|5"),  // bad literal
        ("F0102", mods, "MODIFY:Race_Reach|SET|nosuch(1)"), // unknown function
        ("F0103", mods, "MODIFY:Race_Reach|ADD|d20Mod(1,2)"), // wrong arity
        (
            "M0109",
            "scr_equip.lst",
            "Injected Blaster\tPART:1|MODIFY:Damage|ADD|1d6",
        ), // ADD on DICE
        (
            "M0111",
            "scr_templates.lst",
            "Injected Template\tFACT:NoSuchFact|x",
        ), // unknown fact
        (
            "M0125",
            "scr__stats.lst",
            "Injected Stat\tKEY:INJ\tMODIFY:Score|SET|input(\"StatScor\")",
        ), // unknown channel
        // The old formula language (issue 35): a misspelt DEFINE variable, an unknown term,
        // `floor(2`, `If(`, a wrong arity.
        (
            "J0120",
            "scr_feats.lst",
            "Injected Old 1\tCATEGORY:FEAT\tDEFINE:InjectedRage|0\tBONUS:VAR|InjectedRage|InjectedRgae+1",
        ),
        (
            "J0120",
            "scr_feats.lst",
            "Injected Old 2\tCATEGORY:FEAT\tBONUS:VAR|InjectedTwo|SKILLRNAK+TL",
        ),
        (
            "J0106",
            "scr_feats.lst",
            "Injected Old 3\tCATEGORY:FEAT\tBONUS:VAR|InjectedThree|floor(2",
        ),
        (
            "J0109",
            "scr_feats.lst",
            "Injected Old 4\tCATEGORY:FEAT\tBONUS:VAR|InjectedFour|If(TL>2,1,0)",
        ),
        (
            "J0110",
            "scr_feats.lst",
            "Injected Old 5\tCATEGORY:FEAT\tBONUS:VAR|InjectedFive|floor(1,2)",
        ),
    ];
    // The old formulas' findings of the data as shipped (tests/it/pcgen_fixtures.rs).
    let mut expected: Vec<(String, String, usize)> = [
        ("J0109", "scr_abilities.lst", 2399),
        ("J0120", "scr_abilities.lst", 386),
        ("J0120", "scr_abilities.lst", 1217),
        ("J0120", "scr_abilities.lst", 1217),
        ("J0120", "scr_abilities.lst", 1251),
        ("J0120", "scr_classes.lst", 51),
        ("J0120", "scr_feats.lst", 12),
        ("J0121", "scr_templates.lst", 21),
    ]
    .iter()
    .map(|(c, f, l)| ((*c).to_owned(), format!("{core}/{f}"), *l))
    .collect();
    for (code, file, line) in &injections {
        let n = inject(&dir.join(file), line);
        expected.push((code.to_string(), format!("{core}/{file}"), n));
    }

    let root = PcgenRoot::at(&DiskFs, &tmp);
    let set = check_load_set(&DiskFs, &root, &[dir.join("_starfinder_core_rulebook.pcc")]);
    let mut errors: Vec<(String, String, usize)> = set
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| to_json(d, &set.load.sources))
        .map(|j| (j.code, j.file, j.line))
        .collect();
    errors.sort();
    expected.sort();
    let _ = std::fs::remove_dir_all(&tmp);
    assert_eq!(errors, expected);
}
