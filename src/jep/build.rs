//! From the grammar's boxed tree and the tokens to a [`JepFormula`]: the flat tree, the
//! evaluator, and every name read with its span.

use super::ast::{Evaluator, JepFormula, NameKind, NameOrigin, NameUse, Node, NodeId, NodeKind};
use super::commands::{self, Lookup};
use super::grammar::{Tree, TreeKind};
use super::lexer::{Spanned, Tok};
use super::terms::{self, Context};
use crate::source::Span;
use std::ops::Range;

/// Where the formula lives: spans are made in `file`, shifted by `offset`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Place {
    pub file: crate::source::FileId,
    pub offset: u32,
}

impl Place {
    /// The span of a range of the formula text.
    pub(super) fn span(self, r: Range<usize>) -> Span {
        Span::new(self.file, r).shifted(self.offset)
    }
}

/// Flattens `tree` (children first) into `nodes`; returns the root's id.
pub(super) fn flatten(
    tree: Tree,
    text: &str,
    place: Place,
    evaluator: Evaluator,
    nodes: &mut Vec<Node>,
) -> NodeId {
    let span = place.span(tree.span.clone());
    let kind = match tree.kind {
        TreeKind::Number => NodeKind::Number,
        TreeKind::Str => NodeKind::String,
        TreeKind::Placeholder => NodeKind::Placeholder,
        TreeKind::Error => NodeKind::Error,
        TreeKind::Name => {
            let name = text.get(tree.span.clone()).unwrap_or("");
            NodeKind::Name(classify(name, evaluator))
        }
        TreeKind::Unary { op, operand } => NodeKind::Unary {
            op,
            operand: flatten(*operand, text, place, evaluator, nodes),
        },
        TreeKind::Binary {
            op,
            op_span,
            lhs,
            rhs,
        } => {
            let lhs = flatten(*lhs, text, place, evaluator, nodes);
            let rhs = flatten(*rhs, text, place, evaluator, nodes);
            NodeKind::Binary {
                op,
                op_span: place.span(op_span),
                lhs,
                rhs,
            }
        }
        TreeKind::Call { name_span, args } => {
            let name = text.get(name_span.clone()).unwrap_or("");
            let command = match commands::lookup(name) {
                Lookup::Known(c) => Some(c),
                Lookup::WrongCase(_) | Lookup::Unknown => None,
            };
            let args = args
                .into_iter()
                .map(|a| flatten(a, text, place, evaluator, nodes))
                .collect();
            NodeKind::Call {
                name_span: place.span(name_span),
                command,
                args,
            }
        }
        TreeKind::Paren(inner) => NodeKind::Paren(flatten(*inner, text, place, evaluator, nodes)),
    };
    let id = NodeId(u32::try_from(nodes.len()).unwrap_or(u32::MAX));
    nodes.push(Node { kind, span });
    id
}

/// What a name is: a term (looked up as the evaluator would see it) or a variable.
///
/// PCGen looks a name up among the character's variables before its terms, so the two
/// builders whose key is a bare two-letter prefix, `CL` and `BL`, would claim every
/// variable that merely starts with those letters (`CLERICLVL` as the level of class
/// `ERICLVL`). Such a name is a [`NameKind::Variable`] here unless it is the key itself or
/// the key and a separator (`CL=`, `CL.`): it is meant as a variable, and if none is
/// defined, PCGen's reading gives 0 anyway. (`MODEQUIPMAXDEX`, `EQTYPE…` are terms.)
pub(super) fn classify(name: &str, evaluator: Evaluator) -> NameKind {
    let seen = match evaluator {
        Evaluator::Jep => std::borrow::Cow::Borrowed(name),
        Evaluator::Fallback => std::borrow::Cow::Owned(name.to_uppercase()),
    };
    let Some(term) = terms::classify(&seen, Context::Character) else {
        return NameKind::Variable;
    };
    let key = term.keys.iter().find(|k| seen.starts_with(**k));
    let weak = key.is_some_and(|k| matches!(*k, "CL" | "BL") && seen.len() != k.len());
    if !weak {
        NameKind::Term(term)
    } else {
        NameKind::Variable
    }
}

/// The evaluator of a formula with these tokens.
pub(super) fn evaluator(tokens: &[Spanned]) -> Evaluator {
    if tokens.iter().any(|(t, _)| *t == Tok::FallbackName) {
        Evaluator::Fallback
    } else {
        Evaluator::Jep
    }
}

/// Every name and placeholder in the tokens (function names excepted), in text order.
pub(super) fn names(
    tokens: &[Spanned],
    text: &str,
    place: Place,
    evaluator: Evaluator,
    origin: NameOrigin,
    out: &mut Vec<NameUse>,
) {
    for (i, (tok, range)) in tokens.iter().enumerate() {
        // A function's name is no name to resolve; a term before `(` still is (the
        // fallback parser reads it as a name, and the check reports the parenthesis).
        let called = *tok == Tok::Name && tokens.get(i + 1).is_some_and(|(t, _)| *t == Tok::LParen);
        let kind = match tok {
            Tok::Name | Tok::FallbackName if !called => {
                classify(text.get(range.clone()).unwrap_or(""), evaluator)
            }
            Tok::Placeholder => NameKind::Placeholder,
            _ => continue,
        };
        out.push(NameUse {
            text: text.get(range.clone()).unwrap_or("").into(),
            span: place.span(range.clone()),
            kind,
            origin,
            evaluator,
        });
    }
}

/// The string literals that PCGen evaluates as formulas: the first argument of `var` and
/// `mastervar` (as `(range of the string's inside)`), when written without escapes.
pub(super) fn formula_strings(tokens: &[Spanned], text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for w in tokens.windows(4) {
        let [
            (Tok::Name, name),
            (Tok::LParen, _),
            (Tok::Str, s),
            (Tok::Comma | Tok::RParen, _),
        ] = w
        else {
            continue;
        };
        let takes_formula = matches!(
            commands::lookup(text.get(name.clone()).unwrap_or("")),
            Lookup::Known(c) if c.arg_kind(0) == commands::ArgKind::FormulaText
        );
        let inside = s.start + 1..s.end.saturating_sub(1);
        if takes_formula
            && inside.start <= inside.end
            && !text.get(inside.clone()).unwrap_or("\\").contains('\\')
        {
            out.push(inside);
        }
    }
    out
}

/// Assembles the formula.
pub(super) fn formula(
    text: &str,
    place: Place,
    nodes: Vec<Node>,
    root: Option<NodeId>,
    evaluator: Evaluator,
    names: Vec<NameUse>,
) -> JepFormula {
    JepFormula {
        text: text.into(),
        span: place.span(0..text.len()),
        nodes,
        root,
        evaluator,
        names,
    }
}
