//! Unit tests of the solver with a small integer value type and closure formulas.

use super::*;
use crate::diagnostic::{Diagnostic, Severity};
use std::fmt;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq)]
struct N(i64);

impl fmt::Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl SolverValue for N {
    fn apply(kind: ModifierKind, p: &Self, a: &Self) -> Result<Self, String> {
        let r = match kind {
            ModifierKind::Set => Some(a.0),
            ModifierKind::Add => p.0.checked_add(a.0),
            ModifierKind::Multiply => p.0.checked_mul(a.0),
            ModifierKind::Divide => p.0.checked_div(a.0),
            ModifierKind::Max => Some(p.0.max(a.0)),
            ModifierKind::Min => Some(p.0.min(a.0)),
        };
        r.map(N).ok_or_else(|| "arithmetic failed".to_string())
    }
}

type F = dyn Fn(&[i64], i64) -> Option<i64> + Send + Sync;

/// A formula: reads `deps` and combines them (and `value()`) with `f`.
struct Fx {
    deps: Vec<VariableId>,
    f: Box<F>,
    text: String,
}

impl ValueSource<N> for Fx {
    fn dependencies(&self) -> &[VariableId] {
        &self.deps
    }
    fn eval(&self, vars: &dyn VarReader<N>, running: &N) -> Result<N, Box<Diagnostic>> {
        let args: Vec<i64> = self
            .deps
            .iter()
            .map(|d| vars.get(*d).map(|v| v.0).unwrap_or(0))
            .collect();
        (self.f)(&args, running.0).map(N).ok_or_else(|| {
            Box::new(Diagnostic::error(
                codes::MODIFIER_FAILED,
                Default::default(),
                "eval failed",
            ))
        })
    }
    fn text(&self) -> String {
        self.text.clone()
    }
}

fn constant(var: VariableId, kind: ModifierKind, priority: u32, v: i64) -> Modifier<N> {
    Modifier {
        var,
        kind,
        priority,
        source: Arc::new(Constant {
            value: N(v),
            text: v.to_string(),
        }),
        origin: Origin::default(),
    }
}

fn formula(
    var: VariableId,
    kind: ModifierKind,
    priority: u32,
    deps: Vec<VariableId>,
    text: &str,
    f: impl Fn(&[i64], i64) -> Option<i64> + Send + Sync + 'static,
) -> Modifier<N> {
    Modifier {
        var,
        kind,
        priority,
        source: Arc::new(Fx {
            deps,
            f: Box::new(f),
            text: text.into(),
        }),
        origin: Origin::default(),
    }
}

fn val(s: &Solver<N>, v: VariableId) -> i64 {
    s.value(v).map(|n| n.0).unwrap_or(i64::MIN)
}

use ModifierKind::*;

#[test]
fn hands_example_from_the_spec() {
    // SET 2 @50, ADD 1 @50, MULTIPLY 2 @100 → (2 + 1) × 2 = 6.
    let mut s = Solver::new();
    let hands = s.add_variable("Hands", N(0));
    s.add_modifier(constant(hands, Multiply, 100, 2));
    s.add_modifier(constant(hands, Add, 50, 1));
    s.add_modifier(constant(hands, Set, 50, 2));
    let r = s.solve();
    assert!(r.diagnostics.is_empty());
    assert_eq!(val(&s, hands), 6);
    let e = s.explain(hands).unwrap();
    let order: Vec<(ModifierKind, i64, i64)> = e
        .applied
        .iter()
        .map(|a| (a.kind, a.before.0, a.after.0))
        .collect();
    assert_eq!(order, vec![(Set, 0, 2), (Add, 2, 3), (Multiply, 3, 6)]);
}

#[test]
fn inherent_priority_beats_insertion_and_ties_keep_insertion() {
    let mut s = Solver::new();
    let a = s.add_variable("a", N(0));
    s.add_modifier(constant(a, Add, 0, 3));
    s.add_modifier(constant(a, Set, 0, 5));
    s.solve();
    assert_eq!(val(&s, a), 8);
    s.add_modifier(constant(a, Set, 0, 7));
    s.solve();
    assert_eq!(val(&s, a), 10, "the later SET wins among equal keys");
    s.add_modifier(constant(a, Set, 1, 1));
    s.solve();
    assert_eq!(val(&s, a), 1, "PRIORITY 1 runs after everything at 0");
}

#[test]
fn value_is_the_running_value() {
    let mut s = Solver::new();
    let a = s.add_variable("a", N(0));
    s.add_modifier(constant(a, Set, 0, 3));
    s.add_modifier(formula(a, Set, 1, vec![], "max(value()-1,1)", |_, v| {
        Some((v - 1).max(1))
    }));
    s.solve();
    assert_eq!(val(&s, a), 2);
}

#[test]
fn dependents_are_resolved_and_removal_restores() {
    let mut s = Solver::new();
    let a = s.add_variable("a", N(0));
    let b = s.add_variable("b", N(0));
    let m = s.add_modifier(constant(a, Set, 0, 5)).unwrap();
    s.add_modifier(formula(b, Set, 0, vec![a], "a*2", |x, _| {
        x[0].checked_mul(2)
    }));
    s.solve();
    assert_eq!((val(&s, a), val(&s, b)), (5, 10));
    s.remove_modifier(m);
    let r = s.solve();
    assert_eq!((val(&s, a), val(&s, b)), (0, 0));
    assert_eq!(r.evaluations, 2);
    assert!(s.remove_modifier(m).is_none());
    assert_eq!(s.dependencies(b), vec![a]);
}

#[test]
fn edges_are_dropped_when_no_modifier_needs_them() {
    let mut s = Solver::new();
    let a = s.add_variable("a", N(0));
    let b = s.add_variable("b", N(0));
    let m1 = s.add_modifier(formula(b, Add, 0, vec![a, a], "a+a", |x, _| {
        Some(x[0] + x[1])
    }));
    let m2 = s.add_modifier(formula(b, Add, 0, vec![a], "a", |x, _| Some(x[0])));
    assert_eq!(s.graph().edge_count(), 1);
    s.remove_modifier(m1.unwrap());
    assert_eq!(s.dependents(a), vec![b]);
    s.remove_modifier(m2.unwrap());
    assert!(s.dependents(a).is_empty());
}

/// The edge index by endpoints stays true while petgraph moves edges around on removal:
/// after removing modifiers in an order that frees early edge slots, every remaining
/// dependency is still found (and counted) by later additions and removals.
#[test]
fn edge_index_survives_removals_that_move_edges() {
    let mut s = Solver::new();
    let hub = s.add_variable("hub", N(1));
    let vars: Vec<VariableId> = (0..50)
        .map(|i| s.add_variable(format!("v{i}"), N(0)))
        .collect();
    let mut mods = Vec::new();
    for &v in &vars {
        mods.push(
            s.add_modifier(formula(v, Set, 0, vec![hub], "hub", |x, _| Some(x[0])))
                .unwrap(),
        );
    }
    // Remove every third (each removal moves the last edge into the freed slot).
    for (i, m) in mods.iter().enumerate() {
        if i % 3 == 0 {
            s.remove_modifier(*m);
        }
    }
    assert_eq!(s.graph().edge_count(), 50 - 17);
    // Adding a second reader of hub to each surviving variable reuses the edge…
    for (i, &v) in vars.iter().enumerate() {
        if i % 3 != 0 {
            s.add_modifier(formula(v, Add, 0, vec![hub], "hub", |x, _| Some(x[0])));
        }
    }
    assert_eq!(s.graph().edge_count(), 50 - 17);
    // …and removing the first reader keeps it, as the second still needs it.
    for (i, m) in mods.iter().enumerate() {
        if i % 3 != 0 {
            s.remove_modifier(*m);
        }
    }
    assert_eq!(s.graph().edge_count(), 50 - 17);
    s.add_modifier(constant(hub, Set, 0, 7));
    s.solve();
    for (i, &v) in vars.iter().enumerate() {
        let want = if i % 3 == 0 { 0 } else { 7 };
        assert_eq!(val(&s, v), want, "v{i}");
        let deps = if i % 3 == 0 { vec![] } else { vec![hub] };
        assert_eq!(s.dependencies(v), deps, "v{i}");
    }
}

#[test]
fn each_downstream_variable_is_evaluated_once_and_unchanged_values_stop() {
    // Diamond: a → b, a → c, b+c → d.
    let mut s = Solver::new();
    let a = s.add_variable("a", N(0));
    let b = s.add_variable("b", N(0));
    let c = s.add_variable("c", N(0));
    let d = s.add_variable("d", N(0));
    let e = s.add_variable("e", N(0));
    s.add_modifier(constant(a, Set, 0, 1));
    s.add_modifier(formula(b, Set, 0, vec![a], "a+1", |x, _| Some(x[0] + 1)));
    s.add_modifier(formula(c, Set, 0, vec![a], "a-a", |x, _| Some(x[0] - x[0])));
    s.add_modifier(formula(d, Set, 0, vec![b, c], "b+c", |x, _| {
        Some(x[0] + x[1])
    }));
    s.add_modifier(formula(e, Set, 0, vec![c], "c", |x, _| Some(x[0])));
    let r = s.solve();
    assert_eq!(r.evaluations, 5);
    assert_eq!(val(&s, d), 2);
    s.add_modifier(constant(a, Add, 0, 1));
    let r = s.solve();
    // a, b, c, d evaluated; e is skipped because c did not change.
    assert_eq!(r.evaluations, 4);
    assert_eq!(val(&s, d), 3);
    // Nothing dirty: nothing evaluated.
    assert_eq!(s.solve().evaluations, 0);
}

#[test]
fn channel_input_changes_the_start_value() {
    let mut s = Solver::new();
    let score = s.add_variable("StatScore", N(0));
    let m = s.add_variable("StatMod", N(0));
    s.add_modifier(formula(
        m,
        Set,
        0,
        vec![score],
        "floor((score-10)/2)",
        |x, _| Some((x[0] - 10).div_euclid(2)),
    ));
    s.set_start(score, N(15));
    s.solve();
    assert_eq!(val(&s, m), 2);
    s.set_start(score, N(8));
    let r = s.solve();
    assert_eq!((val(&s, m), r.evaluations), (-1, 2));
}

#[test]
fn failing_modifier_is_skipped_with_a_diagnostic() {
    let mut s = Solver::new();
    let a = s.add_variable("a", N(0));
    s.add_modifier(constant(a, Set, 0, 10));
    s.add_modifier(constant(a, Divide, 0, 0));
    s.add_modifier(constant(a, Add, 0, 1));
    let r = s.solve();
    assert_eq!(val(&s, a), 11);
    assert_eq!(r.diagnostics.len(), 1);
    assert_eq!(r.diagnostics[0].code, codes::MODIFIER_FAILED);
    assert_eq!(s.problems(a).len(), 1);
}

#[test]
fn self_cycle_that_changes_is_an_error_like_the_reference() {
    // SET 1; ADD a → the reference leaves a = 3 and reports an infinite loop.
    let mut s = Solver::new();
    let a = s.add_variable("a", N(0));
    s.add_modifier(constant(a, Set, 0, 1));
    s.solve();
    s.add_modifier(formula(a, Add, 0, vec![a], "a", |x, _| Some(x[0])));
    let r = s.solve();
    assert_eq!(val(&s, a), 3);
    assert!(r.has_errors());
    assert_eq!(r.diagnostics[0].code, codes::DEPENDENCY_CYCLE);
    assert!(r.diagnostics[0].message.contains("`a`"));
}

#[test]
fn three_cycle_names_every_variable() {
    let mut s = Solver::new();
    let a = s.add_variable("a", N(0));
    let b = s.add_variable("b", N(0));
    let c = s.add_variable("c", N(0));
    s.add_modifier(formula(a, Set, 0, vec![c], "c+1", |x, _| Some(x[0] + 1)));
    s.solve();
    s.add_modifier(formula(b, Set, 0, vec![a], "a", |x, _| Some(x[0])));
    s.solve();
    s.add_modifier(formula(c, Set, 0, vec![b], "b", |x, _| Some(x[0])));
    let r = s.solve();
    assert_eq!((val(&s, a), val(&s, b), val(&s, c)), (2, 2, 2));
    let d = &r.diagnostics[0];
    assert_eq!(d.code, codes::DEPENDENCY_CYCLE);
    for n in ["`a`", "`b`", "`c`"] {
        assert!(d.message.contains(n), "{}", d.message);
    }
    assert_eq!(d.notes.len(), 3);
}

#[test]
fn settled_cycle_is_a_warning() {
    let mut s = Solver::new();
    let a = s.add_variable("a", N(0));
    let b = s.add_variable("b", N(0));
    s.add_modifier(formula(a, Set, 0, vec![b], "b", |x, _| Some(x[0])));
    s.solve();
    s.add_modifier(formula(b, Set, 0, vec![a], "a", |x, _| Some(x[0])));
    let r = s.solve();
    assert!(!r.has_errors());
    assert_eq!(r.diagnostics[0].severity, Severity::Warning);
    assert_eq!(r.diagnostics[0].code, codes::SETTLED_CYCLE);
}

#[test]
fn variables_behind_a_cycle_are_still_solved() {
    let mut s = Solver::new();
    let a = s.add_variable("a", N(0));
    let b = s.add_variable("b", N(0));
    let after = s.add_variable("after", N(0));
    s.add_modifier(formula(a, Set, 0, vec![b], "b", |x, _| Some(x[0])));
    s.add_modifier(formula(b, Set, 0, vec![a], "a", |x, _| Some(x[0])));
    s.add_modifier(constant(b, Add, 0, 0));
    s.add_modifier(formula(after, Set, 0, vec![a], "a+5", |x, _| {
        Some(x[0] + 5)
    }));
    s.solve();
    assert_eq!(val(&s, after), 5);
}

#[test]
fn long_chain_has_no_recursion() {
    let n = 100_000;
    let mut s = Solver::new();
    let vars: Vec<VariableId> = (0..n)
        .map(|i| s.add_variable(format!("v{i}"), N(0)))
        .collect();
    s.add_modifier(constant(vars[0], Set, 0, 1));
    for w in vars.windows(2) {
        s.add_modifier(formula(w[1], Set, 0, vec![w[0]], "prev+1", |x, _| {
            x[0].checked_add(1)
        }));
    }
    let r = s.solve();
    assert_eq!(r.evaluations, n);
    assert_eq!(val(&s, vars[n - 1]), n as i64);
    // Change at the head: everything downstream, once each.
    s.add_modifier(constant(vars[0], Add, 0, 1));
    let r = s.solve();
    assert_eq!(r.evaluations, n);
    assert_eq!(val(&s, vars[n - 1]), n as i64 + 1);
    // Change at the tail: one evaluation.
    s.add_modifier(constant(vars[n - 1], Add, 0, 1));
    assert_eq!(s.solve().evaluations, 1);
    // Close the loop: a 100,000-variable cycle is found without recursion.
    s.add_modifier(formula(
        vars[0],
        Add,
        0,
        vec![vars[n - 1]],
        "tail",
        |x, _| Some(x[0]),
    ));
    let r = s.solve();
    assert!(r.has_errors());
}

/// The codes of the solver's current problems.
fn current(s: &Solver<N>) -> Vec<&'static str> {
    s.current_problems().iter().map(|d| d.code.id).collect()
}

#[test]
fn a_failure_a_later_change_fixes_is_no_longer_a_current_problem() {
    // a = 12 / b: fails while b is 0, fixed once a modifier sets b.
    let mut s = Solver::new();
    let a = s.add_variable("a", N(0));
    let b = s.add_variable("b", N(0));
    s.add_modifier(constant(a, Set, 0, 12));
    s.add_modifier(formula(a, Divide, 1, vec![b], "b", |x, _| Some(x[0])));
    let r = s.solve();
    assert_eq!(r.diagnostics.len(), 1);
    assert_eq!(current(&s), ["S0103"]);
    let fix = s.add_modifier(constant(b, Set, 0, 3)).unwrap();
    let r = s.solve();
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(val(&s, a), 4);
    assert!(current(&s).is_empty(), "{:?}", s.current_problems());
    assert!(s.problems(a).is_empty());
    // Removing the fix brings the failure back: a removal can introduce a problem.
    s.remove_modifier(fix);
    s.solve();
    assert_eq!(current(&s), ["S0103"]);
    assert_eq!(s.problems(a).len(), 1);
    // Changing the starting value (an input) fixes it again.
    s.set_start(b, N(6));
    s.solve();
    assert!(current(&s).is_empty(), "{:?}", s.current_problems());
    assert_eq!(val(&s, a), 2);
}

#[test]
fn a_failure_is_current_until_its_modifier_is_removed() {
    let mut s = Solver::new();
    let a = s.add_variable("a", N(0));
    s.add_modifier(constant(a, Set, 0, 10));
    let bad = s.add_modifier(constant(a, Divide, 0, 0)).unwrap();
    s.solve();
    // Another solve that does not touch `a` keeps its problem, once.
    let other = s.add_variable("other", N(0));
    s.add_modifier(constant(other, Set, 0, 1));
    let r = s.solve();
    assert!(r.diagnostics.is_empty());
    assert_eq!(current(&s), ["S0103"]);
    s.remove_modifier(bad);
    s.solve();
    assert!(current(&s).is_empty(), "{:?}", s.current_problems());
}

#[test]
fn a_cycle_broken_by_a_removal_is_no_longer_a_current_problem() {
    // a = b + 1, b = a: does not settle (S0101), reported once for the component.
    let mut s = Solver::new();
    let a = s.add_variable("a", N(0));
    let b = s.add_variable("b", N(0));
    let c = s.add_variable("c", N(0));
    let ab = s
        .add_modifier(formula(a, Set, 0, vec![b], "b+1", |x, _| Some(x[0] + 1)))
        .unwrap();
    s.add_modifier(formula(b, Set, 0, vec![a], "a", |x, _| Some(x[0])));
    s.add_modifier(formula(c, Set, 0, vec![b], "b", |x, _| Some(x[0])));
    s.solve();
    assert_eq!(current(&s), ["S0101"]);
    // A solve that goes through the cycle again replaces its report with what it found
    // (here nothing changed, so it settled): one report, not two.
    s.set_start(a, N(5));
    s.solve();
    assert_eq!(current(&s), ["S0102"]);
    s.remove_modifier(ab);
    let r = s.solve();
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert!(current(&s).is_empty(), "{:?}", s.current_problems());
    assert_eq!((val(&s, a), val(&s, b), val(&s, c)), (5, 5, 5));
}

#[test]
fn a_settled_cycle_is_current_until_broken_and_shrinks_with_its_component() {
    // a = b, b = c, c = a, b = a: one component {a, b, c} that settles (S0102).
    let mut s = Solver::new();
    let a = s.add_variable("a", N(0));
    let b = s.add_variable("b", N(0));
    let c = s.add_variable("c", N(0));
    s.add_modifier(formula(a, Set, 0, vec![b], "b", |x, _| Some(x[0])));
    s.add_modifier(formula(b, Max, 0, vec![c], "c", |x, _| Some(x[0])));
    let ca = s
        .add_modifier(formula(c, Set, 0, vec![a], "a", |x, _| Some(x[0])))
        .unwrap();
    s.add_modifier(formula(b, Max, 1, vec![a], "a", |x, _| Some(x[0])));
    s.solve();
    let all = s.current_problems();
    assert_eq!(current(&s), ["S0102"]);
    assert!(all[0].message.contains("`a`, `b`, `c`"), "{all:?}");
    // Removing c = a leaves the cycle {a, b}: the old report goes, the new one is current.
    s.remove_modifier(ca);
    s.solve();
    let now = s.current_problems();
    assert_eq!(current(&s), ["S0102"]);
    assert!(now[0].message.contains("`a`, `b` depend"), "{now:?}");
}

mod incremental {
    use super::*;
    use proptest::prelude::*;

    /// A modifier description: target variable, kind, priority, constant, and which lower
    /// variable (if any) it reads — always a lower index, so the graph stays acyclic.
    #[derive(Clone, Debug)]
    struct Spec {
        var: usize,
        kind: ModifierKind,
        priority: u32,
        constant: i64,
        reads: Option<usize>,
    }

    fn build(spec: &Spec, vars: &[VariableId]) -> Modifier<N> {
        let var = vars[spec.var];
        let c = spec.constant;
        match spec.reads {
            Some(r) if r < spec.var => formula(
                var,
                spec.kind,
                spec.priority,
                vec![vars[r]],
                "x+c",
                move |x, v| x[0].checked_add(c)?.checked_add(v % 3),
            ),
            _ => constant(var, spec.kind, spec.priority, c),
        }
    }

    fn spec() -> impl Strategy<Value = Spec> {
        (
            0usize..8,
            prop::sample::select(ModifierKind::ALL.to_vec()),
            0u32..3,
            -5i64..6,
            prop::option::of(0usize..8),
        )
            .prop_map(|(var, kind, priority, constant, reads)| Spec {
                var,
                // Divide stays: dividing by 0 fails, so the current problems are compared too.
                kind,
                priority,
                constant,
                reads,
            })
    }

    #[derive(Clone, Debug)]
    enum Op {
        Add(Spec),
        Remove(usize),
        Input(usize, i64),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            3 => spec().prop_map(Op::Add),
            1 => (0usize..64).prop_map(Op::Remove),
            1 => (0usize..8, -3i64..20).prop_map(|(v, x)| Op::Input(v, x)),
        ]
    }

    proptest! {
        #[test]
        fn incremental_equals_from_scratch(ops in prop::collection::vec(op(), 1..40)) {
            let mut inc = Solver::new();
            let vars: Vec<VariableId> = (0..8).map(|i| inc.add_variable(format!("v{i}"), N(0))).collect();
            let mut live: Vec<(ModifierId, Spec)> = Vec::new();
            let mut inputs = [0i64; 8];
            for op in ops {
                match op {
                    Op::Add(spec) => {
                        let id = inc.add_modifier(build(&spec, &vars)).unwrap();
                        live.push((id, spec));
                    }
                    Op::Remove(i) => {
                        if !live.is_empty() {
                            let (id, _) = live.remove(i % live.len());
                            inc.remove_modifier(id);
                        }
                    }
                    Op::Input(v, x) => {
                        inputs[v] = x;
                        inc.set_start(vars[v], N(x));
                    }
                }
                inc.solve();
                // From scratch, same modifiers in the same insertion order.
                let mut fresh = Solver::new();
                let fvars: Vec<VariableId> = (0..8).map(|i| fresh.add_variable(format!("v{i}"), N(inputs[i]))).collect();
                for (_, spec) in &live {
                    fresh.add_modifier(build(spec, &fvars));
                }
                fresh.solve();
                for i in 0..8 {
                    prop_assert_eq!(inc.value(vars[i]), fresh.value(fvars[i]), "variable v{}", i);
                }
                prop_assert_eq!(inc.current_problems(), fresh.current_problems());
            }
        }
    }
}

#[test]
fn cycle_diagnostic_renders_with_every_closing_modifier() {
    use crate::source::{SourceFile, SourceMap, Span, TextEncoding};
    let text =
        "Strength\tMODIFY:Strength|SET|Dexterity+1\nDexterity\tMODIFY:Dexterity|SET|Strength\n";
    let mut map = SourceMap::new();
    let file = map.add(SourceFile::new("stats.lst", text, TextEncoding::Utf8));
    let span_of = |needle: &str| {
        let start = text.find(needle).unwrap();
        Span::new(file, start..start + needle.len())
    };
    let mut s = Solver::new();
    let strength = s.add_variable("Strength", N(0));
    let dex = s.add_variable("Dexterity", N(0));
    let mut m1 = formula(strength, Set, 0, vec![dex], "Dexterity+1", |x, _| {
        Some(x[0] + 1)
    });
    m1.origin.span = Some(span_of("MODIFY:Strength|SET|Dexterity+1"));
    let mut m2 = formula(dex, Set, 0, vec![strength], "Strength", |x, _| Some(x[0]));
    m2.origin.span = Some(span_of("MODIFY:Dexterity|SET|Strength"));
    s.add_modifier(m1);
    s.solve();
    s.add_modifier(m2);
    let r = s.solve();
    assert!(r.has_errors());
    let rendered = crate::diagnostic::render(&r.diagnostics, &map, false);
    insta::assert_snapshot!(rendered);
}

#[test]
fn spanless_diagnostics_render_without_a_source_excerpt() {
    // Modifiers added through the API without a place in a file: the report has no excerpt
    // (not one of the first file in the map), and the closing modifiers are notes.
    let mut map = crate::source::SourceMap::new();
    map.add(crate::source::SourceFile::new(
        "unrelated.lst",
        "first line\n",
        crate::source::TextEncoding::Utf8,
    ));
    let mut s = Solver::new();
    let a = s.add_variable("a", N(0));
    let b = s.add_variable("b", N(0));
    s.add_modifier(constant(a, Set, 0, 10));
    s.add_modifier(constant(a, Divide, 0, 0));
    s.add_modifier(formula(b, Add, 0, vec![b], "b+1", |x, _| Some(x[0] + 1)));
    let r = s.solve();
    let codes: Vec<&str> = r.diagnostics.iter().map(|d| d.code.id).collect();
    assert_eq!(codes, ["S0103", "S0101"]);
    let rendered = crate::diagnostic::render(&r.diagnostics, &map, false);
    assert!(!rendered.contains("first line"), "{rendered}");
    insta::assert_snapshot!(rendered);
}
