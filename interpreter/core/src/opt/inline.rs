//! Inlining: a call to a small pure function whose arguments are simple
//! (constants, locals, global variables) is replaced by the function's body
//! with the arguments substituted. This removes the call frame from the
//! hottest expressions (`free(c)` in a filter over every node) without
//! changing meaning: the substituted arguments have no effects and are
//! cheap to evaluate twice.

use crate::ir::walk::{walk_e, walk_game, Visit};
use crate::ir::*;
use crate::limits::MAX_INLINED_SIZE;
use std::cell::Cell;

/// Inlines calls everywhere in the game, to a fixed depth and within a
/// size budget: each function body and each other root may receive at most
/// [`MAX_INLINED_SIZE`] pasted expression nodes, so that calls nested in
/// calls cannot grow the game exponentially; beyond it, calls stay calls.
/// Function bodies come first, so that callers paste already simplified
/// bodies.
/// With `tables` (the `fn-tables` pass on), calls of functions that read
/// `distance` and will have a table stay calls: the table answers in one
/// read what the body takes several to compute.
pub(super) fn run(g: &mut Game, tables: bool) {
    let budget = Cell::new(0);
    let tab: Vec<bool> = match tables {
        true => super::fn_tables::tabulatable(g)
            .into_iter()
            .zip(&g.fns)
            .map(|(t, f)| t && reads_distance(&f.body))
            .collect(),
        false => vec![false; g.fns.len()],
    };
    let first: Vec<FnDecl> = g.fns.clone();
    for fd in g.fns.iter_mut() {
        budget.set(MAX_INLINED_SIZE);
        walk_e(&mut fd.body, &mut |e: &mut Expr| {
            inline_call(e, &first, &tab, 0, &budget)
        });
    }
    let fns: Vec<FnDecl> = g.fns.clone();
    let mut v = Inliner {
        fns: &fns,
        tab: &tab,
        budget: &budget,
    };
    let saved = std::mem::take(&mut g.fns);
    walk_game(g, &mut v);
    g.fns = saved;
}

struct Inliner<'a> {
    fns: &'a [FnDecl],
    tab: &'a [bool],
    budget: &'a Cell<usize>,
}

impl Visit for Inliner<'_> {
    fn expr(&mut self, e: &mut Expr) {
        inline_call(e, self.fns, self.tab, 0, self.budget);
    }
    fn root(&mut self) {
        self.budget.set(MAX_INLINED_SIZE);
    }
}

pub(super) fn simple(e: &Expr) -> bool {
    matches!(e, Expr::Const(_) | Expr::Local(_) | Expr::Var(_, None))
}

fn inline_call(e: &mut Expr, fns: &[FnDecl], tab: &[bool], depth: u32, budget: &Cell<usize>) {
    let Expr::Call { func, args, .. } = e else {
        return;
    };
    let f = &fns[*func as usize];
    // Only bodies with no locals of their own can be pasted into the
    // caller's frame without renumbering: an aggregate binding a name (`x
    // in C`) writes a slot that is one of the caller's there, even when it
    // never reads the name (`sum(x in C: 1)`). A function `tab` marks
    // stays a call, read from its table (see `run`).
    if depth > 6
        || tab[*func as usize]
        || !args.iter().all(simple)
        || binds_names(&f.body)
        || !reads_only_params(&f.body, f.nparams)
    {
        return;
    }
    let mut body = f.body.clone();
    let mut size = 0usize;
    walk_e(&mut body, &mut |_: &mut Expr| size += 1);
    if size > budget.get() {
        return;
    }
    budget.set(budget.get() - size);
    substitute(&mut body, args);
    walk_e(&mut body, &mut |x: &mut Expr| {
        inline_call(x, fns, tab, depth + 1, budget)
    });
    *e = body;
}

/// Whether an expression calls `distance` (not through another function).
fn reads_distance(e: &Expr) -> bool {
    let mut found = false;
    walk_e(&mut e.clone(), &mut |x: &mut Expr| {
        found |= matches!(x, Expr::Builtin(Builtin::Distance, ..))
    });
    found
}

/// Whether an expression binds a name in a slot of its frame: an
/// aggregate's element, or the element of a `where`, `list`, `distinct`
/// or `sorted`, or the area of a `subsets`.
fn binds_names(e: &Expr) -> bool {
    struct Binds(bool);
    impl Visit for Binds {
        fn expr(&mut self, e: &mut Expr) {
            self.0 |= matches!(e, Expr::Agg { .. });
        }
        fn coll(&mut self, c: &mut Coll) {
            self.0 |= matches!(
                c,
                Coll::Filter(..)
                    | Coll::Map(..)
                    | Coll::Distinct(..)
                    | Coll::Sorted(..)
                    | Coll::Subsets { .. }
            );
        }
    }
    let mut b = Binds(false);
    walk_e(&mut e.clone(), &mut b);
    b.0
}

pub(super) fn reads_only_params(body: &Expr, nparams: u16) -> bool {
    let mut ok = true;
    crate::ir::walk::visit_locals(body, &mut |s| ok &= s < nparams);
    ok
}

pub(super) fn substitute(e: &mut Expr, args: &[Expr]) {
    walk_e(e, &mut |x: &mut Expr| {
        if let Expr::Local(s) = x {
            *x = args[*s as usize].clone();
        }
    });
}
