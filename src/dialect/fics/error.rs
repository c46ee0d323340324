//! FICS's error classes and their diagnostic codes.

use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;

/// An operand is missing at the end of the formula (`ERR_EOF`).
pub const UNEXPECTED_END: Code = Code {
    id: "D0101",
    name: "fics-unexpected-end",
};
/// A doubled unary operator without a space (`ERR_UNARY`).
pub const DOUBLED_UNARY: Code = Code {
    id: "D0102",
    name: "fics-doubled-unary",
};
/// An unknown variable, a bad f-variable reference or a bad `maxtime(n)` (`ERR_BADVAR`).
pub const UNKNOWN_VARIABLE: Code = Code {
    id: "D0103",
    name: "fics-unknown-variable",
};
/// Something other than an operator where one is expected (`ERR_BADOP`).
pub const BAD_OPERATOR: Code = Code {
    id: "D0104",
    name: "fics-bad-operator",
};
/// Something that cannot start an operand where one is expected (`ERR_NONESENSE`).
pub const NOT_AN_OPERAND: Code = Code {
    id: "D0105",
    name: "fics-not-an-operand",
};
/// Unbalanced parentheses (`ERR_PAREN`).
pub const PARENTHESIS: Code = Code {
    id: "D0106",
    name: "fics-parenthesis",
};
/// A number literal that does not fit in 32 bits (the original wraps around silently).
pub const NUMBER_TOO_LARGE: Code = Code {
    id: "D0107",
    name: "fics-number-too-large",
};
/// Notice: a division by zero was evaluated as a multiplication by 1000.
pub const DIVISION_BY_ZERO: Code = Code {
    id: "D0108",
    name: "fics-division-by-zero",
};

/// The error classes of the original `formula.c` (`ERR_BADCHAR` never reaches the user and
/// `ERR_DIVBYZERO` is never raised), plus rulebook's own [`ErrorClass::NumberTooLarge`] and
/// [`ErrorClass::TooDeep`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorClass {
    /// `ERR_EOF`.
    Eof,
    /// `ERR_UNARY`.
    Unary,
    /// `ERR_BADVAR`.
    BadVar,
    /// `ERR_BADOP`.
    BadOp,
    /// `ERR_NONESENSE`.
    Nonsense,
    /// `ERR_PAREN`.
    Paren,
    /// A literal beyond 32 bits (no class in the original, which wraps).
    NumberTooLarge,
    /// Nested deeper than [`crate::dialect::core::MAX_DEPTH`] (no class in the original,
    /// whose recursive scanner has no limit).
    TooDeep,
}

impl ErrorClass {
    /// All classes.
    pub const ALL: [ErrorClass; 8] = [
        ErrorClass::Eof,
        ErrorClass::Unary,
        ErrorClass::BadVar,
        ErrorClass::BadOp,
        ErrorClass::Nonsense,
        ErrorClass::Paren,
        ErrorClass::NumberTooLarge,
        ErrorClass::TooDeep,
    ];

    /// The original's name for the class (`ERR_BADOP`, …).
    pub fn reference_name(self) -> &'static str {
        match self {
            ErrorClass::Eof => "ERR_EOF",
            ErrorClass::Unary => "ERR_UNARY",
            ErrorClass::BadVar => "ERR_BADVAR",
            ErrorClass::BadOp => "ERR_BADOP",
            ErrorClass::Nonsense => "ERR_NONESENSE",
            ErrorClass::Paren => "ERR_PAREN",
            ErrorClass::NumberTooLarge => "ERR_NUMBER",
            ErrorClass::TooDeep => "ERR_NESTING",
        }
    }

    /// The diagnostic code of the class.
    pub fn code(self) -> Code {
        match self {
            ErrorClass::Eof => UNEXPECTED_END,
            ErrorClass::Unary => DOUBLED_UNARY,
            ErrorClass::BadVar => UNKNOWN_VARIABLE,
            ErrorClass::BadOp => BAD_OPERATOR,
            ErrorClass::Nonsense => NOT_AN_OPERAND,
            ErrorClass::Paren => PARENTHESIS,
            ErrorClass::NumberTooLarge => NUMBER_TOO_LARGE,
            ErrorClass::TooDeep => crate::dialect::core::TOO_DEEP,
        }
    }

    /// The class a diagnostic code stands for.
    pub fn of_code(code: Code) -> Option<ErrorClass> {
        Self::ALL.into_iter().find(|c| c.code() == code)
    }
}

/// One syntax error as the scanner found it; turned into a [`Diagnostic`] by
/// [`SyntaxError::into_diagnostic`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// The original's class.
    pub class: ErrorClass,
    /// The offending text.
    pub span: Span,
    /// One-line message.
    pub message: String,
    /// Label on the span.
    pub label: String,
    /// How to fix it.
    pub help: String,
    /// Further spans (e.g. the unmatched `(`).
    pub secondary: Vec<(Span, String)>,
    /// Extra facts.
    pub notes: Vec<String>,
    /// The known name closest to the offending text, if one is near: the help then says
    /// "did you mean" it (a suggestion, see [`Diagnostic::with_did_you_mean`]), and `help`
    /// becomes a note.
    pub guess: Option<String>,
}

impl SyntaxError {
    /// An error of `class` at `span`.
    pub fn new(
        class: ErrorClass,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
        help: impl Into<String>,
    ) -> Self {
        SyntaxError {
            class,
            span,
            message: message.into(),
            label: label.into(),
            help: help.into(),
            secondary: Vec::new(),
            notes: Vec::new(),
            guess: None,
        }
    }

    /// Adds a secondary label.
    pub fn with_secondary(mut self, span: Span, text: impl Into<String>) -> Self {
        self.secondary.push((span, text.into()));
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Sets the known name closest to the offending text (see [`SyntaxError::guess`]).
    pub fn with_guess(mut self, name: impl Into<String>) -> Self {
        self.guess = Some(name.into());
        self
    }

    /// The diagnostic users see.
    pub fn into_diagnostic(self) -> Diagnostic {
        let mut d =
            Diagnostic::error(self.class.code(), self.span, self.message).with_label(self.label);
        d = match self.guess {
            Some(g) => d.with_did_you_mean(self.span, g).with_note(self.help),
            None => d.with_help(self.help),
        };
        for (span, text) in self.secondary {
            d = d.with_secondary(span, text);
        }
        for n in self.notes {
            d = d.with_note(n);
        }
        if !matches!(self.class, ErrorClass::NumberTooLarge | ErrorClass::TooDeep) {
            d = d.with_note(format!(
                "FICS reports this as {} and rejects the setting",
                self.class.reference_name()
            ));
        }
        d
    }
}
