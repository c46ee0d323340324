//! Explanations: how a variable got its value.

use super::modifier::{ModifierId, ModifierKind, Origin, VariableId};

/// One modifier as it was applied.
#[derive(Clone, Debug, PartialEq)]
pub struct AppliedModifier<V> {
    /// Its identity in the solver.
    pub id: ModifierId,
    /// SET, ADD, …
    pub kind: ModifierKind,
    /// The user PRIORITY.
    pub priority: u32,
    /// `(PRIORITY << 32) + inherent`.
    pub order_key: u64,
    /// Source object and span.
    pub origin: Origin,
    /// The formula (or constant) as written.
    pub formula: String,
    /// The formula's result, when it could be computed.
    pub argument: Option<V>,
    /// The running value before the modifier.
    pub before: V,
    /// The running value after it (unchanged when it failed).
    pub after: V,
    /// Why it failed, if it did.
    pub error: Option<String>,
    /// The variables its formula reads.
    pub reads: Vec<VariableId>,
}

/// A variable read by the modifiers of the explained variable.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadVariable<V> {
    /// Which.
    pub var: VariableId,
    /// Its name.
    pub name: String,
    /// Its current value.
    pub value: V,
}

/// How one variable got its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation<V> {
    /// The variable.
    pub var: VariableId,
    /// Its name.
    pub name: String,
    /// Its starting value (format default or channel input).
    pub start: V,
    /// The modifiers in the order they were applied.
    pub applied: Vec<AppliedModifier<V>>,
    /// The final value.
    pub value: V,
    /// Every variable its modifiers read.
    pub reads: Vec<ReadVariable<V>>,
}
