//! The whole PCGen corpus (`../shared/pcgen-corpus`: every dataset PCGen ships) checked as
//! `rulebook check data` does — every selectable PCC its own load set, in parallel over one
//! file cache — beside its floor: reading every `.pcc`/`.lst` once and counting its lines.
//! Also the first 1, 10 and 100 load sets, to show how the cost grows with the work.
//! Skipped (with a note) when the corpus is absent (`PCGEN_CORPUS` overrides its path). Results are in docs/performance.md.

use criterion::{Criterion, criterion_group, criterion_main};
use rulebook::check::{RunReport, check_in_order};
use rulebook::load::{CampaignIndex, DiskFs, FileCache, FileSystem, PcgenRoot, selectable_pccs};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Every `.pcc` and `.lst` file below the corpus.
fn data_files(root: &Path) -> Vec<PathBuf> {
    DiskFs
        .files_below(root)
        .into_iter()
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pcc") || e.eq_ignore_ascii_case("lst"))
        })
        .collect()
}

/// The floor: read each file once and count its lines.
fn floor(files: &[PathBuf]) -> usize {
    files
        .iter()
        .map(|f| std::fs::read(f).map_or(0, |b| b.iter().filter(|c| **c == b'\n').count()))
        .sum()
}

/// Checks the load sets as `rulebook check` does; returns the totals.
fn check(root: &PcgenRoot, sets: &[Vec<PathBuf>]) -> (usize, usize) {
    let mut run = RunReport::new();
    let index = CampaignIndex::build(&DiskFs, root);
    check_in_order(&DiskFs, root, sets, &index, &FileCache::new(), |report| {
        run.add(&report);
    });
    let s = run.summary();
    (s.errors + s.warnings + s.notes, s.load_sets)
}

fn bench(c: &mut Criterion) {
    // `PCGEN_CORPUS` points elsewhere (e.g. from a worktree one folder deeper).
    let corpus = std::env::var_os("PCGEN_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/pcgen-corpus"),
        PathBuf::from,
    );
    if !corpus.join("system/gameModes").is_dir() {
        eprintln!("note: ../shared/pcgen-corpus is missing; corpus benchmark skipped");
        return;
    }
    let root = PcgenRoot::at(&DiskFs, &corpus);
    let files = data_files(&corpus);
    let sets: Vec<Vec<PathBuf>> = selectable_pccs(&DiskFs, &root.data)
        .unwrap_or_default()
        .into_iter()
        .map(|p| vec![p])
        .collect();
    let mut g = c.benchmark_group("corpus");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("floor_read_every_file", |b| {
        b.iter(|| black_box(floor(&files)))
    });
    for n in [1, 10, 100, sets.len()] {
        let first = sets.get(..n).unwrap_or(&sets);
        g.bench_function(format!("check_sets/{n}"), |b| {
            b.iter(|| black_box(check(&root, first)))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
