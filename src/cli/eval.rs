//! `rulebook eval FORMULA [--as FORMAT] [--var NAME:FORMAT=VALUE]... [--input FORMAT=VALUE]`

use clap::Args;
use rulebook::diagnostic::{self, Diagnostic};
use rulebook::formula::{Format, MapEnv, Value, check, parse_formula};
use rulebook::source::{SourceFile, SourceMap, TextEncoding};
use std::io::IsTerminal;
use std::process::ExitCode;

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

fn format(name: &str) -> Result<Format, String> {
    Format::from_name(name).ok_or_else(|| format!("`{name}` is not a format"))
}

fn typed_value(fmt: &Format, text: &str) -> Result<Value, String> {
    fmt.parse_value(text)
}

/// Runs `rulebook eval`.
pub fn run(args: EvalArgs) -> ExitCode {
    match eval(&args) {
        Ok(Ok(value)) => {
            println!("{value}");
            ExitCode::SUCCESS
        }
        Ok(Err(report)) => {
            eprint!("{report}");
            ExitCode::from(1)
        }
        Err(usage) => super::usage_error(usage),
    }
}

/// The value, or the rendered report of the formula's problems; `Err` for a bad command line.
fn eval(args: &EvalArgs) -> Result<Result<Value, String>, String> {
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
    let color = std::io::stderr().is_terminal();
    let render = |ds: &[Diagnostic]| diagnostic::render(ds, &sources, color);
    let parsed = parse_formula(&args.formula, file, 0);
    let Some(formula) = parsed.formula else {
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
