//! The typed intermediate form of a checked formula, and the semantics of its operators
//! and built-ins, written once: the checker ([`check`](mod@super::check)) produces it, and
//! every evaluator (the register programs and tiny forms of [`super::compile`], its tree
//! interpreter) consumes it. NUMBER nodes ([`Num`]) produce [`Number`]s, BOOLEAN nodes
//! ([`Bool`]) `bool`s, the others ([`Val`]) [`Value`]s, so the hot paths never build or
//! match generic values. Nothing here reads formula text or evaluates a whole tree, so this
//! module depends on no other part of the formula wing but its value types.

use super::ast::BinaryOp;
use super::number::{NumResult, Number};
use super::value::Value;
use crate::source::Span;
use std::cmp::Ordering;

/// An opaque handle for a variable, chosen by the caller's
/// [`CheckEnv`](crate::formula::CheckEnv) and handed back to its
/// [`ValueEnv`](crate::formula::ValueEnv).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarRef(pub u32);

/// An opaque handle for a host function (input, lookup, get, getFact, …), chosen by the
/// caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HostFnRef(pub u32);

/// Binary NUMBER operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NumOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
}

/// One-argument NUMBER functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NumFn {
    Abs,
    Ceil,
    Floor,
    Round,
}

impl NumFn {
    /// Every one-argument NUMBER built-in: what the checker recognises (a name missing
    /// here is no such built-in, never another one).
    pub(crate) const ALL: [NumFn; 4] = [NumFn::Abs, NumFn::Ceil, NumFn::Floor, NumFn::Round];

    /// The built-in's name, lower-case.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            NumFn::Abs => "abs",
            NumFn::Ceil => "ceil",
            NumFn::Floor => "floor",
            NumFn::Round => "round",
        }
    }

    /// The built-in called `lower` (a lower-case name).
    pub(crate) fn from_name(lower: &str) -> Option<NumFn> {
        NumFn::ALL.into_iter().find(|f| f.name() == lower)
    }

    /// The built-in applied to `x`: its semantics, for every evaluator.
    pub(crate) fn apply(self, x: Number) -> NumResult {
        match self {
            NumFn::Abs => x.abs(),
            NumFn::Ceil => Ok(x.ceil()),
            NumFn::Floor => Ok(x.floor()),
            NumFn::Round => x.round(),
        }
    }
}

/// NUMBER comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CmpOp {
    Lt,
    Gt,
    Le,
    Ge,
}

/// A node producing a NUMBER.
#[derive(Clone, Debug)]
pub(crate) enum Num {
    Const(Number),
    Var(VarRef, Span),
    Input(Span),
    Neg(Box<Num>, Span),
    Bin(NumOp, Box<Num>, Box<Num>, Span),
    /// `var op constant` (a specialised `Bin`).
    BinVC(NumOp, VarRef, Span, Number, Span),
    /// `var op var`.
    BinVV(NumOp, VarRef, Span, VarRef, Span, Span),
    /// A left fold `first op1 x1 op2 x2 …` (a long `a+b-c+…` without deep nesting).
    Chain(Box<Num>, Vec<(NumOp, Num, Span)>),
    Fn1(NumFn, Box<Num>, Span),
    Max(Vec<Num>),
    Min(Vec<Num>),
    If(Box<Bool>, Box<Num>, Box<Num>),
    Val(Box<Val>, Span),
}

/// A node producing a BOOLEAN.
#[derive(Clone, Debug)]
pub(crate) enum Bool {
    Const(bool),
    Var(VarRef, Span),
    Not(Box<Bool>),
    And(Box<Bool>, Box<Bool>),
    Or(Box<Bool>, Box<Bool>),
    Cmp(CmpOp, Box<Num>, Box<Num>),
    /// `var cmp constant` (a specialised `Cmp`).
    CmpVC(CmpOp, VarRef, Span, Number),
    NumEq(bool, Box<Num>, Box<Num>),
    Eq(bool, Box<Val>, Box<Val>),
    If(Box<Bool>, Box<Bool>, Box<Bool>),
    Val(Box<Val>, Span),
}

/// A node producing a value of any format.
#[derive(Clone, Debug)]
pub(crate) enum Val {
    Num(Num),
    Bool(Bool),
    Const(Value),
    Var(VarRef, Span),
    Input(Span),
    Concat(Box<Val>, Box<Val>),
    If(Box<Bool>, Box<Val>, Box<Val>),
    Index(Box<Val>, Box<Num>, Span),
    Slice(Box<Val>, Box<Num>, Option<Box<Num>>, Span),
    Length(Box<Val>, Span),
    IsEmpty(Box<Val>, Span),
    IsPresent(Box<Val>, Span),
    GetOptional(Box<Val>, Span),
    Host(HostFnRef, Vec<Val>, Span),
}

#[inline(always)]
pub(crate) fn apply(op: NumOp, a: Number, b: Number) -> NumResult {
    match op {
        NumOp::Add => a.checked_add(b),
        NumOp::Sub => a.checked_sub(b),
        NumOp::Mul => a.checked_mul(b),
        NumOp::Div => a.checked_div(b),
        NumOp::Rem => a.checked_rem(b),
        NumOp::Pow => a.pow(b),
    }
}

#[inline(always)]
pub(crate) fn compare(op: CmpOp, o: Ordering) -> bool {
    match op {
        CmpOp::Lt => o == Ordering::Less,
        CmpOp::Gt => o == Ordering::Greater,
        CmpOp::Le => o != Ordering::Greater,
        CmpOp::Ge => o != Ordering::Less,
    }
}

/// `a op b`, extending a left fold instead of nesting when `a` is one.
/// Only operators of one precedence level are chained (`a+b-c`, `a*b/c`), so mixed
/// patterns keep their specialised forms (`floor((x-10)/2)`).
pub(crate) fn chain(op: NumOp, a: Num, b: Num, span: Span) -> Num {
    let additive = |o: NumOp| matches!(o, NumOp::Add | NumOp::Sub);
    match a {
        Num::Chain(first, mut rest)
            if rest
                .last()
                .is_some_and(|(o, _, _)| additive(*o) == additive(op)) =>
        {
            rest.push((op, b, span));
            Num::Chain(first, rest)
        }
        Num::Bin(op1, a1, b1, s1) if additive(op1) == additive(op) => {
            Num::Chain(a1, chain_rest((op1, *b1, s1), (op, b, span)))
        }
        // The specialised forms below stand for `Bin`s of a variable (see the last arm):
        // chained, they become what the `Bin` would have.
        Num::BinVC(op1, v, vs, c, s1) if additive(op1) == additive(op) => Num::Chain(
            Box::new(Num::Var(v, vs)),
            chain_rest((op1, Num::Const(c), s1), (op, b, span)),
        ),
        Num::BinVV(op1, v, vs, w, ws, s1) if additive(op1) == additive(op) => Num::Chain(
            Box::new(Num::Var(v, vs)),
            chain_rest((op1, Num::Var(w, ws), s1), (op, b, span)),
        ),
        // What `optimize` would make of `Bin(op, a, b)`, made now rather than boxed and then
        // rewritten.
        Num::Var(v, vs) => match b {
            Num::Const(c) => Num::BinVC(op, v, vs, c, span),
            Num::Var(w, ws) => Num::BinVV(op, v, vs, w, ws, span),
            b => Num::Bin(op, Box::new(Num::Var(v, vs)), Box::new(b), span),
        },
        a => Num::Bin(op, Box::new(a), Box::new(b), span),
    }
}

/// The NUMBER operator of an arithmetic `op`.
pub(crate) fn num_op(op: BinaryOp) -> Option<NumOp> {
    Some(match op {
        BinaryOp::Add => NumOp::Add,
        BinaryOp::Sub => NumOp::Sub,
        BinaryOp::Mul => NumOp::Mul,
        BinaryOp::Div => NumOp::Div,
        BinaryOp::Rem => NumOp::Rem,
        BinaryOp::Pow => NumOp::Pow,
        _ => return None,
    })
}

/// The comparison of `<`, `>`, `<=` or `>=`.
pub(crate) fn cmp_op(op: BinaryOp) -> Option<CmpOp> {
    Some(match op {
        BinaryOp::Lt => CmpOp::Lt,
        BinaryOp::Gt => CmpOp::Gt,
        BinaryOp::Le => CmpOp::Le,
        BinaryOp::Ge => CmpOp::Ge,
        _ => return None,
    })
}

/// The comparison `a op b`, specialised as `optimize` would (`var op constant`).
pub(crate) fn comparison(op: CmpOp, a: Num, b: Num) -> Bool {
    match (a, b) {
        (Num::Var(v, vs), Num::Const(c)) => Bool::CmpVC(op, v, vs, c),
        (a, b) => Bool::Cmp(op, Box::new(a), Box::new(b)),
    }
}

/// `-n` (the node of `-x` at `span`): a constant is negated now unless that overflows.
pub(crate) fn negate(n: Num, span: Span) -> Num {
    match n {
        Num::Const(c) => match c.checked_neg() {
            Ok(r) => Num::Const(r),
            Err(_) => Num::Neg(Box::new(Num::Const(c)), span),
        },
        n => Num::Neg(Box::new(n), span),
    }
}

/// What [`chain`] does when `a` is a chain it extends, done in place (without moving `a`,
/// a long formula's accumulated node): appends `op b` and returns `Ok`; otherwise gives `b`
/// back.
pub(crate) fn extend_chain(a: &mut Num, op: NumOp, b: Num, span: Span) -> Result<(), Num> {
    let additive = |o: NumOp| matches!(o, NumOp::Add | NumOp::Sub);
    match a {
        Num::Chain(_, rest)
            if rest
                .last()
                .is_some_and(|(o, _, _)| additive(*o) == additive(op)) =>
        {
            rest.push((op, b, span));
            Ok(())
        }
        _ => Err(b),
    }
}

/// The operations of a new chain, with room for a few more.
fn chain_rest(first: (NumOp, Num, Span), second: (NumOp, Num, Span)) -> Vec<(NumOp, Num, Span)> {
    let mut rest = Vec::with_capacity(8);
    rest.push(first);
    rest.push(second);
    rest
}

/// Rewrites a checked tree for speed, in place: folds constant arithmetic (when it
/// succeeds; a failing constant is left to fail at evaluation, on its span) and specialises
/// operators whose operands are variables and constants.
pub(crate) fn optimize(v: &mut Val) {
    match v {
        Val::Num(n) => opt_num(n),
        Val::Bool(b) => opt_bool(b),
        Val::If(c, t, f) => {
            opt_bool(c);
            optimize(t);
            optimize(f);
        }
        Val::Concat(a, b) => {
            optimize(a);
            optimize(b);
        }
        _ => {}
    }
}

fn opt_num(n: &mut Num) {
    let folded = match n {
        Num::Bin(op, a, b, span) => {
            opt_num(a);
            opt_num(b);
            match (&**a, &**b) {
                (Num::Const(x), Num::Const(y)) => apply(*op, *x, *y).ok().map(Num::Const),
                (Num::Var(v, vs), Num::Const(c)) => Some(Num::BinVC(*op, *v, *vs, *c, *span)),
                (Num::Var(v, vs), Num::Var(w, ws)) => {
                    Some(Num::BinVV(*op, *v, *vs, *w, *ws, *span))
                }
                _ => None,
            }
        }
        Num::Chain(first, rest) => {
            opt_num(first);
            for (_, x, _) in rest.iter_mut() {
                opt_num(x);
            }
            // Room reserved for operations that did not come (a guess made while reading)
            // is given back: the compiled formula lives as long as its dataset.
            if rest.capacity() > rest.len() + 8 {
                rest.shrink_to_fit();
            }
            None
        }
        Num::Neg(x, _) => {
            opt_num(x);
            match &**x {
                Num::Const(c) => c.checked_neg().ok().map(Num::Const),
                _ => None,
            }
        }
        Num::Fn1(_, x, _) => {
            opt_num(x);
            None
        }
        Num::Max(xs) | Num::Min(xs) => {
            xs.iter_mut().for_each(opt_num);
            None
        }
        Num::If(c, t, f) => {
            opt_bool(c);
            opt_num(t);
            opt_num(f);
            None
        }
        Num::Val(v, _) => {
            optimize(v);
            None
        }
        _ => None,
    };
    if let Some(f) = folded {
        *n = f;
    }
}

fn opt_bool(b: &mut Bool) {
    let folded = match b {
        Bool::Not(x) => {
            opt_bool(x);
            None
        }
        Bool::And(x, y) | Bool::Or(x, y) => {
            opt_bool(x);
            opt_bool(y);
            None
        }
        Bool::Cmp(op, x, y) => {
            opt_num(x);
            opt_num(y);
            match (&**x, &**y) {
                (Num::Var(v, vs), Num::Const(c)) => Some(Bool::CmpVC(*op, *v, *vs, *c)),
                _ => None,
            }
        }
        Bool::NumEq(_, x, y) => {
            opt_num(x);
            opt_num(y);
            None
        }
        Bool::Eq(_, x, y) => {
            optimize(x);
            optimize(y);
            None
        }
        Bool::If(c, t, f) => {
            opt_bool(c);
            opt_bool(t);
            opt_bool(f);
            None
        }
        Bool::Val(v, _) => {
            optimize(v);
            None
        }
        _ => None,
    };
    if let Some(f) = folded {
        *b = f;
    }
}
