//! Issue 9's model items on small in-memory datasets, each with the rendered report as an
//! insta snapshot: FACTDEF attributes read and `REQUIRED:YES` enforced as PCGen does; one
//! mistake in a definition gives one error (the name is still defined, in its best-known
//! format); a formula's syntax error inside a token reads as from `rulebook eval`.

use rulebook::check::check_load_set;
use rulebook::diagnostic::{Diagnostic, Severity, render};
use rulebook::load::{MemoryFs, PcgenRoot};
use std::path::{Path, PathBuf};

const DEFAULTS: &str = "DEFAULTVARIABLEVALUE:NUMBER|0\nDEFAULTVARIABLEVALUE:ORDEREDPAIR|0,0\nDEFAULTVARIABLEVALUE:BOOLEAN|false\nDEFAULTVARIABLEVALUE:STRING|\n";

/// Checks a dataset of `files` (PCC key, file name, text) plus a DATACONTROL file holding
/// the defaults and `controls`: the diagnostics and their rendered report.
fn check(controls: &str, files: &[(&str, &str, &str)]) -> (Vec<Diagnostic>, String) {
    let mut pcc = String::from("CAMPAIGN:Test\nGAMEMODE:Test\nDATACONTROL:ctl.lst\n");
    let mut fs = MemoryFs::new()
        .with(
            "/pc/system/gameModes/Test/miscinfo.lst",
            "ALLOWEDMODES:Test\n",
        )
        .with("/pc/data/t/ctl.lst", format!("{DEFAULTS}{controls}"));
    for (key, name, text) in files {
        pcc.push_str(&format!("{key}:{name}\n"));
        fs.insert(format!("/pc/data/t/{name}"), text.as_bytes());
    }
    let fs = fs.with("/pc/data/t/t.pcc", pcc);
    let root = PcgenRoot::at(&fs, Path::new("/pc"));
    let set = check_load_set(&fs, &root, &[PathBuf::from("/pc/data/t/t.pcc")]);
    let shown: Vec<Diagnostic> = set
        .diagnostics
        .into_iter()
        .filter(|d| d.severity != Severity::Note)
        .collect();
    let report = render(&shown, &set.load.sources, false);
    (shown, report)
}

fn codes(d: &[Diagnostic]) -> Vec<&'static str> {
    d.iter().map(|d| d.code.id).collect()
}

const STATS: &str = "Strength\tKEY:STR\tMODIFY:Mod|SET|2\n\
Dexterity\tKEY:DEX\tMODIFY:Mod|SET|value()+1\n\
Constitution\tKEY:CON\tMODIFY:Mod|ADD|Mod\n";

/// A typo in a format name is one error: `Mod` is still defined (as the NUMBER the help
/// suggests), so none of its uses is reported again.
#[test]
fn a_misspelt_format_is_one_error_and_its_uses_are_not_reported() {
    let (found, report) = check(
        "",
        &[
            ("VARIABLE", "vars.lst", "LOCAL:PC.STAT|NUMBR=Mod\n"),
            ("STAT", "stats.lst", STATS),
        ],
    );
    // Besides: `MODIFY:Mod|ADD|Mod` reads itself, a cycle CON closes when granted (S0102).
    assert_eq!(codes(&found), ["S0102", "M0102"], "{report}");
    insta::assert_snapshot!(report);
}

/// So is a misspelt scope: the name is defined in the scope the help suggests.
#[test]
fn a_misspelt_scope_is_one_error_and_its_uses_are_not_reported() {
    let (found, report) = check(
        "",
        &[
            ("VARIABLE", "vars.lst", "LOCAL:PC.STATS|NUMBER=Mod\n"),
            ("STAT", "stats.lst", STATS),
        ],
    );
    assert_eq!(codes(&found), ["S0102", "M0101"], "{report}");
}

/// A definition that conflicts with PCGen's built-in `Face` (ORDEREDPAIR) is one error;
/// `Face` stays an ORDEREDPAIR, so pair values set on it are not reported.
#[test]
fn a_conflict_with_a_built_in_leaves_the_built_in_format() {
    let (found, report) = check(
        "",
        &[
            ("VARIABLE", "vars.lst", "GLOBAL:BOOLEAN=Face\n"),
            ("GLOBALMODIFIER", "mods.lst", "MODIFY:Face|SET|5,5\n"),
            (
                "TEMPLATE",
                "templates.lst",
                "Big\tKEY:Big\tMODIFY:Face|SET|10,10\nHuge\tKEY:Huge\tMODIFY:Face|SET|15,15\n",
            ),
        ],
    );
    assert_eq!(codes(&found), ["M0103"], "{report}");
    insta::assert_snapshot!(report);
}

/// "Did you mean" never offers a name whose own definition is an error.
#[test]
fn did_you_mean_skips_names_whose_definition_failed() {
    let (found, report) = check(
        "",
        &[
            ("VARIABLE", "vars.lst", "GLOBAL:NUMBR=Speed\n"),
            ("GLOBALMODIFIER", "mods.lst", "MODIFY:Sped|ADD|1\n"),
        ],
    );
    assert_eq!(codes(&found), ["M0107", "M0102"], "{report}");
    assert!(!report.contains("did you mean `Speed`"), "{report}");
}

/// An unclosed `(` in a MODIFY formula is the formula parser's error (where the `(` was
/// opened, where the `)` is missing), as `rulebook eval` reports it — not a malformed token.
#[test]
fn an_unclosed_parenthesis_in_a_token_reads_as_in_eval() {
    let (found, report) = check(
        "",
        &[
            (
                "VARIABLE",
                "vars.lst",
                "GLOBAL:NUMBER=X\nLOCAL:PC.EQUIPMENT|NUMBER=W\n",
            ),
            (
                "GLOBALMODIFIER",
                "mods.lst",
                "MODIFY:X|SET|(1+2\nMODIFY:X|ADD|max(1,2|PRIORITY=5\n",
            ),
            (
                "TEMPLATE",
                "templates.lst",
                "Odd\tKEY:Odd\tMODIFYOTHER:PC.EQUIPMENT|ALL|W|ADD|(X\n",
            ),
        ],
    );
    assert_eq!(codes(&found), ["P0115", "P0115", "P0115"], "{report}");
    assert!(report.contains("opened here"), "{report}");
    assert!(!report.contains("malformed"), "{report}");
    insta::assert_snapshot!(report);
}

const FACTS: &str = "FACTDEF:RACE|BaseSize\tDATAFORMAT:STRING\tREQUIRED:YES\tVISIBLE:YES\tEXPLANATION:All Races must have a Size\n\
FACTDEF:RACE|Legs\tDATAFORMAT:NUMBER\tREQUIRED:Y\tSELECTABLE:NO\n\
FACTDEF:RACE|Flavour\tDATAFORMAT:STRING\tREQUIRED:NO\tVISIBLE:NO\tDISPLAYNAME:Flavour text\n";

/// `REQUIRED:YES` is enforced as PCGen does: one error per object that lacks a required
/// fact, naming every required fact it lacks; objects that give them are fine, and so is
/// an object only a `.MOD` of a missing object made up: its problem is the missing object,
/// reported once (`R0101`).
#[test]
fn required_facts_are_enforced_once_per_object() {
    let (found, report) = check(
        FACTS,
        &[(
            "RACE",
            "races.lst",
            "Human\tKEY:Human\tFACT:BaseSize|M\tFACT:Legs|2\n\
Snake\tKEY:Snake\tFACT:BaseSize|S\n\
Ghost\tKEY:Ghost\tFACT:Flavour|spooky\n\
Orc.MOD\tFACT:Flavour|green\n",
        )],
    );
    assert_eq!(codes(&found), ["M0130", "M0130", "R0101"], "{report}");
    assert!(
        found[1].message == "FACT BaseSize, FACT Legs were required but not set in RACE Ghost",
        "{report}"
    );
    insta::assert_snapshot!(report);
}

/// A FACT without its FACTDEF is one mistake per file: the objects writing it give one
/// `M0111` counting the other uses, and a PREFACT of the same file testing it is no second
/// error (the FACTDEF the help asks for mends both). A file that only tests the fact still
/// gets its own `R0105`: nothing else there points at the missing FACTDEF.
#[test]
fn a_missing_factdef_is_one_error_per_file_prefacts_included() {
    let (found, report) = check(
        "",
        &[
            (
                "TEMPLATE",
                "orcs.lst",
                "Orcish\tFACT:IsOrc|True\n\
Half-Orcish\tFACT:IsOrc|True\n\
Orc Ferocity\tPREFACT:1,TEMPLATE,IsOrc=True\n",
            ),
            (
                "TEMPLATE",
                "tests.lst",
                "Orc Blood\tPREFACT:1,TEMPLATE,IsOrc=True\n",
            ),
        ],
    );
    let found: Vec<(&str, &str)> = found
        .iter()
        .map(|d| (d.code.id, d.message.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "M0111",
                "FACT `IsOrc` has no FACTDEF for TEMPLATE (and 1 more use in this file)"
            ),
            ("R0105", "no FACTDEF defines `IsOrc` in this load set"),
        ],
        "{report}"
    );
    insta::assert_snapshot!(report);
}

/// Two BIOSET files of a load set with the same age sets: PCGen keeps the first AGESET of a
/// region and index. A later one that only repeats it is silent; one with another name, or
/// with BONUS tokens of its own, is dropped with its bonuses (`M0132`, once per line). A
/// `REGION:` starts a new set of indexes, and it stays current into the next file, as in
/// PCGen's loader.
#[test]
fn a_second_ageset_of_an_index_is_dropped_and_reported() {
    let (found, report) = check(
        "",
        &[
            (
                "BIOSET",
                "core_bio.lst",
                "AGESET:0|Adulthood\nRACENAME:Human\tBASEAGE:15\n\
AGESET:1|Middle Age\tBONUS:STAT|STR|-1\n",
            ),
            (
                "BIOSET",
                "supplement_bio.lst",
                "AGESET:0|Adulthood\nAGESET:1|Middle Age\tBONUS:STAT|STR|-2\n\
AGESET:2|Old\nREGION:Elfland\nAGESET:1|Middle Age\tBONUS:STAT|DEX|-1\n",
            ),
            (
                "BIOSET",
                "third_bio.lst",
                "AGESET:1|Middle-Aged\nAGESET:0|Youth\n",
            ),
        ],
    );
    let found: Vec<(&str, String)> = found
        .iter()
        .map(|d| (d.code.id, d.to_string()))
        .filter(|(code, _)| *code == "M0132")
        .collect();
    assert_eq!(found.len(), 2, "{report}");
    // supplement_bio.lst line 2 (a BONUS of its own on index 1), and third_bio.lst line 1
    // (another name for index 1 under the Elfland region the previous file left current,
    // where supplement_bio.lst line 5 has it); third_bio.lst's index 0 is new in Elfland.
    insta::assert_snapshot!(report);
}

/// FACTDEF attributes PCGen rejects: a REQUIRED that is not YES or NO, a VISIBLE that is
/// not YES, DISPLAY, EXPORT or NO (PCGen reads it case-sensitively), an unknown DATAFORMAT,
/// a missing DATAFORMAT, an attribute FACTDEF does not take.
#[test]
fn factdef_attributes_pcgen_rejects_are_errors() {
    let (found, report) = check(
        "FACTDEF:RACE|A\tDATAFORMAT:STRING\tREQUIRED:maybe\n\
FACTDEF:RACE|B\tDATAFORMAT:STRING\tVISIBLE:yes\n\
FACTDEF:RACE|C\tDATAFORMAT:COLOUR\n\
FACTDEF:RACE|D\tVISIBLE:YES\n\
FACTDEF:RACE|E\tDATAFORMAT:STRING\tHIDDEN:YES\n\
FACTDEF:RACE|F\tDATAFORMAT:Number\tREQUIRED:no\tSELECTABLE:Yes\tVISIBLE:EXPORT\tDISPLAYNAME:F\tEXPLANATION:fine\n",
        &[],
    );
    assert_eq!(
        codes(&found),
        ["M0129", "M0129", "M0129", "M0129", "T0110"],
        "{report}"
    );
    insta::assert_snapshot!(report);
}

/// Checks a dataset and builds a character granted nothing; returns the warnings and
/// errors, the report and the value of each global named in `read`.
fn solve(files: &[(&str, &str, &str)], read: &[&str]) -> (Vec<Diagnostic>, String, Vec<String>) {
    let mut pcc = String::from("CAMPAIGN:Test\nGAMEMODE:Test\nDATACONTROL:ctl.lst\n");
    let mut fs = MemoryFs::new()
        .with(
            "/pc/system/gameModes/Test/miscinfo.lst",
            "ALLOWEDMODES:Test\n",
        )
        .with(
            "/pc/data/t/ctl.lst",
            format!("{DEFAULTS}DEFAULTVARIABLEVALUE:DICE|1d4\n"),
        );
    for (key, name, text) in files {
        pcc.push_str(&format!("{key}:{name}\n"));
        fs.insert(format!("/pc/data/t/{name}"), text.as_bytes());
    }
    let fs = fs.with("/pc/data/t/t.pcc", pcc);
    let root = PcgenRoot::at(&fs, Path::new("/pc"));
    let set = check_load_set(&fs, &root, &[PathBuf::from("/pc/data/t/t.pcc")]);
    let shown: Vec<Diagnostic> = set
        .diagnostics
        .iter()
        .filter(|d| d.severity != Severity::Note)
        .cloned()
        .collect();
    let report = render(&shown, &set.load.sources, false);
    let c = rulebook::character::Character::new(std::sync::Arc::new(set.dataset));
    let values = read
        .iter()
        .map(|n| c.get_global(n).map(|v| v.to_string()).unwrap_or_default())
        .collect();
    (shown, report, values)
}

/// `MODIFY:X|SET|formula` works for every format, as the spec says; PCGen takes formulas
/// for NUMBER only, so each other format's formula is a PCGen-compatibility warning (as
/// BOOLEAN's always was). A plain STRING value stays text.
#[test]
fn set_takes_a_formula_for_every_format() {
    let (found, report, values) = solve(
        &[
            (
                "VARIABLE",
                "vars.lst",
                "GLOBAL:BOOLEAN=Big\nGLOBAL:ORDEREDPAIR=Reach\nGLOBAL:DICE=Base\nGLOBAL:DICE=Hit\nGLOBAL:STRING=Title\nGLOBAL:STRING=Plain\nGLOBAL:NUMBER=Size\n",
            ),
            (
                "GLOBALMODIFIER",
                "mods.lst",
                "MODIFY:Size|SET|3\nMODIFY:Big|SET|Size>2\nMODIFY:Face|SET|10,5\nMODIFY:Reach|SET|Face\nMODIFY:Base|SET|2d6\nMODIFY:Hit|SET|Base\nMODIFY:Title|SET|if(Big,\"Giant\",\"Small\")\nMODIFY:Plain|SET|Big and (tall)\n",
            ),
        ],
        &["Big", "Reach", "Hit", "Title", "Plain"],
    );
    assert_eq!(
        codes(&found),
        ["M0113", "M0113", "M0113", "M0113"],
        "{report}"
    );
    assert_eq!(values, ["true", "10,5", "2d6", "Giant", "Big and (tall)"]);
    insta::assert_snapshot!(report);
}

/// DICE values take the spec's `AdB+C` form, with a warning (PCGen's DICE has no bonus).
#[test]
fn dice_take_the_spec_bonus_form() {
    let (found, report, values) = solve(
        &[
            (
                "VARIABLE",
                "vars.lst",
                "GLOBAL:DICE=Damage\nGLOBAL:DICE=Penalty\n",
            ),
            (
                "GLOBALMODIFIER",
                "mods.lst",
                "MODIFY:Damage|SET|1d6+1\nMODIFY:Penalty|SET|2d4-2\n",
            ),
        ],
        &["Damage", "Penalty"],
    );
    assert_eq!(codes(&found), ["M0113", "M0113"], "{report}");
    assert_eq!(values, ["1d6+1", "2d4-2"]);
    insta::assert_snapshot!(report);
}
