//! Object keys numbered once per run, so that two keys are compared by their numbers.
//!
//! A `.MOD` line looks its object up by kind and key in every load set that loads it, and
//! telling the object found from an object of another key with the same hash read the
//! object's key through the object lines it came from: three reads from memory far apart
//! per look-up. An object made from a cached object line carries the number of its key,
//! and so does the look-up: equal numbers are equal keys ([`Name`] equality, without
//! regard to ASCII case). The numbers belong to the run's file cache
//! ([`CachedFile::run_shared`](crate::load::cache::CachedFile::run_shared)): every object line of
//! a load set comes from one cache, and the numbers go when the cache goes (a language
//! server starts a new cache when the data changes).

use crate::model::KeyId;
use crate::name::Name;
use std::sync::{Mutex, MutexGuard, PoisonError};

#[derive(Default)]
pub(super) struct KeyIds {
    table: hashbrown::HashTable<(u64, Name, KeyId)>,
}

/// The key numbers of one run's file cache, kept there under this name.
pub(super) const RUN_KEY_IDS: &str = "model::key_ids";

impl KeyIds {
    /// `ids` locked (a file's keys are numbered under one lock).
    pub(super) fn lock(ids: &Mutex<KeyIds>) -> MutexGuard<'_, KeyIds> {
        // A number is entered whole or not at all: a poisoned table is still sound.
        ids.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The number of `key`, whose [`crate::model::key_hash`] is `hash` (numbered now if it
    /// is new; [`KeyId::NONE`] once every number is taken).
    pub(super) fn id(&mut self, key: &str, hash: u64) -> KeyId {
        self.id_with(key, hash, || Name::new(key))
    }

    /// [`KeyIds::id`] of a key made already.
    pub(super) fn id_of(&mut self, key: &Name, hash: u64) -> KeyId {
        self.id_with(key.as_str(), hash, || key.clone())
    }

    /// [`KeyIds::id`], with `name` making the key to keep when it is new.
    fn id_with(&mut self, key: &str, hash: u64, name: impl FnOnce() -> Name) -> KeyId {
        if let Some((_, _, id)) = self.table.find(hash, |(h, k, _)| *h == hash && k.is(key)) {
            return *id;
        }
        let Ok(n) = u32::try_from(self.table.len()) else {
            return KeyId::NONE;
        };
        let id = KeyId(n);
        if id == KeyId::NONE {
            return KeyId::NONE;
        }
        self.table
            .insert_unique(hash, (hash, name(), id), |(h, _, _)| *h);
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::key_hash;

    #[test]
    fn equal_keys_in_any_case_share_a_number() {
        let mut ids = KeyIds::default();
        let elf = ids.id("Elf", key_hash("Elf"));
        assert_eq!(ids.id("ELF", key_hash("ELF")), elf);
        assert_eq!(ids.id_of(&Name::new("eLF"), key_hash("eLF")), elf);
        let orc = ids.id("Orc", key_hash("Orc"));
        assert_ne!(orc, elf);
        assert_ne!(elf, KeyId::NONE);
    }
}
