//! The texts written for players rather than for the engine: the ruleset's
//! `summary` and each action's `help` (the action's own help is kept by
//! `bodies.rs` with the action). Here: the game keeps its one summary, and
//! the misuses are refused with a hint.

use super::context::Checker;
use super::err;
use crate::ast::{self, ItemKind};

impl Checker {
    /// Keeps the summary in the game; a second summary (E0290), a `help`
    /// outside an action (E0291) and a help of several lines (E0292) are
    /// errors.
    pub(super) fn prose(&mut self, items: &[ast::Item]) {
        let mut first: Option<crate::diag::Span> = None;
        for it in items {
            match &it.kind {
                ItemKind::Summary { text } => match first {
                    Some(_) => self.error(
                        err("E0290", it.span, "a second `summary`", "the game already has one")
                            .help("a ruleset has one summary: join the texts into one string, which may span several lines (a variant replaces its base's with `override summary \"…\"`)"),
                    ),
                    None => {
                        first = Some(it.span);
                        self.g.summary = Some(text.clone());
                    }
                },
                ItemKind::Help { .. } => self.error(
                    err("E0291", it.span, "`help` outside an action", "this help belongs to nothing")
                        .help("`help` is an action's one-line help: write it after the action's name and label, before its body (`action NAME(…) label \"…\" help \"…\" { … }`); the game's own text is `summary \"…\"`"),
                ),
                ItemKind::Action {
                    name,
                    help: Some(h),
                    ..
                } if h.contains('\n') => self.error(
                    err("E0292", name.span, format!("the help of action `{}` spans several lines", name.name), "this action's help")
                        .help("an action's help is one line, shown beside the action's name by `rules`; longer explanations belong in the `summary`"),
                ),
                _ => {}
            }
        }
    }
}
