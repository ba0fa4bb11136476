//! A TOML document as a tree in which every key and every value keeps its byte span.
//!
//! `toml::Value` forgets where things were, and deserialising straight into typed
//! structs stops at the first problem. The board stage wants both: the position of
//! every key and value (so each diagnostic points at the exact text) and the whole
//! tree at once (so it can report every problem in one pass). This module therefore
//! deserialises the file into [`Raw`], a small spanned value tree, and leaves all
//! validation to `load.rs`.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::ops::Range;

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

/// A table key and where it was written. Keys that toml cannot place (it always
/// can for document keys, but the deserialiser API allows it not to) get no span.
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

// These names are how `serde_spanned` (which `toml::Spanned` re-exports) asks the
// toml deserialiser for a span. A key of the hidden date-time map comes without a
// span, so the key type must accept both a spanned map and a bare string; that is
// why it cannot simply be `Spanned<String>`.
const SPANNED_NAME: &str = "$__serde_spanned_private_Spanned";
const SPANNED_START: &str = "$__serde_spanned_private_start";
const SPANNED_END: &str = "$__serde_spanned_private_end";
const SPANNED_VALUE: &str = "$__serde_spanned_private_value";
const SPANNED_FIELDS: &[&str] = &[SPANNED_START, SPANNED_END, SPANNED_VALUE];
/// The key under which toml hands a date-time to a generic visitor.
const DATETIME_FIELD: &str = "$__toml_private_datetime";

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a table key")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key, E> {
                Ok(Key {
                    name: s.to_owned(),
                    span: None,
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Key, A::Error> {
                let (mut start, mut end, mut name) = (None, None, None);
                while let Some(k) = map.next_key::<String>()? {
                    match k.as_str() {
                        SPANNED_START => start = Some(map.next_value::<usize>()?),
                        SPANNED_END => end = Some(map.next_value::<usize>()?),
                        SPANNED_VALUE => name = Some(map.next_value::<String>()?),
                        _ => return Err(de::Error::custom("unexpected field in a spanned key")),
                    }
                }
                let name = name.ok_or_else(|| de::Error::custom("spanned key without a value"))?;
                let span = match (start, end) {
                    (Some(s), Some(e)) => Some(s..e),
                    _ => None,
                };
                Ok(Key { name, span })
            }
        }
        d.deserialize_struct(SPANNED_NAME, SPANNED_FIELDS, KeyVisitor)
    }
}

/// A value and its byte span. Unlike `toml::Spanned`, this also accepts the
/// implicit tables that a header such as `[defaults.node]` creates (`defaults`
/// here), which toml cannot give a span; the enclosing table then lends them the
/// span of their key.
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

impl<'de> Deserialize<'de> for Spanned<Raw> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Spanned<Raw>, D::Error> {
        d.deserialize_struct(SPANNED_NAME, SPANNED_FIELDS, RawVisitor)
    }
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Raw, D::Error> {
        Ok(d.deserialize_any(RawVisitor)?.value)
    }
}

/// Visits any TOML value. A map is one of three things, told apart by its first
/// key: toml's spanned wrapper (start, end, value), toml's hidden date-time, or
/// an ordinary table.
struct RawVisitor;

fn bare(value: Raw) -> Spanned<Raw> {
    Spanned { value, span: None }
}

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Spanned<Raw>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a TOML value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(bare(Raw::Bool(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(bare(Raw::Int(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        // TOML integers are signed 64-bit, so this only happens for values toml
        // itself accepted; clamp instead of failing to stay panic-free.
        Ok(bare(Raw::Int(i64::try_from(v).unwrap_or(i64::MAX))))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(bare(Raw::Float))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(bare(Raw::Str(v.to_owned())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(bare(Raw::Str(v)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Raw>>()? {
            items.push(item);
        }
        Ok(bare(Raw::Array(items)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entries = Vec::new();
        let (mut start, mut end) = (None, None);
        while let Some(key) = map.next_key::<Key>()? {
            if key.span.is_none() && entries.is_empty() {
                match key.name.as_str() {
                    SPANNED_START => {
                        start = Some(map.next_value::<usize>()?);
                        continue;
                    }
                    SPANNED_END => {
                        end = Some(map.next_value::<usize>()?);
                        continue;
                    }
                    SPANNED_VALUE => {
                        let mut inner = map.next_value_seed(SpannedSeed)?;
                        if let (Some(s), Some(e)) = (start, end) {
                            inner.span = Some(s..e);
                        }
                        return Ok(inner);
                    }
                    DATETIME_FIELD => {
                        map.next_value::<String>()?;
                        return Ok(bare(Raw::Datetime));
                    }
                    _ => {}
                }
            }
            let mut value = map.next_value::<Spanned<Raw>>()?;
            if value.span.is_none() {
                value.span = key.span.clone();
            }
            entries.push((key, value));
        }
        Ok(bare(Raw::Table(entries)))
    }
}

/// Deserialises the inner value of a spanned wrapper with [`RawVisitor`].
struct SpannedSeed;

impl<'de> de::DeserializeSeed<'de> for SpannedSeed {
    type Value = Spanned<Raw>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Spanned<Raw>, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

/// Parses a whole document. On a syntax error returns toml's message and span.
pub(crate) fn parse(text: &str) -> Result<Entries, (String, Option<Range<usize>>)> {
    match toml::from_str::<Raw>(text) {
        Ok(Raw::Table(entries)) => Ok(entries),
        Ok(other) => Err((
            format!("expected a TOML document, found {}", other.describe()),
            None,
        )),
        Err(e) => Err((e.message().to_owned(), e.span())),
    }
}
