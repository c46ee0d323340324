//! The shapes of `benches/scale_model.rs` at a size a debug test runs quickly: many
//! variables read through one hub, and one item granted many times. Their speed is
//! measured by the bench; these check that the indexes that make them fast give the same
//! answers (values, overlaps) as the scans they replaced.

use rulebook::character::file::{CharacterFile, build};
use rulebook::check::check_load_set;
use rulebook::load::{MemoryFs, PcgenRoot};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn root(files: &[(&str, &str, String)]) -> MemoryFs {
    let mut pcc = String::from("CAMPAIGN:Scale\nGAMEMODE:Test\nDATACONTROL:ctl.lst\n");
    let mut fs = MemoryFs::new()
        .with(
            "/pc/system/gameModes/Test/miscinfo.lst",
            "ALLOWEDMODES:Test\n",
        )
        .with(
            "/pc/data/s/ctl.lst",
            "DEFAULTVARIABLEVALUE:NUMBER|0\nDEFAULTVARIABLEVALUE:ORDEREDPAIR|0,0\n",
        );
    for (key, name, text) in files {
        pcc.push_str(&format!("{key}:{name}\n"));
        fs.insert(format!("/pc/data/s/{name}"), text.as_bytes());
    }
    fs.with("/pc/data/s/s.pcc", pcc)
}

fn check(fs: &MemoryFs) -> rulebook::check::CheckedSet {
    let root = PcgenRoot::at(fs, Path::new("/pc"));
    check_load_set(fs, &root, &[PathBuf::from("/pc/data/s/s.pcc")])
}

/// The codes of the errors and warnings (not notes such as "never used").
fn codes(set: &rulebook::check::CheckedSet) -> Vec<&'static str> {
    set.diagnostics
        .iter()
        .filter(|d| d.severity != rulebook::diagnostic::Severity::Note)
        .map(|d| d.code.id)
        .collect()
}

/// `n` globals read through one hub (`SET Hub+i`, `ADD 1`, `ADD 2`), plus `extra` lines.
fn hub_dataset(n: usize, extra: &str) -> MemoryFs {
    let mut v = String::from("GLOBAL:NUMBER=Hub\n");
    let mut m = String::from("MODIFY:Hub|SET|10\n");
    for i in 0..n {
        v.push_str(&format!("GLOBAL:NUMBER=V{i}\n"));
        m.push_str(&format!(
            "MODIFY:V{i}|SET|Hub+{i}\nMODIFY:V{i}|ADD|1\nMODIFY:V{i}|ADD|2\n"
        ));
    }
    v.push_str(extra);
    root(&[
        ("VARIABLE", "vars.lst", v),
        ("GLOBALMODIFIER", "mods.lst", m),
    ])
}

#[test]
fn thousands_of_variables_read_through_one_hub_check_and_solve() {
    let n = 4_000;
    let set = check(&hub_dataset(n, ""));
    assert!(codes(&set).is_empty(), "{:?}", codes(&set));
    let data_vars = set
        .dataset
        .variables
        .iter()
        .filter(|v| v.span.is_some())
        .count();
    assert_eq!(data_vars, n + 1); // + Hub
    let (c, problems) = build(Arc::new(set.dataset), &CharacterFile::default());
    assert!(problems.is_empty(), "{problems:?}");
    for i in [0, 1, n / 2, n - 1] {
        let got = c.get_global(&format!("V{i}")).map(|v| v.to_string());
        assert_eq!(got, Some((10 + i + 3).to_string()), "V{i}");
    }
}

/// The overlap rule looks names up rather than scanning: a clash with the first, a middle
/// and the last of thousands of variables is still found, once each.
#[test]
fn overlaps_among_thousands_of_variables_are_found() {
    let set = check(&hub_dataset(
        3_000,
        "LOCAL:PC.STAT|NUMBER=V0\nLOCAL:PC.EQUIPMENT|NUMBER=V1500\nLOCAL:PC.SKILL|NUMBER=V2999\nLOCAL:PC.SKILL|NUMBER=Fresh\nLOCAL:PC.STAT|NUMBER=Fresh\n",
    ));
    assert_eq!(
        codes(&set),
        ["M0104", "M0104", "M0104"],
        "{:?}",
        set.diagnostics
    );
}

#[test]
fn one_item_granted_thousands_of_times() {
    let fs = root(&[
        (
            "VARIABLE",
            "vars.lst",
            "GLOBAL:NUMBER=Hub\nGLOBAL:NUMBER=Total\nLOCAL:PC.EQUIPMENT|NUMBER=W\n".into(),
        ),
        (
            "EQUIPMENT",
            "equip.lst",
            "Club\tKEY:Club\tMODIFY:W|SET|Hub+1\tMODIFY:Total|ADD|1\n".into(),
        ),
        ("GLOBALMODIFIER", "mods.lst", "MODIFY:Hub|SET|4\n".into()),
    ]);
    let set = check(&fs);
    assert!(codes(&set).is_empty(), "{:?}", codes(&set));
    let n = 5_000;
    let file = CharacterFile {
        grant: vec!["EQUIPMENT:Club".to_owned(); n],
        remove: vec!["EQUIPMENT:Club".to_owned(); 10],
        ..CharacterFile::default()
    };
    let (c, problems) = build(Arc::new(set.dataset), &file);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(
        c.get_global("Total").map(|v| v.to_string()),
        Some((n - 10).to_string())
    );
    let clubs: Vec<String> = c
        .values()
        .into_iter()
        .filter(|(name, _)| name.ends_with(".W"))
        .map(|(_, v)| v.to_string())
        .collect();
    assert_eq!(clubs.len(), n - 10);
    assert!(clubs.iter().all(|v| v == "5"), "{clubs:?}");
}
