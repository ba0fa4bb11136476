//! Searches that stop: `first(C where P)` and `empty(C where P)` become
//! aggregates that stop at the first element passing `P` instead of listing
//! all of them; `last(z where P)` of a plain zone searches from the top down.
//!
//! And listings that stop: an action every option of which needs a zone
//! that reads no parameter to hold a piece gets that test as
//! [`ActionDecl::needs`], which option listing asks before it lists
//! anything ([`needs`]). Hansa Teutonica's `use_token(k in bonus)` requires
//! `token_of(actor, k)`, `any(t in actor.tokens: t.kind == k)`: a player
//! who holds no token was offered nothing after six tests of as many kinds,
//! at every decision between actions, and now after one.

use super::consts::quiet;
use crate::ast::BinOp;
use crate::ir::walk::walk_game;
use crate::ir::*;

pub(super) fn run(g: &mut Game) {
    walk_game(g, &mut |e: &mut Expr| search(e));
    for a in 0..g.actions.len() {
        let needs = needs(g, &g.actions[a]);
        g.actions[a].needs = needs;
    }
}

/// The test every option of `ad` needs, if one is found: `not
/// empty(Z)` where a leading requirement, read from its first conjunct,
/// reaches `any(t in Z: …)` (or a call of a function that is exactly
/// that), `Z` global or the actor's. With `Z` empty that conjunct is false
/// for every tuple, so the action offers nothing, and asking first changes
/// no option. It changes no error either, since only work that cannot fail
/// is skipped: option listing walks every domain and tests every
/// requirement of each element in order up to the first that fails
/// (`eval/options.rs`), so every domain, every requirement before this one
/// and every conjunct before this one in it must be one that cannot fail
/// (`consts::quiet`), and so must every requirement of another parameter; those
/// of the same parameter after it are never reached. Only for actions
/// whose options are a product, where each requirement reads one
/// parameter. The steps of the work skipped are not charged: like the
/// other passes, this one saves steps (`tests/passes.rs`).
fn needs(g: &Game, ad: &ActionDecl) -> Option<Expr> {
    if !ad.product || !ad.params.iter().all(|p| quiet_domain(&p.domain)) {
        return None;
    }
    for (k, (e, mask, _)) in ad.pre.iter().enumerate() {
        if *mask == 0 {
            // Tested before anything is listed, and before the test found here.
            continue;
        }
        let mut conj = vec![];
        conjuncts(e, &mut conj);
        for c in conj {
            let Some(z) = needed_zone(g, c) else {
                if quiet(c) {
                    continue;
                }
                return None;
            };
            // Everything else listing could test before it, whole: the
            // other parameters' requirements and this one's before it.
            let others_quiet = ad
                .pre
                .iter()
                .enumerate()
                .all(|(i, (o, m, _))| i == k || *m == 0 || (*m == *mask && i > k) || quiet(o));
            return others_quiet.then(|| Expr::Not(Box::new(Expr::ZoneEmpty(z))));
        }
    }
    None
}

/// The conjuncts of `e` in the order `and` tests them.
fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::Bin(BinOp::And, a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(e),
    }
}

/// The zone `c` needs to hold a piece to be true, when it reads no
/// parameter: `c` is `any(t in Z: …)` (or of `Z` filtered), or a call of a
/// function whose body is that, and `Z` is a global zone or the actor's (an
/// `act` refuses `none` before it lists, so the actor's zone is always
/// there).
fn needed_zone(g: &Game, c: &Expr) -> Option<ZoneRef> {
    let (coll, args) = match c {
        Expr::Agg {
            op: AggOp::Any,
            coll,
            ..
        } => (coll, None),
        Expr::Call { func, args, .. } => match &g.fns.get(*func as usize)?.body {
            Expr::Agg {
                op: AggOp::Any,
                coll,
                ..
            } => (coll, Some(args)),
            _ => return None,
        },
        _ => return None,
    };
    let z = zone_of(coll)?;
    // Whether local `s`, where the zone is read, holds the actor: local 0
    // of the action's frame, or the function's parameter it is passed as.
    let actor = |s: u16| match args {
        None => s == 0,
        Some(args) => matches!(args.get(s as usize), Some(Expr::Local(0))),
    };
    let index = match &z.index {
        ZIndex::Global => ZIndex::Global,
        ZIndex::Player(e) if matches!(**e, Expr::Local(s) if actor(s)) => {
            ZIndex::Player(Box::new(Expr::Local(0)))
        }
        _ => return None,
    };
    Some(ZoneRef {
        base: z.base,
        index,
    })
}

/// The plain zone a collection walks, itself or filtered.
fn zone_of(c: &Coll) -> Option<&ZoneRef> {
    match c {
        Coll::Zone(z) => Some(z),
        Coll::Filter(inner, _, _) => zone_of(inner),
        _ => None,
    }
}

/// A domain whose listing cannot fail: the seats, the board, or a short
/// range between constants.
fn quiet_domain(c: &Coll) -> bool {
    match c {
        Coll::Players | Coll::Nodes | Coll::Edges => true,
        Coll::Range(Expr::Const(a), Expr::Const(b)) => b.checked_sub(*a).is_some_and(|n| n < 1_000),
        _ => false,
    }
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
