//! Fuzz target: UnterMUD locks set against a small world. Nothing panics; a lock that is set
//! has a stored form that sets again to the same text and evaluates the same for every
//! actor; a rejected lock has an error that renders.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rulebook::diagnostic::render;
use rulebook::dialect::untermud::{Lock, World};
use rulebook::source::{FileId, SourceFile, SourceMap, TextEncoding};
use std::sync::OnceLock;

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        serde_json::from_str(
            r#"{"mud": "DEEPMUD", "objects": {
                "0": {"name": "Lobby", "kind": "room", "location": null},
                "wizard": {"name": "UnterWiz", "kind": "player", "location": "0"},
                "21@DEEPMUD": {"name": "testbozo", "kind": "player", "location": "0"},
                "22@DEEPMUD": {"name": "gold key", "kind": "thing", "location": "wizard"},
                "23@DEEPMUD": {"name": "bat", "kind": "thing", "location": "0"},
                "24@DEEPMUD": {"name": "bat", "kind": "thing", "location": "21@DEEPMUD"},
                "28@DEEPMUD": {"name": "a&b", "kind": "thing", "location": "0"}}}"#,
        )
        .unwrap_or_default()
    })
}

fuzz_target!(|text: &str| {
    let w = world();
    let mut sources = SourceMap::new();
    sources.add(SourceFile::new("lock", text, TextEncoding::Utf8));
    match Lock::compile(text, FileId(0), w) {
        Ok(lock) => {
            let stored = lock.to_string();
            let again = Lock::compile(&stored, FileId(0), w);
            let again = again.expect("the stored form of a lock sets again");
            assert_eq!(again.to_string(), stored);
            for actor in w.objects.keys().map(String::as_str).chain(["nobody"]) {
                assert_eq!(again.evaluate(w, actor), lock.evaluate(w, actor));
            }
        }
        Err(diags) => {
            assert!(diags.iter().any(|d| d.is_error()));
            let _ = render(&diags, &sources, false);
        }
    }
});
