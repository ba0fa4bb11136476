//! Typed data for tools: option parameters, variables and pieces as typed
//! values instead of text (`regel moves --format json`, `regel trace
//! --format json`). Numbers are numbers, booleans booleans; nodes, edges,
//! members, seats and zones are their ids with their type named; a piece is
//! its number, kind, owner and fields, or only its kind where the viewer
//! may not see it.
//!
//! Hidden information is decided by `view.rs::visible` alone, as for labels:
//! a piece the viewer may not see shows neither its number (which would tell
//! which piece it is) nor its fields.

use super::expr::Exec;
use super::view::{listed_var, listed_zone, looker, visible, Viewer};
use super::{option_tuple, Match, PendingKind, CHOOSE};
use crate::ir::*;
use serde::Serialize;

/// A value with its type: `{"type": "int", "value": 3}`,
/// `{"type": "enum", "of": "suit", "value": "hearts"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Typed {
    /// `int`, `bool`, `player`, `node`, `edge`, `enum`, `text`, `zone`,
    /// `piece`, `list` or `none`.
    #[serde(rename = "type")]
    pub ty: &'static str,
    /// The enumeration of a member, the kind of a piece or of a zone's pieces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub of: Option<String>,
    pub value: Value,
}

/// A typed value's value.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    Int(i64),
    Bool(bool),
    /// An id (node, edge, member, seat, zone), a text, or a list as text.
    Id(String),
    Piece(Box<Piece>),
    /// The elements of a subset (a `subsets(…)` parameter or choice), typed.
    List(Vec<Typed>),
    /// `none`.
    None,
}

/// A piece as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Piece {
    /// The piece's number; absent when it is hidden from the viewer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<usize>,
    pub kind: String,
    pub hidden: bool,
    /// The label a view writes (`hidden KIND` when hidden).
    pub label: String,
    /// The seat it belongs to, for a piece of a per-player kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Its fields in declaration order; empty when hidden (and for a piece
    /// named in another piece's field, whose fields are not followed).
    pub fields: Vec<Named>,
}

/// A named typed value: an option's parameter, a piece's field.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Named {
    pub name: String,
    #[serde(flatten)]
    pub value: Typed,
}

/// One option of the pending decision.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionData {
    pub label: String,
    /// The action's name; `null` for an answer to a `choose`, whose one
    /// parameter is named `choice`.
    pub action: Option<String>,
    pub params: Vec<Named>,
}

/// One zone of a typed view.
#[derive(Clone, Debug, Serialize)]
pub struct ZoneData {
    /// The zone as labels write it (`red.hand`, `offices[luebeck]`).
    pub zone: String,
    /// Its declaration's name (`hand`).
    pub name: String,
    /// The seat of a per-player zone.
    pub owner: Option<String>,
    /// Its other indexes (a node, an edge, a member), typed.
    pub index: Vec<Typed>,
    pub count: usize,
    /// Bottom to top.
    pub pieces: Vec<Piece>,
}

/// One variable cell of a typed view.
#[derive(Clone, Debug, Serialize)]
pub struct VarData {
    /// Its declaration's name (`prestige`).
    pub name: String,
    /// The seat of a per-player variable.
    pub owner: Option<String>,
    pub index: Vec<Typed>,
    /// Another seat's `owner` variable: no value is given.
    pub hidden: bool,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub value: Option<Typed>,
}

/// A position as one viewer may know it, typed.
#[derive(Clone, Debug, Serialize)]
pub struct ViewData {
    pub viewer: String,
    /// The zones a view lists, in the same order.
    pub zones: Vec<ZoneData>,
    /// The variables a view lists, in the same order.
    pub vars: Vec<VarData>,
}

impl<'a> Exec<'a> {
    /// A subset (mask `m` over the frame's area, see `expr/subsets.rs`) as
    /// a typed list of its elements, in the collection's order.
    fn typed_set(&mut self, t: Ty, m: Val, area: u16, viewer: Viewer) -> Typed {
        let at = self.base + area as usize;
        let n = self.st.locals[at] as usize;
        let mut items = vec![];
        let mut bits = m as u64;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if i < n {
                let v = self.st.locals[at + 1 + i];
                items.push(self.typed(t.elem(), v, viewer, true));
            }
        }
        // What the list is of: the elements' kind or enumeration, else their type.
        let (word, of) = type_word(self.g, t.elem());
        Typed {
            ty: "list",
            of: Some(of.unwrap_or_else(|| word.to_string())),
            value: Value::List(items),
        }
    }

    /// Value `v` of type `t` as `viewer` may see it.
    fn typed(&mut self, t: Ty, v: Val, viewer: Viewer, follow: bool) -> Typed {
        let g = self.g;
        let (ty, of) = type_word(g, t);
        let value = if t.list {
            Value::Id(self.display(t, v, viewer))
        } else {
            match t.scalar {
                Scalar::Int => Value::Int(v),
                Scalar::Bool => Value::Bool(v != 0),
                _ if v == NONE => Value::None,
                Scalar::Piece(_) if v >= 0 && (v as usize) < g.piece_kind.len() => {
                    Value::Piece(Box::new(self.piece_data(v as usize, viewer, follow)))
                }
                Scalar::Nothing | Scalar::Error | Scalar::Piece(_) => Value::None,
                _ => Value::Id(self.display(t, v, viewer)),
            }
        };
        Typed { ty, of, value }
    }

    /// Piece `p` as `viewer` may see it; its fields when `follow`.
    fn piece_data(&mut self, p: usize, viewer: Viewer, follow: bool) -> Piece {
        let g = self.g;
        let k = &g.kinds[g.piece_kind[p] as usize];
        let label = self.piece_label(p, viewer);
        if !visible(g, self.st, p, viewer) {
            return Piece {
                id: None,
                kind: k.name.clone(),
                hidden: true,
                label,
                owner: None,
                fields: vec![],
            };
        }
        let owner = g.piece_owner[p];
        let fields = if follow {
            k.fields
                .iter()
                .map(|(name, ty, fid)| Named {
                    name: name.clone(),
                    value: self.typed(*ty, g.fields[*fid as usize][p], viewer, false),
                })
                .collect()
        } else {
            vec![]
        };
        Piece {
            id: Some(p),
            kind: k.name.clone(),
            hidden: false,
            label,
            owner: (owner >= 0).then(|| g.seats[owner as usize].clone()),
            fields,
        }
    }

    /// Slot `i` of `dims`: the owning seat when the first index is a
    /// player, and the other indexes typed.
    fn slot_index(&self, dims: &[Dim], stride: u32, i: u32) -> (Option<String>, Vec<Typed>) {
        let g = self.g;
        let idx: Vec<(Dim, u32)> = match dims {
            [] => vec![],
            [d] => vec![(*d, i)],
            [a, b, ..] => vec![(*a, i / stride), (*b, i % stride)],
        };
        let mut owner = None;
        let mut rest = vec![];
        for (k, (d, v)) in idx.into_iter().enumerate() {
            if k == 0 && d == Dim::Player {
                owner = Some(g.dim_value(d, v));
                continue;
            }
            let (ty, of) = match d {
                Dim::Player => ("player", None),
                Dim::Node => ("node", None),
                Dim::Edge => ("edge", None),
                Dim::Enum(e) => ("enum", Some(g.enums[e as usize].name.clone())),
            };
            rest.push(Typed {
                ty,
                of,
                value: Value::Id(g.dim_value(d, v)),
            });
        }
        (owner, rest)
    }
}

/// The word a typed value names its type with, and what it is of.
fn type_word(g: &Game, t: Ty) -> (&'static str, Option<String>) {
    if t.list {
        return ("list", None);
    }
    let kind = |k: Option<u16>| {
        k.and_then(|k| g.kinds.get(k as usize))
            .map(|k| k.name.clone())
    };
    match t.scalar {
        Scalar::Int => ("int", None),
        Scalar::Bool => ("bool", None),
        Scalar::Player => ("player", None),
        Scalar::Node => ("node", None),
        Scalar::Edge => ("edge", None),
        Scalar::Text => ("text", None),
        Scalar::Enum(e) => ("enum", g.enums.get(e as usize).map(|e| e.name.clone())),
        Scalar::Zone(k) => ("zone", kind(k)),
        Scalar::Piece(k) => ("piece", kind(k)),
        // No variable, parameter of an option or view holds a set.
        Scalar::Set(_) => ("set", None),
        Scalar::Nothing | Scalar::Error => ("none", None),
    }
}

impl Match {
    /// The options of the pending decision as the deciding seat sees them,
    /// typed (see the module's notes); none when nothing is pending.
    pub fn options_data(&self) -> Vec<OptionData> {
        let Some((seat, n)) = self.pending() else {
            return vec![];
        };
        self.options_data_as(0..n, Viewer::Seat(seat))
    }

    /// Options `which` of the pending decision as `viewer` sees them (the
    /// engine's trace sees everything: [`Viewer::All`]).
    pub fn options_data_as(
        &self,
        which: impl Iterator<Item = usize>,
        viewer: Viewer,
    ) -> Vec<OptionData> {
        let g = &*self.game;
        let mut st = self.state.clone();
        // A choice's type, and for a choice among subsets, the frame's
        // base and its area.
        let choose_ty = match st.pending.as_ref().map(|p| &p.kind) {
            Some(PendingKind::Choose {
                block,
                pc,
                slot: at,
                ..
            }) => match &g.code[*block as usize][*pc as usize].op {
                Op::Choose { ty, from, slot, .. } => Some((
                    *ty,
                    from.subsets_area(&g.programs)
                        .map(|area| (*at as usize - *slot as usize, area)),
                )),
                _ => None,
            },
            _ => None,
        };
        let mut out = vec![];
        for i in which {
            let label = super::view::option_label_as(g, &mut st, i, viewer);
            let mut cx = Exec {
                g,
                st: &mut st,
                base: 0,
            };
            let (a, vals) = option_tuple(cx.st, i);
            let (action, params) = match (a, choose_ty) {
                (CHOOSE, Some((ty, set))) => {
                    let value = match set {
                        Some((base, area)) => {
                            cx.base = base;
                            cx.typed_set(ty, vals[0], area, viewer)
                        }
                        None => cx.typed(ty, vals[0], viewer, true),
                    };
                    let choice = Named {
                        name: "choice".into(),
                        value,
                    };
                    (None, vec![choice])
                }
                _ => {
                    let ad = &g.actions[a as usize];
                    // A frame for the action, where its subsets can be read.
                    let base = cx.st.locals.len();
                    cx.st.locals.resize(base + ad.nlocals as usize, 0);
                    cx.base = base;
                    cx.restore_areas(a);
                    let params = ad
                        .params
                        .iter()
                        .zip(vals.iter())
                        .map(|(p, &v)| Named {
                            name: p.name.clone(),
                            value: match p.domain.subsets_area(&g.programs) {
                                Some(area) => cx.typed_set(p.ty, v, area, viewer),
                                None => cx.typed(p.ty, v, viewer, true),
                            },
                        })
                        .collect();
                    cx.st.locals.truncate(base);
                    (Some(ad.name.clone()), params)
                }
            };
            out.push(OptionData {
                label,
                action,
                params,
            });
        }
        out
    }

    /// What `viewer` may know of the position, typed (`None`: an onlooker).
    /// The zones and variables are those [`Match::view`] lists, in its order.
    pub fn view_data(&self, viewer: Option<usize>) -> ViewData {
        let g = &*self.game;
        let mut st = self.state.clone();
        let (who, viewer) = looker(g, viewer);
        let mut cx = Exec {
            g,
            st: &mut st,
            base: 0,
        };
        let n = cx.st.nplayers as u32;
        let mut zones = vec![];
        for z in &g.zones {
            for i in 0..z.count {
                let id = z.base + i;
                if !listed_zone(g, cx.st, z, i, n) {
                    continue;
                }
                let ps: Vec<u32> = cx.st.zones.slice(id).to_vec();
                let (owner, index) = cx.slot_index(&z.dims, z.stride, i);
                zones.push(ZoneData {
                    zone: g.zone_name(id),
                    name: z.name.clone(),
                    owner,
                    index,
                    count: ps.len(),
                    pieces: ps
                        .iter()
                        .map(|&p| cx.piece_data(p as usize, who, true))
                        .collect(),
                });
            }
        }
        let mut vars = vec![];
        for d in g.vars.iter().filter(|d| !d.is_option) {
            for i in 0..d.count {
                let Some(hidden) = listed_var(g, cx.st, d, i, n, who) else {
                    continue;
                };
                let v = cx.st.vars[(d.base + i) as usize];
                let (owner, index) = cx.slot_index(&d.dims, d.stride, i);
                let value = (!hidden).then(|| cx.typed(d.ty, v, who, true));
                vars.push(VarData {
                    name: d.name.clone(),
                    owner,
                    index,
                    hidden,
                    value,
                });
            }
        }
        ViewData {
            viewer,
            zones,
            vars,
        }
    }
}
