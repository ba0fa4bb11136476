//! Declaration counts, checked before anything is numbered. The checker
//! gives enumerations, members, functions, procedures, actions, piece kinds,
//! fields and locals 16-bit indices; this pass makes sure no kind of
//! declaration comes near that width ([`MAX_PER_KIND`], E0705), so that no
//! index can wrap.

use crate::ast::*;
use crate::diag::{Diagnostic, Span};
use crate::limits::MAX_PER_KIND;

/// Counts the merged items' declarations by kind and the names each body
/// binds; one diagnostic per kind over the limit.
pub(super) fn check(items: &[Item]) -> Vec<Diagnostic> {
    let mut errors = vec![];
    let mut over = |what: &str, n: usize, span: Span| {
        if n > MAX_PER_KIND {
            errors.push(
                Diagnostic::error(
                    "E0705",
                    format!("{n} {what}, more than the limit of {MAX_PER_KIND}"),
                )
                .at(span, "the limit is passed here")
                .help("see \"Bounded execution\" in the README for Regel's limits"),
            );
        }
    };
    // (what, count, where the count passed the limit)
    let mut kinds: Vec<(&str, usize, Span)> = vec![];
    let mut bump = |what: &'static str, span: Span| match kinds.iter_mut().find(|k| k.0 == what) {
        Some(k) => {
            k.1 += 1;
            if k.1 == MAX_PER_KIND + 1 {
                k.2 = span;
            }
        }
        None => kinds.push((what, 1, span)),
    };
    for it in items {
        let span = it.span;
        match &it.kind {
            ItemKind::Enum { members, .. } => {
                bump("enumerations", span);
                over("members in one enumeration", members.len(), span);
            }
            ItemKind::Fn { params, body, .. } => {
                bump("functions", span);
                over("parameters of one function", params.len(), span);
                over(
                    "names bound in one body",
                    params.len() + binders_e(body),
                    span,
                );
            }
            ItemKind::Proc { params, body, .. } => {
                bump("procedures and phases", span);
                over("parameters of one procedure", params.len(), span);
                over(
                    "names bound in one body",
                    params.len() + binders_b(body),
                    span,
                );
            }
            ItemKind::Phase { body, .. } => {
                bump("procedures and phases", span);
                over("names bound in one body", binders_b(body), span);
            }
            ItemKind::Action { params, body, .. } => {
                bump("actions", span);
                over("parameters of one action", params.len(), span);
                over(
                    "names bound in one body",
                    params.len() + binders_b(body),
                    span,
                );
            }
            ItemKind::Setup(body) | ItemKind::Play(body) => {
                over("names bound in one body", binders_b(body), span)
            }
            ItemKind::Piece { fields, .. } => {
                bump("piece kinds", span);
                over("fields of one piece kind", fields.len(), span);
            }
            ItemKind::Zone { .. } => bump("zones", span),
            ItemKind::Var { .. } | ItemKind::Option { .. } | ItemKind::Const { .. } => {
                bump("variables, options and constants", span)
            }
            ItemKind::Seats(s) => over("seat names", s.len(), span),
            _ => {}
        }
    }
    for (what, n, span) in kinds {
        over(what, n, span);
    }
    errors
}

/// An upper bound on the locals a block binds: every `let`, `choose`,
/// `for` and aggregate binder (the parser has bounded the nesting).
fn binders_b(b: &Block) -> usize {
    b.stmts
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Let { value, .. } => 1 + binders_e(value),
            StmtKind::Choose { player, from, .. } => 1 + binders_e(player) + binders_e(from),
            StmtKind::Assign { place, value, .. } => binders_e(place) + binders_e(value),
            StmtKind::If { cond, then, els } => {
                binders_e(cond) + binders_b(then) + els.as_ref().map_or(0, binders_b)
            }
            StmtKind::For { coll, body, .. } => 1 + binders_e(coll) + binders_b(body),
            StmtKind::While { cond, body } => binders_e(cond) + binders_b(body),
            StmtKind::Move { what, to, .. } => {
                binders_e(to)
                    + match what {
                        MoveWhat::One(e) | MoveWhat::All(e) => binders_e(e),
                        MoveWhat::N(n, e) => binders_e(n) + binders_e(e),
                    }
            }
            StmtKind::Shuffle(e)
            | StmtKind::Reveal(e)
            | StmtKind::Hide(e)
            | StmtKind::Require(e) => binders_e(e),
            StmtKind::Act { player, els, .. } => {
                binders_e(player) + els.as_ref().map_or(0, binders_b)
            }
            StmtKind::Call { args, .. } => args.iter().map(binders_e).sum(),
            StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Return
            | StmtKind::EndGame
            | StmtKind::Log(_) => 0,
        })
        .sum()
}

/// Aggregate binders in an expression (the parser has bounded its depth).
fn binders_e(e: &Expr) -> usize {
    match &e.kind {
        ExprKind::Agg { coll, body, .. } => {
            1 + binders_e(coll) + body.as_deref().map_or(0, binders_e)
        }
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Str(_)
        | ExprKind::Node(_)
        | ExprKind::Name(_) => 0,
        ExprKind::Field(a, _) | ExprKind::Neg(a) | ExprKind::Not(a) | ExprKind::Is(a, _) => {
            binders_e(a)
        }
        ExprKind::Call(_, args) | ExprKind::List(args) => args.iter().map(binders_e).sum(),
        ExprKind::Bin(_, a, b) | ExprKind::Range(a, b) | ExprKind::Index(a, b) => {
            binders_e(a) + binders_e(b)
        }
        ExprKind::Where(a, b) => 1 + binders_e(a) + binders_e(b),
        ExprKind::If(a, b, c) => binders_e(a) + binders_e(b) + binders_e(c),
    }
}
