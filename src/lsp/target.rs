//! The thing a name at the cursor stands for: a variable, function, table, channel, object,
//! scope, token name or a file listed by a PCC; in the old token system, the object a
//! token's value or a `.COPY=`/`.MOD`/`.FORGET` line names (read by the checker's table,
//! [`crate::model::references::names_in_token`]), and in an old formula a `DEFINE`d
//! variable, a term or a function.

use crate::formula::function::is_builtin;
use crate::jep::commands::Command;
use crate::jep::terms::TermPattern;
use crate::jep::{NameKind, NodeKind};
use crate::lsp::context::Context;
use crate::model::old_formulas::{OldVariableDef, ParsedFormula, formulas_of_token};
use crate::model::references::{looked_up, names_in_token};
use crate::model::{Object, ScopeId, Table, UserFunction, Variable};
use crate::name::{Name, NameStr};
use crate::source::Span;
use std::ops::Range;
use std::path::PathBuf;

/// What a name stands for.
#[derive(Debug)]
pub enum Target<'a> {
    /// A variable or channel.
    Variable(&'a Variable),
    /// A FUNCTION from data.
    Function(&'a UserFunction),
    /// A built-in or host function.
    Builtin(String),
    /// A DATATABLE table.
    Table(&'a Table),
    /// A data object.
    Object(&'a Object),
    /// A scope (`PC.EQUIPMENT`).
    Scope(ScopeId),
    /// A token name (`MODIFY`).
    Token(String),
    /// A file named by a PCC line.
    File(PathBuf),
    /// An old-system variable (`DEFINE`, `BONUS:VAR`), with every place that makes it.
    OldVariable(&'a Name, &'a [OldVariableDef]),
    /// A term of the old formulas (`TL`, `CL=Fighter`), as written.
    Term(&'static TermPattern, String),
    /// A function of the old formulas (`floor`, `var`).
    Command(&'static Command),
}

/// The base key of an object line's first token (`Longsword.MOD` → `Longsword`).
pub fn object_line_key(first: &str) -> &str {
    for suffix in [".MOD", ".FORGET", ".COPY="] {
        if let Some(i) = first.find(suffix) {
            return first.get(..i).unwrap_or(first);
        }
    }
    first
}

fn object_by_key<'a>(ctx: &Context<'a>, key: &str, scope: Option<ScopeId>) -> Option<&'a Object> {
    let key = key.trim();
    let ds = ctx.dataset();
    ds.objects
        .iter()
        .filter(|o| !o.forgotten && ds.key_of(o).is(key))
        .find(|o| scope.is_none_or(|s| o.scope == s))
        .or_else(|| ds.objects.iter().find(|o| ds.key_of(o).is(key)))
}

/// What the name at the cursor stands for, with the range of the name.
pub fn at<'a>(ctx: &Context<'a>) -> Option<(Target<'a>, Range<usize>)> {
    let ds = ctx.dataset();
    if ctx.pcc {
        for c in &ctx.checked.set.load.campaigns {
            if c.file != ctx.file {
                continue;
            }
            let entries = c.entries.iter().map(|e| (e.span, e.path.clone()));
            let includes = c.includes.iter().map(|(p, s)| (*s, p.clone()));
            for (span, path) in entries.chain(includes) {
                if span.range().contains(&ctx.offset) || span.end as usize == ctx.offset {
                    return Some((Target::File(path), span.range()));
                }
            }
        }
    }
    let token = ctx.token_text();
    if token.contains(':') {
        if let Some(name) = ctx.on_token_name() {
            let start = ctx.token.start;
            return Some((Target::Token(name.to_owned()), start..start + name.len()));
        }
    } else if ctx.token.start == ctx.line.start && !token.trim().is_empty() {
        if let Some(found) = looked_up_at(ctx) {
            return Some(found);
        }
        // The object named by the line.
        let key = object_line_key(token);
        let range = ctx.token.start..ctx.token.start + key.len();
        if let Some(o) = ds
            .objects
            .iter()
            .find(|o| o.span.file == ctx.file && o.span.start as usize == ctx.token.start)
        {
            return Some((Target::Object(o), range));
        }
        return object_by_key(ctx, key, None).map(|o| (Target::Object(o), range));
    }
    if let Some(found) = old_name_at(ctx).or_else(|| in_old_formula(ctx)) {
        return Some(found);
    }
    let mut scope = ctx.scope;
    if let Some((name, i, range)) = ctx.part() {
        let text = ctx.slice(range.clone());
        let trimmed = range.start + (text.len() - text.trim_start().len())
            ..range.end - (text.len() - text.trim_end().len());
        match (name, i) {
            ("GRANT", 1) => {
                let (_, parts) = ctx.parts()?;
                let category = ctx.slice(parts.first()?.clone()).trim();
                let dynamic = ds
                    .scopes
                    .iter()
                    .find(|(_, s)| s.dynamic.as_ref().is_some_and(|d| d.is(category)));
                let o = object_by_key(ctx, text, dynamic.map(|(id, _)| id))?;
                return Some((Target::Object(o), trimmed));
            }
            ("MODIFYOTHER", 0) => {
                let (s, _) = ds.scopes.resolve(text.trim())?;
                return Some((Target::Scope(s), trimmed));
            }
            ("MODIFYOTHER", 1) => {
                let key = text.trim_start();
                let key = key.strip_prefix("KEY=").unwrap_or(key);
                let o = object_by_key(ctx, key, ctx.other_scope())?;
                return Some((Target::Object(o), trimmed));
            }
            ("MODIFYOTHER", _) => scope = ctx.other_scope().unwrap_or(scope),
            ("LOCAL", 0) => {
                if let Some((s, _)) = ds.scopes.resolve(text.trim()) {
                    return Some((Target::Scope(s), trimmed));
                }
            }
            _ => {}
        }
    }
    let (word, range) = ctx.word()?;
    if ctx.in_input_string() {
        let v = ds
            .channel(scope, word)
            .and_then(|id| ds.variable(id))
            .or_else(|| {
                ds.variables
                    .iter()
                    .find(|v| v.origin.is_channel() && v.name.is(word))
            })?;
        return Some((Target::Variable(v), range));
    }
    let variable = ds
        .resolve_variable(scope, word)
        .and_then(|id| ds.variable(id))
        .or_else(|| {
            ds.variables
                .iter()
                .find(|v| !v.origin.is_channel() && v.name.is(word))
        });
    if let Some(v) = variable {
        return Some((Target::Variable(v), range));
    }
    if let Some(f) = ds.function(word) {
        return Some((Target::Function(f), range));
    }
    if is_builtin(word) || crate::model::HostFn::named(word).is_some() {
        return Some((Target::Builtin(word.to_owned()), range));
    }
    if let Some(t) = ds.table(word) {
        return Some((Target::Table(t), range));
    }
    if let Some((s, _)) = ds.scopes.resolve(word) {
        return Some((Target::Scope(s), range));
    }
    None
}

/// Whether the byte `offset` is in `span` or just after it (where the cursor of a name
/// being typed is).
fn touches(span: Span, offset: usize) -> bool {
    (span.start as usize) <= offset && offset <= span.end as usize
}

/// The object a `.COPY=`, `.MOD` or `.FORGET` line looks up, when the cursor is on its key.
fn looked_up_at<'a>(ctx: &Context<'a>) -> Option<(Target<'a>, Range<usize>)> {
    let kind = ctx.kind?;
    let first = ctx.token_text();
    let l = looked_up(kind, first)?;
    let at = ctx.offset.checked_sub(ctx.token.start)?;
    if !(l.key.start <= at && at <= l.key.end) {
        return None;
    }
    let category = l.category.and_then(|r| first.get(r));
    let key = first.get(l.key.clone())?;
    let o = ctx
        .checked
        .old_objects()
        .find(ctx.dataset(), kind, category, key)?;
    let start = ctx.token.start;
    Some((Target::Object(o), start + l.key.start..start + l.key.end))
}

/// The object an old-system token's value names at the cursor (`ABILITY:FEAT|…|Dodge`,
/// `PREABILITY:1,CATEGORY=FEAT,Dodge`, `CSKILL:Climb`, …).
fn old_name_at<'a>(ctx: &Context<'a>) -> Option<(Target<'a>, Range<usize>)> {
    let kind = ctx.kind?;
    let token = ctx.token_text();
    let at = ctx.offset.checked_sub(ctx.token.start)?;
    let n = names_in_token(kind, token)
        .into_iter()
        .find(|n| n.range.start <= at && at <= n.range.end)?;
    let key = token.get(n.range.clone())?;
    let o = ctx
        .checked
        .old_objects()
        .find(ctx.dataset(), n.target, n.category, key)?;
    let start = ctx.token.start;
    Some((
        Target::Object(o),
        start + n.range.start..start + n.range.end,
    ))
}

/// The old formula of the cursor's token that holds the cursor, parsed.
pub fn old_formula_at(ctx: &Context<'_>) -> Option<ParsedFormula> {
    let at = Span::new(ctx.file, ctx.token.clone());
    formulas_of_token(ctx.token_text(), at)
        .into_iter()
        .find(|f| touches(f.formula.span, ctx.offset))
}

/// A variable, term or function of the old formula at the cursor. A name a `DEFINE` or
/// `BONUS:VAR` makes is that variable whatever it looks like (PCGen looks variables up
/// before terms).
fn in_old_formula<'a>(ctx: &Context<'a>) -> Option<(Target<'a>, Range<usize>)> {
    let f = old_formula_at(ctx)?;
    if let Some(n) = f.formula.names.iter().find(|n| touches(n.span, ctx.offset)) {
        let range = n.span.range();
        if let Some((name, defs)) = ctx.checked.old_variables().get_key_value(&NameStr(&n.text)) {
            return Some((Target::OldVariable(name, defs), range));
        }
        if let NameKind::Term(p) = n.kind {
            return Some((Target::Term(p, n.text.to_string()), range));
        }
        return None;
    }
    f.formula.nodes.iter().find_map(|node| match &node.kind {
        NodeKind::Call {
            name_span,
            command: Some(c),
            ..
        } if touches(*name_span, ctx.offset) => Some((Target::Command(c), name_span.range())),
        _ => None,
    })
}
