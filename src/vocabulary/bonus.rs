//! The fields of a bonus that PCGen reads after its value, as `Bonus.newBonus` reads them:
//! `[level|]TYPE|targets|value`, then any number of fields, each a prerequisite
//! (`PRExxx:…` or `!PRExxx:…`, in any case, with a `:`) or a bonus type (`TYPE=…`/`TYPE.…`).
//! Any other field is dropped without a word: `BONUS:SKILL|Appraise|Diplomacy|1|TYPE=Trait`
//! gives the value `Diplomacy` and loses the `1`; `TYPE:Trait` is no type. The fields are
//! split at `|` outside `[…]` and `(…)`, as PCGen's `ParsingSeparator` splits them.
//!
//! A `BONUS:` token's value is the bonus; a `TEMPBONUS:PC|…`/`ANYPC|…` holds it after its
//! first field, a `TEMPBONUS:EQ|types|…`/`ANYEQ|types|…` after its second.

use std::ops::Range;

/// The fields of `text` split at `|` outside `[…]` and `(…)`, each with its byte range.
fn fields(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut depth = 0i32;
    let mut start = 0;
    let mut bytes = text.bytes().enumerate();
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        for (i, b) in bytes.by_ref() {
            match b {
                b'[' | b'(' => depth += 1,
                b']' | b')' => depth -= 1,
                b'|' if depth <= 0 => {
                    let field = start..i;
                    start = i + 1;
                    return Some(field);
                }
                _ => {}
            }
        }
        done = true;
        Some(start..text.len())
    })
}

/// Where the bonus starts in the value of token `token` (`BONUS` or `TEMPBONUS`); `None`
/// for other tokens, or a TEMPBONUS whose bonus is missing.
pub(crate) fn bonus_start(token: &str, value: &str) -> Option<usize> {
    let skip = match token {
        "BONUS" => return Some(0),
        "TEMPBONUS" => match value.split('|').next() {
            Some(p) if p.eq_ignore_ascii_case("PC") || p.eq_ignore_ascii_case("ANYPC") => 1,
            Some(p) if p.eq_ignore_ascii_case("EQ") || p.eq_ignore_ascii_case("ANYEQ") => 2,
            _ => return None,
        },
        _ => return None,
    };
    let mut at = 0;
    for _ in 0..skip {
        at += value.get(at..)?.find('|')? + 1;
    }
    Some(at)
}

/// Whether PCGen keeps a field after the value: a prerequisite or a bonus type (PCGen
/// upper-cases the field before it looks).
fn kept(field: &str) -> bool {
    let starts = |p: &str| {
        field
            .get(..p.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(p))
    };
    let pre = (starts("PRE") || starts("!PRE")) && field.find(':').is_some_and(|c| c > 0);
    pre || starts("TYPE=") || starts("TYPE.")
}

/// The byte ranges (in `bonus`, a bonus's text `[level|]TYPE|targets|value|…`) of the
/// fields after its value that PCGen drops. An empty field (`1||PREVARGT:…`) drops
/// nothing and is not one.
pub(crate) fn ignored_fields(bonus: &str) -> Vec<Range<usize>> {
    let mut all = fields(bonus).peekable();
    // An old leading level (`BONUS:2|COMBAT|…`) is thrown away first.
    if let Some(first) = all.peek() {
        let f = &bonus[first.clone()];
        if !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) {
            all.next();
        }
    }
    all.skip(3)
        .filter(|r| {
            let f = bonus[r.clone()].trim();
            !f.is_empty() && !kept(f)
        })
        .collect()
}

/// The bonus's type and targets fields (after an old leading level).
fn head(bonus: &str) -> (&str, &str) {
    let mut parts = bonus.split('|');
    let mut kind = parts.next().unwrap_or("");
    if !kind.is_empty() && kind.bytes().all(|b| b.is_ascii_digit()) {
        kind = parts.next().unwrap_or("");
    }
    (kind, parts.next().unwrap_or(""))
}

/// Whether the bonus writes its `BONUS:TYPE|` twice (`BONUS:VAR|BONUS:VAR|X|1`): its
/// targets field is then `BONUS:TYPE` and every later field moves one place right.
pub(crate) fn repeats_its_head(bonus: &str) -> bool {
    head(bonus)
        .1
        .get(..6)
        .is_some_and(|h| h.eq_ignore_ascii_case("BONUS:"))
}

/// Whether the bonus names an ability category in its targets (`ABILITYPOOL`): a category
/// no load defines is reported as such (`R0103`), and PCGen drops the whole token.
pub(crate) fn names_a_category(bonus: &str) -> bool {
    head(bonus).0.eq_ignore_ascii_case("ABILITYPOOL")
}

/// Whether a bonus's text has no field PCGen drops, without collecting them (the
/// validator's quiet path: nearly every bonus).
pub(crate) fn all_kept(bonus: &str) -> bool {
    // Two `|` at most: three fields, nothing after the value.
    bonus.bytes().filter(|b| *b == b'|').count() <= 2 || ignored_fields(bonus).is_empty()
}

/// How to write the dropped field `field` so that PCGen reads it, when that is clear: a
/// type written with `:` (`TYPE:Trait`), a prerequisite written with `=`
/// (`PREVARGTEQ=X,1`) or in brackets (`[PREABILITY:…]`).
pub(crate) fn rewrite(field: &str) -> Option<String> {
    let upper = field.to_ascii_uppercase();
    if upper.starts_with("TYPE:") {
        return Some(format!("TYPE={}", &field[5..]));
    }
    if let Some(inner) = field.strip_prefix('[').and_then(|f| f.strip_suffix(']')) {
        if kept(inner) {
            return Some(inner.to_owned());
        }
    }
    if upper.starts_with("PRE") || upper.starts_with("!PRE") {
        let name_end = field
            .find(|c: char| !(c.is_ascii_alphabetic() || c == '!'))
            .unwrap_or(field.len());
        if field[name_end..].starts_with('=') {
            return Some(format!("{}:{}", &field[..name_end], &field[name_end + 1..]));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ignored(bonus: &str) -> Vec<&str> {
        ignored_fields(bonus)
            .into_iter()
            .map(|r| &bonus[r])
            .collect()
    }

    #[test]
    fn keeps_prerequisites_and_types_after_the_value() {
        assert!(ignored("COMBAT|AC|2|PREVARGT:x,1|!PRESIZEEQ:M|TYPE=Deflection").is_empty());
        assert!(ignored("COMBAT|AC|2|type.Dodge.STACK|preFeat:1,Dodge").is_empty());
        // An old leading level is not a field.
        assert!(ignored("2|COMBAT|AC|2|TYPE=x").is_empty());
        // A `|` inside brackets or parentheses splits nothing.
        assert!(ignored("VAR|X|max(1|2)|PREMULT:1,[PREVARGT:a,1|PREVARGT:b,1]").is_empty());
        // An empty field loses nothing.
        assert!(ignored("VAR|X|1||PREVARGTEQ:Y,1").is_empty());
    }

    #[test]
    fn finds_what_pcgen_drops() {
        assert_eq!(ignored("SKILL|Appraise|Diplomacy|1|TYPE=Trait"), vec!["1"]);
        assert_eq!(ignored("SKILL|Appraise|1|TYPE:Trait"), vec!["TYPE:Trait"]);
        assert_eq!(
            ignored("VAR|X|1|[PREABILITY:1,CATEGORY=FEAT,Dodge]|Competence"),
            vec!["[PREABILITY:1,CATEGORY=FEAT,Dodge]", "Competence"]
        );
        assert_eq!(ignored("VAR|X|1|PREPCLEVEL"), vec!["PREPCLEVEL"]);
        assert!(!all_kept("VAR|X|1|PREPCLEVEL"));
        assert!(all_kept("VAR|X|1"));
        assert!(all_kept("3|VAR|X|1"));
        assert!(repeats_its_head("VAR|bonus:VAR|X|1"));
        assert!(!repeats_its_head("2|VAR|X|1|y"));
        assert!(names_a_category("2|ABILITYPOOL|FEAT|1"));
    }

    #[test]
    fn the_bonus_of_a_tempbonus_follows_its_target() {
        assert_eq!(bonus_start("BONUS", "COMBAT|AC|1"), Some(0));
        assert_eq!(bonus_start("TEMPBONUS", "PC|COMBAT|AC|1"), Some(3));
        assert_eq!(
            bonus_start("TEMPBONUS", "ANYEQ|Weapon|WEAPON|DAMAGE|1"),
            Some(13)
        );
        assert_eq!(bonus_start("TEMPBONUS", "EQ"), None);
        assert_eq!(bonus_start("DEFINE", "X|1"), None);
    }

    #[test]
    fn rewrites_what_is_clear() {
        assert_eq!(rewrite("TYPE:Trait").as_deref(), Some("TYPE=Trait"));
        assert_eq!(
            rewrite("PREVARGTEQ=AdeptBlade,1").as_deref(),
            Some("PREVARGTEQ:AdeptBlade,1")
        );
        assert_eq!(
            rewrite("[PRECLASS:1,Barbarian=1]").as_deref(),
            Some("PRECLASS:1,Barbarian=1")
        );
        assert_eq!(rewrite("Competence"), None);
    }
}
