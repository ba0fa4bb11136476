//! The formatter: one canonical layout for rules files (`regel fmt`, and the
//! language server's formatting). Pure: text in, text out.
//!
//! Entry point: [`format_source`].

pub(crate) mod layout;
pub(crate) mod lex;
#[cfg(test)]
mod tests;

use crate::diag::Sources;

/// The canonical layout of a rules file, or `None` when the text does not
/// parse (a file with syntax errors is left alone). Comments are kept, only
/// white space changes, and formatting formatted text changes nothing.
pub fn format_source(text: &str) -> Option<String> {
    let mut sources = Sources::default();
    let file = sources.add("<fmt>", text);
    crate::syntax::parse(&sources, file).ok()?;
    let toks = lex::tokens(text)?;
    Some(layout::layout(text, &toks))
}
