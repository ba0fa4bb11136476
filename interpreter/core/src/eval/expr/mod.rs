//! Expression evaluation. Values are `i64`; collections are pushed onto the
//! `scratch` stack and consumed in place, so evaluating allocates nothing once
//! the stack has grown to its working size.

use super::{Budgeted, RunError, RunErrorKind, State};
use crate::ast::BinOp;
use crate::diag::Span;
use crate::ir::Game;
use crate::ir::*;
use crate::ops;
use rand::Rng;

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
        if self.st.steps > self.st.budget {
            return Err(RunError::at(
                RunErrorKind::Budget {
                    budget: self.st.budget,
                    at: Budgeted::Expression,
                },
                span,
            ));
        }
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
    /// the leaf); the rest goes to [`Exec::eval_inner`].
    #[inline(always)]
    pub fn eval(&mut self, e: &Expr, span: Span) -> R<Val> {
        match e {
            Expr::Const(v) => Ok(*v),
            Expr::Local(s) => Ok(self.local(*s)),
            Expr::Var(base, None) => Ok(self.st.vars[*base as usize]),
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
            Expr::NodesZoneAgg(op, p) => nodes_zone_agg(self.g, self.st, *op, p),
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
        if self.st.depth > 200 {
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

    #[inline(never)]
    fn contains(&mut self, a: &Expr, c: &Coll, span: Span) -> R<Val> {
        let x = self.eval(a, span)?;
        let mark = self.st.scratch.len();
        self.coll(c, span)?;
        let found = self.st.scratch[mark..].contains(&x);
        self.st.scratch.truncate(mark);
        Ok(found as Val)
    }

    #[inline(never)]
    fn builtin(&mut self, b: Builtin, args: &[Expr], c: Option<&Coll>, span: Span) -> R<Val> {
        if c.is_none() && args.len() <= 2 {
            // A builtin of values only: its arguments, left to right, then
            // the builtin (shared with the bytecode machine, `eval/bytecode.rs`).
            let x = match args.first() {
                Some(a) => self.eval(a, span)?,
                None => 0,
            };
            let y = match args.get(1) {
                Some(a) => self.eval(a, span)?,
                None => 0,
            };
            return self.builtin_values(b, x, y, span);
        }
        self.builtin_listed(b, args, c, span)
    }

    /// A builtin applied to the values of its (at most two) arguments.
    pub(crate) fn builtin_values(&mut self, b: Builtin, x: Val, y: Val, span: Span) -> R<Val> {
        let n = self.st.nplayers as Val;
        Ok(match b {
            Builtin::NumPlayers => n,
            Builtin::Next | Builtin::Prev => {
                let p = x;
                if p < 0 {
                    return Err(RunError::at(RunErrorKind::NoneSeat, span));
                }
                if b == Builtin::Next {
                    (p + 1) % n
                } else {
                    (p + n - 1) % n
                }
            }
            Builtin::Abs => ops::abs(x).map_err(|f| RunError::op(f, span))?,
            Builtin::Min2 => x.min(y),
            Builtin::Max2 => x.max(y),
            Builtin::Top | Builtin::Bottom => {
                let s = self.st.zones.slice(x as u32);
                let p = if b == Builtin::Top {
                    s.last()
                } else {
                    s.first()
                };
                p.map(|&p| p as Val).unwrap_or(NONE)
            }
            Builtin::ZoneOf => {
                let p = self.piece(x, span)?;
                self.st.zones.zone_of[p] as Val
            }
            Builtin::NodeOf => {
                let p = self.piece(x, span)?;
                let z = self.st.zones.zone_of[p];
                let (d, i) = self.g.zone_decl(z);
                if self.g.zones[d].scope == crate::ast::Scope::Node {
                    i as Val
                } else {
                    NONE
                }
            }
            Builtin::Revealed => {
                let p = self.piece(x, span)?;
                self.st.revealed[p] as Val
            }
            Builtin::EdgeBetween => {
                if x < 0 || y < 0 {
                    NONE
                } else {
                    self.g
                        .board
                        .edge_between(x as u32, y as u32)
                        .map(|e| e as Val)
                        .unwrap_or(NONE)
                }
            }
            Builtin::Sees => {
                let p = x;
                let x = self.piece(y, span)?;
                if p < 0 {
                    return Err(RunError::at(RunErrorKind::NoneSees, span));
                }
                super::view::visible(self.g, self.st, x, super::view::Viewer::Seat(p as usize))
                    as Val
            }
            Builtin::Team => match &self.g.team {
                Some((e, nl)) => self.with_player(e, *nl, x, span)?,
                None => x,
            },
            Builtin::Distance => {
                if x < 0 || y < 0 {
                    return Err(RunError::at(RunErrorKind::NoneDistance, span));
                }
                let n = self.g.board.nodes.len();
                if self.g.dist.is_empty() {
                    self.distance(x as usize, y as usize)
                } else {
                    self.g.dist[x as usize * n + y as usize] as Val
                }
            }
            Builtin::ZoneAt => {
                let s = self.st.zones.slice(x as u32);
                if y >= 1 && y as usize <= s.len() {
                    s[y as usize - 1] as Val
                } else {
                    NONE
                }
            }
            Builtin::Random
            | Builtin::First
            | Builtin::Last
            | Builtin::Empty
            | Builtin::Count
            | Builtin::SumList
            | Builtin::ListAt
            | Builtin::IndexOf => {
                unreachable!("builtins of a collection always carry it")
            }
        })
    }

    /// The builtins of a collection.
    fn builtin_listed(
        &mut self,
        b: Builtin,
        args: &[Expr],
        c: Option<&Coll>,
        span: Span,
    ) -> R<Val> {
        Ok(match b {
            Builtin::Random if matches!(c, Some(Coll::Zone(_))) => {
                // Drawing from a plain zone reads it in place.
                let Some(Coll::Zone(z)) = c else {
                    unreachable!()
                };
                let id = self.zone_id(z, span)?;
                let len = self.st.zones.len(id);
                if len == 0 {
                    return Err(RunError::at(RunErrorKind::EmptyRandom, span));
                }
                let i = if self.st.rolls.is_empty() {
                    self.st.rng.gen_range(0..len as u32) as usize
                } else {
                    let elems: Vec<Val> =
                        self.st.zones.slice(id).iter().map(|&p| p as Val).collect();
                    self.scripted(&elems, false, span)?
                };
                self.st.zones.slice(id)[i] as Val
            }
            Builtin::IndexOf if matches!(c, Some(Coll::Zone(_))) => {
                // In a plain zone: where the piece lies says whether it is there.
                let Some(Coll::Zone(z)) = c else {
                    unreachable!()
                };
                let x = self.eval(&args[0], span)?;
                let id = self.zone_id(z, span)?;
                if x < 0
                    || x as usize >= self.g.piece_kind.len()
                    || self.st.zones.zone_of[x as usize] != id
                {
                    0
                } else {
                    self.st
                        .zones
                        .slice(id)
                        .iter()
                        .position(|&p| p as Val == x)
                        .map(|i| i as Val + 1)
                        .unwrap_or(0)
                }
            }
            Builtin::ListAt | Builtin::IndexOf => {
                let x = self.eval(&args[0], span)?;
                let mark = self.st.scratch.len();
                self.coll(c.expect("collection builtins carry their collection"), span)?;
                let len = (self.st.scratch.len() - mark) as Val;
                let r = if b == Builtin::IndexOf {
                    self.st.scratch[mark..]
                        .iter()
                        .position(|&v| v == x)
                        .map(|i| i as Val + 1)
                        .unwrap_or(0)
                } else if x >= 1 && x <= len {
                    self.st.scratch[mark + x as usize - 1]
                } else {
                    self.st.scratch.truncate(mark);
                    return Err(RunError::at(
                        RunErrorKind::IndexOutside { index: x, len },
                        span,
                    ));
                };
                self.st.scratch.truncate(mark);
                r
            }
            Builtin::Random
            | Builtin::First
            | Builtin::Last
            | Builtin::Empty
            | Builtin::Count
            | Builtin::SumList => {
                let mark = self.st.scratch.len();
                self.coll(c.expect("collection builtins carry their collection"), span)?;
                let len = self.st.scratch.len() - mark;
                let r = match b {
                    Builtin::Count => len as Val,
                    Builtin::Empty => (len == 0) as Val,
                    Builtin::First => {
                        if len == 0 {
                            NONE
                        } else {
                            self.st.scratch[mark]
                        }
                    }
                    Builtin::Last => self.st.scratch[mark..].last().copied().unwrap_or(NONE),
                    Builtin::SumList => match self.st.scratch[mark..]
                        .iter()
                        .try_fold(0i64, |a, &x| ops::add(a, x).ok())
                    {
                        Some(v) => v,
                        None => {
                            self.st.scratch.truncate(mark);
                            return Err(RunError::op(ops::Fault::Overflow, span));
                        }
                    },
                    _ => {
                        if len == 0 {
                            self.st.scratch.truncate(mark);
                            return Err(RunError::at(RunErrorKind::EmptyRandom, span));
                        }
                        let i = if self.st.rolls.is_empty() {
                            self.st.rng.gen_range(0..len as u32) as usize
                        } else {
                            let elems = self.st.scratch[mark..].to_vec();
                            let by_value = matches!(args.first(), Some(Expr::Const(1)));
                            match self.scripted(&elems, by_value, span) {
                                Ok(i) => i,
                                Err(e) => {
                                    self.st.scratch.truncate(mark);
                                    return Err(e);
                                }
                            }
                        };
                        self.st.scratch[mark + i]
                    }
                };
                self.st.scratch.truncate(mark);
                r
            }
            _ => unreachable!("builtins of values are answered by `builtin_values`"),
        })
    }

    /// The fewest edges from `a` to `b` (-1: no path), by a breadth-first
    /// search over the scratch stack: for boards too large for a table.
    #[inline(never)]
    fn distance(&mut self, a: usize, b: usize) -> Val {
        let board = &self.g.board;
        let n = board.nodes.len();
        let s = &mut self.st.scratch;
        let dist = s.len();
        s.resize(dist + n, -1);
        s[dist + a] = 0;
        let queue = s.len();
        s.push(a as Val);
        let mut head = queue;
        let mut r = -1;
        while head < s.len() {
            let u = s[head] as usize;
            head += 1;
            if u == b {
                r = s[dist + u];
                break;
            }
            for &v in board.successors(u as u32) {
                if s[dist + v as usize] < 0 {
                    s[dist + v as usize] = s[dist + u] + 1;
                    s.push(v as Val);
                }
            }
        }
        s.truncate(dist);
        r
    }

    /// The element a scripted roll picks (scenarios' `rolls`): a number
    /// drawn from numbers is the roll itself; from anything else, the roll
    /// is the element's 1-based position.
    #[cold]
    fn scripted(&mut self, elems: &[Val], by_value: bool, span: Span) -> R<usize> {
        let roll = self.st.rolls.remove(0);
        let found = if by_value {
            elems.iter().position(|&v| v == roll)
        } else {
            (roll >= 1 && roll as usize <= elems.len()).then(|| roll as usize - 1)
        };
        found.ok_or_else(|| {
            let what = if by_value {
                format!(
                    "{roll} is not among the values ({})",
                    elems
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                format!("{roll} is not a position in 1..{}", elems.len())
            };
            RunError::at(RunErrorKind::ScriptedRoll(what), span)
        })
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

    #[inline(never)]
    fn agg(
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
                let (x, y) = (self.eval(a, span)?, self.eval(b, span)?);
                // The length is computed without overflow: `-9e18..9e18` is
                // simply too long.
                let len = (y as i128 - x as i128 + 1).max(0);
                if len > crate::limits::MAX_RANGE as i128 {
                    return Err(RunError::at(RunErrorKind::RangeTooLong { len }, span));
                }
                self.charge(len as u64, span)?;
                self.st.scratch.extend(x..=y);
            }
            Coll::List(es) => {
                for e in es {
                    let v = self.eval(e, span)?;
                    self.st.scratch.push(v);
                }
            }
            Coll::NodesWhereZones(p) => push_nodes_where(self.g, self.st, p),
            Coll::Reachable(e, inner) => {
                let n = self.eval(e, span)?;
                let mark = self.st.scratch.len();
                self.coll(inner, span)?;
                reachable(&self.g.board, n, &mut self.st.scratch, mark);
            }
            Coll::NodesWithAttr(i, e) => {
                let v = self.eval(e, span)?;
                let (keys, order) = &self.g.node_attr_index[*i as usize];
                let lo = keys.partition_point(|&k| k < v);
                let hi = keys.partition_point(|&k| k <= v);
                self.st
                    .scratch
                    .extend(order[lo..hi].iter().map(|&n| n as Val));
            }
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
                let end = self.st.scratch.len();
                let mut w = mark;
                // Long lists remember what they have seen in a set (only
                // asked for membership, so its order never shows).
                let mut seen = (matches!(c, Coll::Distinct(..)) && end - mark > 64)
                    .then(std::collections::HashSet::new);
                for i in mark..end {
                    let x = self.st.scratch[i];
                    self.set_local(*slot, x);
                    let v = self.eval(body, span)?;
                    let dup = match seen.as_mut() {
                        Some(set) => !set.insert(v),
                        None => {
                            matches!(c, Coll::Distinct(..)) && self.st.scratch[mark..w].contains(&v)
                        }
                    };
                    if dup {
                        continue;
                    }
                    self.st.scratch[w] = v;
                    w += 1;
                }
                self.st.scratch.truncate(w);
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

/// The zone sizes of every node for the per-node zones at `bases`, one
/// window of `start` per base: `start[b + i + 1] - start[b + i]` is the size
/// of node `i`'s zone. Slicing once lets the compiler drop the bounds checks.
#[inline]
fn windows(start: &[u32], b: u32, n: usize) -> &[u32] {
    &start[b as usize..][..n + 1]
}

/// Pushes the nodes whose zones at `bases` are all empty (a free cell).
/// Branch-free: every node is written and the write position advances only
/// past the free ones.
fn push_all_empty(bases: &[u32], start: &[u32], n: usize, out: &mut Vec<Val>) {
    let mark = out.len();
    out.resize(mark + n, 0);
    let buf = &mut out[mark..];
    let mut w = 0;
    match *bases {
        [a] => {
            let sa = windows(start, a, n);
            for i in 0..n {
                buf[w] = i as Val;
                w += (sa[i] == sa[i + 1]) as usize;
            }
        }
        [a, b] => {
            let (sa, sb) = (windows(start, a, n), windows(start, b, n));
            for i in 0..n {
                buf[w] = i as Val;
                // Both sizes are zero exactly when their bitwise or is.
                w += (((sa[i + 1] - sa[i]) | (sb[i + 1] - sb[i])) == 0) as usize;
            }
        }
        _ => {
            for i in 0..n {
                buf[w] = i as Val;
                w += all_empty_at(bases, start, i) as usize;
            }
        }
    }
    out.truncate(mark + w);
}

/// Whether node `i`'s zones at `bases` are all empty.
#[inline]
fn all_empty_at(bases: &[u32], start: &[u32], i: usize) -> bool {
    bases
        .iter()
        .all(|&b| start[b as usize + i] == start[b as usize + i + 1])
}

/// `any`, `all` or `count` over all nodes of "every zone at `bases` is empty".
fn agg_all_empty(op: AggOp, bases: &[u32], start: &[u32], n: usize) -> Val {
    let free = |i: usize| all_empty_at(bases, start, i);
    match (op, bases) {
        (AggOp::Count, &[a, b]) => {
            let (sa, sb) = (windows(start, a, n), windows(start, b, n));
            (0..n)
                .filter(|&i| ((sa[i + 1] - sa[i]) | (sb[i + 1] - sb[i])) == 0)
                .count() as Val
        }
        (AggOp::Any, &[a, b]) => {
            let (sa, sb) = (windows(start, a, n), windows(start, b, n));
            (0..n).any(|i| ((sa[i + 1] - sa[i]) | (sb[i + 1] - sb[i])) == 0) as Val
        }
        (AggOp::Any, _) => (0..n).any(free) as Val,
        (AggOp::All, _) => (0..n).all(free) as Val,
        _ => (0..n).filter(|&i| free(i)).count() as Val,
    }
}

/// Evaluates a node's zone test (see [`ZPred`]).
fn zpred(p: &ZPred, z: &super::zones::Zones, n: u32) -> bool {
    match p {
        ZPred::AllEmpty(bases) => bases.iter().all(|&b| z.len(b + n) == 0),
        ZPred::Len(base, op, k) => {
            let len = z.len(base + n) as Val;
            match op {
                BinOp::Eq => len == *k,
                BinOp::Ne => len != *k,
                BinOp::Lt => len < *k,
                BinOp::Le => len <= *k,
                BinOp::Gt => len > *k,
                _ => len >= *k,
            }
        }
        ZPred::And(a, b) => zpred(a, z, n) && zpred(b, z, n),
        ZPred::Or(a, b) => zpred(a, z, n) || zpred(b, z, n),
        ZPred::Not(a) => !zpred(a, z, n),
    }
}

/// `any`, `all` or `count` over all nodes of a test of each node's own zones.
pub(super) fn nodes_zone_agg(g: &Game, st: &State, op: AggOp, p: &ZPred) -> Val {
    let z = &st.zones;
    let n = g.board.nodes.len() as u32;
    if let ZPred::AllEmpty(bases) = p {
        return agg_all_empty(op, bases, &z.start, n as usize);
    }
    match op {
        AggOp::Any => (0..n).any(|node| zpred(p, z, node)) as Val,
        AggOp::All => (0..n).all(|node| zpred(p, z, node)) as Val,
        _ => (0..n).filter(|&node| zpred(p, z, node)).count() as Val,
    }
}

/// Pushes the nodes that pass a test of their own zones.
pub(super) fn push_nodes_where(g: &Game, st: &mut State, p: &ZPred) {
    let n = g.board.nodes.len() as u32;
    if let ZPred::AllEmpty(bases) = p {
        // Free cells, the commonest query of all: read the zone starts in
        // place instead of calling `zpred` per node (measured: 14 % of a
        // game's instructions).
        push_all_empty(bases, &st.zones.start, n as usize, &mut st.scratch);
    } else {
        for node in 0..n {
            if zpred(p, &st.zones, node) {
                st.scratch.push(node as Val);
            }
        }
    }
}
