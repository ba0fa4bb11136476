//! Interchangeable pieces, found once at check time so that equal options
//! can be merged at run time without cost for games that have none.
//!
//! Two pieces are *twins* when they are of the same kind, have the same
//! owner and the same value in every field: nothing but their identity tells
//! them apart. Options that differ only in twins lying in the same zone with
//! the same visibility, and that read the same, are one move
//! (`eval/merge.rs`). An action may offer such options only if one of its
//! parameters is a piece of a kind that has twins: that is `ActionDecl::merge`.
//! It offers none when each such parameter keeps only the first piece of
//! each look in its zone (`ActionDecl::twin_free`), and listing then does
//! not search for them.

use crate::ast::BinOp;
use crate::ir::walk::{walk_e, Visit};
use crate::ir::*;
use std::cell::Cell;

/// Fills `Game::piece_class` and `Game::kind_twins`, and marks the actions
/// whose options may need merging.
pub(super) fn mark(g: &mut Game) {
    let n = g.piece_kind.len();
    let mut first: std::collections::HashMap<(u16, i8, Vec<Val>), u32> =
        std::collections::HashMap::new();
    g.piece_class = Vec::with_capacity(n);
    g.kind_twins = vec![false; g.kinds.len()];
    for p in 0..n {
        let k = g.piece_kind[p];
        let fields = g.kinds[k as usize]
            .fields
            .iter()
            .map(|(_, _, fid)| g.fields[*fid as usize][p])
            .collect();
        let class = *first
            .entry((k, g.piece_owner[p], fields))
            .or_insert(p as u32);
        if class != p as u32 {
            g.kind_twins[k as usize] = true;
        }
        g.piece_class.push(class);
    }
    let twins = g.kind_twins.clone();
    let free: Vec<bool> = g
        .actions
        .iter()
        .map(|a| {
            a.params
                .iter()
                .all(|prm| !may_twin(&twins, prm.ty) || first_of_each_look(&g.fns, prm))
        })
        .collect();
    for (a, free) in g.actions.iter_mut().zip(free) {
        a.merge = a.params.iter().any(|prm| may_twin(&twins, prm.ty));
        a.twin_free = a.merge && free;
    }
}

/// Whether parameter `prm`'s domain keeps, of the pieces of its zone, only
/// the first of each look: `w in Z where … and first(Z where k(it) ==
/// k(w) and …) == w and …` (perhaps inside a called function), every `k` a
/// function of the piece's kind, owner and fields alone. Twins agree in
/// every such `k`, so of two twins in `Z` only the first can pass, and no
/// two of the parameter's values are twins lying in one zone (Hansa
/// Teutonica's `first_like`, Hansa's `rep_held`).
fn first_of_each_look(fns: &[FnDecl], prm: &ActionParam) -> bool {
    let Coll::Filter(inner, w, cond) = &prm.domain else {
        return false;
    };
    let Coll::Zone(z) = &**inner else {
        return false;
    };
    // Found again inside the filter, the zone must be the same one: its
    // index a local or a constant, nothing drawn or called.
    let mut plain = true;
    walk_e(&mut Expr::Zone(z.clone()), &mut |x: &mut Expr| {
        plain &= matches!(
            x,
            Expr::Local(_) | Expr::Const(_) | Expr::Var(_, None) | Expr::Zone(_)
        )
    });
    if !plain {
        return false;
    }
    let apart = Cell::new(APART);
    let mut tests = vec![];
    conjuncts(cond, fns, 0, &apart, &mut tests);
    tests.iter().any(|t| first_alike(t, z, *w, fns, &apart))
}

/// How deep calls are looked into.
const DEPTH: u16 = 4;

/// The first number given to a called function's own locals when its body
/// is looked into, above any frame's.
const APART: u16 = 20_000;

/// The conjuncts of `e`, looking into called functions.
fn conjuncts(e: &Expr, fns: &[FnDecl], depth: u16, apart: &Cell<u16>, out: &mut Vec<Expr>) {
    match e {
        Expr::Bin(BinOp::And, a, b) => {
            conjuncts(a, fns, depth, apart, out);
            conjuncts(b, fns, depth, apart, out);
        }
        Expr::Call { func, args, .. } if depth < DEPTH => {
            match expand(&fns[*func as usize], args, apart) {
                Some(body) => conjuncts(&body, fns, depth + 1, apart, out),
                None => out.push(e.clone()),
            }
        }
        _ => out.push(e.clone()),
    }
}

/// `f`'s body with `args` for its parameters and its own locals numbered
/// apart from every other (`apart`, moved on past them), for comparing
/// shapes only; `None` when the numbers run out.
fn expand(f: &FnDecl, args: &[Expr], apart: &Cell<u16>) -> Option<Expr> {
    struct Subst<'a> {
        args: &'a [Expr],
        by: u16,
    }
    impl Visit for Subst<'_> {
        fn expr(&mut self, e: &mut Expr) {
            match e {
                Expr::Local(s) if (*s as usize) < self.args.len() => {
                    *e = self.args[*s as usize].clone()
                }
                Expr::Local(s) | Expr::Agg { slot: s, .. } => *s += self.by,
                _ => {}
            }
        }
        fn coll(&mut self, c: &mut Coll) {
            if let Coll::Filter(_, s, _)
            | Coll::Map(_, s, _)
            | Coll::Distinct(_, s, _)
            | Coll::Sorted(_, s, _) = c
            {
                *s += self.by;
            }
        }
    }
    let by = apart.get();
    apart.set(by.checked_add(f.nlocals.max(1))?);
    let mut body = f.body.clone();
    walk_e(&mut body, &mut Subst { args, by });
    Some(body)
}

/// `first(Z where T) == w` (either way round), `Z` the zone `z` and each
/// conjunct of `T` a look `k(it) == k(w)` ([`look`]).
fn first_alike(t: &Expr, z: &ZoneRef, w: u16, fns: &[FnDecl], apart: &Cell<u16>) -> bool {
    let Expr::Bin(BinOp::Eq, a, b) = t else {
        return false;
    };
    let first = match (&**a, &**b) {
        (f, Expr::Local(s)) | (Expr::Local(s), f) if *s == w => f,
        _ => return false,
    };
    let Expr::Builtin(Builtin::First, args, Some(c), _) = first else {
        return false;
    };
    let Coll::Filter(inner, it, test) = &**c else {
        return false;
    };
    let same_zone = matches!(&**inner, Coll::Zone(z2) if Expr::Zone(z2.clone()).shape() == Expr::Zone(z.clone()).shape());
    let mut looks = vec![];
    conjuncts(test, fns, 0, apart, &mut looks);
    args.is_empty() && same_zone && looks.iter().all(|l| look(l, *it, w, fns, apart))
}

/// `k(it) == k(w)` (or `k(w) == k(it)`): the same expression of the walked
/// piece `it` and of `w`, reading of `it` only its kind, owner and fields
/// and drawing nothing at random.
fn look(l: &Expr, it: u16, w: u16, fns: &[FnDecl], apart: &Cell<u16>) -> bool {
    let Expr::Bin(BinOp::Eq, a, b) = l else {
        return false;
    };
    let of_w = |x: &Expr| {
        let mut x = x.clone();
        walk_e(&mut x, &mut |e: &mut Expr| {
            if let Expr::Local(s) = e {
                if *s == it {
                    *s = w;
                }
            }
        });
        x.shape()
    };
    [(a, b), (b, a)]
        .iter()
        .any(|(x, y)| of_w(x) == y.shape() && by_class(x, it, fns, 0, apart))
}

/// Whether `e` reads the piece in local `it` only through its kind, owner
/// and fields (looking into called functions), and draws nothing at random.
fn by_class(e: &Expr, it: u16, fns: &[FnDecl], depth: u16, apart: &Cell<u16>) -> bool {
    let mut e = e.clone();
    let mut ran_out = false;
    walk_e(&mut e, &mut |x: &mut Expr| {
        if let Expr::Call { func, args, .. } = x {
            match expand(&fns[*func as usize], args, apart) {
                Some(body) => *x = body,
                None => ran_out = true,
            }
        }
    });
    let mut left = false;
    walk_e(&mut e, &mut |x: &mut Expr| {
        left |= matches!(x, Expr::Call { .. })
    });
    if ran_out {
        return false;
    }
    if left {
        // Calls in the bodies just pasted: looked into in turn.
        return depth + 1 < DEPTH && by_class(&e, it, fns, depth + 1, apart);
    }
    let (mut all, mut read) = (0, 0);
    let mut random = false;
    walk_e(&mut e, &mut |x: &mut Expr| match x {
        Expr::Local(s) if *s == it => all += 1,
        Expr::Owner(a) | Expr::Field(_, a) | Expr::IsKind(a, _) if matches!(**a, Expr::Local(s) if s == it) => {
            read += 1
        }
        Expr::Builtin(Builtin::Random, ..) => random = true,
        _ => {}
    });
    all == read && !random
}
