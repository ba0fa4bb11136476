//! Compiling collections: lists on the scratch stack, filters and maps
//! compacted in place, aggregates (read in place where the elements lie
//! still) and key lookups.

use super::comp::Comp;
use crate::ast::BinOp;
use crate::ir::*;

/// The registers an aggregate's loop updates: the answer, the best key so
/// far and whether there is one (`best`/`worst`), and the scratch mark a
/// failing `sum` drops back to.
#[derive(Clone, Copy)]
struct Acc {
    d: Reg,
    key: Reg,
    has: Reg,
    m: Reg,
    /// For `any` or `all` tested as jumps ([`Comp::agg_jumps`]): the
    /// answer on which they jump; `d` is then not written.
    jumps: Option<bool>,
}

impl<'g> Comp<'g> {
    /// Lists a collection above mark `m` (which the caller has set), counted
    /// against the step budget as the tree evaluator counts it.
    pub(super) fn coll(&mut self, c: &Coll, m: Reg, sp: u16) {
        if matches!(
            c,
            Coll::Sorted(..)
                | Coll::Reachable(..)
                | Coll::Components(..)
                | Coll::Members(..)
                | Coll::ZonesOwned { .. }
                | Coll::Subsets { .. }
                | Coll::Subset(..)
                | Coll::Code(_)
        ) {
            let c = self.remap_coll(c);
            self.p.colls.push(c);
            let c = (self.p.colls.len() - 1) as u32;
            self.emit(BOp::PushTree { c, sp });
            return;
        }
        let keep = self.next;
        self.elements(c, m, sp);
        self.next = keep;
        self.emit(BOp::Charge { m, sp });
    }

    pub(super) fn elements(&mut self, c: &Coll, m: Reg, sp: u16) {
        match c {
            Coll::Zone(z) => {
                let t = self.temp();
                self.zone(z, t, sp);
                self.emit(BOp::PushZone { z: t });
            }
            Coll::Players => drop(self.emit(BOp::PushPlayers)),
            Coll::PlayersFrom(e) | Coll::Opponents(e) => {
                let p = self.expr(e, sp);
                self.emit(BOp::PushPlayersFrom {
                    p,
                    skip: matches!(c, Coll::Opponents(_)),
                    sp,
                });
            }
            Coll::Nodes => drop(self.emit(BOp::PushNodes)),
            Coll::Edges => drop(self.emit(BOp::PushEdges)),
            Coll::Successors(e) | Coll::Predecessors(e) | Coll::Neighbors(e) | Coll::EdgesOf(e) => {
                let adj = match c {
                    Coll::Successors(_) => Adj::Successors,
                    Coll::Predecessors(_) => Adj::Predecessors,
                    Coll::Neighbors(_) => Adj::Neighbors,
                    _ => Adj::OutEdges,
                };
                let n = self.expr(e, sp);
                self.emit(BOp::PushAdj { n, adj, sp });
            }
            Coll::Range(a, b) => {
                let a = self.expr(a, sp);
                let b = self.expr(b, sp);
                self.emit(BOp::PushRange { a, b, sp });
            }
            Coll::List(es) => {
                for e in es {
                    let keep = self.next;
                    let s = self.expr(e, sp);
                    self.emit(BOp::Push { s });
                    self.next = keep;
                }
            }
            Coll::WhereZones(on, p) => {
                self.p.preds.push((*on, p.clone()));
                let pred = (self.p.preds.len() - 1) as u32;
                self.emit(BOp::PushZPred { pred, sp });
            }
            Coll::ReachableVia(e, inner) => {
                // The edges are listed by bytecode, then searched in place.
                let n = self.expr(e, sp);
                self.coll(inner, m, sp);
                self.emit(BOp::ReachVia { n, m, sp });
            }
            Coll::NodesWithAttr(attr, e) => {
                let v = self.expr(e, sp);
                self.emit(BOp::PushAttr { attr: *attr, v });
            }
            Coll::Filter(..) | Coll::Map(..) => self.filter_each(c, m, sp, &mut |_, _| {}),
            // The map listed from the mark, then each value kept once: what
            // the tree evaluator does, in the same order.
            Coll::Distinct(inner, slot, body) => {
                let map = Coll::Map(inner.clone(), *slot, body.clone());
                self.filter_each(&map, m, sp, &mut |_, _| {});
                self.emit(BOp::Distinct { m });
            }
            // Sets and their components are the tree evaluator's alone, and
            // so are subsets, which read and write the frame's area; they are
            // rare and never hot.
            Coll::Sorted(..)
            | Coll::Reachable(..)
            | Coll::Components(..)
            | Coll::Members(..)
            | Coll::ZonesOwned { .. }
            | Coll::Subsets { .. }
            | Coll::Subset(..)
            | Coll::Code(_) => {
                let c = self.remap_coll(c);
                self.p.colls.push(c);
                let c = (self.p.colls.len() - 1) as u32;
                self.emit(BOp::PushTree { c, sp });
            }
        }
    }

    /// Lists `c`, a filter or a map, above mark `m` without the count of
    /// what it keeps (which [`Comp::coll`] charges after the list), and
    /// calls `each` with the register of each element kept (or value
    /// mapped) after it is on the list.
    pub(super) fn filter_each(
        &mut self,
        c: &Coll,
        m: Reg,
        sp: u16,
        each: &mut dyn FnMut(&mut Self, Reg),
    ) {
        if walks_kept(c) {
            // The inner collection is read where it lies, and what is
            // kept (or mapped) is pushed from the mark up.
            self.walk_kept(c, m, sp, &mut |comp, s| {
                comp.emit(BOp::Push { s });
                each(comp, s);
            });
            return;
        }
        let (Coll::Filter(inner, slot, body) | Coll::Map(inner, slot, body)) = c else {
            unreachable!("only a filter or a map is listed here")
        };
        self.loop_enter(*slot, Some(inner), Some(body), true);
        let slot = &self.loc(*slot);
        // The inner list is compacted in place: kept elements (or mapped
        // values) are written from the mark up.
        self.coll(inner, m, sp);
        let end = self.temp();
        self.emit(BOp::Mark { d: end });
        let w = self.temp();
        self.emit(BOp::Mov { d: w, s: m });
        let i = self.temp();
        self.emit(BOp::Mov { d: i, s: m });
        self.loop_live();
        let top = self.here();
        let next = self.emit(BOp::Next {
            i,
            end,
            slot: *slot,
            exit: 0,
        });
        let keep = self.next;
        let facts = self.with_facts(inner, *slot);
        let s = self.kept(c, body, *slot, top, sp);
        self.facts.truncate(facts);
        self.emit(BOp::Put { w, s });
        each(self, s);
        self.next = keep;
        self.emit(BOp::Jump { to: top });
        self.patch(next);
        self.emit(BOp::Truncate { m: w });
        self.loop_exit();
    }

    /// `count`, `min` or `max` over a filter whose value reads only the
    /// element, its attribute or a constant ([`plain_value`]): the answer
    /// is taken as each element is kept, in the filter's own loop, instead
    /// of in a second loop over the list the filter made (connect four's
    /// `max(c in nodes where col == k and free(it): c.row)`). The list is
    /// still made, since its length is what listing charges after the
    /// filter and what `min` or `max` of nothing fails on, but not read
    /// again. A value that can neither fail nor count a step changes no
    /// answer, error or step count by being computed before that charge
    /// rather than after it.
    fn agg_filtered(&mut self, op: AggOp, coll: &Coll, body: Option<&Expr>, d: Reg, sp: u16) {
        let m = self.temp();
        self.emit(BOp::Mark { d: m });
        // The answer lives in a temporary of its own until the end: the
        // filter's loop may use `d` as a spare register.
        let acc = self.temp();
        self.agg_start(op, acc);
        self.filter_each(coll, m, sp, &mut |comp, s| {
            let keep = comp.next;
            // The value read from the element's register `s` itself,
            // without binding the aggregate's local (`plain_value` says
            // which forms there are; no value counts as `1`).
            let v = match body {
                Some(Expr::Local(_)) => s,
                Some(Expr::NodeAttr(attr, _)) => {
                    let t = comp.temp();
                    comp.emit(BOp::NodeAttr {
                        d: t,
                        attr: *attr,
                        n: s,
                        sp,
                    });
                    t
                }
                Some(Expr::EdgeAttr(attr, _)) => {
                    let t = comp.temp();
                    comp.emit(BOp::EdgeAttr {
                        d: t,
                        attr: *attr,
                        e: s,
                        sp,
                    });
                    t
                }
                Some(Expr::Const(v)) => comp.constant(*v),
                None => comp.constant(1),
                Some(_) => unreachable!("`plain_value` accepts no other value"),
            };
            comp.emit(match op {
                AggOp::Count => BOp::CountIf { d: acc, v },
                AggOp::Min => BOp::MinAcc { d: acc, v },
                _ => BOp::MaxAcc { d: acc, v },
            });
            comp.next = keep;
        });
        self.emit(BOp::Charge { m, sp });
        let end = self.temp();
        self.emit(BOp::Mark { d: end });
        self.agg_end(op, m, end, sp);
        self.emit(BOp::Mov { d, s: acc });
    }

    /// Walks `c`, a filter or a map over a collection read where it lies
    /// ([`walks_kept`]), and calls `each` with the register of each element
    /// it keeps (or value it maps), in order. It charges what listing `c`
    /// charges except the count of what is kept, which [`Comp::coll`]
    /// charges after the list.
    pub(super) fn walk_kept(
        &mut self,
        c: &Coll,
        spare: Reg,
        sp: u16,
        each: &mut dyn FnMut(&mut Self, Reg),
    ) {
        let (Coll::Filter(inner, slot, body) | Coll::Map(inner, slot, body)) = c else {
            unreachable!("`walks_kept` says a filter or a map")
        };
        let what = walk(inner).expect("`walks_kept` says it walks");
        if matches!(c, Coll::Filter(..)) {
            if let Some(split) = self.split(body, *slot) {
                return self.walk_switched(inner, what, *slot, &split, spare, sp, each);
            }
        }
        self.loop_enter(*slot, Some(inner), Some(body), true);
        let slot = self.loc(*slot);
        let lead = match (c, &**inner) {
            (Coll::Filter(..), Coll::Zone(_)) => lead_test(body, &|s| self.loc(s) == slot),
            _ => None,
        };
        let (src, i, end) = self.iter_init(inner, what, spare, sp);
        let led = lead.map(|l| self.who(l, i, end, sp));
        self.loop_live();
        let top = self.here();
        let next = match &led {
            Some((l, who, _)) => self.iter_lead(l, i, end, slot, *who),
            None => self.iter_next(what, src, i, end, slot),
        };
        let keep = self.next;
        let s = match &led {
            // The leading test is the step's: only the rest is left.
            Some((
                Lead {
                    rest: Some(rest), ..
                },
                _,
                _,
            )) => self.kept(c, rest, slot, top, sp),
            Some(_) => slot,
            None => self.kept(c, body, slot, top, sp),
        };
        each(self, s);
        self.next = keep;
        self.emit(BOp::Jump { to: top });
        self.patch(next);
        if let Some((_, _, Some(j))) = led {
            self.patch(j);
        }
        self.loop_exit();
    }

    /// [`Comp::walk_kept`] for a filter whose test is split at its
    /// invariant tests (`switch.rs`): one loop per leaf.
    #[allow(clippy::too_many_arguments)]
    fn walk_switched(
        &mut self,
        inner: &Coll,
        what: Walk,
        slot: u16,
        split: &super::switch::Split,
        spare: Reg,
        sp: u16,
        each: &mut dyn FnMut(&mut Self, Reg),
    ) {
        self.loop_enter(slot, Some(inner), Some(&split.all_leaves()), true);
        let slot = self.loc(slot);
        let (src, i, end) = self.iter_init(inner, what, spare, sp);
        self.loop_live();
        let exits = self.switched(
            split,
            slot,
            sp,
            &mut |comp| comp.iter_next(what, src, i, end, slot),
            each,
        );
        for e in exits {
            self.patch(e);
        }
        self.loop_exit();
    }

    /// Walks `c`, a collection read where it lies ([`walk`]), and calls
    /// `each` with the register of each element, in order, charging all
    /// that listing `c` charges.
    pub(super) fn walk_all(
        &mut self,
        c: &Coll,
        spare: Reg,
        sp: u16,
        each: &mut dyn FnMut(&mut Self, Reg),
    ) {
        let what = walk(c).expect("the caller checks that it walks");
        let (src, i, end) = self.iter_init(c, what, spare, sp);
        let slot = self.temp();
        let top = self.here();
        let next = self.iter_next(what, src, i, end, slot);
        let keep = self.next;
        each(self, slot);
        self.next = keep;
        self.emit(BOp::Jump { to: top });
        self.patch(next);
    }

    /// The step of a filter or a map over the element in `slot`: a filter
    /// jumps back to `top` when its test fails and keeps the element, a map
    /// computes its value. Returns the register to keep.
    fn kept(&mut self, c: &Coll, body: &Expr, slot: Reg, top: u32, sp: u16) -> Reg {
        if matches!(c, Coll::Filter(..)) {
            for j in self.branch(body, false, sp) {
                self.patch_to(j, top);
            }
            slot
        } else {
            self.expr(body, sp)
        }
    }

    /// An aggregate over a collection, as the tree evaluator's `agg`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn agg(
        &mut self,
        op: AggOp,
        coll: &Coll,
        slot: u16,
        body: Option<&Expr>,
        d: Reg,
        sp: u16,
    ) {
        if let (AggOp::Sum, Coll::Nodes, Some(b)) = (op, coll, body) {
            if self.family_sum(b, slot, d, sp) {
                return;
            }
        }
        if let (AggOp::Sum, Coll::Range(Expr::Const(lo), Expr::Const(hi)), Some(b)) =
            (op, coll, body)
        {
            if self.chain_sum(b, slot, (*lo, *hi), d, sp) {
                return;
            }
        }
        // Read in place where it can be (see `walk`).
        let what = walk(coll);
        if let (Coll::Zone(z), Some((test, who))) =
            (coll, owner_test(op, body, &|s| self.loc(s) == slot))
        {
            let t = self.temp();
            self.zone(z, t, sp);
            let before = self.here();
            let p = self.expr(&who, sp);
            // The zone found and its owners counted in one operation when
            // nothing runs between them (the seat is in a register), so
            // that an error of the zone's still comes first.
            if let (
                true,
                Some(&BOp::Zone {
                    base,
                    i,
                    dim,
                    sp: zsp,
                    ..
                }),
            ) = (self.here() == before, self.p.ops.last())
            {
                if matches!(dim, ZDim::Node | ZDim::Edge | ZDim::Player) && zsp == sp {
                    self.p.ops.pop();
                    self.emit(BOp::ZoneOwnerOf {
                        d,
                        base,
                        i,
                        dim,
                        p,
                        test,
                        sp,
                    });
                    return;
                }
            }
            self.emit(BOp::ZoneOwner {
                d,
                z: t,
                p,
                test,
                sp,
            });
            return;
        }
        if let (Some(what), false) = (what, matches!(op, AggOp::Last | AggOp::Min | AggOp::Max)) {
            self.in_place(op, coll, what, slot, body, d, None, sp);
            return;
        }
        if let Coll::Filter(inner, _, _) = coll {
            let plain =
                body.is_none_or(|b| plain_value(b, elements_of(inner), &|s| self.loc(s) == slot));
            if matches!(op, AggOp::Count | AggOp::Min | AggOp::Max) && plain {
                return self.agg_filtered(op, coll, body, d, sp);
            }
        }
        let m = self.temp();
        self.emit(BOp::Mark { d: m });
        self.coll(coll, m, sp);
        let end = self.temp();
        self.emit(BOp::Mark { d: end });
        let (key, has) = self.agg_start(op, d);
        let i = self.temp();
        self.loop_live();
        let top = self.here() + 1;
        let next = if op == AggOp::Last {
            self.emit(BOp::Mov { d: i, s: end });
            self.emit(BOp::NextRev {
                i,
                m,
                slot,
                exit: 0,
            })
        } else {
            self.emit(BOp::Mov { d: i, s: m });
            self.emit(BOp::Next {
                i,
                end,
                slot,
                exit: 0,
            })
        };
        let acc = Acc {
            d,
            key,
            has,
            m,
            jumps: None,
        };
        let facts = self.with_facts(coll, slot);
        self.agg_loop(op, slot, body, acc, top, next, sp);
        self.facts.truncate(facts);
        self.agg_end(op, m, end, sp);
    }

    /// `sum(n in nodes: len(n.Z))`, or `sum(n in nodes: n.ATTR - len(n.Z))`,
    /// into `d` without visiting the nodes, if `body` is one of them (`slot`
    /// the node's register): the nodes' zones `Z` are the zones `base` to
    /// `base + N - 1`, which lie in that order in the zones' arena, so that
    /// their pieces are those from where the first starts to where the last
    /// ends (two [`BOp::ZoneSpan`]s), and the attribute's sum is a constant.
    /// The walk's start still charges the nodes, as the walk did; nothing
    /// else in it charges or can fail (a node's zone and attribute, and no
    /// sum of so few pieces and such attributes can overflow, which the
    /// attribute's column is checked for). Hansa's `empty_spaces()` and
    /// `filled_spaces()`, some 100 times a game, walked its nine cities.
    fn family_sum(&mut self, body: &Expr, slot: u16, d: Reg, sp: u16) -> bool {
        let n = self.g.board.nodes.len();
        if n == 0 {
            return false;
        }
        let at_node = |x: &Expr| matches!(x, Expr::Local(s) if self.loc(*s) == slot);
        let family = |x: &Expr| match x {
            Expr::ZoneLen(ZoneRef {
                base,
                index: ZIndex::Node(i),
            }) if at_node(i) => Some(*base),
            _ => None,
        };
        let (base, column) = match body {
            Expr::Bin(crate::ast::BinOp::Sub, a, b) => match (&**a, family(b)) {
                (Expr::NodeAttr(k, x), Some(base)) if at_node(x) => (base, Some(*k)),
                _ => return false,
            },
            _ => match family(body) {
                Some(base) => (base, None),
                None => return false,
            },
        };
        // The attribute's sum, where every node has a value and neither it
        // nor it less every piece of the game can leave 62 bits.
        let total = match column {
            Some(k) => {
                let vals = &self.g.node_attrs[k as usize].2;
                let sum: i128 = vals.iter().map(|&v| v as i128).sum();
                let limit = 1i128 << 62;
                let pieces = self.g.piece_kind.len() as i128;
                if vals.contains(&NONE)
                    || vals
                        .iter()
                        .any(|&v| (v as i128).abs() >= limit / (n as i128 + 1))
                    || sum.abs() + pieces >= limit
                {
                    return false;
                }
                Some(sum as Val)
            }
            None => None,
        };
        // The walk's start, for its charge: its position is never read.
        let (i, end) = (self.temp(), self.temp());
        self.emit(BOp::IterInit {
            what: Iter::Nodes,
            src: i,
            i,
            end,
            sp,
        });
        let (from, to) = self.zones_span(base, base + n as u32 - 1);
        match total {
            Some(t) => {
                let pieces = self.temp();
                self.emit(BOp::Sub {
                    d: pieces,
                    a: to,
                    b: from,
                    sp,
                });
                let c = self.constant(t);
                self.emit(BOp::Sub {
                    d,
                    a: c,
                    b: pieces,
                    sp,
                });
            }
            None => {
                self.emit(BOp::Sub {
                    d,
                    a: to,
                    b: from,
                    sp,
                });
            }
        }
        true
    }

    /// `sum(i in LO..HI: count(zone(CHAIN)))` into `d` without walking the
    /// range, if `CHAIN` picks, for each `i` of the range, a zone of no
    /// dimension by tests of `i` against constants (`if i == 1 then stack1
    /// else if i == 2 then stack2 else …`, a function like Hansa's
    /// `stack(i)` pasted by `inline`), and the zones it picks are each
    /// picked once and lie side by side (declared one after another): their
    /// pieces are those from where the first starts to where the last ends
    /// in the zones' arena (two [`BOp::ZoneSpan`]s). The range's start still
    /// checks and charges the range, as the walk's did; nothing else in the
    /// walk charges or can fail (the tests, a zone of no dimension, and a
    /// sum of so few pieces). Hansa's `supply_left()`, asked before every
    /// refill and in `can_refill()`, walked its five stacks.
    fn chain_sum(&mut self, body: &Expr, slot: u16, (lo, hi): (Val, Val), d: Reg, sp: u16) -> bool {
        const MOST: Val = 64;
        let Expr::ZoneLen(ZoneRef {
            index: ZIndex::Value(chain),
            ..
        }) = body
        else {
            return false;
        };
        if lo > hi || hi.checked_sub(lo).is_none_or(|n| n >= MOST) {
            return false;
        }
        let at = |x: &Expr| matches!(x, Expr::Local(s) if self.loc(*s) == slot);
        // The zone the chain picks for `i == k`: each test compares `i`
        // with a constant, so it is decided for every `k`.
        let pick = |k: Val| -> Option<u32> {
            let mut e: &Expr = chain;
            loop {
                match e {
                    Expr::Zone(ZoneRef {
                        base,
                        index: ZIndex::Global,
                    }) => return Some(*base),
                    Expr::If(c, a, b) => {
                        let v = match &**c {
                            Expr::Bin(crate::ast::BinOp::Eq, x, y) => match (&**x, &**y) {
                                (x, Expr::Const(v)) | (Expr::Const(v), x) if at(x) => *v,
                                _ => return None,
                            },
                            _ => return None,
                        };
                        e = if k == v { a } else { b };
                    }
                    _ => return None,
                }
            }
        };
        let mut zones: Vec<u32> = match (lo..=hi).map(pick).collect() {
            Some(z) => z,
            None => return false,
        };
        zones.sort_unstable();
        let first = zones[0];
        if zones
            .iter()
            .enumerate()
            .any(|(j, &z)| z != first + j as u32)
        {
            return false;
        }
        let (src, i, end) = (self.constant(lo), self.temp(), self.temp());
        self.emit(BOp::Const { d: end, v: hi });
        self.emit(BOp::RangeInit { src, i, end, sp });
        let (from, to) = self.zones_span(first, first + (hi - lo) as u32);
        self.emit(BOp::Sub {
            d,
            a: to,
            b: from,
            sp,
        });
        true
    }

    /// The positions in the zones' arena where zone `first` starts and
    /// zone `last` ends (two [`BOp::ZoneSpan`]s): the pieces of the zones
    /// `first` to `last` lie between them.
    fn zones_span(&mut self, first: u32, last: u32) -> (Reg, Reg) {
        let (a, b) = (self.constant(first as Val), self.constant(last as Val));
        let (from, spare, to) = (self.temp(), self.temp(), self.temp());
        self.emit(BOp::ZoneSpan {
            z: a,
            i: from,
            end: spare,
        });
        self.emit(BOp::ZoneSpan {
            z: b,
            i: spare,
            end: to,
        });
        (from, to)
    }

    /// A fresh register holding `v`.
    fn constant(&mut self, v: Val) -> Reg {
        let t = self.temp();
        self.emit(BOp::Const { d: t, v });
        t
    }

    /// The end of an aggregate over the list above mark `m` (ending at
    /// mark `end`): the list dropped, and `min` or `max` of no element
    /// failing.
    fn agg_end(&mut self, op: AggOp, m: Reg, end: Reg, sp: u16) {
        self.emit(BOp::Truncate { m });
        if matches!(op, AggOp::Min | AggOp::Max) {
            self.emit(BOp::ErrEmpty {
                m,
                e: end,
                max: op == AggOp::Max,
                sp,
            });
        }
    }

    /// Whether `any` or `all` over `coll` with test `body` (its element in
    /// `slot`) is tested as jumps by [`Comp::agg_jumps`]: it has a test and
    /// is read in place, and not as one operation ([`BOp::ZoneOwner`]).
    pub(super) fn jumps_over(
        &self,
        op: AggOp,
        coll: &Coll,
        slot: u16,
        body: Option<&Expr>,
    ) -> bool {
        let slot = self.loc(slot);
        matches!(op, AggOp::Any | AggOp::All)
            && body.is_some()
            && walk(coll).is_some()
            && !(matches!(coll, Coll::Zone(_))
                && owner_test(op, body, &|s| self.loc(s) == slot).is_some())
    }

    /// `any` or `all` as a condition ([`Comp::jumps_over`] said it can
    /// be): its loop read in place, jumping out on the answer `when` (the
    /// returned jumps) and falling through on the other, with no answer
    /// written and tested. `any` found true leaves from inside the loop,
    /// found false at the loop's end; `all` the other way round.
    pub(super) fn agg_jumps(
        &mut self,
        op: AggOp,
        coll: &Coll,
        slot: u16,
        body: Option<&Expr>,
        when: bool,
        sp: u16,
    ) -> Vec<usize> {
        let what = walk(coll).expect("`jumps_over` says it walks");
        let d = self.temp();
        self.in_place(op, coll, what, self.loc(slot), body, d, Some(when), sp)
    }

    /// An aggregate whose elements are read in place (see [`Comp::agg`]);
    /// with `jumps` (as in [`Acc::jumps`]), `any` or `all` as jumps, which
    /// are returned.
    #[allow(clippy::too_many_arguments)]
    fn in_place(
        &mut self,
        op: AggOp,
        coll: &Coll,
        what: Walk,
        slot: u16,
        body: Option<&Expr>,
        d: Reg,
        jumps: Option<bool>,
        sp: u16,
    ) -> Vec<usize> {
        // `any`, `count` and `first` skip an element whose test fails, so
        // a leading test of the piece's owner or field can be the loop's
        // step (`BOp::IterLead`). `all` cannot: there
        // such an element settles the answer.
        let lead = match (op, coll, body) {
            (AggOp::Any | AggOp::Count | AggOp::First, Coll::Zone(_), Some(b)) => {
                lead_test(b, &|s| self.loc(s) == slot)
            }
            _ => None,
        };
        if let (AggOp::First, None, Some(l)) = (op, jumps, &lead) {
            if let Some((y, tests)) = self.alike(l, slot) {
                let (_, i, end) = self.iter_init(coll, what, d, sp);
                self.p.likes.push(tests);
                let like = (self.p.likes.len() - 1) as u16;
                self.emit(BOp::FirstAlike {
                    d,
                    i,
                    end,
                    y,
                    like,
                    sp,
                });
                return vec![];
            }
        }
        let (src, i, end) = self.iter_init(coll, what, d, sp);
        let (key, has) = match jumps {
            Some(_) => (d, d),
            None => self.agg_start(op, d),
        };
        let led = lead.map(|l| self.who(l, i, end, sp));
        // `SumAcc` drops the list above its mark on overflow: here there is
        // none, so the mark is the height the loop starts at.
        let m = if op == AggOp::Sum {
            let m = self.temp();
            self.emit(BOp::Mark { d: m });
            m
        } else {
            d
        };
        self.loop_live();
        let top = self.here();
        let (next, body) = match &led {
            Some((l, who, _)) => (self.iter_lead(l, i, end, slot, *who), l.rest.as_ref()),
            None => (self.iter_next(what, src, i, end, slot), body),
        };
        let acc = Acc {
            d,
            key,
            has,
            m,
            jumps,
        };
        let mut taken = self.agg_loop(op, slot, body, acc, top, next, sp);
        if let Some((_, _, Some(j))) = led {
            // An empty zone: the loop's end.
            if jumps.is_some_and(|w| w != (op == AggOp::Any)) {
                taken.push(j);
            } else {
                self.patch(j);
            }
        }
        taken
    }

    /// A leading test (see [`lead_test`]) with the register its `p` is read
    /// into, once the loop (its position `i` and end `end`) has started: a
    /// local or a constant at once; the field or owner of a piece in a
    /// local, which fails for `none`, only once the zone is known to have a
    /// first element, where the scan first read it, so that an empty zone
    /// reads nothing and a failing read fails as the scan's did. Then also
    /// the jump out for the empty zone, to be patched to the loop's exit.
    fn who(&mut self, lead: Lead, i: Reg, end: Reg, sp: u16) -> (Lead, Reg, Option<usize>) {
        let empty = fallible(&lead.who).then(|| {
            self.emit(BOp::JumpEq {
                a: i,
                b: end,
                to: 0,
            })
        });
        let who = self.expr(&lead.who, sp);
        (lead, who, empty)
    }

    /// The start of an in-place loop over `coll` (`BOp::IterInit`, or
    /// `BOp::RangeInit`): the registers of its source, position and end.
    /// `spare` is a register the loop may name as its source when it needs
    /// none.
    pub(super) fn iter_init(
        &mut self,
        coll: &Coll,
        what: Walk,
        spare: Reg,
        sp: u16,
    ) -> (Reg, Reg, Reg) {
        let src = match coll {
            Coll::Zone(z) => {
                let t = self.temp();
                self.zone(z, t, sp);
                t
            }
            // A local or a temporary below the loop's: either keeps the
            // node (or the range's first number) for the whole loop.
            Coll::Successors(e)
            | Coll::Predecessors(e)
            | Coll::Neighbors(e)
            | Coll::EdgesOf(e)
            | Coll::Range(e, _) => self.expr(e, sp),
            _ => spare,
        };
        let (i, end) = (self.temp(), self.temp());
        match (what, coll) {
            (Walk::Range, Coll::Range(_, b)) => {
                self.into(b, end, sp);
                self.emit(BOp::RangeInit { src, i, end, sp });
            }
            (Walk::In(what), _) => drop(self.emit(BOp::IterInit {
                what,
                src,
                i,
                end,
                sp,
            })),
            (Walk::Range, _) => unreachable!("`walk` says a range only of a range"),
        }
        (src, i, end)
    }

    /// The step of an in-place loop begun by [`Comp::iter_init`]; its exit
    /// is patched later.
    pub(super) fn iter_next(&mut self, what: Walk, src: Reg, i: Reg, end: Reg, slot: Reg) -> usize {
        self.emit(match what {
            Walk::In(what) => BOp::IterNext {
                what,
                src,
                i,
                end,
                slot,
                exit: 0,
            },
            Walk::Range => BOp::RangeNext {
                src,
                i,
                end,
                slot,
                exit: 0,
            },
        })
    }

    /// Whether the skip [`Comp::lead_skip`] would give a loop binding
    /// `outer` over `domain` to the walk of `inner` never skips: `domain`
    /// holds only the elements whose own zone of `inner`'s family holds a
    /// piece of the seat `inner`'s leading test asks for (`r in
    /// edges-owned[posts of p], w in r.posts where w.owner == p and …`), a
    /// local or a constant read the same way by both. There the skip finds
    /// such a piece at every element and charges nothing, so the loop steps
    /// as `BOp::Next` does, without looking: the same elements, steps and
    /// errors.
    pub(super) fn skips_nothing(&self, domain: &Coll, inner: &Coll, outer: u16) -> bool {
        let Coll::ZonesOwned { on, base, who, .. } = domain else {
            return false;
        };
        let Coll::Filter(walked, slot, body) = inner else {
            return false;
        };
        let Coll::Zone(z) = &**walked else {
            return false;
        };
        let at = match (on, &z.index) {
            (Elems::Edges, ZIndex::Edge(x)) | (Elems::Nodes, ZIndex::Node(x)) => x,
            _ => return false,
        };
        if z.base != *base || !matches!(**at, Expr::Local(s) if s == outer) {
            return false;
        }
        let inner_slot = self.loc(*slot);
        let Some(lead) = lead_test(body, &|s| self.loc(s) == inner_slot) else {
            return false;
        };
        let same = match (&lead.who, who) {
            (Expr::Local(a), Expr::Local(b)) => a == b,
            (Expr::Const(a), Expr::Const(b)) => a == b,
            _ => false,
        };
        matches!(lead.key, Key::Owner) && lead.eq && same
    }

    /// For a loop binding `outer` whose body walks `domain` where it lies
    /// ([`Comp::walk_kept`]): when `domain` is a filter of a zone of the
    /// element (`outer.posts where it.owner == actor and …`) with a leading
    /// test whose `p` is a constant or a local read at once (not the
    /// element), the register holding `p` (a constant is put in a temporary
    /// here, before the loop) and the skip of [`BOp::NextLead`].
    pub(super) fn lead_skip(&mut self, domain: &Coll, outer: u16, sp: u16) -> Option<(Reg, u16)> {
        let Coll::Filter(inner, slot, body) = domain else {
            return None;
        };
        let Coll::Zone(z) = &**inner else { return None };
        let (dim, at, n) = match &z.index {
            ZIndex::Player(x) => (ZDim::Player, x, 0),
            ZIndex::Node(x) => (ZDim::Node, x, 0),
            ZIndex::Edge(x) => (ZDim::Edge, x, 0),
            ZIndex::At(x, n) => (ZDim::At, x, *n),
            ZIndex::Value(x) => (ZDim::Value, x, 0),
            ZIndex::Global => return None,
        };
        if !matches!(**at, Expr::Local(s) if s == outer) {
            return None;
        }
        let inner_slot = self.loc(*slot);
        let lead = lead_test(body, &|s| self.loc(s) == inner_slot)?;
        if fallible(&lead.who) || matches!(lead.who, Expr::Local(s) if s == outer) {
            return None;
        }
        let who = self.expr(&lead.who, sp);
        let key = lead.key.code();
        self.p.skips.push(LeadSkip {
            base: z.base,
            dim,
            n,
            key,
            eq: lead.eq,
            sp,
        });
        Some((who, (self.p.skips.len() - 1) as u16))
    }

    /// For `first(Z where …)` whose test begins with `lead`: when every
    /// conjunct is `it.k == y.k` (either way round) with `k` the owner or a
    /// field and `y` the same local each time, that local's register and
    /// the tests of [`BOp::FirstAlike`]. Reading `y`'s keys can fail only
    /// for `none`, which the first read already fails for, so reading them
    /// all at once fails where the walk would.
    fn alike(&self, lead: &Lead, slot: u16) -> Option<(Reg, Vec<LikeTest>)> {
        let mut y = None;
        let mut tests = vec![];
        let mut next = Some(lead.clone());
        while let Some(l) = next {
            let key = l.key.code();
            let (other_key, local) = match &l.who {
                Expr::Owner(x) => (BOp::OWNER, &**x),
                Expr::Field(f, x) => (u16::try_from(*f).ok()?, &**x),
                _ => return None,
            };
            let Expr::Local(s) = *local else { return None };
            if !l.eq || other_key != key || *y.get_or_insert(s) != s {
                return None;
            }
            tests.push(LikeTest {
                key,
                piece_first: l.piece_first,
            });
            next = match l.rest {
                Some(r) => Some(lead_test(&r, &|s| self.loc(s) == slot)?),
                None => None,
            };
        }
        Some((self.loc(y?), tests))
    }

    /// The step of an in-place loop over a zone that skips the pieces
    /// failing the leading test `lead`, whose `p` is in `who`; its exit is
    /// patched later.
    fn iter_lead(&mut self, lead: &Lead, i: Reg, end: Reg, slot: Reg, who: Reg) -> usize {
        let key = lead.key.code();
        self.emit(BOp::IterLead {
            i,
            end,
            slot,
            who,
            key,
            eq: lead.eq,
            exit: 0,
        })
    }

    /// An aggregate's answer before any element, and for `best`/`worst`
    /// the registers of the best key so far and whether there is one.
    fn agg_start(&mut self, op: AggOp, d: Reg) -> (Reg, Reg) {
        let init = match op {
            AggOp::Count | AggOp::Sum | AggOp::Any => 0,
            AggOp::All => 1,
            AggOp::Min => Val::MAX,
            AggOp::Max => Val::MIN,
            AggOp::Best | AggOp::Worst | AggOp::First | AggOp::Last => NONE,
        };
        self.emit(BOp::Const { d, v: init });
        if matches!(op, AggOp::Best | AggOp::Worst) {
            let (k, h) = (self.temp(), self.temp());
            self.emit(BOp::Const { d: h, v: 0 });
            (k, h)
        } else {
            (d, d)
        }
    }

    /// The body of an aggregate's loop, from the element bound in `slot` at
    /// `top` (the loop step, jumping out through `next`): its test or value
    /// and what that does to the answer; then back to `top`, or out early
    /// once the answer is settled.
    #[allow(clippy::too_many_arguments)]
    fn agg_loop(
        &mut self,
        op: AggOp,
        slot: u16,
        body: Option<&Expr>,
        acc: Acc,
        top: u32,
        next: usize,
        sp: u16,
    ) -> Vec<usize> {
        let Acc {
            d,
            key,
            has,
            m,
            jumps,
        } = acc;
        let mut taken = vec![];
        let keep = self.next;
        let stops = matches!(op, AggOp::Any | AggOp::All | AggOp::First | AggOp::Last);
        let v = match body {
            // A test that stops the search is compiled as jumps.
            Some(b) if stops => {
                for j in self.branch(b, op == AggOp::All, sp) {
                    self.patch_to(j, top);
                }
                d
            }
            Some(b) => self.expr(b, sp),
            None => {
                let t = self.constant(1);
                if stops {
                    self.emit(if op == AggOp::All {
                        BOp::JumpIf { c: t, to: top }
                    } else {
                        BOp::JumpUnless { c: t, to: top }
                    });
                }
                t
            }
        };
        let mut exit = None;
        match op {
            AggOp::Count => drop(self.emit(BOp::CountIf { d, v })),
            AggOp::Sum => drop(self.emit(BOp::SumAcc { d, v, m, sp })),
            AggOp::Min => drop(self.emit(BOp::MinAcc { d, v })),
            AggOp::Max => drop(self.emit(BOp::MaxAcc { d, v })),
            AggOp::Best | AggOp::Worst => drop(self.emit(BOp::BestAcc {
                d,
                key,
                has,
                x: slot,
                v,
                worst: op == AggOp::Worst,
            })),
            AggOp::Any | AggOp::All | AggOp::First | AggOp::Last => {
                // The test above went back to `top` unless this element
                // settles the answer.
                if jumps.is_none() {
                    self.emit(match op {
                        AggOp::Any => BOp::Const { d, v: 1 },
                        AggOp::All => BOp::Const { d, v: 0 },
                        _ => BOp::Mov { d, s: slot },
                    });
                }
                let j = self.emit(BOp::Jump { to: 0 });
                // As jumps, `any` settles true and `all` false.
                if jumps == Some(op == AggOp::Any) {
                    taken.push(j);
                } else {
                    exit = Some(j);
                }
            }
        }
        self.next = keep;
        if !stops {
            self.emit(BOp::Jump { to: top });
        }
        // The loop's end: the answer `any` and `all` start with.
        if jumps.is_some_and(|w| w != (op == AggOp::Any)) {
            taken.push(next);
        } else {
            self.patch(next);
        }
        if let Some(j) = exit {
            self.patch(j);
        }
        taken
    }

    /// A key lookup (`opt/board_index.rs`): within all nodes or a node's
    /// neighbours it runs here; within any other collection it is left to
    /// the tree. Each value is a program of its own, so that one that fails
    /// can hand over to the original search.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn key_lookup(
        &mut self,
        e: &Expr,
        key: u16,
        vals: &[Expr],
        within: &Coll,
        fallback: &Expr,
        d: Reg,
        sp: u16,
    ) {
        // A value holding a key lookup of its own would need programs of
        // its own: such lookups are left to the tree, decided before
        // anything is emitted so that nothing is evaluated twice.
        let nested = vals.iter().any(|v| {
            let mut found = false;
            crate::ir::walk::walk_e(&mut v.clone(), &mut |x: &mut Expr| {
                found |= matches!(x, Expr::NodeByKey { .. })
            });
            found
        });
        if nested {
            return self.tree(e, d, sp);
        }
        let (adj, n) = match within {
            Coll::Nodes => (None, d),
            Coll::Successors(x) => (Some(Adj::Successors), self.expr(x, sp)),
            Coll::Predecessors(x) => (Some(Adj::Predecessors), self.expr(x, sp)),
            Coll::Neighbors(x) => (Some(Adj::Neighbors), self.expr(x, sp)),
            _ => return self.tree(e, d, sp),
        };
        // Values that cannot fail (a grid's `row == r and col == k`) are
        // read from their registers: no programs, no fallback.
        if vals.len() <= MAX_KEY_ATTRS
            && vals
                .iter()
                .all(|v| matches!(v, Expr::Const(_) | Expr::Local(_)))
        {
            let regs: Vec<Reg> = vals.iter().map(|v| self.expr(v, sp)).collect();
            if adj.is_none() && regs.len() == 2 && self.g.keys[key as usize].is_dense_pair() {
                let (a, b) = (regs[0], regs[1]);
                self.emit(BOp::KeyPair { d, key, a, b });
                return;
            }
            let args = self.p.regs.len() as u32;
            self.p.regs.extend(regs);
            self.emit(BOp::KeyRegs {
                d,
                key,
                adj,
                n,
                args,
                len: vals.len() as u8,
                sp,
            });
            return;
        }
        let mut ids = vec![];
        for v in vals {
            // A value's temporaries lie above every register live here.
            let mut sub = Comp::new(self.g, self.inl, self.next, 0);
            sub.map = self.map.clone();
            sub.inlined = self.inlined.clone();
            sub.p.spans = self.p.spans.clone();
            let r = sub.expr(v, sp);
            sub.emit(BOp::Ret { s: r });
            if sub.overflow {
                self.overflow = true;
            }
            self.top = self.top.max(sub.top);
            sub.p.source = v.clone();
            let id = self.base_id + self.subs.len() as u32;
            self.subs.push(sub.p);
            ids.push(id);
        }
        let fallback = self.remap(fallback);
        self.p.trees.push(fallback);
        self.p.lookups.push((ids, (self.p.trees.len() - 1) as u32));
        let at = (self.p.lookups.len() - 1) as u32;
        self.emit(BOp::KeyLookup {
            d,
            key,
            adj,
            n,
            at,
            sp,
        });
    }
}

/// `any`, `all` or `count` of `x.owner == p` over the element `x` (either
/// side of `==`; `is_slot` tells the element's local), where `p` is a local
/// other than the element or a constant: what [`BOp::ZoneOwner`] answers in
/// one step. `p` is read once instead of once per piece, which changes
/// nothing since reading a local or a constant cannot fail.
fn owner_test(
    op: AggOp,
    body: Option<&Expr>,
    is_slot: &dyn Fn(u16) -> bool,
) -> Option<(OwnerTest, Expr)> {
    let test = match op {
        AggOp::Any => OwnerTest::Any,
        AggOp::All => OwnerTest::All,
        AggOp::Count => OwnerTest::Count,
        _ => return None,
    };
    match lead_test(body?, is_slot)? {
        Lead {
            key: Key::Owner,
            who,
            eq: true,
            rest: None,
            ..
        } if !fallible(&who) => Some((test, who)),
        _ => None,
    }
}

/// A leading test (see [`lead_test`]).
#[derive(Clone)]
struct Lead {
    /// What is read of the piece.
    key: Key,
    /// What it is compared with: `p`.
    who: Expr,
    /// Whether the test is `==` (else `!=`).
    eq: bool,
    /// The conjuncts after it, if any.
    rest: Option<Expr>,
    /// Whether the piece's side is written first (`x.f == p`, not
    /// `p == x.f`).
    piece_first: bool,
}

/// Whether reading a leading test's `p` may fail (the field or owner of a
/// piece in a local, which may be `none`), so that it is read only where
/// the scan first read it.
fn fallible(who: &Expr) -> bool {
    matches!(who, Expr::Field(..) | Expr::Owner(_))
}

/// What a loop's step tests of each piece before binding it (see
/// [`lead_test`]).
#[derive(Clone, Copy)]
enum Key {
    /// Its owner (`BOp::IterLead` with key `BOp::OWNER`).
    Owner,
    /// Its field with this id (`BOp::IterLead` with this key).
    Field(u16),
}

impl Key {
    /// The key as `BOp::IterLead`, `LeadSkip` and `LikeTest` name it.
    fn code(self) -> u16 {
        match self {
            Key::Owner => BOp::OWNER,
            Key::Field(f) => f,
        }
    }
}

/// A test whose first conjunct is `x.owner == p`, `x.f == p` or the same
/// with `!=`, of the element `x`, where `p` is a constant, a local other
/// than the element, or the owner or a field of the piece in such a local:
/// what is read of the piece, `p`, whether the test is `==`, and the
/// conjuncts after it (none when the test is that alone). `p` is read once
/// instead of once per piece, which changes nothing: it is the same value
/// each time, reading it counts no step, and one that may fail is read
/// where the scan first read it ([`Comp::who`]); nor does reading a
/// piece's owner or field count a step, so the skipped pieces cost what
/// they cost the scan.
fn lead_test(body: &Expr, is_slot: &dyn Fn(u16) -> bool) -> Option<Lead> {
    match body {
        Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
            let of_slot = |x: &Expr| matches!(x, Expr::Local(s) if is_slot(*s));
            let key = |e: &Expr| match e {
                Expr::Owner(x) if of_slot(x) => Some(Key::Owner),
                Expr::Field(f, x) if of_slot(x) => u16::try_from(*f)
                    .ok()
                    .filter(|&f| f != BOp::OWNER)
                    .map(Key::Field),
                _ => None,
            };
            let other = |x: &Expr| matches!(x, Expr::Local(s) if !is_slot(*s));
            let plain = |e: &Expr| match e {
                Expr::Const(_) => true,
                Expr::Field(_, x) | Expr::Owner(x) => other(x),
                e => other(e),
            };
            let eq = *op == BinOp::Eq;
            let (key, who, piece_first) = match (key(a), key(b)) {
                (Some(k), _) if plain(b) => (k, b, true),
                (_, Some(k)) if plain(a) => (k, a, false),
                _ => return None,
            };
            Some(Lead {
                key,
                who: (**who).clone(),
                eq,
                rest: None,
                piece_first,
            })
        }
        Expr::Bin(BinOp::And, a, b) => {
            let lead = lead_test(a, is_slot)?;
            let rest = match lead.rest {
                None => (**b).clone(),
                Some(r) => Expr::Bin(BinOp::And, Box::new(r), b.clone()),
            };
            Some(Lead {
                rest: Some(rest),
                ..lead
            })
        }
        _ => None,
    }
}

/// How a loop walks a collection in place, when it can.
#[derive(Clone, Copy)]
pub(super) enum Walk {
    /// Where the elements lie (`BOp::IterInit`, `BOp::IterNext`).
    In(Iter),
    /// The numbers of a range (`BOp::RangeInit`, `BOp::RangeNext`).
    Range,
}

/// Over a zone, all nodes, a node's neighbours or a range, a loop reads the
/// elements where they are: the body cannot change them (expressions move
/// nothing), and they are counted against the budget up front, as listing
/// them would.
pub(super) fn walk(coll: &Coll) -> Option<Walk> {
    Some(match coll {
        Coll::Zone(_) => Walk::In(Iter::Zone),
        Coll::Nodes => Walk::In(Iter::Nodes),
        Coll::Successors(_) => Walk::In(Iter::Adj(Adj::Successors)),
        Coll::Predecessors(_) => Walk::In(Iter::Adj(Adj::Predecessors)),
        Coll::Neighbors(_) => Walk::In(Iter::Adj(Adj::Neighbors)),
        Coll::EdgesOf(_) => Walk::In(Iter::Adj(Adj::OutEdges)),
        Coll::Range(..) => Walk::Range,
        _ => return None,
    })
}

/// A filter or a map over a collection read where it lies ([`walk`]).
pub(super) fn walks_kept(c: &Coll) -> bool {
    matches!(c, Coll::Filter(inner, ..) | Coll::Map(inner, ..) if walk(inner).is_some())
}

/// What the elements of `c` are when none of them can be `none`: nodes or
/// edges of the board, listed by it.
fn elements_of(c: &Coll) -> Option<Elems> {
    match c {
        Coll::Nodes
        | Coll::NodesWithAttr(..)
        | Coll::Successors(_)
        | Coll::Predecessors(_)
        | Coll::Neighbors(_)
        | Coll::WhereZones(Elems::Nodes, _)
        | Coll::ZonesOwned {
            on: Elems::Nodes, ..
        } => Some(Elems::Nodes),
        Coll::Edges
        | Coll::EdgesOf(_)
        | Coll::WhereZones(Elems::Edges, _)
        | Coll::ZonesOwned {
            on: Elems::Edges, ..
        } => Some(Elems::Edges),
        Coll::Filter(inner, _, _) => elements_of(inner),
        _ => None,
    }
}

/// Whether `e`, the value of an aggregate over elements of kind `of`, is
/// a constant, the element itself (`is_slot` tells its local) or an
/// attribute of it: a value that cannot fail, counts no step and reads
/// nothing a loop changes but the element.
fn plain_value(e: &Expr, of: Option<Elems>, is_slot: &dyn Fn(u16) -> bool) -> bool {
    let slot = |x: &Expr| matches!(x, Expr::Local(s) if is_slot(*s));
    match e {
        Expr::Const(_) => true,
        Expr::Local(s) => is_slot(*s),
        Expr::NodeAttr(_, x) => of == Some(Elems::Nodes) && slot(x),
        Expr::EdgeAttr(_, x) => of == Some(Elems::Edges) && slot(x),
        _ => false,
    }
}

/// A collection read where it lies ([`walk`]).
pub(super) fn walks(c: &Coll) -> bool {
    walk(c).is_some()
}
