//! Regel's core: a rules-as-data game engine with no IO.
//!
//! The pipeline (see `interpreter/README.md`):
//! `.rules` text → [`syntax`] (pest → AST) → [`check`] (names, types, board
//! references → an immutable [`ir::Game`]) and `.toml` board → [`board`] →
//! then [`eval`] runs a [`eval::Match`] that pauses at explicit decisions;
//! [`bot`] plays seats. Files are read through a caller-supplied reader; this
//! crate touches no file, clock, thread or terminal, so it builds for
//! `wasm32-unknown-unknown`. The command line is the `regel` crate.

pub mod ast;
pub mod board;
pub mod bot;
pub mod check;
pub mod codegen;
pub mod diag;
pub mod eval;
pub mod ir;
pub mod limits;
pub mod load;
pub mod opt;
pub mod pipeline;
pub mod syntax;
pub mod tables;
