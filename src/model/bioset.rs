//! The age sets of a load set's BIOSET files, read as PCGen's `BioSetLoader` reads them:
//! in load order, one bio set per game mode, an `AGESET:index|Name` line keyed by the region
//! its file (or an earlier one: the loader keeps the last `REGION:` across files) left
//! current and its index. A second age set of a region and index is dropped in favour of the
//! first (`BioSet.addToAgeMap`); when it differs — another name, or BONUS or KIT tokens of
//! its own — PCGen logs "Found second (non-identical) AGESET" and the line's bonuses never
//! apply: `M0132`.

use super::codes;
use crate::diagnostic::Diagnostic;
use crate::load::{FileKind, LoadSet, LoadedFile};
use crate::name::Name;
use crate::source::Span;
use std::collections::HashMap;

/// The first age set of a region and index.
struct First {
    name: String,
    at: Span,
}

/// `M0132` for each age set of `load` that PCGen drops as a non-identical second.
pub fn check(load: &LoadSet) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut firsts: HashMap<(Option<Name>, i64), First> = HashMap::new();
    // The loader's region and index outlive a file (`loadLstFile` resets only the index).
    let mut region: Option<Name> = None;
    for f in load.files.iter().filter(|f| f.kind == FileKind::Bioset) {
        let mut index = 0;
        for line in f.lines.shared() {
            let Some(&head) = line.tokens.first() else {
                continue;
            };
            let text = token_text(f, head);
            let head = f.lines.place(head);
            if let Some(name) = text.strip_prefix("REGION:") {
                region = Some(Name::new(name.trim()));
                continue;
            }
            let Some(rest) = text.strip_prefix("AGESET:") else {
                continue;
            };
            // Without a `|` PCGen reports the line and skips it (`T0115` here); an index
            // that is not a whole number leaves the previous one current.
            let Some((number, name)) = rest.split_once('|') else {
                continue;
            };
            if let Ok(n) = number.trim().parse::<i64>() {
                index = n;
            }
            let own_tokens = line.tokens.iter().skip(1).any(|t| {
                let t = token_text(f, *t);
                t.starts_with("BONUS:") || t.starts_with("KIT:")
            });
            let key = (region.clone(), index);
            match firsts.get(&key) {
                None => {
                    firsts.insert(
                        key,
                        First {
                            name: name.to_owned(),
                            at: head,
                        },
                    );
                }
                Some(first) if first.name != name || own_tokens => {
                    out.push(second(head, index, name, first, own_tokens));
                }
                Some(_) => {}
            }
        }
    }
    out
}

/// The text of a token of `f`.
fn token_text(f: &LoadedFile, span: Span) -> &str {
    f.cached
        .source()
        .text
        .get(span.start as usize..span.end as usize)
        .unwrap_or("")
}

fn second(at: Span, index: i64, name: &str, first: &First, own_tokens: bool) -> Diagnostic {
    let differs = if first.name == name {
        "has BONUS or KIT tokens of its own".to_owned()
    } else {
        format!("names it `{name}`")
    };
    Diagnostic::error(
        codes::DUPLICATE_AGESET,
        at,
        format!(
            "AGESET {index} is already `{}`; PCGen keeps the first and drops this line",
            first.name
        ),
    )
    .with_label(format!("a second AGESET {index} that {differs}"))
    .with_secondary(first.at, format!("the AGESET {index} PCGen keeps"))
    .with_help(if own_tokens {
        format!(
            "PCGen applies only the first AGESET {index} of a region: move these tokens to that \
             line, or put this file's age sets under a REGION: of their own"
        )
    } else {
        format!(
            "write `AGESET:{index}|{}` as the first one does, or put this file's age sets \
             under a REGION: of their own",
            first.name
        )
    })
    .with_note(
        "PCGen: \"Found second (non-identical) AGESET in Bio Settings … using the existing …\"",
    )
}
