//! Diagnostics: the one value every layer uses to tell the user about a problem.
//!
//! Diagnostics are plain data. They are collected (never "first error wins") and rendered
//! only at the edge: [`render`] turns them into ariadne reports, [`to_json`] into the JSON
//! the CLI prints for CI. Nothing here prints.

use crate::source::{SourceMap, Span};
use serde::Serialize;
use std::fmt;

/// How serious a diagnostic is.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Information that needs no action (e.g. an unused variable).
    Note,
    /// Probably a problem, or a place where PCGen would behave differently.
    Warning,
    /// The data is wrong; the load or formula cannot be used as written.
    Error,
}

/// A stable error code such as `F0101`, with a short kebab-case name.
///
/// Codes are grouped by the layer that reports them: `P` formula syntax, `F` formula
/// checking, `E` evaluation, `L` loading files, `T` token syntax, `M` the data model,
/// `S` the solver, `D` dialects. Every code is documented in `docs/errors.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code {
    /// The code itself, e.g. `"F0101"`.
    pub id: &'static str,
    /// A short name, e.g. `"unknown-variable"`.
    pub name: &'static str,
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id)
    }
}

/// A secondary message attached to a span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What to say there.
    pub message: String,
}

/// One problem found in user input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// How serious.
    pub severity: Severity,
    /// Stable code.
    pub code: Code,
    /// One-line summary.
    pub message: String,
    /// The exact span the problem is about.
    pub span: Span,
    /// Label text on the primary span (defaults to the message when empty).
    pub primary_label: String,
    /// Further spans with messages.
    pub labels: Vec<Label>,
    /// How to fix it.
    pub help: Option<String>,
    /// Extra facts (e.g. "PCGen would reject this").
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic of `severity` with `code` and `message` at `span`.
    pub fn new(severity: Severity, code: Code, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            span,
            primary_label: String::new(),
            labels: Vec::new(),
            help: None,
            notes: Vec::new(),
        }
    }

    /// An error.
    pub fn error(code: Code, span: Span, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, span, message)
    }

    /// A warning.
    pub fn warning(code: Code, span: Span, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, span, message)
    }

    /// A note.
    pub fn note(code: Code, span: Span, message: impl Into<String>) -> Self {
        Self::new(Severity::Note, code, span, message)
    }

    /// Sets the text of the label on the primary span.
    pub fn with_label(mut self, text: impl Into<String>) -> Self {
        self.primary_label = text.into();
        self
    }

    /// Adds a secondary label.
    pub fn with_secondary(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: text.into(),
        });
        self
    }

    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Sorts diagnostics by file, position, then code: the order users see them in.
pub fn sort(diagnostics: &mut [Diagnostic], sources: &SourceMap) {
    diagnostics.sort_by(|a, b| {
        let pa = sources
            .get(a.span.file)
            .map(|f| f.path.as_str())
            .unwrap_or("");
        let pb = sources
            .get(b.span.file)
            .map(|f| f.path.as_str())
            .unwrap_or("");
        (pa, a.span.start, a.span.end, a.code.id, &a.message).cmp(&(
            pb,
            b.span.start,
            b.span.end,
            b.code.id,
            &b.message,
        ))
    });
}

/// Renders diagnostics as ariadne reports (colour only when `color` is true).
pub fn render(diagnostics: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    use ariadne::{Config, IndexType, Label as ALabel, Report, ReportKind};
    // Only the files the diagnostics point into (a load may hold hundreds of large files).
    let used: std::collections::HashSet<crate::source::FileId> = diagnostics
        .iter()
        .flat_map(|d| std::iter::once(d.span.file).chain(d.labels.iter().map(|l| l.span.file)))
        .collect();
    // Keyed by file id, shown as the path: two files may share a display path (two
    // formulas typed on the command line), and each span must be read in its own text.
    let mut cache = ariadne::sources(
        sources
            .iter()
            .filter(|(id, _)| used.contains(id))
            .map(|(id, f)| (SourceKey(id, f.path.clone()), f.text.clone())),
    );
    let mut out = Vec::new();
    for d in diagnostics {
        let path = |span: Span| {
            SourceKey(
                span.file,
                sources
                    .get(span.file)
                    .map(|f| f.path.clone())
                    .unwrap_or_default(),
            )
        };
        let clamp = |span: Span| {
            let text = sources.get(span.file).map_or("", |f| f.text.as_str());
            let mut s = span.range().start.min(text.len());
            let mut e = span.range().end.min(text.len()).max(s);
            while s > 0 && !text.is_char_boundary(s) {
                s -= 1;
            }
            while e < text.len() && !text.is_char_boundary(e) {
                e += 1;
            }
            s..e
        };
        if sources.get(d.span.file).is_none() && d.labels.is_empty() {
            detached(d, &mut out);
            continue;
        }
        let kind = match d.severity {
            Severity::Error => ReportKind::Error,
            Severity::Warning => ReportKind::Warning,
            Severity::Note => ReportKind::Advice,
        };
        let primary = (path(d.span), clamp(d.span));
        let mut report = Report::build(kind, primary.clone())
            .with_config(
                Config::default()
                    .with_color(color)
                    .with_index_type(IndexType::Byte),
            )
            .with_code(d.code.id)
            .with_message(&d.message)
            .with_label(
                ALabel::new(primary).with_message(if d.primary_label.is_empty() {
                    &d.message
                } else {
                    &d.primary_label
                }),
            );
        for l in &d.labels {
            report = report
                .with_label(ALabel::new((path(l.span), clamp(l.span))).with_message(&l.message));
        }
        if let Some(help) = &d.help {
            report = report.with_help(help);
        }
        for n in &d.notes {
            report = report.with_note(n);
        }
        if report.finish().write(&mut cache, &mut out).is_err() {
            out.extend_from_slice(
                format!("{}[{}]: {}\n", kind_word(d.severity), d.code, d.message).as_bytes(),
            );
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A diagnostic about no loaded file ([`Span::DETACHED`], e.g. an API call): the
/// header ariadne would print, then the help and the notes, without a source excerpt.
fn detached(d: &Diagnostic, out: &mut Vec<u8>) {
    let mut text = format!("[{}] {}: {}\n", d.code.id, kind_word(d.severity), d.message);
    if let Some(help) = &d.help {
        text.push_str(&format!("    Help: {help}\n"));
    }
    for n in &d.notes {
        text.push_str(&format!("    Note: {n}\n"));
    }
    out.extend_from_slice(text.as_bytes());
}

/// An ariadne source id: unique per file, displayed as the file's path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct SourceKey(crate::source::FileId, String);

impl std::fmt::Display for SourceKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.1)
    }
}

fn kind_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "Error",
        Severity::Warning => "Warning",
        Severity::Note => "Advice",
    }
}

/// A label in JSON output.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct JsonLabel {
    /// File path relative to the root the load was given.
    pub file: String,
    /// 1-based line of the label's start.
    pub line: usize,
    /// 1-based column (characters) of the label's start.
    pub column: usize,
    /// 1-based line of the label's end.
    pub end_line: usize,
    /// 1-based column of the label's end (exclusive).
    pub end_column: usize,
    /// The label text.
    pub message: String,
}

/// One diagnostic in JSON output (`rulebook check --format json`).
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct JsonDiagnostic {
    /// `error`, `warning` or `note`.
    pub severity: Severity,
    /// Stable code, e.g. `F0101`.
    pub code: String,
    /// Short name of the code, e.g. `unknown-variable`.
    pub name: String,
    /// One-line summary.
    pub message: String,
    /// File path relative to the root the load was given.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (characters).
    pub column: usize,
    /// 1-based end line.
    pub end_line: usize,
    /// 1-based end column (exclusive).
    pub end_column: usize,
    /// The primary label followed by secondary labels.
    pub labels: Vec<JsonLabel>,
    /// How to fix it.
    pub help: Option<String>,
    /// Extra facts.
    pub notes: Vec<String>,
}

fn json_label(sources: &SourceMap, span: Span, message: &str) -> JsonLabel {
    let (file, (line, column), (end_line, end_column)) = match sources.get(span.file) {
        Some(f) => (
            f.path.clone(),
            f.line_col(span.range().start),
            f.line_col(span.range().end),
        ),
        None => (String::new(), (0, 0), (0, 0)),
    };
    JsonLabel {
        file,
        line,
        column,
        end_line,
        end_column,
        message: message.to_owned(),
    }
}

/// Converts one diagnostic to its JSON form.
pub fn to_json(d: &Diagnostic, sources: &SourceMap) -> JsonDiagnostic {
    let primary_text = if d.primary_label.is_empty() {
        d.message.as_str()
    } else {
        d.primary_label.as_str()
    };
    let primary = json_label(sources, d.span, primary_text);
    let mut labels = vec![primary.clone()];
    labels.extend(
        d.labels
            .iter()
            .map(|l| json_label(sources, l.span, &l.message)),
    );
    JsonDiagnostic {
        severity: d.severity,
        code: d.code.id.to_owned(),
        name: d.code.name.to_owned(),
        message: d.message.clone(),
        file: primary.file,
        line: primary.line,
        column: primary.column,
        end_line: primary.end_line,
        end_column: primary.end_column,
        labels,
        help: d.help.clone(),
        notes: d.notes.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{SourceFile, TextEncoding};

    const TEST: Code = Code {
        id: "X0001",
        name: "test",
    };

    #[test]
    fn renders_code_label_and_help_without_colour() {
        let mut map = SourceMap::new();
        let id = map.add(SourceFile::new(
            "f.lst",
            "MODIFY:Foo|ADD|1",
            TextEncoding::Utf8,
        ));
        let d = Diagnostic::error(TEST, Span::new(id, 7..10), "bad thing")
            .with_label("here")
            .with_help("do better");
        let text = render(std::slice::from_ref(&d), &map, false);
        assert!(text.contains("[X0001]"), "{text}");
        assert!(text.contains("here"), "{text}");
        assert!(text.contains("do better"), "{text}");
        let j = to_json(&d, &map);
        assert_eq!((j.line, j.column, j.end_column), (1, 8, 11));
    }

    #[test]
    fn files_sharing_a_path_render_their_own_text() {
        // Two sources with one display path (e.g. two formulas typed on the command line):
        // each diagnostic must be shown against its own file, whatever the other holds.
        let mut map = SourceMap::new();
        let long = map.add(SourceFile::new(
            "formula",
            "0123456789 é\nline two",
            TextEncoding::Utf8,
        ));
        let short = map.add(SourceFile::new("formula", "ab", TextEncoding::Utf8));
        let ds = [
            Diagnostic::error(TEST, Span::new(long, 14..22), "far").with_label("second line"),
            Diagnostic::error(TEST, Span::new(short, 1..2), "near").with_label("b"),
            Diagnostic::error(TEST, Span::new(long, 12..13), "inside é")
                .with_secondary(Span::new(short, 0..1), "a"),
        ];
        let text = render(&ds, &map, false);
        assert!(text.contains(" 2 │ line two"), "{text}");
        assert!(text.contains(" 1 │ ab"), "{text}");
        assert!(text.contains("formula:1:12"), "{text}");
        assert!(!text.contains('?'), "{text}");
    }
}
