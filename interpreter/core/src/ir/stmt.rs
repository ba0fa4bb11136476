//! Statements (`Instr` with its span in `Stmt`), places and templates.

use super::*;
use crate::ast::{AssignOp, MovePos};
use crate::diag::Span;

pub type BlockId = u32;

#[derive(Clone, Debug)]
pub enum Place {
    Local(u16),
    Var(u32, Option<Box<Expr>>),
}

#[derive(Clone, Debug)]
pub enum MoveWhat {
    One(Expr),
    All(Box<Coll>),
    N(Expr, Box<Coll>),
}

#[derive(Clone, Debug)]
pub enum Instr {
    Let(u16, Expr),
    Assign(Place, AssignOp, Expr),
    If(Expr, BlockId, Option<BlockId>),
    For(u16, Box<Coll>, BlockId),
    While(Expr, BlockId),
    Break,
    Continue,
    Return,
    Move(MoveWhat, Box<ZoneRef>, MovePos),
    Shuffle(ZoneRef),
    Choose {
        slot: u16,
        player: Expr,
        from: Box<Coll>,
        label: Option<u32>,
        ty: Ty,
    },
    Act {
        player: Expr,
        actions: Vec<u16>,
        els: Option<BlockId>,
    },
    Call(u16, Vec<Expr>),
    Log(u32),
    EndGame,
    Reveal(Expr, bool),
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
    Hole(Expr, Ty),
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
