//! The PCGen formula language: syntax tree, parser, formats, values, checker and evaluator.
//!
//! # Pipeline
//!
//! 1. **parse** — `parse_formula(text, file, offset)` → [`ast::Formula`] (a flat tree, read
//!    through [`ast::Expr`] views) plus diagnostics
//!    (`P` codes; the parser lives in `parse`).
//! 2. **check** — [`check()`]`(formula, env, asserted, input)` infers and verifies the format
//!    of every node once, at load, against a [`CheckEnv`] the caller implements (the loader
//!    resolves names by scope and hands out opaque [`VarRef`]s), and compiles it. All
//!    problems are reported (`F01xx` codes), each on its span, names with "did you mean".
//! 3. **evaluate** — [`CompiledFormula::eval`]`(env, input)` any number of times against a
//!    [`ValueEnv`] the caller implements (`E01xx` codes for failures, each with the span of
//!    the failing node; [`EvalError::to_diagnostic`]). `eval_number` / `eval_bool` skip
//!    building a [`Value`] for NUMBER / BOOLEAN formulas (the solver's hot path);
//!    [`CompiledFormula::dependencies`] lists every variable read (both branches of `if`,
//!    user function bodies, host dependencies); [`CompiledFormula::uses_input`] tells
//!    whether `value()` is read. A compiled formula is `Send + Sync` and cheap to clone.
//!
//! NUMBER and BOOLEAN formulas compile to short register programs (`compile/program.rs`:
//! `i64` mantissa + decimal scale, fused ops, variable reads inlined through the generic
//! env) that report their own errors, each op carrying its node's span. Other formats,
//! the trees a program cannot hold and the values beyond its registers go to the tree
//! interpreter (`compile.rs`), the oracle the programs are tested against.
//!
//! [`MapEnv`] is a ready-made name → value environment (both traits) for tools and tests;
//! [`check_with_args`] checks a formula with `arg(n)` bound (testing user function bodies).
//!
//! # Values
//!
//! [`Number`] is exact: an `i64` fast path, [`rust_decimal::Decimal`] otherwise; every
//! operation is checked ([`ArithmeticError`]); equality ignores scale and the sign of zero;
//! integers print without a fraction, decimals in plain notation. [`Value`] holds a value
//! of any [`Format`]; [`Format::parse_value`] converts data text (DEFAULTVARIABLEVALUE,
//! fixed SET values) to a value. Formats have no built-in default: defaults come from data.
//!
//! # Functions
//!
//! Built-ins as the reference: `abs ceil floor round max min if value length isEmpty slice
//! isPresent getOptional` (+ `arg` in user function bodies), case-insensitive. User
//! functions from data go in a [`FunctionRegistry`] (`define(name, span, body)`; arity =
//! highest `arg(n)` + 1; a clash with a built-in is an error) and are found through
//! [`CheckEnv::function`] → [`FunctionRef::User`]. Host functions of the loader (`input`,
//! `lookup`, `get`, `getFact`) are [`FunctionRef::Host`]: per call the env returns a
//! [`HostSignature`] (parameter kinds, result format, dependencies; it may validate literal
//! arguments such as a channel name and report diagnostics on their spans), and evaluation
//! calls [`ValueEnv::call_host`].
//!
//! # Example
//!
//! ```
//! use rulebook::formula::{ast::*, check, EmptyEnv, Format, NoValues, Number, Value};
//! use rulebook::source::{FileId, Span};
//! let sp = Span::new(FileId(0), 0..3);
//! let lit = |t: &str| Tree { kind: TreeKind::Number(t.into()), span: sp };
//! let tree = Tree {
//!     kind: TreeKind::Binary {
//!         op: BinaryOp::Div,
//!         op_span: sp,
//!         lhs: Box::new(lit("7")),
//!         rhs: Box::new(lit("2")),
//!     },
//!     span: sp,
//! };
//! let f = Formula::from_tree(Some(&tree), sp);
//! let compiled = check(&f, &EmptyEnv, &Format::Number, None).unwrap();
//! assert_eq!(compiled.eval(&NoValues, None).unwrap().to_string(), "3.5");
//! ```

pub mod ast;
pub mod check;
pub mod compile;
pub mod convert;
pub mod dice;
pub mod env;
pub mod eval;
pub mod format;
pub mod function;
pub(crate) mod ir;
pub mod number;
pub mod parse;
pub mod print;
#[cfg(test)]
mod testing;
pub mod value;

pub use check::{
    CheckEnv, EmptyEnv, FunctionRef, HostCall, HostFnRef, HostParam, HostSignature, VarRef, check,
    check_with_args,
};
pub use compile::CompiledFormula;
pub use dice::Dice;
pub use env::MapEnv;
pub use eval::{EvalError, NoValues, ValueEnv};
pub use format::Format;
pub use function::{FunctionRegistry, UserFunction};
pub use number::{ArithmeticError, Number};
pub use parse::{ParseOutput, parse_formula};
pub use value::Value;
