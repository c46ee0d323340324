//! Supplements checked alone: a FACT, variable or object the load set does not know but
//! another PCC under the data folder defines gets a help line naming that campaign, the
//! defining file:line and the PRECAMPAIGN line that declares the dependency.

use rulebook::check::{CheckedSet, check_load_set_with, render_human};
use rulebook::load::{CampaignIndex, MemoryFs, PcgenRoot};
use std::path::PathBuf;

fn root() -> PcgenRoot {
    PcgenRoot::new(PathBuf::from("/pc"), PathBuf::from("/pc/data"))
}

/// A core book defining a fact, two variables and an object; a supplement using them
/// without declaring the core book; a book of another game system defining the same fact.
fn corpus() -> MemoryFs {
    MemoryFs::new()
        .with(
            "/pc/system/gameModes/PF/miscinfo.lst",
            "ALLOWEDMODES:Pathfinder\n",
        )
        .with(
            "/pc/system/gameModes/35e/miscinfo.lst",
            "ALLOWEDMODES:35e\n",
        )
        .with(
            "/pc/data/pathfinder/core/core.pcc",
            "CAMPAIGN:Core Rulebook\nGAMEMODE:Pathfinder\nBOOKTYPE:Core Rules\n\
             DATACONTROL:core_dc.lst\nVARIABLE:core_vars.lst\nEQUIPMENT:core_eq.lst\n",
        )
        .with(
            "/pc/data/pathfinder/core/core_dc.lst",
            "DEFAULTVARIABLEVALUE:NUMBER|0\nDEFAULTVARIABLEVALUE:ORDEREDPAIR|0,0\n\
             FACTDEF:ABILITY|Warpriest_Blessings\tDATAFORMAT:STRING\n",
        )
        .with(
            "/pc/data/pathfinder/core/core_vars.lst",
            "GLOBAL:NUMBER=Hands\nLOCAL:PC.EQUIPMENT|NUMBER=Weight\n",
        )
        .with("/pc/data/pathfinder/core/core_eq.lst", "Longsword\n")
        .with(
            "/pc/data/pathfinder/supplement/sup.pcc",
            "CAMPAIGN:Disciple's Doctrine\nGAMEMODE:Pathfinder\nBOOKTYPE:Supplement\n\
             DATACONTROL:sup_dc.lst\nVARIABLE:sup_vars.lst\nABILITY:sup_abilities.lst\n",
        )
        .with(
            "/pc/data/pathfinder/supplement/sup_dc.lst",
            "DEFAULTVARIABLEVALUE:NUMBER|0\nDEFAULTVARIABLEVALUE:ORDEREDPAIR|0,0\nFACTDEF:ABILITY|Warpriest_Blessing\tDATAFORMAT:STRING\n",
        )
        .with(
            "/pc/data/pathfinder/supplement/sup_vars.lst",
            "GLOBAL:NUMBER=Arms\n",
        )
        .with(
            "/pc/data/pathfinder/supplement/sup_abilities.lst",
            "Sacred Blessing\tCATEGORY:FEAT\tFACT:Warpriest_Blessings|Yes\n\
             Many Hands\tCATEGORY:FEAT\tMODIFY:Hands|ADD|1\n\
             Heavy Blade\tCATEGORY:FEAT\tMODIFYOTHER:PC.EQUIPMENT|Longsword|Weight|ADD|Arms\n\
             Typo\tCATEGORY:FEAT\tFACT:Nobody_Defines_This|Yes\n",
        )
        .with(
            "/pc/data/35e/srd/srd.pcc",
            "CAMPAIGN:SRD\nGAMEMODE:35e\nDATACONTROL:srd_dc.lst\n",
        )
        .with(
            "/pc/data/35e/srd/srd_dc.lst",
            "FACTDEF:ABILITY|Nobody_Defines_This\tDATAFORMAT:STRING\n",
        )
}

fn check(fs: &MemoryFs, index: &CampaignIndex, pcc: &str) -> CheckedSet {
    check_load_set_with(fs, &root(), &[PathBuf::from(pcc)], index)
}

#[test]
fn unknown_names_defined_by_another_campaign_name_it_in_the_help() {
    let fs = corpus();
    let index = CampaignIndex::build(&fs, &root());
    let set = check(&fs, &index, "/pc/data/pathfinder/supplement/sup.pcc");
    let report = render_human(std::slice::from_ref(&set), false);
    insta::assert_snapshot!(report);
    let hinted = set
        .diagnostics
        .iter()
        .filter(|d| {
            d.help
                .as_deref()
                .is_some_and(|h| h.contains("PRECAMPAIGN:1,INCLUDES=Core Rulebook"))
        })
        .map(|d| d.code.id)
        .collect::<Vec<_>>();
    // The FACT, both MODIFY targets and the MODIFYOTHER object; never a book of another system.
    assert_eq!(hinted, ["M0111", "M0107", "M0115", "M0107"], "{report}");
    assert!(!report.contains("SRD"), "{report}");
}

#[test]
fn the_definitions_are_scanned_only_for_a_load_set_with_an_unknown_name() {
    let fs = corpus();
    let index = CampaignIndex::build(&fs, &root());
    let core = check(&fs, &index, "/pc/data/pathfinder/core/core.pcc");
    assert!(core.diagnostics.iter().all(|d| !d.is_error()));
    assert!(!index.definitions().names_built());
    assert!(!index.definitions().objects_built());
    check(&fs, &index, "/pc/data/pathfinder/supplement/sup.pcc");
    assert!(index.definitions().names_built());
    assert!(index.definitions().objects_built());
}

#[test]
fn a_load_set_that_includes_the_defining_campaign_gets_no_hint() {
    let fs = corpus();
    let index = CampaignIndex::build(&fs, &root());
    let set = check_load_set_with(
        &fs,
        &root(),
        &[
            PathBuf::from("/pc/data/pathfinder/supplement/sup.pcc"),
            PathBuf::from("/pc/data/pathfinder/core/core.pcc"),
        ],
        &index,
    );
    let errors: Vec<&str> = set
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code.id)
        .collect();
    assert_eq!(errors, ["M0111"]);
    assert!(
        set.diagnostics
            .iter()
            .all(|d| !d.help.as_deref().unwrap_or("").contains("PRECAMPAIGN"))
    );
}

/// The corpus of PCGen's data (`shared/pcgen-corpus` beside the crate or an ancestor), when
/// present.
fn pcgen_corpus() -> Option<PathBuf> {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(1)
        .map(|a| a.join("shared/pcgen-corpus"))
        .find(|c| c.join("data").is_dir() && c.join("system/gameModes").is_dir())
}

/// The path users take: the `rulebook check` binary (whose load sets go through the file
/// cache, as the language server's do) on a real supplement checked alone. Its FACTs whose
/// FACTDEF only the book it was written for has name that book, the defining file:line
/// and the PRECAMPAIGN to add; a far "did you mean" (`Kasatha_SizeAndType`, another
/// race's fact, before) is not offered. Errors only (`--quiet`). Fails when the corpus is
/// absent (CI has it beside the crate).
#[test]
fn the_binary_names_the_defining_campaign_on_a_real_supplement() {
    let corpus = pcgen_corpus().expect("../shared/pcgen-corpus is missing");
    let pcc = "data/starfinder/paizo/alien_archive_2/_starfinder_alien_archive_2.pcc";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args([
            "check",
            pcc,
            "--pcgen-root",
            ".",
            "--color",
            "never",
            "--quiet",
        ])
        .current_dir(&corpus)
        .output()
        .expect("runs rulebook");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("PRECAMPAIGN:1,INCLUDES="),
        "{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    insta::assert_snapshot!(report);
}

/// The old token system's unknown names name their defining campaign too, through the
/// binary: Empire (AEG, 3.5e), checked alone, names the 3.5 RSRD's saves and skills; the
/// campaign chosen is the one whose folder holds the defining file, not another core book
/// that lists the same file (Player's Guide to Arcanis).
#[test]
fn old_system_references_name_the_campaign_whose_folder_defines_them() {
    let corpus = pcgen_corpus().expect("../shared/pcgen-corpus is missing");
    let pcc = "data/35e/alderac_entertainment_group/empire/empire.pcc";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args(["check", pcc, "--pcgen-root", ".", "--format", "json"])
        .current_dir(&corpus)
        .output()
        .expect("runs rulebook");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    let fortitude = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "R0105" && d["message"].as_str().unwrap().contains("`Fortitude`"))
        .expect("an R0105 for the SAVE Fortitude");
    assert_eq!(
        fortitude["help"].as_str().unwrap(),
        "`Fortitude` is defined by campaign `3.5 RSRD Basics` \
         (data/35e/wizards_of_the_coast/rsrd/basics/rsrd__saves.lst:4), which this load does \
         not include; declare the dependency in \
         data/35e/alderac_entertainment_group/empire/empire.pcc: \
         `PRECAMPAIGN:1,INCLUDES=3.5 RSRD Basics`"
    );
}
