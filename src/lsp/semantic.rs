//! `textDocument/semanticTokens/full`: highlighting that knows PCGen, for editors without a
//! grammar of their own (Neovim, Helix): comments, an object line's name, token names (marked
//! deprecated where the token vocabulary says PCGen replaced them on that line's kind), and
//! in formula tokens (`MODIFY`, `BONUS`, `DEFINE`, `PREVARxx` …) numbers, strings, operators
//! and the variables the load set knows (formula-system and `DEFINE`d ones). Read from the
//! editor's text; what needs the load set (deprecation, variables) comes from the last
//! check of the file, and is left out for a file no load set holds yet.

use crate::load::FileKind;
use crate::lsp::checked::Checked;
use crate::lsp::context::is_name_char;
use crate::vocabulary::{LineType, Status, Vocabulary, line_type};
use lsp_types as lsp;
use std::collections::HashSet;

/// The token types, in the order of the legend (their index is what is sent).
const TYPES: [lsp::SemanticTokenType; 7] = [
    lsp::SemanticTokenType::COMMENT,
    lsp::SemanticTokenType::KEYWORD,
    lsp::SemanticTokenType::CLASS,
    lsp::SemanticTokenType::VARIABLE,
    lsp::SemanticTokenType::OPERATOR,
    lsp::SemanticTokenType::NUMBER,
    lsp::SemanticTokenType::STRING,
];
const COMMENT: u32 = 0;
const KEYWORD: u32 = 1;
const CLASS: u32 = 2;
const VARIABLE: u32 = 3;
const OPERATOR: u32 = 4;
const NUMBER: u32 = 5;
const STRING: u32 = 6;

/// The modifier bit of a deprecated token name.
const DEPRECATED: u32 = 1;

/// The legend the server announces.
pub fn legend() -> lsp::SemanticTokensLegend {
    lsp::SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: vec![lsp::SemanticTokenModifier::DEPRECATED],
    }
}

/// The tokens whose values are formulas (new or old system).
fn is_formula_token(name: &str) -> bool {
    matches!(
        name,
        "MODIFY" | "MODIFYOTHER" | "BONUS" | "DEFINE" | "DEFINESTAT" | "DEFAULTVARIABLEVALUE"
    ) || name.starts_with("PREVAR")
}

/// What the load set tells about a file: its kind, and the variables its formulas may read
/// (lower case).
pub struct Known {
    kind: Option<FileKind>,
    variables: HashSet<String>,
}

impl Known {
    /// Nothing known (a file no load set holds yet): no deprecation, no variables.
    pub fn nothing() -> Self {
        Known {
            kind: None,
            variables: HashSet::new(),
        }
    }

    /// What `checked` knows of its file `file`.
    pub fn of(checked: &Checked, file: crate::source::FileId) -> Self {
        let kind = checked
            .set
            .load
            .files
            .iter()
            .find(|f| f.file == file)
            .map(|f| f.kind);
        let ds = &checked.set.dataset;
        let mut variables: HashSet<String> = ds
            .variables
            .iter()
            .map(|v| v.name.as_str().to_lowercase())
            .collect();
        variables.extend(
            checked
                .old_variables()
                .keys()
                .map(|n| n.as_str().to_lowercase()),
        );
        Known { kind, variables }
    }
}

/// One token: byte range within its line, type and modifiers.
struct Piece {
    start: usize,
    end: usize,
    kind: u32,
    modifiers: u32,
}

/// The semantic tokens of `text`, encoded as LSP wants (relative lines and UTF-16 columns).
pub fn tokens(text: &str, known: &Known) -> Vec<lsp::SemanticToken> {
    let mut out = Vec::new();
    let (mut last_line, mut last_col) = (0u32, 0u32);
    for (n, line) in text.split('\n').enumerate() {
        let line = line.trim_end_matches('\r');
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        for p in line_pieces(line, known) {
            let (Some(before), Some(body)) = (line.get(..p.start), line.get(p.start..p.end)) else {
                continue;
            };
            let col = utf16(before);
            let length = utf16(body);
            if length == 0 {
                continue;
            }
            let delta_line = n - last_line;
            let delta_start = if delta_line == 0 { col - last_col } else { col };
            out.push(lsp::SemanticToken {
                delta_line,
                delta_start,
                length,
                token_type: p.kind,
                token_modifiers_bitset: p.modifiers,
            });
            (last_line, last_col) = (n, col);
        }
    }
    out
}

fn utf16(s: &str) -> u32 {
    u32::try_from(s.encode_utf16().count()).unwrap_or(u32::MAX)
}

/// The pieces of one line, in order, not overlapping.
fn line_pieces(line: &str, known: &Known) -> Vec<Piece> {
    let mut out = Vec::new();
    if line.trim_start().starts_with('#') {
        out.push(Piece {
            start: line.len() - line.trim_start().len(),
            end: line.len(),
            kind: COMMENT,
            modifiers: 0,
        });
        return out;
    }
    let first = line.split('\t').next().unwrap_or("");
    let vocabulary_kind = known.kind.and_then(|k| match line_type(k, first.trim()) {
        LineType::Kind { kind, .. } => Some(kind),
        LineType::Model | LineType::Unknown { .. } => None,
    });
    let mut at = 0;
    for (i, field) in line.split('\t').enumerate() {
        let start = at;
        at += field.len() + 1;
        let trimmed = field.trim();
        if trimmed.is_empty() {
            continue;
        }
        let lead = field.len() - field.trim_start().len();
        let start = start + lead;
        let colon = trimmed.find(':');
        let name = colon.and_then(|c| trimmed.get(..c));
        let is_token = name.is_some_and(|n| {
            let n = n.trim_start_matches('!');
            !n.is_empty()
                && n.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        });
        match (is_token, name, colon) {
            (true, Some(name), Some(colon)) => {
                let bare = name.trim_start_matches('!');
                let bang = name.len() - bare.len();
                let deprecated = vocabulary_kind
                    .and_then(|k| Vocabulary::get().find(k, bare))
                    .is_some_and(|row| row.status != Status::Active);
                out.push(Piece {
                    start: start + bang,
                    end: start + name.len(),
                    kind: KEYWORD,
                    modifiers: if deprecated { DEPRECATED } else { 0 },
                });
                let value_start = start + colon + 1;
                let value = trimmed.get(colon + 1..).unwrap_or("");
                if is_formula_token(bare) {
                    formula_pieces(value, value_start, known, &mut out);
                }
            }
            _ if i == 0 => out.push(Piece {
                start,
                end: start + trimmed.len(),
                kind: CLASS,
                modifiers: 0,
            }),
            _ => {}
        }
    }
    out
}

/// Numbers, strings, operators and known variables in a formula token's value (at byte
/// `base` of its line).
fn formula_pieces(value: &str, base: usize, known: &Known, out: &mut Vec<Piece>) {
    let bytes = value.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let piece = |len: usize, kind: u32| Piece {
            start: base + i,
            end: base + i + len,
            kind,
            modifiers: 0,
        };
        if b == b'"' {
            let len = value
                .get(i + 1..)
                .and_then(|rest| rest.find('"'))
                .map_or(value.len() - i, |e| e + 2);
            out.push(piece(len, STRING));
            i += len;
        } else if b.is_ascii_digit() {
            let len = bytes
                .get(i..)
                .unwrap_or(&[])
                .iter()
                .take_while(|c| c.is_ascii_digit() || **c == b'.')
                .count();
            out.push(piece(len, NUMBER));
            i += len;
        } else if b"+-*/^<>!&%".contains(&b) || (b == b'=' && bytes.get(i + 1) == Some(&b'=')) {
            let two =
                bytes.get(i + 1) == Some(&b'=') || (b == b'&' && bytes.get(i + 1) == Some(&b'&'));
            let len = if two { 2 } else { 1 };
            out.push(piece(len, OPERATOR));
            i += len;
        } else if value
            .get(i..)
            .and_then(|r| r.chars().next())
            .is_some_and(is_name_char)
        {
            let rest = value.get(i..).unwrap_or("");
            let len: usize = rest
                .chars()
                .take_while(|c| is_name_char(*c))
                .map(char::len_utf8)
                .sum();
            let word = rest.get(..len).unwrap_or("");
            if known.variables.contains(&word.to_lowercase()) {
                out.push(piece(len, VARIABLE));
            }
            i += len.max(1);
        } else {
            i += value
                .get(i..)
                .and_then(|r| r.chars().next())
                .map_or(1, char::len_utf8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(text: &str, known: &Known) -> Vec<(u32, u32, u32, u32)> {
        let (mut line, mut col) = (0, 0);
        tokens(text, known)
            .iter()
            .map(|t| {
                if t.delta_line > 0 {
                    col = 0;
                }
                line += t.delta_line;
                col += t.delta_start;
                (line, col, t.length, t.token_type)
            })
            .collect()
    }

    #[test]
    fn names_tokens_numbers_operators_and_known_variables() {
        let known = Known {
            kind: None,
            variables: ["hands".to_owned()].into_iter().collect(),
        };
        let text = "# c\nArms\tCATEGORY:Feat\tMODIFY:Hands|ADD|Hands*2+\"x\"\n";
        assert_eq!(
            decoded(text, &known),
            vec![
                (0, 0, 3, COMMENT),
                (1, 0, 4, CLASS),
                (1, 5, 8, KEYWORD),
                (1, 19, 6, KEYWORD),
                (1, 26, 5, VARIABLE),
                (1, 36, 5, VARIABLE),
                (1, 41, 1, OPERATOR),
                (1, 42, 1, NUMBER),
                (1, 43, 1, OPERATOR),
                (1, 44, 3, STRING),
            ]
        );
    }
}
