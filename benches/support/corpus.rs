//! The PCGen corpus the corpus benchmarks run on: its root and its load sets as `rulebook
//! check data` makes them (every selectable PCC its own load set).

use rulebook::check::{RunReport, check_in_order};
use rulebook::load::{CampaignIndex, DiskFs, FileCache, PcgenRoot, selectable_pccs};
use std::path::{Path, PathBuf};

/// `../shared/pcgen-corpus` (or `PCGEN_CORPUS`, e.g. from a worktree one folder deeper) as
/// a PCGen root with its load sets; `None` (after a note naming `bench`) when it is absent.
pub fn corpus(bench: &str) -> Option<(PathBuf, PcgenRoot, Vec<Vec<PathBuf>>)> {
    let corpus = std::env::var_os("PCGEN_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/pcgen-corpus"),
        PathBuf::from,
    );
    if !corpus.join("system/gameModes").is_dir() {
        eprintln!("note: ../shared/pcgen-corpus is missing; {bench} benchmark skipped");
        return None;
    }
    let root = PcgenRoot::at(&DiskFs, &corpus);
    let sets = selectable_pccs(&DiskFs, &root.data)
        .files
        .into_iter()
        .map(|p| vec![p])
        .collect();
    Some((corpus, root, sets))
}

/// What a run leaves that `rulebook check` never frees (`src/cli/check.rs` leaves the
/// run's file cache and campaign index to the process exit): the benchmarks drop it
/// outside their timing.
pub struct Leftovers {
    #[allow(dead_code)]
    cache: FileCache,
    #[allow(dead_code)]
    index: CampaignIndex,
}

/// Checks the load sets as `rulebook check` does; returns the number of findings and of
/// load sets, and what the CLI would not free.
pub fn check(root: &PcgenRoot, sets: &[Vec<PathBuf>]) -> ((usize, usize), Leftovers) {
    let mut run = RunReport::new();
    let index = CampaignIndex::build_parallel(&DiskFs, root);
    let cache = FileCache::new();
    check_in_order(&DiskFs, root, sets, &index, &cache, |report| {
        run.add(&report);
    });
    let s = run.summary();
    (
        (s.errors + s.warnings + s.notes, s.load_sets),
        Leftovers { cache, index },
    )
}
