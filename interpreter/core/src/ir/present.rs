//! Presentation: how people see a game. Display names for the board's nodes
//! and edges and for declared zones, piece kinds, variables and actions, and
//! the values declared for display (`display "actions left"(p) = …`).
//!
//! None of it changes what the rules do: records, scripts, `--format json`
//! and the engine's trace keep the declared ids; screens, the per-seat log and
//! pictures read these names (see `eval/view.rs`, display mode).

use super::*;

/// What the rules and the board say about how the game looks.
#[derive(Clone, Debug, Default)]
pub struct Presentation {
    /// Per node: the board's `name` attribute, when the board gives the nodes
    /// one (else empty).
    pub node_names: Vec<String>,
    /// Per edge: the board's `name` attribute of edges (else empty).
    pub edge_names: Vec<String>,
    /// Per zone declaration: the text of `names { … }`, if any.
    pub zone_names: Vec<Option<String>>,
    /// Per piece kind.
    pub kind_names: Vec<Option<String>>,
    /// Per variable declaration.
    pub var_names: Vec<Option<String>>,
    /// Per action.
    pub action_names: Vec<Option<String>>,
    /// Per procedure: the text of `names { … }` (read for phases, whose
    /// starts the course of the game marks).
    pub proc_names: Vec<Option<String>>,
    /// Per enumeration, per member: the text of `names { … }`. Only screens
    /// and pictures read it; a member's text in its `enum` declaration is
    /// part of the labels that records keep.
    pub member_names: Vec<Vec<Option<String>>>,
    /// The declared displays, in declaration order.
    pub displays: Vec<Display>,
    /// Per piece kind: how its pieces are drawn (`draw KIND shape = …, colour = …`).
    pub kind_looks: Vec<Option<Look>>,
    /// Per zone declaration: drawn as ordered slots (`draw ZONE slots = …` or `over = …`).
    pub zone_looks: Vec<Option<ZoneLook>>,
    /// How the board's nodes and edges themselves are drawn (`draw nodes
    /// colour = …, text = …`, `draw edges …`): `it` is the node or edge, so
    /// that a claimed route or an owned city shows its owner's colour.
    pub node_look: Option<Look>,
    pub edge_look: Option<Look>,
}

/// A property of a `draw` declaration: an expression over `it` (local 0)
/// and the type the checker gave it.
#[derive(Clone, Debug)]
pub struct Prop {
    pub expr: Expr,
    pub ty: Ty,
}

/// How the pieces of a kind are drawn: a shape (text or enumeration member:
/// `disc`, `square`, `cube`, `card`, …) and a colour (a player: that seat's
/// colour; an enumeration member or text: a colour name or `#rrggbb`).
#[derive(Clone, Debug)]
pub struct Look {
    pub shape: Option<Prop>,
    pub colour: Option<Prop>,
    /// A short text written on the piece (a value, a letter).
    pub text: Option<Prop>,
    pub nlocals: u16,
}

/// A zone drawn as a row of ordered slots: `slots` of them (an `int`), or
/// one per piece of the zone `over` (each slot drawn as that piece), with
/// the zone's own pieces on them in order.
#[derive(Clone, Debug)]
pub struct ZoneLook {
    pub slots: Option<Prop>,
    pub over: Option<Prop>,
    pub nlocals: u16,
}

/// `display "TEXT"(p) = EXPR` (`per_player`: the player bound in local 0) or
/// `display "TEXT" = EXPR`: a value a seat is shown on its screen.
#[derive(Clone, Debug)]
pub struct Display {
    pub text: String,
    pub per_player: bool,
    pub expr: Expr,
    pub ty: Ty,
    pub nlocals: u16,
    pub span: crate::diag::Span,
    /// `draw "TEXT" track = N`: drawn on each player's board as a row of
    /// spaces 0…N with the value marked.
    pub track: Option<i64>,
}

/// The name when one is given and not empty, else the id.
fn or_id<'a>(names: &'a [String], i: usize, id: &'a str) -> &'a str {
    match names.get(i) {
        Some(n) if !n.is_empty() => n,
        _ => id,
    }
}

impl Game {
    /// How people read node `n`: its `name` attribute, else its id.
    pub fn node_shown(&self, n: usize) -> &str {
        let id = self.board.nodes.get(n).map(|x| x.id.as_str()).unwrap_or("");
        or_id(&self.present.node_names, n, id)
    }

    /// How people read edge `e`: its `name` attribute; else, when the
    /// board names its nodes, the names of its ends (`North Gate–Mill`);
    /// else its id.
    pub fn edge_shown(&self, e: usize) -> String {
        let Some(x) = self.board.edges.get(e) else {
            return String::new();
        };
        match self.present.edge_names.get(e) {
            Some(n) if !n.is_empty() => n.clone(),
            _ if !self.present.node_names.is_empty() => format!(
                "{}–{}",
                self.node_shown(x.from as usize),
                self.node_shown(x.to as usize)
            ),
            _ => x.id.clone(),
        }
    }

    /// How people read zone declaration `d`.
    pub fn zone_decl_shown(&self, d: usize) -> &str {
        match self.present.zone_names.get(d) {
            Some(Some(n)) => n,
            _ => &self.zones[d].name,
        }
    }

    /// How people read piece kind `k`.
    pub fn kind_shown(&self, k: usize) -> &str {
        match self.present.kind_names.get(k) {
            Some(Some(n)) => n,
            _ => &self.kinds[k].name,
        }
    }

    /// How people read variable declaration `v`.
    pub fn var_shown(&self, v: usize) -> &str {
        match self.present.var_names.get(v) {
            Some(Some(n)) => n,
            _ => &self.vars[v].name,
        }
    }

    /// How people read action `a` (when it has no label of its own).
    pub fn action_shown(&self, a: usize) -> &str {
        match self.present.action_names.get(a) {
            Some(Some(n)) => n,
            _ => &self.actions[a].name,
        }
    }

    /// How people read procedure or phase `p`.
    pub fn proc_shown(&self, p: usize) -> &str {
        match self.present.proc_names.get(p) {
            Some(Some(n)) => n,
            _ => &self.procs[p].name,
        }
    }

    /// How people read member `m` of enumeration `e`: its text in `names`,
    /// else its text in the declaration, else its name.
    pub fn member_shown(&self, e: u16, m: usize) -> &str {
        match self
            .present
            .member_names
            .get(e as usize)
            .and_then(|v| v.get(m))
        {
            Some(Some(n)) => n,
            _ => self.enums[e as usize]
                .shown
                .get(m)
                .map(|s| s.as_str())
                .unwrap_or(""),
        }
    }

    /// The value of a dimension as people read it: a node's or edge's name,
    /// an enumeration member's text, a seat.
    pub fn dim_shown(&self, d: Dim, v: u32) -> String {
        let i = v as usize;
        match d {
            Dim::Player => self.seats[i].clone(),
            Dim::Node => self.node_shown(i).to_string(),
            Dim::Edge => self.edge_shown(i),
            Dim::Enum(e) => self.member_shown(e, i).to_string(),
        }
    }

    /// Slot `i` of a zone or variable as people read it: `NAME`, `NAME of
    /// x`, `NAME (m)` or `NAME of x (y)`, with display names throughout.
    pub fn slot_shown(&self, name: &str, dims: &[Dim], stride: u32, i: u32) -> String {
        match dims {
            [] => name.to_string(),
            [Dim::Enum(_)] => format!("{name} ({})", self.dim_shown(dims[0], i)),
            [d] => format!("{name} of {}", self.dim_shown(*d, i)),
            [a, b, ..] => format!(
                "{name} of {} ({})",
                self.dim_shown(*a, i / stride),
                self.dim_shown(*b, i % stride)
            ),
        }
    }

    /// Zone `zone_id` as people read it.
    pub fn zone_shown(&self, zone_id: u32) -> String {
        if zone_id >= self.nzones {
            return self.zone_name(zone_id);
        }
        let (d, i) = self.zone_decl(zone_id);
        let z = &self.zones[d];
        self.slot_shown(self.zone_decl_shown(d), &z.dims, z.stride, i)
    }
}
