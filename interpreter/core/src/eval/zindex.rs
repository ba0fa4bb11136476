//! The zone-predicate index: for each test of a node's (or an edge's) own
//! zone sizes and variables that the rules use (`Game::zindex`, collected by the
//! `zone-pred` pass), the position keeps how many nodes (edges) pass it and
//! the set of them, so that `count(c in nodes: free(c))`, `any(…)`, `all(…)`
//! and `nodes where free(it)` (`edges where room(it)`) read a number or walk
//! a bit set instead of testing every element.
//!
//! The invariant: an index is always equal to the scan it replaces. Zone
//! sizes change only when a piece moves from one zone to another, and every
//! such move goes through [`moved`], which tests again the (at most two)
//! nodes or edges whose zones it touched; a per-node (per-edge) variable
//! changes only by an assignment, or when a match sets its options or
//! gives its variables their first values, all of which call [`var_set`]. Shuffles and the bots' re-dealing of hidden
//! pieces keep every size, so they touch no index. [`agrees`] compares every
//! index with a scan: debug builds do it at every lookup, and
//! `tests/passes.rs` plays every shipped game and example comparing at every
//! decision.

use super::expr::zpred_at;
use super::zones::Zones;
use super::State;
use crate::ir::*;

/// Words of the bit set of one predicate: a bit per node or edge, whichever
/// the board has more of, so that every predicate's set has one width.
#[inline]
fn words(g: &Game) -> usize {
    g.board.nodes.len().max(g.board.edges.len()).div_ceil(64)
}

/// How many elements a predicate over `on` ranges over.
#[inline]
pub(crate) fn elems(g: &Game, on: Elems) -> usize {
    match on {
        Elems::Nodes => g.board.nodes.len(),
        Elems::Edges => g.board.edges.len(),
    }
}

/// The counts and bit sets of a position, every node or edge tested once.
pub(super) fn build(g: &Game, z: &Zones, vars: &[Val]) -> (Vec<u32>, Vec<u64>) {
    let w = words(g);
    let mut counts = vec![0u32; g.zindex.preds.len()];
    let mut bits = vec![0u64; w * g.zindex.preds.len()];
    for (k, (on, p)) in g.zindex.preds.iter().enumerate() {
        for x in 0..elems(g, *on) {
            if zpred_at(g, *on, p, z, vars, x as u32) {
                counts[k] += 1;
                bits[k * w + x / 64] |= 1 << (x % 64);
            }
        }
    }
    (counts, bits)
}

/// A piece went from zone `from` to zone `to`: the nodes or edges owning
/// either zone are tested again for each predicate that reads zones of
/// their kind.
#[inline]
pub(super) fn moved(g: &Game, st: &mut State, piece: u32, from: u32, to: u32) {
    if from == to || st.zcount.is_empty() {
        return;
    }
    let owner = g.piece_owner[piece as usize] as u8;
    for &(base, k, on, seat) in &g.zindex.watch {
        // A seat's predicate changes only when one of its pieces moves.
        if seat != u8::MAX && seat != owner {
            continue;
        }
        let n = elems(g, on) as u32;
        if from.wrapping_sub(base) < n {
            retest(g, st, k as usize, from - base);
        }
        if to.wrapping_sub(base) < n {
            retest(g, st, k as usize, to - base);
        }
    }
}

/// Variable slot `slot` was assigned: the node or edge owning it is tested
/// again for each predicate that reads its variable.
#[inline]
pub(super) fn var_set(g: &Game, st: &mut State, slot: usize) {
    if st.zcount.is_empty() {
        return;
    }
    for &(base, k, on) in &g.zindex.var_watch {
        let x = (slot as u32).wrapping_sub(base);
        if x < elems(g, on) as u32 {
            retest(g, st, k as usize, x);
        }
    }
}

fn retest(g: &Game, st: &mut State, k: usize, node: u32) {
    let (on, p) = &g.zindex.preds[k];
    let now = zpred_at(g, *on, p, &st.zones, &st.vars, node);
    let i = k * words(g) + node as usize / 64;
    let bit = 1u64 << (node % 64);
    if now != (st.zbits[i] & bit != 0) {
        st.zbits[i] ^= bit;
        if now {
            st.zcount[k] += 1;
        } else {
            st.zcount[k] -= 1;
        }
    }
}

/// The slot of predicate `p` over `on` if this position keeps an index of it.
#[inline]
pub(crate) fn slot(g: &Game, st: &State, on: Elems, p: &ZPred) -> Option<usize> {
    if st.zcount.is_empty() {
        return None;
    }
    g.zindex.slot(on, p)
}

/// How many nodes (edges) pass predicate `k`.
#[inline]
pub(crate) fn count(st: &State, k: usize) -> u32 {
    st.zcount[k]
}

/// Pushes the nodes (edges) that pass predicate `k`, lowest first (the order
/// of a scan). The count is known, so the stack grows once and each element
/// is one write.
// Inlined into its two callers: a call costs more than the few elements
// most sets hold (measured: 3,600 instructions a game of Auf Heller und
// Pfennig).
#[inline(always)]
pub(crate) fn push_elems(g: &Game, st: &mut State, k: usize) {
    let w = words(g);
    let State {
        zbits,
        zcount,
        scratch,
        ..
    } = st;
    let mark = scratch.len();
    scratch.resize(mark + zcount[k] as usize, 0);
    let out = &mut scratch[mark..];
    let mut at = 0;
    for (j, &word) in zbits[k * w..][..w].iter().enumerate() {
        let mut rest = word;
        while rest != 0 {
            out[at] = (j * 64) as Val + rest.trailing_zeros() as Val;
            at += 1;
            rest &= rest - 1;
        }
    }
}

/// Whether every index equals the scan it replaces; the first difference otherwise.
pub fn agrees(g: &Game, st: &State) -> Result<(), String> {
    if st.zcount.is_empty() {
        return Ok(());
    }
    let (counts, bits) = build(g, &st.zones, &st.vars);
    if counts != st.zcount || bits != st.zbits {
        let k = (0..counts.len())
            .find(|&k| counts[k] != st.zcount[k])
            .unwrap_or(0);
        return Err(format!(
            "the index of zone test {k} ({:?}) counts {} elements, a scan {} (sets equal: {})",
            g.zindex.preds[k],
            st.zcount[k],
            counts[k],
            bits == st.zbits
        ));
    }
    Ok(())
}
