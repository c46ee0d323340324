//! The character API: a loaded dataset, characters built from granted objects, typed variable reads.
//!
//! A [`Dataset`] is loaded once and shared (`Arc`, immutable). Any number of [`Character`]s
//! are built from it: grant and remove objects ([`Character::grant`], [`Character::remove`]),
//! set channel inputs ([`Character::set_input`]), read variables by scope instance and name
//! ([`Character::get`], [`Character::get_global`]) and ask how a value came about
//! ([`Character::explain`]). Every change re-solves only what it affects (see
//! `docs/solver.md`).
//!
//! * Each granted object is an **instance**; a variable local to its scope exists once per
//!   instance (each Longsword its own `HandsRequired`); an equipment's `PART:n` modifiers
//!   create part instances with their own part variables.
//! * MODIFY on a granted object applies to its own instance (or the global/parent variable
//!   it names); MODIFYOTHER applies to every granted object it addresses — also objects
//!   granted later — and is revoked with its source; GLOBALMODIFIER lines always apply.
//! * `GRANT:` on an object grants the named dynamic objects with it (and removes them with it).

mod env;
pub mod file;

use crate::diagnostic::{Code, Diagnostic};
use crate::formula::{Format, Number, Value};
use crate::load::FileKind;
use crate::model::{
    Applies, Dataset, ModId, ModifierValue, ObjectId, ObjectKind, ScopeId, Selector, VarId,
};
use crate::name::Name;
use crate::solve::formula_source::FormulaSource;
use crate::solve::{
    Constant, Explanation, Modifier, ModifierId, Origin, SolveReport, Solver, ValueSource,
    VarReader, VariableId,
};
use crate::source::Span;
use std::collections::HashMap;
use std::sync::Arc;

/// An object could not be found.
pub const UNKNOWN_OBJECT: Code = Code {
    id: "S0201",
    name: "unknown-object",
};
/// A variable or channel could not be found from an instance.
pub const UNKNOWN_VARIABLE: Code = Code {
    id: "S0202",
    name: "unknown-character-variable",
};
/// A modifier's formula could not be used on a character (parse or check failed there).
pub const MODIFIER_UNUSABLE: Code = Code {
    id: "S0203",
    name: "modifier-unusable",
};
/// A format has no default value (DEFAULTVARIABLEVALUE) in the dataset.
pub const NO_DEFAULT: Code = Code {
    id: "S0204",
    name: "no-default-value",
};
/// An input value does not fit the channel's format.
pub const BAD_INPUT: Code = Code {
    id: "S0205",
    name: "bad-input",
};

/// Identity of a scope instance of a character: the global instance, a granted object, or a
/// part of a granted equipment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstanceId(pub u32);

impl InstanceId {
    /// The global instance (scope `PC`).
    pub const GLOBAL: InstanceId = InstanceId(0);
}

#[derive(Clone, Debug)]
struct Instance {
    object: Option<ObjectId>,
    scope: ScopeId,
    parent: Option<InstanceId>,
    /// For part instances: the part number.
    part: Option<u32>,
    alive: bool,
    /// Part instances by number.
    parts: Vec<(u32, InstanceId)>,
    /// Instances granted together with this one (GRANT:).
    children: Vec<InstanceId>,
    /// Solver modifiers this instance is the source of.
    sourced: Vec<ModifierId>,
    /// Solver modifiers applied onto this instance's variables from other sources.
    received: Vec<(InstanceId, ModifierId)>,
    label: String,
}

/// A MODIFYOTHER in force: its model modifier and the instance carrying it.
#[derive(Clone, Copy, Debug)]
struct ActiveOther {
    source: InstanceId,
    modifier: ModId,
}

/// A problem that holds while the instances it belongs to are granted: a modifier of
/// `source` that cannot be put in force on `target` ([`MODIFIER_UNUSABLE`]), or a variable
/// needed there that has no starting value ([`NO_DEFAULT`]).
#[derive(Clone, Debug)]
struct InstanceProblem {
    source: InstanceId,
    target: InstanceId,
    diagnostic: Diagnostic,
}

/// A character: granted objects, inputs and the solved values of every variable instance.
#[derive(Clone)]
pub struct Character {
    dataset: Arc<Dataset>,
    solver: Solver<Value>,
    instances: Vec<Instance>,
    vars: HashMap<(InstanceId, VarId), VariableId>,
    var_names: HashMap<VariableId, (InstanceId, VarId)>,
    others: Vec<ActiveOther>,
    /// Problems of granted instances, in the order found; dropped with their instances.
    instance_problems: Vec<InstanceProblem>,
    /// The instance whose modifier [`Character::apply`] is putting in force (the source a
    /// [`NO_DEFAULT`] found meanwhile belongs to).
    applying: Option<InstanceId>,
}

/// A constant from the model as a value (the model already holds `formula::Value`s,
/// converted with `Format::parse_value` at load).
pub fn literal_value(lit: &Value) -> Option<Value> {
    Some(lit.clone())
}

/// The object of `kind` (a file kind token such as `RACE`, `STAT`, `EQUIPMENT`, or a
/// DYNAMIC category such as `MOVEMENT`) with `key` in `dataset`.
pub fn find_object_in(dataset: &Dataset, kind: &str, key: &str) -> Option<ObjectId> {
    if let Some(k) = FileKind::from_token(&kind.to_ascii_uppercase()) {
        if let Some(o) = dataset.object(&ObjectKind::File(k), key) {
            return Some(o);
        }
        // Feats and abilities share one namespace in practice.
        if k == FileKind::Ability {
            if let Some(o) = dataset.object(&ObjectKind::File(FileKind::Feat), key) {
                return Some(o);
            }
        }
    }
    dataset.object(&ObjectKind::Dynamic(Name::new(kind)), key)
}

/// "There is no {kind} `{key}`" ([`UNKNOWN_OBJECT`]).
fn unknown_object(kind: &str, key: &str) -> Diagnostic {
    Diagnostic::error(
        UNKNOWN_OBJECT,
        Span::DETACHED,
        format!("there is no {kind} `{key}` in the dataset"),
    )
    .with_help("check the kind (RACE, STAT, EQUIPMENT, …) and the object's KEY")
}

/// Reads the solver's current values.
struct SolverReader<'a>(&'a Solver<Value>);

impl VarReader<Value> for SolverReader<'_> {
    fn get(&self, var: VariableId) -> Option<&Value> {
        self.0.value(var)
    }
}

/// What [`Character::grant`] and friends did.
pub type Changes = SolveReport;

impl Character {
    /// A character with nothing granted but the global modifiers.
    pub fn new(dataset: Arc<Dataset>) -> Character {
        let mut c = Character {
            dataset,
            solver: Solver::new(),
            instances: vec![Instance {
                object: None,
                scope: ScopeId::GLOBAL,
                parent: None,
                part: None,
                alive: true,
                parts: Vec::new(),
                children: Vec::new(),
                sourced: Vec::new(),
                received: Vec::new(),
                label: "PC".into(),
            }],
            vars: HashMap::new(),
            var_names: HashMap::new(),
            others: Vec::new(),
            instance_problems: Vec::new(),
            applying: None,
        };
        let global: Vec<ModId> = c.dataset.global_modifiers().map(|m| m.id).collect();
        for m in global {
            c.apply(InstanceId::GLOBAL, m, InstanceId::GLOBAL);
        }
        // MODIFYOTHER lines of GLOBALMODIFIER files (no source object) are always in force:
        // they reach every object of their scope granted later.
        let global_others: Vec<ModId> = c
            .dataset
            .modifiers
            .iter()
            .filter(|m| m.source.is_none() && matches!(m.applies, Applies::Other { .. }))
            .map(|m| m.id)
            .collect();
        for m in global_others {
            c.others.push(ActiveOther {
                source: InstanceId::GLOBAL,
                modifier: m,
            });
        }
        c.solver.solve();
        c
    }

    /// The dataset.
    pub fn dataset(&self) -> &Arc<Dataset> {
        &self.dataset
    }

    /// The problems of the character as it is now — the same whether it was built step by
    /// step or from scratch:
    ///
    /// 1. the problems of granted instances, in the order found: modifiers that cannot be
    ///    used on the instance they address ([`MODIFIER_UNUSABLE`]) and variables needed
    ///    there that have no starting value ([`NO_DEFAULT`], once per variable). They hold
    ///    while the instances are granted and go when [`Character::remove`] removes the
    ///    instance (or the source of the modifier);
    /// 2. the solver's current problems ([`Solver::current_problems`]): each variable's
    ///    failed modifiers from its last evaluation and each cycle still in the graph, by
    ///    variable. A failure a later grant, removal or input fixed is gone.
    ///
    /// Each diagnostic is listed once. What one change found is the [`Changes`] it returns.
    pub fn problems(&self) -> Vec<Diagnostic> {
        let mut out: Vec<Diagnostic> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let instance = self.instance_problems.iter().map(|p| &p.diagnostic);
        let solver = self.solver.current_problems();
        for d in instance.chain(&solver) {
            if seen.insert((d.code.id, d.span, d.message.as_str())) {
                out.push(d.clone());
            }
        }
        out
    }

    /// The object of `kind` (a file kind token such as `RACE`, `STAT`, `EQUIPMENT`, or a
    /// DYNAMIC category such as `MOVEMENT`) with `key`.
    pub fn find_object(&self, kind: &str, key: &str) -> Option<ObjectId> {
        find_object_in(&self.dataset, kind, key)
    }

    /// Grants the object of `kind` with `key` (see [`Character::find_object`]).
    pub fn grant_key(&mut self, kind: &str, key: &str) -> Result<InstanceId, Box<Diagnostic>> {
        let id = self
            .find_object(kind, key)
            .ok_or_else(|| Box::new(unknown_object(kind, key)))?;
        Ok(self.grant(id))
    }

    /// Grants an object: a new instance with its own local variables; its modifiers come
    /// into force, and every MODIFYOTHER in force that addresses it applies to it. Solves.
    pub fn grant(&mut self, object: ObjectId) -> InstanceId {
        let inst = self.grant_inner(object, None, 0);
        self.solve();
        inst
    }

    /// Grants every object of the dataset once (dynamic objects, equipment, abilities, …)
    /// and solves once: the cycles and failures this reports exist in the data itself, so a
    /// loader or checker can report them at load, before any character is built.
    pub fn grant_everything(dataset: Arc<Dataset>) -> (Character, Vec<Diagnostic>) {
        let mut c = Character::new(Arc::clone(&dataset));
        for o in dataset.objects.iter().filter(|o| !o.forgotten) {
            c.grant_inner(o.id, None, 0);
        }
        c.solve();
        let problems = c.problems();
        (c, problems)
    }

    /// Grants `object` onto instance `host` — an equipment modifier onto a part of a granted
    /// equipment (`host` = [`Character::part`]): its MODIFYs apply to `host` when it has
    /// the object's scope (so `MODIFY:UpgradeSlotTaken|ADD|1` on an EQUIPMOD reaches the
    /// part's equipment), and it is removed with `host`. Solves.
    pub fn grant_to(&mut self, host: InstanceId, object: ObjectId) -> InstanceId {
        let inst = self.grant_inner(object, Some(host), 0);
        self.solve();
        inst
    }

    fn grant_inner(
        &mut self,
        object: ObjectId,
        host: Option<InstanceId>,
        depth: usize,
    ) -> InstanceId {
        let ds = Arc::clone(&self.dataset);
        let Some(obj) = ds.object_by_id(object) else {
            return InstanceId::GLOBAL;
        };
        let parent = host.unwrap_or(InstanceId::GLOBAL);
        let inst = self.new_instance(Some(object), obj.scope, parent, None, &obj.key.to_string());
        if let Some(h) = host {
            if let Some(hi) = self.instances.get_mut(h.0 as usize) {
                hi.children.push(inst);
            }
        }
        // MODIFY targets: the host when it has the object's scope, else the object itself.
        let own_target = match host {
            Some(h)
                if self
                    .instances
                    .get(h.0 as usize)
                    .is_some_and(|i| i.scope == obj.scope) =>
            {
                h
            }
            _ => inst,
        };
        // Its own modifiers.
        for &mid in &obj.modifiers {
            let Some(m) = ds.modifier(mid) else { continue };
            match &m.applies {
                Applies::Global | Applies::Own => self.apply(inst, mid, own_target),
                Applies::Part(n) => {
                    let part = self.part_instance(inst, *n);
                    self.apply(inst, mid, part);
                }
                Applies::Other { .. } => {
                    self.others.push(ActiveOther {
                        source: inst,
                        modifier: mid,
                    });
                    let targets: Vec<InstanceId> = (0..self.instances.len())
                        .filter_map(|i| u32::try_from(i).ok().map(InstanceId))
                        .collect();
                    for t in targets {
                        self.apply_other_to(inst, mid, t);
                    }
                }
            }
        }
        // MODIFYOTHERs already in force that address the new instance.
        let active = self.others.clone();
        for a in active {
            if a.source != inst {
                self.apply_other_to(a.source, a.modifier, inst);
            }
        }
        // GRANT: dynamic objects.
        if depth < 16 {
            for g in &obj.grants {
                let target = g.object.or_else(|| {
                    ds.object(&ObjectKind::Dynamic(g.category.clone()), g.key.as_str())
                });
                if let Some(t) = target {
                    let child = self.grant_inner(t, None, depth + 1);
                    if let Some(i) = self.instances.get_mut(inst.0 as usize) {
                        i.children.push(child);
                    }
                }
            }
        }
        inst
    }

    fn new_instance(
        &mut self,
        object: Option<ObjectId>,
        scope: ScopeId,
        parent: InstanceId,
        part: Option<u32>,
        label: &str,
    ) -> InstanceId {
        let id = InstanceId(u32::try_from(self.instances.len()).unwrap_or(u32::MAX));
        self.instances.push(Instance {
            object,
            scope,
            parent: Some(parent),
            part,
            alive: true,
            parts: Vec::new(),
            children: Vec::new(),
            sourced: Vec::new(),
            received: Vec::new(),
            label: label.to_owned(),
        });
        id
    }

    /// The part instance `n` of equipment instance `inst` (created on first use).
    fn part_instance(&mut self, inst: InstanceId, n: u32) -> InstanceId {
        if let Some(&(_, p)) = self
            .instances
            .get(inst.0 as usize)
            .and_then(|i| i.parts.iter().find(|(k, _)| *k == n))
        {
            return p;
        }
        let scope = self
            .dataset
            .scopes
            .resolve("PC.EQUIPMENT.PART")
            .map_or(ScopeId::GLOBAL, |(s, _)| s);
        let label = format!(
            "{}.PART{n}",
            self.instances
                .get(inst.0 as usize)
                .map(|i| i.label.as_str())
                .unwrap_or("?")
        );
        let p = self.new_instance(None, scope, inst, Some(n), &label);
        if let Some(i) = self.instances.get_mut(inst.0 as usize) {
            i.parts.push((n, p));
        }
        p
    }

    fn selector_matches(&self, selector: &Selector, inst: InstanceId) -> bool {
        let Some(i) = self.instances.get(inst.0 as usize) else {
            return false;
        };
        match selector {
            Selector::All => true,
            Selector::Key(k) => match i.object.and_then(|o| self.dataset.object_by_id(o)) {
                Some(o) => o.key == *k,
                None => i.part.is_some_and(|n| k.as_str() == n.to_string()),
            },
            Selector::Group(g) => i
                .object
                .and_then(|o| self.dataset.object_by_id(o))
                .is_some_and(|o| o.groups.contains(g)),
        }
    }

    /// Applies MODIFYOTHER `mid` of `source` to `target` if it addresses it.
    fn apply_other_to(&mut self, source: InstanceId, mid: ModId, target: InstanceId) {
        let ds = Arc::clone(&self.dataset);
        let Some(m) = ds.modifier(mid) else { return };
        let Applies::Other {
            scope,
            selector,
            child,
        } = &m.applies
        else {
            return;
        };
        let Some(t) = self.instances.get(target.0 as usize) else {
            return;
        };
        if !t.alive || t.part.is_some() || t.scope != *scope || t.object.is_none() {
            return;
        }
        if !self.selector_matches(selector, target) {
            return;
        }
        match child {
            None => self.apply(source, mid, target),
            Some(cs) => {
                let parts: Vec<InstanceId> = t.parts.iter().map(|(_, p)| *p).collect();
                for p in parts {
                    if self.selector_matches(cs, p) {
                        self.apply(source, mid, p);
                    }
                }
            }
        }
    }

    /// The solver variable of model variable `var` as seen from `inst`: the instance that
    /// owns it is `inst` or its nearest ancestor of the variable's scope.
    fn instance_var(&mut self, inst: InstanceId, var: VarId) -> Option<VariableId> {
        let ds = Arc::clone(&self.dataset);
        let v = ds.variable(var)?;
        let owner = self.owner(inst, v.scope)?;
        if let Some(&sv) = self.vars.get(&(owner, var)) {
            return Some(sv);
        }
        let start = match ds
            .default_for(&v.format)
            .and_then(|d| literal_value(&d.value))
        {
            Some(s) => s,
            None => {
                let span = v.span.unwrap_or(Span::DETACHED);
                // Recorded once per needing instance (it holds while one of them is
                // granted), listed once per variable by `problems`.
                let source = self.applying.unwrap_or(inst);
                if !self.instance_problems.iter().any(|p| {
                    p.diagnostic.code.id == NO_DEFAULT.id
                        && p.diagnostic.span == span
                        && p.source == source
                        && p.target == inst
                }) {
                    let diagnostic = Diagnostic::error(
                        NO_DEFAULT,
                        span,
                        format!(
                            "`{}` has no starting value: format {} has no default value",
                            v.name, v.format
                        ),
                    )
                    .with_label("its modifiers and the formulas reading it are left out")
                    .with_help(format!(
                        "add `DEFAULTVARIABLEVALUE:{}|…` to a DATACONTROL file",
                        v.format
                    ));
                    self.instance_problems.push(InstanceProblem {
                        source,
                        target: inst,
                        diagnostic,
                    });
                }
                return None;
            }
        };
        let label = match self.instances.get(owner.0 as usize) {
            Some(i) if owner != InstanceId::GLOBAL => format!("{}.{}", i.label, v.name),
            _ => v.name.to_string(),
        };
        let sv = self.solver.add_variable(label, start);
        self.vars.insert((owner, var), sv);
        self.var_names.insert(sv, (owner, var));
        Some(sv)
    }

    /// Puts model modifier `mid` of `source` in force on instance `target` (the instance
    /// the modifier's target variable is resolved from and its formula evaluated in).
    fn apply(&mut self, source: InstanceId, mid: ModId, target: InstanceId) {
        let outer = self.applying.replace(source);
        self.apply_inner(source, mid, target);
        self.applying = outer;
    }

    /// [`Character::apply`] once the source is known to [`Character::instance_var`].
    fn apply_inner(&mut self, source: InstanceId, mid: ModId, target: InstanceId) {
        let ds = Arc::clone(&self.dataset);
        let Some(m) = ds.modifier(mid) else { return };
        let Some(var) = self.instance_var(target, m.variable) else {
            return;
        };
        let Some(format) = ds.variable(m.variable).map(|v| v.format.clone()) else {
            return;
        };
        let source_value: Arc<dyn ValueSource<Value>> = match &m.value {
            ModifierValue::Constant(lit) => match literal_value(lit) {
                Some(v) => Arc::new(Constant {
                    text: v.to_string(),
                    value: v,
                }),
                None => {
                    self.instance_problems.push(InstanceProblem {
                        source,
                        target,
                        diagnostic: Diagnostic::error(MODIFIER_UNUSABLE, m.span, "this constant cannot be used as a value")
                            .with_help("dice with a bonus (`1d6+1`) are not DICE values; write the bonus as a separate modifier"),
                    });
                    return;
                }
            },
            ModifierValue::Formula(f) => match self.compile(&f.text, f.span, target, &format) {
                Ok(src) => Arc::new(src),
                Err(diags) => {
                    let diagnostic = self.unusable(m, &f.text, target, diags);
                    self.instance_problems.push(InstanceProblem {
                        source,
                        target,
                        diagnostic,
                    });
                    return;
                }
            },
        };
        let origin = Origin {
            object: m
                .source
                .and_then(|o| ds.object_by_id(o))
                .map(|o| o.key.clone()),
            span: Some(m.span),
        };
        let kind = m.kind;
        let Some(id) = self.solver.add_modifier(Modifier {
            var,
            kind,
            priority: m.priority,
            source: source_value,
            origin,
        }) else {
            return;
        };
        if let Some(s) = self.instances.get_mut(source.0 as usize) {
            s.sourced.push(id);
        }
        // Record it on the instance that owns the modified variable, so removing that
        // instance removes it too.
        if let Some(&(owner, _)) = self.var_names.get(&var) {
            if owner != source {
                if let Some(o) = self.instances.get_mut(owner.0 as usize) {
                    o.received.push((source, id));
                }
            }
        }
    }

    /// [`MODIFIER_UNUSABLE`]: modifier `m` (formula `text`) cannot be put in force on
    /// `target` because its formula failed to parse or check there (`why`). The modifier is
    /// labelled, and each underlying problem is a secondary label and a note with its code.
    fn unusable(
        &self,
        m: &crate::model::Modifier,
        text: &str,
        target: InstanceId,
        why: Vec<Diagnostic>,
    ) -> Diagnostic {
        let ds = &self.dataset;
        let var = ds
            .variable(m.variable)
            .map(|v| v.name.to_string())
            .unwrap_or_default();
        let from = m
            .source
            .and_then(|o| ds.object_by_id(o))
            .map(|o| format!(" (from {})", o.key))
            .unwrap_or_default();
        let on = self
            .instances
            .get(target.0 as usize)
            .map_or("PC", |i| i.label.as_str());
        let first = why
            .first()
            .map(|d| format!(": {}", d.message))
            .unwrap_or_default();
        let mut d = Diagnostic::error(
            MODIFIER_UNUSABLE,
            m.span,
            format!(
                "{} {text} on `{var}`{from} cannot be used on `{on}`{first}",
                m.kind
            ),
        )
        .with_label(format!("left out on `{on}`"))
        .with_help(why.iter().find_map(|d| d.help.clone()).unwrap_or_else(|| {
            "reference variables visible from the addressed scope (its own, its parents', global)"
                .to_owned()
        }));
        for w in why {
            let label = if w.primary_label.is_empty() {
                w.message.clone()
            } else {
                w.primary_label.clone()
            };
            d = d
                .with_secondary(w.span, label)
                .with_note(format!("{} {}: {}", w.code.id, w.code.name, w.message));
        }
        d
    }

    fn compile(
        &mut self,
        text: &str,
        span: Span,
        inst: InstanceId,
        format: &Format,
    ) -> Result<FormulaSource, Vec<Diagnostic>> {
        let parsed = crate::formula::parse_formula(text, span.file, span.start);
        let Some(formula) = parsed.formula else {
            return Err(parsed.diagnostics);
        };
        let ds = Arc::clone(&self.dataset);
        let (result, channels) = {
            let env = env::InstanceEnv::new(self, inst, &ds);
            let r = crate::formula::check(&formula, &env, format, Some(format));
            (r, env.into_channels())
        };
        let compiled = result?;
        Ok(FormulaSource::new(compiled, text).with_host(Arc::new(env::Host::new(ds, channels))))
    }

    /// Removes a granted instance: its modifiers (including every MODIFYOTHER it applied to
    /// other objects) go out of force, modifiers other objects applied to it go with it, and
    /// the objects it granted are removed too. Solves.
    pub fn remove(&mut self, inst: InstanceId) -> Changes {
        if inst != InstanceId::GLOBAL {
            self.remove_inner(inst);
        }
        self.solve()
    }

    fn remove_inner(&mut self, inst: InstanceId) {
        let Some(i) = self.instances.get_mut(inst.0 as usize) else {
            return;
        };
        if !i.alive {
            return;
        }
        i.alive = false;
        let sourced = std::mem::take(&mut i.sourced);
        let received = std::mem::take(&mut i.received);
        let parts: Vec<InstanceId> = i.parts.iter().map(|(_, p)| *p).collect();
        let children = std::mem::take(&mut i.children);
        for id in sourced {
            self.solver.remove_modifier(id);
        }
        for (_, id) in received {
            self.solver.remove_modifier(id);
        }
        self.others.retain(|a| a.source != inst);
        // Its unusable modifiers, and those others' modifiers had on it, go with it.
        self.instance_problems
            .retain(|p| p.source != inst && p.target != inst);
        for p in parts {
            self.remove_inner(p);
        }
        for c in children {
            self.remove_inner(c);
        }
    }

    /// Sets channel `channel` of instance `inst` (e.g. a stat's `STATSCORE`) from text in
    /// the channel's format. Solves.
    pub fn set_input(
        &mut self,
        inst: InstanceId,
        channel: &str,
        text: &str,
    ) -> Result<Changes, Box<Diagnostic>> {
        self.set_input_inner(inst, channel, text)?;
        Ok(self.solve())
    }

    /// [`Character::set_input`] without solving.
    fn set_input_inner(
        &mut self,
        inst: InstanceId,
        channel: &str,
        text: &str,
    ) -> Result<(), Box<Diagnostic>> {
        let scope = self
            .instances
            .get(inst.0 as usize)
            .map(|i| i.scope)
            .unwrap_or(ScopeId::GLOBAL);
        let var = self.dataset.channel(scope, channel).ok_or_else(|| {
            let names = self.dataset.channel_names(scope);
            let help = match crate::name::closest(channel, names.iter().map(|n| n.as_str())) {
                Some(near) => format!("did you mean `{near}`?"),
                None => "channels are declared with CHANNEL: in a VARIABLE file".to_owned(),
            };
            Box::new(
                Diagnostic::error(
                    UNKNOWN_VARIABLE,
                    Span::DETACHED,
                    format!(
                        "{} ({}) has no channel `{channel}`",
                        self.describe(inst),
                        self.dataset.scopes.name(scope)
                    ),
                )
                .with_help(help),
            )
        })?;
        let format = self
            .dataset
            .variable(var)
            .map(|v| v.format.clone())
            .unwrap_or(Format::Number);
        let value = format.parse_value(text).map_err(|e| {
            Box::new(
                Diagnostic::error(
                    BAD_INPUT,
                    Span::DETACHED,
                    format!("input `{channel}` of {}: {e}", self.describe(inst)),
                )
                .with_help(format!("give a {format} value")),
            )
        })?;
        let sv = self.instance_var(inst, var).ok_or_else(|| {
            Box::new(Diagnostic::error(
                UNKNOWN_VARIABLE,
                Span::DETACHED,
                format!("channel `{channel}` has no instance here"),
            ))
        })?;
        self.solver.set_start(sv, value);
        Ok(())
    }

    /// `the character` for the global instance, else `` `Label` ``.
    fn describe(&self, inst: InstanceId) -> String {
        match self.instances.get(inst.0 as usize) {
            Some(i) if inst != InstanceId::GLOBAL => format!("`{}`", i.label),
            _ => "the character".to_owned(),
        }
    }

    /// Solves what changed; the solver keeps its current problems (see
    /// [`Character::problems`]).
    fn solve(&mut self) -> Changes {
        self.solver.solve()
    }

    /// Re-solves everything from scratch (the incremental result must be identical).
    pub fn solve_from_scratch(&mut self) -> Changes {
        self.solver.invalidate_all();
        self.solve()
    }

    fn lookup(&self, inst: InstanceId, name: &str) -> Option<VariableId> {
        let i = self.instances.get(inst.0 as usize)?;
        let var = self.dataset.resolve_variable(i.scope, name)?;
        let v = self.dataset.variable(var)?;
        let owner = self.owner(inst, v.scope)?;
        self.vars.get(&(owner, var)).copied()
    }

    /// The instance owning variables of `scope` as seen from `inst`: `inst` or its nearest
    /// ancestor of that scope. Objects read in the global scope (races, abilities,
    /// templates, …) do not own variables: global variables belong to the global instance.
    fn owner(&self, inst: InstanceId, scope: ScopeId) -> Option<InstanceId> {
        let mut owner = inst;
        for _ in 0..=self.instances.len() {
            let i = self.instances.get(owner.0 as usize)?;
            let owns =
                i.scope == scope && (scope != ScopeId::GLOBAL || owner == InstanceId::GLOBAL);
            if owns {
                return Some(owner);
            }
            owner = i.parent?;
        }
        None
    }

    /// The value of variable `name` as seen from instance `inst`; a variable no modifier has
    /// touched reads its format's default.
    pub fn get(&self, inst: InstanceId, name: &str) -> Option<Value> {
        if let Some(sv) = self.lookup(inst, name) {
            return self.solver.value(sv).cloned();
        }
        let i = self.instances.get(inst.0 as usize)?;
        let var = self.dataset.resolve_variable(i.scope, name)?;
        let v = self.dataset.variable(var)?;
        literal_value(&self.dataset.default_for(&v.format)?.value)
    }

    /// The value of global variable `name`.
    pub fn get_global(&self, name: &str) -> Option<Value> {
        self.get(InstanceId::GLOBAL, name)
    }

    /// A NUMBER variable as a [`Number`].
    pub fn number(&self, inst: InstanceId, name: &str) -> Option<Number> {
        self.get(inst, name)?.as_number()
    }

    /// How `name` (seen from `inst`) got its value.
    pub fn explain(&self, inst: InstanceId, name: &str) -> Option<Explanation<Value>> {
        self.solver.explain(self.lookup(inst, name)?)
    }

    /// Evaluates `text`, a formula whose result has format `format`, as seen from instance
    /// `inst` — its variables, channels (`input`), tables (`lookup`), facts (`getFact`),
    /// objects (`get`) and user functions — against the character's current values. The
    /// formula is checked like a MODIFY's (problems are returned, with spans into `text`).
    pub fn evaluate(
        &mut self,
        inst: InstanceId,
        text: &str,
        format: &Format,
    ) -> Result<Value, Vec<Diagnostic>> {
        let source = self.compile(text, crate::source::Span::default(), inst, format)?;
        // Variables first read by this formula start at their defaults.
        self.solve();
        let running = self
            .dataset
            .default_for(format)
            .map_or(Value::Number(Number::ZERO), |d| d.value.clone());
        let reader = SolverReader(&self.solver);
        source.eval(&reader, &running).map_err(|d| vec![*d])
    }

    /// The live instance of the object of `kind`/`key` (the first, if granted twice).
    pub fn instance_of(&self, kind: &str, key: &str) -> Option<InstanceId> {
        let object = self.find_object(kind, key)?;
        self.instances
            .iter()
            .position(|i| i.alive && i.object == Some(object))
            .and_then(|p| u32::try_from(p).ok().map(InstanceId))
    }

    /// Part `n` of an equipment instance, created if no modifier created it yet (to grant
    /// equipment modifiers onto it with [`Character::grant_to`]).
    pub fn ensure_part(&mut self, inst: InstanceId, n: u32) -> InstanceId {
        let p = self.ensure_part_inner(inst, n);
        self.solve();
        p
    }

    /// [`Character::ensure_part`] without solving.
    fn ensure_part_inner(&mut self, inst: InstanceId, n: u32) -> InstanceId {
        if let Some(p) = self.part(inst, n) {
            return p;
        }
        let p = self.part_instance(inst, n);
        // MODIFYOTHERs in force that address the parts of this equipment reach the new part.
        let active = self.others.clone();
        for a in active {
            self.apply_other_to_part(a.source, a.modifier, inst, p);
        }
        p
    }

    /// Applies MODIFYOTHER `mid` (with a child selector) to part `part` of `equipment`.
    fn apply_other_to_part(
        &mut self,
        source: InstanceId,
        mid: ModId,
        equipment: InstanceId,
        part: InstanceId,
    ) {
        let ds = Arc::clone(&self.dataset);
        let Some(m) = ds.modifier(mid) else { return };
        let Applies::Other {
            scope,
            selector,
            child: Some(cs),
        } = &m.applies
        else {
            return;
        };
        let Some(e) = self.instances.get(equipment.0 as usize) else {
            return;
        };
        if e.alive
            && e.scope == *scope
            && self.selector_matches(selector, equipment)
            && self.selector_matches(cs, part)
        {
            self.apply(source, mid, part);
        }
    }

    /// Part `n` of an equipment instance, if any modifier created it.
    pub fn part(&self, inst: InstanceId, n: u32) -> Option<InstanceId> {
        self.instances
            .get(inst.0 as usize)?
            .parts
            .iter()
            .find(|(k, _)| *k == n)
            .map(|(_, p)| *p)
    }

    /// Every variable of every live scope instance — the global variables, and the local
    /// variables of each granted object and part — with its display name (`Name` for a
    /// global, `Object.Name` / `Object.PARTn.Name` for a local one) and value (the format's
    /// default when no modifier touches it), sorted by name.
    pub fn values(&self) -> Vec<(String, Value)> {
        let mut out: Vec<(String, Value)> = Vec::new();
        for (index, inst) in self.instances.iter().enumerate() {
            let Ok(id) = u32::try_from(index).map(InstanceId) else {
                continue;
            };
            if !inst.alive || (inst.scope == ScopeId::GLOBAL && id != InstanceId::GLOBAL) {
                continue;
            }
            // An object granted onto a host of its own scope (an EQUIPMOD on a part)
            // modifies the host's variables and has none of its own.
            let hosted = inst
                .parent
                .filter(|&p| p != InstanceId::GLOBAL)
                .and_then(|p| self.instances.get(p.0 as usize))
                .is_some_and(|p| p.scope == inst.scope);
            if hosted && inst.object.is_some() {
                continue;
            }
            for v in self
                .dataset
                .variables
                .iter()
                .filter(|v| v.scope == inst.scope)
            {
                let value = match self.vars.get(&(id, v.id)) {
                    Some(&sv) => self.solver.value(sv).cloned(),
                    None => self
                        .dataset
                        .default_for(&v.format)
                        .and_then(|d| literal_value(&d.value)),
                };
                let Some(value) = value else { continue };
                let name = if id == InstanceId::GLOBAL {
                    v.name.to_string()
                } else {
                    format!("{}.{}", inst.label, v.name)
                };
                out.push((name, value));
            }
        }
        out.sort_by(|a, b| {
            a.0.to_lowercase()
                .cmp(&b.0.to_lowercase())
                .then(a.0.cmp(&b.0))
        });
        out
    }

    /// The solver (for the dependency graph and explanations by id).
    pub fn solver(&self) -> &Solver<Value> {
        &self.solver
    }

    /// The display name of an instance (`PC`, the object key, `Key.PARTn`).
    pub fn instance_label(&self, inst: InstanceId) -> Option<&str> {
        self.instances
            .get(inst.0 as usize)
            .map(|i| i.label.as_str())
    }
}
