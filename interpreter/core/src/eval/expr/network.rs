//! The searches over a collection of edges: `reachable(n, E)`, the nodes
//! joined to `n` by edges of `E`, and `longest_path(E)`, the length of the
//! longest trail within `E`; and `components(C)` of a node or an edge
//! collection, one node per connected group. Each takes the collection
//! where it lies on the scratch stack and keeps its marks and stacks above
//! it, so that a call allocates nothing once the stack has grown; arcs are
//! followed from→to (an undirected board's edges both ways), as the node
//! form of `reachable` follows them, except by `components`, whose groups
//! ignore direction.

use super::{Exec, R};
use crate::board::Board;
use crate::diag::Span;
use crate::ir::{Elems, Val};

/// An edge's mark: outside the collection, in it, or in it and used by the
/// trail being searched.
const OUT: Val = 0;
const FREE: Val = 1;
const USED: Val = 2;

/// The end of edge `e` that a walk standing on `u` reaches through it.
#[inline]
fn across(b: &Board, e: u32, u: u32) -> u32 {
    let info = &b.edges[e as usize];
    if info.from == u {
        info.to
    } else {
        info.from
    }
}

/// Marks, at `scratch[flags + e]`, every edge listed at `scratch[mark..end]`
/// as `FREE`, ignoring `none`; returns how many distinct edges it marked.
fn mark_edges(b: &Board, scratch: &mut [Val], mark: usize, end: usize, flags: usize) -> usize {
    let mut distinct = 0;
    for i in mark..end {
        let e = scratch[i];
        if e >= 0 && (e as usize) < b.edges.len() && scratch[flags + e as usize] == OUT {
            scratch[flags + e as usize] = FREE;
            distinct += 1;
        }
    }
    distinct
}

impl Exec<'_> {
    /// Counts a search of the whole board, one step per node and edge,
    /// against the budget; when that ends the match, the collection listed
    /// at `scratch[mark..]` is dropped first.
    fn charge_board(&mut self, mark: usize, span: Span) -> R<()> {
        let b = &self.g.board;
        let r = self.charge((b.nodes.len() + b.edges.len()) as u64, span);
        if r.is_err() {
            self.st.scratch.truncate(mark);
        }
        r
    }

    /// Replaces the edges at `scratch[mark..]` with the nodes joined to
    /// `start` by a path using only those edges (`start` itself included;
    /// nothing when it is `none`), in board order: a breadth-first search
    /// whose marks and queue lie above the edges.
    pub(crate) fn reachable_via(&mut self, start: Val, mark: usize, span: Span) -> R<()> {
        let g = self.g;
        let b = &g.board;
        let (nn, ne) = (b.nodes.len(), b.edges.len());
        // The search marks every node and may follow every edge, as the
        // node form's does.
        self.charge_board(mark, span)?;
        let sc = &mut self.st.scratch;
        let end = sc.len();
        // scratch[edges + e]: whether edge e is in the collection;
        // scratch[seen + v]: whether node v is reached.
        let (edges, seen) = (end, end + ne);
        sc.resize(end + ne + nn, OUT);
        mark_edges(b, sc, mark, end, edges);
        if start >= 0 && (start as usize) < nn {
            sc[seen + start as usize] = 1;
            let mut head = sc.len();
            sc.push(start);
            while head < sc.len() {
                let u = sc[head] as u32;
                head += 1;
                for &e in b.out_edges(u) {
                    let v = across(b, e, u) as usize;
                    if sc[edges + e as usize] == FREE && sc[seen + v] == 0 {
                        sc[seen + v] = 1;
                        sc.push(v as Val);
                    }
                }
            }
        }
        // The answer is written above everything, then moved down to `mark`.
        let out = sc.len();
        for v in 0..nn {
            if sc[seen + v] != 0 {
                sc.push(v as Val);
            }
        }
        let len = sc.len() - out;
        sc.copy_within(out.., mark);
        sc.truncate(mark + len);
        Ok(())
    }

    /// The number of edges of the longest trail (a walk that uses no edge
    /// twice; nodes may repeat) within the edges at `scratch[mark..]`,
    /// which it removes. A depth-first search over every trail from each
    /// node that may start a longest one: exponential in the worst case, so
    /// every edge tried counts one step against the budget. Its marks and
    /// frames (node, next edge to try, edge that led here) lie above the
    /// edges; it stops early once a trail uses every edge.
    ///
    /// On an undirected board a longest trail of a component with a node of
    /// odd degree starts at such a node (were an edge at its start unused,
    /// the trail would be longer; used up, the start has odd degree), and
    /// in a component whose degrees are all even it may start anywhere. So
    /// the search starts from the nodes of odd degree, then from one node of
    /// each component none of those searches reached. A directed board
    /// starts from every node.
    pub(crate) fn longest_path(&mut self, mark: usize, span: Span) -> R<Val> {
        let g = self.g;
        let b = &g.board;
        let end = self.st.scratch.len();
        // scratch[flags + e]: the edge's mark; scratch[seen + v]: whether a
        // search has reached node v.
        let (flags, seen) = (end, end + b.edges.len());
        self.st
            .scratch
            .resize(end + b.edges.len() + b.nodes.len(), OUT);
        let total = mark_edges(b, &mut self.st.scratch, mark, end, flags);
        let frames = self.st.scratch.len();
        let mut best = 0;
        for pass in 0..2 {
            for s in 0..b.nodes.len() as u32 {
                if best == total {
                    break;
                }
                let sc = &mut self.st.scratch;
                let degree = b
                    .out_edges(s)
                    .iter()
                    .filter(|&&e| sc[flags + e as usize] == FREE)
                    .count();
                let start = match (b.directed, pass) {
                    (true, p) => p == 0,
                    (false, 0) => degree % 2 == 1,
                    (false, _) => sc[seen + s as usize] == 0,
                };
                if degree == 0 || !start {
                    continue;
                }
                sc[seen + s as usize] = 1;
                sc.extend([s as Val, 0, -1]);
                while self.st.scratch.len() > frames {
                    let top = self.st.scratch.len() - 3;
                    let sc = &mut self.st.scratch;
                    let u = sc[top] as u32;
                    let list = b.out_edges(u);
                    let mut j = sc[top + 1] as usize;
                    while j < list.len() && sc[flags + list[j] as usize] != FREE {
                        j += 1;
                    }
                    if j == list.len() {
                        // Every edge from here is tried: step back, freeing
                        // the edge that led here.
                        let via = sc[top + 2];
                        if via >= 0 {
                            sc[flags + via as usize] = FREE;
                        }
                        sc.truncate(top);
                        continue;
                    }
                    sc[top + 1] = j as Val + 1;
                    let e = list[j];
                    if let Err(err) = self.charge(1, span) {
                        self.st.scratch.truncate(mark);
                        return Err(err);
                    }
                    let sc = &mut self.st.scratch;
                    let v = across(b, e, u);
                    sc[flags + e as usize] = USED;
                    sc[seen + v as usize] = 1;
                    sc.extend([v as Val, 0, e as Val]);
                    best = best.max((sc.len() - frames) / 3 - 1);
                    if best == total {
                        break;
                    }
                }
                self.st.scratch.truncate(frames);
            }
        }
        self.st.scratch.truncate(mark);
        Ok(best as Val)
    }
}

/// The root of node `v`'s group in the union-find forest at
/// `sc[parent..]`, halving the path on the way.
#[inline]
fn root(sc: &mut [Val], parent: usize, mut v: usize) -> usize {
    while sc[parent + v] as usize != v {
        let up = sc[parent + sc[parent + v] as usize];
        sc[parent + v] = up;
        v = up as usize;
    }
    v
}

/// Joins the groups of nodes `a` and `b`; the smaller root becomes the
/// root of both, so that every group's root is its first node in board
/// order.
#[inline]
fn join(sc: &mut [Val], parent: usize, a: usize, b: usize) {
    let (ra, rb) = (root(sc, parent, a), root(sc, parent, b));
    let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
    sc[parent + hi] = lo as Val;
}

impl Exec<'_> {
    /// Replaces the nodes (`Elems::Nodes`) or edges at `scratch[mark..]`
    /// with one node per connected group, the first of its group in board
    /// order, listed in board order. Nodes are joined by an edge whose ends
    /// both lie in the node collection, or by an edge of the edge
    /// collection, either way (a directed board's groups ignore the arcs'
    /// direction); a node no edge of an edge collection touches is in no
    /// group. A union-find forest over the nodes lies above the elements.
    pub(crate) fn components(&mut self, on: Elems, mark: usize, span: Span) -> R<()> {
        let g = self.g;
        let b = &g.board;
        let (nn, ne) = (b.nodes.len(), b.edges.len());
        // Every node is looked at and every edge may be.
        self.charge_board(mark, span)?;
        let sc = &mut self.st.scratch;
        let end = sc.len();
        // sc[parent + v]: v's parent in the forest, or -1 when v is in no group.
        let parent = end;
        sc.resize(end + nn, -1);
        let valid = |x: Val, n: usize| x >= 0 && (x as usize) < n;
        match on {
            Elems::Nodes => {
                for i in mark..end {
                    let v = sc[i];
                    if valid(v, nn) {
                        sc[parent + v as usize] = v;
                    }
                }
                for info in &b.edges {
                    let (a, z) = (info.from as usize, info.to as usize);
                    if sc[parent + a] >= 0 && sc[parent + z] >= 0 {
                        join(sc, parent, a, z);
                    }
                }
            }
            Elems::Edges => {
                for i in mark..end {
                    let e = sc[i];
                    if !valid(e, ne) {
                        continue;
                    }
                    let info = &b.edges[e as usize];
                    let (a, z) = (info.from as usize, info.to as usize);
                    for v in [a, z] {
                        if sc[parent + v] < 0 {
                            sc[parent + v] = v as Val;
                        }
                    }
                    join(sc, parent, a, z);
                }
            }
        }
        // A group's root is its first node: the roots, in board order, are
        // the answer. It is written over the elements (never more of them
        // than nodes, and the forest lies above them all).
        let out = sc.len();
        for v in 0..nn {
            if sc[parent + v] == v as Val {
                sc.push(v as Val);
            }
        }
        let len = sc.len() - out;
        sc.copy_within(out.., mark);
        sc.truncate(mark + len);
        Ok(())
    }
}
