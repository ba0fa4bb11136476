//! Editor files generated from the keyword table (`syntax/keywords.rs`), so
//! that highlighting cannot drift from the parser: the TextMate grammar
//! (`editors/regel.tmLanguage.json`, copied into the VS Code extension) and
//! the keyword lists for a browser editor (`editors/keywords.json`). The test
//! fails when a file differs from what the table gives; run it with
//! `REGEL_WRITE_EDITORS=1` to write them again, and commit the result.

use regel::syntax::keywords::{Keyword, KeywordKind, KEYWORDS};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The name a kind has in `keywords.json`.
fn kind_name(k: KeywordKind) -> &'static str {
    match k {
        KeywordKind::Header => "header",
        KeywordKind::Declaration => "declaration",
        KeywordKind::Statement => "statement",
        KeywordKind::Operator => "operator",
        KeywordKind::Literal => "literal",
        KeywordKind::Type => "type",
        KeywordKind::Modifier => "modifier",
    }
}

/// The TextMate scope of a kind (names editors' themes know).
fn scope(k: KeywordKind) -> &'static str {
    match k {
        KeywordKind::Header | KeywordKind::Declaration => "keyword.declaration.regel",
        KeywordKind::Statement => "keyword.control.regel",
        KeywordKind::Operator => "keyword.operator.word.regel",
        KeywordKind::Literal => "constant.language.regel",
        KeywordKind::Type => "support.type.regel",
        KeywordKind::Modifier => "storage.modifier.regel",
    }
}

const KINDS: [KeywordKind; 7] = [
    KeywordKind::Header,
    KeywordKind::Declaration,
    KeywordKind::Statement,
    KeywordKind::Operator,
    KeywordKind::Literal,
    KeywordKind::Type,
    KeywordKind::Modifier,
];

fn words(f: impl Fn(&Keyword) -> bool) -> Vec<&'static str> {
    let mut w: Vec<_> = KEYWORDS.iter().filter(|k| f(k)).map(|k| k.word).collect();
    // Longest first, so that an alternation never stops at a prefix.
    w.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    w
}

/// A pattern for the words of one kind (`reserved` or not). A word after
/// `.` is a field name (`e.from`, `w.owner`), never a keyword.
fn word_pattern(kind: KeywordKind, reserved: bool) -> Option<Value> {
    let ws = words(|k| {
        k.kind == kind
            && k.reserved == reserved
            // Declarations that are not reserved are keywords at the start of a line only.
            && (reserved || kind != KeywordKind::Declaration)
            // `N x { … }`: the one-letter word is matched with its braces below.
            && k.word != "x"
    });
    (!ws.is_empty()).then(|| {
        json!({
            "name": scope(kind),
            "match": format!("(?<![.\\w])({})\\b", ws.join("|")),
        })
    })
}

fn grammar() -> Value {
    let declarations = words(|k| k.kind == KeywordKind::Declaration && !k.reserved);
    let mut keywords = vec![json!({
        "comment": "A declaration word at the start of a line, after an optional `override`.",
        "match": format!("^\\s*(?:(override)\\s+)?({})\\b", declarations.join("|")),
        "captures": {
            "1": { "name": scope(KeywordKind::Declaration) },
            "2": { "name": scope(KeywordKind::Declaration) },
        },
    })];
    for reserved in [true, false] {
        keywords.extend(KINDS.iter().filter_map(|&k| word_pattern(k, reserved)));
    }
    keywords.push(json!({
        "comment": "`N x { … }`: how many pieces of a kind.",
        "match": "\\b[0-9]+\\s+(x)(?=\\s*\\{)",
        "captures": { "1": { "name": scope(KeywordKind::Modifier) } },
    }));
    json!({
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "comment": "Generated from interpreter/core/src/syntax/keywords.rs by interpreter/tests/editors.rs; do not edit by hand.",
        "name": "Regel",
        "scopeName": "source.regel",
        "fileTypes": ["rules"],
        "patterns": [
            { "include": "#comment" },
            { "include": "#string" },
            { "include": "#code" },
        ],
        "repository": {
            "comment": {
                "name": "comment.line.number-sign.regel",
                "match": "#.*$",
            },
            "string": {
                "name": "string.quoted.double.regel",
                "begin": "\"",
                "end": "\"",
                "patterns": [
                    { "name": "constant.character.escape.regel", "match": "\\{\\{" },
                    {
                        "comment": "A `{…}` template hole: an expression, which may quote text of its own.",
                        "name": "meta.embedded.expression.regel",
                        "begin": "\\{(?=[^{}\"]*(?:\"[^{}\"]*\"[^{}\"]*)*\\})",
                        "end": "\\}",
                        "beginCaptures": { "0": { "name": "punctuation.section.embedded.begin.regel" } },
                        "endCaptures": { "0": { "name": "punctuation.section.embedded.end.regel" } },
                        "patterns": [
                            { "name": "string.quoted.double.regel", "match": "\"[^{}\"]*\"" },
                            { "include": "#code" },
                        ],
                    },
                ],
            },
            "code": {
                "patterns": [
                    { "include": "#keywords" },
                    { "name": "constant.other.node.regel", "match": "@[A-Za-z0-9_-]+" },
                    { "name": "constant.numeric.integer.regel", "match": "\\b[0-9]+\\b" },
                    { "name": "entity.name.function.regel", "match": "\\b[A-Za-z_][A-Za-z0-9_]*(?=\\()" },
                    { "name": "keyword.operator.regel", "match": "==|!=|<=|>=|\\+=|-=|->|\\.\\.|[-+*/%<>=]" },
                ],
            },
            "keywords": { "patterns": keywords },
        },
    })
}

fn keywords_json() -> Value {
    let by_kind: serde_json::Map<String, Value> = KINDS
        .iter()
        .map(|&k| {
            let mut w: Vec<_> = KEYWORDS
                .iter()
                .filter(|x| x.kind == k)
                .map(|x| x.word)
                .collect();
            w.sort();
            (kind_name(k).to_string(), json!(w))
        })
        .collect();
    let mut reserved: Vec<_> = KEYWORDS
        .iter()
        .filter(|k| k.reserved)
        .map(|k| k.word)
        .collect();
    reserved.sort();
    json!({
        "comment": "Generated from interpreter/core/src/syntax/keywords.rs by interpreter/tests/editors.rs; do not edit by hand.",
        "reserved": reserved,
        "byKind": by_kind,
        "keywords": KEYWORDS.iter().map(|k| json!({
            "word": k.word,
            "kind": kind_name(k.kind),
            "reserved": k.reserved,
            "introduces": k.introduces,
        })).collect::<Vec<_>>(),
    })
}

/// Compares (or, with `REGEL_WRITE_EDITORS=1`, writes) a generated file.
fn holds(rel: &str, value: &Value) {
    let path = workspace().join(rel);
    let text = serde_json::to_string_pretty(value).unwrap() + "\n";
    if std::env::var_os("REGEL_WRITE_EDITORS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == text,
        "{rel} differs from what syntax/keywords.rs gives; run `REGEL_WRITE_EDITORS=1 cargo test -p regel --test editors` and commit it"
    );
}

#[test]
fn the_textmate_grammar_is_generated_from_the_keyword_table() {
    let g = grammar();
    holds("editors/regel.tmLanguage.json", &g);
    holds("editors/vscode/syntaxes/regel.tmLanguage.json", &g);
}

#[test]
fn the_keyword_lists_are_generated_from_the_keyword_table() {
    holds("editors/keywords.json", &keywords_json());
}

/// Every keyword appears in the grammar: the table is the only list.
#[test]
fn every_keyword_is_highlighted() {
    let text = serde_json::to_string(&grammar()).unwrap();
    for k in KEYWORDS {
        assert!(
            text.contains(&format!("|{}|", k.word))
                || text.contains(&format!("({}|", k.word))
                || text.contains(&format!("|{})", k.word))
                || text.contains(&format!("({})", k.word)),
            "`{}` is not in the grammar",
            k.word
        );
    }
}
