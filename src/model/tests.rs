//! Model rules on small in-memory datasets: one `check` helper, each test a dataset and the
//! (code, line, column) of what it must report.

use super::{Applies, ModifierValue, Selector};
use crate::load::{MemoryFs, PcgenRoot};
use std::path::{Path, PathBuf};

const DEFAULTS: &str = "DEFAULTVARIABLEVALUE:NUMBER|0\nDEFAULTVARIABLEVALUE:BOOLEAN|false\n\
DEFAULTVARIABLEVALUE:ORDEREDPAIR|0,0\nDEFAULTVARIABLEVALUE:DICE|0\nDEFAULTVARIABLEVALUE:STRING|\n";
const TABLE: &str = "STARTTABLE:T\nKey,Text\nNUMBER,STRING\n1,one\nENDTABLE:T\n";

/// Loads a dataset made of `files` (name → text, listed by kind in the PCC) and returns the
/// checked set.
fn load(files: &[(&str, &str, &str)]) -> Checked {
    load_in_mode("", files)
}

/// [`load`] in a game mode whose `codeControl.lst` is `code_control` (none when empty).
fn load_in_mode(code_control: &str, files: &[(&str, &str, &str)]) -> Checked {
    let mut fs = MemoryFs::new()
        .with("/r/system/gameModes/G/miscinfo.lst", "ALLOWEDMODES:G\n")
        .with("/r/data/d/dc.lst", DEFAULTS)
        .with("/r/data/d/dt.lst", TABLE);
    let mut pcc = String::from("CAMPAIGN:T\nGAMEMODE:G\nDATACONTROL:dc.lst\nDATATABLE:dt.lst\n");
    for (kind, name, text) in files {
        pcc.push_str(&format!("{kind}:{name}\n"));
        // `file.lst|(INCLUDE:…)`: the entry's filter is not part of the path.
        let path = name.split('|').next().unwrap_or(name);
        fs.insert(format!("/r/data/d/{path}"), *text);
    }
    fs.insert("/r/data/d/t.pcc", pcc);
    if !code_control.is_empty() {
        fs.insert("/r/system/gameModes/G/codeControl.lst", code_control);
    }
    let root = PcgenRoot::find(&fs, Path::new("/r/data")).unwrap();
    let mut load = crate::load::load(&fs, &root, &[PathBuf::from("/r/data/d/t.pcc")]);
    let (dataset, model) = super::build(&load);
    let mut diagnostics = std::mem::take(&mut load.diagnostics);
    diagnostics.extend(model);
    diagnostics.extend(crate::vocabulary::check_load_set(&load));
    crate::diagnostic::sort(&mut diagnostics, &load.sources);
    Checked {
        load,
        dataset,
        diagnostics,
    }
}

/// What the model layer finds in a load set: the loader's, the model's and the vocabulary's
/// diagnostics (what `rulebook check` adds from above, solving, is tested in `tests/`).
struct Checked {
    load: crate::load::LoadSet,
    dataset: super::Dataset,
    diagnostics: Vec<crate::diagnostic::Diagnostic>,
}

/// (code, file name, line, column) of every diagnostic except unused-variable notes.
fn check(files: &[(&str, &str, &str)]) -> Vec<(String, String, usize, usize)> {
    let set = load(files);
    set.diagnostics
        .iter()
        .filter(|d| d.code.id != "M0120")
        .map(|d| {
            let f = set.load.sources.get(d.span.file).unwrap();
            let (l, c) = f.line_col(d.span.range().start);
            let name = f.path.rsplit('/').next().unwrap().to_owned();
            (d.code.id.to_owned(), name, l, c)
        })
        .collect()
}

fn at(code: &str, file: &str, line: usize, col: usize) -> (String, String, usize, usize) {
    (code.to_owned(), file.to_owned(), line, col)
}

const VARS: &str = "GLOBAL:NUMBER=Hands\nLOCAL:PC.EQUIPMENT|NUMBER=HandsRequired\n\
LOCAL:PC.EQUIPMENT.PART|NUMBER=CritMult\nGLOBAL:STRING=Name\n";

#[test]
fn part_formula_reading_a_global_warns_that_pcgen_rejects_it() {
    let found = check(&[
        ("VARIABLE", "v.lst", VARS),
        (
            "EQUIPMOD",
            "m.lst",
            "Keen\tMODIFY:CritMult|ADD|Hands+HandsRequired\n",
        ),
    ]);
    assert_eq!(found, vec![at("M0113", "m.lst", 1, 26)]);
}

#[test]
fn formulas_are_typed_against_the_target_and_tables() {
    let found = check(&[
        ("VARIABLE", "v.lst", VARS),
        (
            "GLOBALMODIFIER",
            "g.lst",
            "MODIFY:Hands|SET|lookup(\"T\",1,\"Text\")\nMODIFY:Name|SET|lookup(\"T\",1,\"Text\")\n\
             MODIFY:Hands|SET|max(value()-1,1)\n",
        ),
    ]);
    // A STRING column cannot SET a NUMBER; the STRING variable takes it as a formula (the
    // spec), with the warning that PCGen would read it as fixed text.
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!((found[0].1.as_str(), found[0].2), ("g.lst", 1));
    assert!(found[0].0.starts_with('F'), "{found:?}");
    assert_eq!(found[1], at("M0113", "g.lst", 2, 17));
}

#[test]
fn modifyother_child_selector_reaches_part_variables() {
    let set = load(&[
        ("VARIABLE", "v.lst", VARS),
        (
            "ABILITY",
            "a.lst",
            "Keen Edges\tMODIFYOTHER:PC.EQUIPMENT|GROUP=Weapon[ALL]|CritMult|ADD|1\n",
        ),
    ]);
    assert!(set.diagnostics.iter().all(|d| !d.is_error()));
    let m = set.dataset.modifiers.first().unwrap();
    assert_eq!(
        m.applies,
        Applies::Other {
            scope: set.dataset.scopes.resolve("PC.EQUIPMENT").unwrap().0,
            selector: Selector::Group("Weapon".into()),
            child: Some(Selector::All),
        }
    );
    assert_eq!(set.dataset.scopes.name(m.scope), "PC.EQUIPMENT.PART");
    assert!(matches!(m.value, ModifierValue::Constant(_)));
}

#[test]
fn face_bridge_and_copy_make_modifiers() {
    let set = load(&[
        ("VARIABLE", "v.lst", VARS),
        (
            "TEMPLATE",
            "t.lst",
            "Broad\tFACE:10\nBroad.COPY=Broader\tMODIFY:Hands|ADD|1\n",
        ),
    ]);
    assert!(
        set.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        set.diagnostics
    );
    let ds = &set.dataset;
    let broader = ds
        .objects
        .iter()
        .find(|o| ds.key_of(o).is("Broader"))
        .unwrap();
    let prios: Vec<u32> = broader
        .modifiers()
        .iter()
        .map(|m| ds.modifier(*m).unwrap().priority)
        .collect();
    assert_eq!(
        prios,
        vec![10, 0],
        "FACE copied (PRIORITY=10), then the new ADD"
    );
}

#[test]
fn identical_redefinitions_are_legal_and_overlaps_are_not() {
    let found = check(&[(
        "VARIABLE",
        "v.lst",
        "GLOBAL:NUMBER=Hands\nHands\nLOCAL:PC.STAT|NUMBER=Score\nLOCAL:PC.SKILL|NUMBER=Score\n\
         LOCAL:PC.EQUIPMENT.PART|NUMBER=Hands\n",
    )]);
    assert_eq!(found, vec![at("M0104", "v.lst", 5, 32)]);
}

#[test]
fn equipment_parts_come_from_part_tokens() {
    let set = load(&[
        ("VARIABLE", "v.lst", VARS),
        (
            "EQUIPMENT",
            "e.lst",
            "Double Axe\tPART:2|MODIFY:CritMult|SET|3\nClub\tMODIFY:HandsRequired|SET|1\n",
        ),
    ]);
    let ds = &set.dataset;
    let axe = ds
        .objects
        .iter()
        .find(|o| ds.key_of(o).is("Double Axe"))
        .unwrap();
    let club = ds.objects.iter().find(|o| ds.key_of(o).is("Club")).unwrap();
    assert_eq!(ds.parts(axe.id), vec![1, 2]);
    assert_eq!(ds.parts(club.id), vec![1]);
}

#[test]
fn variables_pcgen_reads_by_code_control_are_not_unused() {
    let vars = "LOCAL:PC.SAVE|NUMBER=Save_StatBonus\nGLOBAL:NUMBER=Forgotten\n";
    let unused = |code_control: &str| {
        let set = load_in_mode(code_control, &[("VARIABLE", "v.lst", vars)]);
        set.diagnostics
            .iter()
            .filter(|d| d.code.id == "M0120")
            .map(|d| d.message.clone())
            .collect::<Vec<_>>()
    };
    // Starfinder's game mode makes PCGen read every save's `Save_StatBonus` (any case).
    assert_eq!(
        unused("STATMODSAVE:save_statbonus\n"),
        ["variable `Forgotten` is never modified or read"]
    );
    // Without the control, nothing reads it.
    assert_eq!(
        unused(""),
        [
            "variable `Save_StatBonus` is never modified or read",
            "variable `Forgotten` is never modified or read"
        ]
    );
}

#[test]
fn a_fact_without_its_factdef_is_reported_on_a_line_the_entry_leaves_out() {
    // PCGen parses a whole line before `(INCLUDE:…)`/`(EXCLUDE:…)` drops its object
    // (`LstObjectFileLoader.includeObject` runs after the tokens), so an undefined FACT of a
    // left-out object is logged too: "Illegal FACT subtoken 'IsDwarf' 'True' for …".
    let found = check(&[
        (
            "DATACONTROL",
            "facts.lst",
            "FACTDEF:TEMPLATE|IsOrc\tDATAFORMAT:STRING\n",
        ),
        (
            "TEMPLATE",
            "t.lst|(INCLUDE:Kept)",
            "Kept\tFACT:IsElf|True\nLeftOut\tFACT:IsOrc|True\tFACT:IsDwarf|True\n",
        ),
    ]);
    assert_eq!(
        found,
        [at("M0111", "t.lst", 1, 11), at("M0111", "t.lst", 2, 30)]
    );
}

#[test]
fn a_missing_factdef_is_one_error_per_file_that_counts_the_other_uses() {
    // One missing FACTDEF is one mistake, however many objects of a file write the fact;
    // each file still gets its own error (PCGen logs every use).
    let set = load(&[
        (
            "TEMPLATE",
            "t.lst",
            "A\tFACT:IsOrc|True\nB\tFACT:IsOrc|False\nC\tFACT:IsOrc|True\tFACT:IsElf|True\n",
        ),
        ("TEMPLATE", "u.lst", "D\tFACT:IsOrc|True\n"),
    ]);
    let facts: Vec<(&str, &str)> = set
        .diagnostics
        .iter()
        .filter(|d| d.code.id == "M0111")
        .map(|d| {
            let file = set.load.sources.get(d.span.file).unwrap().path.as_str();
            (file.rsplit('/').next().unwrap(), d.message.as_str())
        })
        .collect();
    assert_eq!(
        facts,
        [
            (
                "t.lst",
                "FACT `IsOrc` has no FACTDEF for TEMPLATE (and 2 more uses in this file)"
            ),
            ("t.lst", "FACT `IsElf` has no FACTDEF for TEMPLATE"),
            ("u.lst", "FACT `IsOrc` has no FACTDEF for TEMPLATE"),
        ]
    );
}
