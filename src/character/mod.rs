//! The character API: a loaded dataset, characters built from granted objects, typed variable reads.
//!
//! A [`Dataset`] is loaded once and shared (`Arc`, immutable). Any number of [`Character`]s
//! are built from it: grant and remove objects ([`Character::grant`], [`Character::remove`]),
//! set channel inputs ([`Character::set_input`]), read variables by scope instance and name
//! ([`Character::get`], [`Character::get_global`]) and ask how a value came about
//! ([`Character::explain`]). Every change re-solves only what it affects (see
//! `docs/solver.md`).
//!
//! * Each granted object is an **instance**; a variable local to its scope exists once per
//!   instance (each Longsword its own `HandsRequired`); an equipment's `PART:n` modifiers
//!   create part instances with their own part variables.
//! * MODIFY on a granted object applies to its own instance (or the global/parent variable
//!   it names); MODIFYOTHER applies to every granted object it addresses — also objects
//!   granted later — and is revoked with its source; GLOBALMODIFIER lines always apply.
//! * `GRANT:` on an object grants the named dynamic objects with it (and removes them with it).
//!
//! The `impl Character` is split by concern: `grant` (granting and removing instances,
//! MODIFYOTHER, `GRANT:`, equipment parts), `modifiers` (putting a modifier in force on an
//! instance), `input` (channel inputs), `problems` (the current problems, S0203/S0204 per
//! instance), `read` (values, explanations, evaluation); `env` resolves names in formulas
//! and `file` reads character files.

mod env;
pub mod file;
mod grant;
mod input;
mod modifiers;
mod problems;
mod read;
mod resolve;
mod unapplied;

pub use read::PreparedFormula;
pub use unapplied::OLD_TOKENS_NOT_APPLIED;

use crate::diagnostic::{Code, Diagnostic};
use crate::formula::Value;
use crate::load::FileKind;
use crate::model::{Applies, Dataset, ModId, ObjectId, ObjectKind, ScopeId, VarId};
use crate::name::Name;
use crate::solve::{ModifierId, SolveReport, Solver, VariableId};
use crate::source::Span;
use problems::InstanceProblem;
use std::collections::HashMap;
use std::sync::Arc;

/// An object could not be found.
pub const UNKNOWN_OBJECT: Code = Code {
    id: "S0201",
    name: "unknown-object",
};
/// A variable or channel could not be found from an instance.
pub const UNKNOWN_VARIABLE: Code = Code {
    id: "S0202",
    name: "unknown-character-variable",
};
/// A modifier's formula could not be used on a character (parse or check failed there).
pub const MODIFIER_UNUSABLE: Code = Code {
    id: "S0203",
    name: "modifier-unusable",
};
/// A format has no default value (DEFAULTVARIABLEVALUE) in the dataset.
pub const NO_DEFAULT: Code = Code {
    id: "S0204",
    name: "no-default-value",
};
/// An input value does not fit the channel's format.
pub const BAD_INPUT: Code = Code {
    id: "S0205",
    name: "bad-input",
};

/// A character file's equipment modifier names a part that no equipment has (`part = 0`,
/// `part = 4294967295`) or goes onto an object that is not equipment (`RACE:Human`).
pub const BAD_EQUIPMOD: Code = Code {
    id: "S0104",
    name: "bad-equipment-modifier",
};

/// Identity of a scope instance of a character: the global instance, a granted object, or a
/// part of a granted equipment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstanceId(pub u32);

impl InstanceId {
    /// The global instance (scope `PC`).
    pub const GLOBAL: InstanceId = InstanceId(0);
}

#[derive(Clone, Debug)]
struct Instance {
    object: Option<ObjectId>,
    scope: ScopeId,
    parent: Option<InstanceId>,
    /// For part instances: the part number.
    part: Option<u32>,
    alive: bool,
    /// Part instances by number.
    parts: Vec<(u32, InstanceId)>,
    /// Instances granted together with this one (GRANT:).
    children: Vec<InstanceId>,
    /// Solver modifiers this instance is the source of.
    sourced: Vec<ModifierId>,
    /// Solver modifiers applied onto this instance's variables from other sources.
    received: Vec<(InstanceId, ModifierId)>,
    label: String,
}

/// A MODIFYOTHER in force: its model modifier and the instance carrying it.
#[derive(Clone, Copy, Debug)]
struct ActiveOther {
    source: InstanceId,
    modifier: ModId,
}

/// A character: granted objects, inputs and the solved values of every variable instance.
#[derive(Clone)]
pub struct Character {
    dataset: Arc<Dataset>,
    solver: Solver<Value>,
    instances: Vec<Instance>,
    vars: HashMap<(InstanceId, VarId), VariableId>,
    var_names: HashMap<VariableId, (InstanceId, VarId)>,
    others: Vec<ActiveOther>,
    /// Problems of granted instances, in the order found; dropped with their instances.
    instance_problems: Vec<InstanceProblem>,
    /// The instance whose modifier [`Character::apply`] is putting in force (the source a
    /// [`NO_DEFAULT`] found meanwhile belongs to).
    applying: Option<InstanceId>,
}

/// A constant from the model as a value (the model already holds `formula::Value`s,
/// converted with `Format::parse_value` at load).
pub fn literal_value(lit: &Value) -> Option<Value> {
    Some(lit.clone())
}

/// The object of `kind` (a file kind token such as `RACE`, `STAT`, `EQUIPMENT`, or a
/// DYNAMIC category such as `MOVEMENT`) with `key` in `dataset`.
pub fn find_object_in(dataset: &Dataset, kind: &str, key: &str) -> Option<ObjectId> {
    if let Some(k) = FileKind::from_token(&kind.to_ascii_uppercase()) {
        if let Some(o) = dataset.object(&ObjectKind::File(k), key) {
            return Some(o);
        }
        // Feats and abilities share one namespace in practice.
        if k == FileKind::Ability {
            if let Some(o) = dataset.object(&ObjectKind::File(FileKind::Feat), key) {
                return Some(o);
            }
        }
    }
    dataset.object(&ObjectKind::Dynamic(Name::new(kind)), key)
}

/// "There is no {kind} `{key}`" ([`UNKNOWN_OBJECT`]).
fn unknown_object(kind: &str, key: &str) -> Diagnostic {
    Diagnostic::error(
        UNKNOWN_OBJECT,
        Span::DETACHED,
        format!("there is no {kind} `{key}` in the dataset"),
    )
    .with_help("check the kind (RACE, STAT, EQUIPMENT, …) and the object's KEY")
}

/// What [`Character::grant`] and friends did.
pub type Changes = SolveReport;

impl Character {
    /// A character with nothing granted but the global modifiers.
    pub fn new(dataset: Arc<Dataset>) -> Character {
        let mut c = Character {
            dataset,
            solver: Solver::new(),
            instances: vec![Instance {
                object: None,
                scope: ScopeId::GLOBAL,
                parent: None,
                part: None,
                alive: true,
                parts: Vec::new(),
                children: Vec::new(),
                sourced: Vec::new(),
                received: Vec::new(),
                label: "PC".into(),
            }],
            vars: HashMap::new(),
            var_names: HashMap::new(),
            others: Vec::new(),
            instance_problems: Vec::new(),
            applying: None,
        };
        let global: Vec<ModId> = c.dataset.global_modifiers().map(|m| m.id).collect();
        for m in global {
            c.apply(InstanceId::GLOBAL, m, InstanceId::GLOBAL);
        }
        // MODIFYOTHER lines of GLOBALMODIFIER files (no source object) are always in force:
        // they reach every object of their scope granted later.
        let global_others: Vec<ModId> = c
            .dataset
            .modifiers
            .iter()
            .filter(|m| m.source.is_none() && matches!(m.applies, Applies::Other { .. }))
            .map(|m| m.id)
            .collect();
        for m in global_others {
            c.others.push(ActiveOther {
                source: InstanceId::GLOBAL,
                modifier: m,
            });
        }
        c.solver.solve();
        c
    }

    /// The dataset.
    pub fn dataset(&self) -> &Arc<Dataset> {
        &self.dataset
    }

    /// Solves what changed; the solver keeps its current problems (see
    /// [`Character::problems`]).
    fn solve(&mut self) -> Changes {
        self.solver.solve()
    }

    /// Re-solves everything from scratch (the incremental result must be identical).
    pub fn solve_from_scratch(&mut self) -> Changes {
        self.solver.invalidate_all();
        self.solve()
    }
}
