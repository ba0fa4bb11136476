//! Compiling expressions: registers, jumps, conditions and calls compiled
//! in place (see the module's entry in `mod.rs`).

use super::{Inlinable, MAX_INLINED, SELF_INLINED};
use crate::ast::BinOp;
use crate::diag::Span;
use crate::ir::walk::{walk_c, walk_e, Visit};
use crate::ir::*;

/// Renames locals to the registers they live in (see [`Comp::remap`]).
struct Rename<'m>(&'m [Reg]);

impl Rename<'_> {
    pub(super) fn at(&self, s: &mut u16) {
        if let Some(r) = self.0.get(*s as usize) {
            *s = *r;
        }
    }
}

impl Visit for Rename<'_> {
    fn expr(&mut self, e: &mut Expr) {
        if let Expr::Local(s) | Expr::Agg { slot: s, .. } = e {
            self.at(s);
        }
    }

    fn coll(&mut self, c: &mut Coll) {
        if let Coll::Filter(_, s, _)
        | Coll::Map(_, s, _)
        | Coll::Distinct(_, s, _)
        | Coll::Sorted(_, s, _) = c
        {
            self.at(s);
        }
    }
}

/// What compiling a call in place replaces, restored at its end
/// ([`Comp::inline_enter`], [`Comp::inline_exit`]).
pub(super) struct Outer {
    map: Vec<Reg>,
    sure: Vec<u16>,
    floor: usize,
}

pub(super) struct Comp<'g> {
    pub(super) g: &'g Game,
    pub(super) inl: &'g Inlinable,
    /// Where each local of the body being compiled lives: the identity
    /// (empty) for the frame's own expressions; inside an inlined call, the
    /// callee's parameters are the argument registers and its other locals
    /// fresh temporaries.
    pub(super) map: Vec<Reg>,
    /// The functions whose calls are inlined around the code being
    /// compiled, outermost first.
    pub(super) inlined: Vec<u16>,
    pub(super) p: Draft,
    pub(super) next: u32,
    pub(super) top: u32,
    pub(super) base_id: u32,
    /// Key lookup value programs, compiled before the root.
    pub(super) subs: Vec<Draft>,
    pub(super) overflow: bool,
    /// The loops being compiled, outermost first, that keep invariant
    /// values (`memo.rs`); those below `memo_floor` keep nothing of what
    /// is compiled now (an inlined body's locals are not theirs).
    pub(super) memos: Vec<super::memo::LoopMemo>,
    pub(super) memo_floor: usize,
    /// Set while a value kept between decisions is compiled: what it
    /// computes inside is kept with it (`keep.rs`).
    pub(super) keeping: bool,
    /// The locals of the body being compiled that are never `none`: the
    /// elements of the loops being compiled over collections that never
    /// hold it, and a lister's actor and parameters (`hoist.rs`).
    pub(super) sure_locals: Vec<u16>,
    /// What the elements of the loops being compiled over a zone-predicate
    /// collection (`edges-where[P]`, perhaps filtered further) are known to
    /// pass: the element's register, what it ranges over and `P`. A
    /// conjunct of a condition inside that is one of `P`'s tests of the
    /// same element is not tested again ([`Comp::known`]).
    pub(super) facts: Vec<(Reg, Elems, ZPred)>,
}

impl<'g> Comp<'g> {
    pub(super) fn new(g: &'g Game, inl: &'g Inlinable, temps: u32, base_id: u32) -> Comp<'g> {
        let p = Draft::default();
        Comp {
            g,
            inl,
            map: vec![],
            inlined: vec![],
            p,
            next: temps,
            top: temps,
            base_id,
            subs: vec![],
            overflow: false,
            memos: vec![],
            memo_floor: 0,
            keeping: false,
            sure_locals: vec![],
            facts: vec![],
        }
    }

    pub(super) fn finish(mut self, source: Expr, out: &mut Vec<Program>) -> Option<u32> {
        if self.overflow || self.p.ops.len() > u32::MAX as usize / 2 {
            return None;
        }
        self.p.source = source;
        self.p.tidy();
        let root = Program::seal(self.p)?;
        let subs: Vec<Program> = self
            .subs
            .into_iter()
            .map(|mut d| {
                d.tidy();
                Program::seal(d)
            })
            .collect::<Option<_>>()?;
        out.extend(subs);
        out.push(root);
        Some(self.top)
    }

    pub(super) fn temp(&mut self) -> Reg {
        let r = self.next;
        self.next += 1;
        self.top = self.top.max(self.next);
        if self.next > u16::MAX as u32 {
            self.overflow = true;
            return 0;
        }
        r as Reg
    }

    pub(super) fn emit(&mut self, op: BOp) -> usize {
        self.p.ops.push(op);
        self.p.ops.len() - 1
    }

    pub(super) fn here(&self) -> u32 {
        self.p.ops.len() as u32
    }

    /// Points the jump at `at` to the next operation.
    pub(super) fn patch(&mut self, at: usize) {
        let here = self.here();
        self.patch_to(at, here);
    }

    pub(super) fn patch_to(&mut self, at: usize, here: u32) {
        match self.p.ops[at].target_mut() {
            Some(to) => *to = here,
            None => unreachable!("only a jump is patched"),
        }
    }

    /// Whether condition `e` is one the loops being compiled already know
    /// holds ([`Comp::facts`]): a test of the own zones and variables of a
    /// loop's element that its collection's predicate makes. Such a test
    /// reads no hidden piece, counts no step and cannot fail (`zone_pred.rs`
    /// takes only those), and no expression changes what it reads while the
    /// loop runs, so skipping it changes no answer, step or error. Hansa
    /// Teutonica's `owned_full(actor, r)` over `edges-where[count(posts) ==
    /// villages]` tested the route's count again for every route the index
    /// gave.
    pub(super) fn known(&self, e: &Expr) -> bool {
        if self.facts.is_empty() {
            return false;
        }
        let e = self.remap(e);
        self.facts.iter().any(|(r, on, p)| {
            crate::opt::zone_pred::element_test(self.g, &e, *r, *on)
                .is_some_and(|q| crate::opt::zone_pred::implies(p, &q))
        })
    }

    /// Notes what the elements of `domain`, bound to register `slot`, are
    /// known to pass, if it is a zone-predicate collection (perhaps
    /// filtered); returns what to truncate [`Comp::facts`] to after the
    /// loop.
    pub(super) fn with_facts(&mut self, domain: &Coll, slot: Reg) -> usize {
        let before = self.facts.len();
        let mut c = domain;
        while let Coll::Filter(inner, _, _) = c {
            c = inner;
        }
        if let Coll::WhereZones(on, p) = c {
            self.facts.push((slot, *on, p.clone()));
        }
        before
    }

    /// Compiles a condition as jumps: the returned jumps (to be patched)
    /// are taken when the condition's truth is `when`; otherwise control
    /// falls through. Connectives short-circuit in the order written, as
    /// their values do.
    pub(super) fn branch(&mut self, e: &Expr, when: bool, sp: u16) -> Vec<usize> {
        if self.would_hold(e) || self.hoisted(e).is_some() {
            // A condition a loop keeps is read back whole, not taken apart.
            return self.value_branch(e, when, sp);
        }
        match e {
            Expr::Not(a) => self.branch(a, !when, sp),
            Expr::Bin(BinOp::And, a, b) if self.known(a) => self.branch(b, when, sp),
            Expr::Bin(op @ (BinOp::And | BinOp::Or), a, b) => {
                // `a and b` jumps when false as soon as either part is
                // false, and when true only through `b` (a false `a` skips
                // it); `or` is the mirror image.
                let settles = *op == BinOp::Or;
                if when == settles {
                    let mut j = self.branch(a, when, sp);
                    j.extend(self.branch(b, when, sp));
                    j
                } else {
                    let skip = self.branch(a, !when, sp);
                    let j = self.branch(b, when, sp);
                    for s in skip {
                        self.patch(s);
                    }
                    j
                }
            }
            Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b) if matches!(**b, Expr::Const(_)) => {
                let Expr::Const(k) = **b else { return vec![] };
                let keep = self.next;
                let a = self.expr(a, sp);
                self.next = keep;
                let eq = (*op == BinOp::Eq) == when;
                vec![self.emit(if eq {
                    BOp::JumpEqK { a, k, to: 0 }
                } else {
                    BOp::JumpNeK { a, k, to: 0 }
                })]
            }
            // An order with a constant jumps on it (`JumpLtK`, `JumpGtK`),
            // the constant moved by one where the order is not strict.
            Expr::Bin(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b)
                if matches!(**b, Expr::Const(_)) && order_k(*op, when, b).is_some() =>
            {
                let (lt, k) = order_k(*op, when, b).unwrap_or((true, 0));
                let keep = self.next;
                let a = self.expr(a, sp);
                self.next = keep;
                vec![self.emit(if lt {
                    BOp::JumpLtK { a, k, to: 0 }
                } else {
                    BOp::JumpGtK { a, k, to: 0 }
                })]
            }
            // A comparison of two values jumps on the comparison itself
            // (both sides computed left to right, as its value would be).
            Expr::Bin(
                op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
                a,
                b,
            ) if !matches!(**b, Expr::Const(_)) => {
                let keep = self.next;
                let x = self.expr(a, sp);
                let y = self.expr(b, sp);
                self.next = keep;
                // The test that jumps, as `a OP b` with `when` folded in.
                let (op, a, b) = match (op, when) {
                    (BinOp::Eq, true) | (BinOp::Ne, false) => (BinOp::Eq, x, y),
                    (BinOp::Ne, true) | (BinOp::Eq, false) => (BinOp::Ne, x, y),
                    (BinOp::Lt, true) | (BinOp::Ge, false) => (BinOp::Lt, x, y),
                    (BinOp::Le, true) | (BinOp::Gt, false) => (BinOp::Le, x, y),
                    (BinOp::Gt, true) | (BinOp::Le, false) => (BinOp::Lt, y, x),
                    _ => (BinOp::Le, y, x),
                };
                vec![self.emit(match op {
                    BinOp::Eq => BOp::JumpEq { a, b, to: 0 },
                    BinOp::Ne => BOp::JumpNe { a, b, to: 0 },
                    BinOp::Lt => BOp::JumpLt { a, b, to: 0 },
                    _ => BOp::JumpLe { a, b, to: 0 },
                })]
            }
            // A call compiled in place, and `any` or `all`, jump on their
            // answer where it is found instead of writing it for a test
            // (`jumps.rs`); not when a loop or the position keeps them.
            Expr::Call { func, args, span }
                if self.g.fns[*func as usize].table.is_none()
                    && self.inlines(*func)
                    && self.computed_here(e) =>
            {
                self.call_jumps(*func, args, *span, when)
            }
            Expr::Agg {
                op,
                coll,
                slot,
                body,
            } if self.jumps_over(*op, coll, *slot, body.as_deref()) && self.computed_here(e) => {
                self.loop_enter(*slot, Some(coll), body.as_deref(), false);
                let j = self.agg_jumps(*op, coll, *slot, body.as_deref(), when, sp);
                self.loop_exit();
                j
            }
            _ => self.value_branch(e, when, sp),
        }
    }

    /// A condition computed as a value, then tested.
    fn value_branch(&mut self, e: &Expr, when: bool, sp: u16) -> Vec<usize> {
        let keep = self.next;
        let c = self.expr(e, sp);
        self.next = keep;
        vec![self.emit(if when {
            BOp::JumpIf { c, to: 0 }
        } else {
            BOp::JumpUnless { c, to: 0 }
        })]
    }

    pub(super) fn span(&mut self, s: Span) -> u16 {
        if self.p.spans.last() == Some(&s) && self.p.spans.len() > 1 {
            return (self.p.spans.len() - 1) as u16;
        }
        if self.p.spans.len() >= u16::MAX as usize {
            self.overflow = true;
            return CALLER_SPAN;
        }
        self.p.spans.push(s);
        (self.p.spans.len() - 1) as u16
    }

    pub(super) fn tree(&mut self, e: &Expr, d: Reg, sp: u16) {
        let e = self.remap(e);
        self.p.trees.push(e);
        let e = (self.p.trees.len() - 1) as u32;
        self.emit(BOp::Tree { d, e, sp });
    }

    /// The register of local `s` of the body being compiled.
    pub(super) fn loc(&self, s: u16) -> Reg {
        self.map.get(s as usize).copied().unwrap_or(s)
    }

    /// A tree left to the tree evaluator, with its locals renamed to their
    /// registers (it runs in the same frame).
    pub(super) fn remap(&self, e: &Expr) -> Expr {
        let mut e = e.clone();
        if !self.map.is_empty() {
            walk_e(&mut e, &mut Rename(&self.map));
        }
        e
    }

    pub(super) fn remap_coll(&self, c: &Coll) -> Coll {
        let mut c = c.clone();
        if !self.map.is_empty() {
            walk_c(&mut c, &mut Rename(&self.map));
        }
        c
    }

    /// The registers of a call's arguments, computed left to right. A
    /// constant argument for a parameter the body never reads (one a
    /// specialised copy replaced by that constant) is not computed: the
    /// call passes a temporary no one reads. A table's arguments are always
    /// computed.
    pub(super) fn call_args(&mut self, func: u16, args: &[Expr], sp: u16) -> Vec<Reg> {
        let mut unread = self.inl.unread[func as usize];
        if let Some(t) = self.g.fns[func as usize].table {
            let tt = &self.g.fn_tables[t as usize];
            for p in std::iter::once(tt.args.0).chain(tt.args.1) {
                unread &= !(1u64 << p);
            }
        }
        args.iter()
            .enumerate()
            .map(|(i, a)| match a {
                Expr::Const(_) if i < 64 && unread & (1 << i) != 0 => self.temp(),
                _ => self.expr(a, sp),
            })
            .collect()
    }

    /// Whether a call of `func` (not read from a table) is compiled in
    /// place here. A function that calls itself is compiled in place
    /// [`SELF_INLINED`] deep per call site: its own calls below that stay
    /// calls.
    pub(super) fn inlines(&self, func: u16) -> bool {
        self.inlined.len() < MAX_INLINED
            && self.inl.ok[func as usize]
            && self.inlined.iter().filter(|&&f| f == func).count() < SELF_INLINED
    }

    /// A call compiled in place: the callee's body with its parameters in
    /// the argument registers and its other locals in fresh temporaries,
    /// between `CallEnter` (the step and the depth a call counts) and
    /// `CallLeave`. Its errors point at the call, as a call's do.
    pub(super) fn inline_call(&mut self, func: u16, args: &[Reg], d: Reg, sp: u16) {
        let (enter, outer) = self.inline_enter(func, args, sp);
        let body = &self.inl.bodies[func as usize].0;
        self.into(body, d, sp);
        if !self.inline_exit(enter, outer) {
            self.emit(BOp::CallLeave);
        }
    }

    /// The start of a call compiled in place (see [`Comp::inline_call`]):
    /// `CallEnter`, and the body's locals mapped to registers. Returns
    /// where `CallEnter` is and what [`Comp::inline_exit`] restores.
    pub(super) fn inline_enter(&mut self, func: u16, args: &[Reg], sp: u16) -> (usize, Outer) {
        let (_, nparams, nlocals) = self.inl.bodies[func as usize];
        let mut map: Vec<Reg> = args[..nparams as usize].to_vec();
        for _ in nparams..nlocals {
            let t = self.temp();
            map.push(t);
        }
        let enter = self.emit(BOp::CallEnter { sp });
        let outer = Outer {
            map: std::mem::replace(&mut self.map, map),
            sure: std::mem::take(&mut self.sure_locals),
            floor: std::mem::replace(&mut self.memo_floor, self.memos.len()),
        };
        self.inlined.push(func);
        (enter, outer)
    }

    /// The end of a call compiled in place, its body compiled: the
    /// caller's locals back, and whether the body is a leaf, whose
    /// `CallEnter` then became `CallLeaf` and which needs no `CallLeave`.
    pub(super) fn inline_exit(&mut self, enter: usize, outer: Outer) -> bool {
        self.inlined.pop();
        self.memo_floor = outer.floor;
        self.map = outer.map;
        self.sure_locals = outer.sure;
        // A body that nothing in it could tell the depth of needs it
        // checked, not raised and lowered: a jump to its end lands on what
        // follows the call.
        let leaf = self.p.ops[enter + 1..].iter().all(|op| {
            !matches!(
                op,
                BOp::Call { .. }
                    | BOp::CallEnter { .. }
                    | BOp::CallLeaf { .. }
                    | BOp::CallLeave
                    | BOp::Tab1 { .. }
                    | BOp::Tab2 { .. }
                    | BOp::Tree { .. }
                    | BOp::PushTree { .. }
                    | BOp::KeyLookup { .. }
                    | BOp::Builtin { .. }
            )
        });
        if leaf {
            let BOp::CallEnter { sp } = self.p.ops[enter] else {
                unreachable!("`inline_enter` put `CallEnter` there")
            };
            self.p.ops[enter] = BOp::CallLeaf { sp };
        }
        leaf
    }

    /// The register holding `e`'s value: a local where it lives, else a
    /// fresh temporary (the temporaries of its parts are free again after).
    pub(super) fn expr(&mut self, e: &Expr, sp: u16) -> Reg {
        if let Expr::Local(s) = e {
            return self.loc(*s);
        }
        if let Some(r) = self.hoisted(e) {
            return r;
        }
        let d = self.temp();
        self.into(e, d, sp);
        self.next = d as u32 + 1;
        d
    }

    /// Compiles `e` to write register `d`; a loop-invariant value kept by
    /// a loop is computed once per loop (`memo.rs`), and a value kept
    /// between decisions once until what it reads changes (`keep.rs`). A
    /// value both may keep is read from the loop's registers, and only its
    /// loop's first element looks for it among the values kept between
    /// decisions: a read of those costs a call.
    pub(super) fn into(&mut self, e: &Expr, d: Reg, sp: u16) {
        if let Some(s) = self.hoisted(e) {
            self.emit(BOp::Mov { d, s });
            return;
        }
        match self.kept_at(e) {
            Some(m) => {
                let cheap = super::memo::cheap_ops(e).is_some();
                self.memoized(d, m, cheap, |c| c.kept_or_computed(e, d, sp))
            }
            None => self.kept_or_computed(e, d, sp),
        }
    }

    fn kept_or_computed(&mut self, e: &Expr, d: Reg, sp: u16) {
        if !self.kept_between(e, d, |c| c.compute(e, d, sp)) {
            self.compute(e, d, sp);
        }
    }

    /// Compiles `e` to write register `d`, operation by operation.
    fn compute(&mut self, e: &Expr, d: Reg, sp: u16) {
        match e {
            Expr::Const(v) => drop(self.emit(BOp::Const { d, v: *v })),
            Expr::Local(s) => {
                let s = self.loc(*s);
                self.emit(BOp::Mov { d, s });
            }
            Expr::Var(at, None) => drop(self.emit(BOp::Var { d, at: *at })),
            Expr::Var(base, Some(i)) => {
                let i = self.expr(i, sp);
                self.emit(BOp::VarAt {
                    d,
                    base: *base,
                    i,
                    sp,
                });
            }
            Expr::Field(fid, a) => {
                let p = self.expr(a, sp);
                self.emit(BOp::Field {
                    d,
                    fid: *fid,
                    p,
                    sp,
                });
            }
            Expr::Owner(a) => {
                let p = self.expr(a, sp);
                self.emit(BOp::Owner { d, p, sp });
            }
            Expr::NodeAttr(attr, a) => {
                let n = self.expr(a, sp);
                self.emit(BOp::NodeAttr {
                    d,
                    attr: *attr,
                    n,
                    sp,
                });
            }
            Expr::EdgeAttr(attr, a) => {
                let e = self.expr(a, sp);
                self.emit(BOp::EdgeAttr {
                    d,
                    attr: *attr,
                    e,
                    sp,
                });
            }
            Expr::EdgeFrom(a) | Expr::EdgeTo(a) => {
                let x = self.expr(a, sp);
                self.emit(BOp::EdgeEnd {
                    d,
                    e: x,
                    to: matches!(e, Expr::EdgeTo(_)),
                    sp,
                });
            }
            Expr::IsKind(a, kind) => {
                let p = self.expr(a, sp);
                self.emit(BOp::IsKind { d, p, kind: *kind });
            }
            Expr::Pos2(a, b, stride) => {
                let a = self.expr(a, sp);
                let b = self.expr(b, sp);
                self.emit(BOp::Pos2 {
                    d,
                    a,
                    b,
                    stride: *stride,
                    sp,
                });
            }
            Expr::Zone(z) => self.zone(z, d, sp),
            Expr::ZoneLen(z) | Expr::ZoneEmpty(z) => {
                let empty = matches!(e, Expr::ZoneEmpty(_));
                match owned_by(z) {
                    Some((dim, x)) => {
                        let i = self.expr(x, sp);
                        self.emit(BOp::ZoneLenOf {
                            d,
                            base: z.base,
                            i,
                            dim,
                            empty,
                            sp,
                        });
                    }
                    // A zone of no dimension is found without an index:
                    // the operation reads register `d` as one and ignores it.
                    None if matches!(z.index, ZIndex::Global) => {
                        self.emit(BOp::ZoneLenOf {
                            d,
                            base: z.base,
                            i: d,
                            dim: ZDim::Global,
                            empty,
                            sp,
                        });
                    }
                    None => {
                        self.zone(z, d, sp);
                        self.emit(if empty {
                            BOp::ZoneEmpty { d, z: d }
                        } else {
                            BOp::ZoneLen { d, z: d }
                        });
                    }
                }
            }
            Expr::Agg { op, coll, body, .. }
                if crate::eval::counted_any(*op, coll, body.as_deref()) =>
            {
                // Counted, not listed, by the tree evaluator
                // (`Exec::any_owned`): one call where listing the nodes or
                // edges and testing the first took ten operations and the list.
                self.tree(e, d, sp);
            }
            Expr::Agg {
                op,
                coll,
                slot,
                body,
            } => {
                let search = matches!(op, AggOp::Any | AggOp::All | AggOp::First | AggOp::Last);
                self.loop_enter(*slot, Some(coll), body.as_deref(), !search);
                self.agg(*op, coll, self.loc(*slot), body.as_deref(), d, sp);
                self.loop_exit();
            }
            Expr::Neg(a) => {
                let a = self.expr(a, sp);
                self.emit(BOp::Neg { d, a, sp });
            }
            Expr::Not(a) => {
                let a = self.expr(a, sp);
                self.emit(BOp::Not { d, a });
            }
            Expr::Bin(BinOp::And | BinOp::Or, ..) => {
                // As jumps, in the order written, then the answer: nested
                // connectives and comparisons jump once each instead of
                // writing a truth value that the next one tests again.
                let no = self.branch(e, false, sp);
                self.emit(BOp::Const { d, v: 1 });
                let done = self.emit(BOp::Jump { to: 0 });
                for j in no {
                    self.patch(j);
                }
                self.emit(BOp::Const { d, v: 0 });
                self.patch(done);
            }
            Expr::Bin(op, a, b) => self.bin(e, *op, a, b, d, sp),
            // Seats are the numbers below the seat count: a range test.
            Expr::In(a, c) if matches!(**c, Coll::Players) => {
                let x = self.expr(a, sp);
                self.emit(BOp::InPlayers { d, x, sp });
            }
            Expr::In(a, c) => {
                let x = self.expr(a, sp);
                let m = self.temp();
                self.emit(BOp::Mark { d: m });
                self.coll(c, m, sp);
                self.emit(BOp::Contains { d, x, m });
            }
            Expr::If(c, a, b) => {
                let js = self.branch(c, false, sp);
                self.into(a, d, sp);
                let end = self.emit(BOp::Jump { to: 0 });
                for j in js {
                    self.patch(j);
                }
                self.into(b, d, sp);
                self.patch(end);
            }
            Expr::Call { func, args, span } => {
                let sp = self.span(*span);
                let regs = self.call_args(*func, args, sp);
                // A tabulated function is read from its table, and called
                // (below) only when the table does not answer.
                let tab = self.g.fns[*func as usize].table.map(|t| {
                    let tt = &self.g.fn_tables[t as usize];
                    let a = regs[tt.args.0 as usize];
                    self.emit(match tt.args.1.map(|p| regs[p as usize]) {
                        Some(b) => BOp::Tab2 { d, t, a, b, to: 0 },
                        None => BOp::Tab1 { d, t, a, to: 0 },
                    })
                });
                if tab.is_none() && self.inlines(*func) {
                    return self.inline_call(*func, &regs, d, sp);
                }
                let at = self.p.regs.len() as u32;
                self.p.regs.extend(regs);
                self.emit(BOp::Call {
                    d,
                    func: *func,
                    args: at,
                    n: args.len() as u16,
                    sp,
                });
                if let Some(j) = tab {
                    self.patch(j);
                }
            }
            // Sets live on the scratch stack as the tree evaluator keeps it
            // (`eval/expr/sets.rs`), so their operations stay trees.
            Expr::Builtin(Builtin::Set(..), ..) => self.tree(e, d, sp),
            Expr::Builtin(b, args, None, span) if args.len() <= 2 => {
                let sp = self.span(*span);
                let x = args.first().map_or(d, |a| self.expr(a, sp));
                let y = args.get(1).map_or(d, |a| self.expr(a, sp));
                self.emit(BOp::Builtin { d, b: *b, x, y, sp });
            }
            Expr::Builtin(
                b @ (Builtin::Count
                | Builtin::Empty
                | Builtin::First
                | Builtin::Last
                | Builtin::SumList),
                _,
                Some(c),
                span,
            ) => {
                let sp = self.span(*span);
                let what = match b {
                    Builtin::Count => Listed::Count,
                    Builtin::Empty => Listed::Empty,
                    Builtin::First => Listed::First,
                    Builtin::Last => Listed::Last,
                    _ => Listed::Sum,
                };
                let m = self.temp();
                self.emit(BOp::Mark { d: m });
                self.coll(c, m, sp);
                self.emit(BOp::Listed { d, m, what, sp });
            }
            // `C[i]` and `index(x, C)`: the argument first, then the list,
            // as the tree evaluator takes them. `index` in a plain zone asks
            // where the piece lies instead of listing the zone, so it stays
            // a tree.
            Expr::Builtin(b @ (Builtin::ListAt | Builtin::IndexOf), args, Some(c), span)
                if args.len() == 1 && !(*b == Builtin::IndexOf && matches!(**c, Coll::Zone(_))) =>
            {
                let sp = self.span(*span);
                let x = self.expr(&args[0], sp);
                if let (Builtin::ListAt, Some(vals)) = (b, const_list(c)) {
                    let at = self.p.vals.len() as u32;
                    self.p.vals.extend(vals);
                    let n = (self.p.vals.len() as u32 - at) as u16;
                    self.emit(BOp::ConstAt { d, x, at, n, sp });
                    return;
                }
                let m = self.temp();
                self.emit(BOp::Mark { d: m });
                self.coll(c, m, sp);
                self.emit(match b {
                    Builtin::ListAt => BOp::ListAt { d, x, m, sp },
                    _ => BOp::IndexOf { d, x, m },
                });
            }
            Expr::Builtin(Builtin::LongestPath, _, Some(c), span) => {
                let sp = self.span(*span);
                let m = self.temp();
                self.emit(BOp::Mark { d: m });
                self.coll(c, m, sp);
                self.emit(BOp::LongestPath { d, m, sp });
            }
            Expr::ZoneAgg(op, on, p) => {
                self.p.preds.push((*on, p.clone()));
                let pred = (self.p.preds.len() - 1) as u32;
                self.emit(BOp::ZoneAgg { d, op: *op, pred });
            }
            Expr::NodeByKey {
                key,
                vals,
                within,
                fallback,
            } => self.key_lookup(e, *key, vals, within, fallback, d, sp),
            Expr::Builtin(..) | Expr::Code(_) => self.tree(e, d, sp),
        }
    }

    pub(super) fn bin(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr, d: Reg, sp: u16) {
        if matches!(op, BinOp::And | BinOp::Or | BinOp::In) {
            // Connectives are compiled by the caller and `in` is lowered to
            // `Expr::In`; whatever else is left to the tree.
            return self.tree(e, d, sp);
        }
        // A constant left operand of an operation that can swap its sides
        // (`1 + run(…)`) goes right: computing a constant has no effect, so
        // the order does not matter.
        if let (Expr::Const(_), false) = (a, matches!(b, Expr::Const(_))) {
            let swapped = match op {
                BinOp::Add | BinOp::Eq | BinOp::Ne => Some(op),
                BinOp::Lt => Some(BinOp::Gt),
                BinOp::Gt => Some(BinOp::Lt),
                BinOp::Le => Some(BinOp::Ge),
                BinOp::Ge => Some(BinOp::Le),
                _ => None,
            };
            if let Some(op) = swapped {
                return self.bin(e, op, b, a, d, sp);
            }
        }
        // A constant right operand is folded into the operation.
        if let Expr::Const(k) = *b {
            let op = match op {
                BinOp::Add => Some(BOp::AddK { d, a: 0, k, sp }),
                BinOp::Sub if k != Val::MIN => Some(BOp::AddK { d, a: 0, k: -k, sp }),
                BinOp::Eq => Some(BOp::EqK { d, a: 0, k }),
                BinOp::Ne => Some(BOp::NeK { d, a: 0, k }),
                BinOp::Lt => Some(BOp::LtK { d, a: 0, k }),
                BinOp::Gt => Some(BOp::GtK { d, a: 0, k }),
                BinOp::Le if k != Val::MAX => Some(BOp::LtK { d, a: 0, k: k + 1 }),
                BinOp::Ge if k != Val::MIN => Some(BOp::GtK { d, a: 0, k: k - 1 }),
                _ => None,
            };
            if let Some(mut op) = op {
                let r = self.expr(a, sp);
                match &mut op {
                    BOp::AddK { a, .. }
                    | BOp::EqK { a, .. }
                    | BOp::NeK { a, .. }
                    | BOp::LtK { a, .. }
                    | BOp::GtK { a, .. } => *a = r,
                    _ => {}
                }
                self.emit(op);
                return;
            }
        }
        let x = self.expr(a, sp);
        let y = self.expr(b, sp);
        let op = match op {
            BinOp::Add => BOp::Add { d, a: x, b: y, sp },
            BinOp::Sub => BOp::Sub { d, a: x, b: y, sp },
            BinOp::Mul => BOp::Mul { d, a: x, b: y, sp },
            BinOp::Div => BOp::Div { d, a: x, b: y, sp },
            BinOp::Rem => BOp::Rem { d, a: x, b: y, sp },
            BinOp::Eq => BOp::Eq { d, a: x, b: y },
            BinOp::Ne => BOp::Ne { d, a: x, b: y },
            BinOp::Lt => BOp::Lt { d, a: x, b: y },
            BinOp::Le => BOp::Le { d, a: x, b: y },
            BinOp::Gt => BOp::Lt { d, a: y, b: x },
            BinOp::Ge => BOp::Le { d, a: y, b: x },
            BinOp::And | BinOp::Or | BinOp::In => return self.tree(e, d, sp),
        };
        self.emit(op);
    }

    /// The zone a reference names, into `d`.
    pub(super) fn zone(&mut self, z: &ZoneRef, d: Reg, sp: u16) {
        let (dim, x, n) = match &z.index {
            ZIndex::Global => (ZDim::Global, None, 0),
            ZIndex::Player(x) => (ZDim::Player, Some(x), 0),
            ZIndex::Node(x) => (ZDim::Node, Some(x), 0),
            ZIndex::Edge(x) => (ZDim::Edge, Some(x), 0),
            ZIndex::At(x, n) => (ZDim::At, Some(x), *n),
            ZIndex::Value(x) => (ZDim::Value, Some(x), 0),
        };
        let i = x.map_or(d, |x| self.expr(x, sp));
        self.emit(BOp::Zone {
            d,
            base: z.base,
            i,
            dim,
            n,
            sp,
        });
    }
}

/// The node, edge or seat that indexes a zone reference, with its
/// dimension: the zones `BOp::ZoneLenOf` finds and reads at once.
fn owned_by(z: &ZoneRef) -> Option<(ZDim, &Expr)> {
    match &z.index {
        ZIndex::Node(x) => Some((ZDim::Node, x)),
        ZIndex::Edge(x) => Some((ZDim::Edge, x)),
        ZIndex::Player(x) => Some((ZDim::Player, x)),
        _ => None,
    }
}

/// The values of a list literal of constants no longer than an operation
/// can count (`[2, 3, 5]`), or `None`.
fn const_list(c: &Coll) -> Option<Vec<Val>> {
    let Coll::List(es) = c else { return None };
    if es.len() > u16::MAX as usize {
        return None;
    }
    es.iter()
        .map(|e| match e {
            Expr::Const(v) => Some(*v),
            _ => None,
        })
        .collect()
}

/// The jump on `a OP k` (`k` the constant `b`) taken when the comparison is
/// `when`: whether it is `a < k'` (else `a > k'`), and `k'`; `None` where
/// moving `k` by one would overflow.
fn order_k(op: BinOp, when: bool, b: &Expr) -> Option<(bool, Val)> {
    let Expr::Const(k) = *b else { return None };
    // The test, with a false `when` turned into the opposite order.
    let op = match (op, when) {
        (op, true) => op,
        (BinOp::Lt, false) => BinOp::Ge,
        (BinOp::Le, false) => BinOp::Gt,
        (BinOp::Gt, false) => BinOp::Le,
        (_, false) => BinOp::Lt,
    };
    match op {
        BinOp::Lt => Some((true, k)),
        BinOp::Le => Some((true, k.checked_add(1)?)),
        BinOp::Gt => Some((false, k)),
        _ => Some((false, k.checked_sub(1)?)),
    }
}
