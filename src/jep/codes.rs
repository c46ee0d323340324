//! The stable codes of old-formula (JEP) diagnostics (`J01xx`), documented in
//! `docs/errors.md` under "Old formulas (JEP)".

use crate::diagnostic::Code;

/// A character that means nothing in an old formula (`#`, `@`, `'`, `&`, `|`, `{`, a lone
/// `=`, `;`, `:`, `[` or `]`).
pub const UNEXPECTED_CHARACTER: Code = Code {
    id: "J0101",
    name: "unexpected-character",
};
/// A string literal without its closing `"`.
pub const UNTERMINATED_STRING: Code = Code {
    id: "J0102",
    name: "unterminated-string",
};
/// A number JEP cannot read (`1a`, `3.5.2`, `1e`).
pub const MALFORMED_NUMBER: Code = Code {
    id: "J0103",
    name: "malformed-number",
};
/// An operator without an operand on one side (`2+`, `*3`, `()`, `max(1,)`), or an empty
/// formula.
pub const MISSING_OPERAND: Code = Code {
    id: "J0104",
    name: "missing-operand",
};
/// Two operands with no operator between them (`(1)(2)`, `1 2`, `"a"b`).
pub const MISSING_OPERATOR: Code = Code {
    id: "J0105",
    name: "missing-operator",
};
/// A `(` that is never closed (`floor(2`).
pub const UNCLOSED_PAREN: Code = Code {
    id: "J0106",
    name: "unclosed-paren",
};
/// A `)` that closes nothing (`1+2)`).
pub const UNMATCHED_PAREN: Code = Code {
    id: "J0107",
    name: "unmatched-paren",
};
/// A call of a function PCGen's JEP setup does not know (`foo(1)`).
pub const UNKNOWN_FUNCTION: Code = Code {
    id: "J0108",
    name: "unknown-function",
};
/// A known function written in a case PCGen does not register (`If(`, `Floor(`, `ROUND(`).
pub const FUNCTION_CASE: Code = Code {
    id: "J0109",
    name: "function-case",
};
/// A function called with a number of arguments it does not take (`max()`, `if(a,b)`).
pub const WRONG_ARITY: Code = Code {
    id: "J0110",
    name: "wrong-arity",
};
/// A formula JEP cannot read (because of a term such as `CL=Fighter` or a name with a
/// space) that also uses something PCGen's fallback parser cannot evaluate (a function call,
/// a comparison, a string, `^`, `%`, `!`, a minus before a name).
pub const FALLBACK_UNSUPPORTED: Code = Code {
    id: "J0111",
    name: "fallback-unsupported",
};
/// A formula evaluated by PCGen's fallback parser where its left-to-right reading gives
/// another value than the precedence the formula is written with (`CL=Bard+TL*2`).
pub const FALLBACK_ORDER: Code = Code {
    id: "J0112",
    name: "fallback-order",
};
/// A formula too long or nested too deeply to be checked (far beyond any real data).
pub const TOO_COMPLEX: Code = Code {
    id: "J0113",
    name: "too-complex",
};
/// A lone `=` between operands (`a = 2`): JEP's assignment, which PCGen does not enable.
pub const ASSIGNMENT: Code = Code {
    id: "J0114",
    name: "assignment",
};
