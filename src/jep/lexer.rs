//! The lexer: formula text → tokens, every lexical problem reported once.
//!
//! JEP 2.4.1's token rules as PCGen's data meets them: spaces between tokens are skipped;
//! a name is a letter, `_` or `$` then letters, digits, `_`, `$` and `.` (`STAT.3.MOD`,
//! `SKILLRANK.Spot`). Beyond JEP, a name takes in what PCGen's fallback parser reads as
//! part of one name, because real terms are written that way: `[…]` (`COUNT[FEATS]`), `=`
//! or `:` and the text after it up to an operator (`CL=Blood Archer`, `HASFEAT:Power
//! Attack`), `;` and a word (`CL;BEFORELEVEL=3`), and further words after a space
//! (`BloodRage Acid`). Such a name is a [`Tok::FallbackName`]: JEP cannot read it, so a
//! formula holding one is evaluated by the fallback parser (see `super::fallback`).
//!
//! A problem becomes a [`Tok::Bad`] (where an operand stands) or [`Tok::BadOperator`]
//! (where an operator stands) so the grammar goes on without reporting it again.

use super::ast::BinaryOp;
use super::codes;
use crate::diagnostic::Code;
use std::ops::Range;

/// One token. Tokens carry no text (their range locates it), so they are `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Tok {
    /// A number (`2`, `1.5`, `.5`, `1e3`, `1.`).
    Number,
    /// A string literal, quotes included.
    Str,
    /// A name JEP reads (`TL`, `STAT.3.MOD`, `max`).
    Name,
    /// A name only PCGen's fallback parser reads (`CL=Fighter`, `COUNT[FEATS]`, `a b`).
    FallbackName,
    /// `%`, `%CHOICE`, `%LIST` where an operand stands.
    Placeholder,
    /// A binary operator (`+` and `-` also prefix).
    Op(BinaryOp),
    /// `!`
    Bang,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `,`
    Comma,
    /// An operand that could not be read (reported).
    Bad,
    /// Something standing where an operator should that is none (reported).
    BadOperator,
}

impl Tok {
    /// True for tokens after which an operator (or `)`/`,`) is expected.
    pub(super) fn ends_operand(self) -> bool {
        matches!(
            self,
            Tok::Number
                | Tok::Str
                | Tok::Name
                | Tok::FallbackName
                | Tok::Placeholder
                | Tok::RParen
                | Tok::Bad
        )
    }
}

/// A token and its byte range in the formula.
pub(super) type Spanned = (Tok, Range<usize>);

/// A lexical problem: code, range, message, label, help.
#[derive(Clone, Debug)]
pub(super) struct Problem {
    pub code: Code,
    pub range: Range<usize>,
    pub message: String,
    pub label: String,
    pub help: String,
}

impl Problem {
    pub(super) fn new(code: Code, range: Range<usize>, message: impl Into<String>) -> Self {
        Problem {
            code,
            range,
            message: message.into(),
            label: String::new(),
            help: String::new(),
        }
    }

    pub(super) fn label(mut self, text: impl Into<String>) -> Self {
        self.label = text.into();
        self
    }

    pub(super) fn help(mut self, text: impl Into<String>) -> Self {
        self.help = text.into();
        self
    }
}

/// True for a character that starts a JEP name.
fn starts_name(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$' || (!c.is_ascii() && c.is_alphabetic())
}

/// True for a character that continues a JEP name.
fn continues_name(c: char) -> bool {
    starts_name(c) || c.is_ascii_digit() || c == '.'
}

/// True for a character that ends the argument of a term after `=` or `:`: what PCGen's
/// fallback parser splits at (`+ - * /`, parentheses) and what JEP reads as an operator.
fn ends_term_value(c: char) -> bool {
    matches!(
        c,
        '+' | '-' | '*' | '/' | '(' | ')' | ',' | '"' | '<' | '>' | '!' | '=' | '&' | '|' | '^'
    )
}

/// A cursor over the text.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.text.get(self.at..).and_then(|s| s.chars().next())
    }

    fn peek_at(&self, at: usize) -> Option<char> {
        self.text.get(at..).and_then(|s| s.chars().next())
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        Some(c)
    }

    fn eat_while(&mut self, f: impl Fn(char) -> bool) {
        while self.peek().is_some_and(&f) {
            self.bump();
        }
    }

    /// The position after the spaces from `at`.
    fn after_spaces(&self, at: usize) -> usize {
        let rest = self.text.get(at..).unwrap_or("");
        at + (rest.len() - rest.trim_start_matches(' ').len())
    }
}

/// Lexes `text` into `tokens` (cleared first), reporting problems into `problems`.
pub(super) fn lex(text: &str, tokens: &mut Vec<Spanned>, problems: &mut Vec<Problem>) {
    tokens.clear();
    let mut c = Cursor { text, at: 0 };
    loop {
        c.eat_while(|ch| matches!(ch, ' ' | '\t' | '\r' | '\n'));
        let start = c.at;
        let Some(ch) = c.bump() else { break };
        let operand_expected = !tokens.last().is_some_and(|(t, _)| t.ends_operand());
        let op = |o| Tok::Op(o);
        let tok = match ch {
            '+' => op(BinaryOp::Add),
            '-' => op(BinaryOp::Sub),
            '*' => op(BinaryOp::Mul),
            '/' => op(BinaryOp::Div),
            '^' => op(BinaryOp::Pow),
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            ',' => Tok::Comma,
            '%' if operand_expected => {
                c.eat_while(continues_name);
                Tok::Placeholder
            }
            '%' => op(BinaryOp::Rem),
            '<' | '>' | '!' | '=' if c.peek() == Some('=') => {
                c.bump();
                match ch {
                    '<' => op(BinaryOp::Le),
                    '>' => op(BinaryOp::Ge),
                    '!' => op(BinaryOp::Ne),
                    _ => op(BinaryOp::Eq),
                }
            }
            '<' => op(BinaryOp::Lt),
            '>' => op(BinaryOp::Gt),
            '!' => Tok::Bang,
            '&' | '|' if c.peek() == Some(ch) => {
                c.bump();
                op(if ch == '&' {
                    BinaryOp::And
                } else {
                    BinaryOp::Or
                })
            }
            '=' => {
                problems.push(
                    Problem::new(codes::ASSIGNMENT, start..c.at, "`=` is not an operator of PCGen's formulas")
                        .label("JEP reads this as an assignment, which PCGen does not enable")
                        .help("write `==` to compare; JEP rejects the formula and PCGen's fallback parser gives 0"),
                );
                op(BinaryOp::Eq)
            }
            '"' => string(&mut c, start, problems),
            d if d.is_ascii_digit()
                || (d == '.' && c.peek().is_some_and(|n| n.is_ascii_digit())) =>
            {
                number(&mut c, start, problems)
            }
            s if starts_name(s) => name(&mut c),
            other => {
                let kind = if operand_expected {
                    Tok::Bad
                } else {
                    Tok::BadOperator
                };
                if operand_expected {
                    // The character and the word it starts, as one bad operand.
                    c.eat_while(continues_name);
                    if other == '\'' && c.peek() == Some('\'') {
                        c.bump();
                    }
                }
                problems.push(unexpected(other, start..c.at, start + other.len_utf8()));
                kind
            }
        };
        tokens.push((tok, start..c.at));
    }
}

/// The problem of an unexpected character `ch` (its token spans `range`).
fn unexpected(ch: char, range: Range<usize>, ch_end: usize) -> Problem {
    let help = match ch {
        '&' => "write `&&` for \"and\"".to_owned(),
        '|' => "write `||` for \"or\"".to_owned(),
        '\'' => "strings are written in double quotes: \"…\"".to_owned(),
        '{' | '}' => "braces stand for parentheses only inside a term's argument (`SKILLRANK=Knowledge {Arcana}`)".to_owned(),
        '[' | ']' => "brackets belong to terms such as `COUNT[FEATS]`".to_owned(),
        _ => "JEP rejects the formula and PCGen's fallback parser evaluates it to 0".to_owned(),
    };
    Problem::new(
        codes::UNEXPECTED_CHARACTER,
        range.start..ch_end,
        format!("`{}` has no meaning in a formula", ch.escape_debug()),
    )
    .label("unexpected character")
    .help(help)
}

/// A string literal from the `"` at `start` (already read).
fn string(c: &mut Cursor<'_>, start: usize, problems: &mut Vec<Problem>) -> Tok {
    loop {
        match c.bump() {
            Some('"') => return Tok::Str,
            Some('\\') => {
                c.bump();
            }
            Some(_) => {}
            None => {
                problems.push(
                    Problem::new(codes::UNTERMINATED_STRING, start..c.at, "this string has no closing `\"`")
                        .label("the string starts here and runs to the end of the formula")
                        .help("close it with `\"`; JEP rejects the formula and PCGen's fallback parser evaluates it to 0"),
                );
                return Tok::Bad;
            }
        }
    }
}

/// A number from `start` (its first character already read).
fn number(c: &mut Cursor<'_>, start: usize, problems: &mut Vec<Problem>) -> Tok {
    c.eat_while(|d| d.is_ascii_digit());
    if c.text.as_bytes().get(start) != Some(&b'.') && c.peek() == Some('.') {
        c.bump();
        c.eat_while(|d| d.is_ascii_digit());
    }
    let exponent = matches!(c.peek(), Some('e' | 'E'));
    if exponent {
        let mut at = c.at + 1;
        if matches!(c.peek_at(at), Some('+' | '-')) {
            at += 1;
        }
        if c.peek_at(at).is_some_and(|d| d.is_ascii_digit()) {
            c.at = at;
            c.eat_while(|d| d.is_ascii_digit());
        }
    }
    if c.peek().is_some_and(continues_name) {
        c.eat_while(continues_name);
        problems.push(
            Problem::new(
                codes::MALFORMED_NUMBER,
                start..c.at,
                format!("`{}` is not a number", c.text.get(start..c.at).unwrap_or("")),
            )
            .label("a number followed by letters, digits or dots")
            .help("write an operator between a number and a name (`2*CL`); JEP rejects the formula and PCGen's fallback parser evaluates this part to 0"),
        );
        return Tok::Bad;
    }
    Tok::Number
}

/// A name from its first character (already read), with what PCGen's fallback parser
/// reads as part of it.
fn name(c: &mut Cursor<'_>) -> Tok {
    c.eat_while(continues_name);
    let mut fallback = false;
    loop {
        match c.peek() {
            Some('[') => {
                let mut depth = 0usize;
                while let Some(ch) = c.bump() {
                    match ch {
                        '[' => depth += 1,
                        ']' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                c.eat_while(continues_name);
                fallback = true;
            }
            Some('=') if c.peek_at(c.at + 1) != Some('=') => {
                c.bump();
                term_value(c);
                fallback = true;
            }
            Some(':') => {
                c.bump();
                term_value(c);
                fallback = true;
            }
            Some('\'') if c.peek_at(c.at + 1).is_some_and(continues_name) => {
                // `Monk's_Spade`: JEP stops at `'`; the fallback parser reads one name.
                c.bump();
                c.eat_while(continues_name);
                fallback = true;
            }
            Some(';') if c.peek_at(c.at + 1).is_some_and(starts_name) => {
                c.bump();
                c.eat_while(continues_name);
                fallback = true;
            }
            Some(' ') => {
                let next = c.after_spaces(c.at);
                if c.peek_at(next)
                    .is_some_and(|n| continues_name(n) && n != '.')
                {
                    c.at = next;
                    c.eat_while(continues_name);
                    fallback = true;
                } else {
                    break;
                }
            }
            _ => break,
        }
    }
    if fallback {
        Tok::FallbackName
    } else {
        Tok::Name
    }
}

/// The argument of a term after `=` or `:`, up to an operator; trailing spaces are not
/// part of it.
fn term_value(c: &mut Cursor<'_>) {
    let mut end = c.at;
    while let Some(ch) = c.peek() {
        if ends_term_value(ch) {
            break;
        }
        c.bump();
        if ch != ' ' {
            end = c.at;
        }
    }
    c.at = end;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<(Tok, &str)> {
        let (mut tokens, mut problems) = (Vec::new(), Vec::new());
        lex(text, &mut tokens, &mut problems);
        tokens
            .into_iter()
            .map(|(t, r)| (t, text.get(r).unwrap_or("?")))
            .collect()
    }

    #[test]
    fn terms_are_one_name() {
        assert_eq!(
            toks("CL=Blood Archer/3"),
            vec![
                (Tok::FallbackName, "CL=Blood Archer"),
                (Tok::Op(BinaryOp::Div), "/"),
                (Tok::Number, "3")
            ]
        );
        assert_eq!(
            toks("COUNT[FEATNAME=Trace Enchantment III]-1")[0],
            (Tok::FallbackName, "COUNT[FEATNAME=Trace Enchantment III]")
        );
        assert_eq!(
            toks("CL;BEFORELEVEL=3")[0],
            (Tok::FallbackName, "CL;BEFORELEVEL=3")
        );
        assert_eq!(toks("STAT.3.MOD")[0], (Tok::Name, "STAT.3.MOD"));
        assert_eq!(toks("max (1)")[0], (Tok::Name, "max"));
        assert_eq!(toks("%CHOICE*2")[0], (Tok::Placeholder, "%CHOICE"));
        assert_eq!(toks("a%2")[1], (Tok::Op(BinaryOp::Rem), "%"));
    }
}
