//! `rulebook lsp`: a Language Server Protocol server for PCC/LST data, beside the CLI.
//!
//! Built on `lsp-server` + `lsp-types` (as rust-analyzer and ruff are): [`server`] reads
//! messages from stdio; document changes go to the [`session::Session`], which keeps the
//! editor's unsaved text in an [`overlay::OverlayFs`] over the disk, finds the load sets a
//! file belongs to ([`workspace`]), re-checks only those with the same
//! [`crate::check::check_load_set`] as `rulebook check`, and publishes what changed
//! ([`diagnostics`]). Read-only requests ([`requests`]) work on a [`session::Snapshot`] whose
//! checked load sets and texts are shared `Arc`s: the cursor's surroundings ([`context`]),
//! what a name stands for ([`target`]), [`hover`], [`navigate`] (definition, references),
//! [`complete`], [`symbols`]. Positions are UTF-16 ([`position`]).
//!
//! Like the CLI, this module may do IO (stdio, the disk under the overlay); nothing below
//! uses it.

pub mod checked;
pub mod complete;
pub mod context;
pub mod diagnostics;
pub mod hover;
pub mod navigate;
pub mod overlay;
pub mod position;
pub mod requests;
pub mod server;
pub mod session;
pub mod symbols;
pub mod target;
pub mod tokens;
pub mod uri;
pub mod workspace;

pub use server::run_stdio;
pub use session::{Publish, Session, Snapshot};
