//! Soak: seeded random games per player count and variant of every
//! published ruleset finish with no run-time error and with the rulesets'
//! declared invariants holding wherever the rules are at rest (pieces conserved — tiles,
//! cards, goods — money conserved and never negative, one piece per cell).
//!
//! The default suite plays a short soak (`SHORT` games per player count); the
//! long soak (`LONG` games) is a separate command, ignored by default so that
//! the README's test command stays within its time on a 2-core machine:
//! `cargo test --release --test soak --test hansa_teutonica -- --ignored`.

mod common;

use rayon::prelude::*;
use regel::cli::simulate::play_random;
use regel::eval::Setup;

/// Games per player count in the default suite.
const SHORT: u64 = 200;
/// Games per player count in the long soak (`-- --ignored`).
const LONG: u64 = 2_000;

fn soak(rel: &str, games: u64) {
    let game = common::load(rel);
    for players in game.min_players..=game.max_players {
        let failures: Vec<String> = (0..games)
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
    soak(
        "rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules",
        SHORT,
    );
}

#[test]
#[ignore = "long soak: cargo test --release --test soak -- --ignored"]
fn long_soak_base_game() {
    soak(
        "rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules",
        LONG,
    );
}

#[test]
fn soak_open_ended() {
    soak("rulesets/auf-heller-und-pfennig/open-ended.rules", SHORT);
}

#[test]
#[ignore = "long soak: cargo test --release --test soak -- --ignored"]
fn long_soak_open_ended() {
    soak("rulesets/auf-heller-und-pfennig/open-ended.rules", LONG);
}

#[test]
fn soak_open_tiles() {
    soak("rulesets/auf-heller-und-pfennig/open-tiles.rules", SHORT);
}

#[test]
#[ignore = "long soak: cargo test --release --test soak -- --ignored"]
fn long_soak_open_tiles() {
    soak("rulesets/auf-heller-und-pfennig/open-tiles.rules", LONG);
}

#[test]
fn soak_open_ended_open_tiles() {
    soak(
        "rulesets/auf-heller-und-pfennig/open-ended-open-tiles.rules",
        SHORT,
    );
}

#[test]
#[ignore = "long soak: cargo test --release --test soak -- --ignored"]
fn long_soak_open_ended_open_tiles() {
    soak(
        "rulesets/auf-heller-und-pfennig/open-ended-open-tiles.rules",
        LONG,
    );
}

#[test]
fn soak_hasp() {
    soak("rulesets/hasp/hasp.rules", SHORT);
}

#[test]
#[ignore = "long soak: cargo test --release --test soak -- --ignored"]
fn long_soak_hasp() {
    soak("rulesets/hasp/hasp.rules", LONG);
}

#[test]
fn soak_hansa() {
    soak("rulesets/hansa/hansa.rules", SHORT);
}

#[test]
#[ignore = "long soak: cargo test --release --test soak -- --ignored"]
fn long_soak_hansa() {
    soak("rulesets/hansa/hansa.rules", LONG);
}
