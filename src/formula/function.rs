//! Functions: the built-ins of the reference and the registry of user functions defined in
//! data (`FUNCTION:name` + `VALUE:formula`).

use super::ast::{Args, Expr, ExprKind, Formula};
use crate::diagnostic::{Code, Diagnostic};
use crate::name::{Name, NameStr};
use crate::source::Span;
use indexmap::IndexMap;

/// A user function's name clashes with a built-in function.
pub const FUNCTION_CLASHES_WITH_BUILTIN: Code = Code {
    id: "F0120",
    name: "function-clashes-with-builtin",
};
/// A user function is defined twice.
pub const DUPLICATE_FUNCTION: Code = Code {
    id: "F0121",
    name: "duplicate-function",
};
/// A user function's body uses `arg(...)` with something other than a whole-number literal.
pub const INVALID_ARG_REFERENCE: Code = Code {
    id: "F0122",
    name: "invalid-arg-reference",
};

/// The built-in functions of the reference besides the one-argument NUMBER ones
/// (`ir::NumFn::ALL`), lower-case.
const OTHER_BUILTINS: &[&str] = &[
    "max",
    "min",
    "if",
    "value",
    "length",
    "isempty",
    "slice",
    "ispresent",
    "getoptional",
    "arg",
];

/// The built-in functions of the reference, lower-case: the one list that completion,
/// "did you mean" and [`is_builtin`] read.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    crate::formula::ir::NumFn::ALL
        .into_iter()
        .map(|f| f.name())
        .chain(OTHER_BUILTINS.iter().copied())
}

/// True if `name` is a built-in function (case-insensitive). `arg` counts: it is built in
/// to user-function bodies.
pub fn is_builtin(name: &str) -> bool {
    builtin_names().any(|b| b.eq_ignore_ascii_case(name))
}

/// A function defined in data: its body is a formula that reads its arguments with
/// `arg(n)`. Arguments are passed unevaluated and evaluated where the body uses them, so the
/// body's format follows the arguments' formats (a user function is a typed macro).
#[derive(Clone, Debug, PartialEq)]
pub struct UserFunction {
    /// The name as written in the definition.
    pub name: Name,
    /// Span of the name in the definition.
    pub name_span: Span,
    /// The body.
    pub body: Formula,
    /// Number of arguments: the highest `arg(n)` index used + 1.
    pub arity: usize,
}

/// The user functions of a dataset, by case-insensitive name.
#[derive(Clone, Debug, Default)]
pub struct FunctionRegistry {
    functions: IndexMap<Name, UserFunction>,
}

impl FunctionRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a function. Errors (each a diagnostic, all reported): the name is a built-in,
    /// the name is already defined, an `arg(...)` in the body is not `arg(<whole number>)`.
    /// The function is added unless its name clashes.
    pub fn define(
        &mut self,
        name: Name,
        name_span: Span,
        body: Formula,
    ) -> Result<(), Vec<Diagnostic>> {
        let mut diags = Vec::new();
        if is_builtin(name.as_str()) {
            diags.push(
                Diagnostic::error(
                    FUNCTION_CLASHES_WITH_BUILTIN,
                    name_span,
                    format!("`{name}` is a built-in function"),
                )
                .with_label("this name is taken by a built-in function")
                .with_help("choose another name for the function"),
            );
            return Err(diags);
        }
        if let Some(prev) = self.functions.get(&name) {
            diags.push(
                Diagnostic::error(
                    DUPLICATE_FUNCTION,
                    name_span,
                    format!("function `{name}` is defined twice"),
                )
                .with_label("second definition")
                .with_secondary(prev.name_span, "first definition")
                .with_help("remove or rename one of the definitions"),
            );
            return Err(diags);
        }
        let mut max: Option<usize> = None;
        if let Some(root) = body.root() {
            scan_args(root, &mut max, &mut diags);
        }
        let arity = max.map_or(0, |m| m.saturating_add(1));
        self.functions.insert(
            name.clone(),
            UserFunction {
                name,
                name_span,
                body,
                arity,
            },
        );
        if diags.is_empty() { Ok(()) } else { Err(diags) }
    }

    /// The function named `name` (any case).
    pub fn get(&self, name: &str) -> Option<&UserFunction> {
        if self.functions.is_empty() {
            return None;
        }
        self.functions.get(&NameStr(name))
    }

    /// All function names, in definition order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.functions.keys().map(Name::as_str)
    }

    /// Number of functions.
    pub fn len(&self) -> usize {
        self.functions.len()
    }

    /// True when no function is defined.
    pub fn is_empty(&self) -> bool {
        self.functions.is_empty()
    }
}

/// The index `n` of `arg(n)` when the argument is a whole-number literal.
pub(crate) fn arg_index(args: Args<'_>) -> Option<Result<usize, ()>> {
    match (args.first(), args.len()) {
        (Some(a), 1) => Some(match a.kind() {
            ExprKind::Number(t) if t.bytes().all(|b| b.is_ascii_digit()) => {
                t.parse::<usize>().map_err(|_| ())
            }
            _ => Err(()),
        }),
        _ => None,
    }
}

fn scan_args(e: Expr<'_>, max: &mut Option<usize>, diags: &mut Vec<Diagnostic>) {
    match e.kind() {
        ExprKind::Call { name, args, .. } => {
            if name.eq_ignore_ascii_case("arg") {
                match arg_index(args) {
                    Some(Ok(n)) => *max = Some(max.map_or(n, |m| m.max(n))),
                    Some(Err(())) => diags.push(
                        Diagnostic::error(
                            INVALID_ARG_REFERENCE,
                            e.span(),
                            "`arg` needs a whole-number literal",
                        )
                        .with_label("not `arg(<whole number>)`")
                        .with_help("write the argument's position, e.g. `arg(0)` for the first"),
                    ),
                    None => {} // wrong arity is reported when the body is checked
                }
            }
            for a in args.iter() {
                scan_args(a, max, diags);
            }
        }
        ExprKind::Index { index, .. } => scan_args(index, max, diags),
        ExprKind::Unary { operand, .. } => scan_args(operand, max, diags),
        ExprKind::Binary { lhs, rhs, .. } => {
            scan_args(lhs, max, diags);
            scan_args(rhs, max, diags);
        }
        ExprKind::Paren(x) => scan_args(x, max, diags),
        ExprKind::Number(_) | ExprKind::String(_) | ExprKind::Variable(_) => {}
    }
}
