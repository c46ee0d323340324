//! UnterMUD boolean locks, from the help text (`HELP/booleans`) and the assumptions of
//! `shared/reference/dialects-semantics.md` §3 (documented in `docs/dialects.md`).
//!
//! A lock is set once with [`Lock::compile`]: it is parsed, every name is resolved to the
//! OID of an object in the local database ([`World`]), every operator is checked for its
//! operands, and the lock is rewritten to its stored form (`Display`). It is then evaluated
//! many times with [`Lock::evaluate`] for an actor.
//!
//! ```
//! use rulebook::dialect::untermud::{Lock, World};
//! use rulebook::source::FileId;
//! let world: World = serde_json::from_str(r#"{"mud": "DEEPMUD", "objects": {
//!     "0": {"name": "Lobby", "kind": "room", "location": null},
//!     "wizard": {"name": "UnterWiz", "kind": "player", "location": "0"},
//!     "21@DEEPMUD": {"name": "frisbee", "kind": "thing", "location": "wizard"}}}"#).unwrap();
//! let lock = Lock::compile("UnterWiz & !frisbee", FileId(0), &world).unwrap();
//! assert_eq!(lock.to_string(), "wizard&!21@DEEPMUD");
//! assert!(!lock.evaluate(&world, "wizard"));
//! ```

mod lex;
mod parse;

use crate::diagnostic::{Code, Diagnostic};
use crate::dialect::core::{self, Env, EvalError, Expr, Leaf, Ty};
use crate::source::{FileId, Span};
use indexmap::IndexMap;
use serde::Deserialize;
use std::fmt;

/// An operator without its operand(s): `a&`, `&a`, `!`, `with`, `()`.
pub const MISSING_OPERAND: Code = Code {
    id: "D0140",
    name: "untermud-missing-operand",
};
/// A quote that is never closed, or a `\` at the very end.
pub const UNTERMINATED_QUOTE: Code = Code {
    id: "D0141",
    name: "untermud-unterminated-quote",
};
/// Two values with no operator between them (`gold key` without quotes).
pub const MISSING_OPERATOR: Code = Code {
    id: "D0142",
    name: "untermud-missing-operator",
};
/// A `(` without `)` or a `)` without `(`.
pub const UNBALANCED_PARENTHESIS: Code = Code {
    id: "D0143",
    name: "untermud-unbalanced-parenthesis",
};
/// A name or OID that matches no object of the local database.
pub const UNKNOWN_OBJECT: Code = Code {
    id: "D0144",
    name: "untermud-unknown-object",
};
/// An OID of another MUD (locks may use only local objects).
pub const REMOTE_OBJECT: Code = Code {
    id: "D0145",
    name: "untermud-remote-object",
};
/// A name that matches several objects.
pub const AMBIGUOUS_NAME: Code = Code {
    id: "D0146",
    name: "untermud-ambiguous-name",
};

/// What an object is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A room (has no location).
    Room,
    /// A player.
    Player,
    /// A thing.
    Thing,
    /// An exit.
    Exit,
}

/// One object of the database.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Object {
    /// Its name (matched case-insensitively when a lock is set).
    pub name: String,
    /// Its kind.
    pub kind: Kind,
    /// The OID of the room it is in, or of the player carrying it; `None` for rooms.
    pub location: Option<String>,
}

/// The local database a lock is set and evaluated against.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct World {
    /// This MUD's name (the part after `@` in its OIDs).
    pub mud: String,
    /// Objects by OID.
    pub objects: IndexMap<String, Object>,
}

/// A leaf of a compiled lock: is the object with this OID present for the actor?
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectTest {
    /// The object.
    pub oid: String,
    /// Under `with`: true only when the object is in the actor's location (not the actor
    /// itself, not carried).
    pub same_location_only: bool,
}

impl Leaf for ObjectTest {
    fn ty(&self) -> Ty {
        Ty::Bool
    }
}

/// A validated lock in stored (OID) form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lock {
    text: String,
    expr: Expr<ObjectTest>,
}

impl fmt::Display for Lock {
    /// The stored form, e.g. `(22@DEEPMUD|wizard)&!21@DEEPMUD`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Lock {
    /// Sets a lock: parses `text`, resolves names to OIDs of `world`, checks every operator
    /// has its operands, and rewrites it. All problems found are returned (lexical and
    /// name problems are collected; the first grammar problem ends the parse).
    pub fn compile(text: &str, file: FileId, world: &World) -> Result<Lock, Vec<Diagnostic>> {
        let mut diags = Vec::new();
        let tokens = lex::lex(text, file, &mut diags);
        let mut parser = parse::Parser {
            tokens: &tokens,
            pos: 0,
            end: Span::new(file, text.len()..text.len()),
            nesting: 0,
        };
        let mut tree = match parser.lock() {
            Ok(t) => Some(t),
            Err(d) => {
                diags.push(*d);
                None
            }
        };
        // A value cut short by a lexical error would only be reported again as unknown.
        let lexed_cleanly = diags.is_empty();
        if let (Some(t), true) = (tree.as_mut(), lexed_cleanly) {
            parse::resolve(t, world, &mut diags);
        }
        match tree {
            Some(t) if diags.is_empty() => {
                let mut out = String::new();
                parse::print(&t, &mut out);
                Ok(Lock {
                    text: out,
                    expr: parse::lower(&t, false),
                })
            }
            _ => {
                diags.sort_by_key(|d| (d.span.start, d.code.id));
                Err(diags)
            }
        }
    }

    /// The compiled tree.
    pub fn expr(&self) -> &Expr<ObjectTest> {
        &self.expr
    }

    /// Whether `actor` (an OID) passes the lock in `world`. An object is present when it
    /// is the actor, is carried by the actor, or is in the actor's location; under `with`
    /// only the last counts. Objects that no longer exist are absent.
    pub fn evaluate(&self, world: &World, actor: &str) -> bool {
        let mut env = Presence { world, actor };
        matches!(core::eval(&self.expr, &mut env), Ok(v) if v != 0)
    }
}

struct Presence<'a> {
    world: &'a World,
    actor: &'a str,
}

impl Env<ObjectTest> for Presence<'_> {
    fn leaf(&mut self, test: &ObjectTest, _span: Span) -> Result<i32, EvalError> {
        let here = self
            .world
            .objects
            .get(self.actor)
            .and_then(|a| a.location.as_deref());
        let Some(obj) = self.world.objects.get(&test.oid) else {
            return Ok(0);
        };
        let loc = obj.location.as_deref();
        let same_room = loc.is_some() && loc == here && test.oid != self.actor;
        let present = if test.same_location_only {
            same_room
        } else {
            test.oid == self.actor || loc == Some(self.actor) || same_room
        };
        Ok(i32::from(present))
    }

    fn divide_by_zero(&mut self, _left: i32, op_span: Span) -> Result<i32, EvalError> {
        // Unreachable: locks have no arithmetic.
        Err(core::eval::overflow(op_span, "the division"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world() -> World {
        serde_json::from_str(
            r#"{"mud": "M", "objects": {
                "0": {"name": "Lobby", "kind": "room", "location": null},
                "1": {"name": "Vault", "kind": "room", "location": null},
                "a": {"name": "Alice", "kind": "player", "location": "0"},
                "b": {"name": "Bob", "kind": "player", "location": "0"},
                "k@M": {"name": "key", "kind": "thing", "location": "a"},
                "h@M": {"name": "hat", "kind": "thing", "location": "b"},
                "r@M": {"name": "rock", "kind": "thing", "location": "0"}}}"#,
        )
        .unwrap()
    }

    fn lock(text: &str) -> Lock {
        Lock::compile(text, FileId(0), &world()).unwrap()
    }

    #[test]
    fn presence_is_self_inventory_or_same_room() {
        let w = world();
        assert!(lock("Alice").evaluate(&w, "a"));
        assert!(lock("key").evaluate(&w, "a"));
        assert!(lock("rock & Bob").evaluate(&w, "a"));
        // Carried by someone else in the room: not present.
        assert!(!lock("hat").evaluate(&w, "a"));
        // `with`: only the room, not the actor or their inventory.
        assert!(!lock("with key").evaluate(&w, "a"));
        assert!(!lock("with Alice").evaluate(&w, "a"));
        assert!(lock("with (rock & Bob)").evaluate(&w, "a"));
    }

    #[test]
    fn precedence_and_rewrite() {
        let l = lock(" !F & ( key | 'rock' ) | with Bob ");
        assert_eq!(l.to_string(), "!F&(k@M|r@M)|with b");
        assert!(lock("T|F&F").evaluate(&world(), "a"));
    }

    #[test]
    fn every_unknown_name_is_reported() {
        let diags = Lock::compile("nope | key & nada", FileId(0), &world()).unwrap_err();
        assert_eq!(diags.len(), 2);
        assert!(diags.iter().all(|d| d.code == UNKNOWN_OBJECT));
    }
}
