//! The compiled, executable form of a ruleset. Every name is resolved to a
//! dense index and every value is an `i64` whose meaning (an integer, a seat,
//! a node, a piece, an enum member…) the checker has fixed statically. This is
//! what makes matches cheap to step and to clone.
//!
//! The checker writes it (`check`), the passes rewrite it (`opt`), and the
//! executor reads it (`eval`); none of them depends on another's internals.
//!
//! | file | what it holds |
//! |---|---|
//! | `types.rs` | `Val`, `Scalar`, `Ty`, `Dim` |
//! | `expr.rs` | `Expr`, `Coll`, `ZoneRef`, `AggOp`, `Builtin`, `ZPred` |
//! | `stmt.rs` | `Instr`, `Stmt`, `Place`, `MoveWhat`, `Template`: statements as the rules nest them |
//! | `code.rs` | `Op`, `Step`: the executable form, `if` laid out as jumps |
//! | `bytecode.rs` | `Program`, `BOp`: expressions as flat register code (`Expr::Code`) |
//! | `decls.rs` | declarations: zones, variables, kinds, procedures, actions, functions |
//! | `game.rs` | `Game`, the whole program, and its name tables (`Symbols`) |
//! | `walk.rs` | the generic walkers over expressions, collections and statements |
//! | `present.rs` | `Presentation`: display names and declared displays (how people see the game) |
//! | `print.rs` | the program as text (`regel ir`) |

mod bytecode;
mod code;
mod decls;
mod expr;
mod game;
mod present;
pub mod print;
mod stmt;
mod types;
pub mod walk;

pub use bytecode::*;
pub use code::*;
pub use decls::*;
pub use expr::*;
pub use game::*;
pub use present::*;
pub use stmt::*;
pub use types::*;
