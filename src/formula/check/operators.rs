//! Operators: `-` and `!`, arithmetic (also `+` joining STRINGs), comparisons, equality
//! and logic; long left-nested chains are checked without recursion.

use super::names::variable_typed;
use super::{Checker, MAX_DEPTH, OPERAND_FORMAT, Typed, bool_node, num_node};
use crate::diagnostic::Diagnostic;
use crate::formula::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::formula::format::Format;
use crate::formula::ir::{
    Bool, CmpOp, Num, NumOp, Val, cmp_op, comparison, extend_chain, negate, num_op,
};
use crate::source::Span;

impl<'a> Checker<'a> {
    /// A prefix operator, `-x` or `!x`.
    pub(super) fn unary(
        &mut self,
        e: Expr<'a>,
        op: UnaryOp,
        operand: Expr<'a>,
        asserted: Option<&Format>,
    ) -> Option<Typed> {
        let t = self.expr(operand, asserted)?;
        let (want, what) = match op {
            UnaryOp::Neg => (Format::Number, "`-` needs a NUMBER"),
            UnaryOp::Not => (Format::Boolean, "`!` needs a BOOLEAN"),
        };
        let t = self.operand(t, &want, operand, op.symbol(), what)?;
        Some(match op {
            UnaryOp::Neg => Typed {
                format: Format::Number,
                node: Val::Num(negate(num_node(t.node, operand.span()), e.span())),
            },
            UnaryOp::Not => Typed {
                format: Format::Boolean,
                node: Val::Bool(Bool::Not(Box::new(bool_node(t.node, operand.span())))),
            },
        })
    }

    /// Checks that `t` has format `want` (for an operand of `op`).
    fn operand(
        &mut self,
        t: Typed,
        want: &Format,
        at: Expr<'_>,
        op: &str,
        what: &str,
    ) -> Option<Typed> {
        if &t.format == want {
            return Some(t);
        }
        self.error(
            Diagnostic::error(
                OPERAND_FORMAT,
                at.span(),
                format!("`{op}` cannot take a {}", t.format),
            )
            .with_label(format!("this is {}", t.format))
            .with_help(what.to_owned()),
        );
        None
    }

    /// Checks a binary node. The left spine of nested binary nodes (`a+b+c+…`, as long as
    /// the data makes it) is walked with a loop, not recursion, so very long formulas
    /// cannot overflow the stack.
    /// `first` is `e`'s operator, its span and its operands (already read by the caller).
    pub(super) fn binary(
        &mut self,
        e: Expr<'a>,
        first: (BinaryOp, Span, Expr<'a>, Expr<'a>),
        asserted: Option<&Format>,
    ) -> Option<Typed> {
        // spine[0] is `e`; spine[i+1] is the left operand of spine[i]. Arithmetic passes the
        // asserted format down; the others clear it (reference), so along the spine it is
        // `asserted` down to the first non-arithmetic operator, then nothing: each entry
        // records whether its right operand still sees it.
        // The spine is kept on `self.spine` above `mark` (nested calls use the space above).
        // (The stack is kept from one check to the next, so it is not sized up front.)
        let mark = self.spine.len();
        let (op, op_span, lhs, rhs) = first;
        let mut keeps = asserted.is_some() && is_arithmetic(op);
        self.spine
            .push((e.index(), op, op_span, rhs.index(), keeps));
        let mut cur = lhs;
        while let ExprKind::Binary {
            op,
            op_span,
            lhs,
            rhs,
        } = cur.kind()
        {
            keeps = keeps && is_arithmetic(op);
            self.spine
                .push((cur.index(), op, op_span, rhs.index(), keeps));
            cur = lhs;
        }
        let mut acc = self.expr(cur, asserted.filter(|_| keeps));
        let mut lhs_span = cur.span();
        let mut i = self.spine.len();
        while i > mark {
            i -= 1;
            let Some(&(node, op, op_span, rhs, keeps)) = self.spine.get(i) else {
                break;
            };
            let (node, rhs) = (e.sibling(node), e.sibling(rhs));
            // A variable operand after a chain is checked here, as `expr` would (it ignores
            // `asserted`), so that a NUMBER one — the usual step of a long `a+b-c+…` — is
            // appended to the chain without building its checked node first.
            // (Only looked at once a chain has begun: short formulas pay nothing for it.)
            let chained = matches!(
                acc,
                Some(Typed {
                    node: Val::Num(Num::Chain(..)),
                    ..
                })
            );
            let leaf = match chained && self.depth < MAX_DEPTH {
                true => match rhs.kind() {
                    ExprKind::Variable(name) => Some(name),
                    _ => None,
                },
                false => None,
            };
            let mut r = match leaf {
                Some(name) => match self.variable(name, rhs.span()) {
                    Some((var, Format::Number)) => {
                        self.deps.push(var);
                        let b = Num::Var(var, rhs.span());
                        match (&mut acc, num_op(op)) {
                            (
                                Some(Typed {
                                    format: Format::Number,
                                    node: Val::Num(chain),
                                }),
                                Some(nop),
                            ) => match extend_chain(chain, nop, b, node.span()) {
                                Ok(()) => {
                                    lhs_span = node.span();
                                    continue;
                                }
                                Err(b) => Some(Typed {
                                    format: Format::Number,
                                    node: Val::Num(b),
                                }),
                            },
                            _ => Some(Typed {
                                format: Format::Number,
                                node: Val::Num(b),
                            }),
                        }
                    }
                    Some((var, format)) => {
                        self.deps.push(var);
                        Some(variable_typed(var, format, rhs.span()))
                    }
                    None => None,
                },
                None => self.expr(rhs, asserted.filter(|_| keeps)),
            };
            // The common step of a long `a+b-c+…`: a NUMBER operand appended to the chain
            // built so far, in place (what `combine` would do, without moving the chain).
            // Tested by reference first, so short formulas pay only the test.
            if matches!(
                acc,
                Some(Typed {
                    node: Val::Num(Num::Chain(..)),
                    ..
                })
            ) {
                match extend_acc(&mut acc, r, op, node.span()) {
                    None => {
                        lhs_span = node.span();
                        continue;
                    }
                    Some(back) => r = back,
                }
            }
            acc = match (acc, r) {
                (Some(l), Some(r)) => self.combine(node, op, op_span, l, lhs_span, r, rhs.span()),
                _ => None,
            };
            // A chain just started (`a+b`) with more of the spine to come: make room for
            // all of it at once rather than doubling its vector on the way.
            if let Some(Typed {
                node: Val::Num(Num::Chain(_, rest)),
                ..
            }) = &mut acc
            {
                let more = i - mark;
                if rest.len() == 2 && more > rest.capacity() - rest.len() {
                    rest.reserve_exact(more);
                }
            }
            lhs_span = node.span();
        }
        self.spine.truncate(mark);
        acc
    }

    /// The node `l op r` (both checked).
    #[allow(clippy::too_many_arguments)]
    fn combine(
        &mut self,
        e: Expr<'a>,
        op: BinaryOp,
        op_span: Span,
        l: Typed,
        lhs_span: Span,
        r: Typed,
        rhs_span: Span,
    ) -> Option<Typed> {
        let arithmetic = is_arithmetic(op);
        let mismatch = |c: &mut Self, help: &str| {
            c.error(
                Diagnostic::error(
                    OPERAND_FORMAT,
                    op_span,
                    format!(
                        "`{}` cannot take {} and {}",
                        op.symbol(),
                        l.format,
                        r.format
                    ),
                )
                .with_label(format!("{} {} {}", l.format, op.symbol(), r.format))
                .with_secondary(lhs_span, format!("{}", l.format))
                .with_secondary(rhs_span, format!("{}", r.format))
                .with_help(help.to_owned()),
            );
            None
        };
        match op {
            BinaryOp::Add if l.format == Format::String && r.format == Format::String => {
                Some(Typed {
                    format: Format::String,
                    node: Val::Concat(Box::new(l.node), Box::new(r.node)),
                })
            }
            _ if arithmetic => {
                if l.format != Format::Number || r.format != Format::Number {
                    let help = if op == BinaryOp::Add {
                        "`+` adds two NUMBERs or joins two STRINGs"
                    } else {
                        "arithmetic needs NUMBERs on both sides"
                    };
                    return mismatch(self, help);
                }
                let nop = num_op(op).unwrap_or(NumOp::Pow);
                let a = num_node(l.node, lhs_span);
                let b = num_node(r.node, rhs_span);
                Some(Typed {
                    format: Format::Number,
                    node: Val::Num(crate::formula::ir::chain(nop, a, b, e.span())),
                })
            }
            BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => {
                if l.format != Format::Number || r.format != Format::Number {
                    return mismatch(self, "`<`, `>`, `<=` and `>=` compare two NUMBERs");
                }
                let cop = cmp_op(op).unwrap_or(CmpOp::Ge);
                // What `optimize` would make of it, made now.
                let node = comparison(cop, num_node(l.node, lhs_span), num_node(r.node, rhs_span));
                Some(Typed {
                    format: Format::Boolean,
                    node: Val::Bool(node),
                })
            }
            BinaryOp::Eq | BinaryOp::Ne => {
                if l.format != r.format {
                    return mismatch(self, "`==` and `!=` compare two values of the same format");
                }
                let negate = op == BinaryOp::Ne;
                let node = if l.format == Format::Number {
                    Bool::NumEq(
                        negate,
                        Box::new(num_node(l.node, lhs_span)),
                        Box::new(num_node(r.node, rhs_span)),
                    )
                } else {
                    Bool::Eq(negate, Box::new(l.node), Box::new(r.node))
                };
                Some(Typed {
                    format: Format::Boolean,
                    node: Val::Bool(node),
                })
            }
            BinaryOp::And | BinaryOp::Or => {
                if l.format != Format::Boolean || r.format != Format::Boolean {
                    return mismatch(self, "`&&` and `||` combine two BOOLEANs");
                }
                let a = Box::new(bool_node(l.node, lhs_span));
                let b = Box::new(bool_node(r.node, rhs_span));
                Some(Typed {
                    format: Format::Boolean,
                    node: Val::Bool(if op == BinaryOp::And {
                        Bool::And(a, b)
                    } else {
                        Bool::Or(a, b)
                    }),
                })
            }
            _ => mismatch(self, "unsupported operator"),
        }
    }
}

/// Appends `op r` to the NUMBER chain `acc` in place when [`combine`](Checker::combine)
/// would (both NUMBERs, an arithmetic `op` the chain extends): `None`; otherwise gives
/// `r` back. Out of line, so the spine loop stays small for the formulas without chains.
#[inline(never)]
fn extend_acc(
    acc: &mut Option<Typed>,
    r: Option<Typed>,
    op: BinaryOp,
    span: Span,
) -> Option<Option<Typed>> {
    let (
        Some(Typed {
            format: Format::Number,
            node: Val::Num(chain),
        }),
        Some(nop),
    ) = (acc, num_op(op))
    else {
        return Some(r);
    };
    match r {
        Some(Typed {
            format: Format::Number,
            node: Val::Num(b),
        }) => match extend_chain(chain, nop, b, span) {
            Ok(()) => None,
            Err(b) => Some(Some(Typed {
                format: Format::Number,
                node: Val::Num(b),
            })),
        },
        other => Some(other),
    }
}

fn is_arithmetic(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Add
            | BinaryOp::Sub
            | BinaryOp::Mul
            | BinaryOp::Div
            | BinaryOp::Rem
            | BinaryOp::Pow
    )
}
