//! Cycles that object modifiers close as soon as those objects are granted together.
//!
//! A graph over variable instances as the runtime creates them: a global variable is one
//! node; a local variable is one node per object whose instance holds it (an equipment's
//! parts share their equipment's node). Each modifier adds an edge from every variable its
//! formula reads to the variable it sets, for every instance it can be in force on: a
//! GLOBALMODIFIER line always, a MODIFY (or `PART:n`) while its object is granted, a
//! MODIFYOTHER while its object and the addressed object are both granted. An edge remembers
//! those objects (its *condition*).
//!
//! Each strongly connected component of that graph is a cycle some characters may have:
//!
//! * closed by GLOBALMODIFIER lines alone: every character has it, and `data_alone`
//!   reports it from the runtime;
//! * closed by the modifiers of one object (with GLOBALMODIFIER lines): every character
//!   granted that object has it. The runtime decides: the object is granted alone to the
//!   character with nothing granted, and the cycle the solver then reports is reported as it
//!   would be — `S0101` (error) when its values do not settle, `S0102` (warning) when they
//!   do;
//! * closed only by the modifiers of several objects together: a character granted all of
//!   them has it. The objects are granted together to the character with nothing granted,
//!   and each cycle the solver reports is a warning, `S0105`, naming the objects (whether
//!   one character can have them all is the data's business, not the check's).
//!
//! Granting through the runtime also confirms every cycle: an approximation of the graph
//! (parts sharing a node) can only make a component the runtime then does not close.

use crate::character::Character;
use crate::diagnostic::{Diagnostic, Severity};
use crate::fxhash::FxHashMap;
use crate::model::{
    Applies, Dataset, Modifier, ModifierValue, ObjectId, ObjectKind, ScopeId, Selector, VarId,
};
use crate::solve::codes::OBJECTS_CYCLE;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::HashSet;

/// A variable instance: the variable and the object whose instance holds it (`None` for
/// the global instance).
type Node = (VarId, Option<ObjectId>);

/// One dependency edge: `from` is read by the modifier that sets `to`, in force while every
/// object of `condition` is granted.
struct Edge {
    from: NodeIndex,
    to: NodeIndex,
    condition: Vec<ObjectId>,
}

/// The cycles object modifiers close, as the runtime reports them when the objects are
/// granted to `base` (the character with nothing granted, whose problems are
/// `base_problems`).
pub(super) fn find(
    ds: &Dataset,
    base: &Character,
    base_problems: &[Diagnostic],
) -> Vec<Diagnostic> {
    let (graph, edges) = build(ds);
    let all: Vec<NodeIndex> = graph.node_indices().collect();
    let components = crate::solve::tarjan_scc_iterative(&graph, &all, &|_| true);
    let mut out = Vec::new();
    let mut seen: HashSet<(&'static str, crate::source::Span, String)> = base_problems
        .iter()
        .map(|d| (d.code.id, d.span, d.message.clone()))
        .collect();
    for inner in edges_within(&graph, &components, &edges) {
        if inner.is_empty() {
            continue; // one node, no self-loop: no cycle.
        }
        // A cycle GLOBALMODIFIER lines close alone is every character's (reported from the
        // character with nothing granted).
        if has_cycle(&inner, |c| c.is_empty()) {
            continue;
        }
        let mut objects: Vec<ObjectId> = inner
            .iter()
            .flat_map(|e| e.condition.iter().copied())
            .collect();
        objects.sort_unstable();
        objects.dedup();
        let mut found = Vec::new();
        for &o in &objects {
            if has_cycle(&inner, |c| c.iter().all(|x| *x == o)) {
                for d in closed(base, &[o], &mut seen) {
                    found.push(alone(ds, o, d));
                }
            }
        }
        if found.is_empty() {
            for d in closed(base, &objects, &mut seen) {
                found.push(together(ds, &objects, d));
            }
        }
        out.extend(found);
    }
    out
}

/// The edges inside each component (both ends in it), in the order of `components`: one
/// pass over the edges, however many components there are (a data set with 100,000
/// variables has 100,000 components, nearly all single nodes without an edge).
fn edges_within<'e>(
    graph: &DiGraph<(), ()>,
    components: &[Vec<NodeIndex>],
    edges: &'e [Edge],
) -> Vec<Vec<&'e Edge>> {
    let mut component_of = vec![usize::MAX; graph.node_count()];
    for (i, component) in components.iter().enumerate() {
        for n in component {
            if let Some(slot) = component_of.get_mut(n.index()) {
                *slot = i;
            }
        }
    }
    let mut within: Vec<Vec<&Edge>> = components.iter().map(|_| Vec::new()).collect();
    for e in edges {
        let from = component_of.get(e.from.index()).copied();
        let to = component_of.get(e.to.index()).copied();
        if let (Some(a), Some(b)) = (from, to)
            && a == b
            && let Some(bucket) = within.get_mut(a)
        {
            bucket.push(e);
        }
    }
    within
}

/// The dependency graph of every modifier over the instances it can be in force on.
fn build(ds: &Dataset) -> (DiGraph<(), ()>, Vec<Edge>) {
    let mut graph = DiGraph::new();
    let mut index: FxHashMap<Node, NodeIndex> = FxHashMap::default();
    let mut edges = Vec::new();
    let mut node = |graph: &mut DiGraph<(), ()>, n: Node| {
        *index.entry(n).or_insert_with(|| graph.add_node(()))
    };
    let owner = |v: VarId, instance: Option<ObjectId>| match ds.variable(v) {
        Some(var) if var.scope != ScopeId::GLOBAL => instance,
        _ => None,
    };
    for m in &ds.modifiers {
        let ModifierValue::Formula(f) = &m.value else {
            continue;
        };
        let Some(compiled) = &f.compiled else {
            continue;
        };
        if compiled.dependencies().is_empty() {
            continue;
        }
        let source = m
            .source
            .filter(|o| ds.object_by_id(*o).is_some_and(|o| !o.forgotten));
        if m.source.is_some() && source.is_none() {
            continue; // a forgotten object's modifier is never in force.
        }
        // (instance the modifier is in force on, condition)
        let places: Vec<(Option<ObjectId>, Vec<ObjectId>)> = match &m.applies {
            Applies::Global => vec![(None, Vec::new())],
            Applies::Own | Applies::Part(_) => match source {
                Some(o) => vec![(Some(o), vec![o])],
                None => Vec::new(),
            },
            Applies::Other { .. } => addressed(ds, m)
                .into_iter()
                .map(|t| {
                    let mut condition: Vec<ObjectId> = source.into_iter().chain([t]).collect();
                    condition.sort_unstable();
                    condition.dedup();
                    (Some(t), condition)
                })
                .collect(),
        };
        for (instance, condition) in places {
            let to = node(&mut graph, (m.variable, owner(m.variable, instance)));
            for r in compiled.dependencies() {
                let v = VarId(r.0);
                let from = node(&mut graph, (v, owner(v, instance)));
                graph.add_edge(from, to, ());
                edges.push(Edge {
                    from,
                    to,
                    condition: condition.clone(),
                });
            }
        }
    }
    (graph, edges)
}

/// The objects a MODIFYOTHER addresses (none for other modifiers).
pub(super) fn addressed(ds: &Dataset, m: &Modifier) -> Vec<ObjectId> {
    let Applies::Other {
        scope, selector, ..
    } = &m.applies
    else {
        return Vec::new();
    };
    ds.objects_in(*scope)
        .filter(|t| match selector {
            Selector::All => true,
            Selector::Group(g) => t.groups().contains(g),
            Selector::Key(k) => ds.key_of(t) == k,
        })
        .map(|t| t.id)
        .collect()
}

/// Whether the edges whose condition `keep` accepts close a cycle.
fn has_cycle(edges: &[&Edge], keep: impl Fn(&[ObjectId]) -> bool) -> bool {
    let mut graph: DiGraph<(), ()> = DiGraph::new();
    let mut index: FxHashMap<NodeIndex, NodeIndex> = FxHashMap::default();
    let mut node = |graph: &mut DiGraph<(), ()>, n: NodeIndex| {
        *index.entry(n).or_insert_with(|| graph.add_node(()))
    };
    for e in edges.iter().filter(|e| keep(&e.condition)) {
        if e.from == e.to {
            return true;
        }
        let (a, b) = (node(&mut graph, e.from), node(&mut graph, e.to));
        graph.add_edge(a, b, ());
    }
    let all: Vec<NodeIndex> = graph.node_indices().collect();
    crate::solve::tarjan_scc_iterative(&graph, &all, &|_| true)
        .iter()
        .any(|c| c.len() > 1)
}

/// The cycles the runtime reports once `objects` are granted to `base` that it did not
/// report before (nor were found already: `seen`).
fn closed(
    base: &Character,
    objects: &[ObjectId],
    seen: &mut HashSet<(&'static str, crate::source::Span, String)>,
) -> Vec<Diagnostic> {
    let mut c = base.clone();
    for &o in objects {
        c.grant(o);
    }
    c.problems()
        .into_iter()
        .filter(|d| d.code.id == "S0101" || d.code.id == "S0102")
        .filter(|d| seen.insert((d.code.id, d.span, d.message.clone())))
        .collect()
}

/// How a report names an object: its kind and key (``ABILITY `Power Attack` ``).
pub(super) fn object_name(ds: &Dataset, id: ObjectId) -> String {
    match ds.object_by_id(id) {
        Some(o) => match &o.kind {
            ObjectKind::File(k) => format!("{} `{}`", k.token(), ds.key_of(o)),
            ObjectKind::Dynamic(category) => {
                format!(
                    "{} `{}`",
                    category.as_str().to_ascii_uppercase(),
                    ds.key_of(o)
                )
            }
        },
        None => "an object".to_owned(),
    }
}

/// A cycle that `object` closes alone: the runtime's own report, said to happen when the
/// object is granted.
fn alone(ds: &Dataset, object: ObjectId, mut d: Diagnostic) -> Diagnostic {
    d.message = format!("when {} is granted, {}", object_name(ds, object), d.message);
    d.with_note("found by `rulebook check`, which grants each object that closes a cycle alone")
}

/// A cycle that `objects` close together: a warning naming them, with the runtime's report
/// (its closing modifiers labelled) and verdict.
fn together(ds: &Dataset, objects: &[ObjectId], runtime: Diagnostic) -> Diagnostic {
    let names: Vec<String> = objects.iter().map(|&o| object_name(ds, o)).collect();
    let list = match names.as_slice() {
        [a, b] => format!("{a} and {b}"),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    };
    let verdict = if runtime.code.id == "S0101" {
        "granted together, their values do not settle (the runtime reports S0101, an error)"
    } else {
        "granted together, their values settle for now (the runtime reports S0102)"
    };
    let mut d = Diagnostic::new(
        Severity::Warning,
        OBJECTS_CYCLE,
        runtime.span,
        format!("when {list} are granted together, {}", runtime.message),
    )
    .with_label(runtime.primary_label.clone())
    .with_help(
        "if one character can have all of these objects, remove one of the labelled modifiers \
         or make it read a variable outside the cycle",
    )
    .with_note(verdict);
    for l in runtime.labels {
        d = d.with_secondary(l.span, l.message);
    }
    d.notes.extend(runtime.notes);
    d
}
