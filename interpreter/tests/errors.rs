//! The error corpus: every `tests/errors/*.rules` file is a broken input with
//! one problem (a few deliberately have several). Each is checked; a file that
//! checks clean is run (seed 0, random decisions) until it fails at run time.
//! The snapshot shows the input first (with its board file, if it has one
//! beside it), then every diagnostic rendered without colour at width 80.
//!
//! A corpus file that produces no error, or that makes Regel panic, fails the
//! test.
//!
//! A file may start with comment lines that set up the run-time case:
//! `# players: N` (default: the ruleset's minimum) and `# budget: N` (default:
//! [`regel::eval::DEFAULT_BUDGET`]), and `# log: 1` runs it keeping the log,
//! as `play`, `replay` and `trace` do (equal labels are refused only then). A file with `# coverage: N` is a rule
//! coverage case instead: it plays N games (seeds 0, 1, …, random decisions)
//! counting what ran, and must produce a coverage warning (W01xx) rather
//! than an error, as `regel simulate --coverage` would.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use regel::diag::{render, Diagnostic, Severity, Sources};
use regel::eval::{Match, Setup};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// At most this many decisions are taken before a run is called clean.
const MAX_DECISIONS: u32 = 100_000;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .canonicalize()
        .unwrap()
}

/// The value of a `# key: N` line in the file's leading comments.
fn directive(text: &str, key: &str) -> Option<u64> {
    text.lines()
        .take_while(|l| l.starts_with('#'))
        .find_map(|l| {
            l.trim_start_matches('#')
                .trim()
                .strip_prefix(key)?
                .trim_start()
                .strip_prefix(':')?
                .trim()
                .replace('_', "")
                .parse()
                .ok()
        })
}

/// Checks and, if the check passes, runs one corpus file. Returns the
/// diagnostics (warnings and errors) and the sources they point into.
fn diagnose(rel: &Path, text: &str) -> (Sources, Vec<Diagnostic>) {
    let root = workspace();
    // Paths in diagnostics stay relative to the workspace, so that snapshots
    // do not depend on where the repository is checked out.
    // Files are read as the command line reads them: confined to the
    // workspace (`--root`), regular files only, size-capped.
    let confined = regel::cli::files::confined(root.clone());
    let read = move |p: &Path| confined(&root.join(p));
    let mut sources = Sources::default();
    let (game, warnings) =
        match regel::pipeline::compile(&mut sources, &read, rel, &regel::opt::Passes::all()) {
            Ok(ok) => ok,
            Err(diags) => return (sources, diags),
        };
    let mut diags = warnings;
    let players = directive(text, "players")
        .map(|n| n as usize)
        .unwrap_or(game.min_players);
    let budget = directive(text, "budget").unwrap_or(regel::eval::DEFAULT_BUDGET);
    if let Some(games) = directive(text, "coverage") {
        let game = Arc::new(game);
        let mut total: Option<regel::eval::Coverage> = None;
        for seed in 0..games {
            let setup = Setup {
                players,
                seed,
                options: vec![],
                budget,
                log: false,
            };
            let mut m =
                Match::new_with_coverage(game.clone(), &setup).expect("a coverage case runs");
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while let Some((_, n)) = m.pending() {
                let i = rng.gen_range(0..n);
                m.apply(i).expect("a coverage case runs without errors");
            }
            let c = m.take_coverage().unwrap();
            match &mut total {
                Some(t) => t.add(&c),
                None => total = Some(*c),
            }
        }
        let (warnings, _) =
            regel::coverage::report(&game.for_players(players), &total.unwrap(), &sources, games);
        diags.extend(warnings);
        return (sources, diags);
    }
    let setup = Setup {
        players,
        seed: 0,
        options: vec![],
        budget,
        log: directive(text, "log") == Some(1),
    };
    let mut m = match Match::new(Arc::new(game), &setup) {
        Ok(m) => m,
        Err(e) => {
            diags.push(e.to_diagnostic(0));
            return (sources, diags);
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    while let Some((_, n)) = m.pending() {
        if m.state.decisions >= MAX_DECISIONS {
            break;
        }
        let i = rng.gen_range(0..n);
        if let Err(e) = m.apply(i) {
            diags.push(e.to_diagnostic(m.state.decisions));
            break;
        }
    }
    (sources, diags)
}

#[test]
fn error_corpus() {
    let root = workspace();
    let problems = Mutex::new(Vec::<String>::new());
    insta::glob!("../../tests/errors", "*.rules", |path| {
        let rel = path.strip_prefix(&root).unwrap().to_path_buf();
        let text = std::fs::read_to_string(path).unwrap();
        let result = catch_unwind(AssertUnwindSafe(|| diagnose(&rel, &text)));
        let (sources, diags) = match result {
            Ok(r) => r,
            Err(e) => {
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                problems
                    .lock()
                    .unwrap()
                    .push(format!("{}: Regel panicked: {msg}", rel.display()));
                return;
            }
        };
        let coverage = directive(&text, "coverage").is_some();
        if coverage && !diags.iter().any(|d| d.code.starts_with("W01")) {
            problems
                .lock()
                .unwrap()
                .push(format!("{}: produced no coverage warning", rel.display()));
        } else if !coverage && !diags.iter().any(|d| d.severity == Severity::Error) {
            problems
                .lock()
                .unwrap()
                .push(format!("{}: produced no error", rel.display()));
        }
        let mut out = format!("----- {} -----\n{text}", rel.display());
        let board = path.with_extension("toml");
        if board.exists() {
            let board_text = std::fs::read_to_string(&board).unwrap();
            out += &format!(
                "----- {} -----\n{board_text}",
                board.strip_prefix(&root).unwrap().display()
            );
        }
        out += "----- diagnostics -----\n";
        out += &render(&sources, &diags, false, 80);
        // Trailing spaces from the renderer are noise in a snapshot file.
        let out: String = out
            .lines()
            .map(|l| l.trim_end())
            .collect::<Vec<_>>()
            .join("\n");
        insta::assert_snapshot!(out);
    });
    let problems = problems.into_inner().unwrap();
    assert!(
        problems.is_empty(),
        "corpus problems:\n{}",
        problems.join("\n")
    );
}
