//! Turns a grammar failure (a position and the token found there) into a precise diagnostic
//! by looking at the tokens around it.

use super::Problem;
use super::codes;
use super::grammar::Error;
use super::lexer::{Spanned, Tok};
use std::ops::Range;

/// The bracket open before each token, worked out once per formula so explaining many
/// errors stays linear.
pub(super) struct Brackets {
    /// For each token index `k` (and one past the end), the index of the innermost `(`/`[`
    /// still open before token `k`.
    innermost: Vec<Option<usize>>,
}

impl Brackets {
    /// The brackets of `tokens`: every closing bracket closes the innermost open one,
    /// whatever its kind (a mismatch is reported where it is found).
    pub(super) fn of(tokens: &[Spanned]) -> Self {
        let mut open: Vec<usize> = Vec::new();
        let mut innermost = Vec::with_capacity(tokens.len() + 1);
        for (i, (t, _)) in tokens.iter().enumerate() {
            innermost.push(open.last().copied());
            match t {
                Tok::LParen | Tok::LBracket => open.push(i),
                Tok::RParen | Tok::RBracket => {
                    open.pop();
                }
                _ => {}
            }
        }
        innermost.push(open.last().copied());
        Brackets { innermost }
    }
}

/// The diagnostic for one grammar error, or `None` when the lexer already reported the
/// problem at that place. `brackets` are those of `tokens`.
pub(super) fn explain(
    error: &Error,
    tokens: &[Spanned],
    brackets: &Brackets,
    text: &str,
) -> Option<Problem> {
    let at = error.span().start;
    let k = tokens.partition_point(|(_, s)| s.start < at);
    let found = tokens.get(k).map(|(t, s)| (*t, s.into_range()));
    let prev = k
        .checked_sub(1)
        .and_then(|i| tokens.get(i))
        .map(|(t, s)| (*t, s.into_range()));
    if found.as_ref().is_some_and(|(t, _)| t.is_bad())
        || prev.as_ref().is_some_and(|(t, _)| t.is_bad())
    {
        return None;
    }
    let ctx = Context::at(tokens, brackets, k);
    Some(match found {
        None => at_end(prev, &ctx, text),
        Some((tok, range)) => {
            let operand_expected = prev.as_ref().is_none_or(|(t, _)| !t.ends_operand());
            if operand_expected {
                want_operand(
                    tok,
                    range,
                    prev,
                    tokens.get(k + 1).map(|(t, _)| *t),
                    &ctx,
                    text,
                )
            } else {
                want_operator(
                    tok,
                    range,
                    prev,
                    tokens
                        .get(k + 1)
                        .map(|(t, s)| (*t, text.get(s.start..s.end).unwrap_or(""))),
                    &ctx,
                    text,
                )
            }
        }
    })
}

/// The innermost bracket still open before the failing token.
struct Context {
    /// The open `(`/`[` token: (token, range, is the `(` of a call or index).
    innermost: Option<(Tok, Range<usize>, bool)>,
}

impl Context {
    fn at(tokens: &[Spanned], brackets: &Brackets, k: usize) -> Self {
        let innermost = brackets.innermost.get(k).copied().flatten().and_then(|i| {
            let (t, s) = tokens.get(i)?;
            let after_name = i
                .checked_sub(1)
                .and_then(|j| tokens.get(j))
                .is_some_and(|(p, _)| matches!(p, Tok::Word));
            Some((*t, s.into_range(), after_name))
        });
        Context { innermost }
    }

    fn innermost(&self) -> Option<&(Tok, Range<usize>, bool)> {
        self.innermost.as_ref()
    }

    fn in_call(&self) -> bool {
        self.innermost()
            .is_some_and(|(t, _, named)| *t == Tok::LParen && *named)
    }
}

/// A binary operator token (not the placeholder standing for a bad one).
fn is_binary_operator(t: &Tok) -> bool {
    *t == Tok::Caret || (*t != Tok::BadOperator && t.infix().is_some())
}

/// A comparison or logical operator token: one an index does not take directly.
fn is_comparison_or_logical(t: &Tok) -> bool {
    *t != Tok::BadOperator && t.infix().is_some_and(|op| !op.is_arithmetic())
}

fn closer_of(open: &Tok) -> &'static str {
    if *open == Tok::LBracket { "]" } else { ")" }
}

fn at_end(prev: Option<(Tok, Range<usize>)>, ctx: &Context, text: &str) -> Problem {
    let end = text.len();
    let operand_expected = prev.as_ref().is_none_or(|(t, _)| !t.ends_operand());
    match (prev, ctx.innermost()) {
        (Some((t, r)), _)
            if operand_expected && is_binary_operator(&t) || t == Tok::Bang || t == Tok::Comma =>
        {
            Problem::new(
                codes::MISSING_OPERAND,
                r.clone(),
                format!("`{}` has nothing after it", t.symbol()),
            )
            .label("the formula ends after this operator")
            .help(format!(
                "write an operand after `{}`, or remove it",
                t.symbol()
            ))
        }
        (_, Some((open, r, _))) => {
            let close = closer_of(open);
            Problem::new(
                codes::UNCLOSED_DELIMITER,
                r.clone(),
                format!("`{}` is never closed", open.symbol()),
            )
            .label("opened here")
            .secondary(end..end, format!("expected `{close}` here"))
            .help(format!("add the missing `{close}`"))
        }
        (Some((t, r)), None) => Problem::new(
            codes::UNEXPECTED_TOKEN,
            r.clone(),
            format!(
                "the formula cannot end with {}",
                t.describe(written(text, &r))
            ),
        )
        .label("unexpected end after this")
        .help("complete the expression"),
        (None, None) => Problem::new(codes::UNEXPECTED_TOKEN, 0..end, "unexpected end of formula")
            .label("here")
            .help("complete the expression"),
    }
}

fn want_operand(
    tok: Tok,
    range: Range<usize>,
    prev: Option<(Tok, Range<usize>)>,
    next: Option<Tok>,
    ctx: &Context,
    text: &str,
) -> Problem {
    let prev_tok = prev.as_ref().map(|(t, _)| *t);
    let prev_range = prev.as_ref().map(|(_, r)| r.clone());
    match (&prev_tok, &tok) {
        (Some(Tok::Minus | Tok::Bang), Tok::Minus | Tok::Bang) => {
            let (label, help) = match (&prev_tok, &tok) {
                (Some(Tok::Minus), Tok::Minus) => (
                    "a second unary minus",
                    "only one unary minus per operand; write -(-3)",
                ),
                (Some(Tok::Bang), Tok::Bang) => {
                    ("a second `!`", "only one `!` per operand; write !(!a)")
                }
                (Some(Tok::Bang), _) => (
                    "`-` after `!`",
                    "a unary minus must come before `!` (`-!a`); or write !(-a)",
                ),
                _ => ("a second unary operator", "write -(!a)"),
            };
            let mut p = Problem::new(
                codes::DOUBLE_UNARY,
                range,
                "more than one unary operator on one operand",
            )
            .label(label)
            .help(help);
            if let Some(r) = prev_range {
                p = p.secondary(r, "first unary operator");
            }
            p
        }
        (Some(Tok::Caret), Tok::Minus | Tok::Bang) => Problem::new(
            codes::UNARY_AFTER_POWER,
            range,
            format!("`^` cannot be followed by `{}`", tok.symbol()),
        )
        .label("the exponent must be a number, name, call or parenthesised expression")
        .help(if tok == Tok::Minus {
            "put the signed exponent in parentheses, e.g. 2^(-1)"
        } else {
            "put the negated exponent in parentheses, e.g. a^(!b)"
        }),
        (_, Tok::Plus) => Problem::new(codes::UNARY_PLUS, range, "there is no unary plus")
            .label("`+` needs a left operand")
            .help("remove the `+`"),
        (_, Tok::PercentSpaced) if matches!(next, Some(Tok::Word)) => Problem::new(
            codes::SPACED_PERCENT_PREFIX,
            range,
            "`%` before a name must touch it",
        )
        .label("space next to this `%`")
        .help("write `%name` without spaces, or put an operand before `%` to take a remainder"),
        (Some(Tok::LBracket), Tok::RBracket) => {
            let r = prev_range.map_or(range.clone(), |p| p.start..range.end);
            Problem::new(codes::EMPTY_INDEX, r, "empty index")
                .label("nothing between `[` and `]`")
                .help("write the element number inside the brackets, e.g. x[0]")
        }
        (Some(Tok::LParen), Tok::RParen) if !ctx.in_call() => {
            let r = prev_range.map_or(range.clone(), |p| p.start..range.end);
            Problem::new(codes::MISSING_OPERAND, r, "empty parentheses")
                .label("nothing inside")
                .help("write an expression inside the parentheses, or remove them")
        }
        (Some(Tok::LParen | Tok::Comma), Tok::Comma | Tok::RParen) if ctx.in_call() => {
            Problem::new(codes::MISSING_OPERAND, range, "empty function argument")
                .label("an argument is missing before this")
                .help("write the argument, or remove the extra `,`")
        }
        (_, t)
            if is_binary_operator(t) || matches!(t, Tok::RParen | Tok::RBracket | Tok::Comma) =>
        {
            let mut p = Problem::new(
                codes::MISSING_OPERAND,
                range,
                match &prev_tok {
                    Some(p) if is_binary_operator(p) => format!(
                        "missing operand between `{}` and `{}`",
                        p.symbol(),
                        t.symbol()
                    ),
                    None => format!("`{}` has no left operand", t.symbol()),
                    Some(_) => format!("expected an operand, found `{}`", t.symbol()),
                },
            )
            .label("an operand is expected before this")
            .help(
                "write an operand (a number, name, call, string or parenthesised expression) here",
            );
            if let Some(r) =
                prev_range.filter(|_| prev_tok.as_ref().is_some_and(is_binary_operator))
            {
                p = p.secondary(r, "after this operator");
            }
            p
        }
        (_, t) => Problem::new(
            codes::UNEXPECTED_TOKEN,
            range.clone(),
            format!(
                "expected an operand, found {}",
                t.describe(written(text, &range))
            ),
        )
        .label("unexpected here")
        .help("write a number, name, call, string or parenthesised expression"),
    }
}

fn want_operator(
    tok: Tok,
    range: Range<usize>,
    prev: Option<(Tok, Range<usize>)>,
    next: Option<(Tok, &str)>,
    ctx: &Context,
    text: &str,
) -> Problem {
    let prev_tok = prev.as_ref().map(|(t, _)| *t);
    let innermost = ctx.innermost();
    match tok {
        Tok::Comma => {
            let grouping = matches!(prev_tok, Some(Tok::Number))
                && next.is_some_and(|(t, n)| {
                    t == Tok::Number && n.len() == 3 && n.bytes().all(|b| b.is_ascii_digit())
                });
            let help = if grouping {
                "numbers have no digit grouping: write 1000, not 1,000"
            } else if innermost.is_some_and(|(t, _, _)| *t == Tok::LBracket) {
                "an index is a single expression"
            } else {
                "commas only separate function arguments; an ORDEREDPAIR such as 3,4 is not a formula literal"
            };
            Problem::new(
                codes::COMMA_OUTSIDE_CALL,
                range,
                "`,` outside a function call",
            )
            .label("not inside a function's arguments")
            .help(help)
        }
        Tok::LParen | Tok::LBracket => {
            let what = if tok == Tok::LParen {
                "called"
            } else {
                "indexed"
            };
            let mut p = Problem::new(
                codes::CALL_ON_NON_NAME,
                range,
                format!("only a name can be {what}"),
            )
            .label(format!(
                "`{}` after something that is not a name",
                tok.symbol()
            ));
            if let Some((t, r)) = prev {
                p = p.secondary(
                    r.clone(),
                    format!("{} ends here", describe_operand(&t, written(text, &r))),
                );
            }
            p.help("a call `f(..)` or index `x[..]` starts with a name and cannot be repeated; if you meant to multiply, write `*`")
        }
        Tok::RParen | Tok::RBracket => match innermost {
            None => Problem::new(
                codes::UNMATCHED_CLOSING,
                range,
                format!("`{}` without a matching opening bracket", tok.symbol()),
            )
            .label("nothing to close")
            .help("remove it, or add the opening bracket"),
            Some((open, r, _)) => Problem::new(
                codes::UNMATCHED_CLOSING,
                range,
                format!("`{}` closes `{}`", tok.symbol(), open.symbol()),
            )
            .label(format!("expected `{}`", closer_of(open)))
            .secondary(r.clone(), "opened here")
            .help(format!(
                "close `{}` with `{}`",
                open.symbol(),
                closer_of(open)
            )),
        },
        t if is_comparison_or_logical(&t)
            && innermost.is_some_and(|(o, _, _)| *o == Tok::LBracket) =>
        {
            let (_, r, _) = innermost.map_or((Tok::LBracket, 0..0, false), |o| o.clone());
            Problem::new(
                codes::COMPARISON_IN_INDEX,
                range,
                format!("`{}` directly inside an index", t.symbol()),
            )
            .label("an index takes arithmetic only")
            .secondary(r, "index opened here")
            .help("wrap the comparison in parentheses: x[(a<b)]")
        }
        Tok::Bang => Problem::new(codes::MISSING_OPERATOR, range, "`!` after an operand")
            .label("`!` negates the operand after it")
            .help("for \"not equal\" write `!=`; otherwise write an operator before `!`"),
        Tok::Word | Tok::Number | Tok::Str | Tok::Percent => {
            let mut p = Problem::new(
                codes::MISSING_OPERATOR,
                range.clone(),
                "two operands with no operator between them",
            )
            .label(format!(
                "{} follows directly",
                tok.describe(written(text, &range))
            ));
            if let Some((t, r)) = prev {
                p = p.secondary(r.clone(), describe_operand(&t, written(text, &r)));
            }
            p.help("write an operator between them, e.g. `+` or `*`")
        }
        t => Problem::new(
            codes::UNEXPECTED_TOKEN,
            range.clone(),
            format!("unexpected {}", t.describe(written(text, &range))),
        )
        .label("expected an operator or the end of the formula")
        .help("check the operators around here"),
    }
}

fn describe_operand(t: &Tok, text: &str) -> String {
    match t {
        Tok::RParen => "this parenthesis or call".to_owned(),
        Tok::RBracket => "this index".to_owned(),
        other => other.describe(text),
    }
}

/// The text of `range` in the formula.
fn written<'a>(text: &'a str, range: &Range<usize>) -> &'a str {
    text.get(range.clone()).unwrap_or("")
}
