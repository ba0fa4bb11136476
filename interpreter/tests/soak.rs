//! Soak: 2,000 seeded random games per player count and variant of every
//! published ruleset finish with no run-time error and with the rulesets'
//! declared invariants holding after every decision (pieces conserved — tiles,
//! cards, goods — money conserved and never negative, one piece per cell).

use rayon::prelude::*;
use regel::cli::simulate::play_random;
use regel::diag::Sources;
use regel::eval::Setup;
use std::path::Path;
use std::sync::Arc;

const GAMES: u64 = 2_000;

fn soak(rel: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel);
    let mut sources = Sources::default();
    let (g, _) = regel::pipeline::compile(
        &mut sources,
        &regel::cli::read_file,
        &path,
        &regel::opt::Passes::all(),
    )
    .unwrap_or_else(|d| panic!("{rel}: {d:?}"));
    let game = Arc::new(g);
    for players in game.min_players..=game.max_players {
        let failures: Vec<String> = (0..GAMES)
            .into_par_iter()
            .filter_map(|seed| {
                let r = play_random(&game, &Setup::new(players, seed), true, false);
                match r.error {
                    Some(e) => Some(format!("{rel}, {players} players, seed {seed}: {e}")),
                    None if r.winners.is_empty() => {
                        Some(format!("{rel}, {players} players, seed {seed}: no winner"))
                    }
                    None => None,
                }
            })
            .collect();
        assert!(
            failures.is_empty(),
            "{} failures, first: {:?}",
            failures.len(),
            &failures[..failures.len().min(3)]
        );
    }
}

#[test]
fn soak_base_game() {
    soak("rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules");
}

#[test]
fn soak_open_ended() {
    soak("rulesets/auf-heller-und-pfennig/open-ended.rules");
}

#[test]
fn soak_open_tiles() {
    soak("rulesets/auf-heller-und-pfennig/open-tiles.rules");
}

#[test]
fn soak_open_ended_open_tiles() {
    soak("rulesets/auf-heller-und-pfennig/open-ended-open-tiles.rules");
}

#[test]
fn soak_hasp() {
    soak("rulesets/hasp/hasp.rules");
}

#[test]
fn soak_hansa() {
    soak("rulesets/hansa/hansa.rules");
}
