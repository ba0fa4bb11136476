//! Ruleset snapshots: for every `rulesets/**/*.rules` file, the check summary
//! and, for each supported player count, a seeded game log with the final
//! standings. A change to the rules, the checker or the executor that changes
//! how a game goes shows up here as a snapshot diff.
//!
//! Every game: seed 1, default options and budget, decisions chosen uniformly
//! at random by a ChaCha8 generator seeded with 42.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use regel::eval::{Match, Setup};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .canonicalize()
        .unwrap()
}

fn play(game: &Arc<regel::ir::Game>, players: usize) -> String {
    let setup = Setup {
        players,
        seed: 1,
        options: vec![],
        budget: regel::eval::DEFAULT_BUDGET,
        log: true,
    };
    let mut out = String::new();
    let mut m = match Match::new(game.clone(), &setup) {
        Ok(m) => m,
        Err(e) => panic!("{players} players: setup failed: {}", e.message),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    while let Some((_, n)) = m.pending() {
        let i = rng.gen_range(0..n);
        if let Err(e) = m.apply(i) {
            for line in m.take_log() {
                let _ = writeln!(out, "{line}");
            }
            panic!(
                "{players} players: run-time error after {} decisions: {}\n{out}",
                m.state.decisions, e.message
            );
        }
    }
    assert!(
        m.is_over(),
        "{players} players: no decision pending, but the game is not over"
    );
    for line in m.take_log() {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(
        out,
        "----- {} decisions ({} forced) -----",
        m.state.decisions, m.state.forced
    );
    let broken = m
        .broken_invariants()
        .unwrap_or_else(|e| panic!("invariants: {}", e.message));
    assert!(
        broken.is_empty(),
        "{players} players: invariants broken at the end: {broken:?}"
    );
    let standings = m
        .standings()
        .unwrap_or_else(|e| panic!("standings: {}", e.message));
    for s in standings {
        let _ = writeln!(
            out,
            "{:<8} score {:>5}  rank {}{}",
            s.seat,
            s.score,
            s.rank,
            if s.winner { "  winner" } else { "" }
        );
    }
    out
}

#[test]
fn rulesets() {
    let root = workspace();
    // One level down: each game folder's rulesets, not the scenario helpers.
    insta::glob!("../../rulesets", "*/*.rules", |path| {
        let rel = path.strip_prefix(&root).unwrap().to_path_buf();
        let read = |p: &Path| regel::cli::read_file(&root.join(p));
        let mut sources = regel::diag::Sources::default();
        let game =
            match regel::pipeline::compile(&mut sources, &read, &rel, &regel::opt::Passes::all()) {
                Ok((g, _warnings)) => Arc::new(g),
                Err(diags) => panic!(
                    "{} does not check:\n{}",
                    rel.display(),
                    regel::diag::render(&sources, &diags, false, 80)
                ),
            };
        insta::assert_snapshot!("summary", regel::check::summary(&game));
        for players in game.min_players..=game.max_players {
            insta::assert_snapshot!(format!("log-{players}p"), play(&game, players));
        }
    });
}
