//! The load set's FACTDEFs and FACTSETDEFs by (FACTSET?, location, name), looked up by
//! hashes worked out before the look-up.
//!
//! Every FACT token of every object of a load set asks this index; a core rulebook's
//! objects are read by hundreds of load sets. The fact name's hash is worked out once per
//! file with its object lines ([`super::object_lines`]), the location's by the caller (once
//! per file kind), so a look-up hashes no text and makes no [`Name`].

use crate::model::{FactDef, key_hash};
use crate::name::Name;
use std::hash::Hasher;

/// One definition: its index hash and index in the dataset's `fact_defs`, which holds its
/// (FACTSET?, location, name) (not copied here: the names are shared by every load set of
/// a game mode, and raising their reference counts from both threads was most of entering
/// a definition).
#[derive(Debug)]
struct Entry {
    hash: u64,
    def: usize,
}

/// (FACTSET?, location, name) → index of its first definition in the dataset's `fact_defs`;
/// names compare without regard to ASCII case.
#[derive(Debug, Default)]
pub(super) struct FactIndex {
    table: hashbrown::HashTable<Entry>,
}

/// The index hash of (FACTSET?, the location's [`key_hash`], the name's [`key_hash`]).
fn hash(set: bool, location: u64, name: u64) -> u64 {
    let mut h = crate::model::fxhash::FxHasher::default();
    h.write_u8(u8::from(set));
    h.write_u64(location);
    h.write_u64(name);
    h.finish()
}

impl FactIndex {
    /// The index hash of (`set`, `location`, `name`), for [`FactIndex::insert_first`]
    /// (worked out once per FACTDEF line and run).
    pub(super) fn hash_of(set: bool, location: &Name, name: &Name) -> u64 {
        hash(set, key_hash(location.as_str()), key_hash(name.as_str()))
    }

    /// Makes room for `n` more definitions.
    pub(super) fn reserve(&mut self, n: usize) {
        self.table.reserve(n, |e| e.hash);
    }

    /// Records `def`, entry `def` of `defs`, as the definition of its (FACTSET?, location,
    /// name), whose [`FactIndex::hash_of`] is `h`, unless an earlier one is.
    pub(super) fn insert_first(&mut self, defs: &[FactDef], h: u64, def: usize) {
        let Some(d) = defs.get(def) else {
            return;
        };
        debug_assert_eq!(h, Self::hash_of(d.set, &d.location, &d.name));
        let entry = self.table.entry(
            h,
            |e| {
                e.hash == h
                    && defs.get(e.def).is_some_and(|o| {
                        o.set == d.set && o.location == d.location && o.name == d.name
                    })
            },
            |e| e.hash,
        );
        if let hashbrown::hash_table::Entry::Vacant(slot) = entry {
            slot.insert(Entry { hash: h, def });
        }
    }

    /// The first definition of (`set`, `location`, `name`), where `location_hash` and
    /// `name_hash` are `location`'s and `name`'s [`key_hash`].
    /// `defs` is the dataset's `fact_defs`, which the index was made from.
    pub(super) fn get(
        &self,
        defs: &[FactDef],
        (set, location, location_hash): (bool, &str, u64),
        (name, name_hash): (&Name, u64),
    ) -> Option<usize> {
        let h = hash(set, location_hash, name_hash);
        self.table
            .find(h, |e| {
                e.hash == h
                    && defs
                        .get(e.def)
                        .is_some_and(|d| d.set == set && d.name == *name && d.location.is(location))
            })
            .map(|e| e.def)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(set: bool, location: &str, name: &str) -> FactDef {
        FactDef {
            location: Name::new(location),
            name: Name::new(name),
            set,
            format: None,
            span: crate::source::Span::DETACHED,
            required: false,
            selectable: false,
            visibility: Default::default(),
            display_name: None,
            explanation: None,
        }
    }

    #[test]
    fn the_first_definition_is_found_whatever_the_case() {
        let defs = [
            def(false, "ABILITY", "BaseAbility"),
            def(false, "ability", "BASEABILITY"),
            def(true, "ABILITY", "BaseAbility"),
        ];
        let mut index = FactIndex::default();
        for (i, d) in defs.iter().enumerate() {
            index.insert_first(&defs, FactIndex::hash_of(d.set, &d.location, &d.name), i);
        }
        let name = Name::new("baseability");
        let h = key_hash(name.as_str());
        let (ability, race) = (key_hash("ABILITY"), key_hash("RACE"));
        let get = |set, location, location_hash, name, h| {
            index.get(&defs, (set, location, location_hash), (name, h))
        };
        assert_eq!(get(false, "ABILITY", ability, &name, h), Some(0));
        assert_eq!(get(true, "Ability", ability, &name, h), Some(2));
        assert_eq!(get(false, "RACE", race, &name, h), None);
        let other = Name::new("Other");
        assert_eq!(
            get(false, "ABILITY", ability, &other, key_hash("Other")),
            None
        );
    }
}
