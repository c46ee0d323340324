//! Baselines: the findings a project has accepted for now, so that a check fails only on
//! new ones (`rulebook check --baseline FILE`, written by `--write-baseline FILE`).
//!
//! A baseline is a JSON file (`schemas/baseline.schema.json`) listing findings by their
//! [fingerprint](super::fingerprint()), which leaves line numbers out: a finding whose line
//! moved still matches. Each entry also keeps its code, file, line and message, for the
//! people who read the file in a review; only the fingerprint is matched. Reading and
//! writing the file is the caller's: this module turns text into a [`Baseline`] and back.

use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// The version [`Baseline::new`] writes and [`Baseline::parse`] reads.
pub const VERSION: u32 = 1;

/// A baseline file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// The format's version: 1.
    pub version: u32,
    /// The accepted findings, in the order the run that wrote them reported them.
    pub findings: Vec<BaselineEntry>,
}

/// One accepted finding.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BaselineEntry {
    /// Its fingerprint (`rulebook/v1` in SARIF): the only part that is matched.
    pub fingerprint: String,
    /// Its code, e.g. `T0113`.
    pub code: String,
    /// Its file, relative to the PCGen root.
    pub file: String,
    /// Its 1-based line when it was written (not matched: lines move).
    pub line: usize,
    /// Its message.
    pub message: String,
}

impl Baseline {
    /// A baseline of `findings`.
    pub fn new(findings: Vec<BaselineEntry>) -> Self {
        Baseline {
            version: VERSION,
            findings,
        }
    }

    /// Reads a baseline file's text; the error says what is wrong (and where, as JSON
    /// counts lines and columns).
    pub fn parse(text: &str) -> Result<Self, String> {
        let baseline: Baseline = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if baseline.version != VERSION {
            return Err(format!(
                "version {} is not one this rulebook reads (it writes and reads version {VERSION})",
                baseline.version
            ));
        }
        Ok(baseline)
    }

    /// The file's text (pretty JSON, one entry a few lines, ending with a line feed).
    pub fn to_text(&self) -> String {
        // Plain data serialises without fail.
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// A matcher that takes each baselined fingerprint once.
    pub fn matcher(&self) -> Matcher {
        Matcher {
            left: self
                .findings
                .iter()
                .map(|e| e.fingerprint.clone())
                .collect(),
            matched: 0,
        }
    }
}

/// Matches a run's findings against a baseline: a finding whose fingerprint is in it is
/// baselined (not reported); the entries never matched are findings that are gone.
#[derive(Clone, Debug, Default)]
pub struct Matcher {
    left: HashSet<String>,
    matched: usize,
}

impl Matcher {
    /// Whether the finding with `fingerprint` is baselined (each entry matches once).
    pub fn take(&mut self, fingerprint: &str) -> bool {
        let hit = self.left.remove(fingerprint);
        self.matched += usize::from(hit);
        hit
    }

    /// How many findings the baseline matched.
    pub fn matched(&self) -> usize {
        self.matched
    }

    /// How many baselined findings the run did not meet: fixed, or no longer reported.
    pub fn gone(&self) -> usize {
        self.left.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(fingerprint: &str) -> BaselineEntry {
        BaselineEntry {
            fingerprint: fingerprint.to_owned(),
            code: "T0113".to_owned(),
            file: "x.lst".to_owned(),
            line: 3,
            message: "m".to_owned(),
        }
    }

    #[test]
    fn round_trips_and_matches_each_entry_once() {
        let baseline = Baseline::new(vec![entry("a:0"), entry("b:0")]);
        let read = Baseline::parse(&baseline.to_text()).unwrap();
        assert_eq!(read, baseline);
        let mut m = read.matcher();
        assert!(m.take("a:0"));
        assert!(!m.take("a:0"));
        assert!(!m.take("c:0"));
        assert_eq!((m.matched(), m.gone()), (1, 1));
    }

    #[test]
    fn another_version_or_an_unknown_key_is_refused() {
        let e = Baseline::parse(r#"{"version": 2, "findings": []}"#).unwrap_err();
        assert!(e.contains("version 2"), "{e}");
        let e = Baseline::parse(r#"{"version": 1, "findings": [], "extra": 1}"#).unwrap_err();
        assert!(e.contains("unknown field"), "{e}");
    }
}
