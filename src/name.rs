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
        self.0.eq_ignore_ascii_case(other)
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_ignore_ascii_case(&other.0)
    }
}
impl Eq for Name {}

impl Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_folded(&self.0, state);
    }
}

/// Hashes `text` as a [`Name`] of that spelling hashes.
fn hash_folded<H: Hasher>(text: &str, state: &mut H) {
    // Lower-case in chunks so the hasher sees few, large writes (hashing is hot in loads).
    let mut buf = [0u8; 64];
    for chunk in text.as_bytes().chunks(buf.len()) {
        for (d, s) in buf.iter_mut().zip(chunk) {
            *d = s.to_ascii_lowercase();
        }
        state.write(buf.get(..chunk.len()).unwrap_or(&[]));
    }
    state.write_u8(0xff);
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
pub fn closest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let wanted_l = wanted.to_ascii_lowercase();
    let chars = wanted.chars().count();
    if chars > MAX_SUGGEST_CHARS {
        return None;
    }
    let limit = chars.div_ceil(3).max(1);
    candidates
        .into_iter()
        // The distance is at least the difference in length: skip the hopeless cheaply.
        .filter(|c| c.chars().count().abs_diff(chars) <= limit)
        .map(|c| (edit_distance(&wanted_l, &c.to_ascii_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
        .map(|(_, c)| c)
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
    fn closest_suggests_near_names() {
        assert_eq!(closest("Hnads", ["Hands", "Reach"]), Some("Hands"));
        assert_eq!(closest("zzz", ["Hands"]), None);
    }
}
