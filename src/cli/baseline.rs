//! `rulebook check --baseline FILE` and `--write-baseline FILE`: the baseline file read and
//! written (the format is [`rulebook::diagnostic::baseline`]'s), and which findings of a run
//! it accepts.

use rulebook::diagnostic::baseline::{Baseline, BaselineEntry, Matcher};
use rulebook::diagnostic::{Diagnostic, Fingerprints, JsonDiagnostic, pointed_text};
use rulebook::source::SourceMap;
use std::path::{Path, PathBuf};

/// What a run does with baselines.
#[derive(Debug, Default)]
pub struct Accepted {
    /// Numbers each finding's occurrence (every run fingerprints its findings, for SARIF).
    prints: Fingerprints,
    /// `--baseline`: the file's name and what it has matched so far.
    compare: Option<(PathBuf, Matcher)>,
    /// `--write-baseline`: the file and the findings recorded so far.
    write: Option<(PathBuf, Vec<BaselineEntry>)>,
}

impl Accepted {
    /// Reads the baseline `compare` (an error naming the file when it cannot be read) and
    /// prepares to write `write`.
    pub fn new(compare: Option<&Path>, write: Option<&Path>) -> Result<Self, String> {
        let compare = match compare {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("--baseline {}: {e}", path.display()))?;
                let baseline = Baseline::parse(&text)
                    .map_err(|e| format!("--baseline {}: {e}", path.display()))?;
                Some((path.to_path_buf(), baseline.matcher()))
            }
            None => None,
        };
        Ok(Accepted {
            prints: Fingerprints::default(),
            compare,
            write: write.map(|p| (p.to_path_buf(), Vec::new())),
        })
    }

    /// The fingerprint of the next finding of the run (`d`, whose JSON form is `j`, in
    /// `sources`) and whether it is reported: not when the baseline holds it, nor when a
    /// baseline is being written (every finding of today goes into it).
    pub fn judge(
        &mut self,
        d: &Diagnostic,
        j: &JsonDiagnostic,
        sources: &SourceMap,
    ) -> (String, bool) {
        let print = self
            .prints
            .next(&j.code, &j.file, &pointed_text(d, sources));
        if let Some((_, entries)) = &mut self.write {
            entries.push(BaselineEntry {
                fingerprint: print.clone(),
                code: j.code.clone(),
                file: j.file.clone(),
                line: j.line,
                message: j.message.clone(),
            });
            return (print, false);
        }
        let accepted = self
            .compare
            .as_mut()
            .is_some_and(|(_, matcher)| matcher.take(&print));
        (print, !accepted)
    }

    /// Writes the baseline asked for, and says what the baselines did (for stderr); an
    /// error when the file cannot be written. A `partial` run (`--changed-since`) leaves
    /// load sets out, so it does not count baselined findings as gone.
    pub fn finish(self, partial: bool) -> Result<Option<String>, String> {
        if let Some((path, entries)) = self.write {
            let n = entries.len();
            std::fs::write(&path, Baseline::new(entries).to_text())
                .map_err(|e| format!("--write-baseline {}: {e}", path.display()))?;
            return Ok(Some(format!(
                "wrote {n} finding{} to the baseline {}",
                if n == 1 { "" } else { "s" },
                path.display()
            )));
        }
        Ok(self.compare.map(|(path, m)| {
            let mut line = format!(
                "baseline {}: {} finding{} accepted, not reported",
                path.display(),
                m.matched(),
                if m.matched() == 1 { "" } else { "s" }
            );
            if m.gone() > 0 && !partial {
                line.push_str(&format!(
                    "; {} baselined finding{} gone (fixed): `--write-baseline {}` shrinks it",
                    m.gone(),
                    if m.gone() == 1 { " is" } else { "s are" },
                    path.display()
                ));
            }
            line
        }))
    }
}
