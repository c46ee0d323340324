//! rulebook: a rules engine for PCGen-style game data.
//!
//! The crate is one pipeline with one-way dependencies (see `docs/architecture.md`):
//!
//! 1. [`source`], [`name`] — files, decoded text, byte spans, case-insensitive names;
//! 2. [`formula`] — the formula language: syntax, formats, values, checking, evaluation;
//! 3. [`load`] — finding and reading PCC/LST files and their token lines;
//! 4. [`model`] — the data model built from tokens, and every load-time check;
//! 5. [`solve`] — dependency graph, modifier ordering, evaluation of variables;
//! 6. [`character`] — the character API applications embed;
//! 7. [`dialect`] — FICS, ICC and UnterMUD formula languages on the same core;
//! 8. [`conformance`] — runs the reference implementations' test vectors.
//!
//! [`diagnostic`] values flow out of every layer; only the binary prints them.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod character;
pub mod conformance;
pub mod diagnostic;
pub mod dialect;
pub mod formula;
pub mod load;
pub mod model;
pub mod name;
pub mod solve;
pub mod source;
