//! The one evaluator of the dialects: 32-bit integers, C semantics, no wrap-around.
//!
//! `&` and `|` short-circuit and give 0 or 1; comparisons give 0 or 1; division truncates
//! toward zero. Overflow is an evaluation error ([`OVERFLOW`]) instead of C's undefined
//! wrap-around. What a leaf is worth and what division by zero does are asked of the
//! dialect's [`Env`].

use super::expr::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;

/// An arithmetic result does not fit in 32 bits.
pub const OVERFLOW: Code = Code {
    id: "D0190",
    name: "dialect-overflow",
};

/// An evaluation error: a diagnostic on the span that failed.
pub type EvalError = Box<Diagnostic>;

/// What the evaluator needs from a dialect.
pub trait Env<L> {
    /// The value of a leaf at `span`.
    fn leaf(&mut self, leaf: &L, span: Span) -> Result<i32, EvalError>;

    /// The value of `left / 0`, where `op_span` is the `/`.
    fn divide_by_zero(&mut self, left: i32, op_span: Span) -> Result<i32, EvalError>;
}

/// The overflow error at `span`.
pub fn overflow(span: Span, what: &str) -> EvalError {
    Box::new(
        Diagnostic::error(
            OVERFLOW,
            span,
            format!("{what} does not fit in a 32-bit integer"),
        )
        .with_label("the result of this is out of range")
        .with_help("use smaller numbers; the original servers would silently wrap around here")
        .with_note("the range is -2147483648 to 2147483647"),
    )
}

/// Evaluates `expr` in `env`.
pub fn eval<L, E: Env<L>>(expr: &Expr<L>, env: &mut E) -> Result<i32, EvalError> {
    match &expr.kind {
        ExprKind::Int(n) => Ok(*n),
        ExprKind::Bool(b) => Ok(i32::from(*b)),
        ExprKind::Leaf(l) => env.leaf(l, expr.span),
        ExprKind::Unary(UnaryOp::Neg, x) => eval(x, env)?
            .checked_neg()
            .ok_or_else(|| overflow(expr.span, "the negation")),
        ExprKind::Unary(UnaryOp::Not, x) => Ok(i32::from(eval(x, env)? == 0)),
        ExprKind::Binary {
            op,
            op_span,
            lhs,
            rhs,
        } => {
            let l = eval(lhs, env)?;
            match op {
                BinaryOp::Or => {
                    if l != 0 {
                        return Ok(1);
                    }
                    return Ok(i32::from(eval(rhs, env)? != 0));
                }
                BinaryOp::And => {
                    if l == 0 {
                        return Ok(0);
                    }
                    return Ok(i32::from(eval(rhs, env)? != 0));
                }
                _ => {}
            }
            let r = eval(rhs, env)?;
            let out = |v: Option<i32>, what: &str| v.ok_or_else(|| overflow(expr.span, what));
            Ok(match op {
                BinaryOp::Or | BinaryOp::And => 0, // handled above
                BinaryOp::Eq => i32::from(l == r),
                BinaryOp::Ne => i32::from(l != r),
                BinaryOp::Lt => i32::from(l < r),
                BinaryOp::Le => i32::from(l <= r),
                BinaryOp::Gt => i32::from(l > r),
                BinaryOp::Ge => i32::from(l >= r),
                BinaryOp::Add => out(l.checked_add(r), "the sum")?,
                BinaryOp::Sub => out(l.checked_sub(r), "the difference")?,
                BinaryOp::Mul => out(l.checked_mul(r), "the product")?,
                BinaryOp::Div => {
                    if r == 0 {
                        env.divide_by_zero(l, *op_span)?
                    } else {
                        out(l.checked_div(r), "the quotient")?
                    }
                }
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NoLeaves {
        divisions: usize,
    }
    impl Env<()> for NoLeaves {
        fn leaf(&mut self, _: &(), _: Span) -> Result<i32, EvalError> {
            Ok(7)
        }
        fn divide_by_zero(&mut self, left: i32, op_span: Span) -> Result<i32, EvalError> {
            self.divisions += 1;
            left.checked_mul(1000)
                .ok_or_else(|| overflow(op_span, "the division"))
        }
    }

    fn int(n: i32) -> Expr<()> {
        Expr::new(ExprKind::Int(n), Span::default())
    }
    fn bin(op: BinaryOp, a: Expr<()>, b: Expr<()>) -> Expr<()> {
        Expr::binary(op, Span::default(), a, b)
    }

    #[test]
    fn c_division_and_short_circuit() {
        let mut env = NoLeaves { divisions: 0 };
        assert_eq!(eval(&bin(BinaryOp::Div, int(-7), int(2)), &mut env), Ok(-3));
        let skipped = bin(BinaryOp::And, int(0), bin(BinaryOp::Div, int(1), int(0)));
        assert_eq!(eval(&skipped, &mut env), Ok(0));
        assert_eq!(env.divisions, 0);
        assert_eq!(
            eval(&bin(BinaryOp::Div, int(3), int(0)), &mut env),
            Ok(3000)
        );
        assert_eq!(env.divisions, 1);
        assert_eq!(eval(&bin(BinaryOp::Or, int(0), int(7)), &mut env), Ok(1));
    }

    #[test]
    fn overflow_is_an_error_not_a_wrap() {
        let mut env = NoLeaves { divisions: 0 };
        let e = eval(&bin(BinaryOp::Mul, int(i32::MAX), int(2)), &mut env);
        assert_eq!(e.map_err(|d| d.code), Err(OVERFLOW));
        let e = eval(&bin(BinaryOp::Div, int(i32::MIN), int(-1)), &mut env);
        assert_eq!(e.map_err(|d| d.code), Err(OVERFLOW));
    }
}
