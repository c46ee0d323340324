//! Snapshots of the rendered report (colour off) for every formula check (`F01xx`) and
//! evaluation (`E01xx`) error kind.

use rulebook::diagnostic::{Diagnostic, render};
use rulebook::formula::{
    CheckEnv, EvalError, Format, FunctionRef, HostCall, HostFnRef, HostParam, HostSignature,
    MapEnv, Value, ValueEnv, VarRef, check, parse_formula,
};
use rulebook::name::Name;
use rulebook::source::{FileId, SourceFile, SourceMap, TextEncoding};

/// A MapEnv plus one host function `input(channel)` that knows the channel `Str` and fails
/// at evaluation.
struct Env(MapEnv);

impl CheckEnv for Env {
    fn variable(&self, name: &str) -> Option<(VarRef, Format)> {
        self.0.variable(name)
    }
    fn function(&self, name: &str) -> Option<FunctionRef<'_>> {
        if name.eq_ignore_ascii_case("input") {
            return Some(FunctionRef::Host(HostFnRef(0)));
        }
        self.0.function(name)
    }
    fn host_signature(
        &self,
        _f: HostFnRef,
        call: &HostCall<'_>,
    ) -> Result<HostSignature, Vec<Diagnostic>> {
        match call.literal(0) {
            Some(c) if c.eq_ignore_ascii_case("str") => Ok(HostSignature {
                params: vec![HostParam::Name],
                result: Format::Number,
                dependencies: vec![],
            }),
            _ => Err(vec![
                Diagnostic::error(
                    rulebook::formula::check::INVALID_ARGUMENT,
                    call.args.first().map_or(call.span, |a| a.span()),
                    "unknown input channel",
                )
                .with_help("channels are defined with DYNAMICSCOPE/CHANNEL"),
            ]),
        }
    }
    fn variable_names(&self) -> Vec<Name> {
        self.0.variable_names()
    }
    fn function_names(&self) -> Vec<Name> {
        self.0.function_names()
    }
}

impl ValueEnv for Env {
    fn value(&self, var: VarRef) -> Result<Value, EvalError> {
        self.0.value(var)
    }
    fn call_host(&self, _f: HostFnRef, args: &[Value]) -> Result<Value, EvalError> {
        Err(EvalError::new(
            rulebook::formula::eval::HOST_FUNCTION_FAILED,
            format!(
                "channel `{}` has no value yet",
                args.first().map(|a| a.to_string()).unwrap_or_default()
            ),
        ))
    }
}

/// The user functions of the test data: `loop` (recursive) and `f0`…`f29` (each calls the
/// previous one twice): (name, offset of the body in `functions.lst`, body).
fn function_defs() -> Vec<(String, usize, String)> {
    let mut defs = vec![("loop".to_owned(), "loop()".to_owned())];
    defs.push(("f0".into(), "1".into()));
    for i in 1..30 {
        defs.push((format!("f{i}"), format!("f{0}()+f{0}()", i - 1)));
    }
    let mut offset = 0;
    defs.into_iter()
        .map(|(name, body)| {
            let at = offset;
            offset += body.len() + 1;
            (name, at, body)
        })
        .collect()
}

fn functions_text() -> String {
    function_defs()
        .into_iter()
        .map(|(_, _, body)| body + "\n")
        .collect()
}

fn env() -> Env {
    let mut m = MapEnv::with_pcgen_defaults();
    m.define("Score", Format::Number, Some(Value::Number(15.into())));
    let arr = Format::from_name("ARRAY[NUMBER]").unwrap();
    m.define("x", arr.clone(), Some(arr.parse_value("1,2,3").unwrap()));
    let opt = Format::from_name("OPTIONAL[NUMBER]").unwrap();
    m.define("o", opt, Some(Value::Optional(None)));
    m.define("Align", Format::from_name("ALIGNMENT").unwrap(), None);
    for (name, offset, body) in function_defs() {
        let f = parse_formula(&body, FileId(1), offset as u32)
            .formula
            .unwrap();
        let span = rulebook::source::Span::new(FileId(1), offset..offset + body.len());
        m.functions.define(Name::new(&name), span, f).unwrap();
    }
    Env(m)
}

/// Parses, checks and evaluates; returns the rendered report of the first stage that fails.
fn report(formula: &str, format: &str, input: Option<&str>, input_value: bool) -> String {
    let mut sources = SourceMap::new();
    let file = sources.add(SourceFile::new("<formula>", formula, TextEncoding::Utf8));
    sources.add(SourceFile::new(
        "functions.lst",
        functions_text(),
        TextEncoding::Utf8,
    ));
    let env = env();
    let parsed = parse_formula(formula, file, 0);
    let Some(f) = parsed.formula else {
        return render(&parsed.diagnostics, &sources, false);
    };
    let asserted = Format::from_name(format).unwrap();
    let input_format = input.map(|i| Format::from_name(i).unwrap());
    match check(&f, &env, &asserted, input_format.as_ref()) {
        Err(ds) => render(&ds, &sources, false),
        Ok(c) => {
            let value = Value::Number(5.into());
            match c.eval(&env, if input_value { Some(&value) } else { None }) {
                Ok(v) => format!("no error: {v}"),
                Err(e) => render(&[e.to_diagnostic()], &sources, false),
            }
        }
    }
}

macro_rules! snap {
    ($name:ident, $formula:expr) => {
        snap!($name, $formula, "NUMBER", None, false);
    };
    ($name:ident, $formula:expr, $format:expr) => {
        snap!($name, $formula, $format, None, false);
    };
    ($name:ident, $formula:expr, $format:expr, $input:expr, $iv:expr) => {
        #[test]
        fn $name() {
            let r = report($formula, $format, $input, $iv);
            assert!(!r.starts_with("no error"), "{r}");
            insta::assert_snapshot!(r);
        }
    };
}

snap!(f0101_unknown_variable, "floor((Scroe-10)/2)");
snap!(f0102_unknown_function, "flor(Score)");
snap!(f0103_wrong_arity, "abs(Score,2)");
snap!(f0104_operand_format, "(Score<2)+1");
snap!(f0105_result_format, "Score>10");
snap!(f0106_invalid_literal, "ceil(\"ab\")");
snap!(f0107_invalid_argument, "slice(x,3,3)", "ARRAY[NUMBER]");
snap!(f0107_host_argument, "input(Dex)+1");
snap!(f0108_no_input, "value()+1");
snap!(f0109_empty_formula, "");
snap!(f0110_not_an_array, "Score[0]");
snap!(f0111_recursive_function, "loop()+1");
snap!(
    f0112_number_out_of_range,
    "99999999999999999999999999999999+1"
);
snap!(f0113_function_expansion_too_large, "f29()");

#[test]
fn f0114_formula_too_deep() {
    let text = format!("{}1{}", "(".repeat(120), ")".repeat(120));
    let r = report(&text, "NUMBER", None, false);
    assert!(r.contains("F0114"), "{r}");
    insta::assert_snapshot!(r);
}

snap!(e0101_division_by_zero, "Score/(Score-15)");
snap!(e0102_number_overflow, "2^100");
snap!(e0103_not_a_real_number, "(0-8)^0.5");
snap!(e0104_index_out_of_bounds, "x[Score-10]");
snap!(e0105_index_not_whole, "x[Score/10]");
snap!(e0106_empty_optional, "getOptional(o)");
snap!(e0107_no_value, "Align", "ALIGNMENT");
snap!(e0108_host_function_failed, "input(Str)+1");
snap!(
    e0109_slice_out_of_range,
    "slice(x,1,Score)",
    "ARRAY[NUMBER]"
);
snap!(
    e0110_missing_input,
    "value()+1",
    "NUMBER",
    Some("NUMBER"),
    false
);

fn registry_report(defs: &[(&str, &str)]) -> String {
    let mut text = String::new();
    let mut spans = Vec::new();
    for (name, body) in defs {
        let start = text.len() + "FUNCTION:".len();
        text.push_str(&format!("FUNCTION:{name}\tVALUE:{body}\n"));
        let body_start = start + name.len() + "\tVALUE:".len();
        spans.push((start, body_start));
    }
    let mut sources = SourceMap::new();
    let file = sources.add(SourceFile::new("functions.lst", text, TextEncoding::Utf8));
    let mut reg = rulebook::formula::FunctionRegistry::new();
    let mut ds = Vec::new();
    for ((name, body), (start, body_start)) in defs.iter().zip(spans) {
        let parsed = parse_formula(body, file, body_start as u32);
        let span = rulebook::source::Span::new(file, start..start + name.len());
        if let Err(mut e) = reg.define(Name::new(name), span, parsed.formula.unwrap()) {
            ds.append(&mut e);
        }
    }
    render(&ds, &sources, false)
}

#[test]
fn f0120_function_clashes_with_builtin() {
    insta::assert_snapshot!(registry_report(&[("Max", "arg(0)+1")]));
}

#[test]
fn f0121_duplicate_function() {
    insta::assert_snapshot!(registry_report(&[
        ("d20Mod", "arg(0)"),
        ("D20MOD", "arg(0)")
    ]));
}

#[test]
fn f0122_invalid_arg_reference() {
    insta::assert_snapshot!(registry_report(&[("half", "arg(n)/2")]));
}
