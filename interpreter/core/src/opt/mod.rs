//! The rewrites after checking. Each pass is one file with one entry
//! function, `run(&mut Game)`; [`run`] applies the enabled ones in a fixed
//! order. The one exception is `players`, whose entry, [`split`], makes the
//! copies of the game the others then run on (one per run of player
//! counts); the pipeline calls it first. Every pass only moves work from run time to check time: a seed and
//! a list of decisions give the same match, log and scores with or without
//! it (`tests/passes.rs` plays every shipped ruleset both ways).
//!
//! | file | pass |
//! |---|---|
//! | `players.rs` | `players`: a copy per run of player counts that leave the same variables constant, those variables (and `num_players`, in a copy for one count) read as constants (run by the pipeline, before the rest) |
//! | `zone_len.rs` | `zone-len`: `count`/`empty` of a plain zone read its length |
//! | `inline.rs` | `inline`: calls to small pure functions replaced by their bodies |
//! | `consts.rs` | `consts`: constants folded, calls with constant arguments to copies specialised to them |
//! | `fold_board.rs` | `fold-board`: aggregates over the static board folded to constants, and the elements an aggregate picks by their attributes listed |
//! | `zone_pred.rs` | `zone-pred`: node tests of the node's own zone sizes as flat predicates |
//! | `searches.rs` | `searches`: `first`/`empty`/`last` of a filter as searches that stop |
//! | `board_index.rs` | `board-index`: node tests of board attributes answered from indexes and key tables |
//! | `splice.rs` | `splice`: calls to small procedures replaced by their bodies |
//! | `fn_tables.rs` | `fn-tables`: functions of nodes and edges that read only the static board computed for every argument |
//! | `bytecode/` | `bytecode`: expressions compiled to flat register programs (last: registers are frame slots) |
//! | `bytecode/keep.rs` | `keep`: with `bytecode`, values that read no local kept between decisions until what they read changes |

mod board_index;
mod bytecode;
mod consts;
mod fn_tables;
mod fold_board;
mod inline;
mod players;
mod searches;
mod splice;
mod zone_len;
mod zone_pred;

use crate::ir::{Expr, Game};

/// One rewrite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    Players,
    ZoneLen,
    Inline,
    Consts,
    FoldBoard,
    ZonePred,
    Searches,
    BoardIndex,
    Splice,
    FnTables,
    Bytecode,
    Keep,
}

impl Pass {
    /// Every pass, in the order [`run`] first applies them (see [`SCHEDULE`]).
    /// `players` comes before them all: the pipeline makes a copy of the
    /// game per run of player counts ([`split`]) and runs the rest on each.
    /// Zone lengths come next: inlining measures bodies with them, and the
    /// zone predicates and the bytecode look for them. Constants are folded after inlining has pasted constant arguments into
    /// bodies. Zone predicates come
    /// before searches so that `first(nodes where free(it))` keeps the flat
    /// predicate as its collection; board indexes come after searches, whose
    /// stopping `first` is what a key lookup replaces. Function tables come
    /// last before the bytecode, which reads them, once bodies are final.
    /// `keep` is part of the bytecode's compilation: it does nothing alone.
    pub const ALL: [Pass; 12] = [
        Pass::Players,
        Pass::ZoneLen,
        Pass::Inline,
        Pass::FoldBoard,
        Pass::Consts,
        Pass::ZonePred,
        Pass::Searches,
        Pass::BoardIndex,
        Pass::Splice,
        Pass::FnTables,
        Pass::Bytecode,
        Pass::Keep,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Pass::Players => "players",
            Pass::ZoneLen => "zone-len",
            Pass::Inline => "inline",
            Pass::Consts => "consts",
            Pass::FoldBoard => "fold-board",
            Pass::BoardIndex => "board-index",
            Pass::ZonePred => "zone-pred",
            Pass::Searches => "searches",
            Pass::Splice => "splice",
            Pass::FnTables => "fn-tables",
            Pass::Bytecode => "bytecode",
            Pass::Keep => "keep",
        }
    }
}

/// Which passes run: all of them unless a caller says otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Passes(Vec<Pass>);

impl Default for Passes {
    fn default() -> Self {
        Passes::all()
    }
}

impl Passes {
    pub fn all() -> Passes {
        Passes(Pass::ALL.to_vec())
    }

    pub fn none() -> Passes {
        Passes(vec![])
    }

    pub fn has(&self, p: Pass) -> bool {
        self.0.contains(&p)
    }

    /// `all`, `none`, or a comma-separated list of pass names (applied in
    /// the fixed order whatever order they are named in).
    pub fn parse(s: &str) -> Result<Passes, String> {
        match s.trim() {
            "all" => return Ok(Passes::all()),
            "none" => return Ok(Passes::none()),
            _ => {}
        }
        let mut out = vec![];
        for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match Pass::ALL.iter().find(|p| p.name() == name) {
                Some(p) => out.push(*p),
                None => {
                    let names: Vec<&str> = Pass::ALL.iter().map(|p| p.name()).collect();
                    return Err(format!(
                        "unknown pass `{name}`: the passes are {}, or `all` or `none`",
                        names.join(", ")
                    ));
                }
            }
        }
        Ok(Passes(
            Pass::ALL
                .iter()
                .copied()
                .filter(|p| out.contains(p))
                .collect(),
        ))
    }
}

/// The order the passes run in. Zone lengths run first (see [`Pass::ALL`]).
/// Folding over the board runs before
/// inlining, so that a function such as `last_row() = max(c in nodes: c.row)`
/// is a constant when its callers paste it, and again after, for aggregates
/// that inlining has just made foldable. The rest is explained at
/// [`Pass::ALL`].
const SCHEDULE: [Pass; 11] = [
    Pass::ZoneLen,
    Pass::FoldBoard,
    Pass::Inline,
    Pass::FoldBoard,
    Pass::Consts,
    Pass::ZonePred,
    Pass::Searches,
    Pass::BoardIndex,
    Pass::Splice,
    Pass::FnTables,
    Pass::Bytecode,
];

/// Applies the enabled passes to a checked game, in [`SCHEDULE`]'s order.
pub fn run(g: &mut Game, passes: &Passes) {
    for p in SCHEDULE {
        if !passes.has(p) {
            continue;
        }
        match p {
            Pass::ZoneLen => zone_len::run(g),
            Pass::Inline => inline::run(g, passes.has(Pass::FnTables)),
            Pass::Consts => consts::run(g),
            Pass::FoldBoard => fold_board::run(g),
            Pass::BoardIndex => board_index::run(g),
            Pass::ZonePred => zone_pred::run(g),
            Pass::Searches => searches::run(g),
            Pass::Splice => splice::run(g),
            Pass::FnTables => fn_tables::run(g),
            Pass::Bytecode => bytecode::run(g, passes.has(Pass::Keep)),
            // Applied by the bytecode pass, which compiles the sites.
            Pass::Keep => {}
            // Applied by the pipeline, which compiles each copy ([`split`]).
            Pass::Players => {}
        }
    }
}

/// The game specialised to runs of the player counts from `lo` to `hi`,
/// `(min, max, game)`, when not every count makes the same variables
/// constants (the `players` pass, `players.rs`); empty otherwise, or when
/// the pass is off.
pub fn split(g: &Game, passes: &Passes, lo: usize, hi: usize) -> Vec<(usize, usize, Game)> {
    if !passes.has(Pass::Players) {
        return vec![];
    }
    players::split(g, lo, hi)
}

/// The rewrites for one expression compiled against a game that has been
/// through [`run`] already (a scenario's expectations): zone lengths, the
/// one pass that applies to an expression on its own.
pub fn run_expr(e: &mut Expr) {
    zone_len::expr(e);
}
