//! Depth limits for the recursive stages. The parser, the lowering, the
//! checker, the passes and the evaluator all walk the tree recursively, so a
//! hostile file could overflow the stack with deep nesting. Two guards keep
//! every such recursion bounded:
//!
//! - [`scan`] reads the text before pest does and refuses nesting deeper than
//!   [`MAX_NESTING`] (brackets, and `else if` chains, which the grammar nests)
//!   and names longer than [`MAX_NAME_LEN`];
//! - [`expressions`] measures every expression tree after lowering (a chain
//!   `a + b + … + z` nests without brackets) and replaces one deeper than
//!   [`MAX_EXPR_DEPTH`] by `none`, taking it apart without recursion.

use crate::ast::*;
use crate::diag::{Diagnostic, Span};
use crate::limits::{MAX_EXPR_DEPTH, MAX_NAME_LEN, MAX_NESTING};

/// Checks the nesting and the name lengths of `text` (which starts at byte
/// `offset` of `file`) without parsing it.
pub(super) fn scan(file: u32, text: &str, offset: usize) -> Result<(), Diagnostic> {
    let b = text.as_bytes();
    let at = |s: usize, e: usize| Span::new(file, s + offset, e + offset);
    // One entry per open bracket: where it opened and how many `else if`s
    // have been seen directly inside it (each nests the grammar one deeper).
    let mut open: Vec<(usize, usize)> = vec![(0, 0)];
    let mut depth = 0usize;
    let mut prev_else = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += 1;
                }
                i += 1;
                prev_else = false;
                continue;
            }
            b'(' | b'[' | b'{' => {
                open.push((i, 0));
                depth += 1;
                prev_else = false;
            }
            b')' | b']' | b'}' => {
                if open.len() > 1 {
                    let (_, chain) = open.pop().unwrap();
                    depth -= 1 + chain;
                }
                prev_else = false;
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c == b'@' => {
                let start = i;
                i += 1;
                while i < b.len()
                    && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || (c == b'@' && b[i] == b'-'))
                {
                    i += 1;
                }
                if i - start > MAX_NAME_LEN {
                    return Err(Diagnostic::error(
                        "E0704",
                        format!("a name of {} characters is too long", i - start),
                    )
                    .at(at(start, start + MAX_NAME_LEN.min(i - start)), "this name")
                    .help(format!(
                        "names may be at most {MAX_NAME_LEN} characters long"
                    )));
                }
                let word = &text[start..i];
                if prev_else && word == "if" {
                    open.last_mut().unwrap().1 += 1;
                    depth += 1;
                }
                prev_else = word == "else";
                if depth <= MAX_NESTING {
                    continue;
                }
                return Err(too_deep(at(start, i), "this `else if` is one too many"));
            }
            c if c.is_ascii_whitespace() || c == b';' => {}
            _ => prev_else = false,
        }
        if depth > MAX_NESTING {
            return Err(too_deep(at(i, i + 1), "this bracket is one too deep"));
        }
        i += 1;
    }
    Ok(())
}

fn too_deep(span: Span, label: &str) -> Diagnostic {
    Diagnostic::error("E0702", format!("nested more than {MAX_NESTING} levels deep"))
        .at(span, label)
        .help("brackets and `else if` chains may nest at most this deep; split the code into functions or procedures")
}

/// Measures every expression of the file; one nested deeper than
/// [`MAX_EXPR_DEPTH`] is reported (E0703) and replaced by `none`.
pub(super) fn expressions(f: &mut File, errors: &mut Vec<Diagnostic>) {
    let mut guard = |e: &mut Expr| guard(e, errors);
    for it in &mut f.items {
        match &mut it.kind {
            ItemKind::Players { .. }
            | ItemKind::Seats(_)
            | ItemKind::Board { .. }
            | ItemKind::Enum { .. } => {}
            ItemKind::Option { value, .. } | ItemKind::Const { value, .. } => guard(value),
            ItemKind::Piece {
                label, instances, ..
            } => {
                if let Some(t) = label {
                    template(t, &mut guard);
                }
                for inst in instances.iter_mut().flatten() {
                    for fi in &mut inst.fields {
                        guard(&mut fi.value);
                    }
                }
            }
            ItemKind::Zone { vis, .. } => {
                if let Some(Visibility {
                    unless: Some(e), ..
                }) = vis
                {
                    guard(e);
                }
            }
            ItemKind::Var { init, vis, .. } => {
                if let Some(e) = init {
                    guard(e);
                }
                if let Some(Visibility {
                    unless: Some(e), ..
                }) = vis
                {
                    guard(e);
                }
            }
            ItemKind::Fn { body, .. } => guard(body),
            ItemKind::Proc { body, .. }
            | ItemKind::Phase { body, .. }
            | ItemKind::Setup(body)
            | ItemKind::Play(body) => block(body, &mut guard),
            ItemKind::Action {
                params,
                label,
                body,
                ..
            } => {
                for p in params {
                    guard(&mut p.domain);
                }
                if let Some(t) = label {
                    template(t, &mut guard);
                }
                block(body, &mut guard);
            }
            ItemKind::Score { expr, .. }
            | ItemKind::Tiebreak { expr, .. }
            | ItemKind::Team { expr, .. }
            | ItemKind::Invariant { expr, .. }
            | ItemKind::Statistic { expr, .. }
            | ItemKind::Display { expr, .. } => guard(expr),
            ItemKind::Names(_) => {}
            ItemKind::Draw { parts, .. } => {
                for (_, e) in parts {
                    guard(e);
                }
            }
        }
    }
}

fn template(t: &mut Template, guard: &mut dyn FnMut(&mut Expr)) {
    for p in &mut t.parts {
        if let TemplatePart::Hole(e) = p {
            guard(e);
        }
    }
}

/// Blocks nest no deeper than the brackets [`scan`] allowed.
fn block(b: &mut Block, guard: &mut dyn FnMut(&mut Expr)) {
    for s in &mut b.stmts {
        match &mut s.kind {
            StmtKind::Let { value, .. } => guard(value),
            StmtKind::Choose {
                player,
                from,
                label,
                ..
            } => {
                guard(player);
                guard(from);
                if let Some(t) = label {
                    template(t, guard);
                }
            }
            StmtKind::Assign { place, value, .. } => {
                guard(place);
                guard(value);
            }
            StmtKind::If { cond, then, els } => {
                guard(cond);
                block(then, guard);
                if let Some(e) = els {
                    block(e, guard);
                }
            }
            StmtKind::For { coll, body, .. } => {
                guard(coll);
                block(body, guard);
            }
            StmtKind::While { cond, body } => {
                guard(cond);
                block(body, guard);
            }
            StmtKind::Break | StmtKind::Continue | StmtKind::Return | StmtKind::EndGame => {}
            StmtKind::Move { what, to, .. } => {
                match what {
                    MoveWhat::One(e) | MoveWhat::All(e) => guard(e),
                    MoveWhat::N(n, e) => {
                        guard(n);
                        guard(e);
                    }
                }
                guard(to);
            }
            StmtKind::Shuffle(e)
            | StmtKind::Reveal(e)
            | StmtKind::Hide(e)
            | StmtKind::Require(e) => guard(e),
            StmtKind::Act { player, els, .. } => {
                guard(player);
                if let Some(e) = els {
                    block(e, guard);
                }
            }
            StmtKind::Log(t) => template(t, guard),
            StmtKind::Call { args, .. } => {
                for a in args {
                    guard(a);
                }
            }
        }
    }
}

pub(super) fn guard(e: &mut Expr, errors: &mut Vec<Diagnostic>) {
    if depth(e) <= MAX_EXPR_DEPTH {
        return;
    }
    errors.push(
        Diagnostic::error("E0703", format!("this expression is nested more than {MAX_EXPR_DEPTH} levels deep"))
            .at(Span { end: e.span.start.saturating_add(1).min(e.span.end), ..e.span }, "the expression starts here")
            .help("split it with `let` or helper functions; a long chain such as `a + b + …` nests one level per operator"),
    );
    let span = e.span;
    dismantle(std::mem::replace(
        e,
        Expr {
            kind: ExprKind::None,
            span,
        },
    ));
}

/// The children of an expression node. Exhaustive on purpose: a new kind of
/// expression must say what it contains.
fn children(e: &mut Expr) -> Vec<&mut Expr> {
    match &mut e.kind {
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::None
        | ExprKind::Str(_)
        | ExprKind::Node(_)
        | ExprKind::Name(_) => vec![],
        ExprKind::Field(a, _) | ExprKind::Neg(a) | ExprKind::Not(a) | ExprKind::Is(a, _) => {
            vec![&mut **a]
        }
        ExprKind::Call(_, args) | ExprKind::List(args) => args.iter_mut().collect(),
        ExprKind::Agg { coll, body, .. } => {
            let mut v = vec![&mut **coll];
            if let Some(b) = body {
                v.push(&mut **b);
            }
            v
        }
        ExprKind::Bin(_, a, b)
        | ExprKind::Range(a, b)
        | ExprKind::Where(a, b)
        | ExprKind::Index(a, b) => vec![&mut **a, &mut **b],
        ExprKind::If(a, b, c) => vec![&mut **a, &mut **b, &mut **c],
    }
}

/// The depth of an expression tree, without recursion.
fn depth(e: &mut Expr) -> usize {
    let mut max = 0;
    let mut stack = vec![(e, 1usize)];
    while let Some((x, d)) = stack.pop() {
        max = max.max(d);
        if max > MAX_EXPR_DEPTH {
            break;
        }
        stack.extend(children(x).into_iter().map(|c| (c, d + 1)));
    }
    max
}

/// Drops a tree of any depth without recursion: each node's children are
/// moved out before the node itself is dropped.
fn dismantle(e: Expr) {
    let mut stack = vec![e];
    while let Some(mut x) = stack.pop() {
        for c in children(&mut x) {
            let span = c.span;
            stack.push(std::mem::replace(
                c,
                Expr {
                    kind: ExprKind::None,
                    span,
                },
            ));
        }
    }
}
