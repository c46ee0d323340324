//! What a diagnostic suggests writing instead, as a value: the one source of `rulebook check
//! --fix`, the language server's quick fixes and "fix all", and the fixes of the JSON and
//! SARIF reports.
//!
//! A [`Suggestion`] is a replacement text, the exact bytes it replaces, and whether applying
//! it keeps the data's meaning ([`Safety`]). A "did you mean" is made with
//! [`Diagnostic::with_did_you_mean`], which writes the help line and the suggestion from the
//! one name and span, so what the help says and what a fix writes cannot disagree; nothing
//! reads a fix back out of a message or help.

use super::Diagnostic;
use crate::source::{SourceFile, SourceMap, Span, TextEncoding};
use std::ops::Range;

/// Whether applying a suggestion keeps what PCGen reads.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Safety {
    /// An exact rewrite of a deprecated form into the form PCGen documents for it: the
    /// data means what it meant. `check --fix` applies it.
    Safe,
    /// A guess (a "did you mean" for a misspelt name) or a change of meaning (a field PCGen
    /// ignores made one it reads): `check --fix` applies it only with `--unsafe-fixes`.
    Unsafe,
}

impl Safety {
    /// What a report says of a finding with a fix of this safety: the command that applies
    /// it. Said by the reports of `check` (not by the diagnostic: `rulebook eval` shows the
    /// same findings of a formula on its command line, which nothing fixes).
    pub fn note(self) -> &'static str {
        match self {
            Safety::Safe => "`rulebook check --fix` makes this change (a safe fix)",
            Safety::Unsafe => {
                "`rulebook check --fix --unsafe-fixes` makes this change (an unsafe fix: \
                 check it first)"
            }
        }
    }
}

/// A replacement a diagnostic suggests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// The text to write.
    pub text: String,
    /// The exact bytes it replaces, in the diagnostic's file (a misspelt name: the name
    /// itself, not the token around it). [`Span::DETACHED`] for a diagnostic about input
    /// that is no text yet (a character built through the API): no edit until a caller
    /// places it.
    pub span: Span,
    /// Whether applying it keeps the meaning.
    pub safety: Safety,
    /// Further edits of the same fix, each the exact bytes replaced and the text written
    /// there (moving a token: its removal at the span, its insertion here). A fix is
    /// applied whole or not at all.
    pub more: Vec<(Span, String)>,
}

/// A suggestion placed in a file's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// Byte range replaced in the file's text.
    pub range: Range<usize>,
    /// The text written there.
    pub text: String,
    /// Whether applying it keeps the meaning.
    pub safety: Safety,
}

impl Diagnostic {
    /// The edit this diagnostic suggests in `text`, the text of its file: its
    /// [`Suggestion`]'s first. `None` when it suggests nothing, the suggestion is not in the
    /// diagnostic's file or not in `text`, or it would write what is there already.
    pub fn edit(&self, text: &str) -> Option<Edit> {
        let s = self.suggestion.as_deref()?;
        if s.span.file != self.span.file {
            return None;
        }
        let range = s.span.range();
        let replaced = text.get(range.clone())?;
        if replaced == s.text && s.more.is_empty() {
            return None;
        }
        Some(Edit {
            range,
            text: s.text.clone(),
            safety: s.safety,
        })
    }

    /// Every edit of the fix this diagnostic suggests in `text` (the first is
    /// [`Diagnostic::edit`]); empty when one of them is not in `text`.
    pub fn edits(&self, text: &str) -> Vec<Edit> {
        let Some(first) = self.edit(text) else {
            return Vec::new();
        };
        let safety = first.safety;
        let mut out = vec![first];
        for (span, replacement) in self.suggestion.iter().flat_map(|s| &s.more) {
            if span.file != self.span.file || text.get(span.range()).is_none() {
                return Vec::new();
            }
            out.push(Edit {
                range: span.range(),
                text: replacement.clone(),
                safety,
            });
        }
        out
    }

    /// The fix `rulebook check --fix` would make for this diagnostic of a load whose files
    /// are `sources`: every edit of it ([`Diagnostic::edits`]) in its file's text; empty when
    /// it suggests nothing, or its file is not UTF-8 (such a file is never rewritten). What
    /// every report says about a finding's fix comes from here.
    pub fn fix_in<'s>(&self, sources: &'s SourceMap) -> (Vec<Edit>, Option<&'s SourceFile>) {
        let Some(file) = sources.get(self.span.file) else {
            return (Vec::new(), None);
        };
        if self.suggestion.is_none() || !matches!(file.encoding, TextEncoding::Utf8) {
            return (Vec::new(), Some(file));
        }
        (self.edits(&file.text), Some(file))
    }

    /// A "did you mean": the unsafe suggestion to write `name` over `span` (exactly the
    /// misspelt name, in this diagnostic's file), and the help line saying it,
    /// ``did you mean `name`?``. Both are made from the one value, so the help and the fix
    /// never disagree.
    pub fn with_did_you_mean(self, span: Span, name: impl Into<String>) -> Self {
        self.with_did_you_mean_as(span, name, "", "")
    }

    /// [`Diagnostic::with_did_you_mean`] of `guess` when there is one (the closest known
    /// name), else the help line `otherwise`.
    pub fn with_did_you_mean_or(
        self,
        span: Span,
        guess: Option<impl Into<String>>,
        otherwise: impl Into<String>,
    ) -> Self {
        match guess {
            Some(name) => self.with_did_you_mean(span, name),
            None => self.with_help(otherwise),
        }
    }

    /// [`Diagnostic::with_did_you_mean`] whose help shows the name after `before`, text
    /// the fix keeps in front of it (``did you mean `BONUS:COMBAT`?`` for the sub-token
    /// `COMBT`, `BONUS:` untouched), and then says `remark` ("token names are
    /// case-sensitive"; nothing when empty).
    pub fn with_did_you_mean_as(
        mut self,
        span: Span,
        name: impl Into<String>,
        before: &str,
        remark: &str,
    ) -> Self {
        let name = name.into();
        let mut help = format!("did you mean `{before}{name}`?");
        if !remark.is_empty() {
            help.push(' ');
            help.push_str(remark);
        }
        self.help = Some(help);
        self.suggestion = Some(Box::new(Suggestion {
            text: name,
            span,
            safety: Safety::Unsafe,
            more: Vec::new(),
        }));
        self
    }
}

/// Applies fixes (each a group of edits, applied whole or not at all) to `text`: in order of
/// place, a fix with an edit overlapping one already taken is left out (the next run offers
/// it again). Returns the new text and the number of fixes applied.
pub fn apply(text: &str, fixes: &[Vec<Edit>]) -> (String, usize) {
    let overlaps = |a: &Edit, b: &Edit| {
        a.range.start < b.range.end && b.range.start < a.range.end
            || (a.range.start == b.range.start && (a.range.is_empty() != b.range.is_empty()))
    };
    let mut order: Vec<&Vec<Edit>> = fixes.iter().filter(|f| !f.is_empty()).collect();
    order.sort_by_key(|f| f.iter().map(|e| e.range.start).min());
    let mut taken: Vec<&Edit> = Vec::new();
    let mut applied = 0;
    for fix in order {
        let fits = fix
            .iter()
            .all(|e| text.get(e.range.clone()).is_some() && !taken.iter().any(|t| overlaps(t, e)));
        if fits {
            taken.extend(fix.iter());
            applied += 1;
        }
    }
    // Stable: insertions at one place keep the order their fixes were taken in.
    taken.sort_by_key(|e| (e.range.start, e.range.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in taken {
        out.push_str(text.get(at..e.range.start).unwrap_or(""));
        out.push_str(&e.text);
        at = e.range.end;
    }
    out.push_str(text.get(at..).unwrap_or(""));
    (out, applied)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Code;
    use crate::source::FileId;

    const CODE: Code = Code {
        id: "X0001",
        name: "test",
    };

    #[test]
    fn a_did_you_mean_writes_its_help_and_its_suggestion_from_one_name() {
        let file = FileId(0);
        let d = Diagnostic::error(CODE, Span::new(file, 8..13), "unknown token `VISIB`")
            .with_did_you_mean(Span::new(file, 8..13), "VISIBLE");
        assert_eq!(d.help.as_deref(), Some("did you mean `VISIBLE`?"));
        let s = d.suggestion.as_deref().expect("a suggestion");
        assert_eq!(
            (s.text.as_str(), s.span, s.safety),
            ("VISIBLE", d.span, Safety::Unsafe)
        );
        let sub = Diagnostic::error(CODE, Span::new(file, 6..11), "unknown BONUS sub-token")
            .with_did_you_mean_as(Span::new(file, 6..11), "COMBAT", "BONUS:", "a remark");
        assert_eq!(
            sub.help.as_deref(),
            Some("did you mean `BONUS:COMBAT`? a remark")
        );
        assert_eq!(
            sub.edit("BONUS:COMBT|AC|1").map(|e| e.text),
            Some("COMBAT".into())
        );
        // A suggestion outside the diagnostic's file (or not placed yet) is no edit, and
        // nor is one writing what is there.
        let detached = Diagnostic::error(CODE, Span::new(file, 0..1), "x")
            .with_did_you_mean(Span::DETACHED, "y");
        assert_eq!(detached.edit("x"), None);
        let same = Diagnostic::error(CODE, Span::new(file, 0..1), "x")
            .with_did_you_mean(Span::new(file, 0..1), "x");
        assert_eq!(same.edit("x"), None);
    }

    #[test]
    fn edits_come_from_the_suggestion_and_apply_in_order() {
        let text = "Dodge\tPREFEAT:1,Alertness\tKEY:Dgoe";
        let file = FileId(0);
        let safe = Diagnostic::warning(CODE, Span::new(file, 6..13), "`PREFEAT` is deprecated")
            .with_fix(
                Span::new(file, 6..25),
                "PREABILITY:1,CATEGORY=FEAT,Alertness",
                Safety::Safe,
            );
        let guess = Diagnostic::error(CODE, Span::new(file, 26..34), "unknown key `Dgoe`")
            .with_did_you_mean(Span::new(file, 30..34), "Dodge");
        let edits: Vec<Edit> = [&safe, &guess]
            .iter()
            .filter_map(|d| d.edit(text))
            .collect();
        assert_eq!(edits[0].safety, Safety::Safe);
        assert_eq!(edits[1].safety, Safety::Unsafe);
        assert_eq!(&text[edits[1].range.clone()], "Dgoe");
        let fixes: Vec<Vec<Edit>> = edits.iter().map(|e| vec![e.clone()]).collect();
        let (fixed, n) = apply(text, &fixes);
        assert_eq!(n, 2);
        assert_eq!(
            fixed,
            "Dodge\tPREABILITY:1,CATEGORY=FEAT,Alertness\tKEY:Dodge"
        );
        // Overlapping edits: the later one waits for the next run.
        let (_, n) = apply(text, &[fixes[0].clone(), fixes[0].clone()]);
        assert_eq!(n, 1);
    }

    #[test]
    fn a_move_is_applied_whole_and_insertions_at_one_place_keep_their_order() {
        let text = "CLASS:Wizard\tHD:4\n1\tPROHIBITSPELL:A\tSPELLLIST:x\n";
        let file = FileId(0);
        let class_end = text.find('\n').unwrap_or(0);
        let moved = |token: &str| {
            let at = text.find(token).unwrap_or(0);
            Diagnostic::warning(CODE, Span::new(file, at..at + token.len()), "moved").with_fixes(
                vec![
                    (Span::new(file, at - 1..at + token.len()), String::new()),
                    (Span::new(file, class_end..class_end), format!("\t{token}")),
                ],
                Safety::Safe,
            )
        };
        let fixes: Vec<Vec<Edit>> = ["PROHIBITSPELL:A", "SPELLLIST:x"]
            .iter()
            .map(|t| moved(t).edits(text))
            .collect();
        assert_eq!(fixes[0].len(), 2);
        let (fixed, n) = apply(text, &fixes);
        assert_eq!(n, 2);
        assert_eq!(
            fixed,
            "CLASS:Wizard\tHD:4\tPROHIBITSPELL:A\tSPELLLIST:x\n1\n"
        );
    }
}
