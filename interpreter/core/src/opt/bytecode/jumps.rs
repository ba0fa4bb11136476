//! Calls and searches tested as jumps. A condition (an `if`, a filter's
//! test, a requirement) compiles to jumps (`Comp::branch`); a call
//! compiled in place or an `any`/`all` used to write its answer to a
//! register for the condition to test: reversi's `nodes where legal(actor,
//! it)` ran `Const 0; CallLeave; JumpUnless` for every occupied node, and
//! `any(n in neighbors(c): …)` inside it set its answer, then the call's,
//! then tested both. Here the answer jumps where it is found:
//!
//! - a call's body is tested as jumps, and both ways out lower the depth
//!   the call raised (`CallLeave` on each, none for a leaf);
//! - `any` found true jumps out of its loop, and running out of elements
//!   falls through (or the other way round, and `all` mirrors `any`).
//!
//! The same parts run in the same order, so steps, errors and the depth
//! are those of the answer written and tested. A call or an aggregate
//! that a loop or the position keeps (`memo.rs`, `keep.rs`) is computed
//! as a value, since the value is what is kept.

use super::comp::Comp;
use crate::diag::Span;
use crate::ir::*;

impl Comp<'_> {
    /// Whether `e` is computed where it is used: no loop being compiled
    /// and no site kept between decisions keeps it.
    pub(super) fn computed_here(&self, e: &Expr) -> bool {
        self.keeping_loop(e).is_none() && self.site_reads(e).is_none()
    }

    /// A call of `func` compiled in place as a condition: the jumps taken
    /// when its answer is `when`. A body that calls nothing is most often
    /// a leaf (`CallLeaf`, nothing to lower after): its jumps are the
    /// call's. Otherwise both ways out lower the depth:
    ///
    /// ```text
    ///     CallEnter
    ///     <body>        jumps to F when the answer is not `when`
    ///     CallLeave
    ///     Jump out      (returned)
    /// F:  CallLeave
    /// ```
    ///
    /// Should the guess be wrong either way, the layout is mended: a leaf's
    /// `CallLeave`s become jumps to the next operation, which
    /// `Draft::tidy` drops; a body taken for a leaf that is not one gets a
    /// `CallLeave` on each way out.
    pub(super) fn call_jumps(
        &mut self,
        func: u16,
        args: &[Expr],
        span: Span,
        when: bool,
    ) -> Vec<usize> {
        let sp = self.span(span);
        let keep = self.next;
        let regs = self.call_args(func, args, sp);
        let (enter, outer) = self.inline_enter(func, &regs, sp);
        let body = &self.inl.bodies[func as usize].0;
        let guess = calls_nothing(body);
        let first = self.branch(body, if guess { when } else { !when }, sp);
        let leaf = self.inline_exit(enter, outer);
        let leave = |c: &mut Self| {
            let next = c.here() + 1;
            c.emit(if leaf {
                BOp::Jump { to: next }
            } else {
                BOp::CallLeave
            });
        };
        let out = if guess && leaf {
            first
        } else if guess {
            // `first` jumps on `when`, the rest falls through.
            self.emit(BOp::CallLeave);
            let skip = self.emit(BOp::Jump { to: 0 });
            for j in first {
                self.patch(j);
            }
            self.emit(BOp::CallLeave);
            let out = self.emit(BOp::Jump { to: 0 });
            self.patch(skip);
            vec![out]
        } else {
            leave(self);
            let out = self.emit(BOp::Jump { to: 0 });
            for j in first {
                self.patch(j);
            }
            leave(self);
            vec![out]
        };
        self.next = keep;
        out
    }
}

/// Whether `e` calls no function and no builtin, so that its body compiled
/// in place is most likely a leaf (see [`Comp::inline_exit`]).
fn calls_nothing(e: &Expr) -> bool {
    let mut none = true;
    crate::ir::walk::walk_e(&mut e.clone(), &mut |x: &mut Expr| {
        none &= !matches!(
            x,
            Expr::Call { .. } | Expr::Builtin(..) | Expr::NodeByKey { .. } | Expr::Code(_)
        )
    });
    none
}
