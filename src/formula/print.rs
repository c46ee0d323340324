//! Printing formula trees: the conformance vectors' S-expression notation, the reference's
//! canonical text, and a readable form ([`std::fmt::Display`]) that parses back to the same
//! tree.

use crate::formula::ast::{Expr, ExprKind, Formula};
use std::fmt;

/// The tree in the vector notation: `(op l r)`, `(neg x)`, `(not x)`, `(paren x)`, number
/// text, `$name`, `"raw"`, `(call name args...)`, `(index name expr)`, `<empty>`.
pub fn to_sexpr(formula: &Formula) -> String {
    let mut out = String::new();
    match formula.root() {
        None => out.push_str("<empty>"),
        Some(e) => sexpr(e, &mut out),
    }
    out
}

/// The S-expression of one node (see [`to_sexpr`]).
pub fn expr_sexpr(expr: Expr<'_>) -> String {
    let mut out = String::new();
    sexpr(expr, &mut out);
    out
}

fn sexpr(e: Expr<'_>, out: &mut String) {
    match e.kind() {
        ExprKind::Number(t) => out.push_str(t),
        ExprKind::String(t) => {
            out.push('"');
            out.push_str(t);
            out.push('"');
        }
        ExprKind::Variable(n) => {
            out.push('$');
            out.push_str(n);
        }
        ExprKind::Call { name, args, .. } => {
            out.push_str("(call ");
            out.push_str(name);
            for a in args.iter() {
                out.push(' ');
                sexpr(a, out);
            }
            out.push(')');
        }
        ExprKind::Index { name, index, .. } => {
            out.push_str("(index ");
            out.push_str(name);
            out.push(' ');
            sexpr(index, out);
            out.push(')');
        }
        ExprKind::Unary { op, operand } => {
            out.push_str(match op {
                crate::formula::ast::UnaryOp::Neg => "(neg ",
                crate::formula::ast::UnaryOp::Not => "(not ",
            });
            sexpr(operand, out);
            out.push(')');
        }
        ExprKind::Binary { op, lhs, rhs, .. } => {
            out.push('(');
            out.push_str(op.symbol());
            out.push(' ');
            sexpr(lhs, out);
            out.push(' ');
            sexpr(rhs, out);
            out.push(')');
        }
        ExprKind::Paren(inner) => {
            out.push_str("(paren ");
            sexpr(inner, out);
            out.push(')');
        }
    }
}

/// The reference's canonical text (`toString`): optional spaces removed, parentheses and
/// literal text kept (`1 + 2` → `1+2`, `f (1)` → `f(1)`). The empty formula is `""`.
pub fn canonical(formula: &Formula) -> String {
    let mut out = String::new();
    if let Some(e) = formula.root() {
        write_expr(e, &mut out, "", ",");
    }
    out
}

/// Writes `e` with `pad` around binary operators and `comma` between arguments.
fn write_expr(e: Expr<'_>, out: &mut String, pad: &str, comma: &str) {
    match e.kind() {
        ExprKind::Number(t) => out.push_str(t),
        ExprKind::String(t) => {
            out.push('"');
            out.push_str(t);
            out.push('"');
        }
        ExprKind::Variable(n) => out.push_str(n),
        ExprKind::Call { name, args, .. } => {
            out.push_str(name);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(comma);
                }
                write_expr(a, out, pad, comma);
            }
            out.push(')');
        }
        ExprKind::Index { name, index, .. } => {
            out.push_str(name);
            out.push('[');
            write_expr(index, out, pad, comma);
            out.push(']');
        }
        ExprKind::Unary { op, operand } => {
            out.push_str(op.symbol());
            write_expr(operand, out, pad, comma);
        }
        ExprKind::Binary { op, lhs, rhs, .. } => {
            write_expr(lhs, out, pad, comma);
            out.push_str(pad);
            out.push_str(op.symbol());
            out.push_str(pad);
            write_expr(rhs, out, pad, comma);
        }
        ExprKind::Paren(inner) => {
            out.push('(');
            write_expr(inner, out, pad, comma);
            out.push(')');
        }
    }
}

/// A readable form with spaces around binary operators (`floor((Score - 10) / 2)`). It parses
/// back to the same tree (parentheses are nodes of the tree, so none are added).
impl fmt::Display for Expr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write_expr(*self, &mut out, " ", ", ");
        f.write_str(&out)
    }
}

/// The formula's readable form (see the `Display` of [`Expr`]); empty for the empty formula.
impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.root() {
            None => Ok(()),
            Some(e) => write!(f, "{e}"),
        }
    }
}
