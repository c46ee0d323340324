//! Parsing formula text into a [`Formula`] tree, with every syntax problem as a diagnostic.
//!
//! The one entry point is [`parse_formula`]. Inside: a hand-written `lexer`, the only
//! reader of the text (the reference's token rules, including names with spaces and
//! operators that absorb the spaces around them), a chumsky `grammar` over its tokens (the
//! reference grammar, with error recovery), a recursive-descent `fast` parser over the same
//! tokens tried first (the grammar alone parses an order of magnitude slower; a proptest
//! keeps the two identical), and `explain`, which turns each grammar failure into a precise
//! diagnostic by looking at the tokens around it. Both parsers take their binding levels
//! from [`BinaryOp::precedence`](crate::formula::ast::BinaryOp::precedence). chumsky never
//! leaks out of this module.

mod explain;
mod fast;
mod grammar;
mod lexer;

pub mod codes;

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::formula::ast::Formula;
use crate::source::{FileId, Span};
use chumsky::Parser;
use chumsky::extra::SimpleState;
use std::ops::Range;

/// The most tokens one formula may have. Far above any real formula (a sum of 10 000
/// variables, the reference's largest benchmark formula, has 19 999), it bounds the depth of
/// the tree that every later layer (and `Drop`) walks recursively: a chain `1+1+…` of N
/// operators is N levels deep.
pub const MAX_TOKENS: usize = 20_000;

thread_local! {
    /// The chumsky grammar, built once per thread (building it costs far more than parsing
    /// a formula).
    static GRAMMAR: grammar::Grammar<grammar::Error> = grammar::formula();

    /// The token buffer, reused from one formula to the next (taken while in use).
    static TOKENS: std::cell::Cell<Vec<lexer::Spanned>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Token buffers above this many tokens are not kept for the next formula.
const KEPT_TOKENS: usize = 4096;

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
    parse_with(text, file, offset, true)
}

/// [`parse_formula`] by the lexer and the chumsky grammar alone, without the fast parser:
/// what `benches/parse.rs` measures beside it (the reason the fast parser exists).
#[doc(hidden)]
pub fn parse_formula_by_grammar(text: &str) -> ParseOutput {
    parse_with(text, FileId(0), 0, false)
}

/// [`parse_formula`]: the lexer, the fast parser first when `try_fast`, then the grammar
/// for the tokens the fast parser refuses.
fn parse_with(text: &str, file: FileId, offset: u32, try_fast: bool) -> ParseOutput {
    let whole = Span::new(file, 0..text.len()).shifted(offset);
    if text.is_empty() {
        return ParseOutput {
            formula: Some(Formula::empty(whole)),
            diagnostics: Vec::new(),
        };
    }
    let mut problems = Vec::new();
    let tokens = lexer::lex_into(text, &mut problems, TOKENS.take());
    let formula = if tokens.is_empty() {
        Some(Formula::empty(whole))
    } else if let Some((_, at)) = tokens.get(MAX_TOKENS) {
        problems.push(
            Problem::new(
                codes::FORMULA_TOO_LONG,
                at.start..at.end,
                format!(
                    "the formula has {} tokens; at most {MAX_TOKENS} are supported",
                    tokens.len()
                ),
            )
            .label(format!("token number {} of the formula", MAX_TOKENS + 1))
            .help("split the computation over several variables"),
        );
        None
    } else {
        let end = text.len();
        let place = grammar::Place { file, offset };
        match try_fast
            .then(|| fast::parse(&tokens, text, place, whole))
            .flatten()
        {
            Some(formula) => Some(formula),
            None => {
                // Not a well-formed formula (or nested very deeply): the chumsky grammar
                // parses it again, with recovery, and each error is explained from the
                // tokens around it.
                let (root, errors) = GRAMMAR
                    .with(|grammar| {
                        grammar.parse_with_state(
                            grammar::input(tokens.clone(), end),
                            &mut SimpleState(grammar::Source::new(place, text, &tokens)),
                        )
                    })
                    .into_output_errors();
                let brackets = explain::Brackets::of(&tokens);
                let mut seen: std::collections::HashSet<(&str, usize, usize)> = problems
                    .iter()
                    .map(|q| (q.code.id, q.range.start, q.range.end))
                    .collect();
                for error in &errors {
                    if let Some(p) = explain::explain(error, &tokens, &brackets, text) {
                        if seen.insert((p.code.id, p.range.start, p.range.end)) {
                            problems.push(p);
                        }
                    }
                }
                Some(Formula::from_tree(root.as_ref(), whole))
            }
        }
    };
    if tokens.capacity() <= KEPT_TOKENS {
        TOKENS.set(tokens);
    }
    if problems.is_empty() {
        return ParseOutput {
            formula,
            diagnostics: Vec::new(),
        };
    }
    problems.sort_by_key(|p| (p.range.start, p.range.end));
    let has_error = problems.iter().any(|p| p.severity == Severity::Error);
    let diagnostics = problems
        .into_iter()
        .map(|p| p.into_diagnostic(file, offset))
        .collect();
    ParseOutput {
        formula: formula.filter(|_| !has_error),
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The chumsky grammar's verdict on `text`: its tree, or `None` on a grammar error.
    fn chumsky_only(text: &str) -> Option<Formula> {
        let tokens = lexer::lex(text, &mut Vec::new());
        let place = grammar::Place::default();
        let (root, errors) = GRAMMAR
            .with(|g| {
                g.parse_with_state(
                    grammar::input(tokens.clone(), text.len()),
                    &mut SimpleState(grammar::Source::new(place, text, &tokens)),
                )
            })
            .into_output_errors();
        errors
            .is_empty()
            .then(|| Formula::from_tree(root.as_ref(), Span::new(FileId(0), 0..text.len())))
    }

    /// How many token reads the grammar makes on `text` (whether or not it is valid).
    fn grammar_reads(text: &str) -> u64 {
        grammar::READS.with(|r| r.set(0));
        chumsky_only(text);
        grammar::READS.with(std::cell::Cell::get)
    }

    fn fast_only(text: &str) -> Option<Formula> {
        let tokens = lexer::lex(text, &mut Vec::new());
        let whole = Span::new(FileId(0), 0..text.len());
        fast::parse(&tokens, text, grammar::Place::default(), whole)
    }

    const PIECES: &[&str] = &[
        "(", ")", "[", "]", ",", "a", "b c", "1", ".5", " ", "-", "!", "^", "+", "*", "/", "%",
        "<", ">=", "==", "!=", "&&", "||", "\"s\"", "f(", "x[", "=", "@",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// The fast parser and the chumsky grammar accept the same token sequences, with the
        /// same trees (spans included).
        #[test]
        fn fast_parser_agrees_with_the_chumsky_grammar(
            pieces in prop::collection::vec(prop::sample::select(PIECES), 1..16)
        ) {
            let text = pieces.concat();
            prop_assert_eq!(fast_only(&text), chumsky_only(&text), "{:?}", text);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// The grammar's work grows linearly with the input: a random piece of formula
        /// repeated 32 times costs at most five times what 8 repeats cost (linear is four;
        /// quadratic would be sixteen, and the old grammar's retries were exponential).
        #[test]
        fn grammar_work_is_linear_in_the_input(
            unit in prop::collection::vec(prop::sample::select(PIECES), 1..6)
        ) {
            let unit = unit.concat();
            let small = grammar_reads(&unit.repeat(8));
            let big = grammar_reads(&unit.repeat(32));
            prop_assert!(big <= 5 * small + 16, "{unit:?}: {small} reads for 8, {big} for 32");
        }
    }

    #[test]
    fn agree_on_the_grammar_corners() {
        for text in [
            "1",
            "-!a",
            "2^3^2",
            "a||b&&c",
            "f()",
            "f(1,g(2),x[3])",
            "x[1+2*3]",
            "x[a<b]",
            "5%%a",
            "%a(1)",
            "--1",
            "2^-1",
            "(1",
            "1)",
            "f(1,)",
            "a==b!=c<d+e*f^g",
            // Once found by the proptest above (a lone `=` once split the parsers).
            "=",
        ] {
            assert_eq!(fast_only(text), chumsky_only(text), "{text:?}");
        }
    }

    #[test]
    fn deep_nesting_falls_back_to_the_grammar_and_does_not_overflow() {
        let text = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
        assert!(fast_only(&text).is_none());
        let out = parse_formula(&text, FileId(0), 0);
        assert!(out.formula.is_some(), "{:?}", out.diagnostics.first());
    }

    /// Issue 14: `-(8 6` repeated took 1.7 s at 20 repeats, 7 s at 22 (each unclosed `(`
    /// doubled the grammar's work). 1,000 repeats now take a few reads per token, and every
    /// problem is still reported.
    #[test]
    fn unclosed_parentheses_repeated_a_thousand_times_parse_in_linear_work() {
        let text = "-(8 6".repeat(1000);
        let tokens = lexer::lex(&text, &mut Vec::new()).len() as u64;
        let reads = grammar_reads(&text);
        assert!(reads <= 20 * tokens, "{reads} reads for {tokens} tokens");
        let out = parse_formula(&text, FileId(0), 0);
        assert!(out.formula.is_none());
        let spaces = out
            .diagnostics
            .iter()
            .filter(|d| d.code == codes::MISPLACED_SPACE)
            .count();
        assert_eq!(spaces, 1000, "one missing operator per `8 6`");
        let unclosed: Vec<_> = out
            .diagnostics
            .iter()
            .filter(|d| d.code == codes::UNCLOSED_DELIMITER)
            .collect();
        assert_eq!(unclosed.len(), 1, "{:?}", out.diagnostics.last());
    }

    /// The same shapes as above with other brackets and calls: nested unclosed calls,
    /// indexes, mismatched closers and runs of closers all stay linear.
    #[test]
    fn other_bracket_soups_parse_in_linear_work() {
        for unit in [
            "f(8 6", "-(8 6]", "x[(1 ", "(f(,", "-!(a b)", "f(a[1 2,", "((]", "1 (2",
        ] {
            let text = unit.repeat(1000);
            let tokens = lexer::lex(&text, &mut Vec::new()).len() as u64;
            let reads = grammar_reads(&text);
            assert!(
                reads <= 20 * tokens,
                "{unit:?}: {reads} reads for {tokens} tokens"
            );
        }
    }

    #[test]
    fn spans_are_in_the_file_shifted_by_the_offset() {
        let out = parse_formula("f(a) + %bc", FileId(4), 10);
        let formula = out.formula.expect("parses");
        let root = formula.root().expect("not empty");
        assert_eq!(
            (root.span().file, root.span().start, root.span().end),
            (FileId(4), 10, 20)
        );
        let crate::formula::ast::ExprKind::Binary {
            op_span, lhs, rhs, ..
        } = root.kind()
        else {
            panic!("not a binary node");
        };
        assert_eq!((op_span.start, op_span.end), (15, 16));
        assert_eq!((lhs.span().start, lhs.span().end), (10, 14));
        assert_eq!((rhs.span().start, rhs.span().end), (17, 20));
    }

    #[test]
    fn every_problem_is_reported_with_its_code() {
        let out = parse_formula("1. + @ + (2", FileId(0), 0);
        let codes: Vec<&str> = out.diagnostics.iter().map(|d| d.code.id).collect();
        assert_eq!(codes, ["P0104", "P0101", "P0115"]);
        assert!(out.formula.is_none());
    }

    #[test]
    fn a_warning_keeps_the_tree() {
        let out = parse_formula("a = b", FileId(0), 0);
        assert_eq!(out.diagnostics.len(), 1);
        assert!(!out.diagnostics[0].is_error());
        assert!(out.formula.is_some());
    }

    #[test]
    fn very_long_formulas_are_refused_without_overflowing() {
        let ok = format!("{}1", "1+".repeat(MAX_TOKENS / 2 - 1));
        assert!(parse_formula(&ok, FileId(0), 0).formula.is_some());
        let long = format!("{}1", "1+".repeat(200_000));
        let out = parse_formula(&long, FileId(0), 0);
        assert!(out.formula.is_none());
        assert_eq!(out.diagnostics.len(), 1);
        assert_eq!(out.diagnostics[0].code, codes::FORMULA_TOO_LONG);
    }
}
