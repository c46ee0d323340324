//! Old formulas on small in-memory load sets: one `check` helper, each test a dataset and
//! the (code, file, line, column, text at the span) of what it must report.

use crate::load::{MemoryFs, PcgenRoot};
use std::path::{Path, PathBuf};

/// Loads `files` (PCC token, file name, text), listed by one PCC in that order, and returns
/// each old-formula finding as (code, file, line, column, the text its span covers,
/// suggestion).
fn check(files: &[(&str, &str, &str)]) -> Vec<(String, String, usize, usize, String, String)> {
    let mut fs = MemoryFs::new().with("/r/system/gameModes/G/miscinfo.lst", "ALLOWEDMODES:G\n");
    let mut pcc = String::from("CAMPAIGN:T\nGAMEMODE:G\n");
    for (kind, name, text) in files {
        pcc.push_str(&format!("{kind}:{name}\n"));
        fs.insert(format!("/r/data/d/{name}"), *text);
    }
    fs.insert("/r/data/d/t.pcc", pcc);
    let root = PcgenRoot::find(&fs, Path::new("/r/data")).unwrap();
    let load = crate::load::load(&fs, &root, &[PathBuf::from("/r/data/d/t.pcc")]);
    let (dataset, _) = crate::model::build(&load);
    let mut found = super::check(&load, &dataset, &|_| false);
    crate::diagnostic::sort(&mut found, &load.sources);
    found
        .iter()
        .map(|d| {
            let file = load.sources.get(d.span.file).unwrap();
            let (line, col) = file.line_col(d.span.range().start);
            let name = file.path.rsplit('/').next().unwrap_or("").to_owned();
            let text = file.text.get(d.span.range()).unwrap_or("").to_owned();
            let suggestion = d
                .suggestion
                .as_ref()
                .map(|s| s.text.clone())
                .unwrap_or_default();
            (d.code.id.to_owned(), name, line, col, text, suggestion)
        })
        .collect()
}

fn row(
    code: &str,
    file: &str,
    line: usize,
    col: usize,
    text: &str,
    suggestion: &str,
) -> (String, String, usize, usize, String, String) {
    (
        code.into(),
        file.into(),
        line,
        col,
        text.into(),
        suggestion.into(),
    )
}

const STATS: &str = "Strength\tABB:STR\nDexterity\tABB:DEX\n";

#[test]
fn a_misspelt_variable_is_one_error_at_its_first_use_with_a_suggestion() {
    let found = check(&[
        ("STAT", "stats.lst", STATS),
        (
            "ABILITY",
            "feats.lst",
            "Rage\tCATEGORY:FEAT\tDEFINE:RageLevel|CL=Barbarian\n\
             Fury\tCATEGORY:FEAT\tBONUS:COMBAT|AC|RageLevle+STR+DEXSCORE+TL\tBONUS:VAR|RageLevel|RageLevle\n",
        ),
    ]);
    assert_eq!(
        found,
        [row("J0120", "feats.lst", 2, 36, "RageLevle", "RageLevel")]
    );
}

#[test]
fn names_from_any_file_of_the_load_set_are_known() {
    let found = check(&[
        (
            "ABILITY",
            "a.lst",
            "A\tCATEGORY:FEAT\tBONUS:VAR|Late|1|PREVARGT:Defined,0\n",
        ),
        (
            "ABILITY",
            "b.lst",
            "B\tCATEGORY:FEAT\tDEFINE:Defined|0\tBONUS:COMBAT|AC|var(\"Late\")+SKILL.Spot.RANK+%CHOICE\n",
        ),
    ]);
    assert_eq!(found, []);
}

#[test]
fn syntax_findings_are_placed_in_their_file() {
    let found = check(&[(
        "ABILITY",
        "a.lst",
        "A\tCATEGORY:FEAT\tDEFINE:X|0\tBONUS:COMBAT|AC|floor(X\n",
    )]);
    assert_eq!(found, [row("J0106", "a.lst", 1, 49, "(", "")]);
}

#[test]
fn a_filtered_entry_reports_no_unknown_name() {
    let found = check(&[(
        "ABILITY",
        "a.lst|(INCLUDE:A)",
        "A\tCATEGORY:FEAT\tBONUS:COMBAT|AC|Nowhere\n",
    )]);
    assert_eq!(found, []);
}

#[test]
fn an_unset_switch_is_reported_only_when_misspelt() {
    let found = check(&[(
        "ABILITY",
        "a.lst",
        "A\tCATEGORY:FEAT\tDEFINE:RageLevel|0\tPREVARGTEQ:NotAllowed,1\n\
         B\tCATEGORY:FEAT\tPREVARGTEQ:Rage_Level,1|PREVARGTEQ:RageLevle,1\n",
    )]);
    assert_eq!(
        found,
        [row("J0120", "a.lst", 2, 28, "Rage_Level", "RageLevel")]
    );
}

/// The two systems side by side: a formula-system variable read by an old formula (J0121),
/// given a bonus (J0123), DEFINEd too (J0122, and then neither J0121 nor J0123 of it in the
/// load set); a stat's bonus written as `BONUS:VAR` is J0123 too.
#[test]
fn the_old_and_the_formula_system_are_kept_apart_as_pcgen_keeps_them() {
    let variables =
        "GLOBAL:NUMBER=Grip\nGLOBAL:NUMBER=Hold\nGLOBAL:NUMBER=Reach\nGLOBAL:NUMBER=STR\n";
    let found = check(&[
        ("STAT", "stats.lst", STATS),
        ("VARIABLE", "variables.lst", variables),
        (
            "FEAT",
            "feats.lst",
            "A\tBONUS:VAR|Total|Grip*2\tBONUS:VAR|Hold|1\n\
             B\tDEFINE:Reach|5\tBONUS:VAR|Reach|1\tBONUS:VAR|Total|Reach\tDEFINE:Total|0\n\
             C\tBONUS:VAR|STR|-4\n",
        ),
    ]);
    assert_eq!(
        found,
        vec![
            row("J0121", "feats.lst", 1, 19, "Grip", ""),
            row("J0123", "feats.lst", 1, 36, "Hold", ""),
            row("J0122", "feats.lst", 2, 10, "Reach", ""),
            row("J0123", "feats.lst", 3, 13, "STR", ""),
        ]
    );
}
