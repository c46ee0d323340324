//! The reference's own solver workloads (`shared/reference/pcgen-formula-bench.md`, section
//! (c)): chain and fan-in at N = 1,000 and 10,000; solve all; add one modifier at the head,
//! middle and tail (and remove it again). Criterion measures each; a summary table at the end
//! prints our median beside the reference's median as a ratio (reference ÷ ours: how many
//! times faster rulebook is).
//!
//! "construct" (parsing and checking the formulas) is not part of the solve times, as in the
//! reference. "solve all" = adding every modifier, then one solve.

use criterion::{BatchSize, Criterion};
use rulebook::formula::{CheckEnv, Format, Value, VarRef, check, parse_formula};
use rulebook::name::Name;
use rulebook::solve::formula_source::{FormulaSource, var_ref};
use rulebook::solve::{
    Constant, Modifier, ModifierId, ModifierKind, Origin, Solver, ValueSource, VariableId,
};
use rulebook::source::FileId;
use std::collections::HashMap;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Names(HashMap<Name, VariableId>);

impl CheckEnv for Names {
    fn variable(&self, name: &str) -> Option<(VarRef, Format)> {
        self.0
            .get(&Name::new(name))
            .map(|v| (var_ref(*v), Format::Number))
    }
}

fn zero() -> Value {
    Format::Number.parse_value("0").unwrap()
}

fn modifier(
    names: &Names,
    var: VariableId,
    kind: ModifierKind,
    priority: u32,
    text: &str,
) -> Modifier<Value> {
    // As the reference's modifier factory: a constant first, a formula otherwise.
    let source: Arc<dyn ValueSource<Value>> = match Format::Number.parse_value(text) {
        Ok(value) => Arc::new(Constant {
            value,
            text: text.to_owned(),
        }),
        Err(_) => {
            let f = parse_formula(text, FileId(0), 0).formula.unwrap();
            let c = check(&f, names, &Format::Number, Some(&Format::Number)).unwrap();
            Arc::new(FormulaSource::new(c, text))
        }
    };
    Modifier {
        var,
        kind,
        priority,
        source,
        origin: Origin::default(),
    }
}

/// A workload: variables plus the modifiers to add, in file order.
struct Workload {
    solver: Solver<Value>,
    names: Names,
    vars: Vec<VariableId>,
    mods: Vec<Modifier<Value>>,
}

fn chain(n: usize) -> Workload {
    let mut solver = Solver::new();
    let vars: Vec<VariableId> = (0..n)
        .map(|i| solver.add_variable(format!("v{i}"), zero()))
        .collect();
    let names = Names(
        vars.iter()
            .enumerate()
            .map(|(i, v)| (Name::new(&format!("v{i}")), *v))
            .collect(),
    );
    let mut mods = Vec::new();
    for (i, &v) in vars.iter().enumerate() {
        let (set, add) = if i == 0 {
            ("1".to_string(), "1".to_string())
        } else {
            (format!("v{}%1000", i - 1), format!("v{}%7+1", i - 1))
        };
        mods.push(modifier(&names, v, ModifierKind::Set, 10, &set));
        mods.push(modifier(&names, v, ModifierKind::Add, 20, &add));
        mods.push(modifier(&names, v, ModifierKind::Multiply, 30, "2"));
    }
    Workload {
        solver,
        names,
        vars,
        mods,
    }
}

fn fan_in(m: usize, sum: bool) -> Workload {
    let mut solver = Solver::new();
    let vars: Vec<VariableId> = (0..m)
        .map(|j| solver.add_variable(format!("s{j}"), zero()))
        .collect();
    let total = solver.add_variable("total", zero());
    let mut map: HashMap<Name, VariableId> = vars
        .iter()
        .enumerate()
        .map(|(j, v)| (Name::new(&format!("s{j}")), *v))
        .collect();
    map.insert(Name::new("total"), total);
    let names = Names(map);
    let mut mods = Vec::new();
    for (j, &v) in vars.iter().enumerate() {
        mods.push(modifier(
            &names,
            v,
            ModifierKind::Set,
            10,
            &format!("({} % 10) + 1", j),
        ));
    }
    if sum {
        let text: Vec<String> = (0..m).map(|j| format!("s{j}")).collect();
        mods.push(modifier(
            &names,
            total,
            ModifierKind::Set,
            10,
            &text.join("+"),
        ));
    } else {
        for j in 0..m {
            mods.push(modifier(
                &names,
                total,
                ModifierKind::Add,
                20,
                &format!("s{j}"),
            ));
        }
    }
    let mut vars = vars;
    vars.push(total);
    Workload {
        solver,
        names,
        vars,
        mods,
    }
}

fn number(s: &Solver<Value>, v: VariableId) -> String {
    s.value(v).map(|x| x.to_string()).unwrap_or_default()
}

fn solve_all(w: &Workload) -> Solver<Value> {
    add_all(w.solver.clone(), w)
}

/// Adds every modifier of `w` to `s` (its variables already created) and solves.
fn add_all(mut s: Solver<Value>, w: &Workload) -> Solver<Value> {
    for m in &w.mods {
        s.add_modifier(m.clone());
    }
    let r = s.solve();
    assert!(!r.has_errors());
    s
}

/// Adds `extra`, solves (timed); removes it, solves (timed separately).
fn change(s: &mut Solver<Value>, extra: &Modifier<Value>) -> (Duration, Duration) {
    let t = Clock::start();
    let id: ModifierId = s.add_modifier(extra.clone()).unwrap();
    black_box(s.solve());
    let add = t.elapsed();
    let t = Clock::start();
    s.remove_modifier(id);
    black_box(s.solve());
    (add, t.elapsed())
}

/// Wall-clock time since creation.
struct Clock(Instant);

impl Clock {
    fn start() -> Clock {
        Clock(Instant::now())
    }
    fn elapsed(&self) -> Duration {
        self.0.elapsed()
    }
}

/// The best of several runs: on a shared, loaded machine the fastest run is the one least
/// disturbed by other processes (the reference's figures are medians of runs on an idle one).
fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[0]
}

/// Our best of `reps` runs of `f`.
fn measure(reps: usize, mut f: impl FnMut() -> Duration) -> Duration {
    median((0..reps).map(|_| f()).collect())
}

struct Row {
    what: String,
    ours: Duration,
    reference_ms: f64,
}

fn summary() -> Vec<Row> {
    let mut rows = Vec::new();
    for (n, refs) in [
        (1_000usize, [16.6, 22.8, 22.6, 9.2, 0.023, 0.099]),
        (10_000, [166.5, 878.9, 867.1, 285.1, 0.028, 0.106]),
    ] {
        let w = chain(n);
        let reps = if n == 1_000 { 21 } else { 7 };
        rows.push(Row {
            what: format!("chain N={n}: solve all (forward)"),
            ours: measure(reps, || {
                let fresh = w.solver.clone();
                let t = Clock::start();
                let solved = black_box(add_all(fresh, &w));
                let d = t.elapsed();
                drop(solved);
                d
            }),
            reference_ms: refs[0],
        });
        let mut s = solve_all(&w);
        let last = *w.vars.last().unwrap();
        assert_eq!(number(&s, last), if n == 1_000 { "774" } else { "990" });
        let at = |i: usize| modifier(&w.names, w.vars[i], ModifierKind::Add, 25, "1");
        let head = at(0);
        let id = s.add_modifier(head.clone()).unwrap();
        s.solve();
        assert_eq!(number(&s, last), if n == 1_000 { "1798" } else { "736" });
        s.remove_modifier(id);
        s.solve();
        let runs: Vec<(Duration, Duration)> = (0..reps).map(|_| change(&mut s, &head)).collect();
        rows.push(Row {
            what: format!("chain N={n}: head add (full cascade)"),
            ours: median(runs.iter().map(|r| r.0).collect()),
            reference_ms: refs[1],
        });
        rows.push(Row {
            what: format!("chain N={n}: head remove (full cascade)"),
            ours: median(runs.iter().map(|r| r.1).collect()),
            reference_ms: refs[2],
        });
        let middle = at(n / 2);
        rows.push(Row {
            what: format!("chain N={n}: middle add"),
            ours: measure(reps, || change(&mut s, &middle).0),
            reference_ms: refs[3],
        });
        let tail = at(n - 1);
        let runs: Vec<(Duration, Duration)> = (0..101).map(|_| change(&mut s, &tail)).collect();
        rows.push(Row {
            what: format!("chain N={n}: tail add"),
            ours: median(runs.iter().map(|r| r.0).collect()),
            reference_ms: refs[4],
        });
        rows.push(Row {
            what: format!("chain N={n}: tail remove"),
            ours: median(runs.iter().map(|r| r.1).collect()),
            reference_ms: refs[5],
        });
    }
    // Fan-in: solve all = sources + total; change = ADD 1 (P20) on s{M/2}, then revert.
    for (m, sum, refs) in [
        (1_000usize, true, [2.31 + 1.06, 0.411, 0.458]),
        (1_000, false, [2.27 + 435.0, 0.974, 1.07]),
        (10_000, true, [22.8 + 13.0, 6.03, 6.04]),
        (10_000, false, [24.3 + 37_513.0, 7.48, 7.49]),
    ] {
        let w = fan_in(m, sum);
        let variant = if sum { "sum" } else { "add" };
        let reps = if m == 1_000 { 21 } else { 7 };
        rows.push(Row {
            what: format!("fan-in {variant} M={m}: solve all"),
            ours: measure(reps, || {
                let fresh = w.solver.clone();
                let t = Clock::start();
                let solved = black_box(add_all(fresh, &w));
                let d = t.elapsed();
                drop(solved);
                d
            }),
            reference_ms: refs[0],
        });
        let mut s = solve_all(&w);
        let total = *w.vars.last().unwrap();
        assert_eq!(number(&s, total), if m == 1_000 { "5500" } else { "55000" });
        let extra = modifier(&w.names, w.vars[m / 2], ModifierKind::Add, 20, "1");
        let runs: Vec<(Duration, Duration)> =
            (0..reps * 3).map(|_| change(&mut s, &extra)).collect();
        rows.push(Row {
            what: format!("fan-in {variant} M={m}: change one source"),
            ours: median(runs.iter().map(|r| r.0).collect()),
            reference_ms: refs[1],
        });
        rows.push(Row {
            what: format!("fan-in {variant} M={m}: revert"),
            ours: median(runs.iter().map(|r| r.1).collect()),
            reference_ms: refs[2],
        });
    }
    rows
}

fn benches(c: &mut Criterion) {
    for n in [1_000usize, 10_000] {
        let w = chain(n);
        let mut g = c.benchmark_group(format!("chain-{n}"));
        g.sample_size(10);
        g.bench_function("solve-all", |b| {
            b.iter_batched(
                || w.solver.clone(),
                |s| add_all(s, &w),
                BatchSize::LargeInput,
            )
        });
        let mut s = solve_all(&w);
        for (label, i) in [("head", 0), ("middle", n / 2), ("tail", n - 1)] {
            let extra = modifier(&w.names, w.vars[i], ModifierKind::Add, 25, "1");
            g.bench_function(format!("{label}-add-and-remove"), |b| {
                b.iter(|| black_box(change(&mut s, &extra)))
            });
        }
        g.finish();
    }
    for m in [1_000usize, 10_000] {
        for sum in [true, false] {
            let w = fan_in(m, sum);
            let mut g =
                c.benchmark_group(format!("fan-in-{}-{m}", if sum { "sum" } else { "add" }));
            g.sample_size(10);
            g.bench_function("solve-all", |b| {
                b.iter_batched(
                    || w.solver.clone(),
                    |s| add_all(s, &w),
                    BatchSize::LargeInput,
                )
            });
            let mut s = solve_all(&w);
            let extra = modifier(&w.names, w.vars[m / 2], ModifierKind::Add, 20, "1");
            g.bench_function("change-and-revert", |b| {
                b.iter(|| black_box(change(&mut s, &extra)))
            });
            g.finish();
        }
    }
    println!(
        "\n{:<44} {:>12} {:>14} {:>10}",
        "workload", "rulebook ms", "reference ms", "ratio"
    );
    for r in summary() {
        let ours = r.ours.as_secs_f64() * 1e3;
        println!(
            "{:<44} {:>12.4} {:>14.3} {:>9.1}x",
            r.what,
            ours,
            r.reference_ms,
            r.reference_ms / ours.max(1e-9)
        );
    }
}

/// Runs on a thread with a 1 GiB stack, as the reference's benchmark (its 2 GiB thread):
/// the fan-in `sum` formula `s0+s1+…+s9999` is a 10,000-deep expression tree, and the
/// formula core's parser and checker recurse once per level.
fn main() {
    let worker = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(|| {
            let mut c = Criterion::default().configure_from_args();
            benches(&mut c);
            c.final_summary();
        })
        .expect("spawn the benchmark thread");
    worker.join().expect("the benchmark thread panicked");
}
