//! Declarations, first pass: every name a body may use, declared before
//! any body is checked (so that bodies may refer to things declared after
//! them): the player count and seats, enumerations, the board's attributes,
//! the built-in box, constants and piece kinds; zones, variables and
//! signatures follow in `layout.rs`. Also the types written in declarations
//! and the evaluation of constants.

use super::context::{Body, Checker};
use super::{err, similar};
use crate::ast::{self, ItemKind, Scope, TypeRef, VisKind};
use crate::board::{AttrColumn, AttrValue};
use crate::diag::Span;
use crate::ir::*;

impl Checker {
    /// First pass: every declaration's name and storage, so bodies may refer
    /// to things declared after them.
    pub(super) fn declare_all(&mut self, items: &[ast::Item]) {
        self.players_and_seats(items);
        self.board_and_box(items);
        self.consts_and_kinds(items);
        self.zones_vars_and_signatures(items);
        self.proc_used = vec![false; self.proc_sigs.len()];
    }

    /// `players`, `seats` and `enum` declarations.
    pub(super) fn players_and_seats(&mut self, items: &[ast::Item]) {
        let mut seen_players = false;
        for it in items {
            match &it.kind {
                ItemKind::Players { min, max } => {
                    seen_players = true;
                    if *min < 1 || *max < *min || *max as usize > MAX_SEATS {
                        self.error(
                            err(
                                "E0207",
                                it.span,
                                format!("invalid player count {min}..{max}"),
                                "here",
                            )
                            .help(format!(
                                "write `players MIN..MAX` with 1 <= MIN <= MAX <= {MAX_SEATS}"
                            )),
                        );
                    } else {
                        self.g.min_players = *min as usize;
                        self.g.max_players = *max as usize;
                    }
                }
                ItemKind::Seats(names) => {
                    self.g.seats = names.iter().map(|n| n.name.clone()).collect()
                }
                ItemKind::Enum {
                    name,
                    members,
                    shown,
                } => {
                    let id = self.g.enums.len() as u16;
                    self.define(name, Sym::Enum(id));
                    for (i, m) in members.iter().enumerate() {
                        self.members
                            .entry(m.name.clone())
                            .or_default()
                            .push((id, i as u16));
                    }
                    let shown = members
                        .iter()
                        .zip(shown)
                        .map(|(m, s)| s.clone().unwrap_or_else(|| m.name.clone()))
                        .collect();
                    self.g.enums.push(EnumDecl {
                        name: name.name.clone(),
                        members: members.iter().map(|m| m.name.clone()).collect(),
                        shown,
                    });
                }
                _ => {}
            }
        }
        if !seen_players {
            let span = Span::new(items.first().map(|i| i.span.file).unwrap_or(0), 0, 0);
            self.error(
                err(
                    "E0208",
                    span,
                    "the ruleset does not say how many players it takes",
                    "missing `players`",
                )
                .help("add a line such as `players 2..4`"),
            );
        }
        let n = self.g.max_players;
        if self.g.seats.is_empty() {
            self.g.seats = (1..=n).map(|i| format!("p{i}")).collect();
        } else if self.g.seats.len() < n {
            let span = items
                .iter()
                .find(|i| matches!(i.kind, ItemKind::Seats(_)))
                .map(|i| i.span)
                .unwrap_or_default();
            self.error(
                err(
                    "E0209",
                    span,
                    format!("{} seat names for up to {n} players", self.g.seats.len()),
                    "too few names",
                )
                .help("name one seat per possible player"),
            );
            while self.g.seats.len() < n {
                let k = self.g.seats.len() + 1;
                self.g.seats.push(format!("p{k}"));
            }
        }
    }

    /// The board's attributes as typed columns with their indexes, and the
    /// built-in `box` zone.
    pub(super) fn board_and_box(&mut self, items: &[ast::Item]) {
        // The board's attributes, typed by their values or by an `attr`
        // declaration.
        let board = self.board.clone();
        let declared = self.attr_decls(items);
        for (name, col) in &board.node_attrs {
            let (ty, vals) = match declared.iter().find(|d| !d.0 && &d.1 == name) {
                Some(&(_, _, e)) => self.enum_column(name, e, col),
                None => self.attr_column(&col.values),
            };
            self.g.node_attrs.push((name.clone(), ty, vals));
        }
        for (_, _, vals) in &self.g.node_attrs {
            self.g.node_attr_index.push(AttrIndex::new(vals));
        }
        for (name, col) in &board.edge_attrs {
            let (ty, vals) = match declared.iter().find(|d| d.0 && &d.1 == name) {
                Some(&(_, _, e)) => self.enum_column(name, e, col),
                None => self.attr_column(&col.values),
            };
            self.g.edge_attrs.push((name.clone(), ty, vals));
        }
        // The built-in box holds every piece that the rules have not put anywhere.
        self.g.box_zone = 0;
        self.g.zones.push(ZoneDecl {
            name: "box".into(),
            scope: Scope::Global,
            dims: vec![],
            stride: 1,
            kind: None,
            vis: VisKind::Hidden,
            unless: None,
            base: 0,
            count: 1,
            span: Span::default(),
        });
        self.g.nzones = 1;
        self.globals
            .insert("box".into(), (Sym::Zone(0), Span::default()));
    }

    /// Constants (values and lists) and piece kinds with their fields.
    pub(super) fn consts_and_kinds(&mut self, items: &[ast::Item]) {
        for it in items {
            match &it.kind {
                ItemKind::Const {
                    name,
                    value:
                        ast::Expr {
                            kind: ast::ExprKind::List(items),
                            ..
                        },
                } => {
                    // `const NAME = [a, b, …]`: a list of constant items.
                    self.body = Body::default();
                    let (c, ty) = self.coll(value_of(it));
                    let Coll::List(es) = c else {
                        unreachable!("a list literal lowers to a list")
                    };
                    let mut vals = vec![];
                    for (e, src) in es.iter().zip(items) {
                        match const_eval(e) {
                            Some(v) => vals.push(v),
                            None => {
                                self.error(err("E0210", src.span, "a constant list's items must be computable before the game starts", "not constant")
                                    .help("use numbers, `true`/`false`, text, enumeration members and other constants"));
                                vals.push(0);
                            }
                        }
                    }
                    let id = self.g.lists.len() as u32;
                    self.g.lists.push(vals);
                    self.define(name, Sym::List(id, ty));
                }
                ItemKind::Const { name, value } => {
                    self.body = Body::default();
                    let (e, ty) = self.expr(value);
                    match const_eval(&e) {
                        Some(v) => self.define(name, Sym::Const(v, ty)),
                        None => {
                            self.error(
                                err(
                                    "E0210",
                                    value.span,
                                    "a constant must be computable before the game starts",
                                    "not constant",
                                )
                                .help(
                                    "use numbers, `true`/`false`, other constants and arithmetic",
                                ),
                            );
                            self.define(name, Sym::Const(0, ty));
                        }
                    }
                }
                ItemKind::Piece {
                    name,
                    per_player,
                    fields,
                    start: _,
                    label: _,
                    instances: _,
                } => {
                    let id = self.g.kinds.len() as u16;
                    self.define(name, Sym::Kind(id));
                    let mut fs = vec![];
                    for f in fields {
                        if f.name.name == "owner" {
                            self.error(
                                err(
                                    "E0211",
                                    f.name.span,
                                    "`owner` is a built-in field",
                                    "reserved",
                                )
                                .help("pieces declared `per player` have an `owner`"),
                            );
                        }
                        let ty = self.resolve_type(&f.ty);
                        self.no_set(ty, super::sets::type_span(&f.ty), "a piece's field");
                        let fid = self.g.fields.len() as u32;
                        self.g.fields.push(vec![]);
                        fs.push((f.name.name.clone(), ty, fid));
                    }
                    self.g.kinds.push(KindDecl {
                        name: name.name.clone(),
                        per_player: *per_player,
                        fields: fs,
                        label: None,
                        start: None,
                        span: name.span,
                    });
                }
                _ => {}
            }
        }
    }

    pub(super) fn resolve_type(&mut self, t: &TypeRef) -> Ty {
        match t {
            TypeRef::ZoneOf(kind, _) => match self.global_sym(&kind.name) {
                Some(Sym::Kind(k)) => Ty::one(Scalar::Zone(Some(k))),
                _ => {
                    let d = err(
                        "E0212",
                        kind.span,
                        format!("unknown piece kind `{}`", kind.name),
                        "not a piece kind",
                    );
                    let d = match similar(&kind.name, self.g.kinds.iter().map(|k| k.name.as_str()))
                    {
                        Some(s) => d.help(format!("did you mean `{s}`?")),
                        None => {
                            d.help("`zone of KIND` names a kind declared with `piece KIND { … }`")
                        }
                    };
                    self.error(d);
                    Ty::ERR
                }
            },
            TypeRef::List(inner, span) => {
                let e = self.resolve_type(inner);
                if self.no_set(e, *span, "a list") {
                    return Ty::ERR;
                }
                if e.list {
                    self.error(
                        err(
                            "E0205",
                            *span,
                            "lists of lists are not supported",
                            "nested list",
                        )
                        .help("use a list of scalars"),
                    );
                }
                Ty::list_of(e.scalar)
            }
            TypeRef::Named(id) => {
                let s = match id.name.as_str() {
                    "int" => Scalar::Int,
                    "bool" => Scalar::Bool,
                    "player" => Scalar::Player,
                    "node" => Scalar::Node,
                    "edge" => Scalar::Edge,
                    "piece" => Scalar::Piece(None),
                    "text" => Scalar::Text,
                    "zone" => Scalar::Zone(None),
                    // Sets of nodes or edges: a `fn`'s parameters and result only.
                    "nodes" => Scalar::Set(Elems::Nodes),
                    "edges" => Scalar::Set(Elems::Edges),
                    _ => match self.globals.get(&id.name).map(|x| x.0) {
                        Some(Sym::Kind(k)) => Scalar::Piece(Some(k)),
                        Some(Sym::Enum(e)) => Scalar::Enum(e),
                        _ => {
                            let mut names = vec![
                                "int", "bool", "player", "node", "edge", "piece", "text", "zone",
                                "nodes", "edges",
                            ];
                            let kinds: Vec<String> = self
                                .g
                                .kinds
                                .iter()
                                .map(|k| k.name.clone())
                                .chain(self.g.enums.iter().map(|e| e.name.clone()))
                                .collect();
                            names.extend(kinds.iter().map(|s| s.as_str()));
                            let mut d = err(
                                "E0206",
                                id.span,
                                format!("unknown type `{}`", id.name),
                                "not a type",
                            );
                            d = d.help(match similar(&id.name, names.iter().copied()) {
                                Some(s) => format!("did you mean `{s}`?"),
                                None => format!("types are {}", names.join(", ")),
                            });
                            self.error(d);
                            Scalar::Int
                        }
                    },
                };
                Ty::one(s)
            }
        }
    }
}

impl Checker {
    /// The `attr` declarations as (per edge, name, enumeration), each
    /// checked: the enumeration exists and the board has the attribute
    /// (E0275); a second declaration of one attribute is refused too.
    fn attr_decls(&mut self, items: &[ast::Item]) -> Vec<(bool, String, u16)> {
        let board = self.board.clone();
        let mut out: Vec<(bool, String, u16)> = vec![];
        for it in items {
            let ItemKind::Attr { name, edge, ty } = &it.kind else {
                continue;
            };
            let what = if *edge { "edge" } else { "node" };
            let cols = if *edge {
                &board.edge_attrs
            } else {
                &board.node_attrs
            };
            let Some(Sym::Enum(e)) = self.global_sym(&ty.name) else {
                let d = err("E0275", ty.span, format!("`{}` is not an enumeration", ty.name), "not an enumeration")
                    .help("an `attr` declaration gives a board attribute an enumeration's type; the board file writes the members' names");
                self.error(d);
                continue;
            };
            if !cols.contains_key(&name.name) {
                let mut d = err(
                    "E0275",
                    name.span,
                    format!("the board has no {what} attribute `{}`", name.name),
                    "not on the board",
                );
                d = d.help(match similar(&name.name, cols.keys().map(String::as_str)) {
                    Some(n) => format!("did you mean `{n}`?"),
                    None => format!("the board file gives its {what}s no such attribute; `regel board` lists them"),
                });
                self.error(d);
                continue;
            }
            if out.iter().any(|d| d.0 == *edge && d.1 == name.name) {
                let d = err(
                    "E0275",
                    it.span,
                    format!("the {what} attribute `{}` is declared twice", name.name),
                    "declared again",
                )
                .help("declare an attribute's type once");
                self.error(d);
                continue;
            }
            out.push((*edge, name.name.clone(), e));
        }
        out
    }

    /// An attribute column whose values name members of enumeration `e`:
    /// a value that is not one is E0226 at its place in the board file.
    fn enum_column(&mut self, name: &str, e: u16, col: &AttrColumn) -> (Ty, Vec<Val>) {
        let mut vals = Vec::with_capacity(col.values.len());
        for (v, &span) in col.values.iter().zip(&col.spans) {
            let en = &self.g.enums[e as usize];
            let found = match v {
                AttrValue::Str(s) => en.members.iter().position(|m| m == s),
                _ => None,
            };
            vals.push(match found {
                Some(i) => i as Val,
                None => {
                    let shown = match v {
                        AttrValue::Str(s) => s.clone(),
                        AttrValue::Int(i) => i.to_string(),
                        AttrValue::Bool(b) => b.to_string(),
                    };
                    let near = similar(&shown, en.members.iter().map(String::as_str));
                    let d = err(
                        "E0226",
                        span,
                        format!("`{shown}` is not a member of `{}` (attribute `{name}`)", en.name),
                        "unknown member",
                    )
                    .help(match near {
                        Some(n) => format!("did you mean `{n}`? The members are: {}", en.members.join(", ")),
                        None => format!("the rules declare `{name}` of type `{}`: write one of its members in quotes: {}", en.name, en.members.join(", ")),
                    });
                    self.error(d);
                    0
                }
            });
        }
        (Ty::one(Scalar::Enum(e)), vals)
    }
}

/// The value expression of a `const` item.
fn value_of(it: &ast::Item) -> &ast::Expr {
    match &it.kind {
        ItemKind::Const { value, .. } => value,
        _ => unreachable!("called on constants only"),
    }
}

/// Evaluates an expression that needs no game state, if it is one.
pub(super) fn const_eval(e: &Expr) -> Option<Val> {
    const_eval_with(e, &[])
}

/// As [`const_eval`], with the locals in `env` known by slot (the names of
/// the `for` entries around a piece's instance).
pub(super) fn const_eval_with(e: &Expr, env: &[Val]) -> Option<Val> {
    let ev = |x: &Expr| const_eval_with(x, env);
    Some(match e {
        Expr::Const(v) => *v,
        Expr::Local(s) => *env.get(*s as usize)?,
        Expr::Neg(a) => crate::ops::neg(ev(a)?).ok()?,
        Expr::Not(a) => crate::ops::not(ev(a)?),
        Expr::If(c, a, b) => {
            if ev(c)? != 0 {
                ev(a)?
            } else {
                ev(b)?
            }
        }
        Expr::Bin(op, a, b) => crate::ops::fold(*op, ev(a)?, ev(b)?)?,
        _ => return None,
    })
}
