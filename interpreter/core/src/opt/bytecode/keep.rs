//! Values kept between decisions (the `keep` pass, part of the bytecode's
//! compilation). An expression that reads no local (no parameter, no
//! actor, no loop's element) has the same value wherever it is computed,
//! until something it reads changes: Hansa Teutonica's swap test,
//! `any(c in nodes: any(i in 1..3: swappable(c, i)))`, offered with every
//! turn's actions, scans every city's offices although offices change only
//! when someone claims one. Such an expression is a *site*: the position
//! keeps its value (`eval/kept.rs`) and the families it reads (zone and
//! variable declarations, also through the functions it calls), and a
//! piece's move, a shuffle or an assignment marks its family changed, which
//! outdates the values that read it.
//!
//! Keeping costs: every move and assignment of a game with sites notes its
//! family, so only expressions estimated to cost [`MIN_WEIGHT`] operations
//! or more are sites ([`Weigh`]), and none is taken from the score,
//! tiebreaks, team or invariants, which run once a game or only when
//! invariants are checked.
//!
//! What a match shows does not change, for the reasons `memo.rs` gives for
//! a loop's kept values: only pure expressions with plain values are kept,
//! a kept value's steps are charged again and only when they end before the
//! next checkpoint, never while a seat's view is guarded, and only at the
//! call depth it was computed at (so a computation that met no depth limit
//! meets none). An expression that reads what no family stands for (the
//! zone a piece lies in, whether a piece is revealed, a zone named by a
//! value) is not a site. `tests/passes.rs` computes every kept value again at
//! every decision of every shipped game and compares value and steps.

use super::comp::Comp;
use super::Inlinable;
use crate::ir::walk::{walk_e, Visit};
use crate::ir::*;

/// What an expression reads of the position, in one walk: the families,
/// the functions it calls, and whether it reads something no family stands
/// for.
#[derive(Default)]
pub(super) struct Reads {
    fams: Vec<u16>,
    calls: Vec<u16>,
    any: bool,
}

/// Sites estimated to cost fewer operations than this are not kept. Every
/// move of a piece and every assignment then notes the change of its
/// family, and a value read costs a call and a test of each family it
/// reads: with every site of 64 operations or more, Auf Heller und
/// Pfennig's `any(p in players: can_act(p))`, which changes at nearly
/// every decision, and Hasp's `winning_card()`, which changes at every
/// card, made their games 1 % and 2.5 % slower (measured).
const MIN_WEIGHT: u64 = 256;

/// The families of a game: each zone's and each variable slot's.
fn families(g: &Game) -> (Vec<u16>, Vec<u16>, u16) {
    let nz = g.zones.len();
    let mut zone_fam = vec![0u16; g.nzones as usize];
    for (d, z) in g.zones.iter().enumerate() {
        zone_fam[z.base as usize..(z.base + z.count) as usize].fill(d as u16);
    }
    let mut var_fam = vec![0u16; g.nvars as usize];
    for (d, v) in g.vars.iter().enumerate() {
        var_fam[v.base as usize..(v.base + v.count) as usize].fill((nz + d) as u16);
    }
    (zone_fam, var_fam, (nz + g.vars.len()) as u16)
}

struct Walk<'a> {
    r: Reads,
    zone_fam: &'a [u16],
    var_fam: &'a [u16],
}

impl Walk<'_> {
    fn zone(&mut self, z: &ZoneRef) {
        if matches!(z.index, ZIndex::Value(_)) {
            self.r.any = true;
        } else {
            self.fam(self.zone_fam.get(z.base as usize).copied());
        }
    }

    fn fam(&mut self, f: Option<u16>) {
        match f {
            Some(f) => self.r.fams.push(f),
            None => self.r.any = true,
        }
    }

    fn pred(&mut self, p: &ZPred) {
        let mut bases = vec![];
        p.bases(&mut bases);
        for b in bases {
            self.fam(self.zone_fam.get(b as usize).copied());
        }
        let mut vars = vec![];
        p.vars(&mut vars);
        for b in vars {
            self.fam(self.var_fam.get(b as usize).copied());
        }
    }
}

impl Visit for Walk<'_> {
    fn expr(&mut self, e: &mut Expr) {
        match e {
            Expr::Var(base, _) => self.fam(self.var_fam.get(*base as usize).copied()),
            Expr::Zone(z) | Expr::ZoneLen(z) | Expr::ZoneEmpty(z) => self.zone(z),
            Expr::ZoneAgg(_, _, p) => self.pred(p),
            Expr::Call { func, .. } => self.r.calls.push(*func),
            Expr::Builtin(
                Builtin::ZoneOf | Builtin::NodeOf | Builtin::Revealed | Builtin::Sees,
                ..,
            )
            | Expr::Code(_) => self.r.any = true,
            _ => {}
        }
    }

    fn coll(&mut self, c: &mut Coll) {
        match c {
            Coll::Zone(z) => self.zone(z),
            Coll::WhereZones(_, p) => self.pred(p),
            Coll::ZonesOwned { base, .. } => self.pred(&ZPred::Owns(*base, 0)),
            Coll::Code(_) => self.r.any = true,
            _ => {}
        }
    }
}

impl Reads {
    fn of(e: &Expr, zone_fam: &[u16], var_fam: &[u16]) -> Reads {
        let mut w = Walk {
            r: Reads::default(),
            zone_fam,
            var_fam,
        };
        walk_e(&mut e.clone(), &mut w);
        w.r
    }
}

/// Per function, what it reads through the functions it calls too: the
/// least fixed point over the call graph (a union of what each reaches).
fn fn_reads(g: &Game, zone_fam: &[u16], var_fam: &[u16]) -> Vec<Reads> {
    let mut reads: Vec<Reads> = g
        .fns
        .iter()
        .map(|f| Reads::of(&f.body, zone_fam, var_fam))
        .collect();
    loop {
        let mut changed = false;
        for f in 0..reads.len() {
            for c in reads[f].calls.clone() {
                let Some(callee) = reads.get(c as usize) else {
                    reads[f].any = true;
                    continue;
                };
                let (fams, any) = (callee.fams.clone(), callee.any);
                let r = &mut reads[f];
                let before = (r.fams.len(), r.any);
                r.fams.extend(fams);
                r.fams.sort_unstable();
                r.fams.dedup();
                r.any |= any;
                changed |= before != (r.fams.len(), r.any);
            }
        }
        if !changed {
            return reads;
        }
    }
}

impl Comp<'_> {
    /// The families `e` reads if it is a site: a call, an aggregate or a
    /// collection's count or membership that is pure, has a plain value,
    /// reads no local but those it binds itself and nothing no family
    /// stands for, and is estimated to cost at least [`MIN_WEIGHT`]
    /// operations. None inside another site, which keeps it.
    pub(super) fn site_reads(&self, e: &Expr) -> Option<(Vec<u16>, u64)> {
        let k = self.inl.kept.as_ref()?;
        if self.keeping || !self.closed(e) {
            return None;
        }
        let own = Reads::of(e, &k.zone_fam, &k.var_fam);
        let mut fams = own.fams;
        let mut any = own.any;
        for c in own.calls {
            let r = &k.fns[c as usize];
            fams.extend_from_slice(&r.fams);
            any |= r.any;
        }
        let weight = Weigh {
            g: self.g,
            fns: &k.weights,
        }
        .expr(e);
        if any || weight < MIN_WEIGHT {
            return None;
        }
        fams.sort_unstable();
        fams.dedup();
        Some((fams, weight))
    }

    /// Compiles `e` into `d` as a site if it is one: read if the position
    /// keeps a value of it, else computed (by `compute`) and kept.
    /// Whether it was.
    pub(super) fn kept_between(
        &mut self,
        e: &Expr,
        d: Reg,
        compute: impl FnOnce(&mut Self),
    ) -> bool {
        let Some((reads, weight)) = self.site_reads(e) else {
            return false;
        };
        let k = self.inl.add_site(KeptSite {
            reads,
            weight,
            expr: e.clone(),
            nlocals: super::memo::frame_of(e),
        });
        let m = self.temp();
        let get = self.emit(BOp::KeepGet { d, k, m, to: 0 });
        self.keeping = true;
        compute(self);
        self.keeping = false;
        self.emit(BOp::KeepSet { d, k, m });
        self.patch(get);
        true
    }
}

/// The sites' state while the pass runs: the families, what each function
/// reads, and the sites compiled so far.
pub(super) struct KeptPlan {
    pub(super) zone_fam: Vec<u16>,
    pub(super) var_fam: Vec<u16>,
    pub(super) nfam: u16,
    pub(super) fns: Vec<Reads>,
    /// Per function: the weight of a call ([`fn_weights`]).
    pub(super) weights: Vec<u64>,
    pub(super) sites: std::cell::RefCell<Vec<KeptSite>>,
}

impl KeptPlan {
    pub(super) fn of(g: &Game) -> KeptPlan {
        let (zone_fam, var_fam, nfam) = families(g);
        let fns = fn_reads(g, &zone_fam, &var_fam);
        KeptPlan {
            zone_fam,
            var_fam,
            nfam,
            fns,
            weights: fn_weights(g),
            sites: Default::default(),
        }
    }

    /// The game's table of sites, once every body is compiled.
    pub(super) fn finish(self) -> KeptSites {
        let sites = self.sites.into_inner();
        if sites.is_empty() {
            return KeptSites::default();
        }
        // A change of a family no site reads outdates nothing: such zones
        // and variables are marked so that their changes are not noted.
        let mut read = vec![false; self.nfam as usize];
        for s in &sites {
            for &f in &s.reads {
                read[f as usize] = true;
            }
        }
        let watched = |f: &mut u16| {
            if !read[*f as usize] {
                *f = KeptSites::UNREAD;
            }
        };
        let (mut zone_fam, mut var_fam) = (self.zone_fam, self.var_fam);
        zone_fam.iter_mut().for_each(watched);
        var_fam.iter_mut().for_each(watched);
        KeptSites {
            sites,
            zone_fam,
            var_fam,
            nfam: self.nfam,
        }
    }
}

impl Inlinable {
    fn add_site(&self, s: KeptSite) -> u32 {
        let k = self
            .kept
            .as_ref()
            .expect("sites are compiled only with a plan");
        let mut sites = k.sites.borrow_mut();
        sites.push(s);
        (sites.len() - 1) as u32
    }
}

/// An estimate of the operations an expression costs: a loop costs its
/// elements' number times its body, a call its function's weight (`fns`).
/// Zones are taken to hold 4 pieces, ranges that are not constant 4 numbers.
struct Weigh<'a> {
    g: &'a Game,
    fns: &'a [u64],
}

/// How many calls deep function weights look: [`fn_weights`] refines them
/// this many times, each round through the last round's weights, so that
/// the work is linear in the rules' size (looking into bodies at every call
/// took minutes on functions that each call the last one twice).
const WEIGH_ROUNDS: usize = 6;

/// Every function's weight: the weight of its body, a call inside costing
/// its callee's weight of the round before (1 at first).
fn fn_weights(g: &Game) -> Vec<u64> {
    let mut w = vec![1u64; g.fns.len()];
    for _ in 0..WEIGH_ROUNDS {
        w = g
            .fns
            .iter()
            .map(|f| Weigh { g, fns: &w }.expr(&f.body))
            .collect();
    }
    w
}

impl Weigh<'_> {
    fn expr(&self, e: &Expr) -> u64 {
        let w = |x: &Expr| self.expr(x);
        match e {
            Expr::Const(_) | Expr::Local(_) | Expr::ZoneAgg(..) | Expr::Code(_) => 1,
            Expr::Var(_, i) => i.as_deref().map_or(0, w).saturating_add(1),
            Expr::Field(_, a)
            | Expr::Owner(a)
            | Expr::NodeAttr(_, a)
            | Expr::EdgeAttr(_, a)
            | Expr::EdgeFrom(a)
            | Expr::EdgeTo(a)
            | Expr::Neg(a)
            | Expr::Not(a)
            | Expr::IsKind(a, _) => w(a).saturating_add(1),
            Expr::Zone(z) | Expr::ZoneLen(z) | Expr::ZoneEmpty(z) => self.zone(z).saturating_add(1),
            Expr::Agg { coll, body, .. } => {
                let each = body.as_deref().map_or(0, w).saturating_add(1);
                self.coll(coll)
                    .saturating_add(self.len(coll).saturating_mul(each))
            }
            Expr::Bin(_, a, b) | Expr::Pos2(a, b, _) => w(a).saturating_add(w(b)).saturating_add(1),
            Expr::In(a, c) => w(a)
                .saturating_add(self.coll(c))
                .saturating_add(self.len(c)),
            Expr::If(a, b, c) => w(a).saturating_add(w(b).max(w(c))).saturating_add(1),
            Expr::Call { func, args, .. } => {
                let body = self.fns.get(*func as usize).copied().unwrap_or(MIN_WEIGHT);
                args.iter()
                    .map(w)
                    .fold(body.saturating_add(1), u64::saturating_add)
            }
            Expr::NodeByKey { vals, .. } => vals.iter().map(w).fold(2, u64::saturating_add),
            Expr::Builtin(_, args, c, _) => {
                let listed = c
                    .as_deref()
                    .map_or(0, |c| self.coll(c).saturating_add(self.len(c)));
                args.iter()
                    .map(w)
                    .fold(listed.saturating_add(1), u64::saturating_add)
            }
        }
    }

    fn zone(&self, z: &ZoneRef) -> u64 {
        match &z.index {
            ZIndex::Global => 0,
            ZIndex::Player(e)
            | ZIndex::Node(e)
            | ZIndex::Edge(e)
            | ZIndex::Value(e)
            | ZIndex::At(e, _) => self.expr(e),
        }
    }

    /// The cost of listing a collection (its elements' own cost aside).
    fn coll(&self, c: &Coll) -> u64 {
        let w = |x: &Expr| self.expr(x);
        match c {
            Coll::Zone(z) => self.zone(z),
            Coll::Filter(inner, _, e)
            | Coll::Map(inner, _, e)
            | Coll::Distinct(inner, _, e)
            | Coll::Sorted(inner, _, e) => self
                .coll(inner)
                .saturating_add(self.len(inner).saturating_mul(w(e).saturating_add(1))),
            Coll::Range(a, b) => w(a).saturating_add(w(b)),
            Coll::List(es) => es.iter().map(w).fold(0, u64::saturating_add),
            Coll::PlayersFrom(e)
            | Coll::Opponents(e)
            | Coll::Successors(e)
            | Coll::Predecessors(e)
            | Coll::Neighbors(e)
            | Coll::EdgesOf(e)
            | Coll::Members(_, e)
            | Coll::NodesWithAttr(_, e)
            | Coll::ZonesOwned { who: e, .. }
            | Coll::Subset(e, _) => w(e),
            Coll::Reachable(e, inner) | Coll::ReachableVia(e, inner) => w(e)
                .saturating_add(self.coll(inner))
                .saturating_add(self.g.board.nodes.len() as u64),
            Coll::Components(_, inner) => self
                .coll(inner)
                .saturating_add(self.g.board.nodes.len() as u64),
            Coll::Subsets { of, .. } => self.coll(of),
            Coll::Players | Coll::Nodes | Coll::Edges | Coll::WhereZones(..) | Coll::Code(_) => 0,
        }
    }

    /// How many elements a collection is taken to have.
    fn len(&self, c: &Coll) -> u64 {
        let b = &self.g.board;
        match c {
            Coll::Nodes
            | Coll::Members(Elems::Nodes, _)
            | Coll::Reachable(..)
            | Coll::ReachableVia(..) => b.nodes.len() as u64,
            Coll::Edges | Coll::Members(Elems::Edges, _) => b.edges.len() as u64,
            Coll::WhereZones(Elems::Nodes, _) => b.nodes.len() as u64 / 2,
            Coll::WhereZones(Elems::Edges, _) => b.edges.len() as u64 / 2,
            Coll::ZonesOwned {
                on: Elems::Nodes, ..
            } => b.nodes.len() as u64 / 2,
            Coll::ZonesOwned {
                on: Elems::Edges, ..
            } => b.edges.len() as u64 / 2,
            Coll::Players | Coll::PlayersFrom(_) | Coll::Opponents(_) => self.g.max_players as u64,
            Coll::Range(Expr::Const(a), Expr::Const(b)) => (b - a + 1).max(0) as u64,
            Coll::List(es) => es.len() as u64,
            Coll::Filter(inner, ..)
            | Coll::Map(inner, ..)
            | Coll::Distinct(inner, ..)
            | Coll::Sorted(inner, ..) => self.len(inner),
            _ => 4,
        }
    }
}
