//! Presentation: the display names of the board's nodes and edges (their
//! `name` attribute), `names { … }` for zones, piece kinds, variables and
//! actions, and `display` declarations, checked and stored in
//! [`Presentation`]. Runs after the bodies, when every declaration is known.

use super::decls::Checker;
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
            .help("write the name in quotes (`name = \"Lübeck\"`), or call the attribute something else");
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
                    g.enums
                        .iter()
                        .flat_map(|e| e.members.iter().map(|m| m.as_str())),
                );
            let help = match similar(name, candidates) {
                Some(s) => format!("did you mean `{s}`?"),
                None => "`names` gives texts to zones, piece kinds, variables, actions and enumeration members".into(),
            };
            let d = err(
                "E0281",
                e.name.span,
                format!(
                    "`{name}` is not a zone, piece kind, variable, action or enumeration member"
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
        self.body = super::decls::Body::default();
        self.body.scopes.push(vec![]);
        if let Some(p) = player {
            self.bind(&p.name, Ty::PLAYER);
        }
        let (e, ty) = self.expr(expr);
        if ty.list || matches!(ty.scalar, Scalar::Nothing) {
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
        });
    }
}
