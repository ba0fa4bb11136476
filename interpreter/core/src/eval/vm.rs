//! The statement machine. Execution state is an explicit stack of frames
//! (plain data), so a match can stop at any decision — inside loops, inside
//! procedures, in the middle of another player's action — and be cloned,
//! serialised and resumed without threads or re-running anything.

use super::expr::{Exec, R};
use super::options::too_many_options;
use super::{Budgeted, Pending, PendingKind, RunError, RunErrorKind, Status};
use crate::ast::{AssignOp, MovePos};
use crate::diag::Span;
use crate::ir::*;
use crate::ops;
use rand::Rng;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub enum FrameKind {
    Block,
    /// A `for` loop over `len` items saved at `items` on the item stack.
    Loop {
        slot: u16,
        items: u32,
        idx: u32,
        len: u32,
    },
    /// A `while` loop; its condition is statement `pc` of block `of`.
    While {
        of: u32,
        pc: u32,
    },
    /// A procedure, action or top-level body: locals from `base`; `prev` is the caller's.
    Call {
        base: u32,
        prev: u32,
    },
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Frame {
    pub block: u32,
    pub pc: u32,
    pub kind: FrameKind,
}

impl<'a> Exec<'a> {
    /// Runs until a decision with two or more options, the end of the game,
    /// or an error.
    pub fn run(&mut self) -> R<()> {
        // Two copies of the loop: the one without coverage counters has no
        // trace of them.
        if self.st.coverage.is_some() {
            self.run_loop::<true>()
        } else {
            self.run_loop::<false>()
        }
    }

    fn run_loop<const COVERAGE: bool>(&mut self) -> R<()> {
        let g = self.g;
        loop {
            if self.st.pending.is_some() || self.st.status != Status::Running {
                return Ok(());
            }
            let Some(frame) = self.st.frames.last() else {
                self.st.status = Status::Finished;
                return Ok(());
            };
            let block_id = frame.block;
            let block: &'a [Step] = &g.code[block_id as usize];
            let mut pc = frame.pc as usize;
            // Statements that touch neither the frames nor the pending
            // decision run back to back with the block and `pc` held here;
            // the frame's `pc` is written back before anything else runs.
            loop {
                let Some(stmt) = block.get(pc) else {
                    let f = self.st.frames.last_mut().expect("a frame is running");
                    f.pc = pc as u32;
                    let f = *f;
                    self.end_of_block(f)?;
                    break;
                };
                pc += 1;
                self.st.steps += 1;
                if self.st.steps > self.st.checkpoint {
                    self.checkpoint(Budgeted::Statement, stmt.span)?;
                }
                match &stmt.op {
                    Op::Let(slot, e) => {
                        let v = self.eval(e, stmt.span)?;
                        self.set_local(*slot, v);
                    }
                    Op::Assign(place, op, e) => self.assign(place, *op, e, stmt.span)?,
                    Op::JumpUnless(c, to) => {
                        let held = self.eval(c, stmt.span)? != 0;
                        if COVERAGE {
                            if let Some(cov) = self.st.coverage.as_deref_mut() {
                                cov.step(block_id, pc - 1, held);
                            }
                        }
                        if !held {
                            pc = *to as usize;
                        }
                    }
                    Op::Jump(to) => pc = *to as usize,
                    // A run compiled whole touches neither the frames nor
                    // the pending decision, so the block goes on here; with
                    // coverage counted, `exec_rare` runs it as written.
                    Op::RunCode(_, code, end) if !COVERAGE => {
                        self.run_bytecode(*code, stmt.span)?;
                        pc = *end as usize;
                    }
                    _ => {
                        self.st.frames.last_mut().expect("a frame is running").pc = pc as u32;
                        self.exec(stmt)?;
                        break;
                    }
                }
            }
        }
    }

    fn end_of_block(&mut self, frame: Frame) -> R<()> {
        match frame.kind {
            FrameKind::Block => {
                self.st.frames.pop();
            }
            FrameKind::Loop {
                slot,
                items,
                idx,
                len,
            } => {
                if idx + 1 < len {
                    let v = self.st.items[(items + idx + 1) as usize];
                    self.set_local(slot, v);
                    let f = self.st.frames.last_mut().unwrap();
                    f.kind = FrameKind::Loop {
                        slot,
                        items,
                        idx: idx + 1,
                        len,
                    };
                    f.pc = 0;
                    self.st.steps += 1;
                } else {
                    self.st.items.truncate(items as usize);
                    self.st.frames.pop();
                }
            }
            FrameKind::While { of, pc } => {
                let stmt = &self.g.code[of as usize][pc as usize];
                let Op::While(cond, _) = &stmt.op else {
                    unreachable!("a while frame points at its while")
                };
                self.st.steps += 1;
                if self.st.steps > self.st.checkpoint {
                    self.checkpoint(Budgeted::Loop, stmt.span)?;
                }
                if self.eval(cond, stmt.span)? != 0 {
                    self.st.frames.last_mut().unwrap().pc = 0;
                } else {
                    self.st.frames.pop();
                }
            }
            FrameKind::Call { base, prev } => {
                self.st.locals.truncate(base as usize);
                self.base = prev as usize;
                self.st.frames.pop();
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn assign(&mut self, place: &Place, op: AssignOp, e: &Expr, span: Span) -> R<()> {
        let v = self.eval(e, span)?;
        let idx = match place {
            Place::Local(s) => self.base + *s as usize,
            Place::Var(base, i) => {
                let i = match i {
                    Some(x) => self.eval(x, span)?,
                    None => 0,
                };
                if i < 0 {
                    return Err(RunError::at(RunErrorKind::NoneVariableAssigned, span));
                }
                *base as usize + i as usize
            }
            Place::Watched(..) => unreachable!("an operation of its own: `Op::AssignWatched`"),
        };
        match place {
            Place::Local(_) => {
                let cell = &mut self.st.locals[idx];
                *cell = assigned(op, *cell, v, span)?;
                Ok(())
            }
            _ => self.set_var(idx, op, v, span),
        }
    }

    /// Variable slot `idx` assigned `v` by `op`: its family marked changed
    /// for the values kept between decisions, then the arithmetic. The
    /// executor's assignments and the machine's (`BOp::SetVar`) both come
    /// here.
    #[inline(always)]
    pub(super) fn set_var(&mut self, idx: usize, op: AssignOp, v: Val, span: Span) -> R<()> {
        self.set_var_or(idx, op, v)
            .map_err(|f| RunError::op(f, span))
    }

    /// [`Exec::set_var`] failing with the arithmetic's fault, for a caller
    /// that finds the span only then (`BOp::SetVar`).
    #[inline(always)]
    pub(super) fn set_var_or(
        &mut self,
        idx: usize,
        op: AssignOp,
        v: Val,
    ) -> Result<(), ops::Fault> {
        if let Some(&f) = self.g.kept.var_fam.get(idx) {
            self.st.kept.changed(f);
        }
        let cell = &mut self.st.vars[idx];
        *cell = assigned_or(op, *cell, v)?;
        Ok(())
    }

    /// An assignment to a per-node (per-edge) variable that the
    /// zone-predicate index reads: as a plain variable's (the value, then
    /// the index), and then its element tested again (`zindex::var_set`).
    fn assign_watched(&mut self, place: &Place, op: AssignOp, e: &Expr, span: Span) -> R<()> {
        let Place::Watched(base, i) = place else {
            unreachable!("only a watched variable comes here")
        };
        let v = self.eval(e, span)?;
        let i = self.eval(i, span)?;
        if i < 0 {
            return Err(RunError::at(RunErrorKind::NoneVariableAssigned, span));
        }
        let idx = *base as usize + i as usize;
        self.set_var(idx, op, v, span)?;
        super::zindex::var_set(self.g, self.st, idx);
        Ok(())
    }

    fn push_block(&mut self, block: BlockId) {
        self.st.frames.push(Frame {
            block,
            pc: 0,
            kind: FrameKind::Block,
        });
    }

    /// Enters a body with `nlocals` fresh locals; returns its base.
    pub fn push_call(&mut self, block: BlockId, nlocals: u16) -> usize {
        let base = self.st.locals.len();
        super::grow_zeroed(&mut self.st.locals, nlocals as usize);
        self.st.frames.push(Frame {
            block,
            pc: 0,
            kind: FrameKind::Call {
                base: base as u32,
                prev: self.base as u32,
            },
        });
        self.base = base;
        base
    }

    fn exec(&mut self, stmt: &'a Step) -> R<()> {
        let span = stmt.span;
        match &stmt.op {
            Op::While(c, b) => {
                if self.eval(c, span)? != 0 {
                    let f = self.st.frames.last().unwrap();
                    let (of, pc) = (f.block, f.pc - 1);
                    self.st.frames.push(Frame {
                        block: *b,
                        pc: 0,
                        kind: FrameKind::While { of, pc },
                    });
                }
            }
            // A loop compiled whole runs in the machine; with coverage
            // counted it runs as a plain loop, whose statements the
            // counters see.
            Op::ForCode(_, _, _, code) if self.st.coverage.is_none() => {
                self.run_bytecode(*code, span)?;
            }
            Op::For(slot, c, b) | Op::ForCode(slot, c, b, _) => {
                let items = self.st.items.len();
                let len = if let Coll::Zone(z) = &**c {
                    // A plain zone goes straight to the loop's items: most loops
                    // in rules walk a zone, often of one piece.
                    let id = self.zone_id(z, span)?;
                    let st = &mut *self.st;
                    st.items
                        .extend(st.zones.slice(id).iter().map(|&p| p as Val));
                    st.items.len() - items
                } else {
                    let mark = self.st.scratch.len();
                    self.coll(c, span)?;
                    let st = &mut *self.st;
                    st.items.extend_from_slice(&st.scratch[mark..]);
                    st.scratch.truncate(mark);
                    st.items.len() - items
                };
                if len > 0 {
                    let first = self.st.items[items];
                    self.set_local(*slot, first);
                    self.st.frames.push(Frame {
                        block: *b,
                        pc: 0,
                        kind: FrameKind::Loop {
                            slot: *slot,
                            items: items as u32,
                            idx: 0,
                            len: len as u32,
                        },
                    });
                }
            }
            _ => self.exec_rare(stmt)?,
        }
        Ok(())
    }

    /// The statements that are not in every loop body: kept out of `exec` so
    /// that its frame stays small (its prologue is paid on every statement).
    #[inline(never)]
    fn exec_rare(&mut self, stmt: &'a Step) -> R<()> {
        let span = stmt.span;
        match &stmt.op {
            Op::Break | Op::Continue => loop {
                let f = *self.st.frames.last().unwrap();
                match f.kind {
                    FrameKind::Loop { .. } | FrameKind::While { .. } => {
                        if matches!(stmt.op, Op::Break) {
                            if let FrameKind::Loop { items, .. } = f.kind {
                                self.st.items.truncate(items as usize);
                            }
                            self.st.frames.pop();
                        } else {
                            let len = self.g.code[f.block as usize].len() as u32;
                            self.st.frames.last_mut().unwrap().pc = len;
                        }
                        break;
                    }
                    FrameKind::Block => {
                        self.st.frames.pop();
                    }
                    FrameKind::Call { .. } => unreachable!("the checker keeps break inside loops"),
                }
            },
            Op::Return => loop {
                let f = *self.st.frames.last().unwrap();
                match f.kind {
                    FrameKind::Call { .. } => {
                        self.end_of_block(f)?;
                        break;
                    }
                    FrameKind::Loop { items, .. } => {
                        self.st.items.truncate(items as usize);
                        self.st.frames.pop();
                    }
                    _ => {
                        self.st.frames.pop();
                    }
                }
            },
            Op::Move(what, to, pos) => {
                let z = self.zone_id(to, span)?;
                let top = *pos == MovePos::Top;
                match what {
                    MoveWhat::One(e) => {
                        let p = self.eval(e, span)?;
                        if p < 0 {
                            return Err(RunError::at(RunErrorKind::MoveNone, span));
                        }
                        self.move_piece(p as u32, z, top, span)?;
                    }
                    MoveWhat::All(c) | MoveWhat::N(_, c) => {
                        let limit = match what {
                            MoveWhat::N(n, _) => {
                                let n = self.eval(n, span)?;
                                if n < 0 {
                                    return Err(RunError::at(RunErrorKind::CannotMove { n }, span));
                                }
                                Some(n as usize)
                            }
                            _ => None,
                        };
                        let mark = self.st.scratch.len();
                        self.coll(c, span)?;
                        let len = self.st.scratch.len() - mark;
                        // `N of zone` takes from the top, like drawing from a deck.
                        let take = limit.unwrap_or(len);
                        if take > len {
                            self.st.scratch.truncate(mark);
                            return Err(RunError::at(RunErrorKind::MoveShort { take, len }, span));
                        }
                        let from_zone = matches!(&**c, Coll::Zone(_));
                        for k in 0..take {
                            let i = if from_zone && limit.is_some() {
                                mark + len - 1 - k
                            } else {
                                mark + k
                            };
                            let p = self.st.scratch[i];
                            self.move_piece(p as u32, z, top, span)?;
                        }
                        self.st.scratch.truncate(mark);
                    }
                }
            }
            Op::Shuffle(zr) => {
                let z = self.zone_id(zr, span)?;
                // One draw of the generator per piece.
                self.charge(self.st.zones.len(z) as u64, span)?;
                let st = &mut *self.st;
                let (a, b) = (
                    st.zones.start[z as usize] as usize,
                    st.zones.start[z as usize + 1] as usize,
                );
                for i in (1..b - a).rev() {
                    let j = st.rng.gen_range(0..=i as u32) as usize;
                    st.zones.arena.swap(a + i, a + j);
                }
                if let Some(&f) = self.g.kept.zone_fam.get(z as usize) {
                    st.kept.changed(f);
                }
                if st.seat_logs {
                    super::recall::shuffled(self.g, st, z);
                }
            }
            Op::Choose {
                slot,
                player,
                from,
                label,
                ty,
            } => {
                let p = self.eval(player, span)?;
                if p < 0 || p >= self.st.nplayers as Val {
                    return Err(RunError::at(RunErrorKind::ChooseNone, span));
                }
                self.st.opt_vals.clear();
                self.st.opt_groups.clear();
                let mark = self.st.scratch.len();
                self.coll(from, span)?;
                let n = self.st.scratch.len() - mark;
                if n as u64 > crate::limits::MAX_OPTIONS {
                    self.st.scratch.truncate(mark);
                    return Err(too_many_options(span, "choose"));
                }
                let st = &mut *self.st;
                st.opt_vals.extend_from_slice(&st.scratch[mark..]);
                st.scratch.truncate(mark);
                st.opt_count = n as u32;
                st.opt_groups.push(super::OptGroup {
                    action: super::CHOOSE,
                    first: 0,
                    count: n as u32,
                    dims: Default::default(),
                    tuples: Some((0, 1)),
                });
                let n = if n > 1 && crate::ir::may_twin(&self.g.kind_twins, *ty) {
                    self.merge_choice(p, *slot, *label, *ty, span);
                    self.st.opt_count as usize
                } else {
                    n
                };
                match n {
                    0 => return Err(RunError::at(RunErrorKind::ChooseEmpty, span)),
                    1 => {
                        let v = self.st.opt_vals[0];
                        self.set_local(*slot, v);
                        self.st.forced += 1;
                        if self.st.log_on {
                            // A forced choice is logged too, so a log reads move by move.
                            let who = super::view::Viewer::Seat(p as usize);
                            let text = match label {
                                Some(t) => self
                                    .format_template(*t, Some(who), span)
                                    .unwrap_or_else(|e| format!("<{}>", e.message)),
                                None => self.display(*ty, v, who),
                            };
                            let seat = &self.g.seats[p as usize];
                            self.st.log.push(format!("{seat}: {text} (forced)"));
                            if self.st.seat_logs {
                                let label = *label;
                                let ty = *ty;
                                self.seat_line(true, |cx, who| {
                                    let text = match label {
                                        Some(t) => cx
                                            .format_template(t, Some(who), span)
                                            .unwrap_or_else(|e| format!("<{}>", e.message)),
                                        None => cx.display(ty, v, who),
                                    };
                                    format!("{}: {text} (forced)", cx.g.seats[p as usize])
                                });
                            }
                        }
                    }
                    _ => {
                        if self.st.log_on {
                            self.distinct_choice_labels(p, *slot, *label, *ty, span)?;
                        }
                        let f = self.st.frames.last().unwrap();
                        self.st.pending = Some(Pending {
                            player: p as u8,
                            kind: PendingKind::Choose {
                                slot: (self.base + *slot as usize) as u32,
                                block: f.block,
                                pc: f.pc - 1,
                            },
                        });
                    }
                }
            }
            Op::Act {
                player,
                actions,
                els,
            } => {
                let p = self.eval(player, span)?;
                if p < 0 || p >= self.st.nplayers as Val {
                    return Err(RunError::at(RunErrorKind::ActNone, span));
                }
                let drawn = if self.st.sample {
                    self.draw_or_list(p, actions, span)?
                } else {
                    self.enumerate_actions(p, actions, span)?;
                    None
                };
                // A drawn option is a decision unless every other candidate
                // was rejected: it may be the only legal one.
                let n = match drawn {
                    Some(super::sample::Drawn::Among) => 2,
                    _ => self.st.opt_count as usize,
                };
                match n {
                    0 => {
                        if let Some(b) = els {
                            self.push_block(*b);
                        }
                    }
                    1 => {
                        self.st.forced += 1;
                        self.start_action(p, 0);
                        if self.st.log_on {
                            if let Some(last) = self.st.log.last_mut() {
                                last.push_str(" (forced)");
                            }
                            if self.st.seat_logs {
                                if let Some(l) = self.st.seat_log.last_mut() {
                                    l.text.iter_mut().for_each(|t| t.push_str(" (forced)"));
                                    l.named
                                        .iter_mut()
                                        .flatten()
                                        .for_each(|(_, t)| t.push_str(" (forced)"));
                                }
                            }
                        }
                    }
                    _ => {
                        let f = self.st.frames.last().unwrap();
                        self.st.pending = Some(Pending {
                            player: p as u8,
                            kind: PendingKind::Act {
                                block: f.block,
                                pc: f.pc - 1,
                            },
                        });
                    }
                }
            }
            Op::Call(proc_id, args) => {
                let pd = &self.g.procs[*proc_id as usize];
                // Arguments are evaluated in the caller's frame before the callee's exists.
                let mut vals: smallvec::SmallVec<[Val; 8]> = smallvec::SmallVec::new();
                for a in args {
                    vals.push(self.eval(a, span)?);
                }
                self.push_call(pd.body, pd.nlocals);
                for (i, v) in vals.into_iter().enumerate() {
                    let slot = pd.params[i].0;
                    self.set_local(slot, v);
                }
                if self.st.frames.len() > 500 {
                    return Err(RunError::at(RunErrorKind::ProcedureDepth, span));
                }
                if self.st.log_on && pd.is_phase {
                    // Logged text counts against the budget, byte by byte,
                    // so that a logging loop cannot fill the memory.
                    self.charge(pd.name.len() as u64, span)?;
                    self.st.log.push(format!("-- {}", pd.name));
                    // The seats read the phase's display name; the trace keeps its id.
                    if self.st.seat_logs {
                        let line = format!("-- {}", self.g.proc_shown(*proc_id as usize));
                        self.seat_line(false, |_, _| line.clone());
                    }
                }
            }
            Op::Log(t) => self.log_line(*t, span)?,
            Op::ShowBoard => self.show_board(),
            Op::EndGame => {
                self.st.frames.clear();
                self.st.status = Status::Finished;
            }
            Op::Reveal(e, on) => {
                let p = self.eval(e, span)?;
                self.reveal(p, *on, span)?;
            }
            Op::Require(e) => {
                let held = self.eval(e, span)? != 0;
                if let Some(cov) = self.st.coverage.as_deref_mut() {
                    let f = self.st.frames.last().expect("a frame is running");
                    cov.step(f.block, f.pc as usize - 1, held);
                }
                if !held {
                    return Err(RunError::at(RunErrorKind::RequireFailed, span));
                }
            }
            // `run` answers lets, assignments and jumps; `if` exists only in
            // the structured blocks, never in the code that runs.
            // `run` and `exec` take these before they get here; they are
            // answered all the same, so that no statement has a gap.
            Op::Let(slot, e) => {
                let v = self.eval(e, span)?;
                self.set_local(*slot, v);
            }
            Op::Assign(place, op, e) => self.assign(place, *op, e, span)?,
            Op::AssignWatched(place, op, e) => self.assign_watched(place, *op, e, span)?,
            Op::JumpUnless(c, to) => {
                if self.eval(c, span)? == 0 {
                    self.st.frames.last_mut().expect("a frame is running").pc = *to;
                }
            }
            Op::Jump(to) => self.st.frames.last_mut().expect("a frame is running").pc = *to,
            Op::While(..) | Op::For(..) | Op::ForCode(..) => self.exec(stmt)?,
            // A run compiled whole; with coverage counted, its first
            // statement, and then the others as written.
            Op::RunCode(first, code, end) => {
                if self.st.coverage.is_some() {
                    self.exec(first)?;
                } else {
                    self.run_bytecode(*code, span)?;
                    self.st.frames.last_mut().expect("a frame is running").pc = *end;
                }
            }
        }
        Ok(())
    }

    /// `log` of template `t`: the executor's and the machine's
    /// (`BOp::Log`). Nothing is formatted unless the match keeps its log.
    pub(super) fn log_line(&mut self, t: u32, span: Span) -> R<()> {
        if self.st.log_on {
            let s = self.format_template(t, None, span)?;
            self.charge(s.len() as u64, span)?;
            self.st.log.push(s);
            if self.st.seat_logs {
                // Each reader gets the line as it may read it: a hole
                // naming what it may not see reads `hidden`.
                self.seat_line(false, |cx, who| {
                    cx.format_template(t, Some(who), span)
                        .unwrap_or_else(|e| format!("<{}>", e.message))
                });
            }
        }
        Ok(())
    }

    /// `show board`: the executor's and the machine's (`BOp::ShowBoard`).
    pub(super) fn show_board(&mut self) {
        // Only the seats' course of the game shows it: the trace and the
        // records stay as they were.
        if self.st.seat_logs {
            self.seat_line(false, super::view::board_text);
        }
    }

    /// `reveal p` (`on`) or `hide p`: the executor's and the machine's
    /// (`BOp::Reveal`).
    pub(super) fn reveal(&mut self, p: Val, on: bool, span: Span) -> R<()> {
        if p < 0 {
            return Err(RunError::at(RunErrorKind::RevealNone, span));
        }
        if self.st.seat_logs && !on {
            // Those who see it turned face down know it from now on.
            super::recall::note_seen(self.g, self.st, p as usize);
            super::view::settle_seat_log(self.g, self.st);
        }
        self.st.revealed[p as usize] = on;
        Ok(())
    }

    /// Piece `p` moved to zone `z`: the executor's moves and the machine's
    /// (`BOp::MovePiece`, `BOp::MoveListed`) all come here.
    pub(super) fn move_piece(&mut self, p: u32, z: u32, top: bool, span: Span) -> R<()> {
        let work = self.st.zones.move_work(p, z);
        if work > 0 {
            self.charge(work, span)?;
        }
        self.move_charged(p, z, top);
        Ok(())
    }

    /// [`Exec::move_piece`] without a span, for the machine's moves
    /// (`BOp::MovePiece`, `BOp::MoveListed`): moves `p` and charges its
    /// work when that work ends before the next checkpoint, as nearly every
    /// move's does, and returns `true`; otherwise (or with the per-seat
    /// logs on) moves nothing and returns `false`, and the caller calls
    /// [`Exec::move_piece`] with the span, which meets the checkpoint.
    #[inline(never)]
    pub(super) fn move_within(&mut self, p: u32, z: u32, top: bool) -> bool {
        if self.st.seat_logs {
            return false;
        }
        let left = self.st.checkpoint.saturating_sub(self.st.steps);
        let Some((work, from)) = self.st.zones.move_within(p, z, top, left) else {
            return false;
        };
        self.st.steps += work;
        super::zindex::moved(self.g, self.st, p, from, z);
        self.kept_moved(from, z);
        true
    }

    /// The kept values (`eval/kept.rs`) that read zone `from` or `z` are
    /// out of date.
    #[inline(always)]
    fn kept_moved(&mut self, from: u32, z: u32) {
        let fam = &self.g.kept.zone_fam;
        if let (Some(&a), Some(&b)) = (fam.get(from as usize), fam.get(z as usize)) {
            self.st.kept.moved(a, b);
        }
    }

    /// [`Exec::move_piece`] once its work is charged.
    #[inline]
    fn move_charged(&mut self, p: u32, z: u32, top: bool) {
        let from = self.st.zones.zone_of[p as usize];
        if self.st.seat_logs {
            // What each reader sees go is followed, and what was in sight
            // until now is named in the moves logged before.
            super::recall::tracked_move(self.g, self.st, p, z, top);
        } else {
            self.st.zones.move_piece(p, z, top);
            super::zindex::moved(self.g, self.st, p, from, z);
        }
        self.kept_moved(from, z);
    }
}

/// What an assignment `op` of value `v` leaves in a cell that held `old`.
#[inline(always)]
fn assigned(op: AssignOp, old: Val, v: Val, span: Span) -> R<Val> {
    assigned_or(op, old, v).map_err(|f| RunError::op(f, span))
}

/// [`assigned`], failing with the arithmetic's fault.
#[inline(always)]
fn assigned_or(op: AssignOp, old: Val, v: Val) -> Result<Val, ops::Fault> {
    match op {
        AssignOp::Set => Ok(v),
        AssignOp::Add => ops::add(old, v),
        AssignOp::Sub => ops::sub(old, v),
    }
}
