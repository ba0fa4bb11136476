//! Syntax: the pest grammar (`grammar.pest`) and the lowering of its parse
//! tree to [`crate::ast`]. pest types never leave this module.
//!
//! Entry point: [`parse`].

mod depth;
#[cfg(test)]
mod grammar_tests;
pub mod keywords;
mod lower;
mod names;
mod recover;

pub use recover::SetAside;

use crate::ast;
use crate::diag::{Diagnostic, Diagnostics, Sources, Span};
use pest::Parser;

#[derive(pest_derive::Parser)]
#[grammar = "syntax/grammar.pest"]
pub(crate) struct RulesParser;

/// Parses one rules file into an AST. Every syntax error is reported (code
/// E0101, naming what was expected in human words), not only the first:
/// see [`parse_recovering`].
pub fn parse(sources: &Sources, file: u32) -> Result<ast::File, Diagnostics> {
    let p = parse_recovering(sources, file);
    match p.file {
        Some(ast) if p.errors.is_empty() => Ok(ast),
        _ => Err(p.errors),
    }
}

/// A file parsed with error recovery.
#[derive(Debug)]
pub struct Parsed {
    /// The syntax tree of what parsed, when the errors left one: the
    /// statements or declarations that held a syntax error are left out.
    pub file: Option<ast::File>,
    /// Every syntax error, in the order the parser met them.
    pub errors: Diagnostics,
    /// What was left out of `file`.
    pub set_aside: SetAside,
}

/// Parses one rules file, recovering after each syntax error: the statement
/// (or, if that cannot be cut out alone, the declaration) holding it is set
/// aside and the rest parsed again (`recover.rs`), at most
/// [`crate::limits::MAX_SYNTAX_ERRORS`] times (fewer for a file of several
/// megabytes: [`crate::limits::MAX_RECOVERY_BYTES`]).
pub fn parse_recovering(sources: &Sources, file: u32) -> Parsed {
    let text = &sources.get(file).text;
    let fail = |errors| Parsed {
        file: None,
        errors,
        set_aside: SetAside::default(),
    };
    if text.len() as u64 > crate::limits::MAX_FILE_BYTES {
        return fail(vec![too_large(file, text.len())]);
    }
    if let Err(d) = depth::scan(file, text, 0) {
        return fail(vec![d]);
    }
    let mut work = text.clone();
    let mut errors = vec![];
    let mut set_aside = SetAside::default();
    let most = (crate::limits::MAX_RECOVERY_BYTES / text.len().max(1))
        .clamp(1, crate::limits::MAX_SYNTAX_ERRORS);
    while errors.len() < most {
        let e = match RulesParser::parse(Rule::file, &work) {
            Ok(mut pairs) => {
                let file_pair = pairs
                    .next()
                    .expect("the file rule always produces one pair");
                // A tree with a lowering error, or an expression cut down
                // for its depth, is not checked.
                let before = errors.len();
                let ast = match lower::file(file, file_pair) {
                    Ok(mut ast) => {
                        depth::expressions(&mut ast, &mut errors);
                        Some(ast).filter(|_| errors.len() == before)
                    }
                    Err(d) => {
                        errors.extend(d);
                        None
                    }
                };
                return Parsed {
                    file: ast,
                    errors,
                    set_aside,
                };
            }
            Err(e) => e,
        };
        let pos = match e.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((s, _)) => s,
        };
        errors.push(syntax_error(file, &work, e, "the end of the file"));
        let Some(range) = recover::region(&work, pos) else {
            break;
        };
        set_aside
            .spans
            .push(Span::new(file, range.start, range.end));
        recover::blank(&mut work, range, &mut set_aside.words);
    }
    fail(errors)
}

/// Parses a `{expr}` hole of a template string (labels and `log`), whose text
/// starts at byte `offset` of `file`.
/// `depth` is how many template holes hold the text (0 for an expression
/// that is not in a template): quoted text with holes inside a hole is a
/// template again, one level deeper.
pub(crate) fn parse_hole(
    file: u32,
    text: &str,
    offset: usize,
    depth: u32,
) -> Result<ast::Expr, Diagnostic> {
    if text.len() as u64 > crate::limits::MAX_FILE_BYTES {
        return Err(too_large(file, text.len()));
    }
    depth::scan(file, text, offset)?;
    match RulesParser::parse(Rule::hole, text) {
        Ok(mut pairs) => {
            let p = pairs.next().unwrap().into_inner().next().unwrap();
            let mut e = lower::expr_at(file, p, offset, depth).map_err(|mut d| d.remove(0))?;
            let mut errors = vec![];
            depth::guard(&mut e, &mut errors);
            match errors.pop() {
                Some(d) => Err(d),
                None => Ok(e),
            }
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

/// A text too large to parse (only in-memory readers can hand one over: the
/// command line's reader refuses such files before reading them).
fn too_large(file: u32, len: usize) -> Diagnostic {
    Diagnostic::error("E0701", format!("this text of {len} bytes is larger than the limit of {} bytes", crate::limits::MAX_FILE_BYTES))
        .at(Span::new(file, 0, 0), "the file starts here")
        .help("rules files, boards, records and scenarios are limited in size; see \"Bounded execution\" in the README")
}

/// Words the grammar reserves (its `keyword` rule): they cannot be names.
pub(crate) const RESERVED: &[&str] = &[
    "continue", "override", "require", "shuffle", "choose", "return", "reveal", "break", "false",
    "where", "while", "else", "from", "hide", "move", "none", "then", "true", "with", "act", "and",
    "end", "for", "let", "log", "not", "if", "in", "is", "of", "or", "to",
];

fn syntax_error(file: u32, text: &str, e: pest::error::Error<Rule>, end_name: &str) -> Diagnostic {
    let (start, end) = match e.location {
        pest::error::InputLocation::Pos(p) => (p, p),
        pest::error::InputLocation::Span((s, e)) => (s, e),
    };
    // A string whose closing quote never comes: say so, at the opening quote.
    if text[start..].starts_with('"') && !text[start + 1..].contains('"') {
        return Diagnostic::error("E0101", "syntax error: this string is never closed")
            .at(
                Span::new(file, start, start + 1),
                "the string starts here and runs to the end of the file",
            )
            .help("end the string with `\"`");
    }
    // Point at the whole offending word, not at one character.
    let end = if end > start {
        end
    } else {
        let rest = &text[start..];
        let word = rest
            .find(|c: char| c.is_whitespace())
            .unwrap_or(rest.len())
            .max(1)
            .min(rest.len());
        let mut end = start + word;
        while end < text.len() && !text.is_char_boundary(end) {
            end += 1;
        }
        end
    };
    let found_text = &text[start.min(text.len())..end.min(text.len())];
    let found = if start >= text.len() {
        end_name.to_string()
    } else {
        format!("`{found_text}`")
    };
    let (expected, mut help) = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => names::expected(positives),
        pest::error::ErrorVariant::CustomError { message } => (message.clone(), None),
    };
    // `let from = 3`: the word is fine, but reserved.
    let word: String = found_text
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if expected.contains("a name") && RESERVED.contains(&word.as_str()) {
        help = Some(format!(
            "`{word}` is a reserved word and cannot be a name; choose another, such as `{word}_`"
        ));
    }
    let span = Span::new(file, start, end);
    let label = if expected.len() <= 40 {
        format!("expected {expected}")
    } else {
        "not expected here".to_string()
    };
    let mut d = Diagnostic::error(
        "E0101",
        format!("syntax error: expected {expected}, found {found}"),
    )
    .at(span, label);
    // The file ends inside a block: show the `{` that was never closed.
    if start >= text.len() {
        if let Some(open) = unclosed_brace(text) {
            d = d.at(Span::new(file, open, open + 1), "this `{` is never closed");
            help =
                Some("a `}` is missing; the block that lacks it may be an inner one".to_string());
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
