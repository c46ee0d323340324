//! Fingerprints: a finding's identity that survives edits elsewhere in its file.
//!
//! A fingerprint is made of the code, the file (as loaded: relative to the PCGen root), the
//! text the finding points at (runs of spaces and tabs folded to one space) and the finding's
//! occurrence among those with the same three, in the order a run reports them
//! ([`Fingerprints`]): line numbers are left out, so a line moved by an edit above it keeps
//! its fingerprint. SARIF's `partialFingerprints` carry it, so code scanning tracks a finding
//! across commits, and a baseline ([`super::baseline`]) is a list of them.

use super::Diagnostic;
use crate::source::SourceMap;
use std::collections::HashMap;

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

/// The text a diagnostic points at, trimmed: what its span covers, or its whole line when
/// the span is empty; empty for a diagnostic in no file. The part of a fingerprint that
/// stands for the place, since the line number cannot.
pub fn pointed_text(d: &Diagnostic, sources: &SourceMap) -> String {
    sources.get(d.span.file).map_or_else(String::new, |f| {
        let covered = f.slice(d.span).trim();
        if covered.is_empty() {
            let line = f.line_range_at(d.span.range().start);
            f.text.get(line).unwrap_or("").trim().to_owned()
        } else {
            covered.to_owned()
        }
    })
}

/// Hands out fingerprints in the order a run reports its findings, counting the
/// occurrences of each code, file and text: the one place occurrences are numbered, so a
/// SARIF log and a baseline written from the same run agree.
#[derive(Clone, Debug, Default)]
pub struct Fingerprints(HashMap<(String, String, String), usize>);

impl Fingerprints {
    /// The fingerprint of the next finding with this code, file and text.
    pub fn next(&mut self, code: &str, file: &str, text: &str) -> String {
        let key = (code.to_owned(), file.to_owned(), text.to_owned());
        let n = self.0.entry(key).or_default();
        let print = fingerprint(code, file, text, *n);
        *n += 1;
        print
    }
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

    #[test]
    fn occurrences_count_per_code_file_and_text() {
        let mut prints = Fingerprints::default();
        let first = prints.next("T0113", "x.lst", "A");
        assert_eq!(first, fingerprint("T0113", "x.lst", "A", 0));
        assert_eq!(
            prints.next("T0113", "x.lst", "B"),
            fingerprint("T0113", "x.lst", "B", 0)
        );
        assert_eq!(
            prints.next("T0113", "x.lst", "A"),
            fingerprint("T0113", "x.lst", "A", 1)
        );
    }
}
