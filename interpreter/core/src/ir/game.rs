//! The whole compiled program, `Game`, and the name tables the checker
//! keeps with it (`Symbols`) so that more expressions can be compiled
//! against a checked game later (scenario expectations, debug views).

use super::*;
use crate::board::Board;
use crate::diag::Span;
use indexmap::IndexMap;
use std::sync::Arc;

/// An immutable, compiled game: shared by every match of it (behind an `Arc`).
#[derive(Clone, Debug)]
pub struct Game {
    pub name: String,
    pub variants: Vec<String>,
    /// `summary "…"`: what the game is, shown by `rules` at the play prompt.
    pub summary: Option<String>,
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
    /// Functions of board elements whose bodies read only the static board,
    /// with every value computed at check time (the `fn-tables` pass); a
    /// function names its table in [`FnDecl::table`].
    pub fn_tables: Vec<FnTable>,
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
    /// Per piece: the lowest piece of its kind with the same owner and
    /// fields (its twins share it; see `check/twins.rs`).
    pub piece_class: Vec<u32>,
    /// Per kind: whether two of its pieces are twins.
    pub kind_twins: Vec<bool>,
    /// The zone decl each piece starts in (`None`: the `box`).
    pub piece_start: Vec<Option<u16>>,
    /// Field id → value per piece.
    pub fields: Vec<Vec<Val>>,
    pub node_attrs: Vec<(String, Ty, Vec<Val>)>,
    /// Per node attribute: the nodes by value ([`AttrIndex`]), so that
    /// `nodes where ATTR == x` is a lookup.
    pub node_attr_index: Vec<AttrIndex>,
    /// Key tables for lookups by several attributes (`Expr::NodeByKey`),
    /// built by the `board-index` pass.
    pub keys: Vec<KeyTable>,
    pub edge_attrs: Vec<(String, Ty, Vec<Val>)>,
    pub fns: Vec<FnDecl>,
    pub procs: Vec<ProcDecl>,
    pub actions: Vec<ActionDecl>,
    /// The blocks as the rules wrote them: statements with nested blocks.
    pub blocks: Vec<Vec<Stmt>>,
    /// What the executor runs: each block with its `if`s laid out as jumps
    /// (see `codegen.rs`), under the same ids as `blocks`.
    pub code: Vec<Vec<Step>>,
    /// The `for` statements the machine runs whole, by block and place in
    /// it, and their programs (the `bytecode` pass; `codegen.rs` reads it).
    pub loop_code: std::collections::BTreeMap<(BlockId, u32), u32>,
    /// The runs of statements the machine runs whole, by block and place of
    /// their first: the place after their last, and their program.
    pub run_code: std::collections::BTreeMap<(BlockId, u32), (u32, u32)>,
    pub templates: Vec<Template>,
    /// Compiled expressions, named by [`Expr::Code`] (the `bytecode` pass).
    pub programs: Vec<Program>,
    /// The zone predicates the executor keeps counts and sets of nodes for,
    /// instead of scanning the board (the `zone-pred` pass fills it).
    pub zindex: ZPredIndex,
    /// The expressions whose values a position keeps between decisions
    /// (the `keep` pass, with the `bytecode` pass).
    pub kept: KeptSites,
    pub setup: Option<(BlockId, u16)>,
    pub play: (BlockId, u16),
    /// The score of a player (bound in local 0) and whether lower is better.
    pub score: Option<(Expr, u16, bool)>,
    pub tiebreaks: Vec<(Expr, u16)>,
    pub team: Option<(Expr, u16)>,
    pub invariants: Vec<(String, Expr, u16, Span)>,
    /// The declared statistics, read at the end of each game (`regel simulate`, `regel compare`).
    pub statistics: Vec<Statistic>,
    /// Display names and declared displays (`ir/present.rs`).
    pub present: Presentation,
    /// The zone decl index of the built-in `box`.
    pub box_zone: u16,
    /// The checker's symbol tables, kept so that expressions can be compiled
    /// against a checked game later (scenario expectations, debug views).
    pub symbols: Symbols,
    /// A ruleset with a board per range of player counts (`board "…" for
    /// 2..3`): the game compiled for each range, `(min, max, game)`; one
    /// compiled per run of player counts (the `players` pass,
    /// `opt/players.rs`): `(min, max, game)` for each run. Empty for a
    /// ruleset with one board and one program for every count;
    /// `Match::new` picks by player count.
    pub by_players: Vec<(usize, usize, Arc<Game>)>,
}

impl Game {
    /// The compiled game for `players` players: itself, unless the ruleset
    /// names a board per range of player counts or is compiled per run of
    /// counts.
    pub fn for_players(self: &Arc<Game>, players: usize) -> Arc<Game> {
        self.by_players
            .iter()
            .find(|(lo, hi, _)| (*lo..=*hi).contains(&players))
            .map(|g| g.2.clone())
            .unwrap_or_else(|| self.clone())
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
            [a, b, ..] => format!(
                "{}.{name}[{}]",
                self.dim_value(*a, i / stride),
                self.dim_value(*b, i % stride)
            ),
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
        let words: Vec<String> = dims
            .iter()
            .map(|d| match d {
                Dim::Player => "player".to_string(),
                Dim::Node => "node".to_string(),
                Dim::Edge => "edge".to_string(),
                Dim::Enum(e) => format!("`{}`", self.enums[*e as usize].name),
            })
            .collect();
        words.join(" and ")
    }
    /// The distance from node `a` to node `b` (-1: unreachable) read from
    /// the board's table, if the game has one (`tables.rs`).
    #[inline]
    pub fn table_distance(&self, a: usize, b: usize) -> Option<Val> {
        if self.dist.is_empty() {
            return None;
        }
        Some(self.dist[a * self.board.nodes.len() + b] as Val)
    }

    /// The zone declaration that a zone id belongs to, and its index within it.
    pub fn zone_decl(&self, zone_id: u32) -> (usize, u32) {
        let i = self.zones.partition_point(|z| z.base + z.count <= zone_id);
        (i, zone_id - self.zones[i].base)
    }
}

/// Boards up to this many nodes get a precomputed distance table.
pub const DIST_TABLE_MAX: usize = 1024;

/// The nodes with each value of one attribute: node ids sorted by value
/// (ties by id, the board's order), and where each value's run starts. A
/// small range of values is a table from value to run; a wide one is
/// found by binary search.
#[derive(Clone, Debug)]
pub struct AttrIndex {
    keys: Vec<Val>,
    order: Vec<u32>,
    lo: Val,
    /// For the values `lo ..= lo + starts.len() - 2`: where each one's run
    /// starts in `order` (and the last entry where the runs end); empty
    /// when the values span too wide a range.
    starts: Vec<u32>,
}

impl AttrIndex {
    pub fn new(vals: &[Val]) -> AttrIndex {
        let mut order: Vec<u32> = (0..vals.len() as u32).collect();
        order.sort_by_key(|&n| (vals[n as usize], n));
        let keys: Vec<Val> = order.iter().map(|&n| vals[n as usize]).collect();
        let (lo, hi) = match (keys.first(), keys.last()) {
            (Some(&lo), Some(&hi)) => (lo, hi),
            _ => (0, -1),
        };
        let span = hi as i128 - lo as i128 + 1;
        let starts = if span <= (4 * keys.len() as i128).max(64) {
            (0..=span)
                .map(|d| keys.partition_point(|&k| (k as i128) < lo as i128 + d) as u32)
                .collect()
        } else {
            vec![]
        };
        AttrIndex {
            keys,
            order,
            lo,
            starts,
        }
    }

    /// The nodes whose attribute is `v`, lowest id first.
    #[inline]
    pub fn nodes(&self, v: Val) -> &[u32] {
        let (a, b) = if self.starts.is_empty() {
            (
                self.keys.partition_point(|&k| k < v),
                self.keys.partition_point(|&k| k <= v),
            )
        } else {
            // `v - lo` unsigned: below `lo` it wraps past every run.
            let d = v.wrapping_sub(self.lo) as u64 as usize;
            match (self.starts.get(d), self.starts.get(d.wrapping_add(1))) {
                (Some(&a), Some(&b)) => (a as usize, b as usize),
                _ => (0, 0),
            }
        };
        &self.order[a..b]
    }
}

/// A function's values for every node or edge its one or two read
/// parameters may hold (see `opt/fn_tables.rs`). Entry `x * sizes[1] + y`
/// holds the value of the call with those parameters at `x` and `y`, and
/// the steps the call charges; [`FnTable::MISS`] marks a call that fails
/// or has to run (it runs as it would without the table).
#[derive(Clone, Debug)]
pub struct FnTable {
    pub func: u16,
    /// The parameters the body reads (the second `None` for one).
    pub args: (u16, Option<u16>),
    /// The number of nodes or edges each read parameter ranges over (1
    /// for an absent second).
    pub sizes: [u32; 2],
    pub entries: Vec<(Val, u32)>,
}

impl FnTable {
    /// The value that marks an entry to be computed by calling.
    pub const MISS: Val = Val::MIN;

    /// Calls at most this deep below the table's call are tabulated: a
    /// table answers only while the caller is at most this far from the
    /// call depth limit, where every tabulated call would have succeeded.
    pub const DEPTH: u32 = 40;
}

#[derive(Clone, Copy, Debug)]
pub enum Sym {
    Const(Val, Ty),
    /// A constant list: its index in `Game::lists` and its items' type.
    List(u32, Ty),
    Var(usize),
    Zone(usize),
    Enum(u16),
    Fn(u16),
    Proc(u16),
    Action(u16),
    Kind(u16),
}

/// The global namespace of a checked game.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    pub(crate) globals: IndexMap<String, (Sym, Span)>,
    pub(crate) player_members: IndexMap<String, Sym>,
    pub(crate) node_members: IndexMap<String, Sym>,
    pub(crate) edge_members: IndexMap<String, Sym>,
    /// State declared `per ENUM per B`, by enumeration and name (`m.NAME[b]`).
    pub(crate) enum_members: IndexMap<(u16, String), Sym>,
    pub(crate) members: IndexMap<String, Vec<(u16, u16)>>,
    pub(crate) fn_sigs: Vec<(Vec<Ty>, Ty)>,
    pub(crate) proc_sigs: Vec<Vec<Ty>>,
    pub(crate) texts: IndexMap<String, ()>,
}

pub fn type_name(g: &Game, t: Ty) -> String {
    let s = match t.scalar {
        Scalar::Int => "int".to_string(),
        Scalar::Bool => "bool".into(),
        Scalar::Player => "player".into(),
        Scalar::Node => "node".into(),
        Scalar::Edge => "edge".into(),
        Scalar::Piece(None) => "piece".into(),
        Scalar::Piece(Some(k)) => g
            .kinds
            .get(k as usize)
            .map(|k| format!("piece `{}`", k.name))
            .unwrap_or_else(|| "piece".into()),
        Scalar::Enum(e) => g
            .enums
            .get(e as usize)
            .map(|e| format!("`{}`", e.name))
            .unwrap_or_default(),
        Scalar::Text => "text".into(),
        Scalar::Zone(None) => "zone".into(),
        Scalar::Zone(Some(k)) => g
            .kinds
            .get(k as usize)
            .map(|k| format!("zone of `{}`", k.name))
            .unwrap_or_else(|| "zone".into()),
        Scalar::Set(Elems::Nodes) => "nodes (a set of nodes)".into(),
        Scalar::Set(Elems::Edges) => "edges (a set of edges)".into(),
        Scalar::Nothing => "`none`".into(),
        Scalar::Error => "an erroneous value".into(),
    };
    if t.list {
        format!("list of {s}")
    } else {
        s
    }
}

/// A constant (an option's default) for summaries.
pub fn display_const(g: &Game, t: Ty, e: Option<&Expr>) -> String {
    match e {
        Some(Expr::Const(v)) => match t.scalar {
            Scalar::Bool => (if *v != 0 { "true" } else { "false" }).into(),
            Scalar::Enum(en) => g.enums[en as usize]
                .members
                .get(*v as usize)
                .cloned()
                .unwrap_or_default(),
            _ => v.to_string(),
        },
        _ => "?".into(),
    }
}

/// Whether a value of type `t` may be one of two twins.
pub fn may_twin(twins: &[bool], t: Ty) -> bool {
    match t.scalar {
        Scalar::Piece(Some(k)) => !t.list && twins[k as usize],
        Scalar::Piece(None) => !t.list && twins.iter().any(|&x| x),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nodes with a value, lowest id first, are those a scan of the
    /// column finds, for values inside, between and outside the column's,
    /// with the table (a narrow range) and the binary search (a wide one).
    #[test]
    fn an_attribute_index_finds_the_nodes_a_scan_finds() {
        let narrow = vec![3, -1, 3, 5, -1, 3];
        let wide = vec![Val::MIN, 7, Val::MAX, 7, 0];
        for col in [narrow, wide] {
            let ix = AttrIndex::new(&col);
            let probes = col
                .iter()
                .flat_map(|&v| [v, v.wrapping_add(1), v.wrapping_sub(1)])
                .chain([Val::MIN, Val::MAX, 0, 4, -2, 6]);
            for v in probes {
                let scan: Vec<u32> = (0..col.len() as u32)
                    .filter(|&n| col[n as usize] == v)
                    .collect();
                assert_eq!(ix.nodes(v), scan.as_slice(), "value {v} of {col:?}");
            }
        }
        assert!(!AttrIndex::new(&[3, -1, 5]).starts.is_empty(), "a table");
        assert!(
            AttrIndex::new(&[Val::MIN, Val::MAX]).starts.is_empty(),
            "a search"
        );
        assert_eq!(AttrIndex::new(&[]).nodes(0), &[] as &[u32]);
    }
}
