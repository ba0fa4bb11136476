//! Expressions: name resolution, typing and lowering to [`Expr`] (values) and
//! [`Coll`] (collections). Collections exist only where they are consumed
//! (`for`, aggregates, `choose`, `move all`, action parameter domains).

use super::context::Checker;
use super::{err, similar};
use crate::ast::{self, BinOp, ExprKind, Scope};
use crate::diag::Span;
use crate::ir::*;

impl Checker {
    pub fn type_name(&self, t: Ty) -> String {
        crate::ir::type_name(&self.g, t)
    }

    pub fn assignable(&self, got: Ty, want: Ty) -> bool {
        if got.scalar == Scalar::Error || want.scalar == Scalar::Error {
            return true;
        }
        if got.list != want.list {
            return false;
        }
        match (got.scalar, want.scalar) {
            (a, b) if a == b => true,
            (
                Scalar::Nothing,
                Scalar::Player | Scalar::Node | Scalar::Edge | Scalar::Piece(_) | Scalar::Zone(_),
            ) => true,
            (Scalar::Piece(_), Scalar::Piece(None)) => true,
            (Scalar::Zone(_), Scalar::Zone(None)) => true,
            _ => false,
        }
    }

    pub fn expect(&mut self, got: Ty, want: Ty, span: Span) {
        if !self.assignable(got, want) {
            let d = err(
                "E0240",
                span,
                format!(
                    "expected {}, found {}",
                    self.type_name(want),
                    self.type_name(got)
                ),
                format!("this is {}", self.type_name(got)),
            );
            self.error(d);
        }
    }

    fn unify(&mut self, a: Ty, b: Ty, span: Span) -> Ty {
        if self.assignable(a, b) {
            b
        } else if self.assignable(b, a) {
            a
        } else {
            let d = err(
                "E0241",
                span,
                format!(
                    "mismatched types: {} and {}",
                    self.type_name(a),
                    self.type_name(b)
                ),
                "these must have the same type",
            );
            self.error(d);
            a
        }
    }

    pub(super) fn lookup_local(&self, name: &str) -> Option<(u16, Ty)> {
        for scope in self.body.scopes.iter().rev() {
            for (n, slot, ty) in scope.iter().rev() {
                if n == name {
                    return Some((*slot, *ty));
                }
            }
        }
        None
    }

    /// A value expression.
    pub fn expr(&mut self, e: &ast::Expr) -> (Expr, Ty) {
        let (x, ty) = self.expr_kind(e);
        if self.index.is_some() {
            self.note_expr(e, ty);
        }
        (x, ty)
    }

    fn expr_kind(&mut self, e: &ast::Expr) -> (Expr, Ty) {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(v) => (Expr::Const(*v), Ty::INT),
            ExprKind::Bool(b) => (Expr::Const(*b as Val), Ty::BOOL),
            ExprKind::None => (Expr::Const(NONE), Ty::NOTHING),
            ExprKind::Str(s) => (Expr::Const(self.intern(s)), Ty::TEXT),
            ExprKind::Node(id) => match self.board.node_index.get(&id.name) {
                Some(&n) => (Expr::Const(n as Val), Ty::NODE),
                // `@id` of an edge (a node of the same id comes first).
                None if self.board.edges.iter().any(|e| e.id == id.name) => {
                    let e = self
                        .board
                        .edges
                        .iter()
                        .position(|e| e.id == id.name)
                        .unwrap_or(0);
                    (Expr::Const(e as Val), Ty::EDGE)
                }
                None => {
                    let mut d = err(
                        "E0230",
                        id.span,
                        format!("the board has no node `{}`", id.name),
                        "unknown node",
                    );
                    d = match similar(&id.name, self.board.node_index.keys().map(|s| s.as_str())) {
                        Some(s) => d.help(format!("did you mean `@{s}`?")),
                        None => d.help(format!(
                            "the board `{}` has {} nodes; `regel board` lists them",
                            self.board.name,
                            self.board.nodes.len()
                        )),
                    };
                    self.error(d);
                    (Expr::Const(0), Ty::NODE)
                }
            },
            ExprKind::Name(id) => self.name(id),
            ExprKind::Field(obj, f) => self.field(obj, f),
            ExprKind::Index(obj, i) => self.index(obj, i, span),
            ExprKind::Call(name, args) => self.call(name, args, span),
            ExprKind::Agg {
                func,
                binder,
                coll,
                body,
            } => self.agg(func, binder, coll, body.as_deref(), span),
            ExprKind::List(_) | ExprKind::Range(..) | ExprKind::Where(..) => {
                self.error(
                    err(
                        "E0242",
                        span,
                        "a collection where a single value is expected",
                        "this is a collection",
                    )
                    .help("use an aggregate such as `count(…)`, `first(…)` or `any(x in …: …)`"),
                );
                (Expr::Const(0), Ty::ERR)
            }
            ExprKind::Neg(a) => {
                let (x, t) = self.expr(a);
                self.expect(t, Ty::INT, a.span);
                (Expr::Neg(Box::new(x)), Ty::INT)
            }
            ExprKind::Not(a) => {
                let (x, t) = self.expr(a);
                self.expect(t, Ty::BOOL, a.span);
                (Expr::Not(Box::new(x)), Ty::BOOL)
            }
            ExprKind::Is(a, kind) => {
                let (x, t) = self.expr(a);
                if !matches!(t.scalar, Scalar::Piece(_)) || t.list {
                    self.expect(t, Ty::one(Scalar::Piece(None)), a.span);
                }
                match self.global_sym(&kind.name) {
                    Some(Sym::Kind(k)) => (Expr::IsKind(Box::new(x), k), Ty::BOOL),
                    _ => {
                        self.error(
                            err(
                                "E0212",
                                kind.span,
                                format!("unknown piece kind `{}`", kind.name),
                                "not a piece kind",
                            )
                            .help("`x is KIND` tests a piece's kind"),
                        );
                        (Expr::Const(0), Ty::BOOL)
                    }
                }
            }
            ExprKind::Template(_) => {
                let d = err("E0274", span, "quoted text with holes is written only as a template hole's value or a branch of its `if`", "a template here")
                    .help("choose between texts with `{if c then \"… {x} …\" else \"…\"}` directly in the hole; elsewhere a text value holds no holes");
                self.error(d);
                (Expr::Const(0), Ty::ERR)
            }
            ExprKind::If(c, a, b) => {
                let (c2, ct) = self.expr(c);
                self.expect(ct, Ty::BOOL, c.span);
                let (a2, at) = self.expr(a);
                let (b2, bt) = self.expr(b);
                let t = self.unify(at, bt, span);
                (Expr::If(Box::new(c2), Box::new(a2), Box::new(b2)), t)
            }
            ExprKind::Bin(op, a, b) => self.binary(*op, a, b, span),
        }
    }

    fn binary(&mut self, op: BinOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> (Expr, Ty) {
        if op == BinOp::In {
            let (x, xt) = self.expr(a);
            let (c, et) = self.coll(b);
            self.unify(xt, et, span);
            // Membership of a set reads one bit.
            if let Coll::Members(on, s) = c {
                let has = Builtin::Set(SetOp::Has, on);
                return (Expr::Builtin(has, vec![x, s], None, span), Ty::BOOL);
            }
            return (Expr::In(Box::new(x), Box::new(c)), Ty::BOOL);
        }
        let (x, xt) = self.expr(a);
        if let (BinOp::Add | BinOp::Sub, Scalar::Set(on)) = (op, xt.scalar) {
            return self.set_arith(op, x, on, b);
        }
        let (y, yt) = self.expr(b);
        if let (BinOp::Eq | BinOp::Ne, Scalar::Set(on), true) = (op, xt.scalar, xt == yt) {
            let same = Expr::Builtin(Builtin::Set(SetOp::Same, on), vec![x, y], None, span);
            return match op {
                BinOp::Eq => (same, Ty::BOOL),
                _ => (Expr::Not(Box::new(same)), Ty::BOOL),
            };
        }
        if let (BinOp::Add | BinOp::Sub, Scalar::Set(_)) = (op, yt.scalar) {
            let d = err(
                "E0240",
                b.span,
                "a set goes on the left of `+` and `-`",
                "a set on the right",
            )
            .help("write the set first: `used + e`, `used - e`");
            self.error(d);
            return (Expr::Const(0), Ty::ERR);
        }
        let ty = match op {
            BinOp::And | BinOp::Or => {
                self.expect(xt, Ty::BOOL, a.span);
                self.expect(yt, Ty::BOOL, b.span);
                Ty::BOOL
            }
            BinOp::Eq | BinOp::Ne => {
                if !self.assignable(xt, yt) && !self.assignable(yt, xt) {
                    let d = err(
                        "E0243",
                        span,
                        format!(
                            "cannot compare {} with {}",
                            self.type_name(xt),
                            self.type_name(yt)
                        ),
                        "different types",
                    )
                    .help("both sides of `==` and `!=` must have the same type");
                    self.error(d);
                }
                Ty::BOOL
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                self.expect(xt, Ty::INT, a.span);
                self.expect(yt, Ty::INT, b.span);
                Ty::BOOL
            }
            _ => {
                let ok = self.assignable(xt, Ty::INT) && self.assignable(yt, Ty::INT);
                self.expect(xt, Ty::INT, a.span);
                self.expect(yt, Ty::INT, b.span);
                // A wrong operand is reported once; the sum is not another error.
                if ok {
                    Ty::INT
                } else {
                    Ty::ERR
                }
            }
        };
        (Expr::Bin(op, Box::new(x), Box::new(y)), ty)
    }

    fn name(&mut self, id: &ast::Ident) -> (Expr, Ty) {
        if let Some((slot, ty)) = self.lookup_local(&id.name) {
            if ty.list {
                return (Expr::Local(slot), ty);
            }
            return (Expr::Local(slot), ty);
        }
        // Bare field names of the element a `where` is filtering.
        for i in (0..self.body.implicit.len()).rev() {
            let (slot, ty) = self.body.implicit[i];
            if let Some(r) = self.member_of(Expr::Local(slot), ty, id) {
                return r;
            }
        }
        if id.name == "actor" {
            return match self.body.actor {
                Some(slot) => (Expr::Local(slot), Ty::PLAYER),
                None => {
                    self.error(
                        err(
                            "E0231",
                            id.span,
                            "`actor` exists only inside an action",
                            "no actor here",
                        )
                        .help("pass the player to the procedure as a parameter"),
                    );
                    (Expr::Const(0), Ty::PLAYER)
                }
            };
        }
        // Seat names (`seats white, grey, …`) are player constants.
        if let Some(i) = self.g.seats.iter().position(|s| s == &id.name) {
            if self.global_sym(&id.name).is_none() {
                return (Expr::Const(i as Val), Ty::PLAYER);
            }
        }
        if id.name == "num_players" {
            return (
                Expr::Builtin(Builtin::NumPlayers, vec![], None, id.span),
                Ty::INT,
            );
        }
        match self.global_sym(&id.name) {
            Some(Sym::Const(v, t)) => return (Expr::Const(v), t),
            Some(Sym::List(..)) => {
                self.error(err("E0242", id.span, format!("`{}` is a list where a single value is expected", id.name), "this is a list")
                    .help(format!("take one item with `{}[i]` (1-based), or use it as a collection: `count({0})`, `sum({0})`, `for x in {0}`", id.name)));
                return (Expr::Const(0), Ty::ERR);
            }
            Some(Sym::Var(v)) if self.g.vars[v].scope == Scope::Global => {
                let d = &self.g.vars[v];
                return (Expr::Var(d.base, None), d.ty);
            }
            Some(Sym::Zone(z)) if self.g.zones[z].scope == Scope::Global => {
                let zd = &self.g.zones[z];
                return (
                    Expr::Zone(ZoneRef {
                        base: zd.base,
                        index: ZIndex::Global,
                    }),
                    Ty::one(Scalar::Zone(zd.kind)),
                );
            }
            Some(sym @ (Sym::Var(_) | Sym::Zone(_))) => {
                self.missing_index(sym, None, id);
                return (Expr::Const(0), Ty::ERR);
            }
            Some(other) => {
                let what = match other {
                    Sym::Enum(_) => "an enumeration",
                    Sym::Fn(_) => "a function (call it with `(…)`)",
                    Sym::Proc(_) => "a procedure or phase",
                    Sym::Action(_) => "an action",
                    Sym::Kind(_) => "a piece kind",
                    _ => "not a value",
                };
                let mut d = err(
                    "E0232",
                    id.span,
                    format!("`{}` is {what}, not a value", id.name),
                    "used as a value",
                );
                if let Sym::Enum(en) = other {
                    let first = self.g.enums[en as usize].members[0].clone();
                    d = d.help(format!("as a collection it is its members (`for m in {0}`, `random({0})`); one member is written `{first}` or `{0}.{first}`", id.name));
                }
                self.error(d);
                return (Expr::Const(0), Ty::ERR);
            }
            None => {}
        }
        if let Some(ms) = self.members.get(&id.name).cloned() {
            if ms.len() == 1 {
                return (Expr::Const(ms[0].1 as Val), Ty::one(Scalar::Enum(ms[0].0)));
            }
            let names: Vec<String> = ms
                .iter()
                .map(|(e, _)| format!("`{}.{}`", self.g.enums[*e as usize].name, id.name))
                .collect();
            self.error(
                err(
                    "E0233",
                    id.span,
                    format!("`{}` is a member of several enumerations", id.name),
                    "ambiguous",
                )
                .help(format!("write {}", names.join(" or "))),
            );
            return (Expr::Const(0), Ty::ERR);
        }
        if self.player_members.contains_key(&id.name) || self.node_members.contains_key(&id.name) {
            let owner = if self.player_members.contains_key(&id.name) {
                "player"
            } else {
                "node"
            };
            self.error(
                err(
                    "E0234",
                    id.span,
                    format!("`{}` is declared per {owner}", id.name),
                    "which one?",
                )
                .help(format!("write `p.{}` for some {owner} `p`", id.name)),
            );
            return (Expr::Const(0), Ty::ERR);
        }
        // The element of a named collection's `where`: `count(x in C where x > 2)`.
        if let Some(&(_, slot, ty)) = self.body.where_names.iter().rev().find(|w| w.0 == id.name) {
            return (Expr::Local(slot), ty);
        }
        let mut names: Vec<String> = self
            .body
            .scopes
            .iter()
            .flatten()
            .map(|(n, _, _)| n.clone())
            .collect();
        names.extend(self.globals.keys().cloned());
        names.extend(self.members.keys().cloned());
        let mut d = err(
            "E0231",
            id.span,
            format!("unknown name `{}`", id.name),
            "not declared",
        );
        if let Some(s) = similar(&id.name, names.iter().map(|s| s.as_str())) {
            d = d.help(format!("did you mean `{s}`?"));
        }
        self.error(d);
        (Expr::Const(0), Ty::ERR)
    }

    /// `obj.name` for an object of type `ty`, if that member exists.
    fn member_of(&mut self, obj: Expr, ty: Ty, id: &ast::Ident) -> Option<(Expr, Ty)> {
        let name = id.name.as_str();
        if ty.list {
            return None;
        }
        if let Some(sym) = self.member_sym(ty, name) {
            if self.sym_dims(sym).len() == 2 {
                return Some(self.missing_index(sym, Some(ty), id));
            }
            let idx = |o: Expr| match ty.scalar {
                Scalar::Player => ZIndex::Player(Box::new(o)),
                Scalar::Node => ZIndex::Node(Box::new(o)),
                _ => ZIndex::Edge(Box::new(o)),
            };
            return Some(match sym {
                Sym::Var(v) => {
                    let d = &self.g.vars[v];
                    (Expr::Var(d.base, Some(Box::new(obj))), d.ty)
                }
                Sym::Zone(z) => {
                    let zd = &self.g.zones[z];
                    let (base, kind) = (zd.base, zd.kind);
                    (
                        Expr::Zone(ZoneRef {
                            base,
                            index: idx(obj),
                        }),
                        Ty::one(Scalar::Zone(kind)),
                    )
                }
                _ => return None,
            });
        }
        match ty.scalar {
            Scalar::Node => {
                let i = self.g.node_attrs.iter().position(|a| a.0 == name)?;
                Some((
                    Expr::NodeAttr(i as u16, Box::new(obj)),
                    self.g.node_attrs[i].1,
                ))
            }
            Scalar::Edge => match name {
                "from" => Some((Expr::EdgeFrom(Box::new(obj)), Ty::NODE)),
                "to" => Some((Expr::EdgeTo(Box::new(obj)), Ty::NODE)),
                _ => {
                    let i = self.g.edge_attrs.iter().position(|a| a.0 == name)?;
                    Some((
                        Expr::EdgeAttr(i as u16, Box::new(obj)),
                        self.g.edge_attrs[i].1,
                    ))
                }
            },
            Scalar::Piece(k) => {
                if name == "owner"
                    && k.map(|k| self.g.kinds[k as usize].per_player)
                        .unwrap_or(true)
                {
                    return Some((Expr::Owner(Box::new(obj)), Ty::PLAYER));
                }
                let kd = &self.g.kinds[k? as usize];
                let f = kd.fields.iter().find(|f| f.0 == name)?;
                Some((Expr::Field(f.2, Box::new(obj)), f.1))
            }
            _ => None,
        }
    }

    fn field(&mut self, obj: &ast::Expr, f: &ast::Ident) -> (Expr, Ty) {
        // `enum.member`
        if let ExprKind::Name(n) = &obj.kind {
            if self.lookup_local(&n.name).is_none() {
                if let Some(Sym::Enum(e)) = self.global_sym(&n.name) {
                    let en = &self.g.enums[e as usize];
                    return match en.members.iter().position(|m| m == &f.name) {
                        Some(i) => (Expr::Const(i as Val), Ty::one(Scalar::Enum(e))),
                        None => {
                            let d = err(
                                "E0235",
                                f.span,
                                format!("`{}` has no member `{}`", en.name, f.name),
                                "unknown member",
                            )
                            .help(format!("the members are: {}", en.members.join(", ")));
                            self.error(d);
                            (Expr::Const(0), Ty::one(Scalar::Enum(e)))
                        }
                    };
                }
            }
        }
        let (o, ty) = self.expr(obj);
        self.field_of(o, ty, f)
    }

    /// `o.f` for an already checked object `o` of type `ty`.
    fn field_of(&mut self, o: Expr, ty: Ty, f: &ast::Ident) -> (Expr, Ty) {
        match self.member_of(o, ty, f) {
            Some(r) => r,
            None => {
                let tn = self.type_name(ty);
                let mut names: Vec<String> = vec![];
                match ty.scalar {
                    Scalar::Player => names.extend(self.player_members.keys().cloned()),
                    Scalar::Node => {
                        names.extend(self.node_members.keys().cloned());
                        names.extend(self.g.node_attrs.iter().map(|a| a.0.clone()));
                    }
                    Scalar::Edge => names.extend(
                        self.edge_members
                            .keys()
                            .cloned()
                            .chain(["from".to_string(), "to".to_string()]),
                    ),
                    Scalar::Piece(Some(k)) => {
                        names.extend(self.g.kinds[k as usize].fields.iter().map(|f| f.0.clone()))
                    }
                    _ => {}
                }
                let mut d = err(
                    "E0236",
                    f.span,
                    format!("{tn} has no field `{}`", f.name),
                    "unknown field",
                );
                d = match similar(&f.name, names.iter().map(|s| s.as_str())) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None if names.is_empty() => d.help(format!("{tn} has no fields")),
                    None => d.help(format!("{tn} has: {}", names.join(", "))),
                };
                self.error(d);
                (Expr::Const(0), Ty::ERR)
            }
        }
    }

    /// The dimensions of a zone or variable symbol.
    fn sym_dims(&self, sym: Sym) -> &[Dim] {
        match sym {
            Sym::Var(v) => &self.g.vars[v].dims,
            Sym::Zone(z) => &self.g.zones[z].dims,
            _ => &[],
        }
    }

    /// Reports state declared `per ENUM` (or with two dimensions) used
    /// without its index, saying what to write.
    fn missing_index(&mut self, sym: Sym, obj: Option<Ty>, id: &ast::Ident) -> (Expr, Ty) {
        let dims = self.sym_dims(sym).to_vec();
        let last = *dims.last().unwrap_or(&Dim::Player);
        let var = match last {
            Dim::Player => "p".to_string(),
            Dim::Node => "n".to_string(),
            Dim::Edge => "e".to_string(),
            Dim::Enum(e) => self.g.enums[e as usize].members[0].clone(),
        };
        let what = self.g.dims_text(&dims);
        let write = match (obj, dims.len()) {
            (_, 1) => format!("{}[{var}]", id.name),
            (Some(t), _) => format!(
                "{}.{}[{var}]",
                match t.scalar {
                    Scalar::Player => "p",
                    Scalar::Node => "n",
                    Scalar::Edge => "e",
                    _ => "x",
                },
                id.name
            ),
            (None, _) => format!("x.{}[{var}]", id.name),
        };
        self.error(
            err(
                "E0237",
                id.span,
                format!("`{}` is declared per {what}: it needs an index", id.name),
                "which one?",
            )
            .help(format!("write `{write}`")),
        );
        (Expr::Const(0), Ty::ERR)
    }

    /// The zone or variable declared `per A per B` that `x.name` names, for
    /// `x` of type `ty` (the first dimension).
    fn two_dim_member(&self, ty: Ty, name: &str) -> Option<Sym> {
        let sym = self.member_sym(ty, name)?;
        (self.sym_dims(sym).len() == 2).then_some(sym)
    }

    /// The zone or variable `x.name` names for `x` of type `ty`, if any.
    fn member_sym(&self, ty: Ty, name: &str) -> Option<Sym> {
        if ty.list {
            return None;
        }
        match ty.scalar {
            Scalar::Player => self.player_members.get(name).copied(),
            Scalar::Node => self.node_members.get(name).copied(),
            Scalar::Edge => self.edge_members.get(name).copied(),
            Scalar::Enum(e) => self.enum_members.get(&(e, name.to_string())).copied(),
            _ => None,
        }
    }

    /// The type of a dimension's values.
    fn dim_ty(d: Dim) -> Ty {
        match d {
            Dim::Player => Ty::PLAYER,
            Dim::Node => Ty::NODE,
            Dim::Edge => Ty::EDGE,
            Dim::Enum(e) => Ty::one(Scalar::Enum(e)),
        }
    }

    /// Reads slot `at` of a zone or variable declaration.
    fn slot_of(&self, sym: Sym, at: Expr) -> (Expr, Ty) {
        match sym {
            Sym::Var(v) => {
                let d = &self.g.vars[v];
                (Expr::Var(d.base, Some(Box::new(at))), d.ty)
            }
            Sym::Zone(z) => {
                let zd = &self.g.zones[z];
                (
                    Expr::Zone(ZoneRef {
                        base: zd.base,
                        index: ZIndex::At(Box::new(at), zd.count),
                    }),
                    Ty::one(Scalar::Zone(zd.kind)),
                )
            }
            _ => unreachable!("only zones and variables have dimensions"),
        }
    }

    /// A checked index of dimension `d`.
    fn dim_index(&mut self, d: Dim, i: &ast::Expr) -> Expr {
        let (ie, it) = self.expr(i);
        let want = Self::dim_ty(d);
        if !self.assignable(it, want) {
            let d = err(
                "E0240",
                i.span,
                format!(
                    "expected {} as the index, found {}",
                    self.type_name(want),
                    self.type_name(it)
                ),
                format!("this is {}", self.type_name(it)),
            )
            .help(format!("this state is indexed by {}", self.type_name(want)));
            self.error(d);
        }
        ie
    }

    /// `x[i]`: state declared `per ENUM` (`NAME[m]`) or `per A per B`
    /// (`x.NAME[y]`).
    fn index(&mut self, obj: &ast::Expr, i: &ast::Expr, span: Span) -> (Expr, Ty) {
        // An enumeration is its members in declaration order, so it is
        // indexed as a list: `die[2]` is its second member.
        let is_enum = self.is_enum_name(obj);
        if is_enum || self.is_list(obj) {
            let (c, et) = self.coll(obj);
            let (ie, it) = self.expr(i);
            self.expect(it, Ty::INT, i.span);
            if is_enum {
                self.enum_index_in_range(&c, &ie, obj, i.span);
            } else if let ExprKind::Name(n) = &obj.kind {
                if let Some(&(Sym::List(list, _), decl)) = self.globals.get(&n.name) {
                    if self.lookup_local(&n.name).is_none() {
                        self.table_reads.push(super::ranges::TableRead {
                            index: ie.clone(),
                            span: i.span,
                            list,
                            name: n.name.clone(),
                            decl,
                        });
                    }
                }
            }
            return (
                Expr::Builtin(Builtin::ListAt, vec![ie], Some(Box::new(c)), span),
                et.elem(),
            );
        }
        match &obj.kind {
            ExprKind::Name(id) if self.lookup_local(&id.name).is_none() => {
                if let Some(sym @ (Sym::Var(_) | Sym::Zone(_))) = self.global_sym(&id.name) {
                    if let [d @ Dim::Enum(_)] = *self.sym_dims(sym) {
                        let at = self.dim_index(d, i);
                        return self.slot_of(sym, at);
                    }
                }
                // A bare member of the element a `where` filters: `hand[a]`.
                for k in (0..self.body.implicit.len()).rev() {
                    let (slot, ty) = self.body.implicit[k];
                    if let Some(sym) = self.two_dim_member(ty, &id.name) {
                        return self.pair(sym, Expr::Local(slot), i);
                    }
                }
            }
            ExprKind::Field(x, f) if !self.is_enum_name(x) => {
                let (xe, xt) = self.expr(x);
                if let Some(sym) = self.two_dim_member(xt, &f.name) {
                    return self.pair(sym, xe, i);
                }
                let (o, ot) = self.field_of(xe, xt, f);
                return self.index_value(o, ot, obj.span, i, span);
            }
            _ => {}
        }
        let (o, ot) = self.expr(obj);
        self.index_value(o, ot, obj.span, i, span)
    }

    /// E0273 for a constant index outside an enumeration's members (`c`,
    /// its collection); an index computed at run time is checked when it is
    /// read (E0901), as a list's is.
    fn enum_index_in_range(&mut self, c: &Coll, ie: &Expr, obj: &ast::Expr, span: Span) {
        let (Some(at), Coll::Range(_, Expr::Const(last))) = (super::declare::const_eval(ie), c)
        else {
            return;
        };
        let len = last + 1;
        let name = match &obj.kind {
            ExprKind::Name(n) => n.name.as_str(),
            _ => "this enumeration",
        };
        if at < 1 || at > len {
            let d = err(
                "E0273",
                span,
                format!("`{at}` is outside the {len} members of `{name}`"),
                "no such member",
            )
            .at(obj.span, "indexed here")
            .help(format!(
                "an enumeration's members are counted from 1, in declaration order: write an index from 1 to {len}"
            ));
            self.error(d);
        }
    }

    /// Whether `e` is written as a list: a constant list's name, a list
    /// literal, a range, a filter or `list`/`sorted`/`distinct`.
    fn is_list(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            ExprKind::Name(n) => {
                self.lookup_local(&n.name).is_none()
                    && matches!(self.global_sym(&n.name), Some(Sym::List(..)))
            }
            ExprKind::List(_) | ExprKind::Range(..) | ExprKind::Where(..) => true,
            ExprKind::Agg { func, .. } => {
                matches!(func.name.as_str(), "distinct" | "list" | "sorted")
            }
            _ => false,
        }
    }

    fn is_enum_name(&self, e: &ast::Expr) -> bool {
        matches!(&e.kind, ExprKind::Name(n) if self.lookup_local(&n.name).is_none() && matches!(self.global_sym(&n.name), Some(Sym::Enum(_))))
    }

    /// `x.NAME[i]` for a two-dimensional declaration, `x` already checked.
    fn pair(&mut self, sym: Sym, x: Expr, i: &ast::Expr) -> (Expr, Ty) {
        let dims = self.sym_dims(sym).to_vec();
        let ie = self.dim_index(dims[1], i);
        let stride = match sym {
            Sym::Var(v) => self.g.vars[v].stride,
            Sym::Zone(z) => self.g.zones[z].stride,
            _ => 1,
        };
        self.slot_of(sym, Expr::Pos2(Box::new(x), Box::new(ie), stride))
    }

    /// Indexing a value that is not indexed state.
    fn index_value(
        &mut self,
        o: Expr,
        ot: Ty,
        ospan: Span,
        i: &ast::Expr,
        span: Span,
    ) -> (Expr, Ty) {
        let (ie, it) = self.expr(i);
        match ot.scalar {
            // `z[i]`: the i-th piece from the bottom, or none.
            Scalar::Zone(k) if !ot.list => {
                self.expect(it, Ty::INT, i.span);
                (
                    Expr::Builtin(Builtin::ZoneAt, vec![o, ie], None, span),
                    Ty::one(Scalar::Piece(k)),
                )
            }
            Scalar::Error => (Expr::Const(0), Ty::ERR),
            _ => {
                let d = err("E0251", ospan, format!("{} cannot be indexed", self.type_name(ot)), "indexed here")
                    .help("`[…]` indexes zones (`z[1]` is the bottom piece), constant lists and list literals (1-based), and state declared `per ENUM` or `per A per B`");
                self.error(d);
                (Expr::Const(0), Ty::ERR)
            }
        }
    }

    fn args(&mut self, args: &[ast::Expr]) -> Vec<(Expr, Ty, Span)> {
        args.iter()
            .map(|a| {
                let (e, t) = self.expr(a);
                (e, t, a.span)
            })
            .collect()
    }

    pub(super) fn arity(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        n: usize,
        span: Span,
    ) -> bool {
        self.arity_hint(name, args, n, span, None)
    }

    /// As [`Self::arity`], with a hint for a call that gets it wrong.
    fn arity_hint(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        n: usize,
        span: Span,
        hint: Option<&str>,
    ) -> bool {
        if args.len() != n {
            let mut d = err(
                "E0244",
                span,
                format!(
                    "`{}` takes {n} argument{}, but {} {} given",
                    name.name,
                    if n == 1 { "" } else { "s" },
                    args.len(),
                    if args.len() == 1 { "was" } else { "were" }
                ),
                "wrong number of arguments",
            );
            if let Some(h) = hint {
                d = d.help(h);
            }
            self.error(d);
            return false;
        }
        true
    }

    fn call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> (Expr, Ty) {
        if let Some(Sym::Fn(f)) = self.global_sym(&name.name) {
            let sig = self.fn_sigs[f as usize].clone();
            if !self.arity(name, args, sig.0.len(), span) {
                return (Expr::Const(0), sig.1);
            }
            return (self.fn_call(f, args, &sig, span), sig.1);
        }
        let b = |b: Builtin, es: Vec<Expr>| Expr::Builtin(b, es, None, span);
        match name.name.as_str() {
            "next" | "prev" => {
                if !self.arity(name, args, 1, span) {
                    return (Expr::Const(0), Ty::PLAYER);
                }
                let a = self.args(args);
                self.expect(a[0].1, Ty::PLAYER, a[0].2);
                let op = if name.name == "next" {
                    Builtin::Next
                } else {
                    Builtin::Prev
                };
                (b(op, vec![a[0].0.clone()]), Ty::PLAYER)
            }
            "abs" | "sign" => {
                if !self.arity(name, args, 1, span) {
                    return (Expr::Const(0), Ty::INT);
                }
                let a = self.args(args);
                self.expect(a[0].1, Ty::INT, a[0].2);
                let op = if name.name == "abs" {
                    Builtin::Abs
                } else {
                    Builtin::Sign
                };
                (b(op, vec![a[0].0.clone()]), Ty::INT)
            }
            "min" | "max" if args.len() == 2 => {
                let a = self.args(args);
                self.expect(a[0].1, Ty::INT, a[0].2);
                self.expect(a[1].1, Ty::INT, a[1].2);
                let op = if name.name == "min" {
                    Builtin::Min2
                } else {
                    Builtin::Max2
                };
                (b(op, vec![a[0].0.clone(), a[1].0.clone()]), Ty::INT)
            }
            "top" | "bottom" => {
                if !self.arity(name, args, 1, span) {
                    return (Expr::Const(NONE), Ty::one(Scalar::Piece(None)));
                }
                let (e, t) = self.expr(&args[0]);
                let kind = match t.scalar {
                    Scalar::Zone(k) if !t.list => k,
                    _ => {
                        self.expect(t, Ty::one(Scalar::Zone(None)), args[0].span);
                        None
                    }
                };
                let op = if name.name == "top" {
                    Builtin::Top
                } else {
                    Builtin::Bottom
                };
                (b(op, vec![e]), Ty::one(Scalar::Piece(kind)))
            }
            "random" | "first" | "last" | "empty" | "count" | "sum" => {
                if !self.arity(name, args, 1, span) {
                    return (Expr::Const(0), Ty::INT);
                }
                let (c, et) = self.coll(&args[0]);
                let (op, ty) = match name.name.as_str() {
                    "random" => (Builtin::Random, et),
                    "first" => (Builtin::First, et),
                    "last" => (Builtin::Last, et),
                    "empty" => (Builtin::Empty, Ty::BOOL),
                    "count" => (Builtin::Count, Ty::INT),
                    _ => {
                        self.expect(et, Ty::INT, args[0].span);
                        (Builtin::SumList, Ty::INT)
                    }
                };
                // `random` says whether a scenario's scripted roll is the
                // value itself (numbers) or the element's position (anything else).
                let args = if op == Builtin::Random {
                    vec![Expr::Const((et.scalar == Scalar::Int) as Val)]
                } else {
                    vec![]
                };
                (Expr::Builtin(op, args, Some(Box::new(c)), span), ty)
            }
            "longest_path" => {
                let hint = "a trail may start anywhere: pass only its edges, `longest_path(edges where …)`";
                if !self.arity_hint(name, args, 1, span, Some(hint)) {
                    return (Expr::Const(0), Ty::INT);
                }
                let (c, et) = self.coll(&args[0]);
                if !self.assignable(et, Ty::EDGE) {
                    let found = self.type_name(et);
                    let hint = if self.assignable(et, Ty::NODE) {
                        "a trail is made of edges: pass `edges where …`; the nodes joined to a node `n` are `reachable(n, C)`"
                    } else {
                        "pass the edges a trail may use: `edges where …`"
                    };
                    self.error(
                        err(
                            "E0240",
                            args[0].span,
                            format!(
                                "`longest_path` needs a collection of edges, found a collection of `{found}`"
                            ),
                            format!("its elements are `{found}`"),
                        )
                        .help(hint),
                    );
                }
                (
                    Expr::Builtin(Builtin::LongestPath, vec![], Some(Box::new(c)), span),
                    Ty::INT,
                )
            }
            "index" => {
                if !self.arity(name, args, 2, span) {
                    return (Expr::Const(0), Ty::INT);
                }
                let (x, xt) = self.expr(&args[0]);
                let (c, et) = self.coll(&args[1]);
                self.unify(xt, et, span);
                (
                    Expr::Builtin(Builtin::IndexOf, vec![x], Some(Box::new(c)), span),
                    Ty::INT,
                )
            }
            "distance" => {
                if !self.arity(name, args, 2, span) {
                    return (Expr::Const(0), Ty::INT);
                }
                let a = self.args(args);
                self.expect(a[0].1, Ty::NODE, a[0].2);
                self.expect(a[1].1, Ty::NODE, a[1].2);
                self.uses_distance = true;
                (
                    b(Builtin::Distance, vec![a[0].0.clone(), a[1].0.clone()]),
                    Ty::INT,
                )
            }
            "zone_of" | "node_of" | "revealed" => {
                if !self.arity(name, args, 1, span) {
                    return (Expr::Const(0), Ty::INT);
                }
                let (e, t) = self.expr(&args[0]);
                self.expect(t, Ty::one(Scalar::Piece(None)), args[0].span);
                match name.name.as_str() {
                    "zone_of" => (b(Builtin::ZoneOf, vec![e]), Ty::one(Scalar::Zone(None))),
                    "node_of" => (b(Builtin::NodeOf, vec![e]), Ty::NODE),
                    _ => (b(Builtin::Revealed, vec![e]), Ty::BOOL),
                }
            }
            "edge_between" => {
                if !self.arity(name, args, 2, span) {
                    return (Expr::Const(NONE), Ty::EDGE);
                }
                let a = self.args(args);
                self.expect(a[0].1, Ty::NODE, a[0].2);
                self.expect(a[1].1, Ty::NODE, a[1].2);
                (
                    b(Builtin::EdgeBetween, vec![a[0].0.clone(), a[1].0.clone()]),
                    Ty::EDGE,
                )
            }
            "sees" => {
                if !self.arity(name, args, 2, span) {
                    return (Expr::Const(0), Ty::BOOL);
                }
                let a = self.args(args);
                self.expect(a[0].1, Ty::PLAYER, a[0].2);
                self.expect(a[1].1, Ty::one(Scalar::Piece(None)), a[1].2);
                (
                    b(Builtin::Sees, vec![a[0].0.clone(), a[1].0.clone()]),
                    Ty::BOOL,
                )
            }
            "team" => {
                if !self.arity(name, args, 1, span) {
                    return (Expr::Const(0), Ty::INT);
                }
                let a = self.args(args);
                self.expect(a[0].1, Ty::PLAYER, a[0].2);
                (b(Builtin::Team, vec![a[0].0.clone()]), Ty::INT)
            }
            "successors" | "predecessors" | "neighbors" | "edges_of" | "players_from"
            | "opponents" | "distinct" | "sorted" | "reachable" | "components" | "subsets" => {
                self.error(err("E0242", span, format!("`{}(…)` is a collection where a single value is expected", name.name), "this is a collection")
                    .help("use it in `for`, `count(…)`, `any(x in …: …)` or as an action parameter's domain"));
                (Expr::Const(0), Ty::ERR)
            }
            _ => {
                match self.global_sym(&name.name) {
                    Some(Sym::Proc(_)) => self.error(err("E0245", name.span, format!("`{}` is a procedure: call it as a statement", name.name), "not a function")
                        .help("procedures change the game and have no value; functions (`fn`) compute values")),
                    _ => {
                        let builtins = ["next", "prev", "abs", "sign", "min", "max", "top", "bottom", "random", "first", "last", "empty", "count", "sum", "index", "distance", "reachable", "components", "longest_path", "zone_of", "node_of", "revealed", "edge_between", "team", "sees", "any", "all", "best", "worst", "subsets"];
                        let mut names: Vec<&str> = builtins.to_vec();
                        let user: Vec<String> = self.globals.keys().cloned().collect();
                        names.extend(user.iter().map(|s| s.as_str()));
                        let mut d = err("E0246", name.span, format!("unknown function `{}`", name.name), "not a function");
                        if let Some(s) = similar(&name.name, names) {
                            d = d.help(format!("did you mean `{s}`?"));
                        }
                        self.error(d);
                    }
                }
                (Expr::Const(0), Ty::INT)
            }
        }
    }

    /// Binds the element of a collection for a body: as `name`, and also as
    /// `it` with bare field access when `implicit`.
    pub fn bind_elem(&mut self, name: Option<&str>, ty: Ty) -> u16 {
        self.body.scopes.push(vec![]);
        let slot = self.bind(name.unwrap_or("it"), ty);
        if name.is_some() {
            let s = self.body.scopes.last_mut().unwrap();
            s.push(("it".to_string(), slot, ty));
        }
        self.body.implicit.push((slot, ty));
        slot
    }

    pub fn unbind_elem(&mut self) {
        self.body.scopes.pop();
        self.body.implicit.pop();
    }

    fn agg(
        &mut self,
        func: &ast::Ident,
        binder: &ast::Ident,
        coll: &ast::Expr,
        body: Option<&ast::Expr>,
        span: Span,
    ) -> (Expr, Ty) {
        let op = match func.name.as_str() {
            "count" => AggOp::Count,
            "sum" => AggOp::Sum,
            "any" => AggOp::Any,
            "all" => AggOp::All,
            "min" => AggOp::Min,
            "max" => AggOp::Max,
            "best" => AggOp::Best,
            "worst" => AggOp::Worst,
            "distinct" | "list" | "sorted" => {
                self.error(
                    err(
                        "E0242",
                        span,
                        format!(
                            "`{}(…)` is a collection where a single value is expected",
                            func.name
                        ),
                        "this is a collection",
                    )
                    .help("use it in `for`, `count(…)` or as a domain"),
                );
                return (Expr::Const(0), Ty::ERR);
            }
            _ => {
                self.error(err("E0247", func.span, format!("`{}` is not an aggregate", func.name), "unknown aggregate")
                    .help("aggregates are count, sum, any, all, min, max, best, worst; collections: distinct, list, sorted"));
                return (Expr::Const(0), Ty::INT);
            }
        };
        let (c, et) = self.named_coll(coll, &binder.name);
        let slot = self.bind_elem(Some(&binder.name), et);
        let (body_e, bt) = match body {
            Some(b) => {
                let (e, t) = self.expr(b);
                (Some(Box::new(e)), Some((t, b.span)))
            }
            None => (None, None),
        };
        self.unbind_elem();
        let want_body = match op {
            AggOp::Any | AggOp::All | AggOp::Count => Ty::BOOL,
            _ => Ty::INT,
        };
        match (op, bt) {
            (AggOp::Count, None) => {}
            (_, Some((t, s))) => self.expect(t, want_body, s),
            (_, None) => {
                self.error(
                    err(
                        "E0248",
                        span,
                        format!("`{}` needs a body after `:`", func.name),
                        "missing body",
                    )
                    .help(format!("write `{}({} in …: …)`", func.name, binder.name)),
                );
            }
        }
        let ty = match op {
            AggOp::Count | AggOp::Sum | AggOp::Min | AggOp::Max => Ty::INT,
            AggOp::Any | AggOp::All => Ty::BOOL,
            AggOp::Best | AggOp::Worst | AggOp::First | AggOp::Last => et,
        };
        (
            Expr::Agg {
                op,
                coll: Box::new(c),
                slot,
                body: body_e,
            },
            ty,
        )
    }

    /// A collection whose elements are named `name` by what consumes it
    /// (an aggregate, `for`, an action parameter): its `where` may use that name.
    pub fn named_coll(&mut self, e: &ast::Expr, name: &str) -> (Coll, Ty) {
        self.body.elem_name = Some(name.to_string());
        let r = self.coll(e);
        self.body.elem_name = None;
        r
    }

    /// A collection expression and the type of its elements.
    pub fn coll(&mut self, e: &ast::Expr) -> (Coll, Ty) {
        let span = e.span;
        // Only the outermost `where` of a named collection gets the name.
        let elem_name = self.body.elem_name.take();
        // `subsets(…)` may stand here only under this collection's `where`s.
        let subsets_ok = std::mem::take(&mut self.body.subsets_ok);
        match &e.kind {
            ExprKind::Name(id) if self.lookup_local(&id.name).is_none() && id.name == "players" => {
                (Coll::Players, Ty::PLAYER)
            }
            ExprKind::Name(id) if self.lookup_local(&id.name).is_none() && id.name == "nodes" => {
                (Coll::Nodes, Ty::NODE)
            }
            ExprKind::Name(id) if self.lookup_local(&id.name).is_none() && id.name == "edges" => {
                (Coll::Edges, Ty::EDGE)
            }
            // A constant list is its items.
            ExprKind::Name(id)
                if self.lookup_local(&id.name).is_none()
                    && matches!(self.global_sym(&id.name), Some(Sym::List(..))) =>
            {
                let Some(Sym::List(l, ty)) = self.global_sym(&id.name) else {
                    unreachable!()
                };
                (
                    Coll::List(
                        self.g.lists[l as usize]
                            .iter()
                            .map(|&v| Expr::Const(v))
                            .collect(),
                    ),
                    ty,
                )
            }
            // An enumeration's name is its members in declaration order.
            ExprKind::Name(id)
                if self.lookup_local(&id.name).is_none()
                    && matches!(self.global_sym(&id.name), Some(Sym::Enum(_))) =>
            {
                let Some(Sym::Enum(en)) = self.global_sym(&id.name) else {
                    unreachable!()
                };
                let last = self.g.enums[en as usize].members.len() as Val - 1;
                (
                    Coll::Range(Expr::Const(0), Expr::Const(last)),
                    Ty::one(Scalar::Enum(en)),
                )
            }
            ExprKind::Range(a, b) => {
                let (x, xt) = self.expr(a);
                let (y, yt) = self.expr(b);
                self.expect(xt, Ty::INT, a.span);
                self.expect(yt, Ty::INT, b.span);
                (Coll::Range(x, y), Ty::INT)
            }
            ExprKind::List(items) => {
                let mut ty: Option<Ty> = None;
                let mut es = vec![];
                for it in items {
                    let (x, t) = self.expr(it);
                    self.no_set(t, it.span, "a list");
                    ty = Some(match ty {
                        None => t,
                        Some(p) => self.unify(p, t, it.span),
                    });
                    es.push(x);
                }
                (Coll::List(es), ty.unwrap_or(Ty::INT))
            }
            ExprKind::Where(c, cond) => {
                self.body.subsets_ok = subsets_ok;
                let (c2, et) = self.coll(c);
                let slot = self.bind_elem(None, et);
                if let Some(area) = c2.subsets_area(&[]) {
                    self.body.areas.push((slot, area));
                }
                let named = elem_name.is_some();
                if let Some(n) = elem_name {
                    self.body.where_names.push((n, slot, et));
                }
                let (ce, ct) = self.expr(cond);
                if named {
                    self.body.where_names.pop();
                }
                self.unbind_elem();
                self.expect(ct, Ty::BOOL, cond.span);
                // `pieces where it is KIND` keeps pieces of that kind only, so
                // the result is typed by the kind (its fields can be read, and
                // it can move into a zone of that kind).
                let et = match (et.scalar, is_kind_test(&ce, slot)) {
                    (Scalar::Piece(None), Some(k)) => Ty {
                        scalar: Scalar::Piece(Some(k)),
                        list: et.list,
                    },
                    _ => et,
                };
                (Coll::Filter(Box::new(c2), slot, ce), et)
            }
            ExprKind::Call(name, args)
                if name.name == "components" && self.global_sym(&name.name).is_none() =>
            {
                self.components(name, args, span)
            }
            ExprKind::Call(name, args)
                if name.name == "subsets" && self.global_sym(&name.name).is_none() =>
            {
                self.subsets(name, args, span, subsets_ok)
            }
            ExprKind::Call(name, args)
                if name.name == "reachable" && self.global_sym(&name.name).is_none() =>
            {
                if !self.arity(name, args, 2, span) {
                    return (Coll::List(vec![]), Ty::NODE);
                }
                let (x, t) = self.expr(&args[0]);
                if t == Ty::EDGE {
                    self.error(
                        err(
                            "E0240",
                            args[0].span,
                            "`reachable` starts from a node, found an edge",
                            "this is an edge",
                        )
                        .help("start from one of its ends: `e.from` or `e.to`"),
                    );
                } else {
                    self.expect(t, Ty::NODE, args[0].span);
                }
                let (c, et) = self.coll(&args[1]);
                // A collection of edges says which edges a path may use; any
                // other collection says which nodes it may cross.
                if et == Ty::EDGE {
                    return (Coll::ReachableVia(x, Box::new(c)), Ty::NODE);
                }
                if !self.assignable(et, Ty::NODE) {
                    let found = self.type_name(et);
                    self.error(
                        err(
                            "E0240",
                            args[1].span,
                            format!("`reachable` needs a collection of nodes or of edges, found a collection of `{found}`"),
                            format!("its elements are `{found}`"),
                        )
                        .help("pass `nodes where …` (the nodes a path may cross) or `edges where …` (the edges it may use)"),
                    );
                }
                (Coll::Reachable(x, Box::new(c)), Ty::NODE)
            }
            ExprKind::Call(name, args)
                if matches!(
                    name.name.as_str(),
                    "successors"
                        | "predecessors"
                        | "neighbors"
                        | "edges_of"
                        | "players_from"
                        | "opponents"
                ) && self.global_sym(&name.name).is_none() =>
            {
                if !self.arity(name, args, 1, span) {
                    return (Coll::List(vec![]), Ty::INT);
                }
                let (x, t) = self.expr(&args[0]);
                match name.name.as_str() {
                    "players_from" | "opponents" => {
                        self.expect(t, Ty::PLAYER, args[0].span);
                        (
                            if name.name == "opponents" {
                                Coll::Opponents(x)
                            } else {
                                Coll::PlayersFrom(x)
                            },
                            Ty::PLAYER,
                        )
                    }
                    n => {
                        self.expect(t, Ty::NODE, args[0].span);
                        match n {
                            "successors" => (Coll::Successors(x), Ty::NODE),
                            "predecessors" => (Coll::Predecessors(x), Ty::NODE),
                            "neighbors" => (Coll::Neighbors(x), Ty::NODE),
                            _ => (Coll::EdgesOf(x), Ty::EDGE),
                        }
                    }
                }
            }
            ExprKind::Agg {
                func,
                binder,
                coll,
                body,
            } if matches!(func.name.as_str(), "distinct" | "list" | "sorted") => {
                let (c, et) = self.named_coll(coll, &binder.name);
                let slot = self.bind_elem(Some(&binder.name), et);
                let r = match body {
                    Some(b) => {
                        let (be, bt) = self.expr(b);
                        self.no_set(bt, b.span, "a collection");
                        Some((be, bt, b.span))
                    }
                    None => None,
                };
                self.unbind_elem();
                match (func.name.as_str(), r) {
                    ("sorted", Some((be, bt, s))) => {
                        self.expect(bt, Ty::INT, s);
                        (Coll::Sorted(Box::new(c), slot, be), et)
                    }
                    ("distinct", Some((be, bt, _))) => (Coll::Distinct(Box::new(c), slot, be), bt),
                    ("list", Some((be, bt, _))) => (Coll::Map(Box::new(c), slot, be), bt),
                    ("sorted", None) => (Coll::Sorted(Box::new(c), slot, Expr::Local(slot)), et),
                    ("list", None) => (Coll::Map(Box::new(c), slot, Expr::Local(slot)), et),
                    (_, None) => (Coll::Distinct(Box::new(c), slot, Expr::Local(slot)), et),
                    _ => unreachable!(),
                }
            }
            _ => {
                let (x, t) = self.expr(e);
                match t.scalar {
                    Scalar::Zone(k) if !t.list => {
                        let zr = match x {
                            Expr::Zone(zr) => zr,
                            other => ZoneRef {
                                base: 0,
                                index: ZIndex::Value(Box::new(other)),
                            },
                        };
                        (Coll::Zone(zr), Ty::one(Scalar::Piece(k)))
                    }
                    Scalar::Set(on) if !t.list => (Coll::Members(on, x), super::sets::elem_of(on)),
                    Scalar::Error => (Coll::List(vec![]), Ty::ERR),
                    _ if t.list => self.subset_coll(x, t, span),
                    _ => {
                        let d = err("E0249", span, format!("expected a collection, found {}", self.type_name(t)), "not a collection")
                            .help("collections are zones, `players`, `nodes`, `edges`, ranges `a..b`, lists `[…]` and `… where …`");
                        self.error(d);
                        (Coll::List(vec![]), Ty::INT)
                    }
                }
            }
        }
    }

    /// A zone expression (the target of `move`, `shuffle`).
    pub fn zone(&mut self, e: &ast::Expr) -> (ZoneRef, Option<u16>) {
        let (x, t) = self.expr(e);
        match (x, t.scalar) {
            (Expr::Zone(zr), Scalar::Zone(k)) => (zr, k),
            (other, Scalar::Zone(k)) => (
                ZoneRef {
                    base: 0,
                    index: ZIndex::Value(Box::new(other)),
                },
                k,
            ),
            (_, Scalar::Error) => (
                ZoneRef {
                    base: 0,
                    index: ZIndex::Global,
                },
                None,
            ),
            _ => {
                let d = err("E0250", e.span, format!("expected a zone, found {}", self.type_name(t)), "not a zone").help("zones are declared with `zone NAME` and reached as `NAME`, `p.NAME` or `n.NAME`");
                self.error(d);
                (
                    ZoneRef {
                        base: 0,
                        index: ZIndex::Global,
                    },
                    None,
                )
            }
        }
    }

    /// A label or log template.
    pub fn template(&mut self, t: &ast::Template) -> u32 {
        let parts = self.template_parts(t);
        self.g.templates.push(Template { parts });
        (self.g.templates.len() - 1) as u32
    }

    fn template_parts(&mut self, t: &ast::Template) -> Vec<TPart> {
        let mut parts = vec![];
        for p in &t.parts {
            match p {
                ast::TemplatePart::Text(s) => parts.push(TPart::Text(s.clone())),
                ast::TemplatePart::Hole(e) => parts.extend(self.hole(e).into_parts()),
            }
        }
        parts
    }

    /// A template hole. Its value is text, so an `if` in it may choose
    /// between values written differently (a number or a word) and between
    /// templates (`{if w > 0 then " + {w} loco" else ""}`); an `if` whose
    /// branches share a type stays one value, as outside templates.
    fn hole(&mut self, e: &ast::Expr) -> Hole {
        match &e.kind {
            ExprKind::If(c, a, b) => {
                let (ce, ct) = self.expr(c);
                self.expect(ct, Ty::BOOL, c.span);
                match (self.hole(a), self.hole(b)) {
                    (Hole::Value(x, xt), Hole::Value(y, yt))
                        if self.assignable(xt, yt) || self.assignable(yt, xt) =>
                    {
                        let t = if self.assignable(xt, yt) { yt } else { xt };
                        if self.index.is_some() {
                            self.note_expr(e, t);
                        }
                        Hole::Value(Expr::If(Box::new(ce), Box::new(x), Box::new(y)), t)
                    }
                    (x, y) => Hole::Parts(vec![TPart::Choice(ce, x.into_parts(), y.into_parts())]),
                }
            }
            ExprKind::Template(t) => Hole::Parts(self.template_parts(t)),
            _ => {
                let (x, t) = self.expr(e);
                if self.no_set(t, e.span, "a label or log line") {
                    return Hole::Value(Expr::Const(0), Ty::ERR);
                }
                match self.area_of(&x).filter(|_| t.list) {
                    Some(area) => Hole::Parts(vec![TPart::Set(x, area, t)]),
                    None => Hole::Value(x, t),
                }
            }
        }
    }
}

/// A checked template hole: one value, or parts written one after another.
enum Hole {
    Value(Expr, Ty),
    Parts(Vec<TPart>),
}

impl Hole {
    fn into_parts(self) -> Vec<TPart> {
        match self {
            Hole::Value(x, t) => vec![TPart::Hole(x, t)],
            Hole::Parts(p) => p,
        }
    }
}

/// The kind `K` when a filter's condition is `it is K` (or starts with `it is K and …`).
fn is_kind_test(cond: &Expr, slot: u16) -> Option<u16> {
    match cond {
        Expr::IsKind(x, k) if matches!(**x, Expr::Local(l) if l == slot) => Some(*k),
        Expr::Bin(crate::ast::BinOp::And, l, _) => is_kind_test(l, slot),
        _ => None,
    }
}
