//! Very long formulas (the reference benchmark's fan-in `s0+s1+…+s9999`) check, evaluate
//! and drop without deep recursion.

use rulebook::formula::{Format, MapEnv, Number, Value, check, parse_formula};
use rulebook::source::FileId;

#[test]
fn ten_thousand_terms() {
    let mut env = MapEnv::with_pcgen_defaults();
    let mut text = String::new();
    let mut expected = 0i64;
    for j in 0..10_000i64 {
        let v = j % 10 + 1;
        env.define(
            &format!("s{j}"),
            Format::Number,
            Some(Value::Number(Number::Int(v))),
        );
        if j > 0 {
            text.push(if j % 3 == 0 { '-' } else { '+' });
        }
        text.push_str(&format!("s{j}"));
        expected += if j > 0 && j % 3 == 0 { -v } else { v };
    }
    let parsed = parse_formula(&text, FileId(0), 0);
    let formula = parsed.formula.expect("parses");
    let compiled = check(&formula, &env, &Format::Number, None).expect("checks");
    assert_eq!(compiled.dependencies().len(), 10_000);
    let value = compiled.eval_number(&env, None).unwrap();
    assert_eq!(value, Number::Int(expected));
    assert_eq!(
        compiled.eval_tree(&env, None).unwrap().to_string(),
        expected.to_string()
    );
}
