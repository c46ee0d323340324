//! Name resolution and host functions for a character's formulas.
//!
//! Names are resolved by the model's own [`ScopeEnv`] (one resolver for the loader and the
//! character: variables by scope, user functions, `input()` channels, `lookup()` tables and
//! columns, `getFact()` facts, `get()`); this layer only maps the model's variables to the
//! solver variables of one scope instance, and evaluates the host functions:
//!
//! * `input(channel)` reads the channel of the instance (or its nearest ancestor);
//! * `lookup(table, key, column[, type])` reads a DATATABLE cell: the row whose first cell
//!   equals `key` (`type` `"EXACT"`, the default), the last row whose first cell is ≤ `key`
//!   (`"LASTLTEQ"`) or the first row whose first cell is ≥ `key` (`"NEXTGTEQ"`), converted
//!   to the column's format;
//! * `getFact(type, key, fact)` reads a FACT of a data object, in its FACTDEF's format (an
//!   object without that FACT reads the format's DEFAULTVARIABLEVALUE);
//! * `get(type, key)` is the object itself (its key, as a value of the object format).

use super::{Character, InstanceId};
use crate::diagnostic::Diagnostic;
use crate::formula::eval::{EvalError, HOST_FUNCTION_FAILED};
use crate::formula::{
    CheckEnv, Format, FunctionRef, HostCall, HostFnRef, HostSignature, Value, VarRef,
};
use crate::model::{Dataset, HostFn, LookupKind, ScopeEnv, VarId};
use crate::name::Name;
use crate::solve::formula_source::{HostFunctions, var_ref};
use crate::solve::{VarReader, VariableId};
use std::cell::RefCell;
use std::sync::Arc;

/// The names a formula sees from one instance: the model's [`ScopeEnv`] of the instance's
/// scope, with model variables mapped to the instance's solver variables.
pub(super) struct InstanceEnv<'a> {
    character: RefCell<&'a mut Character>,
    inst: InstanceId,
    names: ScopeEnv<'a>,
    channels: RefCell<Vec<(Name, VariableId)>>,
}

impl<'a> InstanceEnv<'a> {
    /// The environment of `inst`; `dataset` is the character's dataset.
    pub(super) fn new(
        character: &'a mut Character,
        inst: InstanceId,
        dataset: &'a Dataset,
    ) -> Self {
        let scope = character
            .instances
            .get(inst.0 as usize)
            .map_or(crate::model::ScopeId::GLOBAL, |i| i.scope);
        InstanceEnv {
            character: RefCell::new(character),
            inst,
            names: ScopeEnv::new(dataset, scope),
            channels: RefCell::new(Vec::new()),
        }
    }

    /// The channels the formula's `input(...)` calls resolved to.
    pub(super) fn into_channels(self) -> Vec<(Name, VariableId)> {
        self.channels.into_inner()
    }

    /// The solver variable of model variable `r` seen from this instance.
    fn solver_var(&self, r: VarRef) -> Option<VariableId> {
        self.character
            .borrow_mut()
            .instance_var(self.inst, VarId(r.0))
    }
}

impl CheckEnv for InstanceEnv<'_> {
    fn variable(&self, name: &str) -> Option<(VarRef, Format)> {
        let (r, format) = self.names.variable(name)?;
        let sv = self.solver_var(r)?;
        Some((var_ref(sv), format))
    }

    fn function(&self, name: &str) -> Option<FunctionRef<'_>> {
        self.names.function(name)
    }

    fn host_signature(
        &self,
        f: HostFnRef,
        call: &HostCall<'_>,
    ) -> Result<HostSignature, Vec<Diagnostic>> {
        let mut sig = self.names.host_signature(f, call)?;
        let mut deps = Vec::with_capacity(sig.dependencies.len());
        for r in &sig.dependencies {
            let Some(sv) = self.solver_var(*r) else {
                return Err(vec![
                    Diagnostic::error(
                        super::UNKNOWN_VARIABLE,
                        call.span,
                        format!("`{}` reads a channel that has no value here", call.name),
                    )
                    .with_label("no value here")
                    .with_help(
                        "the channel's format needs a DEFAULTVARIABLEVALUE, and the object that owns the channel must be granted",
                    ),
                ]);
            };
            deps.push(sv);
        }
        if HostFn::of(f) == Some(HostFn::Input) {
            if let (Some(channel), Some(&sv)) = (call.literal(0), deps.first()) {
                self.channels.borrow_mut().push((Name::new(channel), sv));
            }
        }
        sig.dependencies = deps.into_iter().map(var_ref).collect();
        Ok(sig)
    }

    fn variable_names(&self) -> Vec<Name> {
        self.names.variable_names()
    }

    fn function_names(&self) -> Vec<Name> {
        self.names.function_names()
    }
}

/// Evaluates the host calls of one compiled formula.
pub(super) struct Host {
    dataset: Arc<Dataset>,
    channels: Vec<(Name, VariableId)>,
}

impl Host {
    pub(super) fn new(dataset: Arc<Dataset>, channels: Vec<(Name, VariableId)>) -> Self {
        Host { dataset, channels }
    }

    fn input(&self, args: &[Value], vars: &dyn VarReader<Value>) -> Result<Value, EvalError> {
        let name = Name::new(&text_arg(args, 0, "input", "a channel name")?);
        let var = self
            .channels
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .ok_or_else(|| fail(format!("channel `{name}` is not known here")))?;
        vars.get(var)
            .cloned()
            .ok_or_else(|| fail(format!("channel `{name}` has no value")))
    }

    fn lookup(&self, args: &[Value]) -> Result<Value, EvalError> {
        let table_name = text_arg(args, 0, "lookup", "a table name")?;
        let key = args
            .get(1)
            .ok_or_else(|| fail("lookup(...) needs a key".into()))?;
        let column = text_arg(args, 2, "lookup", "a column name")?;
        let kind_name = match args.get(3) {
            Some(_) => text_arg(args, 3, "lookup", "a lookup type")?,
            None => "EXACT".to_owned(),
        };
        let table = self
            .dataset
            .table(&table_name)
            .ok_or_else(|| fail(format!("there is no table `{table_name}`")))?;
        let col = table
            .columns
            .iter()
            .position(|(n, _)| n.is(&column))
            .ok_or_else(|| fail(format!("table `{table_name}` has no column `{column}`")))?;
        let kind = LookupKind::from_name(&kind_name).ok_or_else(|| {
            fail(format!(
                "lookup type `{}` is not known (use EXACT, LASTLTEQ or NEXTGTEQ)",
                kind_name.to_ascii_uppercase()
            ))
        })?;
        let row = table.find_row(key, kind).ok_or_else(|| {
            fail(format!(
                "table `{table_name}` has no row for {key} ({kind_name})"
            ))
        })?;
        row.get(col)
            .cloned()
            .ok_or_else(|| fail(format!("table `{table_name}` has no column `{column}`")))
    }

    fn object(&self, kind: &str, key: &str) -> Option<&crate::model::Object> {
        let id = super::find_object_in(&self.dataset, kind, key)?;
        self.dataset.object_by_id(id)
    }

    fn get_fact(&self, args: &[Value]) -> Result<Value, EvalError> {
        let kind = text_arg(args, 0, "getFact", "an object type")?;
        let key = text_arg(args, 1, "getFact", "an object key")?;
        let fact = text_arg(args, 2, "getFact", "a fact name")?;
        let object = self
            .object(&kind, &key)
            .ok_or_else(|| fail(format!("there is no {kind} `{key}`")))?;
        let format = self
            .dataset
            .fact_defs
            .iter()
            .find(|d| !d.set && d.location.is(&kind) && d.name.is(&fact))
            .and_then(|d| d.format.clone())
            .unwrap_or(Format::String);
        let Some(value) = object
            .facts()
            .iter()
            .rev()
            .find(|f| !f.set && f.name.is(&fact))
        else {
            // An object without the (optional) FACT reads the format's default.
            return self
                .dataset
                .default_for(&format)
                .map(|d| d.value.clone())
                .ok_or_else(|| {
                    fail(format!(
                        "{kind} `{key}` has no FACT `{fact}` and {format} has no default value"
                    ))
                });
        };
        format
            .parse_value(&value.value)
            .map_err(|e| fail(format!("FACT `{fact}` of {kind} `{key}`: {e}")))
    }

    fn get(&self, args: &[Value]) -> Result<Value, EvalError> {
        let kind = text_arg(args, 0, "get", "an object type")?;
        let key = text_arg(args, 1, "get", "an object key")?;
        let object = self
            .object(&kind, &key)
            .ok_or_else(|| fail(format!("there is no {kind} `{key}`")))?;
        Ok(Value::Object(self.dataset.key_of(object).clone()))
    }
}

fn fail(message: String) -> EvalError {
    EvalError::new(HOST_FUNCTION_FAILED, message)
}

/// Argument `i` of a host call as text (names arrive as STRING values).
fn text_arg(args: &[Value], i: usize, function: &str, what: &str) -> Result<String, EvalError> {
    match args.get(i) {
        Some(Value::String(s)) => Ok(s.to_string()),
        Some(Value::Object(n)) => Ok(n.to_string()),
        _ => Err(fail(format!("{function}(...) needs {what}"))),
    }
}

/// Orders two table keys of the same format (NUMBER numerically, STRING by text).
impl HostFunctions for Host {
    fn call(
        &self,
        f: HostFnRef,
        args: &[Value],
        vars: &dyn VarReader<Value>,
    ) -> Result<Value, EvalError> {
        match HostFn::of(f) {
            Some(HostFn::Input) => self.input(args, vars),
            Some(HostFn::Lookup) => self.lookup(args),
            Some(HostFn::GetFact) => self.get_fact(args),
            Some(HostFn::Get) => self.get(args),
            None => Err(fail(format!("host function #{} is not available", f.0))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The model's environment hands out the handles the character's calls.
    #[test]
    fn host_handles_are_the_models() {
        let ds = Dataset::default();
        let env = ScopeEnv::new(&ds, crate::model::ScopeId::GLOBAL);
        for h in HostFn::ALL {
            match env.function(h.name()) {
                Some(FunctionRef::Host(f)) => assert_eq!(HostFn::of(f), Some(h), "{h:?}"),
                _ => panic!("{h:?} is not a host function of the model"),
            }
        }
    }
}
