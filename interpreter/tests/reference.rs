//! The language reference `rulesets/README.md` is tested: every ```regel block
//! is a complete ruleset that checks without errors or warnings and plays one
//! seeded random game to its end per player count; every ```regel-error CODE
//! block fails `check` with that code, and every ```regel-warning CODE block
//! checks with that warning.
//!
//! Blocks are served from memory as if they were files in `rulesets/`, so
//! their board paths (`../maps/…`) and `extends` paths resolve against the real
//! folders on disk.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use regel::diag::Sources;
use regel::eval::{Match, Setup};
use std::path::{Path, PathBuf};
use std::sync::Arc;

struct Block {
    /// `regel`, `regel-error` or `regel-warning`.
    tag: String,
    code: Option<String>,
    text: String,
    line: usize,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn blocks() -> Vec<Block> {
    let path = root().join("rulesets/README.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = vec![];
    let mut cur: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        match cur.as_mut() {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    let mut words = info.split_whitespace();
                    let tag = words.next().unwrap_or("");
                    if tag == "regel" || tag == "regel-error" || tag == "regel-warning" {
                        let code = words.next().map(str::to_string);
                        assert!(
                            tag == "regel" || code.is_some(),
                            "line {}: ```{tag} needs a code",
                            i + 1
                        );
                        cur = Some(Block {
                            tag: tag.to_string(),
                            code,
                            text: String::new(),
                            line: i + 1,
                        });
                    } else if !tag.is_empty() || info.is_empty() {
                        // Another fenced block: skip to its end.
                        cur = Some(Block {
                            tag: "skip".into(),
                            code: None,
                            text: String::new(),
                            line: i + 1,
                        });
                    }
                }
            }
            Some(b) => {
                if line.starts_with("```") {
                    let b = cur.take().unwrap();
                    if b.tag != "skip" {
                        out.push(b);
                    }
                } else {
                    b.text.push_str(line);
                    b.text.push('\n');
                }
            }
        }
    }
    assert!(
        cur.is_none(),
        "an unclosed code block in rulesets/README.md"
    );
    out
}

/// A checked game and its warnings, or the diagnostics that stopped it.
type Checked =
    Result<(regel::ir::Game, Vec<regel::diag::Diagnostic>), Vec<regel::diag::Diagnostic>>;

/// Checks a block as the file `rulesets/reference-block-LINE.rules`.
fn check(b: &Block) -> (Sources, Checked) {
    let path = root().join(format!("rulesets/reference-block-{}.rules", b.line));
    let text = b.text.clone();
    let own = path.clone();
    let reader = move |p: &Path| -> std::io::Result<String> {
        if p == own {
            Ok(text.clone())
        } else {
            std::fs::read_to_string(p)
        }
    };
    let mut sources = Sources::default();
    let r = regel::pipeline::compile(&mut sources, &reader, &path, &regel::opt::Passes::all());
    (sources, r)
}

#[test]
fn reference_has_examples() {
    let bs = blocks();
    assert!(
        bs.iter().filter(|b| b.tag == "regel").count() >= 20,
        "the reference lost its examples"
    );
    assert!(bs.iter().any(|b| b.tag == "regel-error"));
    for b in &bs {
        let first = b.text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        assert!(
            first.starts_with("game \"") || first.starts_with("variant \""),
            "block at line {}: a complete file starts with its header",
            b.line
        );
    }
}

#[test]
fn reference_blocks_check_clean_and_play() {
    let mut failures = vec![];
    for b in blocks().iter().filter(|b| b.tag == "regel") {
        let (sources, r) = check(b);
        let game = match r {
            Ok((g, warnings)) => {
                if !warnings.is_empty() {
                    failures.push(format!(
                        "block at line {}: warnings\n{}",
                        b.line,
                        regel::diag::render(&sources, &warnings, false, 100)
                    ));
                    continue;
                }
                Arc::new(g)
            }
            Err(d) => {
                failures.push(format!(
                    "block at line {}: errors\n{}",
                    b.line,
                    regel::diag::render(&sources, &d, false, 100)
                ));
                continue;
            }
        };
        for players in game.min_players..=game.max_players {
            let seed = 7 + players as u64;
            // The log is kept, as `play` and `trace` keep it, so that an
            // example with two options of one label fails here.
            let mut setup = Setup::new(players, seed);
            setup.log = true;
            let mut m = match Match::new(game.clone(), &setup) {
                Ok(m) => m,
                Err(e) => {
                    failures.push(format!(
                        "block at line {}, {players} players: setup failed: {}",
                        b.line, e.message
                    ));
                    continue;
                }
            };
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            match m.playout(&mut rng) {
                Ok(_) if m.is_over() => {
                    if let Err(e) = m.standings() {
                        failures.push(format!(
                            "block at line {}, {players} players: standings failed: {}",
                            b.line, e.message
                        ));
                    }
                }
                Ok(_) => failures.push(format!(
                    "block at line {}, {players} players: the game did not finish",
                    b.line
                )),
                Err(e) => failures.push(format!(
                    "block at line {}, {players} players: run-time error: {}",
                    b.line, e.message
                )),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn reference_error_blocks_fail_with_their_code() {
    let mut failures = vec![];
    for b in blocks().iter().filter(|b| b.tag != "regel") {
        let code = b.code.as_deref().unwrap();
        let (sources, r) = check(b);
        let diags = match (&r, b.tag.as_str()) {
            (Err(d), "regel-error") => d.clone(),
            (Ok((_, w)), "regel-warning") => w.clone(),
            (Ok(_), _) => {
                failures.push(format!(
                    "block at line {}: expected {code}, but it checks",
                    b.line
                ));
                continue;
            }
            (Err(d), _) => {
                failures.push(format!(
                    "block at line {}: expected warning {code}, but it fails:\n{}",
                    b.line,
                    regel::diag::render(&sources, d, false, 100)
                ));
                continue;
            }
        };
        if !diags.iter().any(|d| d.code == code) {
            failures.push(format!(
                "block at line {}: expected {code}, got:\n{}",
                b.line,
                regel::diag::render(&sources, &diags, false, 100)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
