//! Completion: token names for the file's kind, variables visible from the line's scope in
//! MODIFY targets and formulas, functions, modifier kinds legal for the target's format,
//! scope names, channels in `input("…")`, and object keys in GRANT and MODIFYOTHER; in the
//! old token system, the keys of the kind (abilities: of the category) a token's value names
//! where the cursor is ([`names_in_token`]), and in old formulas the load set's `DEFINE`d
//! variables, PCGen's terms and the JEP functions.

use crate::formula::Format;
use crate::formula::function::builtin_names;
use crate::jep::commands::COMMANDS;
use crate::jep::terms::{Factory, Form, TERMS};
use crate::load::FileKind;
use crate::lsp::context::Context;
use crate::lsp::target::old_formula_at;
use crate::model::HostFn;
use crate::model::references::names_in_token;
use crate::model::{ModifierKind, ObjectKind, ScopeId};
use lsp_types::CompletionItemKind as K;
use std::collections::BTreeSet;

/// One proposal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// What is inserted.
    pub label: String,
    /// What it is.
    pub kind: K,
    /// A short description (format, scope, …).
    pub detail: Option<String>,
}

fn item(label: impl Into<String>, kind: K, detail: Option<String>) -> Item {
    Item {
        label: label.into(),
        kind,
        detail,
    }
}

/// The proposals at the cursor, and the byte offset where the replaced prefix starts.
pub fn complete(ctx: &Context<'_>) -> (Vec<Item>, usize) {
    let (mut out, start) = old_keys(ctx).unwrap_or_else(|| {
        let (_, start) = ctx.prefix();
        (proposals(ctx), start)
    });
    let prefix = ctx.slice(start..ctx.offset).to_ascii_lowercase();
    out.retain(|i| i.label.to_ascii_lowercase().starts_with(&prefix));
    out.sort_by(|a, b| a.label.cmp(&b.label));
    out.dedup_by(|a, b| a.label == b.label);
    (out, start)
}

/// The keys an old-system token's value may name where the cursor is (`CSKILL:` skills,
/// `ABILITY:FEAT|…|` feats), with the start of the name typed so far (keys hold spaces).
fn old_keys(ctx: &Context<'_>) -> Option<(Vec<Item>, usize)> {
    let kind = ctx.kind?;
    let token = ctx.token_text();
    let at = ctx.offset.checked_sub(ctx.token.start)?;
    // The name being typed may be empty still: the token is read with a letter there.
    let probe = format!("{}x{}", token.get(..at)?, token.get(at..)?);
    let n = names_in_token(kind, &probe)
        .into_iter()
        .find(|n| n.range.start <= at && at < n.range.end)?;
    let ds = ctx.dataset();
    let detail = match (n.target, n.category) {
        (FileKind::Ability, Some(c)) => format!("ABILITY ({c})"),
        (FileKind::Ability | FileKind::Feat, _) => "ABILITY (FEAT)".to_owned(),
        (k, _) => k.token().to_owned(),
    };
    let items = ctx
        .checked
        .old_objects()
        .candidates(ds, n.target, n.category)
        .map(|o| item(ds.key_of(o).as_str(), K::REFERENCE, Some(detail.clone())))
        .collect();
    Some((items, ctx.token.start + n.range.start))
}

/// In an old formula: the load set's old-system variables, PCGen's terms (those about items
/// too in equipment files) and the JEP functions.
fn old_formula(ctx: &Context<'_>) -> Vec<Item> {
    let items_too = matches!(ctx.kind, Some(FileKind::Equipment | FileKind::EquipMod));
    let mut out: Vec<Item> = ctx
        .checked
        .old_variables()
        .iter()
        .map(|(name, defs)| {
            let by = defs.first().map_or("DEFINE", |d| d.token);
            item(name.as_str(), K::VARIABLE, Some(format!("variable ({by})")))
        })
        .collect();
    // Each function once, as PCGen registers it in lower case.
    out.extend(
        COMMANDS
            .iter()
            .map(|c| item(c.name, K::FUNCTION, Some(c.summary.to_owned()))),
    );
    for t in TERMS
        .iter()
        .filter(|t| t.factory == Factory::Pc || items_too)
    {
        let detail = crate::jep::terms::summary(t.builder).unwrap_or(t.builder);
        for key in t.keys {
            let kind = match t.form {
                Form::Whole => K::CONSTANT,
                Form::Prefix => K::SNIPPET,
            };
            out.push(item(*key, kind, Some(detail.to_owned())));
        }
    }
    out
}

fn proposals(ctx: &Context<'_>) -> Vec<Item> {
    let ds = ctx.dataset();
    let before = ctx.slice(ctx.token.start..ctx.offset);
    let first_token = ctx.token.start == ctx.line.start;
    if !before.contains(':') {
        if first_token && ctx.kind.is_some_and(|k| !k.is_formula_file()) {
            return Vec::new(); // an object's name
        }
        return token_names(ctx);
    }
    if ctx.in_input_string() {
        return ds
            .channel_names(ctx.scope)
            .into_iter()
            .map(|n| item(n.as_str(), K::CONSTANT, Some("channel".into())))
            .collect();
    }
    if old_formula_at(ctx).is_some() {
        return old_formula(ctx);
    }
    let Some((name, i, _)) = ctx.part() else {
        return Vec::new();
    };
    let part = |n: usize| {
        ctx.parts()
            .and_then(|(_, p)| p.get(n).cloned())
            .map_or("", |r| ctx.slice(r).trim())
    };
    match (name, i) {
        ("MODIFY", 0) => variables(ctx, ctx.scope),
        ("MODIFY", 1) => kinds(ctx, ctx.scope, part(0)),
        ("MODIFY", _) => formula(ctx, ctx.scope),
        ("MODIFYOTHER", 0) | ("LOCAL", 0) => scopes(ctx),
        ("MODIFYOTHER", 1) => {
            let scope = ctx.other_scope();
            ds.objects
                .iter()
                .filter(|o| !o.forgotten && scope.is_none_or(|s| o.scope == s))
                .map(|o| {
                    item(
                        ds.key_of(o).as_str(),
                        K::REFERENCE,
                        Some(crate::lsp::hover::kind_name(&o.kind)),
                    )
                })
                .collect()
        }
        ("MODIFYOTHER", 2) => variables(ctx, ctx.other_scope().unwrap_or(ctx.scope)),
        ("MODIFYOTHER", 3) => kinds(ctx, ctx.other_scope().unwrap_or(ctx.scope), part(2)),
        ("MODIFYOTHER", _) => formula(ctx, ctx.other_scope().unwrap_or(ctx.scope)),
        ("GRANT", 0) => ds
            .scopes
            .iter()
            .filter_map(|(_, s)| s.dynamic.as_ref())
            .map(|c| item(c.as_str(), K::ENUM, Some("DYNAMIC category".into())))
            .collect(),
        ("GRANT", 1) => {
            let category = part(0);
            ds.objects
                .iter()
                .filter(|o| matches!(&o.kind, ObjectKind::Dynamic(c) if c.is(category)))
                .map(|o| {
                    item(
                        ds.key_of(o).as_str(),
                        K::REFERENCE,
                        Some(category.to_owned()),
                    )
                })
                .collect()
        }
        (token, 0) => match crate::lsp::tokens::line_kind(ctx) {
            Some(kind) => crate::lsp::tokens::subtoken_names(kind, token)
                .into_iter()
                .map(|(n, d)| item(n, K::ENUM_MEMBER, Some(d)))
                .collect(),
            None => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// Token names valid on the line's kind, from the token vocabulary; on lines it does not
/// describe (formula files), the names the load's files of this kind use.
fn token_names(ctx: &Context<'_>) -> Vec<Item> {
    if let Some(kind) = crate::lsp::tokens::line_kind(ctx) {
        return crate::lsp::tokens::names(kind)
            .into_iter()
            .map(|(n, d)| item(n, K::KEYWORD, Some(d)))
            .collect();
    }
    let load = &ctx.checked.set.load;
    let mut names = BTreeSet::new();
    for f in load.files.iter().filter(|f| Some(f.kind) == ctx.kind) {
        let Some(src) = load.sources.get(f.file) else {
            continue;
        };
        for t in f.lines.iter().flat_map(|l| l.tokens.iter().skip(1)) {
            if let Some((n, _)) = src.slice(*t).split_once(':') {
                if !n.is_empty() && n.len() < 40 {
                    names.insert(n.to_owned());
                }
            }
        }
    }
    if ctx.kind.is_some_and(|k| k.is_formula_file()) || ctx.kind.is_none() {
        // First tokens of formula files are tokens too (GLOBAL:, MODIFY:, …).
        for f in load.files.iter().filter(|f| Some(f.kind) == ctx.kind) {
            let Some(src) = load.sources.get(f.file) else {
                continue;
            };
            for t in f.lines.iter().filter_map(|l| l.tokens.first()) {
                if let Some((n, _)) = src.slice(*t).split_once(':') {
                    names.insert(n.to_owned());
                }
            }
        }
    }
    names
        .into_iter()
        .map(|n| item(n, K::KEYWORD, Some("token".into())))
        .collect()
}

fn variables(ctx: &Context<'_>, scope: ScopeId) -> Vec<Item> {
    let ds = ctx.dataset();
    let visible: Vec<ScopeId> = ds.scopes.ancestors(scope).collect();
    ds.variables
        .iter()
        .filter(|v| !v.origin.is_channel() && visible.contains(&v.scope))
        .map(|v| {
            item(
                v.name.as_str(),
                K::VARIABLE,
                Some(format!("{} in {}", v.format, ds.scopes.name(v.scope))),
            )
        })
        .collect()
}

fn kinds(ctx: &Context<'_>, scope: ScopeId, var: &str) -> Vec<Item> {
    let ds = ctx.dataset();
    let format = ds
        .resolve_variable(scope, var)
        .and_then(|v| ds.variable(v))
        .map(|v| v.format.clone());
    ModifierKind::ALL
        .iter()
        .filter(|k| match &format {
            None | Some(Format::Number) => true,
            Some(Format::Array(_)) => matches!(k, ModifierKind::Set | ModifierKind::Add),
            Some(_) => **k == ModifierKind::Set,
        })
        .map(|k| {
            item(
                k.name(),
                K::OPERATOR,
                format.as_ref().map(|f| f.to_string()),
            )
        })
        .collect()
}

fn formula(ctx: &Context<'_>, scope: ScopeId) -> Vec<Item> {
    let ds = ctx.dataset();
    let mut out = variables(ctx, scope);
    out.extend(ds.functions.iter().map(|f| {
        item(
            f.name.as_str(),
            K::FUNCTION,
            Some(format!("user function, {} args", f.arity)),
        )
    }));
    out.extend(
        builtin_names()
            .chain(HostFn::ALL.iter().map(|h| h.name()))
            .map(|b| item(b, K::FUNCTION, Some("built-in".into()))),
    );
    out.extend(
        ds.tables
            .iter()
            .map(|t| item(t.name.as_str(), K::STRUCT, Some("table".into()))),
    );
    out
}

fn scopes(ctx: &Context<'_>) -> Vec<Item> {
    ctx.dataset()
        .scopes
        .iter()
        .map(|(_, s)| item(s.name.clone(), K::MODULE, Some("scope".into())))
        .collect()
}
