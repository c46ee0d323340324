//! Finding and reading PCC/LST dataset files, game modes and load order; token lines.
//!
//! The loader does no IO of its own: files come in through [`FileSystem`] ([`DiskFs`] in the
//! CLI, [`MemoryFs`] in tests). The entry point is [`load`]: given the PCGen root and the PCC
//! files a user selected together, it returns a [`LoadSet`] — every file read (as
//! [`crate::source::SourceMap`] entries), split into [`Line`]s of token spans, in PCGen's fixed
//! load order (DATACONTROL → DATATABLE → VARIABLE → DYNAMIC → GLOBALMODIFIER → object files;
//! built-ins are defined by the model between VARIABLE and DYNAMIC), plus the loader's
//! diagnostics. [`syntax`] turns token text into typed items; the model
//! ([`crate::model`]) gives them meaning.
//!
//! What PCGen does and where we differ is described in `docs/loading.md`.

pub mod cache;
pub mod campaign;
pub mod codes;
pub mod definitions;
pub mod fs;
pub mod gamemode;
pub mod index;
pub mod loadset;
pub mod prerequisites;
pub mod root;
pub mod syntax;
pub mod text;

pub use cache::FileCache;
pub use campaign::{Campaign, FileKind, KeyFilter};
pub use fs::{DiskFs, FileSystem, MemoryFs, Walk, WalkProblem};
pub use gamemode::{CodeControls, GameMode};
pub use index::{CampaignIndex, IndexedCampaign};
pub use loadset::{
    LoadSet, LoadedFile, load, load_cached, load_with, names_game_mode, selectable_pccs,
};
pub use root::{OutsideRoot, PcgenRoot};
pub use text::Line;
