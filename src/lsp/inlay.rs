//! `textDocument/inlayHint`: at the end of each GLOBALMODIFIER line that sets a global no
//! character can change, the value the data alone decides for it (`Face = 5,5`), as every
//! character starts with it ([`crate::check::CheckedSet::decided`]).

use crate::lsp::position::LineIndex;
use crate::lsp::session::Snapshot;
use crate::lsp::uri;
use crate::model::Applies;
use lsp_types as lsp;

/// The hints of the document in `p.range`, from the first load set holding it.
pub fn inlay_hints(snap: &Snapshot, p: &lsp::InlayHintParams) -> Option<Vec<lsp::InlayHint>> {
    let path = uri::to_path(&p.text_document.uri)?;
    let (checked, file) = snap.sets_of(&path).into_iter().next()?;
    let text = checked.source(file)?.text.as_str();
    let index = LineIndex::new(text);
    let ds = &checked.set.dataset;
    let mut hints: Vec<lsp::InlayHint> = Vec::new();
    for m in &ds.modifiers {
        if !matches!(m.applies, Applies::Global) || m.span.file != file {
            continue;
        }
        let Some(value) = checked.set.decided_value(m.variable) else {
            continue;
        };
        let Some(var) = ds.variables.get(m.variable.0 as usize) else {
            continue;
        };
        let from = (m.span.end as usize).min(text.len());
        let end = text
            .get(from..)
            .and_then(|rest| rest.find(['\n', '\r']))
            .map_or(text.len(), |i| from + i);
        let at = index.range(text, end, end).start;
        if at < p.range.start || p.range.end < at || hints.iter().any(|h| h.position == at) {
            continue;
        }
        hints.push(lsp::InlayHint {
            position: at,
            label: lsp::InlayHintLabel::String(format!("{} = {value}", var.name.as_str())),
            kind: None,
            text_edits: None,
            tooltip: Some(lsp::InlayHintTooltip::String(
                "decided by the data alone: every character starts with it".to_owned(),
            )),
            padding_left: Some(true),
            padding_right: None,
            data: None,
        });
    }
    Some(hints)
}
