//! The executable form: what the executor runs (`Game::code`). It is its own
//! type, so that a match over it is exhaustive for exactly the statements
//! that can run: the structured `if` of [`Instr`] is not here (lowering lays
//! it out as jumps, `codegen.rs`), and jumps are not in [`Instr`].

use super::*;
use crate::ast::{AssignOp, MovePos};
use crate::diag::Span;

#[derive(Clone, Debug)]
pub enum Op {
    Let(u16, Expr),
    Assign(Place, AssignOp, Expr),
    /// Go to statement `.1` of this block unless the condition holds.
    JumpUnless(Expr, u32),
    /// Go to statement `.0` of this block.
    Jump(u32),
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

/// One executable statement and the span of the rule it came from.
#[derive(Clone, Debug)]
pub struct Step {
    pub op: Op,
    pub span: Span,
}
