//! The formula grammar (semantics doc §2) as a chumsky parser over the lexer's tokens.
//!
//! The binary levels are [`BinaryOp::precedence`]'s, all left-associative; then an operand:
//! at most one unary `-`, then at most one `!`, then a `^` chain whose operands are
//! primaries only. `name[...]` takes an arithmetic expression only.

use super::lexer::{Spanned, Tok};
use crate::formula::ast::{BinaryOp, Tree as Expr, TreeKind as ExprKind, UnaryOp};
use crate::source::{FileId, Span};
use chumsky::extra::SimpleState;
use chumsky::input::{Input, MapExtra, MappedInput, Stream};
use chumsky::pratt::{infix, left};
use chumsky::prelude::*;
use std::rc::Rc;

/// The grammar's input: the lexer's tokens (owned, so the parser has no lifetime and can be
/// built once per thread) with their byte spans.
pub(super) type Tokens = MappedInput<'static, Tok, SimpleSpan, Stream<std::vec::IntoIter<Spanned>>>;

/// Where the formula lives: spans are made in `file`, shifted by `offset`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Place {
    /// The file.
    pub file: FileId,
    /// Byte position of the formula in the file.
    pub offset: u32,
}

impl Place {
    /// The span of `s` in the file.
    pub(super) fn span(self, s: SimpleSpan) -> Span {
        Span::new(self.file, s.start..s.end).shifted(self.offset)
    }
}

/// The error type of the grammar: where it failed and what it found. The diagnostic is
/// worked out from the token stream afterwards (see `super::explain`).
pub(super) type Error = Simple<'static, Tok>;

/// The parser state: where the formula lives, its text (tokens carry no text) and where
/// each bracket group closes.
#[derive(Clone, Debug)]
pub(super) struct Source {
    /// Where spans go.
    pub place: Place,
    /// The formula text.
    pub text: Rc<str>,
    /// `(start byte, token count)` of every bracket group that closes properly, by start: see
    /// [`groups`].
    groups: Vec<(usize, usize)>,
}

impl Source {
    /// The state for parsing `tokens` of `text`.
    pub(super) fn new(place: Place, text: &str, tokens: &[Spanned]) -> Self {
        Source {
            place,
            text: text.into(),
            groups: groups(tokens),
        }
    }
}

/// Every opening bracket whose group is well nested, with the number of tokens from it to
/// its closing bracket (both included), in text order.
///
/// This is what chumsky's `nested_delimiters` recovery finds by scanning forward from one
/// bracket, worked out for all brackets in one pass: a group closes when each bracket inside
/// it closes with its own kind; a closing bracket of the wrong kind ends every group still
/// open (none of them is well nested); the end of the text ends those still open.
fn groups(tokens: &[Spanned]) -> Vec<(usize, usize)> {
    let mut open: Vec<(Tok, usize, usize)> = Vec::new();
    let mut found = Vec::new();
    for (i, (t, s)) in tokens.iter().enumerate() {
        match t {
            Tok::LParen | Tok::LBracket => open.push((*t, i, s.start)),
            Tok::RParen | Tok::RBracket => {
                let opener = if *t == Tok::RParen {
                    Tok::LParen
                } else {
                    Tok::LBracket
                };
                match open.pop() {
                    Some((o, at, start)) if o == opener => found.push((start, i + 1 - at)),
                    Some(_) => open.clear(),
                    None => {}
                }
            }
            _ => {}
        }
    }
    found.sort_unstable();
    found
}

/// Parser extras: the error type `E`, and the [`Source`] as state.
pub(super) type Extra<E> = extra::Full<E, SimpleState<Source>, ()>;

/// The built grammar, with error type `E` ([`Error`] in use).
pub(super) type Grammar<E> = Boxed<'static, 'static, Tokens, Expr, Extra<E>>;

/// Wraps the lexer's tokens as grammar input; `end` is the text length.
pub(super) fn input(tokens: Vec<Spanned>, end: usize) -> Tokens {
    Stream::from_iter(tokens).map((end..end).into(), read)
}

#[cfg(test)]
thread_local! {
    /// How many times the grammar has read a token on this thread: the measure of its work
    /// in the tests that check that it stays linear.
    pub(super) static READS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// One read of a token by the grammar (counted in tests).
fn read(token: Spanned) -> Spanned {
    #[cfg(test)]
    READS.with(|r| r.set(r.get() + 1));
    token
}

/// The span of the node being built.
fn here<E: chumsky::error::Error<'static, Tokens>>(
    e: &mut MapExtra<'static, '_, Tokens, Extra<E>>,
) -> Span {
    let s = e.span();
    e.state().0.place.span(s)
}

/// The text of the node being built.
fn written<E: chumsky::error::Error<'static, Tokens>>(
    e: &mut MapExtra<'static, '_, Tokens, Extra<E>>,
) -> Rc<str> {
    let s = e.span();
    let text = &e.state().0.text;
    Rc::from(text.get(s.start..s.end).unwrap_or(""))
}

/// Recovery for a bracket group that failed to parse: succeeds, skipping the whole group, when
/// the `opener` at the current position starts a well-nested group (see [`groups`]); the
/// output is `fallback()`. The same as chumsky's `nested_delimiters` over `( )` and `[ ]`, but
/// one look-up instead of a scan to the closing bracket, so recovering every group of a
/// formula stays linear.
fn skip_group<E, O>(
    opener: Tok,
    fallback: impl Fn() -> O + Clone + 'static,
) -> impl Parser<'static, Tokens, O, Extra<E>> + Clone
where
    E: chumsky::error::Error<'static, Tokens> + Clone + 'static,
{
    custom(
        move |inp: &mut chumsky::input::InputRef<'static, '_, Tokens, Extra<E>>| {
            let before = inp.cursor();
            let first = inp.next();
            let span = inp.span_since(&before);
            let len = (first == Some(opener))
                .then(|| {
                    let groups = &inp.state().0.groups;
                    groups
                        .binary_search_by_key(&span.start, |(start, _)| *start)
                        .ok()
                        .and_then(|i| groups.get(i))
                        .map(|(_, len)| *len)
                })
                .flatten();
            let Some(len) = len else {
                return Err(E::expected_found(
                    [],
                    first.map(chumsky::util::MaybeRef::Val),
                    span,
                ));
            };
            for _ in 1..len {
                inp.skip();
            }
            Ok(fallback())
        },
    )
}

/// Placeholder for a part that failed to parse (the formula is discarded anyway).
fn error_expr() -> Expr {
    Expr {
        kind: ExprKind::Variable("".into()),
        span: Span::default(),
    }
}

fn bin(op: BinaryOp, op_span: Span, lhs: Expr, rhs: Expr) -> Expr {
    Expr {
        span: lhs.span.join(rhs.span),
        kind: ExprKind::Binary {
            op,
            op_span,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
    }
}

enum Suffix {
    Call(Vec<Expr>, Span),
    Index(Expr, Span),
}

/// A handle on a recursive rule, as `recursive` hands it to the rule's own definition (a
/// weak reference, so the built grammar has no reference cycle and is freed with its
/// thread).
type Rec<E> = Recursive<chumsky::recursive::Direct<'static, 'static, Tokens, Expr, Extra<E>>>;

/// A binary operator of precedence `level` ([`BinaryOp::precedence`]), with its span.
fn operator_at<E: chumsky::error::Error<'static, Tokens> + Clone + 'static>(
    level: u8,
) -> impl Parser<'static, Tokens, (BinaryOp, Span), Extra<E>> + Clone {
    any()
        .try_map(move |t: Tok, span| match t.infix() {
            Some(op) if op.precedence() == level => Ok(op),
            _ => Err(E::expected_found(
                [],
                Some(chumsky::util::MaybeRef::Val(t)),
                span,
            )),
        })
        .map_with(|op, e| (op, here(e)))
}

macro_rules! fold {
    () => {
        |lhs: Expr, (op, s): (BinaryOp, Span), rhs: Expr, _: &mut _| bin(op, s, lhs, rhs)
    };
}

/// Builds the whole-formula parser (the caller keeps one per thread).
///
/// Parse time is linear in the tokens whatever the input: the operand rule is memoized, so
/// the Pratt parser's retry of a failed right-hand side at each enclosing precedence level
/// (which made `-(8 6-(8 6…` exponential) finds the remembered failure, and bracket
/// recovery is one look-up ([`skip_group`]).
///
/// `expr` (any formula) and `arith` (the arithmetic-only index of `name[…]`) refer to each
/// other. `arith` is defined inside `expr`'s definition, so `expr` owns it and each sees the
/// other through a weak handle: built with `Recursive::declare` the two formed an `Rc`
/// cycle that was never freed (LeakSanitizer in the `check_formula` fuzz target).
pub(super) fn formula<E: chumsky::error::Error<'static, Tokens> + Clone + 'static>() -> Grammar<E> {
    // The levels of `BinaryOp::precedence` below `^`, loosest first (`^` binds primaries,
    // in `unary`).
    let expr = recursive(|expr: Rec<E>| {
        let inner = expr.clone();
        let arith = recursive(move |arith: Rec<E>| {
            operand(inner, arith).pratt((
                infix(left(4), operator_at(4), fold!()),
                infix(left(5), operator_at(5), fold!()),
            ))
        });
        operand(expr, arith).pratt((
            infix(left(1), operator_at(1), fold!()),
            infix(left(2), operator_at(2), fold!()),
            infix(left(3), operator_at(3), fold!()),
            infix(left(4), operator_at(4), fold!()),
            infix(left(5), operator_at(5), fold!()),
        ))
    });
    expr.then_ignore(end()).boxed()
}

/// [`unary`], memoized.
fn operand<E: chumsky::error::Error<'static, Tokens> + Clone + 'static>(
    expr: Rec<E>,
    arith: Rec<E>,
) -> Boxed<'static, 'static, Tokens, Expr, Extra<E>> {
    unary(expr, arith).memoized().boxed()
}

/// An operand with its unary operators: `-`, `!`, then `^` chains of primaries (literals,
/// names, calls, `name[arith]`, parenthesised `expr`).
fn unary<E: chumsky::error::Error<'static, Tokens> + Clone + 'static>(
    expr: Rec<E>,
    arith: Rec<E>,
) -> impl Parser<'static, Tokens, Expr, Extra<E>> + Clone {
    let word = select! { Tok::Word = e => (Box::<str>::from(&*written(e)), here(e)) };
    let name = just(Tok::Percent)
        .map_with(|_, e| here(e))
        .or_not()
        .then(word)
        .map(
            |(percent, (w, ws)): (Option<Span>, (Box<str>, Span))| match percent {
                Some(p) => (format!("%{w}").into_boxed_str(), p.join(ws)),
                None => (w, ws),
            },
        );

    let args = expr
        .clone()
        .separated_by(just(Tok::Comma))
        .collect::<Vec<_>>()
        .delimited_by(just(Tok::LParen), just(Tok::RParen))
        .recover_with(via_parser(skip_group(Tok::LParen, Vec::new)))
        .map_with(|a, e| Suffix::Call(a, here(e)));
    let index = arith
        .clone()
        .delimited_by(just(Tok::LBracket), just(Tok::RBracket))
        .recover_with(via_parser(skip_group(Tok::LBracket, error_expr)))
        .map_with(|i, e| Suffix::Index(i, here(e)));

    let named =
        name.then(args.or(index).or_not())
            .map(|((name, name_span), suffix)| match suffix {
                None => Expr {
                    kind: ExprKind::Variable(name),
                    span: name_span,
                },
                Some(Suffix::Call(args, s)) => Expr {
                    kind: ExprKind::Call {
                        name,
                        name_span,
                        args,
                    },
                    span: name_span.join(s),
                },
                Some(Suffix::Index(index, s)) => Expr {
                    kind: ExprKind::Index {
                        name,
                        name_span,
                        index: Box::new(index),
                    },
                    span: name_span.join(s),
                },
            });

    let literal = select! {
        Tok::Number = e => Expr { kind: ExprKind::Number(written(e).as_ref().into()), span: here(e) },
        Tok::Str = e => {
            let w = written(e);
            let inner = w.get(1..w.len().saturating_sub(1)).unwrap_or("");
            Expr { kind: ExprKind::String(inner.into()), span: here(e) }
        },
        Tok::BadOperand = e => Expr { kind: ExprKind::Variable("".into()), span: here(e) },
    };

    let paren = expr
        .clone()
        .delimited_by(just(Tok::LParen), just(Tok::RParen))
        .map_with(|inner, e| Expr {
            kind: ExprKind::Paren(Box::new(inner)),
            span: here(e),
        })
        .recover_with(via_parser(skip_group(Tok::LParen, error_expr)));

    let primary = choice((literal, named, paren));

    let expon = primary.clone().foldl(
        just(Tok::Caret)
            .map_with(|_, e| here(e))
            .then(primary)
            .repeated(),
        |lhs, (op_span, rhs)| bin(BinaryOp::Pow, op_span, lhs, rhs),
    );

    just(Tok::Minus)
        .map_with(|_, e| here(e))
        .or_not()
        .then(just(Tok::Bang).map_with(|_, e| here(e)).or_not())
        .then(expon)
        .map(|((minus, not), operand)| {
            let mut out = operand;
            for (op, at) in [(UnaryOp::Not, not), (UnaryOp::Neg, minus)] {
                if let Some(s) = at {
                    out = Expr {
                        span: s.join(out.span),
                        kind: ExprKind::Unary {
                            op,
                            operand: Box::new(out),
                        },
                    };
                }
            }
            out
        })
}
