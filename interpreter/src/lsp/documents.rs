//! The open buffers (an overlay over the file system) and positions.
//!
//! The checker reads every file through a caller-supplied reader; the
//! server's reader answers from the editor's unsaved buffers first and from
//! the disk otherwise, so a variant's base or a board being edited counts
//! before it is saved. Positions are converted here between byte offsets
//! (what spans hold) and the protocol's line and character, counted in the
//! negotiated encoding (UTF-16 unless the client offers UTF-8).

use lsp_types::{Position, Range, Uri};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::str::FromStr;

/// How the client counts characters in a line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// The editor's open buffers by normalised path.
#[derive(Default)]
pub struct Documents {
    open: HashMap<PathBuf, String>,
}

impl Documents {
    pub fn set(&mut self, path: PathBuf, text: String) {
        self.open.insert(normal(&path), text);
    }
    pub fn close(&mut self, path: &Path) {
        self.open.remove(&normal(path));
    }
    pub fn get(&self, path: &Path) -> Option<&String> {
        self.open.get(&normal(path))
    }
    /// The open buffers' paths, sorted (no hash order reaches the client).
    pub fn paths(&self) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = self.open.keys().cloned().collect();
        v.sort();
        v
    }
    /// The reader the checker is given: the buffer if the file is open,
    /// else the file on disk.
    pub fn read(&self, path: &Path) -> std::io::Result<String> {
        match self.open.get(&normal(path)) {
            Some(t) => Ok(t.clone()),
            None => std::fs::read_to_string(path),
        }
    }
}

/// A path with `.` and `..` taken out lexically, so that a base named as
/// `../base.rules` and the same file opened in the editor are one key.
pub fn normal(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The path of a `file:` URI (percent-escapes decoded), or none for other schemes.
pub fn uri_path(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str();
    let rest = s.strip_prefix("file://")?;
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
            if let Ok(b) = u8::from_str_radix(hex, 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    Some(normal(Path::new(
        &String::from_utf8_lossy(&out).into_owned(),
    )))
}

/// The `file:` URI of a path, with the characters URIs reserve escaped.
pub fn path_uri(p: &Path) -> Uri {
    let mut s = String::from("file://");
    for b in normal(p).to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&s).unwrap_or_else(|_| Uri::from_str("file:///").expect("a valid URI"))
}

/// Converts between byte offsets and protocol positions in one text.
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
    enc: Encoding,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str, enc: Encoding) -> Lines<'a> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines { text, starts, enc }
    }

    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let before = &self.text[self.starts[line]..offset];
        let character = match self.enc {
            Encoding::Utf8 => before.len(),
            Encoding::Utf16 => before.encode_utf16().count(),
        };
        Position::new(line as u32, character as u32)
    }

    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end))
    }

    /// The byte offset of a position; a character past the line's end is its end.
    pub fn offset(&self, p: Position) -> usize {
        let Some(&start) = self.starts.get(p.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(p.line as usize + 1)
            .map_or(self.text.len(), |&e| e - 1);
        let line = &self.text[start..end.max(start)];
        let mut units = 0usize;
        for (i, ch) in line.char_indices() {
            if units >= p.character as usize {
                return start + i;
            }
            units += match self.enc {
                Encoding::Utf8 => ch.len_utf8(),
                Encoding::Utf16 => ch.len_utf16(),
            };
        }
        start + line.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_positions_count_surrogate_pairs() {
        let text = "a\nx😀y = 1\n";
        let l = Lines::new(text, Encoding::Utf16);
        let y = text.find('y').unwrap();
        assert_eq!(l.position(y), Position::new(1, 3));
        assert_eq!(l.offset(Position::new(1, 3)), y);
        let l8 = Lines::new(text, Encoding::Utf8);
        assert_eq!(l8.position(y), Position::new(1, 5));
    }

    #[test]
    fn uris_round_trip() {
        let p = Path::new("/tmp/a b/ü.rules");
        assert_eq!(uri_path(&path_uri(p)).as_deref(), Some(p));
        assert_eq!(normal(Path::new("/a/b/../c/./d")), Path::new("/a/c/d"));
    }
}
