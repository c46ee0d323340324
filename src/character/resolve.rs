//! The object a character file's `KIND:KEY` names, or the problem saying why there is none
//! and what was probably meant: a key one typo away ("did you mean"), `FEAT:` for an
//! ability (PCGen's feats are `ABILITY` lines with `CATEGORY:FEAT`), an ability key that two
//! categories share (`ABILITY:CATEGORY|KEY` picks one).
//!
//! An ability's category is read from its line in the load's sources (the model keeps no
//! category); without them, two abilities sharing a key are still reported, unnamed.

use super::{UNKNOWN_OBJECT, find_object_in, unknown_object};
use crate::diagnostic::Diagnostic;
use crate::load::FileKind;
use crate::model::{Dataset, Object, ObjectId, ObjectKind};
use crate::name::Name;
use crate::source::{SourceMap, Span};

/// The object `kind`/`key` names in `dataset`; `sources` are the load's, for ability
/// categories. The problem is detached (the caller places it on the entry).
pub(super) fn resolve(
    dataset: &Dataset,
    sources: Option<&SourceMap>,
    kind: &str,
    key: &str,
) -> Result<ObjectId, Box<Diagnostic>> {
    if kind.eq_ignore_ascii_case("ABILITY") {
        return ability(dataset, sources, key);
    }
    if let Some(found) = find_object_in(dataset, kind, key) {
        return Ok(found);
    }
    let d = unknown_object(kind, key).with_label("unknown object");
    if kind.eq_ignore_ascii_case("FEAT") {
        if let Some((_, found)) = abilities(dataset, sources, key).into_iter().next() {
            let category = found.unwrap_or_else(|| "CATEGORY".to_owned());
            return problem(d.with_help(format!(
                "abilities are granted as `ABILITY:CATEGORY|KEY` (PCGen's feats are ABILITY \
                 lines with CATEGORY:FEAT): write `ABILITY:{category}|{}`",
                key.trim()
            )));
        }
    }
    let wanted = match FileKind::from_token(&kind.to_ascii_uppercase()) {
        Some(k) => ObjectKind::File(k),
        None => ObjectKind::Dynamic(Name::new(kind)),
    };
    problem(guess(dataset, d, key, |o| o.kind == wanted, kind))
}

/// `ABILITY:KEY` or `ABILITY:CATEGORY|KEY`.
fn ability(
    dataset: &Dataset,
    sources: Option<&SourceMap>,
    key: &str,
) -> Result<ObjectId, Box<Diagnostic>> {
    let (wanted_category, key) = match key.split_once('|') {
        Some((c, k)) => (Some(c.trim()), k.trim()),
        None => (None, key.trim()),
    };
    let found = abilities(dataset, sources, key);
    let mut categories: Vec<String> = Vec::new();
    for c in found.iter().filter_map(|(_, c)| c.as_ref()) {
        if !categories.iter().any(|k| k.eq_ignore_ascii_case(c)) {
            categories.push(c.clone());
        }
    }
    match wanted_category {
        Some(wanted) => match found
            .iter()
            .find(|(_, c)| c.as_deref().is_some_and(|c| c.eq_ignore_ascii_case(wanted)))
        {
            Some((o, _)) => Ok(*o),
            None if found.is_empty() => problem(guess(
                dataset,
                unknown_object("ABILITY", key).with_label("unknown object"),
                key,
                is_ability,
                "ABILITY",
            )),
            None => problem(
                Diagnostic::error(
                    UNKNOWN_OBJECT,
                    Span::DETACHED,
                    format!("there is no ability `{key}` in category `{wanted}`"),
                )
                .with_label("not in this category")
                .with_help(format!(
                    "`{key}` is in {}",
                    categories
                        .iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(" and ")
                )),
            ),
        },
        None if categories.len() > 1 => problem(
            Diagnostic::error(
                UNKNOWN_OBJECT,
                Span::DETACHED,
                format!(
                    "`ABILITY:{key}` is ambiguous: abilities in {} have this key",
                    categories
                        .iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
            )
            .with_label("more than one ability")
            .with_help(format!(
                "name the category: `ABILITY:{}|{key}`",
                categories.first().map_or("CATEGORY", String::as_str)
            )),
        ),
        None => match find_object_in(dataset, "ABILITY", key) {
            Some(o) => Ok(o),
            None => problem(guess(
                dataset,
                unknown_object("ABILITY", key).with_label("unknown object"),
                key,
                is_ability,
                "ABILITY",
            )),
        },
    }
}

/// `d` as the result of a look-up.
fn problem(d: Diagnostic) -> Result<ObjectId, Box<Diagnostic>> {
    Err(Box::new(d))
}

/// Every ability (or old FEAT object) whose key is `key`, with its category when known, in
/// dataset order.
fn abilities(
    dataset: &Dataset,
    sources: Option<&SourceMap>,
    key: &str,
) -> Vec<(ObjectId, Option<String>)> {
    let key = Name::new(key.trim());
    dataset
        .objects
        .iter()
        .filter(|o| is_ability(o) && !o.forgotten && *dataset.key_of(o) == key)
        .map(|o| (o.id, category(sources, o)))
        .collect()
}

fn is_ability(o: &Object) -> bool {
    matches!(o.kind, ObjectKind::File(FileKind::Ability | FileKind::Feat))
}

/// The category of an ability: `FEAT` for an object of a FEAT file, else the `CATEGORY:`
/// token of its line.
fn category(sources: Option<&SourceMap>, o: &Object) -> Option<String> {
    if o.kind == ObjectKind::File(FileKind::Feat) {
        return Some("FEAT".to_owned());
    }
    let file = sources?.get(o.span.file)?;
    let line = file.text.get(file.line_range_at(o.span.range().start))?;
    line.split('\t')
        .find_map(|t| t.trim().strip_prefix("CATEGORY:"))
        .map(|c| c.trim().to_owned())
}

/// `d` with "did you mean" the closest key of the objects `of_kind` accepts, if one is near.
fn guess(
    dataset: &Dataset,
    d: Diagnostic,
    key: &str,
    of_kind: impl Fn(&Object) -> bool,
    kind: &str,
) -> Diagnostic {
    let keys = dataset
        .objects
        .iter()
        .filter(|o| of_kind(o) && !o.forgotten)
        .map(|o| dataset.key_of(o).as_str());
    match crate::name::closest(key.trim(), keys) {
        // Detached, as the diagnostic: a character file places both on its entry.
        Some(best) => d.with_did_you_mean_as(Span::DETACHED, best, &format!("{kind}:"), ""),
        None => d,
    }
}
