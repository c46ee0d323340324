//! The deprecated forms with an exact replacement: what `check --fix` may write instead
//! without changing what PCGen reads (a [`crate::diagnostic::Safety::Safe`] fix on their
//! `T0113`). A form is listed only with the replacement PCGen's own messages and
//! documentation give for it, and only in the shapes where the two read the same; any other
//! shape keeps its warning without a fix.

/// The exact replacement of the deprecated token `name:value`, if it has one.
///
/// - `PREFEAT:n,A,B` (and `!PREFEAT`) → `PREABILITY:n,CATEGORY=FEAT,A,B`: PCGen reads
///   PREFEAT as PREABILITY of category FEAT ("PREFEAT has been deprecated, please use
///   PREABILITY", `PreAbilityParser`). Only the plain form: a count, then names or `TYPE=`;
///   not `CHECKMULT`, `[negated]` names, a `CATEGORY` of its own or the `Q:` prefix.
/// - `CHOOSE:NUMBER|…` → `TEMPVALUE:…` where it is deprecated (outside EQUIPMOD files):
///   PCGen's `NumberToken` hands the rest of the value to TEMPVALUE as it is ("CHOOSE:NUMBER
///   is deprecated, please use TEMPVALUE").
pub fn exact_replacement(name: &str, value: &str) -> Option<String> {
    if name == "CHOOSE" {
        return value
            .strip_prefix("NUMBER|")
            .map(|rest| format!("TEMPVALUE:{rest}"));
    }
    let bang = match name {
        "PREFEAT" => "",
        "!PREFEAT" => "!",
        _ => return None,
    };
    let (count, items) = value.split_once(',')?;
    let plain = |item: &str| {
        !item.is_empty()
            && !item.eq_ignore_ascii_case("CHECKMULT")
            && !item.starts_with('[')
            && !item.to_ascii_uppercase().starts_with("CATEGORY")
            && !item.contains(['[', ']', ':'])
    };
    if count.is_empty()
        || !count.bytes().all(|b| b.is_ascii_digit())
        || !items.split(',').all(plain)
    {
        return None;
    }
    Some(format!("{bang}PREABILITY:{count},CATEGORY=FEAT,{items}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefeat_becomes_preability_of_category_feat_in_its_plain_form() {
        assert_eq!(
            exact_replacement("PREFEAT", "1,Dodge").as_deref(),
            Some("PREABILITY:1,CATEGORY=FEAT,Dodge")
        );
        assert_eq!(
            exact_replacement("!PREFEAT", "2,Dodge,TYPE=Fighter").as_deref(),
            Some("!PREABILITY:2,CATEGORY=FEAT,Dodge,TYPE=Fighter")
        );
        for odd in [
            "1,CHECKMULT,Dodge",
            "1,[Dodge]",
            "1,CATEGORY=FEAT,Dodge",
            "Q:1,Dodge",
            "1,",
            "x,Dodge",
        ] {
            assert_eq!(exact_replacement("PREFEAT", odd), None, "{odd}");
        }
        assert_eq!(exact_replacement("PREABILITY", "1,Dodge"), None);
    }

    #[test]
    fn choose_number_becomes_tempvalue_with_the_rest_as_it_is() {
        assert_eq!(
            exact_replacement("CHOOSE", "NUMBER|MIN=1|MAX=5|TITLE=Pick").as_deref(),
            Some("TEMPVALUE:MIN=1|MAX=5|TITLE=Pick")
        );
        assert_eq!(exact_replacement("CHOOSE", "number|MIN=1"), None);
        assert_eq!(exact_replacement("CHOOSE", "SKILL|x"), None);
    }
}
