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

use crate::ast::visit::by_mut::{walk_expr, Visit};
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
    let mut roots = Roots { errors };
    for it in &mut f.items {
        roots.item(it);
    }
}

/// Guards each outermost expression of items, statements and templates and
/// goes no deeper itself: blocks nest no deeper than the brackets [`scan`]
/// allowed, but an expression may not have been measured yet.
struct Roots<'e> {
    errors: &'e mut Vec<Diagnostic>,
}

impl<'a> Visit<'a> for Roots<'_> {
    fn expr(&mut self, e: &'a mut Expr) {
        guard(e, self.errors)
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

/// The direct subexpressions of an expression node, as [`walk_expr`] finds
/// them (without recursion: its `expr` calls stop here).
fn children(e: &mut Expr) -> Vec<&mut Expr> {
    struct Children<'a>(Vec<&'a mut Expr>);
    impl<'a> Visit<'a> for Children<'a> {
        fn expr(&mut self, e: &'a mut Expr) {
            self.0.push(e)
        }
    }
    let mut c = Children(vec![]);
    walk_expr(&mut c, e);
    c.0
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
