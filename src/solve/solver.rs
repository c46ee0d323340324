//! The incremental solver.
//!
//! One graph node per variable instance, one edge `dependency → variable` for every distinct
//! variable a modifier reads. Adding or removing a modifier, or changing a variable's
//! starting value (a channel input), marks the variable dirty; [`Solver::solve`] then
//! re-evaluates only what is downstream of the dirty variables, in topological order, each
//! variable at most once, and stops propagating where a value did not change.
//!
//! Cycles: the part of the affected subgraph that has no topological order is split into
//! strongly connected components (Tarjan, iterative). A cyclic component is evaluated the
//! way the reference does (propagate each change depth-first; re-entering a variable that is
//! still propagating is a non-settling cycle) and reported: an error ([`DEPENDENCY_CYCLE`])
//! when its values do not settle, a warning ([`SETTLED_CYCLE`]) when they do.
//!
//! Problems: the [`SolveReport`] of one solve lists what that solve found (each evaluation it
//! did, each cyclic component it went through). [`Solver::current_problems`] is the state:
//! each variable keeps the problems of its last evaluation (replaced when it is evaluated
//! again, which happens whenever its modifiers, its starting value or what it reads change)
//! and, for the lowest-numbered member of a cyclic component, that cycle's report (cleared
//! whenever the variable is re-solved outside a cycle, e.g. after a removal broke it).

use super::codes::{DEPENDENCY_CYCLE, MODIFIER_FAILED, SETTLED_CYCLE};
use super::explain::{AppliedModifier, Explanation, ReadVariable};
use super::modifier::{Modifier, ModifierId, SolverValue, VarReader, VariableId};
use crate::diagnostic::{Diagnostic, Severity};
use crate::model::fxhash::FxHashMap;
use crate::source::Span;
use petgraph::Direction;
use petgraph::graph::{DiGraph, EdgeIndex, NodeIndex};
use std::collections::BTreeMap;
use std::sync::Arc;

/// One variable instance.
#[derive(Clone, Debug)]
struct VarState<V> {
    name: Arc<str>,
    /// The starting value: the format default, or a channel input.
    start: V,
    /// The current (solved) value.
    value: V,
    /// Modifiers in application order: `(order key, id)` ascending.
    modifiers: Vec<Slot<V>>,
    /// Problems found the last time this variable was evaluated.
    problems: Vec<Diagnostic>,
}

/// A modifier as the hot loop needs it, stored inline in its variable's list (one pointer
/// chase fewer per modifier than going through the modifier table).
#[derive(Clone)]
struct Slot<V> {
    key: u64,
    id: ModifierId,
    kind: super::modifier::ModifierKind,
    source: Arc<dyn super::modifier::ValueSource<V>>,
}

impl<V> std::fmt::Debug for Slot<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}#{}", self.id, self.key)
    }
}

#[derive(Clone, Debug)]
struct Entry<V> {
    modifier: Modifier<V>,
}

/// What one call of [`Solver::solve`] did. Its diagnostics are what that solve found, in
/// the order found (a variable evaluated twice in a cycle may report twice); the problems of
/// the solver as it is now are [`Solver::current_problems`].
#[derive(Clone, Debug, Default)]
pub struct SolveReport {
    /// Problems found: modifiers that failed to evaluate, cycles.
    pub diagnostics: Vec<Diagnostic>,
    /// How many variable evaluations were done (each variable at most once outside cycles).
    pub evaluations: usize,
    /// Variables whose value changed.
    pub changed: Vec<VariableId>,
}

impl SolveReport {
    /// True when a diagnostic of error severity was reported.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// Scratch space reused between solves; "stamped" arrays avoid clearing per solve, so a
/// change at the tail of a long chain costs time proportional to what it affects.
#[derive(Clone, Debug, Default)]
struct Scratch {
    epoch: u32,
    affected: Vec<u32>,
    input_changed: Vec<u32>,
    done: Vec<u32>,
    indegree: Vec<u32>,
}

impl Scratch {
    fn grow(&mut self, n: usize) {
        for v in [
            &mut self.affected,
            &mut self.input_changed,
            &mut self.done,
            &mut self.indegree,
        ] {
            if v.len() < n {
                v.resize(n, 0);
            }
        }
    }
    fn next_epoch(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            for v in [&mut self.affected, &mut self.input_changed, &mut self.done] {
                v.iter_mut().for_each(|x| *x = 0);
            }
            self.epoch = 1;
        }
    }
    fn is(&self, which: &[u32], i: usize) -> bool {
        which.get(i).copied() == Some(self.epoch)
    }
}

fn stamp(which: &mut [u32], i: usize, epoch: u32) {
    if let Some(x) = which.get_mut(i) {
        *x = epoch;
    }
}

/// The solver: variables, modifiers, dependency graph, values.
#[derive(Clone, Debug)]
pub struct Solver<V> {
    graph: DiGraph<(), u32>,
    /// The edge `from → to` of the graph, by its endpoints: petgraph's `find_edge` walks
    /// every out-edge of `from`, so a variable read by N others made adding N modifiers N².
    edges: FxHashMap<(u32, u32), EdgeIndex>,
    vars: Vec<VarState<V>>,
    entries: Vec<Option<Entry<V>>>,
    dirty: Vec<VariableId>,
    dirty_flag: Vec<bool>,
    scratch: Scratch,
    /// The report of each cyclic component as of the last solve that went through it, by
    /// its lowest-numbered member (kept out of [`VarState`], which the hot loop walks).
    cycles: BTreeMap<VariableId, Diagnostic>,
}

impl<V: SolverValue> Default for Solver<V> {
    fn default() -> Self {
        Self::new()
    }
}

struct Reader<'a, V>(&'a [VarState<V>]);

impl<V> VarReader<V> for Reader<'_, V> {
    fn get(&self, var: VariableId) -> Option<&V> {
        self.0.get(var.index()).map(|s| &s.value)
    }
}

fn set_flag(flags: &mut [bool], i: usize, value: bool) {
    if let Some(f) = flags.get_mut(i) {
        *f = value;
    }
}

fn node(v: VariableId) -> NodeIndex {
    NodeIndex::new(v.index())
}

fn var_of(n: NodeIndex) -> VariableId {
    VariableId(u32::try_from(n.index()).unwrap_or(u32::MAX))
}

impl<V: SolverValue> Solver<V> {
    /// An empty solver.
    pub fn new() -> Self {
        Solver {
            graph: DiGraph::new(),
            edges: FxHashMap::default(),
            vars: Vec::new(),
            entries: Vec::new(),
            dirty: Vec::new(),
            dirty_flag: Vec::new(),
            scratch: Scratch::default(),
            cycles: BTreeMap::new(),
        }
    }

    /// Adds a variable instance named `name` (for messages) starting at `start` (its format's
    /// default). Its value is `start` until a modifier changes it.
    pub fn add_variable(&mut self, name: impl Into<Arc<str>>, start: V) -> VariableId {
        let id = VariableId(u32::try_from(self.vars.len()).unwrap_or(u32::MAX));
        self.graph.add_node(());
        self.vars.push(VarState {
            name: name.into(),
            value: start.clone(),
            start,
            modifiers: Vec::new(),
            problems: Vec::new(),
        });
        self.dirty_flag.push(false);
        id
    }

    /// How many variables there are.
    pub fn variable_count(&self) -> usize {
        self.vars.len()
    }

    /// The name a variable was added with.
    pub fn name(&self, var: VariableId) -> Option<&str> {
        self.vars.get(var.index()).map(|s| &*s.name)
    }

    /// The current value of a variable (as of the last [`solve`](Self::solve)).
    pub fn value(&self, var: VariableId) -> Option<&V> {
        self.vars.get(var.index()).map(|s| &s.value)
    }

    /// Problems found the last time `var` was evaluated (failed modifiers). Its cycle, if
    /// any, is in [`Solver::current_problems`].
    pub fn problems(&self, var: VariableId) -> &[Diagnostic] {
        self.vars
            .get(var.index())
            .map(|s| s.problems.as_slice())
            .unwrap_or(&[])
    }

    /// The problems of the solver as it is now (as of the last [`solve`](Self::solve)):
    /// every variable's failed modifiers from its last evaluation and every cycle in the
    /// graph, by variable (a cycle at its lowest-numbered member, before that member's own
    /// failures), each diagnostic once. Problems that a later change fixed are gone — this
    /// is the same whether the solver got here step by step or was solved from scratch.
    pub fn current_problems(&self) -> Vec<Diagnostic> {
        let mut out: Vec<Diagnostic> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (index, state) in self.vars.iter().enumerate() {
            let cycle = u32::try_from(index)
                .ok()
                .and_then(|i| self.cycles.get(&VariableId(i)));
            for d in cycle.into_iter().chain(&state.problems) {
                if seen.insert((d.code.id, d.span, d.message.as_str())) {
                    out.push(d.clone());
                }
            }
        }
        out
    }

    /// Changes the starting value of a variable (a channel input, or a new default).
    pub fn set_start(&mut self, var: VariableId, start: V) {
        if let Some(s) = self.vars.get_mut(var.index()) {
            if s.start != start {
                s.start = start;
                self.mark_dirty(var);
            }
        }
    }

    fn mark_dirty(&mut self, var: VariableId) {
        if let Some(f) = self.dirty_flag.get_mut(var.index()) {
            if !*f {
                *f = true;
                self.dirty.push(var);
            }
        }
    }

    /// Adds a modifier; its variable becomes dirty. Returns `None` when the modifier names a
    /// variable this solver does not have (as target or dependency).
    pub fn add_modifier(&mut self, modifier: Modifier<V>) -> Option<ModifierId> {
        let n = self.vars.len();
        let target = modifier.var;
        if target.index() >= n {
            return None;
        }
        // Edge weights count dependency occurrences; removal decrements the same ones.
        let deps = modifier.source.dependencies();
        if deps.iter().any(|d| d.index() >= n) {
            return None;
        }
        let id = ModifierId(u32::try_from(self.entries.len()).ok()?);
        for &d in deps {
            match self.edges.get(&(d.0, target.0)) {
                Some(&e) => {
                    if let Some(w) = self.graph.edge_weight_mut(e) {
                        *w = w.saturating_add(1);
                    }
                }
                None => {
                    let e = self.graph.add_edge(node(d), node(target), 1);
                    self.edges.insert((d.0, target.0), e);
                }
            }
        }
        let key = modifier.order_key();
        if let Some(state) = self.vars.get_mut(target.index()) {
            let pos = state
                .modifiers
                .partition_point(|s| (s.key, s.id) < (key, id));
            state.modifiers.insert(
                pos,
                Slot {
                    key,
                    id,
                    kind: modifier.kind,
                    source: Arc::clone(&modifier.source),
                },
            );
        }
        self.entries.push(Some(Entry { modifier }));
        self.mark_dirty(target);
        Some(id)
    }

    /// Removes a modifier; its variable becomes dirty. Returns the modifier, or `None` if it
    /// was already removed.
    pub fn remove_modifier(&mut self, id: ModifierId) -> Option<Modifier<V>> {
        let entry = self.entries.get_mut(id.0 as usize)?.take()?;
        let target = entry.modifier.var;
        for &d in entry.modifier.source.dependencies() {
            if let Some(&e) = self.edges.get(&(d.0, target.0)) {
                let remaining = match self.graph.edge_weight_mut(e) {
                    Some(w) => {
                        *w = w.saturating_sub(1);
                        *w
                    }
                    None => 0,
                };
                if remaining == 0 {
                    self.remove_edge(d, target, e);
                }
            }
        }
        if let Some(state) = self.vars.get_mut(target.index()) {
            state.modifiers.retain(|s| s.id != id);
        }
        self.mark_dirty(target);
        Some(entry.modifier)
    }

    /// Removes the edge `e` (`from → to`). petgraph moves the last edge into the freed index,
    /// so that edge's entry in [`Solver::edges`] is updated.
    fn remove_edge(&mut self, from: VariableId, to: VariableId, e: EdgeIndex) {
        self.edges.remove(&(from.0, to.0));
        self.graph.remove_edge(e);
        if let Some((a, b)) = self.graph.edge_endpoints(e) {
            self.edges.insert((var_of(a).0, var_of(b).0), e);
        }
    }

    /// The modifier with identity `id`, if it is in force.
    pub fn modifier(&self, id: ModifierId) -> Option<&Modifier<V>> {
        self.entry(id).map(|e| &e.modifier)
    }

    fn entry(&self, id: ModifierId) -> Option<&Entry<V>> {
        self.entries.get(id.0 as usize).and_then(Option::as_ref)
    }

    /// The modifiers of `var` in application order.
    pub fn modifiers_of(&self, var: VariableId) -> Vec<ModifierId> {
        self.vars
            .get(var.index())
            .map(|s| s.modifiers.iter().map(|m| m.id).collect())
            .unwrap_or_default()
    }

    /// The variables `var`'s modifiers read (graph predecessors).
    pub fn dependencies(&self, var: VariableId) -> Vec<VariableId> {
        let mut out: Vec<VariableId> = self
            .graph
            .neighbors_directed(node(var), Direction::Incoming)
            .map(var_of)
            .collect();
        out.sort_unstable();
        out
    }

    /// The variables whose modifiers read `var` (graph successors).
    pub fn dependents(&self, var: VariableId) -> Vec<VariableId> {
        let mut out: Vec<VariableId> = self
            .graph
            .neighbors_directed(node(var), Direction::Outgoing)
            .map(var_of)
            .collect();
        out.sort_unstable();
        out
    }

    /// The dependency graph (node index = [`VariableId`] index; edge weight = how many
    /// modifiers need the edge).
    pub fn graph(&self) -> &DiGraph<(), u32> {
        &self.graph
    }

    /// Marks every variable dirty, so the next [`solve`](Self::solve) recomputes everything.
    pub fn invalidate_all(&mut self) {
        for i in 0..self.vars.len() {
            self.mark_dirty(VariableId(u32::try_from(i).unwrap_or(u32::MAX)));
        }
    }

    /// Evaluates `var` from its starting value through its modifiers against the current
    /// values of everything else. Returns the value and the problems found.
    fn evaluate(&self, var: VariableId) -> Option<(V, Vec<Diagnostic>)> {
        let mut problems = Vec::new();
        let state = self.vars.get(var.index())?;
        let reader = Reader(&self.vars);
        let mut running = state.start.clone();
        for slot in &state.modifiers {
            match slot.source.eval(&reader, &running) {
                Ok(arg) => match V::apply(slot.kind, &running, &arg) {
                    Ok(next) => running = next,
                    Err(message) => {
                        if let Some(entry) = self.entry(slot.id) {
                            problems.push(self.modifier_failed(var, &entry.modifier, message));
                        }
                    }
                },
                Err(diag) => problems.push(*diag),
            }
        }
        Some((running, problems))
    }

    fn modifier_failed(&self, var: VariableId, m: &Modifier<V>, message: String) -> Diagnostic {
        let name = self.name(var).unwrap_or("?");
        Diagnostic::error(
            MODIFIER_FAILED,
            m.origin.span.unwrap_or(Span::DETACHED),
            format!(
                "{} {} on `{name}` failed: {message}",
                m.kind,
                m.source.text()
            ),
        )
        .with_label(message)
        .with_help("the modifier was skipped; change its value or its PRIORITY")
    }

    /// Evaluates and stores `var`; true when its value changed.
    fn update(&mut self, var: VariableId, report: &mut SolveReport) -> bool {
        let Some((value, problems)) = self.evaluate(var) else {
            return false;
        };
        report.evaluations = report.evaluations.saturating_add(1);
        report.diagnostics.extend(problems.iter().cloned());
        let Some(state) = self.vars.get_mut(var.index()) else {
            return false;
        };
        state.problems = problems;
        if state.value != value {
            state.value = value;
            report.changed.push(var);
            true
        } else {
            false
        }
    }

    /// Re-solves everything downstream of the variables made dirty since the last solve.
    pub fn solve(&mut self) -> SolveReport {
        let mut report = SolveReport::default();
        let dirty = std::mem::take(&mut self.dirty);
        for d in &dirty {
            if let Some(f) = self.dirty_flag.get_mut(d.index()) {
                *f = false;
            }
        }
        if dirty.is_empty() {
            return report;
        }
        self.scratch.grow(self.vars.len());
        self.scratch.next_epoch();
        let epoch = self.scratch.epoch;

        // 1. Everything downstream of a dirty variable (iterative DFS).
        let mut affected: Vec<NodeIndex> = Vec::new();
        let mut todo: Vec<NodeIndex> = Vec::new();
        for d in &dirty {
            let n = node(*d);
            // Dirty variables count as having a changed input.
            stamp(&mut self.scratch.input_changed, n.index(), epoch);
            if !self.scratch.is(&self.scratch.affected, n.index()) {
                stamp(&mut self.scratch.affected, n.index(), epoch);
                todo.push(n);
            }
        }
        while let Some(n) = todo.pop() {
            affected.push(n);
            // A cycle through `n` is reported again below if it still exists.
            if !self.cycles.is_empty() {
                self.cycles.remove(&var_of(n));
            }
            for s in self.graph.neighbors_directed(n, Direction::Outgoing) {
                if !self.scratch.is(&self.scratch.affected, s.index()) {
                    stamp(&mut self.scratch.affected, s.index(), epoch);
                    todo.push(s);
                }
            }
        }

        // 2. Kahn's algorithm on the affected subgraph.
        let mut ready: Vec<NodeIndex> = Vec::new();
        for &n in &affected {
            let count = self
                .graph
                .neighbors_directed(n, Direction::Incoming)
                .filter(|p| self.scratch.is(&self.scratch.affected, p.index()))
                .count();
            if let Some(x) = self.scratch.indegree.get_mut(n.index()) {
                *x = u32::try_from(count).unwrap_or(u32::MAX);
            }
            if count == 0 {
                ready.push(n);
            }
        }
        // Process in a stable order: dirty variables first in the order they became dirty.
        ready.reverse();
        let mut processed = 0usize;
        let mut successors: Vec<NodeIndex> = Vec::new();
        while let Some(n) = ready.pop() {
            processed += 1;
            stamp(&mut self.scratch.done, n.index(), epoch);
            let changed = if self.scratch.is(&self.scratch.input_changed, n.index()) {
                self.update(var_of(n), &mut report)
            } else {
                false
            };
            successors.clear();
            successors.extend(self.graph.neighbors_directed(n, Direction::Outgoing));
            for &s in &successors {
                if changed {
                    stamp(&mut self.scratch.input_changed, s.index(), epoch);
                }
                if let Some(x) = self.scratch.indegree.get_mut(s.index()) {
                    *x = x.saturating_sub(1);
                    if *x == 0 {
                        ready.push(s);
                    }
                }
            }
        }

        // 3. What is left lies on or behind a cycle.
        if processed < affected.len() {
            let rest: Vec<NodeIndex> = affected
                .iter()
                .copied()
                .filter(|n| !self.scratch.is(&self.scratch.done, n.index()))
                .collect();
            self.solve_cyclic_rest(&rest, &dirty, &mut report);
        }
        report
    }

    fn solve_cyclic_rest(
        &mut self,
        rest: &[NodeIndex],
        dirty: &[VariableId],
        report: &mut SolveReport,
    ) {
        let epoch = self.scratch.epoch;
        let components = {
            let scratch = &self.scratch;
            let in_rest = |n: NodeIndex| {
                scratch.is(&scratch.affected, n.index()) && !scratch.is(&scratch.done, n.index())
            };
            super::scc::tarjan_scc_iterative(&self.graph, rest, &in_rest)
        };
        // Tarjan yields reverse topological order.
        for component in components.into_iter().rev() {
            let cyclic = component.len() > 1
                || component
                    .first()
                    .is_some_and(|&n| self.edges.contains_key(&(var_of(n).0, var_of(n).0)));
            let mut changed_members = Vec::new();
            if !cyclic {
                if let Some(&n) = component.first() {
                    if self.scratch.is(&self.scratch.input_changed, n.index())
                        && self.update(var_of(n), report)
                    {
                        changed_members.push(n);
                    }
                }
            } else {
                self.solve_cycle(&component, dirty, report, &mut changed_members);
            }
            for &n in &component {
                stamp(&mut self.scratch.done, n.index(), epoch);
            }
            for n in changed_members {
                let succ: Vec<NodeIndex> = self
                    .graph
                    .neighbors_directed(n, Direction::Outgoing)
                    .collect();
                for s in succ {
                    stamp(&mut self.scratch.input_changed, s.index(), epoch);
                }
            }
        }
    }

    /// Evaluates a cyclic component like the reference: each variable whose input changed
    /// is evaluated; a change propagates depth-first to its dependents in the component; a
    /// change reaching a variable that is still propagating means the cycle does not settle.
    fn solve_cycle(
        &mut self,
        component: &[NodeIndex],
        dirty: &[VariableId],
        report: &mut SolveReport,
        changed_members: &mut Vec<NodeIndex>,
    ) {
        let total = self.vars.len();
        let mut member = vec![false; total];
        for n in component {
            if let Some(m) = member.get_mut(n.index()) {
                *m = true;
            }
        }
        let in_component = |n: NodeIndex| member.get(n.index()).copied().unwrap_or(false);
        // Start with the dirty members (in the order they became dirty), then the others
        // whose input changed, in variable order.
        let mut is_start = vec![false; total];
        let mut starts: Vec<NodeIndex> = Vec::new();
        for n in dirty.iter().map(|&d| node(d)) {
            if in_component(n) {
                if let Some(f) = is_start.get_mut(n.index()) {
                    if !*f {
                        *f = true;
                        starts.push(n);
                    }
                }
            }
        }
        let mut others: Vec<NodeIndex> = component
            .iter()
            .copied()
            .filter(|n| {
                !is_start.get(n.index()).copied().unwrap_or(false)
                    && self.scratch.is(&self.scratch.input_changed, n.index())
            })
            .collect();
        others.sort_unstable();
        starts.extend(others);
        let members_len = component.len();

        // Generous bound on evaluations; the on-stack rule already guarantees termination
        // of each propagation, this only bounds pathological branching.
        let budget = members_len.saturating_mul(64).max(1024);
        let mut spent = 0usize;
        let mut failure: Option<Vec<NodeIndex>> = None;
        let mut on_stack = vec![false; total];
        'starts: for start in starts {
            spent += 1;
            if !self.update(var_of(start), report) {
                continue;
            }
            changed_members.push(start);
            let mut frames: Vec<(NodeIndex, Vec<NodeIndex>)> = Vec::new();
            let succ = |g: &DiGraph<(), u32>, v: NodeIndex| -> Vec<NodeIndex> {
                let mut s: Vec<NodeIndex> = g
                    .neighbors_directed(v, Direction::Outgoing)
                    .filter(|&w| in_component(w))
                    .collect();
                s.sort_unstable_by(|a, b| b.cmp(a));
                s
            };
            frames.push((start, succ(&self.graph, start)));
            set_flag(&mut on_stack, start.index(), true);
            while let Some((top, rest)) = frames.last_mut() {
                let top = *top;
                let Some(w) = rest.pop() else {
                    frames.pop();
                    set_flag(&mut on_stack, top.index(), false);
                    continue;
                };
                spent += 1;
                if !self.update(var_of(w), report) {
                    continue;
                }
                changed_members.push(w);
                if on_stack.get(w.index()).copied().unwrap_or(false) || spent > budget {
                    failure = Some(component.to_vec());
                    break 'starts;
                }
                frames.push((w, succ(&self.graph, w)));
                set_flag(&mut on_stack, w.index(), true);
            }
        }
        let diagnostic = self.cycle_diagnostic(component, failure.is_some());
        if let Some(&lowest) = component.iter().min() {
            self.cycles.insert(var_of(lowest), diagnostic.clone());
        }
        report.diagnostics.push(diagnostic);
    }

    fn cycle_diagnostic(&self, component: &[NodeIndex], failed: bool) -> Diagnostic {
        let mut members: Vec<VariableId> = component.iter().map(|&n| var_of(n)).collect();
        members.sort_unstable();
        let names: Vec<String> = members
            .iter()
            .map(|&v| format!("`{}`", self.name(v).unwrap_or("?")))
            .collect();
        // The modifiers closing the cycle: those on a member that read another member.
        let mut closing: Vec<(Option<Span>, String)> = Vec::new();
        for &v in &members {
            for id in self.modifiers_of(v) {
                let Some(e) = self.entry(id) else { continue };
                if e.modifier
                    .source
                    .dependencies()
                    .iter()
                    .any(|d| members.binary_search(d).is_ok())
                {
                    let m = &e.modifier;
                    let who = m
                        .origin
                        .object
                        .as_ref()
                        .map(|o| format!(" (from {o})"))
                        .unwrap_or_default();
                    closing.push((
                        m.origin.span,
                        format!(
                            "{} {} on `{}`{who}",
                            m.kind,
                            m.source.text(),
                            self.name(v).unwrap_or("?")
                        ),
                    ));
                }
            }
        }
        // Closing modifiers with a span are labels (file:line); the rest become notes.
        let labelled: Vec<(Span, String)> = closing
            .iter()
            .filter_map(|(sp, t)| sp.map(|sp| (sp, t.clone())))
            .collect();
        let primary = labelled.first().map_or(Span::DETACHED, |c| c.0);
        let (code, severity) = if failed {
            (DEPENDENCY_CYCLE, Severity::Error)
        } else {
            (SETTLED_CYCLE, Severity::Warning)
        };
        let message = match (names.as_slice(), failed) {
            ([one], true) => {
                format!("variable {one} depends on itself and its value does not settle")
            }
            ([one], false) => format!(
                "variable {one} depends on itself; its value settled, but a change to it may not"
            ),
            (_, true) => format!(
                "variables {} depend on each other and their values do not settle",
                names.join(", ")
            ),
            (_, false) => format!(
                "variables {} depend on each other; their values settled, but a change to one of them may not",
                names.join(", ")
            ),
        };
        let mut d = Diagnostic::new(severity, code, primary, message)
        .with_label(
            labelled
                .first()
                .map(|c| c.1.clone())
                .or_else(|| closing.first().map(|c| c.1.clone()))
                .unwrap_or_default(),
        )
        .with_help(
            "remove one of the modifiers that close the cycle, or make it read another variable",
        );
        const MAX_LABELS: usize = 16;
        for (span, text) in labelled.iter().skip(1).take(MAX_LABELS) {
            d = d.with_secondary(*span, text.clone());
        }
        if labelled.len() > MAX_LABELS + 1 {
            d.notes.push(format!(
                "and {} more modifiers close the cycle",
                labelled.len() - MAX_LABELS - 1
            ));
        }
        for (_, text) in closing
            .iter()
            .filter(|(sp, _)| sp.is_none())
            .take(MAX_LABELS)
        {
            d.notes.push(format!("closes the cycle: {text}"));
        }
        d
    }

    /// How `var` got its value: its starting value, every modifier applied in order with the
    /// value before and after, and the variables its modifiers read (with their values).
    pub fn explain(&self, var: VariableId) -> Option<Explanation<V>> {
        let state = self.vars.get(var.index())?;
        let reader = Reader(&self.vars);
        let mut running = state.start.clone();
        let mut applied = Vec::new();
        for id in state.modifiers.iter().map(|s| s.id) {
            let Some(entry) = self.entry(id) else {
                continue;
            };
            let m = &entry.modifier;
            let before = running.clone();
            let outcome = m
                .source
                .eval(&reader, &running)
                .map_err(|d| d.message)
                .and_then(|arg| V::apply(m.kind, &running, &arg).map(|after| (arg, after)));
            let (argument, error) = match outcome {
                Ok((arg, after)) => {
                    running = after;
                    (Some(arg), None)
                }
                Err(e) => (None, Some(e)),
            };
            applied.push(AppliedModifier {
                id,
                kind: m.kind,
                priority: m.priority,
                order_key: m.order_key(),
                origin: m.origin.clone(),
                formula: m.source.text(),
                argument,
                before,
                after: running.clone(),
                error,
                reads: {
                    let mut r = entry.modifier.source.dependencies().to_vec();
                    r.sort_unstable();
                    r.dedup();
                    r
                },
            });
        }
        let reads = self
            .dependencies(var)
            .into_iter()
            .filter_map(|d| {
                Some(ReadVariable {
                    var: d,
                    name: self.name(d)?.to_owned(),
                    value: self.value(d)?.clone(),
                })
            })
            .collect();
        Some(Explanation {
            var,
            name: state.name.to_string(),
            start: state.start.clone(),
            applied,
            value: state.value.clone(),
            reads,
        })
    }
}
