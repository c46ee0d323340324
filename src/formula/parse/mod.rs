//! Parsing formula text into a [`Formula`] tree, with every syntax problem as a diagnostic.
//!
//! The one entry point is [`parse_formula`]. Inside: a hand-written [`lexer`] (the reference's
//! token rules, including names with spaces and operators that absorb the spaces around
//! them), a chumsky [`grammar`] over the tokens, and [`explain`], which turns each grammar
//! failure into a precise diagnostic by looking at the tokens around it. chumsky never leaks
//! out of this module.

mod explain;
mod grammar;
mod lexer;

pub mod codes;

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::formula::ast::Formula;
use crate::source::{FileId, Span};
use chumsky::Parser;
use chumsky::input::Input;
use std::ops::Range;

/// The result of [`parse_formula`].
#[derive(Clone, Debug, PartialEq)]
pub struct ParseOutput {
    /// The tree; `Some` exactly when `diagnostics` holds no error (warnings may be present).
    pub formula: Option<Formula>,
    /// Every problem found, in text order.
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses one formula.
///
/// `text` is the formula alone; `file` and `offset` (the byte position of the formula inside
/// that file) place every span. The empty text parses to `Formula { root: None, .. }` (the
/// checker reports it). Never panics, whatever the input.
///
/// ```
/// use rulebook::formula::parse_formula;
/// use rulebook::formula::print::to_sexpr;
/// use rulebook::source::FileId;
///
/// let out = parse_formula("floor((Score-10)/2)", FileId(0), 0);
/// assert_eq!(to_sexpr(&out.formula.unwrap()), "(call floor (/ (paren (- $Score 10)) 2))");
/// assert!(parse_formula("2^-1", FileId(0), 0).formula.is_none());
/// ```
pub fn parse_formula(text: &str, file: FileId, offset: u32) -> ParseOutput {
    let whole = Span::new(file, 0..text.len()).shifted(offset);
    if text.is_empty() {
        return ParseOutput {
            formula: Some(Formula {
                root: None,
                span: whole,
            }),
            diagnostics: Vec::new(),
        };
    }
    let mut problems = Vec::new();
    let tokens = lexer::lex(text, &mut problems);
    let root = if tokens.is_empty() {
        None
    } else {
        let end = text.len();
        let input = tokens.as_slice().split_token_span((end..end).into());
        let (root, errors) = grammar::formula(file, offset)
            .parse(input)
            .into_output_errors();
        for error in &errors {
            if let Some(p) = explain::explain(error, &tokens, end) {
                if !problems
                    .iter()
                    .any(|q| q.code == p.code && q.range == p.range)
                {
                    problems.push(p);
                }
            }
        }
        root
    };
    problems.sort_by_key(|p| (p.range.start, p.range.end));
    let has_error = problems.iter().any(|p| p.severity == Severity::Error);
    let diagnostics = problems
        .into_iter()
        .map(|p| p.into_diagnostic(file, offset))
        .collect();
    ParseOutput {
        formula: (!has_error).then_some(Formula { root, span: whole }),
        diagnostics,
    }
}

/// A problem found while parsing, with ranges relative to the formula text.
#[derive(Clone, Debug)]
struct Problem {
    severity: Severity,
    code: Code,
    range: Range<usize>,
    message: String,
    label: String,
    secondary: Vec<(Range<usize>, String)>,
    help: Option<String>,
}

impl Problem {
    fn new(code: Code, range: Range<usize>, message: impl Into<String>) -> Self {
        Problem {
            severity: Severity::Error,
            code,
            range,
            message: message.into(),
            label: String::new(),
            secondary: Vec::new(),
            help: None,
        }
    }

    fn warning(code: Code, range: Range<usize>, message: impl Into<String>) -> Self {
        Problem {
            severity: Severity::Warning,
            ..Problem::new(code, range, message)
        }
    }

    fn label(mut self, text: impl Into<String>) -> Self {
        self.label = text.into();
        self
    }

    fn secondary(mut self, range: Range<usize>, text: impl Into<String>) -> Self {
        self.secondary.push((range, text.into()));
        self
    }

    fn help(mut self, text: impl Into<String>) -> Self {
        self.help = Some(text.into());
        self
    }

    fn into_diagnostic(self, file: FileId, offset: u32) -> Diagnostic {
        let at = |r: Range<usize>| Span::new(file, r).shifted(offset);
        let mut d = Diagnostic::new(self.severity, self.code, at(self.range), self.message)
            .with_label(self.label);
        for (r, text) in self.secondary {
            d = d.with_secondary(at(r), text);
        }
        if let Some(h) = self.help {
            d = d.with_help(h);
        }
        d
    }
}
