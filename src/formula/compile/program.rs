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
use crate::formula::number::{ConstDivisor, Number};
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
    /// A constant.
    C(Number),
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
            Num::Const(c) => Src::C(*c),
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
            Num::BinVC(NumOp::Div, v, _, c, _) => Some((Src::V(*v), Src::C(*c))),
            Num::BinVV(NumOp::Div, v, _, w, _, _) => Some((Src::V(*v), Src::V(*w))),
            _ => None,
        })
    }

    fn bin(&mut self, op: NumOp, d: u8, a: Src, b: Src) -> Option<()> {
        if let (NumOp::Div, Src::C(c)) = (op, b) {
            if let Some(c) = ConstDivisor::new(c) {
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
            Num::Const(c) => self.push(Op::Mov { d, a: Src::C(*c) }).map(drop),
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
            Num::BinVC(op, v, _, c, _) => self.bin(*op, d, Src::V(*v), Src::C(*c)),
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
                            a: Src::C(Number::ZERO),
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
                    b: Src::C(*c),
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
        Num::Const(c) => Some(Src::C(*c)),
        Num::Var(v, _) => Some(Src::V(*v)),
        Num::Input(_) => Some(Src::In),
        _ => None,
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
        let mut m = Machine {
            nums: [Number::ZERO; REGS as usize],
            bools: [false; REGS as usize],
        };
        m.run(&self.ops, env, input)?;
        Some(m.nums[0])
    }

    /// Runs a BOOLEAN program.
    #[inline]
    pub(crate) fn boolean<E: ValueEnv + ?Sized>(
        &self,
        env: &E,
        input: Option<Number>,
    ) -> Option<bool> {
        let mut m = Machine {
            nums: [Number::ZERO; REGS as usize],
            bools: [false; REGS as usize],
        };
        m.run(&self.ops, env, input)?;
        Some(m.bools[0])
    }
}

struct Machine {
    nums: [Number; REGS as usize],
    bools: [bool; REGS as usize],
}

impl Machine {
    #[inline(always)]
    fn get<E: ValueEnv + ?Sized>(&self, s: Src, env: &E, input: Option<Number>) -> Option<Number> {
        match s {
            Src::R(r) => Some(self.nums[ix(r)]),
            Src::V(v) => env.number(v).ok(),
            Src::C(c) => Some(c),
            Src::In => input,
        }
    }

    #[inline(always)]
    fn set(&mut self, d: u8, v: Number) {
        self.nums[ix(d)] = v;
    }

    fn run<E: ValueEnv + ?Sized>(
        &mut self,
        ops: &[Op],
        env: &E,
        input: Option<Number>,
    ) -> Option<()> {
        let mut pc = 0usize;
        while let Some(op) = ops.get(pc) {
            pc += 1;
            match *op {
                Op::Mov { d, a } => {
                    let x = self.get(a, env, input)?;
                    self.set(d, x);
                }
                Op::Bin { op, d, a, b } => {
                    let x = self.get(a, env, input)?;
                    let y = self.get(b, env, input)?;
                    self.set(d, apply(op, x, y).ok()?);
                }
                Op::DivC { d, a, c } => {
                    let x = self.get(a, env, input)?;
                    self.set(d, c.divide(x).ok()?);
                }
                Op::DivRound { ceil, d, a, b } => {
                    let x = self.get(a, env, input)?;
                    let y = self.get(b, env, input)?;
                    let r = if ceil { x.div_ceil(y) } else { x.div_floor(y) };
                    self.set(d, r.ok()?);
                }
                Op::Neg { d, a } => {
                    let x = self.get(a, env, input)?;
                    self.set(d, x.checked_neg().ok()?);
                }
                Op::Fn1 { f, d, a } => {
                    let x = self.get(a, env, input)?;
                    let r = match f {
                        NumFn::Floor => x.floor(),
                        NumFn::Ceil => x.ceil(),
                        NumFn::Abs => x.abs().ok()?,
                        NumFn::Round => x.round().ok()?,
                    };
                    self.set(d, r);
                }
                Op::MaxMin { max, d, a, b } => {
                    let x = self.get(a, env, input)?;
                    let y = self.get(b, env, input)?;
                    let greater = x.cmp_num(y) == Ordering::Greater;
                    self.set(d, if greater == max { x } else { y });
                }
                Op::Select { d, c, a, b } => {
                    let s = if self.bools[ix(c)] { a } else { b };
                    let x = self.get(s, env, input)?;
                    self.set(d, x);
                }
                Op::Cmp { op, d, a, b } => {
                    let x = self.get(a, env, input)?;
                    let y = self.get(b, env, input)?;
                    let o = x.cmp_num(y);
                    self.bools[ix(d)] = match op {
                        CmpOp::Lt => o == Ordering::Less,
                        CmpOp::Gt => o == Ordering::Greater,
                        CmpOp::Le => o != Ordering::Greater,
                        CmpOp::Ge => o != Ordering::Less,
                    };
                }
                Op::NumEq { negate, d, a, b } => {
                    let x = self.get(a, env, input)?;
                    let y = self.get(b, env, input)?;
                    self.bools[ix(d)] = (x.cmp_num(y) == Ordering::Equal) != negate;
                }
                Op::BConst { d, v } => self.bools[ix(d)] = v,
                Op::BVar { d, v } => self.bools[ix(d)] = env.boolean(v).ok()?,
                Op::Not { d } => self.bools[ix(d)] = !self.bools[ix(d)],
                Op::And { d, b } => self.bools[ix(d)] = self.bools[ix(d)] && self.bools[ix(b)],
                Op::Or { d, b } => self.bools[ix(d)] = self.bools[ix(d)] || self.bools[ix(b)],
                Op::JumpIfNot { c, to } => {
                    if !self.bools[ix(c)] {
                        pc = usize::from(to);
                    }
                }
                Op::Jump { to } => pc = usize::from(to),
            }
        }
        Some(())
    }
}
