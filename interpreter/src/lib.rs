//! Regel: a rules-as-data game engine.
//!
//! The pipeline (see `interpreter/README.md`):
//! `.rules` text → [`syntax`] (pest → AST) → [`check`] (names, types, board
//! references → an immutable [`check::Game`]) and `.toml` board → [`board`] →
//! then [`eval`] runs a [`eval::Match`] that pauses at explicit decisions.
//! [`cli`] is the command line as a library function.

pub mod ast;
pub mod board;
pub mod bot;
pub mod check;
pub mod cli;
pub mod diag;
pub mod eval;
pub mod ir;
pub mod limits;
pub mod opt;
pub mod syntax;
