//! Board indexes: tests of a node's board attributes against values that do
//! not depend on the node are answered from tables built at check time
//! instead of by testing every node.
//!
//! - `nodes where ATTR == x [and rest]`, and `any`/`count`/`first` over all
//!   nodes whose test starts with `c.ATTR == x`, read the attribute's sorted
//!   index (`Coll::NodesWithAttr`): only the nodes with that value are
//!   visited, in board order, as before.
//! - `first(C where ATTR1 == x and ATTR2 == y …)` where the attributes
//!   together name at most one node of the board (a grid's `row` and `col`)
//!   becomes a key lookup (`Expr::NodeByKey`, a table in `Game::keys`)
//!   followed by a membership test in `C`.
//!
//! Values compared must be free of `random` and calls, so that computing
//! them once instead of once per node changes nothing; the key lookup keeps
//! the original search as its fallback for values that fail to compute (a
//! `none` dereferenced), so that errors stay as they were.

use crate::ast::BinOp;
use crate::ir::walk::{visit_locals, walk_game, Visit};
use crate::ir::*;

pub(super) fn run(g: &mut Game) {
    if g.board.nodes.is_empty() {
        return;
    }
    let attrs: Vec<Vec<Val>> = g.node_attrs.iter().map(|a| a.2.clone()).collect();
    let mut v = Indexer {
        attrs,
        keys: std::mem::take(&mut g.keys),
    };
    walk_game(g, &mut v);
    g.keys = v.keys;
}

struct Indexer {
    attrs: Vec<Vec<Val>>,
    keys: Vec<KeyTable>,
}

impl Visit for Indexer {
    fn expr(&mut self, e: &mut Expr) {
        self.key_lookup(e);
        index_agg(e);
    }
    fn coll(&mut self, c: &mut Coll) {
        index_filter(c);
    }
}

/// The conjuncts of `a and b and …`, in evaluation order.
fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::Bin(BinOp::And, a, b) => {
            let mut v = conjuncts(a);
            v.extend(conjuncts(b));
            v
        }
        _ => vec![e],
    }
}

/// `it.ATTR == x` or `x == it.ATTR`, with `x` pure and not reading `it`.
fn attr_eq(e: &Expr, slot: u16) -> Option<(u16, Expr)> {
    let Expr::Bin(BinOp::Eq, a, b) = e else {
        return None;
    };
    match (&**a, &**b) {
        (Expr::NodeAttr(i, n), rhs) | (rhs, Expr::NodeAttr(i, n))
            if matches!(**n, Expr::Local(s) if s == slot) && independent(rhs, slot) =>
        {
            Some((*i, rhs.clone()))
        }
        _ => None,
    }
}

/// Whether `x` reads neither the bound element nor anything that may draw
/// randomness or run without bound (calls, aggregates, builtins).
fn independent(x: &Expr, slot: u16) -> bool {
    let mut reads = false;
    visit_locals(x, &mut |s| reads |= s == slot);
    !reads && simple(x)
}

fn simple(x: &Expr) -> bool {
    match x {
        Expr::Const(_) | Expr::Local(_) => true,
        Expr::Var(_, i) => i.as_deref().is_none_or(simple),
        Expr::NodeAttr(_, a)
        | Expr::EdgeAttr(_, a)
        | Expr::Owner(a)
        | Expr::Neg(a)
        | Expr::Not(a)
        | Expr::EdgeFrom(a)
        | Expr::EdgeTo(a) => simple(a),
        Expr::Bin(_, a, b) => simple(a) && simple(b),
        Expr::If(c, a, b) => simple(c) && simple(a) && simple(b),
        _ => false,
    }
}

/// The rest of a conjunction after its first conjunct, or `None` if there is none.
fn rest_of(cond: &Expr) -> Option<Expr> {
    match cond {
        Expr::Bin(BinOp::And, _, b) => Some((**b).clone()),
        _ => None,
    }
}

/// The first conjunct of `cond` as an attribute test, and the rest.
fn leading_attr_eq(cond: &Expr, slot: u16) -> Option<((u16, Expr), Option<Expr>)> {
    let first = match cond {
        Expr::Bin(BinOp::And, a, _) => &**a,
        _ => cond,
    };
    Some((attr_eq(first, slot)?, rest_of(cond)))
}

/// `nodes where ATTR == x [and rest]` → the nodes with that value [where rest].
fn index_filter(c: &mut Coll) {
    let Coll::Filter(inner, slot, cond) = c else {
        return;
    };
    if !matches!(**inner, Coll::Nodes) {
        return;
    }
    let Some(((i, x), rest)) = leading_attr_eq(cond, *slot) else {
        return;
    };
    *c = match rest {
        None => Coll::NodesWithAttr(i, x),
        Some(r) => Coll::Filter(Box::new(Coll::NodesWithAttr(i, x)), *slot, r),
    };
}

/// `any`, `count` and `first` over all nodes whose test starts with an
/// attribute test visit only the nodes with that value. (`all` does not:
/// the other nodes would make it false.)
fn index_agg(e: &mut Expr) {
    let Expr::Agg {
        op: AggOp::Any | AggOp::Count | AggOp::First,
        coll,
        slot,
        body: Some(body),
    } = e
    else {
        return;
    };
    if !matches!(**coll, Coll::Nodes) {
        return;
    }
    let Some(((i, x), rest)) = leading_attr_eq(body, *slot) else {
        return;
    };
    **coll = Coll::NodesWithAttr(i, x);
    **body = rest.unwrap_or(Expr::Const(1));
}

impl Indexer {
    /// `first(C where A == x and B == y …)` over node collections, where
    /// the attributes are a key of the board.
    fn key_lookup(&mut self, e: &mut Expr) {
        let Expr::Agg {
            op: AggOp::First,
            coll,
            slot,
            body: Some(body),
        } = e
        else {
            return;
        };
        if !matches!(
            **coll,
            Coll::Nodes | Coll::Neighbors(_) | Coll::Successors(_) | Coll::Predecessors(_)
        ) {
            return;
        }
        let mut attrs = vec![];
        let mut vals = vec![];
        for c in conjuncts(body) {
            let Some((i, x)) = attr_eq(c, *slot) else {
                return;
            };
            if attrs.contains(&i) {
                return;
            }
            attrs.push(i);
            vals.push(x);
        }
        // More than `MAX_KEY_ATTRS` attributes are no key: no table has
        // them, and `KeyTable::build` refuses to make one.
        let key = match self.keys.iter().position(|k| k.attrs == attrs) {
            Some(k) => k,
            None => match KeyTable::build(&attrs, &self.attrs) {
                Some(t) => {
                    self.keys.push(t);
                    self.keys.len() - 1
                }
                None => return,
            },
        };
        let fallback = e.clone();
        let Expr::Agg { coll, .. } = e else {
            unreachable!()
        };
        let within = std::mem::replace(&mut **coll, Coll::Nodes);
        *e = Expr::NodeByKey {
            key: key as u16,
            vals,
            within: Box::new(within),
            fallback: Box::new(fallback),
        };
    }
}
