//! The old and the formula system side by side, where PCGen keeps them apart and the data
//! reads as if it did not (docs/old-formulas.md, "The two systems").
//!
//! PCGen's old formulas look a name up among the `DEFINE`d variables (and `BONUS:VAR`
//! targets), then its terms, then its output-sheet tokens (`VariableProcessor.lookupVariable`);
//! the formula system's `GLOBAL`/`LOCAL` variables and channels live in its own solver and
//! reach old formulas only through the few output tokens that read a code-controlled
//! variable. So an old formula naming a formula-system variable reads 0 (`J0121`); a
//! `DEFINE` of a formula-system variable's name makes a second variable of that name
//! (`J0122`); a `BONUS:VAR` to it raises an old-system variable nothing of the formula
//! system reads (`J0123`).

use super::codes::{BONUS_TO_FORMULA_VARIABLE, DEFINED_IN_BOTH_SYSTEMS, FORMULA_VARIABLE_READ};
use super::file::{FileFormulas, Read};
use crate::diagnostic::Diagnostic;
use crate::fxhash::{FxHashMap, FxHashSet};
use crate::load::LoadedFile;
use crate::model::{Dataset, VariableOrigin};
use crate::name::Name;
use crate::source::Span;
use std::sync::Arc;

/// The load set's formula-system variables by name (compared without regard to case, as
/// PCGen compares old-system names), each with where it is defined.
pub(super) struct FormulaVariables {
    by_name: FxHashMap<Name, Span>,
}

impl FormulaVariables {
    /// The data's variables and channels of `dataset` (not the built-ins, which have no
    /// line to show and are not the data's choice of name).
    pub(super) fn of(dataset: &Dataset) -> FormulaVariables {
        let by_name = dataset
            .variables
            .iter()
            .filter(|v| {
                matches!(v.origin, VariableOrigin::Data | VariableOrigin::Channel) && !v.flawed
            })
            .filter_map(|v| Some((v.name.clone(), v.span?)))
            .collect();
        FormulaVariables { by_name }
    }

    /// Whether the formula system defines `name`.
    pub(super) fn has(&self, name: &Name) -> bool {
        self.by_name.contains_key(name)
    }

    /// [`FORMULA_VARIABLE_READ`] for `r`, a name of `f`'s formulas the old system does not
    /// define, when the formula system does.
    pub(super) fn read(&self, f: &LoadedFile, r: &Read) -> Option<Diagnostic> {
        let defined = *self.by_name.get(&r.name)?;
        let others = crate::diagnostic::more_uses(r.uses);
        Some(
            Diagnostic::error(
                FORMULA_VARIABLE_READ,
                f.lines.place(r.span),
                format!(
                    "`{}` is a variable of the formula system, which old formulas do not \
                     read{others}",
                    r.name
                ),
            )
            .with_label("an old formula reads it: PCGen evaluates it to 0")
            .with_secondary(defined, "defined for the formula system here")
            .with_help(
                "compute the value with the formula system (`MODIFY`, whose formulas read \
                 it), or give the old system its own variable (`DEFINE`) and keep the two \
                 apart",
            )
            .with_note(
                "PCGen's old formulas look a name up among DEFINEd variables, terms and \
                 output-sheet tokens; the formula system's GLOBAL and LOCAL variables are in \
                 another store",
            ),
        )
    }

    /// [`DEFINED_IN_BOTH_SYSTEMS`] at each file's first `DEFINE` of a formula-system
    /// variable's name, and [`BONUS_TO_FORMULA_VARIABLE`] at each file's first bonus to one
    /// that no `DEFINE` of the load set makes an old-system variable too (which the first
    /// finding covers).
    /// `is_stat` says whether a name is one of the load set's stats (`CHA`), whose bonus
    /// is `BONUS:STAT`.
    pub(super) fn definitions(
        &self,
        files: &[(&LoadedFile, Arc<FileFormulas>)],
        is_stat: &dyn Fn(&Name) -> bool,
    ) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        if self.by_name.is_empty() {
            return out;
        }
        let defined_by_define: FxHashSet<&Name> = files
            .iter()
            .flat_map(|(_, f)| f.defines.iter().zip(&f.defined_at))
            .filter(|(n, at)| at.define.is_some() && self.by_name.contains_key(*n))
            .map(|(n, _)| n)
            .collect();
        for (f, formulas) in files {
            for (name, at) in formulas.defines.iter().zip(&formulas.defined_at) {
                let Some(&defined) = self.by_name.get(name) else {
                    continue;
                };
                if let Some(span) = at.define {
                    out.push(
                        Diagnostic::warning(
                            DEFINED_IN_BOTH_SYSTEMS,
                            f.lines.place(span),
                            format!(
                                "`{name}` is DEFINEd here and is also a variable of the \
                                 formula system: PCGen keeps two variables of this name"
                            ),
                        )
                        .with_label("the old system's variable")
                        .with_secondary(defined, "the formula system's variable")
                        .with_help(
                            "old formulas and BONUS:VAR read and raise the DEFINEd one, \
                             MODIFY and the formula system's formulas the other: give one \
                             of them another name, or move the old tokens to MODIFY",
                        ),
                    );
                } else if let Some(span) = at.bonus.filter(|_| !defined_by_define.contains(name)) {
                    out.push(
                        Diagnostic::warning(
                            BONUS_TO_FORMULA_VARIABLE,
                            f.lines.place(span),
                            format!(
                                "a bonus to `{name}`, which is a variable of the formula \
                                 system: the bonus never reaches it"
                            ),
                        )
                        .with_label("PCGen adds this to an old-system variable of this name")
                        .with_secondary(defined, "the formula system's variable")
                        .with_help(if is_stat(name) {
                            format!(
                                "`{name}` is a stat: a bonus to it is `BONUS:STAT|{name}|…` \
                                 (a BONUS:VAR reaches neither the stat nor the formula \
                                 system's `{name}`)"
                            )
                        } else {
                            format!(
                                "write the bonus as a modifier of the formula system: \
                                 `MODIFY:{name}|ADD|…`"
                            )
                        }),
                    );
                }
            }
        }
        out
    }
}
