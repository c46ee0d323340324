//! The checker's diagnostic codes, `F0101`–`F0114` (documented in docs/errors.md).

use crate::diagnostic::Code;

/// A name that is neither a variable in scope nor a format-less word.
pub const UNKNOWN_VARIABLE: Code = Code {
    id: "F0101",
    name: "unknown-variable",
};
/// A call of a function that does not exist.
pub const UNKNOWN_FUNCTION: Code = Code {
    id: "F0102",
    name: "unknown-function",
};
/// A call with the wrong number of arguments.
pub const WRONG_ARITY: Code = Code {
    id: "F0103",
    name: "wrong-arity",
};
/// An operator or function applied to operands of the wrong format.
pub const OPERAND_FORMAT: Code = Code {
    id: "F0104",
    name: "operand-format-mismatch",
};
/// The formula's result has another format than the one required.
pub const RESULT_FORMAT: Code = Code {
    id: "F0105",
    name: "result-format-mismatch",
};
/// A quoted literal that cannot be read as the format required where it stands.
pub const INVALID_LITERAL: Code = Code {
    id: "F0106",
    name: "invalid-literal",
};
/// A literal argument that a function rejects (`arg`, `slice`, host functions).
pub const INVALID_ARGUMENT: Code = Code {
    id: "F0107",
    name: "invalid-argument",
};
/// `value()` where there is no running value.
pub const NO_INPUT: Code = Code {
    id: "F0108",
    name: "no-input-format",
};
/// An empty formula.
pub const EMPTY_FORMULA: Code = Code {
    id: "F0109",
    name: "empty-formula",
};
/// `name[i]` on a variable that is not an array.
pub const NOT_AN_ARRAY: Code = Code {
    id: "F0110",
    name: "not-an-array",
};
/// A user function that calls itself (directly or through others).
pub const RECURSIVE_FUNCTION: Code = Code {
    id: "F0111",
    name: "recursive-function",
};
/// A number literal beyond the NUMBER range.
pub const NUMBER_OUT_OF_RANGE: Code = Code {
    id: "F0112",
    name: "number-out-of-range",
};

/// User functions that call each other so often the formula would become too large.
pub const FUNCTION_EXPANSION_TOO_LARGE: Code = Code {
    id: "F0113",
    name: "function-expansion-too-large",
};

/// A formula nested more deeply than any real formula (and than the stack allows).
pub const FORMULA_TOO_DEEP: Code = Code {
    id: "F0114",
    name: "formula-too-deep",
};
