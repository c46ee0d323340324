//! Property: random formula-like text goes through parse → check → evaluate without a
//! panic (the same body as the `check_formula` fuzz target, on a fixed budget).

use proptest::prelude::*;
use rulebook::formula::{Format, MapEnv, Value, check, parse_formula};
use rulebook::name::Name;
use rulebook::source::{FileId, Span};

fn env() -> MapEnv {
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
        env.functions
            .define(Name::new(name), Span::default(), body)
            .unwrap();
    }
    env
}

fn token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "a",
        "b",
        "t",
        "s",
        "p",
        "d",
        "x",
        "o",
        "0",
        "1",
        "2",
        "0.5",
        "99999999999999999999",
        "+",
        "-",
        "*",
        "/",
        "%",
        "^",
        "==",
        "!=",
        "<",
        ">=",
        "&&",
        "||",
        "!",
        "(",
        ")",
        ",",
        "[",
        "]",
        "\"3\"",
        "\"q\"",
        "abs(",
        "floor(",
        "round(",
        "max(",
        "min(",
        "if(",
        "value()",
        "length(",
        "slice(",
        "getOptional(",
        "isPresent(",
        "half(",
        "pick(",
        "arg(0)",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn never_panics(tokens in prop::collection::vec(token(), 1..25)) {
        let text: String = tokens.concat();
        let env = env();
        if let Some(formula) = parse_formula(&text, FileId(0), 0).formula {
            let input = Value::Number(7.into());
            for format in [Format::Number, Format::Boolean, Format::String] {
                if let Ok(c) = check(&formula, &env, &format, Some(&Format::Number)) {
                    let a = c.eval(&env, Some(&input));
                    let b = c.eval_tree(&env, Some(&input));
                    // The register program and the tree agree here too.
                    match (&a, &b) {
                        (Ok(x), Ok(y)) => prop_assert_eq!(x.to_string(), y.to_string()),
                        (Err(x), Err(y)) => prop_assert_eq!(x.code, y.code),
                        _ => prop_assert!(false, "{text}: {a:?} vs {b:?}"),
                    }
                    // The typed entry points agree too.
                    let typed = match format {
                        Format::Number => Some(c.eval_number(&env, Some(&input)).map(Value::Number)),
                        Format::Boolean => Some(c.eval_bool(&env, Some(&input)).map(Value::Boolean)),
                        _ => None,
                    };
                    if let Some(t) = typed {
                        match (&t, &b) {
                            (Ok(x), Ok(y)) => prop_assert_eq!(x.to_string(), y.to_string()),
                            (Err(x), Err(y)) => prop_assert_eq!(x.code, y.code),
                            _ => prop_assert!(false, "{text}: {t:?} vs {b:?}"),
                        }
                    }
                }
            }
        }
    }
}
