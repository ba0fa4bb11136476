//! E0276: an index into a constant table (`const t = [a, b, …]`, `t[i]`)
//! that can leave the table's 1..len. Each index is bounded by a small
//! interval analysis over the lowered expression: literals and constants,
//! `+ - *`, `if` (a condition known at check time picks its branch),
//! `min`/`max` of two, `count` (at least 0) and calls of functions, whose
//! bodies are analysed with their arguments' intervals (enumeration members
//! passed as constants decide `if a == x then 5 else 6`). Parameters,
//! variables and options are unknown.
//!
//! Each bound also says whether it is *sure*: a value the expression takes
//! when its unknown inputs take values they can (a literal, a constant, `count`
//! of an empty zone, the sure bounds of the operands). Only a sure bound outside
//! the table is reported: an over-approximated bound (a `count` has no useful
//! upper one) would flag correct rules, such as `t[6 - count(z)]` of a table of
//! 6 where the zone never holds more than 5 pieces.

use super::context::Checker;
use super::err;
use crate::diag::Span;
use crate::ir::*;

/// A table read recorded while checking: the index as lowered, where it is
/// written, and the table (a constant list).
pub(super) struct TableRead {
    pub index: Expr,
    pub span: Span,
    pub list: u32,
    pub name: String,
    pub decl: Span,
}

/// An interval of integers, each bound with whether it is sure (see above).
#[derive(Clone, Copy, Debug)]
struct Iv {
    lo: i64,
    hi: i64,
    lo_sure: bool,
    hi_sure: bool,
}

impl Iv {
    fn exact(v: i64) -> Iv {
        Iv {
            lo: v,
            hi: v,
            lo_sure: true,
            hi_sure: true,
        }
    }

    fn single(self) -> Option<i64> {
        (self.lo == self.hi && self.lo_sure && self.hi_sure).then_some(self.lo)
    }

    /// Either of two values (the branches of an `if` whose condition is not known).
    fn union(a: Iv, b: Iv) -> Iv {
        let (lo, lo_sure) = pick(a.lo, a.lo_sure, b.lo, b.lo_sure, |x, y| x < y);
        let (hi, hi_sure) = pick(a.hi, a.hi_sure, b.hi, b.hi_sure, |x, y| x > y);
        Iv {
            lo,
            hi,
            lo_sure,
            hi_sure,
        }
    }
}

/// The more extreme of two bounds by `beyond`, with its sureness (either's, when equal).
fn pick(a: i64, a_sure: bool, b: i64, b_sure: bool, beyond: fn(i64, i64) -> bool) -> (i64, bool) {
    if beyond(a, b) {
        (a, a_sure)
    } else if beyond(b, a) {
        (b, b_sure)
    } else {
        (a, a_sure || b_sure)
    }
}

/// How deep calls are followed before a call's value is unknown.
const MAX_CALL_DEPTH: usize = 16;

impl Checker {
    /// E0276 for each recorded table read whose index can leave the table.
    pub(super) fn table_ranges(&mut self, reads: Vec<TableRead>) {
        for r in reads {
            let len = self.g.lists[r.list as usize].len() as i64;
            let Some(iv) = eval(&self.g, &r.index, &[], 0) else {
                continue;
            };
            let bad = if iv.hi_sure && iv.hi > len {
                Some(iv.hi)
            } else if iv.lo_sure && iv.lo < 1 {
                Some(iv.lo)
            } else {
                None
            };
            let Some(v) = bad else {
                continue;
            };
            let d = err(
                "E0276",
                r.span,
                format!("this index can be {v}, but `{}` has {len} entries", r.name),
                format!("can be {v}"),
            )
            .at(r.decl, format!("{len} entries"))
            .help(format!(
                "a table is indexed from 1 to its length: give `{}` an entry for every value the index can take, or keep the index within 1..{len}",
                r.name
            ));
            self.error(d);
        }
    }
}

/// The interval of `e` with the locals `env` (a function's arguments; a
/// slot past them, or `None`, is unknown), or `None` when nothing is known.
fn eval(g: &Game, e: &Expr, env: &[Option<Iv>], depth: usize) -> Option<Iv> {
    let ev = |x: &Expr| eval(g, x, env, depth);
    match e {
        Expr::Const(v) => Some(Iv::exact(*v)),
        Expr::Local(s) => env.get(*s as usize).copied().flatten(),
        Expr::Neg(a) => {
            let a = ev(a)?;
            Some(Iv {
                lo: a.hi.checked_neg()?,
                hi: a.lo.checked_neg()?,
                lo_sure: a.hi_sure,
                hi_sure: a.lo_sure,
            })
        }
        Expr::Bin(op, a, b) => {
            let (a, b) = (ev(a)?, ev(b)?);
            if let (Some(x), Some(y)) = (a.single(), b.single()) {
                return crate::ops::fold(*op, x, y).map(Iv::exact);
            }
            match op {
                crate::ast::BinOp::Add => Some(Iv {
                    lo: a.lo.checked_add(b.lo)?,
                    hi: a.hi.checked_add(b.hi)?,
                    lo_sure: a.lo_sure && b.lo_sure,
                    hi_sure: a.hi_sure && b.hi_sure,
                }),
                crate::ast::BinOp::Sub => Some(Iv {
                    lo: a.lo.checked_sub(b.hi)?,
                    hi: a.hi.checked_sub(b.lo)?,
                    lo_sure: a.lo_sure && b.hi_sure,
                    hi_sure: a.hi_sure && b.lo_sure,
                }),
                crate::ast::BinOp::Mul => {
                    let corners = [
                        (a.lo, a.lo_sure, b.lo, b.lo_sure),
                        (a.lo, a.lo_sure, b.hi, b.hi_sure),
                        (a.hi, a.hi_sure, b.lo, b.lo_sure),
                        (a.hi, a.hi_sure, b.hi, b.hi_sure),
                    ];
                    let mut out: Option<Iv> = None;
                    for (x, xs, y, ys) in corners {
                        let c = Iv {
                            lo: x.checked_mul(y)?,
                            hi: x.checked_mul(y)?,
                            lo_sure: xs && ys,
                            hi_sure: xs && ys,
                        };
                        out = Some(out.map_or(c, |o| Iv::union(o, c)));
                    }
                    out
                }
                _ => None,
            }
        }
        Expr::If(c, a, b) => match ev(c).and_then(Iv::single) {
            Some(0) => ev(b),
            Some(_) => ev(a),
            None => Some(Iv::union(ev(a)?, ev(b)?)),
        },
        Expr::Builtin(op @ (Builtin::Min2 | Builtin::Max2), args, None, _) if args.len() == 2 => {
            let (a, b) = (ev(&args[0])?, ev(&args[1])?);
            let both = |f: fn(i64, i64) -> i64, x: i64, y: i64| f(x, y);
            let f: fn(i64, i64) -> i64 = if *op == Builtin::Min2 {
                i64::min
            } else {
                i64::max
            };
            Some(Iv {
                lo: both(f, a.lo, b.lo),
                hi: both(f, a.hi, b.hi),
                lo_sure: a.lo_sure && b.lo_sure,
                hi_sure: a.hi_sure && b.hi_sure,
            })
        }
        // A count is at least 0 (the collection may be empty); it has no
        // sure upper bound.
        Expr::Builtin(Builtin::Count, _, Some(_), _)
        | Expr::Agg {
            op: AggOp::Count, ..
        } => Some(Iv {
            lo: 0,
            hi: i64::MAX,
            lo_sure: true,
            hi_sure: false,
        }),
        Expr::Call { func, args, .. } if depth < MAX_CALL_DEPTH => {
            let f = g.fns.get(*func as usize)?;
            let env: Vec<Option<Iv>> = args.iter().map(ev).collect();
            eval(g, &f.body, &env, depth + 1)
        }
        _ => None,
    }
}
