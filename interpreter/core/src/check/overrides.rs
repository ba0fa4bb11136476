//! E0307: a variant's `override` keeps the type of what it replaces. The
//! base's rules use a constant, an option, a variable or a function as the
//! type the base gave it, so an override of another type would be reported
//! where the base uses it, in a file the variant's author did not write.
//! Here it is reported at the override, with the base's declaration beside
//! it, and the name then takes the base's type, so that the base's uses
//! report nothing more.

use super::context::{Body, Checker};
use super::err;
use crate::ast::{self, Item, ItemKind, TypeRef};
use crate::diag::Span;
use crate::ir::*;

/// What an override and its base say a name is: its type and whether it is
/// a list (constants), or a function's parameters and result.
#[derive(PartialEq, Eq)]
enum Shape {
    Value(Ty, bool),
    Fn(Vec<Ty>, Ty),
}

impl Checker {
    /// Compares each override in `items` with the declaration it replaced
    /// (the nearest, when a chain of variants replaced it twice).
    pub(super) fn override_types(&mut self, items: &[Item], replaced: &[Item]) {
        let mut seen: Vec<(&'static str, String)> = vec![];
        for base in replaced.iter().rev() {
            let key = base.kind.key();
            if seen.contains(&key) {
                continue;
            }
            seen.push(key.clone());
            let Some(over) = items.iter().find(|i| i.is_override && i.kind.key() == key) else {
                continue;
            };
            let Some((name, at)) = site(&over.kind) else {
                continue;
            };
            let (Some(got), Some(want)) = (
                self.declared_shape(name),
                self.quiet(|ck| ck.shape_of(&base.kind)),
            ) else {
                continue;
            };
            if self.fits(&got, &want) {
                continue;
            }
            let (g, w) = (self.shape_name(&got), self.shape_name(&want));
            let d = err(
                "E0307",
                at,
                format!("this override makes `{}` {g}, but the base's `{}` is {w}", name.name, name.name),
                format!("{g} here"),
            )
            .at(base.span, format!("the base declares it {w}"))
            .help(format!(
                "the base's rules use `{}` as {w}: keep its type, or declare a new name for the new meaning",
                name.name
            ));
            self.error(d);
            self.take_base_type(name, want);
        }
    }

    /// Runs `f` leaving no trace: its diagnostics, texts, locals and
    /// editor index entries are dropped (a base's replaced declaration is
    /// typed only to be compared).
    fn quiet<T>(&mut self, f: impl FnOnce(&mut Checker) -> T) -> T {
        let (errors, warnings, texts) = (self.errors.len(), self.warnings.len(), self.texts.len());
        let index = self.index.take();
        let body = std::mem::take(&mut self.body);
        let out = f(self);
        self.errors.truncate(errors);
        self.warnings.truncate(warnings);
        self.texts.truncate(texts);
        self.index = index;
        self.body = body;
        out
    }

    /// The shape of a replaced declaration, typed as the merged ruleset
    /// declares the names it reads.
    fn shape_of(&mut self, kind: &ItemKind) -> Option<Shape> {
        Some(match kind {
            ItemKind::Const { value, .. } => {
                self.body = Body::default();
                if let ast::ExprKind::List(_) = value.kind {
                    Shape::Value(self.coll(value).1, true)
                } else {
                    Shape::Value(self.expr(value).1, false)
                }
            }
            ItemKind::Option { ty, .. } | ItemKind::Var { ty, .. } => {
                Shape::Value(self.resolve_type(ty), false)
            }
            ItemKind::Fn { params, ret, .. } => Shape::Fn(
                params.iter().map(|p| self.resolve_type(&p.ty)).collect(),
                self.resolve_type(ret),
            ),
            _ => return None,
        })
    }

    /// The shape the merged ruleset gave `name`.
    fn declared_shape(&self, name: &ast::Ident) -> Option<Shape> {
        Some(match self.globals.get(&name.name)?.0 {
            Sym::Const(_, ty) => Shape::Value(ty, false),
            Sym::List(_, ty) => Shape::Value(ty, true),
            Sym::Var(v) => Shape::Value(self.g.vars[v].ty, false),
            Sym::Fn(f) => {
                let (ps, r) = &self.fn_sigs[f as usize];
                Shape::Fn(ps.clone(), *r)
            }
            _ => return None,
        })
    }

    /// Whether an override of shape `got` may stand where the base had `want`.
    fn fits(&self, got: &Shape, want: &Shape) -> bool {
        match (got, want) {
            (Shape::Value(g, gl), Shape::Value(w, wl)) => gl == wl && self.assignable(*g, *w),
            (Shape::Fn(gp, gr), Shape::Fn(wp, wr)) => {
                gp.len() == wp.len() && gp.iter().zip(wp).all(|(g, w)| g == w) && gr == wr
            }
            _ => false,
        }
    }

    fn shape_name(&self, s: &Shape) -> String {
        match s {
            Shape::Value(t, false) => self.type_name(*t),
            Shape::Value(t, true) => format!("a list of {}", self.type_name(*t)),
            Shape::Fn(ps, r) => format!(
                "fn({}) -> {}",
                ps.iter()
                    .map(|t| self.type_name(*t))
                    .collect::<Vec<_>>()
                    .join(", "),
                self.type_name(*r)
            ),
        }
    }

    /// After E0307: `name` takes the base's type, so that the base's uses
    /// of it report nothing more.
    fn take_base_type(&mut self, name: &ast::Ident, want: Shape) {
        let Some(entry) = self.globals.get_mut(&name.name) else {
            return;
        };
        match (&mut entry.0, want) {
            (Sym::Const(_, ty), Shape::Value(w, false))
            | (Sym::List(_, ty), Shape::Value(w, true)) => *ty = w,
            (Sym::Var(v), Shape::Value(w, _)) => self.g.vars[*v].ty = w,
            (Sym::Fn(f), Shape::Fn(ps, r)) => self.fn_sigs[*f as usize] = (ps, r),
            _ => {}
        }
    }
}

/// The name an override declares and the span its type is read from: a
/// constant's value, an option's or variable's type, a function's name.
fn site(kind: &ItemKind) -> Option<(&ast::Ident, Span)> {
    Some(match kind {
        ItemKind::Const { name, value } => (name, value.span),
        ItemKind::Option { name, ty, .. } | ItemKind::Var { name, ty, .. } => (name, type_span(ty)),
        ItemKind::Fn { name, .. } => (name, name.span),
        _ => return None,
    })
}

fn type_span(t: &TypeRef) -> Span {
    match t {
        TypeRef::Named(id) => id.span,
        TypeRef::ZoneOf(_, s) | TypeRef::List(_, s) => *s,
    }
}
