//! The shared checker: warnings about comparisons whose result does not depend on the
//! match, found with the static types of [`Expr::ty`].
//!
//! A truth value is 0 or 1, so `rated = 2` is never true and `blitz < 5` always is. Such a
//! comparison is almost always a mistake (a number term confused with a yes/no term), so
//! the checker warns, naming the value it always has.

use super::expr::{BinaryOp, Expr, ExprKind, Leaf, Ty, UnaryOp};
use crate::diagnostic::{Code, Diagnostic};

/// A comparison between a truth value and a constant that always has the same result.
pub const CONSTANT_COMPARISON: Code = Code {
    id: "D0191",
    name: "dialect-constant-comparison",
};

/// Warnings for `expr`; `describe` names a leaf for the message (e.g. `rated`).
pub fn check<L: Leaf>(expr: &Expr<L>, describe: &dyn Fn(&L) -> String) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    walk(expr, describe, &mut out);
    out
}

fn walk<L: Leaf>(expr: &Expr<L>, describe: &dyn Fn(&L) -> String, out: &mut Vec<Diagnostic>) {
    match &expr.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Leaf(_) => {}
        ExprKind::Unary(_, x) => walk(x, describe, out),
        ExprKind::Binary { op, lhs, rhs, .. } => {
            if let Some(d) = constant_comparison(expr, *op, lhs, rhs, describe) {
                out.push(d);
            }
            walk(lhs, describe, out);
            walk(rhs, describe, out);
        }
    }
}

fn compare(op: BinaryOp, l: i64, r: i64) -> Option<bool> {
    Some(match op {
        BinaryOp::Eq => l == r,
        BinaryOp::Ne => l != r,
        BinaryOp::Lt => l < r,
        BinaryOp::Le => l <= r,
        BinaryOp::Gt => l > r,
        BinaryOp::Ge => l >= r,
        _ => return None,
    })
}

fn constant_comparison<L: Leaf>(
    expr: &Expr<L>,
    op: BinaryOp,
    lhs: &Expr<L>,
    rhs: &Expr<L>,
    describe: &dyn Fn(&L) -> String,
) -> Option<Diagnostic> {
    let (truth, n, truth_left) = match (&lhs.kind, &rhs.kind) {
        (_, ExprKind::Int(n)) if lhs.ty() == Ty::Bool => (lhs, *n, true),
        (ExprKind::Int(n), _) if rhs.ty() == Ty::Bool => (rhs, *n, false),
        _ => return None,
    };
    let at = |b: i64| {
        if truth_left {
            compare(op, b, i64::from(n))
        } else {
            compare(op, i64::from(n), b)
        }
    };
    let (when0, when1) = (at(0)?, at(1)?);
    if when0 != when1 {
        return None;
    }
    let what = match &truth.kind {
        ExprKind::Leaf(l) => format!("`{}`", describe(l)),
        ExprKind::Unary(UnaryOp::Not, _) => "this negation".to_owned(),
        _ => "this truth value".to_owned(),
    };
    Some(
        Diagnostic::warning(
            CONSTANT_COMPARISON,
            expr.span,
            format!(
                "this comparison is always {}",
                if when0 { "true" } else { "false" }
            ),
        )
        .with_label(format!("always {when0}"))
        .with_secondary(truth.span, format!("{what} is 0 or 1"))
        .with_help("compare a yes/no value with 0 or 1, or use it directly (`rated`, `!rated`)"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    struct Flag;
    impl Leaf for Flag {
        fn ty(&self) -> Ty {
            Ty::Bool
        }
    }

    fn cmp(op: BinaryOp, n: i32) -> Expr<Flag> {
        let s = Span::default();
        Expr::binary(
            op,
            s,
            Expr::new(ExprKind::Leaf(Flag), s),
            Expr::new(ExprKind::Int(n), s),
        )
    }

    #[test]
    fn warns_only_when_both_truth_values_agree() {
        let name = |_: &Flag| "rated".to_owned();
        assert_eq!(check(&cmp(BinaryOp::Eq, 2), &name).len(), 1);
        assert_eq!(check(&cmp(BinaryOp::Lt, 5), &name).len(), 1);
        assert!(check(&cmp(BinaryOp::Eq, 1), &name).is_empty());
        assert!(check(&cmp(BinaryOp::Gt, 0), &name).is_empty());
    }
}
