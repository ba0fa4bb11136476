//! Errors as data.
//!
//! Every stage (syntax, board, check, eval) reports problems as [`Diagnostic`]
//! values: a code, a message, labelled spans into a [`SourceFile`], and a hint.
//! They are rendered only at the edge (the CLI and the snapshot tests), either
//! through miette in rustc's style or as JSON.

use crate::limits::{MAX_RENDERED_DIAGNOSTICS, MAX_RENDER_COLUMN};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};
use serde::Serialize;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// A byte range into one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, serde::Deserialize)]
pub struct Span {
    pub file: u32,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: u32, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// One loaded text file (a ruleset, a variant, a board, a record or a scenario).
#[derive(Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    /// Where each line starts, built on first use: finding a line is a
    /// binary search, so reporting many problems stays linear.
    lines: OnceLock<Vec<usize>>,
}

impl SourceFile {
    fn line_starts(&self) -> &[usize] {
        self.lines.get_or_init(|| {
            std::iter::once(0)
                .chain(self.text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        })
    }
    /// The byte range of the line holding `offset` (without its newline).
    fn line_of(&self, offset: usize) -> (usize, std::ops::Range<usize>) {
        let starts = self.line_starts();
        let line = starts.partition_point(|&s| s <= offset).saturating_sub(1);
        let end = starts.get(line + 1).map_or(self.text.len(), |&e| e - 1);
        (line, starts[line]..end.max(starts[line]))
    }
}

/// All files a run has read, indexed by `Span::file`.
#[derive(Debug, Default, Clone)]
pub struct Sources {
    pub files: Vec<Arc<SourceFile>>,
}

impl Sources {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> u32 {
        self.files.push(Arc::new(SourceFile {
            name: name.into(),
            text: text.into(),
            lines: OnceLock::new(),
        }));
        (self.files.len() - 1) as u32
    }
    pub fn get(&self, id: u32) -> &SourceFile {
        &self.files[id as usize]
    }
    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, file: u32, offset: u32) -> (usize, usize) {
        let f = self.get(file);
        let mut offset = (offset as usize).min(f.text.len());
        while !f.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let (line, range) = f.line_of(offset);
        (line + 1, f.text[range.start..offset].chars().count() + 1)
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
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            primary: None,
            labels: vec![],
            help: None,
        }
    }
    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
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
    /// The help, with the labels written out when the snippet is not shown.
    help: Option<String>,
    /// The file whose labels this view draws (the primary span's, or for a
    /// related view another file's).
    file: Option<u32>,
    /// The labels in other files than the primary span's (a variant's error
    /// pointing at its base), each file drawn as a note of its own after it.
    related: Vec<MietteView<'a>>,
}

impl<'a> MietteView<'a> {
    /// The notes for the labels of `d` outside the primary span's file, one
    /// per file in the order the labels name them.
    fn related(sources: &Sources, d: &'a Diagnostic) -> Vec<MietteView<'a>> {
        let Some(primary) = d.primary else {
            return vec![];
        };
        let mut files: Vec<u32> = vec![];
        for (s, _) in &d.labels {
            if s.file != primary.file && !files.contains(&s.file) {
                files.push(s.file);
            }
        }
        files
            .into_iter()
            .filter(|&f| (f as usize) < sources.files.len())
            .filter(|&f| {
                !d.labels
                    .iter()
                    .any(|(s, _)| s.file == f && too_wide(sources.get(f), *s))
            })
            .map(|f| {
                let src = sources.get(f);
                MietteView {
                    diag: d,
                    source: Some(NamedSource::new(src.name.clone(), src.text.clone())),
                    help: None,
                    file: Some(f),
                    related: vec![],
                }
            })
            .collect()
    }
}

impl fmt::Debug for MietteView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}
impl fmt::Display for MietteView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_note() {
            f.write_str("see also")
        } else {
            f.write_str(&self.diag.message)
        }
    }
}

impl MietteView<'_> {
    /// Whether this view is a note for another file's labels.
    fn is_note(&self) -> bool {
        self.file.is_some() && self.file != self.diag.primary.map(|p| p.file)
    }
}
impl std::error::Error for MietteView<'_> {}

impl miette::Diagnostic for MietteView<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        if self.is_note() {
            return None;
        }
        Some(Box::new(self.diag.code))
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related.iter().map(|r| r as &dyn miette::Diagnostic),
        ))
    }
    fn severity(&self) -> Option<miette::Severity> {
        if self.is_note() {
            return Some(miette::Severity::Advice);
        }
        Some(match self.diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.source.as_ref()?;
        let file = self.file?;
        Some(Box::new(
            self.diag
                .labels
                .iter()
                .filter(move |(s, _)| s.file == file)
                .map(|(s, l)| {
                    LabeledSpan::new(
                        Some(l.clone()),
                        s.start as usize,
                        (s.end - s.start) as usize,
                    )
                }),
        ))
    }
}

/// Renders diagnostics in rustc's style. `color` is off for snapshots and pipes;
/// the width is fixed so that snapshots do not depend on the terminal.
/// A user's text as a message may echo it: at most
/// [`crate::limits::MAX_ECHO_CHARS`] characters, then a note of how many
/// more there were.
pub fn echo(s: &str) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(crate::limits::MAX_ECHO_CHARS) {
        None => s.into(),
        Some((i, _)) => format!("{}… ({} more characters)", &s[..i], s[i..].chars().count()).into(),
    }
}

pub fn render(sources: &Sources, diags: &[Diagnostic], color: bool, width: usize) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(width)
        .with_links(false);
    let mut out = String::new();
    // Many diagnostics: the first ones are shown, the rest counted, so that
    // rendering stays linear in the size of the input.
    for d in diags.iter().take(MAX_RENDERED_DIAGNOSTICS) {
        let wide = d.primary.is_some_and(|p| {
            d.labels
                .iter()
                .any(|(s, _)| s.file == p.file && too_wide(sources.get(s.file), *s))
        });
        let (source, help) = if wide {
            // A line too wide to draw (the renderer pads to the column, and
            // widths above 65,535 panic): name the places instead.
            let places: Vec<String> = d
                .labels
                .iter()
                .map(|(s, l)| {
                    let (line, col) = sources.line_col(s.file, s.start);
                    format!("{}:{line}:{col}: {l}", sources.get(s.file).name)
                })
                .collect();
            let help = match &d.help {
                Some(h) => format!("{}\n{h}", places.join("\n")),
                None => places.join("\n"),
            };
            (None, Some(help))
        } else {
            let source = d.primary.map(|s| {
                let f = sources.get(s.file);
                NamedSource::new(f.name.clone(), f.text.clone())
            });
            (source, d.help.clone())
        };
        let related = if wide {
            vec![]
        } else {
            MietteView::related(sources, d)
        };
        let view = MietteView {
            diag: d,
            source,
            help,
            file: d.primary.map(|p| p.file),
            related,
        };
        let _ = handler.render_report(&mut out, &view);
    }
    if diags.len() > MAX_RENDERED_DIAGNOSTICS {
        out.push_str(&format!(
            "… and {} more problem(s) not shown\n",
            diags.len() - MAX_RENDERED_DIAGNOSTICS
        ));
    }
    out
}

/// Whether a span's lines, or the context line around them, are wider than
/// the renderer can draw.
fn too_wide(f: &SourceFile, s: Span) -> bool {
    let (start, end) = (s.start as usize, s.end as usize);
    if start > f.text.len() || end > f.text.len() || start > end {
        return true;
    }
    let starts = f.line_starts();
    let (first, _) = f.line_of(start);
    let (last, _) = f.line_of(end);
    (first.saturating_sub(1)..=(last + 1).min(starts.len() - 1)).any(|l| {
        let end = starts.get(l + 1).map_or(f.text.len(), |&e| e - 1);
        end.saturating_sub(starts[l]) > MAX_RENDER_COLUMN
    })
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
    /// The label's file, given only when it is not the diagnostic's (a
    /// variant's error pointing at its base).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<&'a str>,
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
                JsonLabel {
                    message: m,
                    file: (Some(s.file) != d.primary.map(|p| p.file))
                        .then(|| sources.get(s.file).name.as_str()),
                    line,
                    column,
                    start: s.start,
                    end: s.end,
                }
            })
            .collect(),
        help: d.help.as_deref(),
    }
}
