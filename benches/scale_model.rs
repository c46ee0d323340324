//! Scale of the model and solver on generated data (issue 14, "quadratic paths"): a
//! dataset of 100,000 global variables and 1,000,000 MODIFY lines (each variable
//! `SET Hub+i` and 9 `ADD`s, so one variable is read by 100,000 others), checked and
//! calc'd; and one equipment item granted 100,000 times (each instance's local variable
//! reads the same global). The baseline of the same run is the floor: splitting the same
//! text into lines. Results are recorded in docs/performance.md.

use criterion::{Criterion, criterion_group, criterion_main};
use rulebook::character::file::{CharacterFile, build};
use rulebook::check::check_load_set;
use rulebook::load::{MemoryFs, PcgenRoot};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A PCGen root in memory with one PCC listing `files` (PCC key, file name, text).
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

/// `vars` globals `V<i>`, each `SET Hub+i` and `mods - 1` ADDs.
fn many_variables(vars: usize, mods: usize) -> (MemoryFs, String) {
    let mut v = String::from("GLOBAL:NUMBER=Hub\n");
    let mut m = String::new();
    for i in 0..vars {
        v.push_str(&format!("GLOBAL:NUMBER=V{i}\n"));
        m.push_str(&format!("MODIFY:V{i}|SET|Hub+{i}\n"));
        for j in 1..mods {
            m.push_str(&format!("MODIFY:V{i}|ADD|{j}\n"));
        }
    }
    let text = format!("{v}{m}");
    (
        root(&[
            ("VARIABLE", "vars.lst", v),
            ("GLOBALMODIFIER", "mods.lst", m),
        ]),
        text,
    )
}

/// One equipment whose local variable reads a global, and a character granting it `n`
/// times.
fn one_item(n: usize) -> (MemoryFs, CharacterFile) {
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
    ]);
    let file = CharacterFile {
        grant: vec!["EQUIPMENT:Club".to_owned(); n],
        ..CharacterFile::default()
    };
    (fs, file)
}

fn pcc() -> Vec<PathBuf> {
    vec![PathBuf::from("/pc/data/s/s.pcc")]
}

fn floor(text: &str) -> usize {
    text.lines().filter(|l| !l.trim().is_empty()).count()
}

fn bench(c: &mut Criterion) {
    let (fs, text) = many_variables(100_000, 10);
    let root = PcgenRoot::at(&fs, Path::new("/pc"));
    let mut g = c.benchmark_group("vars_100k_mods_1m");
    g.sample_size(10);
    g.bench_function("floor_split_lines", |b| b.iter(|| black_box(floor(&text))));
    g.bench_function("check", |b| {
        b.iter(|| {
            let set = check_load_set(&fs, &root, &pcc());
            assert!(set.diagnostics.is_empty());
            black_box(set.dataset.modifiers.len())
        })
    });
    g.bench_function("calc", |b| {
        b.iter(|| {
            let set = check_load_set(&fs, &root, &pcc());
            let (character, problems) = build(Arc::new(set.dataset), &CharacterFile::default());
            assert!(problems.is_empty());
            black_box(character.values().len())
        })
    });
    g.finish();

    let (fs, file) = one_item(100_000);
    let root = PcgenRoot::at(&fs, Path::new("/pc"));
    let set = check_load_set(&fs, &root, &pcc());
    let dataset = Arc::new(set.dataset);
    let mut g = c.benchmark_group("item_granted_100k");
    g.sample_size(10);
    g.bench_function("calc_character", |b| {
        b.iter(|| {
            let (character, problems) = build(Arc::clone(&dataset), &file);
            assert!(problems.is_empty());
            black_box(character.get_global("Total").map(|v| v.to_string()))
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
