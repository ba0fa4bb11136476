//! The checker's context: the global symbol tables, the scopes and slots
//! of the body being checked, and the game being built ([`Checker`]), with
//! the helpers every part of the checker uses to define and look up names.

use super::err;
use crate::ast::{self, Scope};
use crate::board::Board;
use crate::diag::{Diagnostic, Diagnostics, Span};
use crate::ir::Game;
use crate::ir::*;
use indexmap::IndexMap;
use std::sync::Arc;

/// Per-body state: local scopes and slots.
#[derive(Default)]
pub(super) struct Body {
    pub scopes: Vec<Vec<(String, u16, Ty)>>,
    pub nlocals: u16,
    /// Elements bound by `where` without a name: `it`, and their fields by bare name.
    pub implicit: Vec<(u16, Ty)>,
    pub actor: Option<u16>,
    pub loops: u32,
    /// The name the next collection's elements get (`x` in `count(x in C
    /// where …)`), taken by the first `where` that [`Checker::coll`] meets.
    pub elem_name: Option<String>,
    /// Those names while their `where` is checked: a name that resolves to
    /// nothing else is the element (`count(x in C where x > 2)`).
    pub where_names: Vec<(String, u16, Ty)>,
    /// The named blocks (`block NAME { … }`) met so far in this body, for
    /// E0305: a variant names one as `BODY.NAME`, so a name may be used once.
    pub named: Vec<(String, Span)>,
    /// Set while an action parameter's domain or a `choose`'s collection is
    /// checked: the one place `subsets(…)` may stand (taken by `coll`).
    pub subsets_ok: bool,
    /// Locals holding a subset, with the area its elements are read from.
    pub areas: Vec<(u16, u16)>,
}

pub(super) struct Checker {
    pub errors: Diagnostics,
    pub warnings: Diagnostics,
    pub globals: IndexMap<String, (Sym, Span)>,
    pub player_members: IndexMap<String, Sym>,
    pub node_members: IndexMap<String, Sym>,
    pub edge_members: IndexMap<String, Sym>,
    pub enum_members: IndexMap<(u16, String), Sym>,
    pub members: IndexMap<String, Vec<(u16, u16)>>,
    pub board: Arc<Board>,
    pub body: Body,
    pub g: Game,
    pub fn_sigs: Vec<(Vec<Ty>, Ty)>,
    pub proc_sigs: Vec<Vec<Ty>>,
    pub proc_used: Vec<bool>,
    pub action_used: Vec<bool>,
    pub texts: IndexMap<String, ()>,
    /// The rules call `distance`: the board's distance table is worth computing.
    pub uses_distance: bool,
    /// The side tables for editors, recorded only when asked (`index.rs`).
    pub index: Option<Box<super::index::Index>>,
    /// Every index into a constant table, for the range check (`ranges.rs`).
    pub table_reads: Vec<super::ranges::TableRead>,
}

impl Checker {
    /// A checker for the game `name` (with `variants`) on `board`, with
    /// empty tables.
    pub(super) fn new(name: &str, variants: &[String], board: Board) -> Checker {
        let board = Arc::new(board);
        Checker {
            errors: vec![],
            warnings: vec![],
            globals: IndexMap::new(),
            player_members: IndexMap::new(),
            node_members: IndexMap::new(),
            edge_members: IndexMap::new(),
            enum_members: IndexMap::new(),
            members: IndexMap::new(),
            board: board.clone(),
            body: Body::default(),
            g: Game {
                name: name.to_string(),
                variants: variants.to_vec(),
                summary: None,
                min_players: 1,
                max_players: 1,
                seats: vec![],
                board,
                enums: vec![],
                lists: vec![],
                dist: vec![],
                fn_tables: vec![],
                texts: vec![],
                kinds: vec![],
                zones: vec![],
                nzones: 0,
                vars: vec![],
                nvars: 0,
                options: IndexMap::new(),
                piece_kind: vec![],
                piece_owner: vec![],
                piece_class: vec![],
                kind_twins: vec![],
                piece_start: vec![],
                fields: vec![],
                node_attrs: vec![],
                node_attr_index: vec![],
                keys: vec![],
                edge_attrs: vec![],
                fns: vec![],
                procs: vec![],
                actions: vec![],
                blocks: vec![],
                code: vec![],
                loop_code: Default::default(),
                run_code: Default::default(),
                templates: vec![],
                programs: vec![],
                zindex: ZPredIndex::default(),
                kept: KeptSites::default(),
                setup: None,
                play: (0, 0),
                score: None,
                tiebreaks: vec![],
                team: None,
                invariants: vec![],
                statistics: vec![],
                present: Presentation::default(),
                box_zone: 0,
                symbols: Symbols::default(),
                by_players: vec![],
            },
            fn_sigs: vec![],
            proc_sigs: vec![],
            proc_used: vec![],
            action_used: vec![],
            texts: IndexMap::new(),
            uses_distance: false,
            index: None,
            table_reads: vec![],
        }
    }

    pub(super) fn symbols(&self) -> Symbols {
        Symbols {
            globals: self.globals.clone(),
            player_members: self.player_members.clone(),
            node_members: self.node_members.clone(),
            edge_members: self.edge_members.clone(),
            enum_members: self.enum_members.clone(),
            members: self.members.clone(),
            fn_sigs: self.fn_sigs.clone(),
            proc_sigs: self.proc_sigs.clone(),
            texts: self.texts.clone(),
        }
    }

    /// A checker over an already checked game, for compiling more expressions.
    pub(super) fn resume(g: &Game) -> Checker {
        let s = g.symbols.clone();
        Checker {
            errors: vec![],
            warnings: vec![],
            globals: s.globals,
            player_members: s.player_members,
            node_members: s.node_members,
            edge_members: s.edge_members,
            enum_members: s.enum_members,
            members: s.members,
            board: g.board.clone(),
            body: Body::default(),
            g: g.clone(),
            fn_sigs: s.fn_sigs,
            proc_sigs: s.proc_sigs.clone(),
            proc_used: vec![true; s.proc_sigs.len()],
            action_used: vec![true; g.actions.len()],
            texts: s.texts,
            uses_distance: false,
            index: None,
            table_reads: vec![],
        }
    }

    pub fn error(&mut self, d: Diagnostic) {
        self.errors.push(d);
    }

    pub fn intern(&mut self, s: &str) -> Val {
        self.texts.insert_full(s.to_string(), ()).0 as Val
    }

    pub(super) fn define(&mut self, name: &ast::Ident, sym: Sym) {
        if let Some((_, prev)) = self.globals.get(&name.name) {
            let prev = *prev;
            self.error(
                err(
                    "E0202",
                    name.span,
                    format!("`{}` is declared twice", name.name),
                    "declared again here",
                )
                .at(prev, "first declared here")
                .help("every top-level name must be unique; rename one of them"),
            );
            return;
        }
        if matches!(
            name.name.as_str(),
            "players" | "nodes" | "edges" | "actor" | "it" | "box" | "num_players"
        ) {
            self.error(
                err(
                    "E0203",
                    name.span,
                    format!("`{}` is a built-in name", name.name),
                    "cannot be redeclared",
                )
                .help("choose another name"),
            );
            return;
        }
        self.globals.insert(name.name.clone(), (sym, name.span));
    }

    pub(super) fn define_member(&mut self, scope: Scope, name: &ast::Ident, sym: Sym) {
        let table = match scope {
            Scope::Player => &mut self.player_members,
            Scope::Node => &mut self.node_members,
            Scope::Edge => &mut self.edge_members,
            Scope::Global | Scope::Indexed => return self.define(name, sym),
        };
        if table.contains_key(&name.name) {
            let d = err(
                "E0202",
                name.span,
                format!("`{}` is declared twice for the same scope", name.name),
                "declared again here",
            )
            .help("per-player (and per-node) variables and zones share one namespace");
            self.error(d);
            return;
        }
        let clash_attr = scope == Scope::Node && self.board.node_attrs.contains_key(&name.name)
            || scope == Scope::Edge && self.board.edge_attrs.contains_key(&name.name);
        if clash_attr {
            self.error(
                err(
                    "E0204",
                    name.span,
                    format!("`{}` is already a board attribute", name.name),
                    "clashes with the board file",
                )
                .help("rename the variable or zone, or the attribute in the board file"),
            );
            return;
        }
        table.insert(name.name.clone(), sym);
    }

    pub fn global_sym(&self, name: &str) -> Option<Sym> {
        self.globals.get(name).map(|x| x.0)
    }

    pub fn lookup_member(&self, scope: Scope, name: &str) -> Option<Sym> {
        match scope {
            Scope::Player => self.player_members.get(name).copied(),
            Scope::Node => self.node_members.get(name).copied(),
            Scope::Edge => self.edge_members.get(name).copied(),
            Scope::Global | Scope::Indexed => self.global_sym(name),
        }
    }

    pub fn bind(&mut self, name: &str, ty: Ty) -> u16 {
        let slot = self.body.nlocals;
        self.body.nlocals += 1;
        if self.body.scopes.is_empty() {
            self.body.scopes.push(vec![]);
        }
        self.body
            .scopes
            .last_mut()
            .unwrap()
            .push((name.to_string(), slot, ty));
        slot
    }

    /// Warnings for declarations nothing uses.
    pub(super) fn unused(&mut self) {
        for (i, used) in self.action_used.clone().iter().enumerate() {
            if !used {
                let a = &self.g.actions[i];
                self.warnings.push(
                    Diagnostic::warning("W0001", format!("action `{}` is never offered", a.name))
                        .at(a.span, "no `act … with` names it")
                        .help("offer it in an `act` statement, or remove it"),
                );
            }
        }
        for (i, used) in self.proc_used.clone().iter().enumerate() {
            if !used {
                let p = &self.g.procs[i];
                let what = if p.is_phase { "phase" } else { "procedure" };
                self.warnings.push(
                    Diagnostic::warning("W0002", format!("{what} `{}` is never called", p.name))
                        .at(p.span, "unreachable")
                        .help("call it from `play`, `setup` or another body, or remove it"),
                );
            }
        }
    }
}
