//! Closure compilation of NUMBER and BOOLEAN trees: every node becomes a closure that calls
//! its children directly. Each call site then always calls the same child, which the CPU
//! predicts perfectly, unlike the shared dispatch of a tree-walking `match` (measured in
//! `docs/performance.md`). Operators are specialised at compile time.

use super::compile::{
    Bool, CmpOp, Ctx, Num, NumFn, NumOp, R, apply_located, arith, err_box, located,
};
use super::eval::{MISSING_INPUT, NO_VALUE};
use super::number::{ConstDivisor, Number};
use super::value::Value;
use std::cmp::Ordering;
use std::sync::Arc;

/// A compiled NUMBER node.
pub(crate) type NumF = Arc<dyn for<'a> Fn(&Ctx<'a>) -> R<Number> + Send + Sync>;
/// A compiled BOOLEAN node.
pub(crate) type BoolF = Arc<dyn for<'a> Fn(&Ctx<'a>) -> R<bool> + Send + Sync>;

macro_rules! bin {
    ($a:expr, $b:expr, $span:expr, $m:ident) => {{
        let (a, b, span) = ($a, $b, $span);
        Arc::new(move |cx: &Ctx<'_>| {
            let x = a.get(cx)?;
            let y = b.get(cx)?;
            x.$m(y).map_err(|e| arith(e, span))
        }) as NumF
    }};
}

macro_rules! bin_xc {
    ($a:expr, $c:expr, $span:expr, $m:ident) => {{
        let (a, c, span) = ($a, $c, $span);
        Arc::new(move |cx: &Ctx<'_>| a.get(cx)?.$m(c).map_err(|e| arith(e, span))) as NumF
    }};
}

macro_rules! bin_vc {
    ($v:expr, $vs:expr, $c:expr, $span:expr, $m:ident) => {{
        let (v, vs, c, span) = ($v, $vs, $c, $span);
        Arc::new(move |cx: &Ctx<'_>| {
            let x = cx.env.number(v).map_err(|e| located(e, vs))?;
            x.$m(c).map_err(|e| arith(e, span))
        }) as NumF
    }};
}

pub(crate) fn num(n: &Num) -> NumF {
    match n {
        Num::Const(c) => {
            let c = *c;
            Arc::new(move |_| Ok(c))
        }
        Num::Var(v, span) => {
            let (v, span) = (*v, *span);
            Arc::new(move |cx| cx.env.number(v).map_err(|e| located(e, span)))
        }
        Num::Input(span) => {
            let span = *span;
            Arc::new(move |cx| match cx.input_number {
                Some(n) => Ok(n),
                None => Err(err_box(
                    MISSING_INPUT,
                    "`value()` has no NUMBER input here",
                    span,
                )),
            })
        }
        Num::Neg(x, span) => {
            let (x, span) = (num(x), *span);
            Arc::new(move |cx| x(cx)?.checked_neg().map_err(|e| arith(e, span)))
        }
        Num::Bin(NumOp::Div, a, b, span) if const_divisor(b).is_some() => {
            let Some(d) = const_divisor(b) else {
                return num(b);
            };
            let (a, span) = (Operand::of(a), *span);
            Arc::new(move |cx| d.divide(a.get(cx)?).map_err(|e| arith(e, span)))
        }
        Num::BinVC(NumOp::Div, v, vs, c, span) if ConstDivisor::new(*c).is_some() => {
            let Some(d) = ConstDivisor::new(*c) else {
                return num(&Num::Const(*c));
            };
            let (v, vs, span) = (*v, *vs, *span);
            Arc::new(move |cx| {
                let x = cx.env.number(v).map_err(|e| located(e, vs))?;
                d.divide(x).map_err(|e| arith(e, span))
            })
        }
        Num::Bin(op, a, b, span) if matches!(**b, Num::Const(_)) => {
            let Num::Const(c) = **b else {
                return num(b);
            };
            let (a, span) = (Operand::of(a), *span);
            match op {
                NumOp::Add => bin_xc!(a, c, span, checked_add),
                NumOp::Sub => bin_xc!(a, c, span, checked_sub),
                NumOp::Mul => bin_xc!(a, c, span, checked_mul),
                NumOp::Div => bin_xc!(a, c, span, checked_div),
                NumOp::Rem => bin_xc!(a, c, span, checked_rem),
                NumOp::Pow => bin_xc!(a, c, span, pow),
            }
        }
        Num::Bin(op, a, b, span) => {
            let (a, b, span) = (Operand::of(a), Operand::of(b), *span);
            match op {
                NumOp::Add => bin!(a, b, span, checked_add),
                NumOp::Sub => bin!(a, b, span, checked_sub),
                NumOp::Mul => bin!(a, b, span, checked_mul),
                NumOp::Div => bin!(a, b, span, checked_div),
                NumOp::Rem => bin!(a, b, span, checked_rem),
                NumOp::Pow => bin!(a, b, span, pow),
            }
        }
        Num::BinVC(op, v, vs, c, span) => {
            let (v, vs, c, span) = (*v, *vs, *c, *span);
            match op {
                NumOp::Add => bin_vc!(v, vs, c, span, checked_add),
                NumOp::Sub => bin_vc!(v, vs, c, span, checked_sub),
                NumOp::Mul => bin_vc!(v, vs, c, span, checked_mul),
                NumOp::Div => bin_vc!(v, vs, c, span, checked_div),
                NumOp::Rem => bin_vc!(v, vs, c, span, checked_rem),
                NumOp::Pow => bin_vc!(v, vs, c, span, pow),
            }
        }
        Num::Chain(first, rest) => {
            let first = num(first);
            let rest: Vec<(NumOp, Operand, crate::source::Span)> = rest
                .iter()
                .map(|(op, x, span)| (*op, Operand::of(x), *span))
                .collect();
            Arc::new(move |cx| {
                let mut acc = first(cx)?;
                for (op, x, span) in &rest {
                    let x = x.get(cx)?;
                    acc = apply_located(*op, acc, x, *span)?;
                }
                Ok(acc)
            })
        }
        Num::BinVV(op, v, vs, w, ws, span) => {
            let (op, v, vs, w, ws, span) = (*op, *v, *vs, *w, *ws, *span);
            Arc::new(move |cx| {
                let x = cx.env.number(v).map_err(|e| located(e, vs))?;
                let y = cx.env.number(w).map_err(|e| located(e, ws))?;
                apply_located(op, x, y, span)
            })
        }
        // floor(a/b) and ceil(a/b) of integers in one step (the d20 modifier pattern).
        Num::Fn1(f @ (NumFn::Floor | NumFn::Ceil), inner, _) if div_parts(inner).is_some() => {
            let Some((a, b, span)) = div_parts(inner) else {
                return num(inner);
            };
            if *f == NumFn::Floor {
                Arc::new(move |cx| {
                    let x = a(cx)?;
                    let y = b(cx)?;
                    x.div_floor(y).map_err(|e| arith(e, span))
                })
            } else {
                Arc::new(move |cx| {
                    let x = a(cx)?;
                    let y = b(cx)?;
                    x.div_ceil(y).map_err(|e| arith(e, span))
                })
            }
        }
        Num::Fn1(f, x, span) => {
            let (x, span) = (Operand::of(x), *span);
            match f {
                NumFn::Floor => Arc::new(move |cx| Ok(x.get(cx)?.floor())),
                NumFn::Ceil => Arc::new(move |cx| Ok(x.get(cx)?.ceil())),
                NumFn::Abs => Arc::new(move |cx| x.get(cx)?.abs().map_err(|e| arith(e, span))),
                NumFn::Round => Arc::new(move |cx| x.get(cx)?.round().map_err(|e| arith(e, span))),
            }
        }
        Num::Max(xs) | Num::Min(xs) => {
            let is_max = matches!(n, Num::Max(_));
            if let [a, Num::Const(c)] = xs.as_slice() {
                let (a, c) = (Operand::of(a), *c);
                return if is_max {
                    Arc::new(move |cx| {
                        let x = a.get(cx)?;
                        Ok(if x.cmp_num(c) == Ordering::Greater {
                            x
                        } else {
                            c
                        })
                    })
                } else {
                    Arc::new(move |cx| {
                        let x = a.get(cx)?;
                        Ok(if x.cmp_num(c) == Ordering::Greater {
                            c
                        } else {
                            x
                        })
                    })
                };
            }
            let fs: Vec<NumF> = xs.iter().map(num).collect();
            if let [a, b] = fs.as_slice() {
                let (a, b) = (a.clone(), b.clone());
                return if is_max {
                    // Ties return the later argument, like the reference.
                    Arc::new(move |cx| {
                        let x = a(cx)?;
                        let y = b(cx)?;
                        Ok(if x.cmp_num(y) == Ordering::Greater {
                            x
                        } else {
                            y
                        })
                    })
                } else {
                    Arc::new(move |cx| {
                        let x = a(cx)?;
                        let y = b(cx)?;
                        Ok(if x.cmp_num(y) == Ordering::Greater {
                            y
                        } else {
                            x
                        })
                    })
                };
            }
            Arc::new(move |cx| {
                let mut acc: Option<Number> = None;
                for f in &fs {
                    let x = f(cx)?;
                    acc = Some(match acc {
                        None => x,
                        Some(a) if is_max => {
                            if a.cmp_num(x) == Ordering::Greater {
                                a
                            } else {
                                x
                            }
                        }
                        Some(a) => {
                            if a.cmp_num(x) == Ordering::Greater {
                                x
                            } else {
                                a
                            }
                        }
                    });
                }
                Ok(acc.unwrap_or(Number::ZERO))
            })
        }
        Num::If(c, t, f) => {
            let (c, t, f) = (boolean(c), num(t), num(f));
            Arc::new(move |cx| if c(cx)? { t(cx) } else { f(cx) })
        }
        Num::Val(v, span) => {
            let (v, span) = ((**v).clone(), *span);
            Arc::new(move |cx| match cx.val(&v)? {
                Value::Number(n) => Ok(n),
                other => Err(err_box(
                    NO_VALUE,
                    format!("expected a NUMBER, found a {}", other.kind()),
                    span,
                )),
            })
        }
    }
}

/// An operand of a chain: variables and constants are read without a call.
enum Operand {
    Var(crate::formula::check::VarRef, crate::source::Span),
    Const(Number),
    Input(crate::source::Span),
    F(NumF),
}

impl Operand {
    fn of(n: &Num) -> Operand {
        match n {
            Num::Var(v, span) => Operand::Var(*v, *span),
            Num::Const(c) => Operand::Const(*c),
            Num::Input(span) => Operand::Input(*span),
            other => Operand::F(num(other)),
        }
    }

    #[inline]
    fn get(&self, cx: &Ctx<'_>) -> R<Number> {
        match self {
            Operand::Var(v, span) => cx.env.number(*v).map_err(|e| located(e, *span)),
            Operand::Const(c) => Ok(*c),
            Operand::Input(span) => match cx.input_number {
                Some(n) => Ok(n),
                None => Err(err_box(
                    MISSING_INPUT,
                    "`value()` has no NUMBER input here",
                    *span,
                )),
            },
            Operand::F(f) => f(cx),
        }
    }
}

fn const_divisor(n: &Num) -> Option<ConstDivisor> {
    match n {
        Num::Const(c) => ConstDivisor::new(*c),
        _ => None,
    }
}

/// The operands of a division node, compiled, and its span.
fn div_parts(n: &Num) -> Option<(NumF, NumF, crate::source::Span)> {
    match n {
        Num::Bin(NumOp::Div, a, b, span) => Some((num(a), num(b), *span)),
        Num::BinVC(NumOp::Div, v, vs, c, span) => {
            Some((num(&Num::Var(*v, *vs)), num(&Num::Const(*c)), *span))
        }
        Num::BinVV(NumOp::Div, v, vs, w, ws, span) => {
            Some((num(&Num::Var(*v, *vs)), num(&Num::Var(*w, *ws)), *span))
        }
        _ => None,
    }
}

macro_rules! cmp {
    ($a:expr, $b:expr, $test:expr) => {{
        let (a, b) = ($a, $b);
        Arc::new(move |cx: &Ctx<'_>| {
            let x = a.get(cx)?;
            let y = b.get(cx)?;
            Ok($test(x.cmp_num(y)))
        }) as BoolF
    }};
}

macro_rules! cmp_vc {
    ($v:expr, $vs:expr, $c:expr, $test:expr) => {{
        let (v, vs, c) = ($v, $vs, $c);
        Arc::new(move |cx: &Ctx<'_>| {
            let x = cx.env.number(v).map_err(|e| located(e, vs))?;
            Ok($test(x.cmp_num(c)))
        }) as BoolF
    }};
}

pub(crate) fn boolean(b: &Bool) -> BoolF {
    match b {
        Bool::Const(c) => {
            let c = *c;
            Arc::new(move |_| Ok(c))
        }
        Bool::Var(v, span) => {
            let (v, span) = (*v, *span);
            Arc::new(move |cx| cx.env.boolean(v).map_err(|e| located(e, span)))
        }
        Bool::Not(x) => {
            let x = boolean(x);
            Arc::new(move |cx| Ok(!x(cx)?))
        }
        // Like the reference, `&&` and `||` evaluate both operands.
        Bool::And(a, b) => {
            let (a, b) = (boolean(a), boolean(b));
            Arc::new(move |cx| {
                let x = a(cx)?;
                let y = b(cx)?;
                Ok(x && y)
            })
        }
        Bool::Or(a, b) => {
            let (a, b) = (boolean(a), boolean(b));
            Arc::new(move |cx| {
                let x = a(cx)?;
                let y = b(cx)?;
                Ok(x || y)
            })
        }
        Bool::Cmp(op, a, b) => {
            let (a, b) = (Operand::of(a), Operand::of(b));
            match op {
                CmpOp::Lt => cmp!(a, b, |o| o == Ordering::Less),
                CmpOp::Gt => cmp!(a, b, |o| o == Ordering::Greater),
                CmpOp::Le => cmp!(a, b, |o| o != Ordering::Greater),
                CmpOp::Ge => cmp!(a, b, |o| o != Ordering::Less),
            }
        }
        Bool::CmpVC(op, v, vs, c) => {
            let (v, vs, c) = (*v, *vs, *c);
            match op {
                CmpOp::Lt => cmp_vc!(v, vs, c, |o| o == Ordering::Less),
                CmpOp::Gt => cmp_vc!(v, vs, c, |o| o == Ordering::Greater),
                CmpOp::Le => cmp_vc!(v, vs, c, |o| o != Ordering::Greater),
                CmpOp::Ge => cmp_vc!(v, vs, c, |o| o != Ordering::Less),
            }
        }
        Bool::NumEq(negate, a, b) => {
            let (negate, a, b) = (*negate, num(a), num(b));
            Arc::new(move |cx| {
                let x = a(cx)?;
                let y = b(cx)?;
                Ok((x == y) != negate)
            })
        }
        Bool::Eq(negate, a, b) => {
            let (negate, a, b) = (*negate, (**a).clone(), (**b).clone());
            Arc::new(move |cx| {
                let x = cx.val(&a)?;
                let y = cx.val(&b)?;
                Ok((x == y) != negate)
            })
        }
        Bool::If(c, t, f) => {
            let (c, t, f) = (boolean(c), boolean(t), boolean(f));
            Arc::new(move |cx| if c(cx)? { t(cx) } else { f(cx) })
        }
        Bool::Val(v, span) => {
            let (v, span) = ((**v).clone(), *span);
            Arc::new(move |cx| match cx.val(&v)? {
                Value::Boolean(b) => Ok(b),
                other => Err(err_box(
                    NO_VALUE,
                    format!("expected a BOOLEAN, found a {}", other.kind()),
                    span,
                )),
            })
        }
    }
}
