//! Declarations, second part: zones and variables (their dimensions, the
//! slots they take, the namespace their dimensions put them in, the limit on
//! storage), options, and the signatures of functions, procedures and
//! actions.

use super::context::{Body, Checker};
use super::{err, similar};
use crate::ast::{self, ItemKind, Scope, VisKind};
use crate::board::AttrValue;
use crate::diag::Span;
use crate::ir::*;

impl Checker {
    /// Zones, variables and options with their storage; the signatures of
    /// functions, procedures and actions.
    pub(super) fn zones_vars_and_signatures(&mut self, items: &[ast::Item]) {
        for it in items {
            match &it.kind {
                ItemKind::Zone {
                    name,
                    scope,
                    dims,
                    kind,
                    vis,
                } => {
                    let dims = self.resolve_dims(dims);
                    let kind_id =
                        kind.as_ref()
                            .and_then(|k| match self.globals.get(&k.name).map(|x| x.0) {
                                Some(Sym::Kind(id)) => Some(id),
                                _ => {
                                    let d = err(
                                        "E0212",
                                        k.span,
                                        format!("unknown piece kind `{}`", k.name),
                                        "not a piece kind",
                                    );
                                    let d = match similar(
                                        &k.name,
                                        self.g.kinds.iter().map(|k| k.name.as_str()),
                                    ) {
                                        Some(s) => d.help(format!("did you mean `{s}`?")),
                                        None => d.help("declare it with `piece NAME { … }`"),
                                    };
                                    self.error(d);
                                    None
                                }
                            });
                    let (count, stride) = self.dims_count(&dims);
                    let count = self.storage(count, name.span);
                    let id = self.g.zones.len();
                    let (vk, unless) = match vis {
                        Some(v) => {
                            if v.kind == VisKind::Owner && dims.first() != Some(&Dim::Player) {
                                self.error(err("E0213", it.span, "only per-player zones can be visible to their owner", "`owner` needs `per player`")
                                    .help("use `public` or `hidden`, or declare the zone `per player`"));
                            }
                            let unless = v.unless.as_ref().map(|u| {
                                self.body = Body::default();
                                let (e, ty) = self.expr(u);
                                self.expect(ty, Ty::BOOL, u.span);
                                e
                            });
                            (v.kind, unless)
                        }
                        None => (VisKind::Public, None),
                    };
                    self.g.zones.push(ZoneDecl {
                        name: name.name.clone(),
                        scope: *scope,
                        dims: dims.clone(),
                        stride,
                        kind: kind_id,
                        vis: vk,
                        unless,
                        base: self.g.nzones,
                        count,
                        span: name.span,
                    });
                    self.g.nzones += count;
                    self.define_dims(*scope, &dims, name, Sym::Zone(id));
                }
                ItemKind::Var {
                    name,
                    scope,
                    dims,
                    ty,
                    init: _,
                    vis,
                } => {
                    let dims = self.resolve_dims(dims);
                    let ty = self.resolve_type(ty);
                    let set = self.no_set(ty, name.span, "a variable");
                    if ty.list && !set {
                        self.error(
                            err(
                                "E0214",
                                name.span,
                                "variables cannot hold lists",
                                "list-typed variable",
                            )
                            .help("use a zone for a collection of pieces, or a local `let`"),
                        );
                    }
                    let owner_only = matches!(vis, Some(v) if v.kind == VisKind::Owner);
                    let hidden = matches!(vis, Some(v) if v.kind == VisKind::Hidden);
                    if let Some(v) = vis.as_ref().filter(|v| v.kind == VisKind::Top) {
                        self.error(err("E0252", name.span, "`top visible` applies to zones, not variables", "a variable has no top")
                            .help("a variable is `public` (the default), `hidden` from every view, or `owner` (per-player variables); `top visible` shows only the top piece of a zone"));
                        let _ = v;
                    }
                    if let Some(v) = vis.as_ref().filter(|v| v.unless.is_some()) {
                        let span = v.unless.as_ref().map(|u| u.span).unwrap_or(name.span);
                        self.error(err("E0228", span, "`unless` applies to zones, not variables", "not supported on a variable")
                            .help("a variable is `public` (the default), `hidden` from every view, or `owner` (per-player variables)"));
                    }
                    if owner_only && dims.first() != Some(&Dim::Player) {
                        self.error(
                            err(
                                "E0213",
                                name.span,
                                "only per-player variables can be visible to their owner",
                                "`owner` needs `per player`",
                            )
                            .help("use `public` or `hidden`, or declare the variable `per player`"),
                        );
                    }
                    let (count, stride) = self.dims_count(&dims);
                    let count = self.storage(count, name.span);
                    let id = self.g.vars.len();
                    self.g.vars.push(VarDecl {
                        name: name.name.clone(),
                        scope: *scope,
                        dims: dims.clone(),
                        stride,
                        ty,
                        init: None,
                        init_locals: 0,
                        base: self.g.nvars,
                        count,
                        is_option: false,
                        owner_only,
                        hidden,
                        span: name.span,
                    });
                    self.g.nvars += count;
                    self.define_dims(*scope, &dims, name, Sym::Var(id));
                }
                ItemKind::Option { name, ty, value: _ } => {
                    let ty = self.resolve_type(ty);
                    if !matches!(ty.scalar, Scalar::Int | Scalar::Bool | Scalar::Enum(_)) || ty.list
                    {
                        self.error(
                            err(
                                "E0215",
                                name.span,
                                "options must be `int`, `bool` or an enumeration",
                                "unsupported option type",
                            )
                            .help("options are set from the command line as `--option name=value`"),
                        );
                    }
                    let id = self.g.vars.len();
                    self.g.vars.push(VarDecl {
                        name: name.name.clone(),
                        scope: Scope::Global,
                        dims: vec![],
                        stride: 1,
                        ty,
                        init: None,
                        init_locals: 0,
                        base: self.g.nvars,
                        count: 1,
                        is_option: true,
                        owner_only: false,
                        hidden: false,
                        span: name.span,
                    });
                    self.g.nvars += 1;
                    self.g.options.insert(name.name.clone(), id);
                    self.define(name, Sym::Var(id));
                }
                ItemKind::Fn {
                    name, params, ret, ..
                } => {
                    let id = self.fn_sigs.len() as u16;
                    let ps = params.iter().map(|p| self.resolve_type(&p.ty)).collect();
                    let r = self.resolve_type(ret);
                    self.fn_sigs.push((ps, r));
                    self.define(name, Sym::Fn(id));
                }
                ItemKind::Proc { name, params, .. } => {
                    let id = self.proc_sigs.len() as u16;
                    let mut ps: Vec<Ty> = vec![];
                    for p in params {
                        let t = self.resolve_type(&p.ty);
                        let span = super::sets::type_span(&p.ty);
                        // Refused once here, not again at every call.
                        let set = self.no_set(t, span, "a procedure's parameter");
                        ps.push(if set { Ty::ERR } else { t });
                    }
                    self.proc_sigs.push(ps);
                    self.define(name, Sym::Proc(id));
                }
                ItemKind::Phase { name, .. } => {
                    let id = self.proc_sigs.len() as u16;
                    self.proc_sigs.push(vec![]);
                    self.define(name, Sym::Proc(id));
                }
                ItemKind::Action { name, .. } => {
                    let id = self.action_used.len() as u16;
                    self.action_used.push(false);
                    self.define(name, Sym::Action(id));
                }
                _ => {}
            }
        }
    }

    pub(super) fn attr_column(&mut self, values: &[AttrValue]) -> (Ty, Vec<Val>) {
        let ty = match values.first() {
            Some(AttrValue::Bool(_)) => Ty::BOOL,
            Some(AttrValue::Str(_)) => Ty::TEXT,
            _ => Ty::INT,
        };
        let vals = values
            .iter()
            .map(|v| match v {
                AttrValue::Int(i) => *i,
                AttrValue::Bool(b) => *b as Val,
                AttrValue::Str(s) => self.intern(s),
            })
            .collect();
        (ty, vals)
    }

    /// The dimensions of `per A [per B]`: enumerations resolved, the same
    /// dimension twice refused.
    pub(super) fn resolve_dims(&mut self, dims: &[ast::Dim]) -> Vec<Dim> {
        let mut out = vec![];
        for d in dims {
            let dim = match d {
                ast::Dim::Player(_) => Dim::Player,
                ast::Dim::Node(_) => Dim::Node,
                ast::Dim::Edge(_) => Dim::Edge,
                ast::Dim::Enum(id) => match self.global_sym(&id.name) {
                    Some(Sym::Enum(e)) => Dim::Enum(e),
                    _ => {
                        let mut d = err(
                            "E0206",
                            id.span,
                            format!("`per {}`: `{}` is not an enumeration", id.name, id.name),
                            "not an enumeration",
                        );
                        let enums: Vec<String> =
                            self.g.enums.iter().map(|e| e.name.clone()).collect();
                        d = d.help(match similar(&id.name, enums.iter().map(|s| s.as_str())) {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => "state is declared `per player`, `per node`, `per edge` or `per ENUM` (an enumeration declared with `enum`)".into(),
                        });
                        self.error(d);
                        continue;
                    }
                },
            };
            if out.contains(&dim) {
                self.error(err("E0238", d.span(), "the same dimension twice", "already a dimension of this declaration")
                    .help("two dimensions must differ: `per player per node`, `per player per ENUM`, …"));
                continue;
            }
            out.push(dim);
        }
        out
    }

    /// How many values a dimension has (players: the most the game takes).
    pub(super) fn dim_len(&self, d: Dim) -> u32 {
        match d {
            Dim::Player => self.g.max_players as u32,
            Dim::Node => self.board.nodes.len() as u32,
            Dim::Edge => self.board.edges.len() as u32,
            Dim::Enum(e) => self.g.enums[e as usize].members.len() as u32,
        }
    }

    /// The number of slots of a declaration and its stride (slots per value
    /// of the first dimension), computed in 64 bits and saturated, so that a huge product reaches
    /// the storage limit (E0707) instead of wrapping.
    pub(super) fn dims_count(&self, dims: &[Dim]) -> (u32, u32) {
        let stride = dims
            .iter()
            .skip(1)
            .map(|&d| u64::from(self.dim_len(d)))
            .product::<u64>();
        let first = dims
            .first()
            .map(|&d| u64::from(self.dim_len(d)))
            .unwrap_or(1);
        let clamp = |x: u64| x.min(u64::from(u32::MAX)) as u32;
        (clamp(first.saturating_mul(stride)), clamp(stride))
    }

    /// Declares a zone or variable in the namespace its dimensions give it:
    /// a global name (none, or `per ENUM`), a member of players, nodes or
    /// edges (`p.NAME`, `p.NAME[b]`), or of an enumeration's members (`m.NAME[b]`).
    pub(super) fn define_dims(&mut self, scope: Scope, dims: &[Dim], name: &ast::Ident, sym: Sym) {
        match (scope, dims) {
            (Scope::Indexed, [Dim::Enum(_)] | []) => self.define(name, sym),
            (Scope::Indexed, [Dim::Player, _]) => self.define_member(Scope::Player, name, sym),
            (Scope::Indexed, [Dim::Node, _]) => self.define_member(Scope::Node, name, sym),
            (Scope::Indexed, [Dim::Edge, _]) => self.define_member(Scope::Edge, name, sym),
            (Scope::Indexed, [Dim::Enum(e), _]) => {
                let key = (*e, name.name.clone());
                if self.enum_members.contains_key(&key) {
                    self.error(
                        err(
                            "E0202",
                            name.span,
                            format!("`{}` is declared twice for the same scope", name.name),
                            "declared again here",
                        )
                        .help("state per the same enumeration shares one namespace"),
                    );
                    return;
                }
                self.enum_members.insert(key, sym);
            }
            _ => self.define_member(scope, name, sym),
        }
    }

    /// `count` more variable cells or zones, if the position stays within
    /// [`crate::limits::MAX_STATE_CELLS`]; otherwise an error (E0707) and none.
    pub(super) fn storage(&mut self, count: u32, span: Span) -> u32 {
        let total = u64::from(self.g.nvars) + u64::from(self.g.nzones) + u64::from(count);
        if total <= crate::limits::MAX_STATE_CELLS {
            return count;
        }
        self.error(err("E0707", span, format!("the variables and zones would take more than {} cells", crate::limits::MAX_STATE_CELLS), "this one passes the limit")
            .help("a per-node or per-edge declaration takes one cell per node or edge of the board; use fewer of them"));
        0
    }
}
