//! `rulebook fmt`: PCGen's LST files laid out as PrettyLST lays them out, without Perl, and
//! without changing what PCGen reads (see `docs/formatting.md`).
//!
//! One concern a file: which kind each LST file is (`kinds`, from the PCCs listing it), the
//! layout tables compiled in from TSV (`table`), columns and tab stops (`columns`), the layout of a file's lines (`layout`) and the check every rewrite
//! passes before it is offered (`verify`). This module splits a file into lines with their
//! own line breaks, hands the lines to the layout and puts the file back together; it reads
//! and writes nothing (the CLI and the language server do).

mod columns;
pub mod kinds;
pub mod layout;
mod table;
pub mod verify;

pub use layout::Kept;

use crate::load::FileKind;
use crate::load::text::LineMode;

/// What a file is, for the formatter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// An LST file of this kind (as the PCC listing it says).
    Lst(FileKind),
    /// A PCC file.
    Pcc,
}

/// Why a file was not rewritten.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not UTF-8 (or UTF-16/32): rewriting would change its encoding.
    NotUtf8,
    /// The layout would have changed what the loader reads at this line (a bug in the
    /// formatter, caught before any harm).
    WouldChangeMeaning(u32),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NotUtf8 => write!(f, "not UTF-8; left as it is (save it as UTF-8 first)"),
            Refusal::WouldChangeMeaning(line) => write!(
                f,
                "laying it out would change what PCGen reads at line {line}; left as it is \
                 (please report this)"
            ),
        }
    }
}

/// A file laid out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Formatted {
    /// The new text (the same as the old when nothing changes).
    pub text: String,
    /// Object lines (1-based) left as they were, and why.
    pub kept: Vec<(u32, Kept)>,
}

/// Lays out a file's bytes. Files that are not UTF-8 are refused; a UTF-8 byte-order mark
/// is kept.
pub fn format_bytes(target: Target, bytes: &[u8]) -> Result<Formatted, Refusal> {
    let text = std::str::from_utf8(bytes).map_err(|_| Refusal::NotUtf8)?;
    format_text(target, text)
}

/// Lays out a file's text. Every line keeps its own line break (CR, LF or CRLF), comments
/// and blank lines stay, and a line the layout cannot place stays as it is (see [`Kept`]).
pub fn format_text(target: Target, text: &str) -> Result<Formatted, Refusal> {
    const BOM: &str = "\u{FEFF}";
    let (bom, body) = match text.strip_prefix(BOM) {
        Some(rest) => (BOM, rest),
        None => ("", text),
    };
    let mode = match target {
        Target::Lst(kind) => crate::load::loadset::line_mode(kind),
        Target::Pcc => LineMode::Whole,
    };
    let physical = physical_lines(body);
    let contents: Vec<&str> = physical.iter().map(|(c, _)| *c).collect();
    let (mut new, kept) = match target {
        Target::Lst(kind) => {
            let laid = layout::lay_out(kind.token(), body, mode, &contents);
            let kept = laid
                .kept
                .iter()
                .map(|(i, k)| (u32::try_from(i + 1).unwrap_or(u32::MAX), *k))
                .collect();
            (laid.lines, kept)
        }
        Target::Pcc => (pcc_lines(&contents), Vec::new()),
    };
    let mut out = String::with_capacity(text.len());
    out.push_str(bom);
    for (i, (content, line_break)) in physical.iter().enumerate() {
        match new.remove(&i) {
            Some(line) => out.push_str(&line),
            None => out.push_str(content),
        }
        out.push_str(line_break);
    }
    if out == text {
        return Ok(Formatted { text: out, kept });
    }
    if let Some(line) = verify::first_difference(body, out.get(bom.len()..).unwrap_or(""), mode) {
        return Err(Refusal::WouldChangeMeaning(line));
    }
    Ok(Formatted { text: out, kept })
}

/// PCC lines lose their trailing white space (PCGen trims them); nothing else changes:
/// PrettyLST leaves PCC files as they are.
fn pcc_lines(contents: &[&str]) -> std::collections::HashMap<usize, String> {
    contents
        .iter()
        .enumerate()
        .filter(|(_, c)| c.trim_end().len() != c.len() && !c.trim().is_empty())
        .map(|(i, c)| (i, c.trim_end().to_string()))
        .collect()
}

/// The lines of `text` with their own line breaks (`"\r\n"`, `"\n"`, `"\r"` or `""` for a
/// last line without one), numbered as the loader numbers them.
pub fn physical_lines(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find(['\r', '\n']) {
            Some(at) => {
                let width = if rest.get(at..at + 2) == Some("\r\n") {
                    2
                } else {
                    1
                };
                out.push((
                    rest.get(..at).unwrap_or(""),
                    rest.get(at..at + width).unwrap_or(""),
                ));
                rest = rest.get(at + width..).unwrap_or("");
            }
            None => {
                out.push((rest, ""));
                rest = "";
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(kind: FileKind, text: &str) -> String {
        format_text(Target::Lst(kind), text).expect("formats").text
    }

    #[test]
    fn a_block_is_aligned_on_shared_tab_stops_with_its_header() {
        let text = "# Ability Name\tx\n\
                    Firebrand\tTYPE:Combat\tCATEGORY:FEAT\n\
                    Destroy Identity\tCATEGORY:FEAT\tDESC:Long.\n";
        let out = fmt(FileKind::Ability, text);
        assert_eq!(
            out,
            "# Ability Name\tCategory of Ability\tType\t\tDescription\n\
             Firebrand\t\tCATEGORY:FEAT\t\tTYPE:Combat\n\
             Destroy Identity\tCATEGORY:FEAT\t\t\t\tDESC:Long.\n"
        );
        assert_eq!(fmt(FileKind::Ability, &out), out, "idempotent");
    }

    #[test]
    fn line_breaks_comments_and_unknown_tokens_are_kept() {
        let text = "# comment  \r\n\r\nDodge\tZZUNKNOWN:1\tKEY:Dodge\r\nLast\tKEY:y";
        let out = fmt(FileKind::Ability, text);
        assert_eq!(
            out,
            "# comment  \r\n\r\nDodge\t\t\tKEY:Dodge\tZZUNKNOWN:1\r\nLast\t\t\tKEY:y"
        );
    }

    #[test]
    fn lines_whose_order_matters_are_kept_as_they_are() {
        let text = "Dodge\tTYPE:A\tTYPE:.CLEAR\tKEY:x\n  Indented\tKEY:y\n";
        let f = format_text(Target::Lst(FileKind::Ability), text).expect("formats");
        assert_eq!(f.text, text);
        assert_eq!(f.kept, vec![(1, Kept::SameNameOrder), (2, Kept::Indented)]);
    }

    #[test]
    fn files_that_are_not_utf8_are_refused() {
        assert_eq!(
            format_bytes(Target::Lst(FileKind::Feat), b"Caf\xe9\tKEY:x\n"),
            Err(Refusal::NotUtf8)
        );
    }

    #[test]
    fn physical_lines_keep_their_breaks() {
        assert_eq!(
            physical_lines("a\r\nb\rc\nd"),
            vec![("a", "\r\n"), ("b", "\r"), ("c", "\n"), ("d", "")]
        );
        assert_eq!(physical_lines("a\n\n"), vec![("a", "\n"), ("", "\n")]);
    }
}
