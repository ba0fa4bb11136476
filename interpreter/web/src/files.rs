//! The page's files: the shipped rulesets, examples and maps (bundled by the
//! page) and the user's own, by path relative to the repository's root, so
//! that `extends "…"` and `board "…"` resolve as they do on disk.

use std::collections::BTreeMap;
use std::path::{Component, Path};

#[derive(Default)]
pub struct Files {
    texts: BTreeMap<String, String>,
}

impl Files {
    pub fn put(&mut self, path: &str, text: String) {
        self.texts.insert(normal(Path::new(path)), text);
    }

    /// A file's text, for the core's reader (`load::Reader`).
    pub fn read(&self, p: &Path) -> std::io::Result<String> {
        self.texts.get(&normal(p)).cloned().ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no such file among the playground's files",
            )
        })
    }
}

/// `a/b/../c` as `a/c`: paths are compared as text, with no file system to
/// ask, and a `..` above the root is dropped.
fn normal(p: &Path) -> String {
    let mut parts: Vec<&str> = vec![];
    for c in p.components() {
        match c {
            Component::Normal(s) => parts.push(s.to_str().unwrap_or("")),
            Component::ParentDir => {
                parts.pop();
            }
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parent_folders_resolve_as_text() {
        let mut f = Files::default();
        f.put("maps/m.toml", "x".into());
        assert_eq!(
            f.read(Path::new("rulesets/g/../../maps/m.toml")).unwrap(),
            "x"
        );
        assert!(f.read(Path::new("maps/n.toml")).is_err());
    }
}
