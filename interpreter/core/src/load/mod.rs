//! Loading a ruleset: reading the file (through the caller's reader, so that
//! this module does no IO of its own), parsing it, and merging a variant onto
//! its base. A variant may only `override` what its base declares, and may
//! not redeclare it without `override`.

use crate::ast::{File, Header, Item, ItemKind};
use crate::diag::{Diagnostic, Diagnostics, Sources, Span};
use crate::syntax;
use std::path::{Path, PathBuf};

mod blocks;

/// Reads a file for the checker. The CLI passes the real file system; tests
/// may pass a map of in-memory files.
pub type Reader<'a> = &'a dyn Fn(&Path) -> std::io::Result<String>;

/// A ruleset after variant merging, ready for checking.
#[derive(Clone)]
pub struct Merged {
    pub game_name: String,
    /// Variant names from the outermost inwards.
    pub variants: Vec<String>,
    pub items: Vec<Item>,
    /// The file whose directory relative paths (the board) are resolved against,
    /// for each item's file id.
    pub dirs: Vec<(u32, PathBuf)>,
    /// The declarations a variant's `override` replaced, in the order they
    /// were replaced (a chain of variants may replace one name twice): the
    /// checker holds an override to the type of what it replaced (E0307).
    pub replaced: Vec<Item>,
    /// The syntax errors of the files read and what recovery set aside;
    /// `items` holds what parsed. Empty but from [`load_recovering`].
    pub recovered: Recovered,
}

/// Syntax errors that recovery parsed past (`syntax::parse_recovering`).
#[derive(Clone, Debug, Default)]
pub struct Recovered {
    pub errors: Diagnostics,
    pub set_aside: crate::syntax::SetAside,
}

/// Like [`load`], but a file with syntax errors still gives the items that
/// parsed, with the errors in [`Merged::recovered`]; a file the parser could
/// not recover from at all is an error as before.
pub fn load_recovering(
    sources: &mut Sources,
    read: Reader,
    path: &Path,
) -> Result<Merged, Diagnostics> {
    load_depth(sources, read, path, None, 0)
}

/// Reads and parses `path`, following `extends` chains (at most 16 deep).
pub fn load(
    sources: &mut Sources,
    read: Reader,
    path: &Path,
    from: Option<Span>,
) -> Result<Merged, Diagnostics> {
    let merged = load_depth(sources, read, path, from, 0)?;
    if merged.recovered.errors.is_empty() {
        Ok(merged)
    } else {
        Err(merged.recovered.errors)
    }
}

fn load_depth(
    sources: &mut Sources,
    read: Reader,
    path: &Path,
    from: Option<Span>,
    depth: usize,
) -> Result<Merged, Diagnostics> {
    let text = match read(path) {
        Ok(t) => t,
        Err(e) => {
            let mut d = Diagnostic::error("E0001", format!("cannot read `{}`: {}", path.display(), e))
                .help("check the path; relative paths in `extends` are taken from the variant file's folder");
            if let Some(s) = from {
                d = d.at(s, "named here");
            }
            return Err(vec![d]);
        }
    };
    let file = sources.add(path.display().to_string(), text);
    let parsed = syntax::parse_recovering(sources, file);
    let Some(ast): Option<File> = parsed.file else {
        return Err(parsed.errors);
    };
    let mut recovered = Recovered {
        errors: parsed.errors,
        set_aside: parsed.set_aside,
    };
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    match ast.header {
        Header::Game { name, .. } => {
            let mut errors = vec![];
            for it in &ast.items {
                if let ItemKind::BlockOverride { .. } = it.kind {
                    if !it.is_override {
                        errors.push(block_without_override(it.span));
                        continue;
                    }
                }
                if it.is_override {
                    errors.push(
                        Diagnostic::error("E0302", "`override` outside a variant")
                            .at(it.span, "this file is a base game, so there is nothing to override")
                            .help("remove `override`, or start the file with `variant \"…\" extends \"base.rules\"`"),
                    );
                }
            }
            if !errors.is_empty() {
                recovered.errors.extend(errors);
                return Err(recovered.errors);
            }
            Ok(Merged {
                game_name: name,
                variants: vec![],
                items: ast.items,
                replaced: vec![],
                dirs: vec![(file, dir)],
                recovered,
            })
        }
        Header::Variant {
            name,
            base,
            base_span,
            ..
        } => {
            if depth >= 16 {
                return Err(vec![Diagnostic::error(
                    "E0303",
                    "variants extend each other too deeply (a cycle?)",
                )
                .at(base_span, "extended here")
                .help("a variant chain may be at most 16 files long")]);
            }
            let base_path = dir.join(&base);
            let mut merged = load_depth(sources, read, &base_path, Some(base_span), depth + 1)?;
            merged.variants.insert(0, name);
            merged.dirs.push((file, dir));
            let ours = &mut merged.recovered;
            ours.errors.append(&mut recovered.errors);
            ours.set_aside.spans.append(&mut recovered.set_aside.spans);
            ours.set_aside.words.append(&mut recovered.set_aside.words);
            if let Err(mut d) = merge(&mut merged.items, &mut merged.replaced, ast.items) {
                let mut all = std::mem::take(&mut merged.recovered.errors);
                all.append(&mut d);
                return Err(all);
            }
            Ok(merged)
        }
    }
}

/// E0306: `block BODY.NAME { … }` outside a body means a replacement, which
/// a variant writes `override block`.
fn block_without_override(span: Span) -> Diagnostic {
    Diagnostic::error("E0306", "a block outside a body replaces a base's block, so it needs `override`")
        .at(span, "not inside a procedure, phase or action")
        .help("in a variant write `override block BODY.NAME { … }`; in a base game, write `block NAME { … }` inside the procedure, phase or action it belongs to")
}

fn merge(
    base: &mut Vec<Item>,
    replaced: &mut Vec<Item>,
    variant: Vec<Item>,
) -> Result<(), Diagnostics> {
    let mut errors = vec![];
    for item in variant {
        if let ItemKind::BlockOverride {
            body_name,
            name,
            body,
        } = item.kind
        {
            if !item.is_override {
                errors.push(block_without_override(item.span));
            } else if let Err(d) = blocks::apply(base, &body_name, &name, body) {
                errors.push(d);
            }
            continue;
        }
        let key = item.kind.key();
        // `override board "x.toml"` replaces every board of the base, also a
        // base that names one board per range of player counts.
        if item.is_override
            && key.0 == "board"
            && key.1.is_empty()
            && base.iter().any(|b| b.kind.key().0 == "board")
        {
            base.retain(|b| b.kind.key().0 != "board");
            base.push(item);
            continue;
        }
        let found = base.iter().position(|b| b.kind.key() == key);
        match (item.is_override, found) {
            (true, Some(i)) => replaced.push(std::mem::replace(&mut base[i], item)),
            (true, None) => {
                let what = if key.1.is_empty() {
                    format!("`{}`", key.0)
                } else {
                    format!("{} `{}`", key.0, key.1)
                };
                let similar: Vec<String> = base
                    .iter()
                    .map(|b| b.kind.key())
                    .filter(|k| k.0 == key.0 && !k.1.is_empty())
                    .map(|k| format!("`{}`", k.1))
                    .collect();
                let help = if similar.is_empty() {
                    format!(
                        "the base declares no {} at all; drop `override` to add a new one",
                        key.0
                    )
                } else {
                    format!(
                        "the base's {}s are {}; drop `override` to add a new one",
                        key.0,
                        similar.join(", ")
                    )
                };
                errors.push(
                    Diagnostic::error(
                        "E0301",
                        format!("this variant overrides {what}, which the base does not have"),
                    )
                    .at(item.span, "overrides nothing")
                    .help(help),
                );
            }
            (false, Some(i)) if key.0 != "invariant" => {
                errors.push(
                    Diagnostic::error(
                        "E0304",
                        format!(
                            "`{}` is already declared by the base ruleset",
                            if key.1.is_empty() {
                                key.0.to_string()
                            } else {
                                key.1.clone()
                            }
                        ),
                    )
                    .at(item.span, "declared again here")
                    .at(base[i].span, "the base's declaration")
                    .help("write `override` in front to replace the base's declaration"),
                );
            }
            _ => base.push(item),
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}
