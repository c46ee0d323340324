//! Name resolution for a character's formulas: variables by scope instance, user functions,
//! and the `input(channel)` host function.

use super::{Character, InstanceId};
use crate::diagnostic::Diagnostic;
use crate::formula::eval::{EvalError, HOST_FUNCTION_FAILED};
use crate::formula::{
    CheckEnv, Format, FunctionRef, FunctionRegistry, HostCall, HostFnRef, HostParam, HostSignature,
    Value, VarRef,
};
use crate::name::Name;
use crate::solve::formula_source::{HostFunctions, var_ref};
use crate::solve::{VarReader, VariableId};
use std::cell::RefCell;

/// `input(channel)`.
const INPUT: HostFnRef = HostFnRef(0);

/// The names a formula sees from one instance.
pub(super) struct InstanceEnv<'a> {
    character: RefCell<&'a mut Character>,
    inst: InstanceId,
    functions: &'a FunctionRegistry,
    channels: RefCell<Vec<(Name, VariableId)>>,
}

impl<'a> InstanceEnv<'a> {
    pub(super) fn new(
        character: &'a mut Character,
        inst: InstanceId,
        functions: &'a FunctionRegistry,
    ) -> Self {
        InstanceEnv {
            character: RefCell::new(character),
            inst,
            functions,
            channels: RefCell::new(Vec::new()),
        }
    }

    /// The channels the formula's `input(...)` calls resolved to.
    pub(super) fn into_channels(self) -> Vec<(Name, VariableId)> {
        self.channels.into_inner()
    }

    fn scope(&self) -> Option<crate::model::ScopeId> {
        let c = self.character.borrow();
        c.instances.get(self.inst.0 as usize).map(|i| i.scope)
    }
}

impl CheckEnv for InstanceEnv<'_> {
    fn variable(&self, name: &Name) -> Option<(VarRef, Format)> {
        let scope = self.scope()?;
        let mut c = self.character.borrow_mut();
        let var = c.dataset.resolve_variable(scope, name.as_str())?;
        let format = c.dataset.variable(var)?.format.clone();
        let sv = c.instance_var(self.inst, var)?;
        Some((var_ref(sv), format))
    }

    fn function(&self, name: &Name) -> Option<FunctionRef<'_>> {
        if let Some(f) = self.functions.get(name) {
            return Some(FunctionRef::User(f));
        }
        if name.is("input") {
            return Some(FunctionRef::Host(INPUT));
        }
        None
    }

    fn host_signature(
        &self,
        f: HostFnRef,
        call: &HostCall<'_>,
    ) -> Result<HostSignature, Vec<Diagnostic>> {
        let unknown = |msg: String| {
            vec![
                Diagnostic::error(super::UNKNOWN_VARIABLE, call.span, msg)
                    .with_help("channels are declared with CHANNEL: in a VARIABLE file"),
            ]
        };
        if f != INPUT {
            return Err(unknown(format!(
                "function `{}` is not available",
                call.name
            )));
        }
        let Some(channel) = call.literal(0) else {
            return Err(unknown("input(...) needs a channel name".into()));
        };
        let scope = self.scope().ok_or_else(|| unknown("no scope".into()))?;
        let mut c = self.character.borrow_mut();
        let Some(var) = c.dataset.channel(scope, channel) else {
            return Err(unknown(format!(
                "there is no channel `{channel}` visible from {}",
                c.dataset.scopes.name(scope)
            )));
        };
        let format = c
            .dataset
            .variable(var)
            .map(|v| v.format.clone())
            .unwrap_or(Format::Number);
        let Some(sv) = c.instance_var(self.inst, var) else {
            return Err(unknown(format!("channel `{channel}` has no value here")));
        };
        self.channels.borrow_mut().push((Name::new(channel), sv));
        Ok(HostSignature {
            params: vec![HostParam::Name],
            result: format,
            dependencies: vec![var_ref(sv)],
        })
    }

    fn variable_names(&self) -> Vec<Name> {
        let c = self.character.borrow();
        let Some(scope) = c.instances.get(self.inst.0 as usize).map(|i| i.scope) else {
            return Vec::new();
        };
        let lineage: Vec<_> = c.dataset.scopes.ancestors(scope).collect();
        c.dataset
            .variables
            .iter()
            .filter(|v| lineage.contains(&v.scope) && !v.origin.is_channel())
            .map(|v| v.name.clone())
            .collect()
    }

    fn function_names(&self) -> Vec<Name> {
        let mut names: Vec<Name> = self.functions.names().map(Name::new).collect();
        names.push(Name::new("input"));
        names
    }
}

/// Evaluates `input(channel)` calls of one compiled formula.
pub(super) struct Host {
    channels: Vec<(Name, VariableId)>,
}

impl Host {
    pub(super) fn new(channels: Vec<(Name, VariableId)>) -> Self {
        Host { channels }
    }
}

impl HostFunctions for Host {
    fn call(
        &self,
        f: HostFnRef,
        args: &[Value],
        vars: &dyn VarReader<Value>,
    ) -> Result<Value, EvalError> {
        let fail = |m: String| EvalError::new(HOST_FUNCTION_FAILED, m);
        if f != INPUT {
            return Err(fail(format!("host function #{} is not available", f.0)));
        }
        let name = match args.first() {
            Some(Value::String(s)) => Name::new(s),
            _ => return Err(fail("input(...) needs a channel name".into())),
        };
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
}
