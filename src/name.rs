//! Case-insensitive names.
//!
//! PCGen compares variable, function, scope and format names without regard to ASCII case.
//! [`Name`] keeps the spelling the user wrote (for messages) and compares, hashes and orders
//! case-insensitively. Cloning is cheap (a shared string).

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// A name compared without regard to ASCII case.
#[derive(Clone)]
pub struct Name(Arc<str>);

impl Name {
    /// A name with this spelling.
    pub fn new(text: &str) -> Self {
        Name(Arc::from(text))
    }

    /// The spelling as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// True if `other` is this name in any ASCII case.
    pub fn is(&self, other: &str) -> bool {
        eq_folded(self.0.as_bytes(), other.as_bytes())
    }
}

/// `a.eq_ignore_ascii_case(b)`, eight bytes at a time (a name look-up compares the name
/// found in the table with the one asked for; byte by byte this cost as much as the hash).
/// Out of line: inlined into every comparison of names it made the checker's hot
/// functions larger and slower.
#[inline(never)]
fn eq_folded(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut wa, mut wb) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut wa).zip(&mut wb) {
        let (x, y) = (word(x), word(y));
        if x != y && fold_word(x) != fold_word(y) {
            return false;
        }
    }
    let (x, y) = (word(wa.remainder()), word(wb.remainder()));
    x == y || fold_word(x) == fold_word(y)
}

/// Up to eight bytes as a little-endian word, zero-padded.
#[inline]
fn word(bytes: &[u8]) -> u64 {
    if let Ok(w) = <[u8; 8]>::try_from(bytes) {
        return u64::from_le_bytes(w);
    }
    // A byte loop: a copy of a variable length would call `memcpy`, dearer for a few bytes.
    let mut w = 0u64;
    for (i, &b) in bytes.iter().take(8).enumerate() {
        w |= u64::from(b) << (8 * i);
    }
    w
}

impl PartialEq for Name {
    fn eq(&self, other: &Self) -> bool {
        eq_folded(self.0.as_bytes(), other.0.as_bytes())
    }
}
impl Eq for Name {}

impl Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_folded(&self.0, state);
    }
}

/// Hashes `text` as a [`Name`] of that spelling hashes: eight bytes at a time, each word
/// lower-cased in registers (no copy of the text), then the length (so no name's hash is a
/// prefix of another's). Name look-ups are hot in checking and loading.
#[inline]
fn hash_folded<H: Hasher>(text: &str, state: &mut H) {
    let bytes = text.as_bytes();
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        state.write_u64(fold_word(word(w)));
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        state.write_u64(fold_word(word(rest)));
    }
    state.write_usize(bytes.len());
}

/// The eight bytes of `w` with ASCII upper-case letters lower-cased (other bytes, UTF-8
/// included, unchanged): `to_ascii_lowercase` on all eight at once.
#[inline]
fn fold_word(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let low7 = w & !HIGH;
    // High bit of each byte: set when the byte's low seven bits are ≥ `A` / > `Z` (no carry
    // crosses a byte: 0x7f + 0x3f < 0x100).
    let at_least_a = low7 + ONES * u64::from(0x80 - b'A');
    let above_z = low7 + ONES * u64::from(0x80 - b'Z' - 1);
    let upper = at_least_a & !above_z & !w & HIGH;
    w | (upper >> 2)
}

/// A borrowed spelling that finds a [`Name`] in a hash map or set without building one
/// (`map.get(&NameStr("Str"))`): it hashes and compares as a `Name`.
#[derive(Clone, Copy, Debug)]
pub struct NameStr<'a>(pub &'a str);

impl Hash for NameStr<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_folded(self.0, state);
    }
}

impl indexmap::Equivalent<Name> for NameStr<'_> {
    fn equivalent(&self, key: &Name) -> bool {
        key.is(self.0)
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Name {
    fn cmp(&self, other: &Self) -> Ordering {
        let a = self.0.bytes().map(|b| b.to_ascii_lowercase());
        let b = other.0.bytes().map(|b| b.to_ascii_lowercase());
        a.cmp(b)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", &*self.0)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Self {
        Name::new(s)
    }
}

/// Names longer than this (in characters) get no suggestion: the edit distance is quadratic
/// and the names are data.
const MAX_SUGGEST_CHARS: usize = 1000;

/// The closest of `candidates` to `wanted` (case-insensitive edit distance at most a third of
/// the length rounded up, at least 1), for "did you mean" help lines. No suggestion for names
/// over 1,000 characters.
///
/// Called for each unknown name of a load set over every known one, so a candidate costs
/// no allocation: both sides are folded once into reused buffers, and the distance is
/// bounded by the best found so far (a candidate that cannot beat it stops early).
pub fn closest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    closest_with_distance(wanted, candidates).map(|(_, c)| c)
}

/// The greatest edit distance at which a name of `chars` characters is suggested for
/// another: a third of its length, rounded up, at least 1.
pub fn suggestion_bound(chars: usize) -> usize {
    chars.div_ceil(3).max(1)
}

/// [`closest`] with its edit distance. The choice is the least `(distance, candidate)` of
/// the candidates within the bound, so the closest of a union of pools is the least of
/// each pool's closest: a caller may search a pool that does not change once and keep the
/// answer.
pub fn closest_with_distance<'a>(
    wanted: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<(usize, &'a str)> {
    let chars = wanted.chars().count();
    if chars > MAX_SUGGEST_CHARS {
        return None;
    }
    let wanted: Vec<char> = wanted.chars().map(|c| c.to_ascii_lowercase()).collect();
    // Names of up to 64 characters (all real ones) are compared a whole column at a time.
    let pattern = Pattern::new(&wanted);
    let mut bound = suggestion_bound(chars);
    let mut best: Option<(usize, &'a str)> = None;
    let mut other = Vec::new();
    let mut rows = (Vec::new(), Vec::new());
    for c in candidates {
        // The distance is at least the difference in length: skip the hopeless cheaply.
        let len = c.chars().count();
        if len.abs_diff(chars) > bound {
            continue;
        }
        let d = match &pattern {
            Some(p) => p.distance_within(c.chars().map(|ch| ch.to_ascii_lowercase()), len, bound),
            None => {
                other.clear();
                other.extend(c.chars().map(|ch| ch.to_ascii_lowercase()));
                bounded_distance(&wanted, &other, bound, &mut rows)
            }
        };
        let Some(d) = d else {
            continue;
        };
        let better = match best {
            None => true,
            Some((bd, bc)) => d < bd || (d == bd && c < bc),
        };
        if better {
            best = Some((d, c));
            bound = d;
        }
    }
    best
}

/// A name of 1 to 64 characters as bit masks for the bit-parallel Levenshtein distance
/// (Myers 1999, in Hyyrö's form for the distance of two whole strings): one pass over the
/// other name's characters, a column of the distance table per step instead of a cell.
struct Pattern {
    /// Its length in characters.
    len: u32,
    /// For each ASCII character, the positions where the name has it.
    ascii: [u64; 128],
    /// The same for every other character it has.
    other: Vec<(char, u64)>,
}

impl Pattern {
    /// `None` when `chars` is empty or longer than 64.
    fn new(chars: &[char]) -> Option<Pattern> {
        if chars.is_empty() || chars.len() > 64 {
            return None;
        }
        let mut p = Pattern {
            len: u32::try_from(chars.len()).ok()?,
            ascii: [0; 128],
            other: Vec::new(),
        };
        for (i, c) in chars.iter().enumerate() {
            let bit = 1u64 << i;
            match p.ascii.get_mut(*c as usize) {
                Some(m) => *m |= bit,
                None => match p.other.iter_mut().find(|(o, _)| o == c) {
                    Some((_, m)) => *m |= bit,
                    None => p.other.push((*c, bit)),
                },
            }
        }
        Some(p)
    }

    fn mask(&self, c: char) -> u64 {
        match self.ascii.get(c as usize) {
            Some(m) => *m,
            None => self
                .other
                .iter()
                .find(|(o, _)| *o == c)
                .map_or(0, |(_, m)| *m),
        }
    }

    /// The Levenshtein distance of this name and `text` (of `len` characters) when it is at
    /// most `bound`, else `None`: given up as soon as the distance so far, less one for
    /// each character still to come (each lowers it by at most one), exceeds `bound` —
    /// most candidates of a "did you mean" search differ early.
    fn distance_within(
        &self,
        text: impl Iterator<Item = char>,
        len: usize,
        bound: usize,
    ) -> Option<usize> {
        let top = 1u64 << (self.len - 1);
        let (mut pv, mut mv) = (!0u64, 0u64);
        let mut score = self.len as usize;
        for (c, left) in text.zip((0..len).rev()) {
            let eq = self.mask(c);
            let xv = eq | mv;
            let xh = ((eq & pv).wrapping_add(pv) ^ pv) | eq;
            let ph = mv | !(xh | pv);
            let mh = pv & xh;
            if ph & top != 0 {
                score += 1;
            } else if mh & top != 0 {
                score -= 1;
            }
            // The first row of the table grows by one per character of `text`.
            let ph = (ph << 1) | 1;
            let mh = mh << 1;
            pv = mh | !(xv | ph);
            mv = ph & xv;
            if score.saturating_sub(left) > bound {
                return None;
            }
        }
        (score <= bound).then_some(score)
    }
}

/// The Levenshtein distance of `a` and `b` when it is at most `bound`, else `None` (given
/// up as soon as a whole row exceeds it: a row's minimum never decreases). `rows` are
/// reused buffers.
fn bounded_distance(
    a: &[char],
    b: &[char],
    bound: usize,
    rows: &mut (Vec<usize>, Vec<usize>),
) -> Option<usize> {
    let (prev, cur) = rows;
    prev.clear();
    prev.extend(0..=b.len());
    cur.clear();
    cur.resize(b.len() + 1, 0);
    for (i, ca) in a.iter().enumerate() {
        let mut low = i + 1;
        if let Some(first) = cur.first_mut() {
            *first = i + 1;
        }
        for (j, cb) in b.iter().enumerate() {
            let (Some(&diag), Some(&up), Some(&left)) = (prev.get(j), prev.get(j + 1), cur.get(j))
            else {
                continue;
            };
            let v = (diag + usize::from(ca != cb)).min(up + 1).min(left + 1);
            if let Some(slot) = cur.get_mut(j + 1) {
                *slot = v;
            }
            low = low.min(v);
        }
        if low > bound {
            return None;
        }
        std::mem::swap(prev, cur);
    }
    prev.last().copied().filter(|d| *d <= bound)
}

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    // Indexing is in bounds: `prev` and `cur` have `b.len() + 1` entries and `j < b.len()`.
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_ignore_case() {
        let mut set = HashSet::new();
        set.insert(Name::new("Str"));
        assert!(set.contains(&Name::new("STR")));
        assert_eq!(Name::new("abc").to_string(), "abc");
    }

    #[test]
    fn folded_equality_is_eq_ignore_ascii_case() {
        let words = [
            "",
            "a",
            "A",
            "b",
            "Bastard Sword",
            "bASTARD sWORD",
            "Bastard Sword ",
            "Élan",
            "éLAN",
            "ÉLAN",
            "ab@",
            "AB`",
            "a[",
            "A{",
            "12345678",
            "12345678X",
            "12345678x",
            "Strength Bonus",
        ];
        for a in words {
            for b in words {
                assert_eq!(Name::new(a).is(b), a.eq_ignore_ascii_case(b), "{a:?} {b:?}");
                assert_eq!(Name::new(a) == Name::new(b), a.eq_ignore_ascii_case(b));
            }
        }
    }

    #[test]
    fn word_folding_is_ascii_lowercase() {
        for b in 0..=255u8 {
            let w = u64::from_le_bytes([b, b'Z', b'@', b'[', b'A', 0x80 | b'A', b'z', b'`']);
            let want = u64::from_le_bytes(w.to_le_bytes().map(|c| c.to_ascii_lowercase()));
            assert_eq!(fold_word(w), want, "byte {b:#x}");
        }
    }

    #[test]
    fn names_differing_in_case_or_trailing_bytes_hash_as_expected() {
        use std::hash::BuildHasher;
        let s = std::collections::hash_map::RandomState::new();
        let h = |t: &str| s.hash_one(Name::new(t));
        assert_eq!(h("Bastard Sword of Doom"), h("bASTARD sWORD OF dOOM"));
        assert_eq!(h("Élan"), h("éLAN".replace('é', "É").as_str()));
        assert_ne!(h("ab"), h("ab\0"));
        assert_eq!(h("x"), s.hash_one(NameStr("X")));
    }

    #[test]
    fn closest_suggests_near_names() {
        assert_eq!(closest("Hnads", ["Hands", "Reach"]), Some("Hands"));
        assert_eq!(closest("zzz", ["Hands"]), None);
    }

    /// The first version: every candidate's full distance, the least (then the first in
    /// order of text) within the limit.
    fn closest_plain<'a>(wanted: &str, candidates: &[&'a str]) -> Option<&'a str> {
        let wanted_l = wanted.to_ascii_lowercase();
        let chars = wanted.chars().count();
        let limit = chars.div_ceil(3).max(1);
        candidates
            .iter()
            .map(|c| (edit_distance(&wanted_l, &c.to_ascii_lowercase()), *c))
            .filter(|(d, _)| *d <= limit)
            .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
            .map(|(_, c)| c)
    }

    proptest::proptest! {
        #[test]
        fn the_bit_parallel_distance_is_the_distance_within_any_bound(
            a in "[abAB\u{e9}\u{2003} _]{1,70}",
            b in "[abAB\u{e9}\u{2003} _]{0,70}",
            bound in 0usize..80,
        ) {
            let folded: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
            let b = b.to_ascii_lowercase();
            if let Some(p) = Pattern::new(&folded) {
                let a: String = folded.iter().collect();
                let full = edit_distance(&a, &b);
                proptest::prop_assert_eq!(
                    p.distance_within(b.chars(), b.chars().count(), bound),
                    (full <= bound).then_some(full)
                );
            } else {
                proptest::prop_assert!(folded.len() > 64);
            }
        }

        #[test]
        fn the_bounded_search_picks_what_the_full_distances_pick(
            wanted in "[abAB\u{e9} ]{0,9}",
            candidates in proptest::collection::vec("[abAB\u{e9} ]{0,9}", 0..8),
        ) {
            let candidates: Vec<&str> = candidates.iter().map(String::as_str).collect();
            proptest::prop_assert_eq!(
                closest(&wanted, candidates.iter().copied()),
                closest_plain(&wanted, &candidates)
            );
        }
    }
}
