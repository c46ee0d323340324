//! What the data alone decides, solved at check time.
//!
//! Every character starts from the same state: the GLOBALMODIFIER lines in force on the
//! global instance, every variable at its format's DEFAULTVARIABLEVALUE. That state is built
//! once per load set with the runtime itself ([`Character::new`]), so the check reports
//! exactly what the runtime would:
//!
//! * a **cycle among GLOBALMODIFIER lines** exists for every character: reported as the
//!   solver reports it (`S0101` error when the values do not settle, `S0102` warning when
//!   they do);
//! * an **evaluation failure** (`E01xx`, `S0103`: division by zero, overflow, a lookup key
//!   not in its table) of a variable whose value no character can change — a global set
//!   only by GLOBALMODIFIER lines whose formulas read only such variables (no channel, no
//!   variable an object modifies; see [`independent`]) — happens for every character:
//!   reported as an error at the failing modifier. A failure of a variable that objects or
//!   inputs also feed is not reported here: a character's own data may avoid it.
//!
//! Cycles that object modifiers close are found by [`super::object_cycles`].

use crate::character::Character;
use crate::diagnostic::Diagnostic;
use crate::model::{Applies, Dataset, ModifierValue, ScopeId, VarId};
use crate::source::Span;
use std::sync::Arc;

/// Solves what `dataset` decides without a character, appends what that finds to
/// `diagnostics` (leaving out what the load reported already: the same code at the same
/// place), and hands the dataset back.
pub(super) fn check(dataset: Dataset, diagnostics: &mut Vec<Diagnostic>) -> Dataset {
    if dataset.modifiers.is_empty() {
        return dataset;
    }
    let dataset = Arc::new(dataset);
    let found = {
        let base = Character::new(Arc::clone(&dataset));
        let base_problems = base.problems();
        let mut found = globals(&dataset, &base_problems);
        found.extend(super::object_cycles::find(&dataset, &base, &base_problems));
        found
    };
    let mut seen: std::collections::HashSet<(&str, Span)> =
        diagnostics.iter().map(|d| (d.code.id, d.span)).collect();
    let mut new = Vec::new();
    for d in found {
        if seen.insert((d.code.id, d.span)) {
            new.push(d);
        }
    }
    diagnostics.extend(new);
    Arc::try_unwrap(dataset).unwrap_or_else(|shared| (*shared).clone())
}

/// The problems of the character with nothing granted that every character has: each cycle
/// among GLOBALMODIFIER lines, and each failed evaluation of an [`independent`] variable.
fn globals(ds: &Dataset, problems: &[Diagnostic]) -> Vec<Diagnostic> {
    let independent = independent(ds);
    let mut out = Vec::new();
    for d in problems {
        let code = d.code.id;
        if code == "S0101" || code == "S0102" {
            out.push(d.clone());
            continue;
        }
        if !(code.starts_with('E') || code == "S0103") {
            // S02xx: a modifier or variable the load already reported with its own code.
            continue;
        }
        // The GLOBALMODIFIER line whose formula failed, and the variable it sets.
        let Some(m) = ds.global_modifiers().find(|m| contains(m.span, d.span)) else {
            continue;
        };
        if !independent
            .get(m.variable.0 as usize)
            .copied()
            .unwrap_or(false)
        {
            continue;
        }
        let name = ds
            .variable(m.variable)
            .map(|v| v.name.to_string())
            .unwrap_or_default();
        out.push(d.clone().with_note(format!(
            "every character has this: `{name}` is set only by GLOBALMODIFIER lines from \
             defaults and data, so `rulebook check` solves it"
        )));
    }
    out
}

/// Whether `outer` holds `inner` (same file, byte range within).
fn contains(outer: Span, inner: Span) -> bool {
    outer.file == inner.file && outer.start <= inner.start && inner.end <= outer.end
}

/// The variables whose value no character can change, indexed by [`VarId`]: global
/// variables that are not channels, that no object modifier and no MODIFYOTHER sets, whose
/// every modifier is a GLOBALMODIFIER line that checked clean and reads only such
/// variables (`lookup`, `getFact` and `get` read data; `input` reads a channel, which a
/// character sets).
pub(super) fn independent(ds: &Dataset) -> Vec<bool> {
    let mut yes: Vec<bool> = ds
        .variables
        .iter()
        .map(|v| v.scope == ScopeId::GLOBAL && !v.origin.is_channel())
        .collect();
    for m in &ds.modifiers {
        let clean = match &m.value {
            ModifierValue::Constant(_) => true,
            ModifierValue::Formula(f) => f.compiled.is_some(),
        };
        if !matches!(m.applies, Applies::Global) || !clean {
            unset(&mut yes, m.variable);
        }
    }
    // Whatever reads a variable a character can change can change too.
    let mut changed = true;
    while changed {
        changed = false;
        for m in ds.global_modifiers() {
            let ModifierValue::Formula(f) = &m.value else {
                continue;
            };
            let Some(c) = &f.compiled else { continue };
            let reads_dependent = c
                .dependencies()
                .iter()
                .any(|r| !yes.get(r.0 as usize).copied().unwrap_or(false));
            if reads_dependent && unset(&mut yes, m.variable) {
                changed = true;
            }
        }
    }
    yes
}

/// Marks `v` as not independent; true when it was.
fn unset(yes: &mut [bool], v: VarId) -> bool {
    yes.get_mut(v.0 as usize)
        .is_some_and(|x| std::mem::replace(x, false))
}
