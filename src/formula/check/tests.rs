//! The checker end to end: each case is checked, compiled and evaluated, and gives a value or
//! the codes of its errors.

use super::*;
use crate::formula::ast::BinaryOp::*;
use crate::formula::ast::{Tree, TreeKind};
use crate::formula::print::to_sexpr;
use crate::formula::testing::*;

/// A formula's value as text, or the codes of its errors (from checking or evaluation).
type Outcome = Result<String, Vec<&'static str>>;

fn ok(value: &str) -> Outcome {
    Ok(value.to_owned())
}

fn fails(codes: &[&'static str]) -> Outcome {
    Err(codes.to_vec())
}

/// An environment with these `(name, format, value)` variables.
fn env(vars: &[(&str, &str, &str)]) -> Env {
    vars.iter()
        .fold(Env::default(), |env, (name, format, value)| {
            env.with(name, format, value)
        })
}

fn run(env: &Env, root: Tree, format: &str) -> Outcome {
    let format = Format::from_name(format).unwrap();
    match check(&formula(root), env, &format, None) {
        Ok(c) => c
            .eval(env, None)
            .map(|v| v.to_string())
            .map_err(|e| vec![e.code.id]),
        Err(ds) => Err(ds.iter().map(|d| d.code.id).collect()),
    }
}

/// Runs each `(formula, format, expected)` case in `env`; a failure names the formula.
fn expect(env: &Env, cases: Vec<(Tree, &str, Outcome)>) {
    for (root, format, expected) in cases {
        let shown = to_sexpr(&formula(root.clone()));
        assert_eq!(run(env, root, format), expected, "{shown} as {format}");
    }
}

#[test]
fn arithmetic_and_functions() {
    let env = env(&[("x", "NUMBER", "15"), ("y", "NUMBER", "4")]);
    // floor((x-10)/2)+if(y>3,1,2)*3
    let f = bin(
        Add,
        call(
            "floor",
            vec![bin(Div, bin(Sub, var("x"), num("10")), num("2"))],
        ),
        bin(
            Mul,
            call("IF", vec![bin(Gt, var("y"), num("3")), num("1"), num("2")]),
            num("3"),
        ),
    );
    expect(
        &env,
        vec![
            (f, "NUMBER", ok("5")),
            (bin(Div, num("7"), num("2")), "NUMBER", ok("3.5")),
            (bin(Div, num("1"), num("0")), "NUMBER", fails(&["E0101"])),
            (call("max", vec![num("1"), string("3")]), "NUMBER", ok("3")),
            (call("round", vec![neg(num("2.5"))]), "NUMBER", ok("-2")),
        ],
    );
}

#[test]
fn reports_every_problem() {
    let env = env(&[("Score", "NUMBER", "15"), ("b", "BOOLEAN", "true")]);
    let f = bin(
        Add,
        bin(Add, var("Scroe"), call("flor", vec![num("1")])),
        bin(Mul, var("b"), num("2")),
    );
    expect(
        &env,
        vec![
            (f, "NUMBER", fails(&["F0101", "F0102", "F0104"])),
            (num("1"), "BOOLEAN", fails(&["F0105"])),
            (string("1.5"), "NUMBER", fails(&["F0105"])),
            (call("abs", vec![]), "NUMBER", fails(&["F0103"])),
            (call("value", vec![]), "NUMBER", fails(&["F0108"])),
            (index("Score", num("0")), "NUMBER", fails(&["F0110"])),
            (
                call("ceil", vec![string("ab")]),
                "NUMBER",
                fails(&["F0106"]),
            ),
        ],
    );
}

#[test]
fn did_you_mean() {
    let env = env(&[("Score", "NUMBER", "15")]);
    for (f, help) in [
        (var("Scroe"), "did you mean `Score`?"),
        (call("flor", vec![num("1")]), "did you mean `floor`?"),
    ] {
        let ds = check(&formula(f), &env, &Format::Number, None).unwrap_err();
        assert_eq!(ds[0].help.as_deref(), Some(help));
    }
}

#[test]
fn if_is_lazy_and_logic_is_not() {
    let env = env(&[("t", "BOOLEAN", "true")]);
    let boom = || bin(Rem, num("1"), num("0"));
    expect(
        &env,
        vec![
            (
                call("if", vec![var("t"), num("5"), boom()]),
                "NUMBER",
                ok("5"),
            ),
            (
                bin(Or, var("t"), bin(Eq, boom(), num("0"))),
                "BOOLEAN",
                fails(&["E0101"]),
            ),
            (not(bin(Eq, var("t"), var("t"))), "BOOLEAN", ok("false")),
        ],
    );
}

#[test]
fn user_functions_are_typed_macros() {
    let mut env = env(&[("x", "NUMBER", "14")]);
    let body = call(
        "floor",
        vec![bin(
            Div,
            bin(Sub, call("arg", vec![num("0")]), num("10")),
            num("2"),
        )],
    );
    env.functions
        .define(Name::new("d20Mod"), sp(), formula(body))
        .unwrap();
    let f = call("D20MOD", vec![var("x")]);
    let c = check(&formula(f), &env, &Format::Number, None).unwrap();
    assert_eq!(c.dependencies(), &[VarRef(0)]);
    assert_eq!(c.eval(&env, None).unwrap().to_string(), "2");
    assert!(
        env.functions
            .define(Name::new("MAX"), sp(), formula(num("1")))
            .is_err()
    );
    // Recursion is reported, not expanded forever.
    env.functions
        .define(Name::new("loop"), sp(), formula(call("loop", vec![])))
        .unwrap();
    // Doubling at each level would inline 2^40 bodies: stopped with one error.
    env.functions
        .define(Name::new("f0"), sp(), formula(num("1")))
        .unwrap();
    for i in 1..40 {
        let prev = format!("f{}", i - 1);
        let body = bin(Add, call(&prev, vec![]), call(&prev, vec![]));
        env.functions
            .define(Name::new(&format!("f{i}")), sp(), formula(body))
            .unwrap();
    }
    expect(
        &env,
        vec![
            (
                call("d20mod", vec![num("1"), num("2")]),
                "NUMBER",
                fails(&["F0103"]),
            ),
            (call("loop", vec![]), "NUMBER", fails(&["F0111"])),
            (call("f39", vec![]), "NUMBER", fails(&["F0113"])),
        ],
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let mut negated = num("1");
    for _ in 0..5000 {
        negated = neg(negated);
    }
    let mut bracketed = num("1");
    for _ in 0..90 {
        bracketed = e(TreeKind::Paren(Box::new(bracketed)));
    }
    // Not through `expect`, which would print the 5000 levels.
    let env = Env::default();
    assert_eq!(run(&env, negated, "NUMBER"), fails(&["F0114"]));
    assert_eq!(run(&env, bracketed, "NUMBER"), ok("1"));
}

#[test]
fn arrays_and_optionals() {
    let env = env(&[
        ("x", "ARRAY[NUMBER]", "1,2,3"),
        ("o", "OPTIONAL[NUMBER]", ""),
        ("p", "OPTIONAL[NUMBER]", "3"),
    ]);
    expect(
        &env,
        vec![
            (index("x", num("2")), "NUMBER", ok("3")),
            (index("x", num("3")), "NUMBER", fails(&["E0104"])),
            (index("x", num("1.5")), "NUMBER", fails(&["E0105"])),
            (
                call("slice", vec![var("x"), num("1")]),
                "ARRAY[NUMBER]",
                ok("2,3"),
            ),
            (
                call("slice", vec![var("x"), num("2"), num("2")]),
                "ARRAY[NUMBER]",
                fails(&["F0107"]),
            ),
            // Computed slice bounds are truncated like the reference's intValue().
            (
                call("slice", vec![var("x"), bin(Div, num("3"), num("2"))]),
                "ARRAY[NUMBER]",
                ok("2,3"),
            ),
            (call("length", vec![var("x")]), "NUMBER", ok("3")),
            (
                call("getOptional", vec![var("o")]),
                "NUMBER",
                fails(&["E0106"]),
            ),
            (
                bin(Add, call("getOptional", vec![var("p")]), num("1")),
                "NUMBER",
                ok("4"),
            ),
            (call("isPresent", vec![var("o")]), "BOOLEAN", ok("false")),
        ],
    );
}

/// `first_uses` keeps each variable once, where it first appears, on all of its paths (a
/// scan for a few, a bit set on the stack for small handles, a scan for a few dozen with
/// large handles, a bit set for handles near the count, a hash set for sparse ones).
#[test]
fn first_uses_keeps_the_first_of_each_on_every_path() {
    use super::{VarRef, first_uses};
    fn naive(deps: &[VarRef]) -> Vec<VarRef> {
        let mut out: Vec<VarRef> = Vec::new();
        for d in deps {
            if !out.contains(d) {
                out.push(*d);
            }
        }
        out
    }
    let cases: Vec<Vec<VarRef>> = vec![
        vec![],
        (0..20).map(|i| VarRef(i % 7)).collect(),
        (0..500).map(|i| VarRef((i * 37) % 301)).collect(),
        (0..500)
            .map(|i| VarRef(((i * 37) % 301) * 1_000_000))
            .collect(),
        (0..40).map(|i| VarRef(u32::MAX - (i % 3))).collect(),
        (0..4).map(|i| VarRef(i % 2)).collect(),
        (0..30).map(|i| VarRef((i * 13) % 511)).collect(),
        (0..30).map(|i| VarRef(511 - i % 5)).collect(),
        (0..30).map(|i| VarRef(512 + i % 5)).collect(),
        (0..10).map(|i| VarRef(1000 + i % 4)).collect(),
    ];
    for deps in cases {
        let mut got = deps.clone();
        first_uses(&mut got);
        assert_eq!(got, naive(&deps));
    }
}
