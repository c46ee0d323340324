//! `rulebook lsp`: a Language Server Protocol server for PCC/LST data, beside the CLI.
//!
//! Built on `lsp-server`'s message types + `lsp-types` (as rust-analyzer and ruff are), with
//! its own framing of the stream ([`transport`]: bounded lengths, malformed messages answered
//! with errors) and a fixed pool of workers for requests ([`pool`]): [`server`] reads
//! messages from stdio; document changes go to the [`session::Session`], which keeps the
//! editor's unsaved text in an [`overlay::OverlayFs`] over the disk, finds the load sets a
//! file belongs to ([`workspace`]: every selectable PCC reaching it), re-checks only those
//! with the same [`crate::check::check_load_set`] as `rulebook check` (in the server as a
//! [`recheck::CheckJob`] on a worker, cancelled by a newer edit), and publishes what changed
//! ([`diagnostics`]), merged over the file's load sets; the editor's [`settings`] weigh over
//! `rulebook.toml`. Read-only requests ([`requests`]) work on a [`session::Snapshot`] whose
//! checked load sets and texts are shared `Arc`s: the cursor's surroundings ([`context`]),
//! what a name stands for ([`target`]), [`hover`], [`navigate`] (definition, references),
//! [`complete`], [`symbols`], [`links`] (a PCC's file entries), [`folding`], [`semantic`]
//! tokens, [`rename`], [`inlay`] hints, quick fixes and "fix all" from the fixes
//! diagnostics suggest ([`requests::code_actions`]), and [`formatting`] with `rulebook
//! fmt`'s layout. Positions are UTF-16 ([`position`]).
//!
//! Like the CLI, this module may do IO (stdio, the disk under the overlay); nothing below
//! uses it.

pub mod checked;
pub mod complete;
pub mod configuration;
pub mod context;
pub mod diagnostics;
pub mod folding;
pub mod formatting;
pub mod hover;
pub mod inlay;
pub mod links;
pub mod merged;
pub mod navigate;
pub mod overlay;
pub mod pool;
pub mod position;
pub mod recheck;
pub mod rename;
pub mod requests;
pub mod semantic;
pub mod server;
pub mod session;
pub mod settings;
pub mod symbols;
pub mod target;
pub mod tokens;
pub mod transport;
pub mod uri;
pub mod workspace;
pub mod workspace_report;

pub use server::{Ending, run_stdio};
pub use session::{Publish, Session, Snapshot};
