//! What a `.COPY=` line takes from its base: the base's groups, grants, facts and modifiers.
//! A chain of copies (`C1.COPY=C2`, `C2.COPY=C3`, …) carries every earlier copy's items into
//! the next, so the items copied grow with the square of the chain's length (4,000 lines took
//! 2.87 GB); a load set copies at most [`MAX_COPIED`] items, and the copy that would pass it
//! is an error ([`codes::COPY_LIMIT`]), as formula expansion is capped.

use super::*;

/// The most items (modifiers, groups, grants, facts) the `.COPY=` lines of one load set
/// copy: PCGen's whole corpus has 2,048 `.COPY=` lines, two of them with such tokens.
pub(super) const MAX_COPIED: usize = 100_000;

/// How much the load set's copies have taken so far.
#[derive(Debug, Default)]
pub(super) struct CopyBudget {
    /// Items copied.
    used: usize,
    /// Whether the limit was reported (once per load set).
    reported: bool,
}

impl Builder<'_> {
    /// Gives the new object `id` (made by the `.COPY=` line at `at`) what `base` has, within
    /// the load set's budget.
    pub(super) fn copy_from(&mut self, base: ObjectId, id: ObjectId, at: Span) {
        let Some(b) = self.ds.object_by_id(base).and_then(|b| b.extras().cloned()) else {
            return;
        };
        let size = b
            .modifiers
            .len()
            .saturating_add(b.groups.len())
            .saturating_add(b.grants.len())
            .saturating_add(b.facts.len());
        match self.copies.used.checked_add(size) {
            Some(used) if used <= MAX_COPIED => self.copies.used = used,
            _ => return self.over_copy_limit(at),
        }
        let modifiers = b.modifiers.clone();
        if let Some(o) = self.ds.objects.get_mut(id.0 as usize) {
            o.set_extras(Some(crate::model::ObjectExtras {
                modifiers: Vec::new(),
                ..b
            }));
        }
        for m in modifiers {
            if let Some(mut copy) = self.ds.modifier(m).cloned() {
                let mid = ModId(u32::try_from(self.ds.modifiers.len()).unwrap_or(u32::MAX));
                copy.id = mid;
                copy.source = Some(id);
                self.ds.modifiers.push(copy);
                if let Some(o) = self.ds.objects.get_mut(id.0 as usize) {
                    o.extras_mut().modifiers.push(mid);
                }
            }
        }
    }

    /// The first copy past [`MAX_COPIED`] is reported; it and the later ones take nothing
    /// from their base.
    fn over_copy_limit(&mut self, at: Span) {
        if std::mem::replace(&mut self.copies.reported, true) {
            return;
        }
        self.diags.push(
            Diagnostic::error(
                codes::COPY_LIMIT,
                at,
                format!("the `.COPY=` lines of this load set copy more than {MAX_COPIED} modifiers, groups, grants and facts"),
            )
            .with_label("copies nothing from its base")
            .with_note("this copy and every later one past the limit get only their own tokens")
            .with_help("copy from the original object rather than from a copy of a copy (a chain of copies carries every earlier copy's tokens along)"),
        );
    }
}
