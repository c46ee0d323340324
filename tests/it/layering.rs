//! The pipeline's one-way dependencies (docs/architecture.md) hold in the code: a module only
//! uses the layers before it. Doc comments may mention any layer.

use std::path::{Path, PathBuf};

/// Each layer and the layers it may use.
const ALLOWED: &[(&str, &[&str])] = &[
    ("source", &[]),
    ("name", &[]),
    ("fxhash", &["name"]),
    ("diagnostic", &["source", "name"]),
    ("formula", &["source", "name", "fxhash", "diagnostic"]),
    // The old formula language (JEP): a syntax layer beside `formula`, knowing nothing of
    // loading or the model, so name resolution can be layered on top of it.
    ("jep", &["source", "name", "diagnostic"]),
    (
        "load",
        &["source", "name", "fxhash", "diagnostic", "formula"],
    ),
    (
        "vocabulary",
        &["source", "name", "fxhash", "diagnostic", "load"],
    ),
    (
        "model",
        &[
            "source",
            "name",
            "fxhash",
            "diagnostic",
            "formula",
            "jep",
            "load",
            "vocabulary",
        ],
    ),
    (
        "solve",
        &["source", "name", "fxhash", "diagnostic", "formula", "model"],
    ),
    (
        "character",
        &[
            "source",
            "name",
            "fxhash",
            "diagnostic",
            "formula",
            "load",
            "model",
            "solve",
        ],
    ),
    (
        "check",
        &[
            "source",
            "name",
            "fxhash",
            "diagnostic",
            "formula",
            "load",
            "vocabulary",
            "model",
            "solve",
            "character",
        ],
    ),
    // The formatter: PrettyLST's layout over the loader's token lines, nothing above them.
    ("fmt", &["source", "diagnostic", "load"]),
    // rulebook.toml: read through load's FileSystem, a value for the CLI and the server.
    ("config", &["source", "name", "diagnostic", "load"]),
    (
        "dialect",
        &["source", "name", "fxhash", "diagnostic", "formula"],
    ),
    (
        "conformance",
        &[
            "source",
            "name",
            "fxhash",
            "diagnostic",
            "formula",
            "load",
            "vocabulary",
            "model",
            "solve",
            "character",
            "dialect",
        ],
    ),
    (
        "lsp",
        &[
            "source",
            "name",
            "fxhash",
            "diagnostic",
            "formula",
            "jep",
            "load",
            "vocabulary",
            "model",
            "solve",
            "character",
            "check",
            "config",
            "fmt",
        ],
    ),
];

fn files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for e in std::fs::read_dir(path).unwrap().flatten() {
            files(&e.path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

/// The module path of a source file below `src/` (`model/build/mod.rs` → `model::build`).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .strip_prefix(src)
        .unwrap()
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// Every item a file names through `crate::`, `super::` or `self::` — in `use` trees (groups
/// split over lines included) and in paths written inline (`crate::load::FileSystem` in a
/// type, `super::super::Fast`) — resolved to the crate's top-level module it lies in, with
/// the line it is written on. Inline `mod` blocks count for `super`.
struct Uses {
    module: Vec<String>,
    found: Vec<(String, usize)>,
    /// The same uses as paths from the crate root, outside test-only code.
    paths: Vec<Vec<String>>,
    /// How many `#[cfg(test)]` modules the visit is inside (a whole file counts when it says
    /// `#![cfg(test)]`).
    in_test: usize,
}

/// Whether `attrs` hold `cfg(test)`.
fn test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

impl Uses {
    /// The path `segments` names, from the crate root (`None` for a path not starting at
    /// `crate`, `super` or `self`).
    fn absolute(&self, segments: &[String]) -> Option<Vec<String>> {
        let mut at = self.module.clone();
        let mut rest = segments;
        match rest.first()?.as_str() {
            "crate" => {
                at.clear();
                rest = &rest[1..];
            }
            "super" | "self" => {
                while let Some(first) = rest.first() {
                    match first.as_str() {
                        "super" => {
                            at.pop();
                        }
                        "self" => {}
                        _ => break,
                    }
                    rest = &rest[1..];
                }
            }
            _ => return None,
        }
        at.extend(rest.iter().cloned());
        Some(at)
    }

    fn tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree, line: usize) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.tree(prefix, &p.tree, line);
                prefix.pop();
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    let line = syn::spanned::Spanned::span(t).start().line;
                    self.tree(prefix, t, line);
                }
            }
            syn::UseTree::Name(n) => self.leaf(prefix, n.ident.to_string(), line),
            syn::UseTree::Rename(r) => self.leaf(prefix, r.ident.to_string(), line),
            syn::UseTree::Glob(_) => self.record(prefix, line),
        }
    }

    fn leaf(&mut self, prefix: &[String], name: String, line: usize) {
        let mut path = prefix.to_vec();
        path.push(name);
        self.record(&path, line);
    }

    fn record(&mut self, segments: &[String], line: usize) {
        if let Some(path) = self.absolute(segments) {
            if let Some(m) = path.first() {
                self.found.push((m.clone(), line));
            }
            if self.in_test == 0 {
                self.paths.push(path);
            }
        }
    }
}

impl<'ast> syn::visit::Visit<'ast> for Uses {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let line = syn::spanned::Spanned::span(&item.tree).start().line;
        self.tree(&mut Vec::new(), &item.tree, line);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        let test = usize::from(test_only(&item.attrs));
        self.module.push(item.ident.to_string());
        self.in_test += test;
        syn::visit::visit_item_mod(self, item);
        self.in_test -= test;
        self.module.pop();
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1 {
            let line = path.segments[0].ident.span().start().line;
            self.record(&segments, line);
        }
        syn::visit::visit_path(self, path);
    }
}

/// What a file of `src/` uses, read.
fn read_uses(src: &Path, file: &Path) -> Uses {
    let text = std::fs::read_to_string(file).unwrap();
    let ast = syn::parse_file(&text)
        .unwrap_or_else(|e| panic!("{}: not Rust syn can read: {e}", file.display()));
    let mut uses = Uses {
        module: module_of(src, file),
        found: Vec::new(),
        paths: Vec::new(),
        in_test: usize::from(test_only(&ast.attrs)),
    };
    syn::visit::Visit::visit_file(&mut uses, &ast);
    uses
}

/// The top-level modules a file of `src/` uses, each with a line that uses it.
fn uses(src: &Path, file: &Path) -> Vec<(String, usize)> {
    read_uses(src, file).found
}

#[test]
fn layers_only_use_earlier_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let layers: Vec<&str> = ALLOWED.iter().map(|(l, _)| *l).collect();
    let mut problems = Vec::new();
    for (layer, allowed) in ALLOWED {
        let dir = src.join(layer);
        let mut list = Vec::new();
        if dir.is_dir() {
            files(&dir, &mut list);
        } else {
            list.push(src.join(format!("{layer}.rs")));
        }
        for file in list {
            for (used, line) in uses(&src, &file) {
                let is_layer = layers.contains(&used.as_str());
                if is_layer && used != *layer && !allowed.contains(&used.as_str()) {
                    problems.push(format!(
                        "{}:{line}: `{layer}` uses `{used}`",
                        file.strip_prefix(&src).unwrap().display(),
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Inside `src/formula`, the modules (`ast`, `parse`, `check`, `ir`, `compile`, `eval`, …,
/// each with its sub-modules) use one another without a circle: the typed IR sits below the
/// checker that produces it and the evaluators that consume it, so each can be read and
/// changed on its own. The module file `formula/mod.rs`, which only re-exports, is left out.
#[test]
fn the_formula_modules_use_one_another_without_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut list = Vec::new();
    files(&src.join("formula"), &mut list);
    let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for file in list {
        let uses = read_uses(&src, &file);
        let Some(from) = uses.module.get(1).cloned() else {
            continue;
        };
        for path in &uses.paths {
            if path.first().is_some_and(|m| m == "formula") {
                if let Some(to) = path.get(1).filter(|to| **to != from) {
                    edges.entry(from.clone()).or_default().insert(to.clone());
                }
            }
        }
    }
    let circle = circle_in(&edges);
    assert!(
        circle.is_empty(),
        "src/formula has an import circle: {}",
        circle.join(" -> ")
    );
}

/// A circle of `edges` (its modules, the first repeated at the end), or nothing.
fn circle_in(
    edges: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Vec<String> {
    fn walk(
        at: &str,
        edges: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        done: &mut std::collections::BTreeSet<String>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = stack.iter().position(|m| m == at) {
            let mut circle = stack[i..].to_vec();
            circle.push(at.to_owned());
            return Some(circle);
        }
        if !done.insert(at.to_owned()) {
            return None;
        }
        stack.push(at.to_owned());
        for next in edges.get(at).into_iter().flatten() {
            if let Some(c) = walk(next, edges, done, stack) {
                return Some(c);
            }
        }
        stack.pop();
        None
    }
    let mut done = std::collections::BTreeSet::new();
    edges
        .keys()
        .find_map(|m| walk(m, edges, &mut done, &mut Vec::new()))
        .unwrap_or_default()
}

#[test]
fn a_circle_is_found_and_a_chain_is_not() {
    let graph = |pairs: &[(&str, &str)]| {
        let mut g: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
            Default::default();
        for (a, b) in pairs {
            g.entry((*a).to_owned())
                .or_default()
                .insert((*b).to_owned());
        }
        g
    };
    assert!(
        circle_in(&graph(&[
            ("check", "ir"),
            ("compile", "ir"),
            ("check", "compile")
        ]))
        .is_empty()
    );
    assert_eq!(
        circle_in(&graph(&[
            ("check", "compile"),
            ("compile", "eval"),
            ("eval", "check")
        ])),
        ["check", "compile", "eval", "check"]
    );
}

/// The reader itself: what the old line scan missed is seen.
#[test]
fn use_groups_over_lines_and_super_paths_are_read() {
    let dir = std::env::temp_dir().join(format!("rulebook-layering-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("model/build")).unwrap();
    let file = src.join("model/build/mod.rs");
    std::fs::write(
        &file,
        "use crate::{\n    source::Span,\n    lsp::Session,\n};\n\
         fn f() -> super::super::check::Checked { todo!() }\n\
         mod inner { use super::super::super::cli::Args; }\n",
    )
    .unwrap();
    let mut found = uses(&src, &file);
    found.sort();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        found,
        [
            ("check".to_owned(), 5),
            ("cli".to_owned(), 6),
            ("lsp".to_owned(), 3),
            ("source".to_owned(), 2),
        ]
    );
}
