//! The compiled form of a checked formula: a tree specialised by format (NUMBER nodes
//! produce [`Number`]s, BOOLEAN nodes `bool`s, others [`Value`]s), so the hot paths never
//! build or match generic values. NUMBER and BOOLEAN trees are evaluated by a flat
//! register program (`program.rs`, generic over the caller's environment), which reports
//! its own errors on their spans; a tree of at most two operations on whole numbers is
//! first tried in its tiny form (`tiny.rs`: one `match`, no register file), which gives
//! way to the program on anything else. The tree interpreter here evaluates the other
//! formats, the trees a program cannot hold (host calls, deep nesting) and the values
//! beyond its registers, and is the oracle both are tested against.

use super::eval::{
    EMPTY_OPTIONAL, EvalError, INDEX_NOT_WHOLE, INDEX_OUT_OF_BOUNDS, MISSING_INPUT, NO_VALUE,
    SLICE_OUT_OF_RANGE, ValueEnv,
};
use super::format::Format;
use super::ir::{Bool, HostFnRef, Num, Val, VarRef, apply, compare};
use super::number::Number;
use super::value::Value;
use crate::source::Span;
use std::sync::Arc;

mod program;
mod tiny;
use program::{Program, Stop};
use tiny::Tiny;

pub(crate) type R<T> = Result<T, Box<EvalError>>;

/// How a formula is evaluated: a register program for NUMBER and BOOLEAN trees that fit
/// one (first as a tiny form, when the tree has one), the tree interpreter otherwise.
#[derive(Clone, Debug)]
pub(crate) enum Fast {
    /// A tiny form, and the form it gives way to.
    Tiny(Tiny, Box<Fast>),
    Num(Arc<Program>),
    Bool(Arc<Program>),
    Tree,
}

impl Fast {
    pub(crate) fn of(root: &Val) -> Fast {
        let (tiny, program) = match root {
            Val::Num(n) => (
                Tiny::of_num(n),
                Program::of_num(n).map(|p| Fast::Num(Arc::new(p))),
            ),
            Val::Bool(b) => (
                Tiny::of_bool(b),
                Program::of_bool(b).map(|p| Fast::Bool(Arc::new(p))),
            ),
            _ => (None, None),
        };
        let general = program.unwrap_or(Fast::Tree);
        match tiny {
            Some(t) => Fast::Tiny(t, Box::new(general)),
            None => general,
        }
    }

    /// The form under a tiny one.
    #[cfg(test)]
    pub(crate) fn general(&self) -> &Fast {
        match self {
            Fast::Tiny(_, f) => f,
            f => f,
        }
    }
}

/// A checked formula, ready to evaluate any number of times.
///
/// The register program is built from the typed tree on first evaluation, not at check: a
/// load checks every formula of a dataset, and `rulebook check` evaluates none of them.
#[derive(Clone)]
pub struct CompiledFormula {
    /// The typed tree, optimised.
    pub(crate) root: Val,
    pub(crate) fast: std::sync::OnceLock<Fast>,
    pub(crate) format: Format,
    pub(crate) dependencies: Deps,
    pub(crate) span: Span,
    pub(crate) uses_input: bool,
}

/// The variables a formula reads: up to four in place (most formulas; no allocation),
/// more in a vector.
#[derive(Clone)]
pub(crate) enum Deps {
    Few(u8, [VarRef; 4]),
    /// (A boxed slice: a vector would make the enum, and every compiled formula, larger.)
    Many(Box<[VarRef]>),
}

impl Deps {
    /// `deps` (each once, in order).
    pub(crate) fn of(deps: &[VarRef]) -> Deps {
        match deps {
            [] => Deps::Few(0, [VarRef(0); 4]),
            [a] => Deps::Few(1, [*a, VarRef(0), VarRef(0), VarRef(0)]),
            [a, b] => Deps::Few(2, [*a, *b, VarRef(0), VarRef(0)]),
            [a, b, c] => Deps::Few(3, [*a, *b, *c, VarRef(0)]),
            [a, b, c, d] => Deps::Few(4, [*a, *b, *c, *d]),
            more => Deps::Many(more.into()),
        }
    }

    pub(crate) fn as_slice(&self) -> &[VarRef] {
        match self {
            Deps::Few(n, vars) => vars.get(..usize::from(*n)).unwrap_or(&[]),
            Deps::Many(v) => v,
        }
    }
}

/// Printed as the list it holds.
impl std::fmt::Debug for Deps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// What evaluation reads: the caller's environment and the running value.
pub(crate) struct Ctx<'a> {
    pub(crate) env: &'a dyn ValueEnv,
    pub(crate) input: Option<&'a Value>,
}

impl<'a> Ctx<'a> {
    #[inline]
    fn new(env: &'a dyn ValueEnv, input: Option<&'a Value>) -> Self {
        Ctx { env, input }
    }
}

/// Printed with its typed tree.
impl std::fmt::Debug for CompiledFormula {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledFormula")
            .field("root", self.root())
            .field("format", &self.format)
            .field("dependencies", &self.dependencies)
            .field("span", &self.span)
            .field("uses_input", &self.uses_input)
            .finish()
    }
}

impl CompiledFormula {
    /// The typed tree.
    #[inline]
    pub(crate) fn root(&self) -> &Val {
        &self.root
    }

    /// The evaluation form, built on first use.
    #[inline]
    pub(crate) fn fast(&self) -> &Fast {
        self.fast.get_or_init(|| Fast::of(self.root()))
    }

    /// The format of the formula's result.
    pub fn format(&self) -> &Format {
        &self.format
    }

    /// Every variable the formula may read (both branches of every `if`, user function
    /// bodies included), each once, in order of first use.
    pub fn dependencies(&self) -> &[VarRef] {
        self.dependencies.as_slice()
    }

    /// True if the formula reads `value()`.
    pub fn uses_input(&self) -> bool {
        self.uses_input
    }

    /// Span of the formula text.
    pub fn span(&self) -> Span {
        self.span
    }

    /// How the formula is evaluated first: `"tiny"`, `"program"` (register program) or
    /// `"tree"`. For measurements (docs/performance.md), not behaviour.
    #[doc(hidden)]
    pub fn evaluation_form(&self) -> &'static str {
        match self.fast() {
            Fast::Tiny(..) => "tiny",
            Fast::Num(_) | Fast::Bool(_) => "program",
            Fast::Tree => "tree",
        }
    }

    /// Evaluates the formula. `input` is the running value read by `value()`.
    ///
    /// Generic over the environment so that NUMBER and BOOLEAN formulas read variables
    /// without a `dyn` call (a `&dyn ValueEnv` works too).
    #[inline]
    pub fn eval<E: ValueEnv + ?Sized>(
        &self,
        env: &E,
        input: Option<&Value>,
    ) -> Result<Value, EvalError> {
        let fast = match self.fast() {
            Fast::Tiny(t, general) => {
                if let Some(i) = t.number(env, input) {
                    return Ok(Value::Number(Number::Int(i)));
                }
                if let Some(b) = t.boolean(env, input) {
                    return Ok(Value::Boolean(b));
                }
                &**general
            }
            f => f,
        };
        let stop = match fast {
            Fast::Tiny(..) => Stop::Beyond,
            Fast::Num(p) => match p.number(env, input) {
                Ok(n) => return Ok(Value::Number(n)),
                Err(stop) => stop,
            },
            Fast::Bool(p) => match p.boolean(env, input) {
                Ok(b) => return Ok(Value::Boolean(b)),
                Err(stop) => stop,
            },
            Fast::Tree => Stop::Beyond,
        };
        match stop {
            Stop::Failed(e) => Err(self.finish(*e)),
            Stop::Beyond => self.eval_tree(env, input),
        }
    }

    /// Evaluates a NUMBER formula without building a [`Value`] (errors if the formula is not
    /// a NUMBER formula).
    #[inline]
    pub fn eval_number<E: ValueEnv + ?Sized>(
        &self,
        env: &E,
        input: Option<&Value>,
    ) -> Result<Number, EvalError> {
        let fast = match self.fast() {
            Fast::Tiny(t, general) => {
                if let Some(i) = t.number(env, input) {
                    return Ok(Number::Int(i));
                }
                &**general
            }
            f => f,
        };
        if let Fast::Num(p) = fast {
            match p.number(env, input) {
                Ok(n) => return Ok(n),
                Err(Stop::Failed(e)) => return Err(self.finish(*e)),
                Err(Stop::Beyond) => {}
            }
        }
        self.eval_number_tree(&DynEnv(env), input)
    }

    #[inline(never)]
    fn eval_number_tree(
        &self,
        env: &dyn ValueEnv,
        input: Option<&Value>,
    ) -> Result<Number, EvalError> {
        let cx = Ctx::new(env, input);
        let r = match self.root() {
            Val::Num(n) => cx.num(n),
            other => match cx.val(other) {
                Ok(Value::Number(n)) => Ok(n),
                Ok(v) => Err(Box::new(EvalError::new(
                    NO_VALUE,
                    format!("the formula is {}, not NUMBER", v.kind()),
                ))),
                Err(e) => Err(e),
            },
        };
        r.map_err(|e| self.finish(*e))
    }

    /// Evaluates a BOOLEAN formula without building a [`Value`].
    #[inline]
    pub fn eval_bool<E: ValueEnv + ?Sized>(
        &self,
        env: &E,
        input: Option<&Value>,
    ) -> Result<bool, EvalError> {
        let fast = match self.fast() {
            Fast::Tiny(t, general) => {
                if let Some(b) = t.boolean(env, input) {
                    return Ok(b);
                }
                &**general
            }
            f => f,
        };
        if let Fast::Bool(p) = fast {
            match p.boolean(env, input) {
                Ok(b) => return Ok(b),
                Err(Stop::Failed(e)) => return Err(self.finish(*e)),
                Err(Stop::Beyond) => {}
            }
        }
        self.eval_bool_tree(&DynEnv(env), input)
    }

    #[inline(never)]
    fn eval_bool_tree(&self, env: &dyn ValueEnv, input: Option<&Value>) -> Result<bool, EvalError> {
        let cx = Ctx::new(env, input);
        let r = match self.root() {
            Val::Bool(b) => cx.boolean(b),
            other => match cx.val(other) {
                Ok(Value::Boolean(b)) => Ok(b),
                Ok(v) => Err(Box::new(EvalError::new(
                    NO_VALUE,
                    format!("the formula is {}, not BOOLEAN", v.kind()),
                ))),
                Err(e) => Err(e),
            },
        };
        r.map_err(|e| self.finish(*e))
    }

    /// Evaluates with the tree interpreter only (no register program): the oracle the
    /// programs are tested against.
    #[doc(hidden)]
    #[inline(never)]
    pub fn eval_tree<E: ValueEnv + ?Sized>(
        &self,
        env: &E,
        input: Option<&Value>,
    ) -> Result<Value, EvalError> {
        let env = DynEnv(env);
        let cx = Ctx::new(&env, input);
        cx.val(self.root()).map_err(|e| self.finish(*e))
    }

    fn finish(&self, e: EvalError) -> EvalError {
        e.at(self.span)
    }
}

/// Any environment (sized or not) as a `dyn ValueEnv`.
struct DynEnv<'a, E: ?Sized>(&'a E);

impl<E: ValueEnv + ?Sized> ValueEnv for DynEnv<'_, E> {
    fn value(&self, var: VarRef) -> Result<Value, EvalError> {
        self.0.value(var)
    }
    fn number(&self, var: VarRef) -> Result<Number, EvalError> {
        self.0.number(var)
    }
    fn int(&self, var: VarRef) -> Option<i64> {
        self.0.int(var)
    }
    fn boolean(&self, var: VarRef) -> Result<bool, EvalError> {
        self.0.boolean(var)
    }
    fn call_host(&self, function: HostFnRef, args: &[Value]) -> Result<Value, EvalError> {
        self.0.call_host(function, args)
    }
}

#[cold]
#[inline(never)]
pub(crate) fn arith(e: super::number::ArithmeticError, span: Span) -> Box<EvalError> {
    Box::new(EvalError::arithmetic(e).at(span))
}

#[cold]
#[inline(never)]
pub(crate) fn located(e: EvalError, span: Span) -> Box<EvalError> {
    Box::new(e.at(span))
}

#[cold]
#[inline(never)]
fn err<T>(code: crate::diagnostic::Code, msg: impl Into<String>, span: Span) -> R<T> {
    Err(Box::new(EvalError::new(code, msg).at(span)))
}

impl Ctx<'_> {
    #[inline]
    fn num(&self, n: &Num) -> R<Number> {
        match n {
            Num::Const(c) => Ok(*c),
            Num::Var(v, span) => self.env.number(*v).map_err(|e| located(e, *span)),
            Num::Input(span) => match self.input {
                Some(Value::Number(n)) => Ok(*n),
                _ => err(MISSING_INPUT, "`value()` has no NUMBER input here", *span),
            },
            Num::Chain(first, rest) => {
                let mut acc = self.num(first)?;
                for (op, x, span) in rest {
                    let x = self.num(x)?;
                    acc = apply(*op, acc, x).map_err(|e| arith(e, *span))?;
                }
                Ok(acc)
            }
            Num::Neg(x, span) => self.num(x)?.checked_neg().map_err(|e| arith(e, *span)),
            Num::Bin(op, a, b, span) => {
                let a = self.num(a)?;
                let b = self.num(b)?;
                apply(*op, a, b).map_err(|e| arith(e, *span))
            }
            Num::BinVC(op, v, vspan, c, span) => {
                let a = self.env.number(*v).map_err(|e| located(e, *vspan))?;
                apply(*op, a, *c).map_err(|e| arith(e, *span))
            }
            Num::BinVV(op, v, vspan, w, wspan, span) => {
                let a = self.env.number(*v).map_err(|e| located(e, *vspan))?;
                let b = self.env.number(*w).map_err(|e| located(e, *wspan))?;
                apply(*op, a, b).map_err(|e| arith(e, *span))
            }
            Num::Fn1(f, x, span) => f.apply(self.num(x)?).map_err(|e| arith(e, *span)),
            Num::Max(xs) => self.fold(xs, |acc, x| x >= acc),
            Num::Min(xs) => self.fold(xs, |acc, x| x < acc),
            Num::If(c, t, f) => {
                if self.boolean(c)? {
                    self.num(t)
                } else {
                    self.num(f)
                }
            }
            Num::Val(v, span) => match self.val(v)? {
                Value::Number(n) => Ok(n),
                other => err(
                    NO_VALUE,
                    format!("expected a NUMBER, found a {}", other.kind()),
                    *span,
                ),
            },
        }
    }

    fn fold(&self, xs: &[Num], take: impl Fn(Number, Number) -> bool) -> R<Number> {
        let mut acc: Option<Number> = None;
        for x in xs {
            let x = self.num(x)?;
            acc = Some(match acc {
                Some(a) if !take(a, x) => a,
                _ => x,
            });
        }
        Ok(acc.unwrap_or(Number::ZERO))
    }

    #[inline]
    fn boolean(&self, b: &Bool) -> R<bool> {
        match b {
            Bool::Const(c) => Ok(*c),
            Bool::Var(v, span) => self.env.boolean(*v).map_err(|e| located(e, *span)),
            Bool::Not(x) => Ok(!self.boolean(x)?),
            // Like the reference, `&&` and `||` evaluate both operands.
            Bool::And(a, b) => {
                let a = self.boolean(a)?;
                let b = self.boolean(b)?;
                Ok(a && b)
            }
            Bool::Or(a, b) => {
                let a = self.boolean(a)?;
                let b = self.boolean(b)?;
                Ok(a || b)
            }
            Bool::Cmp(op, a, b) => {
                let o = self.num(a)?.cmp_num(self.num(b)?);
                Ok(compare(*op, o))
            }
            Bool::CmpVC(op, v, vspan, c) => {
                let a = self.env.number(*v).map_err(|e| located(e, *vspan))?;
                Ok(compare(*op, a.cmp_num(*c)))
            }
            Bool::NumEq(negate, a, b) => {
                let eq = self.num(a)? == self.num(b)?;
                Ok(eq != *negate)
            }
            Bool::Eq(negate, a, b) => {
                let eq = self.val(a)? == self.val(b)?;
                Ok(eq != *negate)
            }
            Bool::If(c, t, f) => {
                if self.boolean(c)? {
                    self.boolean(t)
                } else {
                    self.boolean(f)
                }
            }
            Bool::Val(v, span) => match self.val(v)? {
                Value::Boolean(b) => Ok(b),
                other => err(
                    NO_VALUE,
                    format!("expected a BOOLEAN, found a {}", other.kind()),
                    *span,
                ),
            },
        }
    }

    pub(crate) fn val(&self, v: &Val) -> R<Value> {
        match v {
            Val::Num(n) => self.num(n).map(Value::Number),
            Val::Bool(b) => self.boolean(b).map(Value::Boolean),
            Val::Const(c) => Ok(c.clone()),
            Val::Var(var, span) => self.env.value(*var).map_err(|e| located(e, *span)),
            Val::Input(span) => match self.input {
                Some(v) => Ok(v.clone()),
                None => err(MISSING_INPUT, "`value()` has no input here", *span),
            },
            other => self.val_cold(other),
        }
    }

    #[inline(never)]
    fn val_cold(&self, v: &Val) -> R<Value> {
        match v {
            Val::Num(_) | Val::Bool(_) | Val::Const(_) | Val::Var(..) | Val::Input(_) => {
                self.val(v)
            }
            Val::Concat(a, b) => {
                let a = self.val(a)?;
                let b = self.val(b)?;
                Ok(Value::String(Arc::from(format!("{a}{b}"))))
            }
            Val::If(c, t, f) => {
                if self.boolean(c)? {
                    self.val(t)
                } else {
                    self.val(f)
                }
            }
            Val::Index(arr, idx, span) => {
                let items = self.array(arr, *span)?;
                let i = self.index(idx, *span)?;
                match usize::try_from(i).ok().and_then(|i| items.get(i)) {
                    Some(x) => Ok(x.clone()),
                    None => err(
                        INDEX_OUT_OF_BOUNDS,
                        format!("index {i} is outside the array (length {})", items.len()),
                        *span,
                    ),
                }
            }
            Val::Slice(arr, start, end, span) => {
                let items = self.array(arr, *span)?;
                // Like the reference (`intValue()`), slice bounds are truncated.
                let s = self.bound(start, *span)?;
                let e = match end {
                    Some(e) => self.bound(e, *span)?,
                    None => i64::try_from(items.len()).unwrap_or(i64::MAX),
                };
                let len = items.len();
                let Ok(su) = usize::try_from(s) else {
                    return err(
                        INDEX_OUT_OF_BOUNDS,
                        format!("slice start {s} is negative"),
                        *span,
                    );
                };
                let eu = usize::try_from(e).unwrap_or(0);
                if su > len || eu > len || su > eu || e < 0 {
                    return err(
                        SLICE_OUT_OF_RANGE,
                        format!("slice {s}..{e} is outside the array (length {len})"),
                        *span,
                    );
                }
                match items.get(su..eu) {
                    Some(part) => Ok(Value::Array(Arc::from(part.to_vec()))),
                    None => err(SLICE_OUT_OF_RANGE, "slice outside the array", *span),
                }
            }
            Val::Length(arr, span) => {
                let items = self.array(arr, *span)?;
                Ok(Value::Number(Number::Int(
                    i64::try_from(items.len()).unwrap_or(i64::MAX),
                )))
            }
            Val::IsEmpty(arr, span) => Ok(Value::Boolean(self.array(arr, *span)?.is_empty())),
            Val::IsPresent(o, span) => match self.val(o)? {
                Value::Optional(x) => Ok(Value::Boolean(x.is_some())),
                other => err(
                    NO_VALUE,
                    format!("expected an OPTIONAL, found a {}", other.kind()),
                    *span,
                ),
            },
            Val::GetOptional(o, span) => match self.val(o)? {
                Value::Optional(Some(x)) => Ok((*x).clone()),
                Value::Optional(None) => err(EMPTY_OPTIONAL, "the optional is empty", *span),
                other => err(
                    NO_VALUE,
                    format!("expected an OPTIONAL, found a {}", other.kind()),
                    *span,
                ),
            },
            Val::Host(f, args, span) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.val(a)?);
                }
                self.env.call_host(*f, &vals).map_err(|e| located(e, *span))
            }
        }
    }

    fn array(&self, v: &Val, span: Span) -> R<Arc<[Value]>> {
        match self.val(v)? {
            Value::Array(a) => Ok(a),
            other => err(
                NO_VALUE,
                format!("expected an ARRAY, found a {}", other.kind()),
                span,
            ),
        }
    }

    /// A slice bound: the number truncated toward zero.
    fn bound(&self, n: &Num, span: Span) -> R<i64> {
        let n = self.num(n)?;
        let t = match n {
            Number::Int(i) => Some(i),
            Number::Dec(d) => {
                use rust_decimal::prelude::ToPrimitive;
                d.trunc().to_i64()
            }
        };
        match t {
            Some(i) => Ok(i),
            None => err(
                INDEX_OUT_OF_BOUNDS,
                format!("the slice bound {n} is outside any array"),
                span,
            ),
        }
    }

    fn index(&self, n: &Num, span: Span) -> R<i64> {
        let n = self.num(n)?;
        match n.as_i64() {
            Some(i) if n.is_integer() => Ok(i),
            _ => err(
                INDEX_NOT_WHOLE,
                format!("the index {n} is not a whole number"),
                span,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_dependency_list_is_no_larger_than_a_vector() {
        assert!(
            std::mem::size_of::<super::Deps>()
                <= std::mem::size_of::<Vec<crate::formula::VarRef>>()
        );
    }

    #[test]
    fn compiled_formulas_can_be_shared_between_threads() {
        fn shareable<T: Send + Sync + Clone>() {}
        shareable::<super::CompiledFormula>();
    }
}
