//! The canonical layout, written token by token. Only white space changes:
//! the tokens, their order, the line ends between them and every comment are
//! kept, so the formatted file parses to the same program (newlines and `;`
//! are white space to the grammar). What is canonical:
//!
//! - indentation is two spaces per open `{`; a line that continues an
//!   expression or a declaration is indented one step more than the line it
//!   continues, or keeps a deeper alignment it already had (relative to that
//!   line), so hanging alignments under an open bracket survive;
//! - one space between tokens, none inside brackets, before `,`, `:`, `;`
//!   or `)`, around `.` and `..`, after a unary minus, between a name and the
//!   `(` or `[` that follows it; `{ a }` on one line has a space inside, and
//!   so has an empty `{ }`;
//! - a comment after code keeps its distance from the code (at least one
//!   space), so aligned comments stay aligned;
//! - no trailing white space; at most two blank lines in a row between
//!   declarations and one inside braces (so that no shipped rule moved to
//!   another line, which records and snapshots cite); none at the start or
//!   end of the file, which ends with one line end.

use super::lex::{Kind, Token};
// A `(` or `[` after a reserved word is not a call or an index.
use crate::syntax::RESERVED;

/// Words after which a line cannot have ended its statement or declaration,
/// and words that cannot start one: a line after the first kind, or starting
/// with the second, continues the line before it.
const JOINING_WORDS: &[&str] = &[
    "and", "or", "not", "where", "then", "else", "in", "is", "of", "from", "with", "to", "if",
    "label", "help", "extends", "per", "lowest", "unless",
];
/// Punctuation that cannot end a statement (a line ending with it continues).
const OPEN_ENDS: &[&str] = &[
    "==", "!=", "<=", ">=", "+=", "-=", "->", "..", "+", "-", "*", "/", "%", "<", ">", "=", ".",
    ":", ",",
];
/// Punctuation that cannot start a statement (a line starting with it continues).
const CONTINUING_STARTS: &[&str] = &[
    "==", "!=", "<=", ">=", "+=", "-=", "->", "..", "+", "*", "/", "%", "<", ">", "=", ".", ",",
    ":", ")", "]",
];

/// How a line of the input relates to the statement structure.
struct Line<'t> {
    /// The line's tokens, its line end left out.
    toks: &'t [Token],
    /// Columns of indentation the line had in the input.
    indent: usize,
}

/// The whole text laid out again.
pub(crate) fn layout(text: &str, toks: &[Token]) -> String {
    let lines = split_lines(text, toks);
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut braces: usize = 0;
    // For each open `{`: whether it holds a list (members, fields, pieces)
    // rather than statements; the word that starts the declaration decides.
    let mut lists: Vec<bool> = vec![];
    let mut stmt_word = "";
    let mut brackets: usize = 0;
    // The last line that started a statement: its indentation before and after.
    let mut base = (0usize, 0usize);
    let mut prev_code: Option<Token> = None;
    let mut code_before_prev: Option<Token> = None;
    let mut blank_run = 0;
    let mut wrote_any = false;
    for line in &lines {
        if line.toks.is_empty() {
            blank_run += 1;
            continue;
        }
        // Two blank lines may part declarations, one parts statements.
        let most = if braces == 0 { 2 } else { 1 };
        for _ in 0..blank_run.min(most) {
            if wrote_any {
                out.push('\n');
            }
        }
        blank_run = 0;
        let first = line.toks[0];
        let first_text = &text[first.start..first.end];
        let closes = first.kind == Kind::Punct && first_text == "}";
        let level = braces.saturating_sub(usize::from(closes));
        let block_indent = 2 * level;
        let comment_only = first.kind == Kind::Comment;
        // A `,` ends a member, not an unfinished line, in the braces of an
        // enumeration, a piece kind or `names`.
        let in_list = lists.last().copied().unwrap_or(false);
        // `invariant "TEXT"` at the end of a line: its condition follows.
        let bare_invariant = stmt_word == "invariant"
            && prev_code.is_some_and(|t| t.kind == Kind::Str)
            && code_before_prev.is_some_and(|t| &text[t.start..t.end] == "invariant");
        let open_end = bare_invariant
            || (ends_open(text, prev_code) && !(in_list && is(text, prev_code, ",")));
        let after_block = is(text, prev_code, "}");
        let continues = brackets > 0
            || open_end
            || (!comment_only && !after_block && starts_joined(text, first));
        let indent = if continues {
            let minimum = if matches!(first_text, ")" | "]") {
                0
            } else {
                2
            };
            base.1 + minimum.max(line.indent.saturating_sub(base.0))
        } else {
            if !comment_only {
                base = (line.indent, block_indent);
                stmt_word = &text[first.start..first.end];
                if stmt_word == "override" {
                    stmt_word = line.toks.get(1).map_or("", |t| &text[t.start..t.end]);
                }
            }
            block_indent
        };
        for _ in 0..indent {
            out.push(' ');
        }
        write_line(text, line.toks, &mut out);
        out.push('\n');
        wrote_any = true;
        for t in line.toks {
            if t.kind == Kind::Punct {
                match &text[t.start..t.end] {
                    "{" => {
                        braces += 1;
                        let parent = lists.last().copied().unwrap_or(false);
                        lists.push(parent || matches!(stmt_word, "enum" | "piece" | "names"));
                    }
                    "}" => {
                        braces = braces.saturating_sub(1);
                        lists.pop();
                    }
                    "(" | "[" => brackets += 1,
                    ")" | "]" => brackets = brackets.saturating_sub(1),
                    _ => {}
                }
            }
            if t.kind != Kind::Comment {
                code_before_prev = prev_code;
                prev_code = Some(*t);
            }
        }
        // A block opened or closed on this line starts the next statement afresh.
        if let Some(last) = prev_code {
            if last.kind == Kind::Punct && matches!(&text[last.start..last.end], "{" | "}") {
                base = (line.indent, block_indent);
            }
        }
    }
    if out.is_empty() {
        out.push('\n');
    }
    out
}

/// The input cut at its line ends (a string's own line ends stay inside it).
fn split_lines<'t>(text: &str, toks: &'t [Token]) -> Vec<Line<'t>> {
    let mut lines = vec![];
    let mut start = 0;
    let mut line_start = 0;
    for (i, t) in toks.iter().enumerate() {
        if t.kind == Kind::Newline {
            lines.push(line(text, &toks[start..i], line_start));
            start = i + 1;
            line_start = t.end;
        }
    }
    lines.push(line(text, &toks[start..], line_start));
    lines
}

fn line<'t>(text: &str, toks: &'t [Token], line_start: usize) -> Line<'t> {
    let indent = match toks.first() {
        Some(t) => text[line_start..t.start]
            .chars()
            .map(|c| if c == '\t' { 2 } else { 1 })
            .sum(),
        None => 0,
    };
    Line { toks, indent }
}

/// Whether `t` is the punctuation `p`.
fn is(text: &str, t: Option<Token>, p: &str) -> bool {
    t.is_some_and(|t| t.kind == Kind::Punct && &text[t.start..t.end] == p)
}

/// Whether the code before a line leaves its statement unfinished (also
/// asked by error recovery, `syntax/recover.rs`).
pub(crate) fn ends_open(text: &str, prev: Option<Token>) -> bool {
    let Some(t) = prev else { return false };
    let s = &text[t.start..t.end];
    match t.kind {
        Kind::Word => JOINING_WORDS.contains(&s),
        Kind::Punct => OPEN_ENDS.contains(&s) || s == "(" || s == "[",
        _ => false,
    }
}

/// Whether a line's first token cannot start a statement or a declaration.
fn starts_joined(text: &str, first: Token) -> bool {
    let s = &text[first.start..first.end];
    match first.kind {
        // `} else {` and `else` after a closed block start no continuation.
        Kind::Word => JOINING_WORDS.contains(&s) && s != "if",
        Kind::Punct => CONTINUING_STARTS.contains(&s),
        _ => false,
    }
}

/// One line's tokens with canonical spaces between them.
fn write_line(text: &str, toks: &[Token], out: &mut String) {
    let mut prev: Option<Token> = None;
    let mut before_prev: Option<Token> = None;
    let mut unary = false;
    for &t in toks {
        let s = &text[t.start..t.end];
        if let Some(p) = prev {
            if t.kind == Kind::Comment {
                let gap = text[p.end..t.start].chars().count().max(1);
                for _ in 0..gap {
                    out.push(' ');
                }
            } else if space_between(text, before_prev, p, t, unary) {
                out.push(' ');
            }
        }
        unary = s == "-" && t.kind == Kind::Punct && is_unary_position(text, prev);
        out.push_str(s);
        before_prev = prev;
        prev = Some(t);
    }
}

/// Whether a `-` after `prev` is a minus sign rather than a subtraction.
fn is_unary_position(text: &str, prev: Option<Token>) -> bool {
    let Some(p) = prev else { return true };
    let s = &text[p.start..p.end];
    match p.kind {
        Kind::Punct => !matches!(s, ")" | "]" | "}"),
        Kind::Word => RESERVED.contains(&s) && !matches!(s, "true" | "false" | "none"),
        _ => false,
    }
}

/// Whether one space goes between `a` and `b` (`a` preceded by `before`).
fn space_between(text: &str, before: Option<Token>, a: Token, b: Token, a_is_unary: bool) -> bool {
    let at = &text[a.start..a.end];
    let bt = &text[b.start..b.end];
    let a_punct = a.kind == Kind::Punct;
    let b_punct = b.kind == Kind::Punct;
    if a_is_unary {
        return false;
    }
    if a_punct && matches!(at, "(" | "[" | "." | "..") {
        return false;
    }
    if b_punct && matches!(bt, ")" | "]" | "," | ":" | ";" | "." | "..") {
        return false;
    }
    if b_punct && matches!(bt, "(" | "[") {
        return match a.kind {
            // `move all (…) where …`: `all` is a word of `move` there.
            Kind::Word => {
                RESERVED.contains(&at)
                    || (at == "all" && before.is_some_and(|p| &text[p.start..p.end] == "move"))
            }
            // `display "points"(p)`: the parameter of a display.
            Kind::Str => before.is_none_or(|p| &text[p.start..p.end] != "display"),
            Kind::Punct => !matches!(at, ")" | "]"),
            _ => true,
        };
    }
    true
}
