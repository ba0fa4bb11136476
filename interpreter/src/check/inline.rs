//! Inlining: a call to a small pure function whose arguments are simple
//! (constants, locals, global variables) is replaced by the function's body
//! with the arguments substituted. This removes the call frame from the
//! hottest expressions (`free(c)` in a filter over every node) without
//! changing meaning: the substituted arguments have no effects and are
//! cheap to evaluate twice.

use super::ir::*;
use crate::ast::BinOp;
use super::Game;
use crate::limits::MAX_INLINED_SIZE;
use std::cell::Cell;

/// Inlines calls everywhere in the game, to a fixed depth and within a
/// size budget: each function body and each statement may receive at most
/// [`MAX_INLINED_SIZE`] pasted expression nodes, so that calls nested in
/// calls cannot grow the game exponentially; beyond it, calls stay calls.
pub(super) fn inline_game(g: &mut Game) {
    let budget = Cell::new(0);
    // Function bodies first, so that callers paste already simplified bodies.
    let first: Vec<FnDecl> = g.fns.clone();
    for fd in g.fns.iter_mut() {
        budget.set(MAX_INLINED_SIZE);
        walk_e(&mut fd.body, &mut |e: &mut E| inline_call(e, &first, 0, &budget));
    }
    let fns: Vec<FnDecl> = g.fns.clone();
    let tables = Static {
        nodes: g.node_attrs.iter().map(|a| a.2.clone()).collect(),
        edges: g.edge_attrs.iter().map(|a| a.2.clone()).collect(),
        nnodes: g.board.nodes.len(),
        nedges: g.board.edges.len(),
    };
    // Each root (a statement, a domain, a hole, …) starts with a fresh budget.
    let mut f = |e: &mut E| {
        inline_call(e, &fns, 0, &budget);
        fold_static(e, &tables);
    };
    for b in g.blocks.iter_mut() {
        for st in b.iter_mut() {
            budget.set(MAX_INLINED_SIZE);
            walk_s(&mut st.s, &mut f);
        }
    }
    for a in g.actions.iter_mut() {
        for p in a.params.iter_mut() {
            budget.set(MAX_INLINED_SIZE);
            walk_c(&mut p.domain, &mut f);
        }
        for (e, _, _) in a.pre.iter_mut() {
            budget.set(MAX_INLINED_SIZE);
            walk_e(e, &mut f);
        }
    }
    for t in g.templates.iter_mut() {
        for part in t.parts.iter_mut() {
            if let TPart::Hole(e, _) = part {
                budget.set(MAX_INLINED_SIZE);
                walk_e(e, &mut f);
            }
        }
    }
    for (_, e, _, _) in g.invariants.iter_mut() {
        budget.set(MAX_INLINED_SIZE);
        walk_e(e, &mut f);
    }
    if let Some((e, _, _)) = g.score.as_mut() {
        budget.set(MAX_INLINED_SIZE);
        walk_e(e, &mut f);
    }
    for (e, _) in g.tiebreaks.iter_mut() {
        budget.set(MAX_INLINED_SIZE);
        walk_e(e, &mut f);
    }
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
fn fold_static(e: &mut E, t: &Static) {
    let E::Agg { op, coll, slot, body: Some(body) } = e else { return };
    let (n, on_nodes) = match **coll {
        C::Nodes => (t.nnodes, true),
        C::Edges => (t.nedges, false),
        _ => return,
    };
    if n == 0 || !matches!(op, AggOp::Count | AggOp::Sum | AggOp::Any | AggOp::All | AggOp::Min | AggOp::Max) {
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
        AggOp::Sum => match vals.iter().try_fold(0, |a: Val, &v| a.checked_add(v)) {
            Some(v) => v,
            None => return,
        },
        AggOp::Any => vals.iter().any(|&v| v != 0) as Val,
        AggOp::All => vals.iter().all(|&v| v != 0) as Val,
        AggOp::Min => *vals.iter().min().unwrap(),
        _ => *vals.iter().max().unwrap(),
    };
    *e = E::Const(v);
}

/// The value of `e` with local `slot` bound to node or edge `x`, if `e`
/// reads nothing but constants and that element's attributes.
fn static_val(e: &E, slot: u16, x: Val, on_nodes: bool, t: &Static) -> Option<Val> {
    let sv = |a: &E| static_val(a, slot, x, on_nodes, t);
    Some(match e {
        E::Const(v) => *v,
        E::Local(s) if *s == slot => x,
        E::NodeAttr(i, a) if on_nodes && matches!(**a, E::Local(s) if s == slot) => t.nodes[*i as usize][x as usize],
        E::EdgeAttr(i, a) if !on_nodes && matches!(**a, E::Local(s) if s == slot) => t.edges[*i as usize][x as usize],
        E::Neg(a) => sv(a)?.checked_neg()?,
        E::Not(a) => (sv(a)? == 0) as Val,
        E::If(c, a, b) => {
            if sv(c)? != 0 {
                sv(a)?
            } else {
                sv(b)?
            }
        }
        E::Bin(op, a, b) => {
            let (x, y) = (sv(a)?, sv(b)?);
            match op {
                // An overflow is not folded: it stays a run-time error.
                BinOp::Add => x.checked_add(y)?,
                BinOp::Sub => x.checked_sub(y)?,
                BinOp::Mul => x.checked_mul(y)?,
                BinOp::Eq => (x == y) as Val,
                BinOp::Ne => (x != y) as Val,
                BinOp::Lt => (x < y) as Val,
                BinOp::Le => (x <= y) as Val,
                BinOp::Gt => (x > y) as Val,
                BinOp::Ge => (x >= y) as Val,
                BinOp::And => (x != 0 && y != 0) as Val,
                BinOp::Or => (x != 0 || y != 0) as Val,
                // Division keeps its run-time error for a zero divisor.
                _ => return None,
            }
        }
        _ => return None,
    })
}

fn simple(e: &E) -> bool {
    matches!(e, E::Const(_) | E::Local(_) | E::Var(_, None))
}

fn inline_call(e: &mut E, fns: &[FnDecl], depth: u32, budget: &Cell<usize>) {
    let E::Call { func, args, .. } = e else { return };
    let f = &fns[*func as usize];
    // Only bodies that read no locals of their own (no aggregate binding a
    // name) can be pasted into the caller's frame without renumbering.
    if depth > 6 || !args.iter().all(simple) || !reads_only_params(&f.body, f.nparams) {
        return;
    }
    let mut body = f.body.clone();
    let mut size = 0usize;
    walk_e(&mut body, &mut |_| size += 1);
    if size > budget.get() {
        return;
    }
    budget.set(budget.get() - size);
    substitute(&mut body, args);
    walk_e(&mut body, &mut |x| inline_call(x, fns, depth + 1, budget));
    *e = body;
}

fn reads_only_params(body: &E, nparams: u16) -> bool {
    let mut ok = true;
    super::stmt::visit_e(body, &mut |s| ok &= s < nparams);
    ok
}

fn substitute(e: &mut E, args: &[E]) {
    walk_e(e, &mut |x| {
        if let E::Local(s) = x {
            *x = args[*s as usize].clone();
        }
    });
}

/// Applies `f` to every expression node below and including `e`, children first.
pub(super) fn walk_e(e: &mut E, f: &mut dyn FnMut(&mut E)) {
    match e {
        E::Const(_) | E::Local(_) | E::NodesZoneAgg(..) => {}
        E::Var(_, i) => {
            if let Some(i) = i {
                walk_e(i, f)
            }
        }
        E::Field(_, a) | E::Owner(a) | E::NodeAttr(_, a) | E::EdgeAttr(_, a) | E::EdgeFrom(a) | E::EdgeTo(a) | E::Neg(a) | E::Not(a) | E::IsKind(a, _) => walk_e(a, f),
        E::Zone(z) | E::ZoneLen(z) | E::ZoneEmpty(z) => walk_z(z, f),
        E::Agg { coll, body, .. } => {
            walk_c(coll, f);
            if let Some(b) = body {
                walk_e(b, f);
            }
        }
        E::Bin(_, a, b) | E::Pos2(a, b, _) => {
            walk_e(a, f);
            walk_e(b, f);
        }
        E::In(a, c) => {
            walk_e(a, f);
            walk_c(c, f);
        }
        E::If(a, b, c) => {
            walk_e(a, f);
            walk_e(b, f);
            walk_e(c, f);
        }
        E::Call { args, .. } => args.iter_mut().for_each(|a| walk_e(a, f)),
        E::Builtin(_, args, c, _) => {
            args.iter_mut().for_each(|a| walk_e(a, f));
            if let Some(c) = c {
                walk_c(c, f);
            }
        }
    }
    f(e);
    specialize_e(e);
}

/// `any`/`all`/`count` over all nodes with a zone-only test (see [`specialize`]);
/// `first` and `empty` of a filter stop at the first element that passes;
/// `last` of a filtered plain zone searches from the top down.
fn specialize_e(e: &mut E) {
    if let E::Builtin(Builtin::Last, _, Some(c), _) = e {
        if let C::Filter(inner, slot, cond) = &mut **c {
            if matches!(**inner, C::Zone(_)) {
                *e = E::Agg {
                    op: AggOp::Last,
                    coll: Box::new(std::mem::replace(&mut **inner, C::Players)),
                    slot: *slot,
                    body: Some(Box::new(std::mem::replace(cond, E::Const(0)))),
                };
                return;
            }
        }
    }
    if let E::Builtin(b @ (Builtin::First | Builtin::Empty), _, Some(c), _) = e {
        if let C::Filter(inner, slot, cond) = &mut **c {
            let agg = E::Agg {
                op: if *b == Builtin::First { AggOp::First } else { AggOp::Any },
                coll: Box::new(std::mem::replace(&mut **inner, C::Players)),
                slot: *slot,
                body: Some(Box::new(std::mem::replace(cond, E::Const(0)))),
            };
            *e = if *b == Builtin::First { agg } else { E::Not(Box::new(agg)) };
            return;
        }
    }
    let E::Agg { op, coll, slot, body: Some(body) } = e else { return };
    if !matches!(**coll, C::Nodes) || !matches!(op, AggOp::Any | AggOp::All | AggOp::Count) {
        return;
    }
    if let Some(p) = zpred(body, *slot) {
        *e = E::NodesZoneAgg(*op, flatten(p));
    }
}

fn walk_z(z: &mut ZoneRef, f: &mut dyn FnMut(&mut E)) {
    match &mut z.index {
        ZIndex::Global => {}
        ZIndex::Player(e) | ZIndex::Node(e) | ZIndex::Edge(e) | ZIndex::Value(e) | ZIndex::At(e, _) => walk_e(e, f),
    }
}

pub(super) fn walk_c(c: &mut C, f: &mut dyn FnMut(&mut E)) {
    walk_c_children(c, f);
    specialize(c);
}

/// `nodes where P` with `P` a test of the node's own zone sizes becomes a
/// [`ZPred`] program. Run after inlining, so `free(it)` has been unfolded.
fn specialize(c: &mut C) {
    let C::Filter(inner, slot, cond) = c else { return };
    if !matches!(**inner, C::Nodes) {
        return;
    }
    if let Some(p) = zpred(cond, *slot) {
        *c = C::NodesWhereZones(flatten(p));
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

fn zpred(e: &E, slot: u16) -> Option<ZPred> {
    let own = |z: &ZoneRef| matches!(&z.index, ZIndex::Node(n) if matches!(**n, E::Local(s) if s == slot));
    Some(match e {
        E::ZoneEmpty(z) if own(z) => ZPred::Len(z.base, BinOp::Eq, 0),
        E::Not(a) => ZPred::Not(Box::new(zpred(a, slot)?)),
        E::Bin(BinOp::And, a, b) => ZPred::And(Box::new(zpred(a, slot)?), Box::new(zpred(b, slot)?)),
        E::Bin(BinOp::Or, a, b) => ZPred::Or(Box::new(zpred(a, slot)?), Box::new(zpred(b, slot)?)),
        E::Bin(op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => match (&**a, &**b) {
            (E::ZoneLen(z), E::Const(k)) if own(z) => ZPred::Len(z.base, *op, *k),
            _ => return None,
        },
        _ => return None,
    })
}

fn walk_c_children(c: &mut C, f: &mut dyn FnMut(&mut E)) {
    match c {
        C::Zone(z) => walk_z(z, f),
        C::Players | C::Nodes | C::Edges | C::NodesWhereZones(_) => {}
        C::PlayersFrom(e) | C::Opponents(e) | C::Successors(e) | C::Predecessors(e) | C::Neighbors(e) | C::EdgesOf(e) | C::NodesWithAttr(_, e) => walk_e(e, f),
        C::Range(a, b) => {
            walk_e(a, f);
            walk_e(b, f);
        }
        C::List(es) => es.iter_mut().for_each(|e| walk_e(e, f)),
        C::Filter(c, _, e) | C::Map(c, _, e) | C::Distinct(c, _, e) | C::Sorted(c, _, e) | C::Reachable(e, c) => {
            walk_c(c, f);
            walk_e(e, f);
        }
    }
}

pub(super) fn walk_s(s: &mut S, f: &mut dyn FnMut(&mut E)) {
    match s {
        S::Let(_, e) | S::Require(e) | S::Reveal(e, _) => walk_e(e, f),
        S::Assign(p, _, e) => {
            if let Place::Var(_, Some(i)) = p {
                walk_e(i, f);
            }
            walk_e(e, f);
        }
        S::If(e, _, _) | S::While(e, _) | S::JumpUnless(e, _) => walk_e(e, f),
        S::For(_, c, _) => walk_c(c, f),
        S::Move(w, z, _) => {
            match w {
                MoveWhat::One(e) => walk_e(e, f),
                MoveWhat::All(c) => walk_c(c, f),
                MoveWhat::N(e, c) => {
                    walk_e(e, f);
                    walk_c(c, f);
                }
            }
            walk_z(z, f);
        }
        S::Shuffle(z) => walk_z(z, f),
        S::Choose { player, from, .. } => {
            walk_e(player, f);
            walk_c(from, f);
        }
        S::Act { player, .. } => walk_e(player, f),
        S::Call(_, args) => args.iter_mut().for_each(|a| walk_e(a, f)),
        S::Break | S::Continue | S::Return | S::Log(_) | S::EndGame | S::Jump(_) => {}
    }
}
