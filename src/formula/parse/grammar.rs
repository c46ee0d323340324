//! The formula grammar (semantics doc §2) as a chumsky parser over the lexer's tokens.
//!
//! Levels, loosest first, all left-associative: `|| &&` (one level), `== !=`,
//! `< > <= >=`, `+ -`, `* / %`; then an operand: at most one unary `-`, then at most one
//! `!`, then a `^` chain whose operands are primaries only.

use super::lexer::Tok;
use crate::formula::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::name::Name;
use crate::source::{FileId, Span};
use chumsky::input::ValueInput;
use chumsky::pratt::{infix, left};
use chumsky::prelude::*;

/// The error type of the grammar: where it failed and what it found. The diagnostic is
/// worked out from the token stream afterwards (see `super::explain`).
pub(super) type Error<'t, 's> = Simple<'t, Tok<'s>>;

type Extra<'t, 's> = extra::Err<Error<'t, 's>>;

/// Placeholder for a part that failed to parse (the formula is discarded anyway).
fn error_expr(span: Span) -> Expr {
    Expr {
        kind: ExprKind::Variable(Name::new("")),
        span,
    }
}

enum Suffix {
    Call(Vec<Expr>, SimpleSpan),
    Index(Expr, SimpleSpan),
}

/// The whole-formula parser. Spans are converted to `file` and shifted by `offset`.
pub(super) fn formula<'t, 's: 't, I>(
    file: FileId,
    offset: u32,
) -> impl Parser<'t, I, Expr, Extra<'t, 's>>
where
    I: ValueInput<'t, Token = Tok<'s>, Span = SimpleSpan>,
{
    let sp = move |s: SimpleSpan| Span::new(file, s.start..s.end).shifted(offset);
    let bin = move |op: BinaryOp, op_span: SimpleSpan, lhs: Expr, rhs: Expr| Expr {
        span: lhs.span.join(rhs.span),
        kind: ExprKind::Binary {
            op,
            op_span: sp(op_span),
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
    };

    let mut expr =
        Recursive::<chumsky::recursive::Indirect<'t, 't, I, Expr, Extra<'t, 's>>>::declare();
    let mut arith =
        Recursive::<chumsky::recursive::Indirect<'t, 't, I, Expr, Extra<'t, 's>>>::declare();

    let word = select! { Tok::Word(w) = e => (w, e.span()) };
    let name = just(Tok::Percent)
        .map_with(|_, e| e.span())
        .or_not()
        .then(word)
        .map(
            |(percent, (w, ws)): (Option<SimpleSpan>, (&str, SimpleSpan))| match percent {
                Some(p) => (
                    Name::new(&format!("%{w}")),
                    SimpleSpan::from(p.start..ws.end),
                ),
                None => (Name::new(w), ws),
            },
        );

    let args = expr
        .clone()
        .separated_by(just(Tok::Comma))
        .collect::<Vec<_>>()
        .delimited_by(just(Tok::LParen), just(Tok::RParen))
        .recover_with(via_parser(nested_delimiters(
            Tok::LParen,
            Tok::RParen,
            [(Tok::LBracket, Tok::RBracket)],
            |_| Vec::new(),
        )))
        .map_with(|a, e| Suffix::Call(a, e.span()));
    let index = arith
        .clone()
        .delimited_by(just(Tok::LBracket), just(Tok::RBracket))
        .recover_with(via_parser(nested_delimiters(
            Tok::LBracket,
            Tok::RBracket,
            [(Tok::LParen, Tok::RParen)],
            move |s| error_expr(sp(s)),
        )))
        .map_with(|i, e| Suffix::Index(i, e.span()));

    let named = name
        .then(args.or(index).or_not())
        .map(move |((name, name_span), suffix)| match suffix {
            None => Expr {
                kind: ExprKind::Variable(name),
                span: sp(name_span),
            },
            Some(Suffix::Call(args, s)) => Expr {
                kind: ExprKind::Call {
                    name,
                    name_span: sp(name_span),
                    args,
                },
                span: sp(SimpleSpan::from(name_span.start..s.end)),
            },
            Some(Suffix::Index(index, s)) => Expr {
                kind: ExprKind::Index {
                    name,
                    name_span: sp(name_span),
                    index: Box::new(index),
                },
                span: sp(SimpleSpan::from(name_span.start..s.end)),
            },
        });

    let literal = select! {
        Tok::Number(t) = e => Expr { kind: ExprKind::Number(t.into()), span: sp(e.span()) },
        Tok::Str(t) = e => Expr { kind: ExprKind::String(t.into()), span: sp(e.span()) },
        Tok::BadOperand = e => error_expr(sp(e.span())),
    };

    let paren = expr
        .clone()
        .delimited_by(just(Tok::LParen), just(Tok::RParen))
        .map_with(move |inner, e| Expr {
            kind: ExprKind::Paren(Box::new(inner)),
            span: sp(e.span()),
        })
        .recover_with(via_parser(nested_delimiters(
            Tok::LParen,
            Tok::RParen,
            [(Tok::LBracket, Tok::RBracket)],
            move |s| error_expr(sp(s)),
        )));

    let primary = choice((literal, named, paren));

    let expon = primary.clone().foldl(
        just(Tok::Caret)
            .map_with(|_, e| e.span())
            .then(primary)
            .repeated(),
        move |lhs, (op_span, rhs)| bin(BinaryOp::Pow, op_span, lhs, rhs),
    );

    let unary = just(Tok::Minus)
        .map_with(|_, e| e.span())
        .or_not()
        .then(just(Tok::Bang).map_with(|_, e| e.span()).or_not())
        .then(expon)
        .map(move |((minus, not), operand)| {
            let mut out = operand;
            for (op, at) in [(UnaryOp::Not, not), (UnaryOp::Neg, minus)] {
                if let Some(s) = at {
                    out = Expr {
                        span: sp(s).join(out.span),
                        kind: ExprKind::Unary {
                            op,
                            operand: Box::new(out),
                        },
                    };
                }
            }
            out
        });

    macro_rules! spanned {
        ($p:expr) => {
            $p.map_with(|op: BinaryOp, e| (op, e.span()))
        };
    }
    let logical = spanned!(select! {
        Tok::OrOr => BinaryOp::Or,
        Tok::AndAnd => BinaryOp::And,
        Tok::BadOperator => BinaryOp::Or,
    });
    let equality = spanned!(select! { Tok::EqEq => BinaryOp::Eq, Tok::NotEq => BinaryOp::Ne });
    let relational = spanned!(select! {
        Tok::Lt => BinaryOp::Lt,
        Tok::Gt => BinaryOp::Gt,
        Tok::Le => BinaryOp::Le,
        Tok::Ge => BinaryOp::Ge,
    });
    let additive = spanned!(select! { Tok::Plus => BinaryOp::Add, Tok::Minus => BinaryOp::Sub });
    let multiplicative = spanned!(select! {
        Tok::Star => BinaryOp::Mul,
        Tok::Slash => BinaryOp::Div,
        Tok::Percent => BinaryOp::Rem,
        Tok::PercentSpaced => BinaryOp::Rem,
    });
    macro_rules! fold {
        () => {
            move |lhs: Expr, (op, s): (BinaryOp, SimpleSpan), rhs: Expr, _: &mut _| {
                bin(op, s, lhs, rhs)
            }
        };
    }

    arith.define(unary.clone().pratt((
        infix(left(4), additive, fold!()),
        infix(left(5), multiplicative, fold!()),
    )));
    expr.define(unary.pratt((
        infix(left(1), logical, fold!()),
        infix(left(2), equality, fold!()),
        infix(left(3), relational, fold!()),
        infix(left(4), additive, fold!()),
        infix(left(5), multiplicative, fold!()),
    )));
    expr.then_ignore(end())
}
