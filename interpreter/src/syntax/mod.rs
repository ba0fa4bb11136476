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
        Err(e) => Err(vec![syntax_error(file, text, e, "the end of the file")]),
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
            let mut d = syntax_error(file, text, e, "the end of the `{…}` hole");
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

/// Words the grammar reserves (its `keyword` rule): they cannot be names.
const RESERVED: &[&str] = &[
    "continue", "override", "require", "shuffle", "choose", "return", "reveal", "break", "false", "where", "while", "else",
    "from", "hide", "move", "none", "then", "true", "with", "act", "and", "end", "for", "let", "log", "not", "if", "in",
    "is", "of", "or", "to",
];

fn syntax_error(file: u32, text: &str, e: pest::error::Error<Rule>, end_name: &str) -> Diagnostic {
    let (start, end) = match e.location {
        pest::error::InputLocation::Pos(p) => (p, p),
        pest::error::InputLocation::Span((s, e)) => (s, e),
    };
    // A string whose closing quote never comes: say so, at the opening quote.
    if text[start..].starts_with('"') && !text[start + 1..].contains('"') {
        return Diagnostic::error("E0101", "syntax error: this string is never closed")
            .at(Span::new(file, start, start + 1), "the string starts here and runs to the end of the file")
            .help("end the string with `\"`");
    }
    // Point at the whole offending word, not at one character.
    let end = if end > start {
        end
    } else {
        let rest = &text[start..];
        let word = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len()).max(1).min(rest.len());
        let mut end = start + word;
        while end < text.len() && !text.is_char_boundary(end) {
            end += 1;
        }
        end
    };
    let found_text = &text[start.min(text.len())..end.min(text.len())];
    let found = if start >= text.len() { end_name.to_string() } else { format!("`{found_text}`") };
    let (expected, mut help) = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => names::expected(positives),
        pest::error::ErrorVariant::CustomError { message } => (message.clone(), None),
    };
    // `let from = 3`: the word is fine, but reserved.
    let word: String = found_text.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    if expected.contains("a name") && RESERVED.contains(&word.as_str()) {
        help = Some(format!("`{word}` is a reserved word and cannot be a name; choose another, such as `{word}_`"));
    }
    let span = Span::new(file, start, end);
    let label = if expected.len() <= 40 { format!("expected {expected}") } else { "not expected here".to_string() };
    let mut d = Diagnostic::error("E0101", format!("syntax error: expected {expected}, found {found}")).at(span, label);
    // The file ends inside a block: show the `{` that was never closed.
    if start >= text.len() {
        if let Some(open) = unclosed_brace(text) {
            d = d.at(Span::new(file, open, open + 1), "this `{` is never closed");
            help = Some("a `}` is missing; the block that lacks it may be an inner one".to_string());
        }
    }
    if let Some(h) = help {
        d = d.help(h);
    }
    d
}

/// The outermost `{` that no `}` closes, ignoring strings and comments.
fn unclosed_brace(text: &str) -> Option<usize> {
    let mut stack = vec![];
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '#' => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '"' => {
                for (_, c) in chars.by_ref() {
                    if c == '"' {
                        break;
                    }
                }
            }
            '{' => stack.push(i),
            '}' => {
                stack.pop();
            }
            _ => {}
        }
    }
    stack.first().copied()
}
