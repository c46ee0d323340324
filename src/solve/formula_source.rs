//! The formula core's [`Value`] as the solver's value type, and compiled formulas as
//! modifier sources.
//!
//! Variables are handed to the formula checker as [`VarRef`]s whose number is the solver's
//! [`VariableId`] (`VarRef(id.0)`), so a compiled formula's dependencies are solver
//! variables directly.

use super::modifier::{ModifierKind, SolverValue, ValueSource, VarReader, VariableId};
use crate::diagnostic::Diagnostic;
use crate::formula::eval::EvalError;
use crate::formula::{CompiledFormula, HostFnRef, Number, Value, ValueEnv, VarRef};
use std::sync::Arc;

impl SolverValue for Value {
    /// NUMBER arithmetic is exact (the formula core's [`Number`]); division by zero and
    /// overflow are errors. Only SET applies to formats other than NUMBER. MAX and MIN
    /// return the argument on ties (as the reference; equal exact numbers are equal anyway).
    fn apply(kind: ModifierKind, previous: &Value, argument: &Value) -> Result<Value, String> {
        if kind == ModifierKind::Set {
            return Ok(argument.clone());
        }
        let (Some(p), Some(a)) = (previous.as_number(), argument.as_number()) else {
            return Err(format!(
                "{kind} needs NUMBERs, but the value is a {} and the argument a {}",
                previous.kind(),
                argument.kind()
            ));
        };
        let r: Result<Number, _> = match kind {
            ModifierKind::Set => Ok(a),
            ModifierKind::Multiply => p.checked_mul(a),
            ModifierKind::Divide => p.checked_div(a),
            ModifierKind::Add => p.checked_add(a),
            ModifierKind::Max => Ok(if p > a { p } else { a }),
            ModifierKind::Min => Ok(if p < a { p } else { a }),
        };
        r.map(Value::Number).map_err(|e| e.to_string())
    }
}

/// The `VarRef` the checker should hand out for a solver variable.
pub fn var_ref(var: VariableId) -> VarRef {
    VarRef(var.0)
}

/// The solver variable behind a `VarRef` handed out with [`var_ref`].
pub fn variable_of(r: VarRef) -> VariableId {
    VariableId(r.0)
}

/// Host functions (`input`, `lookup`, …) a formula may call, provided by the layer that
/// checked it.
pub trait HostFunctions: Send + Sync {
    /// Calls host function `f` with evaluated `args`; `vars` reads solver variables.
    fn call(
        &self,
        f: HostFnRef,
        args: &[Value],
        vars: &dyn VarReader<Value>,
    ) -> Result<Value, EvalError>;
}

/// A compiled formula as a modifier's argument.
#[derive(Clone)]
pub struct FormulaSource {
    formula: CompiledFormula,
    deps: Vec<VariableId>,
    text: String,
    host: Option<Arc<dyn HostFunctions>>,
}

impl FormulaSource {
    /// Wraps `formula` (checked against an environment that handed out [`var_ref`]s);
    /// `text` is the formula as written.
    pub fn new(formula: CompiledFormula, text: impl Into<String>) -> Self {
        let deps = formula
            .dependencies()
            .iter()
            .map(|&r| variable_of(r))
            .collect();
        FormulaSource {
            formula,
            deps,
            text: text.into(),
            host: None,
        }
    }

    /// Adds the host functions the formula's host calls go to.
    pub fn with_host(mut self, host: Arc<dyn HostFunctions>) -> Self {
        self.host = Some(host);
        self
    }

    /// The compiled formula.
    pub fn formula(&self) -> &CompiledFormula {
        &self.formula
    }
}

struct Env<'a> {
    vars: &'a dyn VarReader<Value>,
    host: Option<&'a dyn HostFunctions>,
}

/// The error of a variable the solver does not hold.
#[cold]
fn unknown_to_solver(var: VarRef) -> EvalError {
    EvalError::new(
        crate::formula::eval::NO_VALUE,
        format!("variable #{} is not known to the solver", var.0),
    )
}

/// The error of a variable holding `found` where a `wanted` value was expected.
#[cold]
fn holds_another_format(found: &Value, wanted: &str) -> EvalError {
    EvalError::new(
        crate::formula::eval::NO_VALUE,
        format!(
            "the variable holds a {} where a {wanted} was expected",
            found.kind()
        ),
    )
}

impl ValueEnv for Env<'_> {
    fn value(&self, var: VarRef) -> Result<Value, EvalError> {
        self.vars
            .get(variable_of(var))
            .cloned()
            .ok_or_else(|| unknown_to_solver(var))
    }

    // NUMBER and BOOLEAN reads look at the stored value in place: every MODIFY a character
    // solves reads its variables here, and a copied `Value` costs a clone and a drop each.
    fn number(&self, var: VarRef) -> Result<Number, EvalError> {
        match self.vars.get(variable_of(var)) {
            Some(Value::Number(n)) => Ok(*n),
            Some(other) => Err(holds_another_format(other, "NUMBER")),
            None => Err(unknown_to_solver(var)),
        }
    }

    fn boolean(&self, var: VarRef) -> Result<bool, EvalError> {
        match self.vars.get(variable_of(var)) {
            Some(Value::Boolean(b)) => Ok(*b),
            Some(other) => Err(holds_another_format(other, "BOOLEAN")),
            None => Err(unknown_to_solver(var)),
        }
    }

    fn int(&self, var: VarRef) -> Option<i64> {
        // The register programs' hot path: a whole number read in place.
        match self.vars.get(variable_of(var)) {
            Some(Value::Number(Number::Int(i))) => Some(*i),
            _ => None,
        }
    }

    fn call_host(&self, function: HostFnRef, args: &[Value]) -> Result<Value, EvalError> {
        match self.host {
            Some(h) => h.call(function, args, self.vars),
            None => Err(EvalError::new(
                crate::formula::eval::HOST_FUNCTION_FAILED,
                format!("host function #{} is not available here", function.0),
            )),
        }
    }
}

impl ValueSource<Value> for FormulaSource {
    fn dependencies(&self) -> &[VariableId] {
        &self.deps
    }

    fn eval(&self, vars: &dyn VarReader<Value>, running: &Value) -> Result<Value, Box<Diagnostic>> {
        let env = Env {
            vars,
            host: self.host.as_deref(),
        };
        self.formula
            .eval(&env, Some(running))
            .map_err(|e| Box::new(e.to_diagnostic()))
    }

    fn text(&self) -> String {
        self.text.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(i: i64) -> Value {
        Value::Number(Number::from(i))
    }

    #[test]
    fn number_modifiers_are_exact() {
        let ten = n(10);
        let q = Value::apply(ModifierKind::Divide, &ten, &n(4)).unwrap();
        assert_eq!(q.to_string(), "2.5");
        let m = Value::apply(ModifierKind::Multiply, &q, &n(3)).unwrap();
        assert_eq!(m.to_string(), "7.5");
        assert!(Value::apply(ModifierKind::Divide, &ten, &n(0)).is_err());
        assert_eq!(
            Value::apply(ModifierKind::Max, &n(5), &n(10)).unwrap(),
            n(10)
        );
        assert_eq!(Value::apply(ModifierKind::Min, &n(5), &n(3)).unwrap(), n(3));
    }

    #[test]
    fn only_set_applies_to_other_formats() {
        let t = Value::Boolean(true);
        assert_eq!(
            Value::apply(ModifierKind::Set, &Value::Boolean(false), &t).unwrap(),
            t
        );
        assert!(Value::apply(ModifierKind::Add, &Value::Boolean(false), &t).is_err());
    }
}
