//! The executable form: what the executor runs (`Game::code`). It is its own
//! type, so that a match over it is exhaustive for exactly the statements
//! that can run: the structured `if` of [`Instr`] is not here (lowering lays
//! it out as jumps, `codegen.rs`), and jumps are not in [`Instr`].

use super::*;
use crate::ast::{AssignOp, MovePos};
use crate::diag::Span;

#[derive(Clone, Debug)]
pub enum Op {
    /// `let x = EXPR`: the value into a local slot.
    Let(u16, Expr),
    /// `PLACE = EXPR`, `PLACE += EXPR`, `PLACE -= EXPR`: a local or a variable slot changed.
    Assign(Place, AssignOp, Expr),
    /// An assignment to a variable the zone-predicate index reads
    /// ([`Place::Watched`]), which then tests its element again: an
    /// operation of its own, so that [`Op::Assign`] pays nothing for it.
    AssignWatched(Place, AssignOp, Expr),
    /// Go to statement `.1` of this block unless the condition holds.
    JumpUnless(Expr, u32),
    /// Go to statement `.0` of this block.
    Jump(u32),
    /// `for x in C { … }`: the body once per element, the element in the slot.
    For(u16, Box<Coll>, BlockId),
    /// A `for` whose body the machine runs whole: program `.3`
    /// (`opt/bytecode/stmts.rs`), or the plain loop while coverage is
    /// counted.
    ForCode(u16, Box<Coll>, BlockId, u32),
    /// The first statement of a run of statements the machine runs whole
    /// (`opt/bytecode/stmts.rs`): program `.1` runs the run, and the block
    /// goes on at statement `.2`; while coverage is counted, the statement
    /// `.0` runs, and the statements after it, as written.
    RunCode(Box<Step>, u32, u32),
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

/// One executable statement and the span of the rule it came from.
#[derive(Clone, Debug)]
pub struct Step {
    pub op: Op,
    pub span: Span,
}
