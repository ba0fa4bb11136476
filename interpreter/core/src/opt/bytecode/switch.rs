//! A filter whose test branches on values that do not change inside the
//! loop, split once per loop into one loop per branch. Hasp's `play_card`
//! keeps `c in actor.hand where legal(actor, c)`, and `legal` (pasted into
//! the filter by `inline`) is a chain of `if`s on the trick and the hand
//! (`if empty(trick) then true else if … has_suit(p, lead_card().suit)
//! then c.suit == lead_card().suit else …`) of which only the last tests
//! read the card. Each test of the chain was kept by the loop (`memo.rs`)
//! and read back at every card, one or two operations each, before the
//! card's own test.
//!
//! Here the chain, with its ends replaced by their numbers (the
//! *selection*), is one value the loop keeps ([`BOp::MemoGet`]); each end
//! (a *leaf*) gets a loop of its own, which reads the kept selection at
//! every element with the leaf's own start as the read's target, and goes
//! back to computing the selection only when the read does not answer.
//! Per element that is one operation, where the chain cost one or two per
//! test on its path.
//!
//! Nothing a match shows changes, for the reasons the module text of
//! `memo.rs` gives for every kept value, and one more:
//! - **The steps.** The selection is kept with the steps computing it
//!   charged, which are the steps of the tests on its path (the tests are
//!   pure and read nothing that varies, so each element takes the same
//!   path at the same cost); a read charges them again at every element,
//!   as the chain's own kept tests did one by one. Where a checkpoint
//!   falls among them the selection is computed again step by step, which
//!   stops at the same step as the chain did.
//! - **Errors.** The selection is kept only once computed; a test that
//!   fails fails at the first element, as the chain's did. The leaves are
//!   compiled as before, at every element.
//!
//! Only a filter over a collection read where it lies (`walk_kept`) is
//! split, and only when it is worth it: two leaves or more, and a chain of
//! two tests or more, or one test the loop would otherwise keep as a call
//! or an aggregate (a test of plain reads costs the loop one operation).

use super::comp::Comp;
use super::memo::{bound_by, cheap_ops};
use crate::ast::BinOp;
use crate::ir::*;

/// A filter's test split at the tests that do not vary in its loop.
pub(super) struct Split {
    /// The chain of invariant tests, each end replaced by its leaf's number.
    pub(super) selection: Expr,
    /// The ends of the chain, each once (equal ends share a number).
    pub(super) leaves: Vec<Expr>,
}

impl Split {
    /// The leaves as one expression, for a loop to count what it keeps of
    /// them (`Comp::loop_enter`).
    pub(super) fn all_leaves(&self) -> Expr {
        let mut it = self.leaves.iter().cloned();
        let first = it.next().expect("a split has two leaves or more");
        it.fold(first, |a, b| {
            Expr::Bin(BinOp::And, Box::new(a), Box::new(b))
        })
    }
}

impl Comp<'_> {
    /// `body`, the test of a filter whose element is local `slot`, split at
    /// its invariant tests, when that is worth it (see the module's text).
    pub(super) fn split(&self, body: &Expr, slot: u16) -> Option<Split> {
        let mut varying = vec![slot];
        varying.extend(bound_by(body));
        let (mut leaves, mut names, mut tests, mut worth) = (vec![], vec![], 0, false);
        let selection = self.split_at(
            body,
            &varying,
            &mut |leaf: &Expr| {
                // Expressions have no equality; their printed forms do.
                let name = format!("{leaf:?}");
                let k = names.iter().position(|n| *n == name).unwrap_or_else(|| {
                    names.push(name);
                    leaves.push(leaf.clone());
                    leaves.len() - 1
                });
                Expr::Const(k as Val)
            },
            &mut |c: &Expr| {
                tests += 1;
                worth |= cheap_ops(c).is_none();
            },
        );
        (leaves.len() >= 2 && (tests >= 2 || worth)).then_some(Split { selection, leaves })
    }

    /// `e` with every end of its chain of invariant tests replaced by
    /// `leaf`'s answer; `test` sees each test of the chain.
    fn split_at(
        &self,
        e: &Expr,
        varying: &[u16],
        leaf: &mut dyn FnMut(&Expr) -> Expr,
        test: &mut dyn FnMut(&Expr),
    ) -> Expr {
        match e {
            Expr::If(c, a, b) if self.invariant(c, varying) => {
                test(c);
                let a = self.split_at(a, varying, leaf, test);
                let b = self.split_at(b, varying, leaf, test);
                Expr::If(c.clone(), Box::new(a), Box::new(b))
            }
            _ => leaf(e),
        }
    }

    /// The step of a split filter's loop, from its first element on: the
    /// element is in `slot`, and `step` emits the loop's step (returning
    /// it, for its exit to be patched). Calls `each` with the element kept.
    /// Returns the steps emitted, whose exits the caller patches.
    pub(super) fn switched(
        &mut self,
        split: &Split,
        slot: Reg,
        sp: u16,
        step: &mut dyn FnMut(&mut Self) -> usize,
        each: &mut dyn FnMut(&mut Self, Reg),
    ) -> Vec<usize> {
        // The selection and its four registers of a kept value, reset
        // before the loop's first element.
        let s = self.temp();
        let m = self.temp();
        for _ in 1..4 {
            self.temp();
        }
        self.emit(BOp::Const { d: m, v: 0 });
        let mut exits = vec![step(self)];
        let get = self.emit(BOp::MemoGet { d: s, m, to: 0 });
        let compute = self.here();
        // Nothing computed inside the selection is kept by a loop: it runs
        // once per loop.
        let floor = std::mem::replace(&mut self.memo_floor, self.memos.len());
        self.into(&split.selection, s, sp);
        self.memo_floor = floor;
        self.emit(BOp::MemoSet { d: s, m });
        self.patch(get);
        let n = split.leaves.len();
        let mut entries = Vec::with_capacity(n);
        for k in 0..n - 1 {
            let other = self.emit(BOp::JumpNeK {
                a: s,
                k: k as Val,
                to: 0,
            });
            entries.push(self.emit(BOp::Jump { to: 0 }));
            self.patch(other);
        }
        // The last leaf's loop starts right here, the others after it.
        for k in std::iter::once(n - 1).chain(0..n - 1) {
            let entry = self.here();
            if k < n - 1 {
                self.patch_to(entries[k], entry);
            }
            let keep = self.next;
            // A leaf that keeps every element, or none, tests nothing.
            let fails = match split.leaves[k] {
                Expr::Const(0) => None,
                Expr::Const(_) => Some(vec![]),
                ref leaf => Some(self.branch(leaf, false, sp)),
            };
            if let Some(fails) = fails {
                each(self, slot);
                let again = self.here();
                for f in fails {
                    self.patch_to(f, again);
                }
            }
            self.next = keep;
            exits.push(step(self));
            self.emit(BOp::MemoGet { d: s, m, to: entry });
            self.emit(BOp::Jump { to: compute });
        }
        exits
    }
}
