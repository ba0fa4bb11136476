//! Declaration counts, checked before anything is numbered. The checker
//! gives enumerations, members, functions, procedures, actions, piece kinds,
//! fields and locals 16-bit indices; this pass makes sure no kind of
//! declaration comes near that width ([`MAX_PER_KIND`], E0705), so that no
//! index can wrap.

use crate::ast::visit::{walk_expr, walk_stmt, Visit};
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
                let areas: usize = params.iter().map(|p| subsets_slots(&p.domain)).sum();
                over(
                    "names bound in one body",
                    params.len() + areas + binders_b(body),
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
    let mut n = Binders(0);
    n.block(b);
    n.0
}

/// Aggregate binders in an expression (the parser has bounded its depth).
fn binders_e(e: &Expr) -> usize {
    let mut n = Binders(0);
    n.expr(e);
    n.0
}

/// The slots a `subsets(…)` call takes for its elements (its area, see
/// `eval/expr/subsets.rs`), 0 for any other expression.
fn subsets_area(e: &Expr) -> usize {
    match &e.kind {
        ExprKind::Call(name, _) if name.name == "subsets" => 1 + crate::limits::MAX_SUBSET_ELEMS,
        _ => 0,
    }
}

/// The slots the `subsets(…)` calls of an action parameter's domain take.
fn subsets_slots(e: &Expr) -> usize {
    struct Areas(usize);
    impl Visit<'_> for Areas {
        fn expr(&mut self, e: &Expr) {
            self.0 += subsets_area(e);
            walk_expr(self, e)
        }
    }
    let mut n = Areas(0);
    n.expr(e);
    n.0
}

/// Counts the names a body binds.
struct Binders(usize);

impl Visit<'_> for Binders {
    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Let { .. } | StmtKind::Choose { .. } | StmtKind::For { .. } => self.0 += 1,
            StmtKind::Assign { .. }
            | StmtKind::If { .. }
            | StmtKind::While { .. }
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Return
            | StmtKind::Move { .. }
            | StmtKind::Shuffle(_)
            | StmtKind::Act { .. }
            | StmtKind::Log(_)
            | StmtKind::EndGame
            | StmtKind::ShowBoard
            | StmtKind::Reveal(_)
            | StmtKind::Hide(_)
            | StmtKind::Require(_)
            | StmtKind::Named { .. }
            | StmtKind::Call { .. } => {}
        }
        walk_stmt(self, s)
    }

    fn expr(&mut self, e: &Expr) {
        if let ExprKind::Agg { .. } | ExprKind::Where(..) = e.kind {
            self.0 += 1;
        }
        self.0 += subsets_area(e);
        walk_expr(self, e)
    }

    /// The holes of `log` and `choose … label` templates are left out, as
    /// they always were here, although an aggregate in a hole binds a local
    /// too; counting them would change E0705's numbers, so it is left to a
    /// deliberate change.
    fn template(&mut self, _t: &Template) {}
}
