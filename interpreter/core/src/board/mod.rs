//! The board stage: a TOML board file → a validated [`Board`].
//!
//! A board is a graph of named nodes and edges with typed attribute tables, plus
//! the component sets (pieces) that come in the box. The file format is
//! documented in `maps/README.md`. [`build`] is pure: it reads the text of one
//! file from [`Sources`], reports every problem it can find in one pass as
//! [`Diagnostic`]s pointing at the offending key or value, and never panics or
//! prints.
//!
//! The result keeps three views of the same graph: the [`Board::graph`] for
//! petgraph's algorithms (connected groups, paths), the logical [`Board::edges`]
//! in file order, and precomputed CSR adjacency arrays behind
//! [`Board::successors`] and friends, because the interpreter's hot path asks for
//! neighbours millions of times and must not allocate.
//!
//! # Error codes
//!
//! | code  | meaning | a line that triggers it |
//! |-------|---------|-------------------------|
//! | E0501 | the file is not valid TOML | `[board` |
//! | E0502 | unknown top-level table, or unknown key in `[board]`, `[grid]` or `[defaults]` | `[boards]` |
//! | E0503 | a known key has a value of the wrong type (or a table/array has the wrong shape) | `rows = "five"` |
//! | E0504 | grid `rows` or `cols` is outside 1..=1000 | `rows = 0` |
//! | E0505 | the grid id template gives two cells the same id, or has an unknown `{placeholder}` | `id = "cell{row}"` |
//! | E0506 | two nodes have the same id | `id = "harbour"` twice |
//! | E0507 | an edge names a node that does not exist | `to = "danzg"` |
//! | E0508 | an attribute or piece field has values of different types | `x = 1` on one node, `x = "a"` on another |
//! | E0509 | an attribute or piece field is missing somewhere and has no default | `x = 1` on one node only |
//! | E0510 | an attribute or field value is a table, array, float or date-time | `x = 1.5` |
//! | E0511 | a piece group's `count` is not an integer ≥ 1 | `count = 0` |
//! | E0512 | an edge goes from a node to itself | `from = "a"` and `to = "a"` |
//! | E0513 | two edges have the same id | `id = "a-b"` twice |
//! | E0514 | a reserved name is used as an attribute or field (`id`; also `from`/`to` in edge defaults) | `[defaults.node]` `id = "x"` |
//! | E0515 | a required key is missing | `[[node]]` without `id` |
//! | E0516 | the file has neither nodes nor pieces | a file with only `[board]` |
//! | E0517 | an attribute, field or piece kind name is not an identifier the rules can name | `"two words" = 1` |
//! | E0518 | a `[grid]` with more cells than `limits::MAX_GRID_CELLS` | `rows = 1000`, `cols = 1000` |

use crate::diag::{Diagnostics, Sources, Span};
use indexmap::IndexMap;
use petgraph::graph::DiGraph;
use serde::Serialize;

mod dot;
mod grid;
mod load;
mod raw;
mod values;

/// The value of one attribute of a node or edge, or one field of a piece.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(untagged)]
pub enum AttrValue {
    Int(i64),
    Bool(bool),
    Str(String),
}

impl AttrValue {
    /// The type's name as messages and the rules language spell it.
    pub fn type_name(&self) -> &'static str {
        match self {
            AttrValue::Int(_) => "int",
            AttrValue::Bool(_) => "bool",
            AttrValue::Str(_) => "string",
        }
    }
}

impl std::fmt::Display for AttrValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AttrValue::Int(i) => write!(f, "{i}"),
            AttrValue::Bool(b) => write!(f, "{b}"),
            AttrValue::Str(s) => write!(f, "{s:?}"),
        }
    }
}

/// One node: its id and where it was declared (for a grid cell, the `[grid]` table).
#[derive(Clone, Debug, PartialEq)]
pub struct NodeInfo {
    pub id: String,
    pub span: Span,
}

/// One logical edge. On an undirected board `from`/`to` are in the order written.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeInfo {
    pub id: String,
    pub from: u32,
    pub to: u32,
    pub span: Span,
}

/// The values of one attribute, indexed by node (or edge) index.
#[derive(Clone, Debug, PartialEq)]
pub struct AttrColumn {
    pub values: Vec<AttrValue>,
    /// Where each value is written (a default's value for the items it
    /// fills), for diagnostics about one value.
    pub spans: Vec<Span>,
    /// The first place the attribute appears (a default counts if it is the first).
    pub span: Span,
}

/// `count` identical pieces of one kind.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceGroup {
    pub count: u32,
    /// Field name → (value, span of the value), in file order.
    pub fields: IndexMap<String, (AttrValue, Span)>,
    /// The span of the group's table in the file.
    pub span: Span,
}

/// A validated board. Built only by [`build`], so every invariant below holds:
/// node and edge ids are unique, every column has one value per node (edge), all
/// values of a column share one type, and edges join two distinct existing nodes.
#[derive(Clone, Debug)]
pub struct Board {
    pub file: u32,
    pub name: String,
    pub directed: bool,
    pub nodes: Vec<NodeInfo>,
    pub node_index: IndexMap<String, u32>,
    pub edges: Vec<EdgeInfo>,
    /// Node weights are node indices and edge weights are edge indices; an
    /// undirected edge is stored as two arcs carrying the same edge index.
    pub graph: DiGraph<u32, u32>,
    pub node_attrs: IndexMap<String, AttrColumn>,
    pub edge_attrs: IndexMap<String, AttrColumn>,
    pub pieces: IndexMap<String, Vec<PieceGroup>>,
    pub(crate) succ: Csr,
    pub(crate) pred: Csr,
    pub(crate) nbr: Csr,
    pub(crate) out: Csr,
    /// The four lists' items one after the other (successors, predecessors,
    /// neighbours, out-edges), so that a walk over any of them reads one
    /// array (`BOp::IterNext`) without choosing the list at each step.
    pub(crate) adj: Vec<u32>,
}

/// Compressed sparse rows: the list of node `n` is `items[starts[n]..starts[n + 1]]`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Csr {
    starts: Vec<u32>,
    pub(crate) items: Vec<u32>,
}

impl Csr {
    /// Sorts and deduplicates each list, then packs them.
    fn new(mut lists: Vec<Vec<u32>>) -> Csr {
        let mut starts = Vec::with_capacity(lists.len() + 1);
        let mut items = Vec::new();
        starts.push(0);
        for list in &mut lists {
            list.sort_unstable();
            list.dedup();
            items.extend_from_slice(list);
            starts.push(items.len() as u32);
        }
        Csr { starts, items }
    }
    /// Where node `n`'s list lies in `items`: start and end. An index past
    /// the end has an empty list rather than a panic.
    #[inline]
    pub(crate) fn span(&self, n: u32) -> (usize, usize) {
        let n = n as usize;
        match (self.starts.get(n), self.starts.get(n + 1)) {
            (Some(&s), Some(&e)) => (s as usize, e as usize),
            _ => (0, 0),
        }
    }
    /// Node `n`'s list.
    #[inline]
    fn get(&self, n: u32) -> &[u32] {
        let (s, e) = self.span(n);
        &self.items[s..e]
    }
}

impl Board {
    /// Assembles the graph and the adjacency arrays from validated parts.
    #[allow(clippy::too_many_arguments)]
    fn assemble(
        file: u32,
        name: String,
        directed: bool,
        nodes: Vec<NodeInfo>,
        node_index: IndexMap<String, u32>,
        edges: Vec<EdgeInfo>,
        node_attrs: IndexMap<String, AttrColumn>,
        edge_attrs: IndexMap<String, AttrColumn>,
        pieces: IndexMap<String, Vec<PieceGroup>>,
    ) -> Board {
        let n = nodes.len();
        let mut graph = DiGraph::with_capacity(n, edges.len() * if directed { 1 } else { 2 });
        let ids: Vec<_> = (0..n as u32).map(|i| graph.add_node(i)).collect();
        let (mut succ, mut pred, mut out) = (vec![vec![]; n], vec![vec![]; n], vec![vec![]; n]);
        for (i, e) in edges.iter().enumerate() {
            let (a, b) = (e.from as usize, e.to as usize);
            graph.add_edge(ids[a], ids[b], i as u32);
            succ[a].push(e.to);
            pred[b].push(e.from);
            out[a].push(i as u32);
            if !directed {
                graph.add_edge(ids[b], ids[a], i as u32);
                succ[b].push(e.from);
                pred[a].push(e.to);
                out[b].push(i as u32);
            }
        }
        let nbr: Vec<Vec<u32>> = succ
            .iter()
            .zip(&pred)
            .map(|(s, p)| s.iter().chain(p).copied().collect())
            .collect();
        Board {
            file,
            name,
            directed,
            nodes,
            node_index,
            edges,
            graph,
            node_attrs,
            edge_attrs,
            pieces,
            adj: vec![],
            succ: Csr::new(succ),
            pred: Csr::new(pred),
            nbr: Csr::new(nbr),
            out: Csr::new(out),
        }
        .packed()
    }

    /// Fills [`Board::adj`] from the four lists.
    fn packed(mut self) -> Board {
        let mut adj = vec![];
        for l in [&self.succ, &self.pred, &self.nbr, &self.out] {
            adj.extend_from_slice(&l.items);
        }
        self.adj = adj;
        self
    }

    /// Where node `n`'s list of kind `which` (0 successors, 1 predecessors,
    /// 2 neighbours, 3 out-edges) lies in [`Board::adj`]: start and end.
    #[inline]
    pub(crate) fn adj_span(&self, which: usize, n: u32) -> (usize, usize) {
        let lists = [&self.succ, &self.pred, &self.nbr, &self.out];
        let base: usize = lists[..which].iter().map(|l| l.items.len()).sum();
        let (s, e) = lists[which].span(n);
        (base + s, base + e)
    }

    /// Targets of the arcs leaving `n` (on an undirected board: its neighbours),
    /// sorted ascending, without duplicates.
    #[inline]
    pub fn successors(&self, n: u32) -> &[u32] {
        self.succ.get(n)
    }

    /// Sources of the arcs entering `n`, sorted ascending, without duplicates.
    #[inline]
    pub fn predecessors(&self, n: u32) -> &[u32] {
        self.pred.get(n)
    }

    /// Every node joined to `n` in either direction, sorted, without duplicates.
    #[inline]
    pub fn neighbors(&self, n: u32) -> &[u32] {
        self.nbr.get(n)
    }

    /// Indices of the logical edges leaving `n` (undirected: touching `n`), ascending.
    #[inline]
    pub fn out_edges(&self, n: u32) -> &[u32] {
        self.out.get(n)
    }

    /// The lowest-numbered edge from `a` to `b` (undirected: between them, either way).
    pub fn edge_between(&self, a: u32, b: u32) -> Option<u32> {
        self.out_edges(a).iter().copied().find(|&e| {
            let info = &self.edges[e as usize];
            (info.from == a && info.to == b) || (!self.directed && info.from == b && info.to == a)
        })
    }

    /// The node index of an id.
    pub fn node(&self, id: &str) -> Option<u32> {
        self.node_index.get(id).copied()
    }

    /// The board as Graphviz DOT text, identical for identical boards.
    pub fn to_dot(&self) -> String {
        dot::to_dot(self)
    }
}

/// Parses and validates the TOML text of `sources.get(file)`. Pure: no IO.
///
/// Returns every problem found, except that a TOML syntax error stops there.
pub fn build(sources: &Sources, file: u32) -> Result<Board, Diagnostics> {
    load::load(sources, file)
}

/// The board of a ruleset that names none: no nodes, no edges, no pieces.
pub fn empty() -> Board {
    Board::assemble(
        u32::MAX,
        "no board".into(),
        false,
        vec![],
        IndexMap::new(),
        vec![],
        IndexMap::new(),
        IndexMap::new(),
        IndexMap::new(),
    )
}
