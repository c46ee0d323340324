//! Formula parsing speed: time per formula for the six formulas of
//! `../shared/reference/pcgen-formula-bench.md`, beside fasteval's parser on the same
//! formulas written in its syntax (same run); and throughput (MB/s) over ~1 MB of formulas
//! parsed one line at a time, beside the floor of only splitting that text into lines and
//! touching every byte. Target: ≥ 20 MB/s.
//!
//! `parse_check/*` times what PCGen does per formula at load (the reference's
//! "parse+validate"): parse, then check and compile against the reference's variables, for
//! the six formulas and the reference's 10,000-term sum; each case prints the reference's
//! figure and the target (1/20 of it) beside the measurement, and times fasteval's parse of
//! the same formula right after (`fasteval_parse`): the same run's measure of how fast the
//! machine is (on a shared machine its speed swings between runs).

use criterion::{Criterion, Throughput, criterion_group};
use rulebook::formula::{Format, MapEnv, Number, Value, check, parse_formula};
use rulebook::source::FileId;
use std::hint::black_box;

/// The same formulas in fasteval's syntax (no `if`, no `value()`: `&&`/`||` selection and a
/// variable), as in `benches/eval.rs`.
const FASTEVAL: [&str; 6] = [
    "floor((Score-10)/2)",
    "(RaceIsLong && 20) || 30",
    "max(value-1,1)",
    "t01+t02*2-t03+t04/2+t05*t06-t07+t08+t09*3-t10+t11+t12*2-t13+t14/2+t15*t16-t17+t18+t19*3-t20",
    "(Lvl>=5 && (max(floor((Score-10)/2),0)+Lvl/2)) || min(Lvl,3)",
    "(Lvl>3 && !RaceIsLong) || Score>=18",
];

/// The reference benchmark's formulas (name, text).
const FORMULAS: [(&str, &str); 6] = [
    ("d20mod", "floor((Score-10)/2)"),
    ("if_bool", "if(RaceIsLong,20,30)"),
    ("max_value", "max(value()-1,1)"),
    (
        "long20",
        "t01+t02*2-t03+t04/2+t05*t06-t07+t08+t09*3-t10+t11+t12*2-t13+t14/2+t15*t16-t17+t18+t19*3-t20",
    ),
    (
        "nested_if",
        "if(Lvl>=5,max(floor((Score-10)/2),0)+Lvl/2,min(Lvl,3))",
    ),
    ("bool_logic", "(Lvl>3&&!RaceIsLong)||Score>=18"),
];

/// Further formulas in the style of PCGen data, for the throughput corpus.
const MORE: [&str; 8] = [
    "CL=Special Fighter+1",
    "max(0,min(Dex Bonus,Armor Max Dex))",
    "\"Medium\"",
    "floor(CasterLevel/4)*2+ceil(Ability Score Strength/3)",
    "if(Size>=3 && !IsProne,-1,Size Modifier[Size])",
    "value()+(Level-1)*BAB Progression",
    "-(Base Save)+2^Tier",
    "a.b.c + x:y - %Feat Count",
];

/// About 1 MB of formulas, one per line.
fn corpus() -> String {
    let all: Vec<&str> = FORMULAS.iter().map(|(_, f)| *f).chain(MORE).collect();
    let mut out = String::with_capacity(1 << 20);
    let mut i = 0usize;
    while out.len() < 1 << 20 {
        out.push_str(all[i % all.len()]);
        out.push('\n');
        i += 1;
    }
    out
}

fn per_formula(c: &mut Criterion) {
    for ((name, text), fe_text) in FORMULAS.into_iter().zip(FASTEVAL) {
        assert!(parse_formula(text, FileId(0), 0).formula.is_some());
        let mut g = c.benchmark_group(format!("parse/{name}"));
        g.bench_function("rulebook", |b| {
            b.iter(|| {
                parse_formula(black_box(text), FileId(0), 0)
                    .formula
                    .is_some()
            })
        });
        let parser = fasteval::Parser::new();
        let mut slab = fasteval::Slab::new();
        g.bench_function("fasteval", |b| {
            b.iter(|| {
                // The slab is reused (cleared), so fasteval is not charged for allocating it.
                slab.clear();
                parser.parse(black_box(fe_text), &mut slab.ps).is_ok()
            })
        });
        g.finish();
    }
}

/// The reference's parse+validate medians in µs (`pcgen-formula-bench.md`, median of three
/// runs; the 10,000-term sum is its "construct total's modifier" for the fan-in `sum`).
const REFERENCE_PARSE_VALIDATE_US: [(&str, f64); 7] = [
    ("d20mod", 10.0),
    ("if_bool", 9.7),
    ("max_value", 9.9),
    ("long20", 17.3),
    ("nested_if", 14.1),
    ("bool_logic", 10.9),
    ("sum10000", 4640.0),
];

/// The reference's variables: `Score`, `Lvl`, `RaceIsLong`, `t01`..`t20`, and the fan-in
/// sources `s0`..`s9999`.
fn env() -> MapEnv {
    let mut env = MapEnv::with_pcgen_defaults();
    let n = |i: i64| Some(Value::Number(Number::Int(i)));
    env.define("Score", Format::Number, n(15));
    env.define("Lvl", Format::Number, n(7));
    env.define("RaceIsLong", Format::Boolean, Some(Value::Boolean(true)));
    for i in 1..=20 {
        env.define(&format!("t{i:02}"), Format::Number, n(i));
    }
    for i in 0..10_000 {
        env.define(&format!("s{i}"), Format::Number, n(i % 10 + 1));
    }
    env
}

fn parse_check(c: &mut Criterion) {
    let env = env();
    let sum = (0..10_000)
        .map(|i| format!("s{i}"))
        .collect::<Vec<_>>()
        .join("+");
    let cases = FORMULAS
        .iter()
        .map(|(name, text)| (*name, *text))
        .chain([("sum10000", sum.as_str())]);
    for (name, text) in cases {
        let format = if name == "bool_logic" {
            Format::Boolean
        } else {
            Format::Number
        };
        let run = |text: &str| parse_then_check(text, &env, &format);
        assert!(run(text), "{name} parses and checks");
        let reference = REFERENCE_PARSE_VALIDATE_US
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(f64::NAN, |(_, us)| *us);
        println!(
            "parse_check/{name}: reference parse+validate {reference} µs, target ≤ {:.3} µs",
            reference / 20.0
        );
        let mut g = c.benchmark_group(format!("parse_check/{name}"));
        if name == "sum10000" {
            g.sample_size(20);
        }
        g.bench_function("rulebook", |b| b.iter(|| run(black_box(text))));
        // The same run's baseline, measured right after: fasteval's parser (it has no
        // check) on the formula in its syntax (the sum is written alike).
        let fe_text = FORMULAS
            .iter()
            .position(|(n, _)| *n == name)
            .and_then(|i| FASTEVAL.get(i).copied())
            .unwrap_or(text);
        let parser = fasteval::Parser {
            expr_len_limit: 1 << 20,
            expr_depth_limit: 1 << 10,
        };
        let mut slab = fasteval::Slab::with_capacity(1 << 15);
        assert!(
            parser.parse(fe_text, &mut slab.ps).is_ok(),
            "{name}: fasteval"
        );
        g.bench_function("fasteval_parse", |b| {
            b.iter(|| {
                slab.clear();
                parser.parse(black_box(fe_text), &mut slab.ps).is_ok()
            })
        });
        g.finish();
    }
}

/// Parses `text` into a syntax tree, then checks that (what the loader does).
fn parse_then_check(text: &str, env: &MapEnv, format: &Format) -> bool {
    parse_formula(text, FileId(0), 0)
        .formula
        .and_then(|f| check(&f, env, format, Some(&Format::Number)).ok())
        .is_some()
}

fn throughput(c: &mut Criterion) {
    let text = corpus();
    let mut g = c.benchmark_group("parse_throughput");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.sample_size(10);
    g.bench_function("floor_split_lines", |b| {
        b.iter(|| {
            let mut bytes = 0u64;
            for line in black_box(&text).lines() {
                bytes += line.bytes().map(u64::from).sum::<u64>();
            }
            bytes
        })
    });
    g.bench_function("1MB_lines", |b| {
        b.iter(|| {
            let mut trees = 0usize;
            for line in black_box(&text).lines() {
                trees += usize::from(parse_formula(line, FileId(0), 0).formula.is_some());
            }
            trees
        })
    });
    // The chumsky grammar alone, without the fast parser: why the fast parser exists.
    g.bench_function("1MB_lines_grammar_only", |b| {
        b.iter(|| {
            let mut trees = 0usize;
            for line in black_box(&text).lines() {
                let out = rulebook::formula::parse::parse_formula_by_grammar(line);
                trees += usize::from(out.formula.is_some());
            }
            trees
        })
    });
    g.finish();
}

/// Without criterion, for counting instructions (the machine's wall clock is noisy):
/// `PARSE_COUNT=<formula>:<what>:<n>` runs `n` times one of `parse_check` (rulebook parse and
/// check as the loader does), `parse` (rulebook parse) or `fasteval` (fasteval's parse) on
/// one bench formula and exits. The difference between the instruction counts (`valgrind --tool=callgrind`) of two
/// runs with different `n`, divided by the difference of the `n`s, is the cost of one.
fn count(spec: &str) {
    let mut parts = spec.split(':');
    let (Some(name), Some(what), Some(n)) = (parts.next(), parts.next(), parts.next()) else {
        panic!("PARSE_COUNT=<formula>:<parse_check|parse|fasteval>:<n>");
    };
    let n: usize = n.parse().expect("a count");
    let sum = (0..10_000)
        .map(|i| format!("s{i}"))
        .collect::<Vec<_>>()
        .join("+");
    let (text, fe_text) = match FORMULAS.iter().position(|(f, _)| *f == name) {
        Some(i) => (FORMULAS[i].1, FASTEVAL[i]),
        None => (sum.as_str(), sum.as_str()),
    };
    let env = env();
    let format = if name == "bool_logic" {
        Format::Boolean
    } else {
        Format::Number
    };
    let parser = fasteval::Parser {
        expr_len_limit: 1 << 20,
        expr_depth_limit: 1 << 10,
    };
    let mut slab = fasteval::Slab::with_capacity(1 << 15);
    let mut ok = 0usize;
    for _ in 0..n {
        ok += usize::from(match what {
            "parse_check" => parse_then_check(black_box(text), &env, &format),
            "parse" => parse_formula(black_box(text), FileId(0), 0)
                .formula
                .is_some(),
            _ => {
                slab.clear();
                parser.parse(black_box(fe_text), &mut slab.ps).is_ok()
            }
        });
    }
    assert_eq!(ok, n, "{spec}");
}

criterion_group!(benches, per_formula, parse_check, throughput);

fn main() {
    if let Ok(spec) = std::env::var("PARSE_COUNT") {
        count(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
