//! The scope tree: where variables live and what each scope can see.
//!
//! PCGen's scopes are `PC` (global) and its children `PC.STAT`, `PC.SAVE`, `PC.SKILL`,
//! `PC.SIZE`, `PC.EQUIPMENT` (with its sub-scope `PC.EQUIPMENT.PART`), `PC.RACE`, and one
//! `PC.<NAME>` per DYNAMICSCOPE. Scope names are case-sensitive, as in PCGen. The spec's
//! older names (`EQUIPMENT.PART`, `STAT`, …) are accepted as aliases; the model reports a note
//! because PCGen requires the `PC.` form.

use crate::name::Name;

/// Identity of a scope in a [`ScopeTree`]. `ScopeId(0)` is always `PC`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScopeId(pub u32);

impl ScopeId {
    /// The global scope `PC`.
    pub const GLOBAL: ScopeId = ScopeId(0);
}

/// One scope.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scope {
    /// Full name, e.g. `PC.EQUIPMENT.PART`.
    pub name: String,
    /// The scope it draws from (`None` for `PC`).
    pub parent: Option<ScopeId>,
    /// For DYNAMICSCOPE scopes: the category (and object format) name, e.g. `MOVEMENT`.
    pub dynamic: Option<Name>,
}

/// How a scope name was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeSpelling {
    /// Exactly as PCGen wants it.
    Exact,
    /// The spec's name without `PC.` (accepted, with a note).
    SpecAlias,
    /// Right letters, wrong case (PCGen rejects it; we report an error with a suggestion).
    WrongCase,
}

/// All scopes of a load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScopeTree {
    scopes: Vec<Scope>,
}

impl Default for ScopeTree {
    fn default() -> Self {
        Self::pcgen()
    }
}

impl ScopeTree {
    /// PCGen's built-in scopes.
    pub fn pcgen() -> Self {
        let mut t = ScopeTree {
            scopes: vec![Scope {
                name: "PC".into(),
                parent: None,
                dynamic: None,
            }],
        };
        for n in ["STAT", "SAVE", "SKILL", "SIZE", "EQUIPMENT", "RACE"] {
            t.push(format!("PC.{n}"), Some(ScopeId::GLOBAL), None);
        }
        if let Some(eq) = t.find_exact("PC.EQUIPMENT") {
            t.push("PC.EQUIPMENT.PART".into(), Some(eq), None);
        }
        t
    }

    fn push(&mut self, name: String, parent: Option<ScopeId>, dynamic: Option<Name>) -> ScopeId {
        let id = ScopeId(u32::try_from(self.scopes.len()).unwrap_or(u32::MAX));
        self.scopes.push(Scope {
            name,
            parent,
            dynamic,
        });
        id
    }

    /// Adds `PC.<category>` for a DYNAMICSCOPE (or returns the existing one).
    pub fn add_dynamic(&mut self, category: &str) -> ScopeId {
        let name = format!("PC.{category}");
        if let Some(id) = self.find_exact(&name) {
            return id;
        }
        self.push(name, Some(ScopeId::GLOBAL), Some(Name::new(category)))
    }

    fn find_exact(&self, name: &str) -> Option<ScopeId> {
        self.iter().find(|(_, s)| s.name == name).map(|(i, _)| i)
    }

    /// Resolves a scope name as written in data.
    pub fn resolve(&self, name: &str) -> Option<(ScopeId, ScopeSpelling)> {
        if let Some(id) = self.find_exact(name) {
            return Some((id, ScopeSpelling::Exact));
        }
        if name != "PC" && !name.starts_with("PC.") {
            if let Some(id) = self.find_exact(&format!("PC.{name}")) {
                return Some((id, ScopeSpelling::SpecAlias));
            }
        }
        self.iter()
            .find(|(_, s)| {
                s.name.eq_ignore_ascii_case(name)
                    || s.name.eq_ignore_ascii_case(&format!("PC.{name}"))
            })
            .map(|(i, _)| (i, ScopeSpelling::WrongCase))
    }

    /// The scope with this id.
    pub fn get(&self, id: ScopeId) -> Option<&Scope> {
        self.scopes.get(id.0 as usize)
    }

    /// The scope's full name (empty if unknown).
    pub fn name(&self, id: ScopeId) -> &str {
        self.get(id).map_or("", |s| s.name.as_str())
    }

    /// All scopes with their ids.
    pub fn iter(&self) -> impl Iterator<Item = (ScopeId, &Scope)> {
        self.scopes
            .iter()
            .enumerate()
            .map(|(i, s)| (ScopeId(u32::try_from(i).unwrap_or(u32::MAX)), s))
    }

    /// `id` and then each ancestor up to `PC`.
    pub fn ancestors(&self, id: ScopeId) -> impl Iterator<Item = ScopeId> + '_ {
        let mut next = Some(id);
        std::iter::from_fn(move || {
            let cur = next?;
            next = self.get(cur).and_then(|s| s.parent);
            Some(cur)
        })
    }

    /// How many steps up from `from` to `to` (0 when equal), if `to` is an ancestor.
    pub fn depth_to(&self, from: ScopeId, to: ScopeId) -> Option<usize> {
        self.ancestors(from).position(|a| a == to)
    }

    /// True when one scope is the other or an ancestor of it (names would collide).
    pub fn related(&self, a: ScopeId, b: ScopeId) -> bool {
        self.depth_to(a, b).is_some() || self.depth_to(b, a).is_some()
    }

    /// The sub-scope of `id` (e.g. `PC.EQUIPMENT.PART` for `PC.EQUIPMENT`).
    pub fn child(&self, id: ScopeId) -> Option<ScopeId> {
        self.iter()
            .find(|(_, s)| s.parent == Some(id))
            .map(|(i, _)| i)
    }

    /// Scope names for "did you mean" help.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.scopes.iter().map(|s| s.name.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_exact_alias_and_case() {
        let mut t = ScopeTree::pcgen();
        let (part, how) = t.resolve("PC.EQUIPMENT.PART").unwrap();
        assert_eq!(how, ScopeSpelling::Exact);
        assert_eq!(
            t.resolve("EQUIPMENT.PART").unwrap(),
            (part, ScopeSpelling::SpecAlias)
        );
        assert_eq!(t.resolve("pc.stat").unwrap().1, ScopeSpelling::WrongCase);
        assert!(t.resolve("PC.SIZEADJUSTMENT").is_none());
        let eq = t.resolve("PC.EQUIPMENT").unwrap().0;
        assert_eq!(
            t.ancestors(part).collect::<Vec<_>>(),
            vec![part, eq, ScopeId::GLOBAL]
        );
        assert!(t.related(ScopeId::GLOBAL, part));
        let stat = t.resolve("PC.STAT").unwrap().0;
        assert!(!t.related(stat, part));
        assert_eq!(t.child(eq), Some(part));
        let mv = t.add_dynamic("MOVEMENT");
        assert_eq!(t.resolve("PC.MOVEMENT").unwrap().0, mv);
    }
}
