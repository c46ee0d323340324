//! Calls of the built-in functions (`abs`, `max`, `if`, `value`, `length`, `slice`, …);
//! other names go to [`functions`](super::functions).

use super::literals::literal_number;
use super::{
    Checker, INVALID_ARGUMENT, NO_INPUT, OPERAND_FORMAT, Typed, WRONG_ARITY, bool_node, num_node,
    wrap,
};
use crate::diagnostic::Diagnostic;
use crate::formula::ast::{Args, Expr};
use crate::formula::format::Format;
use crate::formula::ir::{Bool, Num, NumFn, Val};
use crate::formula::number::Number;
use crate::source::Span;

impl<'a> Checker<'a> {
    /// Reports a call of `name` with `got` arguments where it takes `expected`.
    pub(super) fn arity(&mut self, span: Span, name: &str, expected: &str, got: usize) {
        self.error(
            Diagnostic::error(
                WRONG_ARITY,
                span,
                format!("`{name}` takes {expected}, but {got} given"),
            )
            .with_label(format!(
                "{got} argument{} here",
                if got == 1 { "" } else { "s" }
            ))
            .with_help(format!("call `{name}` with {expected}")),
        );
    }

    /// Checks each argument as a NUMBER (asserted), returning the nodes.
    fn number_args(&mut self, name: &str, args: Args<'a>) -> Option<Vec<Num>> {
        let mut out = Vec::with_capacity(args.len());
        let mut ok = true;
        for a in args.iter() {
            match self.expr(a, Some(&Format::Number)) {
                Some(t) if t.format == Format::Number => out.push(num_node(t.node, a.span())),
                Some(t) => {
                    let what = format!("an argument of `{name}`");
                    let _ = self.want(t, &Format::Number, a, &what);
                    ok = false;
                }
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// A call: a built-in function, else one the environment knows.
    pub(super) fn call(
        &mut self,
        e: Expr<'a>,
        name: &'a str,
        name_span: Span,
        args: Args<'a>,
        asserted: Option<&Format>,
    ) -> Option<Typed> {
        // Lower-cased on the stack: no built-in name is longer than the buffer, so a longer
        // name (left empty here) is never one.
        let mut buf = [0u8; 16];
        let lower = lower_short(name, &mut buf);
        let n = args.len();
        let number = |node: Num| Typed {
            format: Format::Number,
            node: Val::Num(node),
        };
        match lower {
            _ if NumFn::from_name(lower).is_some() => {
                if n != 1 {
                    self.arity(e.span(), name, "1 argument", n);
                    return None;
                }
                // The one argument checked as `number_args` would, without its vector.
                let a = args.first()?;
                let x = match self.expr(a, Some(&Format::Number))? {
                    t if t.format == Format::Number => num_node(t.node, a.span()),
                    t => {
                        let what = format!("an argument of `{name}`");
                        let _ = self.want(t, &Format::Number, a, &what);
                        return None;
                    }
                };
                let f = NumFn::from_name(lower)?;
                Some(number(Num::Fn1(f, Box::new(x), e.span())))
            }
            "max" | "min" => {
                if n < 2 {
                    self.arity(e.span(), name, "at least 2 arguments", n);
                    return None;
                }
                let xs = self.number_args(name, args)?;
                Some(number(if lower == "max" {
                    Num::Max(xs)
                } else {
                    Num::Min(xs)
                }))
            }
            "if" => {
                let (Some(c), Some(t), Some(f), 3) = (args.get(0), args.get(1), args.get(2), n)
                else {
                    self.arity(e.span(), name, "3 arguments", n);
                    return None;
                };
                let ct = self.expr(c, Some(&Format::Boolean));
                let ct =
                    ct.and_then(|x| self.want(x, &Format::Boolean, c, "the condition of `if`"));
                let tt = self.expr(t, asserted);
                let ft = self.expr(f, asserted);
                let (ct, tt, ft) = (ct?, tt?, ft?);
                if tt.format != ft.format {
                    self.error(
                        Diagnostic::error(
                            OPERAND_FORMAT,
                            e.span(),
                            format!(
                                "the branches of `if` differ: {} and {}",
                                tt.format, ft.format
                            ),
                        )
                        .with_label("branches of different formats")
                        .with_secondary(t.span(), format!("{}", tt.format))
                        .with_secondary(f.span(), format!("{}", ft.format))
                        .with_help("both branches of `if` must have the same format"),
                    );
                    return None;
                }
                let cond = Box::new(bool_node(ct, c.span()));
                let node = match tt.format {
                    Format::Number => Val::Num(Num::If(
                        cond,
                        Box::new(num_node(tt.node, t.span())),
                        Box::new(num_node(ft.node, f.span())),
                    )),
                    Format::Boolean => Val::Bool(Bool::If(
                        cond,
                        Box::new(bool_node(tt.node, t.span())),
                        Box::new(bool_node(ft.node, f.span())),
                    )),
                    _ => Val::If(cond, Box::new(tt.node), Box::new(ft.node)),
                };
                Some(Typed {
                    format: tt.format,
                    node,
                })
            }
            "value" => {
                if n != 0 {
                    self.arity(e.span(), name, "no arguments", n);
                    return None;
                }
                let Some(f) = self.input else {
                    self.error(
                        Diagnostic::error(
                            NO_INPUT,
                            e.span(),
                            "`value()` has no running value here",
                        )
                        .with_label("no input value")
                        .with_help(
                            "`value()` is the running value of a MODIFY; it cannot be used here",
                        ),
                    );
                    return None;
                };
                self.uses_input = true;
                Some(if *f == Format::Number {
                    number(Num::Input(e.span()))
                } else {
                    wrap(f.clone(), Val::Input(e.span()), e.span())
                })
            }
            "length" | "isempty" => {
                let (Some(a), 1) = (args.first(), n) else {
                    self.arity(e.span(), name, "1 argument", n);
                    return None;
                };
                let at = self.expr(a, None)?;
                if !matches!(at.format, Format::Array(_)) {
                    return self.not_array(a, &at.format, name);
                }
                let arr = Box::new(at.node);
                Some(if lower == "length" {
                    number(Num::Val(Box::new(Val::Length(arr, e.span())), e.span()))
                } else {
                    Typed {
                        format: Format::Boolean,
                        node: Val::Bool(Bool::Val(Box::new(Val::IsEmpty(arr, e.span())), e.span())),
                    }
                })
            }
            "ispresent" | "getoptional" => {
                let (Some(a), 1) = (args.first(), n) else {
                    self.arity(e.span(), name, "1 argument", n);
                    return None;
                };
                let at = self.expr(a, None)?;
                let Format::Optional(inner) = at.format else {
                    self.error(
                        Diagnostic::error(
                            OPERAND_FORMAT,
                            a.span(),
                            format!("`{name}` needs an OPTIONAL, not {}", at.format),
                        )
                        .with_label(format!("this is {}", at.format))
                        .with_help("pass an OPTIONAL[...] variable"),
                    );
                    return None;
                };
                let o = Box::new(at.node);
                Some(if lower == "ispresent" {
                    Typed {
                        format: Format::Boolean,
                        node: Val::Bool(Bool::Val(Box::new(Val::IsPresent(o, e.span())), e.span())),
                    }
                } else {
                    wrap(*inner, Val::GetOptional(o, e.span()), e.span())
                })
            }
            "slice" => self.slice(e, name, args),
            "arg" => self.arg(e, name, args, asserted),
            _ => self.user_or_host(e, name, name_span, args, asserted),
        }
    }

    /// Reports an argument of `name` that is not an array.
    fn not_array(&mut self, a: Expr<'_>, f: &Format, name: &str) -> Option<Typed> {
        self.error(
            Diagnostic::error(
                OPERAND_FORMAT,
                a.span(),
                format!("`{name}` needs an ARRAY, not {f}"),
            )
            .with_label(format!("this is {f}"))
            .with_help("pass an ARRAY[...] variable"),
        );
        None
    }

    /// `slice(array, start[, end])`; literal bounds are checked here.
    fn slice(&mut self, e: Expr<'a>, name: &str, args: Args<'a>) -> Option<Typed> {
        if !(2..=3).contains(&args.len()) {
            self.arity(e.span(), name, "2 or 3 arguments", args.len());
            return None;
        }
        let (a, rest) = args.split_first()?;
        let at = self.expr(a, None);
        let bounds = self.number_args(name, rest);
        // Literal bounds are checked now (reference: at semantics time).
        let lits: Vec<Option<Result<Number, ()>>> = rest.iter().map(literal_number).collect();
        let mut bad = false;
        for (x, lit) in rest.iter().zip(&lits) {
            if let Some(l) = lit {
                let ok = matches!(l, Ok(n) if n.is_integer() && !n.is_negative());
                if !ok {
                    bad = true;
                    self.error(
                        Diagnostic::error(
                            INVALID_ARGUMENT,
                            x.span(),
                            "a slice bound must be a whole number, 0 or more",
                        )
                        .with_label("not a valid bound")
                        .with_help("write a whole number such as `0` or `2`"),
                    );
                }
            }
        }
        if let [Some(Ok(s)), Some(Ok(en))] = lits.as_slice() {
            if !bad && s >= en {
                bad = true;
                let msg = if s == en {
                    "this slice is always empty (start equals end)"
                } else {
                    "the slice starts after it ends"
                };
                self.error(
                    Diagnostic::error(INVALID_ARGUMENT, e.span(), msg)
                        .with_label("start must be below end")
                        .with_help("the end is exclusive: `slice(x,1,3)` takes items 1 and 2"),
                );
            }
        }
        let at = at?;
        if !matches!(at.format, Format::Array(_)) {
            return self.not_array(a, &at.format, name);
        }
        let mut bounds = bounds?.into_iter();
        if bad {
            return None;
        }
        let start = bounds.next()?;
        let end = bounds.next().map(Box::new);
        Some(Typed {
            format: at.format,
            node: Val::Slice(Box::new(at.node), Box::new(start), end, e.span()),
        })
    }
}

/// `name` lower-cased into `buf`, or `""` when it is longer than `buf` or not ASCII.
pub(super) fn lower_short<'b>(name: &str, buf: &'b mut [u8; 16]) -> &'b str {
    let Some(dst) = buf.get_mut(..name.len()) else {
        return "";
    };
    for (d, s) in dst.iter_mut().zip(name.bytes()) {
        *d = s.to_ascii_lowercase();
    }
    std::str::from_utf8(dst).unwrap_or("")
}
