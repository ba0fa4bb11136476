//! Formatting: the whole open text through the formatter (`regel fmt`), as
//! one edit that replaces it; no edit when the text does not parse (the
//! diagnostics say why) or is already in the canonical layout.

use super::documents::{uri_path, Lines};
use super::Server;
use lsp_types as lt;

/// The edits that put the document in the canonical layout.
pub fn formatting(s: &Server, p: &lt::DocumentFormattingParams) -> Option<Vec<lt::TextEdit>> {
    let path = uri_path(&p.text_document.uri)?;
    let text = s.docs.get(&path)?;
    let formatted = regel_core::fmt::format_source(text)?;
    if &formatted == text {
        return Some(vec![]);
    }
    let lines = Lines::new(text, s.enc);
    Some(vec![lt::TextEdit {
        range: lines.range(0, text.len()),
        new_text: formatted,
    }])
}
