//! Names in the rules files of one analysis: every declaration and every
//! occurrence of a name, and what each occurrence refers to. The checker's
//! side table (`check::Index`) says what a name in an expression resolved to
//! (a local, a global, an enumeration's member, a field of a value of some
//! type); names the checker does not record (statements' procedure and
//! action names, types, collections) are resolved here by scope: the nearest
//! binder before them in the same item, else the top-level declaration.
//! Go to definition, references, rename, hover and highlighting read this.

use super::analysis::Analysis;
use crate::ast::visit::{walk_expr, walk_item, walk_stmt, Visit};
use crate::ast::{self, ExprKind, Header, ItemKind, Scope, StmtKind};
use crate::check::Use;
use crate::diag::Span;
use std::collections::HashMap;

/// What a name refers to, the same for every occurrence of it (a global
/// is one thing across a variant chain, so that renaming it renames the
/// base's declaration and the variant's `override` together).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Global(String),
    /// A local, by its binder's file and offset.
    Local(u32, u32),
    EnumMember(String, String),
    /// A piece kind's field: the kind and the field.
    Field(String, String),
    /// A per-player, per-node or per-edge variable or zone.
    Member(String),
    /// A board node or edge, `@id`.
    Node(String),
    /// A named block, as a variant names it: `BODY.NAME`.
    Block(String),
}

/// What a declaration declares, for outlines and highlighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Const,
    Option,
    Enum,
    EnumMember,
    Piece,
    Field,
    Zone,
    Var,
    Function,
    Procedure,
    Phase,
    Action,
    Statistic,
    Seat,
    Param,
    Local,
    /// `block NAME { … }` in a body, or `override block BODY.NAME` in a variant.
    Block,
}

pub struct Decl {
    pub key: Key,
    pub name: String,
    pub kind: Kind,
    pub span: Span,
    /// The index of the item in its file, and whether it is an `override`.
    pub item: usize,
    pub is_override: bool,
}

/// One name in the text.
pub struct Occ {
    pub span: Span,
    pub name: String,
    /// `@id`
    pub node: bool,
}

/// The names of every rules file an analysis read.
#[derive(Default)]
pub struct Names {
    pub decls: Vec<Decl>,
    pub occs: Vec<Occ>,
    /// Each item's span per file, in order.
    items: HashMap<u32, Vec<Span>>,
    uses: HashMap<(u32, u32), Use>,
}

impl Names {
    pub fn build(a: &Analysis) -> Names {
        let mut n = Names::default();
        for (file, tree) in a.trees() {
            n.items
                .insert(*file, tree.items.iter().map(|i| i.span).collect());
            for (i, it) in tree.items.iter().enumerate() {
                let body = match &it.kind {
                    ItemKind::Proc { name, .. }
                    | ItemKind::Phase { name, .. }
                    | ItemKind::Action { name, .. } => Some(name.name.clone()),
                    ItemKind::Setup(_) => Some("setup".to_string()),
                    ItemKind::Play(_) => Some("play".to_string()),
                    _ => None,
                };
                let mut c = Collect {
                    n: &mut n,
                    item: i,
                    is_override: it.is_override,
                    body,
                };
                c.declare(&it.kind);
                c.item(it);
            }
        }
        for (s, u) in &a.index.uses {
            n.uses.entry((s.file, s.start)).or_insert_with(|| u.clone());
        }
        n
    }

    /// The occurrence at a byte offset of a file.
    pub fn at(&self, file: u32, offset: u32) -> Option<&Occ> {
        self.occs
            .iter()
            .find(|o| o.span.file == file && o.span.start <= offset && offset <= o.span.end)
    }

    fn item_of(&self, s: Span) -> Option<usize> {
        self.items
            .get(&s.file)?
            .iter()
            .position(|i| i.start <= s.start && s.end <= i.end)
    }

    /// What an occurrence refers to, if anything declared.
    pub fn resolve(&self, o: &Occ) -> Option<Key> {
        if o.node {
            return Some(Key::Node(o.name.clone()));
        }
        if let Some(d) = self.decls.iter().find(|d| d.span == o.span) {
            return Some(d.key.clone());
        }
        let known = |k: &Key| self.decls.iter().any(|d| &d.key == k);
        match self.uses.get(&(o.span.file, o.span.start)) {
            Some(Use::Local) => return self.local(o),
            Some(Use::Global(g)) => {
                let k = Key::Global(g.clone());
                return known(&k).then_some(k);
            }
            Some(Use::EnumMember(e, m)) => return Some(Key::EnumMember(e.clone(), m.clone())),
            Some(Use::Member(of, f)) => {
                let field = Key::Field(of.clone(), f.clone());
                if known(&field) {
                    return Some(field);
                }
                let m = Key::Member(f.clone());
                return known(&m).then_some(m);
            }
            None => {}
        }
        if let Some(k) = self.local(o) {
            return Some(k);
        }
        let by_name = |k: &Key| match k {
            Key::Global(g) | Key::Member(g) => g == &o.name,
            Key::EnumMember(_, m) | Key::Field(_, m) => m == &o.name,
            _ => false,
        };
        // Globals first, then members, then fields, in declaration order.
        let rank = |k: &Key| match k {
            Key::Global(_) => 0,
            Key::EnumMember(..) => 1,
            Key::Member(_) => 2,
            _ => 3,
        };
        self.decls
            .iter()
            .filter(|d| by_name(&d.key))
            .min_by_key(|d| rank(&d.key))
            .map(|d| d.key.clone())
    }

    /// The nearest binder of the name before it in the same item.
    fn local(&self, o: &Occ) -> Option<Key> {
        let item = self.item_of(o.span)?;
        let items = self.items.get(&o.span.file)?;
        let scope = items[item];
        self.decls
            .iter()
            .filter(|d| matches!(d.kind, Kind::Local | Kind::Param))
            .filter(|d| d.span.file == o.span.file && scope.start <= d.span.start)
            .filter(|d| d.span.start <= o.span.start && d.span.end <= scope.end)
            .filter(|d| d.name == o.name)
            .max_by_key(|d| d.span.start)
            .map(|d| d.key.clone())
    }

    /// The declarations of a key: the outermost file's first (a variant's
    /// override before its base's original).
    pub fn decls_of<'a>(&'a self, k: &'a Key) -> impl Iterator<Item = &'a Decl> + 'a {
        self.decls.iter().filter(move |d| &d.key == k)
    }

    /// Every occurrence of a key, declarations included, in text order.
    pub fn references(&self, k: &Key) -> Vec<Span> {
        let mut v: Vec<Span> = self
            .occs
            .iter()
            .filter(|o| self.resolve(o).as_ref() == Some(k))
            .map(|o| o.span)
            .collect();
        v.sort_by_key(|s| (s.file, s.start));
        v.dedup();
        v
    }
}

/// Walks one item: its declarations, its binders and every name in it.
struct Collect<'n> {
    n: &'n mut Names,
    item: usize,
    is_override: bool,
    /// The name a variant gives the item's body (`BODY` of `BODY.NAME`), if it has statements.
    body: Option<String>,
}

impl Collect<'_> {
    fn decl(&mut self, key: Key, kind: Kind, id: &ast::Ident) {
        self.n.decls.push(Decl {
            key,
            name: id.name.clone(),
            kind,
            span: id.span,
            item: self.item,
            is_override: self.is_override,
        });
    }

    fn local(&mut self, kind: Kind, id: &ast::Ident) {
        self.decl(Key::Local(id.span.file, id.span.start), kind, id);
    }

    fn global(&mut self, kind: Kind, id: &ast::Ident) {
        self.decl(Key::Global(id.name.clone()), kind, id);
    }

    /// The names an item declares.
    fn declare(&mut self, k: &ItemKind) {
        match k {
            ItemKind::Seats(names) => names.iter().for_each(|s| self.global(Kind::Seat, s)),
            ItemKind::Option { name, .. } => self.global(Kind::Option, name),
            ItemKind::Const { name, .. } => self.global(Kind::Const, name),
            ItemKind::Enum { name, members, .. } => {
                self.global(Kind::Enum, name);
                for m in members {
                    let key = Key::EnumMember(name.name.clone(), m.name.clone());
                    self.decl(key, Kind::EnumMember, m);
                }
            }
            ItemKind::Piece { name, fields, .. } => {
                self.global(Kind::Piece, name);
                for f in fields {
                    let key = Key::Field(name.name.clone(), f.name.name.clone());
                    self.decl(key, Kind::Field, &f.name);
                }
            }
            ItemKind::Zone { name, scope, .. } | ItemKind::Var { name, scope, .. } => {
                let kind = if matches!(k, ItemKind::Zone { .. }) {
                    Kind::Zone
                } else {
                    Kind::Var
                };
                match scope {
                    Scope::Global | Scope::Indexed => self.global(kind, name),
                    _ => self.decl(Key::Member(name.name.clone()), kind, name),
                }
            }
            ItemKind::Fn { name, params, .. } | ItemKind::Proc { name, params, .. } => {
                let kind = if matches!(k, ItemKind::Fn { .. }) {
                    Kind::Function
                } else {
                    Kind::Procedure
                };
                self.global(kind, name);
                params.iter().for_each(|p| self.local(Kind::Param, &p.name));
            }
            ItemKind::Phase { name, .. } => self.global(Kind::Phase, name),
            ItemKind::BlockOverride {
                body_name, name, ..
            } => {
                let key = Key::Block(format!("{}.{}", body_name.name, name.name));
                self.decl(key, Kind::Block, name);
            }
            ItemKind::Action { name, params, .. } => {
                self.global(Kind::Action, name);
                params.iter().for_each(|p| self.local(Kind::Param, &p.name));
            }
            ItemKind::Statistic { name, player, .. } => {
                self.global(Kind::Statistic, name);
                if let Some(p) = player {
                    self.local(Kind::Param, p);
                }
            }
            ItemKind::Score { player, .. }
            | ItemKind::Tiebreak { player, .. }
            | ItemKind::Team { player, .. } => self.local(Kind::Param, player),
            ItemKind::Display {
                player: Some(p), ..
            } => self.local(Kind::Param, p),
            _ => {}
        }
    }
}

impl<'a> Visit<'a> for Collect<'_> {
    fn ident(&mut self, id: &'a ast::Ident) {
        self.n.occs.push(Occ {
            span: id.span,
            name: id.name.clone(),
            node: false,
        });
    }

    fn stmt(&mut self, s: &'a ast::Stmt) {
        match &s.kind {
            StmtKind::Let { name, .. } | StmtKind::Choose { name, .. } => {
                self.local(Kind::Local, name)
            }
            StmtKind::For { name, .. } => self.local(Kind::Local, name),
            StmtKind::Named { name, .. } => {
                if let Some(b) = &self.body {
                    let key = Key::Block(format!("{b}.{}", name.name));
                    self.decl(key, Kind::Block, name);
                }
            }
            _ => {}
        }
        walk_stmt(self, s)
    }

    fn expr(&mut self, e: &'a ast::Expr) {
        match &e.kind {
            ExprKind::Node(id) => {
                self.n.occs.push(Occ {
                    span: id.span,
                    name: id.name.clone(),
                    node: true,
                });
                return;
            }
            ExprKind::Agg { binder, .. } => self.local(Kind::Local, binder),
            _ => {}
        }
        walk_expr(self, e)
    }

    fn item(&mut self, it: &'a ast::Item) {
        walk_item(self, it)
    }
}

/// The base file a variant's header names, with the span of its path.
pub fn extends(tree: &ast::File) -> Option<(&str, Span)> {
    match &tree.header {
        Header::Variant {
            base, base_span, ..
        } => Some((base.as_str(), *base_span)),
        Header::Game { .. } => None,
    }
}
