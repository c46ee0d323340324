//! Load+check time and throughput for each real PCGen dataset beside the repo, next to the
//! floor: reading the same files and splitting them into lines, and the token validator's
//! share of the check (`vocabulary`, on the loaded set). Skipped (with a note) when
//! `../shared/pcgen` is missing. Results are recorded in docs/performance.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rulebook::check::check_load_set;
use rulebook::load::{DiskFs, PcgenRoot};
use std::hint::black_box;
use std::path::{Path, PathBuf};

const DATASETS: [(&str, &str); 3] = [
    (
        "pf1_core",
        "data/pathfinder/paizo/roleplaying_game/core_rulebook/core_rulebook.pcc",
    ),
    ("pf2e_core", "data/pathfinder_2e/core_rulebook/_.pcc"),
    (
        "starfinder_core",
        "data/starfinder/paizo/core/_starfinder_core_rulebook.pcc",
    ),
];

/// The files a load set reads (PCCs included), found by loading it once.
fn files_of(root: &PcgenRoot, pcc: &Path) -> Vec<PathBuf> {
    let set = check_load_set(&DiskFs, root, &[pcc.to_path_buf()]);
    set.load
        .sources
        .iter()
        .map(|(_, f)| root.root.join(&f.path))
        .filter(|p| p.is_file())
        .collect()
}

fn floor(files: &[PathBuf]) -> usize {
    let mut lines = 0;
    for f in files {
        let bytes = std::fs::read(f).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes);
        lines += text.lines().filter(|l| !l.trim().is_empty()).count();
    }
    lines
}

fn bench(c: &mut Criterion) {
    // `../shared` beside the main checkout; `../../shared` from a worktree under `wt/`.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = ["../shared/pcgen", "../../shared/pcgen"]
        .iter()
        .map(|p| manifest.join(p))
        .find(|p| p.join("system").is_dir())
        .unwrap_or_else(|| manifest.join("../shared/pcgen"));
    if !shared.join("system").is_dir() {
        eprintln!("note: ../shared/pcgen is missing; load benchmark skipped");
        return;
    }
    let root = PcgenRoot::at(&DiskFs, &shared);
    let mut all = Vec::new();
    for (name, pcc) in DATASETS {
        let pcc = shared.join(pcc);
        let files = files_of(&root, &pcc);
        let bytes: u64 = files
            .iter()
            .map(|f| std::fs::metadata(f).map_or(0, |m| m.len()))
            .sum();
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Bytes(bytes));
        g.sample_size(20);
        g.bench_function("floor_read_split", |b| b.iter(|| black_box(floor(&files))));
        g.bench_function("load_check", |b| {
            b.iter(|| black_box(check_load_set(&DiskFs, &root, std::slice::from_ref(&pcc))))
        });
        // The token validator's share of `load_check` (issue 10: at most 10 % on top of the
        // rest): the same validation on the set already loaded, so the check without the
        // validator is `load_check` minus this, in the same run.
        let loaded = check_load_set(&DiskFs, &root, std::slice::from_ref(&pcc));
        g.bench_function("vocabulary", |b| {
            b.iter(|| black_box(rulebook::vocabulary::check_load_set(&loaded.load)))
        });
        g.finish();
        all.push(pcc);
    }
    let mut g = c.benchmark_group("all_three");
    g.sample_size(10);
    g.bench_function("load_check", |b| {
        b.iter(|| {
            for pcc in &all {
                black_box(check_load_set(&DiskFs, &root, std::slice::from_ref(pcc)));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
