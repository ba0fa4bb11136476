//! The coverage report of `regel simulate --coverage` and of the
//! playground's Measure: the parts of the rules that the simulated games
//! never exercised, as warnings with source spans. Entry: [`report`].
//!
//! The counters come from the matches (`eval/coverage.rs`), keyed by the
//! compiled program's dense ids. One rule may run as several copies (a
//! procedure spliced into each of its callers), so the counts are summed by
//! the rule's source span before anything is judged; warnings are sorted by
//! source position.

use crate::diag::{Diagnostic, Sources, Span};
use crate::eval::Coverage;
use crate::ir::{Game, Op};
use serde::Serialize;
use std::collections::BTreeMap;

/// What the games exercised, in numbers (each rule counted once, however
/// many copies of it the program runs).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Totals {
    pub actions: usize,
    pub actions_offered: usize,
    pub actions_taken: usize,
    /// `if`s reached, and the branches (`if` bodies and `else`s) of those.
    pub ifs_reached: usize,
    pub branches: usize,
    pub branches_run: usize,
    /// Leading `require`s of actions that were checked, and of those the ones
    /// that both held and failed at least once.
    pub requires_checked: usize,
    pub requires_both_ways: usize,
}

/// The warnings (codes W0101–W0105) and totals for `games` games' merged
/// counters `cov` of the program `g`.
pub fn report(
    g: &Game,
    cov: &Coverage,
    sources: &Sources,
    games: u64,
) -> (Vec<Diagnostic>, Totals) {
    let mut t = Totals {
        actions: g.actions.len(),
        ..Totals::default()
    };
    let mut out = vec![];
    actions(g, cov, games, &mut t, &mut out);
    requires(g, cov, &mut t, &mut out);
    branches(g, cov, sources, &mut t, &mut out);
    out.sort_by_key(|d| {
        let s = d.primary.unwrap_or_default();
        (s.file, s.start, s.end, d.code)
    });
    (out, t)
}

fn actions(g: &Game, cov: &Coverage, games: u64, t: &mut Totals, out: &mut Vec<Diagnostic>) {
    // An action no `act` names is already warned about by the checker (W0001).
    let mut named = vec![false; g.actions.len()];
    for step in g.code.iter().flatten() {
        if let Op::Act { actions, .. } = &step.op {
            for &a in actions {
                named[a as usize] = true;
            }
        }
    }
    for (a, ad) in g.actions.iter().enumerate() {
        let (offered, taken) = (cov.offered[a], cov.taken[a]);
        t.actions_offered += usize::from(offered > 0);
        t.actions_taken += usize::from(taken > 0);
        if offered == 0 && named[a] {
            out.push(
                Diagnostic::warning("W0101", format!("action `{}` was never offered in {games} game(s)", ad.name))
                    .at(ad.span, "never among the options")
                    .help("either no `act` naming it ran, or its leading `require`s never held together: see the warnings on them"),
            );
        } else if offered > 0 && taken == 0 {
            out.push(
                Diagnostic::warning("W0102", format!("action `{}` was offered in {offered} decision(s) but never taken", ad.name))
                    .at(ad.span, "never chosen")
                    .help("the seats never chose it: a random seat rarely draws an option offered seldom among many; play more games, or ask whether it is worth taking"),
            );
        }
    }
}

/// Sums of counts by the source span of the rule they belong to.
type BySpan = BTreeMap<(u32, u32, u32), [u64; 2]>;

fn key(s: Span) -> (u32, u32, u32) {
    (s.file, s.start, s.end)
}

fn span_of(k: (u32, u32, u32)) -> Span {
    Span {
        file: k.0,
        start: k.1,
        end: k.2,
    }
}

fn requires(g: &Game, cov: &Coverage, t: &mut Totals, out: &mut Vec<Diagnostic>) {
    let mut pre = BySpan::new();
    for (a, ad) in g.actions.iter().enumerate() {
        for (k, (_, _, s)) in ad.pre.iter().enumerate() {
            let c = cov.pre_counts(a, k);
            let e = pre.entry(key(*s)).or_default();
            e[0] += c[0];
            e[1] += c[1];
        }
    }
    for (k, [held, failed]) in pre {
        if held + failed == 0 {
            continue;
        }
        t.requires_checked += 1;
        t.requires_both_ways += usize::from(held > 0 && failed > 0);
        if failed == 0 {
            out.push(
                Diagnostic::warning("W0103", format!("this `require` held all {held} time(s) it was checked: it never removed an option"))
                    .at(span_of(k), "never failed")
                    .help("in these games it filters nothing: it may be redundant, or the situation it guards against never came up"),
            );
        } else if held == 0 {
            out.push(
                Diagnostic::warning("W0104", format!("this `require` failed all {failed} time(s) it was checked: no option ever passed it"))
                    .at(span_of(k), "never held")
                    .help("the action it guards is never offered through it: check the condition against the positions the games reach"),
            );
        }
    }
    // A `require` later in a body is an assertion: holding every time is its
    // purpose, so only one that never held is worth a word (each such failure
    // also stopped its game with an error).
    let mut body = BySpan::new();
    for (b, code) in g.code.iter().enumerate() {
        for (pc, step) in code.iter().enumerate() {
            if let Op::Require(_) = step.op {
                let c = cov.step_counts(b, pc);
                let e = body.entry(key(step.span)).or_default();
                e[0] += c[0];
                e[1] += c[1];
            }
        }
    }
    for (k, [held, failed]) in body {
        if failed > 0 && held == 0 {
            out.push(
                Diagnostic::warning("W0104", format!("this `require` failed all {failed} time(s) it ran"))
                    .at(span_of(k), "never held")
                    .help("a `require` after the start of an action stops the game when it fails: see the games' errors"),
            );
        }
    }
}

fn branches(
    g: &Game,
    cov: &Coverage,
    sources: &Sources,
    t: &mut Totals,
    out: &mut Vec<Diagnostic>,
) {
    // Per `if` (by span): times its condition held, times it did not, and
    // whether it has an `else` (laid out as a jump over it, with the `if`'s span).
    let mut ifs: BTreeMap<(u32, u32, u32), ([u64; 2], bool)> = BTreeMap::new();
    for (b, code) in g.code.iter().enumerate() {
        for (pc, step) in code.iter().enumerate() {
            if let Op::JumpUnless(_, to) = step.op {
                let to = to as usize;
                let has_else = to > pc + 1
                    && matches!(code[to - 1].op, Op::Jump(_))
                    && code[to - 1].span == step.span;
                let c = cov.step_counts(b, pc);
                let e = ifs.entry(key(step.span)).or_default();
                e.0[0] += c[0];
                e.0[1] += c[1];
                e.1 |= has_else;
            }
        }
    }
    for (k, ([held, not], has_else)) in ifs {
        if held + not == 0 {
            // Never reached: whatever encloses it is reported instead.
            continue;
        }
        t.ifs_reached += 1;
        t.branches += 1 + usize::from(has_else);
        t.branches_run += usize::from(held > 0) + usize::from(has_else && not > 0);
        let head = if_head(sources, span_of(k));
        if held == 0 {
            out.push(
                Diagnostic::warning("W0105", format!("the body of this `if` never ran: its condition was false all {not} time(s) it was tested"))
                    .at(head, "never true")
                    .help("a branch no game takes: check the condition, or whether the rule it serves can ever apply"),
            );
        } else if has_else && not == 0 {
            out.push(
                Diagnostic::warning("W0105", format!("the `else` of this `if` never ran: its condition held all {held} time(s) it was tested"))
                    .at(head, "never false")
                    .help("a branch no game takes: check the condition, or whether the rule it serves can ever apply"),
            );
        }
    }
}

/// The `if COND` of an `if` statement's span: up to its first `{`, so that
/// the warning points at the test rather than drawing the whole statement.
fn if_head(sources: &Sources, s: Span) -> Span {
    let text = &sources.get(s.file).text;
    let body = text.get(s.start as usize..s.end as usize).unwrap_or("");
    match body.find('{') {
        Some(i) => Span {
            end: s.start + body[..i].trim_end().len() as u32,
            ..s
        },
        None => s,
    }
}

/// The totals in one line of text.
pub fn totals_line(t: &Totals) -> String {
    format!(
        "coverage: {} of {} actions offered, {} taken; {} of {} branches ran (of the {} `if`s reached); {} of {} leading `require`s checked both held and failed",
        t.actions_offered, t.actions, t.actions_taken, t.branches_run, t.branches, t.ifs_reached, t.requires_both_ways, t.requires_checked
    )
}
