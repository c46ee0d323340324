//! rulebook diagnostics as LSP diagnostics: code with a link to `docs/errors.md`, severity,
//! the secondary labels as related locations, `Unnecessary` for unused things, and the
//! edit the diagnostic suggests ([`Diagnostic::edit`]) carried in `data` for the code actions.

use crate::diagnostic::{Diagnostic, Severity};
use crate::lsp::checked::Checked;
use crate::lsp::position::LineIndex;
use crate::lsp::uri;
use crate::source::{FileId, Span};
use lsp_types as lsp;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The link to a code's entry in `docs/errors.md`, under `base` (the document's URL).
pub fn code_href(base: &str, d: &Diagnostic) -> Option<lsp::Uri> {
    let anchor = format!("{}-{}", d.code.id.to_ascii_lowercase(), d.code.name);
    lsp::Uri::from_str(&format!("{base}#{anchor}")).ok()
}

/// The location of a span (a line index of its file made for it: for the occasional
/// location a request answers with).
pub fn location(checked: &Checked, span: Span) -> Option<lsp::Location> {
    let path = checked.path(span.file)?;
    let source = checked.source(span.file)?;
    let index = LineIndex::of(source);
    Some(lsp::Location::new(
        uri::from_path(path)?,
        index.range(&source.text, span.start as usize, span.end as usize),
    ))
}

/// The line indexes of a load's files, each made once per conversion of its findings.
struct Indexes<'a> {
    checked: &'a Checked,
    made: HashMap<FileId, LineIndex>,
}

impl<'a> Indexes<'a> {
    fn new(checked: &'a Checked) -> Self {
        Indexes {
            checked,
            made: HashMap::new(),
        }
    }

    /// The text of a file of the load and its line index.
    fn of(&mut self, file: FileId) -> Option<(&'a str, &LineIndex)> {
        let source = self.checked.source(file)?;
        let index = self
            .made
            .entry(file)
            .or_insert_with(|| LineIndex::of(source));
        Some((&source.text, index))
    }

    fn range(&mut self, span: Span) -> Option<lsp::Range> {
        let (text, index) = self.of(span.file)?;
        Some(index.range(text, span.start as usize, span.end as usize))
    }

    fn location(&mut self, span: Span) -> Option<lsp::Location> {
        let uri = uri::from_path(self.checked.path(span.file)?)?;
        Some(lsp::Location::new(uri, self.range(span)?))
    }
}

/// Converts one diagnostic of the load `indexes` indexes.
fn to_lsp(d: &Diagnostic, indexes: &mut Indexes<'_>, docs_base: &str) -> Option<lsp::Diagnostic> {
    let range = indexes.range(d.span)?;
    let mut message = d.message.clone();
    if !d.primary_label.is_empty() && d.primary_label != d.message {
        message.push_str(&format!("\n{}", d.primary_label));
    }
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    for n in &d.notes {
        message.push_str(&format!("\nnote: {n}"));
    }
    let related: Vec<lsp::DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .filter_map(|l| {
            Some(lsp::DiagnosticRelatedInformation {
                location: indexes.location(l.span)?,
                message: l.message.clone(),
            })
        })
        .collect();
    let mut tags = Vec::new();
    if d.code.name.starts_with("unused") {
        tags.push(lsp::DiagnosticTag::UNNECESSARY);
    }
    if d.code.name.contains("deprecated") {
        tags.push(lsp::DiagnosticTag::DEPRECATED);
    }
    let data = indexes.of(d.span.file).and_then(|(text, index)| {
        let edits = d.edits(text);
        let (first, more) = edits.split_first()?;
        let at = |e: &crate::diagnostic::Edit| index.range(text, e.range.start, e.range.end);
        let more: Vec<serde_json::Value> = more
            .iter()
            .map(|e| serde_json::json!({ "replace": e.text, "range": at(e) }))
            .collect();
        Some(serde_json::json!({
            "replace": first.text,
            "range": at(first),
            "more": more,
            "safe": first.safety == crate::diagnostic::Safety::Safe,
        }))
    });
    Some(lsp::Diagnostic {
        range,
        severity: Some(severity(d.severity)),
        code: Some(lsp::NumberOrString::String(d.code.id.to_owned())),
        code_description: code_href(docs_base, d).map(|href| lsp::CodeDescription { href }),
        source: Some("rulebook".to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: (!tags.is_empty()).then_some(tags),
        data,
    })
}

/// The diagnostics of `checked` whose primary file is one `wanted` takes, grouped by its
/// path (only those are converted: a loader's check holds findings in hundreds of files,
/// and an edit publishes few of them).
pub fn by_file(
    checked: &Checked,
    docs_base: &str,
    wanted: impl Fn(&Path) -> bool,
) -> Vec<(PathBuf, Vec<lsp::Diagnostic>)> {
    let mut out: Vec<(PathBuf, Vec<lsp::Diagnostic>)> = Vec::new();
    // Where each file's list is in `out`; `None` for a file not wanted.
    let mut slots: HashMap<FileId, Option<usize>> = HashMap::new();
    let mut indexes = Indexes::new(checked);
    for d in &checked.set.diagnostics {
        let slot = *slots.entry(d.span.file).or_insert_with(|| {
            let path = checked.path(d.span.file).filter(|p| wanted(p))?;
            out.push((path.to_path_buf(), Vec::new()));
            Some(out.len() - 1)
        });
        let Some(slot) = slot else {
            continue;
        };
        if let (Some(l), Some((_, list))) = (to_lsp(d, &mut indexes, docs_base), out.get_mut(slot))
        {
            list.push(l);
        }
    }
    out.retain(|(_, list)| !list.is_empty());
    out
}

/// The finding for an opened data file that no PCC lists (`L0117`): `shown` is the file as
/// the user reads it (relative to the root), `nearest` the PCC nearest to it, if any, where
/// listing it would make it part of a load set. At the file's start (`file`'s byte 0).
pub fn unlisted(file: FileId, shown: &str, nearest: Option<&str>) -> Diagnostic {
    let d = Diagnostic::note(
        crate::load::codes::UNLISTED_FILE,
        Span::new(file, 0..0),
        format!("no PCC lists `{shown}`: PCGen never reads it and nothing checks it"),
    );
    match nearest {
        Some(pcc) => d.with_help(format!(
            "list it in a PCC under the token of its kind, e.g. in the nearest, `{pcc}`"
        )),
        None => d.with_help("list it in a PCC under the token of its kind"),
    }
}

/// A diagnostic at the start of a file that no load set holds (such as [`unlisted`]) as
/// the editor shows it.
pub fn at_file_start(d: &Diagnostic, docs_base: &str) -> lsp::Diagnostic {
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    lsp::Diagnostic {
        range: lsp::Range::default(),
        severity: Some(severity(d.severity)),
        code: Some(lsp::NumberOrString::String(d.code.id.to_owned())),
        code_description: code_href(docs_base, d).map(|href| lsp::CodeDescription { href }),
        source: Some("rulebook".to_owned()),
        message,
        ..Default::default()
    }
}

fn severity(s: Severity) -> lsp::DiagnosticSeverity {
    match s {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Note => lsp::DiagnosticSeverity::INFORMATION,
    }
}

/// The default `docs/errors.md` location: the copy in this source tree.
pub fn default_docs_base() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs")
        .join("errors.md");
    uri::from_path(&path).map_or_else(String::new, |u| u.as_str().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unlisted_file_is_reported_once_with_the_nearest_pcc() {
        let mut sources = crate::source::SourceMap::new();
        let file = sources.add(crate::source::SourceFile::new(
            "data/book/loose.lst",
            "Loose Feat\tTYPE:General\n",
            crate::source::TextEncoding::Utf8,
        ));
        let d = unlisted(file, "data/book/loose.lst", Some("data/book/book.pcc"));
        insta::assert_snapshot!(
            "L0117-unlisted-file",
            crate::diagnostic::render(std::slice::from_ref(&d), &sources, false)
        );
        let shown = at_file_start(&d, "");
        assert_eq!(shown.severity, Some(lsp::DiagnosticSeverity::INFORMATION));
        assert_eq!(shown.range, lsp::Range::default());
        assert!(shown.message.contains("`data/book/book.pcc`"));
    }
}
