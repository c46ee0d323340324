//! Reading text files: decoding, line splitting, comments and tab-separated tokens with spans.
//!
//! PCGen splits lines at CR, LF or CRLF, skips blank lines and lines whose first character is
//! `#`, and separates tokens by runs of TAB. The first token of an object line is the object's
//! name and keeps its spaces; every other token is trimmed.

use crate::diagnostic::Diagnostic;
use crate::load::codes;
use crate::load::fs::FileSystem;
use crate::source::{FileId, SourceFile, SourceMap, Span, TextEncoding, decode_text};
use std::ops::Range;
use std::path::Path;

/// How a file's lines are cut into tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineMode {
    /// Object and VARIABLE files: `#` only in column 0; the first token is not trimmed.
    Object,
    /// DATACONTROL, DYNAMIC, GLOBALMODIFIER and game-mode files: lines trimmed first, every
    /// token trimmed.
    Trimmed,
    /// PCC files: a trimmed line is one token (tabs belong to the value).
    Whole,
}

/// One non-blank, non-comment line of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number.
    pub number: u32,
    /// The whole line (without its line break).
    pub span: Span,
    /// The tokens, in order (never empty).
    pub tokens: Vec<Span>,
}

/// Reads `path` into `sources` (shown to users as `display`). A file that is not UTF-8 is
/// decoded as Windows-1252; the second value is then its [`codes::NOT_UTF8`] warning at the
/// first bad byte, for the caller to add what that means for its kind of file and report.
pub fn read_source(
    fs: &dyn FileSystem,
    path: &Path,
    display: String,
    sources: &mut SourceMap,
) -> std::io::Result<(FileId, Option<Diagnostic>)> {
    let bytes = fs.read(path)?;
    if let Some(wide) = Wide::detect(&bytes) {
        let text = wide.decode(&bytes);
        let id = sources.add(SourceFile::new(
            display,
            text,
            TextEncoding::Wide {
                name: wide.name(),
                bom: wide.bom,
            },
        ));
        let end = sources
            .get(id)
            .and_then(|f| f.text.chars().next())
            .map_or(0, char::len_utf8);
        let bom = if wide.bom {
            ""
        } else {
            " (no byte-order mark)"
        };
        let warning = Diagnostic::warning(
            codes::NOT_UTF8,
            Span::new(id, 0..end),
            format!("file is {}{bom}, not UTF-8", wide.name()),
        )
        .with_label("recognised from the zero bytes between the characters")
        .with_help("save the file as UTF-8");
        return Ok((id, Some(warning)));
    }
    // Valid UTF-8 without a BOM (nearly every file) is moved, not copied.
    let (text, encoding, bytes) = if bytes.starts_with(b"\xEF\xBB\xBF") {
        let (t, e) = decode_text(&bytes);
        (t, e, bytes)
    } else {
        match String::from_utf8(bytes) {
            Ok(t) => (t, TextEncoding::Utf8, Vec::new()),
            Err(e) => {
                let bytes = e.into_bytes();
                let (t, enc) = decode_text(&bytes);
                (t, enc, bytes)
            }
        }
    };
    let bad_at = match encoding {
        TextEncoding::Utf8 | TextEncoding::Wide { .. } => None,
        TextEncoding::Windows1252 {
            first_bad_byte,
            byte,
        } => {
            let prefix = bytes.get(..first_bad_byte).unwrap_or(&[]);
            let prefix = prefix.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(prefix);
            let (decoded, _, _) = encoding_rs::WINDOWS_1252.decode(prefix);
            Some((decoded.len(), first_bad_byte, byte))
        }
    };
    let id = sources.add(SourceFile::new(display, text, encoding));
    let warning = bad_at.map(|(at, raw, byte)| {
        let end = sources
            .get(id)
            .and_then(|f| f.text.get(at..).and_then(|s| s.chars().next()))
            .map_or(at, |c| at + c.len_utf8());
        Diagnostic::warning(
            codes::NOT_UTF8,
            Span::new(id, at..end),
            format!("file is not UTF-8: byte 0x{byte:02X} at offset {raw}"),
        )
        .with_label("first byte that is not valid UTF-8")
        .with_help("save the file as UTF-8")
    });
    Ok((id, warning))
}

/// A UTF-16 or UTF-32 encoding: its unit size, byte order and whether a byte-order mark
/// starts the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Wide {
    unit: usize,
    little: bool,
    bom: bool,
}

impl Wide {
    /// Recognises UTF-16/UTF-32 by its byte-order mark, or, without one, by zero bytes in the
    /// same places of (nearly) every unit of the first kilobyte (text in these encodings
    /// is mostly ASCII; UTF-8 and Windows-1252 text has no zero bytes).
    fn detect(bytes: &[u8]) -> Option<Wide> {
        let with_bom = |unit, little| {
            Some(Wide {
                unit,
                little,
                bom: true,
            })
        };
        if bytes.starts_with(b"\xFF\xFE\0\0") {
            return with_bom(4, true);
        }
        if bytes.starts_with(b"\0\0\xFE\xFF") {
            return with_bom(4, false);
        }
        if bytes.starts_with(b"\xFF\xFE") {
            return with_bom(2, true);
        }
        if bytes.starts_with(b"\xFE\xFF") {
            return with_bom(2, false);
        }
        let sample = bytes.get(..bytes.len().min(1024)).unwrap_or(bytes);
        let sample = sample.get(..sample.len() / 4 * 4).unwrap_or(&[]);
        if sample.len() < 4 {
            return None;
        }
        // Share of zero bytes at each position modulo 4, in percent.
        let mut zeros = [0usize; 4];
        for (i, b) in sample.iter().enumerate() {
            if *b == 0 {
                if let Some(z) = zeros.get_mut(i % 4) {
                    *z += 1;
                }
            }
        }
        let units = sample.len() / 4;
        let pct = zeros.map(|z| z * 100 / units);
        let high = |i: usize| pct.get(i).is_some_and(|p| *p >= 90);
        let low = |i: usize| pct.get(i).is_some_and(|p| *p < 50);
        let guess = |unit, little| {
            Some(Wide {
                unit,
                little,
                bom: false,
            })
        };
        if low(0) && high(1) && high(2) && high(3) {
            guess(4, true)
        } else if high(0) && high(1) && high(2) && low(3) {
            guess(4, false)
        } else if low(0) && high(1) && low(2) && high(3) {
            guess(2, true)
        } else if high(0) && low(1) && high(2) && low(3) {
            guess(2, false)
        } else {
            None
        }
    }

    fn name(self) -> &'static str {
        match (self.unit, self.little) {
            (4, true) => "UTF-32LE",
            (4, false) => "UTF-32BE",
            (_, true) => "UTF-16LE",
            (_, false) => "UTF-16BE",
        }
    }

    /// The text (without the byte-order mark); bad units become U+FFFD.
    fn decode(self, bytes: &[u8]) -> String {
        let body = if self.bom {
            bytes.get(self.unit..).unwrap_or(&[])
        } else {
            bytes
        };
        if self.unit == 2 {
            let enc = if self.little {
                encoding_rs::UTF_16LE
            } else {
                encoding_rs::UTF_16BE
            };
            return enc.decode_without_bom_handling(body).0.into_owned();
        }
        body.chunks(4)
            .map(|c| {
                let mut unit = [0u8; 4];
                for (d, s) in unit.iter_mut().zip(c) {
                    *d = *s;
                }
                let n = if self.little {
                    u32::from_le_bytes(unit)
                } else {
                    u32::from_be_bytes(unit)
                };
                char::from_u32(n).unwrap_or(char::REPLACEMENT_CHARACTER)
            })
            .collect()
    }
}

/// Byte ranges of every line of `text` (without line breaks) with 1-based numbers. CR, LF and
/// CRLF all end a line; a missing final newline is fine.
pub fn line_ranges(text: &str) -> Vec<(u32, Range<usize>)> {
    if !text.contains('\r') {
        // Fast path for LF-only files (nearly all real data): memchr-based splitting.
        let mut out = Vec::new();
        let mut start = 0usize;
        for (i, piece) in text.split('\n').enumerate() {
            let end = start + piece.len();
            if end > start || end < text.len() {
                out.push((u32::try_from(i + 1).unwrap_or(u32::MAX), start..end));
            }
            start = end + 1;
        }
        return out;
    }
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0usize;
    let mut number = 1u32;
    let mut i = 0usize;
    while i < bytes.len() {
        let b = bytes.get(i).copied().unwrap_or(0);
        if b == b'\n' || b == b'\r' {
            out.push((number, start..i));
            number = number.saturating_add(1);
            if b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
            start = i + 1;
        }
        i += 1;
    }
    if start < bytes.len() {
        out.push((number, start..bytes.len()));
    }
    out
}

fn trim_range(text: &str, r: Range<usize>) -> Range<usize> {
    let s = text.get(r.clone()).unwrap_or("");
    let lead = s.len() - s.trim_start().len();
    let trail = s.len() - s.trim_end().len();
    if lead == s.len() {
        return r.start..r.start;
    }
    (r.start + lead)..(r.end - trail)
}

/// [`trim_range`], answered without looking at characters when the range starts and ends
/// with a visible ASCII character (nearly every token and line).
#[inline]
fn trim_range_fast(text: &str, r: Range<usize>) -> Range<usize> {
    let b = text.as_bytes();
    let visible = |i: usize| b.get(i).is_some_and(|c| c.is_ascii_graphic());
    if !r.is_empty() && visible(r.start) && visible(r.end - 1) {
        return r;
    }
    trim_range(text, r)
}

/// True when `text[r]` is blank (what `str::trim` removes), answered without looking at
/// characters when it starts with a visible ASCII character.
#[inline]
fn is_blank(text: &str, r: Range<usize>) -> bool {
    if text
        .as_bytes()
        .get(r.start)
        .is_some_and(u8::is_ascii_graphic)
    {
        return false;
    }
    text.get(r).unwrap_or("").trim().is_empty()
}

/// Splits a file's text into its meaningful lines.
pub fn lines(file: FileId, text: &str, mode: LineMode) -> Vec<Line> {
    let mut out = Vec::new();
    // A line's tokens are gathered here and copied out at their exact count: one
    // allocation per line instead of a vector grown token by token (three or four
    // reallocations for a typical object line, and slack kept for the whole run).
    let mut scratch: Vec<Span> = Vec::new();
    let bytes = text.as_bytes();
    // Lines as `line_ranges` gives them, found eight bytes at a time.
    let mut pos = 0usize;
    let mut number = 0u32;
    while pos < bytes.len() {
        number = number.saturating_add(1);
        let (range, next) = match crate::source::find_line_break(bytes, pos) {
            Some(at) => {
                let crlf = bytes.get(at) == Some(&b'\r') && bytes.get(at + 1) == Some(&b'\n');
                (pos..at, if crlf { at + 2 } else { at + 1 })
            }
            None => (pos..bytes.len(), bytes.len()),
        };
        pos = next;
        if is_blank(text, range.clone()) {
            continue;
        }
        let range = match mode {
            LineMode::Object => range,
            LineMode::Trimmed | LineMode::Whole => trim_range_fast(text, range),
        };
        if bytes.get(range.start) == Some(&b'#') {
            continue;
        }
        let tokens = match mode {
            LineMode::Whole => vec![Span::new(file, range.clone())],
            LineMode::Object | LineMode::Trimmed => {
                // Runs of tabs count as one separator; real data pads tokens with long
                // runs of them, so both the tokens and the runs are crossed eight bytes
                // at a time.
                let tokens = &mut scratch;
                tokens.clear();
                let mut i = range.start;
                while i < range.end {
                    i = crate::source::skip_byte(bytes, i, range.end, b'\t');
                    if i >= range.end {
                        break;
                    }
                    let start = i;
                    let line = bytes.get(..range.end).unwrap_or(bytes);
                    i = crate::source::find_byte(line, i, b'\t').unwrap_or(range.end);
                    let r = start..i;
                    let r = if tokens.is_empty() && mode == LineMode::Object {
                        r
                    } else {
                        trim_range_fast(text, r)
                    };
                    if !r.is_empty() {
                        tokens.push(Span::new(file, r));
                    }
                }
                tokens.to_vec()
            }
        };
        if tokens.is_empty() {
            continue;
        }
        out.push(Line {
            number,
            span: Span::new(file, range),
            tokens,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The line splitting before it went eight bytes at a time, to compare with.
    fn reference_lines(file: FileId, text: &str, mode: LineMode) -> Vec<Line> {
        let mut out = Vec::new();
        // A line's tokens are gathered here and copied out at their exact count: one
        // allocation per line instead of a vector grown token by token (three or four
        // reallocations for a typical object line, and slack kept for the whole run).
        let mut scratch: Vec<Span> = Vec::new();
        for (number, range) in line_ranges(text) {
            let raw = text.get(range.clone()).unwrap_or("");
            if raw.trim().is_empty() {
                continue;
            }
            let range = match mode {
                LineMode::Object => range,
                LineMode::Trimmed | LineMode::Whole => trim_range(text, range),
            };
            let body = text.get(range.clone()).unwrap_or("");
            if body.starts_with('#') {
                continue;
            }
            let tokens = match mode {
                LineMode::Whole => vec![Span::new(file, range.clone())],
                LineMode::Object | LineMode::Trimmed => {
                    // A byte loop rather than `split('\t')`: real data pads tokens with long
                    // runs of tabs, and runs of tabs count as one separator.
                    let tokens = &mut scratch;
                    tokens.clear();
                    let b = body.as_bytes();
                    let mut i = 0usize;
                    while i < b.len() {
                        while b.get(i) == Some(&b'\t') {
                            i += 1;
                        }
                        if i >= b.len() {
                            break;
                        }
                        let start = i;
                        i += b
                            .get(i..)
                            .and_then(|rest| rest.iter().position(|c| *c == b'\t'))
                            .unwrap_or(b.len() - i);
                        let r = (range.start + start)..(range.start + i);
                        let r = if tokens.is_empty() && mode == LineMode::Object {
                            r
                        } else {
                            trim_range(text, r)
                        };
                        if !r.is_empty() {
                            tokens.push(Span::new(file, r));
                        }
                    }
                    tokens.to_vec()
                }
            };
            if tokens.is_empty() {
                continue;
            }
            out.push(Line {
                number,
                span: Span::new(file, range),
                tokens,
            });
        }
        out
    }

    /// Texts made of the characters line splitting treats specially.
    fn tricky() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just("\t"),
                Just("\t\t\t\t\t\t\t\t\t"),
                Just("\n"),
                Just("\r"),
                Just("\r\n"),
                Just(" "),
                Just("#"),
                Just("\u{a0}"),
                Just("\u{2003}"),
                Just("é"),
                Just("KEY:x"),
                Just("abcdefghijk"),
                Just("\u{b}"),
            ],
            0..40,
        )
        .prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn eight_bytes_at_a_time_splits_as_before(text in tricky()) {
            for mode in [LineMode::Object, LineMode::Trimmed, LineMode::Whole] {
                prop_assert_eq!(
                    lines(FileId(3), &text, mode),
                    reference_lines(FileId(3), &text, mode),
                    "{:?} {:?}", text, mode
                );
            }
            let f = SourceFile::new("x", text.clone(), crate::source::TextEncoding::Utf8);
            // The source's line index agrees with `line_ranges` on every line.
            for (number, r) in line_ranges(&text) {
                prop_assert_eq!(f.line_col(r.start), (number as usize, 1));
                prop_assert_eq!(f.line_range_at(r.start), r.clone());
            }
        }
    }

    fn texts(text: &str, mode: LineMode) -> Vec<Vec<String>> {
        lines(FileId(0), text, mode)
            .into_iter()
            .map(|l| {
                l.tokens
                    .iter()
                    .map(|t| text[t.range()].to_string())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn splits_cr_lf_crlf_and_skips_comments() {
        let t = "a\tb\r\n#c\rd \t\t e \n\n  \nf";
        assert_eq!(
            texts(t, LineMode::Object),
            vec![vec!["a", "b"], vec!["d ", "e"], vec!["f"]]
        );
        let numbers: Vec<u32> = lines(FileId(0), t, LineMode::Object)
            .iter()
            .map(|l| l.number)
            .collect();
        assert_eq!(numbers, vec![1, 3, 6]);
    }

    fn wide(text: &str, unit: usize, little: bool) -> Vec<u8> {
        text.chars()
            .flat_map(|c| {
                let n = c as u32;
                match (unit, little) {
                    (4, true) => n.to_le_bytes().to_vec(),
                    (4, false) => n.to_be_bytes().to_vec(),
                    (_, true) => (n as u16).to_le_bytes().to_vec(),
                    (_, false) => (n as u16).to_be_bytes().to_vec(),
                }
            })
            .collect()
    }

    #[test]
    fn utf16_and_utf32_without_bom_are_recognised_and_decoded() {
        let text = "Fighter\tKEY:F\tMODIFY:Hands|ADD|1\n";
        for (unit, little, name) in [
            (2, true, "UTF-16LE"),
            (2, false, "UTF-16BE"),
            (4, true, "UTF-32LE"),
            (4, false, "UTF-32BE"),
        ] {
            let fs = crate::load::fs::MemoryFs::new().with("/x.lst", wide(text, unit, little));
            let mut sources = SourceMap::new();
            let (id, warning) =
                read_source(&fs, Path::new("/x.lst"), "x.lst".into(), &mut sources).unwrap();
            assert_eq!(sources.get(id).unwrap().text, text, "{name}");
            let w = warning.expect("a warning");
            assert!(w.message.contains(name), "{}", w.message);
        }
        // Plain UTF-8 and Windows-1252 are not taken for wide text.
        assert_eq!(Wide::detect(text.as_bytes()), None);
        assert_eq!(Wide::detect(b"Caf\xe9\tKEY:Y\n"), None);
    }

    #[test]
    fn whole_mode_keeps_tabs_in_value() {
        assert_eq!(
            texts("  DESC:a\tb  \n # x", LineMode::Whole),
            vec![vec!["DESC:a\tb"]]
        );
    }

    #[test]
    fn column_zero_comment_only_for_objects() {
        assert_eq!(texts(" #x\ty", LineMode::Object), vec![vec![" #x", "y"]]);
        assert!(texts(" #x\ty", LineMode::Trimmed).is_empty());
    }
}
