//! Putting model modifiers in force on instances: the solver variable each one modifies
//! (created on first use, from the owning instance), its value — a constant, or a formula
//! compiled in the instance's environment (`env`) — and the bookkeeping that lets removing
//! an instance take the modifier out again. A modifier that cannot be used there is a
//! problem of the instance (see `problems`).

use super::{Character, InstanceId, MODIFIER_UNUSABLE, env, literal_value};
use crate::diagnostic::Diagnostic;
use crate::formula::{Format, Value};
use crate::model::{ModId, ModifierValue, VarId};
use crate::solve::formula_source::FormulaSource;
use crate::solve::{Constant, Modifier, Origin, ValueSource, VariableId};
use crate::source::Span;
use std::sync::Arc;

impl Character {
    /// The solver variable of model variable `var` as seen from `inst`: the instance that
    /// owns it is `inst` or its nearest ancestor of the variable's scope.
    pub(super) fn instance_var(&mut self, inst: InstanceId, var: VarId) -> Option<VariableId> {
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
                self.no_default(inst, v);
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
    pub(super) fn apply(&mut self, source: InstanceId, mid: ModId, target: InstanceId) {
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
                    let help = "dice with a bonus (`1d6+1`) are not DICE values; \
                                write the bonus as a separate modifier";
                    let diagnostic = Diagnostic::error(
                        MODIFIER_UNUSABLE,
                        m.span,
                        "this constant cannot be used as a value",
                    )
                    .with_help(help);
                    self.record_problem(source, target, diagnostic);
                    return;
                }
            },
            ModifierValue::Formula(f) => match self.compile(&f.text, f.span, target, &format) {
                Ok(src) => Arc::new(src),
                Err(diags) => {
                    let diagnostic = self.unusable(m, &f.text, target, diags);
                    self.record_problem(source, target, diagnostic);
                    return;
                }
            },
        };
        let origin = Origin {
            object: m
                .source
                .and_then(|o| ds.object_by_id(o))
                .map(|o| ds.key_of(o).clone()),
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
        // instance removes it too — and on the instance it was addressed through (a
        // MODIFYOTHER of a global variable "adds to that global variable only if both
        // objects are granted", the spec says), so removing that one removes it as well.
        let owner = self.var_names.get(&var).map(|&(owner, _)| owner);
        let mut holders = Vec::with_capacity(2);
        if let Some(owner) = owner {
            holders.push(owner);
        }
        if !holders.contains(&target) {
            holders.push(target);
        }
        for holder in holders {
            if holder == source {
                continue;
            }
            if let Some(o) = self.instances.get_mut(holder.0 as usize) {
                o.received.push((source, id));
            }
        }
    }

    /// Parses and checks formula `text` (at `span`) as seen from `inst`, for a result of
    /// `format`: a value source reading the channels it uses, or its problems.
    pub(super) fn compile(
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
}
