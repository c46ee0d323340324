//! The compiled form of a plain formula (`check::onepass`): its checked operations in
//! postfix order, sixteen bytes each, in one allocation. Every name is already resolved
//! to its variable, every literal read and every operator's format known; what is left is
//! to build the typed tree ([`Plain::tree`]), which is done on first evaluation (as the
//! evaluation forms are), so that a load that evaluates nothing never builds it.

use super::{
    Bool, Num, NumFn, NumOp, Val, chain, cmp_op, comparison, extend_chain, negate, num_op,
};
use crate::formula::ast::{BinaryOp, UnaryOp};
use crate::formula::check::VarRef;
use crate::formula::number::Number;
use crate::source::{FileId, Span};

/// One checked operation, with the span (in the formula's file) of the text it stands for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub(crate) op: Op,
    pub(crate) start: u32,
    pub(crate) end: u32,
}

/// What a [`Step`] does: push an operand, or replace the operands on top by one node.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Op {
    /// A NUMBER variable.
    NumVar(VarRef),
    /// A BOOLEAN variable.
    BoolVar(VarRef),
    /// An integer literal that fits here (most do).
    Int(u32),
    /// Any other number literal: its index in [`PlainMore::numbers`].
    Number(u32),
    /// `value()`, a NUMBER.
    Input,
    /// A binary operator on the two operands on top (formats checked).
    Binary(BinaryOp),
    /// A prefix operator on the operand on top.
    Unary(UnaryOp),
    /// `abs`, `ceil`, `floor` or `round` of the operand on top.
    Fn1(NumFn),
    /// `max` of the given number of operands on top.
    Max(u32),
    /// `min` of the given number of operands on top.
    Min(u32),
    /// `if` of the three operands on top.
    If,
}

/// A plain formula's postfix code.
#[derive(Clone, Debug)]
pub(crate) struct Plain {
    /// The steps, their spans in the formula's file (the compiled formula's span tells
    /// which).
    pub(crate) steps: Box<[Step]>,
    /// What only some formulas have, apart (so that a plain formula's code takes no more
    /// room in its compiled formula than a typed tree): `None` when it has neither.
    pub(crate) more: Option<Box<PlainMore>>,
}

/// The number literals of a [`Plain`] formula that has any.
#[derive(Clone, Debug, Default)]
pub(crate) struct PlainMore {
    /// Number literals that are not small integers.
    pub(crate) numbers: Box<[Number]>,
}

/// A node on the building stack.
enum Item {
    Num(Num),
    Bool(Bool),
}

impl Item {
    fn into_num(self) -> Option<Num> {
        match self {
            Item::Num(n) => Some(n),
            Item::Bool(_) => None,
        }
    }

    fn into_bool(self) -> Option<Bool> {
        match self {
            Item::Bool(b) => Some(b),
            Item::Num(_) => None,
        }
    }
}

impl Plain {
    /// The typed tree: the one the checker makes of the formula's syntax tree (before
    /// `optimize`). `None` only if the code is not well formed, which the one-pass check
    /// never produces. `file` is the formula's file.
    pub(crate) fn tree(&self, file: FileId) -> Option<Val> {
        let mut stack: Vec<Item> = Vec::with_capacity(8);
        // The first chain (`a+b-c…`) gets room for every `+` and `-` still to come.
        let mut first_chain = true;
        for (i, step) in self.steps.iter().enumerate() {
            let span = Span::new(file, step.start as usize..step.end as usize);
            match step.op {
                Op::Binary(op) => {
                    let b = stack.pop()?;
                    let a = stack.last_mut()?;
                    binary(a, op, b, span)?;
                }
                _ => {
                    let item = self.operand(step.op, &mut stack, span)?;
                    stack.push(item);
                    continue;
                }
            }
            if let Some(a) = stack.last_mut() {
                reserve_first_chain(&mut first_chain, a, || self.additions_after(i));
            }
        }
        let root = match stack.pop()? {
            Item::Num(n) => Val::Num(n),
            Item::Bool(b) => Val::Bool(b),
        };
        stack.is_empty().then_some(root)
    }

    /// How many `+` and `-` the steps after step `i` make.
    fn additions_after(&self, i: usize) -> usize {
        let later = self.steps.get(i + 1..).unwrap_or_default();
        later.iter().map(|s| additions(s.op)).sum()
    }

    /// The node of the step `op` (no binary operator), of the text `span`, taking its
    /// operands off `stack`.
    fn operand(&self, op: Op, stack: &mut Vec<Item>, span: Span) -> Option<Item> {
        Some(match op {
            Op::NumVar(v) => Item::Num(Num::Var(v, span)),
            Op::BoolVar(v) => Item::Bool(Bool::Var(v, span)),
            Op::Int(n) => Item::Num(Num::Const(Number::Int(i64::from(n)))),
            Op::Number(k) => Item::Num(Num::Const(*self.more.as_ref()?.numbers.get(k as usize)?)),
            Op::Input => Item::Num(Num::Input(span)),
            Op::Unary(UnaryOp::Neg) => Item::Num(negate(stack.pop()?.into_num()?, span)),
            Op::Unary(UnaryOp::Not) => Item::Bool(Bool::Not(Box::new(stack.pop()?.into_bool()?))),
            Op::Fn1(f) => Item::Num(Num::Fn1(f, Box::new(stack.pop()?.into_num()?), span)),
            Op::Max(n) | Op::Min(n) => {
                let from = stack.len().checked_sub(n as usize)?;
                let xs = stack
                    .drain(from..)
                    .map(Item::into_num)
                    .collect::<Option<Vec<Num>>>()?;
                Item::Num(match op {
                    Op::Max(_) => Num::Max(xs),
                    _ => Num::Min(xs),
                })
            }
            Op::If => {
                let f = stack.pop()?;
                let t = stack.pop()?;
                let c = Box::new(stack.pop()?.into_bool()?);
                match (t, f) {
                    (Item::Num(t), Item::Num(f)) => Item::Num(Num::If(c, Box::new(t), Box::new(f))),
                    (Item::Bool(t), Item::Bool(f)) => {
                        Item::Bool(Bool::If(c, Box::new(t), Box::new(f)))
                    }
                    _ => return None,
                }
            }
            Op::Binary(_) => return None,
        })
    }
}

/// When `first_chain` (no chain was made yet) and `item` is a chain (`a+b-c…`), room in it
/// for `more()` further operations (the `+` and `-` still to come), once.
fn reserve_first_chain(first_chain: &mut bool, item: &mut Item, more: impl FnOnce() -> usize) {
    if *first_chain {
        if let Item::Num(Num::Chain(_, rest)) = item {
            *first_chain = false;
            rest.reserve_exact(more());
        }
    }
}

/// `a op b` into `a` (the node of the text `span`); `None` when the operands' formats do
/// not take the operator (which the one-pass check never produces).
fn binary(a: &mut Item, op: BinaryOp, b: Item, span: Span) -> Option<()> {
    if let Some(nop) = num_op(op) {
        let Item::Num(a) = a else {
            return None;
        };
        arithmetic(a, nop, b.into_num()?, span);
        return Some(());
    }
    let left = std::mem::replace(a, Item::Num(Num::Const(Number::ZERO)));
    *a = match (op, left, b) {
        (_, Item::Num(a), Item::Num(b)) if cmp_op(op).is_some() => {
            Item::Bool(comparison(cmp_op(op)?, a, b))
        }
        (BinaryOp::Eq | BinaryOp::Ne, Item::Num(a), Item::Num(b)) => {
            Item::Bool(Bool::NumEq(op == BinaryOp::Ne, Box::new(a), Box::new(b)))
        }
        (BinaryOp::Eq | BinaryOp::Ne, Item::Bool(a), Item::Bool(b)) => Item::Bool(Bool::Eq(
            op == BinaryOp::Ne,
            Box::new(Val::Bool(a)),
            Box::new(Val::Bool(b)),
        )),
        (BinaryOp::And, Item::Bool(a), Item::Bool(b)) => {
            Item::Bool(Bool::And(Box::new(a), Box::new(b)))
        }
        (BinaryOp::Or, Item::Bool(a), Item::Bool(b)) => {
            Item::Bool(Bool::Or(Box::new(a), Box::new(b)))
        }
        _ => return None,
    };
    Some(())
}

/// `a op b` into `a`, as the checker's `chain` makes it: `var op constant` and `var op var`
/// specialised, a chain `a+b-c…` grown in place.
fn arithmetic(a: &mut Num, op: NumOp, b: Num, span: Span) {
    let b = match (&*a, b) {
        (&Num::Var(v, vs), Num::Const(c)) => {
            *a = Num::BinVC(op, v, vs, c, span);
            return;
        }
        (&Num::Var(v, vs), Num::Var(w, ws)) => {
            *a = Num::BinVV(op, v, vs, w, ws, span);
            return;
        }
        (_, b) => b,
    };
    if let Err(b) = extend_chain(a, op, b, span) {
        let lhs = std::mem::replace(a, Num::Const(Number::ZERO));
        *a = chain(op, lhs, b, span);
    }
}

/// How many `+` and `-` (the operations a chain may hold) step `op` makes.
fn additions(op: Op) -> usize {
    match op {
        Op::Binary(BinaryOp::Add | BinaryOp::Sub) => 1,
        _ => 0,
    }
}
