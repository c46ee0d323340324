//! The formula syntax tree.
//!
//! Produced by [`crate::formula::parse_formula`]; every node keeps the span of the text it
//! came from. Parentheses are kept as nodes (the reference keeps them, and the canonical text
//! reproduces them).

use crate::name::Name;
use crate::source::Span;

/// A parsed formula. `root` is `None` for the empty formula.
#[derive(Clone, Debug, PartialEq)]
pub struct Formula {
    /// The expression, or `None` when the text was empty.
    pub root: Option<Expr>,
    /// The span of the whole formula text.
    pub span: Span,
}

/// An expression node with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What the node is.
    pub kind: ExprKind,
    /// The text it was parsed from.
    pub span: Span,
}

/// The kinds of expression node.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A number literal, kept as written (`007`, `.5`, `1.50`).
    Number(Box<str>),
    /// A string literal: the raw characters between the quotes (escapes are not decoded).
    String(Box<str>),
    /// A variable reference.
    Variable(Name),
    /// A function call `name(args)`.
    Call {
        /// The function name.
        name: Name,
        /// Span of the name alone.
        name_span: Span,
        /// Arguments in order.
        args: Vec<Expr>,
    },
    /// An array element `name[index]`.
    Index {
        /// The array variable.
        name: Name,
        /// Span of the name alone.
        name_span: Span,
        /// The index expression.
        index: Box<Expr>,
    },
    /// A prefix operator.
    Unary {
        /// Which.
        op: UnaryOp,
        /// Its operand.
        operand: Box<Expr>,
    },
    /// A binary operator.
    Binary {
        /// Which.
        op: BinaryOp,
        /// Span of the operator token.
        op_span: Span,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `( expr )`.
    Paren(Box<Expr>),
}

/// Prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `!x`
    Not,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `||`
    Or,
    /// `&&`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `^`
    Pow,
}

impl BinaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "||",
            BinaryOp::And => "&&",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Gt => ">",
            BinaryOp::Le => "<=",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Pow => "^",
        }
    }
}

impl UnaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Not => "!",
        }
    }
}
