//! `textDocument/formatting` and `textDocument/rangeFormatting`: the layout of `rulebook
//! fmt` ([`crate::fmt`]) on the editor's text. The formatter never adds or removes a line,
//! so the answer is one edit per changed line (only the lines in range for a range); a file
//! it cannot lay out (its kind unknown, not UTF-8, or a layout that would change what PCGen
//! reads) gets no edit.

use crate::fmt::{Target, format_text, physical_lines};
use crate::lsp::position::LineIndex;
use crate::lsp::session::Snapshot;
use crate::lsp::uri;
use lsp_types as lsp;
use std::path::Path;

/// What the document at `path` is: a PCC file, or an LST file of the kind a checked load
/// set read it as.
fn target(snap: &Snapshot, path: &Path) -> Option<Target> {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pcc"))
    {
        return Some(Target::Pcc);
    }
    snap.sets_of(path).into_iter().find_map(|(checked, id)| {
        checked
            .set
            .load
            .files
            .iter()
            .find(|f| f.file == id)
            .map(|f| Target::Lst(f.kind))
    })
}

/// The edits laying out the document, or only its lines `lines` (first and last, 0-based).
fn edits(snap: &Snapshot, doc: &lsp::Uri, lines: Option<(u32, u32)>) -> Vec<lsp::TextEdit> {
    let Some(path) = uri::to_path(doc) else {
        return Vec::new();
    };
    let (Some(target), Some(text)) = (target(snap, &path), snap.text(&path)) else {
        return Vec::new();
    };
    let Ok(formatted) = format_text(target, &text) else {
        return Vec::new();
    };
    line_edits(&text, &formatted.text, lines)
}

/// One edit per line that differs between `old` and `new` (which have the same lines), in
/// `lines` when given.
fn line_edits(old: &str, new: &str, lines: Option<(u32, u32)>) -> Vec<lsp::TextEdit> {
    let (before, after) = (physical_lines(old), physical_lines(new));
    if before.len() != after.len() {
        return Vec::new();
    }
    let index = LineIndex::new(old);
    let mut offset = 0;
    let mut out = Vec::new();
    for (n, ((a, a_break), (b, _))) in before.iter().zip(&after).enumerate() {
        let line = u32::try_from(n).unwrap_or(u32::MAX);
        let wanted = lines.is_none_or(|(first, last)| first <= line && line <= last);
        if a != b && wanted {
            let range = index.range(old, offset, offset + a.len());
            out.push(lsp::TextEdit::new(range, (*b).to_owned()));
        }
        offset += a.len() + a_break.len();
    }
    out
}

/// `textDocument/formatting`.
pub fn formatting(snap: &Snapshot, p: &lsp::DocumentFormattingParams) -> Vec<lsp::TextEdit> {
    edits(snap, &p.text_document.uri, None)
}

/// `textDocument/rangeFormatting`: the lines the range touches, aligned with the rest of
/// their block.
pub fn range_formatting(
    snap: &Snapshot,
    p: &lsp::DocumentRangeFormattingParams,
) -> Vec<lsp::TextEdit> {
    let lines = (p.range.start.line, p.range.end.line);
    edits(snap, &p.text_document.uri, Some(lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_changed_lines_in_range_are_edited() {
        let old = "# c\r\nA\tx\nB\ty\n";
        let new = "# c\r\nA\t\tx\nB\t\ty\n";
        let all = line_edits(old, new, None);
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].range.start, lsp::Position::new(1, 0));
        assert_eq!(all[0].range.end, lsp::Position::new(1, 3));
        assert_eq!(all[0].new_text, "A\t\tx");
        let one = line_edits(old, new, Some((2, 2)));
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].range.start.line, 2);
    }
}
