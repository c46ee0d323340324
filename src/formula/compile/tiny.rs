//! Tiny formulas: at most two operations over whole-number constants, variables and
//! `value()`, evaluated by one `match` without the register machine.
//!
//! Most formulas in real data are this small (`value()+1`, `Level*2`, `max(value(),Bonus)`,
//! `floor((Score-10)/2)`, `if(IsLarge,2,1)`, `Lvl>=5`): in the three PCGen datasets of the
//! test fixtures, 63 of the 81 MODIFY formulas that are not plain constants; the other 18
//! call host functions (docs/performance.md). For them the register program's fixed cost
//! (filling the register file, the dispatch loop, joining the result) is most of the
//! evaluation, so they get a form of their own whose operands are read where they are.
//!
//! A tiny form only answers in whole numbers and never reports an error: a variable that
//! is not a whole number (or has no value), a missing `value()`, an overflow or a division
//! with a remainder make it give way to the formula's register program, which answers or
//! reports the error on its span. Whenever it answers, it answers what the program would.

use crate::formula::eval::ValueEnv;
use crate::formula::ir::VarRef;
use crate::formula::ir::{Bool, CmpOp, Num, NumFn, NumOp, compare};
use crate::formula::number::Number;
use crate::formula::value::Value;

/// An operand: a whole-number constant, a NUMBER variable or `value()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Leaf {
    Int(i64),
    Var(VarRef),
    Input,
}

/// A binary step on whole numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Add,
    Sub,
    Mul,
    /// Exact division only (a remainder gives up: the result would be a decimal).
    Div,
    Max,
    Min,
    /// `floor(a/b)`.
    FloorDiv,
    /// `ceil(a/b)`.
    CeilDiv,
}

/// A tiny formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tiny {
    /// `x`
    Leaf(Leaf),
    /// `x s y`
    Bin(Step, Leaf, Leaf),
    /// `(x inner y) outer z`, and with `swap` `z outer (x inner y)`.
    Bin2 {
        inner: Step,
        x: Leaf,
        y: Leaf,
        outer: Step,
        z: Leaf,
        swap: bool,
    },
    /// `if(var, t, f)` for a BOOLEAN variable.
    IfVar(VarRef, Leaf, Leaf),
    /// `if(x cmp y, t, f)`.
    IfCmp(CmpOp, Leaf, Leaf, Leaf, Leaf),
    /// The BOOLEAN `x cmp y`.
    Cmp(CmpOp, Leaf, Leaf),
}

impl Leaf {
    fn of(n: &Num) -> Option<Leaf> {
        match n {
            Num::Const(Number::Int(i)) => Some(Leaf::Int(*i)),
            Num::Var(v, _) => Some(Leaf::Var(*v)),
            Num::Input(_) => Some(Leaf::Input),
            _ => None,
        }
    }

    #[inline(always)]
    fn get<E: ValueEnv + ?Sized>(self, env: &E, input: Option<&Value>) -> Option<i64> {
        match self {
            Leaf::Int(i) => Some(i),
            Leaf::Var(v) => env.int(v),
            Leaf::Input => match input {
                Some(Value::Number(Number::Int(i))) => Some(*i),
                _ => None,
            },
        }
    }
}

impl Step {
    fn of(op: NumOp) -> Option<Step> {
        match op {
            NumOp::Add => Some(Step::Add),
            NumOp::Sub => Some(Step::Sub),
            NumOp::Mul => Some(Step::Mul),
            NumOp::Div => Some(Step::Div),
            NumOp::Rem | NumOp::Pow => None,
        }
    }

    #[inline(always)]
    fn apply(self, a: i64, b: i64) -> Option<i64> {
        match self {
            Step::Add => a.checked_add(b),
            Step::Sub => a.checked_sub(b),
            Step::Mul => a.checked_mul(b),
            Step::Div => match a.checked_rem(b) {
                Some(0) => a.checked_div(b),
                _ => None,
            },
            Step::Max => Some(a.max(b)),
            Step::Min => Some(a.min(b)),
            Step::FloorDiv | Step::CeilDiv => {
                let (q, r) = (a.checked_div(b)?, a.checked_rem(b)?);
                // A remainder pulls the truncated quotient down (floor) when the exact
                // quotient is negative, up (ceil) when it is positive.
                let negative = (r < 0) != (b < 0);
                match (r != 0, self == Step::FloorDiv) {
                    (true, true) if negative => q.checked_sub(1),
                    (true, false) if !negative => q.checked_add(1),
                    _ => Some(q),
                }
            }
        }
    }
}

/// `n` as one step over two leaves.
fn bin(n: &Num) -> Option<(Step, Leaf, Leaf)> {
    match n {
        Num::Bin(op, a, b, _) => Some((Step::of(*op)?, Leaf::of(a)?, Leaf::of(b)?)),
        Num::BinVC(op, v, _, Number::Int(c), _) => {
            Some((Step::of(*op)?, Leaf::Var(*v), Leaf::Int(*c)))
        }
        Num::BinVV(op, v, _, w, _, _) => Some((Step::of(*op)?, Leaf::Var(*v), Leaf::Var(*w))),
        Num::Max(xs) | Num::Min(xs) => {
            let [a, b] = xs.as_slice() else { return None };
            let s = if matches!(n, Num::Max(_)) {
                Step::Max
            } else {
                Step::Min
            };
            Some((s, Leaf::of(a)?, Leaf::of(b)?))
        }
        Num::Fn1(f, x, _) => {
            let (s, a, b) = bin(x)?;
            (s == Step::Div).then_some(())?;
            Some((rounded(*f)?, a, b))
        }
        _ => None,
    }
}

/// The division step of `floor(…/…)` or `ceil(…/…)`.
fn rounded(f: NumFn) -> Option<Step> {
    match f {
        NumFn::Floor => Some(Step::FloorDiv),
        NumFn::Ceil => Some(Step::CeilDiv),
        NumFn::Abs | NumFn::Round => None,
    }
}

/// `floor(d)` or `ceil(d)` of a division `d` whose dividend is a step and divisor a leaf:
/// `floor((x-10)/2)`.
fn rounded_bin2(f: NumFn, d: &Num) -> Option<Tiny> {
    let outer = rounded(f)?;
    let (a, b) = match d {
        Num::Bin(NumOp::Div, a, b, _) => (a, b),
        _ => return None,
    };
    let (inner, x, y) = bin(a)?;
    Some(Tiny::Bin2 {
        inner,
        x,
        y,
        outer,
        z: Leaf::of(b)?,
        swap: false,
    })
}

/// `outer` applied to a step and a leaf, in either order.
fn bin2(outer: Step, a: &Num, b: &Num) -> Option<Tiny> {
    let (inner, x, y, z, swap) = match (bin(a), Leaf::of(b)) {
        (Some((inner, x, y)), Some(z)) => (inner, x, y, z, false),
        _ => {
            let (inner, x, y) = bin(b)?;
            (inner, x, y, Leaf::of(a)?, true)
        }
    };
    Some(Tiny::Bin2 {
        inner,
        x,
        y,
        outer,
        z,
        swap,
    })
}

impl Tiny {
    /// The tiny form of a NUMBER tree, if it has one.
    pub(crate) fn of_num(n: &Num) -> Option<Tiny> {
        if let Some(l) = Leaf::of(n) {
            return Some(Tiny::Leaf(l));
        }
        if let Some((s, a, b)) = bin(n) {
            return Some(Tiny::Bin(s, a, b));
        }
        match n {
            Num::Bin(op, a, b, _) => bin2(Step::of(*op)?, a, b),
            Num::Chain(first, rest) => match rest.as_slice() {
                [(op1, y, _), (op2, z, _)] => Some(Tiny::Bin2 {
                    inner: Step::of(*op1)?,
                    x: Leaf::of(first)?,
                    y: Leaf::of(y)?,
                    outer: Step::of(*op2)?,
                    z: Leaf::of(z)?,
                    swap: false,
                }),
                _ => None,
            },
            Num::Max(xs) | Num::Min(xs) => {
                let [a, b] = xs.as_slice() else { return None };
                let s = if matches!(n, Num::Max(_)) {
                    Step::Max
                } else {
                    Step::Min
                };
                bin2(s, a, b)
            }
            Num::Fn1(f, d, _) => rounded_bin2(*f, d),
            Num::If(c, t, f) => {
                let (t, f) = (Leaf::of(t)?, Leaf::of(f)?);
                match &**c {
                    Bool::Var(v, _) => Some(Tiny::IfVar(*v, t, f)),
                    _ => {
                        let (op, x, y) = cmp(c)?;
                        Some(Tiny::IfCmp(op, x, y, t, f))
                    }
                }
            }
            _ => None,
        }
    }

    /// The tiny form of a BOOLEAN tree, if it has one.
    pub(crate) fn of_bool(b: &Bool) -> Option<Tiny> {
        let (op, x, y) = cmp(b)?;
        Some(Tiny::Cmp(op, x, y))
    }

    /// Evaluates a NUMBER form; `None` = give up (and for [`Tiny::Cmp`]).
    #[inline(always)]
    pub(crate) fn number<E: ValueEnv + ?Sized>(
        &self,
        env: &E,
        input: Option<&Value>,
    ) -> Option<i64> {
        match *self {
            Tiny::Leaf(x) => x.get(env, input),
            Tiny::Bin(s, x, y) => s.apply(x.get(env, input)?, y.get(env, input)?),
            Tiny::Bin2 {
                inner,
                x,
                y,
                outer,
                z,
                swap,
            } => {
                let r = inner.apply(x.get(env, input)?, y.get(env, input)?)?;
                let z = z.get(env, input)?;
                if swap {
                    outer.apply(z, r)
                } else {
                    outer.apply(r, z)
                }
            }
            Tiny::IfVar(v, t, f) => {
                if env.boolean(v).ok()? {
                    t.get(env, input)
                } else {
                    f.get(env, input)
                }
            }
            Tiny::IfCmp(op, x, y, t, f) => {
                if test(op, x, y, env, input)? {
                    t.get(env, input)
                } else {
                    f.get(env, input)
                }
            }
            Tiny::Cmp(..) => None,
        }
    }

    /// Evaluates a BOOLEAN form; `None` = give up (and for every NUMBER form).
    #[inline(always)]
    pub(crate) fn boolean<E: ValueEnv + ?Sized>(
        &self,
        env: &E,
        input: Option<&Value>,
    ) -> Option<bool> {
        match *self {
            Tiny::Cmp(op, x, y) => test(op, x, y, env, input),
            _ => None,
        }
    }
}

/// `x op y` on two leaves.
#[inline(always)]
fn test<E: ValueEnv + ?Sized>(
    op: CmpOp,
    x: Leaf,
    y: Leaf,
    env: &E,
    input: Option<&Value>,
) -> Option<bool> {
    Some(compare(op, x.get(env, input)?.cmp(&y.get(env, input)?)))
}

/// A comparison of two leaves.
fn cmp(b: &Bool) -> Option<(CmpOp, Leaf, Leaf)> {
    match b {
        Bool::Cmp(op, x, y) => Some((*op, Leaf::of(x)?, Leaf::of(y)?)),
        Bool::CmpVC(op, v, _, Number::Int(c)) => Some((*op, Leaf::Var(*v), Leaf::Int(*c))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::Fast;
    use crate::formula::testing::{compile_text, show};
    use crate::formula::{Format, MapEnv, Number, Value};

    /// Formulas with a tiny form: every shape, with constants, variables and `value()` in
    /// each operand position.
    const TINY: &[(&str, bool)] = &[
        ("x", false),
        ("7", false),
        ("value()", false),
        ("x+y", false),
        ("value()-1", false),
        ("3*x", false),
        ("x/y", false),
        ("x/4", false),
        ("max(x,y)", false),
        ("min(value(),3)", false),
        ("max(value()-1,1)", false),
        ("min(x*y,value())", false),
        ("max(2,x/y)", false),
        ("x-(y*2)", false),
        ("10-(x/y)", false),
        ("(x+y)*value()", false),
        ("x+y-3", false),
        ("x*y/2", false),
        ("if(b,20,30)", false),
        ("if(b,x,value())", false),
        ("if(x>=5,x,y)", false),
        ("if(x<y,1,value())", false),
        ("if(value()>x,y,-3)", false),
        ("floor(x/2)", false),
        ("ceil(x/y)", false),
        ("floor((x-10)/2)", false),
        ("ceil((value()+x)/3)", false),
        ("floor(value()/y)", false),
        ("x>3", true),
        ("x<=y", true),
        ("value()>x", true),
    ];

    /// Formulas without one: more operations, fractions, `%`, `^`, negation, equality.
    const NOT_TINY: &[(&str, bool)] = &[
        ("x+y+x+y", false),
        ("x+2.5", false),
        ("x%3", false),
        ("x^2", false),
        ("-x", false),
        ("max(x,y,3)", false),
        ("if(b,x+1,2)", false),
        ("if(x>1&&b,1,2)", false),
        ("floor(x)", false),
        ("round(x/2)", false),
        ("floor(x/y/2)+1", false),
        ("x==y", true),
        ("b", true),
        ("x>2.5", true),
    ];

    fn env(x: &str, y: &str) -> MapEnv {
        let n = |t: &str| Number::parse_text(t).unwrap();
        let mut env = MapEnv::with_pcgen_defaults();
        env.define("x", Format::Number, Some(Value::Number(n(x))));
        env.define("y", Format::Number, Some(Value::Number(n(y))));
        env.define("b", Format::Boolean, Some(Value::Boolean(x < y)));
        env
    }

    #[test]
    fn the_tiny_shapes_and_only_they_get_a_tiny_form() {
        let env = env("1", "2");
        for (text, boolean) in TINY {
            let c = compile_text(text, *boolean, &env);
            assert!(matches!(c.fast(), Fast::Tiny(..)), "{text}: {:?}", c.fast());
        }
        for (text, boolean) in NOT_TINY {
            let c = compile_text(text, *boolean, &env);
            assert!(
                !matches!(c.fast(), Fast::Tiny(..)),
                "{text}: {:?}",
                c.fast()
            );
        }
    }

    /// Over whole numbers, fractions, zero and the `i64` limits, with and without
    /// `value()`: whenever the tiny form answers, it answers what the tree interpreter does
    /// (and the full evaluation, which may give way to the program, agrees with the tree
    /// interpreter, errors included); and it answers the ordinary cases itself.
    #[test]
    fn tiny_forms_agree_with_the_tree() {
        let values = [
            "0",
            "1",
            "-7",
            "15",
            "2.5",
            "9223372036854775807",
            "-9223372036854775808",
        ];
        let n = |t: &str| Number::parse_text(t).unwrap();
        let (mut answered, mut total) = (0, 0);
        for (text, boolean) in TINY {
            for x in values {
                for y in values {
                    for input in [None, Some(Value::Number(n(y))), Some(Value::Number(n(x)))] {
                        let env = env(x, y);
                        let c = compile_text(text, *boolean, &env);
                        let Fast::Tiny(tiny, _) = c.fast() else {
                            panic!("{text} has no tiny form");
                        };
                        let ctx = format!("{text} x={x} y={y} input={input:?}");
                        let tree = c.eval_tree(&env, input.as_ref());
                        let full = c.eval(&env, input.as_ref());
                        assert_eq!(full, tree, "{ctx}");
                        let typed = if *boolean {
                            c.eval_bool(&env, input.as_ref()).map(Value::Boolean)
                        } else {
                            c.eval_number(&env, input.as_ref()).map(Value::Number)
                        };
                        assert_eq!(show(&typed), show(&tree), "{ctx}");
                        let own = if *boolean {
                            tiny.boolean(&env, input.as_ref()).map(Value::Boolean)
                        } else {
                            tiny.number(&env, input.as_ref())
                                .map(|i| Value::Number(Number::Int(i)))
                        };
                        total += 1;
                        if let Some(own) = own {
                            answered += 1;
                            assert_eq!(Ok(own), tree, "{ctx}");
                        }
                    }
                }
            }
        }
        // Fractions, overflows, inexact divisions and missing input give way; the rest
        // (more than half) is answered by the tiny form itself.
        assert!(answered * 2 > total, "{answered} of {total}");
    }
}
