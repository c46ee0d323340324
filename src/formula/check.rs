//! Checking: infer and verify the format of every node against an environment the caller
//! implements, once, and compile the formula (see [`check`]).

use super::ast::{BinaryOp, Expr, ExprKind, Formula, UnaryOp};
use super::compile::{Bool, CmpOp, CompiledFormula, Num, NumFn, NumOp, Val};
use super::format::Format;
use super::function::{BUILTINS, UserFunction, arg_index};
use super::number::Number;
use super::value::Value;
use crate::diagnostic::{Code, Diagnostic};
use crate::name::{Name, closest};
use crate::source::Span;

/// A name that is neither a variable in scope nor a format-less word.
pub const UNKNOWN_VARIABLE: Code = Code {
    id: "F0101",
    name: "unknown-variable",
};
/// A call of a function that does not exist.
pub const UNKNOWN_FUNCTION: Code = Code {
    id: "F0102",
    name: "unknown-function",
};
/// A call with the wrong number of arguments.
pub const WRONG_ARITY: Code = Code {
    id: "F0103",
    name: "wrong-arity",
};
/// An operator or function applied to operands of the wrong format.
pub const OPERAND_FORMAT: Code = Code {
    id: "F0104",
    name: "operand-format-mismatch",
};
/// The formula's result has another format than the one required.
pub const RESULT_FORMAT: Code = Code {
    id: "F0105",
    name: "result-format-mismatch",
};
/// A quoted literal that cannot be read as the format required where it stands.
pub const INVALID_LITERAL: Code = Code {
    id: "F0106",
    name: "invalid-literal",
};
/// A literal argument that a function rejects (`arg`, `slice`, host functions).
pub const INVALID_ARGUMENT: Code = Code {
    id: "F0107",
    name: "invalid-argument",
};
/// `value()` where there is no running value.
pub const NO_INPUT: Code = Code {
    id: "F0108",
    name: "no-input-format",
};
/// An empty formula.
pub const EMPTY_FORMULA: Code = Code {
    id: "F0109",
    name: "empty-formula",
};
/// `name[i]` on a variable that is not an array.
pub const NOT_AN_ARRAY: Code = Code {
    id: "F0110",
    name: "not-an-array",
};
/// A user function that calls itself (directly or through others).
pub const RECURSIVE_FUNCTION: Code = Code {
    id: "F0111",
    name: "recursive-function",
};
/// A number literal beyond the NUMBER range.
pub const NUMBER_OUT_OF_RANGE: Code = Code {
    id: "F0112",
    name: "number-out-of-range",
};

/// User functions that call each other so often the formula would become too large.
pub const FUNCTION_EXPANSION_TOO_LARGE: Code = Code {
    id: "F0113",
    name: "function-expansion-too-large",
};

/// A formula nested more deeply than any real formula (and than the stack allows).
pub const FORMULA_TOO_DEEP: Code = Code {
    id: "F0114",
    name: "formula-too-deep",
};

/// The deepest nesting checked (parentheses, operators and expanded user functions).
const MAX_DEPTH: usize = 100;

/// How many user-function calls one formula may expand (each call inlines the body).
const MAX_EXPANSIONS: usize = 10_000;

/// An opaque handle for a variable, chosen by the caller's [`CheckEnv`] and handed back to
/// its [`ValueEnv`](super::ValueEnv).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarRef(pub u32);

/// An opaque handle for a host function (input, lookup, get, getFact, …), chosen by the
/// caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HostFnRef(pub u32);

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
    pub name: &'a Name,
    /// Span of the name.
    pub name_span: Span,
    /// Span of the whole call.
    pub span: Span,
    /// The arguments, unchecked.
    pub args: &'a [Expr],
}

impl HostCall<'_> {
    /// The literal text of argument `i` when it is a bare word or a quoted string.
    pub fn literal(&self, i: usize) -> Option<&str> {
        match &self.args.get(i)?.kind {
            ExprKind::Variable(n) => Some(n.as_str()),
            ExprKind::String(s) => Some(s),
            _ => None,
        }
    }
}

/// The names a formula may use, implemented by the caller (the loader resolves names by
/// scope). Built-in functions are not part of it.
pub trait CheckEnv {
    /// The variable called `name` (any case) and its format.
    fn variable(&self, name: &Name) -> Option<(VarRef, Format)>;

    /// The user or host function called `name` (any case).
    fn function(&self, name: &Name) -> Option<FunctionRef<'_>> {
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
    fn variable(&self, _name: &Name) -> Option<(VarRef, Format)> {
        None
    }
}

/// Checks `formula` and compiles it.
///
/// * `asserted`: the format the result must have (the variable's format for MODIFY);
/// * `input`: the format of `value()` (the running value), or `None` where there is none.
///
/// Every problem is reported (unknown names with "did you mean", arity, operand and result
/// formats, invalid literals), each on the offending span.
pub fn check(
    formula: &Formula,
    env: &dyn CheckEnv,
    asserted: &Format,
    input: Option<&Format>,
) -> Result<CompiledFormula, Vec<Diagnostic>> {
    check_with_args(formula, env, asserted, input, None)
}

/// Like [`check`], with `arg(n)` available at top level and reading `args` (used to test
/// user-function bodies; the conformance vectors' `args`).
pub fn check_with_args(
    formula: &Formula,
    env: &dyn CheckEnv,
    asserted: &Format,
    input: Option<&Format>,
    args: Option<&[Expr]>,
) -> Result<CompiledFormula, Vec<Diagnostic>> {
    let mut c = Checker {
        env,
        input,
        diags: Vec::new(),
        deps: Vec::new(),
        frames: Vec::new(),
        current: None,
        expanding: Vec::new(),
        uses_input: false,
        expansions: 0,
        depth: 0,
        too_deep: false,
    };
    if let Some(args) = args {
        c.frames.push(Frame {
            args,
            parent: None,
            call_span: formula.span,
            function: None,
            expanding_len: 0,
        });
        c.current = Some(0);
    }
    let Some(root) = &formula.root else {
        return Err(vec![
            Diagnostic::error(EMPTY_FORMULA, formula.span, "the formula is empty")
                .with_label("a formula is needed here")
                .with_help(format!("write a {asserted} formula, e.g. `0`")),
        ]);
    };
    // Like the reference, the formula's own format is not asserted while checking its top
    // level (so a quoted literal there is always a STRING).
    let typed = c.expr(root, None);
    if let Some(t) = &typed {
        if &t.format != asserted {
            c.diags.push(
                Diagnostic::error(
                    RESULT_FORMAT,
                    root.span,
                    format!("this formula is {} but {asserted} is required", t.format),
                )
                .with_label(format!("this is {}", t.format))
                .with_help(result_help(&t.format, asserted, root)),
            );
        }
    }
    match typed {
        Some(t) if c.diags.is_empty() => {
            let mut deps = c.deps;
            let mut seen = std::collections::HashSet::new();
            deps.retain(|d| seen.insert(*d));
            let root = super::compile::optimize(t.node);
            Ok(CompiledFormula {
                fast: super::compile::Fast::of(&root),
                root,
                format: t.format,
                dependencies: deps,
                span: formula.span,
                uses_input: c.uses_input,
            })
        }
        _ => {
            if c.diags.is_empty() {
                c.diags.push(Diagnostic::error(
                    RESULT_FORMAT,
                    root.span,
                    "the formula could not be checked",
                ));
            }
            Err(c.diags)
        }
    }
}

fn result_help(found: &Format, asserted: &Format, root: &Expr) -> String {
    if matches!(root.kind, ExprKind::String(_)) {
        return format!(
            "a quoted literal is a STRING; write the {asserted} value without quotes where the token takes a value"
        );
    }
    match (found, asserted) {
        (Format::Boolean, Format::Number) => {
            "turn the condition into a number with `if(condition,1,0)`".into()
        }
        (Format::Number, Format::Boolean) => {
            "compare the number to get a BOOLEAN, e.g. `x>0`".into()
        }
        _ => format!("the result must be {asserted}; change the formula or the variable's format"),
    }
}

/// A checked node.
struct Typed {
    format: Format,
    node: Val,
}

struct Frame<'a> {
    args: &'a [Expr],
    parent: Option<usize>,
    call_span: Span,
    function: Option<Name>,
    /// Length of the expansion stack before this call: its arguments are checked with the
    /// caller's stack.
    expanding_len: usize,
}

struct Checker<'a> {
    env: &'a dyn CheckEnv,
    input: Option<&'a Format>,
    diags: Vec<Diagnostic>,
    deps: Vec<VarRef>,
    frames: Vec<Frame<'a>>,
    current: Option<usize>,
    expanding: Vec<Name>,
    uses_input: bool,
    expansions: usize,
    depth: usize,
    too_deep: bool,
}

fn num_node(v: Val, span: Span) -> Num {
    match v {
        Val::Num(n) => n,
        other => Num::Val(Box::new(other), span),
    }
}

fn bool_node(v: Val, span: Span) -> Bool {
    match v {
        Val::Bool(b) => b,
        other => Bool::Val(Box::new(other), span),
    }
}

impl<'a> Checker<'a> {
    fn error(&mut self, d: Diagnostic) {
        let d = match self.current.and_then(|i| self.frames.get(i)) {
            Some(f) if f.function.is_some() => {
                let name = f
                    .function
                    .clone()
                    .map(|n| n.to_string())
                    .unwrap_or_default();
                d.with_secondary(f.call_span, format!("in this call of `{name}`"))
            }
            _ => d,
        };
        self.diags.push(d);
    }

    fn expr(&mut self, e: &'a Expr, asserted: Option<&Format>) -> Option<Typed> {
        if self.depth >= MAX_DEPTH {
            if !self.too_deep {
                self.too_deep = true;
                self.error(
                    Diagnostic::error(
                        FORMULA_TOO_DEEP,
                        e.span,
                        format!("the formula nests more than {MAX_DEPTH} levels deep"),
                    )
                    .with_label("nested too deeply from here")
                    .with_help("split the formula with helper variables"),
                );
            }
            return None;
        }
        self.depth += 1;
        let r = self.expr_inner(e, asserted);
        self.depth -= 1;
        r
    }

    fn expr_inner(&mut self, e: &'a Expr, asserted: Option<&Format>) -> Option<Typed> {
        match &e.kind {
            ExprKind::Number(text) => match Number::parse_literal(text) {
                Some(Ok(n)) => Some(Typed {
                    format: Format::Number,
                    node: Val::Num(Num::Const(n)),
                }),
                _ => {
                    self.error(
                        Diagnostic::error(
                            NUMBER_OUT_OF_RANGE,
                            e.span,
                            format!("`{text}` is too large for a NUMBER"),
                        )
                        .with_label("out of range")
                        .with_help("NUMBERs hold about 28 significant digits"),
                    );
                    None
                }
            },
            ExprKind::String(text) => match asserted {
                Some(f) if *f != Format::String => match f.parse_value(text) {
                    Ok(v) => Some(Typed {
                        format: f.clone(),
                        node: const_node(v),
                    }),
                    Err(msg) => {
                        self.error(
                            Diagnostic::error(
                                INVALID_LITERAL,
                                e.span,
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
            },
            ExprKind::Variable(name) => {
                let (var, format) = self.variable(name, e.span)?;
                self.deps.push(var);
                let node = match format {
                    Format::Number => Val::Num(Num::Var(var, e.span)),
                    Format::Boolean => Val::Bool(Bool::Var(var, e.span)),
                    _ => Val::Var(var, e.span),
                };
                Some(Typed { format, node })
            }
            ExprKind::Index {
                name,
                name_span,
                index,
            } => {
                let var = self.variable(name, *name_span);
                let idx = self.expr(index, Some(&Format::Number));
                let idx = idx.and_then(|t| self.want(t, &Format::Number, index, "an array index"));
                let (var, format) = var?;
                let item = match format {
                    Format::Array(item) => *item,
                    other => {
                        self.error(
                            Diagnostic::error(
                                NOT_AN_ARRAY,
                                *name_span,
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
                    Box::new(Val::Var(var, *name_span)),
                    Box::new(num_node(idx?, index.span)),
                    e.span,
                );
                Some(wrap(item, node, e.span))
            }
            ExprKind::Unary { op, operand } => {
                let t = self.expr(operand, asserted)?;
                let (want, what) = match op {
                    UnaryOp::Neg => (Format::Number, "`-` needs a NUMBER"),
                    UnaryOp::Not => (Format::Boolean, "`!` needs a BOOLEAN"),
                };
                let t = self.operand(t, &want, operand, op.symbol(), what)?;
                Some(match op {
                    UnaryOp::Neg => {
                        let n = num_node(t.node, operand.span);
                        let node = match n {
                            Num::Const(c) => match c.checked_neg() {
                                Ok(r) => Num::Const(r),
                                Err(_) => Num::Neg(Box::new(Num::Const(c)), e.span),
                            },
                            n => Num::Neg(Box::new(n), e.span),
                        };
                        Typed {
                            format: Format::Number,
                            node: Val::Num(node),
                        }
                    }
                    UnaryOp::Not => Typed {
                        format: Format::Boolean,
                        node: Val::Bool(Bool::Not(Box::new(bool_node(t.node, operand.span)))),
                    },
                })
            }
            ExprKind::Paren(x) => self.expr(x, asserted),
            ExprKind::Binary { .. } => self.binary(e, asserted),
            ExprKind::Call {
                name,
                name_span,
                args,
            } => self.call(e, name, *name_span, args, asserted),
        }
    }

    fn variable(&mut self, name: &Name, span: Span) -> Option<(VarRef, Format)> {
        if let Some(v) = self.env.variable(name) {
            return Some(v);
        }
        let names = self.env.variable_names();
        let suggestion = closest(name.as_str(), names.iter().map(Name::as_str));
        let mut d = Diagnostic::error(UNKNOWN_VARIABLE, span, format!("unknown variable `{name}`"))
            .with_label("no variable of this name is visible here");
        d = match suggestion {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None if name.is("true") || name.is("false") => d.with_help(
                "there are no boolean literals; compare instead, e.g. `1==1`, or define the variable",
            ),
            None if name.as_str().contains('=') => d.with_help(format!(
                "`{name}` is read as one variable name; equality is `==`"
            )),
            None => d.with_help("define the variable (DEFINE / LOCAL) or fix the name"),
        };
        self.error(d);
        None
    }

    /// Checks that `t` has format `want` (for an operand of `op`).
    fn operand(
        &mut self,
        t: Typed,
        want: &Format,
        at: &Expr,
        op: &str,
        what: &str,
    ) -> Option<Typed> {
        if &t.format == want {
            return Some(t);
        }
        self.error(
            Diagnostic::error(
                OPERAND_FORMAT,
                at.span,
                format!("`{op}` cannot take a {}", t.format),
            )
            .with_label(format!("this is {}", t.format))
            .with_help(what.to_owned()),
        );
        None
    }

    /// Checks that `t` has format `want` (an argument), returning its node.
    fn want(&mut self, t: Typed, want: &Format, at: &Expr, what: &str) -> Option<Val> {
        if &t.format == want {
            return Some(t.node);
        }
        self.error(
            Diagnostic::error(
                OPERAND_FORMAT,
                at.span,
                format!("{what} must be {want}, not {}", t.format),
            )
            .with_label(format!("this is {}", t.format))
            .with_help(format!("give a {want} here")),
        );
        None
    }

    /// Checks a binary node. The left spine of nested binary nodes (`a+b+c+…`, as long as
    /// the data makes it) is walked with a loop, not recursion, so very long formulas
    /// cannot overflow the stack.
    fn binary(&mut self, e: &'a Expr, asserted: Option<&Format>) -> Option<Typed> {
        // spine[0] is `e`; spine[i+1] is the left operand of spine[i].
        let mut spine: Vec<(&'a Expr, BinaryOp, Span, &'a Expr, Option<Format>)> = Vec::new();
        let mut cur = e;
        let mut cur_asserted = asserted.cloned();
        while let ExprKind::Binary {
            op,
            op_span,
            lhs,
            rhs,
        } = &cur.kind
        {
            // Arithmetic passes the asserted format down; the others clear it (reference).
            let down = if is_arithmetic(*op) {
                cur_asserted.clone()
            } else {
                None
            };
            spine.push((cur, *op, *op_span, &**rhs, down.clone()));
            cur = lhs;
            cur_asserted = down;
        }
        let mut acc = self.expr(cur, cur_asserted.as_ref());
        let mut lhs_span = cur.span;
        for (node, op, op_span, rhs, down) in spine.into_iter().rev() {
            let r = self.expr(rhs, down.as_ref());
            acc = match (acc, r) {
                (Some(l), Some(r)) => self.combine(node, op, op_span, l, lhs_span, r, rhs.span),
                _ => None,
            };
            lhs_span = node.span;
        }
        acc
    }

    /// The node `l op r` (both checked).
    #[allow(clippy::too_many_arguments)]
    fn combine(
        &mut self,
        e: &'a Expr,
        op: BinaryOp,
        op_span: Span,
        l: Typed,
        lhs_span: Span,
        r: Typed,
        rhs_span: Span,
    ) -> Option<Typed> {
        let arithmetic = is_arithmetic(op);
        let mismatch = |c: &mut Self, help: &str| {
            c.error(
                Diagnostic::error(
                    OPERAND_FORMAT,
                    op_span,
                    format!(
                        "`{}` cannot take {} and {}",
                        op.symbol(),
                        l.format,
                        r.format
                    ),
                )
                .with_label(format!("{} {} {}", l.format, op.symbol(), r.format))
                .with_secondary(lhs_span, format!("{}", l.format))
                .with_secondary(rhs_span, format!("{}", r.format))
                .with_help(help.to_owned()),
            );
            None
        };
        match op {
            BinaryOp::Add if l.format == Format::String && r.format == Format::String => {
                Some(Typed {
                    format: Format::String,
                    node: Val::Concat(Box::new(l.node), Box::new(r.node)),
                })
            }
            _ if arithmetic => {
                if l.format != Format::Number || r.format != Format::Number {
                    let help = if op == BinaryOp::Add {
                        "`+` adds two NUMBERs or joins two STRINGs"
                    } else {
                        "arithmetic needs NUMBERs on both sides"
                    };
                    return mismatch(self, help);
                }
                let nop = match op {
                    BinaryOp::Add => NumOp::Add,
                    BinaryOp::Sub => NumOp::Sub,
                    BinaryOp::Mul => NumOp::Mul,
                    BinaryOp::Div => NumOp::Div,
                    BinaryOp::Rem => NumOp::Rem,
                    _ => NumOp::Pow,
                };
                let a = num_node(l.node, lhs_span);
                let b = num_node(r.node, rhs_span);
                Some(Typed {
                    format: Format::Number,
                    node: Val::Num(super::compile::chain(nop, a, b, e.span)),
                })
            }
            BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => {
                if l.format != Format::Number || r.format != Format::Number {
                    return mismatch(self, "`<`, `>`, `<=` and `>=` compare two NUMBERs");
                }
                let cop = match op {
                    BinaryOp::Lt => CmpOp::Lt,
                    BinaryOp::Gt => CmpOp::Gt,
                    BinaryOp::Le => CmpOp::Le,
                    _ => CmpOp::Ge,
                };
                Some(Typed {
                    format: Format::Boolean,
                    node: Val::Bool(Bool::Cmp(
                        cop,
                        Box::new(num_node(l.node, lhs_span)),
                        Box::new(num_node(r.node, rhs_span)),
                    )),
                })
            }
            BinaryOp::Eq | BinaryOp::Ne => {
                if l.format != r.format {
                    return mismatch(self, "`==` and `!=` compare two values of the same format");
                }
                let negate = op == BinaryOp::Ne;
                let node = if l.format == Format::Number {
                    Bool::NumEq(
                        negate,
                        Box::new(num_node(l.node, lhs_span)),
                        Box::new(num_node(r.node, rhs_span)),
                    )
                } else {
                    Bool::Eq(negate, Box::new(l.node), Box::new(r.node))
                };
                Some(Typed {
                    format: Format::Boolean,
                    node: Val::Bool(node),
                })
            }
            BinaryOp::And | BinaryOp::Or => {
                if l.format != Format::Boolean || r.format != Format::Boolean {
                    return mismatch(self, "`&&` and `||` combine two BOOLEANs");
                }
                let a = Box::new(bool_node(l.node, lhs_span));
                let b = Box::new(bool_node(r.node, rhs_span));
                Some(Typed {
                    format: Format::Boolean,
                    node: Val::Bool(if op == BinaryOp::And {
                        Bool::And(a, b)
                    } else {
                        Bool::Or(a, b)
                    }),
                })
            }
            _ => mismatch(self, "unsupported operator"),
        }
    }

    fn arity(&mut self, span: Span, name: &Name, expected: &str, got: usize) {
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
    fn number_args(&mut self, name: &Name, args: &'a [Expr]) -> Option<Vec<Num>> {
        let mut out = Vec::with_capacity(args.len());
        let mut ok = true;
        for a in args {
            match self.expr(a, Some(&Format::Number)) {
                Some(t) => {
                    match self.want(t, &Format::Number, a, &format!("an argument of `{name}`")) {
                        Some(v) => out.push(num_node(v, a.span)),
                        None => ok = false,
                    }
                }
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn call(
        &mut self,
        e: &'a Expr,
        name: &Name,
        name_span: Span,
        args: &'a [Expr],
        asserted: Option<&Format>,
    ) -> Option<Typed> {
        let lower = name.as_str().to_ascii_lowercase();
        let n = args.len();
        let number = |node: Num| Typed {
            format: Format::Number,
            node: Val::Num(node),
        };
        match lower.as_str() {
            "abs" | "ceil" | "floor" | "round" => {
                if n != 1 {
                    self.arity(e.span, name, "1 argument", n);
                    return None;
                }
                let mut xs = self.number_args(name, args)?;
                let x = xs.pop()?;
                let f = match lower.as_str() {
                    "abs" => NumFn::Abs,
                    "ceil" => NumFn::Ceil,
                    "floor" => NumFn::Floor,
                    _ => NumFn::Round,
                };
                Some(number(Num::Fn1(f, Box::new(x), e.span)))
            }
            "max" | "min" => {
                if n < 2 {
                    self.arity(e.span, name, "at least 2 arguments", n);
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
                let [c, t, f] = args else {
                    self.arity(e.span, name, "3 arguments", n);
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
                            e.span,
                            format!(
                                "the branches of `if` differ: {} and {}",
                                tt.format, ft.format
                            ),
                        )
                        .with_label("branches of different formats")
                        .with_secondary(t.span, format!("{}", tt.format))
                        .with_secondary(f.span, format!("{}", ft.format))
                        .with_help("both branches of `if` must have the same format"),
                    );
                    return None;
                }
                let cond = Box::new(bool_node(ct, c.span));
                let node = match tt.format {
                    Format::Number => Val::Num(Num::If(
                        cond,
                        Box::new(num_node(tt.node, t.span)),
                        Box::new(num_node(ft.node, f.span)),
                    )),
                    Format::Boolean => Val::Bool(Bool::If(
                        cond,
                        Box::new(bool_node(tt.node, t.span)),
                        Box::new(bool_node(ft.node, f.span)),
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
                    self.arity(e.span, name, "no arguments", n);
                    return None;
                }
                let Some(f) = self.input else {
                    self.error(
                        Diagnostic::error(NO_INPUT, e.span, "`value()` has no running value here")
                            .with_label("no input value")
                            .with_help("`value()` is the running value of a MODIFY; it cannot be used here"),
                    );
                    return None;
                };
                self.uses_input = true;
                Some(if *f == Format::Number {
                    number(Num::Input(e.span))
                } else {
                    wrap(f.clone(), Val::Input(e.span), e.span)
                })
            }
            "length" | "isempty" => {
                let [a] = args else {
                    self.arity(e.span, name, "1 argument", n);
                    return None;
                };
                let at = self.expr(a, None)?;
                if !matches!(at.format, Format::Array(_)) {
                    return self.not_array(a, &at.format, name);
                }
                let arr = Box::new(at.node);
                Some(if lower == "length" {
                    number(Num::Val(Box::new(Val::Length(arr, e.span)), e.span))
                } else {
                    Typed {
                        format: Format::Boolean,
                        node: Val::Bool(Bool::Val(Box::new(Val::IsEmpty(arr, e.span)), e.span)),
                    }
                })
            }
            "ispresent" | "getoptional" => {
                let [a] = args else {
                    self.arity(e.span, name, "1 argument", n);
                    return None;
                };
                let at = self.expr(a, None)?;
                let Format::Optional(inner) = at.format else {
                    self.error(
                        Diagnostic::error(
                            OPERAND_FORMAT,
                            a.span,
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
                        node: Val::Bool(Bool::Val(Box::new(Val::IsPresent(o, e.span)), e.span)),
                    }
                } else {
                    wrap(*inner, Val::GetOptional(o, e.span), e.span)
                })
            }
            "slice" => self.slice(e, name, args),
            "arg" => self.arg(e, name, args, asserted),
            _ => self.user_or_host(e, name, name_span, args, asserted),
        }
    }

    fn not_array(&mut self, a: &Expr, f: &Format, name: &Name) -> Option<Typed> {
        self.error(
            Diagnostic::error(
                OPERAND_FORMAT,
                a.span,
                format!("`{name}` needs an ARRAY, not {f}"),
            )
            .with_label(format!("this is {f}"))
            .with_help("pass an ARRAY[...] variable"),
        );
        None
    }

    fn slice(&mut self, e: &'a Expr, name: &Name, args: &'a [Expr]) -> Option<Typed> {
        if !(2..=3).contains(&args.len()) {
            self.arity(e.span, name, "2 or 3 arguments", args.len());
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
                            x.span,
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
                    Diagnostic::error(INVALID_ARGUMENT, e.span, msg)
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
            node: Val::Slice(Box::new(at.node), Box::new(start), end, e.span),
        })
    }

    fn arg(
        &mut self,
        e: &'a Expr,
        name: &Name,
        args: &'a [Expr],
        asserted: Option<&Format>,
    ) -> Option<Typed> {
        let Some(fi) = self.current else {
            self.error(
                Diagnostic::error(
                    UNKNOWN_FUNCTION,
                    e.span,
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
                self.arity(e.span, name, "1 argument", args.len());
                return None;
            }
            Some(Err(())) => {
                self.error(
                    Diagnostic::error(
                        INVALID_ARGUMENT,
                        args.first().map_or(e.span, |a| a.span),
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
                e.span,
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

    fn user_or_host(
        &mut self,
        e: &'a Expr,
        name: &Name,
        name_span: Span,
        args: &'a [Expr],
        asserted: Option<&Format>,
    ) -> Option<Typed> {
        let env = self.env;
        match env.function(name) {
            Some(FunctionRef::User(f)) => {
                if args.len() != f.arity {
                    let expected = format!(
                        "{} argument{}",
                        f.arity,
                        if f.arity == 1 { "" } else { "s" }
                    );
                    self.arity(e.span, name, &expected, args.len());
                    return None;
                }
                if self.expanding.contains(&f.name) {
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
                            .with_help(
                                "user functions nest too deeply here; simplify the functions",
                            ),
                        );
                    }
                    return None;
                }
                let Some(body) = &f.body.root else {
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
                self.frames.push(Frame {
                    args,
                    parent: self.current,
                    call_span: e.span,
                    function: Some(f.name.clone()),
                    expanding_len: self.expanding.len(),
                });
                let saved = self.current;
                self.current = Some(self.frames.len() - 1);
                self.expanding.push(f.name.clone());
                let r = self.expr(body, asserted);
                self.expanding.pop();
                self.current = saved;
                r
            }
            Some(FunctionRef::Host(h)) => {
                let call = HostCall {
                    name,
                    name_span,
                    span: e.span,
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
                    self.arity(e.span, name, &expected, args.len());
                    return None;
                }
                let mut nodes = Vec::with_capacity(args.len());
                let mut ok = true;
                for (a, p) in args.iter().zip(&sig.params) {
                    match p {
                        HostParam::Name => match call_literal(a) {
                            Some(s) => nodes.push(Val::Const(Value::string(s))),
                            None => {
                                ok = false;
                                self.error(
                                    Diagnostic::error(
                                        INVALID_ARGUMENT,
                                        a.span,
                                        format!("`{name}` needs a name here"),
                                    )
                                    .with_label("not a name")
                                    .with_help("write the name itself, not a formula"),
                                );
                            }
                        },
                        HostParam::Value(f) => {
                            match self.expr(a, Some(f)).and_then(|t| {
                                self.want(t, f, a, &format!("an argument of `{name}`"))
                            }) {
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
                Some(wrap(sig.result, Val::Host(h, nodes, e.span), e.span))
            }
            None => {
                let mut names: Vec<Name> = env.function_names();
                names.extend(
                    BUILTINS
                        .iter()
                        .filter(|b| **b != "arg")
                        .map(|b| Name::new(b)),
                );
                let suggestion =
                    closest(name.as_str(), names.iter().map(Name::as_str)).map(str::to_owned);
                let help = match suggestion {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => {
                        "define it with FUNCTION:name and VALUE:formula, or fix the name".into()
                    }
                };
                self.error(
                    Diagnostic::error(
                        UNKNOWN_FUNCTION,
                        name_span,
                        format!("unknown function `{name}`"),
                    )
                    .with_label("no function of this name")
                    .with_help(help),
                );
                // Still check the arguments, to report their problems too.
                for a in args {
                    let _ = self.expr(a, None);
                }
                None
            }
        }
    }
}

fn is_arithmetic(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Add
            | BinaryOp::Sub
            | BinaryOp::Mul
            | BinaryOp::Div
            | BinaryOp::Rem
            | BinaryOp::Pow
    )
}

fn call_literal(a: &Expr) -> Option<&str> {
    match &a.kind {
        ExprKind::Variable(n) => Some(n.as_str()),
        ExprKind::String(s) => Some(s),
        _ => None,
    }
}

/// The value of a literal number argument (`3`, `-3`, `(3)`), `Err` for an out-of-range
/// literal, `None` when the argument is not a literal.
fn literal_number(e: &Expr) -> Option<Result<Number, ()>> {
    match &e.kind {
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

fn const_node(v: Value) -> Val {
    match v {
        Value::Number(n) => Val::Num(Num::Const(n)),
        Value::Boolean(b) => Val::Bool(Bool::Const(b)),
        other => Val::Const(other),
    }
}

/// A node of `format` built from a generic node.
fn wrap(format: Format, node: Val, span: Span) -> Typed {
    let node = match format {
        Format::Number => Val::Num(num_node(node, span)),
        Format::Boolean => Val::Bool(bool_node(node, span)),
        _ => node,
    };
    Typed { format, node }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::formula::ast::BinaryOp::*;

    fn run(env: &Env, root: Expr, f: &str) -> Result<String, Vec<&'static str>> {
        let fmt = Format::from_name(f).unwrap();
        match check(&formula(root), env, &fmt, None) {
            Ok(c) => c
                .eval(env, None)
                .map(|v| v.to_string())
                .map_err(|e| vec![e.code.id]),
            Err(ds) => Err(ds.iter().map(|d| d.code.id).collect()),
        }
    }

    #[test]
    fn arithmetic_and_functions() {
        let env = Env::default()
            .with("x", "NUMBER", "15")
            .with("y", "NUMBER", "4");
        // floor((x-10)/2)+if(y>3,1,2)*3
        let f = bin(
            Add,
            call(
                "floor",
                vec![bin(Div, bin(Sub, var("x"), num("10")), num("2"))],
            ),
            bin(
                Mul,
                call("IF", vec![bin(Gt, var("y"), num("3")), num("1"), num("2")]),
                num("3"),
            ),
        );
        assert_eq!(run(&env, f, "NUMBER"), Ok("5".into()));
        assert_eq!(
            run(&env, bin(Div, num("7"), num("2")), "NUMBER"),
            Ok("3.5".into())
        );
        assert_eq!(
            run(&env, bin(Div, num("1"), num("0")), "NUMBER"),
            Err(vec!["E0101"])
        );
        assert_eq!(
            run(&env, call("max", vec![num("1"), string("3")]), "NUMBER"),
            Ok("3".into())
        );
        assert_eq!(
            run(&env, call("round", vec![neg(num("2.5"))]), "NUMBER"),
            Ok("-2".into())
        );
    }

    #[test]
    fn reports_every_problem() {
        let env = Env::default()
            .with("Score", "NUMBER", "15")
            .with("b", "BOOLEAN", "true");
        let f = bin(
            Add,
            bin(Add, var("Scroe"), call("flor", vec![num("1")])),
            bin(Mul, var("b"), num("2")),
        );
        assert_eq!(run(&env, f, "NUMBER"), Err(vec!["F0101", "F0102", "F0104"]));
        assert_eq!(run(&env, num("1"), "BOOLEAN"), Err(vec!["F0105"]));
        assert_eq!(run(&env, string("1.5"), "NUMBER"), Err(vec!["F0105"]));
        assert_eq!(run(&env, call("abs", vec![]), "NUMBER"), Err(vec!["F0103"]));
        assert_eq!(
            run(&env, call("value", vec![]), "NUMBER"),
            Err(vec!["F0108"])
        );
        assert_eq!(
            run(&env, index("Score", num("0")), "NUMBER"),
            Err(vec!["F0110"])
        );
        assert_eq!(
            run(&env, call("ceil", vec![string("ab")]), "NUMBER"),
            Err(vec!["F0106"])
        );
    }

    #[test]
    fn did_you_mean() {
        let env = Env::default().with("Score", "NUMBER", "15");
        let ds = check(&formula(var("Scroe")), &env, &Format::Number, None).unwrap_err();
        assert_eq!(ds[0].help.as_deref(), Some("did you mean `Score`?"));
        let ds = check(
            &formula(call("flor", vec![num("1")])),
            &env,
            &Format::Number,
            None,
        )
        .unwrap_err();
        assert_eq!(ds[0].help.as_deref(), Some("did you mean `floor`?"));
    }

    #[test]
    fn if_is_lazy_and_logic_is_not() {
        let env = Env::default().with("t", "BOOLEAN", "true");
        let boom = || bin(Rem, num("1"), num("0"));
        let f = call("if", vec![var("t"), num("5"), boom()]);
        assert_eq!(run(&env, f, "NUMBER"), Ok("5".into()));
        let f = bin(Or, var("t"), bin(Eq, boom(), num("0")));
        assert_eq!(run(&env, f, "BOOLEAN"), Err(vec!["E0101"]));
        let f = not(bin(Eq, var("t"), var("t")));
        assert_eq!(run(&env, f, "BOOLEAN"), Ok("false".into()));
    }

    #[test]
    fn user_functions_are_typed_macros() {
        let mut env = Env::default().with("x", "NUMBER", "14");
        let body = call(
            "floor",
            vec![bin(
                Div,
                bin(Sub, call("arg", vec![num("0")]), num("10")),
                num("2"),
            )],
        );
        env.functions
            .define(Name::new("d20Mod"), sp(), formula(body))
            .unwrap();
        let f = call("D20MOD", vec![var("x")]);
        let fmt = Format::Number;
        let c = check(&formula(f), &env, &fmt, None).unwrap();
        assert_eq!(c.dependencies(), &[VarRef(0)]);
        assert_eq!(c.eval(&env, None).unwrap().to_string(), "2");
        assert_eq!(
            run(&env, call("d20mod", vec![num("1"), num("2")]), "NUMBER"),
            Err(vec!["F0103"])
        );
        assert!(
            env.functions
                .define(Name::new("MAX"), sp(), formula(num("1")))
                .is_err()
        );
        // Recursion is reported, not expanded forever.
        env.functions
            .define(Name::new("loop"), sp(), formula(call("loop", vec![])))
            .unwrap();
        assert_eq!(
            run(&env, call("loop", vec![]), "NUMBER"),
            Err(vec!["F0111"])
        );
        // Doubling at each level would inline 2^40 bodies: stopped with one error.
        env.functions
            .define(Name::new("f0"), sp(), formula(num("1")))
            .unwrap();
        for i in 1..40 {
            let prev = format!("f{}", i - 1);
            let body = bin(Add, call(&prev, vec![]), call(&prev, vec![]));
            env.functions
                .define(Name::new(&format!("f{i}")), sp(), formula(body))
                .unwrap();
        }
        assert_eq!(run(&env, call("f39", vec![]), "NUMBER"), Err(vec!["F0113"]));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let env = Env::default();
        let mut f = num("1");
        for _ in 0..5000 {
            f = neg(f);
        }
        assert_eq!(run(&env, f, "NUMBER"), Err(vec!["F0114"]));
        let mut f = num("1");
        for _ in 0..90 {
            f = e(ExprKind::Paren(Box::new(f)));
        }
        assert_eq!(run(&env, f, "NUMBER"), Ok("1".into()));
    }

    #[test]
    fn arrays_and_optionals() {
        let env = Env::default()
            .with("x", "ARRAY[NUMBER]", "1,2,3")
            .with("o", "OPTIONAL[NUMBER]", "")
            .with("p", "OPTIONAL[NUMBER]", "3");
        assert_eq!(run(&env, index("x", num("2")), "NUMBER"), Ok("3".into()));
        assert_eq!(
            run(&env, index("x", num("3")), "NUMBER"),
            Err(vec!["E0104"])
        );
        assert_eq!(
            run(&env, index("x", num("1.5")), "NUMBER"),
            Err(vec!["E0105"])
        );
        assert_eq!(
            run(
                &env,
                call("slice", vec![var("x"), num("1")]),
                "ARRAY[NUMBER]"
            ),
            Ok("2,3".into())
        );
        assert_eq!(
            run(
                &env,
                call("slice", vec![var("x"), num("2"), num("2")]),
                "ARRAY[NUMBER]"
            ),
            Err(vec!["F0107"])
        );
        // Computed slice bounds are truncated like the reference's intValue().
        assert_eq!(
            run(
                &env,
                call("slice", vec![var("x"), bin(Div, num("3"), num("2"))]),
                "ARRAY[NUMBER]"
            ),
            Ok("2,3".into())
        );
        assert_eq!(
            run(&env, call("length", vec![var("x")]), "NUMBER"),
            Ok("3".into())
        );
        assert_eq!(
            run(&env, call("getOptional", vec![var("o")]), "NUMBER"),
            Err(vec!["E0106"])
        );
        assert_eq!(
            run(
                &env,
                bin(Add, call("getOptional", vec![var("p")]), num("1")),
                "NUMBER"
            ),
            Ok("4".into())
        );
        assert_eq!(
            run(&env, call("isPresent", vec![var("o")]), "BOOLEAN"),
            Ok("false".into())
        );
    }
}
