//! The generic walkers over the program: each visits every expression below
//! a root, children first, and calls one function on each. They rewrite
//! nothing themselves: every rewrite is a pass of its own in `opt/`.

use super::*;

/// What a walk calls on each node: expressions and collections, children
/// first. A closure over `&mut Expr` is a visitor of expressions.
pub trait Visit {
    fn expr(&mut self, _e: &mut Expr) {}
    fn coll(&mut self, _c: &mut Coll) {}
    /// Called before each root of [`walk_game`].
    fn root(&mut self) {}
}

impl<F: FnMut(&mut Expr)> Visit for F {
    fn expr(&mut self, e: &mut Expr) {
        self(e)
    }
}

/// Applies `f` to every expression node below and including `e`, children first.
pub fn walk_e(e: &mut Expr, f: &mut dyn Visit) {
    match e {
        Expr::Const(_) | Expr::Local(_) | Expr::ZoneAgg(..) | Expr::Code(_) => {}
        Expr::Var(_, i) => {
            if let Some(i) = i {
                walk_e(i, f)
            }
        }
        Expr::Field(_, a)
        | Expr::Owner(a)
        | Expr::NodeAttr(_, a)
        | Expr::EdgeAttr(_, a)
        | Expr::EdgeFrom(a)
        | Expr::EdgeTo(a)
        | Expr::Neg(a)
        | Expr::Not(a)
        | Expr::IsKind(a, _) => walk_e(a, f),
        Expr::Zone(z) | Expr::ZoneLen(z) | Expr::ZoneEmpty(z) => walk_z(z, f),
        Expr::Agg { coll, body, .. } => {
            walk_c(coll, f);
            if let Some(b) = body {
                walk_e(b, f);
            }
        }
        Expr::Bin(_, a, b) | Expr::Pos2(a, b, _) => {
            walk_e(a, f);
            walk_e(b, f);
        }
        Expr::In(a, c) => {
            walk_e(a, f);
            walk_c(c, f);
        }
        Expr::If(a, b, c) => {
            walk_e(a, f);
            walk_e(b, f);
            walk_e(c, f);
        }
        Expr::Call { args, .. } => args.iter_mut().for_each(|a| walk_e(a, f)),
        Expr::NodeByKey {
            vals,
            within,
            fallback,
            ..
        } => {
            walk_c(within, f);
            vals.iter_mut().for_each(|a| walk_e(a, f));
            walk_e(fallback, f);
        }
        Expr::Builtin(_, args, c, _) => {
            args.iter_mut().for_each(|a| walk_e(a, f));
            if let Some(c) = c {
                walk_c(c, f);
            }
        }
    }
    f.expr(e);
}

/// Applies `f` to the index expression of a zone reference.
pub fn walk_z(z: &mut ZoneRef, f: &mut dyn Visit) {
    match &mut z.index {
        ZIndex::Global => {}
        ZIndex::Player(e)
        | ZIndex::Node(e)
        | ZIndex::Edge(e)
        | ZIndex::Value(e)
        | ZIndex::At(e, _) => walk_e(e, f),
    }
}

/// Applies `f` to every expression inside a collection, children first.
pub fn walk_c(c: &mut Coll, f: &mut dyn Visit) {
    match c {
        Coll::Zone(z) => walk_z(z, f),
        Coll::Players | Coll::Nodes | Coll::Edges | Coll::WhereZones(..) | Coll::Code(_) => {}
        Coll::PlayersFrom(e)
        | Coll::Opponents(e)
        | Coll::Successors(e)
        | Coll::Predecessors(e)
        | Coll::Neighbors(e)
        | Coll::EdgesOf(e)
        | Coll::Members(_, e)
        | Coll::NodesWithAttr(_, e)
        | Coll::ZonesOwned { who: e, .. } => walk_e(e, f),
        Coll::Components(_, c) => walk_c(c, f),
        Coll::Range(a, b) => {
            walk_e(a, f);
            walk_e(b, f);
        }
        Coll::List(es) => es.iter_mut().for_each(|e| walk_e(e, f)),
        Coll::Subsets { of, lo, hi, .. } => {
            walk_c(of, f);
            walk_e(lo, f);
            if let Some(h) = hi {
                walk_e(h, f);
            }
        }
        Coll::Subset(e, _) => walk_e(e, f),
        Coll::Filter(c, _, e)
        | Coll::Map(c, _, e)
        | Coll::Distinct(c, _, e)
        | Coll::Sorted(c, _, e)
        | Coll::Reachable(e, c)
        | Coll::ReachableVia(e, c) => {
            walk_c(c, f);
            walk_e(e, f);
        }
    }
    f.coll(c);
}

/// Applies `f` to every expression of one statement (not of nested blocks).
pub fn walk_s(s: &mut Instr, f: &mut dyn Visit) {
    match s {
        Instr::Let(_, e) | Instr::Require(e) | Instr::Reveal(e, _) => walk_e(e, f),
        Instr::Assign(p, _, e) => {
            if let Place::Var(_, Some(i)) | Place::Watched(_, i) = p {
                walk_e(i, f);
            }
            walk_e(e, f);
        }
        Instr::If(e, _, _) | Instr::While(e, _) => walk_e(e, f),
        Instr::For(_, c, _) => walk_c(c, f),
        Instr::Move(w, z, _) => {
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
        Instr::Shuffle(z) => walk_z(z, f),
        Instr::Choose { player, from, .. } => {
            walk_e(player, f);
            walk_c(from, f);
        }
        Instr::Act { player, .. } => walk_e(player, f),
        Instr::Call(_, args) => args.iter_mut().for_each(|a| walk_e(a, f)),
        Instr::Break
        | Instr::Continue
        | Instr::Return
        | Instr::Log(_)
        | Instr::EndGame
        | Instr::ShowBoard => {}
    }
}

/// The expressions of a template's parts, each a root, branches of a
/// choice included (nested no deeper than `MAX_TEMPLATE_NESTING`).
fn walk_parts(parts: &mut [TPart], v: &mut dyn Visit) {
    for part in parts {
        match part {
            TPart::Text(_) => {}
            TPart::Hole(e, _) | TPart::Set(e, _, _) => {
                v.root();
                walk_e(e, v);
            }
            TPart::Choice(c, a, b) => {
                v.root();
                walk_e(c, v);
                walk_parts(a, v);
                walk_parts(b, v);
            }
        }
    }
}

/// Walks every root of the program: function bodies, statements, action
/// domains and requirements, template holes, invariants, the score and the
/// tiebreaks. `v.root()` is called before each, so that a pass can keep a
/// budget per root.
pub fn walk_game(g: &mut Game, v: &mut dyn Visit) {
    for fd in g.fns.iter_mut() {
        v.root();
        walk_e(&mut fd.body, v);
    }
    for b in g.blocks.iter_mut() {
        for st in b.iter_mut() {
            v.root();
            walk_s(&mut st.s, v);
        }
    }
    for a in g.actions.iter_mut() {
        for p in a.params.iter_mut() {
            v.root();
            walk_c(&mut p.domain, v);
        }
        for (e, _, _) in a.pre.iter_mut() {
            v.root();
            walk_e(e, v);
        }
    }
    for t in g.templates.iter_mut() {
        walk_parts(&mut t.parts, v);
    }
    for (_, e, _, _) in g.invariants.iter_mut() {
        v.root();
        walk_e(e, v);
    }
    if let Some((e, _, _)) = g.score.as_mut() {
        v.root();
        walk_e(e, v);
    }
    for (e, _) in g.tiebreaks.iter_mut() {
        v.root();
        walk_e(e, v);
    }
    if let Some((e, _)) = g.team.as_mut() {
        v.root();
        walk_e(e, v);
    }
    for st in g.statistics.iter_mut() {
        v.root();
        walk_e(&mut st.expr, v);
    }
    for d in g.present.displays.iter_mut() {
        v.root();
        walk_e(&mut d.expr, v);
    }
    let board = g
        .present
        .node_look
        .iter_mut()
        .chain(g.present.edge_look.iter_mut());
    let looks = g.present.kind_looks.iter_mut().flatten().chain(board);
    for p in looks
        .flat_map(|l| [l.shape.as_mut(), l.colour.as_mut(), l.text.as_mut()])
        .flatten()
    {
        v.root();
        walk_e(&mut p.expr, v);
    }
    let zones = g.present.zone_looks.iter_mut().flatten();
    for p in zones
        .flat_map(|l| [l.slots.as_mut(), l.over.as_mut()])
        .flatten()
    {
        v.root();
        walk_e(&mut p.expr, v);
    }
}

/// Calls `f` with every local slot an expression reads. It walks a copy with
/// the mutable walker, so that one function knows the shape of the IR; this
/// runs only at check time.
pub fn visit_locals(e: &Expr, f: &mut dyn FnMut(u16)) {
    let mut copy = e.clone();
    walk_e(&mut copy, &mut |x: &mut Expr| {
        if let Expr::Local(s) = x {
            f(*s)
        }
    });
}

/// As [`visit_locals`], for a collection.
pub fn visit_locals_c(c: &Coll, f: &mut dyn FnMut(u16)) {
    let mut copy = c.clone();
    walk_c(&mut copy, &mut |x: &mut Expr| {
        if let Expr::Local(s) = x {
            f(*s)
        }
    });
}

/// The blocks a body runs: `root` and every block nested in it (the
/// branches of `if`, the bodies of loops, an `act`'s `else`), in the order
/// found.
pub fn nested_blocks(g: &Game, root: BlockId) -> Vec<BlockId> {
    let mut out = vec![root];
    let mut i = 0;
    while i < out.len() {
        for st in &g.blocks[out[i] as usize] {
            out.extend(st.s.blocks());
        }
        i += 1;
    }
    out
}
