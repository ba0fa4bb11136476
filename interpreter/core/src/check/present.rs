//! Presentation: the display names of the board's nodes and edges (their
//! `name` attribute), `names { … }` for zones, piece kinds, variables,
//! actions, phases and enumeration members, and `display` declarations, checked and stored in
//! [`Presentation`]. Runs after the bodies, when every declaration is known.

use super::context::Checker;
use super::{err, similar};
use crate::ast::{self, ItemKind};
use crate::board::AttrValue;
use crate::ir::*;

impl Checker {
    /// Checks the presentation items of a merged ruleset and fills `g.present`.
    pub(super) fn presentation(&mut self, items: &[ast::Item]) {
        let node_names = self.board_names(false);
        let edge_names = self.board_names(true);
        let p = &mut self.g.present;
        p.node_names = node_names;
        p.edge_names = edge_names;
        p.zone_names = vec![None; self.g.zones.len()];
        p.kind_names = vec![None; self.g.kinds.len()];
        p.var_names = vec![None; self.g.vars.len()];
        p.action_names = vec![None; self.g.actions.len()];
        p.proc_names = vec![None; self.g.procs.len()];
        p.member_names = self
            .g
            .enums
            .iter()
            .map(|e| vec![None; e.members.len()])
            .collect();
        for item in items {
            match &item.kind {
                ItemKind::Names(entries) => {
                    for e in entries {
                        self.name_entry(e);
                    }
                }
                ItemKind::Display { text, player, expr } => {
                    self.display(text, item.span, player.as_ref(), expr)
                }
                _ => {}
            }
        }
        // `draw` reads the displays, so it comes after all of them.
        self.g.present.kind_looks = vec![None; self.g.kinds.len()];
        self.g.present.zone_looks = vec![None; self.g.zones.len()];
        for item in items {
            if let ItemKind::Draw { target, parts } = &item.kind {
                self.draw(target, parts);
            }
        }
    }

    /// The `name` attribute of the board's nodes (or edges), which people
    /// read instead of the ids; empty when the board gives none. It must be
    /// text (E0280).
    fn board_names(&mut self, edges: bool) -> Vec<String> {
        let attrs = if edges {
            &self.board.edge_attrs
        } else {
            &self.board.node_attrs
        };
        let Some(col) = attrs.get("name") else {
            return vec![];
        };
        if let Some(v) = col.values.iter().find(|v| !matches!(v, AttrValue::Str(_))) {
            let what = if edges { "an edge" } else { "a node" };
            let d = err(
                "E0280",
                col.span,
                format!(
                    "the board attribute `name` is what people read for {what}, so it must be text, not {}",
                    v.type_name()
                ),
                "`name` given here",
            )
            .help("write the name in quotes (`name = \"North Gate\"`), or call the attribute something else");
            self.error(d);
            return vec![];
        }
        col.values
            .iter()
            .map(|v| match v {
                AttrValue::Str(s) => s.clone(),
                _ => String::new(),
            })
            .collect()
    }

    /// One `NAME: "text"` of `names { … }`: the zone, piece kind, variable or
    /// action of that name gets the text.
    fn name_entry(&mut self, e: &ast::NameEntry) {
        let name = e.name.name.as_str();
        if e.text.trim().is_empty() {
            let d = err("E0283", e.text_span, format!("the name of `{name}` is empty"), "empty text")
                .help("write the words people should read, or leave the entry out to show the declared name");
            self.error(d);
            return;
        }
        // Taken out while the declarations are searched, put back below.
        let mut p = std::mem::take(&mut self.g.present);
        let g = &self.g;
        let mut slots: Vec<&mut Option<String>> = vec![];
        slots.extend(
            p.zone_names
                .iter_mut()
                .zip(&g.zones)
                .filter(|(_, z)| z.name == name)
                .map(|(s, _)| s),
        );
        slots.extend(
            p.kind_names
                .iter_mut()
                .zip(&g.kinds)
                .filter(|(_, k)| k.name == name)
                .map(|(s, _)| s),
        );
        slots.extend(
            p.var_names
                .iter_mut()
                .zip(&g.vars)
                .filter(|(_, v)| v.name == name && !v.is_option)
                .map(|(s, _)| s),
        );
        slots.extend(
            p.action_names
                .iter_mut()
                .zip(&g.actions)
                .filter(|(_, a)| a.name == name)
                .map(|(s, _)| s),
        );
        slots.extend(
            p.proc_names
                .iter_mut()
                .zip(&g.procs)
                .filter(|(_, q)| q.is_phase && q.name == name)
                .map(|(s, _)| s),
        );
        for (names, en) in p.member_names.iter_mut().zip(&g.enums) {
            slots.extend(
                names
                    .iter_mut()
                    .zip(&en.members)
                    .filter(|(_, m)| *m == name)
                    .map(|(s, _)| s),
            );
        }
        let problem = if slots.is_empty() {
            Some(false)
        } else if slots.iter().any(|s| s.is_some()) {
            Some(true)
        } else {
            for s in slots {
                *s = Some(e.text.clone());
            }
            None
        };
        self.g.present = p;
        let g = &self.g;
        if problem == Some(false) {
            let candidates = g
                .zones
                .iter()
                .map(|z| z.name.as_str())
                .chain(g.kinds.iter().map(|k| k.name.as_str()))
                .chain(g.vars.iter().map(|v| v.name.as_str()))
                .chain(g.actions.iter().map(|a| a.name.as_str()))
                .chain(
                    g.procs
                        .iter()
                        .filter(|q| q.is_phase)
                        .map(|q| q.name.as_str()),
                )
                .chain(
                    g.enums
                        .iter()
                        .flat_map(|e| e.members.iter().map(|m| m.as_str())),
                );
            let help = match similar(name, candidates) {
                Some(s) => format!("did you mean `{s}`?"),
                None => "`names` gives texts to zones, piece kinds, variables, actions, phases and enumeration members".into(),
            };
            let d = err(
                "E0281",
                e.name.span,
                format!(
                    "`{name}` is not a zone, piece kind, variable, action, phase or enumeration member"
                ),
                "nothing of this name can be named",
            )
            .help(help);
            self.error(d);
            return;
        }
        if problem == Some(true) {
            let d = err(
                "E0282",
                e.name.span,
                format!("`{name}` is given a name twice"),
                "named again here",
            )
            .help("keep one entry per declared name");
            self.error(d);
        }
    }

    /// `draw TARGET PROP = EXPR, …`: a piece kind's look, a zone's slots, a
    /// display's track, or the colour and text of the board's nodes or edges.
    fn draw(&mut self, target: &ast::DrawTarget, parts: &[(ast::Ident, ast::Expr)]) {
        let (what, allowed, it): (Drawn, &[&str], Option<Ty>) = match target {
            ast::DrawTarget::Display(text, span) => {
                match self.g.present.displays.iter().position(|d| &d.text == text) {
                    Some(i) => (Drawn::Display(i), &["track"], None),
                    None => {
                        let d = err(
                            "E0286",
                            *span,
                            format!("no display \"{text}\" is declared"),
                            "not a display",
                        )
                        .help(
                            "`draw \"TEXT\" track = N` draws a declared `display \"TEXT\"(p) = …`",
                        );
                        self.error(d);
                        return;
                    }
                }
            }
            ast::DrawTarget::Name(n) => {
                if let Some(k) = self.g.kinds.iter().position(|k| k.name == n.name) {
                    let ty = Ty::one(Scalar::Piece(Some(k as u16)));
                    (Drawn::Kind(k), &["shape", "colour", "text"], Some(ty))
                } else if let Some(z) = self.g.zones.iter().position(|z| z.name == n.name) {
                    let zd = &self.g.zones[z];
                    let ty = match zd.dims.first() {
                        Some(Dim::Player) => Some(Ty::PLAYER),
                        Some(Dim::Node) => Some(Ty::one(Scalar::Node)),
                        Some(Dim::Edge) => Some(Ty::one(Scalar::Edge)),
                        _ => None,
                    };
                    (Drawn::Zone(z), &["slots", "over"], ty)
                } else if n.name == "nodes" {
                    (
                        Drawn::Nodes,
                        &["colour", "text"],
                        Some(Ty::one(Scalar::Node)),
                    )
                } else if n.name == "edges" {
                    (
                        Drawn::Edges,
                        &["colour", "text"],
                        Some(Ty::one(Scalar::Edge)),
                    )
                } else {
                    let d = err(
                        "E0286",
                        n.span,
                        format!("`{}` is not a piece kind, a zone or a display", n.name),
                        "nothing to draw",
                    )
                    .help("`draw KIND shape = …, colour = …`, `draw ZONE slots = …`, `draw \"DISPLAY\" track = N`, `draw nodes colour = …`, `draw edges text = …`");
                    self.error(d);
                    return;
                }
            }
        };
        let mut props: Vec<(String, Prop)> = vec![];
        self.body = super::context::Body::default();
        self.body.scopes.push(vec![]);
        if let Some(t) = it {
            let slot = self.bind("it", t);
            self.body.implicit.push((slot, t));
        }
        for (name, e) in parts {
            if !allowed.contains(&name.name.as_str()) {
                let d = err(
                    "E0287",
                    name.span,
                    format!(
                        "`{}` is not something {} is drawn with",
                        name.name,
                        what.word()
                    ),
                    "unknown property",
                )
                .help(format!(
                    "{} takes {}",
                    what.word(),
                    allowed
                        .iter()
                        .map(|a| format!("`{a}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                self.error(d);
                continue;
            }
            let (expr, ty) = self.expr(e);
            let ok = !ty.list
                && match name.name.as_str() {
                    "shape" => matches!(ty.scalar, Scalar::Text | Scalar::Enum(_)),
                    "colour" => {
                        matches!(ty.scalar, Scalar::Text | Scalar::Enum(_) | Scalar::Player)
                    }
                    "slots" | "track" => ty.scalar == Scalar::Int,
                    "text" => !matches!(
                        ty.scalar,
                        Scalar::Nothing | Scalar::Piece(_) | Scalar::Set(_)
                    ),
                    _ => matches!(ty.scalar, Scalar::Zone(_)),
                };
            if !ok {
                let want = match name.name.as_str() {
                    "shape" => "text or an enumeration member",
                    "colour" => "a player, text or an enumeration member",
                    "slots" | "track" => "a whole number",
                    "text" => "a single value other than a piece",
                    _ => "a zone",
                };
                let d = err(
                    "E0288",
                    e.span,
                    format!("`{}` must be {want}, not {}", name.name, self.type_name(ty)),
                    format!("this is {}", self.type_name(ty)),
                )
                .help("shapes are `disc`, `square`, `cube`, `card`, `diamond`; colours are a seat, a colour name or `#rrggbb`");
                self.error(d);
                continue;
            }
            props.push((name.name.clone(), Prop { expr, ty }));
        }
        let nlocals = self.body.nlocals;
        let mut take = |k: &str| {
            props
                .iter()
                .position(|p| p.0 == k)
                .map(|i| props.remove(i).1)
        };
        match what {
            Drawn::Kind(k) => {
                self.g.present.kind_looks[k] = Some(Look {
                    shape: take("shape"),
                    colour: take("colour"),
                    text: take("text"),
                    nlocals,
                })
            }
            Drawn::Nodes | Drawn::Edges => {
                let look = Look {
                    shape: None,
                    colour: take("colour"),
                    text: take("text"),
                    nlocals,
                };
                match what {
                    Drawn::Nodes => self.g.present.node_look = Some(look),
                    _ => self.g.present.edge_look = Some(look),
                }
            }
            Drawn::Zone(z) => {
                self.g.present.zone_looks[z] = Some(ZoneLook {
                    slots: take("slots"),
                    over: take("over"),
                    nlocals,
                })
            }
            Drawn::Display(i) => {
                if let Some(p) = take("track") {
                    match super::declare::const_eval(&p.expr) {
                        Some(n) if n > 0 => self.g.present.displays[i].track = Some(n),
                        _ => {
                            let span = parts
                                .iter()
                                .find(|p| p.0.name == "track")
                                .map(|p| p.1.span)
                                .unwrap_or_default();
                            let d = err(
                                "E0288",
                                span,
                                "a track's length must be a positive constant",
                                "not a positive constant",
                            )
                            .help("write the highest value the track shows, e.g. `track = 20`");
                            self.error(d);
                        }
                    }
                }
            }
        }
    }

    /// `display "text"(p) = EXPR` or `display "text" = EXPR`: a value of any
    /// single type, checked like a statistic's expression.
    fn display(
        &mut self,
        text: &str,
        span: crate::diag::Span,
        player: Option<&ast::Ident>,
        expr: &ast::Expr,
    ) {
        if text.trim().is_empty() {
            let d = err("E0283", span, "a display's text is empty", "empty text").help(
                "write what the value means to a player, e.g. `display \"actions left\"(p) = …`",
            );
            self.error(d);
            return;
        }
        self.body = super::context::Body::default();
        self.body.scopes.push(vec![]);
        if let Some(p) = player {
            self.bind(&p.name, Ty::PLAYER);
        }
        let (e, ty) = self.expr(expr);
        if ty.list || matches!(ty.scalar, Scalar::Nothing | Scalar::Set(_)) {
            let d = err(
                "E0284",
                expr.span,
                format!("a display shows one value, not {}", self.type_name(ty)),
                format!("this is {}", self.type_name(ty)),
            )
            .help("show a count or one item: `count(…)`, `first(…)`, `sum(…)`");
            self.error(d);
            return;
        }
        if self.g.present.displays.iter().any(|d| d.text == text) {
            let d = err(
                "E0285",
                span,
                format!("the display \"{text}\" is declared twice"),
                "declared again here",
            )
            .help("give each display its own text");
            self.error(d);
            return;
        }
        self.g.present.displays.push(Display {
            text: text.to_string(),
            per_player: player.is_some(),
            expr: e,
            ty,
            nlocals: self.body.nlocals,
            span: expr.span,
            track: None,
        });
    }
}

/// What a `draw` declaration pictures.
#[derive(Clone, Copy)]
enum Drawn {
    Kind(usize),
    Zone(usize),
    Display(usize),
    /// The board's nodes, or its edges (`draw nodes …`, `draw edges …`).
    Nodes,
    Edges,
}

impl Drawn {
    fn word(self) -> &'static str {
        match self {
            Drawn::Kind(_) => "a piece kind",
            Drawn::Zone(_) => "a zone",
            Drawn::Display(_) => "a display",
            Drawn::Nodes => "a node",
            Drawn::Edges => "an edge",
        }
    }
}
