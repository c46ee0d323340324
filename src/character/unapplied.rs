//! What a computed sheet leaves out: the old-system tokens (`BONUS`, `DEFINE`, `ABILITY`, …)
//! of the granted objects, which PCGen applies and rulebook's solver does not yet. A sheet is
//! never shown as whole while one of these is in force ([`OLD_TOKENS_NOT_APPLIED`]).

use super::Character;
use crate::diagnostic::{Code, Diagnostic};
use crate::model::ObjectKind;
use crate::model::unapplied::OldTokenUse;

/// A granted object carries old-system tokens that change the character in PCGen and that
/// the values computed here leave out.
pub const OLD_TOKENS_NOT_APPLIED: Code = Code {
    id: "S0208",
    name: "old-tokens-not-applied",
};

/// How many of an object's other uses are labelled (the message counts them all).
const LABELLED: usize = 3;

impl Character {
    /// One warning ([`OLD_TOKENS_NOT_APPLIED`]) per granted instance whose object carries
    /// old-system tokens that change values in PCGen (the table of
    /// [`crate::model::unapplied`]), at the first such token, each other labelled: the values
    /// of [`Character::values`] leave these out, so while this is not empty they are a
    /// partial sheet. Empty when the dataset was built without the record
    /// ([`crate::model::Dataset::old_tokens`] is `None`: the whole-folder check).
    pub fn unapplied(&self) -> Vec<Diagnostic> {
        let Some(record) = self.dataset.old_tokens.as_ref() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for inst in self.instances.iter().filter(|i| i.alive) {
            let Some(uses) = inst.object.and_then(|o| record.get(&o)) else {
                continue;
            };
            let kind = inst
                .object
                .and_then(|o| self.dataset.object_by_id(o))
                .map(|o| match &o.kind {
                    ObjectKind::File(k) => k.token().to_owned(),
                    ObjectKind::Dynamic(c) => c.to_string(),
                })
                .unwrap_or_default();
            if let Some(d) = warning(&format!("{kind}:{}", inst.label), uses) {
                out.push(d);
            }
        }
        out
    }
}

/// The warning for the object labelled `label` and its uses.
fn warning(label: &str, uses: &[OldTokenUse]) -> Option<Diagnostic> {
    let (first, rest) = uses.split_first()?;
    // The tokens by name in the order first met, with how often each is used.
    let mut counted: Vec<(&OldTokenUse, usize)> = Vec::new();
    for u in uses {
        match counted.iter_mut().find(|(c, _)| c.token == u.token) {
            Some((_, n)) => *n += 1,
            None => counted.push((u, 1)),
        }
    }
    let list: Vec<String> = counted
        .iter()
        .map(|(u, n)| match n {
            1 => u.token.to_owned(),
            n => format!("{} ×{n}", u.token),
        })
        .collect();
    let what = if uses.len() == 1 {
        "an old-system token".to_owned()
    } else {
        format!("{} old-system tokens", uses.len())
    };
    let mut d = Diagnostic::warning(
        OLD_TOKENS_NOT_APPLIED,
        first.span,
        format!(
            "`{label}` is granted and carries {what} the computed values leave out: {}",
            list.join(", ")
        ),
    )
    .with_label(format!("`{}` not applied", first.token))
    .with_help(
        "the sheet is partial: rulebook computes the formula system (MODIFY, MODIFYOTHER, \
         GRANT); PCGen's old token system is checked at load but not computed yet",
    );
    for u in rest.iter().take(LABELLED) {
        d = d.with_secondary(u.span, format!("`{}` not applied", u.token));
    }
    for (u, _) in &counted {
        d = d.with_note(format!("PCGen's `{}` {}", u.token, u.effect));
    }
    Some(d)
}
