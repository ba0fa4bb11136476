//! Hover: a name's type (from the checker's side table), its declaration's
//! line and the comment lines right above it; for a builtin, its line of
//! the language reference.

use super::analysis::Analysis;
use super::names::{Key, Kind};
use super::navigate::{key_at, locate, location};
use super::Server;
use crate::diag::Span;
use lsp_types as lt;

/// The language reference, whose tables of builtins give hover's one-liners.
const REFERENCE: &str = include_str!("../../../rulesets/README.md");

pub fn hover(s: &Server, p: &lt::HoverParams) -> Option<lt::Hover> {
    let (a, file, offset) = locate(s, &p.text_document_position_params)?;
    let n = a.names();
    let o = n.at(file, offset)?;
    let mut parts = vec![];
    let key = key_at(a, file, offset);
    if let Some(ty) = type_at(a, o.span) {
        parts.push(format!("```regel\n{}: {ty}\n```", o.name));
    }
    match &key {
        Some(Key::Node(id)) => parts.push(format!("board id `{id}`")),
        Some(k) => {
            if let Some(d) = n.decls_of(k).next() {
                if parts.is_empty() || !matches!(d.kind, Kind::Local | Kind::Param) {
                    parts.push(format!("```regel\n{}\n```", line_of(a, d.span).trim()));
                }
                let doc = comment_above(a, d.span);
                if !doc.is_empty() {
                    parts.push(doc);
                }
            }
        }
        None => {
            if let Some(b) = builtin(&o.name) {
                parts.push(b);
            }
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(lt::Hover {
        contents: lt::HoverContents::Markup(lt::MarkupContent {
            kind: lt::MarkupKind::Markdown,
            value: parts.join("\n\n"),
        }),
        range: Some(location(s, a, o.span).range),
    })
}

/// The type the checker gave the expression that is exactly this name (or
/// ends with it: a field `x.name`).
pub fn type_at(a: &Analysis, sp: Span) -> Option<&str> {
    let types = &a.index.types;
    types
        .iter()
        .find(|t| t.0 == sp)
        .or_else(|| {
            types
                .iter()
                .filter(|t| t.0.file == sp.file && t.0.end == sp.end && t.0.start <= sp.start)
                .min_by_key(|t| t.0.end - t.0.start)
        })
        .map(|t| t.1.as_str())
}

fn line_of(a: &Analysis, sp: Span) -> &str {
    let text = a.text(sp.file);
    let start = text[..sp.start as usize].rfind('\n').map_or(0, |i| i + 1);
    let end = text[sp.start as usize..]
        .find('\n')
        .map_or(text.len(), |i| sp.start as usize + i);
    &text[start..end]
}

/// The `#` lines directly above a declaration's line (its doc comment).
fn comment_above(a: &Analysis, sp: Span) -> String {
    let text = a.text(sp.file);
    let start = text[..sp.start as usize].rfind('\n').map_or(0, |i| i + 1);
    let mut lines = vec![];
    for l in text[..start].lines().rev() {
        match l.trim().strip_prefix('#') {
            Some(c) => lines.push(c.trim().to_string()),
            None => break,
        }
    }
    lines.reverse();
    lines.join("\n")
}

/// The reference's line for a builtin: the row of a table whose first
/// cell names it as `name(…)`.
pub fn builtin(name: &str) -> Option<String> {
    REFERENCE
        .lines()
        .filter(|l| l.starts_with("| `"))
        .find_map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            let named = called(cells[0]).any(|n| n == name);
            (named && cells.len() >= 2)
                .then(|| format!("{} — {}", cells[0], cells[cells.len() - 1]))
        })
}

/// The names called in a table cell: `sum(x in C: n)`, `min(a, b)`.
fn called(cell: &str) -> impl Iterator<Item = &str> {
    cell.split('`').filter_map(|w| {
        let (n, _) = w.split_once('(')?;
        let n = n.trim();
        (!n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).then_some(n)
    })
}

/// Every builtin the reference's tables name, for completion.
pub fn builtins() -> Vec<&'static str> {
    let mut v: Vec<&str> = REFERENCE
        .lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|l| l.trim_matches('|').split(" | ").next())
        .flat_map(called)
        .collect();
    v.sort();
    v.dedup();
    v
}
