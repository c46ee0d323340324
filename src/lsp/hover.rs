//! Hover: what a name is — a variable's format, scope, definition and EXPLANATION; a
//! function's signature and body; an object's kind and file; a token's use; a PCC entry's file.

use crate::lsp::checked::Checked;
use crate::lsp::context::Context;
use crate::lsp::target::{self, Target};
use crate::model::{ObjectKind, VariableOrigin};
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
        Target::Object(o) => format!(
            "**{}**: {} object (key `{}`, scope `{}`)\n\ndefined at {}",
            ds.name_of(o).trim(),
            kind_name(&o.kind),
            ds.key_of(o).as_str(),
            ds.scopes.name(o.scope),
            where_(checked, o.span)
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
