//! The formatter's tokens: every byte of a rules file belongs to one token,
//! comments and line ends included, because the formatter must keep what the
//! parser skips. The formatter calls it on text that `syntax::parse`
//! accepted; error recovery (`syntax/recover.rs`) on text that did not, so
//! it takes any character, and returns `None` only for a string that never
//! closes.

/// What a token is, as far as layout cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A name or a keyword (`let`, `hand`, `x`).
    Word,
    /// An integer or a node literal (`42`, `@r1c3`).
    Number,
    /// A string literal, quotes and template holes included; may span lines.
    Str,
    /// `#` to the end of the line.
    Comment,
    /// One line end.
    Newline,
    /// Punctuation or an operator (`==`, `(`, `;`, …).
    Punct,
}

/// One token: its kind and its bytes in the source.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

/// Operators of two characters, tried before single characters.
const PAIRS: &[&str] = &["==", "!=", "<=", ">=", "+=", "-=", "->", ".."];

/// The tokens of `text`, white space other than line ends left out.
pub(crate) fn tokens(text: &str) -> Option<Vec<Token>> {
    let bytes = text.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let kind = match c {
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'\n' => {
                i += 1;
                Kind::Newline
            }
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                Kind::Comment
            }
            b'"' => {
                i = string_end(bytes, i)?;
                Kind::Str
            }
            b'@' => {
                i += 1;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'-'))
                {
                    i += 1;
                }
                Kind::Number
            }
            b'0'..=b'9' => {
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                Kind::Number
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                Kind::Word
            }
            _ => {
                let rest = &text[i..];
                if let Some(p) = PAIRS.iter().find(|p| rest.starts_with(**p)) {
                    i += p.len();
                } else {
                    // Any other character is a token of its own: only error
                    // recovery meets one (`syntax/recover.rs`), in text that
                    // does not parse.
                    i += rest.chars().next().map_or(1, char::len_utf8);
                }
                Kind::Punct
            }
        };
        out.push(Token {
            kind,
            start,
            end: i,
        });
    }
    Some(out)
}

/// The byte after the closing quote of the string that opens at `i`, read
/// as the grammar's `str_inner` reads it: `{{` is a literal brace, a `{…}`
/// hole may hold quoted text, and that text may hold holes again.
fn string_end(bytes: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    while i < bytes.len() {
        if bytes[i] == b'{' && bytes.get(i + 1) == Some(&b'{') {
            i += 2;
        } else if let Some(end) = hole_end(bytes, i, 0) {
            i = end;
        } else if bytes[i] == b'"' {
            return Some(i + 1);
        } else {
            // A `{` that never closes is plain text to the grammar.
            i += 1;
        }
    }
    None
}

/// The byte after the `}` of the hole the grammar's `str_hole` accepts at
/// `i`: characters other than `}`, `"` and `{`, or quoted text, then `}`.
/// `depth` counts the holes around it; deeper than the lowering accepts
/// (`MAX_TEMPLATE_NESTING`) the hole is not followed, so that hostile
/// nesting cannot exhaust the stack.
fn hole_end(bytes: &[u8], mut i: usize, depth: u32) -> Option<usize> {
    if bytes.get(i) != Some(&b'{') || depth > crate::limits::MAX_TEMPLATE_NESTING {
        return None;
    }
    i += 1;
    loop {
        match *bytes.get(i)? {
            b'}' => return Some(i + 1),
            b'{' => return None,
            b'"' => i = hole_text_end(bytes, i, depth)?,
            _ => i += 1,
        }
    }
}

/// The byte after the closing quote of quoted text inside a hole (the
/// grammar's `hole_text`): literal braces `{{` and `}}`, holes of its own,
/// other characters but `"`, `{` and `}`. `None` if it fails, and with it
/// the hole around it.
fn hole_text_end(bytes: &[u8], mut i: usize, depth: u32) -> Option<usize> {
    i += 1;
    loop {
        match *bytes.get(i)? {
            b'"' => return Some(i + 1),
            c @ (b'{' | b'}') if bytes.get(i + 1) == Some(&c) => i += 2,
            b'{' => i = hole_end(bytes, i, depth + 1)?,
            b'}' => return None,
            _ => i += 1,
        }
    }
}
