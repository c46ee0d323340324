//! The event loop: reads JSON-RPC messages ([`transport`]) and applies document changes to
//! the [`Session`] in arrival order, on the loop (they need the session exclusively); each
//! request is answered by a worker of a fixed [`Pool`] over a [`Snapshot`] taken when it
//! arrived (as ruff's server does). Between the threads the channels are bounded: a client
//! that sends faster than the server works, or stops reading, is slowed down, never buffered
//! without end.

use crate::lsp::pool::Pool;
use crate::lsp::session::{Publish, Session, Snapshot};
use crate::lsp::transport::{self, Incoming};
use crate::lsp::{formatting, requests, uri};
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::Duration;

/// Messages read ahead of the loop: while a check runs, the edits that arrive wait here, so
/// the loop sees them together and checks only the last ([`latest_change`]).
const READ_AHEAD: usize = 64;

/// Messages waiting for the writer (answers and published diagnostics).
const OUTBOX: usize = 64;

/// Requests waiting for a worker.
const REQUEST_QUEUE: usize = 64;

/// The most worker threads answering requests.
const MAX_WORKERS: usize = 4;

/// How long the end of a session waits for the writer to send what is queued.
const FLUSH_PATIENCE: Duration = Duration::from_secs(5);

/// How a session ended: LSP wants exit code 0 after `shutdown`, 1 otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `exit` (or the end of the input) after `shutdown`.
    AfterShutdown,
    /// `exit` or the end of the input without `shutdown` first.
    WithoutShutdown,
}

/// What the server can do.
pub fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
            lsp::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(lsp::TextDocumentSyncKind::FULL),
                save: Some(lsp::TextDocumentSyncSaveOptions::SaveOptions(
                    lsp::SaveOptions {
                        include_text: Some(true),
                    },
                )),
                ..Default::default()
            },
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec![":".into(), "|".into(), "\"".into(), "(".into()]),
            ..Default::default()
        }),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![
                    lsp::CodeActionKind::QUICKFIX,
                    lsp::CodeActionKind::SOURCE_FIX_ALL,
                ]),
                ..Default::default()
            },
        )),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        document_range_formatting_provider: Some(lsp::OneOf::Left(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        ..Default::default()
    }
}

/// The workspace folder named by `initialize` (first folder, else the root URI).
#[allow(deprecated)] // root_uri: older clients send only that.
fn workspace_root(params: &lsp::InitializeParams) -> Option<PathBuf> {
    params
        .workspace_folders
        .as_ref()
        .and_then(|f| f.first())
        .and_then(|f| uri::to_path(&f.uri))
        .or_else(|| params.root_uri.as_ref().and_then(uri::to_path))
}

/// Serves one client over stdin/stdout until it sends `exit` or closes stdin.
pub fn run_stdio() -> Result<Ending, String> {
    serve(std::io::BufReader::new(std::io::stdin()), std::io::stdout())
}

/// Serves one client that writes to `input` and reads `output`: the handshake, then the loop
/// until `exit` or the end of `input`. `Err` only when `output` cannot be written.
pub fn serve(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> Result<Ending, String> {
    let (inbox, incoming) = sync_channel::<Incoming>(READ_AHEAD);
    std::thread::Builder::new()
        .name("rulebook-lsp-reader".to_owned())
        .spawn(move || read_input(input, &inbox))
        .map_err(|e| e.to_string())?;
    let (outbox, outgoing) = sync_channel::<Value>(OUTBOX);
    let (written, writer_done) = sync_channel::<Result<(), String>>(1);
    std::thread::Builder::new()
        .name("rulebook-lsp-writer".to_owned())
        .spawn(move || {
            let _ = written.send(write_output(output, &outgoing));
        })
        .map_err(|e| e.to_string())?;
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let pool = Pool::new(threads.clamp(1, MAX_WORKERS), REQUEST_QUEUE);
    let out = Outbox(outbox);
    let ending = match handshake(&incoming, &out) {
        Some(params) => run_loop(&incoming, &out, &pool, &params),
        None => Ending::WithoutShutdown,
    };
    pool.finish();
    drop(out);
    // The writer ends when every sender is gone; a client that stopped reading keeps it
    // blocked, and is not waited for.
    match writer_done.recv_timeout(FLUSH_PATIENCE) {
        Ok(Err(e)) => Err(e),
        _ => Ok(ending),
    }
}

/// The reader thread: frames from `input` to the loop until the input ends.
fn read_input(mut input: impl BufRead, inbox: &SyncSender<Incoming>) {
    // A read error (a closed or broken pipe) ends the input as its end does.
    while let Ok(Some(frame)) = transport::read(&mut input) {
        if inbox.send(frame).is_err() {
            return;
        }
    }
}

/// The writer thread: frames to `output` until every sender is gone.
fn write_output(mut output: impl Write, outgoing: &Receiver<Value>) -> Result<(), String> {
    for v in outgoing {
        transport::write(&mut output, &v).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The sending side of the writer's channel.
#[derive(Clone)]
struct Outbox(SyncSender<Value>);

impl Outbox {
    /// Queues a message (dropped when the writer is gone: the client is then gone too).
    fn send(&self, message: &Message) {
        self.send_value(transport::to_value(message));
    }

    fn send_value(&self, value: Value) {
        let _ = self.0.send(value);
    }
}

/// Waits for `initialize` and answers it; `None` when the client leaves first. Requests
/// before it are answered with LSP's "server not initialized".
fn handshake(incoming: &Receiver<Incoming>, out: &Outbox) -> Option<lsp::InitializeParams> {
    loop {
        match incoming.recv().ok()? {
            Incoming::Invalid(e) => out.send_value(e),
            Incoming::Message(Message::Request(req)) if req.method == "initialize" => {
                let params = serde_json::from_value(req.params).unwrap_or_default();
                let result = serde_json::json!({
                    "capabilities": capabilities(),
                    "serverInfo": {"name": "rulebook", "version": env!("CARGO_PKG_VERSION")},
                });
                out.send(&Message::Response(Response::new_ok(req.id, result)));
                return Some(params);
            }
            Incoming::Message(Message::Request(req)) => {
                out.send(&Message::Response(Response::new_err(
                    req.id,
                    ErrorCode::ServerNotInitialized as i32,
                    "the server is not initialized".to_owned(),
                )))
            }
            Incoming::Message(Message::Notification(n)) if n.method == "exit" => return None,
            Incoming::Message(_) => {}
        }
    }
}

/// The loop after the handshake, until `exit` or the end of the input.
fn run_loop(
    incoming: &Receiver<Incoming>,
    out: &Outbox,
    pool: &Pool,
    params: &lsp::InitializeParams,
) -> Ending {
    watch_data_files(out, params);
    let mut session = Session::new(workspace_root(params).as_deref());
    if let Some(url) = params
        .initialization_options
        .as_ref()
        .and_then(|o| o.get("errorsDocUrl"))
        .and_then(|v| v.as_str())
    {
        session.set_docs_base(url.to_owned());
    }
    let mut shut_down = false;
    let ending = |shut_down: bool| {
        if shut_down {
            Ending::AfterShutdown
        } else {
            Ending::WithoutShutdown
        }
    };
    let mut queued: VecDeque<Incoming> = VecDeque::new();
    loop {
        let msg = match queued.pop_front() {
            Some(m) => m,
            None => match incoming.recv() {
                Ok(m) => m,
                Err(_) => return ending(shut_down),
            },
        };
        let msg = match msg {
            Incoming::Invalid(e) => {
                out.send_value(e);
                continue;
            }
            Incoming::Message(m) => m,
        };
        match msg {
            Message::Request(req) if shut_down || req.method == "initialize" => {
                let why = if shut_down {
                    "the server is shut down"
                } else {
                    "the server is already initialized"
                };
                out.send(&Message::Response(Response::new_err(
                    req.id,
                    ErrorCode::InvalidRequest as i32,
                    why.to_owned(),
                )));
            }
            Message::Request(req) if req.method == "shutdown" => {
                shut_down = true;
                out.send(&Message::Response(Response::new_ok(req.id, ())));
            }
            Message::Request(req) => {
                // Answered off the loop, over a snapshot: a slow answer never holds up edits.
                let snap = session.snapshot();
                let out = out.clone();
                pool.run(Box::new(move || {
                    out.send(&Message::Response(answer_safely(&snap, req)))
                }));
            }
            Message::Notification(n) if n.method == "exit" => return ending(shut_down),
            Message::Notification(_) if shut_down => {}
            Message::Notification(n) => {
                let n = latest_change(incoming, n, &mut queued);
                for p in notify(&mut session, n) {
                    publish(out, p);
                }
            }
            Message::Response(_) => {}
        }
    }
}

/// [`answer`], with a failure of the server's own (a panic) answered as an internal error
/// instead of losing the answer and the worker.
fn answer_safely(snap: &Snapshot, req: Request) -> Response {
    let id = req.id.clone();
    let method = req.method.clone();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| answer(snap, req))).unwrap_or_else(
        |_| {
            Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("rulebook failed to answer {method}"),
            )
        },
    )
}

/// Globs of the files whose changes on disk matter: PCC and LST files in any letter case
/// (game-mode files are LSTs too).
const WATCHED_GLOBS: [&str; 2] = ["**/*.[pP][cC][cC]", "**/*.[lL][sS][tT]"];

/// The id of the `client/registerCapability` request [`watch_data_files`] sends.
const WATCH_REQUEST_ID: &str = "rulebook/watch-data-files";

/// Asks the client to report data files changed outside the editor (a `git pull`, another
/// tool) with `workspace/didChangeWatchedFiles`, when it can register watchers dynamically:
/// clients send those events only for files a server asked for. Without it a file changed
/// on disk would keep its old text in the server's cache until the workspace is reopened.
fn watch_data_files(out: &Outbox, params: &lsp::InitializeParams) {
    let dynamic = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|c| c.dynamic_registration)
        .unwrap_or(false);
    if !dynamic {
        return;
    }
    let options = lsp::DidChangeWatchedFilesRegistrationOptions {
        watchers: WATCHED_GLOBS
            .iter()
            .map(|g| lsp::FileSystemWatcher {
                glob_pattern: lsp::GlobPattern::String((*g).to_owned()),
                kind: None,
            })
            .collect(),
    };
    let registration = lsp::Registration {
        id: "rulebook-data-files".to_owned(),
        method: "workspace/didChangeWatchedFiles".to_owned(),
        register_options: serde_json::to_value(options).ok(),
    };
    let request = Request::new(
        RequestId::from(WATCH_REQUEST_ID.to_owned()),
        "client/registerCapability".to_owned(),
        lsp::RegistrationParams {
            registrations: vec![registration],
        },
    );
    out.send(&Message::Request(request));
}

/// For a `didChange`, the last of the changes to the same document already waiting (full
/// sync: each holds the whole text, so checking the ones in between is wasted work). Reads
/// ahead at most [`READ_AHEAD`] messages into `queued`.
fn latest_change(
    incoming: &Receiver<Incoming>,
    mut n: Notification,
    queued: &mut VecDeque<Incoming>,
) -> Notification {
    const CHANGE: &str = "textDocument/didChange";
    if n.method != CHANGE {
        return n;
    }
    let room = READ_AHEAD.saturating_sub(queued.len());
    queued.extend(incoming.try_iter().take(room));
    let doc = |n: &Notification| {
        n.params
            .get("textDocument")
            .and_then(|d| d.get("uri"))
            .cloned()
    };
    while let Some(Incoming::Message(Message::Notification(next))) = queued.front() {
        if next.method != CHANGE || doc(next) != doc(&n) {
            break;
        }
        match queued.pop_front() {
            Some(Incoming::Message(Message::Notification(next))) => n = next,
            _ => break,
        }
    }
    n
}

fn publish(out: &Outbox, p: Publish) {
    let Some(uri) = uri::from_path(&p.path) else {
        return;
    };
    let params = lsp::PublishDiagnosticsParams {
        uri,
        diagnostics: p.diagnostics,
        version: p.version,
    };
    out.send(&Message::Notification(Notification::new(
        "textDocument/publishDiagnostics".to_owned(),
        params,
    )));
}

/// Applies a notification; returns the diagnostics to publish.
pub fn notify(session: &mut Session, n: Notification) -> Vec<Publish> {
    fn params<P: DeserializeOwned>(n: Notification) -> Option<P> {
        serde_json::from_value(n.params).ok()
    }
    match n.method.as_str() {
        "textDocument/didOpen" => {
            let Some(p) = params::<lsp::DidOpenTextDocumentParams>(n) else {
                return Vec::new();
            };
            let Some(path) = uri::to_path(&p.text_document.uri) else {
                return Vec::new();
            };
            session.open(&path, &p.text_document.text, p.text_document.version)
        }
        "textDocument/didChange" => {
            let Some(p) = params::<lsp::DidChangeTextDocumentParams>(n) else {
                return Vec::new();
            };
            let Some(path) = uri::to_path(&p.text_document.uri) else {
                return Vec::new();
            };
            // Full sync: the last change holds the whole text.
            match p.content_changes.into_iter().last() {
                Some(c) if c.range.is_none() => {
                    session.change(&path, &c.text, p.text_document.version)
                }
                _ => Vec::new(),
            }
        }
        "textDocument/didSave" => {
            let Some(p) = params::<lsp::DidSaveTextDocumentParams>(n) else {
                return Vec::new();
            };
            let Some(path) = uri::to_path(&p.text_document.uri) else {
                return Vec::new();
            };
            session.save(&path, p.text.as_deref())
        }
        "textDocument/didClose" => {
            let Some(p) = params::<lsp::DidCloseTextDocumentParams>(n) else {
                return Vec::new();
            };
            let Some(path) = uri::to_path(&p.text_document.uri) else {
                return Vec::new();
            };
            session.close(&path)
        }
        "workspace/didChangeWatchedFiles" => {
            let Some(p) = params::<lsp::DidChangeWatchedFilesParams>(n) else {
                return Vec::new();
            };
            let paths: Vec<_> = p
                .changes
                .iter()
                .filter_map(|c| uri::to_path(&c.uri))
                .collect();
            session.files_changed(&paths)
        }
        _ => Vec::new(),
    }
}

/// Answers a read-only request from a snapshot.
pub fn answer(snap: &Snapshot, req: Request) -> Response {
    fn run<P: DeserializeOwned, R: Serialize>(req: Request, f: impl FnOnce(&P) -> R) -> Response {
        match serde_json::from_value::<P>(req.params) {
            Ok(p) => Response::new_ok(req.id, f(&p)),
            Err(e) => Response::new_err(req.id, ErrorCode::InvalidParams as i32, e.to_string()),
        }
    }
    match req.method.as_str() {
        "textDocument/hover" => run(req, |p| requests::hover(snap, p)),
        "textDocument/definition" => run(req, |p| requests::definition(snap, p)),
        "textDocument/references" => run(req, |p| requests::references(snap, p)),
        "textDocument/completion" => run(req, |p| requests::completion(snap, p)),
        "textDocument/codeAction" => run(req, |p| requests::code_actions(snap, p)),
        "textDocument/documentSymbol" => run(req, |p| requests::document_symbols(snap, p)),
        "textDocument/formatting" => run(req, |p| formatting::formatting(snap, p)),
        "textDocument/rangeFormatting" => run(req, |p| formatting::range_formatting(snap, p)),
        _ => Response::new_err(
            req.id,
            ErrorCode::MethodNotFound as i32,
            format!("unknown method {}", req.method),
        ),
    }
}
