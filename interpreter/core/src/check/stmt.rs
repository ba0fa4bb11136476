//! Statements and actions: typing, scopes and lowering to [`Instr`] blocks.

use super::context::{Body, Checker};
use super::err;
use crate::ast::{self, AssignOp, StmtKind};
use crate::ir::*;

impl Checker {
    pub fn block(&mut self, b: &ast::Block) -> BlockId {
        let mut stmts = vec![];
        self.stmts_into(&b.stmts, &mut stmts);
        self.g.blocks.push(stmts);
        (self.g.blocks.len() - 1) as BlockId
    }

    /// Checks `stmts` in a scope of their own and appends what they lower to.
    /// A named block (`block NAME { … }`) is lowered in place, its statements
    /// among its neighbours' in a scope of their own: the name is for
    /// variants only (`override block`, merged by `load.rs`), so a block
    /// label changes nothing in the program that runs.
    fn stmts_into(&mut self, stmts: &[ast::Stmt], out: &mut Vec<Stmt>) {
        self.body.scopes.push(vec![]);
        for s in stmts {
            if let StmtKind::Named { name, body } = &s.kind {
                self.named_block(name);
                self.stmts_into(&body.stmts, out);
            } else if let Some(x) = self.stmt(s) {
                out.push(x);
            }
        }
        self.body.scopes.pop();
    }

    /// E0305 for a block name used twice in one body.
    fn named_block(&mut self, name: &ast::Ident) {
        let first = self.body.named.iter().find(|(n, _)| *n == name.name);
        if let Some(&(_, first)) = first {
            let d = err(
                "E0305",
                name.span,
                format!("the block name `{}` is used twice in this body", name.name),
                "used again here",
            )
            .at(first, "first used here")
            .help("a variant names a block as `BODY.NAME`, so each block of a procedure, phase or action needs a name of its own");
            self.error(d);
        } else {
            self.body.named.push((name.name.clone(), name.span));
        }
    }

    fn stmt(&mut self, st: &ast::Stmt) -> Option<Stmt> {
        let span = st.span;
        let s = match &st.kind {
            StmtKind::Let { name, value } => {
                let (e, ty) = self.expr(value);
                let ty = if self.no_set(ty, value.span, "a `let` in a procedure or action") {
                    Ty::ERR
                } else {
                    ty
                };
                let slot = self.bind(&name.name, ty);
                Instr::Let(slot, e)
            }
            StmtKind::Choose {
                name,
                player,
                from,
                label,
            } => {
                let (p, pt) = self.expr(player);
                self.expect(pt, Ty::PLAYER, player.span);
                self.body.subsets_ok = true;
                let (c, et) = self.coll(from);
                let slot = self.bind(&name.name, et);
                let area = c.subsets_area(&[]);
                if let Some(area) = area {
                    self.body.areas.push((slot, area));
                }
                let label = match (label, area) {
                    (Some(t), _) => Some(self.template(t)),
                    // A subset without a label reads as its elements.
                    (None, Some(area)) => {
                        let parts = vec![TPart::Set(Expr::Local(slot), area, et)];
                        self.g.templates.push(Template { parts });
                        Some((self.g.templates.len() - 1) as u32)
                    }
                    (None, None) => None,
                };
                Instr::Choose {
                    slot,
                    player: p,
                    from: Box::new(c),
                    label,
                    ty: et,
                }
            }
            StmtKind::Assign { place, op, value } => {
                let (pe, pt) = self.expr(place);
                let (v, vt) = self.expr(value);
                let place = match pe {
                    Expr::Local(slot) => Place::Local(slot),
                    Expr::Var(base, idx) => {
                        if self.g.vars.iter().any(|d| d.is_option && d.base == base) {
                            self.error(
                                err(
                                    "E0260",
                                    place.span,
                                    "options cannot be changed during a game",
                                    "read-only",
                                )
                                .help("declare a `var` and copy the option into it in `setup`"),
                            );
                        }
                        Place::Var(base, idx)
                    }
                    // The place already has an error of its own.
                    _ if pt.scalar == Scalar::Error => return None,
                    _ => {
                        self.error(
                            err(
                                "E0261",
                                place.span,
                                "only variables and locals can be assigned",
                                "not assignable",
                            )
                            .help("declare state with `var`; zones change with `move`"),
                        );
                        return None;
                    }
                };
                match op {
                    AssignOp::Set => self.expect(vt, pt, value.span),
                    _ => {
                        self.expect(pt, Ty::INT, place_span(st));
                        self.expect(vt, Ty::INT, value.span);
                    }
                }
                Instr::Assign(place, *op, v)
            }
            StmtKind::If { cond, then, els } => {
                let (c, ct) = self.expr(cond);
                self.expect(ct, Ty::BOOL, cond.span);
                let t = self.block(then);
                let e = els.as_ref().map(|b| self.block(b));
                Instr::If(c, t, e)
            }
            StmtKind::While { cond, body } => {
                let (c, ct) = self.expr(cond);
                self.expect(ct, Ty::BOOL, cond.span);
                self.body.loops += 1;
                let b = self.block(body);
                self.body.loops -= 1;
                Instr::While(c, b)
            }
            StmtKind::For { name, coll, body } => {
                let (c, et) = self.named_coll(coll, &name.name);
                self.body.scopes.push(vec![]);
                let slot = self.bind(&name.name, et);
                self.body.loops += 1;
                let b = self.block(body);
                self.body.loops -= 1;
                self.body.scopes.pop();
                Instr::For(slot, Box::new(c), b)
            }
            StmtKind::Break | StmtKind::Continue => {
                if self.body.loops == 0 {
                    self.error(
                        err(
                            "E0262",
                            span,
                            "`break` and `continue` belong inside a loop",
                            "outside any loop",
                        )
                        .help("use `return` to leave a procedure or action"),
                    );
                }
                if matches!(st.kind, StmtKind::Break) {
                    Instr::Break
                } else {
                    Instr::Continue
                }
            }
            StmtKind::Return => Instr::Return,
            // Lowered in place by `stmts_into`, which never passes one here.
            StmtKind::Named { .. } => return None,
            StmtKind::Move { what, to, pos } => {
                let (zr, zk) = self.zone(to);
                let (w, pk, pspan) = match what {
                    ast::MoveWhat::One(e) => {
                        let (x, t) = self.expr(e);
                        (MoveWhat::One(x), t, e.span)
                    }
                    ast::MoveWhat::All(c) => {
                        let (x, t) = self.coll(c);
                        (MoveWhat::All(Box::new(x)), t, c.span)
                    }
                    ast::MoveWhat::N(n, c) => {
                        let (ne, nt) = self.expr(n);
                        self.expect(nt, Ty::INT, n.span);
                        let (x, t) = self.coll(c);
                        (MoveWhat::N(ne, Box::new(x)), t, c.span)
                    }
                };
                match pk.scalar {
                    Scalar::Piece(k) if !pk.list => {
                        if zk.is_some() && k != zk {
                            let zn = zk
                                .map(|k| self.g.kinds[k as usize].name.clone())
                                .unwrap_or_default();
                            let (msg, label) = match k {
                                Some(k) => {
                                    let pn = &self.g.kinds[k as usize].name;
                                    (
                                        format!("a zone of `{zn}` cannot receive a `{pn}`"),
                                        format!("this is a `{pn}`"),
                                    )
                                }
                                None => (
                                    format!(
                                        "a zone of `{zn}` cannot receive a piece of unknown kind"
                                    ),
                                    "the checker cannot tell that this is a `".to_string()
                                        + &zn
                                        + "`",
                                ),
                            };
                            let d = err("E0263", pspan, msg, label)
                                .at(to.span, format!("this zone holds only `{zn}`"))
                                .help("declare the zone without a kind to hold any piece, or move pieces of the right kind");
                            self.error(d);
                        }
                    }
                    Scalar::Error => {}
                    _ => {
                        let d = err(
                            "E0264",
                            pspan,
                            format!("only pieces can be moved, not {}", self.type_name(pk)),
                            "not a piece",
                        )
                        .help("`move` takes a piece, `all COLLECTION` or `N of COLLECTION`");
                        self.error(d);
                    }
                }
                Instr::Move(w, Box::new(zr), *pos)
            }
            StmtKind::Shuffle(z) => {
                let (zr, _) = self.zone(z);
                Instr::Shuffle(zr)
            }
            StmtKind::Act {
                player,
                actions,
                els,
            } => {
                let (p, pt) = self.expr(player);
                self.expect(pt, Ty::PLAYER, player.span);
                let mut ids = vec![];
                for a in actions {
                    match self.global_sym(&a.name) {
                        Some(Sym::Action(id)) => {
                            self.action_used[id as usize] = true;
                            ids.push(id);
                        }
                        _ => {
                            let names: Vec<String> = self
                                .globals
                                .iter()
                                .filter(|(_, v)| matches!(v.0, Sym::Action(_)))
                                .map(|(k, _)| k.clone())
                                .collect();
                            let mut d = err(
                                "E0265",
                                a.span,
                                format!("unknown action `{}`", a.name),
                                "not an action",
                            );
                            d = match super::similar(&a.name, names.iter().map(|s| s.as_str())) {
                                Some(s) => d.help(format!("did you mean `{s}`?")),
                                None => d.help("declare it with `action NAME(…) { … }`"),
                            };
                            self.error(d);
                        }
                    }
                }
                let e = els.as_ref().map(|b| self.block(b));
                Instr::Act {
                    player: p,
                    actions: ids,
                    els: e,
                }
            }
            StmtKind::Log(t) => Instr::Log(self.template(t)),
            StmtKind::EndGame => Instr::EndGame,
            StmtKind::ShowBoard => Instr::ShowBoard,
            StmtKind::Reveal(e) | StmtKind::Hide(e) => {
                let (x, t) = self.expr(e);
                self.expect(t, Ty::one(Scalar::Piece(None)), e.span);
                Instr::Reveal(x, matches!(st.kind, StmtKind::Reveal(_)))
            }
            StmtKind::Require(e) => {
                let (x, t) = self.expr(e);
                self.expect(t, Ty::BOOL, e.span);
                Instr::Require(x)
            }
            StmtKind::Call { name, args } => match self.global_sym(&name.name) {
                Some(Sym::Proc(id)) => {
                    self.proc_used[id as usize] = true;
                    let sig = self.proc_sigs[id as usize].clone();
                    if args.len() != sig.len() {
                        self.error(err(
                            "E0244",
                            span,
                            format!(
                                "`{}` takes {} argument{}, but {} {} given",
                                name.name,
                                sig.len(),
                                if sig.len() == 1 { "" } else { "s" },
                                args.len(),
                                if args.len() == 1 { "was" } else { "were" }
                            ),
                            "wrong number of arguments",
                        ));
                        return None;
                    }
                    let mut es = vec![];
                    for (a, want) in args.iter().zip(sig) {
                        let (x, t) = self.expr(a);
                        self.expect(t, want, a.span);
                        es.push(x);
                    }
                    Instr::Call(id, es)
                }
                _ => {
                    let names: Vec<String> = self
                        .globals
                        .iter()
                        .filter(|(_, v)| matches!(v.0, Sym::Proc(_)))
                        .map(|(k, _)| k.clone())
                        .collect();
                    let mut d = err(
                        "E0266",
                        name.span,
                        format!("unknown procedure `{}`", name.name),
                        "not a procedure or phase",
                    );
                    d = match super::similar(&name.name, names.iter().map(|s| s.as_str())) {
                        Some(s) => d.help(format!("did you mean `{s}`?")),
                        None => {
                            d.help("declare it with `proc NAME(…) { … }` or `phase NAME { … }`")
                        }
                    };
                    self.error(d);
                    return None;
                }
            },
        };
        Some(Stmt { s, span })
    }

    pub fn action(
        &mut self,
        name: &ast::Ident,
        params: &[ast::ActionParam],
        label: Option<&ast::Template>,
        body: &ast::Block,
    ) -> ActionDecl {
        self.body = Body::default();
        self.body.scopes.push(vec![]);
        let actor = self.bind("actor", Ty::PLAYER);
        self.body.actor = Some(actor);
        let mut ps: Vec<ActionParam> = vec![];
        for p in params {
            self.body.subsets_ok = true;
            let (c, et) = self.named_coll(&p.domain, &p.name.name);
            let deps = param_mask(&ps, |f| visit_c(&c, f));
            let slot = self.bind(&p.name.name, et);
            if let Some(area) = c.subsets_area(&[]) {
                self.body.areas.push((slot, area));
                if param_mask(&ps, |f| visit_c(subsets_of(&c), f)) != 0 {
                    self.error(
                        err("E0295", p.domain.span, "the collection of `subsets(…)` reads another parameter", "reads another parameter")
                            .help("a subset's collection is listed once per decision: take it from what the actor holds, and filter with `where` (which may read the parameters before it)"),
                    );
                }
            }
            ps.push(ActionParam {
                name: p.name.name.clone(),
                slot,
                ty: et,
                domain: c,
                deps,
                fast: None,
                draw: None,
            });
        }
        let mut pre = vec![];
        let mut rest = &body.stmts[..];
        // A leading named block of `require`s only leads too, so that a
        // variant may change an action's legality by replacing it.
        while let Some(first) = rest.first() {
            let leading: Vec<&ast::Expr> = match &first.kind {
                StmtKind::Require(e) => vec![e],
                StmtKind::Named { name, body }
                    if body
                        .stmts
                        .iter()
                        .all(|s| matches!(s.kind, StmtKind::Require(_))) =>
                {
                    self.named_block(name);
                    body.stmts
                        .iter()
                        .filter_map(|s| match &s.kind {
                            StmtKind::Require(e) => Some(e),
                            _ => None,
                        })
                        .collect()
                }
                _ => break,
            };
            for e in leading {
                let (x, t) = self.expr(e);
                self.expect(t, Ty::BOOL, e.span);
                let mask = param_mask(&ps, |f| visit_e(&x, f));
                pre.push((x, mask, e.span));
            }
            rest = &rest[1..];
        }
        let label = label.map(|t| self.template(t));
        let b = self.block(&ast::Block {
            stmts: rest.to_vec(),
            span: body.span,
        });
        let product =
            ps.iter().all(|p| p.deps == 0) && pre.iter().all(|(_, m, _)| m.count_ones() <= 1);
        let areas = ps
            .iter()
            .filter_map(|p| p.domain.subsets_area(&[]))
            .collect();
        ActionDecl {
            name: name.name.clone(),
            params: ps,
            pre,
            label,
            help: None,
            body: b,
            nlocals: self.body.nlocals,
            product,
            merge: false,
            twin_free: false,
            merge_labels: false,
            areas,
            lister: None,
            shared: vec![],
            draw: None,
            needs: None,
            span: name.span,
        }
    }
}

fn place_span(st: &ast::Stmt) -> crate::diag::Span {
    match &st.kind {
        StmtKind::Assign { place, .. } => place.span,
        _ => st.span,
    }
}

/// The collection a `subsets(…)` domain (perhaps filtered) chooses from.
fn subsets_of(c: &Coll) -> &Coll {
    match c {
        Coll::Subsets { of, .. } => of,
        Coll::Filter(c, _, _) => subsets_of(c),
        _ => c,
    }
}

/// The bit mask of action parameters (by position) whose slots `visit` reports.
fn param_mask(ps: &[ActionParam], visit: impl FnOnce(&mut dyn FnMut(u16))) -> u32 {
    let mut mask = 0u32;
    visit(&mut |slot| {
        if let Some(i) = ps.iter().position(|p| p.slot == slot) {
            mask |= 1 << i;
        }
    });
    mask
}

pub(super) use crate::ir::walk::{visit_locals as visit_e, visit_locals_c as visit_c};
