//! `textDocument/rename` (and `prepareRename`): a variable (formula-system or `DEFINE`d)
//! across its definition, `MODIFY` targets and formulas; a user function or table; an object
//! key across its line, `.MOD`/`.COPY=` lines and the tokens naming it — every place
//! [`navigate::references`] finds, each edited where the old name is written. Refused, with
//! the reason, for anything else, for a key several objects share (which of them a use means
//! is not known), and when a place found does not hold the name.

use crate::lsp::context::Context;
use crate::lsp::navigate;
use crate::lsp::target::{self, Target};
use crate::source::Span;
use std::ops::Range;

/// The name at the cursor and its byte range in the file, when it can be renamed.
pub fn renameable(ctx: &Context<'_>) -> Result<(String, Range<usize>), String> {
    let Some((t, range)) = target::at(ctx) else {
        return Err("no name here to rename".to_owned());
    };
    let ds = ctx.dataset();
    let name = match &t {
        Target::Variable(v) => v.name.as_str().to_owned(),
        Target::OldVariable(n, _) => n.as_str().to_owned(),
        Target::Function(f) => f.name.as_str().to_owned(),
        Target::Table(t) => t.name.as_str().to_owned(),
        Target::Object(o) => {
            let key = ds.key_of(o).as_str();
            let sharing = ds
                .objects
                .iter()
                .filter(|other| ds.key_of(other).as_str().eq_ignore_ascii_case(key))
                .count();
            if sharing > 1 {
                return Err(format!(
                    "`{key}` is the key of {sharing} objects: which of them each use means is \
                     not known, so it is not renamed"
                ));
            }
            key.to_owned()
        }
        _ => {
            return Err(
                "only variables, functions, tables and object keys can be renamed".to_owned(),
            );
        }
    };
    Ok((name, range))
}

/// The places to edit to rename the name at the cursor: for each use, the span of the old
/// name itself (any letter case). `Err` says why not.
pub fn places(ctx: &Context<'_>) -> Result<(String, Vec<Span>), String> {
    let (name, _) = renameable(ctx)?;
    let mut out = Vec::new();
    for span in navigate::references(ctx) {
        let Some(text) = ctx.checked.source(span.file).map(|f| f.text.as_str()) else {
            continue;
        };
        let covered = text.get(span.range()).unwrap_or("");
        let at = covered
            .as_bytes()
            .windows(name.len().max(1))
            .position(|w| w.eq_ignore_ascii_case(name.as_bytes()));
        let Some(at) = at.filter(|_| !name.is_empty()) else {
            return Err(format!(
                "a use of `{name}` could not be told apart from its surroundings: not renamed"
            ));
        };
        let start = span.start as usize + at;
        out.push(Span::new(span.file, start..start + name.len()));
    }
    if out.is_empty() {
        return Err(format!("no use of `{name}` found"));
    }
    Ok((name, out))
}
