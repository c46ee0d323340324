//! Diagnostics: the one value every layer uses to tell the user about a problem.
//!
//! Diagnostics are plain data. They are collected (never "first error wins") and rendered
//! only at the edge: [`render()`] and [`write_report`] turn them into ariadne reports (windowed
//! to a width, control characters escaped, bounded in size), [`to_json`] into the JSON the
//! CLI prints for CI. Nothing here prints. A `Diagnostic` is also a [`std::error::Error`], so
//! library calls returning one work with `?` in a `Box<dyn Error>` function.

pub mod baseline;
pub mod escape;
mod fingerprint;
pub mod fix;
mod render;
mod renumber;
mod window;

pub use fingerprint::{Fingerprints, fingerprint, pointed_text};
pub use fix::{Edit, Safety, Suggestion};
pub use render::{
    DEFAULT_WIDTH, MAX_LABELS, MAX_TEXT, PathView, RenderOptions, render, render_with, write_report,
};

use crate::source::{FileId, SourceMap, Span};
use serde::Serialize;
use std::fmt;
use std::path::Path;

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

impl Severity {
    /// `error`, `warning` or `note`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
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
///
/// `Display` gives `error[S0201]: message` and the help and notes on further lines (without
/// the source excerpt, which needs the files: see [`render()`]); `{:?}` gives the same text
/// and where the span is, `{:#?}` every field.
#[derive(Clone, PartialEq, Eq)]
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
    /// What to write instead, as a value (see [`fix`]): `check --fix`, the language
    /// server's quick fixes and the fixes of the JSON and SARIF reports take it from here
    /// (through [`Diagnostic::edits`]); a "did you mean" help is written from it
    /// ([`Diagnostic::with_did_you_mean`]), never read back.
    pub suggestion: Option<Box<Suggestion>>,
    /// The name an unknown-name finding is about and what would define it, as a value: the
    /// data folder's other campaigns are searched for it ([`crate::model::elsewhere`]) from
    /// here, not from the message's prose. `None` for the other findings.
    pub missing: Option<Box<Missing>>,
    /// The campaign a `L0106` note says was added to the load set, as a value: `check`
    /// sums those notes up per campaign from here, not from the message's prose. `None` for
    /// the other findings.
    pub added: Option<Box<AddedCampaign>>,
}

/// A campaign added to a load set because a selected one requires it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddedCampaign {
    /// Its name, as the requirement names it.
    pub name: String,
    /// Its PCC, as reports show paths (relative to the PCGen root).
    pub file: String,
}

/// What an unknown-name finding lacks: a name, and the kind of definition that would give it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// The name as written (trimmed).
    pub name: String,
    /// What kind of definition it needs.
    pub kind: MissingKind,
}

/// The kind of definition a [`Missing`] name needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MissingKind {
    /// A `FACTDEF` (`set`: a `FACTSETDEF`) for objects of `location` (`RACE`, `GLOBAL`, …).
    Fact {
        /// FACTSETDEF rather than FACTDEF.
        set: bool,
        /// The object kind the fact is for, as the FACTDEF writes it.
        location: String,
    },
    /// A formula-system variable (`GLOBAL`/`LOCAL`).
    Variable,
    /// A `DYNAMICSCOPE`.
    DynamicScope,
    /// An object of the formula system's scope `scope` (`PC.EQUIPMENT`, `PC.MOVEMENT`).
    ScopedObject {
        /// The scope as the message names it.
        scope: String,
    },
    /// An object of an LST file kind, by the kind's token (`SPELL`, `SKILL`, `ABILITY`), as
    /// the old token system names objects.
    Object {
        /// The file kind's token.
        kind: &'static str,
    },
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
            suggestion: None,
            missing: None,
            added: None,
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

    /// Sets the replacement of exactly `span` the diagnostic suggests, and whether it keeps
    /// the meaning (a [`Safety::Safe`] fix is applied by `check --fix`; an unsafe one only
    /// with `--unsafe-fixes`). A "did you mean" is [`Diagnostic::with_did_you_mean`].
    pub fn with_fix(self, span: Span, text: impl Into<String>, safety: Safety) -> Self {
        self.with_fixes(vec![(span, text.into())], safety)
    }

    /// Sets a fix of several exact edits, applied together (moving a token); nothing when
    /// `edits` is empty. The reports of `check` say that the finding has a fix
    /// ([`Safety::note`]).
    pub fn with_fixes(mut self, edits: Vec<(Span, String)>, safety: Safety) -> Self {
        let mut edits = edits.into_iter();
        if let Some((span, text)) = edits.next() {
            self.suggestion = Some(Box::new(Suggestion {
                text,
                span,
                safety,
                more: edits.collect(),
            }));
        }
        self
    }

    /// Records the name the finding is about and what would define it (see [`Missing`]).
    pub fn with_missing(mut self, name: impl Into<String>, kind: MissingKind) -> Self {
        self.missing = Some(Box::new(Missing {
            name: name.into(),
            kind,
        }));
        self
    }

    /// Records the campaign the note says was added (see [`AddedCampaign`]), and adds the
    /// note saying its PCC (`from data/…/book.pcc`).
    pub fn with_added(mut self, name: impl Into<String>, file: impl Into<String>) -> Self {
        let added = AddedCampaign {
            name: name.into(),
            file: file.into(),
        };
        self.notes.push(format!("from {}", added.file));
        self.added = Some(Box::new(added));
        self
    }

    /// Every span of the diagnostic: its own, its labels', and its suggestion's edits'.
    pub fn spans(&self) -> impl Iterator<Item = Span> + '_ {
        let suggested = self
            .suggestion
            .iter()
            .flat_map(|s| std::iter::once(s.span).chain(s.more.iter().map(|(span, _)| *span)));
        std::iter::once(self.span)
            .chain(self.labels.iter().map(|l| l.span))
            .chain(suggested)
    }

    /// Moves every span of the diagnostic ([`Diagnostic::spans`]) into file `to`: a finding
    /// made over one copy of a file (a cache's, a PCC parsed alone) placed on the load
    /// set's. A [`Span::DETACHED`] one stays detached.
    pub fn move_to(&mut self, to: FileId) {
        let suggested = self.suggestion.iter_mut().flat_map(|s| {
            std::iter::once(&mut s.span).chain(s.more.iter_mut().map(|(span, _)| span))
        });
        let spans = std::iter::once(&mut self.span)
            .chain(self.labels.iter_mut().map(|l| &mut l.span))
            .chain(suggested);
        for span in spans.filter(|s| **s != Span::DETACHED) {
            span.file = to;
        }
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}[{}]: {}",
            self.severity,
            self.code.id,
            escape::escape_line(&self.message)
        )?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {}", escape::escape(help))?;
        }
        for n in &self.notes {
            write!(f, "\n  note: {}", escape::escape(n))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            return f
                .debug_struct("Diagnostic")
                .field("severity", &self.severity)
                .field("code", &self.code)
                .field("message", &self.message)
                .field("span", &self.span)
                .field("primary_label", &self.primary_label)
                .field("labels", &self.labels)
                .field("help", &self.help)
                .field("notes", &self.notes)
                .field("suggestion", &self.suggestion)
                .field("missing", &self.missing)
                .field("added", &self.added)
                .finish();
        }
        fmt::Display::fmt(self, f)?;
        if self.span != Span::DETACHED {
            write!(
                f,
                "\n  at: file {} bytes {}..{}",
                self.span.file.0, self.span.start, self.span.end
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// What a message reported once per file and name adds about the name's other uses in the
/// file: nothing for one use, " (and 1 more use in this file)", " (and n more uses …)".
pub fn more_uses(uses: usize) -> String {
    match uses.saturating_sub(1) {
        0 => String::new(),
        1 => " (and 1 more use in this file)".to_owned(),
        n => format!(" (and {n} more uses in this file)"),
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

/// A label in JSON output.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct JsonLabel {
    /// File path relative to the PCGen root of the load (stable across machines; absolute
    /// for a file outside the root).
    pub file: String,
    /// The file's absolute path, when the label is in a file and the root is known (null
    /// for a formula typed on the command line).
    pub path: Option<String>,
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
    /// File path relative to the PCGen root of the load (stable across machines; absolute
    /// for a file outside the root).
    pub file: String,
    /// The file's absolute path, when the diagnostic is in a file and the root is known
    /// (null for a formula typed on the command line).
    pub path: Option<String>,
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
    /// The fix `rulebook check --fix` makes (with `--unsafe-fixes` for an unsafe one);
    /// null when the finding has none.
    pub fix: Option<JsonFix>,
}

/// The fix of a finding in JSON output: edits applied together.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct JsonFix {
    /// `safe`: `check --fix` applies it (the data keeps its meaning); `unsafe`: only
    /// `check --fix --unsafe-fixes` does (a "did you mean" guess, or a change of meaning).
    pub safety: Safety,
    /// Its edits, in order of place.
    pub edits: Vec<JsonEdit>,
}

/// One edit of a [`JsonFix`]: the text between two places of the finding's file replaced.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct JsonEdit {
    /// 1-based line where the replaced text starts.
    pub line: usize,
    /// 1-based column (characters) where it starts.
    pub column: usize,
    /// 1-based line where it ends.
    pub end_line: usize,
    /// 1-based column where it ends (exclusive; the start's for an insertion).
    pub end_column: usize,
    /// The text written there (empty: a deletion).
    pub text: String,
}

/// The fix of `d` as JSON output gives it ([`Diagnostic::fix_in`]).
fn json_fix(d: &Diagnostic, sources: &SourceMap) -> Option<JsonFix> {
    let (edits, file) = d.fix_in(sources);
    let (first, file) = (edits.first()?, file?);
    let mut out: Vec<JsonEdit> = edits
        .iter()
        .map(|e| {
            let (line, column) = file.line_col(e.range.start);
            let (end_line, end_column) = file.line_col(e.range.end);
            JsonEdit {
                line,
                column,
                end_line,
                end_column,
                text: e.text.clone(),
            }
        })
        .collect();
    out.sort_by_key(|e| (e.line, e.column, e.end_line, e.end_column));
    Some(JsonFix {
        safety: first.safety,
        edits: out,
    })
}

fn json_label(sources: &SourceMap, root: Option<&Path>, span: Span, message: &str) -> JsonLabel {
    let path = sources.get(span.file).and_then(|f| {
        root.and_then(|r| PathView::absolute(r, &f.path))
            .map(|p| p.to_string_lossy().into_owned())
    });
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
        path,
        line,
        column,
        end_line,
        end_column,
        message: message.to_owned(),
    }
}

/// Converts one diagnostic to its JSON form (no absolute `path`: the root is unknown).
pub fn to_json(d: &Diagnostic, sources: &SourceMap) -> JsonDiagnostic {
    json(d, sources, None)
}

/// Converts one diagnostic of a load under the PCGen root `root` to its JSON form, with the
/// absolute `path` of its files.
pub fn to_json_rooted(d: &Diagnostic, sources: &SourceMap, root: &Path) -> JsonDiagnostic {
    json(d, sources, Some(root))
}

fn json(d: &Diagnostic, sources: &SourceMap, root: Option<&Path>) -> JsonDiagnostic {
    let primary_text = if d.primary_label.is_empty() {
        d.message.as_str()
    } else {
        d.primary_label.as_str()
    };
    let primary = json_label(sources, root, d.span, primary_text);
    let mut labels = vec![primary.clone()];
    labels.extend(
        d.labels
            .iter()
            .map(|l| json_label(sources, root, l.span, &l.message)),
    );
    JsonDiagnostic {
        severity: d.severity,
        code: d.code.id.to_owned(),
        name: d.code.name.to_owned(),
        message: d.message.clone(),
        file: primary.file,
        path: primary.path,
        line: primary.line,
        column: primary.column,
        end_line: primary.end_line,
        end_column: primary.end_column,
        labels,
        help: d.help.clone(),
        notes: d.notes.clone(),
        fix: json_fix(d, sources),
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
