//! Document symbols: the objects of an LST file; the variables, channels, functions and
//! tables a file defines. Workspace symbols: those of every file of the checked load sets,
//! by name.

use crate::lsp::checked::Checked;
use crate::lsp::hover::kind_name;
use crate::source::{FileId, Span};
use lsp_types::SymbolKind;

/// One symbol of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// Its name.
    pub name: String,
    /// What it is, shown beside the name.
    pub detail: String,
    /// The symbol kind.
    pub kind: SymbolKind,
    /// The whole line (or token) that defines it.
    pub span: Span,
}

/// The symbols `file` defines in the load, in file order.
pub fn symbols(checked: &Checked, file: FileId) -> Vec<Symbol> {
    let mut out = collect(checked, |f| f == file, |_| true);
    out.sort_by_key(|s| s.span.start);
    out
}

/// The symbols of every file of the load whose name holds `query` (any letter case; every
/// symbol for an empty query), for `workspace/symbol`.
pub fn matching(checked: &Checked, query: &str) -> Vec<Symbol> {
    let query = query.to_lowercase();
    collect(
        checked,
        |_| true,
        |name| name.to_lowercase().contains(&query),
    )
}

/// The symbols of the files `in_file` accepts whose names `named` accepts, each over its
/// whole line (a table's, its token).
fn collect(
    checked: &Checked,
    in_file: impl Fn(FileId) -> bool,
    named: impl Fn(&str) -> bool,
) -> Vec<Symbol> {
    let ds = &checked.set.dataset;
    // The files' lines by place, searched by halving: a scan per symbol made 170,000
    // objects take 39 s.
    let mut lines: Vec<Span> = checked
        .set
        .load
        .files
        .iter()
        .filter(|f| in_file(f.file))
        .flat_map(|f| f.lines.iter().map(|l| l.span))
        .collect();
    lines.sort_by_key(|l| (l.file.0, l.start));
    let line_of = |span: Span| {
        let after = lines.partition_point(|l| (l.file.0, l.start) <= (span.file.0, span.start));
        after
            .checked_sub(1)
            .and_then(|i| lines.get(i))
            .filter(|l| l.file == span.file && span.start <= l.end)
            .map_or(span, |l| *l)
    };
    let mut out = Vec::new();
    for o in ds.objects.iter().filter(|o| in_file(o.span.file)) {
        let name = ds.name_of(o).trim();
        if named(name) {
            out.push(Symbol {
                name: name.to_owned(),
                detail: kind_name(&o.kind),
                kind: SymbolKind::OBJECT,
                span: line_of(o.span),
            });
        }
    }
    for v in &ds.variables {
        if let Some(span) = v.span.filter(|s| in_file(s.file) && named(v.name.as_str())) {
            out.push(Symbol {
                name: v.name.as_str().to_owned(),
                detail: format!("{} in {}", v.format, ds.scopes.name(v.scope)),
                kind: if v.origin.is_channel() {
                    SymbolKind::CONSTANT
                } else {
                    SymbolKind::VARIABLE
                },
                span,
            });
        }
    }
    for f in ds.functions.iter() {
        if in_file(f.span.file) && named(f.name.as_str()) {
            out.push(Symbol {
                name: f.name.as_str().to_owned(),
                detail: "function".to_owned(),
                kind: SymbolKind::FUNCTION,
                span: line_of(f.span),
            });
        }
    }
    for t in ds.tables.iter() {
        if in_file(t.span.file) && named(t.name.as_str()) {
            out.push(Symbol {
                name: t.name.as_str().to_owned(),
                detail: "table".to_owned(),
                kind: SymbolKind::STRUCT,
                span: t.span,
            });
        }
    }
    out
}
