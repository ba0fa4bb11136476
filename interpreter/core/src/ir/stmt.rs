//! Statements (`Instr` with its span in `Stmt`), places and templates.

use super::*;
use crate::ast::{AssignOp, MovePos};
use crate::diag::Span;

pub type BlockId = u32;

#[derive(Clone, Debug)]
pub enum Place {
    Local(u16),
    Var(u32, Option<Box<Expr>>),
    /// A per-node (per-edge) variable that the zone-predicate index reads
    /// (`ZPred::Var`): its assignment tests the element again. Marked by the
    /// `zone-pred` pass, so that other assignments pay nothing for it.
    Watched(u32, Box<Expr>),
}

#[derive(Clone, Debug)]
pub enum MoveWhat {
    One(Expr),
    All(Box<Coll>),
    N(Expr, Box<Coll>),
}

#[derive(Clone, Debug)]
pub enum Instr {
    /// `let x = EXPR`: the value into a local slot.
    Let(u16, Expr),
    /// `PLACE = EXPR`, `PLACE += EXPR`, `PLACE -= EXPR`: a local or a variable slot changed.
    Assign(Place, AssignOp, Expr),
    /// `if c { … } else { … }`: the blocks of both branches (the executable form lays them out as jumps).
    If(Expr, BlockId, Option<BlockId>),
    /// `for x in C { … }`: the body once per element, the element in the slot.
    For(u16, Box<Coll>, BlockId),
    /// `while c { … }`: the body while the condition holds.
    While(Expr, BlockId),
    /// `break`: leaves the innermost loop.
    Break,
    /// `continue`: the innermost loop's next round.
    Continue,
    /// `return`: leaves the procedure, phase or action.
    Return,
    /// `move x to Z`, `move all C to Z`, `move N of C to Z`, each with `top` (the default) or `bottom`.
    Move(MoveWhat, Box<ZoneRef>, MovePos),
    /// `shuffle Z`: the zone's pieces in a random order.
    Shuffle(ZoneRef),
    /// `let x = choose p from C label "…"`: the seat picks an element into the slot; the match waits for it.
    Choose {
        slot: u16,
        player: Expr,
        from: Box<Coll>,
        label: Option<u32>,
        ty: Ty,
    },
    /// `act p with a, b else { … }`: the seat takes one legal instance of the actions, or the `else` block runs.
    Act {
        player: Expr,
        actions: Vec<u16>,
        els: Option<BlockId>,
    },
    /// `proc_name(a, …)` or `phase_name()`: a call of a procedure or phase, by index.
    Call(u16, Vec<Expr>),
    /// `log "…"`: a line of the game log from a template, by index.
    Log(u32),
    /// `end game`: the match ends now.
    EndGame,
    /// `show board`: the seats' course of the game shows the board now.
    ShowBoard,
    /// `reveal x` (`true`) or `hide x` (`false`): whether a piece is shown to everybody.
    Reveal(Expr, bool),
    /// `require c`: a legality filter where it leads an action, an assertion elsewhere.
    Require(Expr),
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub s: Instr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TPart {
    Text(String),
    /// A value, written as its type is written.
    Hole(Expr, Ty),
    /// `{if c then A else B}` whose branches are written differently (a
    /// number and a word, a template): the parts of the branch the
    /// condition picks.
    Choice(Expr, Vec<TPart>, Vec<TPart>),
    /// A subset (a mask over the elements listed at a frame's area, see
    /// [`Coll::Subsets`]), written as its elements: `3, 5 and 7`, `nothing`.
    Set(Expr, u16, Ty),
}

#[derive(Clone, Debug)]
pub struct Template {
    pub parts: Vec<TPart>,
}

/// The statements that hold no block, as one pattern, so that
/// [`Instr::blocks`] and [`Instr::blocks_mut`] cannot disagree.
macro_rules! without_blocks {
    () => {
        Instr::Let(..)
            | Instr::Assign(..)
            | Instr::Break
            | Instr::Continue
            | Instr::Return
            | Instr::Move(..)
            | Instr::Shuffle(_)
            | Instr::Choose { .. }
            | Instr::Call(..)
            | Instr::Log(_)
            | Instr::EndGame
            | Instr::ShowBoard
            | Instr::Reveal(..)
            | Instr::Require(_)
    };
}

impl Instr {
    /// The blocks this statement holds, in the order they run or are laid
    /// out: an `if`'s `then` and `else`, a loop's body, an `act`'s `else`.
    /// This is the one place that knows which statements nest blocks: the
    /// match has no catch-all, so a new statement kind must say here whether
    /// it holds any, and every walker over nested blocks goes through it.
    pub fn blocks(&self) -> impl Iterator<Item = BlockId> {
        let (a, b) = match self {
            Instr::If(_, t, e) => (Some(*t), *e),
            Instr::For(_, _, b) | Instr::While(_, b) => (Some(*b), None),
            Instr::Act { els, .. } => (*els, None),
            without_blocks!() => (None, None),
        };
        a.into_iter().chain(b)
    }

    /// As [`Instr::blocks`], the ids themselves, to renumber them.
    pub fn blocks_mut(&mut self) -> impl Iterator<Item = &mut BlockId> {
        let (a, b) = match self {
            Instr::If(_, t, e) => (Some(t), e.as_mut()),
            Instr::For(_, _, b) | Instr::While(_, b) => (Some(b), None),
            Instr::Act { els, .. } => (els.as_mut(), None),
            without_blocks!() => (None, None),
        };
        a.into_iter().chain(b)
    }
}
