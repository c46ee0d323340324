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
