//! The key numbers a kind's `.COPY=`, `.MOD` and `.FORGET` lines look up in one load set:
//! only the objects made with these keys are indexed while the load set is built (see
//! [`crate::model::object_index`]).

use crate::model::KeyId;

/// A set of key numbers (a bit per number up to the largest wanted), or every key.
#[derive(Debug, Default)]
pub(super) struct WantedKeys {
    /// Bit `n % 64` of word `n / 64` is set when key number `n` is wanted.
    words: Vec<u64>,
    /// The words with a bit set, to clear them again.
    set: Vec<usize>,
    /// Every key is wanted (a look-up without a number compares keys as text).
    all: bool,
}

impl WantedKeys {
    /// Adds `id`; [`KeyId::NONE`] makes every key wanted.
    #[inline]
    pub(super) fn want(&mut self, id: KeyId) {
        if id == KeyId::NONE {
            self.all = true;
            return;
        }
        let word = (id.0 / 64) as usize;
        if self.words.len() <= word {
            self.words.resize(word + 1, 0);
        }
        if let Some(w) = self.words.get_mut(word) {
            if *w == 0 {
                self.set.push(word);
            }
            *w |= 1 << (id.0 % 64);
        }
    }

    /// Whether `id` is wanted ([`KeyId::NONE`] is only when every key is).
    #[inline]
    pub(super) fn contains(&self, id: KeyId) -> bool {
        self.all
            || self
                .words
                .get((id.0 / 64) as usize)
                .is_some_and(|w| w & (1 << (id.0 % 64)) != 0)
    }

    /// Wants no key again.
    pub(super) fn clear(&mut self) {
        for word in self.set.drain(..) {
            if let Some(w) = self.words.get_mut(word) {
                *w = 0;
            }
        }
        self.all = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_what_was_wanted_until_cleared() {
        let mut keys = WantedKeys::default();
        keys.want(KeyId(3));
        keys.want(KeyId(700));
        assert!(keys.contains(KeyId(3)) && keys.contains(KeyId(700)));
        assert!(!keys.contains(KeyId(4)) && !keys.contains(KeyId(64 * 1000)));
        assert!(!keys.contains(KeyId::NONE));
        keys.clear();
        assert!(!keys.contains(KeyId(3)) && !keys.contains(KeyId(700)));
    }

    #[test]
    fn a_key_without_a_number_wants_every_key() {
        let mut keys = WantedKeys::default();
        keys.want(KeyId::NONE);
        assert!(keys.contains(KeyId(12)) && keys.contains(KeyId::NONE));
        keys.clear();
        assert!(!keys.contains(KeyId(12)));
    }
}
