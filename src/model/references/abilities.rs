//! The old system's objects as the editor and the character library look them up, with the
//! namespaces the checker resolves them in: an ability by the pool its category draws from
//! and its key (`Weapon Focus (Longsword)`: the ability `Weapon Focus`, its choice
//! `Longsword`), any other object by kind and key, and the object a `.COPY=`, `.MOD` or
//! `.FORGET` line looks up.

use super::heads::{FileObjects, Head, head_line};
use super::{Categories, Space};
use crate::fxhash::FxHashMap;
use crate::load::{FileKind, LoadSet};
use crate::model::{Dataset, Object, ObjectKind};
use crate::name::Name;
use crate::source::{FileId, Span};
use std::ops::Range;

/// The ability pools of one load set: which category draws from which pool, and the pool
/// each ability object is in.
pub struct OldObjects {
    categories: Categories,
    /// The pool of each ability, by the file that made it and its key.
    pools: FxHashMap<(FileId, Name), Name>,
}

impl std::fmt::Debug for OldObjects {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OldObjects")
            .field("abilities", &self.pools.len())
            .finish_non_exhaustive()
    }
}

/// The pool of a namespace (its parent category).
fn pool(space: Space) -> Option<Name> {
    match space {
        Space::Ability(p) => Some(p),
        Space::File(_) => None,
    }
}

impl OldObjects {
    /// The index of `load` (its files' objects are read once per run and cached: this only
    /// looks their keys up).
    pub fn of(load: &LoadSet) -> OldObjects {
        let categories = Categories::of(load);
        let feat = categories
            .space(&Name::new("FEAT"))
            .and_then(pool)
            .unwrap_or_else(|| Name::new("FEAT"));
        let mut pools = FxHashMap::default();
        for f in load
            .files
            .iter()
            .filter(|f| matches!(f.kind, FileKind::Ability | FileKind::Feat))
        {
            let objects = FileObjects::of(&f.cached, f.kind);
            for g in &objects.groups {
                let p = match &g.category {
                    Some(c) => categories.space(&c.name).and_then(pool),
                    None => Some(feat.clone()),
                };
                let Some(p) = p else { continue };
                for key in g.keys.keys() {
                    pools
                        .entry((f.file, key.clone()))
                        .or_insert_with(|| p.clone());
                }
            }
        }
        OldObjects { categories, pools }
    }

    /// The pool abilities of the category written `category` draw from (`None`: no such
    /// category in the load set).
    pub fn pool(&self, category: &str) -> Option<Name> {
        self.categories
            .space(&Name::new(category.trim()))
            .and_then(pool)
    }

    /// The pool of the ability `object` of `dataset` (`None` for other objects).
    pub fn pool_of(&self, dataset: &Dataset, object: &Object) -> Option<&Name> {
        self.pools
            .get(&(object.span.file, dataset.key_of(object).clone()))
    }

    /// Every ability category of the load set (the game mode's and the data's).
    pub fn categories(&self) -> impl Iterator<Item = &Name> {
        self.categories.parents.keys()
    }

    /// The objects of `dataset` a name of `target` (with the ability `category` a token
    /// gives) may be: those of the kind, for abilities those of the category's pool (of
    /// every pool when the category is not one of the load set's, e.g. `ANY`).
    pub fn candidates<'d>(
        &'d self,
        dataset: &'d Dataset,
        target: FileKind,
        category: Option<&str>,
    ) -> impl Iterator<Item = &'d Object> + 'd {
        let ability = matches!(target, FileKind::Ability | FileKind::Feat);
        let wanted = match (target, category) {
            (FileKind::Feat, _) | (FileKind::Ability, None) => self.pool("FEAT"),
            (_, Some(c)) => self.pool(c),
            _ => None,
        };
        dataset.objects.iter().filter(move |o| {
            !o.forgotten
                && match &o.kind {
                    ObjectKind::File(FileKind::Ability | FileKind::Feat) if ability => wanted
                        .as_ref()
                        .is_none_or(|w| self.pool_of(dataset, o) == Some(w)),
                    ObjectKind::File(k) => !ability && *k == target,
                    ObjectKind::Dynamic(_) => false,
                }
        })
    }

    /// The object a name `key` of `target` (see [`OldObjects::candidates`]) stands for: the
    /// one of that key, else, for an ability, the one of the key before its ` (choice)`.
    pub fn find<'d>(
        &'d self,
        dataset: &'d Dataset,
        target: FileKind,
        category: Option<&str>,
        key: &str,
    ) -> Option<&'d Object> {
        let key = key.trim();
        let exact = |k: &str| {
            self.candidates(dataset, target, category)
                .find(|o| dataset.key_of(o).is(k))
        };
        exact(key).or_else(|| {
            let (base, _) = key.split_once(" (")?;
            matches!(target, FileKind::Ability | FileKind::Feat)
                .then(|| exact(base.trim_end()))
                .flatten()
        })
    }
}

/// The object a `.COPY=`, `.MOD` or `.FORGET` line looks up, as byte ranges in its first
/// token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LookedUp {
    /// The key.
    pub key: Range<usize>,
    /// An ability's `CATEGORY=` value.
    pub category: Option<Range<usize>>,
}

/// What the first token `first` of a line of a `kind` file looks up, when the line is a
/// `.COPY=`, `.MOD` or `.FORGET` (read as the checker reads it).
///
/// ```
/// use rulebook::load::FileKind;
/// use rulebook::model::references::looked_up;
/// let first = "CATEGORY=FEAT|Power Attack.MOD";
/// let l = looked_up(FileKind::Ability, first).unwrap();
/// assert_eq!(&first[l.key], "Power Attack");
/// assert_eq!(&first[l.category.unwrap()], "FEAT");
/// ```
pub fn looked_up(kind: FileKind, first: &str) -> Option<LookedUp> {
    let span = Span::new(FileId(0), 0..first.len());
    let line = crate::load::Line {
        number: 1,
        span,
        tokens: vec![span],
    };
    let target = match head_line(&line, first, kind)?.head {
        Head::Copy { base, .. } => base,
        Head::Mod(t) | Head::Forget(t) => t,
        Head::Make { .. } => return None,
    };
    Some(LookedUp {
        key: target.key.span.range(),
        category: target.category.map(|c| c.span.range()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_mod_and_forget_lines_look_up_their_base() {
        let key = |kind, first: &'static str| looked_up(kind, first).map(|l| &first[l.key]);
        assert_eq!(
            key(FileKind::Equipment, "Longsword.COPY=Sword"),
            Some("Longsword")
        );
        assert_eq!(key(FileKind::Class, "CLASS:Druid.MOD"), Some("Druid"));
        assert_eq!(key(FileKind::Skill, "Climb.FORGET"), Some("Climb"));
        assert_eq!(key(FileKind::Skill, "Climb"), None);
    }
}
