//! Diagnostic codes of the data model (`M01xx`). Each is documented with an example and its
//! fix in `docs/errors.md`.

use crate::diagnostic::Code;

/// A scope name that does not exist.
pub const UNKNOWN_SCOPE: Code = Code {
    id: "M0101",
    name: "unknown-scope",
};
/// A format name that does not exist (e.g. `AREA`).
pub const UNKNOWN_FORMAT: Code = Code {
    id: "M0102",
    name: "unknown-format",
};
/// The same variable defined twice in one scope with different formats.
pub const FORMAT_CONFLICT: Code = Code {
    id: "M0103",
    name: "format-conflict",
};
/// The same name in a scope and an ancestor or descendant scope.
pub const VARIABLE_OVERLAP: Code = Code {
    id: "M0104",
    name: "variable-overlap",
};
/// Two different defaults for one format.
pub const DEFAULT_CONFLICT: Code = Code {
    id: "M0105",
    name: "default-conflict",
};
/// A variable's format has no DEFAULTVARIABLEVALUE.
pub const MISSING_DEFAULT: Code = Code {
    id: "M0106",
    name: "missing-default",
};
/// A MODIFY target that is not visible from the object's scope.
pub const UNKNOWN_VARIABLE: Code = Code {
    id: "M0107",
    name: "unknown-variable",
};
/// A modifier type not available for the variable's format.
pub const ILLEGAL_MODIFIER: Code = Code {
    id: "M0108",
    name: "illegal-modifier",
};
/// ADD (or another arithmetic modifier) on a DICE variable.
pub const DICE_ARITHMETIC: Code = Code {
    id: "M0109",
    name: "dice-arithmetic",
};
/// A constant that is not valid for its format.
pub const BAD_LITERAL: Code = Code {
    id: "M0110",
    name: "bad-literal",
};
/// FACT or FACTSET without a FACTDEF/FACTSETDEF for that object kind.
pub const UNKNOWN_FACT: Code = Code {
    id: "M0111",
    name: "unknown-fact",
};
/// A scope written with the spec's name instead of PCGen's `PC.` name.
pub const SCOPE_ALIAS: Code = Code {
    id: "M0112",
    name: "scope-alias",
};
/// Accepted by the spec, rejected by PCGen.
pub const PCGEN_DIVERGENCE: Code = Code {
    id: "M0113",
    name: "pcgen-divergence",
};
/// The legacy FACE token while the game mode's codeControl defines `FACE:`.
pub const FACE_DISABLED: Code = Code {
    id: "M0114",
    name: "face-disabled",
};
/// A MODIFYOTHER, GRANT or `.MOD` names an object that does not exist.
pub const UNKNOWN_OBJECT: Code = Code {
    id: "M0115",
    name: "unknown-object",
};
/// A FUNCTION defined twice differently, or clashing with a built-in.
pub const DUPLICATE_FUNCTION: Code = Code {
    id: "M0116",
    name: "duplicate-function",
};
/// A DYNAMIC line or GRANT whose category is not a DYNAMICSCOPE.
pub const UNKNOWN_CATEGORY: Code = Code {
    id: "M0117",
    name: "unknown-category",
};
/// MODIFYOTHER on the global scope `PC`.
pub const GLOBAL_MODIFY_OTHER: Code = Code {
    id: "M0118",
    name: "global-modifyother",
};
/// A MODIFYOTHER child selector `[…]` on a scope that has no sub-scope.
pub const NO_SUBSCOPE: Code = Code {
    id: "M0119",
    name: "no-subscope",
};
/// A variable that nothing modifies or reads.
pub const UNUSED_VARIABLE: Code = Code {
    id: "M0120",
    name: "unused-variable",
};
/// A FACTDEF location that PCGen does not know.
pub const BAD_FACT_LOCATION: Code = Code {
    id: "M0121",
    name: "bad-fact-location",
};
/// A DATATABLE table defined twice.
pub const DUPLICATE_TABLE: Code = Code {
    id: "M0122",
    name: "duplicate-table",
};
/// The ORDEREDPAIR default (or ALIGNMENT's, with ALIGNMENTFEATURE) is missing.
pub const REQUIRED_DEFAULT: Code = Code {
    id: "M0123",
    name: "required-default",
};
/// A formula used where the format takes only fixed values (PCGen), or a modifier type in
/// the wrong case.
pub const MODIFIER_CASE: Code = Code {
    id: "M0124",
    name: "modifier-case",
};
/// `input()` names a channel that does not exist.
pub const UNKNOWN_CHANNEL: Code = Code {
    id: "M0125",
    name: "unknown-channel",
};
/// `lookup()` names a table that does not exist.
pub const UNKNOWN_TABLE: Code = Code {
    id: "M0126",
    name: "unknown-table",
};
/// `lookup()` names a column its table does not have.
pub const UNKNOWN_COLUMN: Code = Code {
    id: "M0127",
    name: "unknown-column",
};
/// A host function (`input`, `lookup`, `getFact`, `get`) called with the wrong arguments.
pub const HOST_ARGUMENTS: Code = Code {
    id: "M0128",
    name: "host-arguments",
};
/// A FACTDEF/FACTSETDEF attribute PCGen rejects: a `REQUIRED:`/`SELECTABLE:` other than
/// YES or NO, a `VISIBLE:` other than YES, DISPLAY, EXPORT or NO, an unknown `DATAFORMAT:`,
/// no `DATAFORMAT:` at all, or a token FACTDEF does not take.
pub const BAD_FACT_ATTRIBUTE: Code = Code {
    id: "M0129",
    name: "bad-fact-attribute",
};
/// An object does not give a FACT (or FACTSET) whose FACTDEF says `REQUIRED:YES`.
pub const REQUIRED_FACT: Code = Code {
    id: "M0130",
    name: "required-fact-missing",
};
/// The `.COPY=` lines of a load set copy more than
/// 100,000 items (a chain of copies grows with its square).
pub const COPY_LIMIT: Code = Code {
    id: "M0131",
    name: "copy-limit",
};
/// A BIOSET `AGESET` whose region and index an earlier one of the load set already has,
/// with another name or with BONUS/KIT tokens: PCGen keeps the first and drops this one.
pub const DUPLICATE_AGESET: Code = Code {
    id: "M0132",
    name: "duplicate-ageset",
};
