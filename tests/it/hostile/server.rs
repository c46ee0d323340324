//! `rulebook lsp` as a child process under a memory limit, spoken to in raw bytes or JSON-RPC.

use serde_json::{Value, json};
use std::io::{BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The address space the server may use, in KiB (its threads' stacks count too).
const ADDRESS_SPACE_KIB: u64 = 1_500_000;

/// How long any one answer may take.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A server process and what it wrote.
pub struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    paused: Arc<AtomicBool>,
    stderr: Arc<Mutex<Vec<u8>>>,
    next_id: i64,
    /// Messages received while waiting for others.
    pub pending: Vec<Value>,
}

use crate::support::read_message;

impl Server {
    /// Starts `rulebook lsp` under the memory limit and initialises it for `root` (none: no
    /// workspace folder).
    pub fn start(root: Option<&Path>) -> Server {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" lsp"))
            .arg(env!("CARGO_BIN_EXE_rulebook"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn rulebook lsp");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut err = child.stderr.take().unwrap();
        let (tx, rx) = channel();
        let paused = Arc::new(AtomicBool::new(false));
        let gate = paused.clone();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                while gate.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(5));
                }
                let Some(m) = read_message(&mut r) else {
                    break;
                };
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0; 4096];
            while let Ok(n @ 1..) = err.read(&mut buf) {
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        let mut s = Server {
            child,
            stdin: Some(stdin),
            incoming: rx,
            paused,
            stderr,
            next_id: 1,
            pending: Vec::new(),
        };
        let uri = root.map(super::data::uri);
        let folders = uri.as_ref().map(|u| json!([{"uri": u, "name": "data"}]));
        let answer = s.request(
            "initialize",
            json!({"processId": null, "rootUri": uri, "workspaceFolders": folders, "capabilities": {}}),
        );
        assert!(answer["result"]["capabilities"].is_object(), "{answer}");
        s.notify("initialized", json!({}));
        s
    }

    /// Writes bytes as they are; false when the server no longer reads.
    pub fn send_raw(&mut self, bytes: &[u8]) -> bool {
        let Some(stdin) = self.stdin.as_mut() else {
            return false;
        };
        stdin.write_all(bytes).is_ok() && stdin.flush().is_ok()
    }

    /// The server's stdin, to write from another thread (see [`Server::give_stdin`]) or to
    /// close by dropping it.
    pub fn take_stdin(&mut self) -> ChildStdin {
        self.stdin.take().expect("stdin was taken")
    }

    /// Gives back what [`Server::take_stdin`] took.
    pub fn give_stdin(&mut self, stdin: ChildStdin) {
        self.stdin = Some(stdin);
    }

    /// Stops (or resumes) reading the server's output, as a client that hangs does.
    pub fn pause_reading(&mut self, paused: bool) {
        self.paused.store(paused, Ordering::SeqCst);
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A figure of `/proc/PID/status` in kB (`VmHWM`: the peak resident memory), or the
    /// number of threads (`Threads`); 0 once the process is gone.
    pub fn status(&self, field: &str) -> u64 {
        let text =
            std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap_or_default();
        text.lines()
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    }

    /// Writes one framed message body.
    pub fn send_body(&mut self, body: &[u8]) -> bool {
        let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        framed.extend_from_slice(body);
        self.send_raw(&framed)
    }

    /// Sends a notification.
    pub fn notify(&mut self, method: &str, params: Value) {
        let msg = json!({"jsonrpc": "2.0", "method": method, "params": params});
        assert!(self.send_body(msg.to_string().as_bytes()));
    }

    /// Sends a request without waiting; returns its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        assert!(self.send_body(msg.to_string().as_bytes()));
        id
    }

    /// The next message, or `None` when the server closed its output or said nothing in
    /// time.
    pub fn recv(&mut self, patience: Duration) -> Option<Value> {
        self.incoming.recv_timeout(patience).ok()
    }

    /// The response to `id` (the whole message: `result` or `error`).
    pub fn response(&mut self, id: &Value) -> Value {
        if let Some(i) = self.pending.iter().position(|m| m.get("id") == Some(id)) {
            return self.pending.remove(i);
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let m = self.recv(left).unwrap_or_else(|| {
                panic!("no response to {id} in time; stderr: {}", self.stderr())
            });
            if m.get("id") == Some(id) && m.get("method").is_none() {
                return m;
            }
            self.pending.push(m);
        }
    }

    /// Sends a request and waits for its response.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        self.response(&json!(id))
    }

    /// The next diagnostics published for `uri`.
    pub fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        self.versioned_diagnostics(uri).1
    }

    /// The next diagnostics published for `uri`, with the document version they are of.
    pub fn versioned_diagnostics(&mut self, uri: &str) -> (Option<i64>, Vec<Value>) {
        let is_it = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        };
        let found = match self.pending.iter().position(is_it) {
            Some(i) => self.pending.remove(i),
            None => {
                let deadline = Instant::now() + PATIENCE;
                loop {
                    let left = deadline.saturating_duration_since(Instant::now());
                    let m = self.recv(left).unwrap_or_else(|| {
                        panic!("no diagnostics for {uri}; stderr: {}", self.stderr())
                    });
                    if is_it(&m) {
                        break m;
                    }
                    self.pending.push(m);
                }
            }
        };
        let params = &found["params"];
        (
            params["version"].as_i64(),
            params["diagnostics"].as_array().unwrap().clone(),
        )
    }

    /// Opens a document with `text`.
    pub fn open(&mut self, path: &Path, text: &str) {
        let uri = super::data::uri(path);
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "pcgen", "version": 1, "text": text}}),
        );
    }

    /// What the server wrote to stderr so far.
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// The exit status, waiting up to [`PATIENCE`] (`None`: still running).
    pub fn wait(&mut self) -> Option<ExitStatus> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Ends the session politely: `shutdown`, then `exit`; returns the exit status.
    pub fn shutdown(mut self) -> Option<ExitStatus> {
        let r = self.request("shutdown", Value::Null);
        assert!(r["result"].is_null(), "{r}");
        self.notify("exit", Value::Null);
        self.wait()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // A server that is still running after a failed assertion is ended here.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The codes of published diagnostics.
pub fn codes(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .filter_map(|d| d["code"].as_str().map(str::to_owned))
        .collect()
}
