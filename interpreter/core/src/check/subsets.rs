//! `subsets(C)` and `subsets(C, lo..hi)`: a choice of several elements of
//! a collection in one decision, as an action parameter's domain or a
//! `choose`'s collection (nowhere else: E0295). The parameter (or the
//! chosen local) holds a mask over `C`'s elements, which the frame keeps in
//! an area of `1 + MAX_SUBSET_ELEMS` slots of its own (see
//! `eval/expr/subsets.rs`); every use of the name as a collection reads it.

use super::context::Checker;
use super::err;
use crate::ast::{self, ExprKind};
use crate::diag::Span;
use crate::ir::*;
use crate::limits::MAX_SUBSET_ELEMS;

impl Checker {
    /// `subsets(args…)` where a collection is expected; `allowed` when it is
    /// an action parameter's domain or a `choose`'s collection.
    pub(super) fn subsets(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        allowed: bool,
    ) -> (Coll, Ty) {
        if !allowed {
            self.error(
                err(
                    "E0295",
                    span,
                    "`subsets(…)` is a choice: only an action parameter's domain or a `choose`'s collection",
                    "not a domain",
                )
                .help("write `action NAME(x in subsets(C)) …` or `let x = choose p from subsets(C)`; to walk or count the elements of `C`, use `C` itself"),
            );
            return (Coll::List(vec![]), Ty::ERR);
        }
        if args.is_empty() || args.len() > 2 {
            self.error(
                err(
                    "E0244",
                    name.span,
                    format!(
                        "`subsets` takes a collection and perhaps its sizes, found {} arguments",
                        args.len()
                    ),
                    "wrong number of arguments",
                )
                .help("write `subsets(C)` or `subsets(C, lo..hi)`"),
            );
            return (Coll::List(vec![]), Ty::ERR);
        }
        let errors = self.errors.len();
        let (of, et) = self.coll(&args[0]);
        // Not a collection: the set is of erroneous values, so that using
        // its elements reports nothing more.
        let et = if self.errors.len() > errors {
            Ty::ERR
        } else {
            et
        };
        if et.list {
            self.error(
                err(
                    "E0295",
                    args[0].span,
                    "subsets of subsets are not supported",
                    "a subset",
                )
                .help("choose from the collection the subset was taken from"),
            );
        }
        let (lo, hi) = match args.get(1) {
            None => (Expr::Const(0), None),
            Some(b) => self.sizes(b),
        };
        if let Some(n) = known_len(&of).filter(|&n| n > MAX_SUBSET_ELEMS as i128) {
            self.error(
                err(
                    "E0297",
                    args[0].span,
                    format!("`subsets` of {n} elements: at most {MAX_SUBSET_ELEMS} can be chosen from"),
                    "too many elements",
                )
                .help("a subset is one 64-bit mask over the elements; narrow the collection with `where`"),
            );
        }
        let area = self.body.nlocals;
        self.body.nlocals = area.saturating_add(1 + MAX_SUBSET_ELEMS as u16);
        let pieces = matches!(et.scalar, Scalar::Piece(_));
        let of = Box::new(of);
        let c = Coll::Subsets {
            of,
            lo,
            hi,
            area,
            pieces,
        };
        let ty = if et == Ty::ERR {
            Ty::ERR
        } else {
            Ty::list_of(et.scalar)
        };
        (c, ty)
    }

    /// The sizes `lo..hi` of `subsets(C, lo..hi)`, checked when constant.
    fn sizes(&mut self, b: &ast::Expr) -> (Expr, Option<Expr>) {
        let ExprKind::Range(l, h) = &b.kind else {
            self.error(
                err("E0296", b.span, "the sizes of `subsets` are a range `lo..hi`", "not a range")
                    .help("write `subsets(C, 2..3)` for two or three elements; `subsets(C)` allows every size"),
            );
            return (Expr::Const(0), None);
        };
        let (lo, lt) = self.expr(l);
        let (hi, ht) = self.expr(h);
        self.expect(lt, Ty::INT, l.span);
        self.expect(ht, Ty::INT, h.span);
        let bad = match (&lo, &hi) {
            (Expr::Const(a), _) if *a < 0 => Some(format!("a size of {a}")),
            (_, Expr::Const(z)) if *z < 0 => Some(format!("a size of {z}")),
            (Expr::Const(a), Expr::Const(z)) if z < a => Some(format!("sizes {a}..{z}")),
            _ => None,
        };
        if let Some(what) = bad {
            self.error(
                err("E0296", b.span, format!("`subsets` with {what}: no subset has it"), "impossible sizes")
                    .help("a size is 0 or more, and the first bound is at most the second (`subsets(C, 1..3)`)"),
            );
        }
        (lo, Some(hi))
    }

    /// The area where the subsets a list-typed local names are read, if it
    /// holds one (a `subsets(…)` parameter, `it` of its `where`, a choice).
    pub(super) fn area_of(&self, x: &Expr) -> Option<u16> {
        let Expr::Local(slot) = x else {
            return None;
        };
        self.body
            .areas
            .iter()
            .rev()
            .find(|(s, _)| s == slot)
            .map(|&(_, a)| a)
    }

    /// A list-typed value used as a collection: the subset's elements, or
    /// E0295 for a value that is no longer tied to its `subsets(…)`.
    pub(super) fn subset_coll(&mut self, x: Expr, t: Ty, span: Span) -> (Coll, Ty) {
        match self.area_of(&x) {
            Some(area) => (Coll::Subset(x, area), t.elem()),
            None => {
                self.error(
                    err(
                        "E0295",
                        span,
                        "a subset is read through the name its `subsets(…)` choice gave it",
                        "a copy of a subset",
                    )
                    .help("use the action's parameter or the `choose`'s name itself"),
                );
                (Coll::List(vec![]), Ty::ERR)
            }
        }
    }
}

/// The number of elements of a collection known before the game starts.
fn known_len(c: &Coll) -> Option<i128> {
    match c {
        Coll::List(es) => Some(es.len() as i128),
        Coll::Range(Expr::Const(a), Expr::Const(b)) => Some((*b as i128 - *a as i128 + 1).max(0)),
        _ => None,
    }
}
