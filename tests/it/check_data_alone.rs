//! `rulebook check` reports what the data alone decides (docs/errors.md, "Solver errors"):
//! cycles and evaluation failures of variables no character can change, at the modifier's
//! line, and cycles object modifiers close when the objects are granted (alone: the
//! runtime's S0101/S0102; together: S0105 naming them). Each case is a small in-memory
//! dataset; the rendered reports are snapshots.

use rulebook::check::{CheckedSet, check_load_set, json_output};
use rulebook::diagnostic::{Diagnostic, Severity, render, to_json};
use rulebook::load::{MemoryFs, PcgenRoot};
use std::path::{Path, PathBuf};

const DEFAULTS: &str = "DEFAULTVARIABLEVALUE:NUMBER|0\nDEFAULTVARIABLEVALUE:STRING|\nDEFAULTVARIABLEVALUE:ORDEREDPAIR|0,0\n";
const TABLE: &str = "STARTTABLE:Sizes\nKey,Reach\nNUMBER,NUMBER\n1,5\n2,10\nENDTABLE:Sizes\n";

/// The files of a dataset `data/t/` with these VARIABLE, GLOBALMODIFIER and TEMPLATE files.
fn files(vars: &str, globals: &str, templates: &str) -> MemoryFs {
    MemoryFs::new()
        .with(
            "/pc/system/gameModes/Test/miscinfo.lst",
            "ALLOWEDMODES:Test\n",
        )
        .with(
            "/pc/data/t/t.pcc",
            "CAMPAIGN:Test\nGAMEMODE:Test\nDATACONTROL:ctl.lst\nDATATABLE:tables.lst\n\
             VARIABLE:vars.lst\nGLOBALMODIFIER:globals.lst\nTEMPLATE:templates.lst\n",
        )
        .with("/pc/data/t/ctl.lst", DEFAULTS)
        .with("/pc/data/t/tables.lst", TABLE)
        .with("/pc/data/t/vars.lst", vars)
        .with("/pc/data/t/globals.lst", globals)
        .with("/pc/data/t/templates.lst", templates)
}

fn load(vars: &str, globals: &str, templates: &str) -> CheckedSet {
    let fs = files(vars, globals, templates);
    let root = PcgenRoot::at(&fs, Path::new("/pc"));
    check_load_set(&fs, &root, &[PathBuf::from("/pc/data/t/t.pcc")])
}

/// `CODE file:line:column` of each diagnostic that is not an unused-variable note.
fn found(set: &CheckedSet) -> Vec<String> {
    reported(set).iter().map(|d| place(d, set)).collect()
}

fn reported(set: &CheckedSet) -> Vec<&Diagnostic> {
    set.diagnostics
        .iter()
        .filter(|d| d.code.id != "M0120")
        .collect()
}

fn place(d: &Diagnostic, set: &CheckedSet) -> String {
    let j = to_json(d, &set.load.sources);
    format!("{} {}:{}:{}", j.code, j.file, j.line, j.column)
}

fn rendered(set: &CheckedSet) -> String {
    let ds: Vec<Diagnostic> = reported(set).into_iter().cloned().collect();
    render(&ds, &set.load.sources, false)
}

#[test]
fn a_cycle_of_globalmodifier_lines_is_an_error_at_check_reported_once() {
    let set = load(
        "GLOBAL:NUMBER=Strength\nGLOBAL:NUMBER=Dexterity\n",
        "MODIFY:Strength|SET|Dexterity+1\nMODIFY:Dexterity|SET|Strength\n",
        "",
    );
    assert_eq!(found(&set), ["S0101 data/t/globals.lst:1:8"]);
    assert_eq!(set.diagnostics[0].severity, Severity::Error);
    insta::assert_snapshot!(rendered(&set));
    // Two load sets holding the same files report it once.
    let again = load(
        "GLOBAL:NUMBER=Strength\nGLOBAL:NUMBER=Dexterity\n",
        "MODIFY:Strength|SET|Dexterity+1\nMODIFY:Dexterity|SET|Strength\n",
        "",
    );
    let run = json_output(&[set, again]);
    assert_eq!(run.summary.errors, 1);
}

#[test]
fn a_division_by_zero_no_character_can_avoid_is_an_error_at_check() {
    let set = load(
        "GLOBAL:NUMBER=Speed\nGLOBAL:NUMBER=Zero\n",
        "MODIFY:Speed|SET|30/Zero\n",
        "",
    );
    assert_eq!(found(&set), ["E0101 data/t/globals.lst:1:18"]);
    insta::assert_snapshot!(rendered(&set));
    // What reads the failed variable is not reported again.
    let set = load(
        "GLOBAL:NUMBER=Speed\nGLOBAL:NUMBER=Zero\nGLOBAL:NUMBER=Run\n",
        "MODIFY:Speed|SET|30/Zero\nMODIFY:Run|SET|Speed*4\n",
        "",
    );
    assert_eq!(found(&set), ["E0101 data/t/globals.lst:1:18"]);
}

#[test]
fn a_failure_a_character_may_avoid_is_not_reported_at_check() {
    // `Level` is raised by a template: a character with it divides by 1.
    let set = load(
        "GLOBAL:NUMBER=Rate\nGLOBAL:NUMBER=Level\n",
        "MODIFY:Rate|SET|10/Level\n",
        "Trained\tKEY:Trained\tMODIFY:Level|ADD|1\n",
    );
    assert_eq!(found(&set), Vec::<String>::new());
    // Nor one that reads a channel, which a character sets.
    let set = load(
        "GLOBAL:NUMBER=Rate\nCHANNEL:PC|NUMBER=Level\n",
        "MODIFY:Rate|SET|10/input(\"Level\")\n",
        "",
    );
    assert_eq!(found(&set), Vec::<String>::new());
}

#[test]
fn a_lookup_of_a_missing_row_and_a_failed_modifier_are_errors_at_check() {
    let set = load(
        "GLOBAL:NUMBER=Reach\nGLOBAL:NUMBER=Slow\n",
        "MODIFY:Reach|SET|lookup(\"Sizes\",3,\"Reach\")\nMODIFY:Slow|SET|30\nMODIFY:Slow|DIVIDE|0\n",
        "",
    );
    assert_eq!(
        found(&set),
        [
            "E0108 data/t/globals.lst:1:18",
            "S0103 data/t/globals.lst:3:8"
        ]
    );
    insta::assert_snapshot!(rendered(&set));
}

#[test]
fn objects_that_close_a_cycle_together_are_a_warning_naming_them() {
    let set = load(
        "GLOBAL:NUMBER=X\nGLOBAL:NUMBER=Y\n",
        "",
        "Alpha\tKEY:Alpha\tMODIFY:X|SET|Y\nBeta\tKEY:Beta\tMODIFY:Y|ADD|X\n",
    );
    assert_eq!(found(&set), ["S0105 data/t/templates.lst:1:24"]);
    let d = reported(&set)[0];
    assert_eq!(d.severity, Severity::Warning);
    assert!(
        d.message.contains("TEMPLATE `Alpha` and TEMPLATE `Beta`"),
        "{}",
        d.message
    );
    insta::assert_snapshot!(rendered(&set));
}

#[test]
fn an_object_that_closes_a_cycle_alone_is_reported_as_the_runtime_would() {
    // Its values do not settle when it is granted: an error, as the runtime reports it.
    let set = load(
        "GLOBAL:NUMBER=P\nGLOBAL:NUMBER=Q\n",
        "",
        "Spiral\tKEY:Spiral\tMODIFY:P|SET|Q+1\tMODIFY:Q|SET|P\n",
    );
    assert_eq!(found(&set), ["S0101 data/t/templates.lst:1:26"]);
    assert_eq!(reported(&set)[0].severity, Severity::Error);
    insta::assert_snapshot!("alone_unsettled", rendered(&set));
    // Its values settle: a warning.
    let set = load(
        "GLOBAL:NUMBER=P\nGLOBAL:NUMBER=Q\n",
        "",
        "Loop\tKEY:Loop\tMODIFY:P|SET|Q\tMODIFY:Q|SET|P\n",
    );
    assert_eq!(found(&set), ["S0102 data/t/templates.lst:1:22"]);
    assert_eq!(reported(&set)[0].severity, Severity::Warning);
    insta::assert_snapshot!("alone_settled", rendered(&set));
}

#[test]
fn local_variables_of_different_objects_close_no_cycle() {
    // Each equipment's `A` and `B` are its own: no two of these modifiers meet.
    let fs = files(
        "LOCAL:PC.EQUIPMENT|NUMBER=A\nLOCAL:PC.EQUIPMENT|NUMBER=B\n",
        "",
        "",
    )
    .with(
        "/pc/data/t/t.pcc",
        "CAMPAIGN:Test\nGAMEMODE:Test\nDATACONTROL:ctl.lst\nVARIABLE:vars.lst\n\
             EQUIPMENT:equip.lst\n",
    )
    .with(
        "/pc/data/t/equip.lst",
        "Club\tMODIFY:A|SET|B\nDagger\tMODIFY:B|SET|A\n",
    );
    let root = PcgenRoot::at(&fs, Path::new("/pc"));
    let set = check_load_set(&fs, &root, &[PathBuf::from("/pc/data/t/t.pcc")]);
    assert_eq!(found(&set), Vec::<String>::new());
}

/// A dataset with equipment (`equip.lst`) beside the GLOBALMODIFIER and TEMPLATE files.
fn load_with_equipment(vars: &str, templates: &str, equip: &str) -> CheckedSet {
    let fs = files(vars, "", templates)
        .with(
            "/pc/data/t/t.pcc",
            "CAMPAIGN:Test\nGAMEMODE:Test\nDATACONTROL:ctl.lst\nVARIABLE:vars.lst\n\
             TEMPLATE:templates.lst\nEQUIPMENT:equip.lst\n",
        )
        .with("/pc/data/t/equip.lst", equip);
    let root = PcgenRoot::at(&fs, Path::new("/pc"));
    check_load_set(&fs, &root, &[PathBuf::from("/pc/data/t/t.pcc")])
}

#[test]
fn a_failure_of_a_variable_its_object_decides_alone_is_an_error_at_check() {
    let set = load_with_equipment(
        "LOCAL:PC.EQUIPMENT|NUMBER=Load\nGLOBAL:NUMBER=Zero\n",
        "",
        "Anvil\tMODIFY:Load|SET|100/Zero\n",
    );
    assert_eq!(found(&set), ["E0101 data/t/equip.lst:1:23"]);
    insta::assert_snapshot!(rendered(&set));
}

#[test]
fn a_failure_another_object_may_avoid_is_not_reported_at_check() {
    // A template can raise `Strength`, the divisor.
    let set = load_with_equipment(
        "LOCAL:PC.EQUIPMENT|NUMBER=Load\nGLOBAL:NUMBER=Strength\n",
        "Strong\tKEY:Strong\tMODIFY:Strength|ADD|10\n",
        "Anvil\tMODIFY:Load|SET|100/Strength\n",
    );
    assert_eq!(found(&set), Vec::<String>::new());
    // A template's MODIFYOTHER sets the Anvil's divisor.
    let set = load_with_equipment(
        "LOCAL:PC.EQUIPMENT|NUMBER=Load\nLOCAL:PC.EQUIPMENT|NUMBER=Grip\n",
        "Strong\tKEY:Strong\tMODIFYOTHER:PC.EQUIPMENT|Anvil|Grip|ADD|1\n",
        "Anvil\tMODIFY:Load|SET|100/Grip\n",
    );
    assert_eq!(found(&set), Vec::<String>::new());
}

/// A chain of `n` variables, `V<n>` at the top reading `V<n-1>` … down to `V0`, written
/// top first (the order that needed one pass per link when "a character can change it" was
/// spread by re-scanning every modifier until nothing changed), then `Top` divides by it.
fn chain(n: usize, local: bool) -> (String, String) {
    let kind = if local {
        "LOCAL:PC.EQUIPMENT|"
    } else {
        "GLOBAL:"
    };
    let mut vars = String::new();
    let mut mods = String::new();
    for i in (1..=n).rev() {
        vars.push_str(&format!("{kind}NUMBER=V{i}\n"));
        mods.push_str(&format!("MODIFY:V{i}|SET|V{}\n", i - 1));
    }
    vars.push_str(&format!("{kind}NUMBER=V0\n{kind}NUMBER=Top\n"));
    mods.push_str(&format!("MODIFY:Top|SET|100/V{n}\n"));
    (vars, mods)
}

/// Whether a variable is decided by the data alone is spread along chains of any length,
/// both ways: a chain from a constant 0 fails at its end (reported once, at check), a chain
/// from a channel or from a variable a template raises is left to the character.
#[test]
fn what_a_character_can_change_spreads_along_long_chains() {
    let n = 2_000;
    let (vars, mods) = chain(n, false);
    let set = load(&vars, &mods, "");
    assert_eq!(
        found(&set),
        [format!("E0101 data/t/globals.lst:{}:16", n + 1)]
    );
    let raised = load(&vars, &mods, "Raise\tKEY:Raise\tMODIFY:V0|ADD|1\n");
    assert_eq!(found(&raised), Vec::<String>::new());
    let (vars, mods) = chain(n, false);
    let channel = load(
        &vars.replace(
            "GLOBAL:NUMBER=V0\n",
            "CHANNEL:PC|NUMBER=In\nGLOBAL:NUMBER=V0\n",
        ),
        &format!("{mods}MODIFY:V0|SET|input(\"In\")\n"),
        "",
    );
    assert_eq!(found(&channel), Vec::<String>::new());

    // The same chain of an equipment's own variables.
    let (vars, mods) = chain(n, true);
    let anvil = format!("Anvil\t{}\n", mods.lines().collect::<Vec<_>>().join("\t"));
    let set = load_with_equipment(&vars, "", &anvil);
    assert_eq!(found(&set).len(), 1, "{:?}", found(&set));
    assert!(found(&set)[0].starts_with("E0101 data/t/equip.lst:1:"));
    let raised = load_with_equipment(
        &vars,
        "Raise\tKEY:Raise\tMODIFYOTHER:PC.EQUIPMENT|Anvil|V0|ADD|1\n",
        &anvil,
    );
    assert_eq!(found(&raised), Vec::<String>::new());
}
