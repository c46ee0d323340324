//! Diagnostic codes of the token vocabulary (`T0110`–`T0129`). Every code is documented with an
//! example and its fix in `docs/errors.md`.

use crate::diagnostic::Code;

/// A token name PCGen does not know on any line (`MODIFFY:`, `bonus:`).
pub const UNKNOWN_TOKEN: Code = Code {
    id: "T0110",
    name: "unknown-token",
};
/// A token PCGen knows, on a file kind or line type that does not take it (`GLOBAL:` on a
/// RACE line, a class token on a level line other than 1).
pub const MISPLACED_TOKEN: Code = Code {
    id: "T0111",
    name: "misplaced-token",
};
/// A sub-token its token does not know here (`CHOOSE:SKIL`, `BONUS:COMBT`).
pub const UNKNOWN_SUBTOKEN: Code = Code {
    id: "T0112",
    name: "unknown-subtoken",
};
/// A deprecated token or sub-token PCGen still accepts.
pub const DEPRECATED_TOKEN: Code = Code {
    id: "T0113",
    name: "deprecated-token",
};
/// A token PCGen knows by name but whose parse always fails (`ENABLE:`, `PENALTYVAR:`).
pub const UNSUPPORTED_TOKEN: Code = Code {
    id: "T0114",
    name: "unsupported-token",
};
/// A line whose first column does not name a line type of its file (a kit line prefix, a
/// BIOSET line, a CLASS-file level).
pub const UNKNOWN_LINE_TYPE: Code = Code {
    id: "T0115",
    name: "unknown-line-type",
};
/// An object name column that holds tokens separated by spaces instead of tabs.
pub const SPACES_NOT_TABS: Code = Code {
    id: "T0116",
    name: "spaces-not-tabs",
};
/// A token without `:` or with nothing before it.
pub const NO_COLON: Code = Code {
    id: "T0117",
    name: "token-without-colon",
};
/// A field after a bonus's value that is neither a prerequisite nor a `TYPE=`: PCGen drops
/// it without a word (a beyond-PCGen warning, docs/loading.md).
pub const BONUS_FIELD_IGNORED: Code = Code {
    id: "T0118",
    name: "bonus-field-ignored",
};
/// A token value PCGen's parser rejects (`COST:13,500`, `CR:RacialTraitsECL+1`, an
/// `ABILITY:` without its nature): PCGen logs it and drops the token.
pub const BAD_TOKEN_VALUE: Code = Code {
    id: "T0119",
    name: "bad-token-value",
};
