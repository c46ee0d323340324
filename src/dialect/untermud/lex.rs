//! UnterMUD lock tokens: `( ) & | !`, the word `with`, the constants `T` and `F`, and
//! values (names or OIDs) with `"…"` / `'…'` grouping and `\` escapes.

use super::UNTERMINATED_QUOTE;
use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    Open,
    Close,
    And,
    Or,
    Not,
    With,
    Const(bool),
    /// A name or OID, quotes and escapes removed.
    Value(String),
}

/// A token and its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Token {
    pub tok: Tok,
    pub span: Span,
}

fn special(c: char) -> bool {
    matches!(c, '(' | ')' | '&' | '|' | '!')
}

/// Splits `text` into tokens; problems (an unterminated quote, a trailing `\`) are added to
/// `diags` and the token is kept as far as it goes.
pub(super) fn lex(text: &str, file: FileId, diags: &mut Vec<Diagnostic>) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    let span = |a: usize, b: usize| Span::new(file, a..b);
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        if special(c) {
            chars.next();
            let tok = match c {
                '(' => Tok::Open,
                ')' => Tok::Close,
                '&' => Tok::And,
                '|' => Tok::Or,
                _ => Tok::Not,
            };
            out.push(Token {
                tok,
                span: span(start, start + c.len_utf8()),
            });
            continue;
        }
        // A value: a run of plain characters, quoted groups and escapes.
        let mut value = String::new();
        let mut quoted = false;
        let mut end = start;
        while let Some(&(i, c)) = chars.peek() {
            if c.is_whitespace() || special(c) {
                break;
            }
            chars.next();
            end = i + c.len_utf8();
            match c {
                '\\' => match chars.next() {
                    Some((j, e)) => {
                        value.push(e);
                        end = j + e.len_utf8();
                        quoted = true;
                    }
                    None => diags.push(
                        Diagnostic::error(
                            UNTERMINATED_QUOTE,
                            span(i, end),
                            "`\\` at the end of the lock",
                        )
                        .with_label("escapes nothing")
                        .with_help(
                            "remove the `\\`, or put the character it should escape after it",
                        ),
                    ),
                },
                '"' | '\'' => {
                    quoted = true;
                    let mut closed = false;
                    while let Some((j, q)) = chars.next() {
                        end = j + q.len_utf8();
                        if q == c {
                            closed = true;
                            break;
                        }
                        if q == '\\' && c == '"' {
                            if let Some((k, e)) = chars.next() {
                                value.push(e);
                                end = k + e.len_utf8();
                            }
                            continue;
                        }
                        value.push(q);
                    }
                    if !closed {
                        diags.push(
                            Diagnostic::error(
                                UNTERMINATED_QUOTE,
                                span(i, i + 1),
                                format!("this {c} is never closed"),
                            )
                            .with_label("unterminated quote")
                            .with_secondary(span(end, end), "the lock ends here")
                            .with_help(format!("add the closing {c}")),
                        );
                    }
                }
                _ => value.push(c),
            }
        }
        let tok = match (quoted, value.as_str()) {
            (false, "with") => Tok::With,
            (false, "T") => Tok::Const(true),
            (false, "F") => Tok::Const(false),
            _ => Tok::Value(value),
        };
        out.push(Token {
            tok,
            span: span(start, end),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        let mut d = Vec::new();
        let t = lex(text, FileId(0), &mut d)
            .into_iter()
            .map(|t| t.tok)
            .collect();
        assert!(d.is_empty());
        t
    }

    #[test]
    fn quotes_and_escapes_group_values() {
        assert_eq!(
            toks(r#""gold key"|Bob\'s\ hat&!with"#),
            [
                Tok::Value("gold key".into()),
                Tok::Or,
                Tok::Value("Bob's hat".into()),
                Tok::And,
                Tok::Not,
                Tok::With,
            ]
        );
        assert_eq!(
            toks(r#""with" T"#),
            [Tok::Value("with".into()), Tok::Const(true)]
        );
    }
}
