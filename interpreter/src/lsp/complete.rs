//! Completion in context: after `x.` the members of `x` (an enumeration's
//! members, a piece kind's fields, per-player and per-node variables and
//! zones); after `@` the board's ids; elsewhere the keywords, the names
//! declared at the top level, the locals bound before the cursor in the same
//! item, and the builtins.

use super::analysis::Analysis;
use super::hover::{builtin, builtins, type_at};
use super::names::{Key, Kind};
use super::navigate::locate;
use super::Server;
use lsp_types as lt;
use std::collections::BTreeMap;

pub fn completion(s: &Server, p: &lt::CompletionParams) -> Option<lt::CompletionResponse> {
    let (a, file, offset) = locate(s, &p.text_document_position)?;
    let text = a.text(file);
    let before = &text[..offset as usize];
    let word_start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let prev = before[..word_start].chars().last();
    let mut items: BTreeMap<String, lt::CompletionItemKind> = BTreeMap::new();
    match prev {
        Some('@') => {
            for id in board_ids(a) {
                items.insert(id, lt::CompletionItemKind::CONSTANT);
            }
        }
        Some('.') => members(a, file, word_start - 1, &mut items),
        _ => everything(a, file, offset, &mut items),
    }
    let list = items
        .into_iter()
        .map(|(label, kind)| lt::CompletionItem {
            detail: (kind == lt::CompletionItemKind::FUNCTION)
                .then(|| builtin(&label))
                .flatten(),
            label,
            kind: Some(kind),
            ..Default::default()
        })
        .collect();
    Some(lt::CompletionResponse::Array(list))
}

fn item_kind(k: Kind) -> lt::CompletionItemKind {
    use lt::CompletionItemKind as C;
    match k {
        Kind::Function | Kind::Procedure | Kind::Phase => C::FUNCTION,
        Kind::Enum => C::ENUM,
        Kind::EnumMember => C::ENUM_MEMBER,
        Kind::Piece => C::STRUCT,
        Kind::Field => C::FIELD,
        Kind::Action => C::EVENT,
        Kind::Const | Kind::Seat => C::CONSTANT,
        _ => C::VARIABLE,
    }
}

/// The members of the value before the dot at byte `dot`.
fn members(
    a: &Analysis,
    file: u32,
    dot: usize,
    out: &mut BTreeMap<String, lt::CompletionItemKind>,
) {
    let names = a.names();
    let text = a.text(file);
    let obj_start = text[..dot]
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let obj = &text[obj_start..dot];
    let is_enum = names
        .decls
        .iter()
        .any(|d| d.kind == Kind::Enum && d.name == obj);
    let ty = names
        .at(file, obj_start as u32)
        .and_then(|o| type_at(a, o.span))
        .unwrap_or("");
    for d in &names.decls {
        let fits = match &d.key {
            Key::EnumMember(e, _) => is_enum && e == obj,
            Key::Field(kind, _) => !is_enum && (ty.is_empty() || ty.contains(kind.as_str())),
            Key::Member(_) => {
                !is_enum
                    && !ty.starts_with("piece")
                    && !a
                        .names()
                        .decls
                        .iter()
                        .any(|k| k.kind == Kind::Piece && k.name == ty)
            }
            _ => false,
        };
        if fits {
            out.insert(d.name.clone(), item_kind(d.kind));
        }
    }
    if !is_enum {
        out.insert("owner".into(), lt::CompletionItemKind::FIELD);
    }
}

/// Keywords, top-level names, the locals before the cursor, builtins.
fn everything(
    a: &Analysis,
    file: u32,
    offset: u32,
    out: &mut BTreeMap<String, lt::CompletionItemKind>,
) {
    for k in crate::syntax::keywords::KEYWORDS {
        out.insert(k.word.to_string(), lt::CompletionItemKind::KEYWORD);
    }
    for b in builtins() {
        out.insert(b.to_string(), lt::CompletionItemKind::FUNCTION);
    }
    let names = a.names();
    let item = names
        .decls
        .iter()
        .filter(|d| d.span.file == file && d.span.start <= offset)
        .map(|d| d.item)
        .max();
    for d in &names.decls {
        let visible = match d.key {
            Key::Global(_) | Key::EnumMember(..) => true,
            Key::Local(..) => d.span.file == file && Some(d.item) == item && d.span.start < offset,
            _ => false,
        };
        if visible {
            out.insert(d.name.clone(), item_kind(d.kind));
        }
    }
}

/// The ids (`id = "…"`) of the board files read.
fn board_ids(a: &Analysis) -> Vec<String> {
    let mut v = vec![];
    for f in 0..a.sources.files.len() as u32 {
        if !a.sources.get(f).name.ends_with(".toml") {
            continue;
        }
        for l in a.text(f).lines() {
            if let Some(rest) = l.trim().strip_prefix("id") {
                if let Some(id) = rest
                    .trim()
                    .strip_prefix('=')
                    .and_then(|r| r.trim().strip_prefix('"'))
                    .and_then(|r| r.split('"').next())
                {
                    v.push(id.to_string());
                }
            }
        }
    }
    v
}
