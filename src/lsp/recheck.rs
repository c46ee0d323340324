//! A re-check as a value: the load sets to check and everything they read, taken from the
//! session when an edit arrives (a snapshot: the editor's texts, the file cache, the campaign
//! index, the policy), so that it runs on a worker thread while the session goes on taking
//! edits and answering requests (ruff's server works so). A newer edit cancels it: the
//! session plans a new job covering this one's load sets too and sets this one's flag, which
//! the job reads before each load set; its result is then dropped by its generation.
//!
//! A job may have a first stage ([`First`]): the smallest load set holding the edited file,
//! checked before the others and handed back on its own, so the editor shows that file's
//! findings in the time of one book rather than of every loader that includes it. Until the
//! data folder's indexes are built (the first check of a session reads and indexes every
//! campaign, a second and more on PCGen's whole data), that stage checks the set alone
//! ([`check_alone`]): what it finds needs nothing outside the set. The last stage
//! then checks every set in full, and its result is what the session keeps.

use crate::check::{check_alone, check_load_set_cached};
use crate::config::policy::Policy;
use crate::load::{CampaignIndex, FileCache, PcgenRoot, load_cached};
use crate::lsp::checked::Checked;
use crate::lsp::overlay::OverlayFs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a check of a load set reads, taken from the session: the editor's texts over the
/// disk, the root, the campaign index, the shared file cache and the policy.
#[derive(Clone, Debug)]
pub struct CheckInputs {
    pub(crate) fs: OverlayFs,
    pub(crate) root: PcgenRoot,
    pub(crate) index: Arc<CampaignIndex>,
    pub(crate) cache: Arc<FileCache>,
    pub(crate) policy: Option<Policy>,
}

impl CheckInputs {
    /// The load set of `pcc` checked as `rulebook check` of it with the session's policy
    /// (`alone`: without the data folder's other campaigns, [`check_alone`]).
    pub fn check(&self, pcc: &Path, alone: bool) -> Checked {
        let CheckInputs {
            fs,
            root,
            index,
            cache,
            policy,
        } = self;
        let pccs = [pcc.to_path_buf()];
        let mut set = if alone {
            check_alone(load_cached(fs, root, &pccs, index, cache), cache)
        } else {
            check_load_set_cached(fs, root, &pccs, index, cache)
        };
        if let Some(policy) = policy {
            policy.apply_in(&mut set.diagnostics, &set.load.sources, &root.root);
        }
        let [pcc] = pccs;
        Checked::new(pcc, set)
    }
}

/// Load sets to check over a snapshot of the session.
#[derive(Debug)]
pub struct CheckJob {
    /// Which of the session's plans this is (a later one supersedes it).
    pub generation: u64,
    /// The load set checked and handed back first, if any.
    pub first: Option<First>,
    /// The load sets of the last stage, by PCC.
    pub sets: Vec<PathBuf>,
    pub(crate) inputs: CheckInputs,
    pub(crate) cancel: Arc<AtomicBool>,
}

/// The first stage of a [`CheckJob`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct First {
    /// The load set, by PCC.
    pub pcc: PathBuf,
    /// Checked alone, without the data folder's other campaigns (their indexes are not
    /// built yet); the last stage checks it again in full.
    pub alone: bool,
}

/// What one stage of a [`CheckJob`] found.
#[derive(Debug)]
pub struct CheckDone {
    /// The job's generation.
    pub generation: u64,
    /// The checked load sets; `None` when the job was cancelled before it finished.
    pub checked: Option<Vec<Checked>>,
    /// The job's last stage: the session keeps what it found, and the check is over.
    pub last: bool,
}

impl CheckJob {
    /// Checks the first stage's load set, then the others in parallel over the shared file
    /// cache (as `rulebook check` checks a folder), each as `rulebook check` of its PCC with
    /// the session's policy, handing each stage's result to `done` as soon as it is in.
    /// Stops at the next load set once cancelled (the last result is then `None`).
    pub fn run(self, mut done: impl FnMut(CheckDone)) {
        use rayon::prelude::*;
        let CheckJob {
            generation,
            first,
            sets,
            inputs,
            cancel,
        } = self;
        let check = |pcc: &PathBuf, alone: bool| {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            Some(inputs.check(pcc, alone))
        };
        let stage = |checked: Option<Vec<Checked>>, last: bool| CheckDone {
            generation,
            checked: checked.filter(|_| !cancel.load(Ordering::Relaxed)),
            last,
        };
        if let Some(first) = &first {
            match check(&first.pcc, first.alone) {
                Some(checked) => done(stage(Some(vec![checked]), false)),
                None => return done(stage(None, true)),
            }
        }
        // One load set (the usual edit) is checked on this thread: handing it to the pool
        // only costs.
        let checked: Option<Vec<Checked>> = if sets.len() == 1 {
            sets.iter().map(|p| check(p, false)).collect()
        } else {
            sets.par_iter().map(|p| check(p, false)).collect()
        };
        done(stage(checked, true));
    }
}
