//! Splicing: a call to a small procedure becomes, at check time, `let`s that
//! bind its parameters to fresh locals of the caller followed by a copy of
//! its body with every local renumbered into that fresh range. The match
//! then runs the same statements without a call frame, which is most of the
//! cost of a small procedure called in a loop (a scoring rule called per
//! cell).
//!
//! Only procedures whose meaning cannot change are spliced: not phases (their
//! calls are logged), and no body that decides (`choose`, `act`: a decision
//! point would be duplicated in the summary), writes to the log (templates
//! are numbered by the callee's locals) or `return`s (it would leave the
//! caller). Locals need no fresh zeroes: the checker lets no local be read
//! before it is bound.

use crate::ir::walk::{walk_s, Visit};
use crate::ir::Game;
use crate::ir::*;

/// Statements, counted through nested blocks, above which a body is called
/// rather than copied.
const MAX_STATEMENTS: usize = 40;
/// Rounds of splicing: a body spliced in may itself call small procedures.
/// Bounded so that mutual recursion ends.
const ROUNDS: usize = 4;

/// Whose locals a block uses.
#[derive(Clone, Copy)]
enum Owner {
    Proc(usize),
    Action(usize),
    Play,
    Setup,
    None,
}

/// Splices calls to small procedures everywhere in the game.
pub(super) fn run(g: &mut Game) {
    let mut owner = vec![Owner::None; g.blocks.len()];
    let mut roots: Vec<(BlockId, Owner)> = vec![(g.play.0, Owner::Play)];
    if let Some((b, _)) = g.setup {
        roots.push((b, Owner::Setup));
    }
    roots.extend(
        g.procs
            .iter()
            .enumerate()
            .map(|(i, p)| (p.body, Owner::Proc(i))),
    );
    roots.extend(
        g.actions
            .iter()
            .enumerate()
            .map(|(i, a)| (a.body, Owner::Action(i))),
    );
    for (b, o) in roots {
        for nb in nested(g, b) {
            owner[nb as usize] = o;
        }
    }
    for _ in 0..ROUNDS {
        let mut changed = false;
        let mut b = 0;
        while b < g.blocks.len() {
            if !matches!(owner[b], Owner::None)
                && g.blocks[b]
                    .iter()
                    .any(|s| matches!(&s.s, Instr::Call(p, _) if spliceable(g, *p as usize)))
            {
                splice_block(g, b, &mut owner);
                changed = true;
            }
            b += 1;
        }
        if !changed {
            break;
        }
    }
}

/// A block and every block nested in it.
fn nested(g: &Game, b: BlockId) -> Vec<BlockId> {
    crate::ir::walk::nested_blocks(g, b)
}

fn spliceable(g: &Game, p: usize) -> bool {
    let pd = &g.procs[p];
    if pd.is_phase {
        return false;
    }
    let blocks = nested(g, pd.body);
    let mut size = 0;
    for b in &blocks {
        for st in &g.blocks[*b as usize] {
            size += 1;
            // Statements that pause, write the log, leave the frame or call
            // the procedure itself keep the call; the list is exhaustive, so
            // that a new statement kind is decided here too.
            let keeps_call = match &st.s {
                Instr::Choose { .. }
                | Instr::Act { .. }
                | Instr::Log(_)
                | Instr::ShowBoard
                | Instr::Return => true,
                Instr::Call(q, _) => *q as usize == p,
                Instr::Let(..)
                | Instr::Assign(..)
                | Instr::If(..)
                | Instr::For(..)
                | Instr::While(..)
                | Instr::Break
                | Instr::Continue
                | Instr::Move(..)
                | Instr::Shuffle(_)
                | Instr::EndGame
                | Instr::Reveal(..)
                | Instr::Require(_) => false,
            };
            if keeps_call {
                return false;
            }
        }
    }
    size <= MAX_STATEMENTS
}

fn nlocals(g: &mut Game, o: Owner) -> Option<&mut u16> {
    match o {
        Owner::Proc(i) => Some(&mut g.procs[i].nlocals),
        Owner::Action(i) => Some(&mut g.actions[i].nlocals),
        Owner::Play => Some(&mut g.play.1),
        Owner::Setup => g.setup.as_mut().map(|s| &mut s.1),
        Owner::None => None,
    }
}

/// Replaces each call to a spliceable procedure in block `b`.
fn splice_block(g: &mut Game, b: usize, owner: &mut Vec<Owner>) {
    let o = owner[b];
    let old = std::mem::take(&mut g.blocks[b]);
    let mut out = Vec::with_capacity(old.len());
    for st in old {
        let Instr::Call(p, args) = &st.s else {
            out.push(st);
            continue;
        };
        let p = *p as usize;
        let callee_locals = g.procs[p].nlocals;
        let ok = spliceable(g, p);
        let Some(n) = nlocals(g, o) else {
            out.push(st);
            continue;
        };
        let off = *n;
        if !ok || off.checked_add(callee_locals).is_none() {
            out.push(st);
            continue;
        }
        *n += callee_locals;
        // Arguments are evaluated in the caller's locals, into fresh slots.
        for (a, (slot, _)) in args.iter().zip(&g.procs[p].params) {
            out.push(Stmt {
                s: Instr::Let(off + slot, a.clone()),
                span: st.span,
            });
        }
        let body = g.procs[p].body;
        let copied = copy_block(g, body, off, o, owner);
        out.extend(copied);
    }
    g.blocks[b] = out;
}

/// The statements of block `b` with locals moved up by `off`; nested blocks
/// are copied as new blocks owned by `o`.
fn copy_block(g: &mut Game, b: BlockId, off: u16, o: Owner, owner: &mut Vec<Owner>) -> Vec<Stmt> {
    let mut stmts = g.blocks[b as usize].clone();
    for st in stmts.iter_mut() {
        for nb in st.s.blocks_mut() {
            *nb = copy_new(g, *nb, off, o, owner);
        }
        shift_stmt(&mut st.s, off);
    }
    stmts
}

fn copy_new(g: &mut Game, b: BlockId, off: u16, o: Owner, owner: &mut Vec<Owner>) -> BlockId {
    let stmts = copy_block(g, b, off, o, owner);
    g.blocks.push(stmts);
    owner.push(o);
    (g.blocks.len() - 1) as BlockId
}

/// Moves every local a statement binds or reads up by `off`.
fn shift_stmt(s: &mut Instr, off: u16) {
    match s {
        Instr::Let(slot, _)
        | Instr::For(slot, _, _)
        | Instr::Assign(Place::Local(slot), _, _)
        | Instr::Choose { slot, .. } => *slot += off,
        Instr::Assign(Place::Var(..) | Place::Watched(..), _, _)
        | Instr::If(..)
        | Instr::While(..)
        | Instr::Break
        | Instr::Continue
        | Instr::Return
        | Instr::Move(..)
        | Instr::Shuffle(_)
        | Instr::Act { .. }
        | Instr::Call(..)
        | Instr::Log(_)
        | Instr::EndGame
        | Instr::ShowBoard
        | Instr::Reveal(..)
        | Instr::Require(_) => {}
    }
    walk_s(s, &mut Shift(off));
}

/// Renumbers locals in every expression and collection the walker reaches.
struct Shift(u16);

impl Visit for Shift {
    fn expr(&mut self, e: &mut Expr) {
        match e {
            Expr::Local(s) | Expr::Agg { slot: s, .. } => *s += self.0,
            // No other expression binds or names a local itself; their
            // parts are reached by the walker.
            Expr::Const(_)
            | Expr::Var(..)
            | Expr::Field(..)
            | Expr::Owner(_)
            | Expr::NodeAttr(..)
            | Expr::EdgeAttr(..)
            | Expr::EdgeFrom(_)
            | Expr::EdgeTo(_)
            | Expr::Zone(_)
            | Expr::Neg(_)
            | Expr::Not(_)
            | Expr::Bin(..)
            | Expr::In(..)
            | Expr::If(..)
            | Expr::Call { .. }
            | Expr::Builtin(..)
            | Expr::IsKind(..)
            | Expr::Pos2(..)
            | Expr::ZoneLen(_)
            | Expr::ZoneEmpty(_)
            | Expr::ZoneAgg(..)
            | Expr::NodeByKey { .. } => {}
            // Bytecode is the last pass, after splicing: its registers are
            // fixed slots of a frame and are never renumbered.
            Expr::Code(_) => {}
        }
    }

    fn coll(&mut self, c: &mut Coll) {
        match c {
            Coll::Filter(_, slot, _)
            | Coll::Map(_, slot, _)
            | Coll::Distinct(_, slot, _)
            | Coll::Sorted(_, slot, _)
            | Coll::Subsets { area: slot, .. }
            | Coll::Subset(_, slot) => *slot += self.0,
            // Bytecode is the last pass, after splicing.
            Coll::Code(_) => {}
            Coll::Zone(_)
            | Coll::Players
            | Coll::PlayersFrom(_)
            | Coll::Opponents(_)
            | Coll::Nodes
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
            | Coll::WhereZones(..)
            | Coll::ZonesOwned { .. } => {}
        }
    }
}
