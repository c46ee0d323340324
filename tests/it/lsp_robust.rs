//! The language server's state functions under editor input: half-typed lines, files outside
//! any PCC, a file deleted while open, bytes that are not UTF-8, and random edits followed by
//! every request at random places (a property test: nothing panics, every answer is in range).

use proptest::prelude::*;
use rulebook::lsp::session::{Publish, Session};
use rulebook::lsp::{requests, uri};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A temporary copy of the project's example dataset as a PCGen root.
fn dataset(name: &str) -> PathBuf {
    crate::support::lsp::handsworld(name).0
}

fn codes(p: &[Publish], file: &Path) -> Vec<String> {
    p.iter()
        .filter(|p| p.path == file)
        .flat_map(|p| p.diagnostics.iter())
        .filter_map(|d| match &d.code {
            Some(lsp_types::NumberOrString::String(s)) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

fn position_params(file: &Path, line: u32, character: u32) -> serde_json::Value {
    json!({
        "textDocument": {"uri": uri::from_path(file).unwrap().as_str()},
        "position": {"line": line, "character": character},
    })
}

/// Every read-only request at one position; answers must not panic.
fn ask_everything(session: &Session, file: &Path, line: u32, character: u32) {
    let snap = session.snapshot();
    let p = position_params(file, line, character);
    let _ = requests::hover(&snap, &serde_json::from_value(p.clone()).unwrap());
    let _ = requests::definition(&snap, &serde_json::from_value(p.clone()).unwrap());
    let mut r = p.clone();
    r["context"] = json!({"includeDeclaration": true});
    let _ = requests::references(&snap, &serde_json::from_value(r).unwrap());
    let _ = requests::completion(&snap, &serde_json::from_value(p).unwrap());
    let range = json!({"start": {"line": line, "character": 0}, "end": {"line": line, "character": character}});
    let uri = uri::from_path(file).unwrap();
    let actions = json!({"textDocument": {"uri": uri.as_str()}, "range": range, "context": {"diagnostics": []}});
    let _ = requests::code_actions(&snap, &serde_json::from_value(actions).unwrap());
    let symbols = json!({"textDocument": {"uri": uri.as_str()}});
    let _ = requests::document_symbols(&snap, &serde_json::from_value(symbols).unwrap());
}

#[test]
fn half_typed_lines_are_diagnosed_and_still_complete() {
    let root = dataset("half");
    let stats = root.join("data/handsworld/hw__stats.lst");
    let text = std::fs::read_to_string(&stats).unwrap();
    let mut s = Session::new(Some(&root));
    assert!(codes(&s.open(&stats, &text, 1), &stats).is_empty());
    let typed = format!("{text}Wisdom\tKEY:WIS\tMODIFY:Sc");
    let published = s.change(&stats, &typed, 2);
    assert!(
        !codes(&published, &stats).is_empty(),
        "the half-typed MODIFY is reported"
    );
    let line = u32::try_from(typed.lines().count() - 1).unwrap();
    let p = position_params(
        &stats,
        line,
        u32::try_from("Wisdom\tKEY:WIS\tMODIFY:Sc".len()).unwrap(),
    );
    let items = requests::completion(&s.snapshot(), &serde_json::from_value(p).unwrap());
    let Some(lsp_types::CompletionResponse::Array(items)) = items else {
        panic!("no completion")
    };
    assert!(items.iter().any(|i| i.label == "Score"));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_file_outside_every_pcc_gets_one_note_saying_so_and_no_answers() {
    let root = dataset("outside");
    let loose = root.join("data/handsworld/notes.lst");
    std::fs::write(&loose, "Thing\tMODIFY:Nope|SET|1\n").unwrap();
    let mut s = Session::new(Some(&root));
    let published = s.open(&loose, "Thing\tMODIFY:Nope|SET|1\n", 1);
    assert_eq!(published.len(), 1);
    let codes = codes(&published, &loose);
    assert_eq!(codes, ["L0117"], "{published:#?}");
    assert_eq!(
        published[0].diagnostics[0].severity,
        Some(lsp_types::DiagnosticSeverity::INFORMATION)
    );
    ask_everything(&s, &loose, 0, 10);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_file_deleted_while_open_keeps_its_text_until_closed() {
    let root = dataset("deleted");
    let stats = root.join("data/handsworld/hw__stats.lst");
    let pcc = root.join("data/handsworld/handsworld.pcc");
    let text = std::fs::read_to_string(&stats).unwrap();
    let mut s = Session::new(Some(&root));
    s.open(&stats, &text, 1);
    std::fs::remove_file(&stats).unwrap();
    let typo = text.replacen("d20Mod(Score)", "d20Mod(Scroe)", 1);
    assert_eq!(codes(&s.change(&stats, &typo, 2), &stats), ["F0101"]);
    // Closed: the disk counts again, and the PCC's entry names a missing file.
    let published = s.close(&stats);
    assert!(codes(&published, &stats).is_empty());
    assert!(!codes(&published, &pcc).is_empty(), "{published:#?}");
    ask_everything(&s, &stats, 0, 3);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_file_that_is_not_utf8_on_disk_is_reported_where_it_is() {
    let root = dataset("cp1252");
    let skills = root.join("data/handsworld/hw_skills.lst");
    let mut bytes = std::fs::read(&skills).unwrap();
    bytes.extend_from_slice(b"Caf\xE9\tKEY:Cafe\n");
    std::fs::write(&skills, bytes).unwrap();
    let stats = root.join("data/handsworld/hw__stats.lst");
    let mut s = Session::new(Some(&root));
    let published = s.open(&stats, &std::fs::read_to_string(&stats).unwrap(), 1);
    assert!(
        codes(&published, &skills).contains(&"L0101".to_owned()),
        "{published:#?}"
    );
    ask_everything(&s, &skills, 0, 2);
    std::fs::remove_dir_all(&root).unwrap();
}

/// Shared by every case of the property test: a session on one copy of the dataset.
fn shared_root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| dataset("prop"))
}

fn piece() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "\t",
            "|",
            ":",
            "(",
            ")",
            "\"",
            "MODIFY:",
            "MODIFYOTHER:",
            "GRANT:",
            "input(\"",
            "Score",
            "Mod",
            ".MOD",
            "\n",
            "\r",
            "\r\n",
            "é",
            "𝄞",
            " ",
            "SET",
            "PC.STAT",
            "=",
            "LOCAL:",
            "#",
            "1",
            "+",
            "[",
        ]),
        0..8,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_edits_never_panic(
        file in prop::sample::select(vec!["hw__stats.lst", "hw__variables.lst", "handsworld.pcc", "hw_equip.lst"]),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0usize..6, piece()), 1..4),
        asks in prop::collection::vec((0u32..40, 0u32..200), 1..4),
    ) {
        let root = shared_root();
        let path = root.join("data/handsworld").join(file);
        let mut text = std::fs::read_to_string(&path).unwrap();
        let mut s = Session::new(Some(root));
        s.open(&path, &text, 0);
        for (n, (at, cut, insert)) in edits.into_iter().enumerate() {
            let mut i = at.index(text.len() + 1);
            while !text.is_char_boundary(i) { i -= 1; }
            let mut j = (i + cut).min(text.len());
            while !text.is_char_boundary(j) { j += 1; }
            text.replace_range(i..j, &insert);
            let published = s.change(&path, &text, i32::try_from(n + 1).unwrap());
            for p in &published {
                for d in &p.diagnostics {
                    prop_assert!(d.range.start <= d.range.end);
                }
            }
        }
        for (line, character) in asks {
            ask_everything(&s, &path, line, character);
        }
        s.close(&path);
    }
}
