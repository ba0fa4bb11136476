//! The bytecode machine: runs a [`Program`] (`ir/bytecode.rs`) in the
//! current frame. One loop dispatches one operation per step, with no call
//! per expression node; registers are slots of the frame, so a local is read
//! where it lives and a temporary is written once and read once.
//!
//! Every operation does exactly what the tree evaluator (`eval/expr/`)
//! does for the node it came from, in the same order: the same values, the
//! same errors with the same spans, the same steps counted against the
//! budget. What an operation computes and how it fails is `crate::ops`;
//! its errors are `RunErrorKind`s, as the tree's are. The `bytecode` pass
//! can be switched off, and `tests/passes.rs` plays every ruleset both ways.
//!
//! This is the one module of the engine allowed `unsafe` (the crate root
//! denies it elsewhere): registers and operations are read without bounds
//! checks, under the two invariants written at the top of `run_program`.

use super::expr::{Exec, R};
use super::{RunError, RunErrorKind};
use crate::diag::Span;
use crate::ir::*;
use crate::ops;
impl<'a> Exec<'a> {
    /// A field read while a view is being rendered: a piece the viewer may
    /// not see marks the answer as a peek (as the tree evaluator does).
    #[cold]
    fn peek(&mut self, x: usize, viewer: super::view::Viewer) {
        if !super::view::visible(self.g, self.st, x, viewer) {
            self.st.peeked = true;
            if self.st.seat_logs {
                self.st.hid.push(x as u32);
            }
        }
    }

    /// Runs program `id`; `span` is where its errors point unless an
    /// operation carries its own.
    ///
    /// Calls compiled in place raise the call depth and lower it as they
    /// end; an error leaves them early, so the depth is put back as the
    /// tree evaluator's calls put it back while the error passes through
    /// them: to what it was, or one more after the depth limit itself (a
    /// call that fails its depth check does not lower it).
    pub(crate) fn run_bytecode(&mut self, id: u32, span: Span) -> R<Val> {
        let depth = self.st.depth;
        let r = self.run_program(id, span);
        if let Err(e) = &r {
            if self.st.depth != depth {
                self.st.depth = depth + (e.kind == RunErrorKind::FunctionDepth) as u32;
            }
        }
        r
    }

    /// Whether a function table's entry (value `v`, `n` steps) answers the
    /// call here exactly as the call would (see `opt/fn_tables.rs`): it is
    /// not a miss, the caller is shallow enough for the call to succeed,
    /// and its steps end before the next checkpoint, so the call would have
    /// met no budget or interrupt check.
    #[inline(always)]
    fn tab_answers(&self, v: Val, n: u32) -> bool {
        v != FnTable::MISS
            && self.st.depth <= super::MAX_CALL_DEPTH - FnTable::DEPTH
            && self.st.steps + n as u64 <= self.st.checkpoint
    }

    fn run_program(&mut self, id: u32, span: Span) -> R<Val> {
        let g = self.g;
        let p = &g.programs[id as usize];
        let ops = p.ops();
        macro_rules! at {
            ($sp:expr) => {
                if $sp == CALLER_SPAN {
                    span
                } else {
                    p.spans()[$sp as usize]
                }
            };
        }
        // The two invariants the `unsafe` reads below rely on. A `Program`
        // is made only by `Program::seal` and its fields are private, so
        // both hold for every program safe code can hand this machine.
        //
        // 1. Registers lie within the frame. Every register the program
        //    names is below `p.nregs()` (`Program::seal` computes it from
        //    the operations and the call-argument runs); the assert below
        //    checks once that the frame from `self.base` has that many
        //    slots. The frame never shrinks while the program runs (callees
        //    truncate only their own frames, above it), and `fp` is taken
        //    again after every operation that can grow `locals` and so move
        //    it (`refresh!`).
        // 2. Jumps lie within the program. `Program::seal` refuses a
        //    program whose jump targets are not below its length or whose
        //    last operation is not one that never goes on to the next
        //    (`Ret`, `Jump`, or a pair fused from one), so `pc` always points
        //    at an operation: it starts at the first, steps to the next
        //    only from one that is not the last, and jumps (`goto!`) only
        //    to a target below the length.
        assert!(
            self.base + p.nregs() as usize <= self.st.locals.len(),
            "a program's registers lie in its frame"
        );
        let mut fp: *mut Val = self.st.locals[self.base..].as_mut_ptr();
        // Safety of `r!` and `w!`: invariant 1 above.
        macro_rules! r {
            ($x:expr) => {
                unsafe { *fp.add($x as usize) }
            };
        }
        macro_rules! w {
            ($x:expr, $v:expr) => {{
                let v = $v;
                unsafe { *fp.add($x as usize) = v }
            }};
        }
        // As `Exec::charge`, with the span looked up only when the budget
        // runs out or a checkpoint is due: most steps never need it.
        macro_rules! charge {
            ($n:expr, $sp:expr) => {{
                self.st.steps += $n;
                if self.st.steps > self.st.checkpoint {
                    self.checkpoint(super::Budgeted::Expression, at!($sp))?;
                }
            }};
        }
        // A zone's index checked, with the span added only to an error: a
        // `map_err` closure built the span's parts on the stack before
        // every call, failing or not (measured: 5 stores an operation).
        macro_rules! zone_or_err {
            ($base:expr, $i:expr, $dim:expr, $n:expr, $sp:expr) => {
                match self.zone_at($base, $i, $dim, $n) {
                    Ok(z) => z,
                    Err(k) => return Err(RunError::at(k, at!($sp))),
                }
            };
        }
        // `BOp::ZoneOwner`'s answer for zone `$z` and the seat in register
        // `$who`, into `$d`: the pieces are charged as the loop it
        // replaces charges them, before its first test.
        macro_rules! owners {
            ($z:expr, $who:expr, $test:expr, $d:expr, $sp:expr) => {{
                let pieces = self.st.zones.slice($z);
                let len = pieces.len();
                let who = r!($who);
                let n = pieces
                    .iter()
                    .filter(|&&x| g.piece_owner[x as usize] as Val == who)
                    .count();
                charge!(len as u64, $sp);
                let v = match $test {
                    OwnerTest::Any => (n > 0) as Val,
                    OwnerTest::All => (n == len) as Val,
                    OwnerTest::Count => n as Val,
                };
                w!($d, v)
            }};
        }
        // A call compiled in place starts, as `Exec::charge` and
        // `Exec::depth_up` (`BOp::CallEnter`).
        macro_rules! enter {
            ($sp:expr) => {{
                charge!(1, $sp);
                self.st.depth += 1;
                if self.st.depth > super::MAX_CALL_DEPTH {
                    return Err(RunError::at(RunErrorKind::FunctionDepth, at!($sp)));
                }
            }};
        }
        // A leaf call compiled in place (`BOp::CallLeaf`): its step, and
        // the depth checked as `enter!` checks it, but not raised.
        macro_rules! leaf {
            ($sp:expr) => {{
                charge!(1, $sp);
                if self.st.depth >= super::MAX_CALL_DEPTH {
                    self.st.depth += 1;
                    return Err(RunError::at(RunErrorKind::FunctionDepth, at!($sp)));
                }
            }};
        }
        // `BOp::JumpZoneLen`: zone `base + i`'s size (or whether it is
        // empty) into `d`, and the jump when it is (`when`) or is not zero.
        macro_rules! zone_len_jump {
            ($d:expr, $base:expr, $i:expr, $dim:expr, $empty:expr, $when:expr, $to:expr, $sp:expr) => {{
                let z = zone_or_err!($base as u32, r!($i), $dim, 0, $sp);
                let len = self.st.zones.len(z) as Val;
                let v = if $empty { (len == 0) as Val } else { len };
                w!($d, v);
                if (v != 0) == $when {
                    goto!($to)
                }
            }};
        }
        // `Exec::move_piece`, with the span looked up only when the
        // move's work reaches a checkpoint (`Exec::move_within`).
        macro_rules! move_piece {
            ($x:expr, $z:expr, $top:expr, $sp:expr) => {{
                if !self.move_within($x, $z, $top) {
                    self.move_piece($x, $z, $top, at!($sp))?;
                }
            }};
        }
        macro_rules! refresh {
            () => {
                fp = self.st.locals[self.base..].as_mut_ptr()
            };
        }
        // The next operation, as a pointer rather than an index: stepping
        // on is then one addition, where an index costs a shift and an
        // addition more at every operation (measured: 8 instructions of
        // dispatch an operation became 6).
        let start: *const BOp = ops.as_ptr();
        let mut pc = start;
        // Safety of `goto!`: invariant 2 above, `$to` is below the length.
        macro_rules! goto {
            ($to:expr) => {
                pc = unsafe { start.add($to as usize) }
            };
        }
        // The step of a walk: unless `i == end`, local `slot` = the element
        // at `k` (what `$x` makes of position `k`), `i += 1`.
        macro_rules! step {
            ($i:expr, $end:expr, $slot:expr, $exit:expr, |$k:ident| $x:expr) => {{
                let $k = r!($i);
                if $k == r!($end) {
                    goto!($exit);
                } else {
                    w!($slot, $x);
                    w!($i, $k + 1);
                }
            }};
        }
        loop {
            // Safety: invariant 2 above (`Program::seal`): `pc` points at
            // an operation of `ops`, and the one after it exists unless it
            // is the last, which ends the program or jumps.
            debug_assert!((pc as usize - start as usize) / std::mem::size_of::<BOp>() < ops.len());
            let op = unsafe { &*pc };
            pc = unsafe { pc.add(1) };
            match *op {
                BOp::Const { d, v } => w!(d, v),
                BOp::Mov { d, s } => {
                    let v = r!(s);
                    w!(d, v)
                }
                BOp::Var { d, at } => {
                    let v = self.st.vars[at as usize];
                    w!(d, v)
                }
                BOp::VarAt { d, base, i, sp } => {
                    let i = r!(i);
                    if i < 0 {
                        return Err(RunError::at(RunErrorKind::NoneVariableRead, at!(sp)));
                    }
                    let v = self.st.vars[base as usize + i as usize];
                    w!(d, v)
                }
                BOp::Field { d, fid, p: r, sp } => {
                    // As `Exec::piece` checks it, with the span found only
                    // on the error's path.
                    let x = r!(r);
                    if x < 0 || x as usize >= g.piece_kind.len() {
                        return Err(RunError::at(RunErrorKind::NoneField, at!(sp)));
                    }
                    let x = x as usize;
                    if let Some(viewer) = self.st.guard {
                        self.peek(x, viewer);
                    }
                    w!(d, g.fields[fid as usize][x])
                }
                BOp::Owner { d, p: r, sp } => {
                    let x = r!(r);
                    if x < 0 || x as usize >= g.piece_kind.len() {
                        return Err(RunError::at(RunErrorKind::NoneField, at!(sp)));
                    }
                    let x = x as usize;
                    w!(d, g.piece_owner[x] as Val)
                }
                BOp::NodeAttr { d, attr, n, sp } => {
                    let n = r!(n);
                    if n < 0 {
                        return Err(RunError::at(RunErrorKind::NoneAttribute, at!(sp)));
                    }
                    w!(d, g.node_attrs[attr as usize].2[n as usize])
                }
                BOp::EdgeAttr { d, attr, e, sp } => {
                    let e = r!(e);
                    if e < 0 {
                        return Err(RunError::at(RunErrorKind::NoneAttribute, at!(sp)));
                    }
                    w!(d, g.edge_attrs[attr as usize].2[e as usize])
                }
                BOp::EdgeEnd { d, e, to, sp } => {
                    let e = r!(e);
                    if e < 0 {
                        return Err(RunError::at(RunErrorKind::NoneEnd, at!(sp)));
                    }
                    let ed = &g.board.edges[e as usize];
                    w!(d, (if to { ed.to } else { ed.from }) as Val)
                }
                BOp::IsKind { d, p: r, kind } => {
                    let x = r!(r);
                    w!(d, (x >= 0 && g.piece_kind[x as usize] == kind) as Val)
                }
                BOp::Pos2 {
                    d,
                    a,
                    b,
                    stride,
                    sp,
                } => {
                    let (x, y) = (r!(a), r!(b));
                    if x < 0 || y < 0 {
                        return Err(RunError::at(RunErrorKind::NoneIndex, at!(sp)));
                    }
                    w!(d, x * stride as Val + y)
                }
                BOp::Zone {
                    d,
                    base,
                    i,
                    dim,
                    n,
                    sp,
                } => {
                    let z = zone_or_err!(base, r!(i), dim, n, sp);
                    w!(d, z as Val)
                }
                BOp::ZoneLen { d, z } => {
                    let z = r!(z);
                    w!(d, self.st.zones.len(z as u32) as Val)
                }
                BOp::ZoneOwner {
                    d,
                    z,
                    p: who,
                    test,
                    sp,
                } => {
                    owners!(r!(z) as u32, who, test, d, sp)
                }
                BOp::ZoneOwnerOf {
                    d,
                    base,
                    i,
                    dim,
                    p: who,
                    test,
                    sp,
                } => {
                    let z = zone_or_err!(base, r!(i), dim, 0, sp);
                    owners!(z, who, test, d, sp)
                }
                BOp::ZoneEmpty { d, z } => {
                    let z = r!(z);
                    w!(d, (self.st.zones.len(z as u32) == 0) as Val)
                }
                BOp::ZoneLenOf {
                    d,
                    base,
                    i,
                    dim,
                    empty,
                    sp,
                } => {
                    let z = zone_or_err!(base, r!(i), dim, 0, sp);
                    let len = self.st.zones.len(z) as Val;
                    w!(d, if empty { (len == 0) as Val } else { len })
                }
                BOp::Neg { d, a, sp } => {
                    let v = ops::neg(r!(a)).map_err(|f| RunError::op(f, at!(sp)))?;
                    w!(d, v)
                }
                BOp::Not { d, a } => {
                    let v = ops::not(r!(a));
                    w!(d, v)
                }
                BOp::Truth { d, a } => {
                    let v = ops::truth(r!(a));
                    w!(d, v)
                }
                BOp::Add { d, a, b, sp } => {
                    let v = ops::add(r!(a), r!(b)).map_err(|f| RunError::op(f, at!(sp)))?;
                    w!(d, v)
                }
                BOp::Sub { d, a, b, sp } => {
                    let v = ops::sub(r!(a), r!(b)).map_err(|f| RunError::op(f, at!(sp)))?;
                    w!(d, v)
                }
                BOp::Mul { d, a, b, sp } => {
                    let v = ops::mul(r!(a), r!(b)).map_err(|f| RunError::op(f, at!(sp)))?;
                    w!(d, v)
                }
                BOp::Div { d, a, b, sp } => {
                    let v = ops::div(r!(a), r!(b)).map_err(|f| RunError::op(f, at!(sp)))?;
                    w!(d, v)
                }
                BOp::Rem { d, a, b, sp } => {
                    let v = ops::rem(r!(a), r!(b)).map_err(|f| RunError::op(f, at!(sp)))?;
                    w!(d, v)
                }
                BOp::AddK { d, a, k, sp } => {
                    let v = ops::add(r!(a), k).map_err(|f| RunError::op(f, at!(sp)))?;
                    w!(d, v)
                }
                BOp::Eq { d, a, b } => {
                    let v = ops::eq(r!(a), r!(b));
                    w!(d, v)
                }
                BOp::Ne { d, a, b } => {
                    let v = ops::ne(r!(a), r!(b));
                    w!(d, v)
                }
                BOp::Lt { d, a, b } => {
                    let v = ops::lt(r!(a), r!(b));
                    w!(d, v)
                }
                BOp::Le { d, a, b } => {
                    let v = ops::le(r!(a), r!(b));
                    w!(d, v)
                }
                BOp::EqK { d, a, k } => {
                    let v = ops::eq(r!(a), k);
                    w!(d, v)
                }
                BOp::NeK { d, a, k } => {
                    let v = ops::ne(r!(a), k);
                    w!(d, v)
                }
                BOp::LtK { d, a, k } => {
                    let v = ops::lt(r!(a), k);
                    w!(d, v)
                }
                BOp::GtK { d, a, k } => {
                    let v = ops::gt(r!(a), k);
                    w!(d, v)
                }
                BOp::Jump { to } => goto!(to),
                BOp::JumpIf { c, to } => {
                    if r!(c) != 0 {
                        goto!(to)
                    }
                }
                BOp::JumpEqK { a, k, to } => {
                    if r!(a) == k {
                        goto!(to)
                    }
                }
                BOp::JumpNeK { a, k, to } => {
                    if r!(a) != k {
                        goto!(to)
                    }
                }
                BOp::JumpLtK { a, k, to } => {
                    if r!(a) < k {
                        goto!(to)
                    }
                }
                BOp::JumpGtK { a, k, to } => {
                    if r!(a) > k {
                        goto!(to)
                    }
                }
                BOp::JumpEq { a, b, to } => {
                    if r!(a) == r!(b) {
                        goto!(to)
                    }
                }
                BOp::JumpNe { a, b, to } => {
                    if r!(a) != r!(b) {
                        goto!(to)
                    }
                }
                BOp::JumpLt { a, b, to } => {
                    if r!(a) < r!(b) {
                        goto!(to)
                    }
                }
                BOp::JumpLe { a, b, to } => {
                    if r!(a) <= r!(b) {
                        goto!(to)
                    }
                }
                BOp::JumpUnless { c, to } => {
                    if r!(c) == 0 {
                        goto!(to)
                    }
                }
                // A loop's statements compiled whole (`opt/bytecode/stmts.rs`):
                // what the executor does for each, in the same order.
                BOp::Stmt { sp } => {
                    self.st.steps += 1;
                    if self.st.steps > self.st.checkpoint {
                        self.checkpoint(super::Budgeted::Statement, at!(sp))?;
                    }
                }
                BOp::StmtRevealRun {
                    sp,
                    i,
                    end,
                    slot,
                    on,
                } => {
                    // The statement's step for the piece in `slot`, and a
                    // step of the loop and a statement's for each left:
                    // the last statement's check is the latest one.
                    let (k, e) = (r!(i) as usize, r!(end) as usize);
                    let steps = 1 + 2 * e.saturating_sub(k) as u64;
                    let x = r!(slot);
                    // A card turned down with the per-seat logs on is
                    // noted by `Exec::reveal`, one at a time.
                    if self.st.steps + steps <= self.st.checkpoint
                        && (on || !self.st.seat_logs)
                        && x >= 0
                    {
                        let st = &mut *self.st;
                        st.revealed[x as usize] = on;
                        for &p in &st.zones.arena[k..e] {
                            st.revealed[p as usize] = on;
                        }
                        st.steps += steps;
                        if e > k {
                            w!(slot, st.zones.arena[e - 1] as Val);
                            w!(i, e as Val);
                        }
                        // Past the `Reveal` and the loop's step: the
                        // operation after the loop, which `Draft::tidy`
                        // made sure exists (invariant 2 holds).
                        pc = unsafe { pc.add(2) };
                    } else {
                        // `BOp::Stmt`'s step, written out again: a macro
                        // shared by both arms cost Hasp 0.2 % (measured).
                        self.st.steps += 1;
                        if self.st.steps > self.st.checkpoint {
                            self.checkpoint(super::Budgeted::Statement, at!(sp))?;
                        }
                    }
                }
                BOp::SetVar { base, i, s, op, sp } => {
                    let v = r!(s);
                    let idx = match i {
                        Some(i) => {
                            let i = r!(i);
                            if i < 0 {
                                return Err(RunError::at(
                                    RunErrorKind::NoneVariableAssigned,
                                    at!(sp),
                                ));
                            }
                            base as usize + i as usize
                        }
                        None => base as usize,
                    };
                    if let Err(f) = self.set_var_or(idx, op, v) {
                        return Err(RunError::op(f, at!(sp)));
                    }
                }
                BOp::MovePiece { p: x, z, top, sp } => {
                    let x = r!(x);
                    if x < 0 {
                        return Err(RunError::at(RunErrorKind::MoveNone, at!(sp)));
                    }
                    let (x, z) = (x as u32, r!(z) as u32);
                    move_piece!(x, z, top, sp);
                    refresh!();
                }
                BOp::MoveListed { m, z, top, sp } => {
                    let (m, z) = (r!(m) as usize, r!(z) as u32);
                    let end = self.st.scratch.len();
                    for k in m..end {
                        let x = self.st.scratch[k];
                        move_piece!(x as u32, z, top, sp);
                    }
                    self.st.scratch.truncate(m);
                    refresh!();
                }
                BOp::Log { t, sp } => {
                    self.log_line(t, at!(sp))?;
                    refresh!();
                }
                BOp::ShowBoard => self.show_board(),
                BOp::Reveal { p: x, on, sp } => {
                    let x = r!(x);
                    if x < 0 || (self.st.seat_logs && !on) {
                        self.reveal(x, on, at!(sp))?;
                        refresh!();
                    } else {
                        self.st.revealed[x as usize] = on;
                    }
                }
                // The fused reads and jumps (`Draft::fuse`): each arm is its
                // read's arm above, then the jump's.
                BOp::JumpVarAtEqK {
                    d,
                    base,
                    i,
                    k,
                    to,
                    sp,
                } => {
                    let i = r!(i);
                    if i < 0 {
                        return Err(RunError::at(RunErrorKind::NoneVariableRead, at!(sp)));
                    }
                    let v = self.st.vars[base as usize + i as usize];
                    w!(d, v);
                    if v == k as Val {
                        goto!(to)
                    }
                }
                BOp::JumpAttr {
                    d,
                    attr,
                    n,
                    b,
                    ne,
                    to,
                    sp,
                } => {
                    let n = r!(n);
                    if n < 0 {
                        return Err(RunError::at(RunErrorKind::NoneAttribute, at!(sp)));
                    }
                    let v = g.node_attrs[attr as usize].2[n as usize];
                    w!(d, v);
                    if (v != r!(b)) == ne {
                        goto!(to)
                    }
                }
                BOp::JumpZoneLen {
                    d,
                    base,
                    i,
                    dim,
                    empty,
                    when,
                    to,
                    sp,
                } => zone_len_jump!(d, base, i, dim, empty, when, to, sp),
                BOp::LeafJumpZoneLen {
                    d,
                    base,
                    i,
                    dim,
                    empty,
                    when,
                    to,
                    sp,
                } => {
                    leaf!(sp);
                    zone_len_jump!(d, base, i, dim, empty, when, to, sp)
                }
                // The other fused pairs (`Draft::fuse`): the first
                // operation's arm, then the second's.
                BOp::ConstJump { d, v, to } => {
                    w!(d, v as Val);
                    goto!(to)
                }
                BOp::PushJump { s, to } => {
                    let v = r!(s);
                    self.st.scratch.push(v);
                    goto!(to)
                }
                BOp::EmitJump { d, args, n, to } => {
                    let regs = &p.regs()[args as usize..][..n as usize];
                    self.emit_tuple(regs);
                    let c = r!(d) + 1;
                    w!(d, c);
                    goto!(to)
                }
                BOp::OwnerJump { d, p: r, sp, to } => {
                    let x = r!(r);
                    if x < 0 || x as usize >= g.piece_kind.len() {
                        return Err(RunError::at(RunErrorKind::NoneField, at!(sp)));
                    }
                    w!(d, g.piece_owner[x as usize] as Val);
                    goto!(to)
                }
                BOp::SumAccJump { d, v, m, sp, to } => {
                    match ops::add(r!(d), r!(v)) {
                        Ok(s) => w!(d, s),
                        Err(f) => {
                            let m = r!(m) as usize;
                            self.st.scratch.truncate(m);
                            return Err(RunError::op(f, at!(sp)));
                        }
                    }
                    goto!(to)
                }
                BOp::AccJump { d, v, max, to } => {
                    let (a, b) = (r!(d), r!(v));
                    w!(d, if max { a.max(b) } else { a.min(b) });
                    goto!(to)
                }
                BOp::LeaveAddK { d, a, k, sp } => {
                    self.st.depth -= 1;
                    let v = ops::add(r!(a), k as Val).map_err(|f| RunError::op(f, at!(sp)))?;
                    w!(d, v)
                }
                BOp::LeaveAdd { d, a, b, sp } => {
                    self.st.depth -= 1;
                    let v = ops::add(r!(a), r!(b)).map_err(|f| RunError::op(f, at!(sp)))?;
                    w!(d, v)
                }
                BOp::KeyPairK { d, key, c, k, b } => {
                    w!(c, k as Val);
                    w!(d, g.keys[key as usize].find_pair(k as Val, r!(b)))
                }
                BOp::EnterJumpEqK { a, k, to, sp } => {
                    enter!(sp);
                    if r!(a) == k as Val {
                        goto!(to)
                    }
                }
                BOp::JumpEqKLeaf { a, k, to, sp } => {
                    if r!(a) == k as Val {
                        goto!(to)
                    } else {
                        leaf!(sp)
                    }
                }
                BOp::LeafZoneOwnerOf {
                    d,
                    base,
                    i,
                    dim,
                    p: who,
                    test,
                    sp,
                } => {
                    leaf!(sp);
                    let z = zone_or_err!(base, r!(i), dim, 0, sp);
                    owners!(z, who, test, d, sp)
                }
                BOp::Call {
                    d,
                    func,
                    args,
                    n,
                    sp,
                } => {
                    let v =
                        self.call_regs(func, &p.regs()[args as usize..][..n as usize], at!(sp))?;
                    refresh!();
                    w!(d, v)
                }
                // `tab_answers` makes sure that the entry's steps end
                // before the next checkpoint, so they are charged without
                // the test `charge!` makes. A table of one parameter holds
                // one entry per value of it (`sizes[1]` is 1), so its index
                // is tested once.
                BOp::Tab1 { d, t, a, to } => {
                    let tab = &g.fn_tables[t as usize];
                    if let Some(&(v, n)) = tab.entries.get(r!(a) as u64 as usize) {
                        if self.tab_answers(v, n) {
                            self.st.steps += n as u64;
                            w!(d, v);
                            goto!(to);
                        }
                    }
                }
                BOp::Tab2 { d, t, a, b, to } => {
                    let tab = &g.fn_tables[t as usize];
                    let (x, y) = (r!(a) as u64, r!(b) as u64);
                    if x < tab.sizes[0] as u64 && y < tab.sizes[1] as u64 {
                        let (v, n) = tab.entries[(x * tab.sizes[1] as u64 + y) as usize];
                        if self.tab_answers(v, n) {
                            self.st.steps += n as u64;
                            w!(d, v);
                            goto!(to);
                        }
                    }
                }
                BOp::CallEnter { sp } => enter!(sp),
                BOp::CallLeave => self.st.depth -= 1,
                BOp::CallLeaf { sp } => leaf!(sp),
                BOp::Builtin { d, b, x, y, sp } => {
                    let (x, y) = (r!(x), r!(y));
                    let n = self.st.nplayers as Val;
                    // The builtins that neither fail nor look far answered
                    // here, the span looked up only by those that can fail
                    // (`Exec::builtin_values` answers the same for the tree;
                    // computing the span before every call cost Hasp 1 %).
                    // Hansa Teutonica's distances between routes are read
                    // from their table without a call.
                    let v = match b {
                        Builtin::Min2 => x.min(y),
                        Builtin::Max2 => x.max(y),
                        Builtin::NumPlayers => n,
                        Builtin::Next if x >= 0 => (x + 1) % n,
                        Builtin::Prev if x >= 0 => (x + n - 1) % n,
                        Builtin::Top => {
                            let s = self.st.zones.slice(x as u32);
                            s.last().map_or(NONE, |&p| p as Val)
                        }
                        Builtin::Bottom => {
                            let s = self.st.zones.slice(x as u32);
                            s.first().map_or(NONE, |&p| p as Val)
                        }
                        Builtin::Distance if x >= 0 && y >= 0 => {
                            match g.table_distance(x as usize, y as usize) {
                                Some(v) => v,
                                None => {
                                    let v = self.values_rest(b, x, y, at!(sp))?;
                                    refresh!();
                                    v
                                }
                            }
                        }
                        _ => {
                            let v = self.values_rest(b, x, y, at!(sp))?;
                            refresh!();
                            v
                        }
                    };
                    w!(d, v)
                }
                BOp::ZoneAgg { d, op: agg, pred } => {
                    // As the tree evaluator: each node (edge) looked at is work.
                    let (on, zp) = &p.preds()[pred as usize];
                    self.charge(super::zindex::elems(g, *on) as u64, span)?;
                    let v = super::expr::zone_agg(g, self.st, agg, *on, zp);
                    w!(d, v)
                }
                BOp::KeyLookup {
                    d,
                    key,
                    adj,
                    n,
                    at: l,
                    sp,
                } => {
                    let (subs, fallback) = &p.lookups()[l as usize];
                    let v = self.key_lookup(p, key, adj, r!(n), subs, *fallback, at!(sp))?;
                    refresh!();
                    w!(d, v)
                }
                BOp::KeyRegs {
                    d,
                    key,
                    adj,
                    n,
                    args,
                    len,
                    sp,
                } => {
                    // Among all nodes no span is looked up. Making
                    // `key_around` take its span lazily instead gave the
                    // same instructions but laid the machine's loop out
                    // worse (reversi 12 % slower, measured).
                    let around = match adj {
                        None => None,
                        Some(_) => self.key_around(adj, r!(n), at!(sp))?,
                    };
                    let mut v = [0; MAX_KEY_ATTRS];
                    for (x, &r) in v.iter_mut().zip(&p.regs()[args as usize..][..len as usize]) {
                        *x = r!(r);
                    }
                    w!(d, key_found(g, key, around, &v[..len as usize]))
                }
                BOp::KeyPair { d, key, a, b } => {
                    w!(d, g.keys[key as usize].find_pair(r!(a), r!(b)))
                }
                BOp::Tree { d, e, sp } => {
                    let v = self.eval(&p.trees()[e as usize], at!(sp))?;
                    refresh!();
                    w!(d, v)
                }
                BOp::Mark { d } => {
                    let v = self.st.scratch.len() as Val;
                    w!(d, v)
                }
                BOp::Charge { m, sp } => {
                    let n = self.st.scratch.len() - r!(m) as usize;
                    charge!(n as u64, sp);
                }
                BOp::PushZone { z } => {
                    let z = r!(z) as u32;
                    let st = &mut *self.st;
                    st.scratch
                        .extend(st.zones.slice(z).iter().map(|&p| p as Val));
                }
                BOp::PushPlayers => {
                    let n = self.st.nplayers as Val;
                    self.st.scratch.extend(0..n);
                }
                BOp::PushPlayersFrom { p: r, skip, sp } => {
                    let x = r!(r);
                    if x < 0 {
                        return Err(RunError::at(RunErrorKind::NonePlayers, at!(sp)));
                    }
                    let n = self.st.nplayers as Val;
                    for k in skip as Val..n {
                        self.st.scratch.push((x + k) % n);
                    }
                }
                BOp::PushNodes => self.st.scratch.extend(0..g.board.nodes.len() as Val),
                BOp::PushEdges => self.st.scratch.extend(0..g.board.edges.len() as Val),
                BOp::PushAdj { n, adj, sp } => {
                    let n = r!(n);
                    if n < 0 {
                        return Err(RunError::at(RunErrorKind::NoneNeighbours, at!(sp)));
                    }
                    let s = adjacent(&g.board, adj, n as u32);
                    self.st.scratch.extend(s.iter().map(|&x| x as Val));
                }
                BOp::PushRange { a, b, sp } => {
                    let (x, y) = (r!(a), r!(b));
                    let len = super::error::range_len(x, y);
                    if len > crate::limits::MAX_RANGE as i128 {
                        return Err(RunError::at(
                            RunErrorKind::RangeTooLong { from: x, to: y },
                            at!(sp),
                        ));
                    }
                    charge!(len as u64, sp);
                    self.st.scratch.extend(x..=y);
                }
                BOp::Push { s } => {
                    let v = r!(s);
                    self.st.scratch.push(v)
                }
                BOp::PushZPred { pred, sp } => {
                    let (on, zp) = &p.preds()[pred as usize];
                    self.charge(super::zindex::elems(g, *on) as u64, at!(sp))?;
                    super::expr::push_where(g, self.st, *on, zp)
                }
                BOp::PushAttr { attr, v } => {
                    let v = r!(v);
                    let nodes = g.node_attr_index[attr as usize].nodes(v);
                    self.st.scratch.extend(nodes.iter().map(|&n| n as Val));
                }
                BOp::PushTree { c, sp } => {
                    self.coll(&p.colls()[c as usize], at!(sp))?;
                    refresh!();
                }
                BOp::Next { i, end, slot, exit } => {
                    step!(i, end, slot, exit, |k| self.st.scratch[k as usize])
                }
                BOp::NextTick { i, end, slot, to } => {
                    let k = r!(i);
                    if k != r!(end) {
                        w!(slot, self.st.scratch[k as usize]);
                        w!(i, k + 1);
                        self.st.steps += 1;
                        goto!(to);
                    }
                }
                BOp::ZoneNextTick { i, end, slot, to } => {
                    let k = r!(i);
                    if k != r!(end) {
                        w!(slot, self.st.zones.arena[k as usize] as Val);
                        w!(i, k + 1);
                        self.st.steps += 1;
                        goto!(to);
                    }
                }
                BOp::ZoneIter {
                    d,
                    base,
                    i,
                    dim,
                    it,
                    end,
                    sp,
                } => {
                    // `Zone`, then `IterInit` over it (`n` is unused: not
                    // a slot of a declaration).
                    let z = zone_or_err!(base, r!(i), dim, 0, sp);
                    w!(d, z as Val);
                    let st = &self.st.zones.start;
                    let (start, stop) = (st[z as usize] as usize, st[z as usize + 1] as usize);
                    charge!((stop - start) as u64, sp);
                    w!(it, start as Val);
                    w!(end, stop as Val)
                }
                BOp::ZoneSpan { z, i, end } => {
                    let z = r!(z) as usize;
                    let st = &self.st.zones.start;
                    let (a, b) = (st[z] as Val, st[z + 1] as Val);
                    w!(i, a);
                    w!(end, b)
                }
                BOp::IterInit {
                    what,
                    src,
                    i,
                    end,
                    sp,
                } => {
                    // `i` and `end` are positions in the array the elements
                    // lie in (the zones' arena, the board's packed lists),
                    // so that each step reads one element and no more.
                    let (start, stop) = match what {
                        Iter::Zone => {
                            let z = r!(src) as usize;
                            let st = &self.st.zones.start;
                            (st[z] as usize, st[z + 1] as usize)
                        }
                        Iter::Nodes => (0, g.board.nodes.len()),
                        Iter::Adj(a) => {
                            let n = r!(src);
                            if n < 0 {
                                return Err(RunError::at(RunErrorKind::NoneNeighbours, at!(sp)));
                            }
                            let which = match a {
                                Adj::Successors => 0,
                                Adj::Predecessors => 1,
                                Adj::Neighbors => 2,
                                Adj::OutEdges => 3,
                            };
                            g.board.adj_span(which, n as u32)
                        }
                    };
                    charge!((stop - start) as u64, sp);
                    w!(i, start as Val);
                    w!(end, stop as Val)
                }
                BOp::RangeInit { src, i, end, sp } => {
                    // As `BOp::PushRange` and the `Charge` after it: the
                    // length checked, then counted twice.
                    let (x, y) = (r!(src), r!(end));
                    let len = super::error::range_len(x, y);
                    if len > crate::limits::MAX_RANGE as i128 {
                        let kind = RunErrorKind::RangeTooLong { from: x, to: y };
                        return Err(RunError::at(kind, at!(sp)));
                    }
                    charge!(len as u64, sp);
                    charge!(len as u64, sp);
                    w!(i, 0);
                    w!(end, len as Val)
                }
                // A range's step is an operation of its own: a fourth kind
                // of walk inside `IterNext` made the compiler lay out the
                // whole machine worse (Hansa Teutonica +4 % instructions).
                BOp::RangeNext {
                    src,
                    i,
                    end,
                    slot,
                    exit,
                } => step!(i, end, slot, exit, |k| r!(src) + k),
                BOp::IterNext {
                    what,
                    src: _,
                    i,
                    end,
                    slot,
                    exit,
                } => step!(i, end, slot, exit, |k| match what {
                    Iter::Zone => self.st.zones.arena[k as usize] as Val,
                    Iter::Nodes => k,
                    Iter::Adj(_) => g.board.adj[k as usize] as Val,
                }),
                BOp::IterLead {
                    i,
                    end,
                    slot,
                    who,
                    key,
                    eq,
                    exit,
                } => {
                    let (mut k, stop, who) = (r!(i) as usize, r!(end) as usize, r!(who));
                    loop {
                        if k == stop {
                            goto!(exit);
                            break;
                        }
                        let x = self.st.zones.arena[k] as usize;
                        k += 1;
                        if key != BOp::OWNER {
                            if let Some(viewer) = self.st.guard {
                                self.peek(x, viewer);
                            }
                        }
                        if (lead_value(g, key, x) == who) == eq {
                            w!(slot, x as Val);
                            w!(i, k as Val);
                            break;
                        }
                    }
                }
                BOp::FirstAlike {
                    d,
                    i,
                    end,
                    y,
                    like,
                    sp,
                } => {
                    let (k, stop) = (r!(i) as usize, r!(end) as usize);
                    let x = if k == stop {
                        NONE
                    } else {
                        let y = r!(y);
                        if y < 0 || y as usize >= g.piece_kind.len() {
                            return Err(RunError::at(RunErrorKind::NoneField, at!(sp)));
                        }
                        let tests = &p.likes()[like as usize];
                        if self.st.guard.is_some() {
                            self.first_alike_guarded(tests, k, stop, y as usize)
                        } else {
                            first_alike(g, &self.st.zones.arena[k..stop], y as usize, tests)
                        }
                    };
                    w!(d, x)
                }
                BOp::NextLead {
                    i,
                    end,
                    slot,
                    who,
                    skip,
                    exit,
                } => {
                    let s = p.skips()[skip as usize];
                    let (k, stop) = (r!(i) as usize, r!(end) as usize);
                    let (k, x, found) = self.next_lead(&s, k, stop, r!(who), at!(s.sp))?;
                    if k > r!(i) as usize {
                        w!(slot, x);
                    }
                    w!(i, k as Val);
                    if !found {
                        goto!(exit);
                    }
                }
                BOp::NextRev { i, m, slot, exit } => {
                    let k = r!(i);
                    if k == r!(m) {
                        goto!(exit);
                    } else {
                        let x = self.st.scratch[k as usize - 1];
                        w!(slot, x);
                        w!(i, k - 1);
                    }
                }
                BOp::Put { w, s } => {
                    let k = r!(w);
                    let v = r!(s);
                    self.st.scratch[k as usize] = v;
                    w!(w, k + 1);
                }
                BOp::Truncate { m } => {
                    let m = r!(m) as usize;
                    self.st.scratch.truncate(m)
                }
                BOp::Distinct { m } => super::expr::dedupe(&mut self.st.scratch, r!(m) as usize),
                BOp::CountIf { d, v } => {
                    let c = r!(d) + ops::truth(r!(v));
                    w!(d, c)
                }
                BOp::SumAcc { d, v, m, sp } => match ops::add(r!(d), r!(v)) {
                    Ok(s) => w!(d, s),
                    Err(f) => {
                        let m = r!(m) as usize;
                        self.st.scratch.truncate(m);
                        return Err(RunError::op(f, at!(sp)));
                    }
                },
                BOp::MinAcc { d, v } => {
                    let x = r!(d).min(r!(v));
                    w!(d, x)
                }
                BOp::MaxAcc { d, v } => {
                    let x = r!(d).max(r!(v));
                    w!(d, x)
                }
                BOp::BestAcc {
                    d,
                    key,
                    has,
                    x,
                    v,
                    worst,
                } => {
                    let v = r!(v);
                    let better = r!(has) == 0 || (!worst && v > r!(key)) || (worst && v < r!(key));
                    if better {
                        w!(has, 1);
                        w!(key, v);
                        let x = r!(x);
                        w!(d, x);
                    }
                }
                BOp::ErrEmpty { m, e, max, sp } => {
                    if r!(m) == r!(e) {
                        return Err(RunError::at(RunErrorKind::EmptyExtreme { max }, at!(sp)));
                    }
                }
                BOp::Contains { d, x, m } => {
                    let (x, m) = (r!(x), r!(m) as usize);
                    let found = self.st.scratch[m..].contains(&x);
                    self.st.scratch.truncate(m);
                    w!(d, found as Val)
                }
                BOp::ListAt { d, x, m, sp } => {
                    let (x, m) = (r!(x), r!(m) as usize);
                    let len = (self.st.scratch.len() - m) as Val;
                    if x < 1 || x > len {
                        self.st.scratch.truncate(m);
                        let kind = RunErrorKind::IndexOutside { index: x, len };
                        return Err(RunError::at(kind, at!(sp)));
                    }
                    let v = self.st.scratch[m + x as usize - 1];
                    self.st.scratch.truncate(m);
                    w!(d, v)
                }
                BOp::InPlayers { d, x, sp } => {
                    let n = self.st.nplayers as Val;
                    charge!(n as u64, sp);
                    let x = r!(x);
                    w!(d, (0 <= x && x < n) as Val)
                }
                BOp::ConstAt { d, x, at, n, sp } => {
                    charge!(n as u64, sp);
                    let x = r!(x);
                    if x < 1 || x > n as Val {
                        let kind = RunErrorKind::IndexOutside {
                            index: x,
                            len: n as Val,
                        };
                        return Err(RunError::at(kind, at!(sp)));
                    }
                    let v = p.vals()[at as usize + x as usize - 1];
                    w!(d, v)
                }
                BOp::IndexOf { d, x, m } => {
                    let (x, m) = (r!(x), r!(m) as usize);
                    let at = self.st.scratch[m..].iter().position(|&v| v == x);
                    self.st.scratch.truncate(m);
                    w!(d, at.map_or(0, |i| i as Val + 1))
                }
                BOp::Emit { d, args, n } => {
                    let regs = &p.regs()[args as usize..][..n as usize];
                    self.emit_tuple(regs);
                    let c = r!(d) + 1;
                    w!(d, c)
                }
                BOp::ChargeRange { a, b, sp } => {
                    let n = r!(b) - r!(a);
                    charge!(n as u64, sp);
                }
                BOp::Listed { d, m, what, sp } => {
                    let m = r!(m) as usize;
                    let s = &self.st.scratch[m..];
                    let v = match what {
                        Listed::Count => s.len() as Val,
                        Listed::Empty => s.is_empty() as Val,
                        Listed::First => s.first().copied().unwrap_or(NONE),
                        Listed::Last => s.last().copied().unwrap_or(NONE),
                        Listed::Sum => match s.iter().try_fold(0i64, |a, &x| ops::add(a, x).ok()) {
                            Some(v) => v,
                            None => {
                                self.st.scratch.truncate(m);
                                return Err(RunError::op(ops::Fault::Overflow, at!(sp)));
                            }
                        },
                    };
                    self.st.scratch.truncate(m);
                    w!(d, v)
                }
                BOp::ReachVia { n, m, sp } => {
                    self.reachable_via(r!(n), r!(m) as usize, at!(sp))?;
                }
                BOp::LongestPath { d, m, sp } => {
                    let v = self.longest_path(r!(m) as usize, at!(sp))?;
                    w!(d, v)
                }
                BOp::MemoGet { d, m, to } => {
                    // As the expression would charge its steps: at once,
                    // only when no checkpoint falls among them.
                    let n = r!(m + 2) as u64;
                    let st = &mut *self.st;
                    if r!(m) != 0 && st.guard.is_none() && st.steps + n <= st.checkpoint {
                        st.steps += n;
                        w!(d, r!(m + 1));
                        goto!(to);
                    } else {
                        w!(m + 3, st.steps as Val);
                    }
                }
                BOp::MemoSet { d, m } => self.memo_set(d, m),
                BOp::HoldGet { d, m, to } => {
                    if r!(m) != 0 {
                        w!(d, r!(m + 1));
                        goto!(to);
                    }
                }
                BOp::HoldSet { d, m } => {
                    w!(m, 1);
                    w!(m + 1, r!(d));
                }
                BOp::KeepGet { d, k, m, to } => match self.kept_get(k) {
                    Some(v) => {
                        w!(d, v);
                        goto!(to);
                    }
                    None => w!(m, self.st.steps as Val),
                },
                BOp::KeepSet { d, k, m } => self.kept_set(k, r!(d), r!(m)),
                BOp::Ret { s } => return Ok(r!(s)),
                BOp::ConstRet { d, v } => {
                    w!(d, v as Val);
                    return Ok(v as Val);
                }
            }
        }
    }

    /// `BOp::MemoSet` in the running frame. Out of line: the machine's
    /// loop stays as it was for every program that keeps no value.
    #[inline(never)]
    fn memo_set(&mut self, d: Reg, m: Reg) {
        let v = self.st.locals[self.base + d as usize];
        let steps = self.st.steps;
        let f = &mut self.st.locals[self.base + m as usize..];
        f[0] = 1;
        f[1] = v;
        f[2] = (steps - f[3] as u64) as Val;
    }

    /// The zone `base + i` of a zone reference, checked as
    /// [`Exec::zone_id`] checks it. The caller adds the span to an error,
    /// so that the hot path never looks it up.
    #[inline(always)]
    pub(super) fn zone_at(
        &mut self,
        base: u32,
        i: Val,
        dim: ZDim,
        n: u32,
    ) -> Result<u32, RunErrorKind> {
        let n = match dim {
            ZDim::Global => return Ok(base),
            ZDim::Value => {
                if i < 0 || i as u32 >= self.g.nzones {
                    return Err(RunErrorKind::NoneZoneValue);
                }
                return Ok(i as u32);
            }
            ZDim::Node => self.g.board.nodes.len() as Val,
            ZDim::Player => self.st.nplayers as Val,
            ZDim::Edge => self.g.board.edges.len() as Val,
            ZDim::At => n as Val,
        };
        // One unsigned comparison: a negative index (`none`) is larger
        // than any length.
        if i as u64 >= n as u64 {
            return Err(RunErrorKind::NoneZone);
        }
        Ok(base + i as u32)
    }

    /// [`BOp::FirstAlike`] while a seat's view is guarded: the pieces the
    /// walk's operations look at, looked at in their order (`y`'s first key
    /// once, before the walk; each piece's first key as the walk reaches
    /// it; a later test's two sides, in the order written, each time the
    /// tests before it pass). `y` is a piece.
    #[cold]
    fn first_alike_guarded(&mut self, tests: &[LikeTest], k: usize, stop: usize, y: usize) -> Val {
        let g = self.g;
        let look = |ex: &mut Self, key: u16, q: usize| -> Val {
            if let (true, Some(viewer)) = (key != BOp::OWNER, ex.st.guard) {
                ex.peek(q, viewer);
            }
            lead_value(g, key, q)
        };
        let first = look(self, tests[0].key, y);
        'pieces: for at in k..stop {
            let q = self.st.zones.arena[at] as usize;
            if look(self, tests[0].key, q) != first {
                continue;
            }
            for t in &tests[1..] {
                let (a, b) = if t.piece_first {
                    let a = look(self, t.key, q);
                    (a, look(self, t.key, y))
                } else {
                    let b = look(self, t.key, y);
                    (look(self, t.key, q), b)
                };
                if a != b {
                    continue 'pieces;
                }
            }
            return q as Val;
        }
        NONE
    }

    /// [`BOp::NextLead`]'s walk from position `k` to `stop` of the scratch
    /// stack: the position after the element it stopped at, that element
    /// (the last one looked at), and whether its zone holds a piece passing
    /// the test, the element to bind. Each element skipped costs what the
    /// inner walk costs for it: its zone found (failing as `BOp::Zone`
    /// fails), its length charged (`BOp::IterInit`), each piece's field
    /// looked at (`BOp::IterLead`). The pieces of the element it stops at
    /// are not marked as looked at: the inner walk looks at them again.
    #[inline(never)]
    fn next_lead(
        &mut self,
        s: &LeadSkip,
        mut k: usize,
        stop: usize,
        who: Val,
        span: Span,
    ) -> R<(usize, Val, bool)> {
        let g = self.g;
        let mut x = NONE;
        while k < stop {
            x = self.st.scratch[k];
            k += 1;
            let z = self
                .zone_at(s.base, x, s.dim, s.n)
                .map_err(|e| RunError::at(e, span))?;
            let (a, b) = (
                self.st.zones.start[z as usize],
                self.st.zones.start[z as usize + 1],
            );
            let arena = &self.st.zones.arena[a as usize..b as usize];
            if arena
                .iter()
                .any(|&q| (lead_value(g, s.key, q as usize) == who) == s.eq)
            {
                return Ok((k, x, true));
            }
            if s.key != BOp::OWNER {
                if let Some(viewer) = self.st.guard {
                    for q in a..b {
                        let q = self.st.zones.arena[q as usize] as usize;
                        self.peek(q, viewer);
                    }
                }
            }
            self.charge((b - a) as u64, span)?;
        }
        Ok((k, x, false))
    }

    /// Appends the values of the running frame's registers `regs` to the
    /// option buffer (`BOp::Emit`). Out of line: the machine's loop stays
    /// as it was for every program that lists no options.
    #[inline(never)]
    fn emit_tuple(&mut self, regs: &[Reg]) {
        // The frame first, then one `extend` of known length: the buffer's
        // room is checked once, not at each value.
        let frame = &self.st.locals[self.base..];
        self.st
            .opt_vals
            .extend(regs.iter().map(|&r| frame[r as usize]));
    }

    /// A call with its arguments already in registers (as
    /// [`Exec::call`] does it after evaluating them).
    #[inline(always)]
    fn call_regs(&mut self, func: u16, args: &[Reg], span: Span) -> R<Val> {
        let new_base = self.st.locals.len();
        let nlocals = self.g.fns[func as usize].nlocals as usize;
        self.st.locals.resize(new_base + nlocals.max(args.len()), 0);
        // The caller's frame lies below `new_base`; `locals` may have moved,
        // so the arguments are read through it, not the frame pointer.
        for (k, &a) in args.iter().enumerate() {
            let v = self.st.locals[self.base + a as usize];
            self.st.locals[new_base + k] = v;
        }
        self.enter(func, new_base, span)
    }

    /// A key lookup within all nodes (`adj` is `None`) or the neighbours of
    /// the node in register `n`, as [`Exec::node_by_key`] does it.
    #[allow(clippy::too_many_arguments)]
    fn key_lookup(
        &mut self,
        p: &Program,
        key: u16,
        adj: Option<Adj>,
        n: Val,
        subs: &[u32],
        fallback: u32,
        span: Span,
    ) -> R<Val> {
        let around = self.key_around(adj, n, span)?;
        if around.is_some_and(|s| s.is_empty()) {
            return Ok(NONE);
        }
        let mark = self.st.scratch.len();
        let mut v = [0; MAX_KEY_ATTRS];
        for (i, &sub) in subs.iter().enumerate() {
            match self.run_bytecode(sub, span) {
                Ok(x) => v[i] = x,
                Err(_) => {
                    self.st.scratch.truncate(mark);
                    return self.eval(&p.trees()[fallback as usize], span);
                }
            }
        }
        Ok(key_found(self.g, key, around, &v[..subs.len()]))
    }

    /// The nodes a key lookup looks within: all (`None`) or the neighbours
    /// of node `n` (an error when `n` is `none`).
    fn key_around(&self, adj: Option<Adj>, n: Val, span: Span) -> R<Option<&'a [u32]>> {
        match adj {
            None => Ok(None),
            Some(_) if n < 0 => Err(RunError::at(RunErrorKind::NoneNeighbours, span)),
            Some(a) => Ok(Some(adjacent(&self.g.board, a, n as u32))),
        }
    }
}

/// The node with the key values `vals` in table `key`, if it lies `around`.
fn key_found(g: &Game, key: u16, around: Option<&[u32]>, vals: &[Val]) -> Val {
    match g.keys[key as usize].find(vals) {
        Some(found) if around.is_none_or(|s| s.contains(&found)) => found as Val,
        _ => NONE,
    }
}

/// The nodes (or out-edges) next to node `n`.
#[inline]
fn adjacent(b: &crate::board::Board, adj: Adj, n: u32) -> &[u32] {
    match adj {
        Adj::Successors => b.successors(n),
        Adj::Predecessors => b.predecessors(n),
        Adj::Neighbors => b.neighbors(n),
        Adj::OutEdges => b.out_edges(n),
    }
}

/// [`BOp::FirstAlike`] with no view guarded: the first piece of `arena`
/// whose keys are those of piece `y`. `y` itself has them, so it ends the
/// walk at once.
#[inline(never)]
fn first_alike(g: &Game, arena: &[u32], y: usize, tests: &[LikeTest]) -> Val {
    'pieces: for &q in arena {
        let q = q as usize;
        if q != y {
            for t in tests {
                if lead_value(g, t.key, q) != lead_value(g, t.key, y) {
                    continue 'pieces;
                }
            }
        }
        return q as Val;
    }
    NONE
}

/// What a leading test (`BOp::IterLead`, `BOp::NextLead`) reads of piece
/// `x`: its owner (`key` = [`BOp::OWNER`]) or its field `key`.
#[inline(always)]
fn lead_value(g: &Game, key: u16, x: usize) -> Val {
    if key == BOp::OWNER {
        g.piece_owner[x] as Val
    } else {
        g.fields[key as usize][x]
    }
}
