//! Collections and aggregates: listing a collection onto the scratch
//! stack, membership (`in`), the aggregates (`count`, `sum`, `any`, `all`,
//! `min`, `max`, `best`, `first`, `last`) and `reachable`; the searches
//! over an edge collection and `components` live in `network.rs`, sets of
//! nodes or edges in `sets.rs`.

use super::{push_where, Exec, R};
use crate::diag::Span;
use crate::eval::{RunError, RunErrorKind};
use crate::ir::*;
use crate::ops;

impl Exec<'_> {
    #[inline(never)]
    pub(super) fn contains(&mut self, a: &Expr, c: &Coll, span: Span) -> R<Val> {
        let x = self.eval(a, span)?;
        let mark = self.st.scratch.len();
        self.coll(c, span)?;
        let found = self.st.scratch[mark..].contains(&x);
        self.st.scratch.truncate(mark);
        Ok(found as Val)
    }

    #[inline(never)]
    pub(super) fn agg(
        &mut self,
        op: AggOp,
        coll: &Coll,
        slot: u16,
        body: Option<&Expr>,
        span: Span,
    ) -> R<Val> {
        if op == AggOp::Last {
            return self.agg_last(coll, slot, body, span);
        }
        if counted_any(op, coll, body) {
            return self.any_owned(coll, span);
        }
        let mark = self.st.scratch.len();
        self.coll(coll, span)?;
        let end = self.st.scratch.len();
        let mut acc: Val = match op {
            AggOp::Count | AggOp::Sum | AggOp::Any => 0,
            AggOp::All => 1,
            AggOp::Min => Val::MAX,
            AggOp::Max => Val::MIN,
            AggOp::Best | AggOp::Worst | AggOp::First | AggOp::Last => NONE,
        };
        let mut best_key: Option<Val> = None;
        for i in mark..end {
            let x = self.st.scratch[i];
            self.set_local(slot, x);
            let v = match body {
                Some(b) => self.eval(b, span)?,
                None => 1,
            };
            match op {
                AggOp::Count => acc += (v != 0) as Val,
                AggOp::Sum => match ops::add(acc, v) {
                    Ok(a) => acc = a,
                    Err(f) => {
                        self.st.scratch.truncate(mark);
                        return Err(RunError::op(f, span));
                    }
                },
                AggOp::Any => {
                    if v != 0 {
                        acc = 1;
                        break;
                    }
                }
                AggOp::All => {
                    if v == 0 {
                        acc = 0;
                        break;
                    }
                }
                AggOp::First => {
                    if v != 0 {
                        acc = x;
                        break;
                    }
                }
                AggOp::Last => unreachable!("answered by `agg_last`"),
                AggOp::Min => acc = acc.min(v),
                AggOp::Max => acc = acc.max(v),
                AggOp::Best | AggOp::Worst => {
                    let better = match best_key {
                        None => true,
                        Some(k) => (op == AggOp::Best && v > k) || (op == AggOp::Worst && v < k),
                    };
                    if better {
                        best_key = Some(v);
                        acc = x;
                    }
                }
            }
        }
        self.st.scratch.truncate(mark);
        if matches!(op, AggOp::Min | AggOp::Max) && end == mark {
            return Err(RunError::at(
                RunErrorKind::EmptyExtreme {
                    max: op == AggOp::Max,
                },
                span,
            ));
        }
        Ok(acc)
    }

    /// `any(x in C: k)` of the nodes or edges whose zone holds a seat's
    /// piece (`Coll::ZonesOwned`), `k` a constant above 0 ([`counted_any`]):
    /// whether there is one, counted without listing them (from the index
    /// where it keeps that seat's predicate), with the steps and errors of
    /// listing them (the seat computed, every node or edge charged, then
    /// each listed).
    fn any_owned(&mut self, coll: &Coll, span: Span) -> R<Val> {
        let Coll::ZonesOwned {
            on,
            base,
            who,
            first,
        } = coll
        else {
            unreachable!("`agg` asks for the nodes or edges a seat's pieces are in")
        };
        let who = self.eval(who, span)?;
        self.charge(crate::eval::zindex::elems(self.g, *on) as u64, span)?;
        let n = super::zpred::count_owned(self.g, self.st, *on, *base, who, *first);
        self.charge(n, span)?;
        Ok((n > 0) as Val)
    }

    /// The last element whose body holds, searching from the end; `none`
    /// when there is none.
    fn agg_last(&mut self, coll: &Coll, slot: u16, body: Option<&Expr>, span: Span) -> R<Val> {
        let mark = self.st.scratch.len();
        self.coll(coll, span)?;
        let mut found = NONE;
        for i in (mark..self.st.scratch.len()).rev() {
            let x = self.st.scratch[i];
            self.set_local(slot, x);
            let hit = match body {
                Some(b) => self.eval(b, span)? != 0,
                None => true,
            };
            if hit {
                found = x;
                break;
            }
        }
        self.st.scratch.truncate(mark);
        Ok(found)
    }

    /// Pushes the elements of a collection onto `scratch`; every element
    /// counts against the step budget, which also bounds the memory that
    /// nested collections can take.
    pub fn coll(&mut self, c: &Coll, span: Span) -> R<()> {
        let mark = self.st.scratch.len();
        self.coll_elements(c, span)?;
        self.charge((self.st.scratch.len() - mark) as u64, span)
    }

    /// Pushes the options of a parameter's domain with the requirements
    /// folded in (`ActionParam::fast`): its program charges what listing
    /// the domain and testing each requirement charge, and not, as
    /// [`Exec::coll`] would, the count of what it kept, which testing the
    /// requirements one by one does not charge either.
    pub(crate) fn coll_folded(&mut self, c: &Coll, span: Span) -> R<()> {
        self.coll_elements(c, span)
    }

    /// The bounds of `a..b` and its length: both evaluated, the length
    /// checked against the limit and counted against the budget, as listing
    /// the range does before it lists a number.
    #[inline(always)]
    pub(crate) fn range(&mut self, a: &Expr, b: &Expr, span: Span) -> R<(Val, Val, u64)> {
        let (x, y) = (self.eval(a, span)?, self.eval(b, span)?);
        let len = crate::eval::error::range_len(x, y);
        if len > crate::limits::MAX_RANGE as i128 {
            return Err(RunError::at(
                RunErrorKind::RangeTooLong { from: x, to: y },
                span,
            ));
        }
        self.charge(len as u64, span)?;
        Ok((x, y, len as u64))
    }

    fn coll_elements(&mut self, c: &Coll, span: Span) -> R<()> {
        match c {
            Coll::Code(id) => drop(self.run_bytecode(*id, span)?),
            Coll::Zone(z) => {
                let id = self.zone_id(z, span)?;
                let st = &mut *self.st;
                let s = st.zones.slice(id);
                st.scratch.extend(s.iter().map(|&p| p as Val));
            }
            Coll::Players => {
                for p in 0..self.st.nplayers as Val {
                    self.st.scratch.push(p);
                }
            }
            Coll::PlayersFrom(e) | Coll::Opponents(e) => {
                let p = self.eval(e, span)?;
                let n = self.st.nplayers as Val;
                if p < 0 {
                    return Err(RunError::at(RunErrorKind::NonePlayers, span));
                }
                let skip = matches!(c, Coll::Opponents(_)) as Val;
                for k in skip..n {
                    self.st.scratch.push((p + k) % n);
                }
            }
            Coll::Nodes => self.st.scratch.extend(0..self.g.board.nodes.len() as Val),
            Coll::Edges => self.st.scratch.extend(0..self.g.board.edges.len() as Val),
            Coll::Successors(e) | Coll::Predecessors(e) | Coll::Neighbors(e) | Coll::EdgesOf(e) => {
                let n = self.eval(e, span)?;
                if n < 0 {
                    return Err(RunError::at(RunErrorKind::NoneNeighbours, span));
                }
                let b = &self.g.board;
                let s = match c {
                    Coll::Successors(_) => b.successors(n as u32),
                    Coll::Predecessors(_) => b.predecessors(n as u32),
                    Coll::Neighbors(_) => b.neighbors(n as u32),
                    _ => b.out_edges(n as u32),
                };
                self.st.scratch.extend(s.iter().map(|&x| x as Val));
            }
            Coll::Range(a, b) => {
                let (x, y, _) = self.range(a, b, span)?;
                self.st.scratch.extend(x..=y);
            }
            Coll::List(es) => {
                for e in es {
                    let v = self.eval(e, span)?;
                    self.st.scratch.push(v);
                }
            }
            Coll::WhereZones(on, p) => {
                // Every node (edge) is looked at, not only those pushed.
                self.charge(crate::eval::zindex::elems(self.g, *on) as u64, span)?;
                push_where(self.g, self.st, *on, p)
            }
            Coll::Reachable(e, inner) => {
                let n = self.eval(e, span)?;
                let mark = self.st.scratch.len();
                self.coll(inner, span)?;
                // The search marks every node and may follow every arc.
                let b = &self.g.board;
                self.charge((b.nodes.len() + b.edges.len()) as u64, span)?;
                reachable(&self.g.board, n, &mut self.st.scratch, mark);
            }
            Coll::ReachableVia(e, inner) => {
                let n = self.eval(e, span)?;
                let mark = self.st.scratch.len();
                self.coll(inner, span)?;
                self.reachable_via(n, mark, span)?;
            }
            Coll::Components(on, inner) => {
                let mark = self.st.scratch.len();
                self.coll(inner, span)?;
                self.components(*on, mark, span)?;
            }
            Coll::Members(on, e) => self.members(*on, e, span)?,
            Coll::ZonesOwned {
                on,
                base,
                who,
                first,
            } => {
                let who = self.eval(who, span)?;
                // Every node (edge) is looked at, as by `nodes where P`.
                self.charge(crate::eval::zindex::elems(self.g, *on) as u64, span)?;
                super::zpred::push_owned(self.g, self.st, *on, *base, who, *first)
            }
            Coll::NodesWithAttr(i, e) => {
                let v = self.eval(e, span)?;
                let nodes = self.g.node_attr_index[*i as usize].nodes(v);
                self.st.scratch.extend(nodes.iter().map(|&n| n as Val));
            }
            Coll::Subsets {
                of,
                lo,
                hi,
                area,
                pieces,
            } => self.subsets(of, lo, hi.as_ref(), *area, *pieces, span)?,
            Coll::Subset(mask, area) => self.subset(mask, *area, span)?,
            Coll::Filter(inner, slot, cond) => {
                let mark = self.st.scratch.len();
                self.coll(inner, span)?;
                let end = self.st.scratch.len();
                let mut w = mark;
                for i in mark..end {
                    let x = self.st.scratch[i];
                    self.set_local(*slot, x);
                    if self.eval(cond, span)? != 0 {
                        self.st.scratch[w] = x;
                        w += 1;
                    }
                }
                self.st.scratch.truncate(w);
            }
            Coll::Map(inner, slot, body) | Coll::Distinct(inner, slot, body) => {
                let mark = self.st.scratch.len();
                self.coll(inner, span)?;
                for i in mark..self.st.scratch.len() {
                    let x = self.st.scratch[i];
                    self.set_local(*slot, x);
                    let v = self.eval(body, span)?;
                    self.st.scratch[i] = v;
                }
                if matches!(c, Coll::Distinct(..)) {
                    dedupe(&mut self.st.scratch, mark);
                }
            }
            Coll::Sorted(inner, slot, key) => {
                let mark = self.st.scratch.len();
                self.coll(inner, span)?;
                let end = self.st.scratch.len();
                // Keys go above the elements, then a stable insertion sort by key.
                for i in mark..end {
                    let x = self.st.scratch[i];
                    self.set_local(*slot, x);
                    let k = self.eval(key, span)?;
                    self.st.scratch.push(k);
                }
                let n = end - mark;
                if n > 64 {
                    // Long lists: a stable sort by key, same order as below.
                    let mut pairs: Vec<(Val, Val)> = (0..n)
                        .map(|i| (self.st.scratch[end + i], self.st.scratch[mark + i]))
                        .collect();
                    pairs.sort_by_key(|p| p.0);
                    for (i, (_, x)) in pairs.into_iter().enumerate() {
                        self.st.scratch[mark + i] = x;
                    }
                    self.st.scratch.truncate(end);
                    return Ok(());
                }
                for i in 1..n {
                    let mut j = i;
                    while j > 0 && self.st.scratch[end + j - 1] > self.st.scratch[end + j] {
                        self.st.scratch.swap(end + j - 1, end + j);
                        self.st.scratch.swap(mark + j - 1, mark + j);
                        j -= 1;
                    }
                }
                self.st.scratch.truncate(end);
            }
        }
        Ok(())
    }
}

/// Replaces the nodes of a collection, at `scratch[mark..]`, with those
/// joined to `start` by a path whose nodes all lie in the collection (arcs
/// followed from→to; an undirected board has both), in board order. The
/// breadth-first search keeps its marks and queue on the scratch stack
/// above the collection, so a call allocates nothing once the stack has
/// grown.
fn reachable(b: &crate::board::Board, start: Val, scratch: &mut Vec<Val>, mark: usize) {
    const OUT: Val = 0;
    const IN: Val = 1;
    const SEEN: Val = 2;
    let n = b.nodes.len();
    let end = scratch.len();
    // scratch[flags + v]: whether node v is in the collection, and reached.
    let flags = end;
    scratch.resize(end + n, OUT);
    for i in mark..end {
        let v = scratch[i];
        if v >= 0 && (v as usize) < n {
            scratch[flags + v as usize] = IN;
        }
    }
    if start >= 0 && (start as usize) < n && scratch[flags + start as usize] == IN {
        scratch[flags + start as usize] = SEEN;
        let queue = scratch.len();
        scratch.push(start);
        let mut head = queue;
        while head < scratch.len() {
            let u = scratch[head] as u32;
            head += 1;
            for &v in b.successors(u) {
                if scratch[flags + v as usize] == IN {
                    scratch[flags + v as usize] = SEEN;
                    scratch.push(v as Val);
                }
            }
        }
    }
    // The output never overtakes the flags: it has at most one entry per
    // distinct node of the collection, which lies below `flags`.
    let mut w = mark;
    for v in 0..n {
        if scratch[flags + v] == SEEN {
            scratch[w] = v as Val;
            w += 1;
        }
    }
    scratch.truncate(w);
}

/// Keeps each value on `scratch` from `mark` up once, where it first is
/// (`distinct`), and drops the rest: the tree evaluator's and the bytecode
/// machine's (`BOp::Distinct`) one way of doing it. Long lists remember what
/// they have seen in a set, only asked for membership, so its order never
/// shows.
pub(crate) fn dedupe(scratch: &mut Vec<Val>, mark: usize) {
    let end = scratch.len();
    let mut w = mark;
    let mut seen = (end - mark > 64).then(std::collections::HashSet::new);
    for i in mark..end {
        let v = scratch[i];
        let dup = match seen.as_mut() {
            Some(set) => !set.insert(v),
            None => scratch[mark..w].contains(&v),
        };
        if !dup {
            scratch[w] = v;
            w += 1;
        }
    }
    scratch.truncate(w);
}

/// Whether an aggregate is `any(x in C: k)` of the nodes or edges whose
/// zone holds a seat's piece (`Coll::ZonesOwned`), `k` a constant above 0:
/// one [`Exec::any_owned`] answers by counting them, and the bytecode
/// leaves it to the tree evaluator for that (`opt/bytecode/comp.rs`).
pub(crate) fn counted_any(op: AggOp, coll: &Coll, body: Option<&Expr>) -> bool {
    op == AggOp::Any
        && matches!(coll, Coll::ZonesOwned { .. })
        && matches!(body, Some(Expr::Const(1..)))
}
