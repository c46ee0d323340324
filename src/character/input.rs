//! Channel inputs: setting a channel of an instance (a stat's `STATSCORE`, …) from text in
//! the channel's format ([`UNKNOWN_VARIABLE`], [`BAD_INPUT`] when that fails).

use super::{BAD_INPUT, Changes, Character, InstanceId, UNKNOWN_VARIABLE};
use crate::diagnostic::Diagnostic;
use crate::formula::Format;
use crate::model::ScopeId;
use crate::source::Span;

impl Character {
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
    pub(super) fn set_input_inner(
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
            let d = Diagnostic::error(
                UNKNOWN_VARIABLE,
                Span::DETACHED,
                format!(
                    "{} ({}) has no channel `{channel}`",
                    self.describe(inst),
                    self.dataset.scopes.name(scope)
                ),
            );
            // Detached, as the suggestion: the API has no text (a character file places both).
            Box::new(d.with_did_you_mean_or(
                Span::DETACHED,
                crate::name::closest(channel, names.iter().map(|n| n.as_str())),
                "channels are declared with CHANNEL: in a VARIABLE file",
            ))
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
}
