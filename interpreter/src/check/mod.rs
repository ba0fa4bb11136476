//! Check: resolves every name, type and board reference of a merged ruleset
//! and lowers it to the executable [`Game`]. It reports all problems it finds,
//! not only the first. Entry point: [`check`].
//!
//! **Architecture Invariant:** a ruleset that passes `check` cannot fail at
//! run time on a name or a type; what remains for run time is data-dependent
//! (an empty zone drawn from, the step budget).

mod adhoc;
mod boards;
mod counts;
mod decls;
mod expr;
mod flatten;
mod inline;
mod splice;
pub mod ir;
pub mod load;
mod stmt;

use crate::board::Board;
use crate::diag::{Diagnostic, Diagnostics, Sources, Span};
use indexmap::IndexMap;
use ir::*;
use std::path::Path;
use std::sync::Arc;

pub use adhoc::compile_expr;
pub use load::Reader;

/// An immutable, compiled game: shared by every match of it (behind an `Arc`).
#[derive(Clone, Debug)]
pub struct Game {
    pub name: String,
    pub variants: Vec<String>,
    pub min_players: usize,
    pub max_players: usize,
    pub seats: Vec<String>,
    pub board: Arc<Board>,
    pub enums: Vec<EnumDecl>,
    /// The items of constant lists (`const NAME = [2, 3, 5]`).
    pub lists: Vec<Vec<Val>>,
    /// Node-to-node distances (`n * n`, row = from), computed at check time
    /// when the rules use `distance` on a board of at most
    /// [`DIST_TABLE_MAX`] nodes; empty otherwise.
    pub dist: Vec<i16>,
    pub texts: Vec<String>,
    pub kinds: Vec<KindDecl>,
    pub zones: Vec<ZoneDecl>,
    pub nzones: u32,
    pub vars: Vec<VarDecl>,
    pub nvars: u32,
    /// Option name → var index.
    pub options: IndexMap<String, usize>,
    pub piece_kind: Vec<u16>,
    pub piece_owner: Vec<i8>,
    /// The zone decl each piece starts in (`None`: the `box`).
    pub piece_start: Vec<Option<u16>>,
    /// Field id → value per piece.
    pub fields: Vec<Vec<Val>>,
    pub node_attrs: Vec<(String, Ty, Vec<Val>)>,
    /// Per node attribute: node ids sorted by value, and those values, so that
    /// `nodes where ATTR == x` is a binary search.
    pub node_attr_index: Vec<(Vec<Val>, Vec<u32>)>,
    pub edge_attrs: Vec<(String, Ty, Vec<Val>)>,
    pub fns: Vec<FnDecl>,
    pub procs: Vec<ProcDecl>,
    pub actions: Vec<ActionDecl>,
    /// The blocks as the rules wrote them: statements with nested blocks.
    pub blocks: Vec<Vec<Stmt>>,
    /// What the executor runs: each block with its `if`s laid out as jumps
    /// (see `check/flatten.rs`), under the same ids as `blocks`.
    pub code: Vec<Vec<Stmt>>,
    pub templates: Vec<Template>,
    pub setup: Option<(BlockId, u16)>,
    pub play: (BlockId, u16),
    /// The score of a player (bound in local 0) and whether lower is better.
    pub score: Option<(E, u16, bool)>,
    pub tiebreaks: Vec<(E, u16)>,
    pub team: Option<(E, u16)>,
    pub invariants: Vec<(String, E, u16, Span)>,
    /// The zone decl index of the built-in `box`.
    pub box_zone: u16,
    /// The checker's symbol tables, kept so that expressions can be compiled
    /// against a checked game later (scenario expectations, debug views).
    pub symbols: decls::Symbols,
    /// A ruleset with a board per range of player counts (`board "…" for
    /// 2..3`): the game compiled for each range, `(min, max, game)`. Empty for
    /// a ruleset with one board; `Match::new` picks by player count.
    pub by_players: Vec<(usize, usize, Arc<Game>)>,
}

impl Game {
    /// The compiled game for `players` players: itself, unless the ruleset
    /// names a board per range of player counts.
    pub fn for_players(self: &Arc<Game>, players: usize) -> Arc<Game> {
        self.by_players.iter().find(|(lo, hi, _)| (*lo..=*hi).contains(&players)).map(|g| g.2.clone()).unwrap_or_else(|| self.clone())
    }
}

impl Game {
    pub fn zone_name(&self, zone_id: u32) -> String {
        for z in &self.zones {
            if zone_id >= z.base && zone_id < z.base + z.count {
                return self.slot_name(&z.name, &z.dims, z.stride, zone_id - z.base);
            }
        }
        format!("zone#{zone_id}")
    }

    /// How slot `i` of a zone or variable is written: `NAME`, `x.NAME`,
    /// `NAME[m]` or `x.NAME[y]`.
    pub fn slot_name(&self, name: &str, dims: &[Dim], stride: u32, i: u32) -> String {
        match dims {
            [] => name.to_string(),
            [Dim::Enum(_)] => format!("{name}[{}]", self.dim_value(dims[0], i)),
            [d] => format!("{}.{name}", self.dim_value(*d, i)),
            [a, b, ..] => format!("{}.{name}[{}]", self.dim_value(*a, i / stride), self.dim_value(*b, i % stride)),
        }
    }

    /// The name of value `v` of a dimension.
    pub fn dim_value(&self, d: Dim, v: u32) -> String {
        let v = v as usize;
        match d {
            Dim::Player => self.seats[v].clone(),
            Dim::Node => self.board.nodes[v].id.clone(),
            Dim::Edge => self.board.edges[v].id.clone(),
            Dim::Enum(e) => self.enums[e as usize].members[v].clone(),
        }
    }

    /// Whether slot `i` exists in a match of `nplayers`: its player indices
    /// name seats in play.
    pub fn slot_live(&self, dims: &[Dim], stride: u32, i: u32, nplayers: u32) -> bool {
        match dims {
            [Dim::Player, ..] if i / stride >= nplayers => false,
            [_, Dim::Player] => i % stride < nplayers,
            _ => true,
        }
    }

    /// `per player per ability` and the like, for messages.
    pub fn dims_text(&self, dims: &[Dim]) -> String {
        let words: Vec<String> = dims.iter().map(|d| match d {
            Dim::Player => "player".to_string(),
            Dim::Node => "node".to_string(),
            Dim::Edge => "edge".to_string(),
            Dim::Enum(e) => format!("`{}`", self.enums[*e as usize].name),
        }).collect();
        words.join(" and ")
    }
    /// The zone declaration that a zone id belongs to, and its index within it.
    pub fn zone_decl(&self, zone_id: u32) -> (usize, u32) {
        let i = self.zones.partition_point(|z| z.base + z.count <= zone_id);
        (i, zone_id - self.zones[i].base)
    }
}

/// Boards up to this many nodes get a precomputed distance table.
pub const DIST_TABLE_MAX: usize = 1024;

/// Checks the ruleset at `path` (a game or a variant), reading files through
/// `read`. On success returns the game and its warnings.
pub fn check(sources: &mut Sources, read: Reader, path: &Path) -> Result<(Game, Diagnostics), Diagnostics> {
    let merged = load::load(sources, read, path, None)?;
    let over = counts::check(&merged.items);
    if !over.is_empty() {
        return Err(over);
    }
    decls::check_merged(sources, read, merged)
}

/// A short human summary of a checked game: what `regel check` prints and
/// what the ruleset snapshots record.
pub fn summary(g: &Game) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "game: {}", g.name);
    if !g.variants.is_empty() {
        let _ = writeln!(s, "variants: {}", g.variants.join(" <- "));
    }
    let _ = writeln!(s, "players: {}..{}", g.min_players, g.max_players);
    let _ = writeln!(s, "board: {} ({} nodes, {} edges{})", g.board.name, g.board.nodes.len(), g.board.edges.len(), if g.board.directed { ", directed" } else { "" });
    let opts: Vec<String> = g.options.iter().map(|(n, &v)| format!("{n} = {}", crate::eval::display_const(g, g.vars[v].ty, g.vars[v].init.as_ref()))).collect();
    let _ = writeln!(s, "options: {}", if opts.is_empty() { "none".into() } else { opts.join(", ") });
    let kinds: Vec<String> = g.kinds.iter().map(|k| {
        let n = g.piece_kind.iter().filter(|&&pk| g.kinds[pk as usize].name == k.name).count();
        format!("{} ({}{})", k.name, n, if k.per_player { ", per seat" } else { "" })
    }).collect();
    let _ = writeln!(s, "pieces: {}", kinds.join(", "));
    let zones: Vec<String> = g.zones.iter().filter(|z| z.name != "box").map(|z| {
        let scope: String = z.dims.iter().map(|d| match d {
            Dim::Player => "per player ".to_string(),
            Dim::Node => "per node ".to_string(),
            Dim::Edge => "per edge ".to_string(),
            Dim::Enum(e) => format!("per {} ", g.enums[*e as usize].name),
        }).collect();
        let vis = match z.vis { crate::ast::VisKind::Public => "public", crate::ast::VisKind::Hidden => "hidden", crate::ast::VisKind::Owner => "owner" };
        format!("{scope}{} ({vis}{})", z.name, if z.unless.is_some() { ", conditional" } else { "" })
    }).collect();
    let _ = writeln!(s, "zones: {}", zones.join(", "));
    let phases: Vec<&str> = g.procs.iter().filter(|p| p.is_phase).map(|p| p.name.as_str()).collect();
    let _ = writeln!(s, "phases: {}", if phases.is_empty() { "none".into() } else { phases.join(", ") });
    let actions: Vec<String> = g.actions.iter().map(|a| {
        let ps: Vec<&str> = a.params.iter().map(|p| p.name.as_str()).collect();
        format!("{}({})", a.name, ps.join(", "))
    }).collect();
    let _ = writeln!(s, "actions: {}", if actions.is_empty() { "none".into() } else { actions.join(", ") });
    let mut decisions = vec![];
    for b in &g.blocks {
        for st in b {
            match &st.s {
                S::Act { actions, .. } => decisions.push(format!("act [{}]", actions.iter().map(|&a| g.actions[a as usize].name.as_str()).collect::<Vec<_>>().join(", "))),
                S::Choose { ty, .. } => decisions.push(format!("choose {}", crate::eval::type_name(g, *ty))),
                _ => {}
            }
        }
    }
    let _ = writeln!(s, "decision points: {}", decisions.len());
    for d in decisions {
        let _ = writeln!(s, "  - {d}");
    }
    let _ = writeln!(s, "invariants: {}", g.invariants.len());
    s
}

pub(crate) fn err(code: &'static str, span: Span, msg: impl Into<String>, label: impl Into<String>) -> Diagnostic {
    Diagnostic::error(code, msg).at(span, label)
}

/// The closest of `candidates` to `name` by edit distance, for "did you mean" hints.
pub(crate) fn similar<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = edit_distance(name, c);
        if d <= (name.len().max(3) / 3).max(1) && best.map(|b| d < b.0).unwrap_or(true) {
            best = Some((d, c));
        }
    }
    best.map(|b| b.1.to_string())
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + usize::from(a[i - 1] != b[j - 1]));
        }
        prev = cur;
    }
    prev[b.len()]
}

