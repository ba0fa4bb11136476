//! Syntax: the pest grammar (`grammar.pest`) and the lowering of its parse
//! tree to [`crate::ast`]. pest types never leave this module.
//!
//! Entry point: [`parse`].

mod lower;
mod names;

use crate::ast;
use crate::diag::{Diagnostic, Diagnostics, Sources, Span};
use pest::Parser;

#[derive(pest_derive::Parser)]
#[grammar = "syntax/grammar.pest"]
pub(crate) struct RulesParser;

/// Parses one rules file into an AST. A syntax error is reported as one
/// diagnostic (code E0101) naming what was expected in human words.
pub fn parse(sources: &Sources, file: u32) -> Result<ast::File, Diagnostics> {
    let text = &sources.get(file).text;
    match RulesParser::parse(Rule::file, text) {
        Ok(mut pairs) => {
            let file_pair = pairs.next().expect("the file rule always produces one pair");
            lower::file(file, file_pair)
        }
        Err(e) => Err(vec![syntax_error(file, text, e)]),
    }
}

/// Parses a `{expr}` hole of a template string (labels and `log`), whose text
/// starts at byte `offset` of `file`.
pub(crate) fn parse_hole(file: u32, text: &str, offset: usize) -> Result<ast::Expr, Diagnostic> {
    match RulesParser::parse(Rule::hole, text) {
        Ok(mut pairs) => {
            let p = pairs.next().unwrap().into_inner().next().unwrap();
            lower::expr_at(file, p, offset).map_err(|mut d| d.remove(0))
        }
        Err(e) => {
            let mut d = syntax_error(file, text, e);
            if let Some(span) = d.primary.as_mut() {
                span.start += offset as u32;
                span.end += offset as u32;
            }
            for (s, _) in d.labels.iter_mut() {
                s.start += offset as u32;
                s.end += offset as u32;
            }
            Err(d)
        }
    }
}

fn syntax_error(file: u32, text: &str, e: pest::error::Error<Rule>) -> Diagnostic {
    let (start, end) = match e.location {
        pest::error::InputLocation::Pos(p) => (p, p),
        pest::error::InputLocation::Span((s, e)) => (s, e),
    };
    // Point at the whole offending word, not at one character.
    let end = if end > start {
        end
    } else {
        let rest = &text[start..];
        let word = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len()).max(1).min(rest.len());
        start + word
    };
    let found = if start >= text.len() {
        "the end of the file".to_string()
    } else {
        format!("`{}`", &text[start..end])
    };
    let (expected, help) = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => names::expected(positives),
        pest::error::ErrorVariant::CustomError { message } => (message.clone(), None),
    };
    let span = Span::new(file, start, end);
    let mut d = Diagnostic::error("E0101", format!("syntax error: expected {expected}, found {found}"))
        .at(span, format!("expected {expected} here"));
    if let Some(h) = help {
        d = d.help(h);
    }
    d
}
