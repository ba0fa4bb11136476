//! The outline of a rules file (document symbols): its declarations, an
//! enumeration's members and a piece kind's fields under them.

use super::names::{Decl, Kind};
use super::navigate::location;
use super::Server;
use crate::ast::ItemKind;
use lsp_types as lt;

pub fn document_symbols(
    s: &Server,
    p: &lt::DocumentSymbolParams,
) -> Option<lt::DocumentSymbolResponse> {
    let path = super::documents::uri_path(&p.text_document.uri)?;
    let a = s.analysis_of(&path)?;
    let file = a.file_id(&path)?;
    let (_, tree) = a.trees().iter().find(|(f, _)| *f == file)?;
    let names = a.names();
    let mut out = vec![];
    for (i, it) in tree.items.iter().enumerate() {
        let range = location(s, a, it.span).range;
        let mine: Vec<&Decl> = names
            .decls
            .iter()
            .filter(|d| d.span.file == file && d.item == i)
            .collect();
        let head = mine.iter().find(|d| {
            !matches!(
                d.kind,
                Kind::Param | Kind::Local | Kind::EnumMember | Kind::Field | Kind::Block
            ) || (it.is_override && d.kind == Kind::Block)
        });
        let (name, kind, selection) = match head {
            Some(d) => (
                d.name.clone(),
                symbol_kind(d.kind),
                location(s, a, d.span).range,
            ),
            None => match &it.kind {
                ItemKind::Setup(_) => ("setup".into(), lt::SymbolKind::FUNCTION, range),
                ItemKind::Play(_) => ("play".into(), lt::SymbolKind::FUNCTION, range),
                ItemKind::Score { .. } => ("score".into(), lt::SymbolKind::FUNCTION, range),
                ItemKind::Board { path, .. } => {
                    (format!("board \"{path}\""), lt::SymbolKind::FILE, range)
                }
                _ => continue,
            },
        };
        let children: Vec<lt::DocumentSymbol> = mine
            .iter()
            .filter(|d| matches!(d.kind, Kind::EnumMember | Kind::Field))
            .map(|d| {
                symbol(
                    d.name.clone(),
                    symbol_kind(d.kind),
                    location(s, a, d.span).range,
                    location(s, a, d.span).range,
                    None,
                )
            })
            .collect();
        let children = (!children.is_empty()).then_some(children);
        out.push(symbol(name, kind, range, selection, children));
    }
    Some(lt::DocumentSymbolResponse::Nested(out))
}

#[allow(deprecated)] // `deprecated` is a required field of the protocol's type.
fn symbol(
    name: String,
    kind: lt::SymbolKind,
    range: lt::Range,
    selection_range: lt::Range,
    children: Option<Vec<lt::DocumentSymbol>>,
) -> lt::DocumentSymbol {
    lt::DocumentSymbol {
        name,
        detail: None,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range,
        children,
    }
}

pub fn symbol_kind(k: Kind) -> lt::SymbolKind {
    match k {
        Kind::Const => lt::SymbolKind::CONSTANT,
        Kind::Option => lt::SymbolKind::PROPERTY,
        Kind::Enum => lt::SymbolKind::ENUM,
        Kind::EnumMember => lt::SymbolKind::ENUM_MEMBER,
        Kind::Piece => lt::SymbolKind::STRUCT,
        Kind::Field => lt::SymbolKind::FIELD,
        Kind::Zone => lt::SymbolKind::ARRAY,
        Kind::Var | Kind::Local | Kind::Param => lt::SymbolKind::VARIABLE,
        Kind::Function => lt::SymbolKind::FUNCTION,
        Kind::Procedure | Kind::Phase => lt::SymbolKind::METHOD,
        Kind::Action => lt::SymbolKind::EVENT,
        Kind::Statistic => lt::SymbolKind::NUMBER,
        Kind::Seat => lt::SymbolKind::CONSTANT,
        Kind::Block => lt::SymbolKind::NAMESPACE,
    }
}
