//! The PCGen formula language: syntax tree, parser, formats, values, checker and evaluator.
//!
//! Pipeline: [`parse_formula`] (text → [`ast::Formula`] plus diagnostics) → check (infer and
//! verify formats against a variable environment, once, at load) → compiled form → evaluate
//! many times against a value environment.

pub mod ast;
pub mod format;
pub mod parse;
pub mod print;

pub use format::Format;
pub use parse::{ParseOutput, parse_formula};
