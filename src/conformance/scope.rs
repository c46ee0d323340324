//! Scopes and variable definitions, the way the reference's generic scope manager resolves
//! them, for the `scopes` vectors (which name arbitrary scope trees). The product's own scope
//! model is `crate::model::ScopeTree` (PCGen's fixed `PC.*` scopes plus DYNAMICSCOPEs, with the
//! same no-overlap rule applied by the loader); this harness version exists only to replay
//! the reference's vectors.
//!
//! Scopes form a tree; each scope draws from its ancestors. A variable is defined in one
//! scope; the same name may be reused only in unrelated (sibling) scopes, never in an
//! ancestor or descendant (no shadowing). A name used in scope `s` resolves to the
//! definition in `s` or its nearest ancestor. Variables local to a scope exist once per
//! object instance of that scope.

use crate::formula::Format;
use crate::name::Name;
use std::collections::HashMap;

/// Identity of a scope in a [`Scopes`] tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScopeId(pub u32);

/// A tree of scopes.
#[derive(Clone, Debug, Default)]
pub struct Scopes {
    names: Vec<Name>,
    parents: Vec<Option<ScopeId>>,
    by_name: HashMap<Name, ScopeId>,
}

impl Scopes {
    /// An empty tree.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a scope under `parent` (`None` for a global scope). Adding a name again returns
    /// the existing scope when the parent is the same, else an error message.
    pub fn add(&mut self, name: &str, parent: Option<ScopeId>) -> Result<ScopeId, String> {
        let key = Name::new(name);
        if let Some(&id) = self.by_name.get(&key) {
            return if self.parent(id) == parent {
                Ok(id)
            } else {
                Err(format!(
                    "scope {name} was already declared with another parent"
                ))
            };
        }
        if let Some(p) = parent {
            if p.0 as usize >= self.names.len() {
                return Err(format!("the parent of scope {name} does not exist"));
            }
        }
        let id = ScopeId(u32::try_from(self.names.len()).map_err(|e| e.to_string())?);
        self.names.push(key.clone());
        self.parents.push(parent);
        self.by_name.insert(key, id);
        Ok(id)
    }

    /// The scope called `name` (case-insensitive).
    pub fn lookup(&self, name: &str) -> Option<ScopeId> {
        self.by_name.get(&Name::new(name)).copied()
    }

    /// A scope's name.
    pub fn name(&self, id: ScopeId) -> Option<&Name> {
        self.names.get(id.0 as usize)
    }

    /// A scope's parent.
    pub fn parent(&self, id: ScopeId) -> Option<ScopeId> {
        self.parents.get(id.0 as usize).copied().flatten()
    }

    /// `id` and its ancestors, nearest first.
    pub fn lineage(&self, id: ScopeId) -> Vec<ScopeId> {
        let mut out = vec![id];
        let mut cur = id;
        while let Some(p) = self.parent(cur) {
            if out.contains(&p) || out.len() > self.names.len() {
                break;
            }
            out.push(p);
            cur = p;
        }
        out
    }

    /// True when `a` is `b`, or one is an ancestor of the other.
    pub fn related(&self, a: ScopeId, b: ScopeId) -> bool {
        self.lineage(a).contains(&b) || self.lineage(b).contains(&a)
    }
}

/// Why a variable definition was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DefineError {
    /// Same scope, different format.
    FormatConflict {
        /// The format it already has.
        previous: Format,
    },
    /// Defined in an ancestor or descendant scope (no shadowing).
    ScopeConflict {
        /// The scope it is already defined in.
        previous: ScopeId,
    },
}

/// Variable definitions: `(scope, name) → format`.
#[derive(Clone, Debug, Default)]
pub struct VariableDefs {
    defs: HashMap<Name, Vec<(ScopeId, Format)>>,
}

impl VariableDefs {
    /// No definitions.
    pub fn new() -> Self {
        Self::default()
    }

    /// Defines `name` in `scope` with `format`. Defining the same again is accepted.
    pub fn define(
        &mut self,
        scopes: &Scopes,
        scope: ScopeId,
        name: &str,
        format: Format,
    ) -> Result<(), DefineError> {
        let list = self.defs.entry(Name::new(name)).or_default();
        for (s, f) in list.iter() {
            if *s == scope {
                return if *f == format {
                    Ok(())
                } else {
                    Err(DefineError::FormatConflict {
                        previous: f.clone(),
                    })
                };
            }
            if scopes.related(*s, scope) {
                return Err(DefineError::ScopeConflict { previous: *s });
            }
        }
        list.push((scope, format));
        Ok(())
    }

    /// The definition `name` refers to when used in `scope`: the scope that defines it (this
    /// one or the nearest ancestor) and its format.
    pub fn resolve(
        &self,
        scopes: &Scopes,
        scope: ScopeId,
        name: &str,
    ) -> Option<(ScopeId, &Format)> {
        let list = self.defs.get(&Name::new(name))?;
        scopes
            .lineage(scope)
            .into_iter()
            .find_map(|s| list.iter().find(|(d, _)| *d == s).map(|(d, f)| (*d, f)))
    }

    /// Every definition: name, scope, format.
    pub fn iter(&self) -> impl Iterator<Item = (&Name, ScopeId, &Format)> {
        self.defs
            .iter()
            .flat_map(|(n, l)| l.iter().map(move |(s, f)| (n, *s, f)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> (Scopes, [ScopeId; 4]) {
        let mut s = Scopes::new();
        let g = s.add("Global", None).unwrap();
        let e = s.add("Equipment", Some(g)).unwrap();
        let p = s.add("EquipmentPart", Some(e)).unwrap();
        let k = s.add("Skill", Some(g)).unwrap();
        (s, [g, e, p, k])
    }

    #[test]
    fn resolution_walks_up_and_never_sideways() {
        let (s, [g, e, p, k]) = tree();
        let mut d = VariableDefs::new();
        d.define(&s, g, "gv", Format::Number).unwrap();
        d.define(&s, e, "ev", Format::Number).unwrap();
        d.define(&s, k, "sv", Format::Number).unwrap();
        assert_eq!(d.resolve(&s, p, "GV").map(|x| x.0), Some(g));
        assert_eq!(d.resolve(&s, p, "ev").map(|x| x.0), Some(e));
        assert_eq!(d.resolve(&s, e, "sv"), None);
        assert_eq!(d.resolve(&s, g, "ev"), None);
    }

    #[test]
    fn no_shadowing_but_siblings_may_share() {
        let (s, [g, e, p, k]) = tree();
        let mut d = VariableDefs::new();
        d.define(&s, e, "y", Format::Number).unwrap();
        assert_eq!(
            d.define(&s, p, "y", Format::Number),
            Err(DefineError::ScopeConflict { previous: e })
        );
        assert!(d.define(&s, k, "y", Format::Number).is_ok());
        assert!(d.define(&s, g, "y", Format::Number).is_err());
        assert!(d.define(&s, e, "Y", Format::Number).is_ok());
        assert!(matches!(
            d.define(&s, e, "y", Format::String),
            Err(DefineError::FormatConflict { .. })
        ));
    }
}
