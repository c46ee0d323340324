//! The thing a name at the cursor stands for: a variable, function, table, channel, object,
//! scope, token name or a file listed by a PCC.

use crate::formula::function::is_builtin;
use crate::lsp::context::Context;

use crate::model::{Object, ScopeId, Table, UserFunction, Variable};
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
}

/// Functions the model provides to formulas besides the built-ins.
pub const HOSTS: [&str; 4] = ["input", "lookup", "getFact", "get"];

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
    if is_builtin(word) || HOSTS.iter().any(|h| h.eq_ignore_ascii_case(word)) {
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
