//! Helpers for the test files that serve a rules file and a board file from
//! memory (`lang.rs`, `networks.rs`): compiling them, the boards they share,
//! and reading a log; and loading a shipped game (`bots.rs`, `soak.rs`, …).

// Each test file uses some of these.
#![allow(dead_code)]

use regel::diag::Sources;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Checks and compiles a shipped ruleset or example, `rel` from the
/// repository's root, with every rewrite; a failure panics.
pub fn load(rel: &str) -> Arc<regel::ir::Game> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel);
    let mut sources = Sources::default();
    let passes = regel::opt::Passes::all();
    match regel::pipeline::compile(&mut sources, &regel::cli::read_file, &path, &passes) {
        Ok((g, _)) => Arc::new(g),
        Err(d) => panic!("{rel}:\n{}", regel::diag::render(&sources, &d, false, 100)),
    }
}

/// Checks `rules` (with `board` as `board.toml` beside it) and compiles it
/// with the rewrites given; a check failure panics with the diagnostics.
pub fn compile(rules: &str, board: &str, passes: &regel::opt::Passes) -> Arc<regel::ir::Game> {
    let dir = PathBuf::from("/memory");
    let (rules_path, board_path) = (dir.join("game.rules"), dir.join("board.toml"));
    let (rules_text, board_text) = (rules.to_string(), board.to_string());
    let (rp, bp) = (rules_path.clone(), board_path.clone());
    let reader = move |p: &Path| -> std::io::Result<String> {
        if p == rp {
            Ok(rules_text.clone())
        } else if p == bp {
            Ok(board_text.clone())
        } else {
            Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "not served",
            ))
        }
    };
    let mut sources = Sources::default();
    match regel::pipeline::compile(&mut sources, &reader, &rules_path, passes) {
        Ok((g, _)) => Arc::new(g),
        Err(d) => panic!(
            "check failed:\n{}",
            regel::diag::render(&sources, &d, false, 100)
        ),
    }
}

/// The log's lines without the engine's own (`# …`).
pub fn lines(log: &[String]) -> Vec<&str> {
    log.iter()
        .map(|s| s.as_str())
        .filter(|s| !s.starts_with('#'))
        .collect()
}

/// A triangle a-b-c with two parallel edges between a and b, a tail
/// c-d-e and a lone node f; on a directed board the arcs run a→b (twice),
/// b→c, c→a, c→d, d→e.
pub fn loop_board(directed: bool) -> String {
    let mut s = format!("[board]\nname = \"loop\"\ndirected = {directed}\n");
    for n in ["a", "b", "c", "d", "e", "f"] {
        s.push_str(&format!("[[node]]\nid = \"{n}\"\n"));
    }
    for (id, f, t) in [
        ("ab1", "a", "b"),
        ("ab2", "a", "b"),
        ("bc", "b", "c"),
        ("ca", "c", "a"),
        ("cd", "c", "d"),
        ("de", "d", "e"),
    ] {
        s.push_str(&format!(
            "[[edge]]\nid = \"{id}\"\nfrom = \"{f}\"\nto = \"{t}\"\n"
        ));
    }
    s
}

/// A board of `n` nodes `n0`, `n1`, … joined by the edges `(i, j)` listed
/// (from `ni` to `nj`), without ids of their own.
pub fn numbered_board(
    name: &str,
    n: usize,
    edges: impl IntoIterator<Item = (usize, usize)>,
) -> String {
    let mut board = format!("[board]\nname = \"{name}\"\n");
    for i in 0..n {
        board.push_str(&format!("[[node]]\nid = \"n{i}\"\n"));
    }
    for (i, j) in edges {
        board.push_str(&format!("[[edge]]\nfrom = \"n{i}\"\nto = \"n{j}\"\n"));
    }
    board
}
