//! Zone lengths: `count(z)` and `empty(z)` of a plain zone read the zone's
//! length (`Expr::ZoneLen`, `Expr::ZoneEmpty`) instead of listing its pieces
//! and counting them. The value is the same; listing would also charge one
//! step per piece against the budget, which reading the length does not.
//!
//! It runs first in the schedule: inlining measures bodies after it, and
//! the zone predicates and the bytecode look for these two nodes. Besides
//! the roots [`walk_game`] visits, it rewrites the expressions that stay
//! trees whatever the passes (zones' `unless` conditions, variables' initial
//! values), and [`expr`] serves an expression compiled against a finished
//! game (scenario expectations).

use crate::ir::walk::{walk_e, walk_game};
use crate::ir::*;

pub(super) fn run(g: &mut Game) {
    walk_game(g, &mut |e: &mut Expr| zone_len(e));
    let more = g.zones.iter_mut().filter_map(|z| z.unless.as_mut());
    for e in more.chain(g.vars.iter_mut().filter_map(|v| v.init.as_mut())) {
        walk_e(e, &mut |e: &mut Expr| zone_len(e));
    }
}

/// Rewrites every `count`/`empty` of a plain zone below and including `e`.
pub(super) fn expr(e: &mut Expr) {
    walk_e(e, &mut |e: &mut Expr| zone_len(e));
}

fn zone_len(e: &mut Expr) {
    if let Expr::Builtin(b @ (Builtin::Count | Builtin::Empty), _, Some(c), _) = e {
        if let Coll::Zone(z) = &**c {
            let z = z.clone();
            *e = if *b == Builtin::Count {
                Expr::ZoneLen(z)
            } else {
                Expr::ZoneEmpty(z)
            };
        }
    }
}
