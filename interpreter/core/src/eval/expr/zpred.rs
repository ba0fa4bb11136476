//! Node (and edge) tests of zone sizes and own variables (`ir::ZPred`, from
//! `opt/zone_pred.rs`): evaluated over all nodes or edges without the
//! expression machine, by the tree evaluator and the bytecode machine alike.

use crate::eval::zindex;
use crate::eval::zones::Zones;
use crate::eval::State;
use crate::ir::*;
use crate::ops;

/// The zone sizes of every node for the per-node zones at `bases`, one
/// window of `start` per base: `start[b + i + 1] - start[b + i]` is the size
/// of node `i`'s zone. Slicing once lets the compiler drop the bounds checks.
#[inline]
fn windows(start: &[u32], b: u32, n: usize) -> &[u32] {
    &start[b as usize..][..n + 1]
}

/// Pushes the nodes whose zones at `bases` are all empty (a free cell).
/// Branch-free: every node is written and the write position advances only
/// past the free ones.
fn push_all_empty(bases: &[u32], start: &[u32], n: usize, out: &mut Vec<Val>) {
    let mark = out.len();
    out.resize(mark + n, 0);
    let buf = &mut out[mark..];
    let mut w = 0;
    match *bases {
        [a] => {
            let sa = windows(start, a, n);
            for i in 0..n {
                buf[w] = i as Val;
                w += (sa[i] == sa[i + 1]) as usize;
            }
        }
        [a, b] => {
            let (sa, sb) = (windows(start, a, n), windows(start, b, n));
            for i in 0..n {
                buf[w] = i as Val;
                // Both sizes are zero exactly when their bitwise or is.
                w += (((sa[i + 1] - sa[i]) | (sb[i + 1] - sb[i])) == 0) as usize;
            }
        }
        _ => {
            for i in 0..n {
                buf[w] = i as Val;
                w += all_empty_at(bases, start, i) as usize;
            }
        }
    }
    out.truncate(mark + w);
}

/// Whether node `i`'s zones at `bases` are all empty.
#[inline]
fn all_empty_at(bases: &[u32], start: &[u32], i: usize) -> bool {
    bases
        .iter()
        .all(|&b| start[b as usize + i] == start[b as usize + i + 1])
}

/// `any`, `all` or `count` over all nodes of "every zone at `bases` is empty".
fn agg_all_empty(op: AggOp, bases: &[u32], start: &[u32], n: usize) -> Val {
    let free = |i: usize| all_empty_at(bases, start, i);
    match (op, bases) {
        (AggOp::Count, &[a, b]) => {
            let (sa, sb) = (windows(start, a, n), windows(start, b, n));
            (0..n)
                .filter(|&i| ((sa[i + 1] - sa[i]) | (sb[i + 1] - sb[i])) == 0)
                .count() as Val
        }
        (AggOp::Any, &[a, b]) => {
            let (sa, sb) = (windows(start, a, n), windows(start, b, n));
            (0..n).any(|i| ((sa[i + 1] - sa[i]) | (sb[i + 1] - sb[i])) == 0) as Val
        }
        (AggOp::Any, _) => (0..n).any(free) as Val,
        (AggOp::All, _) => (0..n).all(free) as Val,
        _ => (0..n).filter(|&i| free(i)).count() as Val,
    }
}

/// Evaluates the zone test of node (or edge) `n` (see [`ZPred`]).
///
/// The commonest test, whether one zone is empty (`empty(c.slot)`), is
/// answered inlined where it is asked (measured: 58 instructions a retest
/// of connect four's index on each move before); the other single tests in
/// [`zpred_leaf`], and only the connectives in [`zpred_rest`], which calls
/// this again. A function that calls itself saves and restores more
/// registers on every call (measured: a third of an index's retest).
#[inline(always)]
pub(crate) fn zpred(g: &Game, on: Elems, p: &ZPred, z: &Zones, vars: &[Val], n: u32) -> bool {
    let p = match p {
        ZPred::Indexed(_, a) => a,
        p => p,
    };
    match p {
        ZPred::AllEmpty(bases) if bases.len() == 1 => z.len(bases[0] + n) == 0,
        _ => zpred_leaf(g, on, p, z, vars, n),
    }
}

/// [`zpred`] for a test that is not a connective; a connective is passed
/// on to [`zpred_rest`].
#[inline(never)]
fn zpred_leaf(g: &Game, on: Elems, p: &ZPred, z: &Zones, vars: &[Val], n: u32) -> bool {
    match p {
        ZPred::AllEmpty(bases) => bases.iter().all(|&b| z.len(b + n) == 0),
        ZPred::Len(base, op, k) => {
            // `count(zone) op k` as a test; the pass makes only comparisons,
            // which cannot fail.
            let len = z.len(base + n) as Val;
            ops::binary(*op, len, *k).is_ok_and(|v| v != 0)
        }
        ZPred::LenAttr(base, op, a) => {
            let attrs = match on {
                Elems::Nodes => &g.node_attrs,
                Elems::Edges => &g.edge_attrs,
            };
            let len = z.len(base + n) as Val;
            ops::binary(*op, len, attrs[*a as usize].2[n as usize]).is_ok_and(|v| v != 0)
        }
        ZPred::Owns(base, s) => z
            .slice(base + n)
            .iter()
            .any(|&x| g.piece_owner[x as usize] as Val == *s as Val),
        // A comparison with a constant, which cannot fail.
        ZPred::Var(base, op, k) => {
            ops::binary(*op, vars[(base + n) as usize], *k).is_ok_and(|v| v != 0)
        }
        ZPred::And(..) | ZPred::Or(..) | ZPred::Not(_) | ZPred::Indexed(..) => {
            zpred_rest(g, on, p, z, vars, n)
        }
    }
}

/// [`zpred`] for a connective.
#[inline(never)]
fn zpred_rest(g: &Game, on: Elems, p: &ZPred, z: &Zones, vars: &[Val], n: u32) -> bool {
    match p {
        ZPred::And(a, b) => zpred(g, on, a, z, vars, n) && zpred(g, on, b, z, vars, n),
        ZPred::Or(a, b) => zpred(g, on, a, z, vars, n) || zpred(g, on, b, z, vars, n),
        ZPred::Not(a) => !zpred(g, on, a, z, vars, n),
        ZPred::Indexed(_, a) => zpred(g, on, a, z, vars, n),
        leaf => zpred_leaf(g, on, leaf, z, vars, n),
    }
}

/// `any`, `all` or `count` over all nodes (edges) of a test of each one's
/// own zones: read from the position's index (`eval/zindex.rs`) when it
/// keeps one.
pub(crate) fn zone_agg(g: &Game, st: &State, op: AggOp, on: Elems, p: &ZPred) -> Val {
    let Some(k) = zindex::slot(g, st, on, p) else {
        return scan_agg(g, st, op, on, p);
    };
    let c = zindex::count(st, k) as Val;
    let v = match op {
        AggOp::Any => (c > 0) as Val,
        AggOp::All => (c == zindex::elems(g, on) as Val) as Val,
        _ => c,
    };
    debug_assert_eq!(v, scan_agg(g, st, op, on, p), "an index equals its scan");
    v
}

/// [`zone_agg`] by testing every node (edge).
fn scan_agg(g: &Game, st: &State, op: AggOp, on: Elems, p: &ZPred) -> Val {
    let z = &st.zones;
    let n = zindex::elems(g, on) as u32;
    if let ZPred::AllEmpty(bases) = p.plain() {
        return agg_all_empty(op, bases, &z.start, n as usize);
    }
    let test = |x: u32| zpred(g, on, p, z, &st.vars, x);
    match op {
        AggOp::Any => (0..n).any(test) as Val,
        AggOp::All => (0..n).all(test) as Val,
        _ => (0..n).filter(|&x| test(x)).count() as Val,
    }
}

/// Pushes the nodes (edges) that pass a test of their own zones: from the
/// position's index (`eval/zindex.rs`) when it keeps one.
pub(crate) fn push_where(g: &Game, st: &mut State, on: Elems, p: &ZPred) {
    if let Some(k) = zindex::slot(g, st, on, p) {
        debug_assert!(zindex::agrees(g, st).is_ok(), "an index equals its scan");
        zindex::push_elems(g, st, k);
        return;
    }
    let n = zindex::elems(g, on) as u32;
    if let ZPred::AllEmpty(bases) = p.plain() {
        // Free cells, the commonest query of all: read the zone starts in
        // place instead of calling `zpred` per node (measured: 14 % of a
        // game's instructions).
        push_all_empty(bases, &st.zones.start, n as usize, &mut st.scratch);
    } else {
        for x in 0..n {
            if zpred(g, on, p, &st.zones, &st.vars, x) {
                st.scratch.push(x as Val);
            }
        }
    }
}

/// Pushes the nodes (edges) whose own zone at `base` holds a piece of seat
/// `who` (`Coll::ZonesOwned`), lowest first: from the position's index when
/// it keeps that seat's predicate (slot `first + who`), else by a scan.
pub(crate) fn push_owned(g: &Game, st: &mut State, on: Elems, base: u32, who: Val, first: u32) {
    if let Some(k) = owned_slot(g, st, who, first) {
        zindex::push_elems(g, st, k);
        return;
    }
    for x in 0..zindex::elems(g, on) as u32 {
        if owns(g, st, base + x, who) {
            st.scratch.push(x as Val);
        }
    }
}

/// How many nodes (edges) [`push_owned`] would push: read from the index
/// when it keeps that seat's predicate, else counted by the same scan.
pub(crate) fn count_owned(g: &Game, st: &State, on: Elems, base: u32, who: Val, first: u32) -> u64 {
    if let Some(k) = owned_slot(g, st, who, first) {
        return u64::from(zindex::count(st, k));
    }
    (0..zindex::elems(g, on) as u32)
        .filter(|&x| owns(g, st, base + x, who))
        .count() as u64
}

/// The index's slot of seat `who`'s predicate, the predicates of
/// [`Coll::ZonesOwned`] lying from `first` on, when the position keeps it.
#[inline]
fn owned_slot(g: &Game, st: &State, who: Val, first: u32) -> Option<usize> {
    let kept =
        first != u32::MAX && !st.zcount.is_empty() && (0..g.max_players as Val).contains(&who);
    debug_assert!(
        !kept || zindex::agrees(g, st).is_ok(),
        "an index equals its scan"
    );
    kept.then(|| (first + who as u32) as usize)
}

/// Whether zone `z` holds a piece of seat `who`.
fn owns(g: &Game, st: &State, z: u32, who: Val) -> bool {
    st.zones
        .slice(z)
        .iter()
        .any(|&p| g.piece_owner[p as usize] as Val == who)
}
