//! A numbered set of short byte strings with a one-probe lookup: the token names of the
//! table, its kinds, and the (case-folded) sub-tokens of one row.
//!
//! The validator looks up every token name of every line of a load set, so the lookup is
//! the hot path of a check: a hash that reads a short name in one or two word loads (no
//! per-byte loop), an open-addressed table at most a quarter full, and one comparison of the
//! name found. Keys are trusted (they come from the compiled-in table); the looked-up names
//! come from data, but a lookup only reads and compares them.

/// Byte strings numbered in insertion order (`0..len`), each once.
#[derive(Debug, Default, Clone)]
pub struct NameIndex {
    /// The keys, one after another.
    bytes: Vec<u8>,
    /// Key `i` is `bytes[spans[i].0..spans[i].1]`.
    spans: Vec<(u32, u32)>,
    /// Open-addressed slots: 0 is empty, `i + 1` is key `i`. A power of two long.
    slots: Vec<u32>,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// Eight bytes of `b` from `at`, little-endian (0 past the end).
#[inline]
fn word(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 8)
        .and_then(|s| <[u8; 8]>::try_from(s).ok())
        .map_or(0, u64::from_le_bytes)
}

/// Four bytes of `b` from `at`, little-endian (0 past the end).
#[inline]
fn half(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 4)
        .and_then(|s| <[u8; 4]>::try_from(s).ok())
        .map_or(0, |w| u64::from(u32::from_le_bytes(w)))
}

/// The first index at or after `from` of byte `needle` in `b`: eight bytes at a time (the
/// "has a zero byte" trick on the word XOR the needle repeated), then byte by byte. Token
/// names are cut at `:` and values scanned for `PRE` with it: about one instruction a byte.
pub fn find_byte(b: &[u8], from: usize, needle: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let splat = ONES.wrapping_mul(u64::from(needle));
    let mut at = from;
    while let Some(w) = b.get(at..at + 8).and_then(|s| <[u8; 8]>::try_from(s).ok()) {
        let x = u64::from_le_bytes(w) ^ splat;
        let zero = x.wrapping_sub(ONES) & !x & HIGHS;
        if zero != 0 {
            // Little-endian: the lowest flagged byte is the first match (a borrow can only
            // flag bytes after a true zero byte).
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    b.get(at..)?
        .iter()
        .position(|c| *c == needle)
        .map(|p| at + p)
}

/// Whether two names are equal, compared a word at a time (no call to `memcmp`: names are
/// short, and the call costs more than the comparison).
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n >= 8 {
        let mut at = 0usize;
        while at + 8 < n {
            if word(a, at) != word(b, at) {
                return false;
            }
            at += 8;
        }
        word(a, n - 8) == word(b, n - 8)
    } else if n >= 4 {
        half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4)
    } else {
        a.iter().zip(b).all(|(x, y)| x == y)
    }
}

/// The hash of a name: whole words, then the tail read as one (overlapping) word, mixed
/// Fx-style with the length. Names of 1–8 bytes cost one or two multiplications.
#[inline]
pub fn hash(b: &[u8]) -> u64 {
    let n = b.len();
    let mix = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(SEED);
    let mut h = (n as u64).wrapping_mul(SEED);
    let mut at = 0usize;
    while at + 8 < n {
        h = mix(h, word(b, at));
        at += 8;
    }
    let tail = if n >= 8 {
        word(b, n - 8)
    } else if n >= 4 {
        half(b, 0) | (half(b, n - 4) << 32)
    } else {
        let byte = |i: usize| u64::from(b.get(i).copied().unwrap_or(0));
        byte(0) | (byte(n / 2) << 8) | (byte(n.saturating_sub(1)) << 16)
    };
    mix(h, tail)
}

impl NameIndex {
    /// An empty index.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// True when there is no key.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Key `id`.
    #[inline]
    pub fn key(&self, id: usize) -> &[u8] {
        let (start, end) = self.spans.get(id).copied().unwrap_or((0, 0));
        self.bytes.get(start as usize..end as usize).unwrap_or(&[])
    }

    /// The slot a hash starts probing at.
    #[inline]
    fn home(&self, h: u64) -> usize {
        // The high bits of a multiplicative hash are its best ones.
        let bits = self.slots.len().trailing_zeros();
        if bits == 0 {
            return 0;
        }
        (h >> (64 - bits)) as usize
    }

    /// The number of `key`, if it is in the index.
    #[inline]
    pub fn get(&self, key: &[u8]) -> Option<usize> {
        let mask = self.slots.len().wrapping_sub(1);
        let mut at = self.home(hash(key));
        loop {
            let slot = *self.slots.get(at)?;
            let id = (slot as usize).checked_sub(1)?;
            if same(self.key(id), key) {
                return Some(id);
            }
            at = (at + 1) & mask;
        }
    }

    /// The number of `key`, added when new.
    pub fn insert(&mut self, key: &[u8]) -> usize {
        if let Some(id) = self.get(key) {
            return id;
        }
        let id = self.spans.len();
        let start = u32::try_from(self.bytes.len()).unwrap_or(u32::MAX);
        self.bytes.extend_from_slice(key);
        let end = u32::try_from(self.bytes.len()).unwrap_or(u32::MAX);
        self.spans.push((start, end));
        // At most a quarter full: nearly every lookup is one probe.
        if self.slots.len() < 4 * self.spans.len() {
            let size = (8 * self.spans.len()).next_power_of_two();
            self.slots = vec![0; size];
            for i in 0..self.spans.len() {
                self.place(i);
            }
        } else {
            self.place(id);
        }
        id
    }

    fn place(&mut self, id: usize) {
        let mask = self.slots.len().wrapping_sub(1);
        let mut at = self.home(hash(self.key(id)));
        while let Some(slot) = self.slots.get_mut(at) {
            if *slot == 0 {
                *slot = u32::try_from(id + 1).unwrap_or(u32::MAX);
                return;
            }
            at = (at + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_numbered_once_and_found_again() {
        let mut ix = NameIndex::new();
        let words: Vec<String> = (0..500).map(|i| format!("TOKEN{i}")).collect();
        for (i, w) in words.iter().enumerate() {
            assert_eq!(ix.insert(w.as_bytes()), i);
        }
        assert_eq!(ix.insert(b"TOKEN7"), 7);
        assert_eq!(ix.len(), 500);
        for (i, w) in words.iter().enumerate() {
            assert_eq!(ix.get(w.as_bytes()), Some(i));
            assert_eq!(ix.key(i), w.as_bytes());
        }
        for missing in ["", "T", "TOKEN", "TOKEN500", "token1", "TOKEN1 "] {
            assert_eq!(ix.get(missing.as_bytes()), None, "{missing}");
        }
        assert_eq!(NameIndex::new().get(b"A"), None);
    }

    #[test]
    fn short_names_of_every_length_hash_apart() {
        let mut ix = NameIndex::new();
        let names = [
            "",
            "A",
            "AB",
            "BA",
            "ABC",
            "ACB",
            "ABCD",
            "ABCDEFGH",
            "ABCDEFGHI",
        ];
        for n in names {
            ix.insert(n.as_bytes());
        }
        for (i, n) in names.iter().enumerate() {
            assert_eq!(ix.get(n.as_bytes()), Some(i));
        }
        assert_ne!(hash(b"AB"), hash(b"BA"));
        for (a, b) in [
            ("ABCDEFGHIJ", "ABCDEFGHIK"),
            ("ABCDE", "ABCDF"),
            ("AB", "AC"),
            ("", "A"),
        ] {
            assert!(!same(a.as_bytes(), b.as_bytes()) && same(a.as_bytes(), a.as_bytes()));
        }
        assert_ne!(hash(b"ABCDEFGH"), hash(b"ABCDEFGHI"));
    }

    #[test]
    fn find_byte_finds_the_first_match_from_anywhere() {
        let text = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ:ABCDEFGH:IJ\x80P";
        for from in 0..=text.len() + 1 {
            for needle in [b':', b'A', b'P', b'J', 0x80, b'#'] {
                let want = text
                    .get(from..)
                    .and_then(|r| r.iter().position(|c| *c == needle))
                    .map(|p| p + from);
                assert_eq!(find_byte(text, from, needle), want, "{from} {needle}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn lookups_agree_with_a_linear_search(
            keys in proptest::collection::vec("[A-Z!=]{0,20}", 0..60),
            probe in "[A-Z!=]{0,20}",
        ) {
            let mut ix = NameIndex::new();
            for k in &keys {
                ix.insert(k.as_bytes());
            }
            let mut uniq: Vec<&String> = Vec::new();
            for k in &keys {
                if !uniq.contains(&k) {
                    uniq.push(k);
                }
            }
            let want = uniq.iter().position(|k| **k == probe);
            proptest::prop_assert_eq!(ix.get(probe.as_bytes()), want);
        }
    }
}
