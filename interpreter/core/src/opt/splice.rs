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
//!
//! A parameter given a constant or a local of the caller's, which the body
//! never assigns, needs no `let`: the copy reads the constant or the
//! caller's local where the body reads the parameter (nothing in the body
//! can change either), and an `if` on such a constant keeps only the
//! branch taken (a line scored by `score_line(true, r)`, each cell of it
//! by `score_cell(c)`). Like other passes it saves steps: the `let`s' and
//! the `if`'s.

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
        let body = g.procs[p].body;
        // Arguments are evaluated in the caller's locals, into fresh slots;
        // a constant, or a caller's local, given to a parameter the body
        // never assigns is read where the body reads the parameter,
        // with no `let` (nor its step): nothing in the body can change it.
        let mut shift = Shift { off, alias: vec![] };
        for (a, &(slot, ty)) in args.iter().zip(&g.procs[p].params) {
            match a {
                Expr::Local(_) | Expr::Const(_) if plain(ty) && !assigns(g, body, slot) => {
                    shift.alias.push((slot, a.clone()));
                }
                _ => out.push(Stmt {
                    s: Instr::Let(off + slot, a.clone()),
                    span: st.span,
                }),
            }
        }
        let copied = copy_block(g, body, &shift, o, owner);
        out.extend(copied);
    }
    g.blocks[b] = out;
}

/// Whether a parameter of type `ty` may be read in the caller's local
/// that was given to it: a value of one word, not a list or a set (those
/// live in areas tied to their names).
fn plain(ty: Ty) -> bool {
    !ty.list && !matches!(ty.scalar, Scalar::Set(_))
}

/// Whether block `b` (or a block in it) assigns local `slot`. The checker
/// gives every name a slot of its own (`Checker::bind` never reuses
/// one) and splicing takes fresh ones, so a parameter's slot is bound by
/// nothing else in the body: an assignment is the only way it can change.
fn assigns(g: &Game, b: BlockId, slot: u16) -> bool {
    nested(g, b).iter().any(|&nb| {
        g.blocks[nb as usize]
            .iter()
            .any(|st| matches!(st.s, Instr::Assign(Place::Local(s), _, _) if s == slot))
    })
}

/// The statements of block `b` with locals renumbered by `shift`; nested
/// blocks are copied as new blocks owned by `o`.
fn copy_block(
    g: &mut Game,
    b: BlockId,
    shift: &Shift,
    o: Owner,
    owner: &mut Vec<Owner>,
) -> Vec<Stmt> {
    let stmts = g.blocks[b as usize].clone();
    let mut out = Vec::with_capacity(stmts.len());
    for mut st in stmts {
        shift_stmt(&mut st.s, shift);
        // An `if` on a parameter given a constant keeps only the branch
        // taken (`score_line(true, r)`), its statements in its place.
        if let Instr::If(Expr::Const(c), t, e) = st.s {
            if let Some(taken) = if c != 0 { Some(t) } else { e } {
                out.extend(copy_block(g, taken, shift, o, owner));
            }
            continue;
        }
        for nb in st.s.blocks_mut() {
            *nb = copy_new(g, *nb, shift, o, owner);
        }
        out.push(st);
    }
    out
}

fn copy_new(g: &mut Game, b: BlockId, shift: &Shift, o: Owner, owner: &mut Vec<Owner>) -> BlockId {
    let stmts = copy_block(g, b, shift, o, owner);
    g.blocks.push(stmts);
    owner.push(o);
    (g.blocks.len() - 1) as BlockId
}

/// Moves every local a statement binds or reads up by `shift.off`, but
/// the parameters read in the caller's locals.
fn shift_stmt(s: &mut Instr, shift: &Shift) {
    let off = shift.off;
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
    walk_s(s, &mut Renumber(shift));
}

/// How a spliced body's locals are renumbered: up by `off`, but each
/// parameter `(slot, value)` of `alias` read as `value`, a constant or a
/// local of the caller's.
struct Shift {
    off: u16,
    alias: Vec<(u16, Expr)>,
}

/// Renumbers locals in every expression and collection the walker reaches.
struct Renumber<'a>(&'a Shift);

impl Visit for Renumber<'_> {
    fn expr(&mut self, e: &mut Expr) {
        match e {
            Expr::Local(s) => match self.0.alias.iter().find(|a| a.0 == *s) {
                Some((_, value)) => *e = value.clone(),
                None => *s += self.0.off,
            },
            Expr::Agg { slot: s, .. } => *s += self.0.off,
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
            | Coll::Subset(_, slot) => *slot += self.0.off,
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
