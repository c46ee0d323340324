//! Fuzz target: any text that parses is checked and, when it checks, evaluated — against
//! variables of every format and two user functions — without a panic, and the compiled
//! evaluation agrees with the tree interpreter.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rulebook::formula::{Format, MapEnv, Value, check, parse_formula};
use rulebook::name::Name;
use rulebook::source::{FileId, Span};

fuzz_target!(|text: &str| {
    let mut env = MapEnv::with_pcgen_defaults();
    for (name, format, value) in [
        ("a", "NUMBER", "5"),
        ("b", "NUMBER", "-2.5"),
        ("t", "BOOLEAN", "true"),
        ("s", "STRING", "x"),
        ("p", "ORDEREDPAIR", "3,4"),
        ("d", "DICE", "2d6"),
        ("x", "ARRAY[NUMBER]", "1,2,3"),
        ("o", "OPTIONAL[NUMBER]", ""),
    ] {
        let f = Format::from_name(format).unwrap();
        let v = f.parse_value(value).unwrap();
        env.define(name, f, Some(v));
    }
    for (name, body) in [("half", "arg(0)/2"), ("pick", "if(arg(0),arg(1),arg(2))")] {
        let body = parse_formula(body, FileId(1), 0).formula.unwrap();
        let _ = env.functions.define(Name::new(name), Span::default(), body);
    }
    let Some(formula) = parse_formula(text, FileId(0), 0).formula else {
        return;
    };
    let input = Value::Number(7.into());
    for format in [Format::Number, Format::Boolean, Format::String] {
        if let Ok(c) = check(&formula, &env, &format, Some(&Format::Number)) {
            let fast = c.eval(&env, Some(&input));
            let tree = c.eval_tree(&env, Some(&input));
            // The register program (and its way to the tree) answers what the
            // tree interpreter answers: the same value, or an error with the same code.
            match (&fast, &tree) {
                (Ok(x), Ok(y)) => assert_eq!(x.to_string(), y.to_string(), "{text}"),
                (Err(x), Err(y)) => assert_eq!(x.code, y.code, "{text}"),
                _ => panic!("{text}: {fast:?} vs {tree:?}"),
            }
        }
    }
});
