//! Item 1: a symbolic link below the root that leads out of it is refused by the language
//! server as by `rulebook check` (L0114), and its target's lines are never shown.

use super::data;
use super::server::{Server, codes};
use serde_json::json;

#[test]
fn the_language_server_refuses_a_link_leading_out_of_the_root() {
    let root = data::root("link");
    let secret = root.with_extension("secret.lst");
    std::fs::write(&secret, "SECRET_OBJECT\tKEY:Secret\n").unwrap();
    let dir = root.join("data/hostile");
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("link.lst");
    std::os::unix::fs::symlink(&secret, &link).unwrap();
    let pcc = dir.join("hostile.pcc");
    let text = data::pcc(&["EQUIPMENT:link.lst"]);
    std::fs::write(&pcc, &text).unwrap();

    let mut s = Server::start(Some(&root));
    s.open(&pcc, &text);
    let found = codes(&s.diagnostics(&data::uri(&pcc)));
    assert!(found.contains(&"L0114".to_owned()), "{found:?}");
    let symbols = s.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": data::uri(&link)}}),
    );
    assert!(!symbols.to_string().contains("SECRET"), "{symbols}");
    // Opened in the editor, the link is still judged by where it leads.
    s.open(&link, "SECRET_OBJECT\tKEY:Secret\n");
    let symbols = s.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": data::uri(&link)}}),
    );
    assert!(!symbols.to_string().contains("SECRET"), "{symbols}");
    assert!(s.shutdown().is_some_and(|e| e.success()));
    std::fs::remove_dir_all(&root).unwrap();
    std::fs::remove_file(&secret).unwrap();
}
