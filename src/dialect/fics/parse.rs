//! The FICS scanner-parser.
//!
//! FICS has no tokenizer: its evaluator scans the text with case-insensitive prefix matches
//! and precedence climbing, and the error a user gets depends on exactly where that scan
//! stops. This parser follows the same scan step for step (so `blitzor lightning` is
//! `blitz or lightning`, `ratedx` is a bad operator after `rated`, and `1 andrew 1` is an
//! unknown variable `rew`), but builds a [`Expr`] once instead of rescanning on every match
//! request. A parser combinator library would not reproduce the original's error classes,
//! which depend on this exact scan order, so the scan is written out by hand.

use super::error::{ErrorClass, SyntaxError};
use super::{FVar, FicsLeaf, Players, Var};
use crate::dialect::core::{BinaryOp, Cursor, Expr, ExprKind, MAX_DEPTH, UnaryOp};
use crate::source::{FileId, Span};

/// Binding levels of the original (higher binds tighter).
const LEVEL_NONE: u8 = 1;
const LEVEL_RPAREN: u8 = 2;
const LEVEL_PAREN: u8 = 3;
const LEVEL_UNARY: u8 = 10;

/// Variables in the order the original tries them (longest overlapping names first).
pub(super) const VARIABLES: [(&str, Var); 22] = [
    ("registered", Var::Registered),
    ("ratingdiff", Var::RatingDiff),
    ("assessloss", Var::AssessLoss),
    ("assessdraw", Var::AssessDraw),
    ("assesswin", Var::AssessWin),
    ("mymaxtime", Var::MyMaxTime),
    ("timeseal", Var::Timeseal),
    ("myrating", Var::MyRating),
    ("computer", Var::Computer),
    ("standard", Var::Standard),
    ("private", Var::Private),
    ("maxtime", Var::MaxTime),
    ("abuser", Var::Abuser),
    ("rating", Var::Rating),
    ("rated", Var::Rated),
    ("nonstandard", Var::Nonstandard),
    ("lightning", Var::Lightning),
    ("untimed", Var::Untimed),
    ("blitz", Var::Blitz),
    ("wild", Var::Wild),
    ("time", Var::Time),
    ("inc", Var::Inc),
];

/// Operators in the order the original tries them after an operand.
const OPERATORS: [(&str, BinaryOp); 20] = [
    ("and", BinaryOp::And),
    ("or", BinaryOp::Or),
    ("||", BinaryOp::Or),
    ("&&", BinaryOp::And),
    ("==", BinaryOp::Eq),
    ("!=", BinaryOp::Ne),
    ("<>", BinaryOp::Ne),
    (">=", BinaryOp::Ge),
    ("=>", BinaryOp::Ge),
    ("<=", BinaryOp::Le),
    ("=<", BinaryOp::Le),
    ("|", BinaryOp::Or),
    ("&", BinaryOp::And),
    (">", BinaryOp::Gt),
    ("<", BinaryOp::Lt),
    ("=", BinaryOp::Eq),
    ("+", BinaryOp::Add),
    ("-", BinaryOp::Sub),
    ("*", BinaryOp::Mul),
    ("/", BinaryOp::Div),
];

/// The binding level of a binary operator: `|` 4, `&` 5, `=` `!=` 6, `<` `>` … 7,
/// `+` `-` 8, `*` `/` 9.
fn level(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Or => 4,
        BinaryOp::And => 5,
        BinaryOp::Eq | BinaryOp::Ne => 6,
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => 7,
        BinaryOp::Add | BinaryOp::Sub => 8,
        BinaryOp::Mul | BinaryOp::Div => 9,
    }
}

enum Scanned {
    End,
    RParen,
    Bad,
    Op(BinaryOp, Span),
}

/// Parses one clause. `limit` is how many f-variables it may use: the formula may use all
/// nine (`limit` 9), `fK` only f1…f(K−1) (`limit` K−1).
pub(super) fn parse(
    text: &str,
    file: FileId,
    limit: u8,
) -> Result<Expr<FicsLeaf>, Box<SyntaxError>> {
    let mut p = Parser {
        c: Cursor::new(text, file),
        limit,
        last_op: None,
        opens: Vec::new(),
        nesting: 0,
    };
    p.check_formula(LEVEL_NONE)
}

struct Parser<'a> {
    c: Cursor<'a>,
    limit: u8,
    /// The last operator read (for "operand missing after this").
    last_op: Option<Span>,
    /// Open parentheses not yet closed.
    opens: Vec<Span>,
    /// How deep `operand` currently recurses (parentheses and unary operators).
    nesting: u32,
}

/// The [`ErrorClass::TooDeep`] error at `span`.
fn too_deep(span: Span) -> Box<SyntaxError> {
    let d = crate::dialect::core::too_deep(span);
    let mut e = SyntaxError::new(
        ErrorClass::TooDeep,
        span,
        d.message,
        d.primary_label,
        d.help.unwrap_or_default(),
    );
    e.notes = d.notes;
    Box::new(e)
}

/// `e` unless its tree is deeper than [`MAX_DEPTH`] (then the error is at `span`).
fn bounded(e: Expr<FicsLeaf>, span: Span) -> Result<Expr<FicsLeaf>, Box<SyntaxError>> {
    if e.depth() > MAX_DEPTH {
        Err(too_deep(span))
    } else {
        Ok(e)
    }
}

impl Parser<'_> {
    fn check_formula(&mut self, lvl: u8) -> Result<Expr<FicsLeaf>, Box<SyntaxError>> {
        let mut lhs = self.operand(lvl)?;
        loop {
            let last = self.c.pos;
            match self.scan_op() {
                Scanned::End => return Ok(lhs),
                Scanned::RParen => {
                    if LEVEL_RPAREN > lvl {
                        return Err(Box::new(self.unmatched_close()));
                    }
                    return Ok(lhs);
                }
                Scanned::Bad => return Err(Box::new(self.bad_operator(&lhs))),
                Scanned::Op(op, span) => {
                    if level(op) > lvl {
                        self.last_op = Some(span);
                        let rhs = self.check_formula(level(op))?;
                        lhs = bounded(Expr::binary(op, span, lhs, rhs), span)?;
                    } else {
                        self.c.pos = last;
                        return Ok(lhs);
                    }
                }
            }
        }
    }

    fn scan_op(&mut self) -> Scanned {
        self.c.skip_space();
        match self.c.peek() {
            None | Some(b'#') => return Scanned::End,
            Some(b')') => return Scanned::RParen,
            _ => {}
        }
        let start = self.c.pos;
        for (text, op) in OPERATORS {
            if self.c.eat_ci(text) {
                return Scanned::Op(op, self.c.span_from(start));
            }
        }
        Scanned::Bad
    }

    /// One operand; parentheses and unary operators recurse through here, so the nesting is
    /// counted and bounded by [`MAX_DEPTH`].
    fn operand(&mut self, lvl: u8) -> Result<Expr<FicsLeaf>, Box<SyntaxError>> {
        if self.nesting >= MAX_DEPTH {
            self.c.skip_space();
            let at = self.c.pos;
            return Err(too_deep(self.c.span(at, at.saturating_add(1))));
        }
        self.nesting = self.nesting.saturating_add(1);
        let out = self.operand_inner(lvl);
        self.nesting = self.nesting.saturating_sub(1);
        out
    }

    fn operand_inner(&mut self, lvl: u8) -> Result<Expr<FicsLeaf>, Box<SyntaxError>> {
        self.c.skip_space();
        let start = self.c.pos;
        match self.c.peek() {
            None | Some(b'#') => {
                if lvl != LEVEL_NONE {
                    return Err(Box::new(self.unexpected_end()));
                }
                Ok(Expr::new(ExprKind::Int(1), self.c.span(start, start)))
            }
            Some(b')') => {
                if lvl != LEVEL_PAREN {
                    return Err(Box::new(self.unmatched_close()));
                }
                Ok(Expr::new(ExprKind::Int(1), self.c.span(start, start)))
            }
            Some(b'(') => self.parens(),
            Some(ch @ (b'-' | b'!')) => {
                self.c.advance(1);
                let op_span = self.c.span_from(start);
                if self.c.peek() == Some(ch) {
                    return Err(Box::new(self.doubled_unary(ch, start)));
                }
                self.last_op = Some(op_span);
                let operand = self.operand(LEVEL_UNARY)?;
                let op = if ch == b'-' {
                    UnaryOp::Neg
                } else {
                    UnaryOp::Not
                };
                bounded(Expr::unary(op, op_span, operand), op_span)
            }
            Some(d) if d.is_ascii_digit() => self.number(),
            Some(a) if a.is_ascii_alphabetic() => self.variable(),
            Some(_) => Err(Box::new(self.not_an_operand())),
        }
    }

    /// `(` expr `)`, the cursor at the `(`.
    fn parens(&mut self) -> Result<Expr<FicsLeaf>, Box<SyntaxError>> {
        let open = self.c.pos;
        self.c.advance(1);
        let open_span = self.c.span_from(open);
        self.opens.push(open_span);
        self.last_op = Some(open_span);
        let mut inner = self.check_formula(LEVEL_PAREN)?;
        if self.c.peek() == Some(b')') {
            self.c.advance(1);
            self.opens.pop();
            inner.span = self.c.span_from(open);
            Ok(inner)
        } else {
            let at_comment = self.c.peek() == Some(b'#');
            let mut e = SyntaxError::new(
                ErrorClass::Paren,
                open_span,
                "this `(` is never closed",
                "unclosed parenthesis",
                "add the missing `)`",
            );
            if at_comment {
                e = e.with_secondary(
                    self.c.span(self.c.pos, self.c.pos.saturating_add(1)),
                    "the comment starts here, so the formula ends before a `)`",
                );
            }
            Err(Box::new(e))
        }
    }

    fn number(&mut self) -> Result<Expr<FicsLeaf>, Box<SyntaxError>> {
        let start = self.c.pos;
        let mut value: Option<i32> = Some(0);
        while let Some(d) = self.c.peek().filter(u8::is_ascii_digit) {
            value = value
                .and_then(|v| v.checked_mul(10))
                .and_then(|v| v.checked_add(i32::from(d - b'0')));
            self.c.advance(1);
        }
        let mut end = self.c.pos;
        self.c.skip_space();
        if self.c.eat_ci("minutes") {
            value = value.and_then(|v| v.checked_mul(60));
            end = self.c.pos;
        }
        let span = self.c.span(start, end);
        match value {
            Some(v) => Ok(Expr::new(ExprKind::Int(v), span)),
            None => Err(Box::new(SyntaxError::new(
                ErrorClass::NumberTooLarge,
                span,
                "this number does not fit in a 32-bit integer",
                "too large",
                "use a number below 2147483648 (in minutes, below 35791395)",
            ))),
        }
    }

    fn variable(&mut self) -> Result<Expr<FicsLeaf>, Box<SyntaxError>> {
        let start = self.c.pos;
        for (name, var) in VARIABLES {
            if self.c.eat_ci(name) {
                return match var {
                    Var::MaxTime => self.maxtime(start, Players::Both),
                    Var::MyMaxTime => self.maxtime(start, Players::Me),
                    _ => Ok(Expr::new(
                        ExprKind::Leaf(FicsLeaf::Var(var)),
                        self.c.span_from(start),
                    )),
                };
            }
        }
        let is_f = matches!(self.c.peek(), Some(b'f' | b'F'));
        if let (true, Some(d)) = (is_f, self.c.peek_at(1).filter(u8::is_ascii_digit)) {
            let span = self.c.span(start, start.saturating_add(2));
            if d == b'0' {
                return Err(Box::new(SyntaxError::new(
                    ErrorClass::BadVar,
                    span,
                    "there is no f-variable f0",
                    "not an f-variable",
                    "the f-variables are f1 to f9",
                )));
            }
            // `d` is an ASCII digit other than `0` here, so this is 0..=8.
            let index = d - b'1';
            if index >= self.limit {
                let owner = if self.limit >= 9 {
                    "the formula".to_owned()
                } else {
                    format!("f{}", self.limit + 1)
                };
                let allowed = match self.limit {
                    0 => "f1 may not use any f-variable".to_owned(),
                    1 => "it may use only f1".to_owned(),
                    n => format!("it may use only f1 to f{n}"),
                };
                return Err(Box::new(SyntaxError::new(
                    ErrorClass::BadVar,
                    span,
                    format!("{owner} cannot refer to f{}", index + 1),
                    "refers to itself or a later f-variable",
                    format!("{allowed}; move this clause to a higher-numbered f-variable"),
                )
                .with_note("an f-variable fK may refer only to f1 … f(K−1), so that clauses cannot form cycles")));
            }
            self.c.advance(2);
            let var = FVar::from_index(index)
                .map_or(ExprKind::Int(1), |f| ExprKind::Leaf(FicsLeaf::Clause(f)));
            return Ok(Expr::new(var, span));
        }
        let span = self.c.run_span(|b| b.is_ascii_alphanumeric());
        let word = self.c.text().get(span.range()).unwrap_or("");
        let mut e = SyntaxError::new(
            ErrorClass::BadVar,
            span,
            format!("unknown variable `{word}`"),
            "not a FICS variable",
            "the variables are: abuser assessdraw assessloss assesswin blitz computer inc \
             lightning maxtime(n) mymaxtime(n) myrating nonstandard private rated rating \
             ratingdiff registered standard time timeseal untimed wild, and f1 to f9",
        );
        if let Some(best) = crate::name::closest(word, VARIABLES.iter().map(|(n, _)| *n)) {
            e = e.with_guess(best);
        }
        if word.eq_ignore_ascii_case("etime") {
            e = e.with_note(
                "`etime` is an ICC term; FICS has none (use `maxtime(n)` or `time` and `inc`)",
            );
        }
        Err(Box::new(e))
    }

    /// `maxtime(n)` / `mymaxtime(n)` after the name. Any problem with the argument is
    /// `ERR_BADVAR` in the original, whatever the problem inside the parentheses is.
    fn maxtime(
        &mut self,
        start: usize,
        players: Players,
    ) -> Result<Expr<FicsLeaf>, Box<SyntaxError>> {
        let name_span = self.c.span_from(start);
        let name = self
            .c
            .text()
            .get(name_span.range())
            .unwrap_or("maxtime")
            .to_owned();
        self.c.skip_space();
        if self.c.peek() != Some(b'(') {
            return Err(Box::new(SyntaxError::new(
                ErrorClass::BadVar,
                name_span,
                format!("`{name}` needs a number of moves in parentheses"),
                "no `(` after this",
                format!("write e.g. `{name}(40)`"),
            )));
        }
        match self.parens() {
            Ok(moves) => Ok(Expr::new(
                ExprKind::Leaf(FicsLeaf::MaxTime {
                    players,
                    moves: Box::new(moves),
                }),
                self.c.span_from(start),
            )),
            Err(inner) => Err(Box::new(
                SyntaxError::new(
                    ErrorClass::BadVar,
                    name_span,
                    format!("bad argument to `{name}`: {}", inner.message),
                    "the argument of this is not a complete parenthesised expression",
                    inner.help,
                )
                .with_secondary(inner.span, inner.label),
            )),
        }
    }

    fn unexpected_end(&self) -> SyntaxError {
        let at = self.c.pos;
        let span = self.last_op.unwrap_or_else(|| self.c.span(at, at));
        let mut e = SyntaxError::new(
            ErrorClass::Eof,
            span,
            "the formula ends where an operand is expected",
            "an operand is missing after this",
            "complete the expression, or remove the dangling operator",
        );
        if self.c.peek() == Some(b'#') {
            e = e.with_secondary(
                self.c.span(at, at.saturating_add(1)),
                "everything from `#` on is a comment",
            );
        }
        e
    }

    fn unmatched_close(&self) -> SyntaxError {
        let at = self.c.pos;
        let span = self.c.span(at, at.saturating_add(1));
        if self.opens.is_empty() {
            return SyntaxError::new(
                ErrorClass::Paren,
                span,
                "`)` without a matching `(`",
                "nothing to close here",
                "remove the `)` or add the `(` it closes",
            );
        }
        SyntaxError::new(
            ErrorClass::Paren,
            span,
            "an operand is missing before `)`",
            "expected an operand before this",
            "complete the expression inside the parentheses",
        )
    }

    fn doubled_unary(&self, ch: u8, start: usize) -> SyntaxError {
        let c = char::from(ch);
        SyntaxError::new(
            ErrorClass::Unary,
            self.c.span(start, start.saturating_add(2)),
            format!("`{c}{c}` is not allowed"),
            "doubled unary operator",
            format!("write `{c} {c}` with a space (or drop both: they cancel out)"),
        )
    }

    fn not_an_operand(&self) -> SyntaxError {
        let span = self.c.run_span(|_| false);
        let what = self.c.text().get(span.range()).unwrap_or("");
        let mut e = SyntaxError::new(
            ErrorClass::Nonsense,
            span,
            format!("`{what}` cannot start an operand"),
            "expected a number, a variable, `(`, `-` or `!`",
            "remove it, or put an operand in front of it",
        );
        if what == "+" {
            e = e.with_note("FICS has no unary `+`");
        } else if let Some(op) = self.last_op {
            e = e.with_secondary(op, "after this operator");
        }
        e
    }

    fn bad_operator(&self, lhs: &Expr<FicsLeaf>) -> SyntaxError {
        let span = self.c.run_span(|b| b.is_ascii_alphanumeric());
        let what = self.c.text().get(span.range()).unwrap_or("");
        let mut e = SyntaxError::new(
            ErrorClass::BadOp,
            span,
            format!("expected an operator, found `{what}`"),
            "not an operator",
            "put an operator (`&` `|` `=` `!=` `<` `>` `+` `-` `*` `/` …) between operands, \
             or `#` before a comment",
        );
        let touching = span.start == lhs.span.end;
        if what == "." {
            e = e.with_note("FICS formulas have whole numbers only");
        } else if what.to_ascii_lowercase().starts_with("min") {
            e = e.with_note(
                "write `minutes` in full after a number (the singular is not recognised)",
            );
        } else if what.eq_ignore_ascii_case("minutes") {
            e = e.with_note("`minutes` may follow only a number literal, not a variable or `)`");
        } else if touching && matches!(lhs.kind, ExprKind::Leaf(_)) {
            e = e.with_note(
                "FICS matches names as prefixes without word boundaries: the name before \
                 this was read on its own, leaving this text",
            );
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(text: &str) -> Option<ErrorClass> {
        parse(text, FileId(0), 9).err().map(|e| e.class)
    }

    #[test]
    fn error_classes_follow_the_scan() {
        assert_eq!(class("1 +"), Some(ErrorClass::Eof));
        assert_eq!(class("("), Some(ErrorClass::Eof));
        assert_eq!(class("1)"), Some(ErrorClass::Paren));
        assert_eq!(class("(1 # c"), Some(ErrorClass::Paren));
        assert_eq!(class("--5"), Some(ErrorClass::Unary));
        assert_eq!(class("maxtime(40"), Some(ErrorClass::BadVar));
        assert_eq!(class("1 andrew 1"), Some(ErrorClass::BadVar));
        assert_eq!(class("ratedx"), Some(ErrorClass::BadOp));
        assert_eq!(class("1 === 1"), Some(ErrorClass::Nonsense));
        assert_eq!(class("99999999999"), Some(ErrorClass::NumberTooLarge));
        assert_eq!(class("blitzor lightning"), None);
    }

    #[test]
    fn fvars_may_only_look_back() {
        assert!(parse("f1 + f2", FileId(0), 2).is_ok());
        assert_eq!(
            parse("f3", FileId(0), 2).err().map(|e| e.class),
            Some(ErrorClass::BadVar)
        );
    }
}
