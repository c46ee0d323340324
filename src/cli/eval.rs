//! `rulebook eval FORMULA [--as FORMAT] [--var NAME:FORMAT=VALUE]... [--input FORMAT=VALUE]`,
//! or `rulebook eval FORMULA --pcc FILE [--as FORMAT]` against a dataset.
//!
//! A failed formula gets a hint on stderr when one is at hand: the format that would take
//! its result when `--as` was not given, `--var` (or `--pcc`) for an unknown variable.

use super::output::{OutputArgs, Stream};
use clap::Args;
use rulebook::diagnostic::{self, Diagnostic, RenderOptions};
use rulebook::formula::{Format, MapEnv, Value, check, parse_formula};
use rulebook::source::{SourceFile, SourceMap, TextEncoding};
use std::process::ExitCode;

/// Examples shown by `rulebook eval --help`.
pub const EXAMPLES: &str = "Examples:
  rulebook eval 'floor((Score-10)/2)' --var Score:NUMBER=15
  rulebook eval 'value()+1' --input NUMBER=4
  rulebook eval 1d6 --as DICE
  rulebook eval 'Hands>2' --as BOOLEAN --var Hands:NUMBER=4
  rulebook eval 'lookup(\"Encumbrance\",14,\"Light\")' --pcc data/handsworld/handsworld.pcc

Formats: NUMBER, BOOLEAN, STRING, ORDEREDPAIR, DICE, ARRAY[F], OPTIONAL[F].
Exit codes: 0 evaluated, 1 the formula has problems, 2 usage error.";

/// The formats `eval` knows (object formats need a dataset).
const FORMATS: [&str; 5] = ["NUMBER", "BOOLEAN", "STRING", "ORDEREDPAIR", "DICE"];

/// Arguments of `rulebook eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The formula, e.g. `floor((Score-10)/2)`.
    pub formula: String,
    /// The format the result must have (default NUMBER).
    #[arg(long = "as", value_name = "FORMAT")]
    pub format: Option<String>,
    /// A variable: `NAME:FORMAT=VALUE` (e.g. `Score:NUMBER=15`); repeatable.
    #[arg(long = "var", value_name = "NAME:FORMAT=VALUE", conflicts_with = "pcc")]
    pub vars: Vec<String>,
    /// The running value read by `value()`: `FORMAT=VALUE`.
    #[arg(long, value_name = "FORMAT=VALUE", conflicts_with = "pcc")]
    pub input: Option<String>,
    /// A dataset whose variables (at their defaults), functions, tables and facts the
    /// formula may use, as a character with nothing granted sees them.
    #[arg(long, value_name = "FILE")]
    pub pcc: Option<std::path::PathBuf>,
    /// The PCGen root of `--pcc` (found from the PCC if absent).
    #[arg(long, requires = "pcc")]
    pub pcgen_root: Option<std::path::PathBuf>,
}

/// A format named on the command line: a built-in one, or an ARRAY or OPTIONAL of one.
fn format(name: &str) -> Result<Format, String> {
    let builtin = |f: &Format| -> bool {
        let mut f = f;
        loop {
            match f {
                Format::Array(inner) | Format::Optional(inner) => f = inner,
                Format::Object(_) => return false,
                _ => return true,
            }
        }
    };
    match Format::from_name(name) {
        Some(f) if builtin(&f) => Ok(f),
        _ => {
            let upper = name.trim().to_ascii_uppercase();
            let hint = rulebook::name::closest(&upper, FORMATS)
                .map_or_else(String::new, |s| format!("; did you mean {s}?"));
            Err(format!(
                "`{name}` is not a format{hint} (formats: {}, ARRAY[…], OPTIONAL[…])",
                FORMATS.join(", ")
            ))
        }
    }
}

fn typed_value(fmt: &Format, text: &str) -> Result<Value, String> {
    fmt.parse_value(text)
}

/// Runs `rulebook eval`.
pub fn run(args: EvalArgs, out: &OutputArgs) -> ExitCode {
    if let Err(e) = out.policy() {
        return super::usage_error(e);
    }
    let options = out.render_options(Stream::Stderr);
    let result = match &args.pcc {
        Some(pcc) => eval_in(&args, pcc, &options),
        None => eval(&args, &options),
    };
    match result {
        Ok(Ok(value)) => {
            super::output::print(&format!("{value}\n"));
            ExitCode::SUCCESS
        }
        Ok(Err((report, problems))) => {
            super::output::eprint(&report);
            if let Some(hint) = hint(&args, &problems) {
                super::output::eprint(&format!("rulebook: hint: {hint}\n"));
            }
            ExitCode::from(1)
        }
        Err(usage) => super::usage_error(usage),
    }
}

/// A formula's problems: the rendered report, and the diagnostics themselves.
type Problems = (String, Vec<Diagnostic>);

/// What to try after `problems`: the format of the result when `--as` was not given, or
/// how to give an unknown variable a value.
fn hint(args: &EvalArgs, problems: &[Diagnostic]) -> Option<String> {
    let codes: Vec<&str> = problems.iter().map(|d| d.code.id).collect();
    if codes.contains(&"F0105") && args.format.is_none() {
        let fits = FORMATS.into_iter().find(|&f| {
            let retry = EvalArgs {
                format: Some(f.to_owned()),
                formula: args.formula.clone(),
                vars: args.vars.clone(),
                input: args.input.clone(),
                pcc: args.pcc.clone(),
                pcgen_root: args.pcgen_root.clone(),
            };
            let options = RenderOptions::default();
            let result = match &args.pcc {
                Some(pcc) => eval_in(&retry, pcc, &options),
                None => eval(&retry, &options),
            };
            matches!(result, Ok(Ok(_)))
        })?;
        return Some(format!(
            "the result is a {fits}, not a NUMBER (the default): give --as {fits}"
        ));
    }
    let unknown = problems.iter().find(|d| d.code.id == "F0101")?;
    let name = unknown.missing.as_deref()?.name.as_str();
    Some(match &args.pcc {
        Some(_) => format!("`{name}` is not a variable of the dataset (rulebook calc lists them)"),
        None => format!(
            "give `{name}` a value with --var '{name}:NUMBER=…' (or another format), or \
             evaluate against a dataset with --pcc FILE"
        ),
    })
}

/// The format `--as` names, NUMBER when absent.
fn asserted(args: &EvalArgs) -> Result<Format, String> {
    format(args.format.as_deref().unwrap_or("NUMBER"))
}

/// `eval --pcc`: the formula evaluated as the dataset's MODIFY formulas are, for a character
/// with nothing granted.
fn eval_in(
    args: &EvalArgs,
    pcc: &std::path::Path,
    options: &RenderOptions,
) -> Result<Result<Value, Problems>, String> {
    let asserted = asserted(args)?;
    let mut loaded = match super::calc::load(
        std::slice::from_ref(&pcc.to_path_buf()),
        args.pcgen_root.as_deref(),
        None,
    ) {
        Ok(l) => l,
        Err(super::calc::LoadError::Usage(e)) => return Err(e),
        Err(super::calc::LoadError::File(..)) => {
            return Err(format!("{}: cannot be loaded", pcc.display()));
        }
    };
    let mut sources = SourceMap::new();
    sources.add(SourceFile::new(
        "<formula>",
        args.formula.clone(),
        TextEncoding::Utf8,
    ));
    Ok(loaded
        .character
        .evaluate(
            rulebook::character::InstanceId::GLOBAL,
            &args.formula,
            &asserted,
        )
        .map_err(|ds| (diagnostic::render_with(&ds, &sources, options), ds)))
}

/// The value, or the formula's problems; `Err` for a bad command line.
fn eval(args: &EvalArgs, options: &RenderOptions) -> Result<Result<Value, Problems>, String> {
    let asserted = asserted(args)?;
    let mut env = MapEnv::with_pcgen_defaults();
    for v in &args.vars {
        let (left, value) = v
            .split_once('=')
            .ok_or_else(|| format!("--var `{v}`: write NAME:FORMAT=VALUE"))?;
        let (name, fname) = left
            .rsplit_once(':')
            .ok_or_else(|| format!("--var `{v}`: write NAME:FORMAT=VALUE"))?;
        let fmt = format(fname)?;
        let value = typed_value(&fmt, value).map_err(|e| format!("--var `{v}`: {e}"))?;
        env.define(name, fmt, Some(value));
    }
    let input = match &args.input {
        Some(i) => {
            let (fname, value) = i
                .split_once('=')
                .ok_or_else(|| format!("--input `{i}`: write FORMAT=VALUE"))?;
            let fmt = format(fname)?;
            let value = typed_value(&fmt, value).map_err(|e| format!("--input `{i}`: {e}"))?;
            Some((fmt, value))
        }
        None => None,
    };
    let mut sources = SourceMap::new();
    let file = sources.add(SourceFile::new(
        "<formula>",
        args.formula.clone(),
        TextEncoding::Utf8,
    ));
    let render = |ds: &[Diagnostic]| (diagnostic::render_with(ds, &sources, options), ds.to_vec());
    let parsed = parse_formula(&args.formula, file, 0);
    let Some(formula) = parsed.formula else {
        // Not a formula, but a constant of the asserted format as data may write it
        // (`1d6` for DICE, as in `MODIFY:Damage|SET|1d6`).
        if let Ok(value) = asserted.parse_value(args.formula.trim()) {
            return Ok(Ok(value));
        }
        return Ok(Err(render(&parsed.diagnostics)));
    };
    let compiled = match check(&formula, &env, &asserted, input.as_ref().map(|(f, _)| f)) {
        Ok(c) => c,
        Err(ds) => return Ok(Err(render(&ds))),
    };
    Ok(compiled
        .eval(&env, input.as_ref().map(|(_, v)| v))
        .map_err(|e| render(&[e.to_diagnostic()])))
}
