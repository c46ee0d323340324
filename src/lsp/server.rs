//! The event loop: reads JSON-RPC messages ([`transport`]) and applies document changes to
//! the [`Session`] in arrival order, on the loop (they need the session exclusively); the
//! re-check an edit plans ([`CheckJob`]) runs on rayon's workers over a snapshot and comes
//! back to the loop as an event, a newer edit cancelling it; each request is answered by a
//! worker of a fixed [`Pool`] over a [`Snapshot`] taken when it arrived (as ruff's server
//! does), so hover and completion answer while a check runs. Pull diagnostics
//! (`textDocument/diagnostic`) are answered on the loop once no check is in flight;
//! workspace-wide ones (`workspace/diagnostic`) once the load sets not checked yet are, by
//! a report job on a thread of its own ([`crate::lsp::workspace_report`]). Settings are
//! pulled from a client that keeps them ([`crate::lsp::configuration`]). Between
//! the threads the channels are bounded: a client that sends faster than the server works, or
//! stops reading, is slowed down, never buffered without end.

use crate::lsp::configuration::{self, Pull};
use crate::lsp::pool::Pool;
use crate::lsp::recheck::{CheckDone, CheckJob};
use crate::lsp::session::{Publish, Session, Snapshot};
use crate::lsp::settings::Settings;
use crate::lsp::transport::{self, Incoming};
use crate::lsp::workspace_report::{SetFindings, Waiting};
use crate::lsp::{folding, formatting, inlay, links, requests, semantic, uri};
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

/// What the loop waits for: a message from the client, or a re-check done on a worker.
enum Event {
    Client(Incoming),
    Checked(CheckDone),
    /// A report job's findings (`None`: it failed), with the report epoch it was planned in.
    Reported(u64, Option<Vec<SetFindings>>),
    /// The client's input ended (the loop holds a sender of its own, for the workers, so
    /// the channel never closes by itself).
    InputEnded,
}

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
        workspace_symbol_provider: Some(lsp::OneOf::Left(true)),
        inlay_hint_provider: Some(lsp::OneOf::Left(true)),
        rename_provider: Some(lsp::OneOf::Right(lsp::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        folding_range_provider: Some(lsp::FoldingRangeProviderCapability::Simple(true)),
        semantic_tokens_provider: Some(
            lsp::SemanticTokensServerCapabilities::SemanticTokensOptions(
                lsp::SemanticTokensOptions {
                    legend: semantic::legend(),
                    full: Some(lsp::SemanticTokensFullOptions::Bool(true)),
                    range: None,
                    work_done_progress_options: Default::default(),
                },
            ),
        ),
        document_link_provider: Some(lsp::DocumentLinkOptions {
            resolve_provider: Some(false),
            work_done_progress_options: Default::default(),
        }),
        diagnostic_provider: Some(lsp::DiagnosticServerCapabilities::Options(
            lsp::DiagnosticOptions {
                identifier: Some("rulebook".to_owned()),
                // An edit in one file changes the findings of others (its load sets').
                inter_file_dependencies: true,
                workspace_diagnostics: true,
                ..Default::default()
            },
        )),
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
    let (inbox, incoming) = sync_channel::<Event>(READ_AHEAD);
    let checked = inbox.clone();
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
        Some(params) => run_loop(&incoming, &checked, &out, &pool, &params),
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
fn read_input(mut input: impl BufRead, inbox: &SyncSender<Event>) {
    // A read error (a closed or broken pipe) ends the input as its end does.
    while let Ok(Some(frame)) = transport::read(&mut input) {
        if inbox.send(Event::Client(frame)).is_err() {
            return;
        }
    }
    let _ = inbox.send(Event::InputEnded);
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
fn handshake(incoming: &Receiver<Event>, out: &Outbox) -> Option<lsp::InitializeParams> {
    loop {
        let frame = match incoming.recv().ok()? {
            Event::Client(frame) => frame,
            Event::InputEnded => return None,
            Event::Checked(_) | Event::Reported(..) => continue,
        };
        match frame {
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
    incoming: &Receiver<Event>,
    checked: &SyncSender<Event>,
    out: &Outbox,
    pool: &Pool,
    params: &lsp::InitializeParams,
) -> Ending {
    watch_data_files(out, params);
    let options = params
        .initialization_options
        .as_ref()
        .map(Settings::from_value);
    let (settings, problem) = match options {
        Some(Ok(s)) => (s, None),
        Some(Err(e)) => (Settings::default(), Some(e)),
        None => (Settings::default(), None),
    };
    let folder = workspace_root(params);
    // Asked before the workspace is read: the client answers meanwhile.
    let scope = folder.as_deref().and_then(uri::from_path);
    let mut pull = Pull::for_client(params);
    if let Some(request) = pull.request(scope.clone()) {
        out.send(&Message::Request(request));
    }
    let mut session = Session::with_settings(folder.as_deref(), settings);
    session.check_in_background();
    let mut reports = Waiting::default();
    if let Some(problem) = problem {
        show_message(out, &problem);
    }
    for m in session.take_messages() {
        show_message(out, &m);
    }
    let mut pushing = Pushing::for_client(params);
    let mut pulls: Vec<(RequestId, lsp::DocumentDiagnosticParams)> = Vec::new();
    let mut waiting: Vec<Request> = Vec::new();
    let mut shut_down = false;
    let ending = |shut_down: bool| {
        if shut_down {
            Ending::AfterShutdown
        } else {
            Ending::WithoutShutdown
        }
    };
    let mut queued: VecDeque<Event> = VecDeque::new();
    loop {
        let event = match queued.pop_front() {
            Some(m) => m,
            None => match incoming.recv() {
                Ok(m) => m,
                Err(_) => return ending(shut_down),
            },
        };
        let msg = match event {
            Event::Checked(done) => {
                let published = session.finish(done);
                pushing.publish(out, &session, published);
                if !session.is_checking() {
                    for (id, p) in pulls.drain(..) {
                        let report = pull_diagnostics(&session, &p);
                        out.send(&Message::Response(Response::new_ok(id, report)));
                    }
                    for req in waiting.drain(..) {
                        answer_on_pool(pool, out, session.snapshot(), req);
                    }
                    advance_reports(&mut reports, &mut session, out, checked);
                }
                continue;
            }
            Event::Reported(epoch, found) => {
                reports.running = false;
                match found {
                    Some(found) => session.take_findings(epoch, found),
                    None => {
                        for (id, _) in reports.pulls.drain(..) {
                            out.send(&Message::Response(Response::new_err(
                                id,
                                ErrorCode::InternalError as i32,
                                "rulebook failed to check the workspace".to_owned(),
                            )));
                        }
                    }
                }
                advance_reports(&mut reports, &mut session, out, checked);
                continue;
            }
            Event::InputEnded => return ending(shut_down),
            Event::Client(Incoming::Invalid(e)) => {
                out.send_value(e);
                continue;
            }
            Event::Client(Incoming::Message(m)) => m,
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
            Message::Request(req) if req.method == PULL => {
                match serde_json::from_value::<lsp::DocumentDiagnosticParams>(req.params) {
                    // Answered once the check in flight is in: the editor agrees with CI.
                    Ok(p) if session.is_checking() => pulls.push((req.id, p)),
                    Ok(p) => {
                        let report = pull_diagnostics(&session, &p);
                        out.send(&Message::Response(Response::new_ok(req.id, report)));
                    }
                    Err(e) => out.send(&Message::Response(Response::new_err(
                        req.id,
                        ErrorCode::InvalidParams as i32,
                        e.to_string(),
                    ))),
                }
            }
            Message::Request(req) if req.method == WORKSPACE_PULL => {
                match serde_json::from_value::<lsp::WorkspaceDiagnosticParams>(req.params) {
                    Ok(p) => {
                        reports.pulls.push((req.id, p.previous_result_ids));
                        advance_reports(&mut reports, &mut session, out, checked);
                    }
                    Err(e) => out.send(&Message::Response(Response::new_err(
                        req.id,
                        ErrorCode::InvalidParams as i32,
                        e.to_string(),
                    ))),
                }
            }
            Message::Request(req) => {
                // Answered off the loop, over a snapshot: a slow answer never holds up edits.
                // While a check runs, the last one answers, unless the editor's text at the
                // request's line is not what it checked: that request waits for the check.
                let snap = session.snapshot();
                if session.is_checking()
                    && waiting.len() < REQUEST_QUEUE
                    && !agrees_at_request(&snap, &req)
                {
                    waiting.push(req);
                } else {
                    answer_on_pool(pool, out, snap, req);
                }
            }
            Message::Notification(n) if n.method == "exit" => return ending(shut_down),
            Message::Notification(_) if shut_down => {}
            Message::Notification(n) if configuration::says_pull(&n) => {
                // Settings changed in a client that keeps them: ask it for them.
                if let Some(request) = pull.request(scope.clone()) {
                    out.send(&Message::Request(request));
                }
            }
            Message::Notification(n) => {
                let n = latest_change(incoming, n, &mut queued);
                let published = notify(&mut session, n);
                after_change(&mut session, out, &mut pushing, checked, published);
            }
            Message::Response(r) if Pull::answered_by(&r) => match pull.settings(r) {
                Some(Ok(settings)) if settings != *session.settings() => {
                    let published = session.configure(settings);
                    after_change(&mut session, out, &mut pushing, checked, published);
                }
                Some(Err(problem)) => show_message(out, &problem),
                _ => {}
            },
            Message::Response(_) => {}
        }
    }
}

/// What follows a change of the session's state: the diagnostics that changed published,
/// the messages for the user shown, the re-check it planned started.
fn after_change(
    session: &mut Session,
    out: &Outbox,
    pushing: &mut Pushing,
    to_loop: &SyncSender<Event>,
    published: Vec<Publish>,
) {
    pushing.publish(out, session, published);
    for m in session.take_messages() {
        show_message(out, &m);
    }
    if let Some(job) = session.take_job() {
        run_check(job, to_loop);
    }
}

/// Moves the waiting workspace pulls on: while a check runs they wait for it; else a
/// report job checks the load sets whose findings are not known yet (one job at a time, on
/// a thread of its own); once none is left, each pull gets the report.
fn advance_reports(
    reports: &mut Waiting,
    session: &mut Session,
    out: &Outbox,
    to_loop: &SyncSender<Event>,
) {
    if reports.pulls.is_empty() || reports.running || session.is_checking() {
        return;
    }
    let Some(job) = session.report_job() else {
        for (id, previous) in reports.pulls.drain(..) {
            let report = session.workspace_report(&previous);
            let result = lsp::WorkspaceDiagnosticReportResult::Report(report);
            out.send(&Message::Response(Response::new_ok(id, result)));
        }
        return;
    };
    reports.running = true;
    let to_loop = to_loop.clone();
    let epoch = job.epoch;
    let spawned = std::thread::Builder::new()
        .name("rulebook-lsp-report".to_owned())
        .spawn(move || {
            let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.run()));
            // The loop is gone when the session ended: nothing to tell.
            let _ = to_loop.send(Event::Reported(epoch, found.ok()));
        });
    if spawned.is_err() {
        reports.running = false;
        for (id, _) in reports.pulls.drain(..) {
            let why = "rulebook could not start checking the workspace".to_owned();
            out.send(&Message::Response(Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                why,
            )));
        }
    }
}

/// Answers `req` on a worker of `pool` over `snap`.
fn answer_on_pool(pool: &Pool, out: &Outbox, snap: Snapshot, req: Request) {
    let out = out.clone();
    pool.run(Box::new(move || {
        out.send(&Message::Response(answer_safely(&snap, req)))
    }));
}

/// True when the checked load sets agree with the editor's text where `req` asks (its
/// `position`'s or `range`'s line; the whole document without either; a request naming no
/// document agrees).
fn agrees_at_request(snap: &Snapshot, req: &Request) -> bool {
    let Some(path) = req
        .params
        .get("textDocument")
        .and_then(|d| d.get("uri"))
        .and_then(Value::as_str)
        .and_then(|u| u.parse::<lsp::Uri>().ok())
        .and_then(|u| uri::to_path(&u))
    else {
        return true;
    };
    // A rename edits the whole document: all of it must be what was checked.
    if req.method == "textDocument/rename" {
        return snap.agrees(&path, None);
    }
    let line = req
        .params
        .get("position")
        .or_else(|| req.params.get("range").and_then(|r| r.get("start")))
        .and_then(|p| p.get("line"))
        .and_then(Value::as_u64)
        .and_then(|l| usize::try_from(l).ok());
    snap.agrees(&path, line)
}

/// LSP's error code for a request that was understood and refused (a rename that is not
/// safe).
const REQUEST_FAILED: i32 = -32803;

/// The method of pull diagnostics.
const PULL: &str = "textDocument/diagnostic";

/// The method of workspace-wide pull diagnostics.
const WORKSPACE_PULL: &str = "workspace/diagnostic";

/// Runs a re-check on rayon's pool (a fixed set of threads: a burst of edits queues jobs,
/// each cancelled one ending at once, never a thread per edit) and sends the result of each
/// of its stages to the loop; a failure of the server's own (a panic) ends it with none.
fn run_check(job: CheckJob, to_loop: &SyncSender<Event>) {
    let to_loop = to_loop.clone();
    rayon::spawn(move || {
        let generation = job.generation;
        // The loop is gone when the session ended: nothing to tell.
        let send = |done: CheckDone| {
            let _ = to_loop.send(Event::Checked(done));
        };
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.run(send)));
        if run.is_err() {
            send(CheckDone {
                generation,
                checked: None,
                last: true,
            });
        }
    });
}

/// The diagnostics of one document for `textDocument/diagnostic`: what was last published
/// for it (the loop answers once no check is in flight).
fn pull_diagnostics(
    session: &Session,
    p: &lsp::DocumentDiagnosticParams,
) -> lsp::DocumentDiagnosticReportResult {
    let items = uri::to_path(&p.text_document.uri)
        .map(|path| session.published(&path))
        .unwrap_or_default();
    lsp::DocumentDiagnosticReportResult::Report(lsp::DocumentDiagnosticReport::Full(
        lsp::RelatedFullDocumentDiagnosticReport {
            related_documents: None,
            full_document_diagnostic_report: lsp::FullDocumentDiagnosticReport {
                result_id: None,
                items,
            },
        },
    ))
}

/// How diagnostics reach the client: pushed (`publishDiagnostics`), or, for a client that
/// pulls (it announced `textDocument.diagnostic`), pulled for open documents — pushing them
/// too would show each twice — with a `workspace/diagnostic/refresh` when theirs changed,
/// while closed files' are still pushed.
struct Pushing {
    pulls: bool,
    refresh: bool,
    refreshes: u64,
}

impl Pushing {
    fn for_client(params: &lsp::InitializeParams) -> Self {
        let caps = &params.capabilities;
        Pushing {
            pulls: caps
                .text_document
                .as_ref()
                .is_some_and(|t| t.diagnostic.is_some()),
            refresh: caps
                .workspace
                .as_ref()
                .and_then(|w| w.diagnostic.as_ref())
                .and_then(|d| d.refresh_support)
                .unwrap_or(false),
            refreshes: 0,
        }
    }

    fn publish(&mut self, out: &Outbox, session: &Session, published: Vec<Publish>) {
        let mut pulled_changed = false;
        for p in published {
            if self.pulls && session.is_open(&p.path) {
                pulled_changed = true;
                continue;
            }
            publish(out, p);
        }
        if pulled_changed && self.refresh {
            self.refreshes += 1;
            let id = RequestId::from(format!("rulebook/refresh-{}", self.refreshes));
            out.send(&Message::Request(Request::new(
                id,
                "workspace/diagnostic/refresh".to_owned(),
                (),
            )));
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
/// (game-mode files are LSTs too)
/// and `rulebook.toml` (the workspace's settings).
const WATCHED_GLOBS: [&str; 3] = ["**/*.[pP][cC][cC]", "**/*.[lL][sS][tT]", "**/rulebook.toml"];

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
    incoming: &Receiver<Event>,
    mut n: Notification,
    queued: &mut VecDeque<Event>,
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
    while let Some(Event::Client(Incoming::Message(Message::Notification(next)))) = queued.front() {
        if next.method != CHANGE || doc(next) != doc(&n) {
            break;
        }
        match queued.pop_front() {
            Some(Event::Client(Incoming::Message(Message::Notification(next)))) => n = next,
            _ => break,
        }
    }
    n
}

/// Tells the user something the server could not act on (a setting naming no code, a
/// `rulebook.toml` that does not parse), as a warning the editor shows.
fn show_message(out: &Outbox, message: &str) {
    let params = lsp::ShowMessageParams {
        typ: lsp::MessageType::WARNING,
        message: message.to_owned(),
    };
    out.send(&Message::Notification(Notification::new(
        "window/showMessage".to_owned(),
        params,
    )));
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
        "workspace/didChangeConfiguration" => {
            let Some(p) = params::<lsp::DidChangeConfigurationParams>(n) else {
                return Vec::new();
            };
            // No settings (null): the loop pulls them from a client that keeps them.
            if p.settings.is_null() {
                return Vec::new();
            }
            match Settings::from_value(&p.settings) {
                // The same settings again (eglot sends them on connecting): nothing changes.
                Ok(settings) if settings == *session.settings() => Vec::new(),
                Ok(settings) => session.configure(settings),
                Err(e) => {
                    session.tell(e);
                    Vec::new()
                }
            }
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
    /// A request refused with the reason (LSP's RequestFailed), for the editor to show.
    fn refusable<P: DeserializeOwned, R: Serialize>(
        req: Request,
        f: impl FnOnce(&P) -> Result<R, String>,
    ) -> Response {
        match serde_json::from_value::<P>(req.params) {
            Ok(p) => match f(&p) {
                Ok(r) => Response::new_ok(req.id, r),
                Err(why) => Response::new_err(req.id, REQUEST_FAILED, why),
            },
            Err(e) => Response::new_err(req.id, ErrorCode::InvalidParams as i32, e.to_string()),
        }
    }
    match req.method.as_str() {
        "textDocument/prepareRename" => refusable(req, |p| requests::prepare_rename(snap, p)),
        "textDocument/rename" => refusable(req, |p| requests::rename(snap, p)),
        "textDocument/hover" => run(req, |p| requests::hover(snap, p)),
        "textDocument/definition" => run(req, |p| requests::definition(snap, p)),
        "textDocument/references" => run(req, |p| requests::references(snap, p)),
        "textDocument/completion" => run(req, |p| requests::completion(snap, p)),
        "textDocument/codeAction" => run(req, |p| requests::code_actions(snap, p)),
        "textDocument/documentSymbol" => run(req, |p| requests::document_symbols(snap, p)),
        "textDocument/foldingRange" => run(req, |p: &lsp::FoldingRangeParams| {
            let path = uri::to_path(&p.text_document.uri)?;
            Some(folding::folding_ranges(&snap.text(&path)?))
        }),
        "textDocument/semanticTokens/full" => run(req, |p: &lsp::SemanticTokensParams| {
            let path = uri::to_path(&p.text_document.uri)?;
            let text = snap.text(&path)?;
            let known = snap
                .sets_of(&path)
                .first()
                .map_or_else(semantic::Known::nothing, |(c, f)| {
                    semantic::Known::of(c, *f)
                });
            Some(lsp::SemanticTokensResult::Tokens(lsp::SemanticTokens {
                result_id: None,
                data: semantic::tokens(&text, &known),
            }))
        }),
        "textDocument/inlayHint" => run(req, |p| inlay::inlay_hints(snap, p)),
        "workspace/symbol" => run(req, |p| requests::workspace_symbols(snap, p)),
        "textDocument/documentLink" => run(req, |p: &lsp::DocumentLinkParams| {
            links::document_links(snap, &p.text_document.uri)
        }),
        "textDocument/formatting" => run(req, |p| formatting::formatting(snap, p)),
        "textDocument/rangeFormatting" => run(req, |p| formatting::range_formatting(snap, p)),
        _ => Response::new_err(
            req.id,
            ErrorCode::MethodNotFound as i32,
            format!("unknown method {}", req.method),
        ),
    }
}
