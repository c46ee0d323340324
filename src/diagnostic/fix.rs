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

/// Applies the edits to `text`, in order of place; an edit overlapping one before it is
/// left out (the next run offers it again). Returns the new text and the edits applied.
pub fn apply(text: &str, edits: &[Edit]) -> (String, usize) {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.range.start, e.range.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut applied = 0;
    for e in sorted {
        if e.range.start < at {
            continue;
        }
        let (Some(before), Some(_)) = (text.get(at..e.range.start), text.get(e.range.clone()))
        else {
            continue;
        };
        out.push_str(before);
        out.push_str(&e.text);
        at = e.range.end;
        applied += 1;
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
        id: "T0113",
        name: "deprecated-token",
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
        let (fixed, n) = apply(text, &edits);
        assert_eq!(n, 2);
        assert_eq!(
            fixed,
            "Dodge\tPREABILITY:1,CATEGORY=FEAT,Alertness\tKEY:Dodge"
        );
        // Overlapping edits: the later one waits for the next run.
        let (_, n) = apply(text, &[edits[0].clone(), edits[0].clone()]);
        assert_eq!(n, 1);
    }
}
