//! Error recovery: after a syntax error, the statement or declaration that
//! holds it is set aside (its characters replaced by spaces, line ends kept,
//! so every span of the rest stays where it was) and the file is parsed
//! again, up to `limits::MAX_SYNTAX_ERRORS` times. So a file with two
//! syntax errors reports both, and the declarations that parse can still be
//! checked. What was set aside is remembered ([`SetAside`]), so that the
//! checker's complaints about it (a name it declared is now unknown) are not
//! shown as if they were new problems.

use crate::diag::{Diagnostic, Span};
use crate::fmt::layout::ends_open;
use crate::fmt::lex::{self, Kind, Token};
use std::ops::Range;

/// Words that start a declaration at the top level of a file.
const ITEM_WORDS: &[&str] = &[
    "override",
    "players",
    "seats",
    "board",
    "option",
    "const",
    "enum",
    "piece",
    "zone",
    "var",
    "fn",
    "proc",
    "phase",
    "action",
    "setup",
    "play",
    "score",
    "tiebreak",
    "team",
    "invariant",
    "statistic",
    "names",
    "display",
    "draw",
    "summary",
    "help",
];

/// Codes that say the ruleset lacks a declaration (`players`, `play`): the
/// declaration may be one that was set aside.
const ABOUT_MISSING: &[&str] = &["E0208", "E0218"];

/// What recovery set aside in one file: the byte ranges and the names in them.
#[derive(Clone, Debug, Default)]
pub struct SetAside {
    pub spans: Vec<Span>,
    /// The words of the text set aside (names it declared or used).
    pub words: Vec<String>,
}

impl SetAside {
    /// Whether a diagnostic of a later stage is worth showing next to the
    /// syntax errors: it points at text that was parsed, and names nothing
    /// that was set aside. (A declaration set aside makes its uses unknown
    /// names; a missing `play { … }` may be the one that was set aside.)
    pub fn keeps(&self, d: &Diagnostic) -> bool {
        let Some(p) = d.primary else { return false };
        if ABOUT_MISSING.contains(&d.code) {
            return false;
        }
        let inside = |s: &Span| s.file == p.file && s.start <= p.start && p.end <= s.end;
        !self.spans.iter().any(inside)
            && !self
                .words
                .iter()
                .any(|w| d.message.contains(&format!("`{w}`")))
    }
}

/// The byte range to set aside after a syntax error at `pos` of `text`, or
/// `None` when recovery should stop (the error is in the header, or in a
/// string that never closes).
pub(super) fn region(text: &str, pos: usize) -> Option<Range<usize>> {
    let toks = lex::tokens(text)?;
    let code: Vec<Token> = toks
        .iter()
        .copied()
        .filter(|t| !matches!(t.kind, Kind::Newline | Kind::Comment))
        .collect();
    let starts = line_starts(text);
    let line_of = |offset: usize| starts.partition_point(|&s| s <= offset) - 1;
    let word = |t: &Token| &text[t.start..t.end];
    // Nothing after an error in the header can be trusted.
    let header = code
        .first()
        .filter(|t| matches!(word(t), "game" | "variant"))?;
    let at = code.partition_point(|t| t.end <= pos);
    let err = code.get(at).copied();
    let prev = at.checked_sub(1).map(|i| code[i]);
    if line_of(err.or(prev)?.start) <= line_of(header.start) {
        return None;
    }
    // The first line of the statement that holds the line `l`: lines before
    // it that end unfinished belong to it (comment lines between them too).
    // Token lookups by offset are binary searches: `code` is in text order.
    let before = |offset: usize| {
        let i = code.partition_point(|t| t.start < offset);
        i.checked_sub(1).map(|i| code[i])
    };
    let stmt_start = |mut l: usize| {
        while let Some(b) = before(starts[l]).filter(|b| ends_open(text, Some(*b))) {
            l = line_of(b.start);
        }
        l
    };
    let in_item_word = |t: Token| t.start == starts[line_of(t.start)] && is_item_word(word(&t));
    // The statement at fault: the one the error token is in, or the one
    // before its line when that statement could not end there
    // (`money = money *` before a `}`, `zone z: k top` before the next
    // declaration, `fn f() -> int = n *` that took the next `play` as its
    // operand).
    let (first, last) = match err {
        Some(e) => {
            let line = line_of(e.start);
            let head = code
                .get(code.partition_point(|t| t.start < starts[line]))
                .copied()
                .unwrap_or(e);
            let b = before(starts[line]);
            let open = b.is_some_and(|b| ends_open(text, Some(b)));
            let first_on_line = head.start == e.start;
            match b {
                Some(b)
                    if (in_item_word(head) && open)
                        || (first_on_line && (open || word(&e) == "}" || in_item_word(e))) =>
                {
                    (stmt_start(line_of(b.start)), line_of(b.start))
                }
                _ if first_on_line => (line, line),
                _ => (stmt_start(line), line),
            }
        }
        None => {
            let p = prev?;
            (stmt_start(line_of(p.start)), line_of(p.start))
        }
    };
    let braces: i64 = code
        .iter()
        .filter(|t| t.start < starts[first])
        .map(|t| brace(text, t))
        .sum();
    if err.is_some() && braces > 0 {
        let range = cover_tokens(&code, starts[first]..line_end(text, starts[last]));
        if balanced(text, &code, &range) {
            return Some(range);
        }
    }
    // The whole declaration: from the line that starts it (a declaration
    // word in the first column) to the next such line.
    let item_line = (0..=first)
        .rev()
        .find(|&l| starts_item(text, &code, starts[l]))?;
    let next = (last + 1..starts.len()).find(|&l| starts_item(text, &code, starts[l]));
    let end = next.map_or(text.len(), |l| starts[l]);
    let range = cover_tokens(&code, starts[item_line]..end);
    Some(range).filter(|r| code.iter().any(|t| r.start <= t.start && t.end <= r.end))
}

fn is_item_word(w: &str) -> bool {
    ITEM_WORDS.contains(&w)
}

/// The byte offset where each line starts.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// The end of the line that starts at `start`, its line end left out.
fn line_end(text: &str, start: usize) -> usize {
    text[start..].find('\n').map_or(text.len(), |i| start + i)
}

/// `range` grown to hold whole tokens (a string may run on past a line end).
fn cover_tokens(code: &[Token], mut range: Range<usize>) -> Range<usize> {
    for t in code {
        if t.start < range.end && t.end > range.start {
            range.start = range.start.min(t.start);
            range.end = range.end.max(t.end);
        }
    }
    range
}

/// +1 for `{`, -1 for `}`, 0 for any other token.
fn brace(text: &str, t: &Token) -> i64 {
    match (t.kind, &text[t.start..t.end]) {
        (Kind::Punct, "{") => 1,
        (Kind::Punct, "}") => -1,
        _ => 0,
    }
}

/// Whether the tokens in `range` open and close their brackets evenly, so
/// that setting them aside leaves the blocks around them as they were.
fn balanced(text: &str, code: &[Token], range: &Range<usize>) -> bool {
    let mut depth = [0i64; 3];
    for t in code
        .iter()
        .filter(|t| range.start <= t.start && t.end <= range.end)
    {
        if t.kind != Kind::Punct {
            continue;
        }
        let (i, d) = match &text[t.start..t.end] {
            "{" => (0, 1),
            "}" => (0, -1),
            "(" => (1, 1),
            ")" => (1, -1),
            "[" => (2, 1),
            "]" => (2, -1),
            _ => continue,
        };
        depth[i] += d;
        if depth[i] < 0 {
            return false;
        }
    }
    depth == [0, 0, 0]
}

/// Whether the line at `start` begins with a declaration word in its first column.
fn starts_item(text: &str, code: &[Token], start: usize) -> bool {
    let i = code.partition_point(|t| t.start < start);
    code.get(i)
        .filter(|t| t.start == start)
        .is_some_and(|t| t.kind == Kind::Word && is_item_word(&text[t.start..t.end]))
}

/// `text` with `range` replaced by spaces (line ends kept), and the words
/// that were there.
pub(super) fn blank(text: &mut String, range: Range<usize>, words: &mut Vec<String>) {
    let cut = &text[range.clone()];
    for w in cut.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        let reserved = super::RESERVED.contains(&w);
        if !w.is_empty() && !reserved && !w.starts_with(|c: char| c.is_ascii_digit()) {
            words.push(w.to_string());
        }
    }
    let spaces: String = cut
        .chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect();
    // Multi-byte characters become one space each: pad to keep every offset.
    let pad = cut.len() - spaces.len();
    let mut with = spaces;
    with.extend(std::iter::repeat_n(' ', pad));
    text.replace_range(range, &with);
}
