//! Diagnostic codes of the data model (`M01xx`). Each is documented with an example and its
//! fix in `docs/errors/loader.md`.

use crate::diagnostic::Code;

macro_rules! codes {
    ($($(#[$doc:meta])* $name:ident = $id:literal, $kebab:literal;)*) => {
        $($(#[$doc])* pub const $name: Code = Code { id: $id, name: $kebab };)*
        /// Every model code, for documentation tests.
        pub const ALL: &[Code] = &[$($name),*];
    };
}

codes! {
    /// A scope name that does not exist.
    UNKNOWN_SCOPE = "M0101", "unknown-scope";
    /// A format name that does not exist (e.g. `AREA`).
    UNKNOWN_FORMAT = "M0102", "unknown-format";
    /// The same variable defined twice in one scope with different formats.
    FORMAT_CONFLICT = "M0103", "format-conflict";
    /// The same name in a scope and an ancestor or descendant scope.
    VARIABLE_OVERLAP = "M0104", "variable-overlap";
    /// Two different defaults for one format.
    DEFAULT_CONFLICT = "M0105", "default-conflict";
    /// A variable's format has no DEFAULTVARIABLEVALUE.
    MISSING_DEFAULT = "M0106", "missing-default";
    /// A MODIFY target that is not visible from the object's scope.
    UNKNOWN_VARIABLE = "M0107", "unknown-variable";
    /// A modifier type not available for the variable's format.
    ILLEGAL_MODIFIER = "M0108", "illegal-modifier";
    /// ADD (or another arithmetic modifier) on a DICE variable.
    DICE_ARITHMETIC = "M0109", "dice-arithmetic";
    /// A constant that is not valid for its format.
    BAD_LITERAL = "M0110", "bad-literal";
    /// FACT or FACTSET without a FACTDEF/FACTSETDEF for that object kind.
    UNKNOWN_FACT = "M0111", "unknown-fact";
    /// A scope written with the spec's name instead of PCGen's `PC.` name.
    SCOPE_ALIAS = "M0112", "scope-alias";
    /// Accepted by the spec, rejected by PCGen.
    PCGEN_DIVERGENCE = "M0113", "pcgen-divergence";
    /// The legacy FACE token while the game mode's codeControl defines `FACE:`.
    FACE_DISABLED = "M0114", "face-disabled";
    /// A MODIFYOTHER, GRANT or `.MOD` names an object that does not exist.
    UNKNOWN_OBJECT = "M0115", "unknown-object";
    /// A FUNCTION defined twice differently, or clashing with a built-in.
    DUPLICATE_FUNCTION = "M0116", "duplicate-function";
    /// A DYNAMIC line or GRANT whose category is not a DYNAMICSCOPE.
    UNKNOWN_CATEGORY = "M0117", "unknown-category";
    /// MODIFYOTHER on the global scope `PC`.
    GLOBAL_MODIFY_OTHER = "M0118", "global-modifyother";
    /// A MODIFYOTHER child selector `[…]` on a scope that has no sub-scope.
    NO_SUBSCOPE = "M0119", "no-subscope";
    /// A variable that nothing modifies or reads.
    UNUSED_VARIABLE = "M0120", "unused-variable";
    /// A FACTDEF location that PCGen does not know.
    BAD_FACT_LOCATION = "M0121", "bad-fact-location";
    /// A DATATABLE table defined twice.
    DUPLICATE_TABLE = "M0122", "duplicate-table";
    /// The ORDEREDPAIR default (or ALIGNMENT's, with ALIGNMENTFEATURE) is missing.
    REQUIRED_DEFAULT = "M0123", "required-default";
    /// A formula used where the format takes only fixed values (PCGen), or a modifier type in
    /// the wrong case.
    MODIFIER_CASE = "M0124", "modifier-case";
}
