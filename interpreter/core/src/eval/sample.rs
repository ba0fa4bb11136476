//! Options drawn, not listed: one option of an `act` chosen uniformly among
//! the legal ones by testing candidates drawn at random, for random
//! playouts ([`super::Match::sampled_playout_at_most`]). Entry:
//! [`Exec::sample_actions`].
//!
//! **The candidates.** Each action's candidates are the tuples of its
//! parameters' *bases*: a domain without its `where` filters (`r in edges
//! where room(it)` has the base `edges`). An action without parameters is
//! one candidate. Independent bases make a product; a second parameter whose
//! base reads the first (`r in edges, w in r.posts`) has, for each value of
//! the first, as many candidates as its base then holds. Every legal option
//! is exactly one candidate, since listing walks the same bases in the same
//! order and keeps the tuples that pass.
//!
//! **Bases not listed.** A base of every node, edge or seat, or a range,
//! is counted, not listed: its `k`-th element is `k` (the range's first
//! plus `k`; [`DrawPlan::counted`]). A second
//! parameter drawn from the zone of the first's value (`w in r.posts`) is
//! read in the zone arena in place ([`InPlace`]): the candidates per value
//! are the zones' lengths, and with the first drawn from every edge (node,
//! seat) their sums are the zones' starts, so numbering reads nothing per
//! value. Either way the steps are those listing the bases would count.
//!
//! **The draw.** A candidate is drawn uniformly among those not yet
//! rejected and tested as listing would test it: the action's requirements
//! that read no parameter, then per parameter its filters and the
//! requirements that end at it. A candidate that fails is rejected, with
//! every candidate sharing the failing prefix (a first parameter whose
//! filter fails rejects all its tuples). Since each draw is uniform over a
//! set holding every legal option, the first candidate that passes is
//! uniform over the legal options; when every candidate is rejected there
//! is none. This is exact, not an approximation, and needs no bound on the
//! number of tries: at worst every candidate is tested once, as listing
//! would.
//!
//! **Twins.** Where listing would merge options that differ only in twin
//! pieces (`merge.rs`), the option kept is the first in listing order. A
//! drawn candidate whose twin parameter (which must be the last) has an
//! earlier twin in its base giving a legal option with the same label is
//! rejected, so that each merged option is drawn once.
//!
//! **Not drawn.** A decision is listed as before (and the playout picks
//! among its options) when it is written to a log, guarded, counted by
//! coverage, or offers an action without a [`DrawPlan`] (made by the
//! bytecode pass, `opt/bytecode/draw.rs`): one with `subsets(…)`, a written
//! `merge`, more than two parameters that are not independent, or twins in
//! any parameter but the last; with the passes off, every action.
//!
//! **What differs from listing.** Drawing tests fewer candidates, so a
//! runtime error in a candidate never drawn does not surface, and the step
//! count differs. A drawn option whose every other candidate was rejected is
//! the only one and is taken as forced, as listing takes it; any other stops
//! the match as a decision, though it may have been the only legal one.

use super::expr::{Exec, R};
use super::options::Shared;
use super::view::Viewer;
use super::RunError;
use crate::diag::Span;
use crate::ir::*;
use rand::Rng;
use smallvec::SmallVec;

/// For tests: every drawn decision listed as well
/// ([`super::Match::audit_sampling`]).
#[derive(Clone, Debug, Default)]
pub struct Audit {
    /// Per drawn decision: how many options listing finds, and the place of
    /// the drawn one among them (`None`: none was drawn).
    pub draws: Vec<(u32, Option<u32>)>,
    /// The first disagreement.
    pub fault: Option<String>,
}

/// What a draw found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Drawn {
    /// No option is legal.
    Empty,
    /// The option drawn, every other candidate rejected: the only one.
    Only,
    /// The option drawn, perhaps one of several.
    Among,
}

/// How one action's candidates are numbered, from `start` in the decision.
struct Space {
    action: u16,
    plan: DrawPlan,
    start: u64,
    size: u64,
    /// Per parameter (for a nested plan, the first only): its base.
    dims: SmallVec<[Base; 2]>,
    /// For a nested second parameter: the prefix sums of its bases' lengths,
    /// one per value of the first, and the total.
    sums: Sums,
    /// The requirements that read no parameter: not yet tested (`None`).
    plain: Option<bool>,
    /// Where the action's frame starts in `locals`; [`NO_FRAME`] until an
    /// action without parameters is first tested (numbering it needs none).
    frame: usize,
}

/// [`Space::frame`] of a frame not made yet.
const NO_FRAME: usize = usize::MAX;

/// A parameter's base as numbering left it.
#[derive(Clone, Copy)]
enum Base {
    /// Listed in `scratch` from `at`, `len` elements.
    Listed { at: u32, len: u32 },
    /// The board's nodes or edges, the seats or a range: element `k` is
    /// `lo + k` (`lo` is 0 but for a range), so nothing is listed.
    Index { lo: Val, len: u32 },
}

impl Base {
    fn len(self) -> u32 {
        match self {
            Base::Listed { len, .. } | Base::Index { len, .. } => len,
        }
    }
}

/// The prefix sums of a nested second parameter's base lengths.
#[derive(Clone, Copy)]
enum Sums {
    /// Not nested.
    None,
    /// Listed in `scratch` from `at`: `len` sums, the first 0. With
    /// `zone`, the second parameter's base is the zone of the first's
    /// value in the family whose first zone that is ([`InPlace`]): its
    /// elements are read in place in the arena.
    Listed {
        at: u32,
        len: u32,
        zone: Option<u32>,
    },
    /// As `Listed` with a zone, and the first parameter's base is every
    /// node, edge or seat in order: the family's zones `zone..zone + n` lie
    /// one after another in the arena, so the sums are their starts less
    /// the first's, read in place.
    Zones { zone: u32, n: u32 },
}

/// Where a drawn last parameter's base lies, to look for earlier twins in it.
#[derive(Clone, Copy)]
enum Lies {
    Scratch(usize),
    Arena(usize),
}

/// Parameter `prm`'s base and filters as drawing uses them. Only actions
/// with a [`DrawPlan`] are drawn, and `opt/bytecode/draw.rs::plan` gives
/// one only when every parameter has them.
fn drawn_from(prm: &ActionParam) -> (&Coll, &[(u16, Expr)]) {
    let (base, filters) = prm
        .draw
        .as_ref()
        .expect("a drawn action's parameters have their draw forms");
    (base, filters)
}

/// The rejected candidates: sorted, disjoint, non-adjacent half-open ranges.
#[derive(Default)]
struct Rejected {
    ranges: SmallVec<[(u64, u64); 16]>,
    total: u64,
}

impl Rejected {
    fn add(&mut self, mut lo: u64, mut hi: u64) {
        let r = &mut self.ranges;
        let first = r.partition_point(|&(_, h)| h < lo);
        let mut last = first;
        while last < r.len() && r[last].0 <= hi {
            lo = lo.min(r[last].0);
            hi = hi.max(r[last].1);
            self.total -= r[last].1 - r[last].0;
            last += 1;
        }
        r.drain(first..last);
        r.insert(first, (lo, hi));
        self.total += hi - lo;
    }

    /// The `k`-th candidate not rejected.
    fn nth(&self, mut k: u64) -> u64 {
        for &(lo, hi) in &self.ranges {
            if lo > k {
                break;
            }
            k += hi - lo;
        }
        k
    }
}

/// A drawn candidate's verdict: its values, or the candidates (numbered
/// within its action) rejected with it.
type Verdict = Result<SmallVec<[Val; 4]>, (u64, u64)>;

impl<'g> Exec<'g> {
    /// Draws one option of `actions` for seat `p` (see the module), left as
    /// the only option in the option buffers; `None` when the decision must
    /// be listed instead.
    pub(super) fn sample_actions(
        &mut self,
        p: Val,
        actions: &[u16],
        span: Span,
    ) -> R<Option<Drawn>> {
        if self.st.log_on || self.st.guard.is_some() || self.st.coverage.is_some() {
            return Ok(None);
        }
        let g = self.g;
        let mut spaces: SmallVec<[Space; 8]> = SmallVec::new();
        for &a in actions {
            let Some(plan) = g.actions[a as usize].draw else {
                return Ok(None);
            };
            spaces.push(Space {
                action: a,
                plan,
                start: 0,
                size: 0,
                dims: SmallVec::new(),
                sums: Sums::None,
                plain: None,
                frame: NO_FRAME,
            });
        }
        let st = &mut *self.st;
        st.opt_vals.clear();
        st.opt_groups.clear();
        st.opt_count = 0;
        st.opt_areas.clear();
        st.opt_sets.clear();
        let mark = st.scratch.len();
        let r = self.draw(p, &mut spaces, span);
        self.st.scratch.truncate(mark);
        if r.is_ok() && self.st.audit.is_some() {
            self.audit(p, actions, span)?;
        }
        r.map(Some)
    }

    /// Draws the options of an `act` of `actions` for seat `p` where it
    /// can (`Some`, as [`Exec::sample_actions`]), else lists them (`None`).
    pub(super) fn draw_or_list(&mut self, p: Val, actions: &[u16], span: Span) -> R<Option<Drawn>> {
        let drawn = self.sample_actions(p, actions, span)?;
        if drawn.is_none() {
            self.enumerate_actions(p, actions, span)?;
        }
        Ok(drawn)
    }

    /// For tests ([`Audit`]): lists the decision just drawn and records
    /// where the drawn option lies among the listed ones, then leaves the
    /// drawn option the only one again.
    #[cold]
    fn audit(&mut self, p: Val, actions: &[u16], span: Span) -> R<()> {
        let drawn = (self.st.opt_count == 1).then(|| super::option_tuple(self.st, 0));
        let (vals, groups) = (self.st.opt_vals.clone(), self.st.opt_groups.clone());
        self.enumerate_actions(p, actions, span)?;
        let n = self.st.opt_count;
        let at = drawn
            .as_ref()
            .and_then(|d| (0..n).find(|&i| super::option_tuple(self.st, i as usize) == *d));
        let st = &mut *self.st;
        let audit = st.audit.as_deref_mut().expect("an audit");
        let fault = match (&drawn, at) {
            (Some(d), None) => Some(format!("drawn {d:?}, not among the {n} listed")),
            (None, _) if n > 0 => Some(format!("none drawn, {n} listed")),
            _ => None,
        };
        if audit.fault.is_none() {
            audit.fault = fault;
        }
        audit.draws.push((n, at));
        st.opt_vals = vals;
        st.opt_groups = groups;
        st.opt_count = drawn.is_some() as u32;
        st.opt_areas.clear();
        st.opt_sets.clear();
        Ok(())
    }

    /// Numbers the candidates of `spaces` and draws until one passes, each
    /// action's tests in a frame of its own made once.
    fn draw(&mut self, p: Val, spaces: &mut [Space], span: Span) -> R<Drawn> {
        let old = self.base;
        let first = self.st.locals.len();
        let r = self.draw_in_frames(p, spaces, span);
        self.st.locals.truncate(first);
        self.base = old;
        r
    }

    fn draw_in_frames(&mut self, p: Val, spaces: &mut [Space], span: Span) -> R<Drawn> {
        let mut total = 0u64;
        for sp in spaces.iter_mut() {
            if self.g.actions[sp.action as usize].params.is_empty() {
                // One candidate; its frame is made if it is drawn.
                sp.size = 1;
            } else {
                self.make_frame(p, sp);
                self.number(sp, span)?;
            }
            sp.start = total;
            total = total.saturating_add(sp.size);
        }
        let mut rejected = Rejected::default();
        let mut shared = Shared::new();
        while rejected.total < total {
            // Each draw is work, whatever the tests cost.
            self.charge(1, span)?;
            let k = self.st.rng.gen_range(0..total - rejected.total);
            let c = rejected.nth(k);
            let si = spaces.partition_point(|s| s.start + s.size <= c);
            let sp = &mut spaces[si];
            if sp.frame == NO_FRAME {
                self.make_frame(p, sp);
            }
            self.base = sp.frame;
            let top = self.st.scratch.len();
            let r = self.test(p, sp, c - sp.start, &mut shared, span);
            self.st.scratch.truncate(top);
            match r? {
                Ok(vals) => {
                    let st = &mut *self.st;
                    st.opt_vals.extend_from_slice(&vals);
                    st.opt_groups.push(super::OptGroup {
                        action: sp.action,
                        first: 0,
                        count: 1,
                        dims: Default::default(),
                        tuples: Some((0, vals.len() as u16)),
                    });
                    st.opt_count = 1;
                    // Every other candidate rejected: it is the only option.
                    return Ok(if rejected.total + 1 == total {
                        Drawn::Only
                    } else {
                        Drawn::Among
                    });
                }
                Err((lo, hi)) => rejected.add(sp.start + lo, sp.start + hi),
            }
        }
        Ok(Drawn::Empty)
    }

    /// Makes `sp`'s action frame for seat `p` on top of `locals`, the
    /// running frame.
    #[inline]
    fn make_frame(&mut self, p: Val, sp: &mut Space) {
        let base = self.st.locals.len();
        let n = self.g.actions[sp.action as usize].nlocals as usize;
        self.st.locals.resize(base + n, 0);
        self.st.locals[base] = p;
        self.base = base;
        sp.frame = base;
    }

    /// Lists the bases of `sp`'s parameters and counts its candidates, in
    /// the action's frame. The board's nodes and edges and the seats are
    /// not listed: their `k`-th element is `k` ([`Base::Index`]), and the
    /// steps listing them would count are counted.
    fn number(&mut self, sp: &mut Space, span: Span) -> R<()> {
        let mut size = 1u64;
        let params = &self.g.actions[sp.action as usize].params;
        for (i, prm) in params.iter().enumerate() {
            if sp.plan.nested && i == 1 {
                break;
            }
            let base = drawn_from(prm).0;
            let b = if sp.plan.counted & 1 << i != 0 {
                self.counted(base, span)?
            } else {
                let at = self.st.scratch.len();
                self.coll(base, span)?;
                let len = (self.st.scratch.len() - at) as u32;
                Base::Listed { at: at as u32, len }
            };
            sp.dims.push(b);
            size = size.saturating_mul(u64::from(b.len()));
        }
        if sp.plan.nested {
            let b0 = sp.dims[0];
            let len0 = b0.len();
            let place = sp.plan.in_place;
            if let (Base::Index { .. }, Some(ip)) = (b0, place) {
                // As `base_len` would for each value of the first: one
                // step per zone whose length it reads.
                self.charge(u64::from(len0), span)?;
                let z = &self.st.zones;
                size = u64::from(z.start[(ip.zone + len0) as usize] - z.start[ip.zone as usize]);
                sp.sums = Sums::Zones {
                    zone: ip.zone,
                    n: len0,
                };
                sp.size = size;
                return Ok(());
            }
            // Per value of the first parameter, the length of the second's
            // base, summed: one loop per kind of base, so that none decides
            // per value what the base is.
            let at = self.st.scratch.len();
            let mut sum = 0u64;
            self.st.scratch.push(0);
            // `DrawPlan::counted` counts a nested first parameter only with
            // its sums in place, done above: here it was listed, and the
            // second arm is never taken.
            let at0 = match b0 {
                Base::Listed { at, .. } => at as usize,
                Base::Index { .. } => 0,
            };
            match place {
                Some(ip) if ip.in_range => {
                    // Each zone's length read in place, one step as
                    // `base_len` counts it; every value has its zone.
                    self.charge(u64::from(len0), span)?;
                    let st = &mut *self.st;
                    for j in 0..len0 as usize {
                        let x = st.scratch[at0 + j];
                        sum += st.zones.len(ip.zone + x as u32) as u64;
                        st.scratch.push(sum as Val);
                    }
                }
                Some(ip) => {
                    // Each zone's length read in place, as `base_len` reads
                    // it: the zone found as `zone_id` finds it (the zone of
                    // `none` is an error), and each is one step.
                    for j in 0..len0 as usize {
                        let x = self.st.scratch[at0 + j];
                        let z = self
                            .zone_at(ip.zone, x, ip.dim, 0)
                            .map_err(|k| RunError::at(k, span))?;
                        self.charge(1, span)?;
                        sum += self.st.zones.len(z) as u64;
                        self.st.scratch.push(sum as Val);
                    }
                }
                None => {
                    let slot = params[0].slot;
                    for j in 0..len0 as usize {
                        let x = self.st.scratch[at0 + j];
                        self.set_local(slot, x);
                        sum += self.base_len(drawn_from(&params[1]).0, span)?;
                        self.st.scratch.push(sum as Val);
                    }
                }
            }
            sp.sums = Sums::Listed {
                at: at as u32,
                len: len0 + 1,
                zone: place.map(|ip| ip.zone),
            };
            size = sum;
        }
        sp.size = size;
        Ok(())
    }

    /// A counted base ([`DrawPlan::counted`]), with the steps and errors
    /// listing it gives: its length charged, and a range's as `coll`
    /// charges it, twice (`Exec::range`, then the elements).
    fn counted(&mut self, base: &Coll, span: Span) -> R<Base> {
        let (lo, len) = match base {
            Coll::Range(a, b) => {
                let (x, _, len) = self.range(a, b, span)?;
                (x, len as u32)
            }
            Coll::Nodes => (0, self.g.board.nodes.len() as u32),
            Coll::Edges => (0, self.g.board.edges.len() as u32),
            _ => (0, u32::from(self.st.nplayers)),
        };
        self.charge(u64::from(len), span)?;
        Ok(Base::Index { lo, len })
    }

    /// Element `k` of a parameter's base.
    #[inline]
    fn base_elem(&self, b: Base, k: usize) -> Val {
        match b {
            Base::Listed { at, .. } => self.st.scratch[at as usize + k],
            Base::Index { lo, .. } => lo + k as Val,
        }
    }

    /// How many elements a base holds: a zone's length is read, any other
    /// base listed.
    fn base_len(&mut self, base: &Coll, span: Span) -> R<u64> {
        if let Coll::Zone(z) = base {
            let id = self.zone_id(z, span)?;
            self.charge(1, span)?;
            return Ok(self.st.zones.slice(id).len() as u64);
        }
        let at = self.st.scratch.len();
        self.coll(base, span)?;
        let len = self.st.scratch.len() - at;
        self.st.scratch.truncate(at);
        Ok(len as u64)
    }

    /// Tests candidate `l` of `sp` in the action's frame (see the module).
    fn test(
        &mut self,
        p: Val,
        sp: &mut Space,
        l: u64,
        shared: &mut Shared,
        span: Span,
    ) -> R<Verdict> {
        let a = sp.action;
        let ad = &self.g.actions[a as usize];
        if sp.plain.is_none() {
            let mut holds = true;
            for (k, (e, mask, s)) in ad.pre.iter().enumerate() {
                if *mask != 0 {
                    continue;
                }
                // A requirement several actions share is computed once per
                // decision, as listing computes it.
                if !self.plain_pre_holds::<false, true>(shared, a, k, e, *s)? {
                    holds = false;
                    break;
                }
            }
            sp.plain = Some(holds);
        }
        if sp.plain == Some(false) {
            return Ok(Err((0, sp.size)));
        }
        let n = ad.params.len();
        let mut vals: SmallVec<[Val; 4]> = SmallVec::new();
        // Where the last parameter's value lies in its base: the base, and
        // the value's place in it.
        let mut last = (Lies::Scratch(0), 0usize);
        if sp.plan.nested {
            // The first parameter's value `j`, and its candidates `lo..hi`.
            let (j, lo, hi, zone) = match sp.sums {
                Sums::Zones { zone, n } => {
                    let w = &self.st.zones.start[zone as usize..=(zone + n) as usize];
                    let s0 = w[0];
                    let j = w.partition_point(|&s| u64::from(s - s0) <= l) - 1;
                    (
                        j,
                        u64::from(w[j] - s0),
                        u64::from(w[j + 1] - s0),
                        Some(zone),
                    )
                }
                Sums::Listed { at, len, zone } => {
                    let sums = &self.st.scratch[at as usize..(at + len) as usize];
                    let j = sums.partition_point(|&s| s as u64 <= l) - 1;
                    (j, sums[j] as u64, sums[j + 1] as u64, zone)
                }
                Sums::None => unreachable!("a nested plan has its sums"),
            };
            let x = self.base_elem(sp.dims[0], j);
            vals.push(x);
            self.set_local(ad.params[0].slot, x);
            if !self.passes(a, 0, x, span)? {
                return Ok(Err((lo, hi)));
            }
            let k = (l - lo) as usize;
            let y = if let Some(zone) = zone {
                // The zone of value `x`, read in place; listing it would
                // count its elements.
                self.charge(hi - lo, span)?;
                let at = self.st.zones.start[(zone + x as u32) as usize] as usize;
                last = (Lies::Arena(at), k);
                self.st.zones.arena[at + k] as Val
            } else {
                let at = self.st.scratch.len();
                self.coll(drawn_from(&ad.params[1]).0, span)?;
                last = (Lies::Scratch(at), k);
                self.st.scratch[at + k]
            };
            vals.push(y);
            self.set_local(ad.params[1].slot, y);
            if !self.passes(a, 1, y, span)? {
                return Ok(Err((l, l + 1)));
            }
        } else {
            let mut stride = sp.size;
            for i in 0..n {
                let b = sp.dims[i];
                let len = b.len();
                stride /= u64::from(len);
                let k = (l / stride % u64::from(len)) as usize;
                let x = self.base_elem(b, k);
                vals.push(x);
                if let Base::Listed { at, .. } = b {
                    last = (Lies::Scratch(at as usize), k);
                }
                self.set_local(ad.params[i].slot, x);
                if !self.passes(a, i, x, span)? {
                    let lo = l - l % stride;
                    return Ok(Err((lo, lo + stride)));
                }
            }
        }
        if sp.plan.twins && self.earlier_twin(p, sp, &mut vals, last, span)? {
            return Ok(Err((l, l + 1)));
        }
        Ok(Ok(vals))
    }

    /// Whether value `x` of parameter `i` (in its slot) passes its filters and
    /// the requirements that end at it.
    fn passes(&mut self, a: u16, i: usize, x: Val, span: Span) -> R<bool> {
        let ad = &self.g.actions[a as usize];
        for (slot, cond) in drawn_from(&ad.params[i]).1 {
            self.set_local(*slot, x);
            if self.eval(cond, span)? == 0 {
                return Ok(false);
            }
        }
        for (k, (e, mask, s)) in ad.pre.iter().enumerate() {
            if last_read(*mask) == Some(i) && !self.pre_holds::<false>(a, k, e, *s)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether the last parameter's value (at `last` of `scratch`: where its
    /// base lies, and its place in it) has a twin earlier in its base that
    /// gives a legal option with the same label: listing would keep that
    /// one and merge this one into it.
    fn earlier_twin(
        &mut self,
        p: Val,
        sp: &Space,
        vals: &mut SmallVec<[Val; 4]>,
        last: (Lies, usize),
        span: Span,
    ) -> R<bool> {
        let d = vals.len() - 1;
        let v = vals[d];
        if v < 0 {
            return Ok(false);
        }
        let (g, a) = (self.g, sp.action);
        let slot = g.actions[a as usize].params[d].slot;
        let pv = v as usize;
        let key =
            |st: &super::State, q: usize| (g.piece_class[q], st.zones.zone_of[q], st.revealed[q]);
        let mine = key(self.st, pv);
        let mut label: Option<String> = None;
        let mut merged = false;
        for k in 0..last.1 {
            let u = match last.0 {
                Lies::Scratch(at) => self.st.scratch[at + k],
                Lies::Arena(at) => self.st.zones.arena[at + k] as Val,
            };
            if u < 0 || u == v || key(self.st, u as usize) != mine {
                continue;
            }
            self.set_local(slot, u);
            if !self.passes(a, d, u, span)? {
                continue;
            }
            let viewer = Viewer::Seat(p as usize);
            let mine = label.get_or_insert_with(|| self.action_label(a, vals, p, viewer));
            let mine = mine.clone();
            vals[d] = u;
            let theirs = self.action_label(a, vals, p, viewer);
            vals[d] = v;
            if theirs == mine {
                merged = true;
                break;
            }
        }
        self.set_local(slot, v);
        Ok(merged)
    }
}
