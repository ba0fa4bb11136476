//! Bots: the MCTS bot beats random play in every shipped game, is the same
//! bot under the same seed, and searches only positions its seat cannot tell
//! from the real one. The full figures (≥ 200 games per game) are measured
//! with `regel simulate … --seat mcts` and given in the README.

mod common;

use common::load;

use rayon::prelude::*;
use regel::bot::sample::Hidden;
use regel::bot::{self, SeatKind};
use regel::cli::simulate::play_bots;
use regel::eval::{Match, Setup};
use std::sync::Arc;

/// Games out of `games` that MCTS (`mcts:ITER` or `mcts:ITER:DEPTH`) wins
/// outright against one random bot, sitting first in even games and second
/// in odd ones.
fn mcts_wins(rel: &str, games: u64, mcts: &str) -> u64 {
    let mcts = SeatKind::parse(mcts).unwrap();
    let game = load(rel);
    (0..games)
        .into_par_iter()
        .map(|seed| {
            let me = (seed % 2) as usize;
            let mut kinds = vec![SeatKind::Random; 2];
            kinds[me] = mcts;
            let r = play_bots(&game, &Setup::new(2, seed), &kinds, false, false);
            assert!(r.error.is_none(), "{rel} seed {seed}: {:?}", r.error);
            (r.winners[..] == [me]) as u64
        })
        .sum()
}

#[test]
fn mcts_beats_random_in_every_shipped_game() {
    for (rel, games, mcts, least) in [
        (
            "rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules",
            20,
            "mcts:100",
            18,
        ),
        ("rulesets/hasp/hasp.rules", 20, "mcts:100", 18),
        ("rulesets/hansa/hansa.rules", 8, "mcts:50", 7),
        // Random games of Hansa Teutonica last about 10,000 decisions; its
        // playouts are cut off early and judged by the score (HT-12).
        (
            "rulesets/hansa-teutonica/hansa-teutonica.rules",
            4,
            "mcts:20:50",
            4,
        ),
    ] {
        let w = mcts_wins(rel, games, mcts);
        assert!(
            w >= least,
            "{rel}: MCTS won {w} of {games}, expected at least {least}"
        );
    }
}

#[test]
fn mcts_is_the_same_bot_under_the_same_seed() {
    let game = load("rulesets/hasp/hasp.rules");
    let kinds = [SeatKind::mcts(30), SeatKind::Random, SeatKind::mcts(30)];
    let a = play_bots(&game, &Setup::new(3, 5), &kinds, false, true);
    let b = play_bots(&game, &Setup::new(3, 5), &kinds, false, true);
    assert!(a.error.is_none());
    assert_eq!(a.labels, b.labels);
    assert_eq!(a.scores, b.scores);
}

/// `play` keeps a per-seat log; the bot's search copies run without it
/// (`bot/sample.rs`), which makes them cheaper and must change nothing the
/// bot decides: Hasp (hidden cards, face-down tricks, so recall is busy),
/// MCTS at every seat, the same choices with the per-seat log on and off.
#[test]
fn the_bot_decides_the_same_with_the_per_seat_log_on() {
    let game = load("rulesets/hasp/hasp.rules");
    let setup = Setup::new(4, 2);
    let mut logged = Match::new_with_seat_logs(game.clone(), &setup).unwrap();
    let mut plain = Match::new(game.clone(), &setup).unwrap();
    assert!(logged.state.seat_logs && !plain.state.seat_logs);
    let mut a = bot::make(SeatKind::mcts(20), 5);
    let mut b = bot::make(SeatKind::mcts(20), 5);
    let mut n = 0;
    while logged.pending().is_some() && n < 40 {
        let (seat, _) = logged.pending().unwrap();
        let copy = Hidden::of(&logged, seat).sample(
            &logged,
            &mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(n),
        );
        assert!(!copy.state.seat_logs && copy.state.seat_log.is_empty() && !copy.state.log_on);
        let (i, j) = (a.choose(&logged), b.choose(&plain));
        assert_eq!(i, j, "decision {n}");
        logged.apply(i).unwrap();
        plain.apply(j).unwrap();
        n += 1;
    }
    assert_eq!(n, 40, "forty decisions compared");
    assert_eq!(logged.option_labels(), plain.option_labels());
}

#[test]
fn a_sample_looks_the_same_to_the_seat_and_deals_the_rest_again() {
    let game = load("rulesets/hasp/hasp.rules");
    let m = Match::new(game.clone(), &Setup::new(4, 3)).unwrap();
    let (seat, _) = m.pending().unwrap();
    let hidden = Hidden::of(&m, seat);
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
    let mine = serde_json::to_string(&m.view(Some(seat))).unwrap();
    let other = (seat + 1) % 4;
    let mut differs = 0;
    for _ in 0..20 {
        let d = hidden.sample(&m, &mut rng);
        assert_eq!(
            serde_json::to_string(&d.view(Some(seat))).unwrap(),
            mine,
            "the seat sees the same position"
        );
        for z in 0..d.state.zones.start.len() - 1 {
            assert_eq!(
                d.state.zones.len(z as u32),
                m.state.zones.len(z as u32),
                "zone sizes stay"
            );
            for &p in d.state.zones.slice(z as u32) {
                assert_eq!(d.state.zones.zone_of[p as usize], z as u32);
            }
        }
        differs += (serde_json::to_string(&d.view(Some(other))).unwrap()
            != serde_json::to_string(&m.view(Some(other))).unwrap()) as u32;
        // The options of the seat to decide stay the same.
        assert_eq!(d.option_labels(), m.option_labels());
    }
    assert!(
        differs >= 18,
        "another seat's hand is dealt again ({differs} of 20)"
    );
}

/// The slowest decision of a game at the default strength, per shipped game at
/// 4 players, every seat MCTS: `cargo test --release --test bots -- --ignored
/// --nocapture`. Hansa Teutonica is timed over its first 300 decisions (a
/// whole game of four MCTS seats takes about an hour); `REGEL_TIME_GAME`
/// picks one game by a part of its path.
#[test]
#[ignore]
fn default_strength_decides_in_under_a_second() {
    let only = std::env::var("REGEL_TIME_GAME").unwrap_or_default();
    for (rel, most) in [
        (
            "rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules",
            u32::MAX,
        ),
        ("rulesets/hasp/hasp.rules", u32::MAX),
        ("rulesets/hansa/hansa.rules", u32::MAX),
        ("rulesets/hansa-teutonica/hansa-teutonica.rules", 300),
    ] {
        if !rel.contains(&only) {
            continue;
        }
        let game = load(rel);
        let mut m = Match::new(game.clone(), &Setup::new(4, 1)).unwrap();
        let mut b = bot::make(SeatKind::parse("mcts").unwrap(), 7);
        let (mut worst, mut total, mut n) = (0f64, 0f64, 0);
        while m.pending().is_some() && n < most {
            let t = std::time::Instant::now();
            let i = b.choose(&m);
            let s = t.elapsed().as_secs_f64();
            worst = worst.max(s);
            total += s;
            n += 1;
            m.apply(i).unwrap();
        }
        println!(
            "{rel}: {n} decisions, mean {:.3} s, slowest {:.3} s",
            total / n as f64,
            worst
        );
        assert!(worst < 1.0);
    }
}

/// The slowest decision of a whole two-player game of Hansa Teutonica, MCTS
/// at its default strength against a random bot (about three minutes):
/// `cargo test --release --test bots -- --ignored --nocapture teutonica`.
#[test]
#[ignore]
fn default_strength_decides_in_under_a_second_in_a_whole_game_of_hansa_teutonica() {
    let game = load("rulesets/hansa-teutonica/hansa-teutonica.rules");
    let mut m = Match::new(game.clone(), &Setup::new(2, 1)).unwrap();
    let mut mcts = bot::make(SeatKind::parse("mcts").unwrap(), 7);
    let mut random = bot::make(SeatKind::Random, 7);
    let (mut worst, mut total, mut n) = (0f64, 0f64, 0);
    while let Some((seat, options)) = m.pending() {
        let i = if seat == 0 && options > 1 {
            let t = std::time::Instant::now();
            let i = mcts.choose(&m);
            let s = t.elapsed().as_secs_f64();
            worst = worst.max(s);
            total += s;
            n += 1;
            i
        } else {
            random.choose(&m)
        };
        m.apply(i).unwrap();
    }
    let st = m.standings().unwrap();
    println!("hansa teutonica, 2 players: {n} MCTS decisions with more than one option, mean {:.3} s, slowest {worst:.3} s; scores {} to {}", total / n as f64, st[0].score, st[1].score);
    assert!(worst < 1.0);
}

/// Games played one after another on a thread start in the buffers of the
/// last one (`eval/reuse.rs`): a game is the same game whatever the thread
/// played before it. Hansa at four seats, seed 3, alone on a fresh thread,
/// and again after tic-tac-toe and Hansa at three and at four seats with
/// other seeds: the same decisions with the same labels, the same scores.
/// And a match started in a finished one's buffers is, position for
/// position, the match started afresh.
#[test]
fn a_game_is_the_same_whatever_its_thread_played_before() {
    let hansa = load("rulesets/hansa/hansa.rules");
    let ttt = load("examples/tic-tac-toe/tic-tac-toe.rules");
    let play = |g: &Arc<regel::ir::Game>, n: usize, seed: u64| {
        let r = play_bots(g, &Setup::new(n, seed), &[], false, true);
        assert!(r.error.is_none(), "{:?}", r.error);
        format!("{:?} {:?} {:?}", r.decisions, r.scores, r.labels)
    };
    let alone = {
        let h = hansa.clone();
        std::thread::spawn(move || play(&h, 4, 3)).join().unwrap()
    };
    let after = {
        let (h, t) = (hansa.clone(), ttt.clone());
        std::thread::spawn(move || {
            play(&t, 2, 1);
            play(&h, 3, 3);
            play(&h, 4, 9);
            play(&h, 4, 3)
        })
        .join()
        .unwrap()
    };
    assert!(alone.len() > 1000, "a whole game: {alone}");
    assert_eq!(alone, after);

    let mut spare = None;
    let mut old = Match::new(hansa.clone(), &Setup::new(4, 9)).unwrap();
    for i in 0..40 {
        if old.pending().is_none() {
            break;
        }
        old.apply(i % old.pending().unwrap().1).unwrap();
    }
    old.recycle(&mut spare);
    let fresh = Match::new(hansa.clone(), &Setup::new(4, 3)).unwrap();
    let reused =
        Match::new_reusing(hansa.clone(), &Setup::new(4, 3), false, None, &mut spare).unwrap();
    let json = |m: &Match| serde_json::to_string(&m.state).unwrap();
    assert_eq!(json(&reused), json(&fresh));
    assert_eq!(reused.option_labels(), fresh.option_labels());
}
