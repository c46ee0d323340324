//! The event loop: reads JSON-RPC messages and applies document changes to the [`Session`] in
//! arrival order, on the loop (they need the session exclusively); each request is answered
//! on its own thread over a [`Snapshot`] taken when it arrived (as ruff's server does).

use crate::lsp::session::{Publish, Session, Snapshot};
use crate::lsp::{requests, uri};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::VecDeque;
use std::path::PathBuf;

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
        code_action_provider: Some(lsp::CodeActionProviderCapability::Simple(true)),
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

/// Serves one client over stdin/stdout until it sends `exit`.
pub fn run_stdio() -> Result<(), String> {
    let (connection, io) = Connection::stdio();
    serve(&connection)?;
    drop(connection);
    io.join().map_err(|e| e.to_string())
}

/// Serves one client over `connection`: the handshake, then the loop until `exit`.
pub fn serve(connection: &Connection) -> Result<(), String> {
    let caps = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    let init = connection.initialize(caps).map_err(|e| e.to_string())?;
    let params: lsp::InitializeParams = serde_json::from_value(init).unwrap_or_default();
    let root = workspace_root(&params);
    watch_data_files(connection, &params)?;
    let mut session = Session::new(root.as_deref());
    if let Some(url) = params
        .initialization_options
        .as_ref()
        .and_then(|o| o.get("errorsDocUrl"))
        .and_then(|v| v.as_str())
    {
        session.set_docs_base(url.to_owned());
    }
    let mut queued: VecDeque<Message> = VecDeque::new();
    loop {
        let msg = match queued.pop_front() {
            Some(m) => m,
            None => match connection.receiver.recv() {
                Ok(m) => m,
                Err(_) => return Ok(()),
            },
        };
        match msg {
            Message::Request(req) => {
                if connection
                    .handle_shutdown(&req)
                    .map_err(|e| e.to_string())?
                {
                    return Ok(());
                }
                // Answered off the loop, over a snapshot: a slow answer never holds up edits.
                let snap = session.snapshot();
                let sender = connection.sender.clone();
                std::thread::spawn(move || {
                    // The client may be gone; nothing to tell then.
                    let _ = sender.send(Message::Response(answer(&snap, req)));
                });
            }
            Message::Notification(n) => {
                let n = latest_change(connection, n, &mut queued);
                for p in notify(&mut session, n) {
                    publish(connection, p)?;
                }
            }
            Message::Response(_) => {}
        }
    }
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
fn watch_data_files(connection: &Connection, params: &lsp::InitializeParams) -> Result<(), String> {
    let dynamic = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|c| c.dynamic_registration)
        .unwrap_or(false);
    if !dynamic {
        return Ok(());
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
        register_options: Some(serde_json::to_value(options).map_err(|e| e.to_string())?),
    };
    let request = Request::new(
        RequestId::from(WATCH_REQUEST_ID.to_owned()),
        "client/registerCapability".to_owned(),
        lsp::RegistrationParams {
            registrations: vec![registration],
        },
    );
    connection
        .sender
        .send(Message::Request(request))
        .map_err(|e| e.to_string())
}

/// For a `didChange`, the last of the changes to the same document already waiting (full
/// sync: each holds the whole text, so checking the ones in between is wasted work).
fn latest_change(
    connection: &Connection,
    mut n: Notification,
    queued: &mut VecDeque<Message>,
) -> Notification {
    const CHANGE: &str = "textDocument/didChange";
    if n.method != CHANGE {
        return n;
    }
    queued.extend(connection.receiver.try_iter());
    let doc = |n: &Notification| {
        n.params
            .get("textDocument")
            .and_then(|d| d.get("uri"))
            .cloned()
    };
    while let Some(Message::Notification(next)) = queued.front() {
        if next.method != CHANGE || doc(next) != doc(&n) {
            break;
        }
        match queued.pop_front() {
            Some(Message::Notification(next)) => n = next,
            _ => break,
        }
    }
    n
}

fn send(connection: &Connection, msg: Message) -> Result<(), String> {
    connection.sender.send(msg).map_err(|e| e.to_string())
}

fn publish(connection: &Connection, p: Publish) -> Result<(), String> {
    let Some(uri) = uri::from_path(&p.path) else {
        return Ok(());
    };
    let params = lsp::PublishDiagnosticsParams {
        uri,
        diagnostics: p.diagnostics,
        version: p.version,
    };
    send(
        connection,
        Message::Notification(Notification::new(
            "textDocument/publishDiagnostics".to_owned(),
            params,
        )),
    )
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
        _ => Response::new_err(
            req.id,
            ErrorCode::MethodNotFound as i32,
            format!("unknown method {}", req.method),
        ),
    }
}
