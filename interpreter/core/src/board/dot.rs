//! Graphviz DOT output, for looking at a board (`dot -Tsvg`).
//!
//! Nodes are written by index with their id and attributes as the label, so the
//! text depends only on the board and is stable enough for snapshot tests.

use super::{AttrColumn, Board};
use indexmap::IndexMap;
use std::fmt::Write;

/// Escapes a string for a double-quoted DOT label.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            _ => out.push(ch),
        }
    }
    out.push('"');
    out
}

/// The label text: the id, then one `name=value` line per attribute.
fn label(id: &str, attrs: &IndexMap<String, AttrColumn>, i: usize) -> String {
    let mut text = id.to_owned();
    for (name, col) in attrs {
        if let Some(v) = col.values.get(i) {
            let _ = write!(text, "\n{name}={v}");
        }
    }
    quote(&text)
}

pub(crate) fn to_dot(board: &Board) -> String {
    let (kind, arrow) = if board.directed {
        ("digraph", "->")
    } else {
        ("graph", "--")
    };
    let mut out = String::new();
    let _ = writeln!(out, "{kind} {} {{", quote(&board.name));
    for (i, node) in board.nodes.iter().enumerate() {
        let _ = writeln!(
            out,
            "  n{i} [label={}];",
            label(&node.id, &board.node_attrs, i)
        );
    }
    for (i, edge) in board.edges.iter().enumerate() {
        let _ = writeln!(
            out,
            "  n{} {arrow} n{} [label={}];",
            edge.from,
            edge.to,
            label(&edge.id, &board.edge_attrs, i)
        );
    }
    out.push_str("}\n");
    out
}
