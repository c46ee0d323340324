//! The grammar: one chumsky Pratt parser over the lexer's tokens, with error recovery.
//!
//! JEP 2.4.1's levels as PCGen uses them, each operator's binding power read from
//! [`BinaryOp::precedence`]: `||`, `&&`, `== !=`, `< > <= >=`, `+ -`, `* / %`, prefix
//! `- + !`, then `^` (right-associative). Operands: numbers, strings, names, placeholders,
//! calls `name(args…)` and parenthesised formulas.

use super::ast::{BinaryOp, UnaryOp};
use super::lexer::Tok;
use chumsky::input::{Input, MappedInput, Stream};
use chumsky::pratt::{infix, left, prefix, right};
use chumsky::prelude::*;
use std::ops::Range;

/// A token with its span, as the grammar reads it.
pub(super) type Spanned = (Tok, SimpleSpan);

/// The grammar's input: owned tokens, so the parser has no lifetime and is built once per
/// thread.
pub(super) type Tokens = MappedInput<'static, Tok, SimpleSpan, Stream<std::vec::IntoIter<Spanned>>>;

/// The grammar's error: where it failed and the token it found.
pub(super) type Error = Simple<'static, Tok>;

/// Parser extras.
type Extra = extra::Err<Error>;

/// The built grammar.
pub(super) type Grammar = Boxed<'static, 'static, Tokens, Tree, Extra>;

/// Wraps tokens as grammar input; `end` is the text length.
pub(super) fn input(tokens: Vec<Spanned>, end: usize) -> Tokens {
    Stream::from_iter(tokens).map((end..end).into(), |t| t)
}

/// The grammar's own tree (boxed); `super::build` flattens it into a `JepFormula`.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Tree {
    pub kind: TreeKind,
    pub span: Range<usize>,
}

/// The kinds of [`Tree`] node.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum TreeKind {
    Number,
    Str,
    Name,
    Placeholder,
    Unary {
        op: UnaryOp,
        operand: Box<Tree>,
    },
    Binary {
        op: BinaryOp,
        op_span: Range<usize>,
        lhs: Box<Tree>,
        rhs: Box<Tree>,
    },
    Call {
        name_span: Range<usize>,
        args: Vec<Tree>,
    },
    Paren(Box<Tree>),
    Error,
}

fn leaf(kind: TreeKind, span: SimpleSpan) -> Tree {
    Tree {
        kind,
        span: span.into_range(),
    }
}

fn error_tree(span: SimpleSpan) -> Tree {
    leaf(TreeKind::Error, span)
}

/// The operators of one precedence level, with their spans. A [`Tok::BadOperator`] (already
/// reported) stands in as a `*`.
fn level(power: u16) -> impl Parser<'static, Tokens, (BinaryOp, SimpleSpan), Extra> + Clone {
    any().try_map(move |t: Tok, span: SimpleSpan| match t {
        Tok::Op(op) if op.precedence() == power => Ok((op, span)),
        Tok::BadOperator if BinaryOp::Mul.precedence() == power => Ok((BinaryOp::Mul, span)),
        _ => Err(Error::new(Some(t.into()), span)),
    })
}

/// The fold of a binary operator.
fn binary(lhs: Tree, (op, op_span): (BinaryOp, SimpleSpan), rhs: Tree) -> Tree {
    Tree {
        span: lhs.span.start..rhs.span.end,
        kind: TreeKind::Binary {
            op,
            op_span: op_span.into_range(),
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
    }
}

/// The fold of a prefix operator.
fn unary((op, at): (UnaryOp, SimpleSpan), operand: Tree) -> Tree {
    Tree {
        span: at.start..operand.span.end,
        kind: TreeKind::Unary {
            op,
            operand: Box::new(operand),
        },
    }
}

/// The tree of a formula that is one operand, or `-` and one operand — nine formulas in ten
/// in PCGen's data (`2`, `TL`, `-1`, `CL=Fighter`) — built without running the parser; a
/// test keeps it equal to the parser's.
pub(super) fn single_operand(tokens: &[(Tok, Range<usize>)]) -> Option<Tree> {
    let leaf = |(t, r): &(Tok, Range<usize>)| {
        let kind = match t {
            Tok::Number => TreeKind::Number,
            Tok::Str => TreeKind::Str,
            Tok::Name | Tok::FallbackName => TreeKind::Name,
            Tok::Placeholder => TreeKind::Placeholder,
            _ => return None,
        };
        Some(Tree {
            kind,
            span: r.clone(),
        })
    };
    match tokens {
        [one] => leaf(one),
        [(Tok::Op(BinaryOp::Sub), minus), one] => {
            let operand = leaf(one)?;
            Some(Tree {
                span: minus.start..operand.span.end,
                kind: TreeKind::Unary {
                    op: UnaryOp::Neg,
                    operand: Box::new(operand),
                },
            })
        }
        _ => None,
    }
}

/// Builds the whole-formula grammar.
pub(super) fn formula() -> Grammar {
    let expr = recursive(|expr| {
        let args = expr
            .clone()
            .separated_by(just(Tok::Comma))
            .collect::<Vec<_>>()
            .delimited_by(just(Tok::LParen), just(Tok::RParen))
            .recover_with(via_parser(nested_delimiters(
                Tok::LParen,
                Tok::RParen,
                [],
                |_| Vec::new(),
            )));
        let named = select! { Tok::Name => (), Tok::FallbackName => () }
            .map_with(|(), e| e.span())
            .then(args.map_with(|a, e| (a, e.span())).or_not())
            .map(
                |(name_span, call): (SimpleSpan, Option<(Vec<Tree>, SimpleSpan)>)| match call {
                    None => leaf(TreeKind::Name, name_span),
                    Some((args, s)) => Tree {
                        span: name_span.start..s.end,
                        kind: TreeKind::Call {
                            name_span: name_span.into_range(),
                            args,
                        },
                    },
                },
            );
        let literal = select! {
            Tok::Number = e => leaf(TreeKind::Number, e.span()),
            Tok::Str = e => leaf(TreeKind::Str, e.span()),
            Tok::Placeholder = e => leaf(TreeKind::Placeholder, e.span()),
            Tok::Bad = e => error_tree(e.span()),
        };
        let paren = expr
            .delimited_by(just(Tok::LParen), just(Tok::RParen))
            .map_with(|inner: Tree, e| Tree {
                span: {
                    let s: SimpleSpan = e.span();
                    s.into_range()
                },
                kind: TreeKind::Paren(Box::new(inner)),
            })
            .recover_with(via_parser(nested_delimiters(
                Tok::LParen,
                Tok::RParen,
                [],
                error_tree,
            )));
        let atom = choice((literal, named, paren));

        let prefix_op = select! {
            Tok::Op(BinaryOp::Sub) = e => (UnaryOp::Neg, e.span()),
            Tok::Op(BinaryOp::Add) = e => (UnaryOp::Plus, e.span()),
            Tok::Bang = e => (UnaryOp::Not, e.span()),
        };
        let p = BinaryOp::precedence;
        atom.pratt((
            infix(
                left(p(BinaryOp::Or)),
                level(p(BinaryOp::Or)),
                |l, o, r, _| binary(l, o, r),
            ),
            infix(
                left(p(BinaryOp::And)),
                level(p(BinaryOp::And)),
                |l, o, r, _| binary(l, o, r),
            ),
            infix(
                left(p(BinaryOp::Eq)),
                level(p(BinaryOp::Eq)),
                |l, o, r, _| binary(l, o, r),
            ),
            infix(
                left(p(BinaryOp::Lt)),
                level(p(BinaryOp::Lt)),
                |l, o, r, _| binary(l, o, r),
            ),
            infix(
                left(p(BinaryOp::Add)),
                level(p(BinaryOp::Add)),
                |l, o, r, _| binary(l, o, r),
            ),
            infix(
                left(p(BinaryOp::Mul)),
                level(p(BinaryOp::Mul)),
                |l, o, r, _| binary(l, o, r),
            ),
            prefix(BinaryOp::PREFIX, prefix_op, |o, r, _| unary(o, r)),
            infix(
                right(p(BinaryOp::Pow)),
                level(p(BinaryOp::Pow)),
                |l, o, r, _| binary(l, o, r),
            ),
        ))
    });
    expr.then_ignore(end()).boxed()
}
