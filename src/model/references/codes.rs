//! Diagnostic codes of the old token system's references (`R01xx`): objects a line looks up
//! by key and the ability categories it names. Each is documented with an example and its
//! fix in `docs/errors.md`.

use crate::diagnostic::Code;

/// A `.MOD` or `.COPY=` of an object no line of the load set makes: PCGen skips the line.
pub const MOD_TARGET_MISSING: Code = Code {
    id: "R0101",
    name: "mod-target-missing",
};
/// An ability line without `CATEGORY:`: PCGen fails on the line and drops the ability.
pub const ABILITY_WITHOUT_CATEGORY: Code = Code {
    id: "R0102",
    name: "ability-without-category",
};
/// An ability category that neither the game mode nor an ABILITYCATEGORY file of the load
/// set defines: PCGen drops every ability of it and every `ABILITY:` token naming it.
pub const UNKNOWN_ABILITY_CATEGORY: Code = Code {
    id: "R0103",
    name: "unknown-ability-category",
};
/// A `.MOD`, `.COPY=` or `.FORGET` of an ability without `CATEGORY=cat|`: PCGen cannot
/// look the ability up.
pub const TARGET_WITHOUT_CATEGORY: Code = Code {
    id: "R0104",
    name: "target-without-category",
};
/// A token value names an object (a skill, class, spell, language …) that no line of the
/// load set makes: PCGen logs an unconstructed reference and the token loses the name.
pub const UNKNOWN_REFERENCE: Code = Code {
    id: "R0105",
    name: "unknown-reference",
};
/// A prerequisite names a key (an ability, skill, class, race …) that no campaign under
/// the data folder defines: PCGen never looks it up at load, so it is silent, and the
/// prerequisite can never pass (a beyond-PCGen warning, docs/loading.md).
pub const UNKNOWN_PREREQUISITE_KEY: Code = Code {
    id: "R0106",
    name: "unknown-prerequisite-key",
};
/// A group of objects a token names (`TYPE=Perform`, `ALL`, a race's `MONCSKILL:`) that no
/// object of the load set joins: PCGen reports it at the end of the load and the token gives
/// nothing from it.
pub const EMPTY_GROUP: Code = Code {
    id: "R0107",
    name: "empty-group",
};
