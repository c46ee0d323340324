//! Evaluation: the value environment a caller implements, and evaluation errors.

use super::ir::{HostFnRef, VarRef};
use super::number::{ArithmeticError, Number};
use super::value::Value;
use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;
use std::fmt;

/// Division or remainder by zero.
pub const DIVISION_BY_ZERO: Code = Code {
    id: "E0101",
    name: "division-by-zero",
};
/// A result beyond the NUMBER range.
pub const NUMBER_OVERFLOW: Code = Code {
    id: "E0102",
    name: "number-overflow",
};
/// A negative number raised to a fractional power.
pub const NOT_A_REAL_NUMBER: Code = Code {
    id: "E0103",
    name: "not-a-real-number",
};
/// An array index or slice start outside the array.
pub const INDEX_OUT_OF_BOUNDS: Code = Code {
    id: "E0104",
    name: "index-out-of-bounds",
};
/// An array index that is not a whole number.
pub const INDEX_NOT_WHOLE: Code = Code {
    id: "E0105",
    name: "index-not-whole",
};
/// `getOptional` of an empty optional.
pub const EMPTY_OPTIONAL: Code = Code {
    id: "E0106",
    name: "empty-optional",
};
/// A variable has no value and its format has no default.
pub const NO_VALUE: Code = Code {
    id: "E0107",
    name: "no-value",
};
/// A host function (input, lookup, get, getFact, …) failed.
pub const HOST_FUNCTION_FAILED: Code = Code {
    id: "E0108",
    name: "host-function-failed",
};
/// A slice end beyond the array, or a slice start after its end.
pub const SLICE_OUT_OF_RANGE: Code = Code {
    id: "E0109",
    name: "slice-out-of-range",
};
/// `value()` evaluated without an input value, or a value of the wrong format.
pub const MISSING_INPUT: Code = Code {
    id: "E0110",
    name: "missing-input",
};

/// Why an evaluation failed: a code, a message and the span of the node that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError {
    /// Stable code (`E01xx`).
    pub code: Code,
    /// What went wrong.
    pub message: String,
    /// The node that failed (`None` until the evaluator attaches one).
    pub span: Option<Span>,
}

impl EvalError {
    /// An error with `code` and `message` and no span yet.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        EvalError {
            code,
            message: message.into(),
            span: None,
        }
    }

    /// Attaches `span` unless the error already has one.
    pub fn at(mut self, span: Span) -> Self {
        if self.span.is_none() {
            self.span = Some(span);
        }
        self
    }

    /// The error of an arithmetic failure.
    pub fn arithmetic(e: ArithmeticError) -> Self {
        let code = match e {
            ArithmeticError::DivisionByZero => DIVISION_BY_ZERO,
            ArithmeticError::Overflow => NUMBER_OVERFLOW,
            ArithmeticError::NotReal => NOT_A_REAL_NUMBER,
        };
        EvalError::new(code, e.to_string())
    }

    /// The diagnostic for this error (at the failing node, with a help line).
    pub fn to_diagnostic(&self) -> Diagnostic {
        let help = match self.code.id {
            "E0101" => "guard the divisor, e.g. `if(d==0,0,n/d)`",
            "E0102" => "NUMBERs hold about 28 significant digits; check the values that feed this",
            "E0103" => "only non-negative numbers have fractional powers",
            "E0104" | "E0109" => "check the index against `length(...)` first",
            "E0105" => "use `floor(...)` to make the index a whole number",
            "E0106" => "test with `isPresent(...)` before `getOptional(...)`",
            "E0107" => "give the format a default with DEFAULTVARIABLEVALUE",
            "E0110" => "`value()` is only available where there is a running value (MODIFY)",
            "E0108" => "check the arguments of the call and the data it reads",
            _ => "see the message",
        };
        Diagnostic::error(
            self.code,
            self.span.unwrap_or(Span::DETACHED),
            self.message.clone(),
        )
        .with_help(help)
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for EvalError {}

/// The values a compiled formula reads, implemented by the caller (the solver, a character,
/// a test). Variables are the [`VarRef`]s the caller handed out in its
/// [`CheckEnv`](super::CheckEnv).
pub trait ValueEnv {
    /// The current value of `var` (its stored value, or the format's default).
    fn value(&self, var: VarRef) -> Result<Value, EvalError>;

    /// The value of a NUMBER variable. The default calls [`ValueEnv::value`]; override it to
    /// skip building a [`Value`] on hot paths.
    fn number(&self, var: VarRef) -> Result<Number, EvalError> {
        match self.value(var)? {
            Value::Number(n) => Ok(n),
            other => Err(EvalError::new(
                NO_VALUE,
                format!(
                    "the variable holds a {} where a NUMBER was expected",
                    other.kind()
                ),
            )),
        }
    }

    /// The value of a NUMBER variable when it is a whole `i64` ([`Number::Int`]); `None`
    /// otherwise (a decimal, no value, not a NUMBER: the caller then asks
    /// [`ValueEnv::number`]). Must agree with `number`. Override it to read the integer
    /// without copying a [`Number`] (the register programs' hot path).
    #[inline]
    fn int(&self, var: VarRef) -> Option<i64> {
        match self.number(var) {
            Ok(Number::Int(i)) => Some(i),
            _ => None,
        }
    }

    /// The value of a BOOLEAN variable. The default calls [`ValueEnv::value`].
    fn boolean(&self, var: VarRef) -> Result<bool, EvalError> {
        match self.value(var)? {
            Value::Boolean(b) => Ok(b),
            other => Err(EvalError::new(
                NO_VALUE,
                format!(
                    "the variable holds a {} where a BOOLEAN was expected",
                    other.kind()
                ),
            )),
        }
    }

    /// Calls a host function the caller's [`CheckEnv`](super::CheckEnv) resolved. Arguments
    /// are evaluated values (name parameters arrive as STRINGs).
    fn call_host(&self, function: HostFnRef, args: &[Value]) -> Result<Value, EvalError> {
        let _ = args;
        Err(EvalError::new(
            HOST_FUNCTION_FAILED,
            format!("host function #{} is not available here", function.0),
        ))
    }
}

/// A value environment without variables or host functions (constant formulas).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoValues;

impl ValueEnv for NoValues {
    fn value(&self, var: VarRef) -> Result<Value, EvalError> {
        Err(EvalError::new(
            NO_VALUE,
            format!("variable #{} has no value here", var.0),
        ))
    }
}
