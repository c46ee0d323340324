//! Go to definition and find references.
//!
//! References are found in the text of every file of the load: names in formulas and token
//! values compared as PCGen compares them (case-insensitive), object keys as whole `|`/`:`/`,`
//! separated parts and as the names that start object lines, and as the names old-system
//! tokens give ([`names_in_token`]: `Weapon Focus (Longsword)` is a use of `Weapon Focus`).

use crate::load::FileKind;
use crate::lsp::checked::Checked;
use crate::lsp::context::{Context, is_name_char};
use crate::lsp::target::{self, Target, object_line_key};
use crate::model::references::names_in_token;
use crate::model::{Object, ObjectKind};
use crate::source::{FileId, Span};
use std::path::PathBuf;

/// Where a target is defined: a span in the load, or a whole file.
#[derive(Debug, PartialEq, Eq)]
pub enum Place {
    /// A span of a file of the load.
    Span(Span),
    /// The start of a file.
    File(PathBuf),
}

/// The definitions of the name at cursor: one place, or every `DEFINE`/`BONUS:VAR` that
/// makes an old-system variable.
pub fn definition(ctx: &Context<'_>) -> Vec<Place> {
    let Some((t, _)) = target::at(ctx) else {
        return Vec::new();
    };
    match t {
        Target::Variable(v) => v.span.map(Place::Span).into_iter().collect(),
        Target::Function(f) => vec![Place::Span(f.span)],
        Target::Table(t) => vec![Place::Span(t.span)],
        Target::Object(o) => vec![Place::Span(o.span)],
        Target::File(p) => vec![Place::File(p)],
        Target::OldVariable(_, defs) => defs.iter().map(|d| Place::Span(d.span)).collect(),
        Target::Builtin(_)
        | Target::Scope(_)
        | Target::Token(_)
        | Target::Term(..)
        | Target::Command(_) => Vec::new(),
    }
}

/// Every use of the name at the cursor in the load (the definition included).
pub fn references(ctx: &Context<'_>) -> Vec<Span> {
    let Some((t, _)) = target::at(ctx) else {
        return Vec::new();
    };
    let checked = ctx.checked;
    let mut out = match &t {
        Target::Variable(v) => {
            let mut out = names(checked, v.name.as_str());
            if let Some(s) = v.span {
                if !out.iter().any(|o| overlaps(o, &s)) {
                    out.insert(0, s);
                }
            }
            out
        }
        Target::Function(f) => names(checked, f.name.as_str()),
        Target::Table(t) => names(checked, t.name.as_str()),
        Target::Builtin(n) => names(checked, n),
        Target::Object(o) => {
            // The key's text is found once per file; both readers look only around it.
            let key = checked.set.dataset.key_of(o).as_str();
            let hits: Vec<(FileId, Vec<usize>)> = searched(checked)
                .into_iter()
                .filter_map(|id| {
                    let h = occurrences(&checked.source(id)?.text, key);
                    (!h.is_empty()).then_some((id, h))
                })
                .collect();
            let mut out = old_uses(checked, o, &hits);
            out.extend(keys(checked, key, &hits));
            out
        }
        Target::Scope(s) => names(checked, checked.set.dataset.scopes.name(*s)),
        Target::OldVariable(name, defs) => {
            let mut out = names(checked, name.as_str());
            out.extend(defs.iter().map(|d| d.span));
            out
        }
        Target::Term(_, text) => names(checked, text),
        Target::Command(c) => names(checked, c.name),
        Target::Token(_) | Target::File(_) => Vec::new(),
    };
    out.sort_by_key(|s| (s.file, s.start, s.end));
    out.dedup();
    // A span inside another (a key found whole and as a choice's base) is one use.
    let all = out.clone();
    out.retain(|s| {
        !all.iter()
            .any(|o| o != s && o.file == s.file && o.start <= s.start && s.end <= o.end)
    });
    out
}

/// Where `needle` starts in `text`, in any ASCII case, in order.
fn occurrences(text: &str, needle: &str) -> Vec<usize> {
    let (text, needle) = (text.as_bytes(), needle.as_bytes());
    let Some(first) = needle.first() else {
        return Vec::new();
    };
    let (lower, upper) = (first.to_ascii_lowercase(), first.to_ascii_uppercase());
    memchr::memchr2_iter(lower, upper, text)
        .filter(|i| {
            text.get(*i..i + needle.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(needle))
        })
        .collect()
}

/// The names old-system tokens give (`token-references.tsv`) that stand for `o`: its key,
/// or its key with a choice (`Weapon Focus (Longsword)`) for an ability, of its kind (an
/// ability: of a category drawing from its pool, or any category the load set lacks).
/// `hits` are where the key's text is, by file.
fn old_uses(checked: &Checked, o: &Object, hits: &[(FileId, Vec<usize>)]) -> Vec<Span> {
    let ds = &checked.set.dataset;
    let objects = checked.old_objects();
    let ObjectKind::File(kind) = o.kind else {
        return Vec::new();
    };
    let ability = matches!(kind, FileKind::Ability | FileKind::Feat);
    let pool = objects.pool_of(ds, o);
    let key = ds.key_of(o);
    let mut out = Vec::new();
    for f in &checked.set.load.files {
        let text = &f.cached.source().text;
        // Only the tokens holding the key's text are read (a few of a few files).
        let Some((_, hits)) = hits.iter().find(|(id, _)| *id == f.file) else {
            continue;
        };
        for line in f.lines.shared() {
            for t in &line.tokens {
                let r = t.range();
                let first_hit = hits.partition_point(|h| *h < r.start);
                if hits.get(first_hit).is_none_or(|h| *h >= r.end) {
                    continue;
                }
                let Some(token) = text.get(r) else {
                    continue;
                };
                for n in names_in_token(f.kind, token) {
                    let Some(name) = token.get(n.range.clone()) else {
                        continue;
                    };
                    let same_kind = if ability {
                        let named = match (n.target, n.category) {
                            (FileKind::Ability, Some(c)) => objects.pool(c),
                            (FileKind::Ability | FileKind::Feat, _) => objects.pool("FEAT"),
                            _ => continue,
                        };
                        named.is_none() || named.as_ref() == pool
                    } else {
                        n.target == kind
                    };
                    let base = || name.split_once(" (").map(|(b, _)| b.trim_end());
                    if same_kind && (key.is(name) || ability && base().is_some_and(|b| key.is(b))) {
                        let start = t.range().start + n.range.start;
                        out.push(Span::new(f.file, start..start + name.len()));
                    }
                }
            }
        }
    }
    out
}

fn overlaps(a: &Span, b: &Span) -> bool {
    a.file == b.file && a.start < b.end && b.start < a.end
}

/// Files of the load whose text is searched: PCC and listed files.
fn searched(checked: &Checked) -> Vec<FileId> {
    let load = &checked.set.load;
    let mut ids: Vec<FileId> = load.files.iter().map(|f| f.file).collect();
    ids.extend(load.campaigns.iter().map(|c| c.file));
    ids.sort();
    ids.dedup();
    ids
}

/// Runs of name characters equal to `name`.
fn names(checked: &Checked, name: &str) -> Vec<Span> {
    let mut out = Vec::new();
    for id in searched(checked) {
        let Some(src) = checked.source(id) else {
            continue;
        };
        let text = src.text.as_str();
        for (at, _) in text.match_indices(|c: char| c.eq_ignore_ascii_case(&first(name))) {
            let Some(cand) = text.get(at..at + name.len()) else {
                continue;
            };
            if !cand.eq_ignore_ascii_case(name) {
                continue;
            }
            let before_ok = text
                .get(..at)
                .and_then(|s| s.chars().next_back())
                .is_none_or(|c| !is_name_char(c));
            let after_ok = text
                .get(at + name.len()..)
                .and_then(|s| s.chars().next())
                .is_none_or(|c| !is_name_char(c));
            if before_ok && after_ok {
                out.push(Span::new(id, at..at + name.len()));
            }
        }
    }
    out
}

fn first(name: &str) -> char {
    name.chars().next().unwrap_or('\0')
}

/// Parts of token values (split at tab, `|`, `:`, `,`, `=`) and object-line names equal to
/// `key`. Only the parts around the key's text (`hits`, by file) are read.
fn keys(checked: &Checked, key: &str, hits: &[(FileId, Vec<usize>)]) -> Vec<Span> {
    const SEPARATORS: [char; 7] = ['\t', '|', ':', ',', '=', '\n', '\r'];
    let mut out = Vec::new();
    for (id, hits) in hits {
        let id = *id;
        let Some(src) = checked.source(id) else {
            continue;
        };
        let text = src.text.as_str();
        let mut last_piece = None;
        for &hit in hits {
            let start = text
                .get(..hit)
                .and_then(|b| b.rfind(SEPARATORS))
                .map_or(0, |i| i + 1);
            if last_piece == Some(start) {
                continue;
            }
            last_piece = Some(start);
            let rest = text.get(start..).unwrap_or("");
            let piece = rest
                .get(..rest.find(SEPARATORS).unwrap_or(rest.len()))
                .unwrap_or("");
            let base = object_line_key(piece);
            let trimmed = base.trim_start();
            let lead = base.len() - trimmed.len();
            if trimmed.trim_end().eq_ignore_ascii_case(key) {
                let s = start + lead;
                out.push(Span::new(id, s..s + trimmed.trim_end().len()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::occurrences;

    #[test]
    fn occurrences_are_found_in_any_ascii_case() {
        assert_eq!(occurrences("Dodge\tPRE:dodge,DODGEx", "Dodge"), [0, 10, 16]);
        assert_eq!(occurrences("Dod", "Dodge"), Vec::<usize>::new());
        assert_eq!(occurrences("abc", ""), Vec::<usize>::new());
    }
}
