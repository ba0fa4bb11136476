//! Values and types: every run-time value is an `i64` whose type the
//! checker has fixed.

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
    /// A set of nodes or of edges (the types `nodes` and `edges`): a value
    /// that lives only while an expression is evaluated, so only a `fn`'s
    /// parameters and results have it (see `ir::SetOp`).
    Set(super::Elems),
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
    pub const INT: Ty = Ty {
        scalar: Scalar::Int,
        list: false,
    };
    pub const BOOL: Ty = Ty {
        scalar: Scalar::Bool,
        list: false,
    };
    pub const PLAYER: Ty = Ty {
        scalar: Scalar::Player,
        list: false,
    };
    pub const NODE: Ty = Ty {
        scalar: Scalar::Node,
        list: false,
    };
    pub const EDGE: Ty = Ty {
        scalar: Scalar::Edge,
        list: false,
    };
    pub const TEXT: Ty = Ty {
        scalar: Scalar::Text,
        list: false,
    };
    pub const NOTHING: Ty = Ty {
        scalar: Scalar::Nothing,
        list: false,
    };
    pub const ERR: Ty = Ty {
        scalar: Scalar::Error,
        list: false,
    };
    pub fn one(scalar: Scalar) -> Ty {
        Ty {
            scalar,
            list: false,
        }
    }
    pub fn list_of(scalar: Scalar) -> Ty {
        Ty { scalar, list: true }
    }
    pub fn elem(self) -> Ty {
        Ty {
            scalar: self.scalar,
            list: false,
        }
    }
}

/// One dimension of a zone or variable declared `per A [per B]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    Player,
    Node,
    Edge,
    Enum(u16),
}
