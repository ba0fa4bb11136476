//! Sets of nodes or edges, the values of the types `nodes` and `edges`
//! (`ir::SetOp`). A set is the position on the scratch stack of its bit
//! words, one bit per node (edge) of the board, so that the value itself
//! stays one `i64` and a position holds no set: sets live only while the
//! expression that uses them is evaluated.
//!
//! Two rules keep the stack from growing: an operation that makes a set
//! leaves exactly its words at the height the stack had when the operation
//! began (it builds them above everything, then moves them down), and an
//! operation that consumes sets without making one drops the stack back to
//! that height. A set made by an operand lies at or above that height and
//! is dead once the operation is done; a set below it (a parameter's) is
//! older and is only read. Only the tree evaluator runs these operations;
//! the bytecode pass leaves them as trees.

use super::{Exec, R};
use crate::diag::Span;
use crate::ir::*;

// A set is one value like any other: nothing about sets widens the values
// every expression passes around.
const _: () = assert!(std::mem::size_of::<Val>() == 8);

/// How many 64-bit words a set of the board's nodes (edges) takes.
#[inline]
pub(crate) fn words(g: &Game, on: Elems) -> usize {
    crate::eval::zindex::elems(g, on).div_ceil(64)
}

/// Whether the set whose words start at `s` holds `x` (`none` never is).
#[inline]
fn has(sc: &[Val], s: usize, x: Val, n: usize) -> bool {
    x >= 0 && (x as usize) < n && sc[s + x as usize / 64] as u64 & (1u64 << (x % 64)) != 0
}

/// Sets or clears the bit of `x` in the set at `s`; `none` is no element.
#[inline]
fn put(sc: &mut [Val], s: usize, x: Val, n: usize, on: bool) {
    if x >= 0 && (x as usize) < n {
        let bit = 1i64 << (x % 64);
        let word = &mut sc[s + x as usize / 64];
        *word = if on { *word | bit } else { *word & !bit };
    }
}

/// Moves the `w` words built at `top` down to `mark`, where the result of
/// the operation that began at `mark` lives, and drops the rest.
#[inline]
fn settle(sc: &mut Vec<Val>, top: usize, mark: usize, w: usize) -> Val {
    sc.copy_within(top..top + w, mark);
    sc.truncate(mark + w);
    mark as Val
}

impl Exec<'_> {
    /// One operation on sets (see [`SetOp`] for the arguments of each).
    #[inline(never)]
    pub(super) fn set_op(
        &mut self,
        op: SetOp,
        on: Elems,
        args: &[Expr],
        c: Option<&Coll>,
        span: Span,
    ) -> R<Val> {
        let mark = self.st.scratch.len();
        let (w, n) = (words(self.g, on), crate::eval::zindex::elems(self.g, on));
        match op {
            SetOp::Of => {
                self.coll(c.expect("a set of a collection carries it"), span)?;
                let sc = &mut self.st.scratch;
                let end = sc.len();
                sc.resize(end + w, 0);
                for i in mark..end {
                    let x = sc[i];
                    put(sc, end, x, n, true);
                }
                Ok(settle(sc, end, mark, w))
            }
            SetOp::With | SetOp::Without => {
                let s = self.eval(&args[0], span)? as usize;
                let x = self.eval(&args[1], span)?;
                let sc = &mut self.st.scratch;
                let top = sc.len();
                sc.extend_from_within(s..s + w);
                put(sc, top, x, n, op == SetOp::With);
                Ok(settle(sc, top, mark, w))
            }
            SetOp::Union | SetOp::Minus => {
                let a = self.eval(&args[0], span)? as usize;
                let b = self.eval(&args[1], span)? as usize;
                let sc = &mut self.st.scratch;
                let top = sc.len();
                sc.extend_from_within(a..a + w);
                for i in 0..w {
                    let y = sc[b + i];
                    let x = &mut sc[top + i];
                    *x = if op == SetOp::Union { *x | y } else { *x & !y };
                }
                Ok(settle(sc, top, mark, w))
            }
            SetOp::Has => {
                let x = self.eval(&args[0], span)?;
                let s = self.eval(&args[1], span)? as usize;
                let sc = &mut self.st.scratch;
                let r = has(sc, s, x, n);
                sc.truncate(mark);
                Ok(r as Val)
            }
            SetOp::Same => {
                let a = self.eval(&args[0], span)? as usize;
                let b = self.eval(&args[1], span)? as usize;
                let sc = &mut self.st.scratch;
                let r = sc[a..a + w] == sc[b..b + w];
                sc.truncate(mark);
                Ok(r as Val)
            }
            SetOp::Keep => {
                let s = self.wrapped(&args[0], span)? as usize;
                let sc = &mut self.st.scratch;
                if s >= mark {
                    Ok(settle(sc, s, mark, w))
                } else {
                    // The call gave back an older set (a parameter of its
                    // caller's): nothing of its own to keep.
                    sc.truncate(mark);
                    Ok(s as Val)
                }
            }
            SetOp::Drop => {
                let v = self.wrapped(&args[0], span)?;
                self.st.scratch.truncate(mark);
                Ok(v)
            }
        }
    }

    /// The value of a wrapped call: called at once, without passing through
    /// `eval`, so that a recursion over sets takes fewer native frames per
    /// level (inlining may have replaced the call with its body).
    #[inline(always)]
    fn wrapped(&mut self, e: &Expr, span: Span) -> R<Val> {
        match e {
            Expr::Call { func, args, span } => self.call(*func, args, *span),
            other => self.eval(other, span),
        }
    }

    /// Pushes the elements of the set `e` in board order, at the height the
    /// stack had before `e` was evaluated (the set's own words, if `e`
    /// made it, are overwritten).
    pub(super) fn members(&mut self, on: Elems, e: &Expr, span: Span) -> R<()> {
        let mark = self.st.scratch.len();
        let s = self.eval(e, span)? as usize;
        let w = words(self.g, on);
        let sc = &mut self.st.scratch;
        let top = sc.len();
        for i in 0..w {
            let mut bits = sc[s + i] as u64;
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                sc.push((i * 64 + b) as Val);
                bits &= bits - 1;
            }
        }
        let len = sc.len() - top;
        sc.copy_within(top.., mark);
        sc.truncate(mark + len);
        Ok(())
    }
}
