//! Requirements shared between actions. An `act` lists the options of each
//! action it offers in turn, testing first each leading `require` that
//! reads no parameter. Several actions often begin with the same one
//! (Hansa Teutonica's `take_place`, `take_displace`, `take_move`,
//! `take_claim` and `take_income` each `require can_act(actor)`), and the
//! position cannot change while options are listed. So requirements that
//! are the same expression get one class here, and `eval/options.rs`
//! computes a class once per listing and reads it for the next action.
//! Only requirements compiled to a program are shared: one left a tree
//! (Hansa's `not acted`) costs less to compute than to look up.
//!
//! Nothing a match shows changes, for the reasons loop-invariant values
//! give (`memo.rs`):
//! - **The value.** Only pure requirements are shared (no `random` below
//!   them, in the functions they call too; no `subsets`), that read no
//!   local but the actor (local 0 of every action's frame, the same seat
//!   for every action of one listing) and those they bind themselves.
//!   Expressions are compared as the passes left them, spans aside: the
//!   same expression on the same position in frames holding the same actor
//!   gives the same value in the same steps.
//! - **The steps.** A value read is charged the steps its computation
//!   charged, and is read only when they end before the next checkpoint;
//!   otherwise it is computed again, so a budget that runs out stops the
//!   listing at the same operation with the same span.
//! - **Errors.** Only a value computed without error is kept.
//! - **Hidden information and coverage.** While a seat's view is guarded,
//!   and while coverage counts each requirement, every requirement is
//!   computed.

use super::memo;
use crate::ir::*;

/// Per action, per leading requirement: its class, or
/// [`ActionDecl::UNSHARED`] when no other requirement that could be shared
/// is the same expression; nothing for an action that shares none. Run once the requirements are compiled; `pure`
/// is [`memo::pure_fns`]'s answer from before (a compiled body no longer
/// shows what it calls).
pub(super) fn classes(g: &Game, pure: &[bool]) -> Vec<Vec<u16>> {
    let mut shapes: Vec<(String, u32)> = vec![];
    let mut of: Vec<Vec<Option<usize>>> = vec![];
    for ad in &g.actions {
        let mut row = vec![];
        for (e, mask, _) in &ad.pre {
            // Only a requirement compiled to a program: one left a tree
            // (`not acted`) costs less to compute than to look up.

            let Expr::Code(id) = e else {
                row.push(None);
                continue;
            };
            let e = g.programs[*id as usize].source();
            let shareable = *mask == 0 && memo::pure_reading(e, pure, |s| s == 0);
            row.push(shareable.then(|| {
                let shape = e.shape();
                match shapes.iter().position(|(s, _)| *s == shape) {
                    Some(k) => {
                        shapes[k].1 += 1;
                        k
                    }
                    None => {
                        shapes.push((shape, 1));
                        shapes.len() - 1
                    }
                }
            }));
        }
        of.push(row);
    }
    // Classes of more than one requirement, numbered in order of first use.
    let mut number = vec![ActionDecl::UNSHARED; shapes.len()];
    let mut next = 0u16;
    of.iter()
        .map(|row| {
            let classes: Vec<u16> = row
                .iter()
                .map(|k| match k {
                    Some(k) if shapes[*k].1 > 1 && next < ActionDecl::UNSHARED => {
                        if number[*k] == ActionDecl::UNSHARED {
                            number[*k] = next;
                            next += 1;
                        }
                        number[*k]
                    }
                    _ => ActionDecl::UNSHARED,
                })
                .collect();
            // An action that shares nothing keeps an empty list.
            if classes.iter().all(|&c| c == ActionDecl::UNSHARED) {
                vec![]
            } else {
                classes
            }
        })
        .collect()
}
