//! The whole PCGen corpus (`../shared/pcgen-corpus`: every dataset PCGen ships) checked as
//! `rulebook check data` does — every selectable PCC its own load set, in parallel over one
//! file cache — beside its floor: reading every `.pcc`/`.lst` once and counting its lines.
//! Also the first 1, 10 and 100 load sets, to show how the cost grows with the work. As
//! the CLI leaves the run's file cache and campaign index to the process exit, they are
//! dropped outside the timing (`CORPUS_SETS` prints how long dropping them takes).
//! Skipped (with a note) when the corpus is absent (`PCGEN_CORPUS` overrides its path). Results are in docs/performance.md.
//!
//! Memory cannot be measured inside one criterion process (its peak is the largest case's),
//! so `CORPUS_SETS=N cargo bench --bench corpus` instead checks the first `N` load sets once
//! (`all` for every one) and prints the wall time, the CPU time and the peak resident set
//! size of that process alone; docs/performance.md runs it for 1, 10, 100 and all.

#[path = "support/corpus.rs"]
mod support;

use criterion::{Criterion, criterion_group, criterion_main};
use rulebook::load::{DiskFs, FileSystem, PcgenRoot};
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

/// CPU time (user + system) and peak resident set size of this process so far.
fn usage() -> (Duration, u64) {
    // SAFETY: getrusage only writes the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a rusage of this process.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return (Duration::ZERO, 0);
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.unsigned_abs())
            + Duration::from_micros(t.tv_usec.unsigned_abs())
    };
    // ru_maxrss is in KiB on Linux.
    (
        time(u.ru_utime) + time(u.ru_stime),
        u.ru_maxrss.unsigned_abs() * 1024,
    )
}

/// `CORPUS_SETS=N`: checks the first `N` load sets once and prints what it cost.
fn measure_once(root: &PcgenRoot, sets: &[Vec<PathBuf>], n: &str) {
    let n = if n == "all" {
        sets.len()
    } else {
        n.parse().unwrap_or(sets.len())
    };
    let first = sets.get(..n).unwrap_or(sets);
    let (cpu_before, rss_before) = usage();
    let start = std::time::Instant::now();
    let ((findings, load_sets), leftovers) = support::check(root, first);
    let wall = start.elapsed();
    let (cpu_after, rss) = usage();
    let start = std::time::Instant::now();
    drop(leftovers);
    let dropped = start.elapsed();
    println!(
        "corpus/check_sets/{n}: {load_sets} load sets, {findings} findings; wall {:.3} s, \
         CPU {:.3} s, peak RSS {:.1} MB (before checking: {:.1} MB); then freeing the file \
         cache and index (which the CLI leaves to the process exit) {:.3} s",
        wall.as_secs_f64(),
        (cpu_after.saturating_sub(cpu_before)).as_secs_f64(),
        rss as f64 / 1e6,
        rss_before as f64 / 1e6,
        dropped.as_secs_f64(),
    );
}

fn bench(c: &mut Criterion) {
    let Some((corpus, root, sets)) = support::corpus("corpus") else {
        return;
    };
    let files = data_files(&corpus);
    if let Some(n) = std::env::var_os("CORPUS_SETS") {
        measure_once(&root, &sets, &n.to_string_lossy());
        return;
    }
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
            // Timed as the CLI runs: what it never frees is dropped outside the timing.
            b.iter_with_large_drop(|| support::check(&root, first))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
