//! Item 7: the language server under protocol abuse. Lengths it cannot hold, bodies that are
//! not messages, a client that stops reading, a burst of edits, `exit` without `shutdown`.

use super::data;
use super::server::{PATIENCE, Server, codes};
use serde_json::{Value, json};
use std::io::Write;
use std::time::{Duration, Instant};

/// A hover request anywhere: answered (with nothing) without any workspace.
fn hover(id: usize) -> Vec<u8> {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": "file:///nowhere/x.lst"}, "position": {"line": 0, "character": 0}}});
    let body = body.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

#[test]
fn a_length_of_two_gigabytes_costs_only_the_bytes_sent() {
    let mut s = Server::start(None);
    assert!(s.send_raw(b"Content-Length: 2000000000\r\n\r\n"));
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..64 {
        assert!(s.send_raw(&chunk), "the server stopped reading");
    }
    // 64 MiB sent of the 2,000,000,000 announced; the server holds none of it.
    std::thread::sleep(Duration::from_millis(200));
    let peak = s.status("VmHWM");
    assert!(peak > 0 && peak < 200_000, "peak resident memory {peak} kB");
    let rest = 2_000_000_000 - 64 * (1 << 20);
    let mut left: usize = rest;
    while left > 0 {
        let n = left.min(chunk.len());
        assert!(s.send_raw(&chunk[..n]));
        left -= n;
    }
    let error = s.response(&Value::Null);
    assert_eq!(error["error"]["code"], -32600, "{error}");
    // The session goes on.
    let r = s.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": "file:///x.lst"}}),
    );
    assert!(r.get("result").is_some(), "{r}");
    assert!(s.status("VmHWM") < 200_000);
    assert!(s.shutdown().is_some_and(|e| e.success()));
}

#[test]
fn lengths_beyond_any_memory_end_the_session_quietly() {
    for length in [
        "18446744073709551615",
        "9223372036854775807",
        "99999999999999999999",
    ] {
        let mut s = Server::start(None);
        assert!(s.send_raw(format!("Content-Length: {length}\r\n\r\n{{}}").as_bytes()));
        drop(s.take_stdin());
        let status = s.wait().expect("the server ends when its input does");
        assert_eq!(status.code(), Some(1), "{length}: {status}; {}", s.stderr());
        assert!(!s.stderr().contains("panicked"), "{}", s.stderr());
    }
}

#[test]
fn malformed_messages_are_answered_with_errors_and_the_session_goes_on() {
    let mut s = Server::start(None);
    assert!(s.send_body(b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"MARKER_PAYLOAD"));
    let error = s.response(&Value::Null);
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert!(s.send_body(
        br#"{"jsonrpc":"2.0","id":8,"method":"x","params":{"t":"\ud800 MARKER_PAYLOAD"}}"#
    ));
    let error = s.response(&Value::Null);
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert!(s.send_body(br#"{"jsonrpc":"2.0","id":9,"params":"MARKER_PAYLOAD"}"#));
    let error = s.response(&json!(9));
    assert_eq!(error["error"]["code"], -32600, "{error}");
    assert!(s.send_raw(b"Content-Length: nine\r\n\r\n"));
    let error = s.response(&Value::Null);
    assert_eq!(error["error"]["code"], -32600, "{error}");
    let r = s.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": "file:///x.lst"}}),
    );
    assert!(r.get("result").is_some(), "{r}");
    assert!(!s.stderr().contains("MARKER_PAYLOAD"), "{}", s.stderr());
    assert!(s.shutdown().is_some_and(|e| e.success()));
}

#[test]
fn exit_without_shutdown_ends_with_1() {
    let mut s = Server::start(None);
    s.notify("exit", Value::Null);
    let status = s.wait().expect("the server exits");
    assert_eq!(status.code(), Some(1), "{status}");
}

#[test]
fn a_client_that_stops_reading_gets_a_bounded_number_of_threads() {
    const REQUESTS: usize = 3000;
    let mut s = Server::start(None);
    s.pause_reading(true);
    let mut stdin = s.take_stdin();
    let writer = std::thread::spawn(move || {
        for id in 1..=REQUESTS {
            if stdin.write_all(&hover(1000 + id)).is_err() {
                break;
            }
        }
        let _ = stdin.flush();
        stdin
    });
    let start = Instant::now();
    let mut most = 0;
    while start.elapsed() < Duration::from_secs(3) {
        most = most.max(s.status("Threads"));
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(most > 0 && most <= 16, "{most} threads");
    s.pause_reading(false);
    s.give_stdin(writer.join().unwrap());
    for id in 1..=REQUESTS {
        let r = s.response(&json!(1000 + id));
        assert!(r.get("result").is_some(), "{r}");
    }
    assert!(s.shutdown().is_some_and(|e| e.success()));
}

/// A load set whose check takes a while: `n` objects in one LST.
fn slow_dataset(name: &str, n: usize) -> (std::path::PathBuf, std::path::PathBuf, String) {
    let root = data::root(name);
    let dir = root.join("data/burst");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("burst.pcc"), data::pcc(&["SKILL:skills.lst"])).unwrap();
    let text: String = (0..n)
        .map(|i| format!("Skill{i}\tKEY:Skill{i}\n"))
        .collect();
    let lst = dir.join("skills.lst");
    std::fs::write(&lst, &text).unwrap();
    (root, lst, text)
}

#[test]
fn a_burst_of_edits_is_checked_once_per_batch_not_once_per_edit() {
    const EDITS: i64 = 300;
    let (root, lst, text) = slow_dataset("burst", 2000);
    let uri = data::uri(&lst);
    let mut s = Server::start(Some(&root));
    s.open(&lst, &text);
    s.diagnostics(&uri);
    // Every edit framed first, then written in one go, as a fast typist's editor sends them.
    let mut burst = Vec::new();
    for version in 2..=EDITS {
        // Each version has its own mistake, so each one checked publishes.
        let at = usize::try_from(version).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        lines.insert(at, format!("Typo{at}\tNOSUCHTOKEN:{at}"));
        let body = json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": lines.join("\n")}]}})
        .to_string();
        burst.extend(format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes());
    }
    let mut stdin = s.take_stdin();
    let writer = std::thread::spawn(move || {
        stdin.write_all(&burst).unwrap();
        stdin
    });
    // Everything sent; the last version's findings come at the end.
    let deadline = Instant::now() + PATIENCE * 2;
    let mut checked = Vec::new();
    while checked.last() != Some(&EDITS) {
        assert!(Instant::now() < deadline, "versions published: {checked:?}");
        let (version, d) = s.versioned_diagnostics(&uri);
        assert!(!codes(&d).is_empty(), "{d:?}");
        checked.push(version.unwrap_or(0));
    }
    s.give_stdin(writer.join().unwrap());
    assert!(
        checked.len() <= 60,
        "{} of {EDITS} versions checked",
        checked.len()
    );
    assert!(s.shutdown().is_some_and(|e| e.success()));
    std::fs::remove_dir_all(&root).unwrap();
}
