//! Fuzz target: the language server's message handling. The input is the byte stream an
//! editor sends (`Content-Length` headers and JSON bodies, or anything else). Every frame is
//! read by the server's own framing (`lsp::transport`); what is no message becomes an error
//! answer that must serialise; notifications change a session (its workspace an empty
//! temporary folder: a folder that does not exist would make it walk `/`) and requests are
//! answered over its snapshot. Nothing panics, and the reader always makes progress (each
//! frame consumes input).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rulebook::lsp::Session;
use rulebook::lsp::server::{answer, notify};
use rulebook::lsp::transport::{self, Incoming, Message};
use std::io::{BufReader, sink};
use std::path::PathBuf;
use std::sync::OnceLock;

fn empty_root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = std::env::temp_dir().join("rulebook-fuzz-empty-root");
        let _ = std::fs::create_dir_all(&dir);
        dir
    })
}

fuzz_target!(|data: &[u8]| {
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
                transport::write(
                    &mut sink(),
                    &transport::to_value(&Message::Response(response)),
                )
                .unwrap();
            }
            Incoming::Message(Message::Response(_)) => {}
        }
    }
});
