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
