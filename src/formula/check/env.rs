//! What the checker asks of the caller: the [`CheckEnv`] trait that resolves names, the
//! opaque handles it hands out ([`VarRef`], [`HostFnRef`]) and the host-function types.

use super::UNKNOWN_FUNCTION;
use crate::diagnostic::Diagnostic;
use crate::formula::ast::{Args, Expr, ExprKind};
use crate::formula::format::Format;
use crate::formula::function::UserFunction;
pub use crate::formula::ir::{HostFnRef, VarRef};
use crate::name::Name;
use crate::source::Span;

/// A function the environment knows (besides the built-ins).
#[derive(Clone, Copy, Debug)]
pub enum FunctionRef<'a> {
    /// A user function from data.
    User(&'a UserFunction),
    /// A host function.
    Host(HostFnRef),
}

/// How a host function takes one parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostParam {
    /// An expression of this format.
    Value(Format),
    /// A name written literally (a bare word or a quoted string, e.g. a channel, table or
    /// column name); it arrives as a STRING value and is not resolved as a variable.
    Name,
}

/// The signature of one call of a host function, decided by the caller after looking at the
/// call (so `input(channel)` can check its literal channel name and give the channel's
/// format).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostSignature {
    /// Parameters in order.
    pub params: Vec<HostParam>,
    /// Format of the result.
    pub result: Format,
    /// Variables the call reads (added to the formula's dependencies).
    pub dependencies: Vec<VarRef>,
}

/// A call of a host function, as given to [`CheckEnv::host_signature`].
#[derive(Clone, Copy, Debug)]
pub struct HostCall<'a> {
    /// The function name as written.
    pub name: &'a str,
    /// Span of the name.
    pub name_span: Span,
    /// Span of the whole call.
    pub span: Span,
    /// The arguments, unchecked.
    pub args: Args<'a>,
}

impl<'a> HostCall<'a> {
    /// The literal text of argument `i` when it is a bare word or a quoted string.
    pub fn literal(&self, i: usize) -> Option<&'a str> {
        literal_name(self.args.get(i)?)
    }

    /// The span of the text of argument `i` when it is a bare word or a quoted string:
    /// the name itself, without the quotes around it.
    pub fn literal_span(&self, i: usize) -> Option<Span> {
        let a = self.args.get(i)?;
        let text = literal_name(a)?;
        let span = a.span();
        // A bare word is its span; a quoted string has one quote on each side.
        let quote = match span.range().len().checked_sub(text.len())? {
            0 => 0,
            2 => 1,
            _ => return None,
        };
        let start = span.start as usize + quote;
        Some(Span::new(span.file, start..start + text.len()))
    }
}

/// The text of an argument written as a name: a bare word or a quoted string.
pub(super) fn literal_name<'a>(a: Expr<'a>) -> Option<&'a str> {
    match a.kind() {
        ExprKind::Variable(n) => Some(n),
        ExprKind::String(s) => Some(s),
        _ => None,
    }
}

/// The names a formula may use, implemented by the caller (the loader resolves names by
/// scope). Built-in functions are not part of it.
pub trait CheckEnv {
    /// The variable called `name` (any case) and its format.
    fn variable(&self, name: &str) -> Option<(VarRef, Format)>;

    /// The user or host function called `name` (any case).
    fn function(&self, name: &str) -> Option<FunctionRef<'_>> {
        let _ = name;
        None
    }

    /// The signature of one call of host function `f`; errors are reported as they are.
    fn host_signature(
        &self,
        f: HostFnRef,
        call: &HostCall<'_>,
    ) -> Result<HostSignature, Vec<Diagnostic>> {
        let _ = f;
        Err(vec![Diagnostic::error(
            UNKNOWN_FUNCTION,
            call.name_span,
            format!("function `{}` is not available here", call.name),
        )])
    }

    /// Variable names to suggest for a misspelt name (only asked when a name is unknown).
    fn variable_names(&self) -> Vec<Name> {
        Vec::new()
    }

    /// User and host function names to suggest for a misspelt function name.
    fn function_names(&self) -> Vec<Name> {
        Vec::new()
    }
}

/// An environment with no variables and no functions besides the built-ins.
#[derive(Clone, Copy, Debug, Default)]
pub struct EmptyEnv;

impl CheckEnv for EmptyEnv {
    fn variable(&self, _name: &str) -> Option<(VarRef, Format)> {
        None
    }
}
