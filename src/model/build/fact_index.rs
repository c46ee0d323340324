//! The load set's FACTDEFs and FACTSETDEFs by (FACTSET?, location, name), looked up by
//! hashes worked out before the look-up.
//!
//! Every FACT token of every object of a load set asks this index; a core rulebook's
//! objects are read by hundreds of load sets. The fact name's hash is worked out once per
//! file with its object lines ([`super::object_lines`]), the location's by the caller (once
//! per file kind), so a look-up hashes no text and makes no [`Name`].

use crate::model::key_hash;
use crate::name::Name;
use std::hash::Hasher;

/// One definition: its (FACTSET?, location, name) and index in the dataset's `fact_defs`.
#[derive(Debug)]
struct Entry {
    hash: u64,
    set: bool,
    location: Name,
    name: Name,
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

    /// Records `def` as the definition of (`set`, `location`, `name`), whose
    /// [`FactIndex::hash_of`] is `h`, unless an earlier one is.
    pub(super) fn insert_first(
        &mut self,
        h: u64,
        (set, location, name): (bool, &Name, &Name),
        def: usize,
    ) {
        debug_assert_eq!(h, Self::hash_of(set, location, name));
        let entry = self.table.entry(
            h,
            |e| e.set == set && e.location == *location && e.name == *name,
            |e| e.hash,
        );
        if let hashbrown::hash_table::Entry::Vacant(slot) = entry {
            slot.insert(Entry {
                hash: h,
                set,
                location: location.clone(),
                name: name.clone(),
                def,
            });
        }
    }

    /// The first definition of (`set`, `location`, `name`), where `location_hash` and
    /// `name_hash` are `location`'s and `name`'s [`key_hash`].
    pub(super) fn get(
        &self,
        set: bool,
        location: &str,
        location_hash: u64,
        name: &Name,
        name_hash: u64,
    ) -> Option<usize> {
        let h = hash(set, location_hash, name_hash);
        self.table
            .find(h, |e| {
                e.hash == h && e.set == set && e.name == *name && e.location.is(location)
            })
            .map(|e| e.def)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_definition_is_found_whatever_the_case() {
        let mut index = FactIndex::default();
        let (ability, base) = (Name::new("ABILITY"), Name::new("BaseAbility"));
        let mut insert = |set: bool, location: &Name, name: &Name, def: usize| {
            let h = FactIndex::hash_of(set, location, name);
            index.insert_first(h, (set, location, name), def);
        };
        insert(false, &ability, &base, 0);
        insert(false, &Name::new("ability"), &Name::new("BASEABILITY"), 1);
        insert(true, &ability, &base, 2);
        let name = Name::new("baseability");
        let h = key_hash(name.as_str());
        let (ability, race) = (key_hash("ABILITY"), key_hash("RACE"));
        assert_eq!(index.get(false, "ABILITY", ability, &name, h), Some(0));
        assert_eq!(index.get(true, "Ability", ability, &name, h), Some(2));
        assert_eq!(index.get(false, "RACE", race, &name, h), None);
        let other = Name::new("Other");
        assert_eq!(
            index.get(false, "ABILITY", ability, &other, key_hash("Other")),
            None
        );
    }
}
