//! rulebook: a rules engine for PCGen-style game data.
//!
//! The crate is one pipeline with one-way dependencies (see `docs/architecture.md`):
//!
//! 1. [`source`] — files, decoded text, byte spans;
//! 2. [`formula`] — the formula language: syntax, formats, values, checking, evaluation;
//! 3. the loader and data model, the solver and the character API (added by later layers);
//! 4. [`diagnostic`] — problems as values, rendered only at the edge (the CLI).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod diagnostic;
pub mod formula;
pub mod name;
pub mod source;
