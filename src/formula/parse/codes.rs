//! The stable codes of formula syntax diagnostics (`P01xx`), documented in
//! `docs/errors.md`.

use crate::diagnostic::Code;

/// A character that has no meaning in a formula (`@`, `#`, `;`, `$a`, `_a`, `'`).
pub const UNEXPECTED_CHARACTER: Code = Code {
    id: "P0101",
    name: "unexpected-character",
};
/// A space that is neither around an operator nor inside a name (` 1`, `1 `, `1 2`).
pub const MISPLACED_SPACE: Code = Code {
    id: "P0102",
    name: "misplaced-space",
};
/// A tab or line break inside a formula.
pub const BAD_WHITESPACE: Code = Code {
    id: "P0103",
    name: "tab-or-line-break",
};
/// A number the grammar does not accept (`1.`, `1e5`, `0x1F`, `1.2.3`, `1a`, `.a`).
pub const MALFORMED_NUMBER: Code = Code {
    id: "P0104",
    name: "malformed-number",
};
/// A string literal without its closing `"`.
pub const UNTERMINATED_STRING: Code = Code {
    id: "P0105",
    name: "unterminated-string",
};
/// A backslash escape other than `\n \t \b \r \f \\ \' \"` in a string.
pub const INVALID_ESCAPE: Code = Code {
    id: "P0106",
    name: "invalid-escape",
};
/// A name ending with a character that cannot end a name (`a_`, `a.`, `a:`).
pub const INVALID_NAME: Code = Code {
    id: "P0107",
    name: "invalid-name",
};
/// An operator-like symbol that is not an operator (`&`, `|`, `=`, `=>`, `=<`, `<>`).
pub const UNKNOWN_OPERATOR: Code = Code {
    id: "P0108",
    name: "unknown-operator",
};
/// Warning: a name containing `=` next to a space (`a = b`), which is one name, not a test.
pub const EQUALS_IN_NAME: Code = Code {
    id: "P0109",
    name: "equals-in-name",
};
/// An operator without an operand on one side (`2+`, `*3`, `()`, `f(1,)`).
pub const MISSING_OPERAND: Code = Code {
    id: "P0110",
    name: "missing-operand",
};
/// Two operands with no operator between them (`(1)(2)`, `"a"b`, `a!b`).
pub const MISSING_OPERATOR: Code = Code {
    id: "P0111",
    name: "missing-operator",
};
/// More than one unary operator on one operand (`--3`, `!!a`, `!-a`).
pub const DOUBLE_UNARY: Code = Code {
    id: "P0112",
    name: "double-unary",
};
/// A unary operator right after `^` (`2^-1`).
pub const UNARY_AFTER_POWER: Code = Code {
    id: "P0113",
    name: "unary-after-power",
};
/// A unary plus (`+3`, `1-+2`).
pub const UNARY_PLUS: Code = Code {
    id: "P0114",
    name: "unary-plus",
};
/// A `(` or `[` that is never closed.
pub const UNCLOSED_DELIMITER: Code = Code {
    id: "P0115",
    name: "unclosed-delimiter",
};
/// A `)` or `]` without a matching opener (or closing the wrong one).
pub const UNMATCHED_CLOSING: Code = Code {
    id: "P0116",
    name: "unmatched-closing",
};
/// A comma outside a function call's argument list (`1,2`, `(5,5)`, `x[1,2]`).
pub const COMMA_OUTSIDE_CALL: Code = Code {
    id: "P0117",
    name: "comma-outside-call",
};
/// `(` or `[` after something that is not a plain name (`f(1)(2)`, `x[1][2]`, `(f)(1)`).
pub const CALL_ON_NON_NAME: Code = Code {
    id: "P0118",
    name: "call-on-non-name",
};
/// A comparison or logical operator directly inside `name[...]` (`x[a<b]`).
pub const COMPARISON_IN_INDEX: Code = Code {
    id: "P0119",
    name: "comparison-in-index",
};
/// `name[]` without an index.
pub const EMPTY_INDEX: Code = Code {
    id: "P0120",
    name: "empty-index",
};
/// A `%` name prefix separated from its name by a space (`% a`).
pub const SPACED_PERCENT_PREFIX: Code = Code {
    id: "P0121",
    name: "spaced-percent-prefix",
};
/// Any other token the grammar does not expect where it stands.
pub const UNEXPECTED_TOKEN: Code = Code {
    id: "P0122",
    name: "unexpected-token",
};

/// A formula with more than [`super::MAX_TOKENS`] tokens.
pub const FORMULA_TOO_LONG: Code = Code {
    id: "P0123",
    name: "formula-too-long",
};

/// Every parse code, in order (for documentation and tests).
pub const ALL: [Code; 23] = [
    UNEXPECTED_CHARACTER,
    MISPLACED_SPACE,
    BAD_WHITESPACE,
    MALFORMED_NUMBER,
    UNTERMINATED_STRING,
    INVALID_ESCAPE,
    INVALID_NAME,
    UNKNOWN_OPERATOR,
    EQUALS_IN_NAME,
    MISSING_OPERAND,
    MISSING_OPERATOR,
    DOUBLE_UNARY,
    UNARY_AFTER_POWER,
    UNARY_PLUS,
    UNCLOSED_DELIMITER,
    UNMATCHED_CLOSING,
    COMMA_OUTSIDE_CALL,
    CALL_ON_NON_NAME,
    COMPARISON_IN_INDEX,
    EMPTY_INDEX,
    SPACED_PERCENT_PREFIX,
    UNEXPECTED_TOKEN,
    FORMULA_TOO_LONG,
];
