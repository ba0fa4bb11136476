//! Sets of nodes or edges (the types `nodes` and `edges`) and
//! `components(C)`: where a set may be written, how a collection becomes
//! one, and the operators on sets, lowered to `Builtin::Set`.
//!
//! A set lives only while the expression that uses it is evaluated (its
//! words lie on the executor's scratch stack, `eval/expr/sets.rs`), so the
//! checker keeps it there: a `fn`'s parameters and result may be sets, and
//! nothing that outlasts an expression may hold one (a variable, a field, a
//! procedure's parameter, a `let`, a list, a label), E0255. Every call of a
//! function that takes or returns a set is wrapped in `SetOp::Drop` or
//! `SetOp::Keep`, which give back the stack its arguments took.

use super::context::Checker;
use super::err;
use crate::ast::{self, BinOp, ExprKind, TypeRef};
use crate::diag::Span;
use crate::ir::*;

/// The element type of a set of `on`.
pub(super) fn elem_of(on: Elems) -> Ty {
    match on {
        Elems::Nodes => Ty::NODE,
        Elems::Edges => Ty::EDGE,
    }
}

/// What a set of `on` is called in messages: its type as written.
fn set_word(on: Elems) -> &'static str {
    match on {
        Elems::Nodes => "nodes",
        Elems::Edges => "edges",
    }
}

/// The span of a written type, for errors about it.
pub(super) fn type_span(t: &TypeRef) -> Span {
    match t {
        TypeRef::Named(id) => id.span,
        TypeRef::ZoneOf(_, s) | TypeRef::List(_, s) => *s,
    }
}

impl Checker {
    /// E0255 when `ty` is a set: `what` is the place that cannot hold one
    /// ("a variable", "a procedure's parameter", …). Returns whether it was.
    pub(super) fn no_set(&mut self, ty: Ty, span: Span, what: &str) -> bool {
        let Scalar::Set(on) = ty.scalar else {
            return false;
        };
        let word = set_word(on);
        let d = err(
            "E0255",
            span,
            format!("{what} cannot hold a set of {word}"),
            format!("a set of {word}"),
        )
        .help(format!(
            "a set lives only inside an expression: pass it to a `fn` (whose parameters and result may be `{word}`), or keep what you need of it, e.g. `count(…)`"
        ));
        self.error(d);
        true
    }

    /// Whether `e` is written as a collection, not as one value.
    fn is_coll_syntax(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            ExprKind::Name(n) if self.lookup_local(&n.name).is_none() => {
                matches!(n.name.as_str(), "nodes" | "edges")
                    || matches!(self.global_sym(&n.name), Some(Sym::List(..) | Sym::Enum(_)))
            }
            ExprKind::List(_) | ExprKind::Range(..) | ExprKind::Where(..) => true,
            ExprKind::Agg { func, .. } => {
                matches!(func.name.as_str(), "distinct" | "list" | "sorted")
            }
            ExprKind::Call(name, _) => {
                matches!(
                    name.name.as_str(),
                    "reachable"
                        | "components"
                        | "successors"
                        | "predecessors"
                        | "neighbors"
                        | "edges_of"
                        | "players_from"
                        | "opponents"
                ) && self.global_sym(&name.name).is_none()
            }
            _ => false,
        }
    }

    /// `e` as a set of `on`: a value of that set type, or a collection of
    /// its elements made into one (`edges where claimer == p`, `[]`).
    pub(super) fn set_value(&mut self, e: &ast::Expr, on: Elems) -> Expr {
        let want = Ty::one(Scalar::Set(on));
        let word = set_word(on);
        let elem = elem_of(on);
        // Either branch of an `if` may be written as a collection.
        if let ExprKind::If(c, a, b) = &e.kind {
            let (ce, ct) = self.expr(c);
            self.expect(ct, Ty::BOOL, c.span);
            let (x, y) = (self.set_value(a, on), self.set_value(b, on));
            return Expr::If(Box::new(ce), Box::new(x), Box::new(y));
        }
        if self.is_coll_syntax(e) {
            let empty = matches!(&e.kind, ExprKind::List(items) if items.is_empty());
            let (c, et) = self.coll(e);
            if !empty && !self.assignable(et, elem) {
                let found = self.type_name(et);
                let d = err(
                    "E0240",
                    e.span,
                    format!("a set of {word} is made of {word}, found a collection of {found}"),
                    format!("its elements are {found}"),
                )
                .help(format!(
                    "pass `{word} where …`, a list of {}s or another set of {word}",
                    self.type_name(elem)
                ));
                self.error(d);
            }
            return Expr::Builtin(
                Builtin::Set(SetOp::Of, on),
                vec![],
                Some(Box::new(c)),
                e.span,
            );
        }
        let (x, t) = self.expr(e);
        if !self.assignable(t, want) {
            let found = self.type_name(t);
            let mut d = err(
                "E0240",
                e.span,
                format!("expected {}, found {found}", self.type_name(want)),
                format!("this is {found}"),
            );
            d = if t == elem {
                d.help(format!(
                    "a set of one {} is written `[x]`",
                    self.type_name(elem)
                ))
            } else {
                d.help(format!(
                    "a set of {word} is another one, or a collection of {word} (`{word} where …`)"
                ))
            };
            self.error(d);
        }
        x
    }

    /// A call of function `func` with its arguments checked: set
    /// parameters take sets or collections; a call that takes or returns a
    /// set is wrapped so that the stack its sets took is given back.
    pub(super) fn fn_call(
        &mut self,
        func: u16,
        args: &[ast::Expr],
        sig: &(Vec<Ty>, Ty),
        span: Span,
    ) -> Expr {
        let mut es = vec![];
        for (a, want) in args.iter().zip(sig.0.iter()) {
            if let Scalar::Set(on) = want.scalar {
                es.push(self.set_value(a, on));
                continue;
            }
            let (e, t) = self.expr(a);
            self.expect(t, *want, a.span);
            es.push(e);
        }
        let call = Expr::Call {
            func,
            args: es,
            span,
        };
        let wrap = |op, on| Expr::Builtin(Builtin::Set(op, on), vec![call.clone()], None, span);
        match sig.1.scalar {
            Scalar::Set(on) => wrap(SetOp::Keep, on),
            _ => match sig.0.iter().find_map(|t| match t.scalar {
                Scalar::Set(on) => Some(on),
                _ => None,
            }) {
                Some(on) => wrap(SetOp::Drop, on),
                None => call,
            },
        }
    }

    /// `a + b` or `a - b` whose left side `x` is a set of `on`: with or
    /// without an element, or the union or difference with another set (or
    /// a collection).
    pub(super) fn set_arith(&mut self, op: BinOp, x: Expr, on: Elems, b: &ast::Expr) -> (Expr, Ty) {
        let ty = Ty::one(Scalar::Set(on));
        let elem = elem_of(on);
        let word = set_word(on);
        let span = b.span;
        let (setop, y) = if self.is_coll_syntax(b) {
            (SetOp::Union, self.set_value(b, on))
        } else {
            let (y, t) = self.expr(b);
            if t == ty || t.scalar == Scalar::Error {
                (SetOp::Union, y)
            } else if self.assignable(t, elem) {
                (SetOp::With, y)
            } else {
                let found = self.type_name(t);
                let sign = if op == BinOp::Add { "+" } else { "-" };
                let d = err(
                    "E0240",
                    span,
                    format!(
                        "`{sign}` on a set of {word} takes {} {} or a set of {word}, found {found}",
                        if on == Elems::Edges { "an" } else { "a" },
                        self.type_name(elem)
                    ),
                    format!("this is {found}"),
                )
                .help(format!(
                    "a set holds the {word} of one board; `{sign}` adds or removes one of them, or all of another set's"
                ));
                self.error(d);
                (SetOp::With, y)
            }
        };
        let setop = match (op, setop) {
            (BinOp::Sub, SetOp::Union) => SetOp::Minus,
            (BinOp::Sub, _) => SetOp::Without,
            (_, s) => s,
        };
        (
            Expr::Builtin(Builtin::Set(setop, on), vec![x, y], None, span),
            ty,
        )
    }

    /// `components(C)`: one node per connected group of a node or an edge
    /// collection.
    pub(super) fn components(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> (Coll, Ty) {
        if !self.arity(name, args, 1, span) {
            return (Coll::List(vec![]), Ty::NODE);
        }
        let (c, et) = self.coll(&args[0]);
        let on = match et.scalar {
            Scalar::Edge if !et.list => Elems::Edges,
            Scalar::Node | Scalar::Error if !et.list => Elems::Nodes,
            _ => {
                let found = self.type_name(et);
                let d = err(
                    "E0240",
                    args[0].span,
                    format!("`components` needs a collection of nodes or of edges, found a collection of {found}"),
                    format!("its elements are {found}"),
                )
                .help("pass `nodes where …` (groups of nodes joined by the board's edges) or `edges where …` (groups joined by those edges)");
                self.error(d);
                Elems::Nodes
            }
        };
        (Coll::Components(on, Box::new(c)), Ty::NODE)
    }
}
