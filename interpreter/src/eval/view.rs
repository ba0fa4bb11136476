//! Views and labels: what a seat may see, and how values are written for
//! people (option labels, logs, the board as text).
//!
//! **Architecture Invariant:** hidden information is enforced here. A piece
//! in a hidden zone, or in another seat's `owner` zone, is shown only as
//! `hidden KIND` unless the rules revealed it; a player's view and the labels
//! of its options are built from this function alone.

use super::expr::Cx;
use super::{Match, PendingKind, State};
use crate::ast::{Scope, VisKind};
use crate::check::ir::*;
use crate::check::Game;
use crate::diag::Span;
use serde::Serialize;

/// Who is looking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The engine's own log and debugging: everything.
    All,
    Seat(usize),
    /// An onlooker: public things only.
    Public,
}

pub fn type_name(g: &Game, t: Ty) -> String {
    let s = match t.scalar {
        Scalar::Int => "int".to_string(),
        Scalar::Bool => "bool".into(),
        Scalar::Player => "player".into(),
        Scalar::Node => "node".into(),
        Scalar::Edge => "edge".into(),
        Scalar::Piece(None) => "piece".into(),
        Scalar::Piece(Some(k)) => g.kinds.get(k as usize).map(|k| format!("piece `{}`", k.name)).unwrap_or_else(|| "piece".into()),
        Scalar::Enum(e) => g.enums.get(e as usize).map(|e| format!("`{}`", e.name)).unwrap_or_default(),
        Scalar::Text => "text".into(),
        Scalar::Zone(None) => "zone".into(),
        Scalar::Zone(Some(k)) => g.kinds.get(k as usize).map(|k| format!("zone of `{}`", k.name)).unwrap_or_else(|| "zone".into()),
        Scalar::Nothing => "`none`".into(),
        Scalar::Error => "an erroneous value".into(),
    };
    if t.list {
        format!("list of {s}")
    } else {
        s
    }
}

/// A constant (an option's default) for summaries.
pub fn display_const(g: &Game, t: Ty, e: Option<&E>) -> String {
    match e {
        Some(E::Const(v)) => match t.scalar {
            Scalar::Bool => (if *v != 0 { "true" } else { "false" }).into(),
            Scalar::Enum(en) => g.enums[en as usize].members.get(*v as usize).cloned().unwrap_or_default(),
            _ => v.to_string(),
        },
        _ => "?".into(),
    }
}

pub(crate) fn visible(g: &Game, st: &State, p: usize, viewer: Viewer) -> bool {
    if viewer == Viewer::All || st.revealed[p] {
        return true;
    }
    let z = st.zones.zone_of[p];
    let (d, i) = g.zone_decl(z);
    if st.zone_open[d] {
        return true;
    }
    match g.zones[d].vis {
        VisKind::Public => true,
        VisKind::Hidden => false,
        // The owner is the first index (`per player [per …]`).
        VisKind::Owner => viewer == Viewer::Seat((i / g.zones[d].stride) as usize),
    }
}

thread_local! {
    /// How many labels are being formatted inside each other on this thread.
    static LABEL_DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Cuts a label or logged line to [`crate::limits::MAX_LABEL_CHARS`]
/// characters, so that every table and record that pads to it stays small.
fn cut(mut s: String) -> String {
    if let Some((i, _)) = s.char_indices().nth(crate::limits::MAX_LABEL_CHARS) {
        s.truncate(i);
        s.push('…');
    }
    s
}

impl<'a> Cx<'a> {
    pub fn display(&mut self, t: Ty, v: Val, viewer: Viewer) -> String {
        let g = self.g;
        if v == NONE && !matches!(t.scalar, Scalar::Int | Scalar::Bool) {
            return "none".into();
        }
        match t.scalar {
            Scalar::Int => v.to_string(),
            Scalar::Bool => (if v != 0 { "true" } else { "false" }).into(),
            Scalar::Player => g.seats.get(v as usize).cloned().unwrap_or_else(|| "none".into()),
            Scalar::Node => g.board.nodes.get(v as usize).map(|n| n.id.clone()).unwrap_or_default(),
            Scalar::Edge => g.board.edges.get(v as usize).map(|n| n.id.clone()).unwrap_or_default(),
            Scalar::Text => g.texts.get(v as usize).cloned().unwrap_or_default(),
            Scalar::Enum(e) => g.enums[e as usize].members.get(v as usize).cloned().unwrap_or_default(),
            Scalar::Zone(_) => g.zone_name(v as u32),
            Scalar::Piece(_) => self.piece_label(v as usize, viewer),
            Scalar::Nothing | Scalar::Error => "none".into(),
        }
    }

    pub fn piece_label(&mut self, p: usize, viewer: Viewer) -> String {
        let g = self.g;
        let k = &g.kinds[g.piece_kind[p] as usize];
        if !visible(g, self.st, p, viewer) {
            return format!("hidden {}", k.name);
        }
        match k.label {
            Some(t) => {
                // A label may name pieces whose labels name pieces …, or
                // the piece itself: below a few levels it prints `…`.
                let depth = LABEL_DEPTH.get();
                if depth >= crate::limits::MAX_LABEL_DEPTH {
                    return "…".into();
                }
                LABEL_DEPTH.set(depth + 1);
                let base = self.st.locals.len();
                self.st.locals.push(p as Val);
                let old = std::mem::replace(&mut self.base, base);
                let s = self.format_template(t, Some(viewer), k.span);
                self.base = old;
                self.st.locals.truncate(base);
                LABEL_DEPTH.set(depth);
                s.unwrap_or_else(|e| format!("<{}>", e.message))
            }
            None => format!("{}#{}", k.name, p),
        }
    }

    pub fn format_template(&mut self, t: u32, viewer: Option<Viewer>, span: Span) -> Result<String, super::RunError> {
        let g = self.g;
        let viewer = viewer.unwrap_or(Viewer::All);
        let mut s = String::new();
        for part in &g.templates[t as usize].parts {
            match part {
                TPart::Text(x) => s.push_str(x),
                TPart::Hole(e, ty) => {
                    let saved = (self.st.guard, self.st.peeked);
                    self.st.guard = if viewer == Viewer::All { None } else { Some(viewer) };
                    self.st.peeked = false;
                    let v = self.eval(e, span);
                    let peeked = self.st.peeked;
                    (self.st.guard, self.st.peeked) = saved;
                    let v = v?;
                    if peeked {
                        // The hole reads a field of a piece this viewer may not see.
                        s.push_str("hidden");
                    } else {
                        s.push_str(&self.display(*ty, v, viewer));
                    }
                }
            }
        }
        Ok(cut(s))
    }
}

/// The label of option `i` as seat `viewer` sees it, computed on the state in place.
pub(crate) fn option_label_raw(g: &Game, st: &mut State, i: usize, viewer: usize) -> String {
    let base = st
        .frames
        .iter()
        .rev()
        .find_map(|f| match f.kind {
            super::FrameKind::Call { base, .. } => Some(base as usize),
            _ => None,
        })
        .unwrap_or(0);
    let mut cx = Cx { g, st, base };
    let viewer_v = Viewer::Seat(viewer);
    let (a, vals) = super::option_tuple(cx.st, i);
    let pending = cx.st.pending.clone();
    let actor = pending.as_ref().map(|p| p.player as Val).unwrap_or(viewer as Val);
    match pending.map(|p| p.kind) {
        Some(PendingKind::Choose { slot, block, pc }) => {
            let v = vals[0];
            let S::Choose { label, ty, .. } = &g.code[block as usize][pc as usize].s else { return v.to_string() };
            match label {
                Some(t) => {
                    let old = cx.st.locals[slot as usize];
                    cx.st.locals[slot as usize] = v;
                    let s = cx.format_template(*t, Some(viewer_v), Span::default());
                    cx.st.locals[slot as usize] = old;
                    s.unwrap_or_else(|e| format!("<{}>", e.message))
                }
                None => cx.display(*ty, v, viewer_v),
            }
        }
        _ => {
            // An action instance: its label template, or its name and arguments.
            let ad = &g.actions[a as usize];
            let nbase = cx.st.locals.len();
            cx.st.locals.resize(nbase + ad.nlocals as usize, 0);
            // The actor is the seat deciding; the viewer only decides what is shown.
            cx.st.locals[nbase] = actor;
            for (k, prm) in ad.params.iter().enumerate() {
                cx.st.locals[nbase + prm.slot as usize] = vals[k];
            }
            let old = std::mem::replace(&mut cx.base, nbase);
            let s = match ad.label {
                Some(t) => cx.format_template(t, Some(viewer_v), ad.span).unwrap_or_else(|e| format!("<{}>", e.message)),
                None => {
                    let mut s = ad.name.clone();
                    for (k, prm) in ad.params.iter().enumerate() {
                        s.push(' ');
                        s.push_str(&cx.display(prm.ty, vals[k], viewer_v));
                    }
                    s
                }
            };
            cx.base = old;
            cx.st.locals.truncate(nbase);
            s
        }
    }
}

pub(crate) fn option_label(m: &Match, i: usize, viewer: usize) -> String {
    let mut st = m.state.clone();
    option_label_raw(&m.game, &mut st, i, viewer)
}

/// One zone as a viewer sees it.
#[derive(Clone, Debug, Serialize)]
pub struct ZoneView {
    pub zone: String,
    /// A zone of a board node (drawn in the grid when there is one).
    pub on_node: bool,
    pub count: usize,
    /// Labels bottom to top; `hidden KIND` where the viewer may not look.
    pub pieces: Vec<String>,
}

/// What one viewer may know of a position.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    pub viewer: String,
    pub zones: Vec<ZoneView>,
    pub vars: Vec<(String, String)>,
    /// The board drawn as text, for grid boards.
    pub grid: Option<String>,
}

pub(crate) fn view(m: &Match, viewer: Option<usize>) -> View {
    let g = &*m.game;
    let mut st = m.state.clone();
    let who = match viewer {
        Some(p) => Viewer::Seat(p),
        None => Viewer::Public,
    };
    let mut cx = Cx { g, st: &mut st, base: 0 };
    let n = cx.st.nplayers as u32;
    let mut zones = vec![];
    for z in g.zones.iter() {
        if z.name == "box" {
            continue;
        }
        // Zones of nodes and edges are many: only those holding pieces are listed.
        let skip_empty = z.scope == Scope::Node || z.scope == Scope::Indexed && z.dims.iter().any(|d| matches!(d, Dim::Node | Dim::Edge));
        for i in 0..z.count {
            if !g.slot_live(&z.dims, z.stride, i, n) {
                continue;
            }
            let id = z.base + i;
            let ps: Vec<u32> = cx.st.zones.slice(id).to_vec();
            if ps.is_empty() && skip_empty {
                continue;
            }
            let pieces = ps.iter().map(|&p| cx.piece_label(p as usize, who)).collect();
            zones.push(ZoneView { zone: g.zone_name(id), on_node: z.scope == Scope::Node, count: ps.len(), pieces });
        }
    }
    let mut vars = vec![];
    for d in g.vars.iter().filter(|d| !d.is_option) {
        // Variables of nodes and edges are not listed (there are too many).
        if d.dims.iter().any(|d| matches!(d, Dim::Node | Dim::Edge)) {
            continue;
        }
        for i in 0..d.count {
            if !g.slot_live(&d.dims, d.stride, i, n) {
                continue;
            }
            let name = g.slot_name(&d.name, &d.dims, d.stride, i);
            let hidden = d.hidden || d.owner_only && who != Viewer::Seat((i / d.stride) as usize);
            if d.hidden {
                continue;
            }
            let v = cx.st.vars[(d.base + i) as usize];
            let shown = if hidden { "hidden".to_string() } else { cx.display(d.ty, v, who) };
            vars.push((name, shown));
        }
    }
    let grid = grid_text(&mut cx, who);
    View { viewer: match viewer { Some(p) => g.seats[p].clone(), None => "public".into() }, zones, vars, grid }
}

/// Draws a board whose nodes have `row` and `col` attributes as a table of
/// the pieces on each node.
fn grid_text(cx: &mut Cx, who: Viewer) -> Option<String> {
    let g = cx.g;
    let row = g.node_attrs.iter().find(|a| a.0 == "row")?;
    let col = g.node_attrs.iter().find(|a| a.0 == "col")?;
    let rows = *row.2.iter().max()?;
    let cols = *col.2.iter().max()?;
    let node_zones: Vec<&ZoneDecl> = g.zones.iter().filter(|z| z.scope == Scope::Node).collect();
    let mut cells = vec![vec![String::from("."); cols as usize + 1]; rows as usize + 1];
    for n in 0..g.board.nodes.len() {
        let mut s = String::new();
        for z in &node_zones {
            let ps: Vec<u32> = cx.st.zones.slice(z.base + n as u32).to_vec();
            for p in ps {
                if !s.is_empty() {
                    s.push('+');
                }
                s.push_str(&cx.piece_label(p as usize, who));
            }
        }
        if !s.is_empty() {
            cells[row.2[n] as usize][col.2[n] as usize] = s;
        }
    }
    let width = cells.iter().flatten().map(|c| c.chars().count()).max().unwrap_or(1).max(g.board.nodes.iter().map(|n| n.id.len()).max().unwrap_or(1));
    // Node ids come from the board file: padding stays within the label limit.
    let width = width.min(crate::limits::MAX_LABEL_CHARS);
    let mut out = String::new();
    out.push_str(&" ".repeat(4));
    for c in 1..=cols {
        out.push_str(&format!(" {:^w$}", format!("c{c}"), w = width));
    }
    out.push('\n');
    for r in 1..=rows {
        out.push_str(&format!("{:<4}", format!("r{r}")));
        for c in 1..=cols {
            out.push_str(&format!(" {:^w$}", cells[r as usize][c as usize], w = width));
        }
        out.push('\n');
    }
    Some(out)
}

impl View {
    /// The view as text for the terminal.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        if let Some(gr) = &self.grid {
            s.push_str(gr);
        }
        for z in &self.zones {
            if z.zone.contains('.') && z.count == 0 {
                continue;
            }
            // The grid already shows what lies on each node.
            if self.grid.is_some() && z.on_node {
                continue;
            }
            s.push_str(&format!("{} ({}): {}\n", z.zone, z.count, z.pieces.join(" ")));
        }
        let vars: Vec<String> = self.vars.iter().map(|(k, v)| format!("{k}={v}")).collect();
        s.push_str(&vars.join("  "));
        s.push('\n');
        s
    }
}
