//! Checks off the loop (issue 33, item 3): a re-check runs on worker threads over a
//! snapshot, a newer edit cancels it, requests on lines it does not change answer from the
//! last check while it runs, and clients that pull diagnostics (`textDocument/diagnostic`)
//! get them once the check of the latest text is in. Spoken to over stdio, on a temporary
//! copy of Starfinder from `../shared/pcgen-corpus` (which must be there; its master loader
//! makes each check of Alien Archive 2 slow enough to overlap).

use crate::support::lsp as lsp_client;

use lsp_client::{Client, copy_dir, pos, temp_root, uri};
use serde_json::{Value, json};
use std::path::PathBuf;

/// A copy of Starfinder; the path of Alien Archive 2's abilities in it.
fn starfinder(name: &str) -> (PathBuf, PathBuf) {
    let corpus = lsp_client::shared_corpus();
    let root = temp_root(name);
    copy_dir(&corpus.join("system"), &root.join("system"));
    copy_dir(
        &corpus.join("data/starfinder"),
        &root.join("data/starfinder"),
    );
    let file = root.join("data/starfinder/paizo/alien_archive_2/saa2_abilities.lst");
    (root, file)
}

/// The text with a line that modifies the unknown variable `name` added at its end.
fn with_unknown(text: &str, name: &str) -> String {
    format!("{text}Typo Ability {name}\tCATEGORY:Special Ability\tMODIFY:{name}|ADD|1\n")
}

fn change(c: &mut Client, doc: &str, version: i64, text: &str) {
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": doc, "version": version}, "contentChanges": [{"text": text}]}),
    );
}

/// The publishes for `doc` received so far, in order.
fn publishes_of<'a>(c: &'a Client, doc: &str) -> Vec<&'a Value> {
    c.notifications
        .iter()
        .filter(|n| n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == doc)
        .collect()
}

/// A hover on a line the edit left alone is answered from the last check while the check
/// of the edit runs (its diagnostics come after the answer); the edits that follow each
/// other quickly end with the diagnostics of the last text only.
#[test]
fn hover_answers_while_a_check_runs_and_a_newer_edit_supersedes_it() {
    let (root, file) = starfinder("background");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut c = Client::start(&root);
    let doc = c.open(&file, &text);
    c.diagnostics(&doc);

    change(&mut c, &doc, 2, &with_unknown(&text, "Alpha"));
    let at = text.find("CATEGORY:Race").unwrap() + 2;
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": doc}, "position": pos(&text, at)}),
    );
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|v| v.contains("CATEGORY")),
        "{hover}"
    );
    assert!(
        publishes_of(&c, &doc).is_empty(),
        "the hover waited for the check: {:#?}",
        c.notifications
    );

    // Three edits in a row: what is published last is the third text's.
    change(&mut c, &doc, 3, &with_unknown(&text, "Beta"));
    change(&mut c, &doc, 4, &with_unknown(&text, "Gamma"));
    let last = loop {
        let diags = c.diagnostics(&doc);
        if diags
            .iter()
            .any(|d| d["message"].as_str().is_some_and(|m| m.contains("Gamma")))
        {
            break diags;
        }
    };
    for name in ["Alpha", "Beta"] {
        assert!(
            last.iter()
                .all(|d| !d["message"].as_str().unwrap().contains(name)),
            "{last:#?}"
        );
    }
    c.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

/// A client that pulls diagnostics gets them from `textDocument/diagnostic` once the check
/// of the latest text is in, and no push for the open document besides.
#[test]
fn pull_diagnostics_answer_with_the_latest_text() {
    let (root, file) = starfinder("pull");
    let text = with_unknown(&std::fs::read_to_string(&file).unwrap(), "Delta");
    let doc = uri(&file);
    let mut c = Client::start_with(&root, json!({"textDocument": {"diagnostic": {}}}));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "pcgen-lst", "version": 1, "text": text}}),
    );
    let report = c.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": doc}}),
    );
    assert_eq!(report["kind"], "full", "{report}");
    let items = report["items"].as_array().unwrap();
    assert!(
        items
            .iter()
            .any(|d| d["message"].as_str().is_some_and(|m| m.contains("Delta"))),
        "{items:#?}"
    );
    assert!(items.iter().any(|d| d["code"] == "M0111"), "{items:#?}");
    // A request after the check: every push so far is in, none of them for the document.
    c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": doc}}),
    );
    assert!(publishes_of(&c, &doc).is_empty(), "{:#?}", c.notifications);
    c.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}
