//! Calls of the functions the environment knows: user functions, expanded in place (their
//! `arg(n)` reads the caller's arguments; recursion and runaway expansion are errors), and
//! host functions, checked against the signature the environment gives for the call.
//! Unknown functions are reported with "did you mean".

use super::env::literal_name;
use super::{
    Checker, EMPTY_FORMULA, FUNCTION_EXPANSION_TOO_LARGE, Frame, FunctionRef, HostCall, HostFnRef,
    HostParam, INVALID_ARGUMENT, RECURSIVE_FUNCTION, Typed, UNKNOWN_FUNCTION, wrap,
};
use crate::diagnostic::Diagnostic;
use crate::formula::ast::{Args, Expr};
use crate::formula::format::Format;
use crate::formula::function::{UserFunction, arg_index, builtin_names};
use crate::formula::ir::Val;
use crate::formula::value::Value;
use crate::name::{Name, closest};
use crate::source::Span;

/// How many user-function calls one formula may expand (each call inlines the body).
const MAX_EXPANSIONS: usize = 10_000;

impl<'a> Checker<'a> {
    /// `arg(n)`: the `n`-th argument of the user function being expanded, checked in the
    /// caller's context.
    pub(super) fn arg(
        &mut self,
        e: Expr<'a>,
        name: &str,
        args: Args<'a>,
        asserted: Option<&Format>,
    ) -> Option<Typed> {
        let Some(fi) = self.current else {
            self.error(
                Diagnostic::error(
                    UNKNOWN_FUNCTION,
                    e.span(),
                    "`arg` is only available in the body of a FUNCTION",
                )
                .with_label("not inside a function body")
                .with_help("`arg(n)` reads the n-th argument of a user function"),
            );
            return None;
        };
        let (frame_args, parent, expanding_len) = match self.frames.get(fi) {
            Some(f) => (f.args, f.parent, f.expanding_len),
            None => return None,
        };
        let idx = match arg_index(args) {
            None => {
                self.arity(e.span(), name, "1 argument", args.len());
                return None;
            }
            Some(Err(())) => {
                self.error(
                    Diagnostic::error(
                        INVALID_ARGUMENT,
                        args.first().map_or(e.span(), |a| a.span()),
                        "`arg` needs a whole-number literal",
                    )
                    .with_label("not a whole-number literal")
                    .with_help("write the argument's position, e.g. `arg(0)` for the first"),
                );
                return None;
            }
            Some(Ok(i)) => i,
        };
        let Some(actual) = frame_args.get(idx) else {
            self.arity(
                e.span(),
                name,
                &format!("an index below {}", frame_args.len()),
                idx,
            );
            return None;
        };
        // The argument is checked where it is used, in the caller's context.
        let saved = self.current;
        self.current = parent;
        let inner = self
            .expanding
            .split_off(expanding_len.min(self.expanding.len()));
        let r = self.expr(actual, asserted);
        self.expanding.extend(inner);
        self.current = saved;
        r
    }

    /// A call of a function that is not built in.
    pub(super) fn user_or_host(
        &mut self,
        e: Expr<'a>,
        name: &'a str,
        name_span: Span,
        args: Args<'a>,
        asserted: Option<&Format>,
    ) -> Option<Typed> {
        let env = self.env;
        match env.function(name) {
            Some(FunctionRef::User(f)) => self.user(e, f, name, name_span, args, asserted),
            Some(FunctionRef::Host(h)) => self.host(e, h, name, name_span, args),
            None => self.unknown_function(name, name_span, args),
        }
    }

    /// A call of user function `f`: its body, checked with the call's arguments.
    fn user(
        &mut self,
        e: Expr<'a>,
        f: &'a UserFunction,
        name: &str,
        name_span: Span,
        args: Args<'a>,
        asserted: Option<&Format>,
    ) -> Option<Typed> {
        if args.len() != f.arity {
            let expected = format!(
                "{} argument{}",
                f.arity,
                if f.arity == 1 { "" } else { "s" }
            );
            self.arity(e.span(), name, &expected, args.len());
            return None;
        }
        if self.expanding.contains(&&f.name) {
            self.error(
                Diagnostic::error(
                    RECURSIVE_FUNCTION,
                    name_span,
                    format!("function `{}` calls itself", f.name),
                )
                .with_label("recursive call")
                .with_secondary(f.name_span, "defined here")
                .with_help("user functions cannot be recursive; write the formula out"),
            );
            return None;
        }
        self.expansions += 1;
        if self.expansions > MAX_EXPANSIONS {
            if self.expansions == MAX_EXPANSIONS + 1 {
                self.error(
                    Diagnostic::error(
                        FUNCTION_EXPANSION_TOO_LARGE,
                        name_span,
                        "this formula calls user functions too many times",
                    )
                    .with_label(format!("more than {MAX_EXPANSIONS} calls to expand"))
                    .with_help("user functions nest too deeply here; simplify the functions"),
                );
            }
            return None;
        }
        let Some(body) = f.body.root() else {
            self.error(
                Diagnostic::error(
                    EMPTY_FORMULA,
                    f.body.span,
                    format!("function `{}` has an empty body", f.name),
                )
                .with_label("empty VALUE")
                .with_help("give the function a VALUE formula"),
            );
            return None;
        };
        let frame = self.frames.len();
        self.frames.push(Frame {
            args,
            parent: self.current,
            call_span: e.span(),
            function: Some(&f.name),
            expanding_len: self.expanding.len(),
        });
        let saved = self.current;
        self.current = Some(frame);
        self.expanding.push(&f.name);
        let r = self.expr(body, asserted);
        self.expanding.pop();
        self.current = saved;
        r
    }

    /// A call of host function `h`, checked against the signature the environment gives.
    fn host(
        &mut self,
        e: Expr<'a>,
        h: HostFnRef,
        name: &'a str,
        name_span: Span,
        args: Args<'a>,
    ) -> Option<Typed> {
        let env = self.env;
        let call = HostCall {
            name,
            name_span,
            span: e.span(),
            args,
        };
        let sig = match env.host_signature(h, &call) {
            Ok(s) => s,
            Err(ds) => {
                for d in ds {
                    self.error(d);
                }
                return None;
            }
        };
        if sig.params.len() != args.len() {
            let expected = format!("{} arguments", sig.params.len());
            self.arity(e.span(), name, &expected, args.len());
            return None;
        }
        let mut nodes = Vec::with_capacity(args.len());
        let mut ok = true;
        for (a, p) in args.iter().zip(&sig.params) {
            match p {
                HostParam::Name => match literal_name(a) {
                    Some(s) => nodes.push(Val::Const(Value::string(s))),
                    None => {
                        ok = false;
                        self.error(
                            Diagnostic::error(
                                INVALID_ARGUMENT,
                                a.span(),
                                format!("`{name}` needs a name here"),
                            )
                            .with_label("not a name")
                            .with_help("write the name itself, not a formula"),
                        );
                    }
                },
                HostParam::Value(f) => {
                    match self
                        .expr(a, Some(f))
                        .and_then(|t| self.want(t, f, a, &format!("an argument of `{name}`")))
                    {
                        Some(v) => nodes.push(v),
                        None => ok = false,
                    }
                }
            }
        }
        if !ok {
            return None;
        }
        self.deps.extend(sig.dependencies.iter().copied());
        Some(wrap(sig.result, Val::Host(h, nodes, e.span()), e.span()))
    }

    /// Reports a call of an unknown function, and still checks its arguments.
    fn unknown_function(&mut self, name: &str, name_span: Span, args: Args<'a>) -> Option<Typed> {
        let env = self.env;
        let mut names: Vec<Name> = env.function_names();
        names.extend(builtin_names().filter(|b| *b != "arg").map(Name::new));
        let d = Diagnostic::error(
            UNKNOWN_FUNCTION,
            name_span,
            format!("unknown function `{name}`"),
        )
        .with_label("no function of this name");
        self.error(d.with_did_you_mean_or(
            name_span,
            closest(name, names.iter().map(Name::as_str)),
            "define it with FUNCTION:name and VALUE:formula, or fix the name",
        ));
        // Still check the arguments, to report their problems too.
        for a in args.iter() {
            let _ = self.expr(a, None);
        }
        None
    }
}
