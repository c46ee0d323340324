//! The excerpt of one file a report shows: only the labelled lines, each cut to a window
//! around its labels when it is wider than the report.
//!
//! Real PCGen lines run to thousands of characters; printing one whole puts the caret
//! hundreds of columns off screen and makes a report's size grow with the line. Like rustc,
//! a long line is shown as `...` + the text around its labels + `...`, so every report row
//! fits the width and a report's size is bounded whatever the line. The excerpt is a text of
//! its own (from the first labelled line: the renderer offsets its line numbers), and
//! each label's span is mapped into it in characters. Control characters are escaped
//! (`\u{1b}`, see [`super::escape`]).

use super::escape::{escaped, needs_escape};
use crate::source::SourceFile;
use std::ops::Range;

/// Context kept left of the first label of a windowed line, in columns.
const CONTEXT: usize = 16;
/// The mark for cut text.
const ELLIPSIS: &str = "...";
/// Tab stops, as the renderer expands tabs.
const TAB: usize = 4;

/// One label to place: its byte span in the file (on character boundaries) and the length of
/// its message in characters (the message is printed after the label's arrow).
pub(crate) struct Mark {
    /// Byte range in the file's text.
    pub span: Range<usize>,
    /// Characters in the label's message.
    pub message_len: usize,
}

/// A file's excerpt: a text holding the labelled lines (windowed), and each mark's span in it,
/// in characters. The text starts at the first labelled line: padding the lines above it
/// made a report's cost grow with its line number (100,000 findings took 36.6 s).
pub(crate) struct Excerpt {
    /// Lines from the first labelled line up to the last; unlabelled lines between them are
    /// empty.
    pub text: String,
    /// The (1-based) number of the text's first line in the file.
    pub first_line: usize,
    /// For each mark, its character range in `text`.
    pub spans: Vec<Range<usize>>,
}

/// A labelled line of the file: its 1-based number and byte range (without the line break).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Line {
    number: usize,
    start: usize,
    end: usize,
}

fn line_at(file: &SourceFile, byte: usize) -> Line {
    let range = file.line_range_at(byte);
    Line {
        number: file.line_col(byte).0,
        start: range.start,
        end: range.end,
    }
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The width one character takes in the excerpt at display column `col`.
fn char_width(c: char, col: usize, expand_tabs: bool) -> usize {
    if needs_escape(c) {
        escaped(c).len()
    } else if c == '\t' {
        if expand_tabs {
            (col / TAB + 1) * TAB - col
        } else {
            1
        }
    } else {
        1
    }
}

/// The highest line number any of `spans` touches (for the width of the line-number margin).
pub(crate) fn last_line(file: &SourceFile, spans: &[Range<usize>]) -> usize {
    spans
        .iter()
        .map(|s| file.line_col(s.end.max(s.start)).0)
        .max()
        .unwrap_or(1)
}

/// Builds the excerpt of `file` for `marks`, windowing lines wider than `width` columns.
pub(crate) fn excerpt(file: &SourceFile, marks: &[Mark], width: usize) -> Excerpt {
    // The lines to show: where each mark starts and where it ends.
    let mut lines: Vec<Line> = Vec::new();
    for m in marks {
        lines.push(line_at(file, m.span.start));
        let last = if m.span.end > m.span.start {
            m.span.end - 1
        } else {
            m.span.start
        };
        lines.push(line_at(file, last));
    }
    lines.sort();
    lines.dedup();
    let mut text = String::new();
    let mut text_chars = 0;
    let first_line = lines.first().map_or(1, |l| l.number);
    let mut next_number = first_line;
    // For each shown line: (line, char offset of its text in `text`, byte→char map).
    let mut shown: Vec<(Line, Shown)> = Vec::new();
    for line in lines {
        while next_number < line.number {
            text.push('\n');
            text_chars += 1;
            next_number += 1;
        }
        let on_line: Vec<(Range<usize>, usize)> = marks
            .iter()
            .filter(|m| m.span.start <= line.end && m.span.end.max(m.span.start) >= line.start)
            .map(|m| {
                (
                    m.span.start.max(line.start)..m.span.end.min(line.end),
                    m.message_len,
                )
            })
            .collect();
        let offset = text_chars;
        let view = window(file, line, &on_line, width);
        text.push_str(&view.text);
        text.push('\n');
        text_chars += view.text.chars().count() + 1;
        next_number += 1;
        shown.push((line, Shown { offset, ..view }));
    }
    let place = |byte: usize| -> usize {
        // The last shown line starting at or before the byte (a span ending just after a
        // line break ends on the line it breaks).
        let found = shown
            .iter()
            .rev()
            .find(|(l, _)| l.start <= byte)
            .or_else(|| shown.first());
        found.map_or(0, |(_, s)| s.offset + s.char_at(byte))
    };
    let spans = marks
        .iter()
        .map(|m| {
            let start = place(m.span.start);
            let mut end = place(m.span.end.max(m.span.start)).max(start);
            // A span of only a line break still covers one character (the break).
            if end == start && m.span.end > m.span.start {
                end += 1;
            }
            start..end
        })
        .collect();
    Excerpt {
        text,
        first_line,
        spans,
    }
}

/// One shown line: its excerpt text and where the file's bytes fall in it.
struct Shown {
    /// Character offset of the line in the excerpt (set by the caller).
    offset: usize,
    /// The line as shown.
    text: String,
    /// `(byte in the file, char in the shown line)` at the start of each shown character,
    /// then the end of the window.
    map: Vec<(usize, usize)>,
    /// Where bytes left of the window go (the start of the left `...`).
    before: usize,
    /// Where bytes right of the window go (the start of the right `...`).
    after: usize,
}

impl Shown {
    fn char_at(&self, byte: usize) -> usize {
        match (self.map.first(), self.map.last()) {
            (Some(&(first, _)), _) if byte < first => self.before,
            (_, Some(&(last, _))) if byte > last => self.after,
            _ => {
                let i = self.map.partition_point(|&(b, _)| b < byte);
                self.map.get(i).map_or(self.after, |&(_, c)| c)
            }
        }
    }
}

/// The shown form of one line with labels at `on_line` (byte ranges within the line and
/// their message lengths): the whole line when it fits `width`, else a window around the
/// labels. Only the text near the labels is looked at, so the work per report does not grow
/// with the line.
fn window(file: &SourceFile, line: Line, on_line: &[(Range<usize>, usize)], width: usize) -> Shown {
    let text = file.text.as_str();
    // A line of at most 4 bytes per column may fit: measure it whole (tabs expanded).
    if line.end - line.start <= 4 * width {
        let chars = columns(text, line.start..line.end, true);
        let total = chars
            .last()
            .map_or(0, |&(_, c, col)| col + char_width(c, col, true));
        if total <= width {
            let all = 0..chars.len();
            return shown(&chars, all, (false, false), false, line.end);
        }
    }
    // The labels' extent in bytes; a spread wider than the report is cut at its left part.
    let lo_byte = on_line
        .iter()
        .map(|(r, _)| r.start)
        .min()
        .unwrap_or(line.start);
    let hi_byte = on_line
        .iter()
        .map(|(r, _)| r.end)
        .max()
        .unwrap_or(lo_byte)
        .clamp(lo_byte, lo_byte.saturating_add(8 * width));
    // The text around them (a character is at most 4 bytes and takes at least one column).
    let from = floor_boundary(text, lo_byte.saturating_sub(4 * width).max(line.start));
    let mut to = hi_byte.saturating_add(4 * width).min(line.end);
    while to < line.end && !text.is_char_boundary(to) {
        to += 1;
    }
    let chars = columns(text, from..to, false);
    let total = chars
        .last()
        .map_or(0, |&(_, c, col)| col + char_width(c, col, false));
    let col_of = |byte: usize| -> usize {
        let i = chars.partition_point(|&(b, _, _)| b < byte);
        chars.get(i).map_or(total, |&(_, _, c)| c)
    };
    let lo = col_of(lo_byte);
    let hi = col_of(hi_byte).max(lo);
    let message = on_line.iter().map(|(_, m)| *m).max().unwrap_or(0);
    // Room for the labels so that their arrows and messages still fit (when the message
    // leaves enough room; otherwise the text alone is fitted).
    let label_room = width
        .saturating_sub(message + 3)
        .max(width / 2)
        .max(ELLIPSIS.len() + 1);
    let from_col = lo
        .saturating_sub(CONTEXT)
        .max((hi + ELLIPSIS.len()).saturating_sub(label_room))
        .min(lo);
    let mut first = chars.partition_point(|&(_, _, c)| c < from_col);
    let budget = width.saturating_sub(2 * ELLIPSIS.len()).max(1);
    let mut last = first;
    let mut used = 0;
    while let Some(&(_, c, _)) = chars.get(last) {
        let w = char_width(c, used, false);
        if used + w > budget {
            break;
        }
        used += w;
        last += 1;
    }
    let reaches_end = last == chars.len() && to == line.end;
    // A window reaching the end of the line uses the room left for more text before it.
    if reaches_end {
        let budget = budget + ELLIPSIS.len();
        while first > 0 {
            let Some(&(_, c, start_col)) = chars.get(first - 1) else {
                break;
            };
            let w = char_width(c, 0, false);
            if used + w > budget || hi.saturating_sub(start_col) + ELLIPSIS.len() > label_room {
                break;
            }
            used += w;
            first -= 1;
        }
    }
    let cut_left = first > 0 || from > line.start;
    let cut_right = !reaches_end;
    let window_end = chars.get(last).map_or(to, |&(b, _, _)| b);
    shown(&chars, first..last, (cut_left, cut_right), true, window_end)
}

/// The characters of `range` in `text` with their byte offsets and display columns (from
/// the range's start; tabs expanded only when `expand_tabs`).
fn columns(text: &str, range: Range<usize>, expand_tabs: bool) -> Vec<(usize, char, usize)> {
    let start = range.start;
    let body = text.get(range).unwrap_or("");
    let mut chars = Vec::with_capacity(body.len());
    let mut col = 0;
    for (i, c) in body.char_indices() {
        chars.push((start + i, c, col));
        col += char_width(c, col, expand_tabs);
    }
    chars
}

/// Builds the shown text of `chars[range]`, with `...` marks where text is cut (`cut`: left,
/// right). `end_byte` is the file byte just after the range; `windowed` shows tabs as one
/// space (their stops are lost once the line is cut).
fn shown(
    chars: &[(usize, char, usize)],
    range: Range<usize>,
    cut: (bool, bool),
    windowed: bool,
    end_byte: usize,
) -> Shown {
    let (cut_left, cut_right) = cut;
    let mut text = String::new();
    let mut map = Vec::with_capacity(range.len() + 1);
    let mut at = 0;
    if cut_left {
        text.push_str(ELLIPSIS);
        at += ELLIPSIS.len();
    }
    for &(byte, c, _) in chars.get(range).unwrap_or(&[]) {
        map.push((byte, at));
        if needs_escape(c) {
            let e = escaped(c);
            at += e.len();
            text.push_str(&e);
        } else if c == '\t' && windowed {
            text.push(' ');
            at += 1;
        } else {
            text.push(c);
            at += 1;
        }
    }
    map.push((end_byte, at));
    let after = at;
    if cut_right {
        text.push_str(ELLIPSIS);
    }
    Shown {
        offset: 0,
        text,
        map,
        before: 0,
        after,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::TextEncoding;

    fn file(text: &str) -> SourceFile {
        SourceFile::new("f.lst", text, TextEncoding::Utf8)
    }

    fn mark(span: Range<usize>) -> Mark {
        Mark {
            span,
            message_len: 10,
        }
    }

    #[test]
    fn a_short_line_is_shown_whole_at_its_line_number() {
        let f = file("one\ntwo\tTAB:x\nthree");
        let e = excerpt(&f, &[mark(8..13)], 120);
        assert_eq!((e.text.as_str(), e.first_line), ("two\tTAB:x\n", 2));
        assert_eq!(
            &e.text.chars().collect::<String>()[e.spans[0].clone()],
            "TAB:x"
        );
    }

    #[test]
    fn a_long_line_is_cut_around_the_label() {
        let line = format!("{}NEEDLE{}", "a".repeat(2000), "b".repeat(2000));
        let f = file(&line);
        let e = excerpt(&f, &[mark(2000..2006)], 80);
        let shown = e.text.trim_end_matches('\n');
        assert!(shown.chars().count() <= 80, "{shown}");
        assert!(
            shown.starts_with("...") && shown.ends_with("..."),
            "{shown}"
        );
        let chars: Vec<char> = e.text.chars().collect();
        let label: String = chars[e.spans[0].clone()].iter().collect();
        assert_eq!(label, "NEEDLE");
    }

    #[test]
    fn control_characters_are_escaped_and_spans_follow() {
        let f = file("Evil\x1b[2J\tKEY:x");
        let e = excerpt(&f, &[mark(9..14)], 120);
        assert!(e.text.starts_with("Evil\\u{1b}[2J\tKEY:x"), "{:?}", e.text);
        let chars: Vec<char> = e.text.chars().collect();
        let label: String = chars[e.spans[0].clone()].iter().collect();
        assert_eq!(label, "KEY:x");
    }

    #[test]
    fn labels_on_two_lines_keep_their_line_numbers() {
        let f = file("a\nb\nc\nd BAD\n");
        let e = excerpt(&f, &[mark(8..11), mark(0..1)], 120);
        assert_eq!(e.text, "a\n\n\nd BAD\n");
        let chars: Vec<char> = e.text.chars().collect();
        let label: String = chars[e.spans[0].clone()].iter().collect();
        assert_eq!(label, "BAD");
    }
}
