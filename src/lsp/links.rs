//! `textDocument/documentLink`: in a PCC, every file entry (`ABILITY:abilities.lst`) and
//! every `PCC:` include is a link to the file it names, resolved as the loader resolves it
//! (`@/`, `*/`, relative to the PCC), so that editors underline it and open it on a click.

use crate::load::campaign::parse_pcc;
use crate::lsp::position::LineIndex;
use crate::lsp::session::Snapshot;
use crate::lsp::uri;
use crate::lsp::workspace::is_pcc;
use crate::source::{FileId, SourceFile, Span, TextEncoding};
use lsp_types as lsp;
use std::path::Path;

/// The links of the PCC `doc`, read from its current text; none for other files.
pub fn document_links(snap: &Snapshot, doc: &lsp::Uri) -> Option<Vec<lsp::DocumentLink>> {
    let path = uri::to_path(doc)?;
    if !is_pcc(&path) {
        return None;
    }
    let root = &snap.workspace.as_ref()?.root;
    let text = snap.text(&path)?;
    let source = SourceFile::new(String::new(), text, TextEncoding::Utf8);
    let campaign = parse_pcc(&path, FileId(0), &source, root, &mut Vec::new());
    let index = LineIndex::new(&source.text);
    let link = |target: &Path, span: Span, what: String| {
        Some(lsp::DocumentLink {
            range: index.range(&source.text, span.start as usize, span.end as usize),
            target: Some(uri::from_path(target)?),
            tooltip: Some(what),
            data: None,
        })
    };
    let entries = campaign
        .entries
        .iter()
        .filter_map(|e| link(&e.path, e.span, format!("{:?} file", e.kind)));
    let includes = campaign
        .includes
        .iter()
        .filter_map(|(p, span)| link(p, *span, "included PCC".to_owned()));
    Some(entries.chain(includes).collect())
}
