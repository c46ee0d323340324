//! Flat register programs for NUMBER and BOOLEAN formulas: the first thing evaluation tries.
//!
//! A program is a short list of [`Op`]s over eight NUMBER and eight BOOLEAN registers,
//! run by an interpreter that is generic over the caller's [`ValueEnv`], so variable reads
//! are inlined (no `dyn` call, no `Value` clone) and no node returns a `Result` through
//! memory. Every operand is a register: constants (and `value()`) sit in registers filled
//! before the run, variables are loaded by an op, so each op costs exactly one dispatch.
//! NUMBERs are held as an `i64` mantissa and a decimal scale: whole numbers (scale 0) use
//! plain checked `i64` arithmetic; fractions use the same fixed-point helpers as
//! [`Number`], and anything else calls [`Number`]'s own exact arithmetic, so the results
//! are the closure tree's results.
//!
//! A program never reports an error: on any failure (a variable without a number, an
//! overflow, a division by zero, a missing `value()`) it gives up and the caller evaluates
//! the formula again with the closure tree (`closure.rs`), which reports the error on its
//! span. Formulas have no side effects, so running them twice is only a cost on the error
//! path.

use super::{Bool, CmpOp, Num, NumFn, NumOp, apply};
use crate::formula::check::VarRef;
use crate::formula::eval::ValueEnv;
use crate::formula::number::{ConstDivisor, Number, fixed_add, fixed_cmp, fixed_mul};
use crate::formula::value::Value;
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
    /// Ties give `b`, like the closure tree.
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

/// A compiled program; its result is NUMBER register 0 or BOOLEAN register 0.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    ops: Box<[Op]>,
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

    fn push(&mut self, op: Op) -> Option<()> {
        (self.ops.len() < usize::from(u16::MAX)).then_some(())?;
        self.ops.push(op);
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

    fn bin(&mut self, op: NumOp, d: u8, a: u8, b: &Num) -> Option<()> {
        if let (NumOp::Div, Num::Const(c)) = (op, b) {
            if let Some(c) = ConstDivisor::new(*c) {
                return self.push(Op::DivC { d, a, c });
            }
        }
        if let Num::Var(v, _) = b {
            if !matches!(op, NumOp::Div) {
                return self.push(Op::ArithRV { op, d, a, v: *v });
            }
        }
        let b = self.operand(b, d.checked_add(1)?)?;
        self.push(match op {
            NumOp::Add => Op::Add { d, a, b },
            NumOp::Sub => Op::Sub { d, a, b },
            NumOp::Mul => Op::Mul { d, a, b },
            op => Op::Bin { op, d, a, b },
        })
    }

    /// Compiles `n` into NUMBER register `d`, using registers >= `d` only as temporaries.
    fn num(&mut self, n: &Num, d: u8) -> Option<()> {
        self.check(d)?;
        let next = d + 1;
        match n {
            Num::Const(_) | Num::Input(_) => {
                let a = self.operand(n, d)?;
                self.push(Op::Mov { d, a })
            }
            Num::Var(v, _) => self.push(Op::Load { d, v: *v }),
            Num::Neg(x, _) => {
                let a = self.operand(x, d)?;
                self.push(Op::Neg { d, a })
            }
            Num::Bin(op, x, y, _) => {
                let a = self.operand(x, d)?;
                self.bin(*op, d, a, y)
            }
            Num::BinVC(op, v, _, c, _) => {
                if *op == NumOp::Div && ConstDivisor::new(*c).is_some() {
                    self.push(Op::Load { d, v: *v })?;
                    return self.bin(*op, d, d, &Num::Const(*c));
                }
                let b = self.konst(*c)?;
                self.check(d)?;
                self.push(Op::ArithVR {
                    op: *op,
                    d,
                    v: *v,
                    b,
                })
            }
            Num::BinVV(op, v, _, w, ws, _) => {
                self.push(Op::Load { d, v: *v })?;
                self.bin(*op, d, d, &Num::Var(*w, *ws))
            }
            Num::Chain(first, rest) => {
                self.num(first, d)?;
                for (op, x, _) in rest {
                    self.bin(*op, d, d, x)?;
                }
                Some(())
            }
            Num::Fn1(f @ (NumFn::Floor | NumFn::Ceil), inner, _) => {
                let ceil = *f == NumFn::Ceil;
                let parts = match &**inner {
                    Num::Bin(NumOp::Div, x, y, _) => Some(((**x).clone(), (**y).clone())),
                    Num::BinVC(NumOp::Div, v, vs, c, _) => {
                        Some((Num::Var(*v, *vs), Num::Const(*c)))
                    }
                    Num::BinVV(NumOp::Div, v, vs, w, ws, _) => {
                        Some((Num::Var(*v, *vs), Num::Var(*w, *ws)))
                    }
                    _ => None,
                };
                match parts {
                    Some((x, y)) => {
                        let a = self.operand(&x, d)?;
                        if let Num::Const(c) = y {
                            if let Some(c) = ConstDivisor::new(c) {
                                return self.push(Op::DivRoundC { ceil, d, a, c });
                            }
                        }
                        let b = self.operand(&y, next)?;
                        self.push(Op::DivRound { ceil, d, a, b })
                    }
                    None => {
                        let a = self.operand(inner, d)?;
                        self.push(Op::Fn1 { f: *f, d, a })
                    }
                }
            }
            Num::Fn1(f, x, _) => {
                let a = self.operand(x, d)?;
                self.push(Op::Fn1 { f: *f, d, a })
            }
            Num::Max(xs) | Num::Min(xs) => {
                let max = matches!(n, Num::Max(_));
                let Some((first, rest)) = xs.split_first() else {
                    let a = self.konst(Number::ZERO)?;
                    return self.push(Op::Mov { d, a });
                };
                let mut a = self.operand(first, d)?;
                if rest.is_empty() {
                    return self.push(Op::Mov { d, a });
                }
                for x in rest {
                    let b = self.operand(x, next)?;
                    self.push(if max {
                        Op::Max { d, a, b }
                    } else {
                        Op::Min { d, a, b }
                    })?;
                    a = d;
                }
                Some(())
            }
            Num::If(c, t, f) => {
                if let (
                    Bool::Var(v, _),
                    Num::Const(_) | Num::Input(_),
                    Num::Const(_) | Num::Input(_),
                ) = (&**c, &**t, &**f)
                {
                    let a = self.operand(t, next)?;
                    let b = self.operand(f, next)?;
                    return self.push(Op::SelectVar { d, v: *v, a, b });
                }
                self.boolean(c, d)?;
                if let (Num::Const(_) | Num::Input(_), Num::Const(_) | Num::Input(_)) = (&**t, &**f)
                {
                    let a = self.operand(t, next)?;
                    let b = self.operand(f, next)?;
                    return self.push(Op::Select { d, c: d, a, b });
                }
                let jump_false = self.here()?;
                self.push(Op::JumpIfNot { c: d, to: 0 })?;
                self.num(t, d)?;
                let jump_end = self.here()?;
                self.push(Op::Jump { to: 0 })?;
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
            Bool::Const(v) => self.push(Op::BConst { d, v: *v }),
            Bool::Var(v, _) => self.push(Op::BLoad { d, v: *v }),
            Bool::Not(x) => {
                self.boolean(x, d)?;
                self.push(Op::Not { d })
            }
            // Both operands are evaluated, like the closure tree and the reference.
            Bool::And(x, y) => {
                self.boolean(x, d)?;
                self.boolean(y, next)?;
                self.push(Op::And { d, b: next })
            }
            Bool::Or(x, y) => {
                self.boolean(x, d)?;
                self.boolean(y, next)?;
                self.push(Op::Or { d, b: next })
            }
            Bool::Cmp(op, x, y) => {
                let a = self.operand(x, d)?;
                let b = self.operand(y, next)?;
                self.push(Op::Cmp { op: *op, d, a, b })
            }
            Bool::CmpVC(op, v, _, c) => {
                let b = self.konst(*c)?;
                self.check(d)?;
                self.push(Op::CmpV {
                    op: *op,
                    d,
                    v: *v,
                    b,
                })
            }
            Bool::NumEq(negate, x, y) => {
                let a = self.operand(x, d)?;
                let b = self.operand(y, next)?;
                self.push(Op::NumEq {
                    negate: *negate,
                    d,
                    a,
                    b,
                })
            }
            Bool::If(c, t, f) => {
                self.boolean(c, d)?;
                let jump_false = self.here()?;
                self.push(Op::JumpIfNot { c: d, to: 0 })?;
                self.boolean(t, d)?;
                let jump_end = self.here()?;
                self.push(Op::Jump { to: 0 })?;
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
fn load<E: ValueEnv + ?Sized>(env: &E, v: VarRef) -> Option<(i64, u32)> {
    match env.int(v) {
        Some(i) => Some((i, 0)),
        None => load_slow(env, v),
    }
}

#[inline(never)]
fn load_slow<E: ValueEnv + ?Sized>(env: &E, v: VarRef) -> Option<(i64, u32)> {
    split(env.number(v).ok()?)
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

    /// Fresh registers: the constants and `value()` in their slots (`None` when the
    /// program reads `value()` and there is no NUMBER input).
    #[inline(always)]
    fn start(&self, m: &mut Machine, input: Option<&Value>) -> Option<()> {
        if let Some(r) = self.input {
            // Whole numbers are read in place (no copy of the `Number` through memory).
            let (x, sc) = match input {
                Some(Value::Number(Number::Int(i))) => (*i, 0),
                Some(Value::Number(n)) => split(*n)?,
                _ => return None,
            };
            m.m[ix(r)] = x;
            m.s[ix(r)] = u8::try_from(sc).ok()?;
        }
        Some(())
    }

    /// Runs a NUMBER program; `None` = give up (evaluate with the closure tree instead).
    #[inline(always)]
    pub(crate) fn number<E: ValueEnv + ?Sized>(
        &self,
        env: &E,
        input: Option<&Value>,
    ) -> Option<Number> {
        let (m, s) = self.number_parts(env, input)?;
        Some(join(m, s))
    }

    /// The NUMBER result as mantissa and scale (returned in registers).
    #[inline]
    fn number_parts<E: ValueEnv + ?Sized>(&self, env: &E, input: Option<&Value>) -> Option<V> {
        let mut m = Machine {
            m: self.init_m,
            s: self.init_s,
            b: [false; REGS],
        };
        self.start(&mut m, input)?;
        m.run(&self.ops, env)?;
        Some((m.m[0], u32::from(m.s[0])))
    }

    /// Runs a BOOLEAN program.
    #[inline]
    pub(crate) fn boolean<E: ValueEnv + ?Sized>(
        &self,
        env: &E,
        input: Option<&Value>,
    ) -> Option<bool> {
        let mut m = Machine {
            m: self.init_m,
            s: self.init_s,
            b: [false; REGS],
        };
        self.start(&mut m, input)?;
        m.run(&self.ops, env)?;
        Some(m.b[0])
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
fn slow_bin(op: NumOp, x: V, y: V) -> Option<V> {
    split(apply(op, join(x.0, x.1), join(y.0, y.1)).ok()?)
}

#[inline(never)]
fn slow_fn1(f: NumFn, x: V) -> Option<V> {
    let x = join(x.0, x.1);
    split(match f {
        NumFn::Floor => x.floor(),
        NumFn::Ceil => x.ceil(),
        NumFn::Abs => x.abs().ok()?,
        NumFn::Round => x.round().ok()?,
    })
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
fn arith(op: NumOp, x: V, y: V) -> Option<V> {
    if x.1 == 0 && y.1 == 0 {
        let r = match op {
            NumOp::Add => x.0.checked_add(y.0),
            NumOp::Sub => x.0.checked_sub(y.0),
            NumOp::Mul => x.0.checked_mul(y.0),
            NumOp::Div if y.0 != 0 && x.0.checked_rem(y.0) == Some(0) => x.0.checked_div(y.0),
            _ => None,
        };
        if let Some(r) = r {
            return Some((r, 0));
        }
    } else {
        let r = match op {
            NumOp::Add => fixed_add(x, y),
            NumOp::Mul => fixed_mul(x, y),
            _ => None,
        };
        if r.is_some() {
            return r;
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

    /// Stores `v`; `None` for a scale beyond the registers (never produced: scales stay
    /// <= 18).
    #[inline(always)]
    fn set(&mut self, d: u8, v: V) -> Option<()> {
        self.m[ix(d)] = v.0;
        self.s[ix(d)] = u8::try_from(v.1).ok()?;
        Some(())
    }

    #[inline(always)]
    fn flag(&mut self, d: u8) -> &mut bool {
        &mut self.b[ix(d)]
    }

    #[inline(always)]
    fn run<E: ValueEnv + ?Sized>(&mut self, ops: &[Op], env: &E) -> Option<()> {
        let mut pc = 0usize;
        while let Some(op) = ops.get(pc) {
            pc += 1;
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
                            (x.0.checked_div(y.0)?, 0)
                        }
                        _ => slow_bin(op, x, y)?,
                    };
                    self.set(d, r)?;
                }
                Op::DivC { d, a, c } => {
                    let x = self.get(a);
                    let r = match (x.1, c.divide_int(x.0)) {
                        (0, Some(r)) => r,
                        _ => split(c.divide(join(x.0, x.1)).ok()?)?,
                    };
                    self.set(d, r)?;
                }
                Op::DivRound { ceil, d, a, b } => {
                    let (x, y) = (join(self.get(a).0, self.get(a).1), self.get(b));
                    let y = join(y.0, y.1);
                    let r = if ceil { x.div_ceil(y) } else { x.div_floor(y) };
                    self.set(d, split(r.ok()?)?)?;
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
                        split(if ceil { x.div_ceil(y) } else { x.div_floor(y) }.ok()?)?
                    };
                    self.set(d, r)?;
                }
                Op::Neg { d, a } => {
                    let x = self.get(a);
                    let r = match x.0.checked_neg() {
                        Some(r) if x.1 == 0 => (r, 0),
                        _ => split(join(x.0, x.1).checked_neg().ok()?)?,
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
                    let x = self.get(if env.boolean(v).ok()? { a } else { b });
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
                Op::BLoad { d, v } => *self.flag(d) = env.boolean(v).ok()?,
                Op::Not { d } => *self.flag(d) = !self.b[ix(d)],
                Op::And { d, b } => *self.flag(d) = self.b[ix(d)] && self.b[ix(b)],
                Op::Or { d, b } => *self.flag(d) = self.b[ix(d)] || self.b[ix(b)],
                Op::JumpIfNot { c, to } => {
                    if !self.b[ix(c)] {
                        pc = usize::from(to);
                    }
                }
                Op::Jump { to } => pc = usize::from(to),
            }
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::Fast;
    use crate::formula::testing::{compile_text, show};
    use crate::formula::{Format, MapEnv, Number, Value};

    const FORMULAS: &[(&str, bool)] = &[
        ("floor((x-10)/2)+if(y>3,1,2)*3", false),
        ("floor((x-10)/2)", false),
        ("ceil((x-10)/4)+ceil(x/y)+floor(x/y)", false),
        ("if(b,20,30)", false),
        ("max(value()-1,1)+min(value(),x)", false),
        (
            "x+y*2-x+y/2+x*y-3+x%3+y%x-x/3+x/8+(-x)+abs(x-y)+round(x/4)",
            false,
        ),
        ("if(x>=5,max(floor((y-10)/2),0)+x/2,min(x,3))", false),
        ("x*y*x*y*x*y", false),
        ("x^2+y^0.5", false),
        ("(x>3&&!b)||y>=18", true),
        ("x==y||x!=2.5||if(b,x<y,x<=y)", true),
    ];

    /// Every value pair, including fractions, negatives, zero and numbers near the `i64`
    /// limits: the program agrees with the closure tree and the tree interpreter (values,
    /// and errors with their code and span), and it does give an answer of its own for
    /// ordinary inputs.
    #[test]
    fn programs_agree_with_closures_and_tree() {
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
        let mut answered = 0;
        for (text, boolean) in FORMULAS {
            for x in values {
                for y in values {
                    for input in [None, Some(Value::Number(n(y)))] {
                        let mut env = MapEnv::with_pcgen_defaults();
                        env.define("x", Format::Number, Some(Value::Number(n(x))));
                        env.define("y", Format::Number, Some(Value::Number(n(y))));
                        env.define("b", Format::Boolean, Some(Value::Boolean(x < y)));
                        let c = compile_text(text, *boolean, &env);
                        let program = match c.fast().general() {
                            Fast::Num(_, p) | Fast::Bool(_, p) => p.clone(),
                            Fast::Tiny(..) | Fast::Tree => None,
                        };
                        let program = program.expect("formula compiles to a program");
                        let closures = c.eval_closures(&env, input.as_ref());
                        let tree = c.eval_tree(&env, input.as_ref());
                        let full = c.eval(&env, input.as_ref());
                        let ctx = format!("{text} x={x} y={y} input={input:?}");
                        assert_eq!(show(&full), show(&closures), "{ctx}");
                        assert_eq!(show(&full), show(&tree), "{ctx}");
                        let own = if *boolean {
                            program
                                .boolean(&env, input.as_ref())
                                .map(|b| Value::Boolean(b).to_string())
                        } else {
                            program
                                .number(&env, input.as_ref())
                                .map(|n| Value::Number(n).to_string())
                        };
                        if let Some(own) = own {
                            answered += 1;
                            assert_eq!(Ok(own), closures.map(|v| v.to_string()), "{ctx}");
                        }
                    }
                }
            }
        }
        // Most cases (all but overflows, division by zero and missing input) are answered
        // by the program itself.
        let total = FORMULAS.len() * 10 * 10 * 2;
        assert!(answered * 3 > total, "{answered} of {total}");
    }

    #[test]
    fn deep_formulas_fall_back_to_closures() {
        let mut env = MapEnv::with_pcgen_defaults();
        env.define("x", Format::Number, Some(Value::Number(Number::Int(6))));
        // Right-nested: each level needs one more temporary register.
        let deep = "x+(x+(x+(x+(x+(x+(x+(x+(x+(x+x)))))))))";
        let c = compile_text(deep, false, &env);
        assert!(matches!(c.fast(), Fast::Num(_, None)));
        assert_eq!(c.eval(&env, None).unwrap().to_string(), "66");
    }
}
