//! Source text, file identities and byte spans.
//!
//! Every item a user may be told about carries a [`Span`]: the file it came from and a byte
//! range in that file's decoded text. Files live in a [`SourceMap`]; the core never reads the
//! disk itself (see `crate::load::FileSystem` for how files come in).

use std::ops::Range;
use std::sync::Arc;

/// Identity of one source file inside a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    /// The file the range belongs to.
    pub file: FileId,
    /// First byte (inclusive).
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// No place in any source file: for problems with input that is not a loaded file (an
    /// API call, a character file built in code). `diagnostic::render` prints such a diagnostic without a
    /// source excerpt, and its JSON form has an empty file and line 0.
    pub const DETACHED: Span = Span {
        file: FileId(u32::MAX),
        start: 0,
        end: 0,
    };

    /// A span of `range` in `file`.
    pub fn new(file: FileId, range: Range<usize>) -> Self {
        Span {
            file,
            start: clamp_u32(range.start),
            end: clamp_u32(range.end.max(range.start)),
        }
    }

    /// The byte range as `usize`s.
    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// This span moved `offset` bytes to the right (used when a formula embedded in a token
    /// line is parsed on its own).
    pub fn shifted(self, offset: u32) -> Self {
        Span {
            file: self.file,
            start: self.start.saturating_add(offset),
            end: self.end.saturating_add(offset),
        }
    }

    /// The smallest span covering both (same file assumed; `self`'s file is kept).
    pub fn join(self, other: Span) -> Self {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start) as usize
    }

    /// True when the span covers no byte.
    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }
}

/// Eight copies of the byte `b` in a word.
const fn splat(b: u8) -> u64 {
    0x0101_0101_0101_0101 * b as u64
}

/// The high bit of each byte of `w` that is zero, and no other bit (exact, unlike the
/// shorter test that may also mark the byte after a zero).
#[inline]
const fn zero_bytes(w: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    !(((w & LOW7).wrapping_add(LOW7)) | w | LOW7)
}

/// The offset of the first byte at or after `from` in `bytes` that is `a` or `b`, found
/// eight bytes at a time (lines and tokens are long: a byte loop cost more than the rest
/// of splitting a file).
#[inline]
pub(crate) fn find_either(bytes: &[u8], from: usize, a: u8, b: u8) -> Option<usize> {
    let (pa, pb) = (splat(a), splat(b));
    let words = bytes.get(from..)?.chunks_exact(8);
    let rest = words.remainder();
    let mut i = from;
    for w in words {
        let w = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        let hits = zero_bytes(w ^ pa) | zero_bytes(w ^ pb);
        if hits != 0 {
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    rest.iter().position(|c| *c == a || *c == b).map(|p| i + p)
}

/// The offset of the first `b` at or after `from` in `bytes`, eight bytes at a time.
#[inline]
pub(crate) fn find_byte(bytes: &[u8], from: usize, b: u8) -> Option<usize> {
    let pat = splat(b);
    let words = bytes.get(from..)?.chunks_exact(8);
    let rest = words.remainder();
    let mut i = from;
    for w in words {
        let w = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        let hits = zero_bytes(w ^ pat);
        if hits != 0 {
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    rest.iter().position(|c| *c == b).map(|p| i + p)
}

/// The offset of the first byte at or after `from` and before `to` that is not `b` (`to`
/// when there is none), eight bytes at a time.
#[inline]
pub(crate) fn skip_byte(bytes: &[u8], from: usize, to: usize, b: u8) -> usize {
    let pat = splat(b);
    let Some(words) = bytes.get(from..to).map(|s| s.chunks_exact(8)) else {
        return to.max(from);
    };
    let rest = words.remainder();
    let mut i = from;
    for w in words {
        let other = u64::from_le_bytes(w.try_into().unwrap_or([0; 8])) ^ pat;
        if other != 0 {
            return i + (other.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    rest.iter().position(|c| *c != b).map_or(to, |p| i + p)
}

/// The offset of the first CR or LF at or after `from` in `bytes`.
#[inline]
pub(crate) fn find_line_break(bytes: &[u8], from: usize) -> Option<usize> {
    find_either(bytes, from, b'\n', b'\r')
}

fn clamp_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// How a file's bytes were turned into text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextEncoding {
    /// Valid UTF-8 (a leading byte-order mark is removed).
    Utf8,
    /// Not valid UTF-8; decoded as Windows-1252. `first_bad_byte` is the offset of the first
    /// byte that broke UTF-8 decoding and `byte` its value.
    Windows1252 {
        /// Offset of the first byte that is not valid UTF-8.
        first_bad_byte: usize,
        /// The value of that byte.
        byte: u8,
    },
    /// UTF-16 or UTF-32 (recognised by its byte-order mark or its zero bytes), decoded as
    /// such.
    Wide {
        /// `UTF-16LE`, `UTF-16BE`, `UTF-32LE` or `UTF-32BE`.
        name: &'static str,
        /// Whether a byte-order mark starts the file: PCGen then skips it whole, as
        /// malformed UTF-8; without one, an ASCII-only file is valid UTF-8 to PCGen, with a
        /// NUL byte beside every character.
        bom: bool,
    },
}

/// The bytes of `text` at `range` inside the quotes of a TOML string or quoted key written
/// there (`"x"`, `'x'`, `"""x"""`); `range` itself for a bare key or a range that is not
/// in `text`. The TOML files (`rulebook.toml`, character files) give a value's span with its
/// quotes; a "did you mean" replaces what is inside them.
pub fn unquoted(text: &str, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let Some(written) = text.get(range.clone()) else {
        return range;
    };
    let quotes = ["\"\"\"", "'''", "\"", "'"]
        .into_iter()
        .find(|q| written.len() >= 2 * q.len() && written.starts_with(q) && written.ends_with(q))
        .map_or(0, str::len);
    range.start + quotes..range.end - quotes
}

/// Decodes file bytes: UTF-8 when valid, otherwise Windows-1252 (which never fails).
pub fn decode_text(bytes: &[u8]) -> (String, TextEncoding) {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(body) {
        Ok(text) => (text.to_owned(), TextEncoding::Utf8),
        Err(err) => {
            let at = err.valid_up_to();
            let byte = body.get(at).copied().unwrap_or(0);
            let (text, _, _) = encoding_rs::WINDOWS_1252.decode(body);
            let skipped = bytes.len() - body.len();
            (
                text.into_owned(),
                TextEncoding::Windows1252 {
                    first_bad_byte: at + skipped,
                    byte,
                },
            )
        }
    }
}

/// One source file: its display path, decoded text and line index.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Path as shown to users (relative to the PCGen root or data folder when known).
    pub path: String,
    /// Decoded text.
    pub text: String,
    /// How the bytes were decoded.
    pub encoding: TextEncoding,
    line_starts: Vec<u32>,
}

impl SourceFile {
    /// A file from already-decoded text.
    pub fn new(path: impl Into<String>, text: impl Into<String>, encoding: TextEncoding) -> Self {
        let text = text.into();
        let mut line_starts = vec![0u32];
        let bytes = text.as_bytes();
        // Every line break found eight bytes at a time (CR, LF and CRLF each end a line).
        let mut i = 0;
        while let Some(at) = find_line_break(bytes, i) {
            let next = if bytes.get(at) == Some(&b'\r') && bytes.get(at + 1) == Some(&b'\n') {
                at + 2
            } else {
                at + 1
            };
            line_starts.push(clamp_u32(next));
            i = next;
        }
        SourceFile {
            path: path.into(),
            text,
            encoding,
            line_starts,
        }
    }

    /// The byte offset at which each line starts (the first at 0; lines end at LF, CR or
    /// CRLF).
    pub fn line_starts(&self) -> &[u32] {
        &self.line_starts
    }

    /// 1-based line and 1-based column (in characters) of a byte offset. Offsets past the end
    /// or inside a character are clamped.
    pub fn line_col(&self, byte: usize) -> (usize, usize) {
        let byte = byte.min(self.text.len());
        let line = match self.line_starts.binary_search(&clamp_u32(byte)) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts.get(line).copied().unwrap_or(0) as usize;
        let mut end = byte;
        while end > start && !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let col = self.text.get(start..end).map_or(0, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// The byte range of the line holding `byte` (clamped to the text), without its line
    /// break.
    pub fn line_range_at(&self, byte: usize) -> Range<usize> {
        let byte = byte.min(self.text.len());
        let line = match self.line_starts.binary_search(&clamp_u32(byte)) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts.get(line).map_or(0, |&s| s as usize);
        let mut end = self
            .line_starts
            .get(line + 1)
            .map_or(self.text.len(), |&s| s as usize);
        let bytes = self.text.as_bytes();
        while end > start && matches!(bytes.get(end - 1), Some(b'\n' | b'\r')) {
            end -= 1;
        }
        start..end
    }

    /// The text a span covers (empty if the span does not fit this file).
    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }
}

/// All source files of one load, addressed by [`FileId`]. Files are shared (`Arc`): load sets
/// that read the same file hold one copy of its text (see `crate::load::cache`).
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<Arc<SourceFile>>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.add_shared(Arc::new(file))
    }

    /// Adds a file another map may hold too (no copy of its text) and returns its id here.
    pub fn add_shared(&mut self, file: Arc<SourceFile>) -> FileId {
        let id = FileId(clamp_u32(self.files.len()));
        self.files.push(file);
        id
    }

    /// The shared handle of the file with this id, if any.
    pub fn get_shared(&self, id: FileId) -> Option<&Arc<SourceFile>> {
        self.files.get(id.0 as usize)
    }

    /// The file with this id, if any.
    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize).map(|f| &**f)
    }

    /// All files with their ids.
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(clamp_u32(i)), &**f))
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when no file was added.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_lines_and_chars() {
        let f = SourceFile::new("a", "ab\r\nçd\ne", TextEncoding::Utf8);
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(4), (2, 1));
        assert_eq!(f.line_col(6), (2, 2));
        assert_eq!(f.line_col(8), (3, 1));
    }

    #[test]
    fn windows_1252_fallback_names_first_bad_byte() {
        let (text, enc) = decode_text(b"ab\x92c");
        assert_eq!(text, "ab\u{2019}c");
        assert_eq!(
            enc,
            TextEncoding::Windows1252 {
                first_bad_byte: 2,
                byte: 0x92
            }
        );
    }
}
