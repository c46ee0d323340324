//! `rulebook lsp` after a one-line edit: the time from the new text to the diagnostics to
//! publish (the session re-checks the load sets holding the file and diffs what it published),
//! next to the same run's baseline, a whole `rulebook check` of the load set from disk.
//! Targets: Starfinder Core's `scr__stats.lst` ≤ 50 ms, Pathfinder 1e Core's `cr__stats.lst`
//! ≤ 100 ms. Skipped (with a note) when `../shared/pcgen` is missing.

use criterion::{Criterion, criterion_group, criterion_main};
use rulebook::check::check_load_set;
use rulebook::load::{DiskFs, PcgenRoot};
use rulebook::lsp::Session;
use std::hint::black_box;
use std::path::{Path, PathBuf};

const CASES: [(&str, &str, &str); 2] = [
    (
        "starfinder_core",
        "data/starfinder/paizo/core/_starfinder_core_rulebook.pcc",
        "data/starfinder/paizo/core/scr__stats.lst",
    ),
    (
        "pf1_core",
        "data/pathfinder/paizo/roleplaying_game/core_rulebook/core_rulebook.pcc",
        "data/pathfinder/paizo/roleplaying_game/core_rulebook/cr__stats.lst",
    ),
];

fn shared() -> Option<PathBuf> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    [
        here.join("../shared/pcgen"),
        here.join("../../shared/pcgen"),
    ]
    .into_iter()
    .find(|p| p.join("system").is_dir())
}

/// The file's text with its first line's last character changed (and the original).
fn edited(text: &str) -> (String, String) {
    let line_end = text
        .lines()
        .position(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .and_then(|n| {
            let mut at = 0;
            for (i, l) in text.split_inclusive('\n').enumerate() {
                at += l.len();
                if i == n {
                    return Some(at - 1);
                }
            }
            None
        })
        .unwrap_or(text.len());
    let mut changed = text.to_owned();
    changed.insert_str(line_end, "\tSORTKEY:x");
    (text.to_owned(), changed)
}

fn bench(c: &mut Criterion) {
    let Some(shared) = shared() else {
        eprintln!("note: ../shared/pcgen is missing; lsp benchmark skipped");
        return;
    };
    let root = PcgenRoot::at(&DiskFs, &shared);
    for (name, pcc, file) in CASES {
        let pcc = shared.join(pcc);
        let file = rulebook::load::fs::normalize(&std::path::absolute(shared.join(file)).unwrap());
        let Ok(text) = std::fs::read_to_string(&file) else {
            eprintln!("note: {} is missing; skipped", file.display());
            continue;
        };
        let (original, changed) = edited(&text);
        let mut session = Session::new(Some(&shared));
        session.open(&file, &original, 0);
        let mut g = c.benchmark_group(name);
        g.sample_size(20);
        let mut version = 0;
        g.bench_function("diagnostics_after_one_line_edit", |b| {
            b.iter(|| {
                version += 1;
                let text = if version % 2 == 0 {
                    &original
                } else {
                    &changed
                };
                black_box(session.change(&file, text, version))
            })
        });
        g.bench_function("baseline_full_check_from_disk", |b| {
            b.iter(|| black_box(check_load_set(&DiskFs, &root, std::slice::from_ref(&pcc))))
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
