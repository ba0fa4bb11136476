//! Errors as data.
//!
//! Every stage (syntax, board, check, eval) reports problems as [`Diagnostic`]
//! values: a code, a message, labelled spans into a [`SourceFile`], and a hint.
//! They are rendered only at the edge (the CLI and the snapshot tests), either
//! through miette in rustc's style or as JSON.

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// A byte range into one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, serde::Deserialize)]
pub struct Span {
    pub file: u32,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: u32, start: usize, end: usize) -> Span {
        Span { file, start: start as u32, end: end as u32 }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span { file: self.file, start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}

/// One loaded text file (a ruleset, a variant, a board, a record or a scenario).
#[derive(Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

/// All files a run has read, indexed by `Span::file`.
#[derive(Debug, Default, Clone)]
pub struct Sources {
    pub files: Vec<Arc<SourceFile>>,
}

impl Sources {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> u32 {
        self.files.push(Arc::new(SourceFile { name: name.into(), text: text.into() }));
        (self.files.len() - 1) as u32
    }
    pub fn get(&self, id: u32) -> &SourceFile {
        &self.files[id as usize]
    }
    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, file: u32, offset: u32) -> (usize, usize) {
        let text = &self.get(file).text;
        let offset = (offset as usize).min(text.len());
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map(|s| s.chars().count()).unwrap_or(0) + 1;
        (line, col)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One problem found in the user's input.
#[derive(Clone, Debug, Serialize)]
pub struct Diagnostic {
    /// A stable code, e.g. `E0201`; documented in `tests/errors/README.md`.
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    /// The file the problem is in, when there is one (a missing file has none).
    #[serde(skip)]
    pub primary: Option<Span>,
    /// Labelled spans; the first is the primary one.
    #[serde(skip)]
    pub labels: Vec<(Span, String)>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic { code, severity: Severity::Error, message: message.into(), primary: None, labels: vec![], help: None }
    }
    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(code, message) }
    }
    pub fn at(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        if self.primary.is_none() {
            self.primary = Some(span);
        }
        self.labels.push((span, label.into()));
        self
    }
    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A list of diagnostics, as returned by a stage that failed.
pub type Diagnostics = Vec<Diagnostic>;

struct MietteView<'a> {
    diag: &'a Diagnostic,
    source: Option<NamedSource<String>>,
}

impl fmt::Debug for MietteView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}
impl fmt::Display for MietteView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}
impl std::error::Error for MietteView<'_> {}

impl miette::Diagnostic for MietteView<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.diag.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.diag.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let file = self.diag.primary?.file;
        Some(Box::new(self.diag.labels.iter().filter(move |(s, _)| s.file == file).map(|(s, l)| {
            LabeledSpan::new(Some(l.clone()), s.start as usize, (s.end - s.start) as usize)
        })))
    }
}

/// Renders diagnostics in rustc's style. `color` is off for snapshots and pipes;
/// the width is fixed so that snapshots do not depend on the terminal.
pub fn render(sources: &Sources, diags: &[Diagnostic], color: bool, width: usize) -> String {
    let theme = if color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(width).with_links(false);
    let mut out = String::new();
    for d in diags {
        let source = d.primary.map(|s| {
            let f = sources.get(s.file);
            NamedSource::new(f.name.clone(), f.text.clone())
        });
        let view = MietteView { diag: d, source };
        let _ = handler.render_report(&mut out, &view);
    }
    out
}

/// The JSON shape of one diagnostic for `--format json`.
#[derive(Serialize)]
pub struct JsonDiagnostic<'a> {
    pub code: &'a str,
    pub severity: Severity,
    pub message: &'a str,
    pub file: Option<&'a str>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub labels: Vec<JsonLabel<'a>>,
    pub help: Option<&'a str>,
}

#[derive(Serialize)]
pub struct JsonLabel<'a> {
    pub message: &'a str,
    pub line: usize,
    pub column: usize,
    pub start: u32,
    pub end: u32,
}

pub fn to_json<'a>(sources: &'a Sources, d: &'a Diagnostic) -> JsonDiagnostic<'a> {
    let (file, line, column) = match d.primary {
        Some(s) => {
            let (l, c) = sources.line_col(s.file, s.start);
            (Some(sources.get(s.file).name.as_str()), Some(l), Some(c))
        }
        None => (None, None, None),
    };
    JsonDiagnostic {
        code: d.code,
        severity: d.severity,
        message: &d.message,
        file,
        line,
        column,
        labels: d
            .labels
            .iter()
            .map(|(s, m)| {
                let (line, column) = sources.line_col(s.file, s.start);
                JsonLabel { message: m, line, column, start: s.start, end: s.end }
            })
            .collect(),
        help: d.help.as_deref(),
    }
}
