//! A hand-written recursive-descent parser for the same grammar as [`super::grammar`], used
//! first on every formula because it is an order of magnitude faster than the chumsky
//! grammar (see `benches/parse.rs`).
//!
//! It only answers "this tree" or "no": whenever it says no (a syntax error, or nesting deeper
//! than [`MAX_DEPTH`]), the chumsky grammar parses the formula again to locate and explain
//! every problem with recovery. A unit test in `super` checks on random token soups that
//! both parsers accept exactly the same inputs with the same trees.
//!
//! It reads tokens from a [`TokenSource`]: the lexer's token vector ([`parse`]), or, tried
//! first, [`Bytes`] ([`parse_bytes`]), which lexes on demand the plain part of the token
//! language (ASCII names without spaces, integers and decimals, operators without spaces
//! around them) and gives up on anything else, so that the usual formula is read once,
//! without a token vector. A proptest in `super` checks that whenever it answers, it answers
//! what the lexer and [`parse`] do.

use super::MAX_TOKENS;
use super::grammar::Place;
use super::lexer::{NAME_END_ASCII, Spanned, Tok};
use crate::formula::ast::{BinaryOp, Builder, Formula, NodeId, TextRef, UnaryOp};
use crate::source::Span;
use chumsky::span::SimpleSpan;

/// Nesting beyond this is left to the chumsky grammar (which grows the stack as needed).
const MAX_DEPTH: u32 = 200;

/// Where the parser reads its tokens.
trait TokenSource {
    /// The next token, not consumed.
    fn peek(&self) -> Option<Spanned>;
    /// The token after the next.
    fn peek_second(&mut self) -> Option<Spanned>;
    /// Consumes the next token.
    fn bump(&mut self);
    /// True when every token was consumed (and, for [`Bytes`], none was refused).
    fn finished(&self) -> bool;
}

/// The lexer's tokens.
struct Slice<'a> {
    tokens: &'a [Spanned],
    pos: usize,
}

impl TokenSource for Slice<'_> {
    #[inline]
    fn peek(&self) -> Option<Spanned> {
        self.tokens.get(self.pos).copied()
    }

    fn peek_second(&mut self) -> Option<Spanned> {
        self.tokens.get(self.pos + 1).copied()
    }

    #[inline]
    fn bump(&mut self) {
        self.pos += 1;
    }

    fn finished(&self) -> bool {
        self.pos == self.tokens.len()
    }
}

/// The tree of a whole formula, or `None` when the tokens are not one well-formed formula.
/// `whole` is the span of the formula text.
pub(super) fn parse(tokens: &[Spanned], text: &str, place: Place, whole: Span) -> Option<Formula> {
    let p = Descent {
        src: Slice { tokens, pos: 0 },
        place,
        depth: 0,
        out: Builder::new(text.to_owned(), tokens.len()),
    };
    p.run(whole)
}

/// The tree of a whole formula lexed on demand ([`Bytes`]), or `None` when the text is not
/// a well-formed formula or leaves the plain token language (the caller then lexes it
/// fully). When it is `Some`, the lexer reports no problem on `text` and [`parse`] gives
/// the same tree.
pub(super) fn parse_bytes(text: &str, place: Place, whole: Span) -> Option<Formula> {
    let mut src = Bytes {
        text: text.as_bytes(),
        pos: 0,
        next: None,
        refused: false,
        count: 0,
    };
    src.lex();
    let p = Descent {
        src,
        place,
        depth: 0,
        // At most one node per byte, usually one per two (`a+b`) or three (`t01*2`).
        out: Builder::new(text.to_owned(), text.len() * 2 / 3 + 1),
    };
    p.run(whole)
}

/// Where the name starting at `start` of `text` (with an ASCII letter) ends, or `None` when
/// what follows it may continue a name or needs the full lexer (`_`, a space, `:`, `.`,
/// `=`, a non-ASCII byte): the plain token language's rule for names, shared by
/// [`Bytes`] and the one-pass check.
#[inline]
pub(crate) fn plain_name_end(text: &[u8], start: usize) -> Option<usize> {
    let end = name_end(text, start);
    // The end of the text reads as 0: an end.
    (!NEEDS_FULL_LEXER[usize::from(text.get(end).copied().unwrap_or(0))]).then_some(end)
}

/// Where the ASCII letters, digits and `~` from byte `start + 1` of `text` on end: the end
/// of the name starting at `start`, before [`plain_name_end`] looks at what follows it.
#[inline]
pub(crate) fn name_end(text: &[u8], start: usize) -> usize {
    let mut end = start + 1;
    while NAME_END_ASCII[usize::from(text.get(end).copied().unwrap_or(0))] {
        end += 1;
    }
    end
}

/// Bytes after a name that may continue it or need the full lexer: `_`, a space, `:`, `.`,
/// `=` and every non-ASCII byte.
static NEEDS_FULL_LEXER: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0usize;
    while b < 256 {
        t[b] = b >= 0x80 || matches!(b as u8, b'_' | b' ' | b':' | b'.' | b'=');
        b += 1;
    }
    t
};

/// Where the number starting at `start` of `text` (with a digit) ends (`12`, `1.50`), or
/// `None` when a `.`, `_`, letter or non-ASCII byte follows it: the plain token language's
/// rule for numbers, shared by [`Bytes`] and the one-pass check.
#[inline]
pub(crate) fn plain_number_end(text: &[u8], start: usize) -> Option<usize> {
    let byte = |i: usize| text.get(i).copied().unwrap_or(0);
    let mut end = start + 1;
    while byte(end).is_ascii_digit() {
        end += 1;
    }
    if byte(end) == b'.' && byte(end + 1).is_ascii_digit() {
        end += 2;
        while byte(end).is_ascii_digit() {
            end += 1;
        }
    }
    match byte(end) {
        b'.' | b'_' | b'a'..=b'z' | b'A'..=b'Z' | 0x80.. => None,
        _ => Some(end),
    }
}

/// An on-demand lexer for the plain part of the token language. It refuses (and the
/// formula is lexed fully) at every character the lexer might treat otherwise or report:
/// spaces, tabs and line breaks, quotes, `%`, `.` starting a number, lone `=`, `&`, `|`,
/// `<>`, names with `_`, `:`, `.`, `=` or non-ASCII characters, numbers followed by a
/// letter, and more than [`MAX_TOKENS`] tokens.
struct Bytes<'a> {
    text: &'a [u8],
    /// Where the token after `next` starts.
    pos: usize,
    /// The next token (`None` at the end or once refused).
    next: Option<Spanned>,
    refused: bool,
    /// Tokens lexed so far.
    count: usize,
}

impl Bytes<'_> {
    #[inline]
    fn byte(&self, i: usize) -> u8 {
        self.text.get(i).copied().unwrap_or(0)
    }

    /// Lexes the token at `pos` into `next`.
    #[inline]
    fn lex(&mut self) {
        let start = self.pos;
        let Some(&b) = self.text.get(start) else {
            self.next = None;
            return;
        };
        let (tok, end) = match b {
            b'a'..=b'z' | b'A'..=b'Z' => match plain_name_end(self.text, start) {
                Some(end) => (Tok::Word, end),
                None => return self.refuse(),
            },
            b'0'..=b'9' => match plain_number_end(self.text, start) {
                Some(end) => (Tok::Number, end),
                None => return self.refuse(),
            },
            _ => {
                let next = self.byte(start + 1);
                let (tok, len) = match (b, next) {
                    (b'+', _) => (Tok::Plus, 1),
                    (b'-', _) => (Tok::Minus, 1),
                    (b'*', _) => (Tok::Star, 1),
                    (b'/', _) => (Tok::Slash, 1),
                    (b'^', _) => (Tok::Caret, 1),
                    (b'(', _) => (Tok::LParen, 1),
                    (b')', _) => (Tok::RParen, 1),
                    (b'[', _) => (Tok::LBracket, 1),
                    (b']', _) => (Tok::RBracket, 1),
                    (b',', _) => (Tok::Comma, 1),
                    (b'<', b'=') => (Tok::Le, 2),
                    (b'<', b'>') => return self.refuse(),
                    (b'<', _) => (Tok::Lt, 1),
                    (b'>', b'=') => (Tok::Ge, 2),
                    (b'>', _) => (Tok::Gt, 1),
                    (b'=', b'=') => (Tok::EqEq, 2),
                    (b'!', b'=') => (Tok::NotEq, 2),
                    (b'!', _) => (Tok::Bang, 1),
                    (b'&', b'&') => (Tok::AndAnd, 2),
                    (b'|', b'|') => (Tok::OrOr, 2),
                    _ => return self.refuse(),
                };
                // Spaces after an operator are absorbed by it: left to the full lexer.
                if self.byte(start + len) == b' ' {
                    return self.refuse();
                }
                (tok, start + len)
            }
        };
        // Counted only where there may be too many (every token takes a byte).
        if self.text.len() > MAX_TOKENS {
            self.count += 1;
            if self.count > MAX_TOKENS {
                return self.refuse();
            }
        }
        self.pos = end;
        self.next = Some((tok, SimpleSpan::from(start..end)));
    }

    #[cold]
    fn refuse(&mut self) {
        self.refused = true;
        self.next = None;
    }
}

impl TokenSource for Bytes<'_> {
    #[inline]
    fn peek(&self) -> Option<Spanned> {
        self.next
    }

    fn peek_second(&mut self) -> Option<Spanned> {
        // `%` (the only token looking two ahead) is refused.
        None
    }

    #[inline]
    fn bump(&mut self) {
        self.lex();
    }

    fn finished(&self) -> bool {
        !self.refused && self.next.is_none()
    }
}

struct Descent<S> {
    src: S,
    place: Place,
    depth: u32,
    out: Builder,
}

/// Binding level and operator of a binary operator token.
fn binary_op(t: &Tok) -> Option<(u8, BinaryOp)> {
    Some(match t {
        Tok::OrOr | Tok::BadOperator => (1, BinaryOp::Or),
        Tok::AndAnd => (1, BinaryOp::And),
        Tok::EqEq => (2, BinaryOp::Eq),
        Tok::NotEq => (2, BinaryOp::Ne),
        Tok::Lt => (3, BinaryOp::Lt),
        Tok::Gt => (3, BinaryOp::Gt),
        Tok::Le => (3, BinaryOp::Le),
        Tok::Ge => (3, BinaryOp::Ge),
        Tok::Plus => (4, BinaryOp::Add),
        Tok::Minus => (4, BinaryOp::Sub),
        Tok::Star => (5, BinaryOp::Mul),
        Tok::Slash => (5, BinaryOp::Div),
        Tok::Percent | Tok::PercentSpaced => (5, BinaryOp::Rem),
        _ => return None,
    })
}

impl<S: TokenSource> Descent<S> {
    fn run(mut self, whole: Span) -> Option<Formula> {
        let e = self.binary(1)?;
        self.src.finished().then(|| self.out.finish(Some(e), whole))
    }

    #[inline]
    fn peek(&self) -> Option<Tok> {
        self.src.peek().map(|(t, _)| t)
    }

    /// Consumes `tok` if it is next; returns its span.
    #[inline]
    fn eat(&mut self, tok: Tok) -> Option<Span> {
        match self.src.peek() {
            Some((t, s)) if t == tok => {
                self.src.bump();
                Some(self.place.span(s))
            }
            _ => None,
        }
    }

    /// Operators of level `min` and tighter, left-associative (precedence climbing).
    fn binary(&mut self, min: u8) -> Option<NodeId> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let mut lhs = self.unary()?;
        while let Some((tok, local)) = self.src.peek() {
            let Some((level, op)) = binary_op(&tok) else {
                break;
            };
            if level < min {
                break;
            }
            self.src.bump();
            let op_span = self.place.span(local);
            let rhs = self.binary(level + 1)?;
            let span = self.out.span(lhs).join(self.out.span(rhs));
            lhs = self.out.binary(op, op_span, lhs, rhs, span);
        }
        self.depth -= 1;
        Some(lhs)
    }

    #[inline]
    fn unary(&mut self) -> Option<NodeId> {
        // Most operands have no prefix: one look at the next token tells.
        if !matches!(self.peek(), Some(Tok::Minus | Tok::Bang)) {
            return self.expon();
        }
        let minus = self.eat(Tok::Minus);
        let not = self.eat(Tok::Bang);
        let mut out = self.expon()?;
        for (op, at) in [(UnaryOp::Not, not), (UnaryOp::Neg, minus)] {
            if let Some(s) = at {
                let span = s.join(self.out.span(out));
                out = self.out.unary(op, out, span);
            }
        }
        Some(out)
    }

    #[inline]
    fn expon(&mut self) -> Option<NodeId> {
        let mut lhs = self.primary()?;
        while let Some(op_span) = self.eat(Tok::Caret) {
            let rhs = self.primary()?;
            let span = self.out.span(lhs).join(self.out.span(rhs));
            lhs = self.out.binary(BinaryOp::Pow, op_span, lhs, rhs, span);
        }
        Some(lhs)
    }

    fn primary(&mut self) -> Option<NodeId> {
        let (tok, local) = self.src.peek()?;
        let span = self.place.span(local);
        let written = Builder::range(local.start, local.end);
        match tok {
            Tok::Number => {
                self.src.bump();
                Some(self.out.number(written, span))
            }
            Tok::Str => {
                self.src.bump();
                let inner = Builder::range(
                    (local.start + 1).min(local.end),
                    local.end.saturating_sub(1).max(local.start),
                );
                Some(self.out.string(inner, span))
            }
            Tok::BadOperand => {
                self.src.bump();
                Some(self.out.variable(Builder::range(0, 0), span))
            }
            Tok::LParen => {
                self.src.bump();
                let inner = self.binary(1)?;
                let close = self.eat(Tok::RParen)?;
                Some(self.out.paren(inner, span.join(close)))
            }
            Tok::Percent => match self.src.peek_second() {
                Some((Tok::Word, ws)) => {
                    self.src.bump();
                    self.src.bump();
                    let name = if ws.start == local.end {
                        Builder::range(local.start, ws.end)
                    } else {
                        self.out.percent_name(Builder::range(ws.start, ws.end))
                    };
                    self.named(name, span.join(self.place.span(ws)))
                }
                _ => None,
            },
            Tok::Word => {
                self.src.bump();
                self.named(written, span)
            }
            _ => None,
        }
    }

    /// A name, optionally followed by call arguments or an index.
    fn named(&mut self, name: TextRef, name_span: Span) -> Option<NodeId> {
        if self.eat(Tok::LParen).is_some() {
            let mark = self.out.args_start();
            let close = match self.eat(Tok::RParen) {
                Some(close) => close,
                None => loop {
                    let a = self.binary(1)?;
                    self.out.arg(a);
                    if self.eat(Tok::Comma).is_none() {
                        break self.eat(Tok::RParen)?;
                    }
                },
            };
            return Some(self.out.call(name, name_span, mark, name_span.join(close)));
        }
        if self.eat(Tok::LBracket).is_some() {
            let index = self.binary(4)?;
            let close = self.eat(Tok::RBracket)?;
            return Some(
                self.out
                    .index(name, name_span, index, name_span.join(close)),
            );
        }
        Some(self.out.variable(name, name_span))
    }
}
