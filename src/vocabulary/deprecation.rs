//! What PCGen does when it reads a deprecated token: `pcgen-deprecations.tsv`, compiled in.
//!
//! The token table says which tokens and sub-tokens only a deprecated or compatibility
//! class still parses; this table says, per form, whether that class logs a deprecation
//! message and which. Read from PCGen's classes (`plugin/lsttokens/deprecated/…`,
//! `AbstractToFactToken`, `PreAbilityParser`, `ClassWrappedToken`): only a class that calls
//! `Logging.deprecationPrint` itself logs one. The `DeprecatedToken` interface that several
//! of them implement is consulted only by the old loaders (`LstUtils.deprecationCheck`: game
//! mode, equipment slots, migration, bonus files), never on the CDOM token path, so `ADD:FEAT`,
//! `REMOVE:FEAT`, `VFEAT`, `PANTHEON`, a CLASS token on a level-1 line … load silently:
//! PCGen's load log of the whole corpus (`shared/pcgen-oracle`) has no deprecation message
//! for any of the corpus's hundreds of such uses.
//!
//! Columns: `form` (`TOKEN` or `TOKEN:SUB`; `*` for every deprecated row of the kinds),
//! `kinds` (the file kinds or line types it applies to, `*` for all), `status`
//! (`deprecated`, or `class-token`: a CLASS token on a level line, which PCGen applies to the
//! class on level 1), `message` (what PCGen logs, `-` for nothing; `…` stands for the
//! value) and `source` (the Java classes under `code/src/java`).

use std::sync::LazyLock;

/// The table's text.
pub const DEPRECATIONS_TSV: &str = include_str!("pcgen-deprecations.tsv");

/// What kind of old form a deprecated row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OldForm {
    /// A token or sub-token PCGen replaced by another.
    Deprecated,
    /// A CLASS token written on a class level line: PCGen applies it to the class when the
    /// line is level 1 (5.14 compatibility).
    ClassToken,
}

/// What PCGen does with one deprecated form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deprecation {
    /// `TOKEN` or `TOKEN:SUB`, or `*`.
    pub form: &'static str,
    /// The file kinds or line types, or `*`.
    pub kinds: Vec<&'static str>,
    /// What kind of old form it is.
    pub status: OldForm,
    /// The deprecation message PCGen logs, if any.
    pub message: Option<&'static str>,
    /// The Java classes that read it.
    pub source: &'static str,
}

impl Deprecation {
    fn applies_to(&self, kind: &str) -> bool {
        self.kinds.iter().any(|k| *k == "*" || *k == kind)
    }

    /// The label of a finding: what PCGen does when it reads the form.
    pub fn label(&self) -> String {
        match (self.status, self.message) {
            (OldForm::ClassToken, _) => {
                "PCGen applies it to the class (on level 1 only), without a message".to_owned()
            }
            (_, Some(m)) => format!("PCGen still reads it, and logs \"{m}\""),
            (_, None) => "PCGen still reads it, without a deprecation message".to_owned(),
        }
    }
}

static TABLE: LazyLock<Vec<Deprecation>> = LazyLock::new(|| parse(DEPRECATIONS_TSV));

fn parse(text: &'static str) -> Vec<Deprecation> {
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let mut c = line.split('\t');
            let (form, kinds, status, message, source) =
                (c.next()?, c.next()?, c.next()?, c.next()?, c.next()?);
            Some(Deprecation {
                form,
                kinds: kinds.split_ascii_whitespace().collect(),
                status: match status {
                    "class-token" => OldForm::ClassToken,
                    _ => OldForm::Deprecated,
                },
                message: Some(message).filter(|m| *m != "-"),
                source,
            })
        })
        .collect()
}

/// What PCGen does with the deprecated `form` (`TOKEN` or `TOKEN:SUB`, as the token table
/// names it) on a line of `kind` whose token row is of `row_kind`: the row for the form and
/// either kind first, then a kind-wide row (`*`) of `kind`.
pub fn lookup(kind: &str, row_kind: &str, form: &str) -> Option<&'static Deprecation> {
    let table: &'static [Deprecation] = &TABLE;
    table
        .iter()
        .find(|d| d.form == form && (d.applies_to(kind) || d.applies_to(row_kind)))
        .or_else(|| table.iter().find(|d| d.form == "*" && d.applies_to(kind)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::{Status, Vocabulary};

    #[test]
    fn every_deprecated_form_of_the_token_table_says_what_pcgen_does() {
        let v = Vocabulary::get();
        for r in v.rows() {
            // The game mode's own files are not validated.
            if r.kind.starts_with("GM:") || r.token == "*" {
                continue;
            }
            if r.status == Status::DeprecatedAccepted && !r.has_subtokens() {
                assert!(
                    lookup(r.kind, r.kind, r.token).is_some(),
                    "{} {}",
                    r.kind,
                    r.token
                );
            }
            for s in &r.deprecated_subtokens {
                let form = format!("{}:{s}", r.token);
                assert!(lookup(r.kind, r.kind, &form).is_some(), "{} {form}", r.kind);
            }
        }
    }

    #[test]
    fn only_the_classes_that_log_a_message_have_one() {
        let label = |kind, row, form| lookup(kind, row, form).map(Deprecation::label);
        assert!(
            label("ABILITY", "*", "CHOOSE:NUMBER")
                .unwrap()
                .contains("CHOOSE:NUMBER is deprecated, please use TEMPVALUE")
        );
        assert!(
            label("ABILITY", "ABILITY", "ADD:FEAT")
                .unwrap()
                .contains("without")
        );
        assert!(
            label("DEITY", "DEITY", "PANTHEON")
                .unwrap()
                .contains("without")
        );
        assert!(
            label("CLASSLEVEL", "CLASSLEVEL", "PROHIBITSPELL")
                .unwrap()
                .contains("applies it to the class")
        );
        // A FACT delegator through the level-1 wrapper still logs its own message.
        assert!(
            label("CLASSLEVEL", "CLASSLEVEL", "ABB")
                .unwrap()
                .contains("replaced by FACT")
        );
        assert!(
            label("ABILITY", "PRE", "PREFEAT")
                .unwrap()
                .contains("PREABILITY")
        );
    }
}
