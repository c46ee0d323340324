//! A hand-written recursive-descent parser over the lexer's tokens for the same grammar as
//! [`super::grammar`], used first on every formula because the chumsky grammar alone is an
//! order of magnitude slower (`parse_throughput` in `benches/parse.rs`: 3.2 MiB/s beside
//! 53 MiB/s on the same run).
//!
//! It only answers "this tree" or "no": whenever it says no (a syntax error, or nesting deeper
//! than [`MAX_DEPTH`]), the chumsky grammar parses the formula again to locate and explain
//! every problem with recovery. A proptest in `super` checks on random token soups that
//! both parsers accept exactly the same inputs with the same trees. Both take the binding
//! levels from [`BinaryOp::precedence`] and the operator of a token from [`Tok::infix`].

use super::grammar::Place;
use super::lexer::{Spanned, Tok};
use crate::formula::ast::{BinaryOp, Builder, Formula, NodeId, TextRef, UnaryOp};
use crate::source::Span;

/// Nesting beyond this is left to the chumsky grammar (which grows the stack as needed).
const MAX_DEPTH: u32 = 200;

/// The loosest binding level: a whole expression.
const LOOSEST: u8 = BinaryOp::Or.precedence();

/// The tree of a whole formula, or `None` when the tokens are not one well-formed formula.
/// `whole` is the span of the formula text.
pub(super) fn parse(tokens: &[Spanned], text: &str, place: Place, whole: Span) -> Option<Formula> {
    let p = Descent {
        tokens,
        pos: 0,
        place,
        depth: 0,
        out: Builder::new(text.to_owned(), tokens.len()),
    };
    p.run(whole)
}

struct Descent<'t> {
    tokens: &'t [Spanned],
    pos: usize,
    place: Place,
    depth: u32,
    out: Builder,
}

impl Descent<'_> {
    fn run(mut self, whole: Span) -> Option<Formula> {
        let e = self.binary(LOOSEST)?;
        (self.pos == self.tokens.len()).then(|| self.out.finish(Some(e), whole))
    }

    /// The next token, not consumed.
    #[inline]
    fn next(&self) -> Option<Spanned> {
        self.tokens.get(self.pos).copied()
    }

    #[inline]
    fn peek(&self) -> Option<Tok> {
        self.next().map(|(t, _)| t)
    }

    #[inline]
    fn bump(&mut self) {
        self.pos += 1;
    }

    /// Consumes `tok` if it is next; returns its span.
    #[inline]
    fn eat(&mut self, tok: Tok) -> Option<Span> {
        match self.next() {
            Some((t, s)) if t == tok => {
                self.bump();
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
        while let Some((tok, local)) = self.next() {
            let Some(op) = tok.infix() else {
                break;
            };
            let level = op.precedence();
            if level < min {
                break;
            }
            self.bump();
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
        let (tok, local) = self.next()?;
        let span = self.place.span(local);
        let written = Builder::range(local.start, local.end);
        match tok {
            Tok::Number => {
                self.bump();
                Some(self.out.number(written, span))
            }
            Tok::Str => {
                self.bump();
                let inner = Builder::range(
                    (local.start + 1).min(local.end),
                    local.end.saturating_sub(1).max(local.start),
                );
                Some(self.out.string(inner, span))
            }
            Tok::BadOperand => {
                self.bump();
                Some(self.out.variable(Builder::range(0, 0), span))
            }
            Tok::LParen => {
                self.bump();
                let inner = self.binary(LOOSEST)?;
                let close = self.eat(Tok::RParen)?;
                Some(self.out.paren(inner, span.join(close)))
            }
            Tok::Percent => match self.tokens.get(self.pos + 1).copied() {
                Some((Tok::Word, ws)) => {
                    self.bump();
                    self.bump();
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
                self.bump();
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
                    let a = self.binary(LOOSEST)?;
                    self.out.arg(a);
                    if self.eat(Tok::Comma).is_none() {
                        break self.eat(Tok::RParen)?;
                    }
                },
            };
            return Some(self.out.call(name, name_span, mark, name_span.join(close)));
        }
        if self.eat(Tok::LBracket).is_some() {
            let index = self.binary(BinaryOp::Add.precedence())?;
            let close = self.eat(Tok::RBracket)?;
            return Some(
                self.out
                    .index(name, name_span, index, name_span.join(close)),
            );
        }
        Some(self.out.variable(name, name_span))
    }
}
