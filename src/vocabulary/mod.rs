//! The PCGen token vocabulary: every token PCGen accepts, per file kind and line type, and the
//! validator that checks every token of a load set against it.
//!
//! The table ([`table`]) is `pcgen-token-vocabulary.tsv` (from the shared reference), compiled
//! in and parsed once. [`lines`] decides which line type a line is (CLASS level lines, kit
//! lines, SOURCE lines …); [`check`] reports unknown, misplaced, mistyped and deprecated
//! tokens (`T0110`–`T0117`), saying per deprecated form what PCGen does ([`deprecation`])
//! and, for the few with an exact replacement, giving it as a safe fix ([`rewrite`]),
//! the fields PCGen drops after a bonus's value (`T0118`, `bonus`) and the values its
//! parsers reject (`T0119`, `values`, from `token-values.tsv`);
//! [`tokenmap`] is its one-probe lookup of a token's name. It sits
//! beside the loader: it uses the loader's token lines and file kinds, and the model calls it
//! once per load set. Editors use [`Vocabulary::tokens_for`] and [`Vocabulary::lookup`] for
//! completion and hover.

mod bonus;
pub mod check;
pub mod codes;
pub mod deprecation;
pub mod lines;
pub mod names;
pub mod rewrite;
pub mod suggest;
pub mod table;
pub mod tokenmap;
mod values;

pub use check::{check_lines, check_load_set, check_load_set_cached, check_pcc};
pub use lines::{FirstColumn, LineType, line_type, object_kind};
pub use table::{Status, TokenRow, Vocabulary};
