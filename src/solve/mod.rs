//! The solver: dependency graph of variable instances, modifier ordering, incremental evaluation, explanations.
//!
//! The solver does not know how formulas look: a modifier's argument is a
//! [`ValueSource`] (a constant or a compiled formula with its dependency list), and values
//! are anything implementing [`SolverValue`]. See `docs/solver.md`.

pub mod codes;
pub mod explain;
pub mod formula_source;
pub mod modifier;
mod scc;
pub mod solver;

pub use explain::{AppliedModifier, Explanation, ReadVariable};
pub use modifier::{
    Constant, Modifier, ModifierId, ModifierKind, Origin, SolverValue, ValueSource, VarReader,
    VariableId,
};
pub use scc::tarjan_scc_iterative;
pub use solver::{SolveReport, Solver};

#[cfg(test)]
mod tests;
