//! PCGen's old formula language: the formulas inside the old-system tokens (the value of
//! `BONUS:`, `DEFINE:`, the operands of `PREVARxx:`, `SPELLS:` caster levels and DCs).
//!
//! PCGen evaluates them with JEP 2.4.1 plus its own commands (`PJEP`); when JEP rejects a
//! formula, or cannot find a value for one of its names, PCGen falls back to its older
//! "broken parser" (`VariableProcessor.processBrokenParser`), which reads terms such as
//! `CL=Fighter` that JEP cannot. PCGen checks none of this at load: a mistake shows only
//! as a wrong value (usually 0) on the character sheet. See `docs/old-formulas.md`.
//!
//! The one entry point is [`parse_jep`]: text → [`JepFormula`] (a flat tree with spans,
//! which reader evaluates it, and every name it reads) and every problem as a coded
//! diagnostic (`J01xx`, [`codes`]). Inside: a hand-written `lexer` (JEP's tokens, and the
//! names PCGen's fallback parser reads), one chumsky `grammar` with error recovery (chumsky
//! does not leak out of this module), `build` (the flat tree and the names) and `check`
//! (calls and what the fallback parser cannot evaluate). The functions and terms PCGen
//! knows are data: [`commands::COMMANDS`], [`terms::TERMS`].
//!
//! Name resolution (is `ClericLevel` `DEFINE`d somewhere in the load set?) is not done
//! here: it needs the load set. [`JepFormula::names`] lists every name with its span and
//! its kind for that later pass.

mod ast;
mod build;
mod check;
pub mod codes;
pub mod commands;
mod grammar;
mod lexer;
pub mod print;
pub mod terms;

pub use ast::{
    BinaryOp, Evaluator, JepFormula, NameKind, NameOrigin, NameUse, Node, NodeId, NodeKind, UnaryOp,
};

use crate::diagnostic::Diagnostic;
use crate::source::FileId;
use build::Place;
use chumsky::Parser;
use chumsky::span::SimpleSpan;
use lexer::{Problem, Spanned, Tok};

/// The most tokens a formula may have (the longest in PCGen's data has a few hundred).
pub const MAX_TOKENS: usize = 4096;

/// The deepest nesting of parentheses, `^` chains and prefix operators checked; far beyond
/// real data, it bounds the recursion of the parser and of every pass over the tree.
pub const MAX_DEPTH: usize = 64;

thread_local! {
    /// The grammar, built once per thread (building costs far more than a parse).
    static GRAMMAR: grammar::Grammar = grammar::formula();
}

/// The result of [`parse_jep`].
#[derive(Clone, Debug, PartialEq)]
pub struct JepOutput {
    /// The tree: always present (parts that failed to parse are [`NodeKind::Error`]
    /// nodes; `root` is `None` for an empty formula or one too complex to parse), so the
    /// names of a broken formula can still be resolved.
    pub formula: JepFormula,
    /// Every problem, in text order.
    pub diagnostics: Vec<Diagnostic>,
}

impl JepOutput {
    /// True when some diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Parses one old formula.
///
/// `text` is the formula alone; `file` and `offset` (the byte position of the formula
/// inside that file) place every span. Never panics, whatever the input.
///
/// ```
/// use rulebook::jep::{parse_jep, Evaluator, NameKind};
/// use rulebook::jep::print::to_sexpr;
/// use rulebook::source::FileId;
///
/// let out = parse_jep("max(STR,DEX)-STR", FileId(0), 0);
/// assert!(out.diagnostics.is_empty());
/// assert_eq!(to_sexpr(&out.formula), "(- (max $STR $DEX) $STR)");
///
/// let out = parse_jep("CL=Fighter/2+TL", FileId(0), 0);
/// assert_eq!(out.formula.evaluator, Evaluator::Fallback);
/// let terms: Vec<_> = out.formula.terms().map(|n| &*n.text).collect();
/// assert_eq!(terms, ["CL=Fighter", "TL"]);
///
/// assert_eq!(parse_jep("If(TL>2,1,0)", FileId(0), 0).diagnostics[0].code.id, "J0109");
/// ```
pub fn parse_jep(text: &str, file: FileId, offset: u32) -> JepOutput {
    let mut out = parse_one(text, Place { file, offset }, ast::NameOrigin::Formula);
    out.diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    out
}

/// [`parse_jep`] for a formula or a `var("…")` string inside one (`origin`).
fn parse_one(text: &str, place: Place, origin: ast::NameOrigin) -> JepOutput {
    let mut problems = Vec::new();
    let mut tokens = Vec::new();
    lexer::lex(text, &mut tokens, &mut problems);
    let evaluator = build::evaluator(&tokens);
    let mut names = Vec::new();
    build::names(&tokens, text, place, evaluator, origin, &mut names);
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let mut nodes = Vec::new();
    let mut root = None;

    if tokens.is_empty() {
        problems.push(
            Problem::new(
                codes::MISSING_OPERAND,
                0..text.len(),
                "the formula is empty",
            )
            .label("a formula is expected here")
            .help("PCGen's JEP rejects an empty formula and its fallback parser gives 0"),
        );
    } else if let Some(p) = too_complex(&tokens) {
        problems.push(p);
    } else if let Some(tree) = grammar::single_operand(&tokens) {
        root = Some(build::flatten(tree, text, place, evaluator, &mut nodes));
    } else {
        // An unterminated string swallows the brackets after it: their imbalance is its
        // consequence, not a second mistake.
        let unterminated = problems
            .iter()
            .any(|p| p.code == codes::UNTERMINATED_STRING);
        let mut bracket_problems = Vec::new();
        let repaired = brackets(&tokens, text.len(), &mut bracket_problems);
        if !unterminated {
            problems.append(&mut bracket_problems);
        }
        let (tree, errors) = GRAMMAR.with(|g| {
            g.parse(grammar::input(repaired.clone(), text.len()))
                .into_output_errors()
        });
        let mut seen = std::collections::HashSet::new();
        for e in &errors {
            let p = explain(e, &repaired, text.len());
            if seen.insert(p.range.start) {
                problems.push(p);
            }
        }
        if let Some(tree) = tree {
            root = Some(build::flatten(tree, text, place, evaluator, &mut nodes));
        }
    }

    for p in problems {
        let mut d = Diagnostic::error(p.code, place.span(p.range), p.message);
        if !p.label.is_empty() {
            d = d.with_label(p.label);
        }
        if !p.help.is_empty() {
            d = d.with_help(p.help);
        }
        diagnostics.push(d);
    }
    let formula = build::formula(text, place, nodes, root, evaluator, Vec::new());
    check::fallback(&formula, &mut diagnostics);
    check::calls(&formula, &mut diagnostics);

    if origin == ast::NameOrigin::Formula {
        for inside in build::formula_strings(&tokens, text) {
            let Some(inner) = text.get(inside.clone()) else {
                continue;
            };
            let nested_place = Place {
                file: place.file,
                offset: place
                    .offset
                    .saturating_add(u32::try_from(inside.start).unwrap_or(u32::MAX)),
            };
            // PCGen's `var` first looks the whole string up as one name (a variable, a
            // term, an output-sheet token such as `SKILL.Craft (Alchemy).MISC`); only
            // when that fails does it evaluate the string as a formula. A string that does
            // not parse is therefore one name, and no error.
            let nested = parse_one(inner, nested_place, ast::NameOrigin::VarString);
            if nested.has_errors() {
                let evaluator = if inner.contains(['=', ':', ';', '[', ' ']) {
                    Evaluator::Fallback
                } else {
                    Evaluator::Jep
                };
                names.push(ast::NameUse {
                    text: inner.into(),
                    span: nested.formula.span,
                    kind: build::classify(inner, evaluator),
                    origin: ast::NameOrigin::VarString,
                    evaluator,
                });
            } else {
                names.extend(nested.formula.names);
            }
        }
        names.sort_by_key(|n| n.span.start);
    }
    let formula = JepFormula { names, ..formula };
    JepOutput {
        formula,
        diagnostics,
    }
}

/// The problem when the tokens exceed [`MAX_TOKENS`] or [`MAX_DEPTH`].
fn too_complex(tokens: &[Spanned]) -> Option<Problem> {
    let too = |range: std::ops::Range<usize>, what: String| {
        Some(
            Problem::new(codes::TOO_COMPLEX, range, what)
                .label("the formula is not checked past this point")
                .help("split the computation over several DEFINEd variables"),
        )
    };
    if let Some((_, r)) = tokens.get(MAX_TOKENS) {
        return too(
            r.clone(),
            format!("the formula has more than {MAX_TOKENS} tokens"),
        );
    }
    let (mut depth, mut carets, mut prefixes) = (0usize, 0usize, 0usize);
    for (i, (t, r)) in tokens.iter().enumerate() {
        match t {
            Tok::LParen => depth += 1,
            Tok::RParen => depth = depth.saturating_sub(1),
            Tok::Op(BinaryOp::Pow) => carets += 1,
            _ => {}
        }
        let prefix = matches!(t, Tok::Bang | Tok::Op(BinaryOp::Add | BinaryOp::Sub))
            && !i
                .checked_sub(1)
                .and_then(|j| tokens.get(j))
                .is_some_and(|(p, _)| p.ends_operand());
        prefixes = if prefix { prefixes + 1 } else { 0 };
        if depth > MAX_DEPTH || carets > MAX_DEPTH || prefixes > MAX_DEPTH {
            return too(
                r.clone(),
                format!("the formula nests more than {MAX_DEPTH} levels deep"),
            );
        }
    }
    None
}

/// Reports unbalanced parentheses and returns the tokens with them balanced (a `)` that
/// closes nothing dropped, a `)` added at the end for each `(` left open), so the grammar
/// reports no consequence of them.
fn brackets(tokens: &[Spanned], end: usize, problems: &mut Vec<Problem>) -> Vec<(Tok, SimpleSpan)> {
    let mut open: Vec<std::ops::Range<usize>> = Vec::new();
    let mut out: Vec<(Tok, SimpleSpan)> = Vec::with_capacity(tokens.len() + 1);
    for (t, r) in tokens {
        match t {
            Tok::LParen => open.push(r.clone()),
            Tok::RParen if open.pop().is_none() => {
                problems.push(
                    Problem::new(codes::UNMATCHED_PAREN, r.clone(), "this `)` closes no `(`")
                        .label("unmatched `)`")
                        .help("remove it or add the `(` it should close; PCGen's JEP rejects the formula and its fallback parser stops at it, giving 0"),
                );
                continue;
            }
            _ => {}
        }
        out.push((*t, r.clone().into()));
    }
    for r in open.iter().rev() {
        problems.push(
            Problem::new(codes::UNCLOSED_PAREN, r.clone(), "this `(` is never closed")
                .label("unclosed `(`")
                .help(format!(
                    "add `)` where the group ends (the formula ends at byte {end}); PCGen's JEP rejects the formula and its fallback parser gives 0"
                )),
        );
        out.push((Tok::RParen, (end..end).into()));
    }
    out
}

/// The problem a grammar error stands for, from the token it found and the one before.
fn explain(e: &grammar::Error, tokens: &[(Tok, SimpleSpan)], end: usize) -> Problem {
    let span = *e.span();
    let found = e.found().copied();
    let before = tokens
        .iter()
        .rev()
        .find(|(_, s)| s.end <= span.start)
        .map(|(t, _)| *t);
    let range = span.start.min(end)..span.end.min(end);
    match found {
        None => Problem::new(
            codes::MISSING_OPERAND,
            range,
            "the formula ends where an operand is expected",
        )
        .label("an operand is missing here")
        .help("complete the formula; PCGen's JEP rejects it and its fallback parser gives 0"),
        Some(t) if before.is_some_and(Tok::ends_operand) && !matches!(t, Tok::RParen | Tok::Comma) && !is_operator(t) => {
            Problem::new(
                codes::MISSING_OPERATOR,
                range,
                "two operands with no operator between them",
            )
            .label("an operator is expected before this")
            .help("write the operator (`+`, `*`, …), or the tab that should end the token; PCGen's JEP rejects the formula and its fallback parser gives 0 or a wrong value")
        }
        Some(t) => Problem::new(
            codes::MISSING_OPERAND,
            range,
            format!("{} where an operand is expected", describe(t)),
        )
        .label("an operand is missing before this")
        .help("complete the formula; PCGen's JEP rejects it and its fallback parser gives 0"),
    }
}

/// True for operator tokens.
fn is_operator(t: Tok) -> bool {
    matches!(t, Tok::Op(_) | Tok::BadOperator)
}

/// A token in words.
fn describe(t: Tok) -> String {
    match t {
        Tok::Op(op) => format!("`{}`", op.symbol()),
        Tok::Bang => "`!`".to_owned(),
        Tok::LParen => "`(`".to_owned(),
        Tok::RParen => "`)`".to_owned(),
        Tok::Comma => "`,`".to_owned(),
        Tok::Number => "a number".to_owned(),
        Tok::Str => "a string".to_owned(),
        Tok::Name | Tok::FallbackName => "a name".to_owned(),
        Tok::Placeholder => "a placeholder".to_owned(),
        Tok::Bad | Tok::BadOperator => "something unreadable".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grammar's tree for `text` (no shortcut).
    fn by_grammar(text: &str) -> Option<grammar::Tree> {
        let (mut tokens, mut problems) = (Vec::new(), Vec::new());
        lexer::lex(text, &mut tokens, &mut problems);
        let input: Vec<_> = tokens.iter().map(|(t, r)| (*t, r.clone().into())).collect();
        GRAMMAR.with(|g| g.parse(grammar::input(input, text.len())).into_output())
    }

    #[test]
    fn the_single_operand_shortcut_builds_the_grammar_s_tree() {
        for text in [
            "2",
            "-2",
            "1.5",
            "TL",
            "-TL",
            "CL=Fighter",
            "-COUNT[FEATS]",
            "%CHOICE",
            "\"a\"",
            " 7 ",
        ] {
            let (mut tokens, mut problems) = (Vec::new(), Vec::new());
            lexer::lex(text, &mut tokens, &mut problems);
            let short = grammar::single_operand(&tokens);
            assert!(short.is_some(), "{text:?}");
            assert_eq!(short, by_grammar(text), "{text:?}");
        }
    }
}
