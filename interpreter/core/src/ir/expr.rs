//! Expressions (`Expr`, a value) and collections (`Coll`, elements pushed
//! onto the executor's scratch stack), as the checker lowers them.

use super::*;
use crate::ast::BinOp;
use crate::diag::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggOp {
    Count,
    Sum,
    Any,
    All,
    Min,
    Max,
    /// The first element whose body is largest (`best`) or smallest (`worst`).
    Best,
    Worst,
    /// The first element whose body holds, or `none` (no surface syntax:
    /// `first(c where p)` becomes this so that the search stops at a match).
    First,
    /// The last element whose body holds, searched from the end (no surface
    /// syntax: `last(z where p)` of a plain zone becomes this).
    Last,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `num_players`: how many play this match.
    NumPlayers,
    /// `next(p)`: the seat after `p` in turn order.
    Next,
    /// `prev(p)`: the seat before `p` in turn order.
    Prev,
    /// `abs(a)`: the absolute value, checked for overflow.
    Abs,
    /// `sign(a)`: -1, 0 or 1 as `a` is negative, zero or positive.
    Sign,
    /// `min(a, b)`: the smaller of two numbers.
    Min2,
    /// `max(a, b)`: the larger of two numbers.
    Max2,
    /// The last piece of a zone (its top), or none.
    Top,
    /// `bottom(z)`: the first piece of a zone (its bottom), or none.
    Bottom,
    /// `random(C)`: an element drawn with the match's generator; an empty collection is a run-time error.
    Random,
    /// `first(C)`: the first element of a collection, or none.
    First,
    /// `empty(C)`: whether a collection has no element.
    Empty,
    /// `count(C)`: how many elements a collection has.
    Count,
    /// `sum(C)` without a body: the sum of a collection of numbers.
    SumList,
    /// `zone_of(x)`: the zone a piece lies in.
    ZoneOf,
    /// `node_of(x)`: the node whose zone holds a piece, or none.
    NodeOf,
    /// `revealed(x)`: whether a piece has been shown to everybody by `reveal`.
    Revealed,
    /// `edge_between(a, b)`: the edge from node `a` to node `b`, or none.
    EdgeBetween,
    /// `team(p)`: the team of a seat, as the `team` declaration says.
    Team,
    /// Whether a seat may see a piece (`sees(p, x)`).
    Sees,
    /// The last element of a collection, or none (`-1`).
    Last,
    /// `C[i]`: the i-th element (1-based) of a list; out of range is a run-time error.
    ListAt,
    /// `z[i]`: the i-th piece of a zone from the bottom (1-based), or none.
    ZoneAt,
    /// `index(x, C)`: the 1-based position of `x` in a collection, 0 when absent.
    IndexOf,
    /// `distance(a, b)`: the fewest edges from node `a` to node `b`, or -1.
    Distance,
    /// `longest_path(E)`: the number of edges of the longest trail (no edge
    /// used twice, nodes may repeat) within the edge collection `E`.
    LongestPath,
    /// An operation on sets of nodes or edges (values of type `nodes` or
    /// `edges`, see [`SetOp`]), evaluated by the tree evaluator alone
    /// (`eval/expr/sets.rs`), which keeps the sets' words on the scratch
    /// stack.
    Set(SetOp, Elems),
}

/// The operations on sets of nodes or edges. A set value is the position on
/// the scratch stack of its bit words (one bit per node or edge of the
/// board); every operation that makes a set leaves its words at the height
/// the stack had when it began, and every operation that consumes sets
/// drops the stack back to that height, so sets take no memory beyond the
/// expression that uses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetOp {
    /// The set of the elements of a collection (the builtin's collection).
    Of,
    /// `S + x`: the set with one more element (`[S, x]`).
    With,
    /// `S - x`: the set without an element (`[S, x]`).
    Without,
    /// `S + T`: the union of two sets (`[S, T]`).
    Union,
    /// `S - T`: the elements of `S` not in `T` (`[S, T]`).
    Minus,
    /// `x in S`: whether a set holds an element (`[x, S]`).
    Has,
    /// `S == T`: whether two sets have the same elements (`[S, T]`).
    Same,
    /// A call whose result is a set (`[call]`): its result's words are moved
    /// down to where the stack stood before the arguments were evaluated.
    Keep,
    /// A call that takes sets but returns another value (`[call]`): the
    /// stack drops back to where it stood before the arguments.
    Drop,
}

#[derive(Clone, Debug)]
pub enum ZIndex {
    Global,
    Player(Box<Expr>),
    Node(Box<Expr>),
    Edge(Box<Expr>),
    /// State declared `per ENUM` or with two dimensions: the slot within the
    /// declaration (an enum member, or [`Expr::Pos2`]), and how many slots it has.
    At(Box<Expr>, u32),
    /// A zone-typed value (a local or parameter holding a zone id).
    Value(Box<Expr>),
}

#[derive(Clone, Debug)]
pub struct ZoneRef {
    pub base: u32,
    pub index: ZIndex,
}

#[derive(Clone, Debug)]
pub enum Expr {
    /// A value known at check time: `3`, `true`, `none`, `@a1`, a seat's name, an enum member, a `const`.
    Const(Val),
    /// A slot of the running frame: a parameter or a name bound by `let`, `for`, `choose` or an aggregate (`x`).
    Local(u16),
    /// A variable (or option) slot: `base + index`.
    Var(u32, Option<Box<Expr>>),
    /// `x.FIELD` of a piece: one of its kind's fields, by index.
    Field(u32, Box<Expr>),
    /// `x.owner`: the player a piece belongs to.
    Owner(Box<Expr>),
    /// `n.ATTR` of a node: a board attribute, by column.
    NodeAttr(u16, Box<Expr>),
    /// `e.ATTR` of an edge: a board attribute, by column.
    EdgeAttr(u16, Box<Expr>),
    /// `e.from`: the node an edge leaves.
    EdgeFrom(Box<Expr>),
    /// `e.to`: the node an edge reaches.
    EdgeTo(Box<Expr>),
    /// A zone as a value: `pile`, `p.hand`, `n.cell`, `stock[m]`.
    Zone(ZoneRef),
    /// `count(x in C: BODY)`, `sum(…)`, `any(…)`, `max(…)`, `best(…)`, …: an aggregate over a collection, its element in `slot`.
    Agg {
        op: AggOp,
        coll: Box<Coll>,
        slot: u16,
        body: Option<Box<Expr>>,
    },
    /// `-a`: minus, checked for overflow.
    Neg(Box<Expr>),
    /// `not a`.
    Not(Box<Expr>),
    /// `a + b`, `a == b`, `a and b`, …: a binary operator (`and`/`or` stop early).
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// `x in C`: whether a collection holds a value.
    In(Box<Expr>, Box<Coll>),
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `f(a, …)`: a call of a `fn`, by index; the span is for run-time errors.
    Call {
        func: u16,
        args: Vec<Expr>,
        span: Span,
    },
    /// `next(p)`, `top(z)`, `random(C)`, …: a builtin (see [`Builtin`]) with its arguments, the collection it reads if any, and the call's span for run-time errors.
    Builtin(Builtin, Vec<Expr>, Option<Box<Coll>>, Span),
    /// `x is KIND`: whether a piece is of a kind.
    IsKind(Box<Expr>, u16),
    /// The slot of a two-dimensional declaration: `a * stride + b`, where
    /// `a` and `b` must not be `none`.
    Pos2(Box<Expr>, Box<Expr>, u32),
    /// The number of pieces in a zone (`count(z)` of a plain zone).
    ZoneLen(ZoneRef),
    /// Whether a zone is empty (`empty(z)` of a plain zone).
    ZoneEmpty(ZoneRef),
    /// `any`, `all` or `count` over all nodes (or all edges) of a test of
    /// each one's own zones (see [`ZPred`]).
    ZoneAgg(AggOp, Elems, ZPred),
    /// `first(C where A == x and B == y …)` where the attributes are a key
    /// of the board (see `opt/board_index.rs`): the node with those values
    /// (`Game::keys[key]`) if it belongs to `within`, else `none`. Should a
    /// value fail to compute, `fallback` (the original search) runs instead.
    NodeByKey {
        key: u16,
        vals: Vec<Expr>,
        within: Box<Coll>,
        fallback: Box<Expr>,
    },
    /// The expression compiled to bytecode: `Game::programs[id]` (see
    /// `ir/bytecode.rs`), which keeps the expression it came from.
    Code(u32),
}

#[derive(Clone, Debug)]
pub enum Coll {
    /// A zone's pieces, bottom to top: `pile`, `p.hand`.
    Zone(ZoneRef),
    /// `players`: every seat in turn order.
    Players,
    /// `players_from(p)`: every seat in turn order, starting with `p`.
    PlayersFrom(Expr),
    /// `opponents(p)`: every seat but `p`, in turn order after `p`.
    Opponents(Expr),
    /// `nodes`: the board's nodes, in board order.
    Nodes,
    /// `edges`: the board's edges, in board order.
    Edges,
    /// `successors(n)`: the nodes an edge from `n` leads to.
    Successors(Expr),
    /// `predecessors(n)`: the nodes with an edge to `n`.
    Predecessors(Expr),
    /// `neighbors(n)`: the nodes joined to `n` by an edge either way.
    Neighbors(Expr),
    /// `edges_of(n)`: the edges leaving `n` (on an undirected board, touching it).
    EdgesOf(Expr),
    /// `a..b`: the integers from `a` to `b`, both included.
    Range(Expr, Expr),
    /// `[a, b, …]`: a list literal.
    List(Vec<Expr>),
    /// `reachable(n, C)`: the nodes of `C` joined to `n` by a path inside
    /// `C`, in board order.
    Reachable(Expr, Box<Coll>),
    /// `reachable(n, E)` of an edge collection: the nodes joined to `n` by a
    /// path using only edges of `E` (`n` itself included), in board order.
    ReachableVia(Expr, Box<Coll>),
    /// `components(C)`: one node per connected group of the node collection
    /// `C` (or of the nodes the edge collection `E` touches), the first of
    /// its group in board order, the groups in the order of those nodes.
    Components(Elems, Box<Coll>),
    /// The elements of a set of nodes or edges (a value of type `nodes` or
    /// `edges`), in board order.
    Members(Elems, Expr),
    /// `nodes where ATTR == x`, answered from the attribute's index.
    NodesWithAttr(u16, Expr),
    /// `nodes where P` (or `edges where P`), where `P` only tests the sizes
    /// of the element's own zones (`empty(it.cell) and …`), perhaps against
    /// its own attributes: evaluated without the expression machine.
    WhereZones(Elems, ZPred),
    /// `nodes where any(x in it.Z: x.owner == p)` (or `edges …`): the
    /// elements whose own zone `Z` (by its base) holds a piece of seat `p`,
    /// answered from the zone-predicate index, whose predicates
    /// [`ZPred::Owns`] of `Z` for seats 0, 1, … lie from slot `first` on
    /// (`u32::MAX`: none kept), or by a scan.
    ZonesOwned {
        on: Elems,
        base: u32,
        who: Expr,
        first: u32,
    },
    /// `C where COND`: the elements of `C` for which the condition holds, the element (`it`) in the slot.
    Filter(Box<Coll>, u16, Expr),
    /// `list(x in C: BODY)`: the body's value for each element (the elements themselves without a body).
    Map(Box<Coll>, u16, Expr),
    /// `distinct(x in C: BODY)`: the distinct values of the body in first-seen order (the distinct elements without a body).
    Distinct(Box<Coll>, u16, Expr),
    /// `sorted(x in C: KEY)`: the elements ordered by increasing key, a stable sort (by themselves without a key).
    Sorted(Box<Coll>, u16, Expr),
    /// `subsets(C, lo..hi)`: every sub-multiset of `C` with `lo` to `hi`
    /// elements (`hi` absent: all of them), each once however many twins it
    /// could be made of, as a bit mask over `C`'s elements. Listing it
    /// writes `C`'s elements into the frame's slots from `area` (their
    /// number, then the elements), where [`Coll::Subset`] reads them.
    /// `pieces`: the elements are pieces, whose twins (same kind, owner
    /// and fields, in one zone, equally revealed) count as one element;
    /// other elements are twins when they are equal.
    Subsets {
        of: Box<Coll>,
        lo: Expr,
        hi: Option<Expr>,
        area: u16,
        pieces: bool,
    },
    /// The elements of one subset: those of the area's list whose bit is set
    /// in the mask (a parameter or `choose` local holding a subset).
    Subset(Expr, u16),
    /// The collection compiled to bytecode: `Game::programs[id]` lists its
    /// elements (see `ir/bytecode.rs`) and keeps the collection it came from.
    Code(u32),
}

impl Coll {
    /// The area of the `subsets(…)` this collection lists (perhaps filtered
    /// by a `where`), if it is one: where a subset's elements are read.
    /// `programs` are the game's bytecode programs, which keep the
    /// collections they were compiled from (none at check time).
    pub fn subsets_area(&self, programs: &[Program]) -> Option<u16> {
        match self {
            Coll::Subsets { area, .. } => Some(*area),
            Coll::Filter(c, _, _) => c.subsets_area(programs),
            Coll::Code(id) => programs
                .get(*id as usize)
                .and_then(|p| p.listed())
                .and_then(|c| c.subsets_area(programs)),
            _ => None,
        }
    }
}

/// What a zone test ([`ZPred`]), a set or a network query ranges over: the
/// board's nodes or its edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elems {
    Nodes,
    Edges,
}

/// A test of a node's (or an edge's) own zones and variables, for
/// [`Coll::WhereZones`]. Zones are given by the `base` of their per-node
/// (per-edge) declaration, and so are variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ZPred {
    /// Every zone listed (by base) is empty: the commonest test, a free cell.
    AllEmpty(Vec<u32>),
    /// `count(zone) OP k`.
    Len(u32, BinOp, Val),
    /// `count(zone) OP a`, where `a` is the element's own attribute (by its
    /// index among the node or edge attributes): `count(r.stops) < r.length`.
    LenAttr(u32, BinOp, u16),
    /// The element's own zone (by its base) holds a piece of this seat; one
    /// per seat for [`Coll::ZonesOwned`].
    Owns(u32, u8),
    /// `v OP k` of the element's own variable `v` (declared `var per node`
    /// or `var per edge`, given by its base): `c.disc == none`.
    Var(u32, BinOp, Val),
    And(Box<ZPred>, Box<ZPred>),
    Or(Box<ZPred>, Box<ZPred>),
    Not(Box<ZPred>),
    /// The predicate kept as index `k` of [`Game::zindex`]: the `zone-pred`
    /// pass marks each use of an indexed predicate, so that the executor
    /// finds its index without comparing predicates.
    Indexed(u32, Box<ZPred>),
}

/// The zone predicates the executor keeps an index of (`eval/zindex.rs`):
/// every distinct [`ZPred`] the rules use with what it ranges over, and which
/// per-node (per-edge) zones each reads, so that a piece's move re-tests
/// only the nodes or edges it touched.
#[derive(Clone, Debug, Default)]
pub struct ZPredIndex {
    pub preds: Vec<(Elems, ZPred)>,
    /// `(base, k, on, seat)`: predicate `k`, over `on`, reads the per-node
    /// (per-edge) zones at `base`; only pieces of `seat` can change its
    /// answer ([`ZPred::Owns`]), or any piece's when `seat` is `u8::MAX`.
    pub watch: Vec<(u32, u32, Elems, u8)>,
    /// `(base, k, on)`: predicate `k`, over `on`, reads the per-node
    /// (per-edge) variable at `base`.
    pub var_watch: Vec<(u32, u32, Elems)>,
}

impl ZPredIndex {
    /// Adds `p` over `on` unless an equal predicate is indexed already.
    pub fn add(&mut self, on: Elems, p: &ZPred) {
        if self.preds.iter().any(|(o, q)| *o == on && q == p) {
            return;
        }
        let k = self.preds.len() as u32;
        let mut bases = vec![];
        p.bases(&mut bases);
        bases.sort_unstable();
        bases.dedup();
        let seat = match p {
            ZPred::Owns(_, s) => *s,
            _ => u8::MAX,
        };
        self.watch
            .extend(bases.into_iter().map(|b| (b, k, on, seat)));
        let mut vars = vec![];
        p.vars(&mut vars);
        vars.sort_unstable();
        vars.dedup();
        self.var_watch.extend(vars.into_iter().map(|b| (b, k, on)));
        self.preds.push((on, p.clone()));
    }

    /// The index of `p`, if it is indexed. The list is short (one to a
    /// few predicates per game), so a search costs less than a scan of
    /// the board would.
    #[inline]
    pub fn slot(&self, on: Elems, p: &ZPred) -> Option<usize> {
        if let ZPred::Indexed(k, _) = p {
            return Some(*k as usize);
        }
        self.preds.iter().position(|(o, q)| *o == on && q == p)
    }
}

impl ZPred {
    /// The bases of the per-node (per-edge) zones this test reads.
    pub fn bases(&self, out: &mut Vec<u32>) {
        match self {
            ZPred::AllEmpty(bs) => out.extend_from_slice(bs),
            ZPred::Len(b, _, _) | ZPred::LenAttr(b, _, _) | ZPred::Owns(b, _) => out.push(*b),
            ZPred::Var(..) => {}
            ZPred::And(a, b) | ZPred::Or(a, b) => {
                a.bases(out);
                b.bases(out);
            }
            ZPred::Not(a) | ZPred::Indexed(_, a) => a.bases(out),
        }
    }

    /// The bases of the per-node (per-edge) variables this test reads.
    pub fn vars(&self, out: &mut Vec<u32>) {
        match self {
            ZPred::Var(b, _, _) => out.push(*b),
            ZPred::AllEmpty(_) | ZPred::Len(..) | ZPred::LenAttr(..) | ZPred::Owns(..) => {}
            ZPred::And(a, b) | ZPred::Or(a, b) => {
                a.vars(out);
                b.vars(out);
            }
            ZPred::Not(a) | ZPred::Indexed(_, a) => a.vars(out),
        }
    }

    /// The predicate itself, without the mark of its index.
    pub fn plain(&self) -> &ZPred {
        match self {
            ZPred::Indexed(_, a) => a,
            p => p,
        }
    }
}

/// The most attributes a key lookup compares.
pub const MAX_KEY_ATTRS: usize = 4;

/// A set of node attributes whose values name at most one node each, with
/// the table that finds that node: dense over the values' ranges when they
/// are small, else sorted for a binary search.
#[derive(Clone, Debug)]
pub struct KeyTable {
    pub attrs: Vec<u16>,
    /// Per attribute, its smallest value and the size of its range. Fixed
    /// arrays rather than vectors: a lookup reads them in the table itself,
    /// not behind two more pointers, and its loop has a known bound (a
    /// lookup among all nodes took 56 instructions with vectors, 28 with
    /// arrays: callgrind, connect four).
    lo: [Val; MAX_KEY_ATTRS],
    extent: [u64; MAX_KEY_ATTRS],
    dense: Vec<i32>,
    sorted: Vec<(Vec<Val>, u32)>,
}

impl KeyTable {
    /// The table for `attrs` over the board's attribute columns, or `None`
    /// when two nodes share the same values (the attributes are no key) or
    /// there are more than [`MAX_KEY_ATTRS`] of them.
    pub fn build(attrs: &[u16], columns: &[Vec<Val>]) -> Option<KeyTable> {
        if attrs.len() > MAX_KEY_ATTRS {
            return None;
        }
        let n = columns.first().map_or(0, |c| c.len());
        let mut sorted: Vec<(Vec<Val>, u32)> = (0..n)
            .map(|node| {
                (
                    attrs.iter().map(|&a| columns[a as usize][node]).collect(),
                    node as u32,
                )
            })
            .collect();
        sorted.sort();
        if sorted.windows(2).any(|w| w[0].0 == w[1].0) {
            return None;
        }
        let mut lo = [0; MAX_KEY_ATTRS];
        let mut extent = [0; MAX_KEY_ATTRS];
        let mut cells: u64 = 1;
        for (i, _) in attrs.iter().enumerate() {
            let min = sorted.iter().map(|t| t.0[i]).min().unwrap_or(0);
            let max = sorted.iter().map(|t| t.0[i]).max().unwrap_or(0);
            let e = (max as i128 - min as i128 + 1).min(u64::MAX as i128) as u64;
            cells = cells.saturating_mul(e);
            lo[i] = min;
            extent[i] = e;
        }
        let mut t = KeyTable {
            attrs: attrs.to_vec(),
            lo,
            extent,
            dense: vec![],
            sorted: vec![],
        };
        if cells <= (4 * n as u64).max(4096) {
            t.dense = vec![-1; cells as usize];
            for (vals, node) in &sorted {
                let i = t.cell(vals).expect("every node's values lie in the ranges");
                t.dense[i] = *node as i32;
            }
        } else {
            t.sorted = sorted;
        }
        Some(t)
    }

    #[inline]
    fn cell(&self, vals: &[Val]) -> Option<usize> {
        let mut i: u64 = 0;
        for ((&v, &lo), &e) in vals.iter().zip(&self.lo).zip(&self.extent) {
            // `v - lo` as an unsigned number, so that one test rejects a
            // value on either side: below `lo` it wraps to at least `e`,
            // since `lo + e - 1`, the largest value, is a `Val` too.
            let d = v.wrapping_sub(lo) as u64;
            if d >= e {
                return None;
            }
            i = i * e + d;
        }
        Some(i as usize)
    }

    /// Whether [`KeyTable::find_pair`] answers this table: it is dense and
    /// has two attributes.
    pub fn is_dense_pair(&self) -> bool {
        self.sorted.is_empty() && self.attrs.len() == 2
    }

    /// As [`KeyTable::find`] for a table [`KeyTable::is_dense_pair`]
    /// accepts, with `NONE` for no node (a cell without one holds -1):
    /// the values come in registers, not through a slice the caller
    /// fills.
    #[inline]
    pub fn find_pair(&self, a: Val, b: Val) -> Val {
        debug_assert!(self.is_dense_pair());
        match self.cell(&[a, b]).and_then(|i| self.dense.get(i)) {
            Some(&n) => n as Val,
            None => NONE,
        }
    }

    /// The node with these values, if any.
    #[inline]
    pub fn find(&self, vals: &[Val]) -> Option<u32> {
        if self.sorted.is_empty() {
            let n = self.dense[self.cell(vals)?];
            (n >= 0).then_some(n as u32)
        } else {
            self.sorted
                .binary_search_by(|t| t.0.as_slice().cmp(vals))
                .ok()
                .map(|i| self.sorted[i].1)
        }
    }
}

impl Expr {
    /// The expression's debug text without its spans: two expressions
    /// written alike in different places have the same shape (where a call
    /// or a builtin was written does not change what it computes).
    pub fn shape(&self) -> String {
        without_spans(&format!("{self:?}"))
    }
}

/// An expression's debug text with its spans (`Span { … }`) taken out.
fn without_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("Span {") {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        rest = rest.find('}').map_or("", |end| &rest[end + 1..]);
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_taken_out_of_the_text() {
        let a = "Call { func: 3, args: [Local(0)], span: Span { file: 0, start: 10, end: 20 } }";
        let b = "Call { func: 3, args: [Local(0)], span: Span { file: 1, start: 99, end: 120 } }";
        assert_eq!(without_spans(a), without_spans(b));
        assert_eq!(
            without_spans(a),
            "Call { func: 3, args: [Local(0)], span:  }"
        );
        assert_ne!(
            without_spans(a),
            without_spans(&a.replace("func: 3", "func: 4"))
        );
    }

    /// A dense table answers every value inside its ranges and rejects
    /// every value outside them, at both ends and at the extremes of `Val`
    /// (where `v - lo` overflows).
    #[test]
    fn a_dense_key_table_finds_exactly_the_nodes() {
        // Three nodes: (row, col) = (-2, 7), (-1, 7), (-1, 8).
        let columns = vec![vec![-2, -1, -1], vec![7, 7, 8]];
        let t = KeyTable::build(&[0, 1], &columns).expect("the values name one node each");
        assert!(t.sorted.is_empty(), "four cells are a dense table");
        assert_eq!(t.find(&[-2, 7]), Some(0));
        assert_eq!(t.find(&[-1, 7]), Some(1));
        assert_eq!(t.find(&[-1, 8]), Some(2));
        assert_eq!(
            t.find(&[-2, 8]),
            None,
            "a cell of the ranges without a node"
        );
        for bad in [-3, 0, Val::MIN, Val::MAX] {
            assert_eq!(t.find(&[bad, 7]), None, "row {bad}");
        }
        for bad in [6, 9, Val::MIN, Val::MAX] {
            assert_eq!(t.find(&[-1, bad]), None, "col {bad}");
        }
        // Values at the extremes themselves: the largest one is found, and
        // the smallest (far below it) is not.
        let t = KeyTable::build(&[0], &[vec![Val::MAX - 1, Val::MAX]]).unwrap();
        assert_eq!(t.find(&[Val::MAX]), Some(1));
        assert_eq!(t.find(&[Val::MIN]), None);
        let t = KeyTable::build(&[0], &[vec![Val::MIN, Val::MIN + 1]]).unwrap();
        assert_eq!(t.find(&[Val::MIN]), Some(0));
        assert_eq!(t.find(&[Val::MAX]), None);
        assert_eq!(KeyTable::build(&[0], &[vec![3, 3]]).map(|_| ()), None);
    }

    /// `find_pair`, the machine's lookup of two values, answers as `find`
    /// for every pair of values in and around the ranges and at the
    /// extremes of `Val`; a table of one attribute, or a sorted one, is no
    /// pair table.
    #[test]
    fn a_pair_lookup_answers_as_find() {
        let columns = vec![vec![-2, -1, -1, 3], vec![7, 7, 8, 9]];
        let t = KeyTable::build(&[0, 1], &columns).unwrap();
        assert!(t.is_dense_pair());
        let mut probes: Vec<Val> = (-4..=10).collect();
        probes.extend([Val::MIN, Val::MAX]);
        for &a in &probes {
            for &b in &probes {
                let want = t.find(&[a, b]).map_or(NONE, |n| n as Val);
                assert_eq!(t.find_pair(a, b), want, "({a}, {b})");
            }
        }
        assert_eq!(t.find_pair(3, 9), 3);
        let one = KeyTable::build(&[0], &[vec![4, 5]]).unwrap();
        assert!(one.sorted.is_empty() && !one.is_dense_pair());
        let far = vec![vec![0, 1_000_000], vec![0, 1_000_000]];
        let sorted = KeyTable::build(&[0, 1], &far).unwrap();
        assert!(!sorted.sorted.is_empty() && !sorted.is_dense_pair());
    }
}
