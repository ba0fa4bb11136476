//! Tables computed once a game is checked, before the rewrites, read
//! instead of searching: today the board's distance table, which
//! `distance(a, b)` reads at run time and which lets the `fn-tables` pass
//! count `distance` as static. Entry point: [`build`].

use crate::board::Board;
use crate::ir::{Game, DIST_TABLE_MAX};

/// Fills `g.dist` when the rules call `distance` (`uses_distance`, which
/// the checker reports) and the board has at most [`DIST_TABLE_MAX`] nodes;
/// otherwise `distance` searches the board when it is called.
pub fn build(g: &mut Game, uses_distance: bool) {
    if uses_distance && g.board.nodes.len() <= DIST_TABLE_MAX {
        g.dist = distance_table(&g.board);
    }
}

/// Every node's distance to every other (-1: unreachable), by petgraph's
/// Dijkstra with unit weights from each node over the board graph (an
/// undirected board holds both arcs of each edge).
fn distance_table(b: &Board) -> Vec<i16> {
    let n = b.nodes.len();
    let mut t = vec![-1i16; n * n];
    for from in b.graph.node_indices() {
        let d = petgraph::algo::dijkstra(&b.graph, from, None, |_| 1i32);
        let row = b.graph[from] as usize * n;
        for (to, k) in d {
            t[row + b.graph[to] as usize] = k as i16;
        }
    }
    t
}
