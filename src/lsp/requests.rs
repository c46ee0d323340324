//! Read-only requests over a [`Snapshot`]: LSP parameters in, LSP results out.

use crate::lsp::context::Context;
use crate::lsp::diagnostics::location;
use crate::lsp::navigate::{self, Place};
use crate::lsp::position::LineIndex;
use crate::lsp::session::Snapshot;
use crate::lsp::{complete, hover, rename, symbols, uri};
use lsp_types as lsp;
use std::collections::HashMap;

/// The cursor's context in the first load set holding the document.
fn context<'a>(
    snap: &'a Snapshot,
    doc: &lsp::Uri,
    pos: lsp::Position,
) -> Option<(Context<'a>, LineIndex)> {
    let path = uri::to_path(doc)?;
    let (checked, file) = snap.sets_of(&path).into_iter().next()?;
    let text = &checked.source(file)?.text;
    let index = LineIndex::new(text);
    let offset = index.offset(text, pos);
    Some((Context::new(checked, file, offset)?, index))
}

/// `textDocument/hover`: what the name under the cursor stands for; on a name the check
/// found unknown and has a suggestion for, the finding and the suggestion.
pub fn hover(snap: &Snapshot, p: &lsp::HoverParams) -> Option<lsp::Hover> {
    let tp = &p.text_document_position_params;
    let known = context(snap, &tp.text_document.uri, tp.position).and_then(|(ctx, index)| {
        let (value, range) = hover::hover(&ctx)?;
        Some(markdown(
            value,
            index.range(ctx.text, range.start, range.end),
        ))
    });
    known.or_else(|| misspelt(snap, &tp.text_document.uri, tp.position))
}

fn markdown(value: String, range: lsp::Range) -> lsp::Hover {
    lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value,
        }),
        range: Some(range),
    }
}

/// The hover of a name a published finding suggests a replacement for (its `data.replace`,
/// over `data.range`): the finding's first line and the suggestion.
fn misspelt(snap: &Snapshot, doc: &lsp::Uri, at: lsp::Position) -> Option<lsp::Hover> {
    let path = uri::to_path(doc)?;
    let published = snap.published.get(&path)?;
    published.iter().find_map(|d| {
        let data = d.data.as_ref()?;
        let replace = data.get("replace")?.as_str()?;
        let range = data
            .get("range")
            .and_then(|r| serde_json::from_value::<lsp::Range>(r.clone()).ok())
            .unwrap_or(d.range);
        if at < range.start || range.end < at {
            return None;
        }
        let code = match &d.code {
            Some(lsp::NumberOrString::String(c)) => format!("`{c}` "),
            _ => String::new(),
        };
        let first = d.message.lines().next().unwrap_or("");
        Some(markdown(
            format!("{code}{first}\n\ndid you mean `{replace}`?"),
            range,
        ))
    })
}

/// `textDocument/definition`.
pub fn definition(
    snap: &Snapshot,
    p: &lsp::GotoDefinitionParams,
) -> Option<lsp::GotoDefinitionResponse> {
    let tp = &p.text_document_position_params;
    let (ctx, _) = context(snap, &tp.text_document.uri, tp.position)?;
    let mut locations: Vec<lsp::Location> = navigate::definition(&ctx)
        .into_iter()
        .filter_map(|place| match place {
            Place::Span(s) => location(ctx.checked, s),
            Place::File(path) => Some(lsp::Location::new(
                uri::from_path(&path)?,
                lsp::Range::default(),
            )),
        })
        .collect();
    match locations.len() {
        0 => None,
        1 => locations.pop().map(lsp::GotoDefinitionResponse::Scalar),
        _ => Some(lsp::GotoDefinitionResponse::Array(locations)),
    }
}

/// `textDocument/references`.
pub fn references(snap: &Snapshot, p: &lsp::ReferenceParams) -> Option<Vec<lsp::Location>> {
    let tp = &p.text_document_position;
    let (ctx, _) = context(snap, &tp.text_document.uri, tp.position)?;
    Some(
        navigate::references(&ctx)
            .into_iter()
            .filter_map(|s| location(ctx.checked, s))
            .collect(),
    )
}

/// `textDocument/completion`.
pub fn completion(snap: &Snapshot, p: &lsp::CompletionParams) -> Option<lsp::CompletionResponse> {
    let tp = &p.text_document_position;
    let (ctx, index) = context(snap, &tp.text_document.uri, tp.position)?;
    let (items, start) = complete::complete(&ctx);
    let range = index.range(ctx.text, start, ctx.offset);
    let items = items
        .into_iter()
        .map(|i| lsp::CompletionItem {
            label: i.label.clone(),
            kind: Some(i.kind),
            detail: i.detail,
            text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit::new(
                range, i.label,
            ))),
            ..Default::default()
        })
        .collect();
    Some(lsp::CompletionResponse::Array(items))
}

/// The edits of the fix a published diagnostic carries in its `data` (see
/// [`crate::lsp::diagnostics`]) and whether the fix is safe.
fn fix_of(d: &lsp::Diagnostic) -> Option<(Vec<lsp::TextEdit>, bool)> {
    let data = d.data.as_ref()?;
    let edit = |v: &serde_json::Value| {
        let new = v.get("replace")?.as_str()?;
        let range = serde_json::from_value::<lsp::Range>(v.get("range")?.clone()).ok()?;
        Some(lsp::TextEdit::new(range, new.to_owned()))
    };
    let mut edits = vec![edit(data)?];
    for more in data
        .get("more")
        .and_then(|m| m.as_array())
        .into_iter()
        .flatten()
    {
        edits.push(edit(more)?);
    }
    let safe = data.get("safe").and_then(serde_json::Value::as_bool) == Some(true);
    Some((edits, safe))
}

/// `textDocument/codeAction`: a quick fix for every diagnostic in range that suggests one,
/// and "fix all" (`source.fixAll`): every safe fix of the document at once, the overlapping
/// ones left for the next time — what `rulebook check --fix` writes.
pub fn code_actions(snap: &Snapshot, p: &lsp::CodeActionParams) -> Vec<lsp::CodeActionOrCommand> {
    let doc = &p.text_document.uri;
    let published = uri::to_path(doc)
        .and_then(|path| snap.published.get(&path))
        .cloned()
        .unwrap_or_default();
    let overlaps = |r: &lsp::Range| r.start <= p.range.end && p.range.start <= r.end;
    let action = |title: String, kind, diagnostics, edits: Vec<lsp::TextEdit>| {
        lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
            title,
            kind: Some(kind),
            diagnostics: Some(diagnostics),
            edit: Some(lsp::WorkspaceEdit {
                changes: Some(HashMap::from([(doc.clone(), edits)])),
                ..Default::default()
            }),
            is_preferred: Some(true),
            ..Default::default()
        })
    };
    let mut out = Vec::new();
    for d in p.context.diagnostics.iter().chain(published.iter()) {
        if !overlaps(&d.range) {
            continue;
        }
        let Some((edits, _)) = fix_of(d) else {
            continue;
        };
        let title = match &edits[..] {
            [one] => format!("Replace with `{}`", one.new_text),
            many => format!("Apply the fix ({} edits)", many.len()),
        };
        if out.iter().any(|a: &lsp::CodeActionOrCommand| matches!(a, lsp::CodeActionOrCommand::CodeAction(c) if c.title == title)) {
            continue;
        }
        out.push(action(
            title,
            lsp::CodeActionKind::QUICKFIX,
            vec![d.clone()],
            edits,
        ));
    }
    let wanted = |kind: &lsp::CodeActionKind| {
        p.context
            .only
            .as_ref()
            .is_none_or(|only| only.iter().any(|o| kind.as_str().starts_with(o.as_str())))
    };
    if wanted(&lsp::CodeActionKind::SOURCE_FIX_ALL) {
        let mut taken: Vec<lsp::TextEdit> = Vec::new();
        let mut fixed = Vec::new();
        for d in &published {
            let Some((edits, true)) = fix_of(d) else {
                continue;
            };
            let clash = |e: &lsp::TextEdit| {
                taken.iter().any(|t| {
                    e.range.start < t.range.end && t.range.start < e.range.end
                        || (e.range == t.range && e.range.start != e.range.end)
                })
            };
            if edits.iter().any(clash) {
                continue;
            }
            taken.extend(edits);
            fixed.push(d.clone());
        }
        if !taken.is_empty() {
            let title = format!(
                "Fix all: apply rulebook's {} safe fix{}",
                fixed.len(),
                if fixed.len() == 1 { "" } else { "es" }
            );
            out.push(action(
                title,
                lsp::CodeActionKind::SOURCE_FIX_ALL,
                fixed,
                taken,
            ));
        }
    }
    out
}

/// `textDocument/documentSymbol`.
pub fn document_symbols(
    snap: &Snapshot,
    p: &lsp::DocumentSymbolParams,
) -> Option<lsp::DocumentSymbolResponse> {
    let path = uri::to_path(&p.text_document.uri)?;
    let (checked, file) = snap.sets_of(&path).into_iter().next()?;
    let text = &checked.source(file)?.text;
    let index = LineIndex::new(text);
    #[allow(deprecated)] // `deprecated` is a required field of the struct.
    let list = symbols::symbols(checked, file)
        .into_iter()
        .map(|s| {
            let range = index.range(text, s.span.start as usize, s.span.end as usize);
            lsp::DocumentSymbol {
                name: if s.name.is_empty() {
                    "(unnamed)".to_owned()
                } else {
                    s.name
                },
                detail: Some(s.detail),
                kind: s.kind,
                tags: None,
                deprecated: None,
                range,
                selection_range: range,
                children: None,
            }
        })
        .collect();
    Some(lsp::DocumentSymbolResponse::Nested(list))
}

/// The most symbols `workspace/symbol` answers with (an empty query names every object of
/// the checked load sets).
const MAX_WORKSPACE_SYMBOLS: usize = 1_000;

/// `workspace/symbol`: objects, variables, functions and tables whose names hold the query,
/// across the checked load sets (each place once, however many sets hold its file), by name.
pub fn workspace_symbols(
    snap: &Snapshot,
    p: &lsp::WorkspaceSymbolParams,
) -> Vec<lsp::WorkspaceSymbol> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for checked in snap.checked.values() {
        let mut indexes: HashMap<crate::source::FileId, LineIndex> = HashMap::new();
        for s in symbols::matching(checked, &p.query) {
            let Some(path) = checked.path(s.span.file) else {
                continue;
            };
            if !seen.insert((path.to_path_buf(), s.span.start, s.name.clone())) {
                continue;
            }
            let Some(text) = checked.source(s.span.file).map(|f| f.text.as_str()) else {
                continue;
            };
            let index = indexes
                .entry(s.span.file)
                .or_insert_with(|| LineIndex::new(text));
            let Some(doc) = uri::from_path(path) else {
                continue;
            };
            let range = index.range(text, s.span.start as usize, s.span.end as usize);
            out.push(lsp::WorkspaceSymbol {
                name: s.name,
                kind: s.kind,
                tags: None,
                container_name: Some(s.detail),
                location: lsp::OneOf::Left(lsp::Location::new(doc, range)),
                data: None,
            });
        }
    }
    // The name itself first, then names starting with the query, then the rest.
    let query = p.query.to_lowercase();
    out.sort_by_cached_key(|s| {
        let name = s.name.to_lowercase();
        (name != query, !name.starts_with(&query), name)
    });
    out.truncate(MAX_WORKSPACE_SYMBOLS);
    out
}

/// `textDocument/prepareRename`: the name's range and text, or why it cannot be renamed.
pub fn prepare_rename(
    snap: &Snapshot,
    p: &lsp::TextDocumentPositionParams,
) -> Result<lsp::PrepareRenameResponse, String> {
    let (ctx, index) =
        context(snap, &p.text_document.uri, p.position).ok_or("no name here to rename")?;
    let (name, range) = rename::renameable(&ctx)?;
    Ok(lsp::PrepareRenameResponse::RangeWithPlaceholder {
        range: index.range(ctx.text, range.start, range.end),
        placeholder: name,
    })
}

/// `textDocument/rename`: every use of the name at the cursor replaced by the new name, or
/// why not. A new name that could not stand where the old one does (empty, or holding a tab,
/// a line break or one of `|:,=[]()`) is refused.
#[allow(clippy::mutable_key_type)] // lsp-types keys a WorkspaceEdit's changes by Uri.
pub fn rename(snap: &Snapshot, p: &lsp::RenameParams) -> Result<lsp::WorkspaceEdit, String> {
    let new = p.new_name.trim();
    if new.is_empty() || new.contains(['\t', '\n', '\r', '|', ':', ',', '=', '[', ']', '(', ')']) {
        return Err(format!("`{}` cannot be a name in PCGen data", p.new_name));
    }
    let tp = &p.text_document_position;
    let (ctx, _) =
        context(snap, &tp.text_document.uri, tp.position).ok_or("no name here to rename")?;
    let (_, places) = rename::places(&ctx)?;
    let mut changes: HashMap<lsp::Uri, Vec<lsp::TextEdit>> = HashMap::new();
    let mut indexes: HashMap<crate::source::FileId, LineIndex> = HashMap::new();
    for span in places {
        let (Some(path), Some(source)) =
            (ctx.checked.path(span.file), ctx.checked.source(span.file))
        else {
            continue;
        };
        let doc = uri::from_path(path).ok_or("a file without a URI")?;
        let index = indexes
            .entry(span.file)
            .or_insert_with(|| LineIndex::new(&source.text));
        let range = index.range(&source.text, span.start as usize, span.end as usize);
        changes
            .entry(doc)
            .or_default()
            .push(lsp::TextEdit::new(range, new.to_owned()));
    }
    Ok(lsp::WorkspaceEdit {
        changes: Some(changes),
        ..Default::default()
    })
}
