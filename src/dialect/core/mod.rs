//! The expression core the dialects share: one tree ([`Expr`]), one type checker
//! ([`Expr::ty`], with the warnings of [`check()`]), one evaluator ([`eval()`]) and one scanner ([`Cursor`]).
//!
//! FICS, ICC and UnterMUD differ in their lexing, grammar and leaves (variables, terms,
//! object tests); each parses to an [`Expr`] over its own leaf type and evaluates it with
//! [`eval()`] through an [`Env`] that supplies leaf values and the division-by-zero rule.

pub mod check;
pub mod cursor;
pub mod eval;
pub mod expr;

pub use check::check;
pub use cursor::Cursor;
pub use eval::{Env, EvalError, eval};
pub use expr::{BinaryOp, Expr, ExprKind, Leaf, MAX_DEPTH, TOO_DEEP, Ty, UnaryOp, too_deep};
