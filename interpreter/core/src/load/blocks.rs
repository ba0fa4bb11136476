//! `override block BODY.NAME { … }`: a variant replacing the statements of
//! one named block (`block NAME { … }`) inside a procedure, phase or action
//! of its base (or inside `setup` or `play`), and nothing else of it. The
//! replacement is made on the merged syntax tree, so the checker sees one
//! body whose statements come from two files, each with its own spans.

use crate::ast::{Block, Ident, Item, ItemKind, StmtKind};
use crate::diag::{Diagnostic, Span};

/// Replaces the block `body_name.name` of `base` by `body`, or says why it
/// cannot (E0301 with the names that come close).
pub(super) fn apply(
    base: &mut [Item],
    body_name: &Ident,
    name: &Ident,
    body: Block,
) -> Result<(), Diagnostic> {
    let target = format!("{}.{}", body_name.name, name.name);
    let Some(i) = base
        .iter()
        .position(|b| body_name_of(&b.kind).as_deref() == Some(body_name.name.as_str()))
    else {
        let bodies: Vec<String> = base.iter().filter_map(|b| body_name_of(&b.kind)).collect();
        let help = match crate::check::similar(&body_name.name, bodies.iter().map(|s| s.as_str())) {
            Some(s) => format!("did you mean `{s}.{}`?", name.name),
            None => "a block is named by the procedure, phase or action that holds it (or `setup`, `play`) and its own name: `override block BODY.NAME { … }`".to_string(),
        };
        return Err(Diagnostic::error(
            "E0301",
            format!("this variant overrides block `{target}`, but the base has no procedure, phase or action `{}`", body_name.name),
        )
        .at(body_name.span, "no such body")
        .help(help));
    };
    let head = head_span(&base[i]);
    let Some(stmts) = base[i].kind.body_mut() else {
        return Ok(());
    };
    let mut names = vec![];
    block_names(stmts, &mut names);
    let Some(found) = find(stmts, &name.name) else {
        let help = match crate::check::similar(&name.name, names.iter().map(|s| s.as_str())) {
            Some(s) => format!("did you mean `{}.{s}`?", body_name.name),
            None if names.is_empty() => format!(
                "`{}` has no named blocks: label the statements to replace in the base with `block NAME {{ … }}`",
                body_name.name
            ),
            None => format!(
                "the blocks of `{}` are {}",
                body_name.name,
                names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
            ),
        };
        return Err(Diagnostic::error(
            "E0301",
            format!("this variant overrides block `{target}`, which the base does not have"),
        )
        .at(name.span, "no such block")
        .at(head, "the base's body")
        .help(help));
    };
    *found = body;
    Ok(())
}

/// The name of a procedure, phase or action, or the word `setup` or `play`.
fn head_span(it: &Item) -> Span {
    match &it.kind {
        ItemKind::Proc { name, .. }
        | ItemKind::Phase { name, .. }
        | ItemKind::Action { name, .. } => name.span,
        ItemKind::Play(_) => Span {
            end: it.span.start + "play".len() as u32,
            ..it.span
        },
        _ => Span {
            end: it.span.start + "setup".len() as u32,
            ..it.span
        },
    }
}

/// The name a block override uses for an item that has statements.
fn body_name_of(kind: &ItemKind) -> Option<String> {
    match kind {
        ItemKind::Proc { name, .. }
        | ItemKind::Phase { name, .. }
        | ItemKind::Action { name, .. } => Some(name.name.clone()),
        ItemKind::Setup(_) => Some("setup".into()),
        ItemKind::Play(_) => Some("play".into()),
        _ => None,
    }
}

/// The blocks a statement holds, in order.
fn children_mut(kind: &mut StmtKind) -> Vec<&mut Block> {
    match kind {
        StmtKind::If { then, els, .. } => std::iter::once(then).chain(els).collect(),
        StmtKind::For { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::Named { body, .. } => {
            vec![body]
        }
        StmtKind::Act { els, .. } => els.iter_mut().collect(),
        _ => vec![],
    }
}

/// Every block name inside `b`, in order.
fn block_names(b: &mut Block, out: &mut Vec<String>) {
    for s in &mut b.stmts {
        if let StmtKind::Named { name, .. } = &s.kind {
            out.push(name.name.clone());
        }
        for c in children_mut(&mut s.kind) {
            block_names(c, out);
        }
    }
}

/// The first block named `name` inside `b`, outermost first: found by its
/// path (statement and child block at each level), then followed to change.
fn find<'a>(b: &'a mut Block, name: &str) -> Option<&'a mut Block> {
    let mut path = vec![];
    if !path_to(b, name, &mut path) {
        return None;
    }
    let mut at = b;
    for (stmt, child) in path {
        at = children_mut(&mut at.stmts[stmt].kind)
            .into_iter()
            .nth(child)?;
    }
    Some(at)
}

/// Whether `b` holds a block named `name`; if so `path` leads to it.
fn path_to(b: &mut Block, name: &str, path: &mut Vec<(usize, usize)>) -> bool {
    for (i, s) in b.stmts.iter_mut().enumerate() {
        let named = matches!(&s.kind, StmtKind::Named { name: n, .. } if n.name == name);
        for (j, c) in children_mut(&mut s.kind).into_iter().enumerate() {
            path.push((i, j));
            if named || path_to(c, name, path) {
                return true;
            }
            path.pop();
        }
    }
    false
}
