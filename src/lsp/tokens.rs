//! The token vocabulary as the editor sees it: which table kind a line is read as, what a
//! token name means there (the kinds taking it, its status and replacement, its sub-tokens),
//! and which names may be typed.

use crate::lsp::context::Context;
use crate::vocabulary::check::{replacement, sub_replacement};
use crate::vocabulary::{LineType, Status, TokenRow, Vocabulary, line_type};

/// The vocabulary kind of the cursor's line (`RACE`, `CLASSLEVEL`, `KIT:GEAR`, `PCC`), or
/// `None` for lines the vocabulary does not describe (formula files, unknown line types).
pub fn line_kind(ctx: &Context<'_>) -> Option<&'static str> {
    if ctx.pcc {
        return Some("PCC");
    }
    let line = ctx.slice(ctx.line.clone());
    let first = line.split('\t').next().unwrap_or(line);
    match line_type(ctx.kind?, first) {
        LineType::Kind { kind, .. } => Some(kind),
        LineType::Model | LineType::Unknown { .. } => None,
    }
}

/// The kinds list shown in a hover, shortened after `shown` entries.
fn kinds_list(kinds: &[&str], shown: usize) -> String {
    let mut s = kinds
        .iter()
        .take(shown)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if kinds.len() > shown {
        s.push_str(&format!(" and {} more", kinds.len() - shown));
    }
    s
}

/// The hover text (Markdown) of token `name` on a line of vocabulary kind `kind`.
pub fn hover(name: &str, kind: Option<&'static str>) -> String {
    let vocab = Vocabulary::get();
    let row = kind.and_then(|k| vocab.find(k, name));
    let mut s = format!("**{name}**: token");
    match (row, kind) {
        (Some(row), Some(k)) => {
            match row.status {
                Status::Active => {}
                Status::DeprecatedAccepted => s.push_str(&format!(
                    "\n\n*Deprecated* (PCGen still reads it): {}",
                    replacement(row, k)
                )),
                Status::DeprecatedRejected => {
                    s.push_str("\n\n*No longer supported*: PCGen rejects every use")
                }
            }
            subtokens(&mut s, row, k);
        }
        (None, Some(k)) => s.push_str(&format!("\n\nnot a token of {k} lines")),
        (None, None) | (Some(_), None) => {}
    }
    let kinds = vocab.kinds_taking(name);
    if kinds.is_empty() {
        s.push_str("\n\nno file kind takes it");
    } else {
        s.push_str(&format!("\n\ntaken on {} lines", kinds_list(&kinds, 12)));
    }
    s
}

fn subtokens(s: &mut String, row: &TokenRow, kind: &str) {
    if !row.has_subtokens() {
        return;
    }
    let active: Vec<&str> = row
        .subtokens
        .iter()
        .copied()
        .filter(|t| !row.deprecated_subtokens.contains(t))
        .collect();
    if !active.is_empty() {
        s.push_str(&format!("\n\nsub-tokens: {}", kinds_list(&active, 40)));
    }
    for d in &row.deprecated_subtokens {
        s.push_str(&format!(
            "\n\ndeprecated sub-token `{d}`: {}",
            sub_replacement(row.token, d, kind)
        ));
    }
}

/// The token names that may be written on a line of vocabulary kind `kind`: no line
/// identifiers (first column only) and none PCGen rejects. With the detail to show.
pub fn names(kind: &str) -> Vec<(&'static str, String)> {
    Vocabulary::get()
        .tokens_for(kind)
        .into_iter()
        .filter(|r| r.token != "*" && !r.is_line_identifier())
        .filter(|r| r.status != Status::DeprecatedRejected)
        .map(|r| {
            let detail = match r.status {
                Status::DeprecatedAccepted => format!("deprecated: {}", replacement(r, kind)),
                _ => "token".to_owned(),
            };
            (r.token, detail)
        })
        .collect()
}

/// The sub-tokens of `token` on `kind` (BONUS types, CHOOSE kinds …), with the detail to
/// show; empty when the token has none.
pub fn subtoken_names(kind: &str, token: &str) -> Vec<(&'static str, String)> {
    let Some(row) = Vocabulary::get().find(kind, token) else {
        return Vec::new();
    };
    if !row.has_subtokens() {
        return Vec::new();
    }
    row.subtokens
        .iter()
        .map(|s| {
            let detail = if row.deprecated_subtokens.contains(s) {
                format!("deprecated: {}", sub_replacement(token, s, kind))
            } else {
                format!("{token} sub-token")
            };
            (*s, detail)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hover_says_kinds_status_and_subtokens() {
        let h = hover("BONUS", Some("RACE"));
        assert!(h.contains("taken on") && h.contains("RACE"), "{h}");
        assert!(h.contains("sub-tokens:") && h.contains("COMBAT"), "{h}");
        let d = hover("PREFEAT", Some("RACE"));
        assert!(
            d.contains("*Deprecated*") && d.contains("PREABILITY"),
            "{d}"
        );
        let n = hover("NOPE", Some("RACE"));
        assert!(n.contains("not a token of RACE lines") && n.contains("no file kind"));
    }

    #[test]
    fn names_follow_the_kind_and_subtokens_the_token() {
        let race: Vec<&str> = names("RACE").into_iter().map(|(n, _)| n).collect();
        assert!(race.contains(&"MOVE") && race.contains(&"PRESKILL"));
        assert!(!race.contains(&"CAST"), "an EQUIPMENT/SPELL token");
        let choose = subtoken_names("ABILITY", "CHOOSE");
        assert!(choose.iter().any(|(n, _)| *n == "SKILL"));
        assert!(
            choose
                .iter()
                .any(|(n, d)| *n == "FEAT" && d.starts_with("deprecated"))
        );
        assert!(subtoken_names("RACE", "MOVE").is_empty());
    }
}
