//! The checker's side tables for editors (`regel lsp`): which declaration
//! each name in an expression resolves to, and the type of each expression.
//! They are recorded only when a caller asks for them
//! ([`crate::pipeline::compile_indexed`]); otherwise the checker's `index`
//! is `None` and the one hook in [`Checker::expr`] costs a pointer test, so
//! the command line pays nothing for them.

use super::context::Checker;
use crate::ast::{self, ExprKind};
use crate::diag::Span;
use crate::ir::{Scalar, Sym, Ty};

/// What a name in an expression was resolved to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Use {
    /// A local of the body being checked: a parameter, `let`, `choose`,
    /// `for` or an aggregate's element.
    Local,
    /// A top-level declaration, by name.
    Global(String),
    /// A member of an enumeration: its enumeration's name and the member.
    EnumMember(String, String),
    /// A field of a value: a piece field, a per-player or per-node variable
    /// or zone, a board attribute; with the type of the value it is read from.
    Member(String, String),
}

/// The side tables of one check, in the order the checker met the
/// expressions (a span may appear twice when a body is checked twice, e.g.
/// once per board).
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// Every expression's span and the name of its type.
    pub types: Vec<(Span, String)>,
    /// Every name's span and what it resolved to.
    pub uses: Vec<(Span, Use)>,
    /// The types of `types`, as the checker knows them (for fields' owners).
    tys: Vec<Ty>,
}

impl Checker {
    /// Records an expression just checked: its type, and for a name, a
    /// field or a call, what the name resolved to.
    pub(super) fn note_expr(&mut self, e: &ast::Expr, ty: Ty) {
        if self.index.is_none() {
            return;
        }
        let tn = self.type_name(ty);
        let resolved = match &e.kind {
            ExprKind::Name(id) => Some((id.span, self.name_use(id))),
            ExprKind::Call(id, _) if self.globals.contains_key(&id.name) => {
                Some((id.span, Use::Global(id.name.clone())))
            }
            ExprKind::Field(obj, f) => Some((f.span, self.field_use(obj, f))),
            _ => None,
        };
        if let Some(ix) = self.index.as_mut() {
            ix.types.push((e.span, tn));
            ix.tys.push(ty);
            if let Some(r) = resolved {
                ix.uses.push(r);
            }
        }
    }

    fn name_use(&self, id: &ast::Ident) -> Use {
        if self.lookup_local(&id.name).is_some() {
            return Use::Local;
        }
        if self.globals.contains_key(&id.name) {
            return Use::Global(id.name.clone());
        }
        if let Some(ms) = self.members.get(&id.name) {
            if let Some(en) = self.g.enums.get(ms[0].0 as usize) {
                return Use::EnumMember(en.name.clone(), id.name.clone());
            }
        }
        if self.body.implicit.is_empty() {
            // A seat, `actor`, `num_players` or an unknown name.
            return Use::Global(id.name.clone());
        }
        self.implicit_use(id)
    }

    /// A bare name read as a field of the innermost `where` element.
    fn implicit_use(&self, id: &ast::Ident) -> Use {
        let of = match self.body.implicit.last() {
            Some(&(_, ty)) => self.owner(ty),
            None => String::new(),
        };
        Use::Member(of, id.name.clone())
    }

    fn field_use(&self, obj: &ast::Expr, f: &ast::Ident) -> Use {
        if let ExprKind::Name(n) = &obj.kind {
            if let Some(Sym::Enum(e)) = self.global_sym(&n.name) {
                return Use::EnumMember(self.g.enums[e as usize].name.clone(), f.name.clone());
            }
        }
        let of = self
            .index
            .as_ref()
            .and_then(|ix| {
                ix.types
                    .iter()
                    .rposition(|t| t.0 == obj.span)
                    .map(|i| ix.tys[i])
            })
            .map(|ty| self.owner(ty))
            .unwrap_or_default();
        Use::Member(of, f.name.clone())
    }

    /// The name a member is looked up under: a piece kind's own name, or the type's.
    fn owner(&self, ty: Ty) -> String {
        match ty.scalar {
            Scalar::Piece(Some(k)) if !ty.list => self.g.kinds[k as usize].name.clone(),
            _ => self.type_name(ty),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Index, Use};
    use crate::diag::Sources;
    use crate::opt::Passes;
    use std::path::Path;

    const RULES: &str = "game \"t\"\nplayers 2\nenum colour { red, blue }\n\
piece chip { c: colour } in pool { 2 x { c: red } }\nzone pool: chip public\n\
var per player score: int = 0\nvar turns: int = 0\n\
fn reds() -> int = count(x in pool: x.c == colour.red)\n\
play { let n = reds()\n  turns = n + turns\n  end game }\nscore(p) = p.score\n";

    fn uses(ix: &Index, text: &str) -> Vec<(String, Use)> {
        ix.uses
            .iter()
            .map(|(s, u)| {
                (
                    text[s.start as usize..s.end as usize].to_string(),
                    u.clone(),
                )
            })
            .collect()
    }

    #[test]
    fn names_resolve_to_their_declarations_only_when_asked() {
        let read = |_: &Path| Ok(RULES.to_string());
        let mut ix = Index::default();
        let indexed = crate::pipeline::compile_indexed(
            &mut Sources::default(),
            &read,
            Path::new("t.rules"),
            &Passes::all(),
            Some(&mut ix),
        );
        let plain = crate::pipeline::compile(
            &mut Sources::default(),
            &read,
            Path::new("t.rules"),
            &Passes::all(),
        );
        assert!(indexed.is_ok() && plain.is_ok());
        let u = uses(&ix, RULES);
        let has = |name: &str, want: Use| u.iter().any(|(n, got)| n == name && *got == want);
        assert!(has("x", Use::Local), "{u:?}");
        assert!(has("n", Use::Local), "{u:?}");
        assert!(has("turns", Use::Global("turns".into())), "{u:?}");
        assert!(has("reds", Use::Global("reds".into())), "{u:?}");
        assert!(
            has("red", Use::EnumMember("colour".into(), "red".into())),
            "{u:?}"
        );
        assert!(has("c", Use::Member("chip".into(), "c".into())), "{u:?}");
        assert!(
            has("score", Use::Member("player".into(), "score".into())),
            "{u:?}"
        );
        let ty = |src: &str| {
            let at = RULES.find(src).unwrap() as u32;
            ix.types
                .iter()
                .find(|t| t.0.start == at && t.0.end as usize == at as usize + src.len())
                .map(|t| t.1.clone())
        };
        assert_eq!(ty("n + turns").as_deref(), Some("int"));
        assert_eq!(ty("x.c == colour.red").as_deref(), Some("bool"));
    }
}
