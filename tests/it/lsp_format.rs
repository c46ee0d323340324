//! The editor side of `rulebook fmt` and `check --fix`, over stdio: `textDocument/formatting`
//! gives the edits that make the document what `rulebook fmt` writes, range formatting only
//! those of the lines in range, and the `source.fixAll` code action every safe fix of the
//! document (a deprecated `PREFEAT` here). Runs on a temporary copy of the project's dataset.

use crate::support::lsp as lsp_client;

use lsp_client::{Client, copy_dir, temp_root, uri};
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;

/// `text` with the LSP text edits applied (edits on distinct lines, as formatting gives).
fn apply(text: &str, edits: &[Value]) -> String {
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    for e in edits {
        let line = e["range"]["start"]["line"].as_u64().unwrap() as usize;
        assert_eq!(e["range"]["start"]["character"], 0);
        lines[line] = e["newText"].as_str().unwrap().to_owned();
    }
    lines.join("\n")
}

#[test]
fn formatting_range_formatting_and_fix_all() {
    let root = temp_root("format");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data"), &root);
    let file = root.join("handsworld/hw_abilities.lst");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("Old Style\tCATEGORY:Feat\tPREFEAT:1,Fleet\n");
    std::fs::write(&file, &text).unwrap();
    let doc = uri(&file);

    let mut c = Client::start(&root);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "pcgen-lst", "version": 1, "text": text}}),
    );
    let diags = c.diagnostics(&doc);
    assert!(diags.iter().any(|d| d["code"] == "T0113"), "{diags:#?}");

    // The whole document: what `rulebook fmt` writes.
    let edits = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": doc}, "options": {"tabSize": 6, "insertSpaces": false}}),
    );
    let edits = edits.as_array().unwrap().clone();
    assert!(!edits.is_empty());
    let fmt = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .current_dir(&root)
        .args(["fmt", "handsworld/hw_abilities.lst"])
        .output()
        .unwrap();
    assert!(
        fmt.status.success(),
        "{}",
        String::from_utf8_lossy(&fmt.stderr)
    );
    assert_eq!(
        apply(&text, &edits),
        std::fs::read_to_string(&file).unwrap()
    );

    // One line: only its edit.
    let line = edits[0]["range"]["start"]["line"].clone();
    let one = c.request(
        "textDocument/rangeFormatting",
        json!({
            "textDocument": {"uri": doc},
            "range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 1}},
            "options": {"tabSize": 6, "insertSpaces": false},
        }),
    );
    assert_eq!(one.as_array().unwrap(), &vec![edits[0].clone()]);

    // Fix all: the PREFEAT rewritten.
    let actions = c.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": doc},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["source.fixAll"]},
        }),
    );
    let all = &actions[0];
    assert_eq!(all["kind"], "source.fixAll", "{actions:#}");
    let changes = all["edit"]["changes"][&doc].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{changes:#?}");
    assert_eq!(changes[0]["newText"], "PREABILITY:1,CATEGORY=FEAT,Fleet");
    c.shutdown();
    let _ = std::fs::remove_dir_all(&root);
}
