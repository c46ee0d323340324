//! The formatter's promise, checked on its own output: the loader reads the same token lines
//! from the new text as from the old — on the same line numbers, with the same first token
//! (the object's name) and the same tokens, those of one name in the same order. Every
//! rewrite is checked before it is offered; a rewrite that failed would be a bug in the
//! layout, and the file is left as it was.

use super::layout::same_name_order;
use crate::load::text::{LineMode, lines};
use crate::source::FileId;

/// The first line (1-based) where the loader would read `after` differently from `before`.
pub fn first_difference<'a>(before: &'a str, after: &'a str, mode: LineMode) -> Option<u32> {
    let old = lines(FileId(0), before, mode);
    let new = lines(FileId(0), after, mode);
    let tokens = |t: &'a str, l: &crate::load::text::Line| -> Vec<&'a str> {
        l.tokens
            .iter()
            .map(|s| t.get(s.start as usize..s.end as usize).unwrap_or(""))
            .collect()
    };
    for (a, b) in old.iter().zip(&new) {
        if a.number != b.number {
            return Some(a.number.min(b.number));
        }
        let ra = tokens(before, a);
        let rb = tokens(after, b);
        if ra.first() != rb.first() || !same_name_order(&ra, &rb) {
            return Some(a.number);
        }
    }
    if old.len() != new.len() {
        let at = old.len().min(new.len());
        let line = |ls: &[crate::load::text::Line]| ls.get(at).map(|l| l.number);
        return line(&old).or(line(&new)).or(Some(1));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reordering_tokens_of_different_names_keeps_the_meaning() {
        let before = "Dodge\tTYPE:General\tKEY:x\n";
        let after = "Dodge\t\tKEY:x\tTYPE:General\n";
        assert_eq!(first_difference(before, after, LineMode::Object), None);
    }

    #[test]
    fn bonuses_and_facts_of_different_kinds_are_read_apart_unless_cleared() {
        let before =
            "Fighter\tFACT:Abb|Ftr\tBONUS:SKILL|x|1\tFACT:ClassType|PC\tBONUS:COMBAT|BAB|1\n";
        let after =
            "Fighter\tBONUS:COMBAT|BAB|1\tBONUS:SKILL|x|1\tFACT:ClassType|PC\tFACT:Abb|Ftr\n";
        assert_eq!(first_difference(before, after, LineMode::Object), None);
        let cleared = "Fighter\tBONUS:SKILL|x|1\tBONUS:.CLEAR\tBONUS:COMBAT|BAB|1\n";
        let moved = "Fighter\tBONUS:.CLEAR\tBONUS:COMBAT|BAB|1\tBONUS:SKILL|x|1\n";
        assert_eq!(first_difference(cleared, moved, LineMode::Object), Some(1));
    }

    #[test]
    fn reordering_tokens_of_one_name_or_the_name_does_not() {
        let before = "Dodge\tTYPE:A\tTYPE:.CLEAR\n";
        let swapped = "Dodge\tTYPE:.CLEAR\tTYPE:A\n";
        assert_eq!(first_difference(before, swapped, LineMode::Object), Some(1));
        let renamed = "TYPE:A\tDodge\tTYPE:.CLEAR\n";
        assert_eq!(first_difference(before, renamed, LineMode::Object), Some(1));
        let moved = "\nDodge\tTYPE:A\tTYPE:.CLEAR\n";
        assert_eq!(first_difference(before, moved, LineMode::Object), Some(1));
        let lost = "# Dodge\tTYPE:A\tTYPE:.CLEAR\n";
        assert_eq!(first_difference(before, lost, LineMode::Object), Some(1));
    }
}
