//! The checks on a parsed formula that PCGen's run time would otherwise answer with a
//! silent 0: calls of unknown functions, of functions in a case PCGen does not register,
//! with a wrong number of arguments, and what PCGen's fallback parser cannot evaluate.

use super::ast::{BinaryOp, Evaluator, JepFormula, NodeId, NodeKind, UnaryOp};
use super::codes;
use super::commands::{self, ArityCheck, Lookup};
use crate::diagnostic::Diagnostic;
use crate::source::Span;

/// What PCGen does with a formula its JEP rejects.
const FALLS_BACK: &str = "PCGen's JEP rejects the formula, and its fallback parser, which knows no functions, evaluates it to 0";

/// Checks every call of `formula`: its name always, its argument count unless an error
/// already in `out` lies inside the call (a syntax error there leaves the arguments
/// unknown). A call whose name is a term (the fallback check reports it) is skipped.
pub(super) fn calls(formula: &JepFormula, out: &mut Vec<Diagnostic>) {
    let reported: Vec<Span> = out
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.span)
        .collect();
    for node in &formula.nodes {
        let NodeKind::Call {
            name_span, args, ..
        } = &node.kind
        else {
            continue;
        };
        if reported.contains(&node.span) {
            // The fallback check's report on this call.
            continue;
        }
        let broken_inside = reported
            .iter()
            .any(|r| r.start >= node.span.start && r.end <= node.span.end);
        let name = formula.text_of(*name_span);
        if name
            .chars()
            .any(|c| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '.')))
        {
            // A term followed by `(`: reported by the fallback check.
            continue;
        }
        match commands::lookup(name) {
            Lookup::Known(command) => {
                if !broken_inside && !command.accepts(args.len()) {
                    let when = match command.arity_check {
                        ArityCheck::Parse => "PCGen's JEP rejects the formula",
                        ArityCheck::Run => "the command fails when PCGen evaluates it",
                    };
                    out.push(
                        Diagnostic::error(
                            codes::WRONG_ARITY,
                            node.span,
                            format!(
                                "`{name}` takes {} argument{}, not {}",
                                command.arity_text(),
                                if command.max_args == Some(1) { "" } else { "s" },
                                args.len()
                            ),
                        )
                        .with_label(format!("{} argument{} given", args.len(), if args.len() == 1 { "" } else { "s" }))
                        .with_help(format!(
                            "{when}, and PCGen's fallback parser evaluates the formula to 0; `{name}` is {}",
                            command.summary
                        )),
                    );
                }
            }
            Lookup::WrongCase(command) => {
                let names = commands::registered_names(command)
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(" or ");
                out.push(
                    Diagnostic::error(
                        codes::FUNCTION_CASE,
                        *name_span,
                        format!("PCGen knows no function `{name}`; it knows {names}"),
                    )
                    .with_label("JEP looks function names up in the exact case")
                    .with_help(format!("write {names}; as written, {FALLS_BACK}")),
                );
            }
            Lookup::Unknown => {
                out.push(
                    Diagnostic::error(
                        codes::UNKNOWN_FUNCTION,
                        *name_span,
                        format!("PCGen knows no function `{name}`"),
                    )
                    .with_label("unknown function")
                    .with_help(format!(
                        "the functions are PCGen's commands (var, if, max, min, floor, ceil, …) and JEP's (abs, round, …); a name cannot hold parentheses (JEP reads a call); as written, {FALLS_BACK}"
                    )),
                );
            }
        }
    }
}

/// Checks what PCGen's fallback parser would make of the formula, where it is the reader.
pub(super) fn fallback(formula: &JepFormula, out: &mut Vec<Diagnostic>) {
    if formula.evaluator != Evaluator::Fallback {
        return;
    }
    if let Some(root) = formula.root {
        level(formula, root, out);
    }
}

/// The first name of the subtree at `id` that JEP cannot read, if any.
fn fallback_name(formula: &JepFormula, id: NodeId) -> Option<Span> {
    let mut stack = vec![id];
    let mut found: Option<Span> = None;
    while let Some(id) = stack.pop() {
        let Some(node) = formula.node(id) else {
            continue;
        };
        match &node.kind {
            NodeKind::Name(_) => {
                if is_fallback_name(formula.text_of(node.span))
                    && found.is_none_or(|f| node.span.start < f.start)
                {
                    found = Some(node.span);
                }
            }
            NodeKind::Call {
                name_span, args, ..
            } => {
                if is_fallback_name(formula.text_of(*name_span))
                    && found.is_none_or(|f| name_span.start < f.start)
                {
                    found = Some(*name_span);
                }
                stack.extend(args.iter().copied());
            }
            NodeKind::Unary { operand, .. } => stack.push(*operand),
            NodeKind::Binary { lhs, rhs, .. } => stack.extend([*lhs, *rhs]),
            NodeKind::Paren(inner) => stack.push(*inner),
            NodeKind::Number | NodeKind::String | NodeKind::Placeholder | NodeKind::Error => {}
        }
    }
    found
}

/// True for a name only the fallback parser reads.
fn is_fallback_name(name: &str) -> bool {
    name.chars()
        .any(|c| matches!(c, '=' | ':' | ';' | '[' | ']' | ' '))
}

/// Checks one level PCGen evaluates on its own (the formula, or a parenthesised group the
/// fallback parser evaluates first): when JEP cannot read it, everything in it must be
/// something the fallback parser evaluates.
fn level(formula: &JepFormula, id: NodeId, out: &mut Vec<Diagnostic>) {
    let Some(forcing) = fallback_name(formula, id) else {
        return;
    };
    let mut stack = vec![id];
    let mut groups = Vec::new();
    let mut first: Option<(Span, String, String)> = None;
    let mut order: Option<(Span, Span)> = None;
    while let Some(id) = stack.pop() {
        let Some(node) = formula.node(id) else {
            continue;
        };
        let problem = match &node.kind {
            NodeKind::Number | NodeKind::Name(_) | NodeKind::Placeholder | NodeKind::Error => None,
            NodeKind::Paren(inner) => {
                groups.push(*inner);
                None
            }
            NodeKind::Unary { op, operand } => {
                let on_number = formula
                    .node(*operand)
                    .is_some_and(|n| n.kind == NodeKind::Number);
                // The fallback parser replaces a group by its value first, so `-(…)` is a
                // signed number by then.
                let on_group = formula
                    .node(*operand)
                    .is_some_and(|n| matches!(n.kind, NodeKind::Paren(_)));
                if on_group {
                    stack.push(*operand);
                }
                match op {
                    UnaryOp::Neg | UnaryOp::Plus if on_number || on_group => None,
                    UnaryOp::Neg | UnaryOp::Plus => Some((
                        node.span,
                        format!("a `{}` before something other than a number", op.symbol()),
                        "the fallback parser reads the sign as part of the name, which then names nothing: write `0-…` or `-1*…`".to_owned(),
                    )),
                    UnaryOp::Not => Some((
                        node.span,
                        "`!`".to_owned(),
                        "the fallback parser knows only `+ - * /`".to_owned(),
                    )),
                }
            }
            NodeKind::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => {
                stack.extend([*rhs, *lhs]);
                if op.in_fallback() {
                    let rhs_is_product = formula.node(*rhs).is_some_and(|n| {
                        matches!(
                            n.kind,
                            NodeKind::Binary {
                                op: BinaryOp::Mul | BinaryOp::Div,
                                ..
                            }
                        )
                    });
                    if matches!(op, BinaryOp::Add | BinaryOp::Sub)
                        && rhs_is_product
                        && order.is_none()
                    {
                        order = Some((*op_span, formula.node(*rhs).map_or(*op_span, |n| n.span)));
                    }
                    None
                } else {
                    Some((
                        *op_span,
                        format!("the operator `{}`", op.symbol()),
                        "the fallback parser knows only `+ - * /`: put the comparison in a group of its own, `(…)`, or the term in `var(\"…\")`".to_owned(),
                    ))
                }
            }
            NodeKind::Call { name_span, .. } => {
                let name = formula.text_of(*name_span);
                let help = if is_fallback_name(name) {
                    "the fallback parser evaluates `( … )` on its own and glues its value to the name; inside a term's argument write `{ }` for parentheses (`SKILLRANK=Knowledge {Arcana}`)".to_owned()
                } else {
                    format!(
                        "the fallback parser knows no functions: it reads `{name}` and the value of its parentheses as one unknown name; write each term as `var(\"…\")` so JEP reads the formula"
                    )
                };
                Some((node.span, format!("the call `{name}(…)`"), help))
            }
            NodeKind::String => Some((
                node.span,
                "a string".to_owned(),
                "the fallback parser knows no strings".to_owned(),
            )),
        };
        if let Some(p) = problem {
            if first.as_ref().is_none_or(|f| p.0.start < f.0.start) {
                first = Some(p);
            }
        }
    }
    if let Some((span, what, help)) = first {
        out.push(
            Diagnostic::error(
                codes::FALLBACK_UNSUPPORTED,
                span,
                format!("PCGen's fallback parser cannot evaluate {what}"),
            )
            .with_label("the fallback parser cannot evaluate this")
            .with_secondary(
                forcing,
                "JEP cannot read this name, so PCGen evaluates the formula with its fallback parser",
            )
            .with_help(format!("{help}; as written, the value is 0 or wrong")),
        );
    } else if let Some((op_span, product)) = order {
        out.push(
            Diagnostic::error(
                codes::FALLBACK_ORDER,
                op_span,
                "PCGen's fallback parser evaluates `+ - * /` from left to right",
            )
            .with_label("this is applied before the product on its right")
            .with_secondary(product, "this product is computed last, not first")
            .with_secondary(
                forcing,
                "JEP cannot read this name, so PCGen evaluates the formula with its fallback parser",
            )
            .with_help("put the product in parentheses, `a+(b*c)`, or write the term as `var(\"…\")` so JEP reads the formula"),
        );
    }
    for g in groups {
        level(formula, g, out);
    }
}
