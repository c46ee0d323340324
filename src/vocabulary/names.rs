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
    /// Per key: its head, compared instead of its bytes.
    heads: Vec<Head>,
    /// Open-addressed slots: 0 is empty, `i + 1` is key `i`. A power of two long.
    slots: Vec<u32>,
    /// 64 minus the number of bits of a slot index.
    shift: u32,
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

/// The first index at or after `from` where `PRE` starts in `b`. The values of the tokens
/// that carry prerequisites are scanned with it: `memchr`'s vectorised substring search
/// (sixteen bytes a step, the searcher built once) costs a fraction of a word-at-a-time scan
/// on these values (tens to hundreds of bytes).
pub fn find_pre(b: &[u8], from: usize) -> Option<usize> {
    static PRE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"PRE"));
    PRE.find(b.get(from..)?).map(|p| p + from)
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

#[inline]
fn mix(h: u64, w: u64) -> u64 {
    (h.rotate_left(5) ^ w).wrapping_mul(SEED)
}

/// The hash of a name of any length: whole words, then the tail read as one (overlapping)
/// word, mixed Fx-style with the length.
fn hash(b: &[u8]) -> u64 {
    let n = b.len();
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

/// A word with its low `bytes` bytes set (all of them for 8 or more).
#[inline]
fn low_bytes(bytes: usize) -> u64 {
    const LOW: [u64; 9] = [
        0,
        0xff,
        0xffff,
        0xff_ffff,
        0xffff_ffff,
        0xff_ffff_ffff,
        0xffff_ffff_ffff,
        0xff_ffff_ffff_ffff,
        u64::MAX,
    ];
    LOW.get(bytes.min(8)).copied().unwrap_or(u64::MAX)
}

/// The index of the first byte `c` in a little-endian word, if any.
#[inline]
fn byte_in_word(w: u64, c: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let x = w ^ ONES.wrapping_mul(u64::from(c));
    let zero = x.wrapping_sub(ONES) & !x & HIGHS;
    (zero != 0).then(|| (zero.trailing_zeros() / 8) as usize)
}

/// The first sixteen bytes of a name as two little-endian words padded with zeros, and its
/// length: equal heads of names of at most 16 bytes mean equal names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Head {
    lo: u64,
    hi: u64,
    len: usize,
}

impl Head {
    /// The head of the name `text[..n]` (`n` at most `text.len()`). `text` may go on past
    /// the name (a token's value after its `:`): the bytes there are read in the same loads
    /// and masked off, so a name is taken in two loads whatever its length.
    #[inline]
    fn of(text: &[u8], n: usize) -> Head {
        let len = text.len();
        let (lo, hi) = if len >= 16 {
            (word(text, 0), word(text, 8))
        } else if len >= 8 {
            // The bytes 8..len are the top ones of the word ending at `len`.
            let top = word(text, len - 8).checked_shr(8 * (16 - len) as u32);
            (word(text, 0), top.unwrap_or(0))
        } else if len >= 4 {
            let top = half(text, len - 4) >> (8 * (8 - len));
            (half(text, 0) | (top << 32), 0)
        } else {
            let byte = |i: usize| u64::from(text.get(i).copied().unwrap_or(0));
            (byte(0) | (byte(1) << 8) | (byte(2) << 16), 0)
        };
        Head {
            lo: lo & low_bytes(n),
            hi: hi & low_bytes(n.saturating_sub(8)),
            len: n,
        }
    }

    /// The head of the name before the first `:` of `text`, and that `:`'s index: the
    /// first sixteen bytes are loaded once, searched for the `:` and masked.
    #[inline]
    fn before_colon(text: &[u8]) -> Option<(Head, usize)> {
        let whole = Head::of(text, text.len().min(16));
        let colon = match byte_in_word(whole.lo, b':') {
            Some(c) => c,
            None => match byte_in_word(whole.hi, b':') {
                Some(c) => 8 + c,
                None => find_byte(text, 16, b':')?,
            },
        };
        // Padding bytes are zero, never `:`: a `:` found is in the text.
        if colon >= text.len() {
            return None;
        }
        Some((
            Head {
                lo: whole.lo & low_bytes(colon),
                hi: whole.hi & low_bytes(colon.saturating_sub(8)),
                len: colon,
            },
            colon,
        ))
    }

    /// The hash of the name whose head this is (`text[..n]` as in [`Head::of`]).
    #[inline]
    fn hash(self, text: &[u8]) -> u64 {
        let h = mix(mix((self.len as u64).wrapping_mul(SEED), self.lo), self.hi);
        if self.len <= 16 {
            return h;
        }
        mix(h, hash(text.get(16..self.len).unwrap_or(&[])))
    }
}

impl NameIndex {
    /// An empty index.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty index with room for `keys` keys before it grows.
    pub fn with_capacity(keys: usize) -> Self {
        let size = (8 * keys.max(1)).next_power_of_two();
        NameIndex {
            bytes: Vec::with_capacity(8 * keys),
            spans: Vec::with_capacity(keys),
            heads: Vec::with_capacity(keys),
            slots: vec![0; size],
            shift: 64 - size.trailing_zeros(),
        }
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

    /// The slot a hash starts probing at: its high bits, the best of a multiplicative hash.
    #[inline]
    fn home(&self, h: u64) -> usize {
        h.checked_shr(self.shift).unwrap_or(0) as usize
    }

    /// The number of `key`, if it is in the index.
    #[inline]
    pub fn get(&self, key: &[u8]) -> Option<usize> {
        self.get_prefix(key, key.len())
    }

    /// The number of the key `text[..n]`, if it is in the index: the name before a token's
    /// `:` is looked up in the token's text, without cutting it first.
    #[inline]
    pub fn get_prefix(&self, text: &[u8], n: usize) -> Option<usize> {
        if n > text.len() {
            return None;
        }
        self.find(Head::of(text, n), text)
    }

    /// The index of the first `:` of `text` and the number of the key before it, if that
    /// key is in the index: a token's name found in one pass over its first bytes. `None`
    /// when there is no `:`.
    #[inline]
    pub fn get_before_colon(&self, text: &[u8]) -> Option<(usize, Option<usize>)> {
        let (head, colon) = Head::before_colon(text)?;
        Some((colon, self.find(head, text)))
    }

    #[inline]
    fn find(&self, head: Head, text: &[u8]) -> Option<usize> {
        let n = head.len;
        let mask = self.slots.len().wrapping_sub(1);
        let mut at = self.home(head.hash(text));
        loop {
            let slot = *self.slots.get(at)?;
            let id = (slot as usize).checked_sub(1)?;
            if self.heads.get(id) == Some(&head) && (n <= 16 || self.same_tail(id, text, n)) {
                return Some(id);
            }
            at = (at + 1) & mask;
        }
    }

    /// Whether key `id` (of more than 16 bytes) ends as `text[..n]` does past 16 bytes.
    #[cold]
    fn same_tail(&self, id: usize, text: &[u8], n: usize) -> bool {
        match (self.key(id).get(16..), text.get(16..n)) {
            (Some(a), Some(b)) => same(a, b),
            _ => false,
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
        self.heads.push(Head::of(key, key.len()));
        // At most a quarter full: nearly every lookup is one probe.
        if self.slots.len() < 4 * self.spans.len() {
            let size = (8 * self.spans.len()).next_power_of_two();
            self.slots = vec![0; size];
            self.shift = 64 - size.trailing_zeros();
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
        let key = self.key(id);
        let mut at = self.home(Head::of(key, key.len()).hash(key));
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
        // A name is found in a longer text, whatever follows it.
        for (i, n) in names.iter().enumerate() {
            for rest in ["", ":", ":x", ":value", ":a longer value|PRE:1"] {
                let text = format!("{n}{rest}");
                assert_eq!(ix.get_prefix(text.as_bytes(), n.len()), Some(i), "{text}");
            }
        }
        assert_eq!(ix.get_prefix(b"AB", 3), None);
        assert_eq!(ix.get_before_colon(b"ABCD"), None);
        assert_eq!(ix.get_before_colon(b"ABCD:x"), Some((4, Some(6))));
        assert_eq!(ix.get_before_colon(b"ABCE:x"), Some((4, None)));
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

    #[test]
    fn find_pre_finds_every_start() {
        let text = b"xPREyyPRPPREzzzzzzzzPRE!PRExPR";
        let mut found = Vec::new();
        let mut from = 0;
        while let Some(at) = find_pre(text, from) {
            found.push(at);
            from = at + 1;
        }
        assert_eq!(found, vec![1, 9, 20, 24]);
        for from in 0..=text.len() + 1 {
            let want = (from..text.len()).find(|i| text.get(*i..i + 3) == Some(b"PRE".as_slice()));
            assert_eq!(find_pre(text, from), want, "{from}");
        }
    }

    proptest::proptest! {
        #[test]
        fn find_pre_agrees_with_a_search(text in "[PREX|]{0,40}", from in 0usize..42) {
            let b = text.as_bytes();
            let want = (from..b.len()).find(|i| b.get(*i..i + 3) == Some(b"PRE".as_slice()));
            proptest::prop_assert_eq!(find_pre(b, from), want);
        }

        #[test]
        fn lookups_agree_with_a_linear_search(
            keys in proptest::collection::vec("[A-Z!=]{0,20}", 0..60),
            probe in "[A-Z!=:]{0,26}",
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
            let colon = probe.find(':');
            let want = colon.map(|c| (c, uniq.iter().position(|k| probe.get(..c) == Some(k.as_str()))));
            proptest::prop_assert_eq!(ix.get_before_colon(probe.as_bytes()), want);
            for cut in 0..=probe.len() {
                let want = uniq.iter().position(|k| probe.get(..cut) == Some(k.as_str()));
                proptest::prop_assert_eq!(ix.get_prefix(probe.as_bytes(), cut), want);
            }
        }
    }
}
