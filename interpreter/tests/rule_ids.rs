//! Every rule id a shipped ruleset cites is stated in that game's
//! `rulesets/<game>/RULES.md`.
//!
//! The English rule specifications live outside the repository, so the ids in
//! the `.rules` files and scenarios would otherwise point at nothing a reader
//! of the repository can open. Each game's `RULES.md` restates its rules with
//! those ids as headings or bold labels; this test keeps the two in step. It
//! also checks that every id a `RULES.md` mentions in passing is stated (as a
//! heading or bold label) in that same file, which catches typos in the
//! cross-references.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Each shipped game's folder under `rulesets/` and the prefix of its ids.
/// Inside a game's own files a bare `AMB-07`, `AT-02` or `DP-05` means that
/// game's ambiguity, acceptance scenario or decision point, so it is read as
/// `<prefix>-AMB-07` and so on.
const GAMES: [(&str, &str); 4] = [
    ("auf-heller-und-pfennig", "AHUP"),
    ("hasp", "HASP"),
    ("hansa", "HANSA"),
    ("hansa-teutonica", "HT"),
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The files of a game that cite rule ids: its `.rules` files and every
/// `.toml` and `.rules` file in its `scenarios` folder, sorted.
fn cited_files(game: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [game.to_path_buf(), game.join("scenarios")] {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let ext = path.extension().and_then(|e| e.to_str());
            let wanted = ext == Some("rules") || (ext == Some("toml") && dir != game);
            if wanted {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Whether `word` is a rule id of the game with `prefix`: the prefix, then
/// either dotted numbers (`HT-7.4.7`), a tagged number (`AMB-07`, `AT-01`,
/// `DP-02`), or a bare tag naming a whole section (`HANSA-AT`).
fn is_id(word: &str, prefix: &str) -> bool {
    let Some(rest) = word.strip_prefix(prefix).and_then(|r| r.strip_prefix('-')) else {
        return false;
    };
    let dotted = |s: &str| {
        !s.is_empty()
            && s.split('.')
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    if dotted(rest) {
        return true;
    }
    ["AMB", "AT", "DP"].iter().any(|tag| {
        rest == *tag
            || rest
                .strip_prefix(tag)
                .and_then(|r| r.strip_prefix('-'))
                .is_some_and(dotted)
    })
}

/// The rule ids of the game with `prefix` in `text`, a bare `AMB-nn`, `AT-nn`
/// or `DP-nn` read as that game's own.
fn ids_in(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let is_word_char = |c: char| c.is_ascii_alphanumeric() || c == '.' || c == '-';
    for word in text.split(|c: char| !is_word_char(c)) {
        // "AHUP-AT-01..AHUP-AT-12" is a range of two ids; a sentence's full stop
        // or a dash after an id is not part of it.
        for part in word.split("..") {
            let part = part.trim_end_matches(['.', '-']);
            let bare = ["AMB-", "AT-", "DP-"]
                .iter()
                .any(|tag| part.starts_with(tag));
            let part = if bare {
                format!("{prefix}-{part}")
            } else {
                part.to_string()
            };
            if is_id(&part, prefix) {
                ids.insert(part);
            }
        }
    }
    ids
}

/// The ids `RULES.md` states: the first id of a heading line, or an id that
/// opens a bold label (`**HT-7.4.7**`, `**HT-7.4.7 Name.**`).
fn stated_ids(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for line in text.lines() {
        let heading = line.trim_start_matches('#');
        if heading.len() < line.len() {
            if let Some(first) = heading.split_whitespace().next() {
                ids.extend(ids_in(first, prefix));
            }
        }
        for label in line.split("**").skip(1).step_by(2) {
            if let Some(first) = label.split_whitespace().next() {
                ids.extend(ids_in(first, prefix));
            }
        }
    }
    ids
}

#[test]
fn every_cited_rule_id_is_stated_in_the_games_rules_md() {
    let mut failures = Vec::new();
    for (game, prefix) in GAMES {
        let dir = workspace().join("rulesets").join(game);
        let mut cited = BTreeSet::new();
        for file in cited_files(&dir) {
            cited.extend(ids_in(&fs::read_to_string(&file).unwrap(), prefix));
        }
        assert!(
            cited.len() > 20,
            "{game}: only {} ids cited; is the id pattern right?",
            cited.len()
        );
        let rules_md = dir.join("RULES.md");
        let Ok(text) = fs::read_to_string(&rules_md) else {
            failures.push(format!("{}: missing", rules_md.display()));
            continue;
        };
        let stated = stated_ids(&text, prefix);
        let missing: Vec<_> = cited.difference(&stated).cloned().collect();
        if !missing.is_empty() {
            failures.push(format!(
                "rulesets/{game}/RULES.md states no heading or bold label for {} cited id(s): {}",
                missing.len(),
                missing.join(" ")
            ));
        }
        let dangling: Vec<_> = ids_in(&text, prefix).difference(&stated).cloned().collect();
        if !dangling.is_empty() {
            failures.push(format!(
                "rulesets/{game}/RULES.md mentions {} id(s) it never states (a typo?): {}",
                dangling.len(),
                dangling.join(" ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ids_are_found_as_written() {
    let ids = ids_in(
        "# HT-7.4.7: see AMB-07, HT-AT-01..HT-AT-03 and HT-12. (HT-AMB-13) DP-05 HTX-1 HT-a",
        "HT",
    );
    let want = [
        "HT-12",
        "HT-7.4.7",
        "HT-AMB-07",
        "HT-AMB-13",
        "HT-AT-01",
        "HT-AT-03",
        "HT-DP-05",
    ];
    assert_eq!(ids.into_iter().collect::<Vec<_>>(), want);
}
