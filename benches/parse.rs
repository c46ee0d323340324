//! Formula parsing speed: time per formula for the six formulas of
//! `../shared/reference/pcgen-formula-bench.md`, beside fasteval's parser on the same
//! formulas written in its syntax (same run); and throughput (MB/s) over ~1 MB of formulas
//! parsed one line at a time, beside the floor of only splitting that text into lines and
//! touching every byte. Target: ≥ 20 MB/s.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rulebook::formula::parse_formula;
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
    g.finish();
}

criterion_group!(benches, per_formula, throughput);
criterion_main!(benches);
