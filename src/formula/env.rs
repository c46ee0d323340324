//! A simple name → value environment implementing both [`CheckEnv`] and [`ValueEnv`]:
//! used by `rulebook eval`, the conformance runner, benches and tests. The real loader and
//! solver implement the traits over their own scoped stores.

use super::check::{CheckEnv, FunctionRef, VarRef};
use super::eval::{EvalError, NO_VALUE, ValueEnv};
use super::format::Format;
use super::function::FunctionRegistry;
use super::number::Number;
use super::value::Value;
use crate::fxhash::FxHasher;
use crate::name::{Name, NameStr};
use indexmap::IndexMap;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Global variables (each with an optional value), per-format defaults and user functions.
#[derive(Clone, Debug, Default)]
pub struct MapEnv {
    vars: IndexMap<Name, (Format, Option<Value>), BuildHasherDefault<FxHasher>>,
    defaults: HashMap<Format, Value>,
    /// User functions.
    pub functions: FunctionRegistry,
}

impl MapEnv {
    /// An empty environment without defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// An environment with PCGen's shipped defaults: NUMBER 0, BOOLEAN false, STRING empty,
    /// ORDEREDPAIR 0,0, DICE 0.
    pub fn with_pcgen_defaults() -> Self {
        let mut env = Self::new();
        for (f, v) in [
            (Format::Number, Value::Number(Number::ZERO)),
            (Format::Boolean, Value::Boolean(false)),
            (Format::String, Value::string("")),
            (
                Format::OrderedPair,
                Value::OrderedPair(Number::ZERO, Number::ZERO),
            ),
            (
                Format::Dice,
                Value::Dice(super::dice::Dice {
                    quantity: 0,
                    sides: 1,
                    bonus: 0,
                }),
            ),
        ] {
            env.set_default(f, v);
        }
        env
    }

    /// Sets the default value of `format` (DEFAULTVARIABLEVALUE).
    pub fn set_default(&mut self, format: Format, value: Value) {
        self.defaults.insert(format, value);
    }

    /// Removes every default.
    pub fn clear_defaults(&mut self) {
        self.defaults.clear();
    }

    /// True if `format` has a value for unset variables (its default; arrays and optionals
    /// are empty by default).
    pub fn has_default(&self, format: &Format) -> bool {
        self.defaults.contains_key(format)
            || matches!(format, Format::Array(_) | Format::Optional(_))
    }

    /// Defines (or redefines) a variable; `value: None` = never set (reads the default).
    pub fn define(&mut self, name: &str, format: Format, value: Option<Value>) -> VarRef {
        let (i, _) = self.vars.insert_full(Name::new(name), (format, value));
        VarRef(u32::try_from(i).unwrap_or(u32::MAX))
    }

    /// Sets the value of a defined variable.
    pub fn set(&mut self, var: VarRef, value: Value) {
        if let Some((_, (_, v))) = self.vars.get_index_mut(var.0 as usize) {
            *v = Some(value);
        }
    }

    /// The variable's format.
    pub fn format_of(&self, var: VarRef) -> Option<&Format> {
        self.vars.get_index(var.0 as usize).map(|(_, (f, _))| f)
    }
}

impl CheckEnv for MapEnv {
    fn variable(&self, name: &str) -> Option<(VarRef, Format)> {
        let (i, _, (f, _)) = self.vars.get_full(&NameStr(name))?;
        Some((VarRef(u32::try_from(i).ok()?), f.clone()))
    }

    fn function(&self, name: &str) -> Option<FunctionRef<'_>> {
        self.functions.get(name).map(FunctionRef::User)
    }

    fn variable_names(&self) -> Vec<Name> {
        self.vars.keys().cloned().collect()
    }

    fn function_names(&self) -> Vec<Name> {
        self.functions.names().map(Name::new).collect()
    }
}

impl ValueEnv for MapEnv {
    fn value(&self, var: VarRef) -> Result<Value, EvalError> {
        let Some((name, (format, value))) = self.vars.get_index(var.0 as usize) else {
            return Err(EvalError::new(NO_VALUE, format!("no variable #{}", var.0)));
        };
        if let Some(v) = value {
            return Ok(v.clone());
        }
        if let Some(d) = self.defaults.get(format) {
            return Ok(d.clone());
        }
        match format {
            Format::Array(_) => Ok(Value::Array(Vec::new().into())),
            Format::Optional(_) => Ok(Value::Optional(None)),
            _ => Err(EvalError::new(
                NO_VALUE,
                format!("`{name}` has no value and {format} has no default value"),
            )),
        }
    }

    #[inline]
    fn boolean(&self, var: VarRef) -> Result<bool, EvalError> {
        if let Some((_, (_, Some(Value::Boolean(b))))) = self.vars.get_index(var.0 as usize) {
            return Ok(*b);
        }
        self.boolean_slow(var)
    }

    #[inline]
    fn int(&self, var: VarRef) -> Option<i64> {
        match self.vars.get_index(var.0 as usize) {
            Some((_, (_, Some(Value::Number(Number::Int(i)))))) => Some(*i),
            _ => None,
        }
    }

    #[inline]
    fn number(&self, var: VarRef) -> Result<Number, EvalError> {
        if let Some((_, (_, Some(Value::Number(n))))) = self.vars.get_index(var.0 as usize) {
            return Ok(*n);
        }
        self.number_slow(var)
    }
}

impl MapEnv {
    /// [`ValueEnv::boolean`] of a variable without a stored BOOLEAN (default or error).
    #[inline(never)]
    fn boolean_slow(&self, var: VarRef) -> Result<bool, EvalError> {
        match self.value(var)? {
            Value::Boolean(b) => Ok(b),
            other => Err(EvalError::new(
                NO_VALUE,
                format!("expected a BOOLEAN, found a {}", other.kind()),
            )),
        }
    }

    /// [`ValueEnv::number`] of a variable without a stored NUMBER (default or error).
    #[inline(never)]
    fn number_slow(&self, var: VarRef) -> Result<Number, EvalError> {
        match self.value(var)? {
            Value::Number(n) => Ok(n),
            other => Err(EvalError::new(
                NO_VALUE,
                format!("expected a NUMBER, found a {}", other.kind()),
            )),
        }
    }
}
