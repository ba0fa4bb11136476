//! Folding over the static board: an aggregate over all nodes or edges
//! whose body reads only the bound element's attributes
//! (`max(c in nodes: c.col)`) has one value for the board, computed here once
//! instead of in every match; so is the list of nodes or edges an
//! aggregate walks when a test of their attributes picks them.

use crate::ir::walk::walk_game;
use crate::ir::*;
use crate::ops;

pub(super) fn run(g: &mut Game) {
    let tables = Static {
        nodes: g.node_attrs.iter().map(|a| a.2.clone()).collect(),
        edges: g.edge_attrs.iter().map(|a| a.2.clone()).collect(),
        nnodes: g.board.nodes.len(),
        nedges: g.board.edges.len(),
    };
    walk_game(g, &mut |e: &mut Expr| fold_static(e, &tables));
}

/// The board's attribute tables: what an expression may read and still be
/// the same in every match.
struct Static {
    nodes: Vec<Vec<Val>>,
    edges: Vec<Vec<Val>>,
    nnodes: usize,
    nedges: usize,
}

/// An aggregate over all nodes or edges whose body reads only the bound
/// element's attributes (`max(c in nodes: c.row)`) has one value for the
/// board: it is computed here, once, instead of in every match.
fn fold_static(e: &mut Expr, t: &Static) {
    if let Expr::Agg { coll, .. } = e {
        fold_filter(coll, t);
    }
    let Expr::Agg {
        op,
        coll,
        slot,
        body: Some(body),
    } = e
    else {
        return;
    };
    let (n, on_nodes) = match **coll {
        Coll::Nodes => (t.nnodes, true),
        Coll::Edges => (t.nedges, false),
        _ => return,
    };
    if n == 0
        || !matches!(
            op,
            AggOp::Count | AggOp::Sum | AggOp::Any | AggOp::All | AggOp::Min | AggOp::Max
        )
    {
        return;
    }
    let mut vals = Vec::with_capacity(n);
    for x in 0..n as Val {
        match static_val(body, *slot, x, on_nodes, t) {
            Some(v) => vals.push(v),
            None => return,
        }
    }
    let v = match op {
        AggOp::Count => vals.iter().filter(|&&v| v != 0).count() as Val,
        // A sum that overflows is left to fail at run time, as unfolded.
        AggOp::Sum => match vals.iter().try_fold(0, |a: Val, &v| ops::add(a, v).ok()) {
            Some(v) => v,
            None => return,
        },
        AggOp::Any => vals.iter().any(|&v| v != 0) as Val,
        AggOp::All => vals.iter().all(|&v| v != 0) as Val,
        AggOp::Min => *vals.iter().min().unwrap(),
        _ => *vals.iter().max().unwrap(),
    };
    *e = Expr::Const(v);
}

/// The elements an aggregate walks, when they are the nodes or edges that
/// pass a test of their own attributes (`all(c in nodes where row == col:
/// …)`, a diagonal): the same for every match, so listed here once. Only an
/// aggregate's collection is folded: an action's or a `choose`'s domain keeps
/// its `where`, which `why_illegal` names when it refuses a label.
fn fold_filter(c: &mut Coll, t: &Static) {
    let Coll::Filter(inner, slot, cond) = c else {
        return;
    };
    let (n, on_nodes) = match **inner {
        Coll::Nodes => (t.nnodes, true),
        Coll::Edges => (t.nedges, false),
        _ => return,
    };
    let mut kept = vec![];
    for x in 0..n as Val {
        match static_val(cond, *slot, x, on_nodes, t) {
            Some(0) => {}
            Some(_) => kept.push(Expr::Const(x)),
            None => return,
        }
    }
    *c = Coll::List(kept);
}

/// The value of `e` with local `slot` bound to node or edge `x`, if `e`
/// reads nothing but constants and that element's attributes.
fn static_val(e: &Expr, slot: u16, x: Val, on_nodes: bool, t: &Static) -> Option<Val> {
    let sv = |a: &Expr| static_val(a, slot, x, on_nodes, t);
    Some(match e {
        Expr::Const(v) => *v,
        Expr::Local(s) if *s == slot => x,
        Expr::NodeAttr(i, a) if on_nodes && matches!(**a, Expr::Local(s) if s == slot) => {
            t.nodes[*i as usize][x as usize]
        }
        Expr::EdgeAttr(i, a) if !on_nodes && matches!(**a, Expr::Local(s) if s == slot) => {
            t.edges[*i as usize][x as usize]
        }
        Expr::Neg(a) => ops::neg(sv(a)?).ok()?,
        Expr::Not(a) => ops::not(sv(a)?),
        Expr::If(c, a, b) => {
            if sv(c)? != 0 {
                sv(a)?
            } else {
                sv(b)?
            }
        }
        // An operation that fails is not folded: it stays a run-time error.
        Expr::Bin(op, a, b) => ops::fold(*op, sv(a)?, sv(b)?)?,
        _ => return None,
    })
}
