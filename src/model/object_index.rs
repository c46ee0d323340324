//! Objects by kind and key: the first object made of each kind and key, found by both.
//!
//! A [`Dataset`](super::Dataset) indexes all its objects on its first look-up
//! ([`Dataset::object`](super::Dataset::object)); while a load set is built, the builder
//! keeps an index of only the objects its `.COPY=`, `.MOD` and `.FORGET` lines can look
//! up (most objects are never looked up while building, and indexing every one was an
//! eighth of a whole-corpus check).

use super::{KeyId, Object, ObjectId, ObjectKeys, ObjectKind, key_hash};

/// The objects an [`ObjectIndex`] points into, and where they take their keys from.
#[derive(Clone, Copy)]
pub(in crate::model) struct Indexed<'a> {
    /// The objects, by id.
    pub(in crate::model) objects: &'a [Object],
    /// Their keys.
    pub(in crate::model) keys: &'a ObjectKeys,
}

impl<'a> Indexed<'a> {
    /// The object `id`.
    #[inline]
    fn get(self, id: ObjectId) -> Option<&'a Object> {
        self.objects.get(id.0 as usize)
    }

    /// The index hash of `object` (of these), from its key's text.
    fn hash_of(self, object: &Object) -> u64 {
        object_hash(
            &object.kind,
            key_hash(self.keys.resolve(object.key).0.as_str()),
        )
    }
}

/// Objects by kind and key (the first indexed of each), hashed with [`object_hash`]. A
/// table of ids rather than a map: the kind and key are the object's own, so no key is
/// copied, and the key's hash comes from the file cache ([`key_hash`]). Each entry keeps
/// its hash: most entries a probe meets are told apart by it, without reading the object
/// and its key elsewhere in memory, and growing the table hashes no key again.
#[derive(Clone, Debug, Default)]
pub(in crate::model) struct ObjectIndex {
    table: hashbrown::HashTable<(u64, ObjectId)>,
}

impl ObjectIndex {
    /// An index of every object of `at`: the first of each kind and key.
    pub(in crate::model) fn of_all(at: Indexed<'_>) -> Self {
        let mut index = ObjectIndex::default();
        index.reserve(at.objects.len());
        for o in at.objects {
            index.insert_first(at, o.id, at.hash_of(o));
        }
        index
    }

    /// Indexes the object `id` of `at`, whose index hash is `hash` (see [`KindHash::of`]),
    /// unless an object of its kind and key is indexed already.
    pub(in crate::model) fn insert_first(&mut self, at: Indexed<'_>, id: ObjectId, hash: u64) {
        let Some(object) = at.get(id) else {
            return;
        };
        debug_assert_eq!(hash, at.hash_of(object));
        let entry = self.table.entry(
            hash,
            |(h, o)| {
                *h == hash
                    && at.get(*o).is_some_and(|o| {
                        o.kind == object.kind
                            && o.key_id.same(object.key_id).unwrap_or_else(|| {
                                at.keys.resolve(o.key).0 == at.keys.resolve(object.key).0
                            })
                    })
            },
            |(h, _)| *h,
        );
        if let hashbrown::hash_table::Entry::Vacant(slot) = entry {
            slot.insert((hash, id));
        }
    }

    /// Makes room for `n` more objects.
    pub(in crate::model) fn reserve(&mut self, n: usize) {
        self.table.reserve(n, |(h, _)| *h);
    }

    /// The object of `kind` whose key is `key` (with its number, or [`KeyId::NONE`]), whose
    /// index hash is `hash` (see [`KindHash::of`]).
    pub(in crate::model) fn find(
        &self,
        at: Indexed<'_>,
        kind: &ObjectKind,
        hash: u64,
        (key, key_id): (&str, KeyId),
    ) -> Option<ObjectId> {
        debug_assert_eq!(hash, object_hash(kind, key_hash(key)));
        self.table
            .find(hash, |(h, id)| {
                *h == hash
                    && at.get(*id).is_some_and(|o| {
                        o.kind == *kind
                            && o.key_id
                                .same(key_id)
                                .unwrap_or_else(|| at.keys.resolve(o.key).0.is(key))
                    })
            })
            .map(|(_, id)| *id)
    }

    /// [`ObjectIndex::find`] of a key known by its text alone.
    pub(in crate::model) fn find_key(
        &self,
        at: Indexed<'_>,
        kind: &ObjectKind,
        key: &str,
    ) -> Option<ObjectId> {
        let hash = object_hash(kind, key_hash(key));
        self.find(at, kind, hash, (key, KeyId::NONE))
    }
}

/// The index hash of the object of `kind` whose key hashes to `key` ([`key_hash`]).
fn object_hash(kind: &ObjectKind, key: u64) -> u64 {
    KindHash::new(kind).of(key)
}

/// An object kind hashed as [`object_hash`] starts: the objects of one file kind are made
/// (and looked up) together, and their kind is hashed once for all of them.
#[derive(Clone, Copy)]
pub(crate) struct KindHash(crate::fxhash::FxHasher);

impl KindHash {
    /// The hash of `kind`.
    pub(crate) fn new(kind: &ObjectKind) -> Self {
        use std::hash::Hash;
        let mut h = crate::fxhash::FxHasher::default();
        kind.hash(&mut h);
        KindHash(h)
    }

    /// The index hash of the object of this kind whose key hashes to `key` ([`key_hash`]).
    #[inline]
    pub(crate) fn of(self, key: u64) -> u64 {
        use std::hash::Hasher;
        let mut h = self.0;
        h.write_u64(key);
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::FileKind;
    use crate::model::scope::ScopeId;
    use crate::model::{Dataset, ObjectKey};
    use crate::name::Name;
    use crate::source::Span;

    /// Adds an object of `kind` with its own key `key` to `ds`.
    fn add(ds: &mut Dataset, kind: ObjectKind, key: &str) -> ObjectId {
        let own = ds.push_own_key(Name::new(key), None);
        let object = Object::new(
            kind,
            ObjectKey::Own(own),
            KeyId::NONE,
            ScopeId::GLOBAL,
            Span::DETACHED,
        );
        ds.push_object(object)
    }

    #[test]
    fn the_first_object_of_a_kind_and_key_is_found_whatever_the_case() {
        let mut ds = Dataset::default();
        let race = ObjectKind::File(FileKind::Race);
        let skill = ObjectKind::File(FileKind::Skill);
        let elf = add(&mut ds, race.clone(), "Elf");
        add(&mut ds, race.clone(), "ELF");
        let elf_skill = add(&mut ds, skill.clone(), "Elf");
        let index = ObjectIndex::of_all(ds.indexed());
        assert_eq!(index.find_key(ds.indexed(), &race, "elf"), Some(elf));
        assert_eq!(index.find_key(ds.indexed(), &skill, "Elf"), Some(elf_skill));
        assert_eq!(index.find_key(ds.indexed(), &race, "Orc"), None);
    }

    #[test]
    fn a_dataset_indexes_the_objects_added_after_a_look_up() {
        let mut ds = Dataset::default();
        let race = ObjectKind::File(FileKind::Race);
        assert_eq!(ds.object(&race, "Orc"), None);
        let orc = add(&mut ds, race.clone(), "Orc");
        assert_eq!(ds.object(&race, "orc"), Some(orc));
    }
}
