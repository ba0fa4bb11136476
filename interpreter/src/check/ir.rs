//! The compiled, executable form of a ruleset. Every name is resolved to a
//! dense index and every value is an `i64` whose meaning (an integer, a seat,
//! a node, a piece, an enum member…) the checker has fixed statically. This is
//! what makes matches cheap to step and to clone.

use crate::ast::{AssignOp, BinOp, MovePos, Scope, VisKind};
use crate::diag::Span;

/// A runtime value. Its type is known statically; `NONE` is the absent value
/// of seat, node, edge and piece types.
pub type Val = i64;
pub const NONE: Val = -1;
/// The largest table: per-player storage is laid out for this many seats.
pub const MAX_SEATS: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    Int,
    Bool,
    Player,
    Node,
    Edge,
    /// A piece of one kind, or of any kind (`None`).
    Piece(Option<u16>),
    Enum(u16),
    Text,
    /// A zone holding pieces of one kind, or of any kind.
    Zone(Option<u16>),
    /// The type of the literal `none`, compatible with seats, nodes, edges and pieces.
    Nothing,
    /// The type of an expression that already has an error: it fits anywhere,
    /// so one mistake is reported once.
    Error,
}

/// A scalar or a list of scalars (lists exist only as temporaries and locals).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ty {
    pub scalar: Scalar,
    pub list: bool,
}

impl Ty {
    pub const INT: Ty = Ty { scalar: Scalar::Int, list: false };
    pub const BOOL: Ty = Ty { scalar: Scalar::Bool, list: false };
    pub const PLAYER: Ty = Ty { scalar: Scalar::Player, list: false };
    pub const NODE: Ty = Ty { scalar: Scalar::Node, list: false };
    pub const EDGE: Ty = Ty { scalar: Scalar::Edge, list: false };
    pub const TEXT: Ty = Ty { scalar: Scalar::Text, list: false };
    pub const NOTHING: Ty = Ty { scalar: Scalar::Nothing, list: false };
    pub const ERR: Ty = Ty { scalar: Scalar::Error, list: false };
    pub fn one(scalar: Scalar) -> Ty {
        Ty { scalar, list: false }
    }
    pub fn list_of(scalar: Scalar) -> Ty {
        Ty { scalar, list: true }
    }
    pub fn elem(self) -> Ty {
        Ty { scalar: self.scalar, list: false }
    }
}

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
    NumPlayers,
    Next,
    Prev,
    Abs,
    Min2,
    Max2,
    /// The last piece of a zone (its top), or none.
    Top,
    Bottom,
    Random,
    First,
    Empty,
    Count,
    SumList,
    ZoneOf,
    NodeOf,
    Revealed,
    EdgeBetween,
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
}

/// One dimension of a zone or variable declared `per A [per B]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    Player,
    Node,
    Edge,
    Enum(u16),
}

#[derive(Clone, Debug)]
pub enum ZIndex {
    Global,
    Player(Box<E>),
    Node(Box<E>),
    Edge(Box<E>),
    /// State declared `per ENUM` or with two dimensions: the slot within the
    /// declaration (an enum member, or [`E::Pos2`]), and how many slots it has.
    At(Box<E>, u32),
    /// A zone-typed value (a local or parameter holding a zone id).
    Value(Box<E>),
}

#[derive(Clone, Debug)]
pub struct ZoneRef {
    pub base: u32,
    pub index: ZIndex,
}

#[derive(Clone, Debug)]
pub enum E {
    Const(Val),
    Local(u16),
    /// A variable (or option) slot: `base + index`.
    Var(u32, Option<Box<E>>),
    Field(u32, Box<E>),
    Owner(Box<E>),
    NodeAttr(u16, Box<E>),
    EdgeAttr(u16, Box<E>),
    EdgeFrom(Box<E>),
    EdgeTo(Box<E>),
    Zone(ZoneRef),
    Agg { op: AggOp, coll: Box<C>, slot: u16, body: Option<Box<E>> },
    Neg(Box<E>),
    Not(Box<E>),
    Bin(BinOp, Box<E>, Box<E>),
    In(Box<E>, Box<C>),
    If(Box<E>, Box<E>, Box<E>),
    Call { func: u16, args: Vec<E>, span: Span },
    Builtin(Builtin, Vec<E>, Option<Box<C>>, Span),
    IsKind(Box<E>, u16),
    /// The slot of a two-dimensional declaration: `a * stride + b`, where
    /// `a` and `b` must not be `none`.
    Pos2(Box<E>, Box<E>, u32),
    /// The number of pieces in a zone (`count(z)` of a plain zone).
    ZoneLen(ZoneRef),
    /// Whether a zone is empty (`empty(z)` of a plain zone).
    ZoneEmpty(ZoneRef),
    /// `any`, `all` or `count` over all nodes of a test of each node's own
    /// zones (see [`ZPred`]).
    NodesZoneAgg(AggOp, ZPred),
}

#[derive(Clone, Debug)]
pub enum C {
    Zone(ZoneRef),
    Players,
    PlayersFrom(E),
    Opponents(E),
    Nodes,
    Edges,
    Successors(E),
    Predecessors(E),
    Neighbors(E),
    EdgesOf(E),
    Range(E, E),
    List(Vec<E>),
    /// `reachable(n, C)`: the nodes of `C` joined to `n` by a path inside
    /// `C`, in board order.
    Reachable(E, Box<C>),
    /// `nodes where ATTR == x`, answered from the attribute's index.
    NodesWithAttr(u16, E),
    /// `nodes where P`, where `P` only tests the sizes of the node's own
    /// zones (`empty(it.cell) and …`): evaluated without the expression machine.
    NodesWhereZones(ZPred),
    Filter(Box<C>, u16, E),
    Map(Box<C>, u16, E),
    Distinct(Box<C>, u16, E),
    Sorted(Box<C>, u16, E),
}

pub type BlockId = u32;

#[derive(Clone, Debug)]
pub enum Place {
    Local(u16),
    Var(u32, Option<Box<E>>),
}

#[derive(Clone, Debug)]
pub enum MoveWhat {
    One(E),
    All(Box<C>),
    N(E, Box<C>),
}

#[derive(Clone, Debug)]
pub enum S {
    Let(u16, E),
    Assign(Place, AssignOp, E),
    If(E, BlockId, Option<BlockId>),
    For(u16, Box<C>, BlockId),
    While(E, BlockId),
    Break,
    Continue,
    Return,
    Move(MoveWhat, Box<ZoneRef>, MovePos),
    Shuffle(ZoneRef),
    Choose { slot: u16, player: E, from: Box<C>, label: Option<u32>, ty: Ty },
    Act { player: E, actions: Vec<u16>, els: Option<BlockId> },
    Call(u16, Vec<E>),
    Log(u32),
    EndGame,
    Reveal(E, bool),
    Require(E),
    /// In executable code only ([`crate::check::Game::code`]): go to
    /// statement `.1` of this block unless the condition holds.
    JumpUnless(E, u32),
    /// In executable code only: go to statement `.0` of this block.
    Jump(u32),
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub s: S,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TPart {
    Text(String),
    Hole(E, Ty),
}

#[derive(Clone, Debug)]
pub struct Template {
    pub parts: Vec<TPart>,
}

#[derive(Clone, Debug)]
pub struct ZoneDecl {
    pub name: String,
    pub scope: Scope,
    /// What indexes it: none (global), one or two dimensions.
    pub dims: Vec<Dim>,
    /// The number of slots per value of the first dimension (1 for one
    /// dimension): slot `i` belongs to first index `i / stride`.
    pub stride: u32,
    pub kind: Option<u16>,
    pub vis: VisKind,
    pub unless: Option<E>,
    pub base: u32,
    pub count: u32,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct VarDecl {
    pub name: String,
    pub scope: Scope,
    pub dims: Vec<Dim>,
    pub stride: u32,
    pub ty: Ty,
    pub init: Option<E>,
    pub base: u32,
    pub count: u32,
    pub is_option: bool,
    pub owner_only: bool,
    /// Declared `hidden`: no view shows it (scratch state of the rules).
    pub hidden: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct KindDecl {
    pub name: String,
    pub per_player: bool,
    /// (field name, type, global field id)
    pub fields: Vec<(String, Ty, u32)>,
    pub label: Option<u32>,
    pub start: Option<u16>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ProcDecl {
    pub name: String,
    pub params: Vec<(u16, Ty)>,
    pub nlocals: u16,
    pub body: BlockId,
    pub is_phase: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ActionParam {
    pub name: String,
    pub slot: u16,
    pub ty: Ty,
    pub domain: C,
    /// Bit i set: the domain reads parameter i, so it is re-evaluated per prefix.
    pub deps: u32,
}

#[derive(Clone, Debug)]
pub struct ActionDecl {
    pub name: String,
    pub params: Vec<ActionParam>,
    /// Leading `require`s with the mask of parameters each one reads. A
    /// requirement that reads none is checked once per decision.
    pub pre: Vec<(E, u32, Span)>,
    pub label: Option<u32>,
    pub body: BlockId,
    pub nlocals: u16,
    /// No domain reads another parameter and no `require` reads two: the
    /// options are the product of the filtered domains and are never listed.
    pub product: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FnDecl {
    pub name: String,
    pub nparams: u16,
    pub nlocals: u16,
    pub body: E,
}

#[derive(Clone, Debug)]
pub struct EnumDecl {
    pub name: String,
    pub members: Vec<String>,
}

/// A test of a node's own zones, for [`C::NodesWhereZones`]. Zones are given
/// by the `base` of their per-node declaration.
#[derive(Clone, Debug)]
pub enum ZPred {
    /// Every zone listed (by base) is empty: the commonest test, a free cell.
    AllEmpty(Vec<u32>),
    Len(u32, BinOp, Val),
    And(Box<ZPred>, Box<ZPred>),
    Or(Box<ZPred>, Box<ZPred>),
    Not(Box<ZPred>),
}
