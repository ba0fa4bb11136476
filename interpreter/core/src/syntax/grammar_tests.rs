//! Tests that read `grammar.pest` as text: every rule is documented, and the
//! grammar's keywords are exactly the keyword table's, whose reserved
//! words the language reference lists.

use super::keywords::KEYWORDS;
use std::collections::BTreeSet;

const GRAMMAR: &str = include_str!("grammar.pest");

/// One rule of the grammar: its name, the line just above it and its text
/// (from the name to the line before the next rule, comments dropped).
struct GrammarRule {
    name: String,
    above: String,
    body: String,
}

/// A rule starts at a line that begins with a name followed by `=`.
fn rule_name(line: &str) -> Option<&str> {
    let (name, rest) = line.split_once('=')?;
    let name = name.trim_end();
    let ok = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !rest.starts_with('=');
    ok.then_some(name)
}

fn rules() -> Vec<GrammarRule> {
    let mut out: Vec<GrammarRule> = vec![];
    let mut above = "";
    for line in GRAMMAR.lines() {
        if let Some(name) = rule_name(line) {
            out.push(GrammarRule {
                name: name.to_owned(),
                above: above.to_owned(),
                body: String::new(),
            });
        }
        if !line.trim_start().starts_with("//") {
            if let Some(r) = out.last_mut() {
                r.body.push_str(line);
                r.body.push('\n');
            }
        }
        above = line;
    }
    out
}

/// The quoted literals of a rule's text, escapes kept as written.
fn literals(body: &str) -> Vec<String> {
    let mut out = vec![];
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut lit = String::new();
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    lit.push(c);
                    lit.extend(chars.next());
                }
                '"' => break,
                c => lit.push(c),
            }
        }
        out.push(lit);
    }
    out
}

fn is_word(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic())
}

#[test]
fn every_rule_has_a_doc_line() {
    let rules = rules();
    assert!(rules.len() > 150, "found only {} rules", rules.len());
    let missing: Vec<&str> = rules
        .iter()
        .filter(|r| !r.above.starts_with("/// "))
        .map(|r| r.name.as_str())
        .collect();
    assert!(
        missing.is_empty(),
        "rules without a `///` line: {missing:?}"
    );
}

#[test]
fn keywords_match_the_table() {
    let table: BTreeSet<&str> = KEYWORDS.iter().map(|k| k.word).collect();
    assert_eq!(table.len(), KEYWORDS.len(), "a keyword is listed twice");
    let mut words = BTreeSet::new();
    let mut reserved = BTreeSet::new();
    for r in rules() {
        let lits = literals(&r.body);
        if let Some(word) = r.name.strip_prefix("k_") {
            assert_eq!(lits, [word], "rule {} must match the word `{word}`", r.name);
            words.insert(word.to_owned());
        } else if r.name == "keyword" {
            reserved.extend(lits);
        } else {
            // A keyword written inline would escape the table and the
            // word-boundary check of the `k_` rules.
            let inline: Vec<&String> = lits.iter().filter(|l| is_word(l)).collect();
            assert!(
                inline.is_empty(),
                "rule {} spells {inline:?} inline; use a `k_` rule",
                r.name
            );
        }
    }
    let words: BTreeSet<&str> = words.iter().map(String::as_str).collect();
    assert_eq!(words, table, "the grammar's `k_` rules and KEYWORDS differ");
    let reserved: BTreeSet<&str> = reserved.iter().map(String::as_str).collect();
    let table_reserved: BTreeSet<&str> = KEYWORDS
        .iter()
        .filter(|k| k.reserved)
        .map(|k| k.word)
        .collect();
    assert_eq!(
        reserved, table_reserved,
        "the grammar's `keyword` rule and the reserved KEYWORDS differ"
    );
}

#[test]
fn keywords_are_sorted() {
    assert!(KEYWORDS.windows(2).all(|w| w[0].word < w[1].word));
}

/// The language reference lists the reserved words too; it must list the
/// table's.
#[test]
fn the_reference_lists_the_reserved_words() {
    let reference = include_str!("../../../../rulesets/README.md");
    let after = reference
        .split_once("reserved and cannot be names:")
        .expect("the reference lists the reserved words")
        .1;
    let listed: BTreeSet<&str> = after
        .split('`')
        .nth(1)
        .expect("the list is in backticks")
        .split_whitespace()
        .collect();
    let table: BTreeSet<&str> = KEYWORDS
        .iter()
        .filter(|k| k.reserved)
        .map(|k| k.word)
        .collect();
    assert_eq!(listed, table);
}
