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
/// as the grammar's `str_inner` reads it: `{{` is a literal brace, and inside
/// a `{…}` hole a quote opens text that ends at the next quote.
fn string_end(bytes: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    let mut in_hole = false;
    while i < bytes.len() {
        let c = bytes[i];
        if in_hole {
            match c {
                b'"' => {
                    i += 1;
                    while *bytes.get(i)? != b'"' {
                        i += 1;
                    }
                }
                b'}' => in_hole = false,
                _ => {}
            }
            i += 1;
        } else if c == b'{' && bytes.get(i + 1) == Some(&b'{') {
            i += 2;
        } else if c == b'"' {
            return Some(i + 1);
        } else {
            // A `{` that never closes is plain text to the grammar; a hole
            // that meets a quote before its `}` is not a hole either.
            if c == b'{' && hole_closes(bytes, i) {
                in_hole = true;
            }
            i += 1;
        }
    }
    None
}

/// Whether the `{` at `i` starts a hole the grammar's `str_hole` accepts:
/// characters other than `}`, `"` and `{`, or quoted text, then `}`.
fn hole_closes(bytes: &[u8], mut i: usize) -> bool {
    i += 1;
    while let Some(&c) = bytes.get(i) {
        match c {
            b'}' => return true,
            b'{' => return false,
            b'"' => {
                // Quoted text inside the hole; if it does not close before a
                // brace, the hole fails and the `{` is plain text.
                i += 1;
                loop {
                    match bytes.get(i) {
                        Some(b'"') => break,
                        Some(b'{') | Some(b'}') | None => return false,
                        _ => i += 1,
                    }
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    false
}
