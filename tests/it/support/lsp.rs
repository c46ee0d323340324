//! A client of `rulebook lsp` over stdio, as an editor speaks to it, for the integration
//! tests that drive the server (`crate::support::lsp`), and the
//! helpers they share: temporary copies of datasets, positions, URIs.
#![allow(dead_code)] // Each test binary uses some of the helpers.

use serde_json::{Value, json};
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// A client over the server's stdio.
pub struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications received while waiting for responses.
    pub notifications: Vec<Value>,
    /// The server's capabilities, as `initialize` answered.
    pub capabilities: Value,
}

impl Client {
    pub fn start(root: &Path) -> Client {
        Client::start_with(root, json!({}))
    }

    /// Starts the server for the workspace `root`, as a client with `capabilities`.
    pub fn start_with(root: &Path, capabilities: Value) -> Client {
        Client::start_configured(root, capabilities, Value::Null)
    }

    /// Starts the server for the workspace `root`, as a client with `capabilities` that
    /// sends `options` as its `initializationOptions` (none when null).
    pub fn start_configured(root: &Path, capabilities: Value, options: Value) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulebook"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn rulebook lsp");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(m) = read_message(&mut r) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        let mut c = Client {
            child,
            stdin,
            incoming: rx,
            next_id: 1,
            notifications: Vec::new(),
            capabilities: Value::Null,
        };
        let result = c.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "workspaceFolders": [{"uri": uri(root), "name": "data"}],
                "capabilities": capabilities,
                "initializationOptions": options,
            }),
        );
        assert!(result["capabilities"]["hoverProvider"].as_bool().unwrap());
        c.capabilities = result["capabilities"].clone();
        c.notify("initialized", json!({}));
        c
    }

    pub fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    pub fn recv(&mut self, deadline: Instant) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.incoming.recv_timeout(left) {
            Ok(v) => v,
            Err(RecvTimeoutError::Timeout) => panic!("no message from the server in time"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
        }
    }

    /// Opens `path` in the editor with `text` (version 1); its URI.
    pub fn open(&mut self, path: &Path, text: &str) -> String {
        let doc = uri(path);
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": doc, "languageId": "pcgen-lst", "version": 1, "text": text}}),
        );
        doc
    }

    /// The whole answer to a request (its `result` or its `error`).
    pub fn answer(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let m = self.recv(deadline);
            if m.get("id") == Some(&json!(id)) {
                return m;
            }
            self.notifications.push(m);
        }
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let m = self.answer(method, params);
        assert!(m.get("error").is_none(), "{method} failed: {m}");
        m["result"].clone()
    }

    /// The next diagnostics published for `doc`.
    pub fn diagnostics(&mut self, doc: &str) -> Vec<Value> {
        if let Some(i) = self.notifications.iter().position(|n| {
            n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == doc
        }) {
            let n = self.notifications.remove(i);
            return n["params"]["diagnostics"].as_array().unwrap().clone();
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let m = self.recv(deadline);
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == doc {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
            self.notifications.push(m);
        }
    }

    /// The diagnostics shown for `doc` once every check the server is running is in: the
    /// last list it published for `doc` by then (the server publishes a file's findings as
    /// each stage of a check comes in: its own book first, the load sets including the book
    /// after), else, when it published none since, what it holds for `doc`. A pull request
    /// (`textDocument/diagnostic`), which the server answers once no check runs, tells when
    /// that is.
    pub fn settled_diagnostics(&mut self, doc: &str) -> Vec<Value> {
        let pulled = self.request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": doc}}),
        );
        let publishes = |n: &Value| {
            n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == doc
        };
        let last = self.notifications.iter().rposition(publishes);
        let shown = match last {
            Some(i) => self.notifications[i]["params"]["diagnostics"].clone(),
            None => pulled["items"].clone(),
        };
        self.notifications.retain(|n| !publishes(n));
        shown.as_array().expect("a list of diagnostics").clone()
    }

    /// The next request the server sends with `method` (a request of the server to the
    /// client, such as `workspace/configuration`), to answer with [`Client::respond`].
    pub fn server_request(&mut self, method: &str) -> Value {
        let asks = |m: &Value| m["method"] == method && m.get("id").is_some();
        if let Some(i) = self.notifications.iter().position(asks) {
            return self.notifications.remove(i);
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let m = self.recv(deadline);
            if asks(&m) {
                return m;
            }
            self.notifications.push(m);
        }
    }

    /// Answers the server's request `request` with `result`.
    pub fn respond(&mut self, request: &Value, result: Value) {
        self.send(json!({"jsonrpc": "2.0", "id": request["id"], "result": result}));
    }

    /// The next message the server shows the user (`window/showMessage`).
    pub fn shown_message(&mut self) -> String {
        if let Some(i) = self
            .notifications
            .iter()
            .position(|n| n["method"] == "window/showMessage")
        {
            let n = self.notifications.remove(i);
            return n["params"]["message"].as_str().unwrap_or("").to_owned();
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let m = self.recv(deadline);
            if m["method"] == "window/showMessage" {
                return m["params"]["message"].as_str().unwrap_or("").to_owned();
            }
            self.notifications.push(m);
        }
    }

    pub fn shutdown(mut self) {
        let r = self.request("shutdown", Value::Null);
        assert!(r.is_null());
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(Instant::now() < deadline, "server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

pub fn uri(p: &Path) -> String {
    rulebook::lsp::uri::from_path(p)
        .unwrap()
        .as_str()
        .to_owned()
}

/// The shared helpers of `support/mod.rs` (copies of real datasets).
pub use super::copy_dir;
use super::read_message;

pub fn temp_root(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulebook-lsp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A temporary copy of the project's example dataset as a PCGen root (`data/handsworld`,
/// `system`): the root and the dataset's folder.
pub fn handsworld(name: &str) -> (PathBuf, PathBuf) {
    let root = temp_root(name);
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let dataset = root.join("data").join("handsworld");
    copy_dir(&data.join("handsworld"), &dataset);
    copy_dir(&data.join("system"), &root.join("system"));
    (root, dataset)
}

/// A homebrew dataset of the Handsworld game mode in `dir`: a supplement PCC requiring
/// Handsworld Core (`PRECAMPAIGN`) that lists one ability file with the `abilities` given;
/// the path of that file.
pub fn homebrew(dir: &Path, abilities: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("brew.pcc"),
        "CAMPAIGN:Brew\nGAMEMODE:Handsworld\nBOOKTYPE:Supplement\n\
         PRECAMPAIGN:1,INCLUDES=Handsworld Core\nABILITY:brew_abilities.lst\n",
    )
    .unwrap();
    let file = dir.join("brew_abilities.lst");
    std::fs::write(&file, abilities).unwrap();
    file
}

/// The (0-based) line and UTF-16 column of byte `at` in `text`.
pub fn pos(text: &str, at: usize) -> Value {
    let before = &text[..at];
    let line = before.matches('\n').count();
    let col = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .encode_utf16()
        .count();
    json!({"line": line, "character": col})
}

/// The real datasets: `../shared/pcgen` beside the crate (or beside a worktree's parent).
/// A test that needs them fails without them.
pub fn shared_pcgen() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    [
        here.join("../shared/pcgen"),
        here.join("../../shared/pcgen"),
    ]
    .into_iter()
    .find(|p| p.join("data/starfinder/paizo/core").is_dir())
    .expect("../shared/pcgen (the real datasets) is missing")
}

/// The whole corpus of PCGen's data: `shared/pcgen-corpus` beside the crate or one of its
/// ancestors. A test that needs it fails without it.
pub fn shared_corpus() -> PathBuf {
    find_corpus().expect("../shared/pcgen-corpus (the whole corpus) is missing")
}

/// The whole corpus of PCGen's data, if it is there (see [`shared_corpus`]).
pub fn find_corpus() -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(1)
        .map(|a| a.join("shared/pcgen-corpus"))
        .find(|c| c.join("data").is_dir() && c.join("system/gameModes").is_dir())
}

/// The labels of a completion response.
pub fn labels(completion: &Value) -> Vec<String> {
    completion
        .as_array()
        .expect("a completion list")
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_owned())
        .collect()
}

/// The text of the line a location (`{uri, range}`) starts on.
pub fn line_of(location: &Value) -> String {
    let path =
        rulebook::lsp::uri::to_path(&location["uri"].as_str().unwrap().parse().unwrap()).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let line = location["range"]["start"]["line"].as_u64().unwrap() as usize;
    text.lines().nth(line).unwrap_or("").to_owned()
}

/// The diagnostics `rulebook check ARGS --format json`, run in `cwd`, reports in the file
/// whose path ends with `file_name` (what the editor's findings are compared with).
pub fn check_json(args: &[&std::ffi::OsStr], cwd: &Path, file_name: &str) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .arg("check")
        .args(args)
        .args(["--format", "json"])
        .current_dir(cwd)
        .output()
        .expect("run rulebook check");
    let json: Value = serde_json::from_slice(&out.stdout).expect("check's JSON");
    json["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["file"].as_str().is_some_and(|f| f.ends_with(file_name)))
        .cloned()
        .collect()
}
