//! Constants: arithmetic, comparisons, connectives and `if` over constants
//! are folded, and a call to a function with some constant arguments calls a
//! copy of the function specialised to them (`step(c, 0, 1)` calls
//! `step[·,0,1]`, whose body has `dr` and `dk` replaced and folded), so that
//! a function written for every direction costs, per call, only what its one
//! direction needs.
//!
//! An element of a collection that never holds `none` (the nodes, the
//! edges, a node's neighbours, a zone's pieces, the players, and filters of
//! these) is compared with `none` as a constant: in `any(n in
//! neighbors(c): n != none and n.disc == p)`, which reversi's `theirs(p, n)`
//! becomes once inlined, `n != none` is `true`, and `true and x` is `x`.
//!
//! Nothing that can fail is folded (an overflow, a division by zero): it
//! stays to fail at run time as before. A specialised copy is called with
//! the same arguments as the original, so the frame, the step budget and
//! any run-time error are the same; only dead branches go.

use crate::ast::BinOp;
use crate::ir::walk::{walk_e, walk_game, Visit};
use crate::ir::*;
use crate::ops;
use std::collections::BTreeMap;

/// At most this many specialised copies per game, so that specialising
/// cannot grow a program without bound.
const MAX_COPIES: usize = 64;

pub(super) fn run(g: &mut Game) {
    walk_game(g, &mut NeverNone);
    let mut s = Specialiser {
        copies: BTreeMap::new(),
        new_fns: vec![],
        base: g.fns.len(),
    };
    // Specialise inside existing bodies first, then everywhere else; new
    // copies are themselves specialised as they are made.
    let mut fns = std::mem::take(&mut g.fns);
    let originals = fns.clone();
    for fd in fns.iter_mut() {
        walk_e(&mut fd.body, &mut |e: &mut Expr| s.rewrite(e, &originals));
    }
    g.fns = fns;
    let originals = g.fns.clone();
    walk_game(g, &mut |e: &mut Expr| s.rewrite(e, &originals));
    g.fns.extend(s.new_fns);
}

struct Specialiser {
    /// (function, constant arguments) → the copy's index.
    copies: BTreeMap<(u16, Vec<Option<Val>>), u16>,
    new_fns: Vec<FnDecl>,
    base: usize,
}

impl Specialiser {
    fn rewrite(&mut self, e: &mut Expr, fns: &[FnDecl]) {
        fold(e);
        self.specialise_call(e, fns);
    }

    fn specialise_call(&mut self, e: &mut Expr, fns: &[FnDecl]) {
        let Expr::Call { func, args, .. } = e else {
            return;
        };
        // Calls to copies are left alone (they are already specialised).
        if *func as usize >= fns.len() {
            return;
        }
        let consts: Vec<Option<Val>> = args
            .iter()
            .map(|a| {
                if let Expr::Const(v) = a {
                    Some(*v)
                } else {
                    None
                }
            })
            .collect();
        if consts.iter().all(Option::is_none) {
            return;
        }
        let key = (*func, consts.clone());
        if let Some(&copy) = self.copies.get(&key) {
            *func = copy;
            return;
        }
        if self.new_fns.len() >= MAX_COPIES || self.base + self.new_fns.len() >= u16::MAX as usize {
            return;
        }
        let id = (self.base + self.new_fns.len()) as u16;
        let f = &fns[*func as usize];
        let shown: Vec<String> = consts
            .iter()
            .map(|c| c.map(|v| v.to_string()).unwrap_or_else(|| "·".into()))
            .collect();
        let mut copy = FnDecl {
            name: format!("{}[{}]", f.name, shown.join(",")),
            nparams: f.nparams,
            nlocals: f.nlocals,
            body: f.body.clone(),
            params: f.params.clone(),
            ret: f.ret,
            table: None,
        };
        // Reserve the id before rewriting the body, so that recursion with
        // the same constants calls the copy itself.
        self.copies.insert(key, id);
        self.new_fns.push(copy.clone());
        walk_e(&mut copy.body, &mut |x: &mut Expr| {
            if let Expr::Local(s) = x {
                if let Some(Some(v)) = consts.get(*s as usize) {
                    *x = Expr::Const(*v);
                }
            }
        });
        walk_e(&mut copy.body, &mut |x: &mut Expr| self.rewrite(x, fns));
        self.new_fns[(id as usize) - self.base] = copy;
        if let Expr::Call { func, .. } = e {
            *func = id;
        }
    }
}

/// Folds one node whose children are already folded.
pub(super) fn fold(e: &mut Expr) {
    let c = |x: &Expr| {
        if let Expr::Const(v) = x {
            Some(*v)
        } else {
            None
        }
    };
    let folded = match e {
        Expr::Neg(a) => c(a).and_then(|v| ops::neg(v).ok()),
        Expr::Not(a) => c(a).map(ops::not),
        Expr::If(cond, a, b) => match c(cond) {
            Some(v) => {
                let taken = if v != 0 { a } else { b };
                *e = std::mem::replace(&mut **taken, Expr::Const(0));
                return;
            }
            None => None,
        },
        Expr::Bin(op, a, b) => match (c(a), c(b)) {
            (Some(x), Some(y)) => ops::fold(*op, x, y),
            // The right side of a decided connective is never evaluated.
            (Some(0), _) if *op == BinOp::And => Some(0),
            (Some(x), _) if *op == BinOp::Or && x != 0 => Some(1),
            // A connective whose left side leaves it to the right side is
            // the right side (a `bool`, so its own truth value).
            (Some(x), _)
                if (*op == BinOp::And) == (x != 0) && matches!(op, BinOp::And | BinOp::Or) =>
            {
                *e = std::mem::replace(&mut **b, Expr::Const(0));
                return;
            }
            // A left side that cannot fail and has no effect may go.
            (_, Some(0)) if *op == BinOp::And && quiet(a) => Some(0),
            (_, Some(y)) if *op == BinOp::Or && y != 0 && quiet(a) => Some(1),
            // Adding zero cannot overflow.
            (_, Some(0)) if matches!(op, BinOp::Add | BinOp::Sub) => {
                *e = std::mem::replace(&mut **a, Expr::Const(0));
                return;
            }
            (Some(0), _) if *op == BinOp::Add => {
                *e = std::mem::replace(&mut **b, Expr::Const(0));
                return;
            }
            _ => None,
        },
        _ => None,
    };
    if let Some(v) = folded {
        *e = Expr::Const(v);
    }
}

/// Whether evaluating `e` can neither fail nor have an effect: constants,
/// locals, plain variables and comparisons and connectives of them (also
/// what `searches.rs` may skip before a listing's test).
pub(super) fn quiet(e: &Expr) -> bool {
    match e {
        Expr::Const(_) | Expr::Local(_) | Expr::Var(_, None) => true,
        Expr::Not(a) => quiet(a),
        Expr::Bin(
            BinOp::Eq
            | BinOp::Ne
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge
            | BinOp::And
            | BinOp::Or,
            a,
            b,
        ) => quiet(a) && quiet(b),
        _ => false,
    }
}

/// Settles `x == none` and `x != none` for the element `x` of every
/// aggregate, filter, map, `distinct` and `sorted` over a collection that
/// never holds `none` ([`never_none`]), in the body that binds it.
struct NeverNone;

impl Visit for NeverNone {
    fn expr(&mut self, e: &mut Expr) {
        if let Expr::Agg {
            coll,
            slot,
            body: Some(b),
            ..
        } = e
        {
            if never_none(coll) {
                settle(b, *slot);
            }
        }
    }

    fn coll(&mut self, c: &mut Coll) {
        if let Coll::Filter(inner, slot, body)
        | Coll::Map(inner, slot, body)
        | Coll::Distinct(inner, slot, body)
        | Coll::Sorted(inner, slot, body) = c
        {
            if never_none(inner) {
                settle(body, *slot);
            }
        }
    }
}

/// Whether no element of `c` is ever `none`: nodes, edges, pieces and
/// seats are numbered from 0, and `none` is [`NONE`].
pub(crate) fn never_none(c: &Coll) -> bool {
    match c {
        Coll::Zone(_)
        | Coll::Players
        | Coll::PlayersFrom(_)
        | Coll::Opponents(_)
        | Coll::Nodes
        | Coll::Edges
        | Coll::Successors(_)
        | Coll::Predecessors(_)
        | Coll::Neighbors(_)
        | Coll::EdgesOf(_)
        | Coll::NodesWithAttr(..)
        | Coll::WhereZones(..)
        | Coll::ZonesOwned { .. } => true,
        Coll::Filter(inner, ..) => never_none(inner),
        _ => false,
    }
}

/// Replaces each comparison of local `slot` with `none` in `e` by its answer.
fn settle(e: &mut Expr, slot: u16) {
    walk_e(e, &mut |x: &mut Expr| {
        if let Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b) = x {
            let element = |y: &Expr| matches!(y, Expr::Local(s) if *s == slot);
            let none = |y: &Expr| matches!(y, Expr::Const(NONE));
            if (element(a) && none(b)) || (none(a) && element(b)) {
                *x = Expr::Const(Val::from(*op == BinOp::Ne));
            }
        }
    });
}
