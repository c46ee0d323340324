//! Byte offsets ⇄ LSP positions. LSP counts lines from 0 and columns in UTF-16 code units;
//! rulebook's spans are byte ranges into the decoded text. Lines end at LF, CR or CRLF, as
//! the loader splits them (`crate::source::SourceFile`).

use crate::source::SourceFile;
use lsp_types::{Position, Range};

/// Where each line of a text starts.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes `text`.
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        let bytes = text.as_bytes();
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if b == b'\n' {
                starts.push(i + 1);
            } else if b == b'\r' {
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                starts.push(i + 1);
            }
            i += 1;
        }
        LineIndex { starts }
    }

    /// The index of a file the loader read, from the line starts it found (the text is not
    /// scanned again: converting a load set's findings indexed each file anew, most of the
    /// time of publishing them).
    pub fn of(source: &SourceFile) -> Self {
        let starts = source.line_starts().iter().map(|&s| s as usize).collect();
        LineIndex { starts }
    }

    /// The position of byte `offset` (clamped to the text and to a character boundary).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while offset > 0 && !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.starts.get(line).copied().unwrap_or(0).min(offset);
        let col: usize = text
            .get(start..offset)
            .map_or(0, |s| s.chars().map(char::len_utf16).sum());
        Position::new(to_u32(line), to_u32(col))
    }

    /// The range of bytes `start..end`.
    pub fn range(&self, text: &str, start: usize, end: usize) -> Range {
        Range::new(
            self.position(text, start),
            self.position(text, end.max(start)),
        )
    }

    /// The byte offset of a position (clamped: past the line's end is its end, past the last
    /// line is the end of the text; inside a surrogate pair is the character's start).
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .copied()
            .unwrap_or(text.len());
        let line = text.get(start..end).unwrap_or("");
        let line = line.trim_end_matches(['\n', '\r']);
        let mut units = 0usize;
        for (i, c) in line.char_indices() {
            if units + c.len_utf16() > pos.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        start + line.len()
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        // `é` is 2 bytes / 1 unit; `𝄞` is 4 bytes / 2 units.
        let text = "a\r\nxé𝄞Name\nend";
        let idx = LineIndex::new(text);
        let name = text.find("Name").unwrap();
        assert_eq!(idx.position(text, name), Position::new(1, 4));
        assert_eq!(idx.offset(text, Position::new(1, 4)), name);
        assert_eq!(idx.position(text, text.len()), Position::new(2, 3));
    }

    #[test]
    fn a_loaded_file_is_indexed_as_its_text_is() {
        let text = "a\r\nb\rc\n\nd\r\r\ne";
        let source = SourceFile::new("x.lst", text, crate::source::TextEncoding::Utf8);
        assert_eq!(LineIndex::of(&source).starts, LineIndex::new(text).starts);
    }

    #[test]
    fn out_of_range_positions_clamp() {
        let text = "ab\ncd";
        let idx = LineIndex::new(text);
        assert_eq!(idx.offset(text, Position::new(0, 99)), 2);
        assert_eq!(idx.offset(text, Position::new(9, 0)), text.len());
        assert_eq!(idx.position(text, 999), Position::new(1, 2));
    }
}
