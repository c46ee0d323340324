//! A hand-written recursive-descent parser for the same grammar as [`super::grammar`], used
//! first on every formula because it is an order of magnitude faster than the chumsky
//! grammar (see `benches/parse.rs`).
//!
//! It only answers "this tree" or "no": whenever it says no (a syntax error, or nesting deeper
//! than [`MAX_DEPTH`]), the chumsky grammar parses the formula again to locate and explain
//! every problem with recovery. A unit test in `super` checks on random token soups that
//! both parsers accept exactly the same inputs with the same trees.

use super::grammar::Place;
use super::lexer::{Spanned, Tok};
use crate::formula::ast::{BinaryOp, Builder, Formula, NodeId, TextRef, UnaryOp};
use crate::source::Span;

/// Nesting beyond this is left to the chumsky grammar (which grows the stack as needed).
const MAX_DEPTH: u32 = 200;

/// The tree of a whole formula, or `None` when the tokens are not one well-formed formula.
/// `whole` is the span of the formula text.
pub(super) fn parse(tokens: &[Spanned], text: &str, place: Place, whole: Span) -> Option<Formula> {
    let mut p = Descent {
        tokens,
        pos: 0,
        place,
        depth: 0,
        out: Builder::new(text.to_owned(), tokens.len()),
    };
    let e = p.binary(1)?;
    (p.pos == tokens.len()).then(|| p.out.finish(Some(e), whole))
}

struct Descent<'a> {
    tokens: &'a [Spanned],
    pos: usize,
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

impl Descent<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|(t, _)| t)
    }

    fn span_at(&self, i: usize) -> Span {
        self.tokens
            .get(i)
            .map_or(Span::default(), |(_, s)| self.place.span(*s))
    }

    /// Consumes `tok` if it is next; returns its span.
    fn eat(&mut self, tok: &Tok) -> Option<Span> {
        if self.peek() == Some(tok) {
            self.pos += 1;
            Some(self.span_at(self.pos - 1))
        } else {
            None
        }
    }

    /// Operators of level `min` and tighter, left-associative (precedence climbing).
    fn binary(&mut self, min: u8) -> Option<NodeId> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let mut lhs = self.unary()?;
        while let Some((level, op)) = self.peek().and_then(binary_op) {
            if level < min {
                break;
            }
            self.pos += 1;
            let op_span = self.span_at(self.pos - 1);
            let rhs = self.binary(level + 1)?;
            let span = self.out.span(lhs).join(self.out.span(rhs));
            lhs = self.out.binary(op, op_span, lhs, rhs, span);
        }
        self.depth -= 1;
        Some(lhs)
    }

    fn unary(&mut self) -> Option<NodeId> {
        let minus = self.eat(&Tok::Minus);
        let not = self.eat(&Tok::Bang);
        let mut out = self.expon()?;
        for (op, at) in [(UnaryOp::Not, not), (UnaryOp::Neg, minus)] {
            if let Some(s) = at {
                let span = s.join(self.out.span(out));
                out = self.out.unary(op, out, span);
            }
        }
        Some(out)
    }

    fn expon(&mut self) -> Option<NodeId> {
        let mut lhs = self.primary()?;
        while let Some(op_span) = self.eat(&Tok::Caret) {
            let rhs = self.primary()?;
            let span = self.out.span(lhs).join(self.out.span(rhs));
            lhs = self.out.binary(BinaryOp::Pow, op_span, lhs, rhs, span);
        }
        Some(lhs)
    }

    fn primary(&mut self) -> Option<NodeId> {
        let (tok, local) = *self.tokens.get(self.pos)?;
        let span = self.place.span(local);
        let written = Builder::range(local.start, local.end);
        match tok {
            Tok::Number => {
                self.pos += 1;
                Some(self.out.number(written, span))
            }
            Tok::Str => {
                self.pos += 1;
                let inner = Builder::range(
                    (local.start + 1).min(local.end),
                    local.end.saturating_sub(1).max(local.start),
                );
                Some(self.out.string(inner, span))
            }
            Tok::BadOperand => {
                self.pos += 1;
                Some(self.out.variable(Builder::range(0, 0), span))
            }
            Tok::LParen => {
                self.pos += 1;
                let inner = self.binary(1)?;
                let close = self.eat(&Tok::RParen)?;
                Some(self.out.paren(inner, span.join(close)))
            }
            Tok::Percent => match self.tokens.get(self.pos + 1) {
                Some((Tok::Word, ws)) => {
                    self.pos += 2;
                    let name = if ws.start == local.end {
                        Builder::range(local.start, ws.end)
                    } else {
                        self.out.percent_name(Builder::range(ws.start, ws.end))
                    };
                    self.named(name, span.join(self.place.span(*ws)))
                }
                _ => None,
            },
            Tok::Word => {
                self.pos += 1;
                self.named(written, span)
            }
            _ => None,
        }
    }

    /// A name, optionally followed by call arguments or an index.
    fn named(&mut self, name: TextRef, name_span: Span) -> Option<NodeId> {
        if self.eat(&Tok::LParen).is_some() {
            let mark = self.out.args_start();
            let close = match self.eat(&Tok::RParen) {
                Some(close) => close,
                None => loop {
                    let a = self.binary(1)?;
                    self.out.arg(a);
                    if self.eat(&Tok::Comma).is_none() {
                        break self.eat(&Tok::RParen)?;
                    }
                },
            };
            return Some(self.out.call(name, name_span, mark, name_span.join(close)));
        }
        if self.eat(&Tok::LBracket).is_some() {
            let index = self.binary(4)?;
            let close = self.eat(&Tok::RBracket)?;
            return Some(
                self.out
                    .index(name, name_span, index, name_span.join(close)),
            );
        }
        Some(self.out.variable(name, name_span))
    }
}
