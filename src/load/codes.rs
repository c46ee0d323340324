//! Diagnostic codes of the loader: `L01xx` for finding and reading files, `T01xx` for token
//! syntax. Every code is documented with an example and its fix in `docs/errors.md`.

use crate::diagnostic::Code;

/// A file is not valid UTF-8 and was read as Windows-1252 (or UTF-16/UTF-32). An error in
/// a load, where PCGen skips such a file whole; a warning for a character file.
pub const NOT_UTF8: Code = Code {
    id: "L0101",
    name: "not-utf8",
};
/// A file named by a PCC (or given on the command line) does not exist.
pub const FILE_NOT_FOUND: Code = Code {
    id: "L0102",
    name: "file-not-found",
};
/// A file exists but could not be read.
pub const READ_FAILED: Code = Code {
    id: "L0103",
    name: "read-failed",
};
/// A PCC's GAMEMODE matches no game mode's ALLOWEDMODES.
pub const UNKNOWN_GAME_MODE: Code = Code {
    id: "L0104",
    name: "unknown-game-mode",
};
/// A campaign required by PRECAMPAIGN is neither loaded nor found under the data root.
pub const MISSING_CAMPAIGN: Code = Code {
    id: "L0105",
    name: "missing-campaign",
};
/// A campaign required by PRECAMPAIGN was added to the load set.
pub const CAMPAIGN_ADDED: Code = Code {
    id: "L0106",
    name: "campaign-added",
};
/// A PCC includes itself through `PCC:` (the cycle is cut).
pub const INCLUDE_CYCLE: Code = Code {
    id: "L0107",
    name: "include-cycle",
};
/// The campaigns of one load set belong to different game modes.
pub const MIXED_GAME_MODES: Code = Code {
    id: "L0108",
    name: "mixed-game-modes",
};
/// A formula file token carries `(INCLUDE:…)`, `(EXCLUDE:…)` or a prerequisite.
pub const SUFFIX_NOT_ALLOWED: Code = Code {
    id: "L0109",
    name: "suffix-not-allowed",
};
/// A `!PRECAMPAIGN` on a selected PCC fails against the load set.
pub const CAMPAIGN_CONFLICT: Code = Code {
    id: "L0110",
    name: "campaign-conflict",
};
/// A path form PCGen cannot resolve (absolute URI, empty path).
pub const BAD_PATH: Code = Code {
    id: "L0111",
    name: "bad-path",
};
/// A load set names no game mode (only include-only PCCs were given).
pub const NO_GAME_MODE: Code = Code {
    id: "L0112",
    name: "no-game-mode",
};
/// A chain of `PCC:` includes deeper than [`crate::load::loadset::MAX_INCLUDE_DEPTH`]
/// (the include that crosses the limit is not loaded).
pub const INCLUDE_TOO_DEEP: Code = Code {
    id: "L0113",
    name: "include-too-deep",
};
/// A PCC names a file outside the PCGen root (`../`, an absolute path, a link leading out);
/// it is not read unless `--allow-outside-root` is given.
pub const OUTSIDE_ROOT: Code = Code {
    id: "L0114",
    name: "outside-root",
};
/// A file entry's PRECAMPAIGN condition names campaigns or book types that no campaign under
/// the data folder has: the file is never loaded.
pub const NEVER_SATISFIED: Code = Code {
    id: "L0115",
    name: "never-satisfied",
};
/// A file a PCC lists is larger than any data file ([`crate::load::fs::MAX_FILE_BYTES`]):
/// it is not read.
pub const FILE_TOO_LARGE: Code = Code {
    id: "L0116",
    name: "file-too-large",
};

/// A data file that no PCC lists, opened in the editor: no load set reads it, so nothing
/// checks it (the language server says so instead of publishing an empty list).
pub const UNLISTED_FILE: Code = Code {
    id: "L0117",
    name: "unlisted-file",
};

/// A token has the wrong shape (missing `|`, `=` or value).
pub const MALFORMED: Code = Code {
    id: "T0101",
    name: "malformed-token",
};
/// A line of a DATACONTROL, VARIABLE, GLOBALMODIFIER or DYNAMIC file starts with a token that
/// file kind does not allow.
pub const UNEXPECTED_TOKEN: Code = Code {
    id: "T0102",
    name: "unexpected-token",
};
/// `PRIORITY=` is not an integer in 0..=2147483647.
pub const BAD_PRIORITY: Code = Code {
    id: "T0103",
    name: "bad-priority",
};
/// An association other than `PRIORITY=`, or one given twice.
pub const BAD_ASSOCIATION: Code = Code {
    id: "T0104",
    name: "bad-association",
};
/// A variable, function or scope name does not match `[A-Za-z][A-Za-z0-9_]*`.
pub const BAD_NAME: Code = Code {
    id: "T0105",
    name: "bad-name",
};
/// A GLOBALMODIFIER line holds more than one token (PCGen ignores the line).
pub const TAB_IN_GLOBAL_MODIFIER: Code = Code {
    id: "T0106",
    name: "tab-in-global-modifier",
};
/// A DATATABLE file is malformed (unterminated table, missing rows, bad cell).
pub const BAD_TABLE: Code = Code {
    id: "T0107",
    name: "bad-table",
};
/// `PART:n` where n is not a positive integer.
pub const BAD_PART: Code = Code {
    id: "T0108",
    name: "bad-part",
};
/// A MODIFYOTHER grouping that is not `ALL`, `GROUP=x`, `KEY=x` or a key (with `[child]`).
pub const BAD_GROUPING: Code = Code {
    id: "T0109",
    name: "bad-grouping",
};
