//! Fingerprints: a finding's identity that survives edits elsewhere in its file.
//!
//! A fingerprint is made of the code, the file (as loaded: relative to the PCGen root), the
//! text the finding points at (runs of spaces and tabs folded to one space) and the finding's
//! occurrence among those with the same three: line numbers are left out, so a line moved by
//! an edit above it keeps its fingerprint. SARIF's `partialFingerprints` carry it, so code
//! scanning tracks a finding across commits.

/// The stable hash of a finding: 16 hexadecimal digits, `:`, its occurrence (0 for the first
/// finding with this code, file and text, in file order).
pub fn fingerprint(code: &str, file: &str, text: &str, occurrence: usize) -> String {
    let mut hash = Fnv::new();
    hash.write(code.as_bytes());
    hash.write(&[0]);
    hash.write(file.as_bytes());
    hash.write(&[0]);
    for (i, word) in text
        .split([' ', '\t'])
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        if i > 0 {
            hash.write(b" ");
        }
        hash.write(word.as_bytes());
    }
    format!("{:016x}:{occurrence}", hash.0)
}

/// 64-bit FNV-1a: fixed by its definition, so a fingerprint is the same on every machine
/// and with every Rust release (std's `DefaultHasher` promises neither).
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spacing_is_folded_and_the_parts_are_kept_apart() {
        let a = fingerprint("T0113", "x.lst", "CHOOSE:NUMBER\t|MIN=1", 0);
        assert_eq!(a, fingerprint("T0113", "x.lst", "CHOOSE:NUMBER |MIN=1", 0));
        assert_ne!(a, fingerprint("T0113", "x.lst", "CHOOSE:NUMBER |MIN=1", 1));
        assert_ne!(a, fingerprint("T0113", "y.lst", "CHOOSE:NUMBER |MIN=1", 0));
        assert_ne!(
            fingerprint("T0113", "ab", "c", 0),
            fingerprint("T0113", "a", "bc", 0)
        );
        // FNV-1a of nothing is its offset basis: the hash is the published one.
        assert_eq!(Fnv::new().0, 0xcbf2_9ce4_8422_2325);
        assert!(a.ends_with(":0") && a.len() == 18, "{a}");
    }
}
