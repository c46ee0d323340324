//! Diagnostic codes of the solver (`S01xx`). Documented in `docs/errors.md`.

use crate::diagnostic::Code;

/// Variables depend on each other in a cycle whose values do not settle.
pub const DEPENDENCY_CYCLE: Code = Code {
    id: "S0101",
    name: "dependency-cycle",
};

/// Variables depend on each other in a cycle, but their values settled.
pub const SETTLED_CYCLE: Code = Code {
    id: "S0102",
    name: "settled-cycle",
};

/// A modifier could not be combined with the running value (division by zero with DIVIDE,
/// overflow); a formula that fails to evaluate keeps its own `E01xx` code.
pub const MODIFIER_FAILED: Code = Code {
    id: "S0103",
    name: "modifier-failed",
};

/// Object modifiers close a dependency cycle when those objects are granted together (found
/// by `rulebook check`; a warning, since whether one character has them all is the data's
/// business).
pub const OBJECTS_CYCLE: Code = Code {
    id: "S0105",
    name: "cycle-between-objects",
};
