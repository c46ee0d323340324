//! Item 7, as a property (the body of the `lsp_messages` fuzz target on a fixed budget):
//! random frames — well-formed messages with random methods and params, and raw bytes between
//! them — go through the server's framing, notifications and requests without a panic.

use proptest::prelude::*;
use rulebook::lsp::Session;
use rulebook::lsp::server::{answer, notify};
use rulebook::lsp::transport::{self, Incoming, Message};
use serde_json::json;
use std::io::{BufReader, sink};
use std::path::PathBuf;
use std::sync::OnceLock;

/// An empty folder as the workspace, shared by every run (never written to).
fn empty_root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = std::env::temp_dir().join("rulebook-hostile-frames-empty");
        std::fs::create_dir_all(&dir).unwrap();
        dir
    })
}

fn handle(data: &[u8]) {
    let mut input = BufReader::new(data);
    let mut session = Session::new(Some(empty_root()));
    while let Ok(Some(frame)) = transport::read(&mut input) {
        match frame {
            Incoming::Invalid(error) => {
                assert!(error["error"]["code"].is_i64());
                transport::write(&mut sink(), &error).unwrap();
            }
            Incoming::Message(Message::Notification(n)) => {
                let _ = notify(&mut session, n);
            }
            Incoming::Message(Message::Request(req)) => {
                let response = answer(&session.snapshot(), req);
                let value = transport::to_value(&Message::Response(response));
                transport::write(&mut sink(), &value).unwrap();
            }
            Incoming::Message(Message::Response(_)) => {}
        }
    }
}

fn method() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "textDocument/didOpen",
        "textDocument/didChange",
        "textDocument/didClose",
        "textDocument/didSave",
        "workspace/didChangeWatchedFiles",
        "textDocument/hover",
        "textDocument/completion",
        "textDocument/definition",
        "textDocument/references",
        "textDocument/codeAction",
        "textDocument/documentSymbol",
        "shutdown",
        "x",
    ])
}

fn params() -> impl Strategy<Value = serde_json::Value> {
    let uri = prop::sample::select(vec![
        "file:///tmp/rulebook-hostile-frames/a.lst",
        "file:///tmp/rulebook-hostile-frames/a.pcc",
        "untitled:1",
        "file:///",
        "",
    ]);
    (uri, any::<i32>(), any::<u32>(), any::<u32>(), ".{0,40}").prop_map(|(uri, v, l, c, text)| {
        json!({
            "textDocument": {"uri": uri, "version": v, "text": text, "languageId": "pcgen"},
            "contentChanges": [{"text": text}],
            "position": {"line": l, "character": c},
            "range": {"start": {"line": l, "character": c}, "end": {"line": l, "character": c}},
            "context": {"includeDeclaration": true, "diagnostics": []},
            "changes": [{"uri": uri, "type": 2}],
        })
    })
}

fn frame() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        (method(), params(), any::<bool>()).prop_map(|(m, p, request)| {
            let mut msg = json!({"jsonrpc": "2.0", "method": m, "params": p});
            if request {
                msg["id"] = json!(1);
            }
            let body = msg.to_string();
            format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
        }),
        prop::collection::vec(any::<u8>(), 0..64),
        ".{0,64}".prop_map(|b| format!("Content-Length: {}\r\n\r\n{b}", b.len()).into_bytes()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_frames_never_panic_the_server(frames in prop::collection::vec(frame(), 1..8)) {
        handle(&frames.concat());
    }
}
