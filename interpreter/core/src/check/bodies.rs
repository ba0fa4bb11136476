//! The order bodies are checked in, after every declaration: option
//! defaults and initial values, pieces, then functions, procedures, phases,
//! actions, `setup`, `play`, the score, tiebreaks, teams, statistics and
//! invariants, in the order the rules give them.

use super::context::{Body, Checker};
use super::declare::const_eval;
use super::err;
use crate::ast::{self, ItemKind};
use crate::diag::Span;
use crate::ir::*;

impl Checker {
    /// Second pass: values that need expressions (option defaults, variable
    /// initial values, piece instances) and then every body.
    pub(super) fn bodies(&mut self, items: &[ast::Item]) {
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
                        self.g.vars[id].init_locals = self.body.nlocals;
                    }
                }
                ItemKind::Piece {
                    start,
                    label,
                    instances,
                    per_player,
                    ..
                } => {
                    self.piece(
                        kind_i,
                        *per_player,
                        instances.as_deref(),
                        start.as_ref(),
                        label.as_ref(),
                        it.span,
                    );
                    kind_i += 1;
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
                    let e = match sig.1.scalar {
                        Scalar::Set(on) => self.set_value(body, on),
                        _ => {
                            let (e, ty) = self.expr(body);
                            self.expect(ty, sig.1, body.span);
                            e
                        }
                    };
                    self.g.fns.push(FnDecl {
                        name: name.name.clone(),
                        nparams: params.len() as u16,
                        nlocals: self.body.nlocals,
                        body: e,
                        params: sig.0.clone(),
                        ret: sig.1,
                        table: None,
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
                    help,
                    body,
                    merge,
                } => {
                    action_i += 1;
                    let mut a = self.action(name, params, label.as_ref(), body);
                    a.help = help.clone();
                    a.merge_labels = *merge;
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
    pub(super) fn statistic(
        &mut self,
        name: &ast::Ident,
        player: Option<&ast::Ident>,
        expr: &ast::Expr,
    ) {
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

    pub(super) fn player_expr(
        &mut self,
        player: &ast::Ident,
        expr: &ast::Expr,
        want: Ty,
    ) -> (Expr, u16) {
        self.body = Body::default();
        self.body.scopes.push(vec![]);
        self.bind(&player.name, Ty::PLAYER);
        let (e, ty) = self.expr(expr);
        self.expect(ty, want, expr.span);
        (e, self.body.nlocals)
    }
}
