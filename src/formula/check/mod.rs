//! Checking: infer and verify the format of every node against an environment the caller
//! implements, once, and compile the formula (see [`check`]).
//!
//! The checker walks the syntax tree once, building the compiled node as it goes. Its parts:
//!
//! * `codes`: the `F01xx` diagnostic codes;
//! * `env`: what the caller provides ([`CheckEnv`], [`VarRef`], host-function types);
//! * this module: the entry points, the `Checker` state and the dispatch on the node kind;
//! * `literals`: number and quoted literals;
//! * `names`: variables and array indexing (`name[i]`);
//! * `operators`: unary and binary operators;
//! * `builtins`: calls of the built-in functions;
//! * `functions`: calls of the functions the environment knows (user functions, expanded
//!   in place, with `arg(n)`; host functions) and of unknown ones.

mod builtins;
mod codes;
mod env;
mod functions;
mod literals;
mod names;
mod operators;
#[cfg(test)]
mod tests;

pub use codes::{
    EMPTY_FORMULA, FORMULA_TOO_DEEP, FUNCTION_EXPANSION_TOO_LARGE, INVALID_ARGUMENT,
    INVALID_LITERAL, NO_INPUT, NOT_AN_ARRAY, NUMBER_OUT_OF_RANGE, OPERAND_FORMAT,
    RECURSIVE_FUNCTION, RESULT_FORMAT, UNKNOWN_FUNCTION, UNKNOWN_VARIABLE, WRONG_ARITY,
};
pub use env::{
    CheckEnv, EmptyEnv, FunctionRef, HostCall, HostFnRef, HostParam, HostSignature, VarRef,
};

use super::ast::{Args, BinaryOp, Expr, ExprKind, Formula};
use super::compile::CompiledFormula;
use super::format::Format;
use super::ir::{Bool, Num, Val, optimize};
use crate::diagnostic::Diagnostic;
use crate::name::Name;
use crate::source::Span;

/// The deepest nesting checked (parentheses, operators and expanded user functions).
const MAX_DEPTH: usize = 100;

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
    args: Option<&[Expr<'_>]>,
) -> Result<CompiledFormula, Vec<Diagnostic>> {
    let mut c = Checker {
        env,
        input,
        diags: Vec::new(),
        // Kept from one check to the next (see `DEPS`).
        deps: DEPS.take(),
        spine: SPINE.take(),
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
            args: Args::of(args),
            parent: None,
            call_span: formula.span,
            function: None,
            expanding_len: 0,
        });
        c.current = Some(0);
    }
    let Some(root) = formula.root() else {
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
                    root.span(),
                    format!("this formula is {} but {asserted} is required", t.format),
                )
                .with_label(format!("this is {}", t.format))
                .with_help(result_help(&t.format, asserted, root)),
            );
        }
    }
    let mut spine = std::mem::take(&mut c.spine);
    spine.clear();
    SPINE.set(spine);
    let mut deps = std::mem::take(&mut c.deps);
    let result = match typed {
        Some(t) if c.diags.is_empty() => {
            first_uses(&mut deps);
            Some(compiled(
                t.node,
                t.format,
                &deps,
                formula.span,
                c.uses_input,
            ))
        }
        _ => None,
    };
    deps.clear();
    if deps.capacity() <= KEPT_DEPS {
        DEPS.set(deps);
    }
    match result {
        Some(compiled) => Ok(compiled),
        None => {
            if c.diags.is_empty() {
                c.diags.push(Diagnostic::error(
                    RESULT_FORMAT,
                    root.span(),
                    "the formula could not be checked",
                ));
            }
            Err(c.diags)
        }
    }
}

/// The compiled formula of a checked tree (`root`) of `format` that reads `deps` (each
/// once, where it first appears: see [`first_uses`]) and spans `span`.
fn compiled(
    mut root: Val,
    format: Format,
    deps: &[VarRef],
    span: Span,
    uses_input: bool,
) -> CompiledFormula {
    optimize(&mut root);
    CompiledFormula {
        root,
        fast: std::sync::OnceLock::new(),
        format,
        dependencies: super::compile::Deps::of(deps),
        span,
        uses_input,
    }
}

/// `deps` without repeats, each where it first appears.
fn first_uses(deps: &mut Vec<VarRef>) {
    // Most formulas read a handful of variables: a scan of those kept beats anything else.
    if deps.len() > 4 {
        let max = deps.iter().map(|d| d.0 as usize).max().unwrap_or(0);
        // Handles below 512 (a small environment, or the first variables of a large one):
        // a bit per handle, on the stack.
        if max < 512 {
            retain_unseen(deps, &mut [0u64; 8]);
            return;
        }
        if deps.len() > 32 {
            return first_uses_many(deps, max);
        }
    }
    let mut kept = 0;
    for i in 0..deps.len() {
        let Some(d) = deps.get(i).copied() else { break };
        if !deps.get(..kept).is_some_and(|k| k.contains(&d)) {
            if let Some(slot) = deps.get_mut(kept) {
                *slot = d;
            }
            kept += 1;
        }
    }
    deps.truncate(kept);
}

/// [`first_uses`] of many variables whose largest handle is `max`.
fn first_uses_many(deps: &mut Vec<VarRef>, max: usize) {
    if max <= 64 * deps.len() + 4096 {
        // Handles no larger than a few dozen per variable read (the usual: indexes into the
        // environment's variables): a bit per handle, a few instructions per read.
        retain_unseen(deps, &mut vec![0u64; max / 64 + 1]);
    } else {
        let mut seen = crate::fxhash::FxHashSet::default();
        seen.reserve(deps.len());
        deps.retain(|d| seen.insert(*d));
    }
}

/// Keeps the first of each handle in `deps`, with `seen` (all clear) a bit per handle. The
/// word of the handles just read is kept in a register until a handle of another word
/// comes (variables defined together are usually read together): writing it back and
/// reading it again for each handle would make every step wait for the one before.
fn retain_unseen(deps: &mut Vec<VarRef>, seen: &mut [u64]) {
    let (mut at, mut bits) = (usize::MAX, 0u64);
    deps.retain(|d| {
        let (word, bit) = (d.0 as usize / 64, 1u64 << (d.0 % 64));
        if word != at {
            if let Some(w) = seen.get_mut(at) {
                *w = bits;
            }
            at = word;
            bits = seen.get(word).copied().unwrap_or(u64::MAX);
        }
        let first = bits & bit == 0;
        bits |= bit;
        first
    });
}

/// The help for a formula whose result is `found` where `asserted` is required.
fn result_help(found: &Format, asserted: &Format, root: Expr<'_>) -> String {
    if matches!(root.kind(), ExprKind::String(_)) {
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

/// Dependency buffers above this many variables are not kept for the next check.
const KEPT_DEPS: usize = 1 << 15;

thread_local! {
    /// The variables read by the last check on this thread, reused: the formula keeps its
    /// own copy (in place when there are a few), so most checks allocate nothing for them.
    static DEPS: std::cell::Cell<Vec<VarRef>> = const { std::cell::Cell::new(Vec::new()) };

    /// The binary-spine stack of the last check on this thread, reused (its allocation
    /// would otherwise be made and freed for every formula).
    static SPINE: std::cell::Cell<Vec<SpineEntry>> = const { std::cell::Cell::new(Vec::new()) };
}

/// One binary node on a left spine (see `operators`): the node's index, its operator and
/// operator span, its right operand's index, and whether that operand sees the asserted
/// format. Indexes, not views, so the stack can be kept from one formula to the next.
type SpineEntry = (u32, BinaryOp, Span, u32, bool);

/// A checked node.
struct Typed {
    format: Format,
    node: Val,
}

/// One expansion of a user function: its call's arguments, read by `arg(n)`.
struct Frame<'a> {
    args: Args<'a>,
    parent: Option<usize>,
    call_span: Span,
    function: Option<&'a Name>,
    /// Length of the expansion stack before this call: its arguments are checked with the
    /// caller's stack.
    expanding_len: usize,
}

/// The state of one check: the diagnostics so far, the variables read and the user
/// functions being expanded.
struct Checker<'a> {
    env: &'a dyn CheckEnv,
    input: Option<&'a Format>,
    diags: Vec<Diagnostic>,
    deps: Vec<VarRef>,
    /// The left spines of the binary nodes being checked (see `operators`).
    spine: Vec<SpineEntry>,
    frames: Vec<Frame<'a>>,
    current: Option<usize>,
    expanding: Vec<&'a Name>,
    uses_input: bool,
    expansions: usize,
    depth: usize,
    too_deep: bool,
}

/// `v` as a NUMBER node.
fn num_node(v: Val, span: Span) -> Num {
    match v {
        Val::Num(n) => n,
        other => Num::Val(Box::new(other), span),
    }
}

/// `v` as a BOOLEAN node.
fn bool_node(v: Val, span: Span) -> Bool {
    match v {
        Val::Bool(b) => b,
        other => Bool::Val(Box::new(other), span),
    }
}

impl<'a> Checker<'a> {
    /// Reports `d`, pointing also at the user-function call being expanded.
    fn error(&mut self, d: Diagnostic) {
        let d = match self.current.and_then(|i| self.frames.get(i)) {
            Some(f) if f.function.is_some() => {
                let name = f.function.map(|n| n.to_string()).unwrap_or_default();
                d.with_secondary(f.call_span, format!("in this call of `{name}`"))
            }
            _ => d,
        };
        self.diags.push(d);
    }

    /// Checks one node, stopping (with one error) beyond [`MAX_DEPTH`] levels.
    fn expr(&mut self, e: Expr<'a>, asserted: Option<&Format>) -> Option<Typed> {
        if self.depth >= MAX_DEPTH {
            if !self.too_deep {
                self.too_deep = true;
                self.error(
                    Diagnostic::error(
                        FORMULA_TOO_DEEP,
                        e.span(),
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

    /// Checks one node, by its kind.
    fn expr_inner(&mut self, e: Expr<'a>, asserted: Option<&Format>) -> Option<Typed> {
        match e.kind() {
            ExprKind::Number(text) => self.number(text, e.span()),
            ExprKind::String(text) => self.string(text, e.span(), asserted),
            ExprKind::Variable(name) => self.variable_node(name, e.span()),
            ExprKind::Index {
                name,
                name_span,
                index,
            } => self.index(e, name, name_span, index),
            ExprKind::Unary { op, operand } => self.unary(e, op, operand, asserted),
            ExprKind::Paren(x) => self.expr(x, asserted),
            ExprKind::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => self.binary(e, (op, op_span, lhs, rhs), asserted),
            ExprKind::Call {
                name,
                name_span,
                args,
            } => self.call(e, name, name_span, args, asserted),
        }
    }

    /// Checks that `t` has format `want` (an argument), returning its node.
    fn want(&mut self, t: Typed, want: &Format, at: Expr<'_>, what: &str) -> Option<Val> {
        if &t.format == want {
            return Some(t.node);
        }
        self.error(
            Diagnostic::error(
                OPERAND_FORMAT,
                at.span(),
                format!("{what} must be {want}, not {}", t.format),
            )
            .with_label(format!("this is {}", t.format))
            .with_help(format!("give a {want} here")),
        );
        None
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
