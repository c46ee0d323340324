//! ICC lexer and parser: tokens first (collecting every lexical problem), then recursive
//! descent over FICS's binding levels. Unknown terms are collected too; the first syntax
//! error ends the parse.

use super::{NOT_ICC, NUMBER_TOO_LARGE, SYNTAX, TERMS, Term, UNKNOWN_TERM};
use crate::diagnostic::Diagnostic;
use crate::dialect::core::{BinaryOp, Cursor, Expr, ExprKind, MAX_DEPTH, UnaryOp, too_deep};
use crate::source::{FileId, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Num(i32),
    Word,
    Op(BinaryOp),
    Not,
    Minus,
    Open,
    Close,
}

struct Token {
    tok: Tok,
    span: Span,
}

/// Operators ICC documents, longest first.
const OPS: [(&str, Tok); 11] = [
    ("<=", Tok::Op(BinaryOp::Le)),
    (">=", Tok::Op(BinaryOp::Ge)),
    ("!=", Tok::Op(BinaryOp::Ne)),
    ("=", Tok::Op(BinaryOp::Eq)),
    ("<", Tok::Op(BinaryOp::Lt)),
    (">", Tok::Op(BinaryOp::Gt)),
    ("+", Tok::Op(BinaryOp::Add)),
    ("*", Tok::Op(BinaryOp::Mul)),
    ("&", Tok::Op(BinaryOp::And)),
    ("|", Tok::Op(BinaryOp::Or)),
    ("!", Tok::Not),
];

/// FICS spellings ICC does not document, with the ICC spelling to use instead.
const FICS_ONLY: [(&str, &str); 9] = [
    ("==", "="),
    ("<>", "!="),
    ("=<", "<="),
    ("=>", ">="),
    ("&&", "&"),
    ("||", "|"),
    ("/", "* or a comparison (ICC has no division)"),
    ("#", "nothing (ICC formulas have no comments)"),
    ("%", "nothing (there is no remainder operator)"),
];

fn lex(text: &str, file: FileId, diags: &mut Vec<Diagnostic>) -> Vec<Token> {
    let mut c = Cursor::new(text, file);
    let mut out = Vec::new();
    'scan: loop {
        c.skip_space();
        let start = c.pos;
        let Some(b) = c.peek() else { break };
        if b.is_ascii_digit() {
            let mut v: Option<i32> = Some(0);
            while let Some(d) = c.peek().filter(u8::is_ascii_digit) {
                v = v
                    .and_then(|v| v.checked_mul(10))
                    .and_then(|v| v.checked_add(i32::from(d - b'0')));
                c.advance(1);
            }
            let span = c.span_from(start);
            match v {
                Some(v) => out.push(Token {
                    tok: Tok::Num(v),
                    span,
                }),
                None => {
                    diags.push(
                        Diagnostic::error(NUMBER_TOO_LARGE, span, "number too large")
                            .with_label("does not fit in a 32-bit integer")
                            .with_help("use a number below 2147483648"),
                    );
                    out.push(Token {
                        tok: Tok::Num(0),
                        span,
                    });
                }
            }
            continue;
        }
        if b.is_ascii_alphabetic() {
            while c
                .peek()
                .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
            {
                c.advance(1);
            }
            out.push(Token {
                tok: Tok::Word,
                span: c.span_from(start),
            });
            continue;
        }
        for (fics, icc) in FICS_ONLY {
            if c.eat_ci(fics) {
                let span = c.span_from(start);
                diags.push(
                    Diagnostic::error(NOT_ICC, span, format!("`{fics}` is not an ICC operator"))
                        .with_label("not in ICC's formula language")
                        .with_help(format!("use {icc}"))
                        .with_note(
                            "ICC's help lists only = < > <= >= != + - * & | ! and parentheses",
                        ),
                );
                if fics == "#" {
                    break 'scan;
                }
                continue 'scan;
            }
        }
        if c.eat_ci("-") {
            out.push(Token {
                tok: Tok::Minus,
                span: c.span_from(start),
            });
            continue;
        }
        if c.eat_ci("(") || c.eat_ci(")") {
            let tok = if b == b'(' { Tok::Open } else { Tok::Close };
            out.push(Token {
                tok,
                span: c.span_from(start),
            });
            continue;
        }
        for (sym, tok) in OPS {
            if c.eat_ci(sym) {
                out.push(Token {
                    tok,
                    span: c.span_from(start),
                });
                continue 'scan;
            }
        }
        let span = c.run_span(|_| false);
        let what = text.get(span.range()).unwrap_or("?").to_owned();
        c.pos = span.range().end;
        diags.push(
            Diagnostic::error(SYNTAX, span, format!("unexpected character `{what}`"))
                .with_label("not part of an ICC formula")
                .with_help(
                    "formulas use terms, whole numbers, = < > <= >= != + - * & | ! and parentheses",
                ),
        );
    }
    out
}

/// Parses an ICC formula; all problems found are returned together.
pub(super) fn parse(text: &str, file: FileId) -> Result<Expr<Term>, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let tokens = lex(text, file, &mut diags);
    let end = Span::new(file, text.len()..text.len());
    let mut p = Parser {
        text,
        tokens: &tokens,
        pos: 0,
        end,
        diags: Vec::new(),
        nesting: 0,
    };
    let result = if tokens.is_empty() && diags.is_empty() {
        Err(Box::new(Diagnostic::error(SYNTAX, end, "empty formula")
            .with_label("nothing to evaluate")
            .with_help("write a formula such as `blitz & rating > 1500`; `set formula` with no value unsets it")))
    } else {
        p.expr(0).and_then(|e| match p.tokens.get(p.pos) {
            None => Ok(e),
            Some(t) => Err(Box::new(p.unexpected(t, "an operator"))),
        })
    };
    diags.append(&mut p.diags);
    if let Err(d) = result.as_ref() {
        // A syntax error right after a skipped FICS-only operator is that operator's fault.
        let explained = d.code == SYNTAX && diags.iter().any(|x| x.code == NOT_ICC);
        if !explained {
            diags.push((**d).clone());
        }
    }
    diags.sort_by_key(|d| (d.span.start, d.code.id));
    match result {
        Ok(e) if diags.is_empty() => Ok(e),
        _ => Err(diags),
    }
}

struct Parser<'a> {
    text: &'a str,
    tokens: &'a [Token],
    pos: usize,
    end: Span,
    diags: Vec<Diagnostic>,
    /// How deep `unary` currently recurses (parentheses and unary operators).
    nesting: u32,
}

/// `e` unless its tree is deeper than [`MAX_DEPTH`] (then the error is at `span`).
fn bounded(e: Expr<Term>, span: Span) -> Result<Expr<Term>, Box<Diagnostic>> {
    if e.depth() > MAX_DEPTH {
        Err(Box::new(too_deep(span)))
    } else {
        Ok(e)
    }
}

fn level(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Or => 1,
        BinaryOp::And => 2,
        BinaryOp::Eq | BinaryOp::Ne => 3,
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => 4,
        BinaryOp::Add | BinaryOp::Sub => 5,
        BinaryOp::Mul | BinaryOp::Div => 6,
    }
}

impl Parser<'_> {
    fn binary_at(&self) -> Option<(BinaryOp, Span)> {
        match self.tokens.get(self.pos)? {
            Token {
                tok: Tok::Op(op),
                span,
            } => Some((*op, *span)),
            Token {
                tok: Tok::Minus,
                span,
            } => Some((BinaryOp::Sub, *span)),
            _ => None,
        }
    }

    /// Left-associative precedence climbing: operators binding tighter than `min`.
    fn expr(&mut self, min: u8) -> Result<Expr<Term>, Box<Diagnostic>> {
        let mut lhs = self.unary()?;
        while let Some((op, span)) = self.binary_at() {
            if level(op) <= min {
                break;
            }
            self.pos += 1;
            let rhs = self.expr(level(op))?;
            lhs = bounded(Expr::binary(op, span, lhs, rhs), span)?;
        }
        Ok(lhs)
    }

    /// A unary expression; parentheses and unary operators recurse through here, so the
    /// nesting is counted and bounded by [`MAX_DEPTH`].
    fn unary(&mut self) -> Result<Expr<Term>, Box<Diagnostic>> {
        if self.nesting >= MAX_DEPTH {
            let span = self.tokens.get(self.pos).map_or(self.end, |t| t.span);
            return Err(Box::new(too_deep(span)));
        }
        self.nesting = self.nesting.saturating_add(1);
        let out = self.unary_inner();
        self.nesting = self.nesting.saturating_sub(1);
        out
    }

    fn unary_inner(&mut self) -> Result<Expr<Term>, Box<Diagnostic>> {
        let Some(t) = self.tokens.get(self.pos) else {
            return Err(Box::new(self.missing_operand()));
        };
        let op = match t.tok {
            Tok::Not => UnaryOp::Not,
            Tok::Minus => UnaryOp::Neg,
            _ => return self.primary(),
        };
        self.pos += 1;
        let operand = self.unary()?;
        bounded(Expr::unary(op, t.span, operand), t.span)
    }

    fn primary(&mut self) -> Result<Expr<Term>, Box<Diagnostic>> {
        let Some(t) = self.tokens.get(self.pos) else {
            return Err(Box::new(self.missing_operand()));
        };
        match t.tok {
            Tok::Num(n) => {
                self.pos += 1;
                Ok(Expr::new(ExprKind::Int(n), t.span))
            }
            Tok::Word => {
                self.pos += 1;
                let word = self.text.get(t.span.range()).unwrap_or("");
                match TERMS.iter().find(|(n, _)| n.eq_ignore_ascii_case(word)) {
                    Some((_, term)) => Ok(Expr::new(ExprKind::Leaf(*term), t.span)),
                    None => {
                        self.diags.push(unknown_term(word, t.span));
                        Ok(Expr::new(ExprKind::Int(0), t.span))
                    }
                }
            }
            Tok::Open => {
                self.pos += 1;
                let inner = self.expr(0)?;
                match self.tokens.get(self.pos) {
                    Some(Token {
                        tok: Tok::Close,
                        span,
                    }) => {
                        self.pos += 1;
                        let mut inner = inner;
                        inner.span = t.span.join(*span);
                        Ok(inner)
                    }
                    Some(other) => Err(Box::new(
                        self.unexpected(other, "`)`")
                            .with_secondary(t.span, "to close this"),
                    )),
                    None => Err(Box::new(
                        Diagnostic::error(SYNTAX, t.span, "this `(` is never closed")
                            .with_label("unclosed parenthesis")
                            .with_help("add the missing `)`"),
                    )),
                }
            }
            _ => Err(Box::new(
                self.unexpected(t, "a term, a number, `(`, `!` or `-`"),
            )),
        }
    }

    fn missing_operand(&self) -> Diagnostic {
        let span = self
            .pos
            .checked_sub(1)
            .and_then(|i| self.tokens.get(i))
            .map_or(self.end, |t| t.span);
        Diagnostic::error(
            SYNTAX,
            span,
            "the formula ends where an operand is expected",
        )
        .with_label("an operand is missing after this")
        .with_help("complete the expression, or remove the dangling operator")
    }

    fn unexpected(&self, t: &Token, wanted: &str) -> Diagnostic {
        let what = self.text.get(t.span.range()).unwrap_or("?");
        Diagnostic::error(SYNTAX, t.span, format!("expected {wanted}, found `{what}`"))
            .with_label(format!("expected {wanted} here"))
            .with_help("check for a missing operator or operand, or an extra `)`")
    }
}

fn unknown_term(word: &str, span: Span) -> Diagnostic {
    let d = Diagnostic::error(UNKNOWN_TERM, span, format!("unknown term `{word}`"))
        .with_label("not an ICC formula term");
    let terms = "the terms are: bullet blitz standard wild time inc etime rated rating \
                 provisional established timeodds ropen wopen mywild myrated myinc mytime mood \
                 myrating noescape registered color autocolor computer freeweek lag premove";
    if let Some(best) = crate::name::closest(word, TERMS.iter().map(|(n, _)| *n)) {
        return d.with_did_you_mean(span, best).with_note(terms);
    }
    let d = d.with_help(terms);
    if word.eq_ignore_ascii_case("and") || word.eq_ignore_ascii_case("or") {
        return d.with_note("ICC spells these `&` and `|`");
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collects_every_problem() {
        let diags = parse("ratng > 1 / 2 & lag == 3", FileId(0)).unwrap_err();
        let codes: Vec<_> = diags.iter().map(|d| d.code.id).collect();
        assert_eq!(codes, ["D0121", "D0122", "D0122"]);
    }

    #[test]
    fn precedence_is_fics_order() {
        assert!(parse("(mood = 0 & blitz) | mood = 2", FileId(0)).is_ok());
        assert!(parse("1 +", FileId(0)).is_err());
        assert!(parse("(1", FileId(0)).is_err());
    }
}
