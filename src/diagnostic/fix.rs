//! What a diagnostic suggests writing instead, as a value: the one source of `rulebook check
//! --fix`, the language server's quick fixes and "fix all", and SARIF's fixes.
//!
//! A [`Suggestion`] is a replacement text, the exact bytes it replaces when the producer
//! knows them, and whether applying it keeps the data's meaning ([`Safety`]). The codes that
//! predate the field say "did you mean `X`?" only in their help; [`Diagnostic::edit`] reads
//! that too, as an unsafe suggestion, so every consumer sees the same edits.

use super::Diagnostic;
use crate::source::Span;
use std::ops::Range;

/// Whether applying a suggestion keeps what PCGen reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Safety {
    /// An exact rewrite of a deprecated form into the form PCGen documents for it: the
    /// data means what it meant. `check --fix` applies it.
    Safe,
    /// A guess (a "did you mean" for a misspelt name) or a change of meaning (a field PCGen
    /// ignores made one it reads): `check --fix` applies it only with `--unsafe-fixes`.
    Unsafe,
}

/// A replacement a diagnostic suggests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// The text to write.
    pub text: String,
    /// The bytes it replaces; `None`: the part of the diagnostic's span that the text
    /// stands for (see [`replaced_part`]).
    pub span: Option<Span>,
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
    /// [`Suggestion`], else the "did you mean" of its help (unsafe). `None` when it suggests
    /// nothing or its span is not in `text`.
    pub fn edit(&self, text: &str) -> Option<Edit> {
        let (replacement, span, safety) = match &self.suggestion {
            Some(s) => (s.text.as_str(), s.span, s.safety),
            None => (
                self.help.as_deref().and_then(help_suggestion)?,
                None,
                Safety::Unsafe,
            ),
        };
        let range = match span {
            Some(s) => s.range(),
            None => {
                let covered = text.get(self.span.range())?;
                let part = replaced_part(covered, &self.message, replacement);
                let start = self.span.range().start + part.start;
                start..start + part.len()
            }
        };
        text.get(range.clone())?;
        Some(Edit {
            range,
            text: replacement.to_owned(),
            safety,
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
            if text.get(span.range()).is_none() {
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
}

/// The suggestion of a help line such as ``did you mean `Score`?`` (or with double quotes).
pub fn help_suggestion(help: &str) -> Option<&str> {
    let rest = help.split("did you mean ").nth(1)?;
    let quote = rest.chars().next().filter(|c| *c == '`' || *c == '"')?;
    let body = rest.get(1..)?;
    let end = body.find(quote)?;
    body.get(..end).filter(|s| !s.is_empty())
}

/// The part of a diagnostic's text that a suggestion replaces (a span may cover a whole
/// token): the first name the message quotes (`` `SUBTRACT` ``) that the text holds, else the
/// `:`/`|`/`=`/`,`/`(`-separated piece nearest to the suggestion. Byte range within `text`.
pub fn replaced_part(text: &str, message: &str, suggestion: &str) -> Range<usize> {
    let quoted = message
        .split(['`', '"'])
        .skip(1)
        .step_by(2)
        .filter(|q| !q.is_empty());
    for q in quoted {
        if let Some(at) = text.find(q) {
            return at..at + q.len();
        }
    }
    let mut best: Option<(usize, Range<usize>)> = None;
    let mut start = 0;
    for piece in text.split([':', '|', '=', ',', '(', ')', '"', '\t']) {
        let r = start..start + piece.len();
        start = r.end + 1;
        let trimmed = piece.trim();
        if trimmed.is_empty() {
            continue;
        }
        let lead = piece.len() - piece.trim_start().len();
        let r = r.start + lead..r.start + lead + trimmed.len();
        let d = crate::name::edit_distance(
            &trimmed.to_ascii_lowercase(),
            &suggestion.to_ascii_lowercase(),
        );
        if best.as_ref().is_none_or(|(b, _)| d < *b) {
            best = Some((d, r));
        }
    }
    best.map_or(0..text.len(), |(_, r)| r)
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
    fn suggestions_come_from_did_you_mean_help() {
        assert_eq!(help_suggestion("did you mean `Score`?"), Some("Score"));
        assert_eq!(help_suggestion("did you mean \"STR\"?"), Some("STR"));
        assert_eq!(help_suggestion("declare it with GLOBAL:"), None);
        assert_eq!(help_suggestion("did you mean ``?"), None);
    }

    #[test]
    fn a_suggestion_replaces_the_nearest_piece_of_a_wide_span() {
        assert_eq!(replaced_part("Scroe", "unknown variable", "Score"), 0..5);
        let token = "MODIFY:Score|SUBTRACT|1";
        let message = "unknown modifier `SUBTRACT`";
        assert_eq!(&token[replaced_part(token, message, "ADD")], "SUBTRACT");
        let formula = " d20Mod( Scroe )";
        assert_eq!(&formula[replaced_part(formula, "", "Score")], "Scroe");
    }

    #[test]
    fn edits_come_from_the_suggestion_or_the_help_and_apply_in_order() {
        let text = "Dodge\tPREFEAT:1,Alertness\tKEY:Dgoe";
        let file = FileId(0);
        let safe = Diagnostic::warning(CODE, Span::new(file, 6..13), "`PREFEAT` is deprecated")
            .with_fix(
                Span::new(file, 6..25),
                "PREABILITY:1,CATEGORY=FEAT,Alertness",
                Safety::Safe,
            );
        let guess = Diagnostic::error(CODE, Span::new(file, 26..34), "unknown key `Dgoe`")
            .with_help("did you mean `Dodge`?");
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
