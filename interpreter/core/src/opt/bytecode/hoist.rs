//! Loop-invariant values computed before the loop. A value a loop holds
//! (`memo.rs`: plain reads and arithmetic that read nothing the loop binds)
//! is computed where the loop first reaches it and read back after, one
//! [`BOp::HoldGet`] per element: the computation must stay where the rules
//! put it because it may fail (an attribute of `none`, an overflow), and
//! then it must fail where the tree fails. A value that *cannot* fail has
//! nothing to keep in place: it charges no step and reads nothing hidden,
//! so computing it once before the loop's first element changes nothing a
//! match shows, and each element reads its register with no operation at
//! all. Breakthrough's `dst.row == src.row + forward(actor)`, tested for
//! every neighbour `dst` of `src`, becomes one comparison of two registers
//! per neighbour.
//!
//! A value cannot fail ([`Comp::sure`]) when every read in it is of
//! something that is never `none` (a constant, a loop's element over a
//! collection that never holds `none`, an action's parameter drawn from
//! one, the actor), and its arithmetic cannot overflow: the range of each
//! part is known (a board attribute's from the board, a constant's, a
//! comparison's), and a sum, difference or product of ranges that stays
//! within 64 bits cannot overflow. Division is left alone.
//!
//! The price: a value is computed once per start of the loop even when no
//! element reaches it (an empty loop, a test the elements fail before it).
//! It is a few operations, and only values worth [`HOIST_WORTH`] are taken.

use super::comp::Comp;
use crate::ast::BinOp;
use crate::ir::walk::walk_e;
use crate::ir::*;

/// The fewest operations a value must take to be computed before its
/// loop: a value of one read is computed once per start of the loop, and
/// each element that reaches it saves one operation.
const HOIST_WORTH: u32 = 1;

/// The values an integer expression may take, as a closed range wide
/// enough for the sums and products of two 64-bit ranges.
#[derive(Clone, Copy)]
pub(super) struct Range {
    lo: i128,
    hi: i128,
}

impl Range {
    const ANY: Range = Range {
        lo: Val::MIN as i128,
        hi: Val::MAX as i128,
    };
    const TRUTH: Range = Range { lo: 0, hi: 1 };

    fn of(lo: i128, hi: i128) -> Option<Range> {
        (lo >= Val::MIN as i128 && hi <= Val::MAX as i128).then_some(Range { lo, hi })
    }

    /// Never `none`: no entity is numbered below 0.
    fn some(self) -> bool {
        self.lo >= 0
    }

    fn union(self, o: Range) -> Range {
        Range {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }

    /// The range of `self op o` when it cannot overflow.
    fn arith(self, op: BinOp, o: Range) -> Option<Range> {
        match op {
            BinOp::Add => Range::of(self.lo + o.lo, self.hi + o.hi),
            BinOp::Sub => Range::of(self.lo - o.hi, self.hi - o.lo),
            BinOp::Mul => {
                let p = [
                    self.lo * o.lo,
                    self.lo * o.hi,
                    self.hi * o.lo,
                    self.hi * o.hi,
                ];
                Range::of(*p.iter().min()?, *p.iter().max()?)
            }
            _ => None,
        }
    }
}

/// The range of a board attribute's values (`none` among them if some
/// element lacks a value).
fn column(vals: &[Val]) -> Range {
    let lo = vals.iter().min().copied().unwrap_or(0) as i128;
    let hi = vals.iter().max().copied().unwrap_or(0) as i128;
    Range { lo, hi }
}

/// Whether `a` and `b` are the same value of plain reads and arithmetic
/// (the forms [`super::memo::cheap_ops`] accepts).
pub(super) fn same(a: &Expr, b: &Expr) -> bool {
    use Expr as E;
    match (a, b) {
        (E::Const(x), E::Const(y)) => x == y,
        (E::Local(x), E::Local(y)) => x == y,
        (E::Var(v, i), E::Var(w, j)) => {
            v == w
                && match (i, j) {
                    (None, None) => true,
                    (Some(i), Some(j)) => same(i, j),
                    _ => false,
                }
        }
        (E::Owner(x), E::Owner(y))
        | (E::EdgeFrom(x), E::EdgeFrom(y))
        | (E::EdgeTo(x), E::EdgeTo(y))
        | (E::Neg(x), E::Neg(y))
        | (E::Not(x), E::Not(y)) => same(x, y),
        (E::NodeAttr(i, x), E::NodeAttr(j, y)) | (E::EdgeAttr(i, x), E::EdgeAttr(j, y)) => {
            i == j && same(x, y)
        }
        (E::In(x, c), E::In(y, d)) => {
            matches!(**c, Coll::Players) && matches!(**d, Coll::Players) && same(x, y)
        }
        (E::Bin(o, x, y), E::Bin(p, z, w)) => o == p && same(x, z) && same(y, w),
        (E::If(c, x, y), E::If(d, z, w)) => same(c, d) && same(x, z) && same(y, w),
        _ => false,
    }
}

/// Whether `outer` has `inner` among its parts (or is it).
fn contains(outer: &Expr, inner: &Expr) -> bool {
    let mut found = false;
    walk_e(&mut outer.clone(), &mut |x: &mut Expr| {
        found |= same(x, inner)
    });
    found
}

impl Comp<'_> {
    /// The range of `e`'s values when computing it cannot fail (see the
    /// module's text); `None` when it may, or is not plain reads and
    /// arithmetic.
    pub(super) fn sure(&self, e: &Expr) -> Option<Range> {
        let some = |a: &Expr| self.sure(a).filter(|r| r.some());
        Some(match e {
            Expr::Const(v) => Range {
                lo: *v as i128,
                hi: *v as i128,
            },
            Expr::Local(s) if self.sure_locals.contains(s) => Range {
                lo: 0,
                hi: Val::MAX as i128,
            },
            Expr::Local(_) => Range::ANY,
            Expr::Var(_, None) => Range::ANY,
            Expr::Var(_, Some(i)) => {
                some(i)?;
                Range::ANY
            }
            Expr::NodeAttr(a, n) => {
                some(n)?;
                column(&self.g.node_attrs.get(*a as usize)?.2)
            }
            Expr::EdgeAttr(a, x) => {
                some(x)?;
                column(&self.g.edge_attrs.get(*a as usize)?.2)
            }
            Expr::EdgeFrom(x) | Expr::EdgeTo(x) => {
                some(x)?;
                Range {
                    lo: 0,
                    hi: self.g.board.nodes.len() as i128,
                }
            }
            Expr::Owner(x) => {
                some(x)?;
                Range::ANY
            }
            Expr::Neg(a) => {
                let r = self.sure(a)?;
                Range::of(-r.hi, -r.lo)?
            }
            Expr::Not(a) => {
                self.sure(a)?;
                Range::TRUTH
            }
            Expr::In(a, c) if matches!(**c, Coll::Players) => {
                self.sure(a)?;
                Range::TRUTH
            }
            Expr::Bin(op, a, b) => {
                let (x, y) = (self.sure(a)?, self.sure(b)?);
                match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul => x.arith(*op, y)?,
                    BinOp::Div | BinOp::Rem | BinOp::In => return None,
                    _ => Range::TRUTH,
                }
            }
            Expr::If(c, a, b) => {
                self.sure(c)?;
                self.sure(a)?.union(self.sure(b)?)
            }
            _ => return None,
        })
    }

    /// Computes, here, before a loop whose locals `varying` are bound, the
    /// outermost values of `exprs` that the loop may compute once
    /// ([`HOIST_WORTH`] operations or more of plain reads and arithmetic,
    /// pure, reading nothing the loop binds, and sure not to fail): each
    /// with its register, which nothing else takes while the loop is
    /// compiled.
    pub(super) fn hoist(&mut self, exprs: &[&Expr], varying: &[u16]) -> Vec<(Expr, Reg)> {
        let mut found: Vec<Expr> = vec![];
        for e in exprs {
            walk_e(&mut (*e).clone(), &mut |x: &mut Expr| {
                let worth = super::memo::cheap_ops(x).is_some_and(|n| n >= HOIST_WORTH);
                if worth
                    && self.invariant(x, varying)
                    && self.sure(x).is_some()
                    && !found.iter().any(|f| contains(f, x))
                {
                    // Parts come first: those of this value go with it.
                    found.retain(|f| !contains(x, f));
                    found.push(x.clone());
                }
            });
        }
        found
            .into_iter()
            .map(|e| {
                let r = self.temp();
                self.into(&e, r, CALLER_SPAN);
                self.next = r as u32 + 1;
                (e, r)
            })
            .collect()
    }

    /// The register of `e` if a loop being compiled computed it before its
    /// first element ([`Comp::hoist`]).
    pub(super) fn hoisted(&self, e: &Expr) -> Option<Reg> {
        if matches!(e, Expr::Const(_) | Expr::Local(_)) {
            return None;
        }
        self.memos[self.memo_floor..]
            .iter()
            .filter(|l| l.live)
            .flat_map(|l| &l.hoisted)
            .find(|(h, _)| same(h, e))
            .map(|(_, r)| *r)
    }
}

/// `e` with each of the values `hoisted` replaced by a constant: what is
/// left for the loop to hold (`memo.rs`), which then takes no registers
/// for them.
pub(super) fn without(e: &Expr, hoisted: &[(Expr, Reg)]) -> Expr {
    let mut e = e.clone();
    if !hoisted.is_empty() {
        walk_e(&mut e, &mut |x: &mut Expr| {
            if hoisted.iter().any(|(h, _)| same(h, x)) {
                *x = Expr::Const(0);
            }
        });
    }
    e
}
