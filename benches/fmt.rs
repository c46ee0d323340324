//! `rulebook fmt` of the whole PCGen corpus (`../shared/pcgen-corpus`) beside `rulebook
//! check` of it, in the same run: the formatter must stay within twice the time of the
//! check (issue 34). `fmt` is timed as `rulebook fmt --check --no-verify` works: the kinds
//! read from every PCC, then every LST and PCC file read and laid out in memory, in
//! parallel (nothing written); `check` as `rulebook check data` works (every selectable PCC
//! its own load set, in parallel over one file cache). Skipped (with a note) when the corpus
//! is absent (`PCGEN_CORPUS` overrides its path). Results are in docs/formatting.md.

#[path = "support/corpus.rs"]
mod support;

use criterion::{Criterion, criterion_group, criterion_main};
use rayon::prelude::*;
use rulebook::fmt::{Target, format_bytes, kinds::kinds_listed};
use rulebook::load::{DiskFs, FileSystem};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn has_extension(p: &Path, ext: &str) -> bool {
    p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Lays out every PCC and listed LST file below `data` in memory; the number of files that
/// would change.
fn fmt(data: &Path) -> usize {
    let files = DiskFs.files_below(data);
    let pccs: Vec<PathBuf> = files
        .iter()
        .filter(|p| has_extension(p, "pcc"))
        .cloned()
        .collect();
    let kinds = kinds_listed(&DiskFs, &pccs);
    let targets: Vec<(PathBuf, Target)> = files
        .into_iter()
        .filter_map(|p| {
            if has_extension(&p, "pcc") {
                return Some((p, Target::Pcc));
            }
            let kinds = kinds.get(&p)?;
            let kind = kinds.first().filter(|_| kinds.len() == 1)?;
            Some((p, Target::Lst(*kind)))
        })
        .collect();
    targets
        .par_iter()
        .filter(|(path, target)| {
            let Ok(bytes) = DiskFs.read(path) else {
                return false;
            };
            format_bytes(*target, &bytes).is_ok_and(|f| f.text.as_bytes() != bytes.as_slice())
        })
        .count()
}

fn bench(c: &mut Criterion) {
    let Some((_, root, sets)) = support::corpus("fmt") else {
        return;
    };
    let mut g = c.benchmark_group("fmt_vs_check");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("fmt_corpus", |b| b.iter(|| black_box(fmt(&root.data))));
    g.bench_function("check_corpus", |b| {
        b.iter_with_large_drop(|| support::check(&root, &sets))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
