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

/// A modifier could not be applied (division by zero, overflow, a formula that failed).
pub const MODIFIER_FAILED: Code = Code {
    id: "S0103",
    name: "modifier-failed",
};
