//! Evaluation time of checked formulas: rulebook beside fasteval (f64) and a hand-written
//! Rust closure, on `floor((x-10)/2)+if(y>3,1,2)*3` and the six formulas of
//! `shared/reference/pcgen-formula-bench.md` (same variables and input as the reference run).
//! Run: `cargo bench --bench eval -- --quick`.

use criterion::{Criterion, criterion_group};
use fasteval::{Compiler, Evaler};
use rulebook::character::{Character, InstanceId, PreparedFormula};
use rulebook::formula::{CompiledFormula, Format, MapEnv, Number, Value, check, parse_formula};
use rulebook::load::{MemoryFs, PcgenRoot};
use rulebook::source::FileId;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;

struct Case {
    name: &'static str,
    formula: &'static str,
    format: Format,
    fasteval: &'static str,
    closure: fn(&Vars) -> f64,
}

/// The variables as plain Rust values, for the closure baseline.
struct Vars {
    x: f64,
    y: f64,
    score: f64,
    lvl: f64,
    race_is_long: bool,
    t: [f64; 21],
    value: f64,
}

fn b(x: bool) -> f64 {
    if x { 1.0 } else { 0.0 }
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "basic",
            formula: "floor((x-10)/2)+if(y>3,1,2)*3",
            format: Format::Number,
            fasteval: "floor((x-10)/2)+((y>3 && 1) || 2)*3",
            closure: |v| ((v.x - 10.0) / 2.0).floor() + if v.y > 3.0 { 1.0 } else { 2.0 } * 3.0,
        },
        Case {
            name: "d20mod",
            formula: "floor((Score-10)/2)",
            format: Format::Number,
            fasteval: "floor((Score-10)/2)",
            closure: |v| ((v.score - 10.0) / 2.0).floor(),
        },
        Case {
            name: "if_bool",
            formula: "if(RaceIsLong,20,30)",
            format: Format::Number,
            fasteval: "(RaceIsLong && 20) || 30",
            closure: |v| if v.race_is_long { 20.0 } else { 30.0 },
        },
        Case {
            name: "max_value",
            formula: "max(value()-1,1)",
            format: Format::Number,
            fasteval: "max(value-1,1)",
            closure: |v| (v.value - 1.0).max(1.0),
        },
        Case {
            name: "long20",
            formula: "t01+t02*2-t03+t04/2+t05*t06-t07+t08+t09*3-t10+t11+t12*2-t13+t14/2+t15*t16-t17+t18+t19*3-t20",
            format: Format::Number,
            fasteval: "t01+t02*2-t03+t04/2+t05*t06-t07+t08+t09*3-t10+t11+t12*2-t13+t14/2+t15*t16-t17+t18+t19*3-t20",
            closure: |v| {
                let t = &v.t;
                t[1] + t[2] * 2.0 - t[3] + t[4] / 2.0 + t[5] * t[6] - t[7] + t[8] + t[9] * 3.0
                    - t[10]
                    + t[11]
                    + t[12] * 2.0
                    - t[13]
                    + t[14] / 2.0
                    + t[15] * t[16]
                    - t[17]
                    + t[18]
                    + t[19] * 3.0
                    - t[20]
            },
        },
        Case {
            name: "nested_if",
            formula: "if(Lvl>=5,max(floor((Score-10)/2),0)+Lvl/2,min(Lvl,3))",
            format: Format::Number,
            fasteval: "(Lvl>=5 && (max(floor((Score-10)/2),0)+Lvl/2)) || min(Lvl,3)",
            closure: |v| {
                if v.lvl >= 5.0 {
                    ((v.score - 10.0) / 2.0).floor().max(0.0) + v.lvl / 2.0
                } else {
                    v.lvl.min(3.0)
                }
            },
        },
        Case {
            name: "bool_logic",
            formula: "(Lvl>3&&!RaceIsLong)||Score>=18",
            format: Format::Boolean,
            fasteval: "(Lvl>3 && !RaceIsLong) || Score>=18",
            closure: |v| b((v.lvl > 3.0 && !v.race_is_long) || v.score >= 18.0),
        },
    ]
}

fn env() -> MapEnv {
    let mut env = MapEnv::with_pcgen_defaults();
    let n = |i: i64| Some(Value::Number(Number::Int(i)));
    env.define("x", Format::Number, n(15));
    env.define("y", Format::Number, n(4));
    env.define("Score", Format::Number, n(15));
    env.define("Lvl", Format::Number, n(7));
    env.define("RaceIsLong", Format::Boolean, Some(Value::Boolean(true)));
    for i in 1..=20 {
        env.define(&format!("t{i:02}"), Format::Number, n(i));
    }
    env
}

/// The bench variables as a character holds them: globals of a small dataset, each set by
/// a GLOBALMODIFIER line and solved. The formulas are evaluated the way a character builder
/// does (`Character::prepare` once, `evaluate_prepared` each time): the solver's values
/// behind its reader, what issue 30's "through the character API" target measures.
fn character() -> Character {
    let mut numbers: Vec<(String, i64)> = ["x", "y", "Score", "Lvl"]
        .into_iter()
        .map(str::to_owned)
        .zip([15, 4, 15, 7])
        .collect();
    numbers.extend((1..=20).map(|i| (format!("t{i:02}"), i)));
    let mut vars = String::from("GLOBAL:BOOLEAN=RaceIsLong\n");
    let mut mods = String::from("MODIFY:RaceIsLong|SET|true\n");
    for (name, value) in &numbers {
        vars.push_str(&format!("GLOBAL:NUMBER={name}\n"));
        mods.push_str(&format!("MODIFY:{name}|SET|{value}\n"));
    }
    let fs = MemoryFs::new()
        .with("/pc/system/gameModes/B/miscinfo.lst", "ALLOWEDMODES:B\n")
        .with(
            "/pc/data/b/ctl.lst",
            "DEFAULTVARIABLEVALUE:NUMBER|0\nDEFAULTVARIABLEVALUE:BOOLEAN|false\n\
             DEFAULTVARIABLEVALUE:STRING|\nDEFAULTVARIABLEVALUE:ORDEREDPAIR|0,0\n",
        )
        .with("/pc/data/b/var.lst", vars)
        .with("/pc/data/b/gm.lst", mods)
        .with(
            "/pc/data/b/b.pcc",
            "CAMPAIGN:Bench\nGAMEMODE:B\nDATACONTROL:ctl.lst\nVARIABLE:var.lst\n\
             GLOBALMODIFIER:gm.lst\n",
        );
    let root = PcgenRoot::at(&fs, Path::new("/pc"));
    let set = rulebook::check::check_load_set(&fs, &root, &[PathBuf::from("/pc/data/b/b.pcc")]);
    let errors: Vec<String> = set
        .diagnostics
        .iter()
        .filter(|d| d.severity == rulebook::diagnostic::Severity::Error)
        .map(ToString::to_string)
        .collect();
    assert!(errors.is_empty(), "the bench dataset checks: {errors:?}");
    Character::new(Arc::new(set.dataset))
}

fn vars() -> Vars {
    let mut t = [0.0; 21];
    for (i, x) in t.iter_mut().enumerate() {
        *x = i as f64;
    }
    Vars {
        x: 15.0,
        y: 4.0,
        score: 15.0,
        lvl: 7.0,
        race_is_long: true,
        t,
        value: 5.0,
    }
}

fn fasteval_lookup(name: &str) -> Option<f64> {
    Some(match name {
        "x" | "Score" => 15.0,
        "y" => 4.0,
        "Lvl" => 7.0,
        "RaceIsLong" => 1.0,
        "value" => 5.0,
        t if t.starts_with('t') => t[1..].parse().ok()?,
        _ => return None,
    })
}

fn bench(c: &mut Criterion) {
    let env = env();
    let v = vars();
    let input = Value::Number(Number::Int(5));
    let mut sheet = character();
    for case in cases() {
        let parsed = parse_formula(case.formula, FileId(0), 0);
        let formula = parsed.formula.expect("bench formula parses");
        let compiled = check(&formula, &env, &case.format, Some(&Format::Number))
            .expect("bench formula checks");
        let expected = (case.closure)(&v);

        let parser = fasteval::Parser::new();
        let mut slab = fasteval::Slab::new();
        let fe = parser
            .parse(case.fasteval, &mut slab.ps)
            .expect("fasteval parses")
            .from(&slab.ps)
            .compile(&slab.ps, &mut slab.cs);
        let mut cb = |name: &str, _args: Vec<f64>| fasteval_lookup(name);
        let fe_value = fe.eval(&slab, &mut cb).expect("fasteval evaluates");
        let rb_value = compiled
            .eval(&env, Some(&input))
            .expect("rulebook evaluates");
        // The three baselines compute the same thing.
        assert!(
            (fe_value - expected).abs() < 1e-9,
            "{}: fasteval {fe_value} vs {expected}",
            case.name
        );
        let rb_text = rb_value.to_string();
        let expected_text = match case.format {
            Format::Boolean => (expected != 0.0).to_string(),
            _ => format!("{expected}"),
        };
        assert_eq!(rb_text, expected_text, "{}", case.name);

        let mut group = c.benchmark_group(case.name);
        // The typed entry point (what the solver calls for a NUMBER/BOOLEAN variable) ...
        let boolean = case.format == Format::Boolean;
        group.bench_function("rulebook", |bch| {
            bch.iter(|| eval_typed(&compiled, &env, &input, boolean))
        });
        // ... and the generic one returning a `Value`.
        group.bench_function("rulebook_value", |bch| {
            bch.iter(|| black_box(&compiled).eval(black_box(&env), Some(black_box(&input))))
        });
        group.bench_function("fasteval", |bch| {
            bch.iter(|| {
                let mut cb = |name: &str, _args: Vec<f64>| fasteval_lookup(black_box(name));
                black_box(&fe).eval(black_box(&slab), &mut cb)
            })
        });
        group.bench_function("closure", |bch| bch.iter(|| (case.closure)(black_box(&v))));
        // Through the character API. `value()` reads the format's default there, as for a
        // MODIFY with nothing before it: the answer is compared with the plain environment's
        // at that running value.
        let prepared: PreparedFormula = sheet
            .prepare(InstanceId::GLOBAL, case.formula, &case.format)
            .expect("bench formula prepares on the character");
        let zero = match case.format {
            Format::Boolean => Value::Boolean(false),
            _ => Value::Number(Number::ZERO),
        };
        assert_eq!(
            sheet
                .evaluate_prepared(&prepared)
                .map(|v| v.to_string())
                .ok(),
            compiled.eval(&env, Some(&zero)).map(|v| v.to_string()).ok(),
            "{}: the character and the plain environment agree",
            case.name
        );
        group.bench_function("character", |bch| {
            bch.iter(|| black_box(&sheet).evaluate_prepared(black_box(&prepared)))
        });
        group.finish();
    }
}

/// One evaluation through the typed entry point (what the solver calls for a NUMBER or
/// BOOLEAN variable): `eval_bool` when `boolean`, else `eval_number`; whether it succeeded.
fn eval_typed(compiled: &CompiledFormula, env: &MapEnv, input: &Value, boolean: bool) -> bool {
    if boolean {
        black_box(compiled)
            .eval_bool(black_box(env), Some(black_box(input)))
            .is_ok()
    } else {
        black_box(compiled)
            .eval_number(black_box(env), Some(black_box(input)))
            .is_ok()
    }
}

/// Without criterion, for counting instructions (the machine's wall clock is noisy):
/// `EVAL_COUNT=<case>:<n>` evaluates one case's checked formula `n` times through the typed
/// entry point (`eval_number` / `eval_bool`, as the `rulebook` bench) and exits. The
/// difference between the instruction counts (`valgrind --tool=callgrind`) of two runs with
/// different `n`, divided by the difference of the `n`s, is the cost of one evaluation.
fn count(spec: &str) {
    let (Some(name), Some(n)) = spec
        .split_once(':')
        .map_or((None, None), |(a, b)| (Some(a), b.parse::<usize>().ok()))
    else {
        panic!("EVAL_COUNT=<case>:<n>");
    };
    let env = env();
    let input = Value::Number(Number::Int(5));
    let case = cases()
        .into_iter()
        .find(|c| c.name == name)
        .expect("a bench case");
    let formula = parse_formula(case.formula, FileId(0), 0)
        .formula
        .expect("bench formula parses");
    let compiled =
        check(&formula, &env, &case.format, Some(&Format::Number)).expect("bench formula checks");
    let boolean = case.format == Format::Boolean;
    let mut ok = 0usize;
    for _ in 0..n {
        ok += usize::from(eval_typed(&compiled, &env, &input, boolean));
    }
    assert_eq!(ok, n, "{spec}");
}

criterion_group!(benches, bench);

fn main() {
    if let Ok(spec) = std::env::var("EVAL_COUNT") {
        count(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
