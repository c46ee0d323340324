//! Human reports: each diagnostic drawn by ariadne over a bounded excerpt of its files.
//!
//! One diagnostic is written at a time to any [`std::io::Write`], so a run streams its
//! report instead of building it whole. A report's size is bounded whatever the data: long
//! lines are windowed to the report width ([`super::window`]), at most [`MAX_LABELS`] labels
//! are drawn, and messages are cut at [`MAX_TEXT`] characters. Text from data is escaped
//! ([`super::escape`]). Paths can be shown relative to the current folder ([`PathView`]).

use super::escape::{escape, escape_line};
use super::renumber;
use super::window::{self, Mark};
use super::{Diagnostic, Severity};
use crate::source::{FileId, SourceFile, SourceMap, Span};
use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Labels drawn per diagnostic; further ones are counted in a note.
pub const MAX_LABELS: usize = 16;
/// Characters shown of a message, label, help or note; longer ones end in `…`.
pub const MAX_TEXT: usize = 1_000;
/// The report width when the output is not a terminal.
pub const DEFAULT_WIDTH: usize = 120;
/// The narrowest width a report is fitted to.
const MIN_WIDTH: usize = 40;

/// How human reports are drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// Colour (ANSI escapes).
    pub color: bool,
    /// Columns a report is fitted to (long lines are windowed to it).
    pub width: usize,
    /// How file paths are shown; `None` shows them as loaded (relative to the PCGen root).
    pub paths: Option<PathView>,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            color: false,
            width: DEFAULT_WIDTH,
            paths: None,
        }
    }
}

impl RenderOptions {
    /// Plain reports of [`DEFAULT_WIDTH`] columns, coloured when `color` is true.
    pub fn new(color: bool) -> Self {
        RenderOptions {
            color,
            ..Self::default()
        }
    }
}

/// Where the files of a load are and where the user stands: a file below the current folder
/// is shown relative to it (so `path:line:col` opens from the terminal), any other by its
/// absolute path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathView {
    /// The PCGen root the load's paths are relative to.
    pub root: PathBuf,
    /// The current folder.
    pub cwd: PathBuf,
}

impl PathView {
    /// The absolute path of a file shown as `display` (relative to `root` or absolute);
    /// `None` for text that is no file (`<formula>`).
    pub fn absolute(root: &Path, display: &str) -> Option<PathBuf> {
        if display.is_empty() || display.starts_with('<') {
            return None;
        }
        Some(root.join(display))
    }

    /// How a file shown as `display` appears in a report.
    pub fn show(&self, display: &str) -> String {
        match Self::absolute(&self.root, display) {
            None => display.to_owned(),
            Some(abs) => match abs.strip_prefix(&self.cwd) {
                Ok(rel) if !rel.as_os_str().is_empty() => rel.to_string_lossy().replace('\\', "/"),
                _ => abs.to_string_lossy().into_owned(),
            },
        }
    }
}

/// Renders diagnostics as ariadne reports of [`DEFAULT_WIDTH`] columns, paths as loaded.
pub fn render(diagnostics: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    render_with(diagnostics, sources, &RenderOptions::new(color))
}

/// Renders diagnostics as ariadne reports drawn as `options` says.
pub fn render_with(
    diagnostics: &[Diagnostic],
    sources: &SourceMap,
    options: &RenderOptions,
) -> String {
    let mut out = Vec::new();
    for d in diagnostics {
        // Writing to a Vec cannot fail.
        let _ = write_report(&mut out, d, sources, options);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `text` cut to [`MAX_TEXT`] characters and escaped; `one_line` escapes line breaks too.
fn bounded(text: &str, one_line: bool) -> String {
    let cut: String;
    let text = match text.char_indices().nth(MAX_TEXT) {
        Some((i, _)) => {
            cut = format!("{}…", text.get(..i).unwrap_or(text));
            cut.as_str()
        }
        None => text,
    };
    if one_line {
        escape_line(text).into_owned()
    } else {
        escape(text).into_owned()
    }
}

/// A span moved onto character boundaries of its file and inside it.
fn clamp(file: &SourceFile, span: Span) -> Range<usize> {
    let text = file.text.as_str();
    let mut s = span.range().start.min(text.len());
    let mut e = span.range().end.min(text.len()).max(s);
    while s > 0 && !text.is_char_boundary(s) {
        s -= 1;
    }
    while e < text.len() && !text.is_char_boundary(e) {
        e += 1;
    }
    s..e
}

/// One file's part of a report: its labels (index into the report's label list) in order.
struct Group<'a> {
    id: FileId,
    file: &'a SourceFile,
    labels: Vec<usize>,
}

/// Writes one diagnostic's report to `w`.
pub fn write_report(
    w: &mut dyn Write,
    d: &Diagnostic,
    sources: &SourceMap,
    options: &RenderOptions,
) -> io::Result<()> {
    use ariadne::{Config, IndexType, Label as ALabel, Report, ReportKind};
    let primary_text = if d.primary_label.is_empty() {
        &d.message
    } else {
        &d.primary_label
    };
    // The labels that point into a loaded file: the primary first.
    let mut labels: Vec<(FileId, Range<usize>, String)> = Vec::new();
    let mut hidden = 0usize;
    for (span, text) in
        std::iter::once((d.span, primary_text)).chain(d.labels.iter().map(|l| (l.span, &l.message)))
    {
        let Some(file) = sources.get(span.file) else {
            continue;
        };
        if labels.len() == MAX_LABELS {
            hidden += 1;
            continue;
        }
        labels.push((span.file, clamp(file, span), bounded(text, true)));
    }
    if labels.is_empty() {
        return detached(w, d);
    }
    // One group per file, the primary's first, others in the order they are first named.
    let mut groups: Vec<Group> = Vec::new();
    for (i, (id, _, _)) in labels.iter().enumerate() {
        match groups.iter_mut().find(|g| g.id == *id) {
            Some(g) => g.labels.push(i),
            None => {
                if let Some(file) = sources.get(*id) {
                    groups.push(Group {
                        id: *id,
                        file,
                        labels: vec![i],
                    });
                }
            }
        }
    }
    // The line-number margin is as wide as the largest line shown; the text gets the rest.
    let last_line = groups
        .iter()
        .map(|g| {
            let spans: Vec<Range<usize>> = g.labels.iter().map(|&i| labels[i].1.clone()).collect();
            window::last_line(g.file, &spans)
        })
        .max()
        .unwrap_or(1);
    let margin = last_line.to_string().len() + 4;
    let width = options.width.max(MIN_WIDTH).saturating_sub(margin);
    // Each file's excerpt, and every label's span in it.
    let mut texts = Vec::new();
    let mut first_lines = Vec::new();
    let mut virtual_spans: Vec<Range<usize>> = vec![0..0; labels.len()];
    for (g_index, g) in groups.iter().enumerate() {
        let marks: Vec<Mark> = g
            .labels
            .iter()
            .map(|&i| Mark {
                span: labels[i].1.clone(),
                message_len: labels[i].2.chars().count(),
            })
            .collect();
        let ex = window::excerpt(g.file, &marks, width);
        for (&i, span) in g.labels.iter().zip(ex.spans) {
            virtual_spans[i] = span;
        }
        first_lines.push(ex.first_line);
        texts.push((Key(g_index), ex.text));
    }
    // Labels ordered by file, then line: ariadne draws one section per run of labels in
    // one file with non-decreasing lines, so this gives each file exactly one section.
    let mut line_keys: Vec<(usize, usize)> = Vec::new();
    let mut label_key = vec![(0usize, 0usize); labels.len()];
    for (g_index, g) in groups.iter().enumerate() {
        for &i in &g.labels {
            let line = g.file.line_col(labels[i].1.start).0;
            label_key[i] = (g_index, line);
            line_keys.push((g_index, line));
        }
    }
    line_keys.sort_unstable();
    line_keys.dedup();
    let order = |i: usize| -> i32 {
        let rank = line_keys.partition_point(|k| *k < label_key[i]);
        i32::try_from(rank).unwrap_or(i32::MAX)
    };
    let group_of = |i: usize| label_key[i].0;
    let kind = match d.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
        Severity::Note => ReportKind::Advice,
    };
    let message = bounded(&d.message, true);
    let mut report = Report::build(kind, (Key(0), virtual_spans[0].clone()))
        .with_config(
            Config::default()
                .with_color(options.color)
                .with_index_type(IndexType::Char),
        )
        .with_code(d.code.id)
        .with_message(&message);
    for (i, (_, _, text)) in labels.iter().enumerate() {
        report = report.with_label(
            ALabel::new((Key(group_of(i)), virtual_spans[i].clone()))
                .with_message(text)
                .with_order(order(i)),
        );
    }
    if let Some(help) = &d.help {
        report = report.with_help(bounded(help, false));
    }
    for n in &d.notes {
        report = report.with_note(bounded(n, false));
    }
    if hidden > 0 {
        report = report.with_note(format!(
            "{hidden} more label{} not shown",
            if hidden == 1 { "" } else { "s" }
        ));
    }
    let mut buf = Vec::new();
    if report
        .finish()
        .write(ariadne::sources(texts), &mut buf)
        .is_err()
    {
        return writeln!(w, "[{}] {}: {}", d.code.id, kind_word(d.severity), message);
    }
    if d.severity == Severity::Note {
        buf = noted(buf);
    }
    // Excerpts start at their first labelled line: the margin gets the true numbers.
    let buf = match String::from_utf8(buf) {
        Ok(text) => {
            renumber::renumber(&text, char::from(KEY_MARK), &first_lines, last_line).into_bytes()
        }
        Err(e) => e.into_bytes(),
    };
    // Section headers name the file and the true position: the primary label's for the
    // primary file, the first label's for any other.
    let headers: Vec<String> = groups
        .iter()
        .enumerate()
        .map(|(g_index, g)| {
            let at = if g_index == 0 {
                labels[0].1.start
            } else {
                g.labels
                    .iter()
                    .map(|&i| labels[i].1.start)
                    .min()
                    .unwrap_or(0)
            };
            let (line, col) = g.file.line_col(at);
            let path = match &options.paths {
                Some(view) => view.show(&g.file.path),
                None => g.file.path.clone(),
            };
            format!("{}:{line}:{col}", escape_line(&path))
        })
        .collect();
    w.write_all(&fill_headers(&buf, &headers))
}

/// A note's report headed `Note:`, not ariadne's `Advice:`: the summary line and the docs
/// call them notes. (`ReportKind::Custom` would say it, but coloured even without colour.)
fn noted(buf: Vec<u8>) -> Vec<u8> {
    let first_line = buf.iter().position(|&b| b == b'\n').unwrap_or(buf.len());
    let Some(at) = buf
        .get(..first_line)
        .and_then(|line| line.windows(7).position(|w| w == b"Advice:"))
    else {
        return buf;
    };
    let mut out = Vec::with_capacity(buf.len());
    out.extend_from_slice(buf.get(..at).unwrap_or(&[]));
    out.extend_from_slice(b"Note:");
    out.extend_from_slice(buf.get(at + 7..).unwrap_or(&[]));
    out
}

/// Replaces each `KEY_MARK n KEY_MARK:line:col` ariadne wrote with `headers[n]`.
fn fill_headers(buf: &[u8], headers: &[String]) -> Vec<u8> {
    let mut out = Vec::with_capacity(buf.len() + 64);
    let mut rest = buf;
    while let Some(at) = rest.iter().position(|&b| b == KEY_MARK) {
        out.extend_from_slice(rest.get(..at).unwrap_or(&[]));
        let tail = rest.get(at + 1..).unwrap_or(&[]);
        let close = tail.iter().position(|&b| b == KEY_MARK).unwrap_or(0);
        let index = std::str::from_utf8(tail.get(..close).unwrap_or(&[]))
            .ok()
            .and_then(|s| s.parse::<usize>().ok());
        // Skip the position ariadne computed in the excerpt, up to the space before `]`.
        let after = tail.get(close + 1..).unwrap_or(&[]);
        let end = after.iter().position(|&b| b == b' ').unwrap_or(after.len());
        if let Some(h) = index.and_then(|i| headers.get(i)) {
            out.extend_from_slice(h.as_bytes());
        }
        rest = after.get(end..).unwrap_or(&[]);
    }
    out.extend_from_slice(rest);
    out
}

/// Marks a section id in ariadne's output (never in report text: control characters from
/// data are escaped).
const KEY_MARK: u8 = 0x01;

/// An ariadne source id: the index of a file's section, written between [`KEY_MARK`]s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key(usize);

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mark = char::from(KEY_MARK);
        write!(f, "{mark}{}{mark}", self.0)
    }
}

/// A diagnostic about no loaded file ([`Span::DETACHED`], e.g. an API call): the header
/// ariadne would print, then the help and the notes, without a source excerpt.
fn detached(w: &mut dyn Write, d: &Diagnostic) -> io::Result<()> {
    let mut text = format!(
        "[{}] {}: {}\n",
        d.code.id,
        kind_word(d.severity),
        bounded(&d.message, true)
    );
    if let Some(help) = &d.help {
        text.push_str(&format!("    Help: {}\n", bounded(help, false)));
    }
    for n in &d.notes {
        text.push_str(&format!("    Note: {}\n", bounded(n, false)));
    }
    w.write_all(text.as_bytes())
}

fn kind_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "Error",
        Severity::Warning => "Warning",
        Severity::Note => "Note",
    }
}
