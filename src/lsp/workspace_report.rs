//! Workspace-wide pull diagnostics (`workspace/diagnostic`): the findings of every load set
//! of the workspace — every selectable PCC of its data folders, as `rulebook check` of the
//! folder checks them — merged per file as the published ones are ([`crate::lsp::merged`]).
//! The load sets around the open documents are the session's own checks; the others are
//! checked for the report by a [`ReportJob`] on rayon's threads, off the loop, and only
//! their findings are kept ([`SetFindings`]: the models of a whole data folder's load sets
//! would not fit in memory), until a file one of them holds changes. Each file's report
//! carries a result id (a hash of its list): a client that sends it back as a previous
//! result id gets "unchanged" while the list is the same, and a file that had findings and
//! has none gets an empty list.

use crate::lsp::checked::Checked;
use crate::lsp::diagnostics;
use crate::lsp::merged::{SetLists, merge};
use crate::lsp::recheck::CheckInputs;
use crate::lsp::uri;
use lsp_types as lsp;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// What one load set found, kept without its model.
#[derive(Debug)]
pub struct SetFindings {
    /// The load set, by PCC.
    pub pcc: PathBuf,
    /// The files it holds.
    holds: HashSet<PathBuf>,
    /// Its diagnostics by file.
    lists: Vec<(PathBuf, Vec<lsp::Diagnostic>)>,
}

impl SetFindings {
    /// The findings of `checked`, linked to `docs_base`.
    pub fn of(checked: &Checked, docs_base: &str) -> Self {
        SetFindings {
            pcc: checked.pcc.clone(),
            holds: checked.paths().map(Path::to_path_buf).collect(),
            lists: diagnostics::by_file(checked, docs_base, |_| true),
        }
    }

    /// True when the load set holds one of `paths`.
    pub fn holds_any(&self, paths: &[PathBuf]) -> bool {
        paths.iter().any(|p| self.holds.contains(p))
    }

    fn as_lists(&self) -> SetLists<'_> {
        SetLists {
            pcc: &self.pcc,
            holds: self.holds.iter().map(PathBuf::as_path).collect(),
            lists: &self.lists,
        }
    }
}

/// Load sets to check for the workspace's report, over a snapshot of the session.
#[derive(Debug)]
pub struct ReportJob {
    /// The session's report epoch when it was planned: findings of another are dropped.
    pub epoch: u64,
    /// The load sets, by PCC.
    pub sets: Vec<PathBuf>,
    pub(crate) inputs: CheckInputs,
    pub(crate) docs_base: String,
}

impl ReportJob {
    /// Checks the load sets one after the other, each model dropped as soon as its
    /// findings are taken. On one thread of its own: on rayon's, the hundreds of load sets
    /// of a data folder would queue the checks of the editor's edits behind them.
    pub fn run(self) -> Vec<SetFindings> {
        let ReportJob {
            sets,
            inputs,
            docs_base,
            ..
        } = self;
        (sets.iter())
            .map(|pcc| SetFindings::of(&inputs.check(pcc, false), &docs_base))
            .collect()
    }
}

/// The workspace's report from the findings of its load sets: every file with findings,
/// and each file the client had a result for (`previous`) that has none now (an empty
/// list). Open documents' reports carry their `versions`; paths are shown relative to
/// `root` in the labels.
pub fn report(
    sets: &[&SetFindings],
    root: Option<&Path>,
    versions: &HashMap<PathBuf, i32>,
    previous: &[lsp::PreviousResultId],
) -> lsp::WorkspaceDiagnosticReport {
    let lists: Vec<SetLists<'_>> = sets.iter().map(|s| s.as_lists()).collect();
    let mut merged: Vec<(PathBuf, Vec<lsp::Diagnostic>)> = merge(&lists, root)
        .into_iter()
        .filter(|(_, list)| !list.is_empty())
        .collect();
    let had: HashMap<PathBuf, &str> = (previous.iter())
        .filter_map(|p| Some((uri::to_path(&p.uri)?, p.value.as_str())))
        .collect();
    let now: HashSet<PathBuf> = merged.iter().map(|(p, _)| p.clone()).collect();
    merged.extend(
        (had.keys())
            .filter(|p| !now.contains(*p))
            .map(|p| (p.clone(), Vec::new())),
    );
    merged.sort_by(|a, b| a.0.cmp(&b.0));
    let items = merged
        .into_iter()
        .filter_map(|(path, items)| {
            let uri = uri::from_path(&path)?;
            let version = versions.get(&path).map(|v| i64::from(*v));
            let result_id = result_id(&items);
            if had.get(&path) == Some(&result_id.as_str()) {
                return Some(lsp::WorkspaceDocumentDiagnosticReport::Unchanged(
                    lsp::WorkspaceUnchangedDocumentDiagnosticReport {
                        uri,
                        version,
                        unchanged_document_diagnostic_report:
                            lsp::UnchangedDocumentDiagnosticReport { result_id },
                    },
                ));
            }
            Some(lsp::WorkspaceDocumentDiagnosticReport::Full(
                lsp::WorkspaceFullDocumentDiagnosticReport {
                    uri,
                    version,
                    full_document_diagnostic_report: lsp::FullDocumentDiagnosticReport {
                        result_id: Some(result_id),
                        items,
                    },
                },
            ))
        })
        .collect();
    lsp::WorkspaceDiagnosticReport { items }
}

/// A result id for a file's list: a hash of it.
fn result_id(items: &[lsp::Diagnostic]) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_string(items)
        .unwrap_or_default()
        .hash(&mut h);
    format!("{:016x}", h.finish())
}

/// The workspace pulls waiting for their report, and whether a report job runs.
#[derive(Debug, Default)]
pub struct Waiting {
    /// Each pull's id and the result ids the client had.
    pub pulls: Vec<(lsp_server::RequestId, Vec<lsp::PreviousResultId>)>,
    /// A report job runs.
    pub running: bool,
}
