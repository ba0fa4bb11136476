//! Validation: the spanned TOML tree → a [`Board`], or every problem found.
//!
//! The loader never stops at the first problem (except a TOML syntax error,
//! after which there is no tree to look at). It records what it can of each
//! section, reports what is wrong, and only assembles a board when nothing was.
//! Parts that failed are skipped quietly further on, so one mistake does not
//! produce a cascade of follow-up errors.

use super::raw::{self, Key, Raw, Spanned};
use super::values::{closest, columns, read_pieces, Attr, Cx, Family, Item};
use super::{grid, AttrValue, Board, EdgeInfo, NodeInfo};
use crate::diag::{Diagnostic, Diagnostics, Sources, Span};
use indexmap::IndexMap;

const TOP_LEVEL: &[&str] = &["board", "grid", "node", "edge", "defaults", "pieces"];
const BOARD_KEYS: &[&str] = &["name", "directed"];
const DEFAULTS_KEYS: &[&str] = &["node", "edge"];
const FORMAT_HELP: &str = "the board file format is described in maps/README.md";

/// Reads a `[defaults.node]` or `[defaults.edge]` table.
fn read_defaults(cx: &mut Cx, path: &str, v: &Spanned<Raw>, reserved: &[&str]) -> Vec<Attr> {
    let Some(t) = cx.table(path, v) else {
        return vec![];
    };
    let mut out = Vec::new();
    for (k, val) in t {
        if reserved.contains(&k.name.as_str()) {
            cx.reserved(
                k,
                val,
                &format!("[{path}]"),
                "ids and endpoints belong to each node or edge and have no default",
            );
        } else if let Some(a) = cx.attr(k, val, "default") {
            out.push(a);
        }
    }
    out
}

pub(crate) fn load(sources: &Sources, file: u32) -> Result<Board, Diagnostics> {
    let source = sources.get(file);
    let root = match raw::parse(&source.text) {
        Ok(root) => root,
        Err((msg, range)) => {
            let range = range.unwrap_or(0..0);
            let headline = msg.lines().next().unwrap_or("syntax error").to_owned();
            return Err(vec![Diagnostic::error(
                "E0501",
                format!("the board file is not valid TOML: {headline}"),
            )
            .at(
                Span::new(file, range.start, range.end),
                msg.replace('\n', "; "),
            )
            .help(FORMAT_HELP)]);
        }
    };
    let mut cx = Cx {
        file,
        diags: vec![],
    };

    let mut sections: IndexMap<&str, (&Key, &Spanned<Raw>)> = IndexMap::new();
    for (k, v) in &root {
        match TOP_LEVEL.iter().find(|&&name| name == k.name) {
            Some(name) => {
                sections.insert(name, (k, v));
            }
            None => cx.unknown_key(k, v, "the top level", TOP_LEVEL),
        }
    }

    // [board]
    let stem = source
        .name
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(&source.name);
    let mut name = stem.strip_suffix(".toml").unwrap_or(stem).to_owned();
    let mut directed = false;
    if let Some((_, v)) = sections.get("board") {
        for (k, val) in cx.table("board", v).unwrap_or(&[]) {
            match k.name.as_str() {
                "name" => name = cx.string("board.name", val).unwrap_or(name),
                "directed" => directed = cx.boolean("board.directed", val).unwrap_or(false),
                _ => cx.unknown_key(k, val, "[board]", BOARD_KEYS),
            }
        }
    }

    // [defaults]
    let (mut node_defaults, mut edge_defaults) = (vec![], vec![]);
    if let Some((_, v)) = sections.get("defaults") {
        for (k, val) in cx.table("defaults", v).unwrap_or(&[]) {
            match k.name.as_str() {
                "node" => node_defaults = read_defaults(&mut cx, "defaults.node", val, &["id"]),
                "edge" => {
                    edge_defaults =
                        read_defaults(&mut cx, "defaults.edge", val, &["id", "from", "to"])
                }
                _ => cx.unknown_key(k, val, "[defaults]", DEFAULTS_KEYS),
            }
        }
    }

    // Nodes: the grid's cells first (row-major), then [[node]] tables in file order.
    let grid = sections
        .get("grid")
        .and_then(|(k, v)| grid::read_grid(&mut cx, k, v));
    // If the grid is broken its cell ids are unknown, so edges naming them cannot be judged.
    let grid_broken = sections.contains_key("grid") && grid.is_none();
    let mut nodes: Vec<NodeInfo> = Vec::new();
    let mut node_items: Vec<Item> = Vec::new();
    let mut node_index: IndexMap<String, u32> = IndexMap::new();
    let mut add_node = |cx: &mut Cx, id: String, span: Span, attrs: Vec<Attr>| {
        if let Some(&first) = node_index.get(&id) {
            cx.push(
                Diagnostic::error("E0506", format!("node `{id}` is declared twice"))
                    .at(span, "declared again here")
                    .at(nodes[first as usize].span, "first declared here")
                    .help("node ids must be unique; rename or remove one of them"),
            );
            return;
        }
        node_index.insert(id.clone(), nodes.len() as u32);
        node_items.push(Item {
            label: format!("node `{id}`"),
            span,
            attrs,
        });
        nodes.push(NodeInfo { id, span });
    };
    if let Some(g) = &grid {
        for r in 1..=g.rows {
            for c in 1..=g.cols {
                let attrs = vec![
                    Attr {
                        name: "row".into(),
                        value: AttrValue::Int(r.into()),
                        key: g.span,
                        val: g.span,
                    },
                    Attr {
                        name: "col".into(),
                        value: AttrValue::Int(c.into()),
                        key: g.span,
                        val: g.span,
                    },
                ];
                add_node(&mut cx, grid::cell_id(&g.parts, r, c), g.span, attrs);
            }
        }
    }
    if let Some((_, v)) = sections.get("node") {
        for (t, span) in cx.tables("node", v) {
            let mut id = None;
            let mut attrs = Vec::new();
            for (k, val) in t {
                if k.name == "id" {
                    id = cx.string("node.id", val).map(|s| (s, cx.val(val)));
                } else if let Some(a) = cx.attr(k, val, "node attribute") {
                    attrs.push(a);
                }
            }
            match id {
                Some((id, id_span)) => add_node(&mut cx, id, id_span, attrs),
                None if !t.iter().any(|(k, _)| k.name == "id") => {
                    cx.missing("id", "a [[node]] table", span, "id = \"harbour\"")
                }
                None => {}
            }
        }
    }
    // A file may hold only component sets (a card game's deck); a file with
    // neither nodes nor pieces describes nothing.
    if !sections.contains_key("grid")
        && !sections.contains_key("node")
        && !sections.contains_key("pieces")
    {
        cx.push(
            Diagnostic::error("E0516", "the board file has no nodes and no pieces")
                .at(Span::new(file, 0, 0), "no [grid], no [[node]] and no [[pieces.…]] in this file")
                .help("add a `[grid]` table or `[[node]]` tables for a board, or `[[pieces.KIND]]` groups for components"),
        );
    }
    let node_attrs = columns(
        &mut cx,
        &node_items,
        &node_defaults,
        &Family {
            what: "node attribute".into(),
            items: "nodes",
            defaults: Some("defaults.node"),
        },
    );

    // Edges: the grid's first, then [[edge]] tables in file order.
    let mut edges: Vec<EdgeInfo> = Vec::new();
    let mut edge_items: Vec<Item> = Vec::new();
    let mut edge_ids: IndexMap<String, Span> = IndexMap::new();
    let mut add_edge =
        |cx: &mut Cx, id: String, ends: Option<(u32, u32)>, span: Span, attrs: Vec<Attr>| {
            if let Some(&first) = edge_ids.get(&id) {
                cx.push(
                    Diagnostic::error("E0513", format!("edge id `{id}` is used twice"))
                        .at(span, "used again here")
                        .at(first, "first used here")
                        .help("give one of the edges its own `id = \"…\"`"),
                );
            } else {
                edge_ids.insert(id.clone(), span);
            }
            edge_items.push(Item {
                label: format!("edge `{id}`"),
                span,
                attrs,
            });
            if let Some((from, to)) = ends {
                edges.push(EdgeInfo { id, from, to, span });
            }
        };
    if let Some(g) = &grid {
        for (a, b) in grid::edges(g.rows, g.cols, g.diagonals) {
            let pairs = if directed {
                vec![(a, b), (b, a)]
            } else {
                vec![(a, b)]
            };
            for (x, y) in pairs {
                let id = format!("{}-{}", nodes[x as usize].id, nodes[y as usize].id);
                add_edge(&mut cx, id, Some((x, y)), g.span, vec![]);
            }
        }
    }
    if let Some((_, v)) = sections.get("edge") {
        for (t, span) in cx.tables("edge", v) {
            let (mut from, mut to, mut id) = (None, None, None);
            let mut attrs = Vec::new();
            for (k, val) in t {
                match k.name.as_str() {
                    "from" => from = cx.string("edge.from", val).map(|s| (s, cx.val(val))),
                    "to" => to = cx.string("edge.to", val).map(|s| (s, cx.val(val))),
                    "id" => id = cx.string("edge.id", val),
                    _ => attrs.extend(cx.attr(k, val, "edge attribute")),
                }
            }
            for end in ["from", "to"] {
                if !t.iter().any(|(k, _)| k.name == end) {
                    cx.missing(
                        end,
                        "a [[edge]] table",
                        span,
                        &format!("{end} = \"harbour\""),
                    );
                }
            }
            let (Some((from, from_span)), Some((to, to_span))) = (from, to) else {
                continue;
            };
            let edge_span = from_span.to(to_span);
            let resolve = |cx: &mut Cx, name: &str, span: Span| -> Option<u32> {
                if let Some(&i) = node_index.get(name) {
                    return Some(i);
                }
                if !grid_broken {
                    let help = match closest(name, node_index.keys().map(String::as_str)) {
                        Some(best) => format!("did you mean `{best}`?"),
                        None => format!("declare the node first: `[[node]]` `id = \"{name}\"`"),
                    };
                    cx.push(
                        Diagnostic::error("E0507", format!("edge names an unknown node `{name}`"))
                            .at(span, "no node has this id")
                            .help(help),
                    );
                }
                None
            };
            let ends = (
                resolve(&mut cx, &from, from_span),
                resolve(&mut cx, &to, to_span),
            );
            if from == to {
                cx.push(
                    Diagnostic::error("E0512", format!("edge goes from `{from}` to itself"))
                        .at(edge_span, "a self-loop")
                        .help("an edge must join two different nodes; a per-node attribute may be what is meant"),
                );
            }
            let id = id.unwrap_or_else(|| format!("{from}-{to}"));
            let ends = match ends {
                (Some(a), Some(b)) if a != b => Some((a, b)),
                _ => None,
            };
            add_edge(&mut cx, id, ends, edge_span, attrs);
        }
    }
    let edge_attrs = columns(
        &mut cx,
        &edge_items,
        &edge_defaults,
        &Family {
            what: "edge attribute".into(),
            items: "edges",
            defaults: Some("defaults.edge"),
        },
    );

    let pieces = sections
        .get("pieces")
        .map(|(_, v)| read_pieces(&mut cx, v))
        .unwrap_or_default();

    if !cx.diags.is_empty() {
        // Sections are read in a fixed order, not in file order; sorting by position
        // lets the user read the report top to bottom alongside the file.
        cx.diags.sort_by_key(|d| d.primary.map(|s| s.start));
        return Err(cx.diags);
    }
    Ok(Board::assemble(
        file, name, directed, nodes, node_index, edges, node_attrs, edge_attrs, pieces,
    ))
}
