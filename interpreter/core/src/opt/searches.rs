//! Searches that stop: `first(C where P)` and `empty(C where P)` become
//! aggregates that stop at the first element passing `P` instead of listing
//! all of them; `last(z where P)` of a plain zone searches from the top down.

use crate::ir::walk::walk_game;
use crate::ir::*;

pub(super) fn run(g: &mut Game) {
    walk_game(g, &mut |e: &mut Expr| search(e));
}

/// `first` and `empty` of a filter stop at the first element that passes;
/// `last` of a filtered plain zone searches from the top down.
fn search(e: &mut Expr) {
    if let Expr::Builtin(Builtin::Last, _, Some(c), _) = e {
        if let Coll::Filter(inner, slot, cond) = &mut **c {
            if matches!(**inner, Coll::Zone(_)) {
                *e = Expr::Agg {
                    op: AggOp::Last,
                    coll: Box::new(std::mem::replace(&mut **inner, Coll::Players)),
                    slot: *slot,
                    body: Some(Box::new(std::mem::replace(cond, Expr::Const(0)))),
                };
                return;
            }
        }
    }
    if let Expr::Builtin(b @ (Builtin::First | Builtin::Empty), _, Some(c), _) = e {
        if let Coll::Filter(inner, slot, cond) = &mut **c {
            let agg = Expr::Agg {
                op: if *b == Builtin::First {
                    AggOp::First
                } else {
                    AggOp::Any
                },
                coll: Box::new(std::mem::replace(&mut **inner, Coll::Players)),
                slot: *slot,
                body: Some(Box::new(std::mem::replace(cond, Expr::Const(0)))),
            };
            *e = if *b == Builtin::First {
                agg
            } else {
                Expr::Not(Box::new(agg))
            };
        }
    }
}
