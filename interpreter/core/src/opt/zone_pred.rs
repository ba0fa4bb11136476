//! Zone predicates: a filter over all nodes, or an `any`/`all`/`count` over
//! all nodes, whose test only looks at the sizes of the node's own zones
//! (`nodes where free(it)`, the commonest board query) becomes a flat
//! [`ZPred`] evaluated without the expression machine. Run after inlining,
//! so that `free(it)` has been unfolded.

use crate::ast::BinOp;
use crate::ir::walk::{walk_e, walk_game, Visit};
use crate::ir::*;

pub(super) fn run(g: &mut Game) {
    // The predicates of the rules that play are indexed by the executor
    // (`eval/zindex.rs`). Invariants' are rewritten too but not indexed: a
    // random playout without invariants would keep their index current at
    // every move and never read it.
    let invariants = std::mem::take(&mut g.invariants);
    let mut v = ZonePreds(Some(ZPredIndex::default()));
    walk_game(g, &mut v);
    g.invariants = invariants;
    g.zindex = v.0.take().unwrap_or_default();
    for (_, e, _, _) in g.invariants.iter_mut() {
        v.root();
        walk_e(e, &mut v);
    }
}

/// The rewrite, and the index it adds each predicate to (none for invariants).
struct ZonePreds(Option<ZPredIndex>);

impl Visit for ZonePreds {
    fn expr(&mut self, e: &mut Expr) {
        specialize_e(e);
        if let (Expr::NodesZoneAgg(_, p), Some(ix)) = (&*e, &mut self.0) {
            ix.add(p);
        }
    }
    fn coll(&mut self, c: &mut Coll) {
        specialize(c);
        if let (Coll::NodesWhereZones(p), Some(ix)) = (&*c, &mut self.0) {
            ix.add(p);
        }
    }
}

/// `any`/`all`/`count` over all nodes whose test reads only the node's own
/// zone sizes becomes [`Expr::NodesZoneAgg`].
fn specialize_e(e: &mut Expr) {
    let Expr::Agg {
        op,
        coll,
        slot,
        body: Some(body),
    } = e
    else {
        return;
    };
    if !matches!(**coll, Coll::Nodes) || !matches!(op, AggOp::Any | AggOp::All | AggOp::Count) {
        return;
    }
    if let Some(p) = zpred(body, *slot) {
        *e = Expr::NodesZoneAgg(*op, flatten(p));
    }
}

/// `nodes where P` with `P` a test of the node's own zone sizes becomes a
/// [`ZPred`] program. Run after inlining, so `free(it)` has been unfolded.
fn specialize(c: &mut Coll) {
    let Coll::Filter(inner, slot, cond) = c else {
        return;
    };
    if !matches!(**inner, Coll::Nodes) {
        return;
    }
    if let Some(p) = zpred(cond, *slot) {
        *c = Coll::NodesWhereZones(flatten(p));
    }
}

/// A conjunction of emptiness tests becomes one [`ZPred::AllEmpty`].
fn flatten(p: ZPred) -> ZPred {
    fn empties(p: &ZPred, out: &mut Vec<u32>) -> bool {
        match p {
            ZPred::Len(b, BinOp::Eq, 0) => {
                out.push(*b);
                true
            }
            ZPred::And(a, b) => empties(a, out) && empties(b, out),
            _ => false,
        }
    }
    let mut bases = vec![];
    if empties(&p, &mut bases) {
        ZPred::AllEmpty(bases)
    } else {
        p
    }
}

fn zpred(e: &Expr, slot: u16) -> Option<ZPred> {
    let own = |z: &ZoneRef| matches!(&z.index, ZIndex::Node(n) if matches!(**n, Expr::Local(s) if s == slot));
    Some(match e {
        Expr::ZoneEmpty(z) if own(z) => ZPred::Len(z.base, BinOp::Eq, 0),
        Expr::Not(a) => ZPred::Not(Box::new(zpred(a, slot)?)),
        Expr::Bin(BinOp::And, a, b) => {
            ZPred::And(Box::new(zpred(a, slot)?), Box::new(zpred(b, slot)?))
        }
        Expr::Bin(BinOp::Or, a, b) => {
            ZPred::Or(Box::new(zpred(a, slot)?), Box::new(zpred(b, slot)?))
        }
        Expr::Bin(
            op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
            a,
            b,
        ) => match (&**a, &**b) {
            (Expr::ZoneLen(z), Expr::Const(k)) if own(z) => ZPred::Len(z.base, *op, *k),
            _ => return None,
        },
        _ => return None,
    })
}
