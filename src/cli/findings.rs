//! The findings of a run as the one-line formats print them: `--format concise` (compiler
//! style, `path:line:col: severity[CODE] message`), `--format github` (workflow command
//! annotations) and the rows of `--statistics`; [`super::sarif`] builds on the same values.
//!
//! Every format says whether a finding has a fix, from its [`JsonFix`] (the diagnostic's
//! suggestion, [`Diagnostic::fix_in`]): the one-line formats mark its message ([`marker`]:
//! `[*]` safe, `[?]` unsafe), the reports with notes add [`Safety::note`], and a run ends
//! with how many have one ([`Fixable`]).
//!
//! Paths are shown as the human report shows them: relative to the current folder when the
//! file is below it, else absolute.

use rulebook::check::SetReport;
use rulebook::diagnostic::{
    Diagnostic, JsonDiagnostic, JsonFix, PathView, Safety, Severity, escape::escape_line,
    to_json_rooted,
};
use rulebook::source::SourceMap;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// One reported diagnostic, with what the formats need besides its JSON form.
#[derive(Clone, Debug)]
pub struct Finding {
    /// Its JSON form (file relative to the PCGen root, absolute path).
    pub json: JsonDiagnostic,
    /// The path of each label's file as a report shows it (the primary first, as in
    /// `json.labels`); empty for text that is no file.
    pub shown: Vec<String>,
    /// See [`rulebook::diagnostic::fingerprint`].
    pub fingerprint: String,
    /// With `--changed-since`: the finding is in a file that did not change (its load set
    /// reads one that did); `concise` says so after the message.
    pub unchanged: bool,
}

impl Finding {
    /// The finding of `d`, a diagnostic of the load set `set` whose fingerprint is
    /// `fingerprint` (see [`rulebook::diagnostic::Fingerprints`]); paths are shown from `cwd`.
    pub fn new(
        d: &Diagnostic,
        set: &SetReport,
        cwd: &std::path::Path,
        fingerprint: String,
    ) -> Self {
        let json = to_json_rooted(d, &set.sources, &set.root);
        let view = PathView {
            root: std::path::PathBuf::new(),
            cwd: cwd.to_path_buf(),
        };
        let shown = json
            .labels
            .iter()
            .map(|l| match &l.path {
                Some(abs) => view.show(abs),
                None => l.file.clone(),
            })
            .collect();
        Finding {
            json,
            shown,
            fingerprint,
            unchanged: false,
        }
    }

    /// Where the finding is: `path:line:col`, or nothing for a finding in no file.
    fn place(&self) -> Option<String> {
        let path = self.shown.first().filter(|p| !p.is_empty())?;
        Some(format!(
            "{}:{}:{}",
            escape_line(path),
            self.json.line,
            self.json.column
        ))
    }
}

/// Sorts findings as the JSON output is sorted (file, line, column, code).
pub fn sort(findings: &mut [Finding]) {
    findings.sort_by(|a, b| {
        let (a, b) = (&a.json, &b.json);
        (&a.file, a.line, a.column, &a.code).cmp(&(&b.file, b.line, b.column, &b.code))
    });
}

/// What the one-line formats write before a finding's message: `[*] ` for a safe fix
/// (`rulebook check --fix` makes it, as ruff marks its fixable findings), `[?] ` for an
/// unsafe one (`--fix --unsafe-fixes` makes it: a guess, or a change of meaning, to check
/// first), nothing for a finding without a fix.
pub fn marker(fix: Option<&JsonFix>) -> &'static str {
    match fix.map(|f| f.safety) {
        Some(Safety::Safe) => "[*] ",
        Some(Safety::Unsafe) => "[?] ",
        None => "",
    }
}

/// How many findings a run reported with a fix, by safety.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fixable {
    safe: usize,
    unsafe_fixes: usize,
}

impl Fixable {
    /// Counts a finding whose fix (if any) is of `safety`.
    pub fn add(&mut self, safety: Option<Safety>) {
        match safety {
            Some(Safety::Safe) => self.safe += 1,
            Some(Safety::Unsafe) => self.unsafe_fixes += 1,
            None => {}
        }
    }

    /// The line a run's summary adds, `fixable: 2 findings with `rulebook check --fix`, 1
    /// more with `rulebook check --fix --unsafe-fixes``; `None` when no finding has a fix.
    pub fn line(&self) -> Option<String> {
        let findings = |n: usize| format!("{n} finding{}", if n == 1 { "" } else { "s" });
        let safe =
            (self.safe > 0).then(|| format!("{} with `rulebook check --fix`", findings(self.safe)));
        let guesses = (self.unsafe_fixes > 0).then(|| {
            let n = self.unsafe_fixes;
            match self.safe {
                0 => format!("{} with `rulebook check --fix --unsafe-fixes`", findings(n)),
                _ => format!("{n} more with `rulebook check --fix --unsafe-fixes`"),
            }
        });
        let parts: Vec<String> = safe.into_iter().chain(guesses).collect();
        (!parts.is_empty()).then(|| format!("fixable: {}", parts.join(", ")))
    }
}

/// Adds to `d`, a diagnostic of a load whose files are `sources` reported by the human
/// format, the note saying that it has a fix and what makes it ([`Safety::note`]), and
/// counts it in `fixable`.
pub fn say_fix(d: &mut Diagnostic, sources: &SourceMap, fixable: &mut Fixable) {
    let safety = d.fix_in(sources).0.first().map(|e| e.safety);
    fixable.add(safety);
    if let Some(s) = safety {
        d.notes.push(s.note().to_owned());
    }
}

/// `--format concise`: one `path:line:col: severity[CODE] message` line per finding, the
/// message marked when the finding has a fix ([`marker`]).
pub fn write_concise(w: &mut dyn Write, findings: &[Finding]) -> io::Result<()> {
    for f in findings {
        let j = &f.json;
        let mut what = format!(
            "{}[{}] {}{}",
            j.severity,
            j.code,
            marker(j.fix.as_ref()),
            escape_line(&j.message)
        );
        if f.unchanged {
            what.push_str(" (in an unchanged file of a changed load set)");
        }
        match f.place() {
            Some(place) => writeln!(w, "{place}: {what}")?,
            None => writeln!(w, "{what}")?,
        }
    }
    Ok(())
}

/// `--format github`: one workflow command per finding (`::error file=…,line=…::message`),
/// which a GitHub Actions run shows as an annotation on the line. Notes are `notice`s. A
/// finding with a fix has its message marked ([`marker`]) and a note saying what makes it.
pub fn write_github(w: &mut dyn Write, findings: &[Finding]) -> io::Result<()> {
    for f in findings {
        let j = &f.json;
        let level = match j.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "notice",
        };
        let mut properties = Vec::new();
        if let Some(path) = f.shown.first().filter(|p| !p.is_empty()) {
            properties.push(format!("file={}", property(path)));
            properties.push(format!("line={}", j.line));
            properties.push(format!("col={}", j.column));
            properties.push(format!("endLine={}", j.end_line));
            properties.push(format!("endColumn={}", j.end_column));
        }
        properties.push(format!("title={}", property(&j.code)));
        let message = format!("{}{}", marker(j.fix.as_ref()), text(j));
        writeln!(w, "::{level} {}::{}", properties.join(","), data(&message))?;
    }
    Ok(())
}

/// A finding's message, then its help, its notes and, with a fix, what makes it
/// ([`Safety::note`]), one a line: the text of a GitHub annotation and of a SARIF result.
pub fn text(j: &JsonDiagnostic) -> String {
    let mut text = j.message.clone();
    if let Some(help) = &j.help {
        text.push_str(&format!("\nhelp: {help}"));
    }
    for n in &j.notes {
        text.push_str(&format!("\nnote: {n}"));
    }
    if let Some(fix) = &j.fix {
        text.push_str(&format!("\nnote: {}", fix.safety.note()));
    }
    text
}

/// A workflow command's message: `%`, carriage returns and line feeds escaped, and the
/// other control characters shown escaped (`\u{1b}`) as in every report.
pub fn data(text: &str) -> String {
    let encoded = text
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    rulebook::diagnostic::escape::escape(&encoded).into_owned()
}

/// A workflow command's property value: as [`data`], and `:` and `,` too.
pub fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

/// How many findings of each code and severity a run reported (`--statistics`).
#[derive(Clone, Debug, Default)]
pub struct Tally(BTreeMap<(&'static str, &'static str, Severity), usize>);

impl Tally {
    /// Counts one diagnostic.
    pub fn add(&mut self, d: &Diagnostic) {
        *self
            .0
            .entry((d.code.id, d.code.name, d.severity))
            .or_default() += 1;
    }

    /// One line per code and severity, the most frequent first:
    /// `   850  L0106  note     campaign-added`.
    pub fn write(&self, w: &mut dyn Write) -> io::Result<()> {
        let mut rows: Vec<_> = self.0.iter().collect();
        rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for ((code, name, severity), n) in rows {
            writeln!(w, "{n:>6}  {code}  {:<7}  {name}", severity.as_str())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_commands_escape_their_separators() {
        assert_eq!(data("50% a\r\nb: c,d"), "50%25 a%0D%0Ab: c,d");
        assert_eq!(data("a\u{1b}]0;x\u{7}"), "a\\u{1b}]0;x\\u{7}");
        assert_eq!(property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
