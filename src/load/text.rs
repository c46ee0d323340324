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
        TextEncoding::Utf8 => None,
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

/// Splits a file's text into its meaningful lines.
pub fn lines(file: FileId, text: &str, mode: LineMode) -> Vec<Line> {
    let mut out = Vec::new();
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
                let mut tokens = Vec::new();
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
                tokens
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
