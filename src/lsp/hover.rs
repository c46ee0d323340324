//! Hover: what a name is — a variable's format, scope, definition and EXPLANATION; a
//! function's signature and body; an object's kind, category, file, SOURCEPAGE and DESC; a
//! token's use; a PCC entry's file; in old formulas, a `DEFINE`d variable's defining tokens,
//! a term's meaning and a function's arguments.

use crate::lsp::checked::Checked;
use crate::lsp::context::Context;
use crate::lsp::target::{self, Target};
use crate::model::{Object, ObjectKind, VariableOrigin};
use crate::source::Span;

/// `file:line` of a span, relative to the PCGen root.
pub fn where_(checked: &Checked, span: Span) -> String {
    match checked.source(span.file) {
        Some(f) => format!("{}:{}", f.path, f.line_col(span.start as usize).0),
        None => "(built in)".to_owned(),
    }
}

/// The file kind's token in PCC files (`EQUIPMENT`), or the DYNAMIC category.
pub fn kind_name(kind: &ObjectKind) -> String {
    match kind {
        ObjectKind::File(k) => k.token().to_owned(),
        ObjectKind::Dynamic(c) => c.as_str().to_owned(),
    }
}

/// The hover text (Markdown) at the cursor, with the range it is about.
pub fn hover(ctx: &Context<'_>) -> Option<(String, std::ops::Range<usize>)> {
    let (t, range) = target::at(ctx)?;
    let ds = ctx.dataset();
    let checked = ctx.checked;
    let text = match t {
        Target::Variable(v) => {
            let what = match v.origin {
                VariableOrigin::Data => "variable",
                VariableOrigin::Channel => "channel",
                VariableOrigin::BuiltIn => "built-in variable",
                VariableOrigin::BuiltInChannel => "built-in channel",
            };
            let mut s = format!(
                "**{}**: `{}` {what} in scope `{}`",
                v.name.as_str(),
                v.format,
                ds.scopes.name(v.scope)
            );
            if let Some(span) = v.span {
                s.push_str(&format!("\n\ndefined at {}", where_(checked, span)));
            }
            if let Some(e) = &v.explanation {
                s.push_str(&format!("\n\n{e}"));
            }
            let decided = ds
                .variables
                .iter()
                .position(|x| std::ptr::eq(x, v))
                .and_then(|i| u32::try_from(i).ok())
                .and_then(|i| checked.set.decided_value(crate::model::VarId(i)));
            if let Some(value) = decided {
                s.push_str(&format!(
                    "\n\nvalue `{value}`: decided by the data alone, every character starts with it"
                ));
            }
            s
        }
        Target::Function(f) => {
            let args: Vec<String> = (0..f.arity).map(|i| format!("arg({i})")).collect();
            format!(
                "**{}**({}): user function\n\n```\n{}\n```\n\ndefined at {}",
                f.name.as_str(),
                args.join(", "),
                f.body.text,
                where_(checked, f.span)
            )
        }
        Target::Builtin(name) => format!("**{name}**: built-in function"),
        Target::Table(t) => {
            let cols: Vec<String> = t
                .columns
                .iter()
                .map(|(n, f)| format!("{}: {f}", n.as_str()))
                .collect();
            format!(
                "**{}**: table ({})\n\ndefined at {}",
                t.name.as_str(),
                cols.join(", "),
                where_(checked, t.span)
            )
        }
        Target::Object(o) => {
            let said = |token: &str| object_token(checked, o, token);
            let category = said("CATEGORY")
                .map(|c| format!(", category `{}`", c.trim()))
                .unwrap_or_default();
            let mut s = format!(
                "**{}**: {} object (key `{}`{category}, scope `{}`)\n\ndefined at {}",
                ds.name_of(o).trim(),
                kind_name(&o.kind),
                ds.key_of(o).as_str(),
                ds.scopes.name(o.scope),
                where_(checked, o.span)
            );
            if let Some(page) = said("SOURCEPAGE") {
                s.push_str(&format!(", page {}", page.trim()));
            }
            if let Some(desc) = said("DESC") {
                s.push_str(&format!("\n\n{}", shortened(desc, 400)));
            }
            s
        }
        Target::OldVariable(name, defs) => {
            let mut s = format!(
                "**{name}**: old-system variable (read by the old formulas: `BONUS`, `PREVAR`, …; \
                 0 where nothing sets it)\n\nmade by {} token{}:",
                defs.len(),
                if defs.len() == 1 { "" } else { "s" }
            );
            for d in defs.iter().take(MAX_PLACES) {
                let token = token_around(checked, d.span).unwrap_or(d.token);
                s.push_str(&format!(
                    "\n- `{}` at {}",
                    shortened(token, 80),
                    where_(checked, d.span)
                ));
            }
            if defs.len() > MAX_PLACES {
                s.push_str(&format!("\n- … and {} more", defs.len() - MAX_PLACES));
            }
            s
        }
        Target::Term(term, text) => {
            let what = crate::jep::terms::summary(term.builder)
                .map(|s| format!(": {s}"))
                .unwrap_or_default();
            let of = match term.factory {
                crate::jep::terms::Factory::Pc => "a term about the character",
                crate::jep::terms::Factory::Equipment => "a term about the item",
            };
            format!(
                "**{text}**: PCGen term `{}`{what}\n\n{of}, built into PCGen (a `DEFINE` of the \
                 same name would be read instead: variables are looked up first)",
                term.builder
            )
        }
        Target::Command(c) => format!(
            "**{}**: old-formula function ({} arguments): {}",
            c.name,
            c.arity_text(),
            c.summary
        ),
        Target::Scope(s) => format!("**{}**: scope", ds.scopes.name(s)),
        Target::Token(name) => token_hover(ctx, &name),
        Target::File(path) => format!(
            "**{}**{}",
            checked.set.load.root.display(&path),
            if ctx.checked.file(&path).is_some() {
                ""
            } else {
                " (not loaded)"
            }
        ),
    };
    Some((text, range))
}

/// A token name's hover, from the token vocabulary: on the line's kind, its status (and
/// replacement when deprecated) and sub-tokens; the file kinds that take it.
fn token_hover(ctx: &Context<'_>, name: &str) -> String {
    crate::lsp::tokens::hover(name, crate::lsp::tokens::line_kind(ctx))
}

/// How many defining places a hover lists.
const MAX_PLACES: usize = 8;

/// `text` cut to at most `max` characters (an ellipsis says so).
fn shortened(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}

/// The whole token (tab-separated) holding `span`.
fn token_around(checked: &Checked, span: Span) -> Option<&str> {
    let text = &checked.source(span.file)?.text;
    let start = text
        .get(..span.start as usize)?
        .rfind(['\t', '\n', '\r'])
        .map_or(0, |i| i + 1);
    let rest = text.get(span.start as usize..)?;
    let end = span.start as usize + rest.find(['\t', '\n', '\r']).unwrap_or(rest.len());
    text.get(start..end)
}

/// The value of the first `TOKEN:` of the line that makes `o` (as the loader split it).
fn object_token<'c>(checked: &'c Checked, o: &Object, token: &str) -> Option<&'c str> {
    let f = checked
        .set
        .load
        .files
        .iter()
        .find(|f| f.file == o.span.file)?;
    let lines = f.lines.shared();
    let i = lines.partition_point(|l| l.span.start < o.span.start);
    let line = lines.get(i).filter(|l| l.span.start == o.span.start)?;
    let text = &f.cached.source().text;
    line.tokens.iter().skip(1).find_map(|t| {
        let (name, value) = text.get(t.range())?.split_once(':')?;
        (name == token).then_some(value)
    })
}
