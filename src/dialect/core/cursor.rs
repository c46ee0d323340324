//! A byte cursor over one formula's text, shared by the dialects' scanners.
//!
//! The legacy languages are ASCII-only and were scanned byte by byte with C's `isspace`,
//! `isdigit` and `strncasecmp`; this mirrors those helpers and turns positions into
//! [`Span`]s of the formula's file.

use crate::source::{FileId, Span};

/// A position in one formula's text.
#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    text: &'a str,
    file: FileId,
    /// Byte offset of the next unread byte.
    pub pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`, which is the whole of `file`.
    pub fn new(text: &'a str, file: FileId) -> Self {
        Cursor { text, file, pos: 0 }
    }

    /// The whole text.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The file the text belongs to.
    pub fn file(&self) -> FileId {
        self.file
    }

    /// The byte at `pos + ahead`, if any.
    pub fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.text
            .as_bytes()
            .get(self.pos.saturating_add(ahead))
            .copied()
    }

    /// The next byte, if any.
    pub fn peek(&self) -> Option<u8> {
        self.peek_at(0)
    }

    /// True at the end of the text.
    pub fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    /// Moves `n` bytes on (never past the end).
    pub fn advance(&mut self, n: usize) {
        self.pos = self.pos.saturating_add(n).min(self.text.len());
    }

    /// Skips C `isspace` bytes (space, tab, newline, vertical tab, form feed, carriage return).
    pub fn skip_space(&mut self) {
        while self.peek().is_some_and(is_c_space) {
            self.advance(1);
        }
    }

    /// If the text at the cursor starts with `word` in any ASCII case, moves past it and
    /// returns true (C `strncasecmp`: a prefix match, no word boundary).
    pub fn eat_ci(&mut self, word: &str) -> bool {
        let rest = self.text.as_bytes().get(self.pos..).unwrap_or(&[]);
        let w = word.as_bytes();
        if rest.len() >= w.len() && rest.iter().zip(w).all(|(a, b)| a.eq_ignore_ascii_case(b)) {
            self.advance(w.len());
            true
        } else {
            false
        }
    }

    /// The span of bytes `start..end`.
    pub fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start..end.max(start))
    }

    /// The span from `start` to the cursor.
    pub fn span_from(&self, start: usize) -> Span {
        self.span(start, self.pos)
    }

    /// The span of the run of bytes from the cursor satisfying `pred` (at least one byte,
    /// or one whole character when the next byte does not satisfy it; empty at the end).
    pub fn run_span(&self, pred: impl Fn(u8) -> bool) -> Span {
        let bytes = self.text.as_bytes();
        let mut end = self.pos;
        while bytes.get(end).copied().is_some_and(&pred) {
            end += 1;
        }
        if end == self.pos && self.pos < bytes.len() {
            end = self.pos + 1;
            while end < bytes.len() && !self.text.is_char_boundary(end) {
                end += 1;
            }
        }
        self.span(self.pos, end)
    }
}

/// C `isspace` on a byte.
pub fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eat_ci_is_a_case_insensitive_prefix_match() {
        let mut c = Cursor::new("BLITZor", FileId(0));
        assert!(c.eat_ci("blitz"));
        assert!(c.eat_ci("or"));
        assert!(c.at_end());
        assert!(!c.eat_ci("x"));
    }

    #[test]
    fn run_span_covers_one_character_at_least() {
        let c = Cursor::new("é1", FileId(0));
        assert_eq!(c.run_span(|b| b.is_ascii_digit()).range(), 0..2);
    }
}
