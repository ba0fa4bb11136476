//! The declared displays (`display "actions left"(p) = …`) as one viewer may
//! read them: each value evaluated under that viewer's guard, so that a value
//! read from a piece the viewer may not see shows as `hidden` (the rule of
//! `eval/view.rs`).

use super::expr::Exec;
use super::view::Viewer;
use crate::ir::Val;

/// One declared display as a viewer reads it: its text and one value (for
/// the game) or one per seat in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub text: String,
    pub per_player: bool,
    pub values: Vec<String>,
    /// Drawn as a track of spaces 0…N (`draw "TEXT" track = N`).
    pub track: Option<i64>,
}

impl<'a> Exec<'a> {
    /// Every declared display for `who`, in declaration order.
    pub(crate) fn displays(&mut self, who: Viewer) -> Vec<Shown> {
        let g = self.g;
        let n = self.st.nplayers as Val;
        let mut out = Vec::with_capacity(g.present.displays.len());
        for d in &g.present.displays {
            let seats = if d.per_player { 0..n } else { 0..1 };
            let mut values = vec![];
            for p in seats {
                let saved = (self.st.guard, self.st.peeked);
                self.st.guard = (who != Viewer::All).then_some(who);
                self.st.peeked = false;
                let v = self.with_player(&d.expr, d.nlocals, p, d.span);
                let peeked = self.st.peeked;
                (self.st.guard, self.st.peeked) = saved;
                values.push(match v {
                    Ok(_) if peeked => "hidden".to_string(),
                    Ok(v) => self.display(d.ty, v, who),
                    Err(e) => format!("<{}>", e.message),
                });
            }
            out.push(Shown {
                text: d.text.clone(),
                per_player: d.per_player,
                values,
                track: d.track,
            });
        }
        out
    }
}

/// How one piece is drawn, as far as the viewer may see it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PieceLook {
    /// The declared shape (`disc`, `square`, …); empty when none is declared.
    pub shape: String,
    pub colour: Paint,
    /// A short text written on the piece (`draw KIND text = …`), if declared.
    pub text: String,
}

/// A colour as the rules give it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Paint {
    /// None declared: the owner's colour, if the piece has an owner.
    #[default]
    Owner,
    /// A seat's colour.
    Seat(usize),
    /// A colour name or `#rrggbb`, as written by the rules.
    Named(String),
}

/// A zone drawn as ordered slots: how many, and, when they are the pieces of
/// another zone (`over`), those pieces' labels and looks.
#[derive(Clone, Debug, Default)]
pub struct Slots {
    pub count: usize,
    /// The zone whose pieces are the slots (drawn here, not again on its own).
    pub over_zone: Option<u32>,
    pub over: Vec<(String, PieceLook)>,
}

impl<'a> Exec<'a> {
    /// Evaluates a `draw` property with `it` bound to `v`; `None` when it
    /// fails or reads what the viewer may not see.
    fn prop(&mut self, p: &crate::ir::Prop, nlocals: u16, v: Val, who: Viewer) -> Option<Val> {
        let saved = (self.st.guard, self.st.peeked);
        self.st.guard = (who != Viewer::All).then_some(who);
        self.st.peeked = false;
        let r = self.with_player(&p.expr, nlocals, v, crate::diag::Span::default());
        let peeked = self.st.peeked;
        (self.st.guard, self.st.peeked) = saved;
        r.ok().filter(|_| !peeked)
    }

    /// The look of piece `p` for `who`: the default look when the rules
    /// declare none or the viewer may not see the piece.
    pub(crate) fn piece_look(&mut self, p: usize, who: Viewer) -> PieceLook {
        let g = self.g;
        let k = g.piece_kind[p] as usize;
        let Some(Some(look)) = g.present.kind_looks.get(k) else {
            return PieceLook::default();
        };
        if !super::view::visible(g, self.st, p, who) {
            return PieceLook::default();
        }
        self.look(look, p as Val, who)
    }

    /// The looks of the board's nodes and edges for `who` (`draw nodes …`,
    /// `draw edges …`), one per node and per edge; empty when the rules
    /// declare none.
    pub(crate) fn board_looks(&mut self, who: Viewer) -> (Vec<PieceLook>, Vec<PieceLook>) {
        let g = self.g;
        let mut each = |look: &Option<crate::ir::Look>, n: usize| match look {
            Some(l) => (0..n).map(|i| self.look(l, i as Val, who)).collect(),
            None => vec![],
        };
        let nodes = each(&g.present.node_look, g.board.nodes.len());
        let edges = each(&g.present.edge_look, g.board.edges.len());
        (nodes, edges)
    }

    /// A declared look's properties with `it` bound to `it`, as far as `who`
    /// may see what they read.
    fn look(&mut self, look: &crate::ir::Look, p: Val, who: Viewer) -> PieceLook {
        let mut out = PieceLook::default();
        if let Some(s) = &look.shape {
            if let Some(v) = self.prop(s, look.nlocals, p, who) {
                out.shape = self.word(s.ty, v);
            }
        }
        if let Some(t) = &look.text {
            if let Some(v) = self.prop(t, look.nlocals, p, who) {
                out.text = self.display(t.ty, v, who);
            }
        }
        if let Some(c) = &look.colour {
            if let Some(v) = self.prop(c, look.nlocals, p, who) {
                out.colour = match c.ty.scalar {
                    crate::ir::Scalar::Player if v >= 0 => Paint::Seat(v as usize),
                    crate::ir::Scalar::Player => Paint::Owner,
                    _ => Paint::Named(self.word(c.ty, v)),
                };
            }
        }
        out
    }

    /// An enumeration member's or a text's own word (not its display name):
    /// shapes and colours are named by the rules' words.
    fn word(&self, t: crate::ir::Ty, v: Val) -> String {
        let g = self.g;
        match t.scalar {
            crate::ir::Scalar::Enum(e) => g.enums[e as usize]
                .members
                .get(v as usize)
                .cloned()
                .unwrap_or_default(),
            crate::ir::Scalar::Text => g.texts.get(v as usize).cloned().unwrap_or_default(),
            _ => v.to_string(),
        }
    }

    /// The slots of zone `zone_id` when the rules draw it as slots.
    pub(crate) fn slots(&mut self, zone_id: u32, who: Viewer) -> Option<Slots> {
        let g = self.g;
        let (d, i) = g.zone_decl(zone_id);
        let look = g.present.zone_looks.get(d)?.as_ref()?;
        let z = &g.zones[d];
        let it = if z.dims.is_empty() {
            0
        } else {
            (i / z.stride) as Val
        };
        let mut out = Slots::default();
        if let Some(p) = &look.over {
            if let Some(zv) = self.prop(p, look.nlocals, it, who) {
                if zv >= 0 && (zv as u32) < g.nzones {
                    let ps: Vec<u32> = self.st.zones.slice(zv as u32).to_vec();
                    for q in ps {
                        let label = self.piece_label(q as usize, who);
                        let look = self.piece_look(q as usize, who);
                        out.over.push((label, look));
                    }
                    out.count = out.over.len();
                    out.over_zone = Some(zv as u32);
                }
            }
        }
        if let Some(p) = &look.slots {
            if let Some(n) = self.prop(p, look.nlocals, it, who) {
                out.count = n.clamp(0, crate::limits::MAX_LABEL_CHARS as Val) as usize;
            }
        }
        Some(out)
    }
}
