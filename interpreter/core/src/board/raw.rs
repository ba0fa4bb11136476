//! A TOML document as a tree in which every key and every value keeps its byte span.
//!
//! `toml::Value` forgets where things were, and deserialising straight into typed
//! structs stops at the first problem. The board stage wants both: the position of
//! every key and value (so each diagnostic points at the exact text) and the whole
//! tree at once (so it can report every problem in one pass). This module therefore
//! parses the file with toml_edit, whose document keeps the span of every key and
//! value, copies it into [`Raw`], a small spanned value tree, and leaves all
//! validation to `load.rs`.

use std::ops::Range;
use toml_edit::{ImDocument, Item, TableLike, Value};

/// A TOML value with spans on every nested key and value.
#[derive(Debug, Clone)]
pub(crate) enum Raw {
    Int(i64),
    Float,
    Bool(bool),
    Str(String),
    Datetime,
    Array(Vec<Spanned<Raw>>),
    Table(Entries),
}

/// The entries of a table, in file order.
pub(crate) type Entries = Vec<(Key, Spanned<Raw>)>;

/// A table key and where it was written. toml_edit places every key it parsed;
/// the span stays optional because its API allows a key without one.
#[derive(Debug, Clone)]
pub(crate) struct Key {
    pub name: String,
    pub span: Option<Range<usize>>,
}

impl Raw {
    /// The word used for this kind of value in messages ("an integer", "a table").
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Raw::Int(_) => "an integer",
            Raw::Float => "a float",
            Raw::Bool(_) => "a boolean",
            Raw::Str(_) => "a string",
            Raw::Datetime => "a date-time",
            Raw::Array(_) => "an array",
            Raw::Table(_) => "a table",
        }
    }
}

/// A value and its byte span. The implicit tables that a header such as
/// `[defaults.node]` creates (`defaults` here) have no span in the document;
/// the enclosing table then lends them the span of their key.
#[derive(Debug, Clone)]
pub(crate) struct Spanned<T> {
    value: T,
    span: Option<Range<usize>>,
}

impl<T> Spanned<T> {
    pub(crate) fn get_ref(&self) -> &T {
        &self.value
    }
    pub(crate) fn span(&self) -> Range<usize> {
        self.span.clone().unwrap_or(0..0)
    }
}

/// Parses a whole document. On a syntax error returns toml's message and span.
pub(crate) fn parse(text: &str) -> Result<Entries, (String, Option<Range<usize>>)> {
    match ImDocument::parse(text) {
        Ok(doc) => Ok(table(doc.as_table())),
        Err(e) => Err((e.message().to_owned(), e.span())),
    }
}

/// The entries of a table (a `[header]` table, an inline table or the
/// document), in file order, each value with its own span or its key's.
fn table(t: &dyn TableLike) -> Entries {
    t.iter()
        .filter_map(|(name, _)| t.get_key_value(name))
        .map(|(key, item)| {
            let span = key.span();
            let mut value = spanned(item);
            if value.span.is_none() {
                value.span = span.clone();
            }
            (
                Key {
                    name: key.get().to_owned(),
                    span,
                },
                value,
            )
        })
        .collect()
}

/// One item of the document with the span toml_edit recorded for it.
fn spanned(item: &Item) -> Spanned<Raw> {
    let value = match item {
        // A parsed document holds no empty items; a table would be the
        // nearest harmless reading of one.
        Item::None => Raw::Table(vec![]),
        Item::Value(v) => return value(v),
        Item::Table(t) => Raw::Table(table(t)),
        Item::ArrayOfTables(a) => Raw::Array(
            a.iter()
                .map(|t| Spanned {
                    value: Raw::Table(table(t)),
                    span: t.span(),
                })
                .collect(),
        ),
    };
    Spanned {
        value,
        span: item.span(),
    }
}

fn value(v: &Value) -> Spanned<Raw> {
    let value = match v {
        Value::Integer(i) => Raw::Int(*i.value()),
        Value::Float(_) => Raw::Float,
        Value::Boolean(b) => Raw::Bool(*b.value()),
        Value::String(s) => Raw::Str(s.value().clone()),
        Value::Datetime(_) => Raw::Datetime,
        Value::Array(a) => Raw::Array(a.iter().map(value).collect()),
        Value::InlineTable(t) => Raw::Table(table(t)),
    };
    Spanned {
        value,
        span: v.span(),
    }
}
