//! A small, fast, non-cryptographic hasher (the Fx hash of rustc) for the internal
//! indexes, whose keys come from data but whose iteration order is never observed.

use std::hash::{BuildHasherDefault, Hasher};

/// The Fx hasher.
#[derive(Clone, Copy, Default)]
pub struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        for b in chunks.remainder() {
            self.add(u64::from(*b));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    /// The state mixed once more (a multiply and two xor-shifts), so every bit of the result
    /// depends on every bit written. The Fx round alone leaves the low bits — the ones
    /// hash tables use to pick a bucket — depending only on the low bits of the last words,
    /// so names alike in their first bytes (`s0` … `s9999`, written a word at a time)
    /// crowded into a few buckets.
    #[inline]
    fn finish(&self) -> u64 {
        let h = self.hash;
        let h = (h ^ (h >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^ (h >> 32)
    }
}

/// The Fx hasher as a `BuildHasher`, for maps of other crates (`IndexMap`).
pub type FxBuildHasher = BuildHasherDefault<FxHasher>;

/// `HashMap` with the Fx hasher.
pub type FxHashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FxHasher>>;
/// `HashSet` with the Fx hasher.
pub type FxHashSet<K> = std::collections::HashSet<K, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::name::Name;

    /// Names that differ only in a few bytes spread over a table's buckets: the low 14 bits
    /// (a 16,384-bucket table) of 10,000 such names take over 5,000 distinct values.
    #[test]
    fn similar_names_spread_over_the_low_bits() {
        use std::hash::BuildHasher;
        let b = BuildHasherDefault::<FxHasher>::default();
        for pattern in [
            "s{}",
            "Ability Score {}",
            "{} Bonus",
            "Skill Rank Total {}x",
        ] {
            let low: FxHashSet<u64> = (0..10_000)
                .map(|i| b.hash_one(Name::new(&pattern.replace("{}", &i.to_string()))) & 0x3fff)
                .collect();
            assert!(low.len() > 5_000, "{pattern}: {} distinct", low.len());
        }
    }

    #[test]
    fn case_insensitive_names_hash_alike() {
        let mut set = FxHashSet::default();
        set.insert(Name::new("Bastard Sword"));
        assert!(set.contains(&Name::new("BASTARD SWORD")));
        assert!(!set.contains(&Name::new("Longsword")));
    }
}
