//! Loops compiled whole: a `for` whose body holds only lets, assignments,
//! `if`s, moves of one piece or of all of a collection, `reveal`s and
//! `hide`s, `log`s, `show board` and other such loops, runs as one program
//! of the machine
//! ([`Op::ForCode`]) instead of statement by statement in the executor;
//! so does a run of two or more such statements (an `if` among them whose
//! branches hold only such statements) that begins with one the executor
//! runs as one operation ([`Op::RunCode`], which carries that first
//! statement). Auf Heller und Pfennig scores each row and column of the
//! market cell by cell this way, Hasp deals and gathers its cards, connect
//! four finds where its disc lands and drops it: thousands of statements a
//! game, each of which cost the executor a dispatch, a frame and a call
//! into the machine for its expression.
//!
//! What a match shows does not change. The program does what the executor
//! does, in the same order: each statement costs one step, checked against
//! the budget at that statement's span as the executor checks it
//! ([`BOp::Stmt`]); an `if` with an `else` costs a step more at the end of
//! its `then` (the executor's jump over the `else`); each element after a
//! loop's first costs a step, unchecked ([`BOp::NextTick`]); the collection
//! is listed and counted as the executor lists it (a zone uncounted, any other
//! collection as the tree evaluator counts it); expressions are compiled as
//! every expression is, and charge what the tree evaluator charges;
//! variables are assigned, pieces moved and shown, lines logged as the
//! executor does it, by the same functions ([`BOp::SetVar`],
//! [`BOp::MovePiece`], [`BOp::MoveListed`], [`BOp::Reveal`], [`BOp::Log`],
//! [`BOp::ShowBoard`]). The elements are listed before the first round, as
//! the executor copies them, so a body that moves them walks the same ones;
//! a zone's pieces that the body cannot move are read where they lie
//! ([`BOp::ZoneSpan`], [`BOp::ZoneNextTick`]), which walks the same pieces
//! without the copy. Nothing in such a body can wait for a decision or
//! end the game. A `for` that assigns a variable an index of the board
//! reads (`Place::Watched`), calls a procedure, waits for a seat, loops
//! with `while`, shuffles or moves `N of` a collection stays with the
//! executor, and such a statement ends a run.
//! The executor has counted the step of a run's first statement (and of a
//! loop compiled whole) before the program starts, at that statement's
//! span, so the program does not count it again. With coverage counted,
//! the executor runs the loop or the run as written (`eval/vm.rs`), so
//! that its counters see every statement.

use super::comp::Comp;
use super::Inlinable;
use crate::ast::AssignOp;
use crate::ir::*;

/// Whether every statement of block `b`, and of the blocks nested in it,
/// is one a compiled program can run.
pub(super) fn compilable(g: &Game, b: BlockId) -> bool {
    g.blocks[b as usize].iter().all(|st| compilable_stmt(g, st))
}

/// Whether a compiled program can run statement `st`, and what it nests.
pub(super) fn compilable_stmt(g: &Game, st: &Stmt) -> bool {
    match &st.s {
        Instr::If(_, t, e) => compilable(g, *t) && e.is_none_or(|e| compilable(g, e)),
        _ => first_of_run(g, st),
    }
}

/// Whether `st` can begin a run compiled whole: a statement the executor
/// runs as one operation (an `if` it lays out as jumps), which then carries
/// the run (`Op::RunCode`) and runs alone while coverage is counted.
pub(super) fn first_of_run(g: &Game, st: &Stmt) -> bool {
    match &st.s {
        Instr::Let(..)
        | Instr::Assign(Place::Local(_) | Place::Var(..), _, _)
        | Instr::Move(MoveWhat::One(_) | MoveWhat::All(_), _, _)
        | Instr::Reveal(..)
        | Instr::Log(_)
        | Instr::ShowBoard => true,
        Instr::For(_, _, body) => compilable(g, *body),
        _ => false,
    }
}

/// Whether no statement of block `b`, or of the blocks nested in it,
/// moves a piece: then a loop over a zone in `b`'s loop can read the
/// zone's pieces where they lie (expressions move nothing; of what a
/// compiled program runs, only `move` does).
fn moves_nothing(g: &Game, b: BlockId) -> bool {
    g.blocks[b as usize].iter().all(|st| match &st.s {
        Instr::Move(..) => false,
        Instr::If(_, t, e) => moves_nothing(g, *t) && e.is_none_or(|e| moves_nothing(g, e)),
        Instr::For(_, _, body) => moves_nothing(g, *body),
        _ => true,
    })
}

/// Whether a run of `stmts` is worth its program: what the executor
/// spends on them beyond what the machine spends, roughly in calls into
/// the machine, is at least [`MIN_RUN_WEIGHT`]. A let or an assignment of
/// a constant, a local or a plain variable costs the executor no call, and
/// as little as the machine's step and store: a run of only those, entered
/// through a program, cost Hansa 0.4 % more (measured).
pub(super) fn worth_a_run(stmts: &[Stmt]) -> bool {
    let plain = |e: &Expr| matches!(e, Expr::Const(_) | Expr::Local(_) | Expr::Var(_, None));
    let weight: u32 = stmts
        .iter()
        .map(|st| match &st.s {
            Instr::Let(_, e) | Instr::Assign(Place::Local(_) | Place::Var(_, None), _, e)
                if plain(e) =>
            {
                0
            }
            Instr::For(..) | Instr::If(..) => MIN_RUN_WEIGHT,
            _ => 1,
        })
        .sum();
    weight >= MIN_RUN_WEIGHT
}

/// See [`worth_a_run`].
const MIN_RUN_WEIGHT: u32 = 2;

/// Compiles `stmts` (each [`compilable_stmt`]), of which the executor has
/// counted the first's step, into a program; its id, or `None` where it
/// does not compile (the statements stay with the executor). A single
/// `for` is a loop compiled whole ([`Op::ForCode`]), more a run
/// ([`Op::RunCode`]).
pub(super) fn compile_run(
    g: &Game,
    inl: &Inlinable,
    stmts: &[Stmt],
    temps: u32,
    base_id: u32,
    out: &mut Vec<Program>,
) -> Option<u32> {
    let mut comp = Comp::new(g, inl, temps, base_id);
    for (k, st) in stmts.iter().enumerate() {
        comp.stmt(st, k > 0);
    }
    let r = comp.temp();
    comp.emit(BOp::Const { d: r, v: 0 });
    comp.emit(BOp::Ret { s: r });
    comp.finish(Expr::Const(0), out)
}

impl Comp<'_> {
    /// A loop over `c` at span `sp`: the elements listed above a mark, then
    /// the body once for each, each round after the first closed by one
    /// [`BOp::NextTick`] (the executor's next element and its step). Over a
    /// zone whose pieces the body cannot move ([`moves_nothing`]), the
    /// pieces are read where they lie ([`BOp::ZoneSpan`],
    /// [`BOp::ZoneNextTick`]): the same pieces in the same order as a copy
    /// would give, with nothing copied.
    fn walk(&mut self, slot: u16, c: &Coll, body: BlockId, sp: u16) {
        if let Coll::Zone(z) = c {
            if moves_nothing(self.g, body) {
                let t = self.temp();
                self.zone(z, t, sp);
                let (i, end) = (self.temp(), self.temp());
                self.emit(BOp::ZoneSpan { z: t, i, end });
                let slot = self.loc(slot);
                let first = BOp::IterNext {
                    what: Iter::Zone,
                    src: t,
                    i,
                    end,
                    slot,
                    exit: 0,
                };
                self.rounds(first, body, |to| BOp::ZoneNextTick { i, end, slot, to });
                return;
            }
        }
        let m = self.temp();
        self.emit(BOp::Mark { d: m });
        if matches!(c, Coll::Zone(_)) {
            // The executor copies a zone's pieces without counting them.
            self.elements(c, m, sp);
        } else {
            self.coll(c, m, sp);
        }
        let end = self.temp();
        self.emit(BOp::Mark { d: end });
        let i = self.temp();
        self.emit(BOp::Mov { d: i, s: m });
        let slot = self.loc(slot);
        let first = BOp::Next {
            i,
            end,
            slot,
            exit: 0,
        };
        self.rounds(first, body, |to| BOp::NextTick { i, end, slot, to });
        self.emit(BOp::Truncate { m });
    }

    /// The body once for each element: `first` binds the first element or
    /// leaves the loop, `close(top)` binds each next one and jumps back to
    /// `top`, the body's start.
    fn rounds(&mut self, first: BOp, body: BlockId, close: impl FnOnce(u32) -> BOp) {
        let first = self.emit(first);
        let top = self.here();
        self.block(body);
        self.emit(close(top));
        self.patch(first);
    }

    /// The statements of block `b` (see [`compilable`]), each after its step.
    fn block(&mut self, b: BlockId) {
        for st in &self.g.blocks[b as usize] {
            self.stmt(st, true);
        }
    }

    /// Statement `st`, after its step unless the executor counted it.
    fn stmt(&mut self, st: &Stmt, counted: bool) {
        let sp = self.span(st.span);
        if counted {
            self.emit(BOp::Stmt { sp });
        }
        let keep = self.next;
        match &st.s {
            Instr::Let(l, e) => {
                // Computed aside first: a value written into the local
                // as it is computed could read its own half-made self.
                let v = self.expr(e, sp);
                let d = self.loc(*l);
                self.emit(BOp::Mov { d, s: v });
            }
            Instr::Assign(Place::Local(l), op, e) => {
                let v = self.expr(e, sp);
                let d = self.loc(*l);
                self.emit(match op {
                    AssignOp::Set => BOp::Mov { d, s: v },
                    AssignOp::Add => BOp::Add { d, a: d, b: v, sp },
                    AssignOp::Sub => BOp::Sub { d, a: d, b: v, sp },
                });
            }
            Instr::Assign(Place::Var(base, i), op, e) => {
                // The value first, then the index, as the executor.
                let s = self.expr(e, sp);
                let i = i.as_ref().map(|i| self.expr(i, sp));
                self.emit(BOp::SetVar {
                    base: *base,
                    i,
                    s,
                    op: *op,
                    sp,
                });
            }
            Instr::If(c, t, e) => {
                let skip = self.branch(c, false, sp);
                self.next = keep;
                self.block(*t);
                match e {
                    None => skip.into_iter().for_each(|j| self.patch(j)),
                    Some(e) => {
                        // The executor's jump over the `else` is a
                        // statement of its own, at the `if`'s span.
                        self.emit(BOp::Stmt { sp });
                        let over = self.emit(BOp::Jump { to: 0 });
                        skip.into_iter().for_each(|j| self.patch(j));
                        self.block(*e);
                        self.patch(over);
                    }
                }
            }
            Instr::For(slot, c, body) => {
                self.walk(*slot, c, *body, sp);
            }
            // The zone first, then what moves, as the executor.
            Instr::Move(what, to, pos) => {
                let z = self.temp();
                self.zone(to, z, sp);
                let top = *pos == crate::ast::MovePos::Top;
                match what {
                    MoveWhat::One(e) => {
                        let p = self.expr(e, sp);
                        self.emit(BOp::MovePiece { p, z, top, sp });
                    }
                    MoveWhat::All(c) => {
                        let m = self.temp();
                        self.emit(BOp::Mark { d: m });
                        self.coll(c, m, sp);
                        self.emit(BOp::MoveListed { m, z, top, sp });
                    }
                    MoveWhat::N(..) => unreachable!("`compilable` refuses `move N of`"),
                }
            }
            Instr::Log(t) => drop(self.emit(BOp::Log { t: *t, sp })),
            Instr::ShowBoard => drop(self.emit(BOp::ShowBoard)),
            Instr::Reveal(e, on) => {
                let p = self.expr(e, sp);
                self.emit(BOp::Reveal { p, on: *on, sp });
            }
            _ => unreachable!("only what `compilable` accepts is compiled"),
        }
        self.next = keep;
    }
}
