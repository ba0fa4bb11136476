//! `fn-tables`: a function of one or two nodes or edges whose body reads
//! nothing but the static board (attributes, adjacency, key tables) and
//! other such functions has the same value in every match, so its values
//! are computed here, once per argument, and kept in `Game::fn_tables`.
//! Connect four's `step(c, 0, 1)` (the cell to the right of `c`) and
//! reversi's `beyond(a, b)` are such functions: a call becomes a table read.
//!
//! A table is exact: it keeps, with each value, the steps the call charges,
//! and an entry is kept only for a call that succeeded from
//! [`FnTable::DEPTH`] calls below the depth limit. The bytecode reads an
//! entry only when the caller is at most that deep and the steps fit before
//! the next checkpoint; any other call (an argument `none`, a call that
//! fails, a budget about to run out) runs as it would without the table.
//! So values, errors, spans and steps are those of the call.

use crate::eval::tabulate::{Called, Tabulator};
use crate::ir::walk::{walk_e, Visit};
use crate::ir::*;

/// The most entries one table may have: two parameters over a board of up
/// to 128 nodes.
const MAX_ENTRIES: usize = 1 << 14;

/// The most steps all the calls at check time may charge together, so that
/// tabulating costs a check at most a few milliseconds (reversi's
/// `beyond`, 4,096 entries, charges about 40,000).
const MAX_STEPS: u64 = 250_000;

pub(super) fn run(g: &mut Game) {
    let fixed = static_fns(g);
    let mut tables = vec![];
    let mut t = Tabulator::new(g, MAX_STEPS);
    'fns: for (f, reads) in fixed.iter().enumerate() {
        let Some(reads) = reads else { continue };
        let Some(mut tab) = empty_table(g, f, reads) else {
            continue;
        };
        let n = (tab.sizes[0] * tab.sizes[1]) as usize;
        let mut entries = Vec::with_capacity(n);
        let mut args = vec![0; g.fns[f].nparams as usize];
        for x in 0..tab.sizes[0] {
            for y in 0..tab.sizes[1] {
                args[tab.args.0 as usize] = x as Val;
                if let Some(b) = tab.args.1 {
                    args[b as usize] = y as Val;
                }
                entries.push(match t.call(g, f as u16, &args) {
                    Called::Value(v, steps) if steps <= u32::MAX as u64 => (v, steps as u32),
                    Called::Value(..) | Called::Failed => (FnTable::MISS, 0),
                    Called::OutOfSteps => break 'fns,
                });
            }
        }
        // A table that answers nothing (every call fails, or nests too
        // deep) would only cost a read before each call.
        if entries.iter().all(|e| e.0 == FnTable::MISS) {
            continue;
        }
        tab.entries = entries;
        tables.push(tab);
    }
    for (i, tab) in tables.iter().enumerate() {
        g.fns[tab.func as usize].table = Some(i as u16);
    }
    g.fn_tables = tables;
}

/// Per function: whether this pass would give it a table, as the game is
/// now (the `inline` pass leaves such functions' calls in place).
pub(super) fn tabulatable(g: &Game) -> Vec<bool> {
    static_fns(g)
        .iter()
        .enumerate()
        .map(|(f, reads)| {
            reads
                .as_ref()
                .is_some_and(|r| empty_table(g, f, r).is_some())
        })
        .collect()
}

/// Function `f`'s table without its entries, if it can have one: it reads one or
/// two parameters, each a node or an edge, its result is a plain value,
/// and the table is not too large.
fn empty_table(g: &Game, f: usize, reads: &[u16]) -> Option<FnTable> {
    let fd = &g.fns[f];
    let plain = matches!(
        fd.ret.scalar,
        Scalar::Int | Scalar::Bool | Scalar::Node | Scalar::Edge | Scalar::Enum(_)
    );
    if !plain || fd.ret.list || reads.is_empty() || reads.len() > 2 {
        return None;
    }
    let size = |p: u16| -> Option<u32> {
        let ty = fd.params.get(p as usize)?;
        match (ty.scalar, ty.list) {
            (Scalar::Node, false) => Some(g.board.nodes.len() as u32),
            (Scalar::Edge, false) => Some(g.board.edges.len() as u32),
            _ => None,
        }
    };
    let s0 = size(reads[0])?;
    let s1 = match reads.get(1) {
        Some(&p) => size(p)?,
        None => 1,
    };
    if s0 == 0 || s1 == 0 || (s0 as usize).saturating_mul(s1 as usize) > MAX_ENTRIES {
        return None;
    }
    Some(FnTable {
        func: f as u16,
        args: (reads[0], reads.get(1).copied()),
        sizes: [s0, s1],
        entries: vec![],
    })
}

/// Per function: the parameters its body reads, if the body reads nothing
/// that changes in a match or differs between matches, and calls only
/// functions that do not either. A function that calls itself is static
/// if nothing else disqualifies it (the calls at check time are bounded by
/// steps and depth like any call).
fn static_fns(g: &Game) -> Vec<Option<Vec<u16>>> {
    let mut scans: Vec<Scan> = g
        .fns
        .iter()
        .map(|f| {
            let mut s = Scan {
                nparams: f.nparams,
                ok: true,
                reads: vec![],
                calls: vec![],
                dist: !g.dist.is_empty(),
            };
            walk_e(&mut f.body.clone(), &mut s);
            s
        })
        .collect();
    // The greatest fixed point: a function stops being static once one it
    // calls is not.
    loop {
        let mut changed = false;
        for f in 0..scans.len() {
            if scans[f].ok
                && scans[f]
                    .calls
                    .iter()
                    .any(|&c| scans.get(c as usize).is_none_or(|s| !s.ok))
            {
                scans[f].ok = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    scans
        .into_iter()
        .map(|s| {
            s.ok.then(|| {
                let mut r = s.reads;
                r.sort_unstable();
                r.dedup();
                r
            })
        })
        .collect()
}

/// What one function body reads.
struct Scan {
    nparams: u16,
    ok: bool,
    /// The parameters read.
    reads: Vec<u16>,
    calls: Vec<u16>,
    /// The board's distance table is built: `distance` reads only it.
    dist: bool,
}

impl Visit for Scan {
    fn expr(&mut self, e: &mut Expr) {
        match e {
            Expr::Local(s) => {
                if *s < self.nparams {
                    self.reads.push(*s);
                }
            }
            Expr::Call { func, .. } => self.calls.push(*func),
            Expr::Builtin(b, ..) => self.ok &= pure(b, self.dist),
            Expr::Const(_)
            | Expr::NodeAttr(..)
            | Expr::EdgeAttr(..)
            | Expr::EdgeFrom(_)
            | Expr::EdgeTo(_)
            | Expr::Agg { .. }
            | Expr::Neg(_)
            | Expr::Not(_)
            | Expr::Bin(..)
            | Expr::In(..)
            | Expr::If(..)
            | Expr::Pos2(..)
            | Expr::NodeByKey { .. } => {}
            // State (variables, zones, pieces) and compiled code.
            Expr::Var(..)
            | Expr::Field(..)
            | Expr::Owner(_)
            | Expr::Zone(_)
            | Expr::IsKind(..)
            | Expr::ZoneLen(_)
            | Expr::ZoneEmpty(_)
            | Expr::ZoneAgg(..)
            | Expr::Code(_) => self.ok = false,
        }
    }

    fn coll(&mut self, c: &mut Coll) {
        match c {
            Coll::Nodes
            | Coll::Edges
            | Coll::Successors(_)
            | Coll::Predecessors(_)
            | Coll::Neighbors(_)
            | Coll::EdgesOf(_)
            | Coll::Range(..)
            | Coll::List(_)
            | Coll::Reachable(..)
            | Coll::ReachableVia(..)
            | Coll::Components(..)
            | Coll::Members(..)
            | Coll::NodesWithAttr(..)
            | Coll::Filter(..)
            | Coll::Map(..)
            | Coll::Distinct(..)
            | Coll::Sorted(..) => {}
            // Zones and seats (how many play is a match's), subsets (which
            // live in the caller's frame) and compiled code.
            Coll::Zone(_)
            | Coll::Players
            | Coll::PlayersFrom(_)
            | Coll::Opponents(_)
            | Coll::WhereZones(..)
            | Coll::ZonesOwned { .. }
            | Coll::Subsets { .. }
            | Coll::Subset(..)
            | Coll::Code(_) => self.ok = false,
        }
    }
}

/// Whether a builtin reads nothing but its arguments and the static board,
/// and charges the same steps in every match. `distance` is such a builtin
/// only where the board's distance table is built (`tables.rs`, before the
/// passes): without it, each call walks the board and charges for it.
fn pure(b: &Builtin, dist: bool) -> bool {
    match b {
        Builtin::Distance => dist,
        Builtin::Abs
        | Builtin::Sign
        | Builtin::Min2
        | Builtin::Max2
        | Builtin::First
        | Builtin::Empty
        | Builtin::Count
        | Builtin::SumList
        | Builtin::EdgeBetween
        | Builtin::Last
        | Builtin::ListAt
        | Builtin::IndexOf
        | Builtin::LongestPath
        | Builtin::Set(..) => true,
        Builtin::NumPlayers
        | Builtin::Next
        | Builtin::Prev
        | Builtin::Top
        | Builtin::Bottom
        | Builtin::Random
        | Builtin::ZoneOf
        | Builtin::NodeOf
        | Builtin::Revealed
        | Builtin::Team
        | Builtin::Sees
        | Builtin::ZoneAt => false,
    }
}
