//! Code actions from the diagnostics' hints: a "did you mean `x`?" replaces
//! the misspelt name, and "write `override` in front" inserts it.

use super::documents::uri_path;
use super::Server;
use lsp_types as lt;
use std::collections::HashMap;

/// The quick fixes for the diagnostics the client sends back.
pub fn code_actions(s: &Server, p: &lt::CodeActionParams) -> Vec<lt::CodeActionOrCommand> {
    let uri = &p.text_document.uri;
    let text = uri_path(uri).and_then(|path| s.docs.get(&path).cloned());
    let mut out = vec![];
    for d in &p.context.diagnostics {
        let Some(help) = d
            .data
            .as_ref()
            .and_then(|v| v.get("help"))
            .and_then(|h| h.as_str())
        else {
            continue;
        };
        let fix = if let Some(name) = suggestion(help) {
            // `did you mean `@x`?` for a node: the span may or may not hold the `@`.
            let current = text
                .as_deref()
                .map(|t| slice(s, t, d.range))
                .unwrap_or_default();
            let name = if name.starts_with('@') && !current.starts_with('@') {
                name[1..].to_string()
            } else {
                name
            };
            Some((format!("replace with `{name}`"), d.range, name))
        } else if help.contains("write `override` in front") {
            let at = lt::Range::new(d.range.start, d.range.start);
            Some(("add `override`".to_string(), at, "override ".to_string()))
        } else {
            None
        };
        let Some((title, range, new_text)) = fix else {
            continue;
        };
        let edit = lt::WorkspaceEdit {
            changes: Some(HashMap::from([(
                uri.clone(),
                vec![lt::TextEdit::new(range, new_text)],
            )])),
            ..Default::default()
        };
        out.push(lt::CodeActionOrCommand::CodeAction(lt::CodeAction {
            title,
            kind: Some(lt::CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![d.clone()]),
            edit: Some(edit),
            is_preferred: Some(true),
            ..Default::default()
        }));
    }
    out
}

/// The name in a "did you mean `name`?" hint.
pub fn suggestion(help: &str) -> Option<String> {
    let rest = help.split("did you mean `").nth(1)?;
    Some(rest.split('`').next()?.to_string())
}

fn slice(s: &Server, text: &str, r: lt::Range) -> String {
    let lines = super::documents::Lines::new(text, s.enc);
    let (a, b) = (lines.offset(r.start), lines.offset(r.end));
    text.get(a..b.max(a)).unwrap_or("").to_string()
}
