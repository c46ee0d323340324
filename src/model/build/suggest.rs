//! "Did you mean" among many names, asked many times.
//!
//! [`closest`] computes an edit distance to every candidate of a similar length. An unknown
//! FACT is compared with every FACTDEF of its location — thousands in Pathfinder (one per
//! class feature and archetype) — once per object that writes it, in every load set that
//! lists the file. [`Candidates`] keeps each candidate's character counts so that the
//! candidates that cannot be close enough are dropped before that: the edit distance of two
//! names is at least the larger of the characters one has more of and the characters it
//! has fewer of (each insertion, deletion or substitution changes each sum by at most one),
//! so the suggestion is the one [`closest`] gives over all of them.

use crate::name::closest;

/// Characters are counted in this many buckets (ASCII folded to lower case, by value modulo
/// the last bucket; every other character in the last). Sharing buckets only lowers the
/// bound, so it stays a bound.
const BUCKETS: usize = 32;

/// Per-bucket character counts of a name, case folded as [`closest`] folds.
type Counts = [u16; BUCKETS];

fn counts(name: &str) -> (Counts, usize) {
    let mut c = [0u16; BUCKETS];
    let mut chars = 0usize;
    for ch in name.chars() {
        let b = if ch.is_ascii() {
            usize::from(ch.to_ascii_lowercase() as u8) % (BUCKETS - 1)
        } else {
            BUCKETS - 1
        };
        if let Some(n) = c.get_mut(b) {
            *n = n.saturating_add(1);
        }
        chars += 1;
    }
    (c, chars)
}

/// A lower bound of the edit distance of the names counted as `a` and `b` (exact while no
/// count reached `u16::MAX`; above that the names are longer than any suggestion).
fn bound(a: &Counts, b: &Counts) -> usize {
    let (mut more, mut fewer) = (0usize, 0usize);
    for (x, y) in a.iter().zip(b) {
        if x > y {
            more += usize::from(x - y);
        } else {
            fewer += usize::from(y - x);
        }
    }
    more.max(fewer)
}

/// Names to suggest from, with their character counts.
#[derive(Debug, Default)]
pub(super) struct Candidates {
    names: Vec<(String, Counts)>,
}

impl Candidates {
    /// The candidates `names`, in the order [`closest`] would see them.
    pub(super) fn new(names: impl IntoIterator<Item = String>) -> Self {
        Candidates {
            names: names
                .into_iter()
                .map(|n| {
                    let (c, _) = counts(&n);
                    (n, c)
                })
                .collect(),
        }
    }

    /// `closest(wanted, candidates)`, comparing only the candidates that may be close enough.
    pub(super) fn closest(&self, wanted: &str) -> Option<&str> {
        let (want, chars) = counts(wanted);
        // `closest`'s limit: a third of the length rounded up, at least 1.
        let limit = crate::name::suggestion_bound(chars);
        closest(
            wanted,
            self.names
                .iter()
                .filter(|(_, c)| bound(&want, c) <= limit)
                .map(|(n, _)| n.as_str()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn finds_what_closest_finds() {
        let names = [
            "Monk_CF_KiPool",
            "Nightblade_Archetype_Spells",
            "BaseSize",
            "IsPC",
        ];
        let c = Candidates::new(names.iter().map(|s| s.to_string()));
        for wanted in [
            "Monk_CF_KiPowers4",
            "basesize",
            "Antipaladin_Archetype_Spells",
            "x",
        ] {
            assert_eq!(c.closest(wanted), closest(wanted, names), "{wanted}");
        }
        assert_eq!(c.closest("BASESIZ"), Some("BaseSize"));
    }

    proptest! {
        #[test]
        fn the_bound_never_drops_the_suggestion(
            wanted in "[a-dA-D_é]{0,12}",
            names in proptest::collection::vec("[a-dA-D_é]{0,12}", 0..12),
        ) {
            let c = Candidates::new(names.iter().cloned());
            prop_assert_eq!(c.closest(&wanted), closest(&wanted, names.iter().map(String::as_str)));
        }
    }
}
