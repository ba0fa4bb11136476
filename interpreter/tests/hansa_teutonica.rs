//! Hansa Teutonica (issue 8) as a whole: random games for 2 to 5 players end
//! without a run-time error and with the ruleset's invariants holding after
//! every decision (pieces and tokens conserved, one piece per village, …);
//! prestige never falls (HT-10); the face-down tokens are hidden from every
//! view; the side of the board follows the player count (HT-3.11).

mod common;

use common::load;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use regel::cli::simulate::play_random;
use regel::eval::{Match, Setup};

const RULES: &str = "rulesets/hansa-teutonica/hansa-teutonica.rules";

/// Issue 8: seeded games per player count, invariants after every
/// decision; 25 per count in the default suite. Prints the longest game (in
/// decisions) for the record.
#[test]
fn soak_25_games_per_player_count() {
    soak(25);
}

/// The long soak, a separate command (about 30 minutes on 2 cores):
/// `cargo test --release --test hansa_teutonica -- --ignored`.
#[test]
#[ignore = "long soak: cargo test --release --test hansa_teutonica -- --ignored"]
fn long_soak_1000_games_per_player_count() {
    soak(1000);
}

fn soak(games: u64) {
    let game = load(RULES);
    for players in 2..=5 {
        let results: Vec<_> = (0..games)
            .into_par_iter()
            .map(|seed| play_random(&game, &Setup::new(players, seed), true, false))
            .collect();
        let failures: Vec<String> = results
            .iter()
            .filter_map(|r| match &r.error {
                Some(e) => Some(format!("{players} players, seed {}: {e}", r.seed)),
                None if r.winners.is_empty() => {
                    Some(format!("{players} players, seed {}: no winner", r.seed))
                }
                None => None,
            })
            .collect();
        assert!(
            failures.is_empty(),
            "{} failures, first: {:?}",
            failures.len(),
            &failures[..failures.len().min(3)]
        );
        let longest = results.iter().max_by_key(|r| r.decisions).unwrap();
        let mean = results.iter().map(|r| r.decisions as f64).sum::<f64>() / results.len() as f64;
        eprintln!(
            "hansa teutonica, {players} players: mean {mean:.0} decisions, longest {} (seed {})",
            longest.decisions, longest.seed
        );
    }
}

/// HT-10.1: prestige is only ever gained during the game.
#[test]
fn prestige_never_falls() {
    let game = load(RULES);
    let prestige = game
        .vars
        .iter()
        .find(|v| v.name == "prestige")
        .expect("a per-player prestige variable")
        .base as usize;
    for players in 2..=5 {
        for seed in 0..40u64 {
            let mut m = Match::new(game.clone(), &Setup::new(players, seed)).unwrap();
            let track = |m: &Match| -> Vec<i64> {
                (0..players).map(|p| m.state.vars[prestige + p]).collect()
            };
            let mut bot = ChaCha8Rng::seed_from_u64(seed);
            let mut last = track(&m);
            while let Some((_, n)) = m.pending() {
                m.apply(bot.gen_range(0..n)).unwrap();
                let now = track(&m);
                assert!(
                    now.iter().zip(&last).all(|(a, b)| a >= b),
                    "{players} players, seed {seed}: prestige fell from {last:?} to {now:?}"
                );
                last = now;
            }
        }
    }
}

/// HT-4.3, HT-7.6.4: the draw pile and the drawn replacements on a desk's
/// plate are face down: no seat's view shows one, over whole games.
#[test]
fn face_down_tokens_are_hidden_from_every_view() {
    let game = load(RULES);
    let mut checked = 0usize;
    for players in 2..=5 {
        for seed in 0..2u64 {
            let mut m = Match::new(game.clone(), &Setup::new(players, seed)).unwrap();
            let mut bot = ChaCha8Rng::seed_from_u64(seed);
            loop {
                for seat in 0..players {
                    for z in &m.view(Some(seat)).zones {
                        if z.zone == "pile" || z.zone.ends_with(".plate") {
                            for p in &z.pieces {
                                assert!(
                                    p.starts_with("hidden "),
                                    "{} players, seed {seed}: seat {seat} sees `{p}` in {}",
                                    players,
                                    z.zone
                                );
                                checked += 1;
                            }
                        }
                    }
                }
                let Some((_, n)) = m.pending() else { break };
                m.apply(bot.gen_range(0..n)).unwrap();
            }
        }
    }
    assert!(
        checked > 5_000,
        "only {checked} face-down tokens were checked"
    );
}

/// HT-3.11: 2–3 players use the back (32 routes), 4–5 the front (34 routes).
#[test]
fn the_board_side_follows_the_player_count() {
    let game = load(RULES);
    for (players, routes, offices) in [(2, 32, 57), (3, 32, 57), (4, 34, 62), (5, 34, 62)] {
        let m = Match::new(game.clone(), &Setup::new(players, 1)).unwrap();
        assert_eq!(m.game.board.edges.len(), routes, "{players} players");
        let row = m.game.zones.iter().find(|z| z.name == "row").unwrap();
        let filled: usize = (0..row.count)
            .map(|i| m.state.zones.slice(row.base + i).len())
            .sum();
        assert_eq!(
            filled, offices,
            "{players} players: every office of the side is on its city"
        );
    }
}
