//! The character's current problems: those of granted instances — modifiers that cannot be
//! used on the instance they address ([`MODIFIER_UNUSABLE`], S0203) and variables needed
//! there that have no starting value ([`NO_DEFAULT`], S0204) — kept while the instances are
//! granted, and the solver's current problems.

use super::{Character, InstanceId, MODIFIER_UNUSABLE, NO_DEFAULT};
use crate::diagnostic::Diagnostic;
use crate::model::Variable;
use crate::source::Span;

/// A problem that holds while the instances it belongs to are granted: a modifier of
/// `source` that cannot be put in force on `target` ([`MODIFIER_UNUSABLE`]), or a variable
/// needed there that has no starting value ([`NO_DEFAULT`]).
#[derive(Clone, Debug)]
pub(super) struct InstanceProblem {
    source: InstanceId,
    target: InstanceId,
    diagnostic: Diagnostic,
}

impl Character {
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
    ///
    /// [`Solver::current_problems`]: crate::solve::Solver::current_problems
    /// [`Changes`]: super::Changes
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

    /// [`MODIFIER_UNUSABLE`]: modifier `m` (formula `text`) cannot be put in force on
    /// `target` because its formula failed to parse or check there (`why`). The modifier is
    /// labelled, and each underlying problem is a secondary label and a note with its code.
    pub(super) fn unusable(
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
            .map(|o| format!(" (from {})", ds.key_of(o)))
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

    /// Records a problem of `source`'s modifier on `target` (held until either is removed).
    pub(super) fn record_problem(
        &mut self,
        source: InstanceId,
        target: InstanceId,
        diagnostic: Diagnostic,
    ) {
        self.instance_problems.push(InstanceProblem {
            source,
            target,
            diagnostic,
        });
    }

    /// [`NO_DEFAULT`]: variable `v`, needed on instance `inst`, has no starting value.
    /// Recorded once per needing instance (it holds while one of them is granted), listed
    /// once per variable by [`Character::problems`]; its source is the instance whose
    /// modifier is being put in force, if any, else `inst`.
    pub(super) fn no_default(&mut self, inst: InstanceId, v: &Variable) {
        let span = v.span.unwrap_or(Span::DETACHED);
        let source = self.applying.unwrap_or(inst);
        if self.instance_problems.iter().any(|p| {
            p.diagnostic.code.id == NO_DEFAULT.id
                && p.diagnostic.span == span
                && p.source == source
                && p.target == inst
        }) {
            return;
        }
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
        self.record_problem(source, inst, diagnostic);
    }

    /// Drops the problems of instance `inst`: those of its own modifiers and those other
    /// instances' modifiers had on it.
    pub(super) fn forget_problems_of(&mut self, inst: InstanceId) {
        self.instance_problems
            .retain(|p| p.source != inst && p.target != inst);
    }
}
