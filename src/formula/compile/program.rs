//! Flat register programs for NUMBER and BOOLEAN formulas: the first thing evaluation tries.
//!
//! A program is a short list of [`Op`]s over eight NUMBER and eight BOOLEAN registers, run
//! by an interpreter that is generic over the caller's [`ValueEnv`], so variable reads are
//! inlined (no `dyn` call, no `Value` clone) and no node returns a `Result` through memory.
//! Arithmetic is the same exact, checked [`Number`] arithmetic as everywhere else.
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
use std::cmp::Ordering;

/// Registers per file; deeper formulas are not compiled to a program.
const REGS: u8 = 8;

/// Where an operand comes from.
#[derive(Clone, Copy, Debug)]
enum Src {
    /// A NUMBER register.
    R(u8),
    /// A NUMBER variable.
    V(VarRef),
    /// A constant: mantissa and decimal scale (0 = whole).
    C(i64, u32),
    /// `value()`.
    In,
}

/// One instruction. `d` is the destination register.
#[derive(Clone, Copy, Debug)]
enum Op {
    Mov { d: u8, a: Src },
    Bin { op: NumOp, d: u8, a: Src, b: Src },
    DivC { d: u8, a: Src, c: ConstDivisor },
    /// `floor(a/b)` (or `ceil`) in one step.
    DivRound { ceil: bool, d: u8, a: Src, b: Src },
    /// `floor(a/c)` (or `ceil`) for a constant whole divisor.
    DivRoundC { ceil: bool, d: u8, a: Src, c: ConstDivisor },
    Neg { d: u8, a: Src },
    Fn1 { f: NumFn, d: u8, a: Src },
    /// `max`/`min` of two: ties give `b`/`a` like the closure tree.
    MaxMin { max: bool, d: u8, a: Src, b: Src },
    /// `d := if(c, a, b)` reading only the operand taken.
    Select { d: u8, c: u8, a: Src, b: Src },
    Cmp { op: CmpOp, d: u8, a: Src, b: Src },
    NumEq { negate: bool, d: u8, a: Src, b: Src },
    BConst { d: u8, v: bool },
    BVar { d: u8, v: VarRef },
    Not { d: u8 },
    And { d: u8, b: u8 },
    Or { d: u8, b: u8 },
    JumpIfNot { c: u8, to: u16 },
    Jump { to: u16 },
}

/// A compiled program; its result is NUMBER register 0 or BOOLEAN register 0.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    ops: Box<[Op]>,
}

#[inline(always)]
fn ix(r: u8) -> usize {
    usize::from(r & (REGS - 1))
}

struct Builder {
    ops: Vec<Op>,
}

impl Builder {
    fn push(&mut self, op: Op) -> Option<usize> {
        self.ops.push(op);
        (self.ops.len() < usize::from(u16::MAX)).then(|| self.ops.len() - 1)
    }

    fn here(&self) -> Option<u16> {
        u16::try_from(self.ops.len()).ok()
    }

    fn patch(&mut self, at: usize, to: u16) {
        match self.ops.get_mut(at) {
            Some(Op::JumpIfNot { to: t, .. } | Op::Jump { to: t }) => *t = to,
            _ => {}
        }
    }

    /// An operand: variables, constants and `value()` directly, anything else computed
    /// into register `d`.
    fn src(&mut self, n: &Num, d: u8) -> Option<Src> {
        Some(match n {
            Num::Const(c) => konst(*c)?,
            Num::Var(v, _) => Src::V(*v),
            Num::Input(_) => Src::In,
            other => {
                self.num(other, d)?;
                Src::R(d)
            }
        })
    }

    fn div_parts(&mut self, n: &Num, d: u8) -> Option<Option<(Src, Src)>> {
        Some(match n {
            Num::Bin(NumOp::Div, a, b, _) => {
                let a = self.src(a, d)?;
                let b = self.src(b, d.checked_add(1)?)?;
                Some((a, b))
            }
            Num::BinVC(NumOp::Div, v, _, c, _) => Some((Src::V(*v), konst(*c)?)),
            Num::BinVV(NumOp::Div, v, _, w, _, _) => Some((Src::V(*v), Src::V(*w))),
            _ => None,
        })
    }

    fn bin(&mut self, op: NumOp, d: u8, a: Src, b: Src) -> Option<()> {
        if let (NumOp::Div, Src::C(c, 0)) = (op, b) {
            if let Some(c) = ConstDivisor::new(Number::Int(c)) {
                self.push(Op::DivC { d, a, c })?;
                return Some(());
            }
        }
        self.push(Op::Bin { op, d, a, b })?;
        Some(())
    }

    /// Compiles `n` into NUMBER register `d`, using registers >= `d` only.
    fn num(&mut self, n: &Num, d: u8) -> Option<()> {
        if d >= REGS - 1 {
            return None;
        }
        let next = d + 1;
        match n {
            Num::Const(c) => self.push(Op::Mov { d, a: konst(*c)? }).map(drop),
            Num::Var(v, _) => self.push(Op::Mov { d, a: Src::V(*v) }).map(drop),
            Num::Input(_) => self.push(Op::Mov { d, a: Src::In }).map(drop),
            Num::Neg(x, _) => {
                let a = self.src(x, d)?;
                self.push(Op::Neg { d, a }).map(drop)
            }
            Num::Bin(op, a, b, _) => {
                let a = self.src(a, d)?;
                let b = self.src(b, next)?;
                self.bin(*op, d, a, b)
            }
            Num::BinVC(op, v, _, c, _) => self.bin(*op, d, Src::V(*v), konst(*c)?),
            Num::BinVV(op, v, _, w, _, _) => self.bin(*op, d, Src::V(*v), Src::V(*w)),
            Num::Chain(first, rest) => {
                self.num(first, d)?;
                for (op, x, _) in rest {
                    let b = self.src(x, next)?;
                    self.bin(*op, d, Src::R(d), b)?;
                }
                Some(())
            }
            Num::Fn1(f @ (NumFn::Floor | NumFn::Ceil), inner, _) => {
                match self.div_parts(inner, d)? {
                    Some((a, Src::C(c, 0))) if ConstDivisor::new(Number::Int(c)).is_some() => {
                        let c = ConstDivisor::new(Number::Int(c))?;
                        self.push(Op::DivRoundC {
                            ceil: *f == NumFn::Ceil,
                            d,
                            a,
                            c,
                        })
                        .map(drop)
                    }
                    Some((a, b)) => self
                        .push(Op::DivRound {
                            ceil: *f == NumFn::Ceil,
                            d,
                            a,
                            b,
                        })
                        .map(drop),
                    None => {
                        let a = self.src(inner, d)?;
                        self.push(Op::Fn1 { f: *f, d, a }).map(drop)
                    }
                }
            }
            Num::Fn1(f, x, _) => {
                let a = self.src(x, d)?;
                self.push(Op::Fn1 { f: *f, d, a }).map(drop)
            }
            Num::Max(xs) | Num::Min(xs) => {
                let max = matches!(n, Num::Max(_));
                let Some((first, rest)) = xs.split_first() else {
                    return self
                        .push(Op::Mov {
                            d,
                            a: Src::C(0, 0),
                        })
                        .map(drop);
                };
                let mut a = self.src(first, d)?;
                if rest.is_empty() {
                    return self.push(Op::Mov { d, a }).map(drop);
                }
                for x in rest {
                    let b = self.src(x, next)?;
                    self.push(Op::MaxMin { max, d, a, b })?;
                    a = Src::R(d);
                }
                Some(())
            }
            Num::If(c, t, f) => {
                self.boolean(c, d)?;
                if let (Some(a), Some(b)) = (simple(t), simple(f)) {
                    return self.push(Op::Select { d, c: d, a, b }).map(drop);
                }
                let jump_false = self.push(Op::JumpIfNot { c: d, to: 0 })?;
                self.num(t, d)?;
                let jump_end = self.push(Op::Jump { to: 0 })?;
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
        if d >= REGS - 1 {
            return None;
        }
        let next = d + 1;
        match b {
            Bool::Const(v) => self.push(Op::BConst { d, v: *v }).map(drop),
            Bool::Var(v, _) => self.push(Op::BVar { d, v: *v }).map(drop),
            Bool::Not(x) => {
                self.boolean(x, d)?;
                self.push(Op::Not { d }).map(drop)
            }
            // Both operands are evaluated, like the closure tree and the reference.
            Bool::And(x, y) => {
                self.boolean(x, d)?;
                self.boolean(y, next)?;
                self.push(Op::And { d, b: next }).map(drop)
            }
            Bool::Or(x, y) => {
                self.boolean(x, d)?;
                self.boolean(y, next)?;
                self.push(Op::Or { d, b: next }).map(drop)
            }
            Bool::Cmp(op, x, y) => {
                let a = self.src(x, d)?;
                let b = self.src(y, next)?;
                self.push(Op::Cmp { op: *op, d, a, b }).map(drop)
            }
            Bool::CmpVC(op, v, _, c) => self
                .push(Op::Cmp {
                    op: *op,
                    d,
                    a: Src::V(*v),
                    b: konst(*c)?,
                })
                .map(drop),
            Bool::NumEq(negate, x, y) => {
                let a = self.src(x, d)?;
                let b = self.src(y, next)?;
                self.push(Op::NumEq {
                    negate: *negate,
                    d,
                    a,
                    b,
                })
                .map(drop)
            }
            Bool::If(c, t, f) => {
                self.boolean(c, d)?;
                let jump_false = self.push(Op::JumpIfNot { c: d, to: 0 })?;
                self.boolean(t, d)?;
                let jump_end = self.push(Op::Jump { to: 0 })?;
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
}

/// A NUMBER read without computing (a variable, a constant, `value()`).
fn simple(n: &Num) -> Option<Src> {
    match n {
        Num::Const(c) => konst(*c),
        Num::Var(v, _) => Some(Src::V(*v)),
        Num::Input(_) => Some(Src::In),
        _ => None,
    }
}

/// A constant operand (`None` for a decimal that does not fit the registers).
fn konst(c: Number) -> Option<Src> {
    let (m, sc) = split(c)?;
    Some(Src::C(m, sc))
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
    /// The program of a NUMBER tree, if it fits the registers and has no generic values.
    pub(crate) fn of_num(n: &Num) -> Option<Program> {
        let mut b = Builder { ops: Vec::new() };
        b.num(n, 0)?;
        Some(Program {
            ops: b.ops.into_boxed_slice(),
        })
    }

    /// The program of a BOOLEAN tree.
    pub(crate) fn of_bool(n: &Bool) -> Option<Program> {
        let mut b = Builder { ops: Vec::new() };
        b.boolean(n, 0)?;
        Some(Program {
            ops: b.ops.into_boxed_slice(),
        })
    }

    /// Runs a NUMBER program; `None` = give up (evaluate with the closure tree instead).
    #[inline]
    pub(crate) fn number<E: ValueEnv + ?Sized>(
        &self,
        env: &E,
        input: Option<Number>,
    ) -> Option<Number> {
        let mut m = Machine::new(input);
        m.run(&self.ops, env)?;
        Some(join(m.m[0], m.s[0]))
    }

    /// Runs a BOOLEAN program.
    #[inline]
    pub(crate) fn boolean<E: ValueEnv + ?Sized>(
        &self,
        env: &E,
        input: Option<Number>,
    ) -> Option<bool> {
        let mut m = Machine::new(input);
        m.run(&self.ops, env)?;
        Some(m.b[0])
    }
}

/// Registers: NUMBERs as mantissa `m` and scale `s` (whole numbers have scale 0, so
/// integer arithmetic is plain checked `i64` arithmetic), BOOLEANs in `b`.
struct Machine {
    m: [i64; REGS as usize],
    s: [u32; REGS as usize],
    b: [bool; REGS as usize],
    /// `value()` as mantissa and scale, if `has_input`.
    input_m: i64,
    input_s: u32,
    has_input: bool,
}

type V = (i64, u32);

/// The general case of a binary operator: exact [`Number`] arithmetic.
#[inline(never)]
fn slow_bin(op: NumOp, x: V, y: V) -> Option<V> {
    split(apply(op, join(x.0, x.1), join(y.0, y.1)).ok()?)
}

#[inline(never)]
fn slow_cmp(x: V, y: V) -> Ordering {
    // Registers always fit the fixed-point form, where `Number::cmp_num` compares so too.
    fixed_cmp(x, y)
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

#[inline(always)]
fn cmp(x: V, y: V) -> Ordering {
    if x.1 == 0 && y.1 == 0 {
        x.0.cmp(&y.0)
    } else {
        slow_cmp(x, y)
    }
}

impl Machine {
    #[inline(always)]
    fn new(input: Option<Number>) -> Machine {
        let (input_m, input_s, has_input) = match input {
            Some(Number::Int(i)) => (i, 0, true),
            Some(Number::Dec(d)) => match split_dec(d) {
                Some((m, s)) => (m, s, true),
                None => (0, 0, false),
            },
            None => (0, 0, false),
        };
        Machine {
            m: [0; REGS as usize],
            s: [0; REGS as usize],
            b: [false; REGS as usize],
            input_m,
            input_s,
            has_input,
        }
    }

    #[inline(always)]
    fn get<E: ValueEnv + ?Sized>(&self, s: Src, env: &E) -> Option<V> {
        match s {
            Src::R(r) => Some((self.m[ix(r)], self.s[ix(r)])),
            Src::V(v) => split(env.number(v).ok()?),
            Src::C(m, sc) => Some((m, sc)),
            Src::In => self.has_input.then_some((self.input_m, self.input_s)),
        }
    }

    #[inline(always)]
    fn set(&mut self, d: u8, v: V) {
        self.m[ix(d)] = v.0;
        self.s[ix(d)] = v.1;
    }

    #[inline(always)]
    fn bin(op: NumOp, x: V, y: V) -> Option<V> {
        if x.1 == 0 && y.1 == 0 {
            let (a, b) = (x.0, y.0);
            let r = match op {
                NumOp::Add => a.checked_add(b),
                NumOp::Sub => a.checked_sub(b),
                NumOp::Mul => a.checked_mul(b),
                NumOp::Div => match a.checked_rem(b) {
                    Some(0) => a.checked_div(b),
                    _ => None,
                },
                NumOp::Rem => None,
                NumOp::Pow => None,
            };
            if let Some(r) = r {
                return Some((r, 0));
            }
        } else {
            // Fixed-point sums and products exactly as `Number` computes them.
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

    fn run<E: ValueEnv + ?Sized>(&mut self, ops: &[Op], env: &E) -> Option<()> {
        let mut pc = 0usize;
        while let Some(op) = ops.get(pc) {
            pc += 1;
            match *op {
                Op::Mov { d, a } => {
                    let x = self.get(a, env)?;
                    self.set(d, x);
                }
                Op::Bin { op, d, a, b } => {
                    let x = self.get(a, env)?;
                    let y = self.get(b, env)?;
                    self.set(d, Self::bin(op, x, y)?);
                }
                Op::DivC { d, a, c } => {
                    let x = self.get(a, env)?;
                    let r = match (x.1, c.divide_int(x.0)) {
                        (0, Some(r)) => r,
                        _ => split(c.divide(join(x.0, x.1)).ok()?)?,
                    };
                    self.set(d, r);
                }
                Op::DivRound { ceil, d, a, b } => {
                    let x = self.get(a, env)?;
                    let y = self.get(b, env)?;
                    let r = if ceil {
                        join(x.0, x.1).div_ceil(join(y.0, y.1))
                    } else {
                        join(x.0, x.1).div_floor(join(y.0, y.1))
                    };
                    self.set(d, split(r.ok()?)?);
                }
                Op::DivRoundC { ceil, d, a, c } => {
                    let x = self.get(a, env)?;
                    let r = if x.1 == 0 {
                        (if ceil { c.ceil_int(x.0) } else { c.floor_int(x.0) }, 0)
                    } else {
                        let (x, y) = (join(x.0, x.1), Number::Int(c.get()));
                        split(if ceil { x.div_ceil(y) } else { x.div_floor(y) }.ok()?)?
                    };
                    self.set(d, r);
                }
                Op::Neg { d, a } => {
                    let x = self.get(a, env)?;
                    let r = match x.0.checked_neg() {
                        Some(r) if x.1 == 0 => (r, 0),
                        _ => split(join(x.0, x.1).checked_neg().ok()?)?,
                    };
                    self.set(d, r);
                }
                Op::Fn1 { f, d, a } => {
                    let x = self.get(a, env)?;
                    let r = match f {
                        NumFn::Floor | NumFn::Ceil | NumFn::Round if x.1 == 0 => x,
                        NumFn::Abs if x.1 == 0 && x.0 != i64::MIN => (x.0.abs(), 0),
                        _ => slow_fn1(f, x)?,
                    };
                    self.set(d, r);
                }
                Op::MaxMin { max, d, a, b } => {
                    let x = self.get(a, env)?;
                    let y = self.get(b, env)?;
                    let greater = cmp(x, y) == Ordering::Greater;
                    self.set(d, if greater == max { x } else { y });
                }
                Op::Select { d, c, a, b } => {
                    let s = if self.b[ix(c)] { a } else { b };
                    let x = self.get(s, env)?;
                    self.set(d, x);
                }
                Op::Cmp { op, d, a, b } => {
                    let x = self.get(a, env)?;
                    let y = self.get(b, env)?;
                    let o = cmp(x, y);
                    self.b[ix(d)] = match op {
                        CmpOp::Lt => o == Ordering::Less,
                        CmpOp::Gt => o == Ordering::Greater,
                        CmpOp::Le => o != Ordering::Greater,
                        CmpOp::Ge => o != Ordering::Less,
                    };
                }
                Op::NumEq { negate, d, a, b } => {
                    let x = self.get(a, env)?;
                    let y = self.get(b, env)?;
                    self.b[ix(d)] = (cmp(x, y) == Ordering::Equal) != negate;
                }
                Op::BConst { d, v } => self.b[ix(d)] = v,
                Op::BVar { d, v } => self.b[ix(d)] = env.boolean(v).ok()?,
                Op::Not { d } => self.b[ix(d)] = !self.b[ix(d)],
                Op::And { d, b } => self.b[ix(d)] = self.b[ix(d)] && self.b[ix(b)],
                Op::Or { d, b } => self.b[ix(d)] = self.b[ix(d)] || self.b[ix(b)],
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
