//! Names: variables resolved through the [`CheckEnv`](super::CheckEnv) (with "did you mean"
//! for unknown ones) and array items (`name[i]`).

use super::{Checker, NOT_AN_ARRAY, Typed, UNKNOWN_VARIABLE, VarRef, num_node, wrap};
use crate::diagnostic::Diagnostic;
use crate::formula::ast::Expr;
use crate::formula::format::Format;
use crate::formula::ir::{Bool, Num, Val};
use crate::name::{Name, closest};
use crate::source::Span;

/// The checked node reading `var` of `format` at `span`.
pub(super) fn variable_typed(var: VarRef, format: Format, span: Span) -> Typed {
    let node = match format {
        Format::Number => Val::Num(Num::Var(var, span)),
        Format::Boolean => Val::Bool(Bool::Var(var, span)),
        _ => Val::Var(var, span),
    };
    Typed { format, node }
}

impl<'a> Checker<'a> {
    /// A variable read, added to the dependencies.
    pub(super) fn variable_node(&mut self, name: &str, span: Span) -> Option<Typed> {
        let (var, format) = self.variable(name, span)?;
        self.deps.push(var);
        Some(variable_typed(var, format, span))
    }

    /// An array item, `name[index]`.
    pub(super) fn index(
        &mut self,
        e: Expr<'a>,
        name: &str,
        name_span: Span,
        index: Expr<'a>,
    ) -> Option<Typed> {
        let var = self.variable(name, name_span);
        let idx = self.expr(index, Some(&Format::Number));
        let idx = idx.and_then(|t| self.want(t, &Format::Number, index, "an array index"));
        let (var, format) = var?;
        let item = match format {
            Format::Array(item) => *item,
            other => {
                self.error(
                    Diagnostic::error(
                        NOT_AN_ARRAY,
                        name_span,
                        format!("`{name}` is {other}, not an array"),
                    )
                    .with_label("not an array")
                    .with_help("only ARRAY[...] variables can be indexed with `[...]`"),
                );
                return None;
            }
        };
        self.deps.push(var);
        let node = Val::Index(
            Box::new(Val::Var(var, name_span)),
            Box::new(num_node(idx?, index.span())),
            e.span(),
        );
        Some(wrap(item, node, e.span()))
    }

    /// The variable called `name`, or an error with a suggestion.
    pub(super) fn variable(&mut self, name: &str, span: Span) -> Option<(VarRef, Format)> {
        if let Some(v) = self.env.variable(name) {
            return Some(v);
        }
        let names = self.env.variable_names();
        let suggestion = closest(name, names.iter().map(Name::as_str));
        let mut d = Diagnostic::error(UNKNOWN_VARIABLE, span, format!("unknown variable `{name}`"))
            .with_label("no variable of this name is visible here")
            .with_missing(name, crate::diagnostic::MissingKind::Variable);
        d = match suggestion {
            Some(s) => d.with_did_you_mean(span, s),
            None if name.eq_ignore_ascii_case("true") || name.eq_ignore_ascii_case("false") => d.with_help(
                "there are no boolean literals; compare instead, e.g. `1==1`, or define the variable",
            ),
            None if name.contains('=') => d.with_help(format!(
                "`{name}` is read as one variable name; equality is `==`"
            )),
            None => d.with_help("define the variable (DEFINE / LOCAL) or fix the name"),
        };
        self.error(d);
        None
    }
}
