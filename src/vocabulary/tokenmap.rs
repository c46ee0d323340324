//! One kind's token names in a table probed once per token: the validator's hot path.
//!
//! Nearly every token name is at most 15 bytes, so its `:` lies among the token's first 16
//! bytes. Those bytes are loaded as two words straight from the file's text (no cutting, no
//! byte loop), the `:` is found in them eight bytes at a time, the name is masked off, and a
//! kind's open-addressed table holding the names themselves (no index to follow) gives the row
//! and its flags in one probe. Names of 16 bytes or more, and tokens without a `:` in their
//! first 16 bytes, are left to the general lookup ([`super::names::NameIndex`]).

/// The longest name a [`TokenMap`] holds (its `:` is then among a token's first 16 bytes).
pub const SHORT_NAME_MAX: usize = 15;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;
const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// A word with its low `bytes` bytes set (all of them for 8 or more).
#[inline]
fn low_bytes(bytes: usize) -> u64 {
    match bytes {
        0 => 0,
        1..=7 => (1u64 << (8 * bytes)) - 1,
        _ => u64::MAX,
    }
}

/// The high bit of every byte `c` of a little-endian word. Exact per byte (no borrow
/// between bytes), so bytes after a match never count as one.
#[inline]
fn bytes_equal(w: u64, c: u8) -> u64 {
    let x = w ^ ONES.wrapping_mul(u64::from(c));
    let low7 = !HIGHS;
    !(((x & low7).wrapping_add(low7)) | x) & HIGHS
}

/// For the high bits of [`bytes_equal`] (not none): the index of the first marked byte, and
/// a mask of the bytes before it.
#[inline]
fn before_first(marks: u64) -> (usize, u64) {
    let lowest = marks & marks.wrapping_neg();
    (
        (marks.trailing_zeros() / 8) as usize,
        (lowest >> 7).wrapping_sub(1),
    )
}

/// A word with its ASCII lower-case letters made upper-case (other bytes kept).
#[inline]
pub fn upper(w: u64) -> u64 {
    let low7 = w & !HIGHS;
    // A byte's high bit is set where it is at least `a`, and where it is past `z`.
    let from_a = low7.wrapping_add(ONES.wrapping_mul(0x80 - u64::from(b'a')));
    let past_z = low7.wrapping_add(ONES.wrapping_mul(0x80 - u64::from(b'z') - 1));
    let lower = from_a & !past_z & !w & HIGHS;
    w - (lower >> 2)
}

/// The first sixteen bytes from `at` in `text` as two little-endian words (zero past the
/// end of `text`).
#[inline]
fn sixteen(text: &[u8], at: usize) -> (u64, u64) {
    let word = |b: &[u8]| b.first_chunk::<8>().map_or(0, |w| u64::from_le_bytes(*w));
    match text.get(at..at.saturating_add(16)) {
        Some(b) => (word(b), b.get(8..).map_or(0, word)),
        None => {
            let mut pad = [0u8; 16];
            let rest = text.get(at..).unwrap_or(&[]);
            let n = rest.len().min(16);
            if let (Some(d), Some(s)) = (pad.get_mut(..n), rest.get(..n)) {
                d.copy_from_slice(s);
            }
            (word(&pad), pad.get(8..).map_or(0, word))
        }
    }
}

/// A name of at most [`SHORT_NAME_MAX`] bytes as two words: its bytes padded with zeros,
/// its length in the top byte of the second word (always free: the second word holds at
/// most seven bytes of the name). Equal keys mean equal names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShortName {
    lo: u64,
    hi: u64,
}

impl ShortName {
    /// The key of `name`, if it is short enough.
    #[inline]
    pub fn of(name: &[u8]) -> Option<ShortName> {
        let n = name.len();
        let word = |at: usize| {
            name.get(at..)
                .and_then(|b| b.first_chunk::<8>())
                .map_or(0, |w| u64::from_le_bytes(*w))
        };
        let half = |at: usize| {
            name.get(at..)
                .and_then(|b| b.first_chunk::<4>())
                .map_or(0, |w| u64::from(u32::from_le_bytes(*w)))
        };
        // Overlapping loads inside the name, shifted into place: no copy, no byte loop.
        let (lo, hi) = match n {
            0 => return None,
            1..=3 => {
                let byte = |i: usize| u64::from(name.get(i).copied().unwrap_or(0));
                (byte(0) | (byte(1) << 8) | (byte(2) << 16), 0)
            }
            4..=7 => (half(0) | (half(n - 4) << (8 * (n - 4))), 0),
            8 => (word(0), 0),
            9..=SHORT_NAME_MAX => (word(0), word(n - 8) >> (8 * (16 - n))),
            _ => return None,
        };
        Some(Self::masked(lo, hi, n))
    }

    #[inline]
    fn masked(lo: u64, hi: u64, len: usize) -> ShortName {
        ShortName {
            lo: lo & low_bytes(len),
            hi: (hi & low_bytes(len.saturating_sub(8))) | ((len as u64) << 56),
        }
    }

    /// The name before the first `:` of the token `text[start..end]`, and that `:`'s index
    /// in the token, when the `:` is among its first 16 bytes and the name is not empty.
    /// The sixteen bytes are read from `text` even past the token's end (masked off).
    #[inline]
    pub fn before_colon(text: &[u8], start: usize, end: usize) -> Option<(ShortName, usize)> {
        let (lo, hi) = sixteen(text, start);
        // The masks come from the `:`'s bit itself: no table, no branch on the length.
        let in_lo = bytes_equal(lo, b':');
        let (key, colon) = if in_lo != 0 {
            let (colon, below) = before_first(in_lo);
            let key = ShortName {
                lo: lo & below,
                hi: (colon as u64) << 56,
            };
            (key, colon)
        } else {
            let in_hi = bytes_equal(hi, b':');
            if in_hi == 0 {
                return None;
            }
            let (at, below) = before_first(in_hi);
            let key = ShortName {
                lo,
                hi: (hi & below) | (((8 + at) as u64) << 56),
            };
            (key, 8 + at)
        };
        if colon == 0 || start.saturating_add(colon) >= end {
            return None;
        }
        Some((key, colon))
    }

    /// The key with ASCII letters upper-cased (for names matched ignoring case).
    #[inline]
    pub fn upper(self) -> ShortName {
        ShortName {
            lo: upper(self.lo),
            hi: upper(self.hi),
        }
    }

    #[inline]
    fn hash(self) -> u64 {
        (self.lo ^ self.hi.rotate_left(29)).wrapping_mul(SEED)
    }
}

/// One slot of a [`TokenMap`]: a key and what it maps to (`hi == 0`: empty).
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    lo: u64,
    hi: u64,
    row: u16,
    flags: u8,
}

/// Short names mapped to a row number and its flags, looked up in one probe (the table is
/// at most half full).
#[derive(Debug, Default)]
pub struct TokenMap {
    slots: Vec<Slot>,
    shift: u32,
}

impl TokenMap {
    /// A map of `entries` (name, row, flags); names longer than [`SHORT_NAME_MAX`] are left
    /// out, and of two equal names the first is kept.
    pub fn new<'a>(entries: impl IntoIterator<Item = (&'a [u8], u16, u8)>) -> TokenMap {
        Self::from_keys(
            entries
                .into_iter()
                .filter_map(|(n, r, f)| Some((ShortName::of(n)?, r, f)))
                .collect(),
        )
    }

    /// A map of `entries` (key, row, flags); of two equal keys the first is kept.
    pub fn from_keys(entries: Vec<(ShortName, u16, u8)>) -> TokenMap {
        let size = (2 * entries.len()).next_power_of_two().max(8);
        let mut map = TokenMap {
            slots: vec![Slot::default(); size],
            shift: 64 - size.trailing_zeros(),
        };
        let mask = size - 1;
        for (key, row, flags) in entries {
            let mut at = map.home(key);
            while let Some(slot) = map.slots.get_mut(at) {
                if slot.hi == 0 {
                    *slot = Slot {
                        lo: key.lo,
                        hi: key.hi,
                        row,
                        flags,
                    };
                    break;
                }
                if slot.lo == key.lo && slot.hi == key.hi {
                    break;
                }
                at = (at + 1) & mask;
            }
        }
        map
    }

    #[inline]
    fn home(&self, key: ShortName) -> usize {
        // `shift` is below 64 (the table has at least 8 slots).
        (key.hash() >> (self.shift & 63)) as usize
    }

    /// The row and flags of `key`, if the map has it.
    #[inline]
    pub fn get(&self, key: ShortName) -> Option<(usize, u8)> {
        let mask = self.slots.len().wrapping_sub(1);
        let mut at = self.home(key);
        loop {
            let slot = self.slots.get(at)?;
            if slot.lo == key.lo && slot.hi == key.hi {
                return Some((usize::from(slot.row), slot.flags));
            }
            if slot.hi == 0 {
                return None;
            }
            at = (at + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_before_the_colon_of_a_token_in_its_text() {
        let names: [&[u8]; 6] = [
            b"A",
            b"KEY",
            b"TYPE",
            b"ABCDEFGH",
            b"SOURCEPAGE",
            b"ABCDEFGHIJKLMNO",
        ];
        let map = TokenMap::new(names.iter().enumerate().map(|(i, n)| (*n, i as u16, 7)));
        for (i, n) in names.iter().enumerate() {
            let n = std::str::from_utf8(n).unwrap();
            for before in ["", "x\t"] {
                for after in ["", "\tKEY:y", "\t", ":::::::::::::::::"] {
                    let text = format!("{before}{n}:value{after}");
                    let start = before.len();
                    let end = start + n.len() + 6;
                    let (key, colon) =
                        ShortName::before_colon(text.as_bytes(), start, end).expect(&text);
                    assert_eq!(colon, n.len());
                    assert_eq!(map.get(key), Some((i, 7)), "{text}");
                }
            }
        }
        // No `:` in the token (only in the next one), an empty name, a long name.
        assert_eq!(ShortName::before_colon(b"KEY\tTYPE:x", 0, 3), None);
        assert_eq!(ShortName::before_colon(b":x", 0, 2), None);
        assert_eq!(ShortName::before_colon(b"ABCDEFGHIJKLMNOP:x", 0, 18), None);
        let (k, _) = ShortName::before_colon(b"KEY\0:x", 0, 6).unwrap();
        assert_eq!(map.get(k), None);
        let (k, _) = ShortName::before_colon(b"KE:x", 0, 4).unwrap();
        assert_eq!(map.get(k), None);
    }

    #[test]
    fn upper_changes_only_ascii_lower_case_letters() {
        for b in 0..=255u8 {
            let w = u64::from_le_bytes([b, b'a', b'z', b'{', b'`', 0xe1, b, b'q']);
            let want = u64::from_le_bytes([
                b.to_ascii_uppercase(),
                b'A',
                b'Z',
                b'{',
                b'`',
                0xe1,
                b.to_ascii_uppercase(),
                b'Q',
            ]);
            assert_eq!(upper(w), want, "{b}");
        }
    }

    proptest::proptest! {
        #[test]
        fn lookups_agree_with_a_search(
            keys in proptest::collection::vec("[A-Za-z!:\\x00]{1,17}", 0..40),
            text in "[A-Za-z!:\\x00\t]{0,24}",
            start in 0usize..24,
            len in 0usize..24,
        ) {
            let map = TokenMap::new(keys.iter().enumerate().map(|(i, k)| (k.as_bytes(), i as u16, 0)));
            let b = text.as_bytes();
            let end = (start + len).min(b.len());
            let token = b.get(start..end).unwrap_or(&[]);
            let colon = token.iter().position(|c| *c == b':').filter(|c| *c > 0 && *c <= SHORT_NAME_MAX);
            let got = ShortName::before_colon(b, start, end);
            proptest::prop_assert_eq!(got.map(|g| g.1), colon);
            if let (Some((key, _)), Some(c)) = (got, colon) {
                let name = &token[..c];
                let want = keys.iter().position(|k| k.as_bytes() == name);
                proptest::prop_assert_eq!(map.get(key).map(|g| g.0), want);
            }
        }
    }
}
