//! Per player count (`players`): a ruleset that reads `num_players` is
//! compiled once for each run of player counts that make the same
//! variables constants, when not every count does. In each copy a variable
//! that no statement the match can run at its counts assigns is read as
//! its first value, and `num_players` is the count where the copy is for
//! one count.
//!
//! A variable set only for some counts (`if num_players == 2 {
//! two_player_setup() }`, where the procedure sets `neutral`) is a constant
//! at the others, and so is every test of it: `neutral == none or …` folds
//! to `true` where three or more play, and the `consts` pass then folds
//! what reads it. Which statements can run is found from the rules' roots
//! (`setup`, `play`, every action's body) through calls and nested blocks,
//! following only the branch an `if` takes when its condition is a
//! constant at that count, and a loop's body only when its condition may
//! hold.
//!
//! The analysis assumes every candidate variable constant, then drops those
//! that a statement it can still reach assigns, until none is dropped: at
//! that point the assumption holds for every run of the match (each
//! candidate starts with its first value, and no statement that can run
//! while they all hold it changes one). A candidate is a plain variable (no
//! `per`, no dimensions), not an option (options are given when a match
//! starts), whose first value is written as a constant or left out (then
//! [`VarDecl::blank`], as `Match::init` gives it). Scenario code (`given`) is
//! part of the rules as a variant's `play`, so its assignments are seen.
//!
//! Entry: [`split`], called by the pipeline before the other passes, each
//! copy then compiled as a game of its own ([`Game::by_players`]).

use super::consts;
use crate::ast::Scope;
use crate::ir::walk::{walk_e, walk_game};
use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet};

/// The candidates still assumed constant: variable slot → first value.
type Known = BTreeMap<u32, Val>;

/// The game specialised to the player counts from `lo` to `hi`, as `(min,
/// max, game)`: one copy per run of counts that leave the same variables
/// constant, `num_players` folded in a copy for one count. Nothing when no
/// count leaves a variable constant (or the rules never read
/// `num_players`): then the game serves every count as it is.
pub(crate) fn split(g: &Game, lo: usize, hi: usize) -> Vec<(usize, usize, Game)> {
    if lo > hi || !reads_count(g) {
        return vec![];
    }
    let mut runs: Vec<(usize, usize, Known)> = vec![];
    for n in lo..=hi {
        let known = constants(g, n);
        match runs.last_mut() {
            Some(run) if run.2 == known => run.1 = n,
            _ => runs.push((n, n, known)),
        }
    }
    if runs.len() == 1 && runs[0].2.is_empty() {
        return vec![];
    }
    runs.into_iter()
        .map(|(a, b, known)| {
            let n = (a == b).then_some(a);
            let mut copy = g.clone();
            walk_game(&mut copy, &mut |e: &mut Expr| substitute(e, n, &known));
            (a, b, copy)
        })
        .collect()
}

/// Whether some expression of the rules reads `num_players`.
fn reads_count(g: &Game) -> bool {
    let mut copy = g.clone();
    let mut found = false;
    walk_game(&mut copy, &mut |e: &mut Expr| {
        found |= matches!(e, Expr::Builtin(Builtin::NumPlayers, ..));
    });
    found
}

/// `num_players` as `n` (if one count), and each known variable as its
/// value.
fn substitute(e: &mut Expr, n: Option<usize>, known: &Known) {
    match e {
        Expr::Builtin(Builtin::NumPlayers, ..) => {
            if let Some(n) = n {
                *e = Expr::Const(n as Val);
            }
        }
        Expr::Var(slot, None) => {
            if let Some(&v) = known.get(slot) {
                *e = Expr::Const(v);
            }
        }
        _ => {}
    }
}

/// The variables that are constants where `n` play (see the module).
fn constants(g: &Game, n: usize) -> Known {
    let mut known: Known = g
        .vars
        .iter()
        .filter(|d| d.scope == Scope::Global && d.dims.is_empty() && d.count == 1)
        .filter(|d| !d.is_option)
        .filter_map(|d| {
            let v = match &d.init {
                Some(Expr::Const(v)) => *v,
                Some(_) => return None,
                None => d.blank(),
            };
            Some((d.base, v))
        })
        .collect();
    loop {
        let assigned = assigned(g, n, &known);
        let before = known.len();
        known.retain(|slot, _| !assigned.contains(slot));
        if known.len() == before {
            return known;
        }
    }
}

/// The variable slots assigned by a statement that can run where `n` play
/// while the variables in `known` keep their values.
fn assigned(g: &Game, n: usize, known: &Known) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    let mut seen = vec![false; g.blocks.len()];
    let mut todo: Vec<BlockId> = vec![g.play.0];
    todo.extend(g.setup.map(|s| s.0));
    todo.extend(g.actions.iter().map(|a| a.body));
    while let Some(b) = todo.pop() {
        if std::mem::replace(&mut seen[b as usize], true) {
            continue;
        }
        for st in &g.blocks[b as usize] {
            match &st.s {
                Instr::Assign(Place::Var(slot, _) | Place::Watched(slot, _), ..) => {
                    out.insert(*slot);
                }
                Instr::If(c, then, els) => match constant(c, n, known) {
                    Some(v) if v != 0 => todo.push(*then),
                    Some(_) => todo.extend(*els),
                    None => todo.extend(st.s.blocks()),
                },
                Instr::While(c, _) if constant(c, n, known) == Some(0) => {}
                Instr::Call(p, _) => todo.push(g.procs[*p as usize].body),
                s => todo.extend(s.blocks()),
            }
        }
    }
    out
}

/// The value of condition `c` where `n` play and `known` holds, if that
/// makes it a constant.
fn constant(c: &Expr, n: usize, known: &Known) -> Option<Val> {
    let mut c = c.clone();
    walk_e(&mut c, &mut |e: &mut Expr| {
        substitute(e, Some(n), known);
        consts::fold(e);
    });
    match c {
        Expr::Const(v) => Some(v),
        _ => None,
    }
}
