//! Go to definition, find references and rename, over the names of one
//! analysis ([`super::names`]): a name to its declaration (a variant's
//! `override` to the base's item), `extends "…"` to the base file,
//! `board "…"` to the board file, and `@id` to the node's or edge's table
//! in the board file.

use super::analysis::Analysis;
use super::documents::{normal, path_uri, uri_path, Lines};
use super::names::{Key, Names};
use super::Server;
use crate::ast::ItemKind;
use crate::diag::Span;
use lsp_types as lt;
use std::collections::HashMap;
use std::path::Path;

/// The analysis that read the document, the file's id in it and the byte
/// offset of a position.
pub fn locate<'s>(
    s: &'s Server,
    doc: &lt::TextDocumentPositionParams,
) -> Option<(&'s Analysis, u32, u32)> {
    let path = uri_path(&doc.text_document.uri)?;
    let a = s.analysis_of(&path)?;
    let file = a.file_id(&path)?;
    let lines = Lines::new(a.text(file), s.enc);
    Some((a, file, lines.offset(doc.position) as u32))
}

pub fn location(s: &Server, a: &Analysis, sp: Span) -> lt::Location {
    let lines = Lines::new(a.text(sp.file), s.enc);
    lt::Location::new(
        path_uri(&a.path(sp.file)),
        lines.range(sp.start as usize, sp.end as usize),
    )
}

/// The key of the name under the cursor.
pub fn key_at(a: &Analysis, file: u32, offset: u32) -> Option<Key> {
    let n = a.names();
    n.resolve(n.at(file, offset)?)
}

pub fn definition(s: &Server, p: &lt::GotoDefinitionParams) -> Option<lt::GotoDefinitionResponse> {
    let (a, file, offset) = locate(s, &p.text_document_position_params)?;
    let n = a.names();
    let loc = match n.at(file, offset) {
        Some(o) => {
            let key = n.resolve(o)?;
            match key {
                Key::Node(id) => board_id(s, a, &id)?,
                _ => {
                    let decl = declaration(n, &key, o.span)?;
                    location(s, a, decl)
                }
            }
        }
        None => file_link(a, file, offset)?,
    };
    Some(lt::GotoDefinitionResponse::Scalar(loc))
}

/// The declaration a name leads to: the outermost one, or from a
/// declaration that overrides, the next one down the chain (the base's).
fn declaration(n: &Names, key: &Key, from: Span) -> Option<Span> {
    let decls: Vec<_> = n.decls_of(key).collect();
    match decls.iter().position(|d| d.span == from) {
        Some(i) if decls[i].is_override => decls.get(i + 1).map(|d| d.span),
        Some(i) => Some(decls[i].span),
        None => decls.first().map(|d| d.span),
    }
}

/// `extends "base.rules"` or `board "x.toml"` under the cursor: the file.
fn file_link(a: &Analysis, file: u32, offset: u32) -> Option<lt::Location> {
    let (_, tree) = a.trees().iter().find(|(f, _)| *f == file)?;
    let dir = a
        .path(file)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let target = if let Some((base, sp)) =
        super::names::extends(tree).filter(|(_, sp)| sp.start <= offset && offset <= sp.end)
    {
        let _ = sp;
        dir.join(base)
    } else {
        let it = tree
            .items
            .iter()
            .find(|it| it.span.start <= offset && offset <= it.span.end)?;
        match &it.kind {
            ItemKind::Board { path, .. } => dir.join(path),
            _ => return None,
        }
    };
    Some(lt::Location::new(
        path_uri(&normal(&target)),
        lt::Range::default(),
    ))
}

/// The `id = "…"` of a node or an edge in the board files read.
fn board_id(s: &Server, a: &Analysis, id: &str) -> Option<lt::Location> {
    let needle = format!("\"{id}\"");
    (0..a.sources.files.len() as u32)
        .filter(|&f| a.sources.get(f).name.ends_with(".toml"))
        .find_map(|f| {
            let text = a.text(f);
            let at = text
                .match_indices(&needle)
                .find(|(i, _)| text[..*i].trim_end().ends_with("id ="))
                .or_else(|| text.match_indices(&needle).next())?
                .0;
            let span = Span::new(f, at + 1, at + needle.len() - 1);
            Some(location(s, a, span))
        })
}

pub fn references(s: &Server, p: &lt::ReferenceParams) -> Option<Vec<lt::Location>> {
    let (a, file, offset) = locate(s, &p.text_document_position)?;
    let key = key_at(a, file, offset)?;
    let n = a.names();
    let decls: Vec<Span> = n.decls_of(&key).map(|d| d.span).collect();
    Some(
        n.references(&key)
            .into_iter()
            .filter(|sp| p.context.include_declaration || !decls.contains(sp))
            .map(|sp| location(s, a, sp))
            .collect(),
    )
}

pub fn prepare_rename(
    s: &Server,
    p: &lt::TextDocumentPositionParams,
) -> Option<lt::PrepareRenameResponse> {
    let (a, file, offset) = locate(s, p)?;
    let n = a.names();
    let o = n.at(file, offset)?;
    match n.resolve(o)? {
        Key::Node(_) => None,
        _ => Some(lt::PrepareRenameResponse::Range(
            location(s, a, o.span).range,
        )),
    }
}

/// Every occurrence of the name, in every file of the variant chain.
// The protocol's `WorkspaceEdit` keys its changes by `Uri`, which clippy
// counts as a mutable key; nothing here mutates one.
#[allow(clippy::mutable_key_type)]
pub fn rename(s: &Server, p: &lt::RenameParams) -> Result<Option<lt::WorkspaceEdit>, String> {
    let new = p.new_name.trim();
    let valid = new
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && new.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid
        || crate::syntax::keywords::KEYWORDS
            .iter()
            .any(|k| k.word == new)
    {
        return Err(format!("`{new}` is not a name the rules can use"));
    }
    let Some((a, file, offset)) = locate(s, &p.text_document_position) else {
        return Ok(None);
    };
    let Some(key) = key_at(a, file, offset) else {
        return Ok(None);
    };
    if matches!(key, Key::Node(_)) {
        return Err("a board id is renamed in the board file".into());
    }
    let mut changes: HashMap<lt::Uri, Vec<lt::TextEdit>> = HashMap::new();
    for sp in a.names().references(&key) {
        let loc = location(s, a, sp);
        changes
            .entry(loc.uri)
            .or_default()
            .push(lt::TextEdit::new(loc.range, new.to_string()));
    }
    Ok(Some(lt::WorkspaceEdit {
        changes: Some(changes),
        ..Default::default()
    }))
}
