//! rulebook: a rules engine for PCGen-style game data.
//!
//! The crate is one pipeline with one-way dependencies (see `docs/architecture.md`):
//!
//! 1. [`source`], [`name`] — files, decoded text, byte spans, case-insensitive names;
//! 2. [`formula`] — the formula language: syntax, formats, values, checking, evaluation;
//! 3. [`load`] — finding and reading PCC/LST files and their token lines; beside it
//!    [`vocabulary`], every token PCGen accepts and the check of every token line;
//! 4. [`model`] — the data model built from tokens, and every load-time check;
//! 5. [`solve`] — dependency graph, modifier ordering, evaluation of variables;
//! 6. [`character`] — the character API applications embed;
//!    [`check`] — checking whole load sets (`rulebook check`): load, model, and what the
//!    data alone decides, solved;
//! 7. [`dialect`] — FICS, ICC and UnterMUD formula languages on the same core;
//! 8. [`conformance`] — runs the reference implementations' test vectors.
//! 9. [`lsp`] — the language server behind `rulebook lsp` (beside the CLI; nothing uses it).
//!
//! [`diagnostic`] values flow out of every layer; only the binary prints them.
//!
//! # Computing a character
//!
//! Load a dataset once, share it (`Arc`, immutable) between any number of characters, grant
//! and remove objects, set channel inputs, read variables by scope instance and name, and
//! ask how a value came about. Every change re-solves only what it affects.
//!
//! ```
//! use rulebook::character::Character;
//! use rulebook::diagnostic::Diagnostic;
//! use rulebook::load::{DiskFs, PcgenRoot};
//! use rulebook::check::check_load_set;
//! use std::path::Path;
//! use std::sync::Arc;
//!
//! fn demo(root: &Path, pcc: &Path) -> Result<(), Box<Diagnostic>> {
//!     let set = check_load_set(&DiskFs, &PcgenRoot::at(&DiskFs, root), &[pcc.to_path_buf()]);
//!     let dataset = Arc::new(set.dataset);
//!
//!     let mut hero = Character::new(Arc::clone(&dataset));
//!     // A stat: MODIFY:Score|SET|input("STATSCORE"), MODIFY:Mod|SET|d20Mod(Score), MODIFY:STR|SET|Mod.
//!     let strength = hero.grant_key("STAT", "STR")?;
//!     hero.set_input(strength, "STATSCORE", "15")?;
//!     assert_eq!(hero.get(strength, "Mod").unwrap().to_string(), "2");
//!     assert_eq!(hero.get_global("STR").unwrap().to_string(), "2");
//!
//!     // MODIFYOTHER:PC.MOVEMENT|Walk|Speed|ADD|-10 on the armour, revoked with it.
//!     let walk = hero.grant_key("MOVEMENT", "Walk")?;
//!     let armour = hero.grant_key("EQUIPMENT", "Ceremonial Plate (Troop)")?;
//!     assert_eq!(hero.get(walk, "Speed").unwrap().to_string(), "-10");
//!     let why = hero.explain(walk, "Speed").unwrap();
//!     assert_eq!(why.applied[0].formula, "-10");
//!     hero.remove(armour);
//!     assert_eq!(hero.get(walk, "Speed").unwrap().to_string(), "0");
//!
//!     // A second character from the same dataset is independent.
//!     let other = Character::new(dataset);
//!     assert_eq!(other.get_global("STR").unwrap().to_string(), "0");
//!     Ok(())
//! }
//!
//! let root = std::path::absolute(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/pcgen")).unwrap();
//! let pcc = root.join("data/starfinder/paizo/core/_starfinder_core_rulebook.pcc");
//! if pcc.exists() {
//!     demo(&root, &pcc).unwrap();
//! }
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod character;
pub mod check;
pub mod config;
pub mod conformance;
pub mod diagnostic;
pub mod dialect;
pub mod fmt;
pub mod formula;
pub(crate) mod fxhash;
pub mod jep;
pub mod load;
#[cfg(feature = "lsp")]
pub mod lsp;
pub mod model;
pub mod name;
pub mod solve;
pub mod source;
pub mod vocabulary;
