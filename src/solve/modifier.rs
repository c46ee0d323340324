//! Modifiers: what changes a variable, in which order, and with which value.
//!
//! A modifier has a [`ModifierKind`] (with its inherent priority), a user PRIORITY and a
//! [`ValueSource`] (a constant or a compiled formula). The solver applies a variable's
//! modifiers in ascending [`order key`](Modifier::order_key): `(PRIORITY << 32) + inherent`,
//! ties broken by insertion order.

use crate::diagnostic::Diagnostic;
use crate::name::Name;
use crate::source::Span;
use std::fmt;
use std::sync::Arc;

/// Identity of one variable instance inside a [`crate::solve::Solver`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VariableId(pub u32);

impl VariableId {
    /// The index of the variable in the solver's tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Identity of one modifier inside a [`crate::solve::Solver`]. Identities are handed out in
/// insertion order and never reused, so they double as the insertion sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ModifierId(pub u32);

/// What a modifier does with the running value `p` and its argument `a`: SET `a` (inherent
/// priority 0), MULTIPLY `p × a` (1), DIVIDE `p ÷ a` (2), ADD `p + a` (3), MAX `max(p, a)` (4,
/// raises the value to at least `a`), MIN `min(p, a)` (5, caps it at `a`). One type for the
/// data model and the solver.
pub use crate::model::ModifierKind;

/// The values the solver works with. The solver only needs to copy, compare and combine
/// them; the formula core's `Value` implements this with exact NUMBER arithmetic.
pub trait SolverValue:
    Clone + PartialEq + fmt::Debug + fmt::Display + Send + Sync + 'static
{
    /// Applies `kind` to the running value `previous` with `argument`. An error (division by
    /// zero, overflow, a kind the format does not support) is a message; the solver turns it
    /// into a diagnostic and leaves the running value unchanged.
    fn apply(kind: ModifierKind, previous: &Self, argument: &Self) -> Result<Self, String>;
}

/// Read access to the current values of variables while a modifier is evaluated.
pub trait VarReader<V> {
    /// The current value of `var` (its stored value, or its starting value if it was never
    /// solved). `None` only for an identity the solver does not know.
    fn get(&self, var: VariableId) -> Option<&V>;
}

/// Where a modifier's argument comes from: a constant, or a compiled formula.
pub trait ValueSource<V>: Send + Sync {
    /// Every variable the source may read (both branches of an `if`). One graph edge is
    /// added per distinct dependency.
    fn dependencies(&self) -> &[VariableId];
    /// Computes the argument. `running` is the variable's running value (`value()`).
    fn eval(&self, vars: &dyn VarReader<V>, running: &V) -> Result<V, Box<Diagnostic>>;
    /// The source as written (for explanations and the graph).
    fn text(&self) -> String;
}

/// A constant argument.
#[derive(Clone, Debug, PartialEq)]
pub struct Constant<V> {
    /// The value.
    pub value: V,
    /// The text it was written as (shown in explanations).
    pub text: String,
}

impl<V: SolverValue> ValueSource<V> for Constant<V> {
    fn dependencies(&self) -> &[VariableId] {
        &[]
    }
    fn eval(&self, _vars: &dyn VarReader<V>, _running: &V) -> Result<V, Box<Diagnostic>> {
        Ok(self.value.clone())
    }
    fn text(&self) -> String {
        self.text.clone()
    }
}

/// Where a modifier came from, for explanations and diagnostics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    /// The object that carries the modifier (`None` for a modifier added directly).
    pub object: Option<Name>,
    /// The span of the MODIFY/MODIFYOTHER token (or formula) in its file.
    pub span: Option<Span>,
}

/// One modifier as handed to the solver.
#[derive(Clone)]
pub struct Modifier<V> {
    /// The variable instance it modifies.
    pub var: VariableId,
    /// What it does.
    pub kind: ModifierKind,
    /// The user PRIORITY (absent = 0).
    pub priority: u32,
    /// Its argument.
    pub source: Arc<dyn ValueSource<V>>,
    /// Where it came from.
    pub origin: Origin,
}

impl<V> Modifier<V> {
    /// `(PRIORITY << 32) + inherent`: the solver applies modifiers in ascending order of
    /// this key, insertion order breaking ties.
    pub fn order_key(&self) -> u64 {
        (u64::from(self.priority) << 32) + u64::from(self.kind.inherent_priority())
    }
}

impl<V> fmt::Debug for Modifier<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Modifier")
            .field("var", &self.var)
            .field("kind", &self.kind)
            .field("priority", &self.priority)
            .field("source", &self.source.text())
            .field("origin", &self.origin)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inherent_priorities_follow_the_reference() {
        let got: Vec<u32> = ModifierKind::ALL
            .iter()
            .map(|k| k.inherent_priority())
            .collect();
        assert_eq!(got, vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn kind_names_round_trip_and_subtract_is_unknown() {
        for k in ModifierKind::ALL {
            assert_eq!(ModifierKind::from_name(k.name()), Some(k));
            assert_eq!(k.to_string(), k.name());
        }
        assert_eq!(ModifierKind::from_name("SUBTRACT"), None);
    }

    #[test]
    fn user_priority_dominates_inherent() {
        let src: Arc<dyn ValueSource<i64Value>> = Arc::new(Constant {
            value: i64Value(1),
            text: "1".into(),
        });
        let m = |kind, priority| Modifier {
            var: VariableId(0),
            kind,
            priority,
            source: src.clone(),
            origin: Origin::default(),
        };
        assert!(m(ModifierKind::Min, 0).order_key() < m(ModifierKind::Set, 1).order_key());
        assert_eq!(m(ModifierKind::Set, 100).order_key(), 429_496_729_600);
        assert_eq!(m(ModifierKind::Add, 0).order_key(), 3);
    }

    #[allow(non_camel_case_types)]
    #[derive(Clone, Debug, PartialEq)]
    struct i64Value(i64);
    impl fmt::Display for i64Value {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{}", self.0)
        }
    }
    impl SolverValue for i64Value {
        fn apply(_k: ModifierKind, _p: &Self, a: &Self) -> Result<Self, String> {
            Ok(a.clone())
        }
    }
}
