//! Regel's core: a rules-as-data game engine with no IO.
//!
//! The pipeline (see `interpreter/README.md`), driven by
//! [`pipeline::compile`]: [`load`] reads a ruleset and its variants through a
//! caller-supplied reader and parses them ([`syntax`]: pest → AST); the
//! `.toml` board becomes a [`board::Board`]; [`check`] resolves names, types
//! and board references into an [`ir::Game`]; [`opt`] rewrites it;
//! [`codegen`] lays its blocks out as the executable form and [`tables`]
//! adds the tables read at run time. Then [`eval`] runs a [`eval::Match`]
//! that pauses at explicit decisions; [`bot`] plays seats. This crate
//! touches no file, clock, thread or terminal, so it builds for
//! `wasm32-unknown-unknown`. The command line is the `regel` crate.

// `unsafe` is allowed in one module only, the bytecode machine
// (`eval/bytecode.rs`, whose two safety invariants are written where its
// `unsafe` is). `deny` rather than `forbid`: a `forbid` cannot be relaxed
// for that one module by an `allow`, a `deny` can.
#![deny(unsafe_code)]

pub mod ast;
pub mod board;
pub mod bot;
pub mod check;
pub mod codegen;
pub mod coverage;
pub mod diag;
pub mod draw;
pub mod eval;
pub mod fmt;
pub mod ir;
pub mod limits;
pub mod load;
pub mod ops;
pub mod opt;
pub mod pipeline;
pub mod stats;
pub mod syntax;
pub mod tables;
