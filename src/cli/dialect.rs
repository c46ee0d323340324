//! `rulebook dialect fics|icc|untermud FORMULA --context FILE.json`: compile one formula of
//! a legacy dialect and evaluate it against a context.
//!
//! The context file has the shape of the conformance vectors' `context`:
//! - FICS: a match request (`time`, `inc`, `mytime`, `myinc`, `rated`, `category`,
//!   `rating{…}`, `myrating{…}`, flags, `assess*`) and optionally `f: {"f1": "…"}`;
//! - ICC: the term values (`time`, `inc`, `rating`, …);
//! - UnterMUD: `world: {mud, objects}` and optionally `actor` (an OID) to evaluate for.

use super::output::{OutputArgs, Stream};
use clap::{Args, ValueEnum};
use rulebook::diagnostic::{Diagnostic, render_with};
use rulebook::dialect::{fics, icc, untermud};
use rulebook::source::{SourceFile, SourceMap, TextEncoding};
use serde_json::Value as Json;
use std::path::PathBuf;
use std::process::ExitCode;

/// Examples shown by `rulebook dialect --help`.
pub const EXAMPLES: &str = "Examples:
  rulebook dialect fics 'rated & blitz & ratingdiff > -200' --context docs/examples/request.json
  rulebook dialect icc 'blitz & rating > myrating - 200' --context docs/examples/challenge.json
  rulebook dialect untermud '(\"gold key\"|UnterWiz)&!testbozo' --context docs/examples/world.json

Exit codes: 0 evaluated, 1 the formula has problems, 2 usage error (bad context file).";

/// Which dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Dialect {
    /// FICS `formula` (with f1–f9 from the context's `f`).
    Fics,
    /// ICC `formula`.
    Icc,
    /// UnterMUD boolean lock.
    Untermud,
}

/// Arguments of `rulebook dialect`.
#[derive(Args, Debug)]
pub struct DialectArgs {
    /// The dialect.
    #[arg(value_enum)]
    pub dialect: Dialect,
    /// The formula or lock.
    pub formula: String,
    /// JSON context: a match request (FICS), term values (ICC), or `world` and `actor`
    /// (UnterMUD, required). Without it FICS and ICC use all-zero values.
    #[arg(long)]
    pub context: Option<PathBuf>,
}

/// Runs `rulebook dialect`.
pub fn run(args: DialectArgs, out: &OutputArgs) -> ExitCode {
    let policy = match out.policy() {
        Ok(p) => p,
        Err(e) => return super::usage_error(e),
    };
    let context = match &args.context {
        None => Json::Object(Default::default()),
        Some(path) => {
            // Only a regular file of bounded size (not a device or FIFO).
            match super::input::read_file(path, "--context", super::input::MAX_INPUT).and_then(
                |bytes| {
                    serde_json::from_slice::<Json>(&bytes)
                        .map_err(|e| format!("--context {}: {e}", path.display()))
                },
            ) {
                Ok(v) => v,
                Err(e) => return super::usage_error(e),
            }
        }
    };
    let mut sources = SourceMap::new();
    let file = sources.add(SourceFile::new(
        "<formula>",
        args.formula.as_str(),
        TextEncoding::Utf8,
    ));
    let mut problems = Vec::new();
    let outcome = match args.dialect {
        Dialect::Fics => run_fics(&args.formula, file, &context, &mut sources, &mut problems),
        Dialect::Icc => run_icc(&args.formula, file, &context, &mut problems),
        Dialect::Untermud => run_untermud(&args.formula, file, &context, &mut problems),
    };
    policy.apply(&mut problems);
    let shown: Vec<Diagnostic> = problems
        .iter()
        .filter(|d| policy.shown(d))
        .cloned()
        .collect();
    if !shown.is_empty() {
        super::output::eprint(&render_with(
            &shown,
            &sources,
            &out.render_options(Stream::Stderr),
        ));
    }
    match outcome {
        Ok(lines) => {
            let mut text = String::new();
            for l in lines {
                text.push_str(&rulebook::diagnostic::escape::escape(&l));
                text.push('\n');
            }
            super::output::print(&text);
            if problems.iter().any(Diagnostic::is_error) {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(Failure::Usage(m)) => super::usage_error(m),
        Err(Failure::Problems) => ExitCode::from(1),
    }
}

enum Failure {
    Usage(String),
    Problems,
}

fn context_as<T: serde::de::DeserializeOwned>(context: &Json) -> Result<T, Failure> {
    serde_json::from_value(context.clone()).map_err(|e| Failure::Usage(format!("context: {e}")))
}

fn run_fics(
    formula: &str,
    file: rulebook::source::FileId,
    context: &Json,
    sources: &mut SourceMap,
    problems: &mut Vec<Diagnostic>,
) -> Result<Vec<String>, Failure> {
    let request: fics::MatchRequest = context_as(context)?;
    let mut fvars = fics::FVars::new();
    if let Some(map) = context.get("f").and_then(Json::as_object) {
        for var in fics::FVar::all() {
            if let Some(text) = map.get(&var.to_string()).and_then(Json::as_str) {
                let id = sources.add(SourceFile::new(
                    format!("<{var}>"),
                    text,
                    TextEncoding::Utf8,
                ));
                if let Err(mut d) = fvars.set(var, text, id) {
                    problems.append(&mut d);
                }
            }
        }
    }
    for var in fics::FVar::all() {
        problems.extend_from_slice(fvars.warnings(var));
    }
    let compiled = fics::MatchFormula::compile(formula, file, &fvars).map_err(|mut d| {
        problems.append(&mut d);
        Failure::Problems
    })?;
    problems.extend_from_slice(compiled.warnings());
    match compiled.evaluate(&request) {
        Ok(ev) => {
            problems.extend(ev.notices());
            let mut lines = vec![
                format!("value: {}", ev.value),
                format!("accepted: {}", if ev.accepted() { "yes" } else { "no" }),
            ];
            if !ev.accepted() {
                for (var, value) in compiled.explain(&request) {
                    let value = value.map_or_else(|_| "error".to_owned(), |v| v.to_string());
                    let text = compiled.fvars().get(var).unwrap_or("");
                    lines.push(format!("{var}={value}: {text}"));
                }
            }
            Ok(lines)
        }
        Err(d) => {
            problems.push(*d);
            Ok(vec!["accepted: no (evaluation failed)".to_owned()])
        }
    }
}

fn run_icc(
    formula: &str,
    file: rulebook::source::FileId,
    context: &Json,
    problems: &mut Vec<Diagnostic>,
) -> Result<Vec<String>, Failure> {
    let challenge: icc::Challenge = context_as(context)?;
    let compiled = icc::IccFormula::compile(formula, file).map_err(|mut d| {
        problems.append(&mut d);
        Failure::Problems
    })?;
    problems.extend_from_slice(compiled.warnings());
    match compiled.evaluate(&challenge) {
        Ok(v) => Ok(vec![
            format!("value: {v}"),
            format!("accepted: {}", if v.value != 0 { "yes" } else { "no" }),
        ]),
        Err(d) => {
            problems.push(*d);
            Ok(vec!["accepted: no (evaluation failed)".to_owned()])
        }
    }
}

fn run_untermud(
    formula: &str,
    file: rulebook::source::FileId,
    context: &Json,
    problems: &mut Vec<Diagnostic>,
) -> Result<Vec<String>, Failure> {
    let world: untermud::World = context
        .get("world")
        .ok_or_else(|| Failure::Usage("the context needs a `world` for UnterMUD".into()))
        .and_then(context_as)?;
    let lock = untermud::Lock::compile(formula, file, &world).map_err(|mut d| {
        problems.append(&mut d);
        Failure::Problems
    })?;
    let mut lines = vec![format!("stored: {lock}")];
    if let Some(actor) = context.get("actor").and_then(Json::as_str) {
        lines.push(format!("{actor}: {}", lock.evaluate(&world, actor)));
    }
    Ok(lines)
}
