//! The pipeline's one-way dependencies (docs/architecture.md) hold in the code: a module only
//! uses the layers before it. Doc comments may mention any layer.

use std::path::Path;

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

fn files(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        for e in std::fs::read_dir(path).unwrap().flatten() {
            files(&e.path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

#[test]
fn layers_only_use_earlier_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
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
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.trim_start();
                if code.starts_with("//") {
                    continue;
                }
                let mut rest = code;
                while let Some(at) = rest.find("crate::") {
                    rest = &rest[at + 7..];
                    // `crate::x::…` or `crate::{x, y::…}`.
                    let group = match rest.strip_prefix('{') {
                        Some(inner) => inner.split('}').next().unwrap_or(""),
                        None => rest,
                    };
                    for item in group.split(',') {
                        let used: String = item
                            .trim_start()
                            .chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                            .collect();
                        if !used.is_empty() && used != *layer && !allowed.contains(&used.as_str()) {
                            problems.push(format!(
                                "{}:{}: `{layer}` uses `{used}`",
                                file.strip_prefix(&src).unwrap().display(),
                                n + 1
                            ));
                        }
                        if rest.starts_with('{') {
                            continue;
                        }
                        break;
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
