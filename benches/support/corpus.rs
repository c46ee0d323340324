//! The PCGen corpus the corpus benchmarks run on: its root and its load sets as `rulebook
//! check data` makes them (every selectable PCC its own load set).

use rulebook::load::{DiskFs, PcgenRoot, selectable_pccs};
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
