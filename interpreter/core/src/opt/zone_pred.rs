//! Zone predicates: a filter over all nodes (or all edges), or an
//! `any`/`all`/`count` over them, whose test only looks at the sizes of the
//! element's own zones, perhaps against its own attributes (`nodes where
//! free(it)`, the commonest board query; `edges where open(it)`) becomes a
//! flat [`ZPred`] evaluated without the expression machine. Run after
//! inlining, so that `free(it)` has been unfolded. A comparison of the
//! element's own variable (`var per node`, `var per edge`) with a constant
//! (`c.disc == none`) is such a test too: reading it cannot fail, since the
//! element is never `none`.
//!
//! A test that only *begins* with such a test (`any(r in edges:
//! full_and_mine(p, r))`, where `full_and_mine` begins with `count(r.stops)
//! == r.length and …`) walks only the elements that pass it: the leading
//! zone tests are found through calls to functions that read only their
//! parameters, and `any(x in r.stops: …)` as a leading test implies that
//! `r.stops` is not empty. Leading tests of an `any` that do not read the
//! element (`count(p.hand) >= 2`) are tested once, before the walk.
//! Only leading tests are moved: a test that follows another may depend on
//! it to be evaluated without an error, and moving it could skip one. An
//! action's parameter over all nodes or edges that a later parameter's
//! domain reads a zone of (`action lift(r in edges, w in r.stops where …)`)
//! ranges only over those whose zone holds a piece: the others have no
//! option.

use super::inline::{reads_only_params, simple, substitute};
use crate::ast::BinOp;
use crate::ir::walk::{walk_e, walk_game, Visit};
use crate::ir::*;

pub(super) fn run(g: &mut Game) {
    // The predicates of the rules that play are indexed by the executor
    // (`eval/zindex.rs`). Invariants' are rewritten too but not indexed: a
    // random playout without invariants would keep their index current at
    // every move and never read it.
    let invariants = std::mem::take(&mut g.invariants);
    let fns = g.fns.clone();
    let sizes = [g.board.nodes.len(), g.board.edges.len()];
    let mut v = ZonePreds {
        ix: Some(ZPredIndex::default()),
        fns: &fns,
        sizes,
        vars: per_element_vars(g),
        seats: g.max_players,
    };
    walk_game(g, &mut v);
    for a in g.actions.iter_mut() {
        let (made, owned) = occupied_params(&mut a.params);
        for (on, p) in made {
            v.index(on, &p);
        }
        for (on, base) in owned {
            v.owns(on, base);
        }
    }
    g.invariants = invariants;
    g.zindex = v.ix.take().unwrap_or_default();
    watch_assignments(g);
    for (_, e, _, _) in g.invariants.iter_mut() {
        v.root();
        walk_e(e, &mut v);
    }
    mark_indexed(g);
}

/// Marks each assignment to a variable the index reads ([`Place::Watched`]):
/// the executor tests its element again after it.
fn watch_assignments(g: &mut Game) {
    let watched: Vec<u32> = g.zindex.var_watch.iter().map(|w| w.0).collect();
    if watched.is_empty() {
        return;
    }
    for b in g.blocks.iter_mut() {
        for st in b.iter_mut() {
            if let Instr::Assign(p @ Place::Var(_, Some(_)), _, _) = &mut st.s {
                if let Place::Var(base, Some(i)) = p {
                    if watched.contains(base) {
                        *p = Place::Watched(*base, i.clone());
                    }
                }
            }
        }
    }
}

/// Marks each use of an indexed predicate with its index
/// ([`ZPred::Indexed`]), invariants' included: the executor then finds the
/// index of `nodes where free(it)` at once, where comparing the predicate
/// with each indexed one cost 1 – 1.5 % of tic-tac-toe's, Auf Heller und
/// Pfennig's and Hansa Teutonica's instructions (measured).
fn mark_indexed(g: &mut Game) {
    struct Mark<'a>(&'a ZPredIndex, usize);
    impl Mark<'_> {
        fn mark(&self, on: Elems, p: &mut ZPred) {
            if let Some(k) = self.0.slot(on, p) {
                *p = ZPred::Indexed(k as u32, Box::new(p.clone()));
            }
        }
    }
    impl Visit for Mark<'_> {
        fn expr(&mut self, e: &mut Expr) {
            if let Expr::ZoneAgg(_, on, p) = e {
                self.mark(*on, p);
            }
        }
        fn coll(&mut self, c: &mut Coll) {
            match c {
                Coll::WhereZones(on, p) => self.mark(*on, p),
                // The seats' predicates are indexed in order, from `first` on.
                Coll::ZonesOwned {
                    on, base, first, ..
                } => {
                    let k = self.0.slot(*on, &ZPred::Owns(*base, 0));
                    let seats = self.1;
                    if let Some(k) = k.filter(|&k| {
                        (0..seats.min(u8::MAX as usize))
                            .all(|s| self.0.slot(*on, &ZPred::Owns(*base, s as u8)) == Some(k + s))
                    }) {
                        *first = k as u32;
                    }
                }
                _ => {}
            }
        }
    }
    let ix = std::mem::take(&mut g.zindex);
    let seats = g.max_players;
    walk_game(g, &mut Mark(&ix, seats));
    g.zindex = ix;
}

/// The rewrite, and the index it adds each predicate to (none for invariants).
struct ZonePreds<'g> {
    ix: Option<ZPredIndex>,
    /// The functions as the pass found them, to look into calls.
    fns: &'g [FnDecl],
    /// How many nodes and edges the board has.
    sizes: [usize; 2],
    /// The bases of the variables declared `per node` or `per edge`.
    vars: Vec<(u32, Elems)>,
    /// The most seats the game takes: [`Coll::ZonesOwned`] has a
    /// predicate per seat.
    seats: usize,
}

impl Visit for ZonePreds<'_> {
    fn expr(&mut self, e: &mut Expr) {
        if let Some((on, p)) = self.rewrite_e(e) {
            self.index(on, &p);
        }
    }
    fn coll(&mut self, c: &mut Coll) {
        if let Some((on, p)) = self.rewrite_c(c) {
            self.index(on, &p);
        }
    }
}

/// What a collection of all nodes or all edges ranges over.
fn elems_of(c: &Coll) -> Option<Elems> {
    match c {
        Coll::Nodes => Some(Elems::Nodes),
        Coll::Edges => Some(Elems::Edges),
        _ => None,
    }
}

impl ZonePreds<'_> {
    fn index(&mut self, on: Elems, p: &ZPred) {
        if let Some(ix) = &mut self.ix {
            ix.add(on, p);
        }
    }

    /// Indexes the predicates of a [`Coll::ZonesOwned`] of zone `base`
    /// over `on`: one per seat, in order.
    fn owns(&mut self, on: Elems, base: u32) {
        for s in 0..self.seats.min(u8::MAX as usize) {
            self.index(on, &ZPred::Owns(base, s as u8));
        }
    }

    /// `any`/`all`/`count` over all nodes (edges): a whole zone test becomes
    /// [`Expr::ZoneAgg`]; for `any` and `count`, leading tests that do not
    /// read the element move before the walk (`any` only) and leading zone
    /// tests become the walk's collection.
    fn rewrite_e(&mut self, e: &mut Expr) -> Option<(Elems, ZPred)> {
        let Expr::Agg {
            op,
            coll,
            slot,
            body: Some(body),
        } = e
        else {
            return None;
        };
        let on = elems_of(coll)?;
        let slot = *slot;
        if matches!(op, AggOp::Any | AggOp::Count) {
            if let Some((base, who)) = owned_test(body, self.fns, &[], 0, slot, on) {
                **coll = Coll::ZonesOwned {
                    on,
                    base,
                    who,
                    first: u32::MAX,
                };
                **body = Expr::Const(1);
                self.owns(on, base);
                return None;
            }
        }
        if matches!(op, AggOp::Any | AggOp::All | AggOp::Count) {
            if let Some(p) = zpred(body, slot, on, &self.vars) {
                let p = flatten(p);
                *e = Expr::ZoneAgg(*op, on, p.clone());
                return Some((on, p));
            }
        }
        if !matches!(op, AggOp::Any | AggOp::Count) {
            return None;
        }
        let mut lead = vec![];
        leading(body, self.fns, &[], 0, &mut lead);
        // Tests that do not read the element, leading the walk's test: an
        // `any` over a collection that is never empty is false when one is
        // false, so they are tested once, before it.
        let mut hoisted = vec![];
        if *op == AggOp::Any && self.sizes[on as usize] > 0 {
            while let Some(Lead::Test(c)) = lead.first() {
                if !invariant(c, slot) {
                    break;
                }
                hoisted.push(c.clone());
                lead.remove(0);
            }
        }
        let made = zone_tests(&lead, slot, on, &self.vars).map(flatten);
        if let Some(p) = &made {
            **coll = Coll::WhereZones(on, p.clone());
        }
        for c in hoisted.into_iter().rev() {
            let walk = std::mem::replace(e, Expr::Const(0));
            *e = Expr::Bin(BinOp::And, Box::new(c), Box::new(walk));
        }
        made.map(|p| (on, p))
    }

    /// `nodes where P` (`edges where P`): a whole zone test becomes
    /// [`Coll::WhereZones`]; leading zone tests become the collection the
    /// filter walks.
    fn rewrite_c(&mut self, c: &mut Coll) -> Option<(Elems, ZPred)> {
        let Coll::Filter(inner, slot, cond) = c else {
            return None;
        };
        let on = elems_of(inner)?;
        if let Some((base, who)) = owned_test(cond, self.fns, &[], 0, *slot, on) {
            *c = Coll::ZonesOwned {
                on,
                base,
                who,
                first: u32::MAX,
            };
            self.owns(on, base);
            return None;
        }
        if let Some(p) = zpred(cond, *slot, on, &self.vars) {
            let p = flatten(p);
            *c = Coll::WhereZones(on, p.clone());
            return Some((on, p));
        }
        let mut lead = vec![];
        leading(cond, self.fns, &[], 0, &mut lead);
        let p = flatten(zone_tests(&lead, *slot, on, &self.vars)?);
        **inner = Coll::WhereZones(on, p.clone());
        Some((on, p))
    }
}

/// An action's parameter over all nodes or edges (perhaps filtered) whose
/// own zone is the domain of a later parameter (`r in edges, w in r.stops
/// where …`) has options only where that zone holds a piece: its domain
/// walks only those. When that parameter's filter begins with a test of
/// its piece's owner (`w in r.posts where owner == actor and …`), with the
/// seat a constant or a local bound before the first parameter, only those
/// whose zone holds a piece of that seat ([`Coll::ZonesOwned`]). Returns the
/// predicates made and the zones whose seats' predicates are to be indexed.
#[allow(clippy::type_complexity)]
fn occupied_params(params: &mut [ActionParam]) -> (Vec<(Elems, ZPred)>, Vec<(Elems, u32)>) {
    let mut made = vec![];
    let mut owned = vec![];
    for i in 0..params.len() {
        let slot = params[i].slot;
        let zone = params[i + 1..].iter().find_map(|q| {
            let (c, owner) = match &q.domain {
                Coll::Filter(inner, w, cond) => (&**inner, owner_lead(cond, *w, slot)),
                c => (c, None),
            };
            match c {
                Coll::Zone(z) => Some((z.clone(), owner)),
                _ => None,
            }
        });
        let Some((z, owner)) = zone else {
            continue;
        };
        let dom = &mut params[i].domain;
        let base = match dom {
            Coll::Filter(inner, ..) => &mut **inner,
            other => other,
        };
        let (on, prior) = match base {
            Coll::Nodes => (Elems::Nodes, None),
            Coll::Edges => (Elems::Edges, None),
            Coll::WhereZones(on, p) => (*on, Some(p.clone())),
            _ => continue,
        };
        if !own(&z, slot, on) {
            continue;
        }
        let occupied = ZPred::Not(Box::new(ZPred::Len(z.base, BinOp::Eq, 0)));
        if let Some(who) = owner {
            if prior.as_ref().is_none_or(|p| *p == occupied) {
                *base = Coll::ZonesOwned {
                    on,
                    base: z.base,
                    who,
                    first: u32::MAX,
                };
                owned.push((on, z.base));
                continue;
            }
        }
        let p = match prior {
            None => occupied,
            Some(p) if has(&p, &occupied) => continue,
            Some(p) => ZPred::And(Box::new(p), Box::new(occupied)),
        };
        *base = Coll::WhereZones(on, p.clone());
        made.push((on, p));
    }
    (made, owned)
}

/// `p` if `e` is `x.owner == p` (or `p == x.owner`) of the piece in slot `x`.
fn owner_eq(e: &Expr, x: u16) -> Option<&Expr> {
    let Expr::Bin(BinOp::Eq, l, r) = e else {
        return None;
    };
    let owner = |e: &Expr| matches!(e, Expr::Owner(p) if matches!(**p, Expr::Local(s) if s == x));
    match (owner(l), owner(r)) {
        (true, false) => Some(r),
        (false, true) => Some(l),
        _ => None,
    }
}

/// The seat of `cond`'s first conjunct if it is `x.owner == p` of element
/// `x` (in slot `elem`), `p` a constant or a local numbered below `below`.
fn owner_lead(cond: &Expr, elem: u16, below: u16) -> Option<Expr> {
    let mut first = cond;
    while let Expr::Bin(BinOp::And, a, _) = first {
        first = a;
    }
    let who = owner_eq(first, elem)?;
    match who {
        Expr::Const(_) => Some(who.clone()),
        Expr::Local(s) if *s < below => Some(who.clone()),
        _ => None,
    }
}

/// The variables declared `per node` or `per edge`: one slot per element,
/// the element's number added to the base.
fn per_element_vars(g: &Game) -> Vec<(u32, Elems)> {
    g.vars
        .iter()
        .filter_map(|d| match d.dims[..] {
            [Dim::Node] if d.count as usize == g.board.nodes.len() => Some((d.base, Elems::Nodes)),
            [Dim::Edge] if d.count as usize == g.board.edges.len() => Some((d.base, Elems::Edges)),
            _ => None,
        })
        .collect()
}

/// `e` as a test of the own zones and variables of the element in local
/// (or register) `slot`, if it is one (see [`zpred`]): the bytecode
/// compiler's question whether a conjunct is already known to hold.
pub(in crate::opt) fn element_test(g: &Game, e: &Expr, slot: u16, on: Elems) -> Option<ZPred> {
    zpred(e, slot, on, &per_element_vars(g))
}

/// Whether every element passing `p` passes `q`, seen from their forms
/// alone: each of `q`'s conjuncts is one of `p`'s, an emptiness test
/// perhaps one of those a [`ZPred::AllEmpty`] of `p`'s joins.
pub(in crate::opt) fn implies(p: &ZPred, q: &ZPred) -> bool {
    fn conjunct(p: &ZPred, q: &ZPred) -> bool {
        match p {
            ZPred::Indexed(_, p) => conjunct(p, q),
            ZPred::And(a, b) => conjunct(a, q) || conjunct(b, q),
            ZPred::AllEmpty(bases) => {
                matches!(q, ZPred::Len(b, BinOp::Eq, 0) if bases.contains(b)) || p == q
            }
            _ => p == q,
        }
    }
    match q {
        ZPred::Indexed(_, q) => implies(p, q),
        ZPred::And(a, b) => implies(p, a) && implies(p, b),
        ZPred::AllEmpty(bases) => bases
            .iter()
            .all(|&b| conjunct(p, &ZPred::Len(b, BinOp::Eq, 0))),
        _ => conjunct(p, q),
    }
}

/// Whether `q` is one of the tests `p` joins with `and`.
fn has(p: &ZPred, q: &ZPred) -> bool {
    match p {
        ZPred::And(a, b) => has(a, q) || has(b, q),
        _ => p == q,
    }
}

/// A leading test of a condition: the condition is false when it is.
enum Lead {
    /// A conjunct itself (arguments substituted if it came from a call).
    Test(Expr),
    /// `not empty(z)`, implied by a conjunct `any(x in z: …)`; nothing
    /// after it is a leading test.
    Occupied(ZoneRef),
}

/// The leading tests of `e` in order, looked for through calls to functions
/// (with `args` for their parameters when `depth > 0`): the conjuncts of
/// `e`'s `and`s from the left, as long as each reads only parameters.
/// Returns whether every conjunct was taken (so that a caller may go on
/// with the conjunct after a call).
fn leading(e: &Expr, fns: &[FnDecl], args: &[Expr], depth: u32, out: &mut Vec<Lead>) -> bool {
    // In a function's body only its parameters can be substituted.
    let params_only = |x: &Expr| depth == 0 || reads_only_params(x, args.len() as u16);
    let subst = |x: &Expr| {
        let mut x = x.clone();
        if depth > 0 {
            substitute(&mut x, args);
        }
        x
    };
    match e {
        Expr::Bin(BinOp::And, a, b) => {
            leading(a, fns, args, depth, out) && leading(b, fns, args, depth, out)
        }
        Expr::Call {
            func, args: actual, ..
        } if depth < 4 && actual.iter().all(|a| params_only(a) && simple(a)) => {
            let actual: Vec<Expr> = actual.iter().map(subst).collect();
            let f = &fns[*func as usize];
            leading(&f.body, fns, &actual, depth + 1, out);
            // The call stays whole in the caller's condition: what follows
            // it is not a leading test of the function's.
            false
        }
        Expr::Agg {
            op: AggOp::Any,
            coll,
            ..
        } => {
            if let Coll::Zone(z) = &**coll {
                let zone = Expr::Zone(z.clone());
                if params_only(&zone) {
                    if let Expr::Zone(z) = subst(&zone) {
                        out.push(Lead::Occupied(z));
                    }
                }
            }
            false
        }
        _ if params_only(e) => {
            out.push(Lead::Test(subst(e)));
            true
        }
        _ => false,
    }
}

/// `any(x in it.Z: x.owner == p)` of element `slot`'s own zone `Z`, where
/// `p` is a constant or a local bound outside the walk (numbered below the
/// element), which cannot fail to be read; also as the whole body of a
/// function called with simple arguments that read only their parameters
/// (`mine(actor, it)`), `args` standing for its parameters when `depth > 0`.
/// Returns `Z`'s base and `p`.
fn owned_test(
    e: &Expr,
    fns: &[FnDecl],
    args: &[Expr],
    depth: u32,
    slot: u16,
    on: Elems,
) -> Option<(u32, Expr)> {
    let params_only = |x: &Expr| depth == 0 || reads_only_params(x, args.len() as u16);
    let subst = |x: &Expr| {
        let mut x = x.clone();
        if depth > 0 {
            substitute(&mut x, args);
        }
        x
    };
    match e {
        Expr::Call {
            func, args: actual, ..
        } if depth < 4 && actual.iter().all(|a| params_only(a) && simple(a)) => {
            let actual: Vec<Expr> = actual.iter().map(subst).collect();
            owned_test(&fns[*func as usize].body, fns, &actual, depth + 1, slot, on)
        }
        Expr::Agg {
            op: AggOp::Any,
            coll,
            slot: x,
            body: Some(b),
        } => {
            let Coll::Zone(z) = &**coll else {
                return None;
            };
            let zone = Expr::Zone(z.clone());
            if !params_only(&zone) {
                return None;
            }
            let Expr::Zone(z) = subst(&zone) else {
                return None;
            };
            if !own(&z, slot, on) {
                return None;
            }
            let who = owner_eq(b, *x)?;
            if !params_only(who) {
                return None;
            }
            match subst(who) {
                w @ Expr::Const(_) => Some((z.base, w)),
                Expr::Local(s) if s < slot => Some((z.base, Expr::Local(s))),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether a leading test may be evaluated once instead of once per element:
/// it reads neither the element nor any local bound inside the walk (those
/// are numbered above the element's slot), and draws nothing at random.
fn invariant(c: &Expr, slot: u16) -> bool {
    let mut ok = true;
    crate::ir::walk::visit_locals(c, &mut |s| ok &= s < slot);
    let mut copy = c.clone();
    walk_e(&mut copy, &mut |x: &mut Expr| {
        if matches!(x, Expr::Builtin(Builtin::Random, ..) | Expr::Call { .. }) {
            ok = false;
        }
    });
    ok
}

/// The zone tests among the leading tests, from the first on, as one
/// predicate: every test up to the first that is not one (tests before a
/// zone test can fail with an error where it is false, so a zone test is
/// taken only while every test before it is one too).
fn zone_tests(lead: &[Lead], slot: u16, on: Elems, vars: &[(u32, Elems)]) -> Option<ZPred> {
    let mut p: Option<ZPred> = None;
    for l in lead {
        let q = match l {
            Lead::Test(c) => zpred(c, slot, on, vars),
            Lead::Occupied(z) => {
                own(z, slot, on).then(|| ZPred::Not(Box::new(ZPred::Len(z.base, BinOp::Eq, 0))))
            }
        };
        let Some(q) = q else {
            break;
        };
        p = Some(match p {
            None => q,
            Some(a) => ZPred::And(Box::new(a), Box::new(q)),
        });
    }
    p
}

/// Whether `z` is the element's own zone (`it.cell` of a node, `it.stops` of
/// an edge).
fn own(z: &ZoneRef, slot: u16, on: Elems) -> bool {
    let at = |x: &Expr| matches!(x, Expr::Local(s) if *s == slot);
    match (&z.index, on) {
        (ZIndex::Node(n), Elems::Nodes) => at(n),
        (ZIndex::Edge(n), Elems::Edges) => at(n),
        _ => false,
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

/// `e` as a test of element `slot`'s own zones and variables (`vars`: the
/// bases of the per-node and per-edge variables), if it is one.
fn zpred(e: &Expr, slot: u16, on: Elems, vars: &[(u32, Elems)]) -> Option<ZPred> {
    let own = |z: &ZoneRef| own(z, slot, on);
    let attr = |x: &Expr| match (x, on) {
        (Expr::NodeAttr(i, a), Elems::Nodes) | (Expr::EdgeAttr(i, a), Elems::Edges) if matches!(**a, Expr::Local(s) if s == slot) => {
            Some(*i)
        }
        _ => None,
    };
    // The element's own variable: its index is the element, never `none`,
    // so reading it cannot fail.
    let var = |x: &Expr| match x {
        Expr::Var(b, Some(i))
            if matches!(**i, Expr::Local(s) if s == slot) && vars.contains(&(*b, on)) =>
        {
            Some(*b)
        }
        _ => None,
    };
    Some(match e {
        Expr::ZoneEmpty(z) if own(z) => ZPred::Len(z.base, BinOp::Eq, 0),
        Expr::Not(a) => ZPred::Not(Box::new(zpred(a, slot, on, vars)?)),
        Expr::Bin(BinOp::And, a, b) => ZPred::And(
            Box::new(zpred(a, slot, on, vars)?),
            Box::new(zpred(b, slot, on, vars)?),
        ),
        Expr::Bin(BinOp::Or, a, b) => ZPred::Or(
            Box::new(zpred(a, slot, on, vars)?),
            Box::new(zpred(b, slot, on, vars)?),
        ),
        Expr::Bin(
            op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
            a,
            b,
        ) => match (&**a, &**b) {
            (Expr::ZoneLen(z), Expr::Const(k)) if own(z) => ZPred::Len(z.base, *op, *k),
            (Expr::ZoneLen(z), x) if own(z) && attr(x).is_some() => {
                ZPred::LenAttr(z.base, *op, attr(x)?)
            }
            (x, Expr::ZoneLen(z)) if own(z) && attr(x).is_some() => {
                ZPred::LenAttr(z.base, mirror(*op), attr(x)?)
            }
            (x, Expr::Const(k)) if var(x).is_some() => ZPred::Var(var(x)?, *op, *k),
            (Expr::Const(k), x) if var(x).is_some() => ZPred::Var(var(x)?, mirror(*op), *k),
            _ => return None,
        },
        _ => return None,
    })
}

/// The comparison with its operands swapped: `a < b` is `b > a`.
fn mirror(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Gt => BinOp::Lt,
        BinOp::Le => BinOp::Ge,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}
