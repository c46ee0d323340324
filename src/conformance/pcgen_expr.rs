//! Runner for PCGen expression vectors (topics parse, arithmetic, comparison, boolean,
//! functions, strings, orderedpair_dice, variables, errors), by the rules of
//! `shared/conformance/README.md`: parse → check (with the input format when the vector has
//! an input) → evaluate → compare; errors compare by category.

use crate::diagnostic::Diagnostic;
use crate::formula::ast::{Expr, Formula};
use crate::formula::{Format, MapEnv, Number, Value, check_with_args};
use crate::name::Name;
use crate::source::{FileId, Span};
use rust_decimal::Decimal;
use serde_json::Value as Json;

/// Runs one expression vector.
pub fn run(vector: &Json) -> Result<(), String> {
    let formula = str_field(vector, "formula")?;
    if vector.get("mode").and_then(Json::as_str) == Some("parse") {
        return run_parse(vector, formula);
    }
    let format_name = str_field(vector, "format")?;
    let format = Format::from_name(format_name)
        .ok_or_else(|| format!("unknown format `{format_name}` in the vector"))?;
    let (want, why) = expectation(vector)?;
    let got = evaluate(vector, formula, &format);
    compare(&want, &got, &format).map_err(|e| {
        if why.is_empty() {
            e
        } else {
            format!("{e} (rulebook policy: {why})")
        }
    })
}

/// What the vector expects of rulebook.
#[derive(Debug)]
enum Want {
    Value { text: String, exact: bool },
    Error(String),
}

/// What rulebook did.
#[derive(Debug)]
enum Got {
    Value(Value),
    /// Error category and the message.
    Error(Vec<(&'static str, String)>),
}

fn str_field<'a>(v: &'a Json, key: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Json::as_str)
        .ok_or_else(|| format!("the vector has no `{key}`"))
}

fn expectation(v: &Json) -> Result<(Want, String), String> {
    let (src, why) = match v.get("rulebook") {
        Some(r) => (
            r,
            r.get("why").and_then(Json::as_str).unwrap_or("").to_owned(),
        ),
        None => (v, String::new()),
    };
    if let Some(e) = src.get("expect_error").and_then(Json::as_str) {
        return Ok((Want::Error(e.to_owned()), why));
    }
    let expect = src
        .get("expect")
        .ok_or("the vector expects neither a value nor an error")?;
    let text = str_field(expect, "value")?.to_owned();
    // A rulebook expectation is exact; a reference Double allows a relative 1e-9.
    let exact = v.get("rulebook").is_some()
        || expect.get("java_type").and_then(Json::as_str) != Some("Double");
    Ok((Want::Value { text, exact }, why))
}

/// Parses a formula (the parser layer), mapping failure to the `parse` category.
fn parse(text: &str) -> Result<Formula, Vec<Diagnostic>> {
    let out = crate::formula::parse_formula(text, FileId(0), 0);
    if out.diagnostics.iter().any(Diagnostic::is_error) {
        return Err(out.diagnostics);
    }
    out.formula.ok_or(out.diagnostics)
}

fn category(d: &Diagnostic) -> &'static str {
    match d.code.id {
        "F0101" => "unknown_variable",
        "F0102" => "unknown_function",
        "F0103" => "arity",
        "F0104" | "F0105" | "F0106" | "F0110" | "F0112" => "format_mismatch",
        "F0107" => "invalid_argument",
        "F0108" | "E0110" => "no_input_format",
        "F0109" => "empty_formula",
        "E0101" | "E0102" | "E0103" => "eval_arithmetic",
        "E0104" => "eval_index_out_of_bounds",
        "E0105" => "eval_class_cast",
        "E0106" => "eval_no_such_element",
        "E0107" => "eval_null_pointer",
        "E0109" => "eval_illegal_argument",
        id if id.starts_with('P') => "parse",
        _ => "other",
    }
}

fn errs(ds: &[Diagnostic]) -> Got {
    Got::Error(
        ds.iter()
            .filter(|d| d.is_error())
            .map(|d| (category(d), format!("{} {}", d.code, d.message)))
            .collect(),
    )
}

fn setup(msg: String) -> Got {
    Got::Error(vec![("var_setup", msg)])
}

fn evaluate(v: &Json, text: &str, format: &Format) -> Got {
    let mut env = MapEnv::with_pcgen_defaults();
    if let Some(defaults) = v.get("defaults").and_then(Json::as_object) {
        env.clear_defaults();
        for (f, val) in defaults {
            let Some(fmt) = Format::from_name(f) else {
                return setup(format!("unknown default format {f}"));
            };
            match fmt.parse_value(val.as_str().unwrap_or("")) {
                Ok(x) => env.set_default(fmt, x),
                Err(e) => return setup(e),
            }
        }
    }
    if let Some(vars) = v.get("vars").and_then(Json::as_object) {
        for (name, def) in vars {
            if name.is_empty() || name.trim() != name {
                return setup(format!("illegal variable name `{name}`"));
            }
            let fname = def.get("format").and_then(Json::as_str).unwrap_or("");
            let Some(fmt) = Format::from_name(fname) else {
                return setup(format!("unknown format {fname}"));
            };
            let value = match def.get("value").and_then(Json::as_str) {
                Some(t) => match fmt.parse_value(t) {
                    Ok(x) => Some(x),
                    Err(e) => return setup(e),
                },
                None => {
                    if !env.has_default(&fmt) {
                        return setup(format!("`{name}` is unset and {fmt} has no default"));
                    }
                    None
                }
            };
            env.define(name, fmt, value);
        }
    }
    if let Some(fns) = v.get("functions").and_then(Json::as_object) {
        for (name, body) in fns {
            let body = match parse(body.as_str().unwrap_or("")) {
                Ok(b) => b,
                Err(ds) => return errs(&ds),
            };
            let span = Span::new(FileId(0), 0..name.len());
            if let Err(ds) = env.functions.define(Name::new(name), span, body) {
                return errs(&ds);
            }
        }
    }
    let mut input = None;
    if let Some(inp) = v.get("input") {
        let fname = inp.get("format").and_then(Json::as_str).unwrap_or("");
        let Some(fmt) = Format::from_name(fname) else {
            return setup(format!("unknown input format {fname}"));
        };
        match fmt.parse_value(inp.get("value").and_then(Json::as_str).unwrap_or("")) {
            Ok(x) => input = Some((fmt, x)),
            Err(e) => return setup(e),
        }
    }
    // Each argument is a formula of its own; `args` views their roots.
    let mut arg_formulas: Option<Vec<Formula>> = None;
    if let Some(list) = v.get("args").and_then(Json::as_array) {
        let mut out = Vec::new();
        for a in list {
            match parse(a.as_str().unwrap_or("")) {
                Ok(f) if !f.is_empty() => out.push(f),
                Ok(_) => return setup("empty argument".into()),
                Err(ds) => return errs(&ds),
            }
        }
        arg_formulas = Some(out);
    }
    let args: Option<Vec<Expr<'_>>> = arg_formulas
        .as_ref()
        .map(|fs| fs.iter().filter_map(Formula::root).collect());
    // PCGen's FormulaFactory: a STRING is never parsed; other formats try a constant first.
    if v.get("via").and_then(Json::as_str) == Some("FormulaFactory") {
        if text.is_empty() {
            return Got::Error(vec![("parse", "a formula cannot be empty".into())]);
        }
        if *format == Format::String {
            return Got::Value(Value::string(text));
        }
        if let Ok(c) = format.parse_value(text) {
            return Got::Value(c);
        }
    }
    let formula = match parse(text) {
        Ok(f) => f,
        Err(ds) => return errs(&ds),
    };
    let input_format = input.as_ref().map(|(f, _)| f);
    let compiled = match check_with_args(&formula, &env, format, input_format, args.as_deref()) {
        Ok(c) => c,
        Err(ds) => return errs(&ds),
    };
    let input = input.as_ref().map(|(_, x)| x);
    let result = compiled.eval(&env, input);
    // The compiled closures and the tree interpreter must agree on every vector.
    let tree = compiled.eval_tree(&env, input);
    let same = match (&result, &tree) {
        (Ok(a), Ok(b)) => a == b && a.to_string() == b.to_string(),
        (Err(a), Err(b)) => a.code == b.code,
        _ => false,
    };
    if !same {
        return Got::Error(vec![(
            "internal",
            format!("closure result {result:?} differs from tree result {tree:?}"),
        )]);
    }
    match result {
        Ok(x) => Got::Value(x),
        Err(e) => errs(&[e.to_diagnostic()]),
    }
}

fn compare(want: &Want, got: &Got, format: &Format) -> Result<(), String> {
    match (want, got) {
        (Want::Error(cat), Got::Error(list)) => {
            if list.iter().any(|(c, _)| c == cat) {
                Ok(())
            } else {
                Err(format!("expected a {cat} error, got {list:?}"))
            }
        }
        (Want::Error(cat), Got::Value(x)) => {
            Err(format!("expected a {cat} error, got the value `{x}`"))
        }
        (Want::Value { text, .. }, Got::Error(list)) => {
            Err(format!("expected `{text}`, got errors {list:?}"))
        }
        (Want::Value { text, exact }, Got::Value(x)) => {
            let printed = x.to_string();
            let ok = match format {
                Format::Number => numbers_match(text, &printed, *exact),
                Format::OrderedPair => list_match(text, &printed, *exact),
                Format::Array(i) if **i == Format::Number => list_match(text, &printed, *exact),
                _ => *text == printed,
            };
            if ok {
                Ok(())
            } else {
                Err(format!("expected `{text}`, got `{printed}`"))
            }
        }
    }
}

fn list_match(expected: &str, got: &str, exact: bool) -> bool {
    let a: Vec<&str> = expected.split(',').collect();
    let b: Vec<&str> = got.split(',').collect();
    a.len() == b.len() && a.iter().zip(&b).all(|(p, q)| numbers_match(p, q, exact))
}

fn numbers_match(expected: &str, got: &str, exact: bool) -> bool {
    let (Ok(a), Ok(b)) = (Number::parse_text(expected), Number::parse_text(got)) else {
        return expected == got;
    };
    if exact || a == b {
        return a == b;
    }
    let (a, b) = (a.to_decimal(), b.to_decimal());
    let diff = (a - b).abs();
    let scale = a.abs().max(b.abs());
    diff <= scale * Decimal::new(1, 9)
}

/// A parse-only vector: the tree must have the shape of the reference's dump.
fn run_parse(v: &Json, text: &str) -> Result<(), String> {
    let parsed = parse(text);
    match (v.get("expect_parse"), parsed) {
        (Some(p), Ok(f)) => {
            let want = str_field(p, "ast")?;
            let got = crate::formula::print::to_sexpr(&f);
            if got == want {
                Ok(())
            } else {
                Err(format!("expected tree {want}, got {got}"))
            }
        }
        (Some(_), Err(ds)) => Err(format!("expected a tree, got errors {:?}", messages(&ds))),
        (None, Err(_)) => Ok(()),
        (None, Ok(f)) => Err(format!(
            "expected a parse error, got {}",
            crate::formula::print::to_sexpr(&f)
        )),
    }
}

fn messages(ds: &[Diagnostic]) -> Vec<String> {
    ds.iter()
        .map(|d| format!("{} {}", d.code, d.message))
        .collect()
}
