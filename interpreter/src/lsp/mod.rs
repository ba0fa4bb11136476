//! `regel lsp`: the language server, on stdio, synchronous (`lsp-server`:
//! one loop reading messages, no async runtime). Entry: [`run_stdio`].
//!
//! The editor's open buffers are an overlay over the disk ([`documents`]);
//! every open rules file is checked through it as a ruleset of its own
//! ([`analysis`]), a board file through the rules files beside it that name
//! it. Diagnostics are published after the edits stop for a moment
//! ([`DEBOUNCE`]); a request first brings the analyses up to date. Each
//! feature is a module with one entry function.

mod actions;
mod analysis;
mod complete;
mod diagnostics;
mod documents;
mod format;
mod hover;
mod names;
mod navigate;
mod symbols;
mod tokens;

use analysis::Analysis;
use documents::{path_uri, uri_path, Documents, Encoding};
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types as lt;
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long the server waits after an edit for another one before checking.
const DEBOUNCE: Duration = Duration::from_millis(10);
/// Typing that never pauses still gets diagnostics this often.
const MAX_DELAY: Duration = Duration::from_millis(250);

/// Serves the protocol on stdin and stdout until the client exits; returns
/// the process's exit code.
pub fn run_stdio() -> i32 {
    let (conn, io) = Connection::stdio();
    let code = match serve(&conn) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("regel lsp: {e}");
            1
        }
    };
    drop(conn);
    let _ = io.join();
    code
}

type Fallible<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// The handshake, then the loop.
pub fn serve(conn: &Connection) -> Fallible<()> {
    let (id, params) = conn.initialize_start()?;
    let init: lt::InitializeParams = serde_json::from_value(params)?;
    let enc = negotiate(&init);
    let result = serde_json::json!({
        "capabilities": capabilities(enc),
        "serverInfo": { "name": "regel", "version": env!("CARGO_PKG_VERSION") },
    });
    conn.initialize_finish(id, result)?;
    Server::new(enc).main_loop(conn)
}

/// UTF-8 when the client offers it (no conversion), else UTF-16, which
/// every client understands.
fn negotiate(init: &lt::InitializeParams) -> Encoding {
    let offered = init
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref());
    match offered {
        Some(list) if list.contains(&lt::PositionEncodingKind::UTF8) => Encoding::Utf8,
        _ => Encoding::Utf16,
    }
}

fn capabilities(enc: Encoding) -> lt::ServerCapabilities {
    lt::ServerCapabilities {
        position_encoding: Some(match enc {
            Encoding::Utf8 => lt::PositionEncodingKind::UTF8,
            Encoding::Utf16 => lt::PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(lt::TextDocumentSyncCapability::Kind(
            lt::TextDocumentSyncKind::FULL,
        )),
        code_action_provider: Some(lt::CodeActionProviderCapability::Simple(true)),
        hover_provider: Some(lt::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lt::OneOf::Left(true)),
        references_provider: Some(lt::OneOf::Left(true)),
        rename_provider: Some(lt::OneOf::Right(lt::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_symbol_provider: Some(lt::OneOf::Left(true)),
        completion_provider: Some(lt::CompletionOptions {
            trigger_characters: Some(vec![".".into(), "@".into()]),
            ..Default::default()
        }),
        semantic_tokens_provider: Some(
            lt::SemanticTokensOptions {
                legend: tokens::legend(),
                full: Some(lt::SemanticTokensFullOptions::Bool(true)),
                range: None,
                ..Default::default()
            }
            .into(),
        ),
        document_formatting_provider: Some(lt::OneOf::Left(true)),
        ..Default::default()
    }
}

/// The server's state between messages.
pub struct Server {
    enc: Encoding,
    docs: Documents,
    /// The latest analysis of each ruleset checked, by its root file.
    analyses: BTreeMap<PathBuf, Analysis>,
    /// Files that were given diagnostics last time (to clear them).
    published: BTreeSet<PathBuf>,
    /// When the first edit not yet checked arrived.
    dirty: Option<Instant>,
}

impl Server {
    pub fn new(enc: Encoding) -> Server {
        Server {
            enc,
            docs: Documents::default(),
            analyses: BTreeMap::new(),
            published: BTreeSet::new(),
            dirty: None,
        }
    }

    fn main_loop(&mut self, conn: &Connection) -> Fallible<()> {
        loop {
            let msg = match self.dirty {
                Some(since) => {
                    let wait = if since.elapsed() >= MAX_DELAY {
                        Duration::ZERO
                    } else {
                        DEBOUNCE
                    };
                    match conn.receiver.recv_timeout(wait) {
                        Ok(m) => m,
                        Err(crossbeam_timeout) if crossbeam_timeout.is_timeout() => {
                            self.refresh(conn)?;
                            continue;
                        }
                        Err(_) => return Ok(()),
                    }
                }
                None => match conn.receiver.recv() {
                    Ok(m) => m,
                    Err(_) => return Ok(()),
                },
            };
            match msg {
                Message::Request(req) => {
                    if conn.handle_shutdown(&req)? {
                        return Ok(());
                    }
                    if self.dirty.is_some() {
                        self.refresh(conn)?;
                    }
                    let resp = self.request(req);
                    conn.sender.send(Message::Response(resp))?;
                }
                Message::Notification(n) => self.notification(n),
                Message::Response(_) => {}
            }
        }
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            lt::notification::DidOpenTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lt::DidOpenTextDocumentParams>(n.params) {
                    if let Some(path) = uri_path(&p.text_document.uri) {
                        self.docs.set(path, p.text_document.text);
                        self.touch();
                    }
                }
            }
            lt::notification::DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lt::DidChangeTextDocumentParams>(n.params) {
                    // Full synchronisation: the last change is the whole text.
                    if let (Some(path), Some(c)) = (
                        uri_path(&p.text_document.uri),
                        p.content_changes.into_iter().last(),
                    ) {
                        self.docs.set(path, c.text);
                        self.touch();
                    }
                }
            }
            lt::notification::DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lt::DidCloseTextDocumentParams>(n.params) {
                    if let Some(path) = uri_path(&p.text_document.uri) {
                        self.docs.close(&path);
                        self.touch();
                    }
                }
            }
            _ => {}
        }
    }

    fn touch(&mut self) {
        self.dirty.get_or_insert_with(Instant::now);
    }

    /// The rulesets to check: every open rules file, and for an open board
    /// file no open ruleset reads, the rules files beside it that name it.
    fn roots(&self) -> Vec<PathBuf> {
        let open = self.docs.paths();
        let mut roots: Vec<PathBuf> = open
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "rules"))
            .cloned()
            .collect();
        for toml in open
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        {
            let read_by_open = roots
                .iter()
                .filter_map(|r| self.analyses.get(r))
                .any(|a| a.file_id(toml).is_some());
            if read_by_open {
                continue;
            }
            if let Some(r) = rules_naming(toml, &self.docs) {
                if !roots.contains(&r) {
                    roots.push(r);
                }
            }
        }
        roots
    }

    /// Checks every ruleset again and publishes the diagnostics of the open files.
    fn refresh(&mut self, conn: &Connection) -> Fallible<()> {
        self.dirty = None;
        let roots = self.roots();
        let mut analyses = BTreeMap::new();
        for r in roots {
            let a = Analysis::run(&r, &self.docs);
            analyses.insert(r, a);
        }
        self.analyses = analyses;
        let all: Vec<&Analysis> = self.analyses.values().collect();
        let mut by_file = diagnostics::by_file(&all, self.enc);
        let open: BTreeSet<PathBuf> = self.docs.paths().into_iter().collect();
        let mut now = BTreeSet::new();
        for path in open.union(&self.published) {
            let diags = if open.contains(path) {
                by_file.remove(path).unwrap_or_default()
            } else {
                vec![]
            };
            if !diags.is_empty() {
                now.insert(path.clone());
            }
            let params = lt::PublishDiagnosticsParams::new(path_uri(path), diags, None);
            conn.sender.send(Message::Notification(Notification::new(
                lt::notification::PublishDiagnostics::METHOD.to_string(),
                params,
            )))?;
        }
        self.published = now;
        Ok(())
    }

    /// The analysis that read `path` (the one rooted there first).
    fn analysis_of(&self, path: &Path) -> Option<&Analysis> {
        self.analyses
            .get(path)
            .or_else(|| self.analyses.values().find(|a| a.file_id(path).is_some()))
    }

    fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        let result = match req.method.as_str() {
            lt::request::CodeActionRequest::METHOD => self
                .with(req, |s, p: lt::CodeActionParams| {
                    actions::code_actions(s, &p)
                }),
            lt::request::HoverRequest::METHOD => {
                self.with(req, |s, p: lt::HoverParams| hover::hover(s, &p))
            }
            lt::request::GotoDefinition::METHOD => self
                .with(req, |s, p: lt::GotoDefinitionParams| {
                    navigate::definition(s, &p)
                }),
            lt::request::References::METHOD => {
                self.with(req, |s, p: lt::ReferenceParams| navigate::references(s, &p))
            }
            lt::request::PrepareRenameRequest::METHOD => self
                .with(req, |s, p: lt::TextDocumentPositionParams| {
                    navigate::prepare_rename(s, &p)
                }),
            lt::request::Rename::METHOD => serde_json::from_value(req.params)
                .map_err(|e| e.to_string())
                .and_then(|p: lt::RenameParams| navigate::rename(self, &p))
                .and_then(|r| serde_json::to_value(r).map_err(|e| e.to_string())),
            lt::request::DocumentSymbolRequest::METHOD => self
                .with(req, |s, p: lt::DocumentSymbolParams| {
                    symbols::document_symbols(s, &p)
                }),
            lt::request::Completion::METHOD => self.with(req, |s, p: lt::CompletionParams| {
                complete::completion(s, &p)
            }),
            lt::request::SemanticTokensFullRequest::METHOD => {
                self.with(req, |s, p: lt::SemanticTokensParams| tokens::full(s, &p))
            }
            lt::request::Formatting::METHOD => self
                .with(req, |s, p: lt::DocumentFormattingParams| {
                    format::formatting(s, &p)
                }),
            _ => {
                return Response::new_err(
                    id,
                    lsp_server::ErrorCode::MethodNotFound as i32,
                    format!("unsupported request {}", req.method),
                )
            }
        };
        match result {
            Ok(v) => Response::new_ok(id, v),
            Err(e) => Response::new_err(id, lsp_server::ErrorCode::InvalidParams as i32, e),
        }
    }

    /// Decodes a request's parameters and encodes the handler's answer.
    fn with<P: serde::de::DeserializeOwned, R: serde::Serialize>(
        &self,
        req: Request,
        f: impl FnOnce(&Server, P) -> R,
    ) -> Result<serde_json::Value, String> {
        let p: P = serde_json::from_value(req.params).map_err(|e| e.to_string())?;
        serde_json::to_value(f(self, p)).map_err(|e| e.to_string())
    }
}

/// A rules file in the board file's folder whose text names it, by path
/// order (checked through the overlay, so an unsaved `board` line counts).
fn rules_naming(toml: &Path, docs: &Documents) -> Option<PathBuf> {
    let dir = toml.parent()?;
    let name = toml.file_name()?.to_string_lossy().into_owned();
    let mut candidates: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .collect();
    candidates.sort();
    candidates.into_iter().find(|p| {
        docs.read(p)
            .is_ok_and(|t| t.contains(&format!("\"{name}\"")))
    })
}
