//! Typed reading of TOML values, attribute columns and piece groups.
//!
//! Everything here reports problems into a [`Cx`] and carries on, so that the
//! loader can collect every problem in one pass.

use super::raw::{Key, Raw, Spanned};
use super::{AttrColumn, AttrValue, PieceGroup};
use crate::diag::{Diagnostic, Diagnostics, Span};
use indexmap::IndexMap;
use std::ops::Range;

pub(super) type Table = [(Key, Spanned<Raw>)];

/// One attribute (or piece field) as written.
pub(super) struct Attr {
    pub(super) name: String,
    pub(super) value: AttrValue,
    pub(super) key: Span,
    pub(super) val: Span,
}

/// Something that carries attributes: a node, an edge or a piece group.
pub(super) struct Item {
    /// How messages name it: "node `harbour`".
    pub(super) label: String,
    pub(super) span: Span,
    pub(super) attrs: Vec<Attr>,
}

/// How one family of columns is named in messages.
pub(super) struct Family<'a> {
    /// "node attribute", "edge attribute", "field of `tile` pieces".
    pub(super) what: String,
    /// Plural of the item noun: "nodes", "edges", "groups".
    pub(super) items: &'a str,
    /// The defaults table that could supply a missing value, if there is one.
    pub(super) defaults: Option<&'a str>,
}

pub(super) struct Cx {
    pub(super) file: u32,
    pub(super) diags: Diagnostics,
}

impl Cx {
    pub(super) fn span(&self, r: Range<usize>) -> Span {
        Span::new(self.file, r.start, r.end)
    }
    pub(super) fn val(&self, v: &Spanned<Raw>) -> Span {
        self.span(v.span())
    }
    pub(super) fn key(&self, k: &Key, v: &Spanned<Raw>) -> Span {
        k.span
            .clone()
            .map(|r| self.span(r))
            .unwrap_or_else(|| self.val(v))
    }
    pub(super) fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    pub(super) fn wrong_type(
        &mut self,
        path: &str,
        v: &Spanned<Raw>,
        expected: &str,
        example: &str,
    ) {
        let span = self.val(v);
        self.push(
            Diagnostic::error(
                "E0503",
                format!(
                    "`{path}` must be {expected}, not {}",
                    v.get_ref().describe()
                ),
            )
            .at(span, format!("expected {expected}"))
            .help(format!("write it like `{example}`")),
        );
    }

    pub(super) fn unknown_key(&mut self, k: &Key, v: &Spanned<Raw>, place: &str, known: &[&str]) {
        let span = self.key(k, v);
        let help = match closest(&k.name, known.iter().copied()) {
            Some(best) => format!(
                "did you mean `{best}`? {place} allows: {}",
                known.join(", ")
            ),
            None => format!("{place} allows: {}", known.join(", ")),
        };
        self.push(
            Diagnostic::error("E0502", format!("unknown key `{}` in {place}", k.name))
                .at(span, "not part of the board format")
                .help(help),
        );
    }

    pub(super) fn table<'a>(&mut self, path: &str, v: &'a Spanned<Raw>) -> Option<&'a Table> {
        match v.get_ref() {
            Raw::Table(t) => Some(t),
            _ => {
                self.wrong_type(path, v, "a table", &format!("[{path}]"));
                None
            }
        }
    }

    /// The tables of an array of tables such as `[[node]]`.
    pub(super) fn tables<'a>(&mut self, path: &str, v: &'a Spanned<Raw>) -> Vec<(&'a Table, Span)> {
        let example = format!("[[{path}]]");
        let Raw::Array(items) = v.get_ref() else {
            self.wrong_type(path, v, "a list of tables", &example);
            return vec![];
        };
        let mut out = Vec::new();
        for item in items {
            match item.get_ref() {
                Raw::Table(t) => out.push((t.as_slice(), self.val(item))),
                _ => self.wrong_type(path, item, "a table", &example),
            }
        }
        out
    }

    pub(super) fn string(&mut self, path: &str, v: &Spanned<Raw>) -> Option<String> {
        match v.get_ref() {
            Raw::Str(s) => Some(s.clone()),
            _ => {
                self.wrong_type(path, v, "a string", &format!("{} = \"…\"", last(path)));
                None
            }
        }
    }

    pub(super) fn boolean(&mut self, path: &str, v: &Spanned<Raw>) -> Option<bool> {
        match v.get_ref() {
            Raw::Bool(b) => Some(*b),
            _ => {
                self.wrong_type(path, v, "a boolean", &format!("{} = true", last(path)));
                None
            }
        }
    }

    /// An attribute or piece field: its name must be an identifier and its value
    /// an int, bool or string.
    pub(super) fn attr(&mut self, k: &Key, v: &Spanned<Raw>, what: &str) -> Option<Attr> {
        let key = self.key(k, v);
        let name_ok = is_ident(&k.name);
        if !name_ok {
            self.push(
                Diagnostic::error("E0517", format!("{what} name `{}` is not an identifier", k.name))
                    .at(key, "the rules could not name this")
                    .help("use letters, digits and `_`, starting with a letter or `_` (for example `warehouse_count`)"),
            );
        }
        let value = match v.get_ref() {
            Raw::Int(i) => AttrValue::Int(*i),
            Raw::Bool(b) => AttrValue::Bool(*b),
            Raw::Str(s) => AttrValue::Str(s.clone()),
            other => {
                let span = self.val(v);
                self.push(
                    Diagnostic::error("E0510", format!("{what} `{}` is {}", k.name, other.describe()))
                        .at(span, "only integers, booleans and strings are allowed here")
                        .help(match other {
                            Raw::Float => "use an integer (for example scale the value: 15 instead of 1.5)",
                            Raw::Datetime => "write it as a string in quotes",
                            _ => "split it into several attributes, each an integer, a boolean or a string",
                        }),
                );
                return None;
            }
        };
        name_ok.then(|| Attr {
            name: k.name.clone(),
            value,
            key,
            val: self.val(v),
        })
    }

    pub(super) fn reserved(&mut self, k: &Key, v: &Spanned<Raw>, place: &str, why: &str) {
        let span = self.key(k, v);
        self.push(
            Diagnostic::error(
                "E0514",
                format!(
                    "`{}` is a reserved name and cannot be used in {place}",
                    k.name
                ),
            )
            .at(span, "reserved")
            .help(why.to_owned()),
        );
    }

    pub(super) fn missing(&mut self, key: &str, in_what: &str, span: Span, example: &str) {
        self.push(
            Diagnostic::error("E0515", format!("{in_what} has no `{key}`"))
                .at(span, format!("`{key}` is required here"))
                .help(format!("add `{example}`")),
        );
    }
}

/// Letters, digits and `_`, not starting with a digit.
pub(super) fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// "an int", "a bool", "a string".
pub(super) fn article(ty: &str) -> String {
    match ty {
        "int" => "an int".to_owned(),
        _ => format!("a {ty}"),
    }
}

/// Edit distance between two strings, counted in characters.
pub(super) fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// The candidate nearest to `name`, if it is near enough to be a likely typo.
pub(super) fn closest<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .map(|c| (levenshtein(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Builds one typed column per attribute name, reporting mixed types (E0508) and
/// missing values without a default (E0509). Columns come in the order in which
/// the items first name them, then attributes that only a default gives.
pub(super) fn columns(
    cx: &mut Cx,
    items: &[Item],
    defaults: &[Attr],
    fam: &Family,
) -> IndexMap<String, AttrColumn> {
    let mut first: IndexMap<&str, Span> = IndexMap::new();
    for a in items.iter().flat_map(|it| &it.attrs).chain(defaults) {
        first.entry(a.name.as_str()).or_insert(a.key);
    }
    let mut out = IndexMap::new();
    for (name, span) in first {
        let default = defaults.iter().find(|d| d.name == name);
        // A default fixes the column's type; without one, the first item that gives it does.
        let reference = default
            .map(|d| (d, "in the default".to_owned()))
            .or_else(|| {
                items.iter().find_map(|it| {
                    it.attrs
                        .iter()
                        .find(|a| a.name == name)
                        .map(|a| (a, format!("on {}", it.label)))
                })
            });
        let Some((reference, ref_where)) = reference else {
            continue;
        };
        let ty = reference.value.type_name();
        let mut values = Vec::with_capacity(items.len());
        let mut spans = Vec::with_capacity(items.len());
        let mut missing: Vec<&Item> = Vec::new();
        for it in items {
            match it.attrs.iter().find(|a| a.name == name) {
                Some(a) => {
                    if a.value.type_name() != ty {
                        let (this, that) = (article(a.value.type_name()), article(ty));
                        cx.push(
                            Diagnostic::error(
                                "E0508",
                                format!(
                                    "{} `{name}` mixes types: {this} on {}, {that} {ref_where}",
                                    fam.what, it.label
                                ),
                            )
                            .at(a.val, format!("this is {this}"))
                            .at(reference.val, format!("this makes `{name}` {that}"))
                            .help(format!("every value of `{name}` must have the same type; write {that} here")),
                        );
                    }
                    values.push(a.value.clone());
                    spans.push(a.val);
                }
                None => {
                    if default.is_none() {
                        missing.push(it);
                    }
                    values.push(reference.value.clone());
                    spans.push(reference.val);
                }
            }
        }
        if let Some(first_missing) = missing.first() {
            let names: Vec<String> = missing.iter().take(5).map(|it| it.label.clone()).collect();
            let mut on = names.join(", ");
            if missing.len() > 5 {
                on.push_str(&format!(" and {} more {}", missing.len() - 5, fam.items));
            }
            let help = match fam.defaults {
                Some(table) => {
                    format!("give `{name}` on every one of them, or add a default: `[{table}]` `{name} = …`")
                }
                None => format!("give `{name}` on every one of them"),
            };
            cx.push(
                Diagnostic::error("E0509", format!("{} `{name}` is missing on {on}", fam.what))
                    .at(first_missing.span, format!("no `{name}` here"))
                    .at(span, format!("`{name}` is given here"))
                    .help(help),
            );
        }
        out.insert(
            name.to_owned(),
            AttrColumn {
                values,
                spans,
                span,
            },
        );
    }
    out
}

/// Reads `[[pieces.<kind>]]` groups and checks that the groups of one kind agree
/// on their fields, so that the rules can treat a kind as one record type.
pub(super) fn read_pieces(cx: &mut Cx, v: &Spanned<Raw>) -> IndexMap<String, Vec<PieceGroup>> {
    let mut out = IndexMap::new();
    for (kind_key, groups_v) in cx.table("pieces", v).unwrap_or(&[]) {
        let kind = &kind_key.name;
        if !is_ident(kind) {
            let span = cx.key(kind_key, groups_v);
            cx.push(
                Diagnostic::error("E0517", format!("piece kind `{kind}` is not an identifier"))
                    .at(span, "the rules could not name this")
                    .help("use letters, digits and `_`, starting with a letter or `_`"),
            );
        }
        let mut groups = Vec::new();
        let mut items = Vec::new();
        for (n, (t, span)) in cx
            .tables(&format!("pieces.{kind}"), groups_v)
            .into_iter()
            .enumerate()
        {
            let mut count = 1;
            let mut attrs = Vec::new();
            for (k, val) in t {
                match k.name.as_str() {
                    "count" => match val.get_ref() {
                        Raw::Int(i) if *i >= 1 && *i <= i64::from(u32::MAX) => count = *i as u32,
                        other => {
                            let s = cx.val(val);
                            let shown = match other {
                                Raw::Int(i) => format!("{i}"),
                                _ => other.describe().to_owned(),
                            };
                            cx.push(
                                Diagnostic::error(
                                    "E0511",
                                    format!("piece count must be a whole number of at least 1, not {shown}"),
                                )
                                .at(s, "invalid count")
                                .help("write `count = 2` for two identical pieces, or leave `count` out for one"),
                            );
                        }
                    },
                    "id" => cx.reserved(
                        k,
                        val,
                        &format!("[[pieces.{kind}]]"),
                        "pieces are identified by kind and position, not by an id field",
                    ),
                    _ => attrs.extend(cx.attr(k, val, "piece field")),
                }
            }
            let fields = attrs
                .iter()
                .map(|a| (a.name.clone(), (a.value.clone(), a.val)))
                .collect();
            items.push(Item {
                label: format!("`{kind}` group {}", n + 1),
                span,
                attrs,
            });
            groups.push(PieceGroup {
                count,
                fields,
                span,
            });
        }
        columns(
            cx,
            &items,
            &[],
            &Family {
                what: format!("`{kind}` piece field"),
                items: "groups",
                defaults: None,
            },
        );
        out.insert(kind.clone(), groups);
    }
    out
}

/// The last segment of a dotted path: `board.name` → `name`.
fn last(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or(path)
}
