//! Expression evaluation. Values are `i64`; collections are pushed onto the
//! `scratch` stack and consumed in place, so evaluating allocates nothing once
//! the stack has grown to its working size.

use super::{Budgeted, RunError, RunErrorKind, State};
use crate::ast::BinOp;
use crate::diag::Span;
use crate::ir::Game;
use crate::ir::*;
use crate::ops;

mod builtins;
mod colls;
mod network;
mod sets;
mod subsets;
mod zpred;

pub(crate) use colls::{counted_any, dedupe};
pub(crate) use zpred::{push_where, zone_agg, zpred as zpred_at};

/// Errors are boxed so that a result is two words and comes back in registers:
/// this is the interpreter's hottest return type.
pub(crate) type R<T> = Result<T, Box<RunError>>;

pub(crate) struct Exec<'a> {
    pub g: &'a Game,
    pub st: &'a mut State,
    /// Where the current body's locals start.
    pub base: usize,
}

impl<'a> Exec<'a> {
    #[inline]
    pub fn local(&self, slot: u16) -> Val {
        self.st.locals[self.base + slot as usize]
    }

    #[inline]
    pub fn set_local(&mut self, slot: u16, v: Val) {
        self.st.locals[self.base + slot as usize] = v;
    }

    /// Counts `n` units of work against the step budget. Statements and
    /// loop iterations count in the executor; here every element a
    /// collection yields and every function call counts, so that no single
    /// expression can run (or allocate) without bound. Counting per element
    /// rather than per expression node keeps the cost to one addition per
    /// collection.
    #[inline]
    pub fn charge(&mut self, n: u64, span: Span) -> R<()> {
        self.st.steps += n;
        if self.st.steps > self.st.checkpoint {
            return self.checkpoint(Budgeted::Expression, span);
        }
        Ok(())
    }

    /// Where the step count passed `checkpoint`: the budget is used up, or
    /// the host's interrupt flag is read and the next checkpoint set. Off
    /// the hot path: without a flag the checkpoint is the budget itself.
    #[cold]
    #[inline(never)]
    pub(crate) fn checkpoint(&mut self, at: Budgeted, span: Span) -> R<()> {
        let st = &mut *self.st;
        if st.steps > st.budget {
            return Err(RunError::at(
                RunErrorKind::Budget {
                    budget: st.budget,
                    at,
                },
                span,
            ));
        }
        st.checkpoint = match &st.interrupt {
            Some(flag) => {
                if flag.load(std::sync::atomic::Ordering::Relaxed) {
                    return Err(RunError::at(RunErrorKind::Interrupted, span));
                }
                st.budget
                    .min(st.steps.saturating_add(super::INTERRUPT_EVERY))
            }
            None => st.budget,
        };
        Ok(())
    }

    #[inline]
    pub fn zone_id(&mut self, z: &ZoneRef, span: Span) -> R<u32> {
        // The common case: a zone of the node or seat held in a local.
        if let ZIndex::Node(e) | ZIndex::Player(e) = &z.index {
            if let Expr::Local(s) = **e {
                let i = self.local(s);
                let n = if matches!(z.index, ZIndex::Node(_)) {
                    self.g.board.nodes.len() as Val
                } else {
                    self.st.nplayers as Val
                };
                if i >= 0 && i < n {
                    return Ok(z.base + i as u32);
                }
            }
        }
        self.zone_id_slow(z, span)
    }

    #[inline(never)]
    fn zone_id_slow(&mut self, z: &ZoneRef, span: Span) -> R<u32> {
        let (i, n) = match &z.index {
            ZIndex::Global => return Ok(z.base),
            ZIndex::Value(e) => {
                let v = self.eval(e, span)?;
                if v < 0 || v as u32 >= self.g.nzones {
                    return Err(RunError::at(RunErrorKind::NoneZoneValue, span));
                }
                return Ok(v as u32);
            }
            ZIndex::At(e, n) => (self.eval(e, span)?, *n as Val),
            ZIndex::Player(e) => (self.eval(e, span)?, self.st.nplayers as Val),
            ZIndex::Node(e) => (self.eval(e, span)?, self.g.board.nodes.len() as Val),
            ZIndex::Edge(e) => (self.eval(e, span)?, self.g.board.edges.len() as Val),
        };
        if i < 0 || i >= n {
            return Err(RunError::at(RunErrorKind::NoneZone, span));
        }
        Ok(z.base + i as u32)
    }

    pub fn piece(&self, v: Val, span: Span) -> R<usize> {
        if v < 0 || v as usize >= self.g.piece_kind.len() {
            return Err(RunError::at(RunErrorKind::NoneField, span));
        }
        Ok(v as usize)
    }

    /// Evaluates a value expression. Constants, locals and plain
    /// variables, the commonest leaves, are answered at the call site without
    /// entering a function (whose prologue and epilogue would cost more than
    /// the leaf); a compiled program is run from here too; the rest goes to
    /// [`Exec::eval_inner`].
    #[inline(always)]
    pub fn eval(&mut self, e: &Expr, span: Span) -> R<Val> {
        match e {
            Expr::Const(v) => Ok(*v),
            Expr::Local(s) => Ok(self.local(*s)),
            Expr::Var(base, None) => Ok(self.st.vars[*base as usize]),
            // A compiled expression (a requirement, a statement's value, a
            // domain) goes straight to its program, without the prologue of
            // the tree's large match (measured: Hansa −0.75 %).
            Expr::Code(id) => self.run_bytecode(*id, span),
            _ => self.eval_inner(e, span),
        }
    }

    /// The common operators, answered in one function; rare and bulky cases
    /// go on to [`Exec::eval_node`].
    #[inline(never)]
    fn eval_inner(&mut self, e: &Expr, span: Span) -> R<Val> {
        match e {
            Expr::Const(v) => Ok(*v),
            Expr::Local(s) => Ok(self.local(*s)),
            Expr::Var(base, None) => Ok(self.st.vars[*base as usize]),
            Expr::ZoneEmpty(z) => {
                let id = self.zone_id(z, span)?;
                Ok((self.st.zones.len(id) == 0) as Val)
            }
            Expr::ZoneLen(z) => {
                let id = self.zone_id(z, span)?;
                Ok(self.st.zones.len(id) as Val)
            }
            Expr::Bin(
                op @ (BinOp::And
                | BinOp::Or
                | BinOp::Eq
                | BinOp::Ne
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::Add
                | BinOp::Sub),
                a,
                b,
            ) => self.bin(*op, a, b, span),
            Expr::Not(a) => Ok(ops::not(self.eval(a, span)?)),
            // An attribute of the node held in a local: grid games' commonest read.
            Expr::NodeAttr(i, a) if matches!(**a, Expr::Local(_)) => {
                let Expr::Local(s) = **a else { unreachable!() };
                let n = self.local(s);
                if n < 0 {
                    return Err(RunError::at(RunErrorKind::NoneAttribute, span));
                }
                Ok(self.g.node_attrs[*i as usize].2[n as usize])
            }
            // A field of the piece held in a local: the inner loop of most filters.
            Expr::Field(fid, a) if self.st.guard.is_none() && matches!(**a, Expr::Local(_)) => {
                let Expr::Local(s) = **a else { unreachable!() };
                let p = self.local(s);
                let p = self.piece(p, span)?;
                Ok(self.g.fields[*fid as usize][p])
            }
            Expr::Code(id) => self.run_bytecode(*id, span),
            _ => self.eval_node(e, span),
        }
    }

    /// `a op b`. A connective does not evaluate its right side when the left
    /// decides; every other operator evaluates both sides, left first, and
    /// means what [`ops::binary`] says.
    #[inline(always)]
    fn bin(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) -> R<Val> {
        match op {
            BinOp::And => Ok((self.eval(a, span)? != 0 && self.eval(b, span)? != 0) as Val),
            BinOp::Or => Ok((self.eval(a, span)? != 0 || self.eval(b, span)? != 0) as Val),
            _ => {
                let x = self.eval(a, span)?;
                let y = self.eval(b, span)?;
                ops::binary(op, x, y).map_err(|f| RunError::op(f, span))
            }
        }
    }

    /// The common operators. Rare and bulky cases live in their own
    /// functions so that this one stays small: its prologue is paid on every
    /// node of every expression.
    fn eval_node(&mut self, e: &Expr, span: Span) -> R<Val> {
        Ok(match e {
            Expr::Const(_)
            | Expr::Local(_)
            | Expr::ZoneLen(_)
            | Expr::ZoneEmpty(_)
            | Expr::Not(_)
            | Expr::Code(_) => unreachable!("answered by `eval`"),
            Expr::Var(base, idx) => {
                let i = match idx {
                    None => 0,
                    Some(x) => {
                        let v = self.eval(x, span)?;
                        if v < 0 {
                            return Err(RunError::at(RunErrorKind::NoneVariableRead, span));
                        }
                        v
                    }
                };
                self.st.vars[*base as usize + i as usize]
            }
            Expr::Field(fid, a) => {
                let p = self.eval(a, span)?;
                let p = self.piece(p, span)?;
                if let Some(viewer) = self.st.guard {
                    if !super::view::visible(self.g, self.st, p, viewer) {
                        self.st.peeked = true;
                        if self.st.seat_logs {
                            self.st.hid.push(p as u32);
                        }
                    }
                }
                self.g.fields[*fid as usize][p]
            }
            Expr::Owner(a) => {
                let p = self.eval(a, span)?;
                let p = self.piece(p, span)?;
                self.g.piece_owner[p] as Val
            }
            Expr::NodeAttr(i, a) => {
                let n = self.eval(a, span)?;
                if n < 0 {
                    return Err(RunError::at(RunErrorKind::NoneAttribute, span));
                }
                self.g.node_attrs[*i as usize].2[n as usize]
            }
            Expr::EdgeAttr(i, a) => {
                let n = self.eval(a, span)?;
                if n < 0 {
                    return Err(RunError::at(RunErrorKind::NoneAttribute, span));
                }
                self.g.edge_attrs[*i as usize].2[n as usize]
            }
            Expr::EdgeFrom(a) | Expr::EdgeTo(a) => {
                let n = self.eval(a, span)?;
                if n < 0 {
                    return Err(RunError::at(RunErrorKind::NoneEnd, span));
                }
                let ed = &self.g.board.edges[n as usize];
                (if matches!(e, Expr::EdgeFrom(_)) {
                    ed.from
                } else {
                    ed.to
                }) as Val
            }
            Expr::Zone(z) => self.zone_id(z, span)? as Val,
            Expr::Pos2(a, b, stride) => {
                let (x, y) = (self.eval(a, span)?, self.eval(b, span)?);
                if x < 0 || y < 0 {
                    return Err(RunError::at(RunErrorKind::NoneIndex, span));
                }
                x * *stride as Val + y
            }
            Expr::NodeByKey {
                key,
                vals,
                within,
                fallback,
            } => self.node_by_key(*key, vals, within, fallback, span)?,
            Expr::ZoneAgg(op, on, p) => {
                // A test of every node's (edge's) zones: each one looked at is work.
                self.charge(crate::eval::zindex::elems(self.g, *on) as u64, span)?;
                zone_agg(self.g, self.st, *op, *on, p)
            }
            Expr::Agg {
                op,
                coll,
                slot,
                body,
            } => self.agg(*op, coll, *slot, body.as_deref(), span)?,
            Expr::Neg(a) => ops::neg(self.eval(a, span)?).map_err(|f| RunError::op(f, span))?,
            // `eval` answers the connectives, comparisons, `+` and `-`.
            Expr::Bin(op, a, b) => self.bin(*op, a, b, span)?,
            Expr::In(a, c) => self.contains(a, c, span)?,
            Expr::If(c, a, b) => {
                if self.eval(c, span)? != 0 {
                    self.eval(a, span)?
                } else {
                    self.eval(b, span)?
                }
            }
            Expr::Call { func, args, span } => self.call(*func, args, *span)?,
            Expr::Builtin(b, args, c, span) => self.builtin(*b, args, c.as_deref(), *span)?,
            Expr::IsKind(a, k) => {
                let p = self.eval(a, span)?;
                (p >= 0 && self.g.piece_kind[p as usize] == *k) as Val
            }
        })
    }

    #[inline(never)]
    fn call(&mut self, func: u16, args: &[Expr], span: Span) -> R<Val> {
        let f = &self.g.fns[func as usize];
        let new_base = self.st.locals.len();
        self.st.locals.reserve(f.nlocals as usize);
        // Arguments are evaluated in the caller's frame, then the callee's
        // locals are laid out above it.
        for a in args {
            let v = self.eval(a, span)?;
            self.st.locals.push(v);
        }
        if f.nlocals as usize > args.len() {
            self.st.locals.resize(new_base + f.nlocals as usize, 0);
        }
        self.enter(func, new_base, span)
    }

    /// The rest of a call once its frame is laid out at `new_base`
    /// (arguments, then zeroed locals): one step, the depth check, the body,
    /// and the frame dropped. Shared by the tree's calls and the bytecode's.
    #[inline(always)]
    pub(crate) fn enter(&mut self, func: u16, new_base: usize, span: Span) -> R<Val> {
        self.charge(1, span)?;
        self.depth_up(span)?;
        let old = std::mem::replace(&mut self.base, new_base);
        let r = match self.g.fns[func as usize].body {
            Expr::Code(id) => self.run_bytecode(id, span),
            ref body => self.eval(body, span),
        };
        self.base = old;
        self.st.depth -= 1;
        self.st.locals.truncate(new_base);
        r
    }

    /// Raises the call depth; past the limit the match stops (and the depth
    /// stays raised, which `run_bytecode` relies on when it puts it back).
    pub(crate) fn depth_up(&mut self, span: Span) -> R<()> {
        self.st.depth += 1;
        if self.st.depth > super::MAX_CALL_DEPTH {
            return Err(RunError::at(RunErrorKind::FunctionDepth, span));
        }
        Ok(())
    }

    /// A key lookup (see `opt/board_index.rs`). The collection is listed
    /// first, as the search it replaces would; no values are computed when it
    /// is empty; a value that fails to compute sends the original search.
    #[inline(never)]
    fn node_by_key(
        &mut self,
        key: u16,
        vals: &[Expr],
        within: &Coll,
        fallback: &Expr,
        span: Span,
    ) -> R<Val> {
        // The nodes a key lookup may answer with: all of them, a node's
        // neighbours read straight from the board, or any other collection
        // listed on the scratch stack.
        let mark = self.st.scratch.len();
        let around = match within {
            Coll::Nodes => None,
            Coll::Successors(e) | Coll::Predecessors(e) | Coll::Neighbors(e) => {
                let n = self.eval(e, span)?;
                if n < 0 {
                    return Err(RunError::at(RunErrorKind::NoneNeighbours, span));
                }
                Some((within, n as u32))
            }
            _ => {
                self.coll(within, span)?;
                Some((within, u32::MAX))
            }
        };
        let b = &self.g.board;
        let adjacent = |c: &Coll, n: u32| match c {
            Coll::Successors(_) => b.successors(n),
            Coll::Predecessors(_) => b.predecessors(n),
            _ => b.neighbors(n),
        };
        let empty = match around {
            None => false,
            Some((_, u32::MAX)) => self.st.scratch.len() == mark,
            Some((c, n)) => adjacent(c, n).is_empty(),
        };
        if empty {
            return Ok(NONE);
        }
        let mut v = [0; MAX_KEY_ATTRS];
        for (i, x) in vals.iter().enumerate() {
            match self.eval(x, span) {
                Ok(x) => v[i] = x,
                Err(_) => {
                    self.st.scratch.truncate(mark);
                    return self.eval(fallback, span);
                }
            }
        }
        let r = match self.g.keys[key as usize].find(&v[..vals.len()]) {
            None => NONE,
            Some(found) => {
                let inside = match around {
                    None => true,
                    Some((_, u32::MAX)) => self.st.scratch[mark..].contains(&(found as Val)),
                    Some((c, n)) => adjacent(c, n).contains(&found),
                };
                if inside {
                    found as Val
                } else {
                    NONE
                }
            }
        };
        self.st.scratch.truncate(mark);
        Ok(r)
    }

    /// Evaluates `e` with a player bound to local 0 of a fresh frame (scores,
    /// tiebreaks, teams).
    pub fn with_player(&mut self, e: &Expr, nlocals: u16, p: Val, span: Span) -> R<Val> {
        let new_base = self.st.locals.len();
        self.st
            .locals
            .resize(new_base + (nlocals as usize).max(1), 0);
        self.st.locals[new_base] = p;
        let old = std::mem::replace(&mut self.base, new_base);
        let r = self.eval(e, span);
        self.base = old;
        self.st.locals.truncate(new_base);
        r
    }
}
