//! A re-check as a value: the load sets to check and everything they read, taken from the
//! session when an edit arrives (a snapshot: the editor's texts, the file cache, the campaign
//! index, the policy), so that it runs on a worker thread while the session goes on taking
//! edits and answering requests (ruff's server works so). A newer edit cancels it: the
//! session plans a new job covering this one's load sets too and sets this one's flag, which
//! the job reads before each load set; its result is then dropped by its generation.

use crate::check::check_load_set_cached;
use crate::config::policy::Policy;
use crate::load::{CampaignIndex, FileCache, PcgenRoot};
use crate::lsp::checked::Checked;
use crate::lsp::overlay::OverlayFs;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Load sets to check over a snapshot of the session.
#[derive(Debug)]
pub struct CheckJob {
    /// Which of the session's plans this is (a later one supersedes it).
    pub generation: u64,
    /// The load sets, by PCC.
    pub sets: Vec<PathBuf>,
    pub(crate) fs: OverlayFs,
    pub(crate) root: PcgenRoot,
    pub(crate) index: Arc<CampaignIndex>,
    pub(crate) cache: Arc<FileCache>,
    pub(crate) policy: Option<Policy>,
    pub(crate) cancel: Arc<AtomicBool>,
}

/// What a [`CheckJob`] found.
#[derive(Debug)]
pub struct CheckDone {
    /// The job's generation.
    pub generation: u64,
    /// The checked load sets; `None` when the job was cancelled before it finished.
    pub checked: Option<Vec<Checked>>,
}

impl CheckJob {
    /// Checks the load sets, in parallel over the shared file cache (as `rulebook check`
    /// checks a folder), each as `rulebook check` of its PCC with the session's policy.
    /// Stops at the next load set once cancelled.
    pub fn run(self) -> CheckDone {
        use rayon::prelude::*;
        let CheckJob {
            generation,
            sets,
            fs,
            root,
            index,
            cache,
            policy,
            cancel,
        } = self;
        let check = |pcc: PathBuf| {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let mut set =
                check_load_set_cached(&fs, &root, std::slice::from_ref(&pcc), &index, &cache);
            if let Some(policy) = &policy {
                policy.apply_in(&mut set.diagnostics, &set.load.sources, &root.root);
            }
            Some(Checked::new(pcc, set))
        };
        // One load set (the usual edit) is checked on this thread: handing it to the pool
        // only costs.
        let checked: Option<Vec<Checked>> = if sets.len() == 1 {
            sets.into_iter().map(check).collect()
        } else {
            sets.into_par_iter().map(check).collect()
        };
        let cancelled = cancel.load(Ordering::Relaxed);
        CheckDone {
            generation,
            checked: checked.filter(|_| !cancelled),
        }
    }
}
