//! Views and labels: what a seat may see, and how values are written for
//! people (option labels, logs, the board as text).
//!
//! **Architecture Invariant:** hidden information is enforced here. A piece
//! in a hidden zone, or in another seat's `owner` zone, is shown only as
//! `hidden KIND` unless the rules revealed it; a player's view and the labels
//! of its options are built from this function alone.

use super::expr::Exec;
use super::{Match, PendingKind, State};
use crate::ast::{Scope, VisKind};
use crate::diag::Span;
use crate::ir::Game;
use crate::ir::*;
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

/// Whether `viewer` may see piece `p`: in sight now or, while a rules' `log`
/// line is written for the per-seat log, recalled (`recall.rs`).
pub(crate) fn visible(g: &Game, st: &State, p: usize, viewer: Viewer) -> bool {
    in_sight(g, st, p, viewer) || st.recall && super::recall::recallable(g, st, p, viewer)
}

/// Whether `viewer` may see piece `p` where it lies now.
pub(crate) fn in_sight(g: &Game, st: &State, p: usize, viewer: Viewer) -> bool {
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
        VisKind::Top => st.zones.slice(z).last() == Some(&(p as u32)),
    }
}

thread_local! {
    /// How many labels are being formatted inside each other on this thread.
    static LABEL_DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

thread_local! {
    /// Display mode: values are written with their display names (a node's
    /// `name`, a zone's text from `names { … }`) rather than their ids. Off
    /// by default, so that labels in records and scripts, the engine's trace
    /// and `--format json` keep the ids; screens, the per-seat log and
    /// pictures turn it on with [`with_names`].
    static NAMES: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` in display mode: everything it writes for people uses display
/// names. Labels computed inside are for reading, not for records.
pub fn with_names<R>(f: impl FnOnce() -> R) -> R {
    let old = NAMES.replace(true);
    let r = f();
    NAMES.set(old);
    r
}

/// Whether values are being written with their display names.
pub(crate) fn names_on() -> bool {
    NAMES.get()
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

impl<'a> Exec<'a> {
    /// A subset (mask `m` over the elements listed at the frame's `area`,
    /// see `expr/subsets.rs`) as people read it: its elements in the
    /// collection's order, `3, 5 and 7`; `nothing` when it is empty.
    pub fn display_set(&mut self, elem: Ty, m: Val, area: u16, viewer: Viewer) -> String {
        let at = self.base + area as usize;
        let n = self.st.locals[at] as usize;
        let mut m = m as u64 & if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        let total = m.count_ones();
        if total == 0 {
            return "nothing".into();
        }
        let mut s = String::new();
        let mut k = 0;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            if k > 0 {
                s.push_str(if k + 1 == total { " and " } else { ", " });
            }
            let v = self.st.locals[at + 1 + i];
            s.push_str(&self.display(elem.elem(), v, viewer));
            k += 1;
        }
        s
    }

    pub fn display(&mut self, t: Ty, v: Val, viewer: Viewer) -> String {
        let g = self.g;
        if v == NONE && !matches!(t.scalar, Scalar::Int | Scalar::Bool) {
            return "none".into();
        }
        match t.scalar {
            Scalar::Int => v.to_string(),
            Scalar::Bool => (if v != 0 { "true" } else { "false" }).into(),
            Scalar::Player => g
                .seats
                .get(v as usize)
                .cloned()
                .unwrap_or_else(|| "none".into()),
            Scalar::Node if names_on() => g.node_shown(v as usize).to_string(),
            Scalar::Edge if names_on() => g.edge_shown(v as usize),
            Scalar::Node => g
                .board
                .nodes
                .get(v as usize)
                .map(|n| n.id.clone())
                .unwrap_or_default(),
            Scalar::Edge => g
                .board
                .edges
                .get(v as usize)
                .map(|n| n.id.clone())
                .unwrap_or_default(),
            Scalar::Text => g.texts.get(v as usize).cloned().unwrap_or_default(),
            Scalar::Enum(e) if names_on() => g.member_shown(e, v as usize).to_string(),
            Scalar::Enum(e) => g.enums[e as usize]
                .shown
                .get(v as usize)
                .cloned()
                .unwrap_or_default(),
            Scalar::Zone(_) if names_on() => g.zone_shown(v as u32),
            Scalar::Zone(_) => g.zone_name(v as u32),
            Scalar::Piece(_) => self.piece_label(v as usize, viewer),
            // The checker refuses to write a set (it lives only inside an
            // expression); its value is a position on the scratch stack.
            Scalar::Set(_) => "set".into(),
            Scalar::Nothing | Scalar::Error => "none".into(),
        }
    }

    pub fn piece_label(&mut self, p: usize, viewer: Viewer) -> String {
        let g = self.g;
        let k = &g.kinds[g.piece_kind[p] as usize];
        if !visible(g, self.st, p, viewer) {
            if self.st.seat_logs {
                self.st.hid.push(p as u32);
            }
            if names_on() {
                return format!("hidden {}", g.kind_shown(g.piece_kind[p] as usize));
            }
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

    pub fn format_template(
        &mut self,
        t: u32,
        viewer: Option<Viewer>,
        span: Span,
    ) -> Result<String, super::RunError> {
        let g = self.g;
        let viewer = viewer.unwrap_or(Viewer::All);
        let mut s = String::new();
        self.format_parts(&g.templates[t as usize].parts, viewer, span, &mut s)?;
        Ok(cut(s))
    }

    /// Template parts written to `s`; a choice's branch recursively (nested
    /// no deeper than `MAX_TEMPLATE_NESTING`).
    fn format_parts(
        &mut self,
        parts: &[TPart],
        viewer: Viewer,
        span: Span,
        s: &mut String,
    ) -> Result<(), super::RunError> {
        for part in parts {
            match part {
                TPart::Text(x) => s.push_str(x),
                TPart::Hole(e, ty) => match self.guarded(e, viewer, span)? {
                    Some(v) => s.push_str(&self.display(*ty, v, viewer)),
                    None => s.push_str("hidden"),
                },
                TPart::Set(e, area, ty) => {
                    let m = self.eval(e, span)?;
                    s.push_str(&self.display_set(*ty, m, *area, viewer));
                }
                TPart::Choice(c, a, b) => match self.guarded(c, viewer, span)? {
                    Some(v) => self.format_parts(if v != 0 { a } else { b }, viewer, span, s)?,
                    None => s.push_str("hidden"),
                },
            }
        }
        Ok(())
    }

    /// The value of a hole's expression as `viewer` may know it: `None` when
    /// it reads a field of a piece this viewer may not see.
    fn guarded(
        &mut self,
        e: &Expr,
        viewer: Viewer,
        span: Span,
    ) -> Result<Option<Val>, super::RunError> {
        let saved = (self.st.guard, self.st.peeked);
        self.st.guard = if viewer == Viewer::All {
            None
        } else {
            Some(viewer)
        };
        self.st.peeked = false;
        let v = self.eval(e, span);
        let peeked = self.st.peeked;
        (self.st.guard, self.st.peeked) = saved;
        let v = v?;
        Ok(if peeked { None } else { Some(v) })
    }
}

/// The label of option `i` as seat `viewer` sees it, computed on the state in place.
pub(crate) fn option_label_raw(g: &Game, st: &mut State, i: usize, viewer: usize) -> String {
    option_label_as(g, st, i, Viewer::Seat(viewer))
}

pub(crate) fn option_label_as(g: &Game, st: &mut State, i: usize, viewer_v: Viewer) -> String {
    let base = st
        .frames
        .iter()
        .rev()
        .find_map(|f| match f.kind {
            super::FrameKind::Call { base, .. } => Some(base as usize),
            _ => None,
        })
        .unwrap_or(0);
    let mut cx = Exec { g, st, base };
    let (a, vals) = super::option_tuple(cx.st, i);
    let pending = cx.st.pending.clone();
    let actor = pending
        .as_ref()
        .map(|p| p.player as Val)
        .unwrap_or(match viewer_v {
            Viewer::Seat(s) => s as Val,
            _ => 0,
        });
    match pending.map(|p| p.kind) {
        Some(PendingKind::Choose { slot, block, pc }) => {
            let v = vals[0];
            let Op::Choose { label, ty, .. } = &g.code[block as usize][pc as usize].op else {
                return v.to_string();
            };
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
        _ => cx.action_label(a, &vals, actor, viewer_v),
    }
}

impl<'a> Exec<'a> {
    /// An action instance as `viewer` sees it: its label template, or its
    /// name and arguments. The actor is the seat deciding; the viewer only
    /// decides what is shown.
    pub(crate) fn action_label(
        &mut self,
        a: u16,
        vals: &[Val],
        actor: Val,
        viewer: Viewer,
    ) -> String {
        let g = self.g;
        let ad = &g.actions[a as usize];
        let nbase = self.st.locals.len();
        self.st.locals.resize(nbase + ad.nlocals as usize, 0);
        self.st.locals[nbase] = actor;
        for (k, prm) in ad.params.iter().enumerate() {
            self.st.locals[nbase + prm.slot as usize] = vals[k];
        }
        let old = std::mem::replace(&mut self.base, nbase);
        self.restore_areas(a);
        let s = match ad.label {
            Some(t) => self
                .format_template(t, Some(viewer), ad.span)
                .unwrap_or_else(|e| format!("<{}>", e.message)),
            None => {
                let mut s = if names_on() {
                    g.action_shown(a as usize).to_string()
                } else {
                    ad.name.clone()
                };
                for (k, prm) in ad.params.iter().enumerate() {
                    s.push(' ');
                    let v = match prm.domain.subsets_area(&self.g.programs) {
                        Some(area) => self.display_set(prm.ty, vals[k], area, viewer),
                        None => self.display(prm.ty, vals[k], viewer),
                    };
                    s.push_str(&v);
                }
                s
            }
        };
        self.base = old;
        self.st.locals.truncate(nbase);
        s
    }

    /// Adds a line to the per-seat log, written once for each viewer. A
    /// move (`is_move`) is written a second time with the pieces the viewer
    /// could not see named: if by the time the match stops they are all in
    /// sight (a card played face up), that is the text the viewer reads.
    /// Any other line (a rules' `log`) is written a second time with the
    /// pieces the viewer recalls named, kept as `recall.rs` decides.
    pub(crate) fn seat_line(
        &mut self,
        is_move: bool,
        mut text: impl FnMut(&mut Exec, Viewer) -> String,
    ) {
        let n = self.st.nplayers as usize;
        let mut line = super::SeatLine::default();
        // What players read is written with display names.
        let mut text = move |cx: &mut Exec, v: Viewer| with_names(|| text(cx, v));
        for v in viewers(n) {
            self.st.hid.clear();
            let t = text(self, v);
            let mut hid = std::mem::take(&mut self.st.hid);
            hid.sort_unstable();
            hid.dedup();
            let recalled = if is_move || hid.is_empty() {
                None
            } else {
                let mut hid = hid.clone();
                hid.retain(|&p| super::recall::recallable(self.g, self.st, p as usize, v));
                (!hid.is_empty()).then(|| {
                    self.st.recall = true;
                    let t = text(self, v);
                    self.st.recall = false;
                    self.st.hid.clear();
                    (hid, t)
                })
            };
            let named = if is_move && !hid.is_empty() {
                let saved = self.st.revealed.clone();
                for &p in &hid {
                    self.st.revealed[p as usize] = true;
                }
                let t = text(self, v);
                self.st.revealed = saved;
                self.st.hid.clear();
                Some((hid, t))
            } else {
                None
            };
            line.text.push(t);
            line.named.push(named);
            line.recalled.push(recalled);
        }
        self.st.seat_log.push(line);
    }

    /// Adds an action taken by `player` to the per-seat log.
    pub(crate) fn seat_act_line(&mut self, player: Val, a: u16, vals: &[Val]) {
        let seat = &self.g.seats[player as usize];
        self.seat_line(true, |cx, v| {
            format!("{seat}: {}", cx.action_label(a, vals, player, v))
        });
    }
}

use super::recall::readers as viewers;

/// The per-seat line of choice `i` of the pending `choose`, taken by `player`.
pub(crate) fn choice_line(m: &Match, i: usize, player: usize) -> super::SeatLine {
    let seat = &m.game.seats[player];
    let mut st = m.state.clone();
    let mut cx = Exec {
        g: &m.game,
        st: &mut st,
        base: 0,
    };
    cx.seat_line(true, |cx, v| {
        format!("{seat}: {}", option_label_as(cx.g, cx.st, i, v))
    });
    st.seat_log.pop().unwrap_or_default()
}

/// Settles the moves in the per-seat log now that the match has stopped: a
/// viewer reads a move with its pieces named if it can see them all now, or
/// saw them all at once at some point since the move ([`settle_seat_log`]).
pub(crate) fn finish_seat_log(g: &Game, st: &mut State) {
    settle(g, st, true);
    super::recall::decide(g, st, None);
}

/// Called before a piece moves or is hidden again while the per-seat log is
/// on: a move whose pieces a viewer can all see now is named to it for good,
/// so that a card face up only for a moment (played to the table, then
/// gathered face down in the same action) is still named.
pub(crate) fn settle_seat_log(g: &Game, st: &mut State) {
    settle(g, st, false);
}

/// Names every move whose pieces a viewer can all see now; with `last`, the
/// moves still unsettled stay unnamed for good.
fn settle(g: &Game, st: &mut State, last: bool) {
    let mut log = std::mem::take(&mut st.seat_log);
    let n = st.nplayers as usize;
    for line in &mut log {
        for (k, (named, v)) in line.named.iter_mut().zip(viewers(n)).enumerate() {
            let Some((hid, _)) = named else { continue };
            if hid.iter().all(|&p| in_sight(g, st, p as usize, v)) {
                if let Some((_, t)) = named.take() {
                    line.text[k] = t;
                }
            } else if last {
                *named = None;
            }
        }
    }
    st.seat_log = log;
}

pub(crate) fn option_label(m: &Match, i: usize, viewer: usize) -> String {
    let mut st = m.state.clone();
    option_label_raw(&m.game, &mut st, i, viewer)
}

/// One zone as a viewer sees it.
#[derive(Clone, Debug, Serialize)]
pub struct ZoneView {
    pub zone: String,
    /// The zone's id.
    #[serde(skip)]
    pub id: u32,
    /// The seat a per-player zone belongs to.
    #[serde(skip)]
    pub owner: Option<usize>,
    /// The node a per-node zone lies on, and the zone's own name.
    #[serde(skip)]
    pub node: Option<String>,
    /// The edge a per-edge zone lies on.
    #[serde(skip)]
    pub edge: Option<String>,
    /// Its index, for pictures.
    #[serde(skip)]
    pub edge_index: Option<usize>,
    #[serde(skip)]
    pub short: String,
    /// Per piece: its owner's seat, when it has one and the viewer may see the piece (else -1).
    #[serde(skip)]
    pub owners: Vec<i8>,
    /// A zone of a board node (drawn in the grid when there is one).
    pub on_node: bool,
    pub count: usize,
    /// Labels bottom to top; `hidden KIND` where the viewer may not look.
    pub pieces: Vec<String>,
    /// How each piece is drawn (`draw KIND …`), as far as the viewer may see it.
    #[serde(skip)]
    pub looks: Vec<super::present::PieceLook>,
    /// The zone drawn as ordered slots (`draw ZONE slots = …`).
    #[serde(skip)]
    pub slots: Option<super::present::Slots>,
}

/// What one viewer may know of a position.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    pub viewer: String,
    pub zones: Vec<ZoneView>,
    pub vars: Vec<(String, String)>,
    /// The same variables for screens: global ones by name, and per-player
    /// ones as a table (a row per variable, a value per seat).
    #[serde(skip)]
    pub globals: Vec<(String, String)>,
    #[serde(skip)]
    pub table: Vec<(String, Vec<String>)>,
    /// The board drawn as text, for grid boards.
    pub grid: Option<String>,
    /// The declared displays as this viewer reads them (`display "…" = …`).
    #[serde(skip)]
    pub displays: Vec<super::present::Shown>,
    /// How each node and each edge is drawn (`draw nodes …`, `draw edges
    /// …`), in board order; empty when the rules declare none.
    #[serde(skip)]
    pub node_looks: Vec<super::present::PieceLook>,
    #[serde(skip)]
    pub edge_looks: Vec<super::present::PieceLook>,
}

/// Who looks when a view is asked for `viewer` (`None`: an onlooker), and
/// the name a view gives it.
pub(crate) fn looker(g: &Game, viewer: Option<usize>) -> (Viewer, String) {
    match viewer {
        Some(p) => (Viewer::Seat(p), g.seats[p].clone()),
        None => (Viewer::Public, "public".into()),
    }
}

pub(crate) fn view(m: &Match, viewer: Option<usize>) -> View {
    let g = &*m.game;
    let mut st = m.state.clone();
    let (who, viewer_name) = looker(g, viewer);
    let mut cx = Exec {
        g,
        st: &mut st,
        base: 0,
    };
    let n = cx.st.nplayers as u32;
    let mut zones = vec![];
    let names = names_on();
    for (zd, z) in g.zones.iter().enumerate() {
        if z.name == "box" {
            continue;
        }
        for i in 0..z.count {
            if !g.slot_live(&z.dims, z.stride, i, n) {
                continue;
            }
            let id = z.base + i;
            let ps: Vec<u32> = cx.st.zones.slice(id).to_vec();
            // Slots are for pictures and screens (display mode) only.
            let slots = if names { cx.slots(id, who) } else { None };
            // A zone drawn as slots is listed even when empty: its slots show.
            if slots.is_none() && !listed_zone(g, cx.st, z, i, n) {
                continue;
            }
            let pieces = ps
                .iter()
                .map(|&p| cx.piece_label(p as usize, who))
                .collect();
            // A zone indexed first by player (`per player [per …]`) belongs to that seat.
            let owner = (z.dims.first() == Some(&Dim::Player)).then_some((i / z.stride) as usize);
            let node = (z.scope == Scope::Node).then(|| match names {
                true => g.node_shown(i as usize).to_string(),
                false => g.board.nodes[i as usize].id.clone(),
            });
            let edge = (z.scope == Scope::Edge).then(|| match names {
                true => g.edge_shown(i as usize),
                false => g.board.edges[i as usize].id.clone(),
            });
            let owners = ps
                .iter()
                .map(|&p| {
                    if visible(g, cx.st, p as usize, who) {
                        g.piece_owner[p as usize]
                    } else {
                        -1
                    }
                })
                .collect();
            zones.push(ZoneView {
                id,
                zone: match names {
                    true => g.zone_shown(id),
                    false => g.zone_name(id),
                },
                owner,
                node,
                edge,
                edge_index: (z.scope == Scope::Edge).then_some(i as usize),
                short: match names {
                    true => g.zone_decl_shown(zd).to_string(),
                    false => z.name.clone(),
                },
                owners,
                on_node: z.scope == Scope::Node,
                count: ps.len(),
                pieces,
                looks: ps.iter().map(|&p| cx.piece_look(p as usize, who)).collect(),
                slots,
            });
        }
    }
    let grid = grid_text(&mut cx, who);
    let displays = cx.displays(who);
    let (node_looks, edge_looks) = cx.board_looks(who);
    let mut vars = vec![];
    let (mut globals, mut table) = (vec![], vec![]);
    for (vd, d) in g.vars.iter().enumerate().filter(|(_, d)| !d.is_option) {
        let vname = match names {
            true => g.var_shown(vd),
            false => d.name.as_str(),
        };
        for i in 0..d.count {
            let Some(hidden) = listed_var(g, cx.st, d, i, n, who) else {
                continue;
            };
            let v = cx.st.vars[(d.base + i) as usize];
            let name = match names {
                true => g.slot_shown(vname, &d.dims, d.stride, i),
                false => g.slot_name(&d.name, &d.dims, d.stride, i),
            };
            let shown = if hidden {
                "hidden".to_string()
            } else {
                cx.display(d.ty, v, who)
            };
            if d.scope == Scope::Node && grid.is_some() {
                // The grid shows these on their nodes.
            } else if d.scope == Scope::Player {
                if i == 0 {
                    table.push((vname.to_string(), vec![]));
                }
                if let Some(row) = table.last_mut() {
                    row.1.push(shown.clone());
                }
            } else {
                globals.push((name.clone(), shown.clone()));
            }
            vars.push((name, shown));
        }
    }
    View {
        viewer: viewer_name,
        zones,
        vars,
        globals,
        table,
        grid,
        displays,
        node_looks,
        edge_looks,
    }
}

/// Whether a view lists slot `i` of zone declaration `z`: not the box, a
/// slot of a seat in play, and for zones of nodes and edges (which are
/// many) only one holding pieces. The typed view (`typed.rs`) lists the same.
pub(crate) fn listed_zone(g: &Game, st: &State, z: &ZoneDecl, i: u32, nplayers: u32) -> bool {
    let skip_empty = z.scope == Scope::Node
        || z.scope == Scope::Indexed && z.dims.iter().any(|d| matches!(d, Dim::Node | Dim::Edge));
    z.name != "box"
        && g.slot_live(&z.dims, z.stride, i, nplayers)
        && !(skip_empty && st.zones.slice(z.base + i).is_empty())
}

/// Whether a view lists cell `i` of variable `d` for `who`, and if so
/// whether its value is hidden from `who` (another seat's `owner`
/// variable). A `hidden` variable is never listed; of variables of nodes
/// and edges (which are many) only the cells that hold something other
/// than 0, `false` or `none`, and a sparse cell another seat may not read
/// is left out whole: listing it as `hidden` would tell that it is set.
pub(crate) fn listed_var(
    g: &Game,
    st: &State,
    d: &VarDecl,
    i: u32,
    nplayers: u32,
    who: Viewer,
) -> Option<bool> {
    if !g.slot_live(&d.dims, d.stride, i, nplayers) {
        return None;
    }
    let sparse = d.dims.iter().any(|d| matches!(d, Dim::Node | Dim::Edge));
    let hidden = d.hidden || d.owner_only && who != Viewer::Seat((i / d.stride) as usize);
    let v = st.vars[(d.base + i) as usize];
    if d.hidden || sparse && (v == blank(d.ty) || hidden) {
        return None;
    }
    Some(hidden)
}

/// The value a variable of type `t` has when nothing is set: `0`, `false`
/// or `none`. Views list node and edge cells only when they differ from it.
fn blank(t: Ty) -> Val {
    if matches!(t.scalar, Scalar::Int | Scalar::Bool) {
        0
    } else {
        NONE
    }
}

/// The board as text for `show board`: the grid when the board has one,
/// else each node's pieces on a line of its own (`Name: pieces`).
pub(crate) fn board_text(cx: &mut Exec, who: Viewer) -> String {
    if let Some(t) = grid_text(cx, who) {
        return t.trim_end().to_string();
    }
    let g = cx.g;
    let node_zones: Vec<&ZoneDecl> = g.zones.iter().filter(|z| z.scope == Scope::Node).collect();
    let mut lines = vec![];
    for n in 0..g.board.nodes.len() {
        let mut pieces = vec![];
        for z in &node_zones {
            let ps: Vec<u32> = cx.st.zones.slice(z.base + n as u32).to_vec();
            for p in ps {
                pieces.push(cx.piece_label(p as usize, who));
            }
        }
        if !pieces.is_empty() {
            lines.push(format!("{}: {}", g.node_shown(n), pieces.join(" ")));
        }
    }
    lines.join("\n")
}

/// Draws a board whose nodes have `row` and `col` attributes as a table of
/// the pieces on each node; a node without pieces shows the values of its
/// public variables that are set (a board kept as `var per node`).
fn grid_text(cx: &mut Exec, who: Viewer) -> Option<String> {
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
        if s.is_empty() {
            for d in g
                .vars
                .iter()
                .filter(|d| d.scope == Scope::Node && !d.hidden && !d.is_option)
            {
                let v = cx.st.vars[d.base as usize + n];
                if v != blank(d.ty) {
                    if !s.is_empty() {
                        s.push('+');
                    }
                    s.push_str(&cx.display(d.ty, v, who));
                }
            }
        }
        if !s.is_empty() {
            cells[row.2[n] as usize][col.2[n] as usize] = s;
        }
    }
    let width = cells
        .iter()
        .flatten()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(1)
        .max(g.board.nodes.iter().map(|n| n.id.len()).max().unwrap_or(1));
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
            out.push_str(&format!(
                " {:^w$}",
                cells[r as usize][c as usize],
                w = width
            ));
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
            s.push_str(&format!(
                "{} ({}): {}\n",
                z.zone,
                z.count,
                z.pieces.join(" ")
            ));
        }
        let vars: Vec<String> = self.vars.iter().map(|(k, v)| format!("{k}={v}")).collect();
        s.push_str(&vars.join("  "));
        s.push('\n');
        s
    }
}
