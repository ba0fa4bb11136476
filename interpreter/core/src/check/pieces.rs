//! Pieces: the instances of each kind (from the rules or the board file,
//! with their field values), the zone they start in and their label.

use super::context::{Body, Checker};
use super::{err, similar};
use crate::ast::{self, Scope};
use crate::board::AttrValue;
use crate::diag::Span;
use crate::ir::*;

/// E0706 for the piece kind declared at `span`.
pub(super) fn too_many_pieces(span: Span) -> crate::diag::Diagnostic {
    err("E0706", span, format!("the game would hold more pieces than the limit of {}", crate::limits::MAX_PIECES), "this kind reaches the limit")
        .help("piece counts (times the seats, for a piece per player) add up over all kinds; use fewer pieces or a number variable")
}

impl Checker {
    /// Piece kind `k`: its instances, its start zone and its label.
    pub(super) fn piece(
        &mut self,
        k: u16,
        per_player: bool,
        instances: Option<&[ast::InstanceItem]>,
        start: Option<&ast::Ident>,
        label: Option<&ast::Template>,
        span: Span,
    ) {
        self.piece_instances(k, per_player, instances, span);
        if let Some(z) = start {
            let zs = if per_player {
                self.lookup_member(Scope::Player, &z.name)
                    .or_else(|| self.global_sym(&z.name))
            } else {
                self.global_sym(&z.name)
            };
            match zs {
                Some(Sym::Zone(zi)) if self.g.zones[zi].scope == Scope::Indexed => {
                    let zd = &self.g.zones[zi];
                    let d = err(
                        "E0239",
                        z.span,
                        format!(
                            "zone `{}` is indexed by {}: a piece cannot start in it",
                            z.name,
                            self.g.dims_text(&zd.dims)
                        ),
                        "needs an index",
                    )
                    .help(
                        "start the pieces in a global or per-player zone, and move them in `setup`",
                    );
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
                        .help("a zone declared `: KIND` holds only pieces of that kind");
                        self.error(d);
                    }
                    self.g.kinds[k as usize].start = Some(zi as u16);
                }
                _ => {
                    let d = err("E0217", z.span, format!("unknown zone `{}`", z.name), "not a zone")
                        .help(if per_player { "a per-player piece starts in a per-player zone of its owner, or in a global zone" } else { "a piece that is not per player starts in a global zone" });
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

    pub(super) fn piece_instances(
        &mut self,
        k: u16,
        per_player: bool,
        instances: Option<&[ast::InstanceItem]>,
        span: Span,
    ) {
        let kind = self.g.kinds[k as usize].clone();
        // (count, field values) groups, from the rules or from the board file.
        let mut groups: Vec<(u32, Vec<Val>)> = vec![];
        match instances {
            Some(list) => match self.listed_instances(k, list, span) {
                Some(gs) => groups = gs,
                None => return,
            },
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
            self.error(too_many_pieces(span));
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

    pub(super) fn board_value(&mut self, v: &AttrValue, ty: Ty, span: Span, field: &str) -> Val {
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
}
