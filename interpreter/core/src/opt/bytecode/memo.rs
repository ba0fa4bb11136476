//! Loop-invariant expressions computed once per loop. In a filter's test
//! or an aggregate's body, a call, an aggregate, a collection's count or
//! the field of a piece found by a search (`bottom(trick).suit`) that reads
//! neither the loop's element nor anything bound inside the loop has the
//! same value at every element: Hasp's `hand where (if
//! has_suit(p, bottom(trick).suit) then …)` scans the hand once per card
//! of it. The loop keeps such a value the first time it is computed
//! ([`BOp::MemoSet`]) and reads it afterwards ([`BOp::MemoGet`]).
//!
//! Nothing a match shows changes:
//! - **The value.** Expressions change nothing, so one that reads only what
//!   the loop does not bind reads the same values at every element. Only
//!   pure ones are kept: no `random` draw anywhere below them (in the
//!   functions they call too), no `subsets` (which writes the frame), and
//!   their value is a plain one, never a set on the scratch stack.
//! - **The steps.** The value is kept with the steps its computation
//!   charged, and a read charges them again, so the count is the same at
//!   every point. A read happens only when those steps end before the next
//!   checkpoint; otherwise the expression runs again, so a budget that runs
//!   out, or a host's interrupt, stops the match at the same operation with
//!   the same span.
//! - **Errors.** A value is kept only once computed: an expression that
//!   fails fails the first time, as before, and the loop ends there.
//! - **Depth.** Every element of a loop is computed at the same call depth,
//!   so a computation that did not meet the depth limit once does not.
//! - **Hidden information.** While a seat's view is guarded (a label
//!   written for one seat), reading a hidden piece's field marks the label;
//!   the machine then always runs the expression.
//!
//! A loop's kept values are forgotten when it starts again (their
//! registers reset before its first element), since an inner loop's
//! invariant may read the outer loop's element.
//!
//! A loop that visits every element (a filter, `count`, `sum`, `min`,
//! `max`, `best`, an action lister's loop over a parameter) also holds
//! smaller invariants: values made only of reads that charge no step and
//! look at nothing hidden, and of arithmetic, comparisons and connectives
//! ([`cheap_ops`], three operations or more). Breakthrough's `dst.row ==
//! src.row + forward(actor)`, tested for each neighbour `dst` of `src`,
//! computes `src.row + forward(actor)` once per `src`. Such a value is
//! held without steps or a seat's view to care for ([`BOp::HoldGet`]). A
//! search (`any`, `all`, `first`, `last`) holds none: it most often stops
//! at its first elements, where a held value costs more than it saves
//! (measured: Hansa Teutonica's `first_like` ran 0.6 % more instructions).

use super::comp::Comp;
use crate::ir::walk::{walk_c, walk_e, Visit};
use crate::ir::*;

/// A loop being compiled: the locals that vary inside it (its element and
/// everything bound in its body), and the registers of the values it may
/// keep, four from each base, of which the first `used` are taken.
pub(super) struct LoopMemo {
    varying: Vec<u16>,
    bases: Vec<Reg>,
    used: usize,
    /// Whether it keeps values of [`cheap_ops`]: a loop that may stop at
    /// its first element (`any`, `all`, `first`, `last`) does not, since
    /// such a value is then most often computed once, and keeping it
    /// costs more than computing it.
    holds: bool,
    /// Set where the loop's first element starts ([`Comp::loop_live`]):
    /// what is compiled before (the collection, computed once) keeps
    /// nothing.
    pub(super) live: bool,
    /// The values computed before the loop's first element, with their
    /// registers (`hoist.rs`).
    pub(super) hoisted: Vec<(Expr, Reg)>,
    /// Whether the loop's element is never `none` (pushed on
    /// [`Comp::sure_locals`] while the loop is compiled).
    sure_element: bool,
}

/// One more than the highest local `e` binds (its aggregates' and
/// collections' elements): the frame it needs to be computed in alone
/// (`keep.rs`).
pub(super) fn frame_of(e: &Expr) -> u16 {
    Scan::of(e).bound.iter().max().map_or(0, |s| s + 1)
}

/// The locals `e` binds (its aggregates' and collections' elements).
pub(super) fn bound_by(e: &Expr) -> Vec<u16> {
    Scan::of(e).bound
}

/// Per function: whether its body is pure (see the module's text), also
/// through the functions it calls. The greatest fixed point over the call
/// graph, so that recursion does not make a function impure.
pub(super) fn pure_fns(g: &Game) -> Vec<bool> {
    let scans: Vec<Scan> = g.fns.iter().map(|f| Scan::of(&f.body)).collect();
    let mut pure: Vec<bool> = scans.iter().map(|s| s.pure).collect();
    loop {
        let mut changed = false;
        for f in 0..pure.len() {
            if pure[f]
                && scans[f]
                    .calls
                    .iter()
                    .any(|&c| !pure.get(c as usize).copied().unwrap_or(false))
            {
                pure[f] = false;
                changed = true;
            }
        }
        if !changed {
            return pure;
        }
    }
}

/// Whether `e` is pure (see the module's text; `pure` is [`pure_fns`]'s
/// answer for the functions it calls) and reads no local but those `may`
/// accepts and those it binds itself.
pub(super) fn pure_reading(e: &Expr, pure: &[bool], may: impl Fn(u16) -> bool) -> bool {
    let scan = Scan::of(e);
    scan.pure
        && scan
            .calls
            .iter()
            .all(|&f| pure.get(f as usize).copied().unwrap_or(false))
        && scan.reads.iter().all(|s| may(*s) || scan.bound.contains(s))
}

/// What an expression reads, in one walk: whether it is pure by itself
/// (no `random`, no `subsets`, no compiled code), the functions it calls,
/// the locals it reads, and the slots it binds (its aggregates' and
/// collections' elements).
#[derive(Default)]
struct Scan {
    pure: bool,
    calls: Vec<u16>,
    reads: Vec<u16>,
    bound: Vec<u16>,
}

impl Scan {
    fn of(e: &Expr) -> Scan {
        let mut s = Scan {
            pure: true,
            ..Scan::default()
        };
        walk_e(&mut e.clone(), &mut s);
        s
    }
}

impl Visit for Scan {
    fn expr(&mut self, e: &mut Expr) {
        match e {
            Expr::Builtin(Builtin::Random, ..) | Expr::Code(_) => self.pure = false,
            Expr::Call { func, .. } => self.calls.push(*func),
            Expr::Local(s) => self.reads.push(*s),
            Expr::Agg { slot, .. } => self.bound.push(*slot),
            _ => {}
        }
    }

    fn coll(&mut self, c: &mut Coll) {
        match c {
            Coll::Subsets { .. } | Coll::Subset(..) | Coll::Code(_) => self.pure = false,
            Coll::Filter(_, s, _)
            | Coll::Map(_, s, _)
            | Coll::Distinct(_, s, _)
            | Coll::Sorted(_, s, _) => self.bound.push(*s),
            _ => {}
        }
    }
}

/// The fewest operations an expression of plain reads and arithmetic
/// ([`cheap_ops`]) must take for a loop to keep it: a kept value costs a
/// read ([`BOp::HoldGet`]) at every element and a reset at every start of
/// the loop.
const CHEAP_WORTH: u32 = 3;

/// About how many operations `e` takes when it is made only of reads that
/// charge no step and never look at a hidden piece (locals, variables, a
/// piece's owner, a node's or an edge's attribute or end) and of
/// arithmetic, comparisons, `not`, `if`, connectives and `x in players`;
/// `None` for anything else. Such a value, kept, is read back with nothing
/// to charge again and no seat's view to mark ([`BOp::HoldGet`]).
/// Breakthrough's `src.row + forward(actor)`, tested for every neighbour of
/// `src`, is six.
pub(super) fn cheap_ops(e: &Expr) -> Option<u32> {
    let (mut parts, mut all) = (0, true);
    let own = cheap_parts(e, &mut |x| match cheap_ops(x) {
        Some(n) => parts += n,
        None => all = false,
    })?;
    all.then_some(own + parts)
}

/// The operations `e` itself takes when it has one of the forms
/// [`cheap_ops`] accepts, `f` called on each of its parts.
fn cheap_parts<'e>(e: &'e Expr, f: &mut dyn FnMut(&'e Expr)) -> Option<u32> {
    Some(match e {
        Expr::Const(_) | Expr::Local(_) => 0,
        Expr::Var(_, i) => {
            if let Some(i) = i {
                f(i);
            }
            1
        }
        Expr::Owner(a)
        | Expr::NodeAttr(_, a)
        | Expr::EdgeAttr(_, a)
        | Expr::EdgeFrom(a)
        | Expr::EdgeTo(a)
        | Expr::Neg(a)
        | Expr::Not(a) => {
            f(a);
            1
        }
        Expr::In(a, c) if matches!(**c, Coll::Players) => {
            f(a);
            1
        }
        Expr::Bin(_, a, b) => {
            f(a);
            f(b);
            1
        }
        Expr::If(c, a, b) => {
            f(c);
            f(a);
            f(b);
            2
        }
        _ => return None,
    })
}

impl Comp<'_> {
    /// Starts a loop whose element is local `slot` and whose test or value
    /// is `body`: counts the expressions of `body` that it may keep, takes
    /// their registers and resets them (before the loop's first element).
    /// With `holds`, it also keeps values of [`cheap_ops`]. Ended by
    /// [`Comp::loop_exit`].
    /// Values of `body` that cannot fail are computed here, before the
    /// loop (`hoist.rs`); `coll`, the collection walked, says whether the
    /// element is never `none`.
    pub(super) fn loop_enter(
        &mut self,
        slot: u16,
        coll: Option<&Coll>,
        body: Option<&Expr>,
        holds: bool,
    ) {
        let mut varying = vec![slot];
        let mut n = 0;
        let mut hoisted = vec![];
        if let Some(b) = body {
            varying.extend(Scan::of(b).bound);
            hoisted = self.hoist(&[b], &varying);
            let b = super::hoist::without(b, &hoisted);
            self.count_kept(&b, &varying, holds, &mut n);
        }
        let sure = coll.is_some_and(crate::opt::consts::never_none);
        self.loop_memos(varying, n, holds, hoisted);
        if sure {
            self.sure_locals.push(slot);
            if let Some(l) = self.memos.last_mut() {
                l.sure_element = true;
            }
        }
    }

    /// Takes the registers of a loop keeping at most `n` values, resets
    /// them, and starts the loop.
    fn loop_memos(&mut self, varying: Vec<u16>, n: usize, holds: bool, hoisted: Vec<(Expr, Reg)>) {
        let bases: Vec<Reg> = (0..n)
            .map(|_| {
                let m = self.temp();
                for _ in 1..4 {
                    self.temp();
                }
                self.emit(BOp::Const { d: m, v: 0 });
                m
            })
            .collect();
        self.memos.push(LoopMemo {
            varying,
            bases,
            used: 0,
            holds,
            live: false,
            hoisted,
            sure_element: false,
        });
    }

    /// Starts the loop of an action's lister over parameter `i` of `ad`
    /// (`lister.rs`): the locals that vary inside it are that parameter and
    /// those after it, and whatever the requirements tested inside it and
    /// the domains listed inside it bind. It keeps what those requirements
    /// read that does not vary. Ended by [`Comp::loop_exit`].
    pub(super) fn param_loop_enter(&mut self, ad: &ActionDecl, i: usize) {
        let mut varying: Vec<u16> = ad.params[i..].iter().map(|p| p.slot).collect();
        for p in &ad.params[i + 1..] {
            let mut s = Scan::default();
            walk_c(&mut p.domain.clone(), &mut s);
            varying.extend(s.bound);
        }
        let tested: Vec<&Expr> = ad
            .pre
            .iter()
            .filter(|(_, mask, _)| last_read(*mask).is_some_and(|l| l >= i))
            .map(|(e, _, _)| e)
            .collect();
        for e in &tested {
            varying.extend(Scan::of(e).bound);
        }
        let hoisted = self.hoist(&tested, &varying);
        let mut n = 0;
        for e in tested {
            let e = super::hoist::without(e, &hoisted);
            self.count_kept(&e, &varying, true, &mut n);
        }
        self.loop_memos(varying, n, true, hoisted);
    }

    /// The loop [`Comp::loop_enter`] started reaches its elements: what is
    /// compiled from here runs once per element.
    pub(super) fn loop_live(&mut self) {
        if let Some(l) = self.memos.last_mut() {
            l.live = true;
        }
    }

    /// Ends the loop [`Comp::loop_enter`] started.
    pub(super) fn loop_exit(&mut self) {
        if self.memos.pop().is_some_and(|l| l.sure_element) {
            self.sure_locals.pop();
        }
    }

    /// Whether `e` reads nothing a loop with locals `varying` binds, and
    /// is pure.
    pub(super) fn invariant(&self, e: &Expr, varying: &[u16]) -> bool {
        pure_reading(e, &self.inl.pure, |s| !varying.contains(&s))
    }

    /// How many expressions of `e` a loop with locals `varying` may keep:
    /// every one it could, those inside another counted too (one inside a
    /// kept expression is computed with it, so its registers only cost a
    /// reset), which keeps the count to one walk of the tree. Values of
    /// plain reads and arithmetic ([`cheap_ops`]) are the exception: only
    /// the outermost is counted, since such values are many and small and
    /// a reset costs as much as reading one back.
    fn count_kept(&self, e: &Expr, varying: &[u16], holds: bool, n: &mut usize) {
        walk_e(&mut e.clone(), &mut |x: &mut Expr| {
            if self.kept_scan(x, |s| !varying.contains(&s)) {
                *n += 1;
            } else if holds && self.holdable(x, varying) {
                // The children came first: each outermost value below
                // this one added one, which this one replaces.
                *n = *n + 1 - self.held_below(x, varying);
            }
        });
    }

    /// How many outermost values a loop with locals `varying` holds
    /// strictly inside `e`, a value of [`cheap_ops`].
    fn held_below(&self, e: &Expr, varying: &[u16]) -> usize {
        let mut n = 0;
        cheap_parts(e, &mut |x| {
            n += if self.holdable(x, varying) {
                1
            } else {
                self.held_below(x, varying)
            }
        });
        n
    }

    /// Whether a loop with locals `varying` keeps `e` as a value of plain
    /// reads and arithmetic ([`cheap_ops`]): one worth keeping, pure, which
    /// reads no local of `varying`.
    fn holdable(&self, e: &Expr, varying: &[u16]) -> bool {
        cheap_ops(e).is_some_and(|n| n >= CHEAP_WORTH) && self.invariant(e, varying)
    }

    /// Whether some loop being compiled would keep `e` as a value of
    /// [`cheap_ops`] (and has registers left for it): a condition that is
    /// one is then computed as a value and tested, not as jumps.
    pub(super) fn would_hold(&self, e: &Expr) -> bool {
        cheap_ops(e).is_some()
            && self
                .keeping_loop(e)
                .is_some_and(|k| self.memos[k].used < self.memos[k].bases.len())
    }

    /// The outermost loop being compiled, below no call compiled in place,
    /// that keeps `e`: it computes `e` least often.
    pub(super) fn keeping_loop(&self, e: &Expr) -> Option<usize> {
        (self.memo_floor..self.memos.len())
            .find(|&k| self.memos[k].live && self.keepable(e, &self.memos[k]))
    }

    /// Whether loop `l` keeps `e`: a call (not answered by a table), an
    /// aggregate or a collection's count, membership or end, pure, whose
    /// value is plain and which reads no local that varies in the loop.
    /// Such an expression costs a loop or a call; a cheaper one would cost
    /// more kept than computed, except a value of [`cheap_ops`] in a loop
    /// that holds them.
    fn keepable(&self, e: &Expr, l: &LoopMemo) -> bool {
        self.kept_scan(e, |s| !l.varying.contains(&s)) || (l.holds && self.holdable(e, &l.varying))
    }

    /// Whether `e` could be kept by a loop whatever its locals: as
    /// [`Comp::keepable`], reading no local but those it binds itself.
    pub(super) fn closed(&self, e: &Expr) -> bool {
        self.kept_scan(e, |_| false)
    }

    /// What [`Comp::keepable`] and [`Comp::closed`] share: `e` is worth
    /// keeping, pure, and every local it reads and does not bind itself
    /// passes `may_read`.
    fn kept_scan(&self, e: &Expr, may_read: impl Fn(u16) -> bool) -> bool {
        let worth = match e {
            Expr::Call { func, .. } => {
                let f = &self.g.fns[*func as usize];
                let plain = !f.ret.list && !matches!(f.ret.scalar, Scalar::Set(_) | Scalar::Text);
                plain && f.table.is_none() && self.inl.pure[*func as usize]
            }
            Expr::Agg { .. } => true,
            Expr::Builtin(b, _, Some(_), _) => !matches!(b, Builtin::Set(..) | Builtin::Random),
            Expr::In(_, c) => !matches!(**c, Coll::Players),
            // A piece's field or owner is worth keeping when finding the
            // piece takes work (`bottom(trick).suit`), not when it is in a
            // local.
            Expr::Field(_, x) | Expr::Owner(x) => !matches!(**x, Expr::Local(_) | Expr::Const(_)),
            _ => false,
        };
        worth && pure_reading(e, &self.inl.pure, may_read)
    }

    /// The registers in which a loop keeps `e`, if one does and has
    /// registers left: the outermost such loop, which computes `e` least
    /// often.
    pub(super) fn kept_at(&mut self, e: &Expr) -> Option<Reg> {
        let k = self.keeping_loop(e)?;
        let l = &mut self.memos[k];
        let m = *l.bases.get(l.used)?;
        l.used += 1;
        Some(m)
    }

    /// Compiles `e`, kept in the registers from `m`: read if kept, else
    /// computed (by `compute`) and kept. No loop keeps anything of what
    /// `e` computes inside: it runs once per loop. A value of [`cheap_ops`]
    /// (`cheap`) is kept with nothing to charge again and nothing hidden
    /// read ([`BOp::HoldGet`]); any other with its steps ([`BOp::MemoGet`]).
    pub(super) fn memoized(
        &mut self,
        d: Reg,
        m: Reg,
        cheap: bool,
        compute: impl FnOnce(&mut Self),
    ) {
        let get = self.emit(if cheap {
            BOp::HoldGet { d, m, to: 0 }
        } else {
            BOp::MemoGet { d, m, to: 0 }
        });
        let floor = std::mem::replace(&mut self.memo_floor, self.memos.len());
        compute(self);
        self.memo_floor = floor;
        self.emit(if cheap {
            BOp::HoldSet { d, m }
        } else {
            BOp::MemoSet { d, m }
        });
        self.patch(get);
    }
}
