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
