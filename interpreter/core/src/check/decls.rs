//! Declarations: the global symbol tables, storage layout (zones, variables,
//! pieces), and the order in which bodies are checked.

use super::load::{Merged, Reader};
use super::{err, similar};
use crate::ast::{self, ItemKind, Scope, TypeRef, VisKind};
use crate::board::{AttrValue, Board};
use crate::diag::{Diagnostic, Diagnostics, Sources, Span};
use crate::ir::Game;
use crate::ir::*;
use indexmap::IndexMap;
use std::sync::Arc;

/// Per-body state: local scopes and slots.
#[derive(Default)]
pub(super) struct Body {
    pub scopes: Vec<Vec<(String, u16, Ty)>>,
    pub nlocals: u16,
    /// Elements bound by `where` without a name: `it`, and their fields by bare name.
    pub implicit: Vec<(u16, Ty)>,
    pub actor: Option<u16>,
    pub loops: u32,
    /// The name the next collection's elements get (`x` in `count(x in C
    /// where …)`), taken by the first `where` that [`Checker::coll`] meets.
    pub elem_name: Option<String>,
    /// Those names while their `where` is checked: a name that resolves to
    /// nothing else is the element (`count(x in C where x > 2)`).
    pub where_names: Vec<(String, u16, Ty)>,
}

pub(super) struct Checker {
    pub errors: Diagnostics,
    pub warnings: Diagnostics,
    pub globals: IndexMap<String, (Sym, Span)>,
    pub player_members: IndexMap<String, Sym>,
    pub node_members: IndexMap<String, Sym>,
    pub edge_members: IndexMap<String, Sym>,
    pub enum_members: IndexMap<(u16, String), Sym>,
    pub members: IndexMap<String, Vec<(u16, u16)>>,
    pub board: Arc<Board>,
    pub body: Body,
    pub g: Game,
    pub fn_sigs: Vec<(Vec<Ty>, Ty)>,
    pub proc_sigs: Vec<Vec<Ty>>,
    pub proc_used: Vec<bool>,
    pub action_used: Vec<bool>,
    pub texts: IndexMap<String, ()>,
    /// The rules call `distance`: the board's distance table is worth computing.
    pub uses_distance: bool,
}

/// Every node's distance to every other (-1: unreachable), by petgraph's
/// Dijkstra with unit weights from each node over the board graph (an
/// undirected board holds both arcs of each edge).
fn distance_table(b: &Board) -> Vec<i16> {
    let n = b.nodes.len();
    let mut t = vec![-1i16; n * n];
    for from in b.graph.node_indices() {
        let d = petgraph::algo::dijkstra(&b.graph, from, None, |_| 1i32);
        let row = b.graph[from] as usize * n;
        for (to, k) in d {
            t[row + b.graph[to] as usize] = k as i16;
        }
    }
    t
}

pub(super) fn check_merged(
    sources: &mut Sources,
    read: Reader,
    m: Merged,
    passes: &crate::opt::Passes,
) -> Result<(Game, Diagnostics), Diagnostics> {
    if let Some(per_board) = super::boards::check_per_board(sources, read, &m, passes) {
        return per_board;
    }
    // The board comes first: node attributes and piece sets are part of the namespace.
    let board_item = m.items.iter().find_map(|it| match &it.kind {
        ItemKind::Board { path, .. } => Some((path.clone(), it.span)),
        _ => None,
    });
    let board = match board_item {
        Some((path, span)) => {
            let dir = m
                .dirs
                .iter()
                .find(|(f, _)| *f == span.file)
                .map(|d| d.1.clone())
                .unwrap_or_default();
            let full = dir.join(&path);
            match read(&full) {
                Ok(text) => {
                    let f = sources.add(full.display().to_string(), text);
                    crate::board::build(sources, f)?
                }
                Err(e) => {
                    return Err(vec![err(
                        "E0002",
                        span,
                        format!("cannot read the board file `{}`: {e}", full.display()),
                        "named here",
                    )
                    .help("board paths are relative to the rules file that names them")])
                }
            }
        }
        None => crate::board::empty(),
    };

    let mut ck = Checker {
        errors: vec![],
        warnings: vec![],
        globals: IndexMap::new(),
        player_members: IndexMap::new(),
        node_members: IndexMap::new(),
        edge_members: IndexMap::new(),
        enum_members: IndexMap::new(),
        members: IndexMap::new(),
        board: Arc::new(board),
        body: Body::default(),
        g: Game {
            name: m.game_name.clone(),
            variants: m.variants.clone(),
            min_players: 1,
            max_players: 1,
            seats: vec![],
            board: Arc::new(crate::board::empty()),
            enums: vec![],
            lists: vec![],
            dist: vec![],
            texts: vec![],
            kinds: vec![],
            zones: vec![],
            nzones: 0,
            vars: vec![],
            nvars: 0,
            options: IndexMap::new(),
            piece_kind: vec![],
            piece_owner: vec![],
            piece_class: vec![],
            kind_twins: vec![],
            piece_start: vec![],
            fields: vec![],
            node_attrs: vec![],
            node_attr_index: vec![],
            keys: vec![],
            edge_attrs: vec![],
            fns: vec![],
            procs: vec![],
            actions: vec![],
            blocks: vec![],
            code: vec![],
            templates: vec![],
            programs: vec![],
            setup: None,
            play: (0, 0),
            score: None,
            tiebreaks: vec![],
            team: None,
            invariants: vec![],
            statistics: vec![],
            present: Presentation::default(),
            box_zone: 0,
            symbols: Symbols::default(),
            by_players: vec![],
        },
        fn_sigs: vec![],
        proc_sigs: vec![],
        proc_used: vec![],
        action_used: vec![],
        texts: IndexMap::new(),
        uses_distance: false,
    };
    ck.g.board = ck.board.clone();
    ck.declare_all(&m.items);
    ck.bodies(&m.items);
    ck.presentation(&m.items);
    if ck.errors.is_empty() {
        ck.unused();
        ck.g.texts = ck.texts.keys().cloned().collect();
        ck.g.symbols = ck.symbols();
        super::twins::mark(&mut ck.g);
        crate::opt::run(&mut ck.g, passes);
        super::flatten::flatten_game(&mut ck.g);
        if ck.uses_distance && ck.board.nodes.len() <= super::DIST_TABLE_MAX {
            ck.g.dist = distance_table(&ck.board);
        }
        Ok((ck.g, ck.warnings))
    } else {
        Err(ck.errors)
    }
}

impl Checker {
    fn symbols(&self) -> Symbols {
        Symbols {
            globals: self.globals.clone(),
            player_members: self.player_members.clone(),
            node_members: self.node_members.clone(),
            edge_members: self.edge_members.clone(),
            enum_members: self.enum_members.clone(),
            members: self.members.clone(),
            fn_sigs: self.fn_sigs.clone(),
            proc_sigs: self.proc_sigs.clone(),
            texts: self.texts.clone(),
        }
    }

    /// A checker over an already checked game, for compiling more expressions.
    pub(super) fn resume(g: &Game) -> Checker {
        let s = g.symbols.clone();
        Checker {
            errors: vec![],
            warnings: vec![],
            globals: s.globals,
            player_members: s.player_members,
            node_members: s.node_members,
            edge_members: s.edge_members,
            enum_members: s.enum_members,
            members: s.members,
            board: g.board.clone(),
            body: Body::default(),
            g: g.clone(),
            fn_sigs: s.fn_sigs,
            proc_sigs: s.proc_sigs.clone(),
            proc_used: vec![true; s.proc_sigs.len()],
            action_used: vec![true; g.actions.len()],
            texts: s.texts,
            uses_distance: false,
        }
    }

    pub fn error(&mut self, d: Diagnostic) {
        self.errors.push(d);
    }

    pub fn intern(&mut self, s: &str) -> Val {
        self.texts.insert_full(s.to_string(), ()).0 as Val
    }

    fn define(&mut self, name: &ast::Ident, sym: Sym) {
        if let Some((_, prev)) = self.globals.get(&name.name) {
            let prev = *prev;
            self.error(
                err(
                    "E0202",
                    name.span,
                    format!("`{}` is declared twice", name.name),
                    "declared again here",
                )
                .at(prev, "first declared here")
                .help("every top-level name must be unique; rename one of them"),
            );
            return;
        }
        if matches!(
            name.name.as_str(),
            "players" | "nodes" | "edges" | "actor" | "it" | "box" | "num_players"
        ) {
            self.error(
                err(
                    "E0203",
                    name.span,
                    format!("`{}` is a built-in name", name.name),
                    "cannot be redeclared",
                )
                .help("choose another name"),
            );
            return;
        }
        self.globals.insert(name.name.clone(), (sym, name.span));
    }

    fn define_member(&mut self, scope: Scope, name: &ast::Ident, sym: Sym) {
        let table = match scope {
            Scope::Player => &mut self.player_members,
            Scope::Node => &mut self.node_members,
            Scope::Edge => &mut self.edge_members,
            Scope::Global | Scope::Indexed => return self.define(name, sym),
        };
        if table.contains_key(&name.name) {
            let d = err(
                "E0202",
                name.span,
                format!("`{}` is declared twice for the same scope", name.name),
                "declared again here",
            )
            .help("per-player (and per-node) variables and zones share one namespace");
            self.error(d);
            return;
        }
        let clash_attr = scope == Scope::Node && self.board.node_attrs.contains_key(&name.name)
            || scope == Scope::Edge && self.board.edge_attrs.contains_key(&name.name);
        if clash_attr {
            self.error(
                err(
                    "E0204",
                    name.span,
                    format!("`{}` is already a board attribute", name.name),
                    "clashes with the board file",
                )
                .help("rename the variable or zone, or the attribute in the board file"),
            );
            return;
        }
        table.insert(name.name.clone(), sym);
    }

    pub fn resolve_type(&mut self, t: &TypeRef) -> Ty {
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
                    _ => match self.globals.get(&id.name).map(|x| x.0) {
                        Some(Sym::Kind(k)) => Scalar::Piece(Some(k)),
                        Some(Sym::Enum(e)) => Scalar::Enum(e),
                        _ => {
                            let mut names = vec![
                                "int", "bool", "player", "node", "edge", "piece", "text", "zone",
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

    /// First pass: every declaration's name and storage, so bodies may refer
    /// to things declared after them.
    fn declare_all(&mut self, items: &[ast::Item]) {
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
        // The board's attributes, typed by their values.
        let board = self.board.clone();
        for (name, col) in &board.node_attrs {
            let (ty, vals) = self.attr_column(&col.values);
            self.g.node_attrs.push((name.clone(), ty, vals));
        }
        for (_, _, vals) in &self.g.node_attrs {
            let mut order: Vec<u32> = (0..vals.len() as u32).collect();
            order.sort_by_key(|&n| (vals[n as usize], n));
            let keys = order.iter().map(|&n| vals[n as usize]).collect();
            self.g.node_attr_index.push((keys, order));
        }
        for (name, col) in &board.edge_attrs {
            let (ty, vals) = self.attr_column(&col.values);
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
                    if ty.list {
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
                    let ps = params.iter().map(|p| self.resolve_type(&p.ty)).collect();
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
        self.proc_used = vec![false; self.proc_sigs.len()];
    }

    fn attr_column(&mut self, values: &[AttrValue]) -> (Ty, Vec<Val>) {
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
    fn resolve_dims(&mut self, dims: &[ast::Dim]) -> Vec<Dim> {
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
    pub fn dim_len(&self, d: Dim) -> u32 {
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
    fn dims_count(&self, dims: &[Dim]) -> (u32, u32) {
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
    fn define_dims(&mut self, scope: Scope, dims: &[Dim], name: &ast::Ident, sym: Sym) {
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
    fn storage(&mut self, count: u32, span: Span) -> u32 {
        let total = u64::from(self.g.nvars) + u64::from(self.g.nzones) + u64::from(count);
        if total <= crate::limits::MAX_STATE_CELLS {
            return count;
        }
        self.error(err("E0707", span, format!("the variables and zones would take more than {} cells", crate::limits::MAX_STATE_CELLS), "this one passes the limit")
            .help("a per-node or per-edge declaration takes one cell per node or edge of the board; use fewer of them"));
        0
    }

    /// Second pass: values that need expressions (option defaults, variable
    /// initial values, piece instances) and then every body.
    fn bodies(&mut self, items: &[ast::Item]) {
        let mut fn_i = 0u16;
        let mut proc_i = 0usize;
        let mut action_i = 0usize;
        let mut kind_i = 0u16;
        let mut saw_play = false;
        let mut score_seen = false;
        for it in items {
            match &it.kind {
                ItemKind::Option { name, value, .. } => {
                    let id = self.g.options[&name.name];
                    self.body = Body::default();
                    let (e, ty) = self.expr(value);
                    let want = self.g.vars[id].ty;
                    self.expect(ty, want, value.span);
                    if const_eval(&e).is_none() {
                        self.error(
                            err(
                                "E0210",
                                value.span,
                                "an option's default must be a constant",
                                "not constant",
                            )
                            .help("use a literal such as `false` or `3`"),
                        );
                    }
                    self.g.vars[id].init = Some(e);
                }
                ItemKind::Var { name, init, .. } => {
                    // The declaration of this item (names may clash, spans do not).
                    let id = match self
                        .g
                        .vars
                        .iter()
                        .position(|d| !d.is_option && d.span == name.span)
                    {
                        Some(v) => v,
                        None => continue,
                    };
                    if let Some(init) = init {
                        self.body = Body::default();
                        let (e, ty) = self.expr(init);
                        let want = self.g.vars[id].ty;
                        self.expect(ty, want, init.span);
                        self.g.vars[id].init = Some(e);
                    }
                }
                ItemKind::Piece {
                    start,
                    label,
                    instances,
                    per_player,
                    ..
                } => {
                    let k = kind_i;
                    kind_i += 1;
                    self.piece_instances(k, *per_player, instances.as_deref(), it.span);
                    if let Some(z) = start {
                        let zs = if *per_player {
                            self.lookup_member(Scope::Player, &z.name)
                                .or_else(|| self.global_sym(&z.name))
                        } else {
                            self.global_sym(&z.name)
                        };
                        match zs {
                            Some(Sym::Zone(zi)) if self.g.zones[zi].scope == Scope::Indexed => {
                                let zd = &self.g.zones[zi];
                                let d = err("E0239", z.span, format!("zone `{}` is indexed by {}: a piece cannot start in it", z.name, self.g.dims_text(&zd.dims)), "needs an index")
                                    .help("start the pieces in a global or per-player zone, and move them in `setup`");
                                self.error(d);
                            }
                            Some(Sym::Zone(zi)) => {
                                let zd = &self.g.zones[zi];
                                if zd.kind.is_some() && zd.kind != Some(k) {
                                    let d = err(
                                        "E0216",
                                        z.span,
                                        format!("zone `{}` holds another kind of piece", z.name),
                                        "wrong kind of zone",
                                    )
                                    .help(
                                        "a zone declared `: KIND` holds only pieces of that kind",
                                    );
                                    self.error(d);
                                }
                                self.g.kinds[k as usize].start = Some(zi as u16);
                            }
                            _ => {
                                let d = err("E0217", z.span, format!("unknown zone `{}`", z.name), "not a zone")
                                    .help(if *per_player { "a per-player piece starts in a per-player zone of its owner, or in a global zone" } else { "a piece that is not per player starts in a global zone" });
                                self.error(d);
                            }
                        }
                    }
                    if let Some(t) = label {
                        self.body = Body::default();
                        let slot = self.bind("it", Ty::one(Scalar::Piece(Some(k))));
                        debug_assert_eq!(slot, 0);
                        self.body
                            .implicit
                            .push((slot, Ty::one(Scalar::Piece(Some(k)))));
                        let tid = self.template(t);
                        self.g.kinds[k as usize].label = Some(tid);
                    }
                }
                ItemKind::Fn {
                    params, body, name, ..
                } => {
                    let id = fn_i;
                    fn_i += 1;
                    self.body = Body::default();
                    self.body.scopes.push(vec![]);
                    let sig = self.fn_sigs[id as usize].clone();
                    for (p, ty) in params.iter().zip(sig.0.iter()) {
                        self.bind(&p.name.name, *ty);
                    }
                    let (e, ty) = self.expr(body);
                    self.expect(ty, sig.1, body.span);
                    self.g.fns.push(FnDecl {
                        name: name.name.clone(),
                        nparams: params.len() as u16,
                        nlocals: self.body.nlocals,
                        body: e,
                    });
                }
                ItemKind::Proc { name, params, body } => {
                    let sig = self.proc_sigs[proc_i].clone();
                    proc_i += 1;
                    self.body = Body::default();
                    self.body.scopes.push(vec![]);
                    let ps: Vec<(u16, Ty)> = params
                        .iter()
                        .zip(sig.iter())
                        .map(|(p, ty)| (self.bind(&p.name.name, *ty), *ty))
                        .collect();
                    let b = self.block(body);
                    self.g.procs.push(ProcDecl {
                        name: name.name.clone(),
                        params: ps,
                        nlocals: self.body.nlocals,
                        body: b,
                        is_phase: false,
                        span: name.span,
                    });
                }
                ItemKind::Phase { name, body } => {
                    proc_i += 1;
                    self.body = Body::default();
                    self.body.scopes.push(vec![]);
                    let b = self.block(body);
                    self.g.procs.push(ProcDecl {
                        name: name.name.clone(),
                        params: vec![],
                        nlocals: self.body.nlocals,
                        body: b,
                        is_phase: true,
                        span: name.span,
                    });
                }
                ItemKind::Action {
                    name,
                    params,
                    label,
                    body,
                } => {
                    action_i += 1;
                    let a = self.action(name, params, label.as_ref(), body);
                    self.g.actions.push(a);
                }
                ItemKind::Setup(b) => {
                    self.body = Body::default();
                    self.body.scopes.push(vec![]);
                    let id = self.block(b);
                    self.g.setup = Some((id, self.body.nlocals));
                }
                ItemKind::Play(b) => {
                    saw_play = true;
                    self.body = Body::default();
                    self.body.scopes.push(vec![]);
                    let id = self.block(b);
                    self.g.play = (id, self.body.nlocals);
                }
                ItemKind::Score {
                    player,
                    expr,
                    lowest,
                } => {
                    score_seen = true;
                    let (e, n) = self.player_expr(player, expr, Ty::INT);
                    self.g.score = Some((e, n, *lowest));
                }
                ItemKind::Tiebreak { player, expr } => {
                    let (e, n) = self.player_expr(player, expr, Ty::INT);
                    self.g.tiebreaks.push((e, n));
                }
                ItemKind::Team { player, expr } => {
                    let (e, n) = self.player_expr(player, expr, Ty::INT);
                    self.g.team = Some((e, n));
                }
                ItemKind::Statistic { name, player, expr } => {
                    self.statistic(name, player.as_ref(), expr)
                }
                ItemKind::Invariant { text, expr } => {
                    self.body = Body::default();
                    self.body.scopes.push(vec![]);
                    let (e, ty) = self.expr(expr);
                    self.expect(ty, Ty::BOOL, expr.span);
                    self.g
                        .invariants
                        .push((text.clone(), e, self.body.nlocals, expr.span));
                }
                _ => {}
            }
        }
        let _ = (action_i, score_seen);
        if !saw_play {
            let span = Span::new(items.first().map(|i| i.span.file).unwrap_or(0), 0, 0);
            self.error(
                err(
                    "E0218",
                    span,
                    "the ruleset has no `play { … }` block",
                    "missing `play`",
                )
                .help("`play` is where the game's flow starts, after `setup`"),
            );
        }
    }

    /// `statistic NAME(p) = EXPR` or `statistic NAME = EXPR`: a whole number,
    /// per player or for the game, under a name of its own.
    fn statistic(&mut self, name: &ast::Ident, player: Option<&ast::Ident>, expr: &ast::Expr) {
        self.body = Body::default();
        self.body.scopes.push(vec![]);
        if let Some(p) = player {
            self.bind(&p.name, Ty::PLAYER);
        }
        let (e, ty) = self.expr(expr);
        if !self.assignable(ty, Ty::INT) {
            let d = err(
                "E0240",
                expr.span,
                format!("a statistic is a whole number, not {}", self.type_name(ty)),
                format!("this is {}", self.type_name(ty)),
            )
            .help("count what you mean, e.g. `if COND then 1 else 0`, or `count(…)` of a zone");
            self.error(d);
        }
        if self.g.statistics.iter().any(|s| s.name == name.name) {
            self.error(
                err(
                    "E0202",
                    name.span,
                    format!("statistic `{}` is declared twice", name.name),
                    "declared again here",
                )
                .help("give each statistic its own name"),
            );
        }
        self.g.statistics.push(Statistic {
            name: name.name.clone(),
            per_player: player.is_some(),
            expr: e,
            nlocals: self.body.nlocals,
            span: name.span,
        });
    }

    fn player_expr(&mut self, player: &ast::Ident, expr: &ast::Expr, want: Ty) -> (Expr, u16) {
        self.body = Body::default();
        self.body.scopes.push(vec![]);
        self.bind(&player.name, Ty::PLAYER);
        let (e, ty) = self.expr(expr);
        self.expect(ty, want, expr.span);
        (e, self.body.nlocals)
    }

    fn piece_instances(
        &mut self,
        k: u16,
        per_player: bool,
        instances: Option<&[ast::Instance]>,
        span: Span,
    ) {
        let kind = self.g.kinds[k as usize].clone();
        // (count, field values) groups, from the rules or from the board file.
        let mut groups: Vec<(u32, Vec<Val>)> = vec![];
        match instances {
            Some(list) => {
                for inst in list {
                    let mut vals = vec![0; kind.fields.len()];
                    let mut given = vec![false; kind.fields.len()];
                    for f in &inst.fields {
                        match kind.fields.iter().position(|x| x.0 == f.name.name) {
                            Some(i) => {
                                self.body = Body::default();
                                let (e, ty) = self.expr(&f.value);
                                self.expect(ty, kind.fields[i].1, f.value.span);
                                vals[i] = const_eval(&e).unwrap_or(0);
                                given[i] = true;
                            }
                            None => self.error(
                                err(
                                    "E0219",
                                    f.name.span,
                                    format!("piece `{}` has no field `{}`", kind.name, f.name.name),
                                    "unknown field",
                                )
                                .help(format!(
                                    "its fields are: {}",
                                    kind.fields
                                        .iter()
                                        .map(|f| f.0.as_str())
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                )),
                            ),
                        }
                    }
                    for (i, g) in given.iter().enumerate() {
                        if !g {
                            self.error(
                                err(
                                    "E0220",
                                    inst.span,
                                    format!("field `{}` is not given", kind.fields[i].0),
                                    "incomplete instance",
                                )
                                .help("give every field a value"),
                            );
                        }
                    }
                    if inst.count < 1 {
                        self.error(
                            err(
                                "E0221",
                                inst.span,
                                "an instance count must be at least 1",
                                "here",
                            )
                            .help("write `N x { … }` with N >= 1"),
                        );
                    }
                    groups.push((inst.count.clamp(0, u32::MAX.into()) as u32, vals));
                }
            }
            None => {
                let board = self.board.clone();
                match board.pieces.get(&kind.name) {
                    None if per_player => {
                        self.error(
                            err(
                                "E0222",
                                span,
                                format!(
                                    "piece `{}` is declared per player but lists no instances",
                                    kind.name
                                ),
                                "no instances",
                            )
                            .help("list them after the declaration: `{ 4 x { value: 1 } }`"),
                        );
                    }
                    None => {
                        self.error(err("E0223", span, format!("there are no `{0}` pieces: the board file has no `[[pieces.{0}]]` groups and the rules list no instances", kind.name), "no pieces of this kind")
                            .help(format!("add `[[pieces.{}]]` groups to the board file, or list instances after the declaration", kind.name)));
                    }
                    Some(gs) => {
                        for grp in gs {
                            let mut vals = vec![0; kind.fields.len()];
                            for (i, (fname, fty, _)) in kind.fields.iter().enumerate() {
                                match grp.fields.get(fname) {
                                    Some((v, vspan)) => vals[i] = self.board_value(v, *fty, *vspan, fname),
                                    None => self.error(err("E0224", grp.span, format!("this `{}` group does not give field `{}`", kind.name, fname), "missing field")
                                        .help("every group in the board file gives every field the rules declare")),
                                }
                            }
                            for (fname, (_, fspan)) in &grp.fields {
                                if !kind.fields.iter().any(|f| &f.0 == fname) {
                                    self.error(err("E0225", *fspan, format!("piece `{}` has no field `{}`", kind.name, fname), "not declared by the rules")
                                        .at(kind.span, "declared here")
                                        .help("declare the field in the rules, or remove it from the board file"));
                                }
                            }
                            groups.push((grp.count, vals));
                        }
                    }
                }
            }
        }
        let seats = if per_player { self.g.max_players } else { 1 };
        // Every piece costs memory in every position: the total is capped.
        let total = self.g.piece_kind.len() as u64
            + seats as u64 * groups.iter().map(|g| u64::from(g.0)).sum::<u64>();
        if total > crate::limits::MAX_PIECES {
            self.error(err("E0706", span, format!("the game would hold more pieces than the limit of {}", crate::limits::MAX_PIECES), "this kind reaches the limit")
                .help("piece counts (times the seats, for a piece per player) add up over all kinds; use fewer pieces or a number variable"));
            return;
        }
        for seat in 0..seats {
            for (count, vals) in &groups {
                for _ in 0..*count {
                    let id = self.g.piece_kind.len();
                    self.g.piece_kind.push(k);
                    self.g
                        .piece_owner
                        .push(if per_player { seat as i8 } else { -1 });
                    self.g.piece_start.push(None);
                    for (i, (_, _, fid)) in kind.fields.iter().enumerate() {
                        let col = &mut self.g.fields[*fid as usize];
                        col.resize(id + 1, 0);
                        col[id] = vals[i];
                    }
                }
            }
        }
    }

    fn board_value(&mut self, v: &AttrValue, ty: Ty, span: Span, field: &str) -> Val {
        match (v, ty.scalar) {
            (AttrValue::Int(i), Scalar::Int) => *i,
            (AttrValue::Bool(b), Scalar::Bool) => *b as Val,
            (AttrValue::Str(s), Scalar::Text) => self.intern(s),
            // A `node` or `edge` field names a node or edge of the board by its id.
            (AttrValue::Str(s), Scalar::Node | Scalar::Edge) => {
                let board = self.board.clone();
                let node = ty.scalar == Scalar::Node;
                let found = if node {
                    board.node_index.get(s).copied()
                } else {
                    board
                        .edges
                        .iter()
                        .position(|e| &e.id == s)
                        .map(|e| e as u32)
                };
                match found {
                    Some(i) => i as Val,
                    None => {
                        let what = if node { "node" } else { "edge" };
                        let mut d = err(
                            "E0229",
                            span,
                            format!("the board has no {what} `{s}` (field `{field}`)"),
                            format!("unknown {what}"),
                        );
                        let near = if node {
                            similar(s, board.nodes.iter().map(|n| n.id.as_str()))
                        } else {
                            similar(s, board.edges.iter().map(|e| e.id.as_str()))
                        };
                        d = d.help(match near {
                            Some(n) => format!("did you mean `{n}`?"),
                            None => format!("{} `{what}` field names one of the board's {what} ids; `regel board` lists them", if node { "a" } else { "an" }),
                        });
                        self.error(d);
                        0
                    }
                }
            }
            (AttrValue::Str(s), Scalar::Enum(e)) => {
                let en = &self.g.enums[e as usize];
                match en.members.iter().position(|m| m == s) {
                    Some(i) => i as Val,
                    None => {
                        let d = err(
                            "E0226",
                            span,
                            format!("`{s}` is not a member of `{}`", en.name),
                            "unknown member",
                        )
                        .help(format!("the members are: {}", en.members.join(", ")));
                        self.error(d);
                        0
                    }
                }
            }
            _ => {
                let tn = crate::ir::type_name(&self.g, ty);
                self.error(
                    err(
                        "E0227",
                        span,
                        format!("field `{field}` should be {tn}"),
                        "wrong type of value",
                    )
                    .help("fix the value in the board file, or the field's type in the rules"),
                );
                0
            }
        }
    }

    pub fn global_sym(&self, name: &str) -> Option<Sym> {
        self.globals.get(name).map(|x| x.0)
    }

    pub fn lookup_member(&self, scope: Scope, name: &str) -> Option<Sym> {
        match scope {
            Scope::Player => self.player_members.get(name).copied(),
            Scope::Node => self.node_members.get(name).copied(),
            Scope::Edge => self.edge_members.get(name).copied(),
            Scope::Global | Scope::Indexed => self.global_sym(name),
        }
    }

    pub fn bind(&mut self, name: &str, ty: Ty) -> u16 {
        let slot = self.body.nlocals;
        self.body.nlocals += 1;
        if self.body.scopes.is_empty() {
            self.body.scopes.push(vec![]);
        }
        self.body
            .scopes
            .last_mut()
            .unwrap()
            .push((name.to_string(), slot, ty));
        slot
    }

    /// Warnings for declarations nothing uses.
    fn unused(&mut self) {
        for (i, used) in self.action_used.clone().iter().enumerate() {
            if !used {
                let a = &self.g.actions[i];
                self.warnings.push(
                    Diagnostic::warning("W0001", format!("action `{}` is never offered", a.name))
                        .at(a.span, "no `act … with` names it")
                        .help("offer it in an `act` statement, or remove it"),
                );
            }
        }
        for (i, used) in self.proc_used.clone().iter().enumerate() {
            if !used {
                let p = &self.g.procs[i];
                let what = if p.is_phase { "phase" } else { "procedure" };
                self.warnings.push(
                    Diagnostic::warning("W0002", format!("{what} `{}` is never called", p.name))
                        .at(p.span, "unreachable")
                        .help("call it from `play`, `setup` or another body, or remove it"),
                );
            }
        }
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
    use crate::ast::BinOp::*;
    Some(match e {
        Expr::Const(v) => *v,
        Expr::Neg(a) => const_eval(a)?.checked_neg()?,
        Expr::Not(a) => (const_eval(a)? == 0) as Val,
        Expr::If(c, a, b) => {
            if const_eval(c)? != 0 {
                const_eval(a)?
            } else {
                const_eval(b)?
            }
        }
        Expr::Bin(op, a, b) => {
            let (x, y) = (const_eval(a)?, const_eval(b)?);
            match op {
                Add => x.checked_add(y)?,
                Sub => x.checked_sub(y)?,
                Mul => x.checked_mul(y)?,
                Div => x.checked_div(y)?,
                Rem => x.checked_rem(y)?,
                Eq => (x == y) as Val,
                Ne => (x != y) as Val,
                Lt => (x < y) as Val,
                Le => (x <= y) as Val,
                Gt => (x > y) as Val,
                Ge => (x >= y) as Val,
                And => (x != 0 && y != 0) as Val,
                Or => (x != 0 || y != 0) as Val,
                In => return None,
            }
        }
        _ => return None,
    })
}
