//! `rulebook eval FORMULA [--as FORMAT] [--var NAME:FORMAT=VALUE]... [--input FORMAT=VALUE]`

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

Formats: NUMBER, BOOLEAN, STRING, ORDEREDPAIR, DICE, ARRAY[F], OPTIONAL[F].
Exit codes: 0 evaluated, 1 the formula has problems, 2 usage error.";

/// The formats `eval` knows (object formats need a dataset).
const FORMATS: [&str; 5] = ["NUMBER", "BOOLEAN", "STRING", "ORDEREDPAIR", "DICE"];

/// Arguments of `rulebook eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The formula, e.g. `floor((Score-10)/2)`.
    pub formula: String,
    /// The format the result must have.
    #[arg(long = "as", value_name = "FORMAT", default_value = "NUMBER")]
    pub format: String,
    /// A variable: `NAME:FORMAT=VALUE` (e.g. `Score:NUMBER=15`); repeatable.
    #[arg(long = "var", value_name = "NAME:FORMAT=VALUE")]
    pub vars: Vec<String>,
    /// The running value read by `value()`: `FORMAT=VALUE`.
    #[arg(long, value_name = "FORMAT=VALUE")]
    pub input: Option<String>,
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
    match eval(&args, &out.render_options(Stream::Stderr)) {
        Ok(Ok(value)) => {
            super::output::print(&format!("{value}\n"));
            ExitCode::SUCCESS
        }
        Ok(Err(report)) => {
            super::output::eprint(&report);
            ExitCode::from(1)
        }
        Err(usage) => super::usage_error(usage),
    }
}

/// The value, or the rendered report of the formula's problems; `Err` for a bad command line.
fn eval(args: &EvalArgs, options: &RenderOptions) -> Result<Result<Value, String>, String> {
    let asserted = format(&args.format)?;
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
    let render = |ds: &[Diagnostic]| diagnostic::render_with(ds, &sources, options);
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
