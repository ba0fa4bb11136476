//! Declarations: the storage layout and the bodies of the compiled program.

use super::*;
use crate::ast::{Scope, VisKind};
use crate::diag::Span;

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
    pub unless: Option<Expr>,
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
    pub init: Option<Expr>,
    /// The locals the initial value binds (`n` in `count(n in nodes: …)`):
    /// the frame it is evaluated in.
    pub init_locals: u16,
    pub base: u32,
    pub count: u32,
    pub is_option: bool,
    pub owner_only: bool,
    /// Declared `hidden`: no view shows it (scratch state of the rules).
    pub hidden: bool,
    pub span: Span,
}

impl VarDecl {
    /// The value each of its slots starts with when it has no initial value:
    /// `none` for a reference to a seat, node, edge, piece or zone, else 0.
    pub fn blank(&self) -> Val {
        match self.ty.scalar {
            Scalar::Player | Scalar::Node | Scalar::Edge | Scalar::Piece(_) | Scalar::Zone(_) => {
                NONE
            }
            _ => 0,
        }
    }
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
    pub domain: Coll,
    /// Bit i set: the domain reads parameter i, so it is re-evaluated per prefix.
    pub deps: u32,
    /// The domain with the action's leading `require`s that read this
    /// parameter alone folded in as its filter, compiled to one program
    /// (reading the parameters `deps` says; set by the `bytecode` pass, only for
    /// an action whose parameters are independent: one whose parameters
    /// depend on each other lists them as its lister does, the
    /// requirements tested one by one). Option listing uses it instead of
    /// testing each requirement per value, except when coverage counts
    /// each requirement; `why.rs` keeps to the requirements, to name the
    /// one that fails.
    pub fast: Option<Coll>,
    /// The domain as options are drawn from it (`eval/sample.rs`): its base,
    /// without its `where` filters, and the filters (the element's slot and
    /// the condition) innermost first, compiled (set by the `bytecode` pass;
    /// `None` before it and for a `subsets(…)` domain, and then the action
    /// has no [`DrawPlan`] and is listed, never drawn).
    pub draw: Option<(Coll, Vec<(u16, Expr)>)>,
}

#[derive(Clone, Debug)]
pub struct ActionDecl {
    pub name: String,
    pub params: Vec<ActionParam>,
    /// Leading `require`s with the mask of parameters each one reads. A
    /// requirement that reads none is checked once per decision.
    pub pre: Vec<(Expr, u32, Span)>,
    pub label: Option<u32>,
    /// `help "…"`: the one-line help that `rules` at the play prompt shows.
    pub help: Option<String>,
    pub body: BlockId,
    pub nlocals: u16,
    /// No domain reads another parameter and no `require` reads two: the
    /// options are the product of the filtered domains and are never listed.
    pub product: bool,
    /// A parameter may be one of two twin pieces (`check/twins.rs`): the
    /// options are merged after they are listed (`eval/merge.rs`).
    pub merge: bool,
    /// Every parameter that may be one of two twin pieces keeps, in its own
    /// zone, only the first piece of each look (`check/twins.rs`), so no two
    /// of its values are twins and listing skips the search for them.
    /// Drawing reads `merge` alone.
    pub twin_free: bool,
    /// Written `merge`: options of this action that the deciding seat reads
    /// alike are one move, the first offered (`eval/labels.rs`); without it
    /// two options with one label are an error where labels are written.
    pub merge_labels: bool,
    /// The areas of the parameters chosen by `subsets(…)`, in parameter
    /// order (see `eval/expr/subsets.rs`); empty for almost every action,
    /// so that listing options costs them nothing more.
    pub areas: Vec<u16>,
    /// For an action whose options are listed (not a product): one program
    /// that walks every parameter's domain in nested loops, tests each
    /// requirement where the listing would, and appends each tuple to the
    /// option buffer, returning how many (set by the `bytecode` pass; see
    /// `opt/bytecode/lister.rs`). Unused when coverage counts requirements.
    pub lister: Option<u32>,
    /// Per leading requirement: the class of requirements of other actions
    /// that are the same expression (pure, reading no parameter and no local
    /// but the actor), or [`ActionDecl::UNSHARED`]. An `act` offering
    /// several of these actions computes a class once per decision (set by
    /// the `bytecode` pass; see `opt/bytecode/shared.rs`). Empty before it,
    /// and for an action that shares none.
    pub shared: Vec<u16>,
    /// How this action's options are drawn in a random playout
    /// (`eval/sample.rs`; set by the `bytecode` pass with each parameter's
    /// [`ActionParam::draw`]); `None`: an `act` offering it is listed.
    pub draw: Option<DrawPlan>,
    /// A test every option needs that reads no parameter (`not
    /// empty(actor.tokens)` when every option requires `any(t in
    /// actor.tokens: …)`): false, the action offers nothing and its domains
    /// are not listed (set by the `searches` pass, `opt/searches.rs`; not
    /// used when coverage counts requirements).
    pub needs: Option<Expr>,
    pub span: Span,
}

/// How an action's options are drawn (`eval/sample.rs`).
#[derive(Clone, Copy, Debug)]
pub struct DrawPlan {
    /// The second (and last) parameter's domain reads the first.
    pub nested: bool,
    /// The last parameter may be one of two twin pieces (its base is a zone).
    pub twins: bool,
    /// A bit per parameter whose base is every node, every edge or every
    /// seat (`nodes`, `edges`, `players`), or a range `a..b`: its `k`-th
    /// element is `k` (`a + k`), so it is counted, not listed. In a nested
    /// plan, only a first parameter's base of every node, edge or seat
    /// whose values index the family of [`DrawPlan::in_place`].
    pub counted: u32,
    /// A nested plan whose second base is the zone of the first's value
    /// (`w in r.posts`): read in the arena in place.
    pub in_place: Option<InPlace>,
}

/// [`DrawPlan::in_place`]: the zone family the second parameter of a nested
/// plan is drawn from, indexed by the first's value.
#[derive(Clone, Copy, Debug)]
pub struct InPlace {
    /// The family's first zone: value `x`'s zone is `zone + x`.
    pub zone: u32,
    /// What the family is indexed by (`Node`, `Edge` or `Player`): how
    /// many values have a zone.
    pub dim: super::ZDim,
    /// Every value of the first parameter's base has a zone: the base is
    /// counted, or is a test of each node's (edge's) own zones of that kind.
    pub in_range: bool,
}

impl ActionDecl {
    /// [`ActionDecl::shared`] of a requirement no other action shares.
    pub const UNSHARED: u16 = u16::MAX;

    /// Whether listing searches this action's options for twins to merge
    /// (`eval/merge.rs`): a parameter may be a twin and none shown to keep
    /// only the first of each look.
    #[inline]
    pub fn searches_twins(&self) -> bool {
        self.merge && !self.twin_free
    }
}

/// The last parameter a requirement reading parameters `mask` reads (the
/// mask of [`ActionDecl::pre`]); `None` when it reads none.
pub fn last_read(mask: u32) -> Option<usize> {
    (mask != 0).then(|| 31 - mask.leading_zeros() as usize)
}

/// `statistic NAME(p) = EXPR` (`per_player`: the player bound in local 0)
/// or `statistic NAME = EXPR`: an integer read when a game ends.
#[derive(Clone, Debug)]
pub struct Statistic {
    pub name: String,
    pub per_player: bool,
    pub expr: Expr,
    pub nlocals: u16,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FnDecl {
    pub name: String,
    pub nparams: u16,
    pub nlocals: u16,
    pub body: Expr,
    /// The parameters' types and the result's, as declared (a copy made by
    /// the `consts` pass keeps its original's).
    pub params: Vec<Ty>,
    pub ret: Ty,
    /// The function's values, computed at check time (`Game::fn_tables`,
    /// the `fn-tables` pass), when its body reads only the static board.
    pub table: Option<u16>,
}

#[derive(Clone, Debug)]
pub struct EnumDecl {
    pub name: String,
    pub members: Vec<String>,
    /// How labels, logs and views write each member: its name, or the text
    /// the declaration gives it.
    pub shown: Vec<String>,
}
