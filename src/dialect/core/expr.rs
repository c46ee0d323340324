//! The expression tree every dialect compiles to, and its type checker.
//!
//! All three dialects compute with C-style integers where booleans are 0 and 1, so one tree
//! serves them all. What differs between dialects is only the leaves (variables, terms,
//! object tests), supplied as the type parameter `L`.

use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;

/// The deepest expression tree (and the deepest parser nesting of parentheses and unary
/// operators) a dialect accepts. Formulas and locks are user input and the tree is walked
/// recursively (type check, evaluation, printing, drop), so the depth must be bounded; real
/// formulas are a few levels deep.
pub const MAX_DEPTH: u32 = 256;

/// A formula or lock nested deeper than [`MAX_DEPTH`].
pub const TOO_DEEP: Code = Code {
    id: "D0192",
    name: "dialect-too-deep",
};

/// The [`TOO_DEEP`] error at `span` (where the limit was crossed).
pub fn too_deep(span: Span) -> Diagnostic {
    Diagnostic::error(
        TOO_DEEP,
        span,
        format!("the expression is nested more than {MAX_DEPTH} levels deep"),
    )
    .with_label("the nesting limit is crossed here")
    .with_help("simplify the expression: remove redundant parentheses or split it up")
    .with_note("chains of binary operators count one level per operator")
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x`: integer negation.
    Neg,
    /// `!x`: 1 when `x` is 0, else 0.
    Not,
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// Logical or (short-circuit, result 0 or 1).
    Or,
    /// Logical and (short-circuit, result 0 or 1).
    And,
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Less than.
    Lt,
    /// Less than or equal.
    Le,
    /// Greater than.
    Gt,
    /// Greater than or equal.
    Ge,
    /// Addition.
    Add,
    /// Subtraction.
    Sub,
    /// Multiplication.
    Mul,
    /// Division truncating toward zero (division by zero is the dialect's choice).
    Div,
}

impl BinaryOp {
    /// The type of the operator's result.
    pub fn result_ty(self) -> Ty {
        match self {
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div => Ty::Int,
            _ => Ty::Bool,
        }
    }

    /// The operator's canonical spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "|",
            BinaryOp::And => "&",
            BinaryOp::Eq => "=",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
        }
    }
}

/// The static type of an expression. Both are represented as integers at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// A number.
    Int,
    /// A truth value (0 or 1).
    Bool,
}

/// A leaf of a dialect's tree: anything that knows its type.
pub trait Leaf {
    /// The type of the leaf's value.
    fn ty(&self) -> Ty;
}

/// One node with the span of the source text it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr<L> {
    /// What the node is.
    pub kind: ExprKind<L>,
    /// The text it was parsed from.
    pub span: Span,
    /// Height of the tree below and including this node (a leaf is 1).
    depth: u32,
}

/// The kinds of node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind<L> {
    /// An integer literal (or an implicit value such as FICS's `()` = 1).
    Int(i32),
    /// A truth constant (UnterMUD `T`/`F`).
    Bool(bool),
    /// A dialect-specific leaf.
    Leaf(L),
    /// A unary operation.
    Unary(UnaryOp, Box<Expr<L>>),
    /// A binary operation; `op_span` is the operator's own text.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// Where the operator is written.
        op_span: Span,
        /// Left operand.
        lhs: Box<Expr<L>>,
        /// Right operand.
        rhs: Box<Expr<L>>,
    },
}

impl<L> Expr<L> {
    /// A node of `kind` at `span`.
    pub fn new(kind: ExprKind<L>, span: Span) -> Self {
        let below = match &kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Leaf(_) => 0,
            ExprKind::Unary(_, x) => x.depth,
            ExprKind::Binary { lhs, rhs, .. } => lhs.depth.max(rhs.depth),
        };
        Expr {
            kind,
            span,
            depth: below.saturating_add(1),
        }
    }

    /// Height of the tree (a leaf is 1). Parsers reject trees higher than [`MAX_DEPTH`], so
    /// the recursive walks over a parsed tree are bounded.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// A unary node spanning from `op_span` to the operand.
    pub fn unary(op: UnaryOp, op_span: Span, operand: Expr<L>) -> Self {
        let span = op_span.join(operand.span);
        Expr::new(ExprKind::Unary(op, Box::new(operand)), span)
    }

    /// A binary node spanning both operands.
    pub fn binary(op: BinaryOp, op_span: Span, lhs: Expr<L>, rhs: Expr<L>) -> Self {
        let span = lhs.span.join(rhs.span);
        Expr::new(
            ExprKind::Binary {
                op,
                op_span,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
            span,
        )
    }

    /// Visits every leaf, left to right.
    pub fn for_each_leaf<'a>(&'a self, f: &mut impl FnMut(&'a L, Span)) {
        match &self.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) => {}
            ExprKind::Leaf(l) => f(l, self.span),
            ExprKind::Unary(_, x) => x.for_each_leaf(f),
            ExprKind::Binary { lhs, rhs, .. } => {
                lhs.for_each_leaf(f);
                rhs.for_each_leaf(f);
            }
        }
    }
}

impl<L: Leaf> Expr<L> {
    /// The static type of the expression: arithmetic gives [`Ty::Int`], comparisons, logic
    /// and `!` give [`Ty::Bool`], leaves give their own type. The dialects are C-like, so any
    /// type is accepted wherever the other is expected (a truth value is 0 or 1).
    pub fn ty(&self) -> Ty {
        match &self.kind {
            ExprKind::Int(_) => Ty::Int,
            ExprKind::Bool(_) => Ty::Bool,
            ExprKind::Leaf(l) => l.ty(),
            ExprKind::Unary(UnaryOp::Neg, _) => Ty::Int,
            ExprKind::Unary(UnaryOp::Not, _) => Ty::Bool,
            ExprKind::Binary { op, .. } => op.result_ty(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct B;
    impl Leaf for B {
        fn ty(&self) -> Ty {
            Ty::Bool
        }
    }

    #[test]
    fn types_follow_operators() {
        let s = Span::default();
        let add = Expr::<B>::binary(
            BinaryOp::Add,
            s,
            Expr::new(ExprKind::Leaf(B), s),
            Expr::new(ExprKind::Int(1), s),
        );
        assert_eq!(add.ty(), Ty::Int);
        let cmp = Expr::binary(BinaryOp::Lt, s, add, Expr::new(ExprKind::Int(2), s));
        assert_eq!(cmp.ty(), Ty::Bool);
        assert_eq!(Expr::<B>::new(ExprKind::Leaf(B), s).ty(), Ty::Bool);
    }
}
