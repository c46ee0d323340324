//! Older formula languages on the same core: FICS and ICC match formulas, UnterMUD locks.
//!
//! Each dialect has its own scanner and grammar and compiles once to a
//! [`core::Expr`] over its own leaves, evaluated many times by the shared
//! [`core::eval()`]:
//!
//! - [`fics`]: [`fics::MatchFormula`] compiled against [`fics::FVars`], evaluated against a
//!   [`fics::MatchRequest`];
//! - [`icc`]: [`icc::IccFormula`] evaluated against an [`icc::Challenge`];
//! - [`untermud`]: [`untermud::Lock`] compiled (validated and rewritten) against a
//!   [`untermud::World`], evaluated for an actor.
//!
//! Error codes are `D01xx` (see `docs/errors.md`).

pub mod core;
pub mod fics;
pub mod icc;
pub mod untermud;
