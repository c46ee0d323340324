//! Literals: numbers (checked against the NUMBER range) and quoted literals (read as the
//! format asserted where they stand, else STRINGs).

use super::{Checker, INVALID_LITERAL, NUMBER_OUT_OF_RANGE, Typed};
use crate::diagnostic::Diagnostic;
use crate::formula::ast::{Expr, ExprKind, UnaryOp};
use crate::formula::format::Format;
use crate::formula::ir::{Bool, Num, Val};
use crate::formula::number::Number;
use crate::formula::value::Value;
use crate::source::Span;

impl Checker<'_> {
    /// A number literal.
    pub(super) fn number(&mut self, text: &str, span: Span) -> Option<Typed> {
        match Number::parse_literal(text) {
            Some(Ok(n)) => Some(Typed {
                format: Format::Number,
                node: Val::Num(Num::Const(n)),
            }),
            _ => {
                self.error(
                    Diagnostic::error(
                        NUMBER_OUT_OF_RANGE,
                        span,
                        format!("`{text}` is too large for a NUMBER"),
                    )
                    .with_label("out of range")
                    .with_help("NUMBERs hold about 28 significant digits"),
                );
                None
            }
        }
    }

    /// A quoted literal: a value of the `asserted` format when there is one (other than
    /// STRING), else a STRING.
    pub(super) fn string(
        &mut self,
        text: &str,
        span: Span,
        asserted: Option<&Format>,
    ) -> Option<Typed> {
        match asserted {
            Some(f) if *f != Format::String => match f.parse_value(text) {
                Ok(v) => Some(Typed {
                    format: f.clone(),
                    node: const_node(v),
                }),
                Err(msg) => {
                    self.error(
                        Diagnostic::error(
                            INVALID_LITERAL,
                            span,
                            format!("\"{text}\" cannot be read as a {f}"),
                        )
                        .with_label(format!("a {f} is needed here"))
                        .with_help(format!("{msg}; write a {f} value")),
                    );
                    None
                }
            },
            _ => Some(Typed {
                format: Format::String,
                node: Val::Const(Value::string(text)),
            }),
        }
    }
}

/// The value of a literal number argument (`3`, `-3`, `(3)`), `Err` for an out-of-range
/// literal, `None` when the argument is not a literal.
pub(super) fn literal_number(e: Expr<'_>) -> Option<Result<Number, ()>> {
    match e.kind() {
        ExprKind::Number(t) => Some(match Number::parse_literal(t) {
            Some(Ok(n)) => Ok(n),
            _ => Err(()),
        }),
        ExprKind::Unary {
            op: UnaryOp::Neg,
            operand,
        } => literal_number(operand).map(|r| r.and_then(|n| n.checked_neg().map_err(|_| ()))),
        ExprKind::Paren(x) => literal_number(x),
        _ => None,
    }
}

/// The node of a constant, typed by its value.
fn const_node(v: Value) -> Val {
    match v {
        Value::Number(n) => Val::Num(Num::Const(n)),
        Value::Boolean(b) => Val::Bool(Bool::Const(b)),
        other => Val::Const(other),
    }
}
