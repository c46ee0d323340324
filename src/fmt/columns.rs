//! Columns and tab stops: which column a token goes to, and PrettyLST's tab arithmetic
//! (tab stops every 6 characters; lengths counted in bytes, as Perl counts them in a file
//! read without a decoding layer).

use std::collections::HashMap;

/// Tab stops every this many characters.
pub const TAB: usize = 6;

/// The column (key) of a token that is not a line's first, for a line type whose column
/// order is `order`, as PrettyLST's `parse_tag` names it: the token's name (a negated
/// prerequisite keeps its `!`), with the kind after it for the tokens it tells apart when
/// the order lists that kind (`BONUS:COMBAT`, `AUTO:LANG`, `SPELLLEVEL:CLASS`, the old
/// `ADD:FEAT(…)`), and `:.CLEAR` after it for a value starting with `.CLEAR`.
pub fn key<'t>(token: &'t str, order: &HashMap<&'static str, usize>) -> &'t str {
    let Some((name, value)) = token.split_once(':') else {
        return token;
    };
    let sub_len = match name {
        "FACT" | "FACTSET" | "INFO" | "QUALIFY" | "QUALITY" | "BONUS" | "PROFICIENCY" => {
            value.find(['=', ':', '|']).unwrap_or(value.len())
        }
        "AUTO" => value.find(['|', ':', '=', '(']).unwrap_or(value.len()),
        "SPELLLEVEL" | "SPELLKNOWN" => value.find('|').unwrap_or(0),
        "ADD" => value.find('(').unwrap_or(0),
        _ => 0,
    };
    let cut = |len: usize| token.get(..name.len() + 1 + len);
    if sub_len > 0 {
        if let Some(k) = cut(sub_len).filter(|k| order.contains_key(k)) {
            return k;
        }
    }
    if value
        .get(..6)
        .is_some_and(|v| v.eq_ignore_ascii_case(".CLEAR"))
    {
        let all = format!("{name}:.CLEARALL");
        let clear = format!("{name}:.CLEAR");
        if !order.contains_key(all.as_str()) {
            if let Some((k, _)) = order.get_key_value(clear.as_str()) {
                return k;
            }
        }
    }
    name
}

/// The tokens whose kind (the value up to its first `|`) makes a token of its own for PCGen:
/// a `BONUS:COMBAT|…` and a `BONUS:SKILL|…`, a `FACT:Abb|…` and a `FACT:ClassType|…` are
/// read apart, so their order is no part of the meaning.
const KINDED: [&str; 6] = ["BONUS", "FACT", "FACTSET", "INFO", "QUALIFY", "AUTO"];

/// The unit whose tokens PCGen reads in order, and whose order the formatter therefore
/// keeps: the token's name, or its name and kind for the [`KINDED`] tokens — unless the line
/// clears that name (`BONUS:.CLEAR`: a `.CLEAR` comes before what it clears, whatever kind);
/// `MODIFY` and `MODIFYOTHER` are one unit.
pub fn order_unit<'t>(token: &'t str, cleared: &[&str]) -> &'t str {
    let Some((name, value)) = token.split_once(':') else {
        return token;
    };
    // Both add modifiers, which the solver orders by insertion at one priority: a MODIFY
    // and a MODIFYOTHER may reach one variable of the same object.
    if name == "MODIFYOTHER" {
        return "MODIFY";
    }
    if !KINDED.contains(&name) || cleared.contains(&name) {
        return name;
    }
    let kind = value.find('|').unwrap_or(value.len());
    token.get(..name.len() + 1 + kind).unwrap_or(name)
}

/// The names some token of `tokens` clears (a value starting with `.CLEAR`).
pub fn cleared_names<'t>(tokens: &[&'t str]) -> Vec<&'t str> {
    tokens
        .iter()
        .filter_map(|t| t.split_once(':'))
        .filter(|(_, v)| v.get(..6).is_some_and(|c| c.eq_ignore_ascii_case(".CLEAR")))
        .map(|(n, _)| n)
        .collect()
}

/// Rounds a length up to the next tab stop (a length already on a stop goes one further).
pub fn next_stop(len: usize) -> usize {
    (len / TAB + 1) * TAB
}

/// The width of a cell holding `tokens` one tab apart: every token but the last runs to the
/// next tab stop (PrettyLST's `mylength`).
pub fn cell_width<'a>(tokens: impl IntoIterator<Item = &'a str>) -> usize {
    let mut width = 0;
    let mut last = 0;
    let mut any = false;
    for t in tokens {
        if any {
            width += next_stop(last);
        }
        last = t.len();
        any = true;
    }
    width + last
}

/// The tabs after a cell `width` wide in a column whose content is at most `widest`: enough
/// to reach the column's end, rounded up.
pub fn tabs_after(width: usize, widest: usize) -> usize {
    next_stop(widest).saturating_sub(width).div_ceil(TAB)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(keys: &[&'static str]) -> HashMap<&'static str, usize> {
        keys.iter().enumerate().map(|(i, k)| (*k, i)).collect()
    }

    #[test]
    fn keys_split_the_tokens_prettylst_tells_apart() {
        let o = order(&[
            "TYPE:.CLEAR",
            "TYPE",
            "BONUS:COMBAT",
            "PREFEAT",
            "ADD:FEAT",
            "ADD:SPELLCASTER",
            "AUTO:LANG",
            "SPELLLEVEL:CLASS",
            "DEFINE:MAXLEVELSTAT",
        ]);
        assert_eq!(key("TYPE:.CLEAR", &o), "TYPE:.CLEAR");
        assert_eq!(key("TYPE:.CLEAR.Foo", &o), "TYPE:.CLEAR");
        assert_eq!(key("TYPE:Fighter.General", &o), "TYPE");
        assert_eq!(key("BONUS:COMBAT|BAB|1", &o), "BONUS:COMBAT");
        assert_eq!(key("BONUS:SKILL|x|1", &o), "BONUS");
        assert_eq!(key("!PREFEAT:1,Dodge", &o), "!PREFEAT");
        assert_eq!(key("ADD:FEAT(Dodge)", &o), "ADD:FEAT");
        assert_eq!(key("ADD:SPELLCASTER|ANY", &o), "ADD");
        assert_eq!(key("AUTO:LANG|Common", &o), "AUTO:LANG");
        assert_eq!(key("SPELLLEVEL:CLASS|Wizard=1|x", &o), "SPELLLEVEL:CLASS");
        assert_eq!(key("DEFINE:MAXLEVELSTAT|x", &o), "DEFINE");
        assert_eq!(key("NOCOLON", &o), "NOCOLON");
        assert_eq!(order_unit("BONUS:COMBAT|BAB|1", &[]), "BONUS:COMBAT");
        assert_eq!(order_unit("FACT:Abb|Ftr", &[]), "FACT:Abb");
        assert_eq!(order_unit("BONUS:COMBAT|BAB|1", &["BONUS"]), "BONUS");
        assert_eq!(order_unit("TYPE:Base", &[]), "TYPE");
        assert_eq!(
            order_unit("MODIFYOTHER:PC.EQUIPMENT|ALL|x|ADD|1", &[]),
            "MODIFY"
        );
        let line = ["BONUS:.CLEAR", "TYPE:x", "BONUS:SKILL|y|1"];
        assert_eq!(cleared_names(&line), vec!["BONUS"]);
    }

    #[test]
    fn widths_follow_the_tab_stops() {
        assert_eq!(next_stop(0), 6);
        assert_eq!(next_stop(5), 6);
        assert_eq!(next_stop(6), 12);
        assert_eq!(cell_width(["abc"]), 3);
        assert_eq!(cell_width(["abc", "de"]), 8);
        assert_eq!(cell_width(["abcdef", "de"]), 14);
        // "Firebrand" (9) in a column whose widest name is 16: two tabs reach 18.
        assert_eq!(tabs_after(9, 16), 2);
        assert_eq!(tabs_after(16, 16), 1);
        assert_eq!(tabs_after(12, 16), 1);
    }
}
