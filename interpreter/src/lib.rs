//! Regel: a rules-as-data game engine.
//!
//! The engine is the IO-free [`regel_core`] crate, re-exported here module by
//! module so that `regel::eval::Match` and `regel_core::eval::Match` are one
//! thing; this crate adds [`cli`], the command line as a library function,
//! where all file, terminal, clock and thread use lives (see
//! `interpreter/README.md`).

// This crate needs no `unsafe`: the one `unsafe` block of the engine is the
// bytecode machine's, in `regel-core`.
#![forbid(unsafe_code)]

pub use regel_core::{
    ast, board, bot, check, codegen, coverage, diag, draw, eval, fmt, ir, limits, load, ops, opt,
    pipeline, stats, syntax, tables,
};

pub mod cli;
pub mod lsp;
