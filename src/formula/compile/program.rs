//! Flat register programs for NUMBER and BOOLEAN formulas: the fast evaluator.
//!
//! A program is a short list of [`Op`]s over eight NUMBER and eight BOOLEAN registers,
//! run by an interpreter that is generic over the caller's [`ValueEnv`], so variable reads
//! are inlined (no `dyn` call, no `Value` clone) and no node returns a `Result` through
//! memory. Every operand is a register: constants (and `value()`) sit in registers filled
//! before the run, variables are loaded by an op, so each op costs exactly one dispatch.
//! NUMBERs are held as an `i64` mantissa and a decimal scale: whole numbers (scale 0) use
//! plain checked `i64` arithmetic; fractions use the same fixed-point helpers as
//! [`Number`], and anything else calls [`Number`]'s own exact arithmetic, so the results
//! are the tree interpreter's results.
//!
//! A program reports its own errors: each op has the spans of its node and of the variable
//! it reads beside it (read only when the op fails), so a failure (a variable without a
//! number, an overflow, a division by zero) comes out with the code and span the tree
//! interpreter gives. It stops without an answer ([`Stop::Beyond`]) only when a value
//! leaves what its registers hold (a decimal whose mantissa is beyond `i64`, or a scale
//! beyond 18) or `value()` has no NUMBER input; the caller then evaluates the formula with
//! the tree interpreter.

use crate::formula::eval::{EvalError, ValueEnv};
use crate::formula::ir::VarRef;
use crate::formula::ir::{Bool, CmpOp, Num, NumFn, NumOp, apply};
use crate::formula::number::{
    ArithmeticError, ConstDivisor, Number, fixed_add, fixed_cmp, fixed_mul,
};
use crate::formula::value::Value;
use crate::source::Span;
use std::cmp::Ordering;

/// Registers per file; formulas needing more are not compiled to a program.
const REGS: usize = 8;

/// One instruction; `d` is the destination register, `a`, `b` source registers.
#[derive(Clone, Copy, Debug)]
enum Op {
    Load {
        d: u8,
        v: VarRef,
    },
    /// `d := a op var` (a chain step or `x op var`).
    ArithRV {
        op: NumOp,
        d: u8,
        a: u8,
        v: VarRef,
    },
    /// `d := var op b` (`var op constant`).
    ArithVR {
        op: NumOp,
        d: u8,
        v: VarRef,
        b: u8,
    },
    /// `d := var cmp b`.
    CmpV {
        op: CmpOp,
        d: u8,
        v: VarRef,
        b: u8,
    },
    Add {
        d: u8,
        a: u8,
        b: u8,
    },
    Sub {
        d: u8,
        a: u8,
        b: u8,
    },
    Mul {
        d: u8,
        a: u8,
        b: u8,
    },
    /// Division, remainder, power: the general [`Number`] arithmetic.
    Bin {
        op: NumOp,
        d: u8,
        a: u8,
        b: u8,
    },
    DivC {
        d: u8,
        a: u8,
        c: ConstDivisor,
    },
    /// `floor(a/b)` (or `ceil`) in one step.
    DivRound {
        ceil: bool,
        d: u8,
        a: u8,
        b: u8,
    },
    /// `floor(a/c)` (or `ceil`) for a constant whole divisor.
    DivRoundC {
        ceil: bool,
        d: u8,
        a: u8,
        c: ConstDivisor,
    },
    Neg {
        d: u8,
        a: u8,
    },
    Fn1 {
        f: NumFn,
        d: u8,
        a: u8,
    },
    /// Ties give `b`, like the tree interpreter.
    Max {
        d: u8,
        a: u8,
        b: u8,
    },
    /// Ties give `a`.
    Min {
        d: u8,
        a: u8,
        b: u8,
    },
    Mov {
        d: u8,
        a: u8,
    },
    /// NUMBER `d := if(var, a, b)` for a BOOLEAN variable.
    SelectVar {
        d: u8,
        v: VarRef,
        a: u8,
        b: u8,
    },
    /// NUMBER `d := if(bool c, a, b)`.
    Select {
        d: u8,
        c: u8,
        a: u8,
        b: u8,
    },
    Cmp {
        op: CmpOp,
        d: u8,
        a: u8,
        b: u8,
    },
    NumEq {
        negate: bool,
        d: u8,
        a: u8,
        b: u8,
    },
    BConst {
        d: u8,
        v: bool,
    },
    BLoad {
        d: u8,
        v: VarRef,
    },
    Not {
        d: u8,
    },
    And {
        d: u8,
        b: u8,
    },
    Or {
        d: u8,
        b: u8,
    },
    JumpIfNot {
        c: u8,
        to: u16,
    },
    Jump {
        to: u16,
    },
}

/// Where an op's failure is reported: its node, and the variable it reads (if any).
#[derive(Clone, Copy, Debug, Default)]
struct At {
    node: Span,
    var: Span,
}

impl At {
    /// An op that cannot fail.
    const NONE: At = At {
        node: Span::DETACHED,
        var: Span::DETACHED,
    };

    fn node(node: Span) -> At {
        At { node, var: node }
    }

    fn var(var: Span) -> At {
        At { node: var, var }
    }
}

/// Why a program stopped before its end.
#[derive(Debug)]
pub(crate) enum Stop {
    /// The formula fails: the error, on the span of the node (or variable) that failed.
    Failed(Box<EvalError>),
    /// A value left the registers (or `value()` has no NUMBER): the tree interpreter
    /// evaluates the formula instead.
    Beyond,
}

/// A failure inside an op, before its span is known. Two bytes, so that every op's result
/// is as small as an `Option` (a boxed error there made programs a third slower).
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// Reading the op's variable failed (its error is read again when it is reported).
    Var,
    /// The op's own arithmetic failed.
    Arith(ArithmeticError),
    Beyond,
}

/// A compiled program; its result is NUMBER register 0 or BOOLEAN register 0.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    ops: Box<[Op]>,
    /// Beside each op, where its failure is reported.
    at: Box<[At]>,
    /// Initial NUMBER registers: the constants in their slots.
    init_m: [i64; REGS],
    init_s: [u8; REGS],
    /// The register `value()` is loaded into before the run.
    input: Option<u8>,
}

#[inline(always)]
fn ix(r: u8) -> usize {
    usize::from(r) & (REGS - 1)
}

struct Builder {
    ops: Vec<Op>,
    at: Vec<At>,
    /// Constant slots (`None` = `value()`), allocated from the top register down.
    consts: Vec<Option<(i64, u32)>>,
    input: Option<u8>,
    /// The highest temporary register used so far.
    high: usize,
}

impl Builder {
    /// The lowest register taken by a constant or `value()` (temporaries stay below).
    fn limit(&self) -> usize {
        REGS - self.consts.len()
    }

    /// Reserves temporaries `d` and `d + 1` (below every constant slot).
    fn check(&mut self, d: u8) -> Option<()> {
        let top = usize::from(d) + 1;
        self.high = self.high.max(top);
        (top < self.limit()).then_some(())
    }

    /// The next free slot from the top, above every temporary used so far.
    fn slot(&self) -> Option<u8> {
        let r = self.limit().checked_sub(1)?;
        if r <= self.high {
            return None;
        }
        u8::try_from(r).ok()
    }

    fn push(&mut self, op: Op, at: At) -> Option<()> {
        (self.ops.len() < usize::from(u16::MAX)).then_some(())?;
        self.ops.push(op);
        self.at.push(at);
        Some(())
    }

    fn here(&self) -> Option<u16> {
        u16::try_from(self.ops.len()).ok()
    }

    fn patch(&mut self, at: u16, to: u16) {
        if let Some(Op::JumpIfNot { to: t, .. } | Op::Jump { to: t }) =
            self.ops.get_mut(usize::from(at))
        {
            *t = to;
        }
    }

    /// The register of a constant.
    fn konst(&mut self, c: Number) -> Option<u8> {
        let v = split(c)?;
        self.slot_of(Some(v))
    }

    /// The register of a constant (or of `value()`), allocating it on first use.
    fn slot_of(&mut self, v: Option<(i64, u32)>) -> Option<u8> {
        if let Some(i) = self.consts.iter().position(|k| *k == v) {
            return self.reg_of_const(i);
        }
        self.slot()?;
        self.consts.push(v);
        self.reg_of_const(self.consts.len() - 1)
    }

    fn reg_of_const(&self, i: usize) -> Option<u8> {
        u8::try_from(REGS.checked_sub(1 + i)?).ok()
    }

    fn input_reg(&mut self) -> Option<u8> {
        let r = self.slot_of(None)?;
        self.input = Some(r);
        Some(r)
    }

    /// The register holding `n`: a constant's or `value()`'s slot, or `d` (computed).
    fn operand(&mut self, n: &Num, d: u8) -> Option<u8> {
        let r = match n {
            Num::Const(c) => self.konst(*c)?,
            Num::Input(_) => self.input_reg()?,
            other => {
                self.num(other, d)?;
                d
            }
        };
        self.check(d)?;
        Some(r)
    }

    /// `d := a op b`, the node at `span`.
    fn bin(&mut self, op: NumOp, d: u8, a: u8, b: &Num, span: Span) -> Option<()> {
        if let (NumOp::Div, Num::Const(c)) = (op, b) {
            if let Some(c) = ConstDivisor::new(*c) {
                return self.push(Op::DivC { d, a, c }, At::node(span));
            }
        }
        if let Num::Var(v, vs) = b {
            if !matches!(op, NumOp::Div) {
                let at = At {
                    node: span,
                    var: *vs,
                };
                return self.push(Op::ArithRV { op, d, a, v: *v }, at);
            }
        }
        let b = self.operand(b, d.checked_add(1)?)?;
        let op = match op {
            NumOp::Add => Op::Add { d, a, b },
            NumOp::Sub => Op::Sub { d, a, b },
            NumOp::Mul => Op::Mul { d, a, b },
            op => Op::Bin { op, d, a, b },
        };
        self.push(op, At::node(span))
    }

    /// Compiles `n` into NUMBER register `d`, using registers >= `d` only as temporaries.
    fn num(&mut self, n: &Num, d: u8) -> Option<()> {
        self.check(d)?;
        let next = d + 1;
        match n {
            Num::Const(_) | Num::Input(_) => {
                let a = self.operand(n, d)?;
                self.push(Op::Mov { d, a }, At::NONE)
            }
            Num::Var(v, vs) => self.push(Op::Load { d, v: *v }, At::var(*vs)),
            Num::Neg(x, span) => {
                let a = self.operand(x, d)?;
                self.push(Op::Neg { d, a }, At::node(*span))
            }
            Num::Bin(op, x, y, span) => {
                let a = self.operand(x, d)?;
                self.bin(*op, d, a, y, *span)
            }
            Num::BinVC(op, v, vs, c, span) => {
                if *op == NumOp::Div && ConstDivisor::new(*c).is_some() {
                    self.push(Op::Load { d, v: *v }, At::var(*vs))?;
                    return self.bin(*op, d, d, &Num::Const(*c), *span);
                }
                let b = self.konst(*c)?;
                self.check(d)?;
                let at = At {
                    node: *span,
                    var: *vs,
                };
                self.push(
                    Op::ArithVR {
                        op: *op,
                        d,
                        v: *v,
                        b,
                    },
                    at,
                )
            }
            Num::BinVV(op, v, vs, w, ws, span) => {
                self.push(Op::Load { d, v: *v }, At::var(*vs))?;
                self.bin(*op, d, d, &Num::Var(*w, *ws), *span)
            }
            Num::Chain(first, rest) => {
                self.num(first, d)?;
                for (op, x, span) in rest {
                    self.bin(*op, d, d, x, *span)?;
                }
                Some(())
            }
            Num::Fn1(f @ (NumFn::Floor | NumFn::Ceil), inner, _) => {
                let ceil = *f == NumFn::Ceil;
                // The division's errors are reported on the division.
                let parts = match &**inner {
                    Num::Bin(NumOp::Div, x, y, s) => Some(((**x).clone(), (**y).clone(), *s)),
                    Num::BinVC(NumOp::Div, v, vs, c, s) => {
                        Some((Num::Var(*v, *vs), Num::Const(*c), *s))
                    }
                    Num::BinVV(NumOp::Div, v, vs, w, ws, s) => {
                        Some((Num::Var(*v, *vs), Num::Var(*w, *ws), *s))
                    }
                    _ => None,
                };
                match parts {
                    Some((x, y, span)) => {
                        let a = self.operand(&x, d)?;
                        if let Num::Const(c) = y {
                            if let Some(c) = ConstDivisor::new(c) {
                                return self.push(Op::DivRoundC { ceil, d, a, c }, At::node(span));
                            }
                        }
                        let b = self.operand(&y, next)?;
                        self.push(Op::DivRound { ceil, d, a, b }, At::node(span))
                    }
                    None => {
                        let a = self.operand(inner, d)?;
                        self.push(Op::Fn1 { f: *f, d, a }, At::NONE)
                    }
                }
            }
            Num::Fn1(f, x, span) => {
                let a = self.operand(x, d)?;
                self.push(Op::Fn1 { f: *f, d, a }, At::node(*span))
            }
            Num::Max(xs) | Num::Min(xs) => {
                let max = matches!(n, Num::Max(_));
                let Some((first, rest)) = xs.split_first() else {
                    let a = self.konst(Number::ZERO)?;
                    return self.push(Op::Mov { d, a }, At::NONE);
                };
                let mut a = self.operand(first, d)?;
                if rest.is_empty() {
                    return self.push(Op::Mov { d, a }, At::NONE);
                }
                for x in rest {
                    let b = self.operand(x, next)?;
                    let op = if max {
                        Op::Max { d, a, b }
                    } else {
                        Op::Min { d, a, b }
                    };
                    self.push(op, At::NONE)?;
                    a = d;
                }
                Some(())
            }
            Num::If(c, t, f) => {
                if let (
                    Bool::Var(v, vs),
                    Num::Const(_) | Num::Input(_),
                    Num::Const(_) | Num::Input(_),
                ) = (&**c, &**t, &**f)
                {
                    let a = self.operand(t, next)?;
                    let b = self.operand(f, next)?;
                    return self.push(Op::SelectVar { d, v: *v, a, b }, At::var(*vs));
                }
                self.boolean(c, d)?;
                if let (Num::Const(_) | Num::Input(_), Num::Const(_) | Num::Input(_)) = (&**t, &**f)
                {
                    let a = self.operand(t, next)?;
                    let b = self.operand(f, next)?;
                    return self.push(Op::Select { d, c: d, a, b }, At::NONE);
                }
                let jump_false = self.here()?;
                self.push(Op::JumpIfNot { c: d, to: 0 }, At::NONE)?;
                self.num(t, d)?;
                let jump_end = self.here()?;
                self.push(Op::Jump { to: 0 }, At::NONE)?;
                let else_at = self.here()?;
                self.patch(jump_false, else_at);
                self.num(f, d)?;
                let end = self.here()?;
                self.patch(jump_end, end);
                Some(())
            }
            Num::Val(..) => None,
        }
    }

    /// Compiles `b` into BOOLEAN register `d` (NUMBER registers >= `d` are free).
    fn boolean(&mut self, b: &Bool, d: u8) -> Option<()> {
        self.check(d)?;
        let next = d + 1;
        match b {
            Bool::Const(v) => self.push(Op::BConst { d, v: *v }, At::NONE),
            Bool::Var(v, vs) => self.push(Op::BLoad { d, v: *v }, At::var(*vs)),
            Bool::Not(x) => {
                self.boolean(x, d)?;
                self.push(Op::Not { d }, At::NONE)
            }
            // Both operands are evaluated, like the tree interpreter and the reference.
            Bool::And(x, y) => {
                self.boolean(x, d)?;
                self.boolean(y, next)?;
                self.push(Op::And { d, b: next }, At::NONE)
            }
            Bool::Or(x, y) => {
                self.boolean(x, d)?;
                self.boolean(y, next)?;
                self.push(Op::Or { d, b: next }, At::NONE)
            }
            Bool::Cmp(op, x, y) => {
                let a = self.operand(x, d)?;
                let b = self.operand(y, next)?;
                self.push(Op::Cmp { op: *op, d, a, b }, At::NONE)
            }
            Bool::CmpVC(op, v, vs, c) => {
                let b = self.konst(*c)?;
                self.check(d)?;
                let op = Op::CmpV {
                    op: *op,
                    d,
                    v: *v,
                    b,
                };
                self.push(op, At::var(*vs))
            }
            Bool::NumEq(negate, x, y) => {
                let a = self.operand(x, d)?;
                let b = self.operand(y, next)?;
                let op = Op::NumEq {
                    negate: *negate,
                    d,
                    a,
                    b,
                };
                self.push(op, At::NONE)
            }
            Bool::If(c, t, f) => {
                self.boolean(c, d)?;
                let jump_false = self.here()?;
                self.push(Op::JumpIfNot { c: d, to: 0 }, At::NONE)?;
                self.boolean(t, d)?;
                let jump_end = self.here()?;
                self.push(Op::Jump { to: 0 }, At::NONE)?;
                let else_at = self.here()?;
                self.patch(jump_false, else_at);
                self.boolean(f, d)?;
                let end = self.here()?;
                self.patch(jump_end, end);
                Some(())
            }
            Bool::Eq(..) | Bool::Val(..) => None,
        }
    }

    fn finish(self) -> Program {
        let (mut init_m, mut init_s) = ([0i64; REGS], [0u8; REGS]);
        for (i, (m, s)) in self
            .consts
            .iter()
            .enumerate()
            .filter_map(|(i, k)| Some((i, (*k)?)))
        {
            let r = REGS - 1 - i;
            if let (Some(rm), Some(rs)) = (init_m.get_mut(r), init_s.get_mut(r)) {
                (*rm, *rs) = (m, u8::try_from(s).unwrap_or(u8::MAX));
            }
        }
        Program {
            ops: self.ops.into_boxed_slice(),
            at: self.at.into_boxed_slice(),
            init_m,
            init_s,
            input: self.input,
        }
    }
}

/// A number as a register value: mantissa and scale, scale 0 for [`Number::Int`] only.
#[inline(always)]
fn split(n: Number) -> Option<(i64, u32)> {
    match n {
        Number::Int(i) => Some((i, 0)),
        Number::Dec(d) => split_dec(d),
    }
}

#[inline(never)]
fn split_dec(d: rust_decimal::Decimal) -> Option<(i64, u32)> {
    let sc = d.scale();
    // A decimal of scale 0 or a negative zero would not survive the round trip.
    if sc == 0 || sc > 18 || (d.is_zero() && d.is_sign_negative()) {
        return None;
    }
    i64::try_from(d.mantissa()).ok().map(|m| (m, sc))
}

/// A NUMBER variable as a register value: whole numbers without copying a [`Number`].
#[inline(always)]
fn load<E: ValueEnv + ?Sized>(env: &E, v: VarRef) -> Result<V, Fault> {
    match env.int(v) {
        Some(i) => Ok((i, 0)),
        None => load_slow(env, v),
    }
}

#[inline(never)]
fn load_slow<E: ValueEnv + ?Sized>(env: &E, v: VarRef) -> Result<V, Fault> {
    match env.number(v) {
        Ok(n) => split(n).ok_or(Fault::Beyond),
        Err(_) => Err(Fault::Var),
    }
}

/// A BOOLEAN variable.
#[inline(always)]
fn load_bool<E: ValueEnv + ?Sized>(env: &E, v: VarRef) -> Result<bool, Fault> {
    env.boolean(v).map_err(|_| Fault::Var)
}

/// The register value of an arithmetic result.
#[inline(never)]
fn result(r: crate::formula::number::NumResult) -> Result<V, Fault> {
    match r {
        Ok(n) => split(n).ok_or(Fault::Beyond),
        Err(e) => Err(Fault::Arith(e)),
    }
}

/// The number of a register value (the inverse of [`split`]).
#[inline(always)]
fn join(m: i64, sc: u32) -> Number {
    if sc == 0 {
        Number::Int(m)
    } else {
        Number::Dec(rust_decimal::Decimal::new(m, sc))
    }
}

impl Program {
    fn build(f: impl FnOnce(&mut Builder) -> Option<()>) -> Option<Program> {
        let mut b = Builder {
            ops: Vec::new(),
            at: Vec::new(),
            consts: Vec::new(),
            input: None,
            high: 0,
        };
        f(&mut b)?;
        Some(b.finish())
    }

    /// The program of a NUMBER tree, if it fits the registers and has no generic values.
    pub(crate) fn of_num(n: &Num) -> Option<Program> {
        Program::build(|b| b.num(n, 0))
    }

    /// The program of a BOOLEAN tree.
    pub(crate) fn of_bool(n: &Bool) -> Option<Program> {
        Program::build(|b| b.boolean(n, 0))
    }

    /// Fresh registers: the constants and `value()` in their slots.
    #[inline(always)]
    fn start(&self, m: &mut Machine, input: Option<&Value>) -> Result<(), Stop> {
        if let Some(r) = self.input {
            // Whole numbers are read in place (no copy of the `Number` through memory).
            let (x, sc) = match input {
                Some(Value::Number(Number::Int(i))) => (*i, 0),
                Some(Value::Number(n)) => split(*n).ok_or(Stop::Beyond)?,
                _ => return Err(Stop::Beyond),
            };
            m.m[ix(r)] = x;
            m.s[ix(r)] = u8::try_from(sc).map_err(|_| Stop::Beyond)?;
        }
        Ok(())
    }

    /// Runs a NUMBER program.
    #[inline(always)]
    pub(crate) fn number<E: ValueEnv + ?Sized>(
        &self,
        env: &E,
        input: Option<&Value>,
    ) -> Result<Number, Stop> {
        let mut m = self.machine();
        self.start(&mut m, input)?;
        self.run(&mut m, env)?;
        Ok(join(m.m[0], u32::from(m.s[0])))
    }

    /// Runs a BOOLEAN program.
    #[inline]
    pub(crate) fn boolean<E: ValueEnv + ?Sized>(
        &self,
        env: &E,
        input: Option<&Value>,
    ) -> Result<bool, Stop> {
        let mut m = self.machine();
        self.start(&mut m, input)?;
        self.run(&mut m, env)?;
        Ok(m.b[0])
    }

    /// The registers before a run.
    #[inline(always)]
    fn machine(&self) -> Machine {
        Machine {
            m: self.init_m,
            s: self.init_s,
            b: [false; REGS],
        }
    }

    #[inline(always)]
    fn run<E: ValueEnv + ?Sized>(&self, m: &mut Machine, env: &E) -> Result<(), Stop> {
        let mut pc = 0usize;
        // `pc` is one past the op that failed.
        m.run(&self.ops, env, &mut pc)
            .map_err(|fault| self.stop(fault, pc.wrapping_sub(1), env))
    }

    /// The failure of op `pc`, on its span: the arithmetic error, or the error of the
    /// variable the op reads (read again: variables have no side effects).
    #[cold]
    #[inline(never)]
    fn stop<E: ValueEnv + ?Sized>(&self, fault: Fault, pc: usize, env: &E) -> Stop {
        let at = self.at.get(pc).copied().unwrap_or_default();
        let error = match (fault, self.ops.get(pc)) {
            (Fault::Arith(e), _) => EvalError::arithmetic(e).at(at.node),
            (
                Fault::Var,
                Some(
                    Op::Load { v, .. }
                    | Op::ArithRV { v, .. }
                    | Op::ArithVR { v, .. }
                    | Op::CmpV { v, .. },
                ),
            ) => match env.number(*v) {
                Err(e) => e.at(at.var),
                Ok(_) => return Stop::Beyond,
            },
            (Fault::Var, Some(Op::BLoad { v, .. } | Op::SelectVar { v, .. })) => {
                match env.boolean(*v) {
                    Err(e) => e.at(at.var),
                    Ok(_) => return Stop::Beyond,
                }
            }
            _ => return Stop::Beyond,
        };
        Stop::Failed(Box::new(error))
    }
}

/// Registers: NUMBERs as mantissa `m` and scale `s`, BOOLEANs in `b`.
struct Machine {
    m: [i64; REGS],
    /// Scales (<= 18).
    s: [u8; REGS],
    b: [bool; REGS],
}

type V = (i64, u32);

/// The general case of a binary operator: exact [`Number`] arithmetic.
#[inline(never)]
fn slow_bin(op: NumOp, x: V, y: V) -> Result<V, Fault> {
    result(apply(op, join(x.0, x.1), join(y.0, y.1)))
}

#[inline(never)]
fn slow_fn1(f: NumFn, x: V) -> Result<V, Fault> {
    result(f.apply(join(x.0, x.1)))
}

/// Numeric order (registers always fit the fixed-point form, which `Number::cmp_num`
/// compares the same way).
#[inline(always)]
fn cmp(x: V, y: V) -> Ordering {
    if x.1 == 0 && y.1 == 0 {
        x.0.cmp(&y.0)
    } else {
        fixed_cmp(x, y)
    }
}

/// `x op y` with the whole-number and fixed-point fast paths.
#[inline(always)]
fn arith(op: NumOp, x: V, y: V) -> Result<V, Fault> {
    if x.1 == 0 && y.1 == 0 {
        let r = match op {
            NumOp::Add => x.0.checked_add(y.0),
            NumOp::Sub => x.0.checked_sub(y.0),
            NumOp::Mul => x.0.checked_mul(y.0),
            NumOp::Div if y.0 != 0 && x.0.checked_rem(y.0) == Some(0) => x.0.checked_div(y.0),
            _ => None,
        };
        if let Some(r) = r {
            return Ok((r, 0));
        }
    } else {
        let r = match op {
            NumOp::Add => fixed_add(x, y),
            NumOp::Mul => fixed_mul(x, y),
            _ => None,
        };
        if let Some(r) = r {
            return Ok(r);
        }
    }
    slow_bin(op, x, y)
}

#[inline(always)]
fn compare(op: CmpOp, o: Ordering) -> bool {
    match op {
        CmpOp::Lt => o == Ordering::Less,
        CmpOp::Gt => o == Ordering::Greater,
        CmpOp::Le => o != Ordering::Greater,
        CmpOp::Ge => o != Ordering::Less,
    }
}

impl Machine {
    #[inline(always)]
    fn get(&self, r: u8) -> V {
        (self.m[ix(r)], u32::from(self.s[ix(r)]))
    }

    /// Stores `v`; [`Fault::Beyond`] for a scale beyond the registers (never produced:
    /// scales stay <= 18).
    #[inline(always)]
    fn set(&mut self, d: u8, v: V) -> Result<(), Fault> {
        self.m[ix(d)] = v.0;
        self.s[ix(d)] = u8::try_from(v.1).map_err(|_| Fault::Beyond)?;
        Ok(())
    }

    #[inline(always)]
    fn flag(&mut self, d: u8) -> &mut bool {
        &mut self.b[ix(d)]
    }

    /// Runs `ops` from `pc` on; after a failure `pc` is one past the op that failed.
    #[inline(always)]
    fn run<E: ValueEnv + ?Sized>(
        &mut self,
        ops: &[Op],
        env: &E,
        pc: &mut usize,
    ) -> Result<(), Fault> {
        while let Some(op) = ops.get(*pc) {
            *pc += 1;
            match *op {
                Op::ArithRV { op, d, a, v } => {
                    let y = load(env, v)?;
                    self.set(d, arith(op, self.get(a), y)?)?;
                }
                Op::ArithVR { op, d, v, b } => {
                    let x = load(env, v)?;
                    self.set(d, arith(op, x, self.get(b))?)?;
                }
                Op::CmpV { op, d, v, b } => {
                    let x = load(env, v)?;
                    let o = cmp(x, self.get(b));
                    *self.flag(d) = compare(op, o);
                }
                Op::Load { d, v } => {
                    let x = load(env, v)?;
                    self.set(d, x)?;
                }
                Op::Add { d, a, b } => {
                    let (x, y) = (self.get(a), self.get(b));
                    let r = match x.0.checked_add(y.0) {
                        Some(r) if x.1 == 0 && y.1 == 0 => (r, 0),
                        _ => match fixed_add(x, y) {
                            Some(r) if x.1 != 0 || y.1 != 0 => r,
                            _ => slow_bin(NumOp::Add, x, y)?,
                        },
                    };
                    self.set(d, r)?;
                }
                Op::Sub { d, a, b } => {
                    let (x, y) = (self.get(a), self.get(b));
                    let r = match x.0.checked_sub(y.0) {
                        Some(r) if x.1 == 0 && y.1 == 0 => (r, 0),
                        _ => slow_bin(NumOp::Sub, x, y)?,
                    };
                    self.set(d, r)?;
                }
                Op::Mul { d, a, b } => {
                    let (x, y) = (self.get(a), self.get(b));
                    let r = match x.0.checked_mul(y.0) {
                        Some(r) if x.1 == 0 && y.1 == 0 => (r, 0),
                        _ => match fixed_mul(x, y) {
                            Some(r) if x.1 != 0 || y.1 != 0 => r,
                            _ => slow_bin(NumOp::Mul, x, y)?,
                        },
                    };
                    self.set(d, r)?;
                }
                Op::Bin { op, d, a, b } => {
                    let (x, y) = (self.get(a), self.get(b));
                    let r = match (op, x.1, y.1) {
                        (NumOp::Div, 0, 0) if y.0 != 0 && x.0.checked_rem(y.0) == Some(0) => {
                            (x.0.checked_div(y.0).ok_or(Fault::Beyond)?, 0)
                        }
                        _ => slow_bin(op, x, y)?,
                    };
                    self.set(d, r)?;
                }
                Op::DivC { d, a, c } => {
                    let x = self.get(a);
                    let r = match (x.1, c.divide_int(x.0)) {
                        (0, Some(r)) => r,
                        _ => result(c.divide(join(x.0, x.1)))?,
                    };
                    self.set(d, r)?;
                }
                Op::DivRound { ceil, d, a, b } => {
                    let (x, y) = (join(self.get(a).0, self.get(a).1), self.get(b));
                    let y = join(y.0, y.1);
                    let r = if ceil { x.div_ceil(y) } else { x.div_floor(y) };
                    self.set(d, result(r)?)?;
                }
                Op::DivRoundC { ceil, d, a, c } => {
                    let x = self.get(a);
                    let r = if x.1 == 0 {
                        (
                            if ceil {
                                c.ceil_int(x.0)
                            } else {
                                c.floor_int(x.0)
                            },
                            0,
                        )
                    } else {
                        let (x, y) = (join(x.0, x.1), Number::Int(c.get()));
                        result(if ceil { x.div_ceil(y) } else { x.div_floor(y) })?
                    };
                    self.set(d, r)?;
                }
                Op::Neg { d, a } => {
                    let x = self.get(a);
                    let r = match x.0.checked_neg() {
                        Some(r) if x.1 == 0 => (r, 0),
                        _ => result(join(x.0, x.1).checked_neg())?,
                    };
                    self.set(d, r)?;
                }
                Op::Fn1 { f, d, a } => {
                    let x = self.get(a);
                    let r = match f {
                        NumFn::Floor | NumFn::Ceil | NumFn::Round if x.1 == 0 => x,
                        NumFn::Abs if x.1 == 0 && x.0 != i64::MIN => (x.0.abs(), 0),
                        _ => slow_fn1(f, x)?,
                    };
                    self.set(d, r)?;
                }
                Op::Max { d, a, b } => {
                    let (x, y) = (self.get(a), self.get(b));
                    self.set(d, if cmp(x, y) == Ordering::Greater { x } else { y })?;
                }
                Op::Min { d, a, b } => {
                    let (x, y) = (self.get(a), self.get(b));
                    self.set(d, if cmp(x, y) == Ordering::Greater { y } else { x })?;
                }
                Op::Mov { d, a } => {
                    let x = self.get(a);
                    self.set(d, x)?;
                }
                Op::SelectVar { d, v, a, b } => {
                    let x = self.get(if load_bool(env, v)? { a } else { b });
                    self.set(d, x)?;
                }
                Op::Select { d, c, a, b } => {
                    let x = self.get(if self.b[ix(c)] { a } else { b });
                    self.set(d, x)?;
                }
                Op::Cmp { op, d, a, b } => {
                    let o = cmp(self.get(a), self.get(b));
                    *self.flag(d) = compare(op, o);
                }
                Op::NumEq { negate, d, a, b } => {
                    let eq = cmp(self.get(a), self.get(b)) == Ordering::Equal;
                    *self.flag(d) = eq != negate;
                }
                Op::BConst { d, v } => *self.flag(d) = v,
                Op::BLoad { d, v } => *self.flag(d) = load_bool(env, v)?,
                Op::Not { d } => *self.flag(d) = !self.b[ix(d)],
                Op::And { d, b } => *self.flag(d) = self.b[ix(d)] && self.b[ix(b)],
                Op::Or { d, b } => *self.flag(d) = self.b[ix(d)] || self.b[ix(b)],
                Op::JumpIfNot { c, to } => {
                    if !self.b[ix(c)] {
                        *pc = usize::from(to);
                    }
                }
                Op::Jump { to } => *pc = usize::from(to),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::Fast;
    use crate::formula::testing::{compile_text, show};
    use crate::formula::{Format, MapEnv, Number, Value};

    const FORMULAS: &[(&str, bool)] = &[
        ("x", false),
        ("value()+1", false),
        ("x*2", false),
        ("floor((x-10)/2)+if(y>3,1,2)*3", false),
        ("floor((x-10)/2)", false),
        ("ceil((x-10)/4)+ceil(x/y)+floor(x/y)", false),
        ("if(b,20,30)", false),
        ("if(b,x,y)", false),
        ("max(value()-1,1)+min(value(),x)", false),
        (
            "x+y*2-x+y/2+x*y-3+x%3+y%x-x/3+x/8+(-x)+abs(x-y)+round(x/4)",
            false,
        ),
        ("if(x>=5,max(floor((y-10)/2),0)+x/2,min(x,3))", false),
        ("x*y*x*y*x*y", false),
        ("x^2+y^0.5", false),
        ("1/0+x", false),
        ("x>y", true),
        ("(x>3&&!b)||y>=18", true),
        ("x==y||x!=2.5||if(b,x<y,x<=y)", true),
    ];

    /// Every value pair, including fractions, negatives, zero and numbers near the `i64`
    /// limits: the program answers what the tree interpreter answers (values, and errors
    /// with their code, message and span), and it does answer on its own for ordinary
    /// inputs.
    #[test]
    fn programs_agree_with_the_tree() {
        let values = [
            "0",
            "1",
            "-7",
            "15",
            "2.5",
            "-0.125",
            "1.000000000000000001",
            "9223372036854775807",
            "-9223372036854775808",
            "12345678901234567890.5",
        ];
        let n = |t: &str| Number::parse_text(t).unwrap();
        let (mut answered, mut failed) = (0, 0);
        for (text, boolean) in FORMULAS {
            for x in values {
                for y in values {
                    for input in [None, Some(Value::Number(n(y)))] {
                        let mut env = MapEnv::with_pcgen_defaults();
                        env.define("x", Format::Number, Some(Value::Number(n(x))));
                        env.define("y", Format::Number, Some(Value::Number(n(y))));
                        env.define("b", Format::Boolean, Some(Value::Boolean(x < y)));
                        let c = compile_text(text, *boolean, &env);
                        let (Fast::Num(program) | Fast::Bool(program)) = c.fast().general() else {
                            panic!("{text} compiles to a program");
                        };
                        let tree = c.eval_tree(&env, input.as_ref());
                        let full = c.eval(&env, input.as_ref());
                        let ctx = format!("{text} x={x} y={y} input={input:?}");
                        assert_eq!(full, tree, "{ctx}");
                        let typed = if *boolean {
                            c.eval_bool(&env, input.as_ref()).map(Value::Boolean)
                        } else {
                            c.eval_number(&env, input.as_ref()).map(Value::Number)
                        };
                        assert_eq!(show(&typed), show(&tree), "{ctx}");
                        let own = if *boolean {
                            program.boolean(&env, input.as_ref()).map(|_| ())
                        } else {
                            program.number(&env, input.as_ref()).map(|_| ())
                        };
                        match own {
                            Ok(()) => answered += 1,
                            Err(super::Stop::Failed(_)) => failed += 1,
                            Err(super::Stop::Beyond) => {}
                        }
                    }
                }
            }
        }
        // Most cases are answered by the program itself, and it reports errors itself.
        let total = FORMULAS.len() * 10 * 10 * 2;
        assert!(answered * 2 > total, "{answered} of {total}");
        assert!(failed * 20 > total, "{failed} errors of {total}");
    }

    #[test]
    fn deep_formulas_are_left_to_the_tree() {
        let mut env = MapEnv::with_pcgen_defaults();
        env.define("x", Format::Number, Some(Value::Number(Number::Int(6))));
        // Right-nested: each level needs one more temporary register.
        let deep = "x+(x+(x+(x+(x+(x+(x+(x+(x+(x+x)))))))))";
        let c = compile_text(deep, false, &env);
        assert!(matches!(c.fast(), Fast::Tree));
        assert_eq!(c.eval(&env, None).unwrap().to_string(), "66");
    }
}
