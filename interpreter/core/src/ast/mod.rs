//! The syntax tree of a rules file, with spans. Produced by [`crate::syntax`],
//! consumed by [`crate::check`]. Nothing here knows pest.

pub mod visit;

use crate::diag::Span;
use serde::Serialize;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub struct File {
    pub header: Header,
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, Serialize)]
pub enum Header {
    /// `game "NAME"`: a ruleset.
    Game { name: String, span: Span },
    /// `variant "NAME" extends "BASE"`: a ruleset that changes another.
    Variant {
        name: String,
        base: String,
        base_span: Span,
        span: Span,
    },
}

#[derive(Clone, Debug, Serialize)]
pub struct Item {
    /// Written `override …` in a variant file.
    pub is_override: bool,
    pub kind: ItemKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub enum Scope {
    /// No `per`: one zone or variable.
    Global,
    /// `per player`.
    Player,
    /// `per node`.
    Node,
    /// `per edge`.
    Edge,
    /// Declared `per ENUM` or with two dimensions (`per player per ENUM`):
    /// the declaration's `dims` say what indexes it.
    Indexed,
}

/// One dimension of `per A [per B]`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub enum Dim {
    /// `per player`.
    Player(Span),
    /// `per node`.
    Node(Span),
    /// `per edge`.
    Edge(Span),
    /// `per ENUM`: one per member of the enumeration.
    Enum(Ident),
}

impl Dim {
    pub fn span(&self) -> Span {
        match self {
            Dim::Player(s) | Dim::Node(s) | Dim::Edge(s) => *s,
            Dim::Enum(id) => id.span,
        }
    }
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub enum VisKind {
    /// `public`: everybody sees it.
    Public,
    /// `hidden`: nobody sees it.
    Hidden,
    /// `owner`: only its owner sees it.
    Owner,
    /// `top visible`: the top piece is public, the others hidden.
    Top,
}

#[derive(Clone, Debug, Serialize)]
pub struct Visibility {
    pub kind: VisKind,
    /// `hidden unless open_tiles`: public when the condition holds.
    pub unless: Option<Expr>,
}

#[derive(Clone, Debug, Serialize)]
pub enum TypeRef {
    /// A type by name: `int`, `bool`, `player`, `node`, `edge`, a piece kind or an enumeration.
    Named(Ident),
    /// `zone of KIND`
    ZoneOf(Ident, Span),
    /// `list of T`
    List(Box<TypeRef>, Span),
}

#[derive(Clone, Debug, Serialize)]
pub struct Param {
    pub name: Ident,
    pub ty: TypeRef,
}

#[derive(Clone, Debug, Serialize)]
pub struct FieldInit {
    pub name: Ident,
    pub value: Expr,
}

#[derive(Clone, Debug, Serialize)]
pub struct Instance {
    pub count: i64,
    pub fields: Vec<FieldInit>,
    pub span: Span,
}

/// One entry of a piece kind's instance list.
#[derive(Clone, Debug, Serialize)]
pub enum InstanceItem {
    /// `N x { FIELD: VALUE, … }`.
    One(Instance),
    /// `for NAME in COLL { … }`: the entries once per item of a constant
    /// collection, in its order, with the name bound to the item.
    For {
        name: Ident,
        coll: Expr,
        items: Vec<InstanceItem>,
        span: Span,
    },
}

#[derive(Clone, Debug, Serialize)]
pub struct ActionParam {
    pub name: Ident,
    pub domain: Expr,
}

#[derive(Clone, Debug, Serialize)]
pub enum ItemKind {
    /// `players N` or `players MIN..MAX`.
    Players { min: i64, max: i64 },
    /// `seats A, B, …`.
    Seats(Vec<Ident>),
    /// `board "x.toml" [for MIN..MAX]`: the range limits the board to those player counts.
    Board {
        path: String,
        players: Option<(i64, i64, Span)>,
    },
    /// `option NAME: TYPE = EXPR`.
    Option {
        name: Ident,
        ty: TypeRef,
        value: Expr,
    },
    /// `const NAME = EXPR`.
    Const { name: Ident, value: Expr },
    /// `shown` is how each member is written in labels and logs, when the
    /// declaration gives it (`full_house "full house"`).
    Enum {
        name: Ident,
        members: Vec<Ident>,
        shown: Vec<Option<String>>,
    },
    /// `piece NAME [per player] { FIELDS } [in ZONE] [label "…"] [{ N x { … } … }]`.
    Piece {
        name: Ident,
        per_player: bool,
        fields: Vec<Param>,
        start: Option<Ident>,
        label: Option<Template>,
        instances: Option<Vec<InstanceItem>>,
    },
    /// `scope` is `Global`, a single `per player`/`node`/`edge`, or `Indexed` (see `dims`).
    Zone {
        name: Ident,
        scope: Scope,
        dims: Vec<Dim>,
        kind: Option<Ident>,
        vis: Option<Visibility>,
    },
    /// `attr per node NAME: ENUM` or `attr per edge …`: the board file's
    /// attribute `NAME` holds names of the enumeration's members.
    Attr { name: Ident, edge: bool, ty: Ident },
    /// `var [per …] NAME: TYPE [= EXPR] [VISIBILITY]`.
    Var {
        name: Ident,
        scope: Scope,
        dims: Vec<Dim>,
        ty: TypeRef,
        init: Option<Expr>,
        vis: Option<Visibility>,
    },
    /// `fn NAME(PARAMS) -> TYPE = EXPR`.
    Fn {
        name: Ident,
        params: Vec<Param>,
        ret: TypeRef,
        body: Expr,
    },
    /// `proc NAME(PARAMS) { … }`.
    Proc {
        name: Ident,
        params: Vec<Param>,
        body: Block,
    },
    /// `phase NAME { … }`.
    Phase { name: Ident, body: Block },
    /// `override block BODY.NAME { … }` in a variant: the statements of the
    /// named block `NAME` inside the procedure, phase or action `BODY` (or
    /// `setup`, `play`) replaced. Applied when the variant is merged
    /// (`load.rs`), so the checker never sees one.
    BlockOverride {
        body_name: Ident,
        name: Ident,
        body: Block,
    },
    /// `action NAME(x in DOMAIN, …) [merge] [label "…"] [help "…"] { … }`.
    Action {
        name: Ident,
        params: Vec<ActionParam>,
        /// `merge`: options that read the same are one move (else equal labels are refused).
        merge: bool,
        label: Option<Template>,
        /// The one-line help that `rules` at the play prompt shows.
        help: Option<String>,
        body: Block,
    },
    /// `setup { … }`.
    Setup(Block),
    /// `play { … }`.
    Play(Block),
    /// `score(p) = EXPR [lowest]`.
    Score {
        player: Ident,
        expr: Expr,
        lowest: bool,
    },
    /// `tiebreak(p) = EXPR`.
    Tiebreak { player: Ident, expr: Expr },
    /// `team(p) = EXPR`.
    Team { player: Ident, expr: Expr },
    /// `statistic NAME(p) = EXPR` (`player` bound per seat) or `statistic NAME = EXPR`.
    Statistic {
        name: Ident,
        player: Option<Ident>,
        expr: Expr,
    },
    /// `invariant "TEXT" EXPR`.
    Invariant { text: String, expr: Expr },
    /// `summary "…"`: what the game is, shown by `rules` at the play prompt.
    Summary { text: String },
    /// `help "…"` outside an action, kept so that the checker can refuse it
    /// with a hint (E0291).
    Help { text: String },
    /// `names { NAME: "text", … }`: what people read for declared names.
    Names(Vec<NameEntry>),
    /// `draw NAME PROP = EXPR, …` or `draw "display" PROP = EXPR`: how a piece
    /// kind, a zone or a display is pictured.
    Draw {
        target: DrawTarget,
        parts: Vec<(Ident, Expr)>,
    },
    /// `display "text"(p) = EXPR` or `display "text" = EXPR`: a value shown to each seat.
    Display {
        text: String,
        player: Option<Ident>,
        expr: Expr,
    },
}

/// What a `draw` declaration is about: a declared name, or a display's text.
#[derive(Clone, Debug, Serialize)]
pub enum DrawTarget {
    Name(Ident),
    Display(String, Span),
}

/// One entry of `names { … }`: a declared name and the text people read for it.
#[derive(Clone, Debug, Serialize)]
pub struct NameEntry {
    pub name: Ident,
    pub text: String,
    /// The span of the quoted text.
    pub text_span: Span,
}

impl ItemKind {
    /// The statements of a procedure, phase, action, `setup` or `play`.
    pub fn body(&self) -> Option<&Block> {
        match self {
            ItemKind::Proc { body, .. }
            | ItemKind::Phase { body, .. }
            | ItemKind::Action { body, .. }
            | ItemKind::Setup(body)
            | ItemKind::Play(body) => Some(body),
            _ => None,
        }
    }

    /// [`ItemKind::body`], to change (a variant's `override block`).
    pub fn body_mut(&mut self) -> Option<&mut Block> {
        match self {
            ItemKind::Proc { body, .. }
            | ItemKind::Phase { body, .. }
            | ItemKind::Action { body, .. }
            | ItemKind::Setup(body)
            | ItemKind::Play(body) => Some(body),
            _ => None,
        }
    }

    /// The kind word and name under which an item can be overridden.
    pub fn key(&self) -> (&'static str, String) {
        match self {
            ItemKind::Players { .. } => ("players", String::new()),
            ItemKind::Seats(_) => ("seats", String::new()),
            ItemKind::Board { players, .. } => (
                "board",
                players
                    .map(|(a, b, _)| format!("for {a}..{b}"))
                    .unwrap_or_default(),
            ),
            ItemKind::Option { name, .. } => ("option", name.name.clone()),
            ItemKind::Const { name, .. } => ("const", name.name.clone()),
            ItemKind::Enum { name, .. } => ("enum", name.name.clone()),
            ItemKind::Piece { name, .. } => ("piece", name.name.clone()),
            ItemKind::Zone { name, .. } => ("zone", name.name.clone()),
            ItemKind::Var { name, .. } => ("var", name.name.clone()),
            ItemKind::Attr { name, edge, .. } => (
                "attr",
                format!("{} {}", if *edge { "edge" } else { "node" }, name.name),
            ),
            ItemKind::Fn { name, .. } => ("fn", name.name.clone()),
            ItemKind::Proc { name, .. } => ("proc", name.name.clone()),
            ItemKind::Phase { name, .. } => ("phase", name.name.clone()),
            ItemKind::BlockOverride {
                body_name, name, ..
            } => ("block", format!("{}.{}", body_name.name, name.name)),
            ItemKind::Action { name, .. } => ("action", name.name.clone()),
            ItemKind::Setup(_) => ("setup", String::new()),
            ItemKind::Play(_) => ("play", String::new()),
            ItemKind::Score { .. } => ("score", String::new()),
            ItemKind::Tiebreak { .. } => ("tiebreak", String::new()),
            ItemKind::Team { .. } => ("team", String::new()),
            ItemKind::Statistic { name, .. } => ("statistic", name.name.clone()),
            ItemKind::Invariant { text, .. } => ("invariant", text.clone()),
            ItemKind::Names(_) => ("names", String::new()),
            ItemKind::Display { text, .. } => ("display", text.clone()),
            ItemKind::Draw { target, .. } => (
                "draw",
                match target {
                    DrawTarget::Name(n) => n.name.clone(),
                    DrawTarget::Display(t, _) => format!("\"{t}\""),
                },
            ),
            ItemKind::Summary { .. } => ("summary", String::new()),
            ItemKind::Help { text } => ("help", text.clone()),
        }
    }
}

/// A string with `{expr}` holes, used by labels and `log`.
#[derive(Clone, Debug, Serialize)]
pub struct Template {
    pub parts: Vec<TemplatePart>,
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub enum TemplatePart {
    /// Literal text (`{{` already read as `{`).
    Text(String),
    /// A `{EXPR}` hole.
    Hole(Expr),
}

#[derive(Clone, Debug, Serialize)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`
    Set,
    /// `+=`
    Add,
    /// `-=`
    Sub,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub enum MovePos {
    /// `top` (the default): on top of the zone's pieces.
    Top,
    /// `bottom`: under the zone's pieces.
    Bottom,
}

#[derive(Clone, Debug, Serialize)]
pub enum MoveWhat {
    /// `move x to …`: one piece.
    One(Expr),
    /// `move all C to …`: every piece of a collection.
    All(Expr),
    /// `move N of C to …`: N pieces of a collection.
    N(Expr, Expr),
}

#[derive(Clone, Debug, Serialize)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub enum StmtKind {
    /// `let x = EXPR`.
    Let { name: Ident, value: Expr },
    /// `let x = choose PLAYER from C [label "…"]`.
    Choose {
        name: Ident,
        player: Expr,
        from: Expr,
        label: Option<Template>,
    },
    /// `PLACE = EXPR`, `PLACE += EXPR`, `PLACE -= EXPR`.
    Assign {
        place: Expr,
        op: AssignOp,
        value: Expr,
    },
    /// `if COND { … } [else { … }]`; `else if` is an `else` block holding one `if`.
    If {
        cond: Expr,
        then: Block,
        els: Option<Block>,
    },
    /// `for x in C { … }`.
    For {
        name: Ident,
        coll: Expr,
        body: Block,
    },
    /// `while COND { … }`.
    While { cond: Expr, body: Block },
    /// `break`.
    Break,
    /// `continue`.
    Continue,
    /// `return`.
    Return,
    /// `move WHAT to ZONE [top | bottom]`.
    Move {
        what: MoveWhat,
        to: Expr,
        pos: MovePos,
    },
    /// `shuffle ZONE`.
    Shuffle(Expr),
    /// `act PLAYER with A, B [else { … }]`.
    Act {
        player: Expr,
        actions: Vec<Ident>,
        els: Option<Block>,
    },
    /// `log "…"`.
    Log(Template),
    /// `end game`.
    EndGame,
    /// `show board`.
    ShowBoard,
    /// `reveal PIECE`.
    Reveal(Expr),
    /// `hide PIECE`.
    Hide(Expr),
    /// `require COND`.
    Require(Expr),
    /// `NAME(ARGS)`: a call of a procedure or phase.
    Call { name: Ident, args: Vec<Expr> },
    /// `block NAME { … }`: statements run where they stand, in a scope of
    /// their own, under a name a variant may replace them by.
    Named { name: Ident, body: Block },
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub enum BinOp {
    /// `or`
    Or,
    /// `and`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `in`
    In,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::In => "in",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// `none`.
    None,
    /// A string literal (outside labels and logs, which read it as a template).
    Str(String),
    /// `@ID`: a board node by its id.
    Node(Ident),
    /// A name: a local, a variable, a constant, a seat, a member, …
    Name(Ident),
    /// `x.NAME`: a field, an attribute, `owner`, a zone of a player or node, ….
    Field(Box<Expr>, Ident),
    /// `x[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `NAME(ARGS)`: a function or a builtin.
    Call(Ident, Vec<Expr>),
    /// `name(x in coll: body)`
    Agg {
        func: Ident,
        binder: Ident,
        coll: Box<Expr>,
        body: Option<Box<Expr>>,
    },
    /// `[a, b, …]`
    List(Vec<Expr>),
    /// `-a`
    Neg(Box<Expr>),
    /// `not a`
    Not(Box<Expr>),
    /// `a OP b`
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// `x is KIND`
    Is(Box<Expr>, Ident),
    /// `a..b`
    Range(Box<Expr>, Box<Expr>),
    /// `C where COND`
    Where(Box<Expr>, Box<Expr>),
    /// `if c then a else b`
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Quoted text with holes inside a template hole (`" + {w} loco"`): a
    /// template of its own, allowed as the hole or a branch of its `if`.
    Template(Template),
}
