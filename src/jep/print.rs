//! Printing a parsed formula: an S-expression for tests and debugging, and formula text
//! that parses back to the same tree.

use super::ast::{JepFormula, NameKind, NodeId, NodeKind};

/// The tree as an S-expression: `(op lhs rhs)`, `(name args…)` for calls, `$name` for
/// variables, `@name` for terms and stats, `%…` placeholders, numbers and strings as written;
/// parentheses are not shown (they only group). `?` marks a part that failed to parse.
pub fn to_sexpr(formula: &JepFormula) -> String {
    let mut out = String::new();
    if let Some(root) = formula.root {
        sexpr(formula, root, &mut out);
    }
    out
}

fn sexpr(f: &JepFormula, id: NodeId, out: &mut String) {
    let Some(node) = f.node(id) else {
        out.push('?');
        return;
    };
    match &node.kind {
        NodeKind::Number | NodeKind::String | NodeKind::Placeholder => {
            out.push_str(f.text_of(node.span))
        }
        NodeKind::Name(kind) => {
            out.push(if matches!(kind, NameKind::Term(_) | NameKind::Stat(_)) {
                '@'
            } else {
                '$'
            });
            out.push_str(f.text_of(node.span));
        }
        NodeKind::Error => out.push('?'),
        NodeKind::Paren(inner) => sexpr(f, *inner, out),
        NodeKind::Unary { op, operand } => {
            out.push('(');
            out.push_str(op.symbol());
            out.push(' ');
            sexpr(f, *operand, out);
            out.push(')');
        }
        NodeKind::Binary { op, lhs, rhs, .. } => {
            out.push('(');
            out.push_str(op.symbol());
            out.push(' ');
            sexpr(f, *lhs, out);
            out.push(' ');
            sexpr(f, *rhs, out);
            out.push(')');
        }
        NodeKind::Call {
            name_span, args, ..
        } => {
            out.push('(');
            out.push_str(f.text_of(*name_span));
            for a in args {
                out.push(' ');
                sexpr(f, *a, out);
            }
            out.push(')');
        }
    }
}

/// The formula as text without spaces, with the parentheses written and no others: the
/// tree keeps every group written (the fallback parser evaluates a group on its own), so
/// precedence needs no more, and parsing the text gives a tree with the same [`to_sexpr`].
pub fn to_text(formula: &JepFormula) -> String {
    let mut out = String::new();
    if let Some(root) = formula.root {
        text(formula, root, &mut out);
    }
    out
}

fn text(f: &JepFormula, id: NodeId, out: &mut String) {
    let Some(node) = f.node(id) else {
        return;
    };
    match &node.kind {
        NodeKind::Number
        | NodeKind::String
        | NodeKind::Placeholder
        | NodeKind::Name(_)
        | NodeKind::Error => out.push_str(f.text_of(node.span)),
        // Kept: PCGen's fallback parser evaluates a group on its own.
        NodeKind::Paren(inner) => {
            out.push('(');
            text(f, *inner, out);
            out.push(')');
        }
        NodeKind::Unary { op, operand } => {
            out.push_str(op.symbol());
            text(f, *operand, out);
        }
        NodeKind::Binary { op, lhs, rhs, .. } => {
            text(f, *lhs, out);
            out.push_str(op.symbol());
            text(f, *rhs, out);
        }
        NodeKind::Call {
            name_span, args, ..
        } => {
            out.push_str(f.text_of(*name_span));
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                text(f, *a, out);
            }
            out.push(')');
        }
    }
}
