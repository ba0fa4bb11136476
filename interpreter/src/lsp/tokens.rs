//! Semantic tokens: every name coloured by what it refers to (a function,
//! an enumeration's member, a field, a parameter, …); keywords, strings and
//! comments are left to the grammar.

use super::documents::Lines;
use super::names::{Key, Kind};
use super::Server;
use lsp_types as lt;

/// The token types, in the order of the legend.
pub const TYPES: [lt::SemanticTokenType; 9] = [
    lt::SemanticTokenType::FUNCTION,
    lt::SemanticTokenType::VARIABLE,
    lt::SemanticTokenType::PARAMETER,
    lt::SemanticTokenType::PROPERTY,
    lt::SemanticTokenType::ENUM,
    lt::SemanticTokenType::ENUM_MEMBER,
    lt::SemanticTokenType::TYPE,
    lt::SemanticTokenType::EVENT,
    lt::SemanticTokenType::STRING,
];

pub fn legend() -> lt::SemanticTokensLegend {
    lt::SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: vec![lt::SemanticTokenModifier::DECLARATION],
    }
}

fn type_of(kind: Option<Kind>, key: &Key) -> u32 {
    match key {
        Key::Node(_) => 8,
        Key::EnumMember(..) => 5,
        Key::Field(..) | Key::Member(_) | Key::Block(_) => 3,
        Key::Local(..) if kind == Some(Kind::Param) => 2,
        Key::Local(..) => 1,
        Key::Global(_) => match kind {
            Some(Kind::Function | Kind::Procedure | Kind::Phase) => 0,
            Some(Kind::Enum) => 4,
            Some(Kind::Piece) => 6,
            Some(Kind::Action) => 7,
            _ => 1,
        },
    }
}

pub fn full(s: &Server, p: &lt::SemanticTokensParams) -> Option<lt::SemanticTokensResult> {
    let path = super::documents::uri_path(&p.text_document.uri)?;
    let a = s.analysis_of(&path)?;
    let file = a.file_id(&path)?;
    let names = a.names();
    let lines = Lines::new(a.text(file), s.enc);
    let mut occs: Vec<_> = names.occs.iter().filter(|o| o.span.file == file).collect();
    occs.sort_by_key(|o| o.span.start);
    let mut data = vec![];
    let (mut line, mut col) = (0u32, 0u32);
    for o in occs {
        let Some(key) = names.resolve(o) else {
            continue;
        };
        let decl = names.decls_of(&key).next();
        let ty = type_of(decl.map(|d| d.kind), &key);
        let is_decl = names.decls.iter().any(|d| d.span == o.span);
        let start = lines.position(o.span.start as usize);
        let end = lines.position(o.span.end as usize);
        if end.line != start.line {
            continue;
        }
        let delta_line = start.line - line;
        let delta_start = if delta_line == 0 {
            start.character - col
        } else {
            start.character
        };
        data.push(lt::SemanticToken {
            delta_line,
            delta_start,
            length: end.character - start.character,
            token_type: ty,
            token_modifiers_bitset: is_decl as u32,
        });
        line = start.line;
        col = start.character;
    }
    Some(lt::SemanticTokensResult::Tokens(lt::SemanticTokens {
        result_id: None,
        data,
    }))
}
