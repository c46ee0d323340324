//! Diagnostic codes of the old formulas' names, resolved across a load set (`J012x`; the
//! syntax codes `J0101`–`J0114` are [`crate::jep::codes`]). Each is documented with an
//! example and its fix in `docs/errors.md`.

use crate::diagnostic::Code;

/// A name an old formula reads that no `DEFINE`, `BONUS:VAR`, stat, term or output-sheet
/// token of the load set gives: PCGen finds no value for it and evaluates it to 0.
pub const UNKNOWN_VARIABLE: Code = Code {
    id: "J0120",
    name: "unknown-old-variable",
};

/// A name an old formula reads that the load set defines only as a formula-system variable
/// (`GLOBAL`/`LOCAL`/a channel): PCGen's old formulas do not look there, and evaluate it to 0.
pub const FORMULA_VARIABLE_READ: Code = Code {
    id: "J0121",
    name: "formula-variable-in-old-formula",
};

/// A `DEFINE` of a name the load set also defines as a formula-system variable: two
/// variables of one name, the old formulas and `BONUS:VAR` on the one, `MODIFY` on the other.
pub const DEFINED_IN_BOTH_SYSTEMS: Code = Code {
    id: "J0122",
    name: "variable-in-both-systems",
};

/// A `BONUS:VAR` (or `TEMPBONUS` to a variable) whose target the load set defines only as a
/// formula-system variable: PCGen keeps the bonus on an old-system variable of that name,
/// which nothing of the formula system reads.
pub const BONUS_TO_FORMULA_VARIABLE: Code = Code {
    id: "J0123",
    name: "bonus-to-formula-variable",
};
