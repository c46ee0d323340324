//! The editor configurations docs/editors.md gives, where no editor runs here to try them
//! (Neovim and Emacs run in CI: .ci/neovim, .ci/emacs): Helix's `languages.toml` is read as
//! Helix reads it — TOML, and only the keys its configuration structs take (they deny any
//! other: a misspelt key makes Helix refuse the whole file) — and says what docs/editors.md
//! says.

use std::collections::BTreeSet;
use std::path::Path;
use toml::{Table, Value};

/// The keys of a `[[language]]` table: helix-core/src/syntax/config.rs,
/// `LanguageConfiguration` (kebab-case, `deny_unknown_fields`; `comment-token` is an alias
/// of `comment-tokens`), helix-editor/helix at 079a789e.
const LANGUAGE_KEYS: [&str; 26] = [
    "name",
    "language-id",
    "scope",
    "file-types",
    "shebangs",
    "roots",
    "comment-token",
    "comment-tokens",
    "block-comment-tokens",
    "text-width",
    "soft-wrap",
    "auto-format",
    "code-actions-on-save",
    "formatter",
    "path-completion",
    "word-completion",
    "diagnostic-severity",
    "grammar",
    "injection-regex",
    "language-servers",
    "indent",
    "debugger",
    "auto-pairs",
    "rulers",
    "workspace-lsp-roots",
    "persistent-diagnostic-sources",
];

/// The keys of a `[language-server.NAME]` table (`LanguageServerConfiguration`, same file).
const SERVER_KEYS: [&str; 6] = [
    "command",
    "args",
    "environment",
    "config",
    "timeout",
    "required-root-patterns",
];

/// The keys of `indent` (`IndentationConfiguration`, both required).
const INDENT_KEYS: [&str; 2] = ["tab-width", "unit"];

fn editors() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/editors")
}

fn keys(t: &Table) -> BTreeSet<&str> {
    t.keys().map(String::as_str).collect()
}

fn strings(v: Option<&Value>) -> Vec<&str> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

#[test]
fn helix_languages_toml_has_only_keys_helix_reads_and_starts_rulebook_lsp() {
    let text = std::fs::read_to_string(editors().join("helix/languages.toml")).unwrap();
    let config: Table = toml::from_str(&text).expect("TOML");
    assert_eq!(
        keys(&config),
        BTreeSet::from(["language", "language-server"])
    );
    let servers = config["language-server"].as_table().unwrap();
    for (name, server) in servers {
        let server = server.as_table().unwrap();
        let unknown: Vec<&str> = (keys(server).into_iter())
            .filter(|k| !SERVER_KEYS.contains(k))
            .collect();
        assert!(unknown.is_empty(), "[language-server.{name}]: {unknown:?}");
        assert!(server["command"].is_str(), "{name}");
    }
    assert_eq!(servers["rulebook"]["command"].as_str(), Some("rulebook"));
    assert_eq!(strings(servers["rulebook"].get("args")), ["lsp"]);
    let languages = config["language"].as_array().unwrap();
    assert_eq!(languages.len(), 1);
    let pcgen = languages[0].as_table().unwrap();
    let unknown: Vec<&str> = (keys(pcgen).into_iter())
        .filter(|k| !LANGUAGE_KEYS.contains(k))
        .collect();
    assert!(unknown.is_empty(), "[[language]]: {unknown:?}");
    for required in ["name", "scope", "file-types"] {
        assert!(pcgen.contains_key(required), "{required}");
    }
    let types = strings(pcgen.get("file-types"));
    assert!(
        types.contains(&"lst") && types.contains(&"pcc"),
        "{types:?}"
    );
    let indent = pcgen["indent"].as_table().unwrap();
    assert_eq!(keys(indent), BTreeSet::from(INDENT_KEYS));
    for server in strings(pcgen.get("language-servers")) {
        assert!(servers.contains_key(server), "{server} is not defined");
    }
}

/// docs/editors.md shows the file as it is.
#[test]
fn editors_md_shows_the_helix_configuration_as_it_is() {
    let file = std::fs::read_to_string(editors().join("helix/languages.toml")).unwrap();
    let doc = std::fs::read_to_string(editors().join("../editors.md")).unwrap();
    let shown = doc
        .split("```toml\n")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .find(|block| block.contains("[language-server.rulebook]"))
        .expect("a TOML block with the Helix configuration in docs/editors.md");
    assert_eq!(shown, file);
}
