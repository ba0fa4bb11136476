//! Walks over the syntax tree: items, statements, expressions and templates,
//! down to every name and span. A [`by_ref::Visit`] reads the tree, a
//! [`by_mut::Visit`] may change it in place; both are written once, by the
//! macro below, so they cannot disagree about what a node contains.
//!
//! Each method of a `Visit` has a default that recurses through the matching
//! `walk_*` function; an implementor overrides the nodes it cares about and
//! calls the `walk_*` function itself where it wants to go on below them.
//! The `walk_*` functions match every variant by name (no `_ =>` arms), so a
//! new kind of item, statement or expression must say here what it contains.
//! They visit children in source order. Expressions are walked recursively:
//! use them only on trees whose depth the parser has bounded
//! (`syntax/depth.rs`).

/// Writes the `Visit` trait and its `walk_*` functions, for shared
/// references when called with nothing and for mutable ones when called with
/// `mut`.
macro_rules! visitor {
    ($($m:tt)?) => {
        use crate::ast::*;
        use crate::diag::Span;

        /// What a walk calls on each node. `'a` is the lifetime of the tree,
        /// so that a visitor may keep references to the nodes it is given.
        pub trait Visit<'a> {
            fn item(&mut self, it: &'a $($m)? Item) {
                walk_item(self, it)
            }
            fn block(&mut self, b: &'a $($m)? Block) {
                walk_block(self, b)
            }
            fn stmt(&mut self, s: &'a $($m)? Stmt) {
                walk_stmt(self, s)
            }
            fn expr(&mut self, e: &'a $($m)? Expr) {
                walk_expr(self, e)
            }
            fn template(&mut self, t: &'a $($m)? Template) {
                walk_template(self, t)
            }
            fn ident(&mut self, id: &'a $($m)? Ident) {
                self.span(&$($m)? id.span)
            }
            /// Every span of the tree, the names' included.
            fn span(&mut self, _s: &'a $($m)? Span) {}
        }

        /// The header's spans and every item.
        pub fn walk_file<'a, V: Visit<'a> + ?Sized>(v: &mut V, f: &'a $($m)? File) {
            match &$($m)? f.header {
                Header::Game { name: _, span } => v.span(span),
                Header::Variant {
                    name: _,
                    base: _,
                    base_span,
                    span,
                } => {
                    v.span(span);
                    v.span(base_span);
                }
            }
            for it in &$($m)? f.items {
                v.item(it);
            }
        }

        pub fn walk_item<'a, V: Visit<'a> + ?Sized>(v: &mut V, it: &'a $($m)? Item) {
            v.span(&$($m)? it.span);
            walk_item_kind(v, &$($m)? it.kind);
        }

        /// The contents of an item, without the item's own span.
        pub fn walk_item_kind<'a, V: Visit<'a> + ?Sized>(v: &mut V, k: &'a $($m)? ItemKind) {
            match k {
                ItemKind::Players { min: _, max: _ } => {}
                ItemKind::Seats(names) => {
                    for n in names {
                        v.ident(n);
                    }
                }
                ItemKind::Board { path: _, players } => {
                    if let Some((_, _, span)) = players {
                        v.span(span);
                    }
                }
                ItemKind::Option { name, ty, value } => {
                    v.ident(name);
                    walk_type(v, ty);
                    v.expr(value);
                }
                ItemKind::Const { name, value } => {
                    v.ident(name);
                    v.expr(value);
                }
                ItemKind::Enum {
                    name,
                    members,
                    shown: _,
                } => {
                    v.ident(name);
                    for m in members {
                        v.ident(m);
                    }
                }
                ItemKind::Piece {
                    name,
                    per_player: _,
                    fields,
                    start,
                    label,
                    instances,
                } => {
                    v.ident(name);
                    walk_params(v, fields);
                    if let Some(s) = start {
                        v.ident(s);
                    }
                    if let Some(t) = label {
                        v.template(t);
                    }
                    if let Some(items) = instances {
                        walk_instances(v, items);
                    }
                }
                ItemKind::Zone {
                    name,
                    scope: _,
                    dims,
                    kind,
                    vis,
                } => {
                    walk_dims(v, dims);
                    v.ident(name);
                    if let Some(k) = kind {
                        v.ident(k);
                    }
                    walk_visibility(v, vis);
                }
                ItemKind::Attr { name, edge: _, ty } => {
                    v.ident(name);
                    v.ident(ty);
                }
                ItemKind::Var {
                    name,
                    scope: _,
                    dims,
                    ty,
                    init,
                    vis,
                } => {
                    walk_dims(v, dims);
                    v.ident(name);
                    walk_type(v, ty);
                    if let Some(e) = init {
                        v.expr(e);
                    }
                    walk_visibility(v, vis);
                }
                ItemKind::Fn {
                    name,
                    params,
                    ret,
                    body,
                } => {
                    v.ident(name);
                    walk_params(v, params);
                    walk_type(v, ret);
                    v.expr(body);
                }
                ItemKind::Proc { name, params, body } => {
                    v.ident(name);
                    walk_params(v, params);
                    v.block(body);
                }
                ItemKind::Phase { name, body } => {
                    v.ident(name);
                    v.block(body);
                }
                ItemKind::BlockOverride {
                    body_name,
                    name,
                    body,
                } => {
                    v.ident(body_name);
                    v.ident(name);
                    v.block(body);
                }
                ItemKind::Action {
                    name,
                    params,
                    label,
                    help: _,
                    merge: _,
                    body,
                } => {
                    v.ident(name);
                    for p in params {
                        v.ident(&$($m)? p.name);
                        v.expr(&$($m)? p.domain);
                    }
                    if let Some(t) = label {
                        v.template(t);
                    }
                    v.block(body);
                }
                ItemKind::Setup(body) | ItemKind::Play(body) => v.block(body),
                ItemKind::Score {
                    player,
                    expr,
                    lowest: _,
                }
                | ItemKind::Tiebreak { player, expr }
                | ItemKind::Team { player, expr } => {
                    v.ident(player);
                    v.expr(expr);
                }
                ItemKind::Statistic { name, player, expr } => {
                    v.ident(name);
                    if let Some(p) = player {
                        v.ident(p);
                    }
                    v.expr(expr);
                }
                ItemKind::Invariant { text: _, expr } => v.expr(expr),
                ItemKind::Names(entries) => {
                    for e in entries {
                        v.ident(&$($m)? e.name);
                        v.span(&$($m)? e.text_span);
                    }
                }
                ItemKind::Draw { target, parts } => {
                    match target {
                        DrawTarget::Name(n) => v.ident(n),
                        DrawTarget::Display(_, span) => v.span(span),
                    }
                    for (prop, e) in parts {
                        v.ident(prop);
                        v.expr(e);
                    }
                }
                ItemKind::Display { text: _, player, expr } => {
                    if let Some(p) = player {
                        v.ident(p);
                    }
                    v.expr(expr);
                }
                ItemKind::Summary { .. } | ItemKind::Help { .. } => {}
            }
        }

        fn walk_params<'a, V: Visit<'a> + ?Sized>(v: &mut V, params: &'a $($m)? [Param]) {
            for p in params {
                v.ident(&$($m)? p.name);
                walk_type(v, &$($m)? p.ty);
            }
        }

        /// A piece kind's instance list, `for` entries and their contents in
        /// source order (the nesting is bounded by the scan before parsing).
        fn walk_instances<'a, V: Visit<'a> + ?Sized>(
            v: &mut V,
            items: &'a $($m)? [InstanceItem],
        ) {
            for item in items {
                match item {
                    InstanceItem::One(inst) => {
                        v.span(&$($m)? inst.span);
                        for f in &$($m)? inst.fields {
                            v.ident(&$($m)? f.name);
                            v.expr(&$($m)? f.value);
                        }
                    }
                    InstanceItem::For {
                        name,
                        coll,
                        items,
                        span,
                    } => {
                        v.span(span);
                        v.ident(name);
                        v.expr(coll);
                        walk_instances(v, items);
                    }
                }
            }
        }

        fn walk_dims<'a, V: Visit<'a> + ?Sized>(v: &mut V, dims: &'a $($m)? [Dim]) {
            for d in dims {
                match d {
                    Dim::Player(s) | Dim::Node(s) | Dim::Edge(s) => v.span(s),
                    Dim::Enum(id) => v.ident(id),
                }
            }
        }

        fn walk_visibility<'a, V: Visit<'a> + ?Sized>(
            v: &mut V,
            vis: &'a $($m)? Option<Visibility>,
        ) {
            if let Some(Visibility {
                kind: _,
                unless: Some(e),
            }) = vis
            {
                v.expr(e);
            }
        }

        /// The names and spans of a type.
        pub fn walk_type<'a, V: Visit<'a> + ?Sized>(v: &mut V, t: &'a $($m)? TypeRef) {
            match t {
                TypeRef::Named(id) => v.ident(id),
                TypeRef::ZoneOf(id, span) => {
                    v.ident(id);
                    v.span(span);
                }
                TypeRef::List(inner, span) => {
                    walk_type(v, inner);
                    v.span(span);
                }
            }
        }

        pub fn walk_block<'a, V: Visit<'a> + ?Sized>(v: &mut V, b: &'a $($m)? Block) {
            v.span(&$($m)? b.span);
            for s in &$($m)? b.stmts {
                v.stmt(s);
            }
        }

        pub fn walk_stmt<'a, V: Visit<'a> + ?Sized>(v: &mut V, s: &'a $($m)? Stmt) {
            v.span(&$($m)? s.span);
            match &$($m)? s.kind {
                StmtKind::Let { name, value } => {
                    v.ident(name);
                    v.expr(value);
                }
                StmtKind::Choose {
                    name,
                    player,
                    from,
                    label,
                } => {
                    v.ident(name);
                    v.expr(player);
                    v.expr(from);
                    if let Some(t) = label {
                        v.template(t);
                    }
                }
                StmtKind::Assign { place, op: _, value } => {
                    v.expr(place);
                    v.expr(value);
                }
                StmtKind::If { cond, then, els } => {
                    v.expr(cond);
                    v.block(then);
                    if let Some(b) = els {
                        v.block(b);
                    }
                }
                StmtKind::For { name, coll, body } => {
                    v.ident(name);
                    v.expr(coll);
                    v.block(body);
                }
                StmtKind::While { cond, body } => {
                    v.expr(cond);
                    v.block(body);
                }
                StmtKind::Break
                | StmtKind::Continue
                | StmtKind::Return
                | StmtKind::EndGame
                | StmtKind::ShowBoard => {}
                StmtKind::Move { what, to, pos: _ } => {
                    match what {
                        MoveWhat::One(e) | MoveWhat::All(e) => v.expr(e),
                        MoveWhat::N(n, e) => {
                            v.expr(n);
                            v.expr(e);
                        }
                    }
                    v.expr(to);
                }
                StmtKind::Shuffle(e)
                | StmtKind::Reveal(e)
                | StmtKind::Hide(e)
                | StmtKind::Require(e) => v.expr(e),
                StmtKind::Act {
                    player,
                    actions,
                    els,
                } => {
                    v.expr(player);
                    for a in actions {
                        v.ident(a);
                    }
                    if let Some(b) = els {
                        v.block(b);
                    }
                }
                StmtKind::Log(t) => v.template(t),
                StmtKind::Named { name, body } => {
                    v.ident(name);
                    v.block(body);
                }
                StmtKind::Call { name, args } => {
                    v.ident(name);
                    for a in args {
                        v.expr(a);
                    }
                }
            }
        }

        /// The expression's span, names and direct subexpressions (each
        /// through [`Visit::expr`], which recurses by default).
        pub fn walk_expr<'a, V: Visit<'a> + ?Sized>(v: &mut V, e: &'a $($m)? Expr) {
            v.span(&$($m)? e.span);
            match &$($m)? e.kind {
                ExprKind::Int(_)
                | ExprKind::Bool(_)
                | ExprKind::None
                | ExprKind::Str(_) => {}
                ExprKind::Node(id) | ExprKind::Name(id) => v.ident(id),
                ExprKind::Field(a, id) | ExprKind::Is(a, id) => {
                    v.expr(a);
                    v.ident(id);
                }
                ExprKind::Neg(a) | ExprKind::Not(a) => v.expr(a),
                ExprKind::Call(name, args) => {
                    v.ident(name);
                    for a in args {
                        v.expr(a);
                    }
                }
                ExprKind::List(items) => {
                    for a in items {
                        v.expr(a);
                    }
                }
                ExprKind::Agg {
                    func,
                    binder,
                    coll,
                    body,
                } => {
                    v.ident(func);
                    v.ident(binder);
                    v.expr(coll);
                    if let Some(b) = body {
                        v.expr(b);
                    }
                }
                ExprKind::Bin(_, a, b)
                | ExprKind::Range(a, b)
                | ExprKind::Where(a, b)
                | ExprKind::Index(a, b) => {
                    v.expr(a);
                    v.expr(b);
                }
                ExprKind::If(a, b, c) => {
                    v.expr(a);
                    v.expr(b);
                    v.expr(c);
                }
                ExprKind::Template(t) => v.template(t),
            }
        }

        /// The template's span and the expressions of its holes.
        pub fn walk_template<'a, V: Visit<'a> + ?Sized>(v: &mut V, t: &'a $($m)? Template) {
            v.span(&$($m)? t.span);
            for p in &$($m)? t.parts {
                match p {
                    TemplatePart::Text(_) => {}
                    TemplatePart::Hole(e) => v.expr(e),
                }
            }
        }
    };
}

/// Walks that read the tree.
pub mod by_ref {
    visitor!();
}

/// Walks that may change the tree in place.
pub mod by_mut {
    visitor!(mut);
}

pub use by_ref::{walk_block, walk_expr, walk_file, walk_item, walk_stmt, walk_template, Visit};

#[cfg(test)]
mod tests {
    use super::{by_mut, walk_file, Visit};
    use crate::diag::{Sources, Span};

    /// Every kind of item, statement and expression, with generic names.
    const TEXT: &str = r#"game "every node"
players 2..4
seats north, south
board "b.toml" for 2..3
option rounds: int = 3
const start = [1, 2]
enum colour { red "Red", blue }
piece token per player { value: int, tint: colour } in pool label "{value}" { 2 x { value: 1, tint: red } }
zone per player per colour pool: token owner
zone pile: token top visible
var per node mark: list of int = [] hidden unless rounds > 1
var level: zone of token
fn double(x: int) -> int = if x > 0 then x * 2 else -x
proc step(p: player) {
  let a = choose p from p.pool where value >= 1 label "{it.value}"
  a.value += 1; a.value -= 1; level = pile
  if not (a is token) { break } else if a.tint == red or true { continue } else { return }
  for n in 1..3 { while n != 0 and none == none { n = n % 2 / 1 } }
  move all p.pool to pile; move 2 of pile to p.pool bottom; move a to pile top
  shuffle pile; reveal a; hide a; require a in pile; log "{count(pile)} left"
  act p with take, pass else { end game }
  step(p)
}
phase turn { step(north) }
action take(c in nodes where empty(c.stones)) label "take {c}" { require sum(t in pile: t.value) < 9 }
setup { mark[@a1] = start[1] }
play { turn() }
score(p) = count(p.pool) lowest
tiebreak(p) = 0
team(p) = 1
statistic left(p) = count(p.pool)
statistic total = 1
invariant "no less" count(pile) >= 0
"#;

    struct Count(usize);
    impl Visit<'_> for Count {
        fn span(&mut self, _: &Span) {
            self.0 += 1;
        }
    }

    struct Clear;
    impl by_mut::Visit<'_> for Clear {
        fn span(&mut self, s: &mut Span) {
            *s = Span::default();
        }
    }

    /// The walks reach every span of the tree (`regel diff` relies on it to
    /// compare trees without their spans).
    #[test]
    fn walks_reach_every_span() {
        let mut sources = Sources::default();
        let id = sources.add("t.rules", TEXT);
        let mut file = crate::syntax::parse(&sources, id).expect("the text parses");
        let mut n = Count(0);
        walk_file(&mut n, &file);
        let spans = format!("{file:?}").matches("Span {").count();
        assert!(spans > 100, "only {spans} spans");
        assert_eq!(n.0, spans, "spans visited and spans in the tree");
        by_mut::walk_file(&mut Clear, &mut file);
        let cleared = format!("{file:?}")
            .matches("Span { file: 0, start: 0, end: 0 }")
            .count();
        assert_eq!(cleared, spans);
    }
}
