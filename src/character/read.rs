//! Reads: objects and instances by kind and key, variable values by instance and name
//! (typed and untyped), explanations, formulas evaluated against the current values, and
//! every value at once.

use super::{Character, InstanceId, find_object_in, literal_value};
use crate::diagnostic::Diagnostic;
use crate::formula::{Format, Number, Value};
use crate::model::{ObjectId, ScopeId};
use crate::solve::{Explanation, Solver, ValueSource, VarReader, VariableId};

/// A formula checked against a character, to evaluate many times
/// ([`Character::prepare`]).
pub struct PreparedFormula {
    source: crate::solve::formula_source::FormulaSource,
    /// What `value()` reads: the format's default, as for a MODIFY with nothing before it.
    running: Value,
}

impl std::fmt::Debug for PreparedFormula {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedFormula")
            .field("text", &self.source.text())
            .finish()
    }
}

/// Reads the solver's current values.
struct SolverReader<'a>(&'a Solver<Value>);

impl VarReader<Value> for SolverReader<'_> {
    fn get(&self, var: VariableId) -> Option<&Value> {
        self.0.value(var)
    }
}

impl Character {
    /// The object of `kind` (a file kind token such as `RACE`, `STAT`, `EQUIPMENT`, or a
    /// DYNAMIC category such as `MOVEMENT`) with `key`.
    pub fn find_object(&self, kind: &str, key: &str) -> Option<ObjectId> {
        find_object_in(&self.dataset, kind, key)
    }

    /// The live instance of the object of `kind`/`key` (the first, if granted twice).
    pub fn instance_of(&self, kind: &str, key: &str) -> Option<InstanceId> {
        let object = self.find_object(kind, key)?;
        self.instances
            .iter()
            .position(|i| i.alive && i.object == Some(object))
            .and_then(|p| u32::try_from(p).ok().map(InstanceId))
    }

    /// The solver variable of `name` as seen from `inst`, if it has one yet.
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
    pub(super) fn owner(&self, inst: InstanceId, scope: ScopeId) -> Option<InstanceId> {
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
    /// To evaluate one formula many times, [`Character::prepare`] it once.
    pub fn evaluate(
        &mut self,
        inst: InstanceId,
        text: &str,
        format: &Format,
    ) -> Result<Value, Vec<Diagnostic>> {
        let prepared = self.prepare(inst, text, format)?;
        self.evaluate_prepared(&prepared).map_err(|d| vec![*d])
    }

    /// Parses and checks `text` once, as [`Character::evaluate`] does, for
    /// [`Character::evaluate_prepared`] to evaluate as often as the character's values
    /// change (a sheet's derived line, a builder's preview): parse once, check once,
    /// evaluate many times. The formula reads the variables of `inst` and of the scopes
    /// above it; it stays valid while that instance is granted.
    pub fn prepare(
        &mut self,
        inst: InstanceId,
        text: &str,
        format: &Format,
    ) -> Result<PreparedFormula, Vec<Diagnostic>> {
        let source = self.compile(text, crate::source::Span::default(), inst, format)?;
        // Variables first read by this formula start at their defaults.
        self.solve();
        let running = self
            .dataset
            .default_for(format)
            .map_or(Value::Number(Number::ZERO), |d| d.value.clone());
        Ok(PreparedFormula { source, running })
    }

    /// Evaluates a formula [`Character::prepare`] checked against the character's current
    /// values (the error of a failing evaluation, such as a division by zero, on its span
    /// in the formula's text).
    pub fn evaluate_prepared(&self, formula: &PreparedFormula) -> Result<Value, Box<Diagnostic>> {
        let reader = SolverReader(&self.solver);
        formula.source.eval(&reader, &formula.running)
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
