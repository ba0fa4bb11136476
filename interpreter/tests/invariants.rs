//! The engine's promises (DESIGN.md, "Invariants"), tested on Auf Heller und
//! Pfennig: a paused match is plain data that resumes identically, and no
//! seat's view shows another seat's hidden pieces.

mod common;

use common::load;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use regel::eval::{Match, PendingKind, Setup, State};

const BASE: &str = "rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules";
const OPEN_TILES: &str = "rulesets/auf-heller-und-pfennig/open-tiles.rules";

fn finish(m: &mut Match, bot: &mut ChaCha8Rng) -> (Vec<i64>, String) {
    m.playout(bot).unwrap();
    let scores = m.standings().unwrap().iter().map(|s| s.score).collect();
    (scores, serde_json::to_string(&m.state).unwrap())
}

/// AHUP-9.2 / AHUP-DP-04: in the open-tiles variant every player picks a
/// private tile inside a loop over the seats — a decision by a player who is
/// not the one whose turn it is. Pause there, clone, serialise, resume.
#[test]
fn a_match_paused_inside_a_loop_resumes_identically_after_clone_and_serde() {
    let game = load(OPEN_TILES);
    let mut m = Match::new(game.clone(), &Setup::new(4, 11)).unwrap();
    let current_var = game.vars.iter().find(|v| v.name == "current").unwrap().base as usize;
    // The first decision is the starting player's private tile; take it, so
    // that the next one belongs to a player who is not `current`.
    m.apply(3).unwrap();
    let (decider, _) = m.pending().unwrap();
    assert_ne!(
        decider as i64, m.state.vars[current_var],
        "the decider is not the active player"
    );
    assert!(
        matches!(
            m.state.pending.as_ref().unwrap().kind,
            PendingKind::Choose { .. }
        ),
        "paused inside `choose`"
    );
    assert!(
        m.state
            .frames
            .iter()
            .any(|f| matches!(f.kind, regel::eval::FrameKind::Loop { .. })),
        "paused inside a loop"
    );

    let cloned = m.clone();
    let json = serde_json::to_string(&m.state).unwrap();
    let restored: State = serde_json::from_str(&json).unwrap();
    let resumed = Match {
        game: game.clone(),
        state: restored,
    };
    assert_eq!(resumed.option_labels(), m.option_labels());

    let mut results = vec![];
    for mut x in [m, cloned, resumed] {
        let mut bot = ChaCha8Rng::seed_from_u64(5);
        results.push(finish(&mut x, &mut bot));
    }
    assert_eq!(results[0], results[1], "a clone ends identically");
    assert_eq!(
        results[0], results[2],
        "a serialised and restored match ends identically"
    );
}

/// DESIGN.md invariant 4: same rules, seed and decisions give the same game.
#[test]
fn same_seed_and_decisions_give_the_same_game() {
    let game = load(BASE);
    let play = |seed| {
        let mut m = Match::new(
            game.clone(),
            &Setup {
                log: true,
                ..Setup::new(3, seed)
            },
        )
        .unwrap();
        let mut bot = ChaCha8Rng::seed_from_u64(9);
        m.playout(&mut bot).unwrap();
        (m.take_log(), m.standings().unwrap())
    };
    assert_eq!(play(4), play(4));
    assert_ne!(play(4).0, play(5).0, "another seed gives another game");
}

/// AHUP-12: a private tile, a drawn tile and the pool are never shown to
/// another seat, at any point of a whole game, for every player count.
#[test]
fn no_view_ever_shows_another_seats_hidden_tile() {
    let game = load(BASE);
    for players in 2..=4 {
        let mut m = Match::new(game.clone(), &Setup::new(players, 21 + players as u64)).unwrap();
        let mut bot = ChaCha8Rng::seed_from_u64(3);
        let mut checked = 0;
        while let Some((decider, n)) = m.pending() {
            for seat in 0..players {
                let view = m.view(Some(seat));
                let me = &game.seats[seat];
                for z in &view.zones {
                    let owner = z.zone.split('.').next().unwrap();
                    let private = z.zone.ends_with(".private") || z.zone.ends_with(".drawn");
                    if (private && owner != me) || z.zone == "pool" {
                        assert!(
                            z.pieces.iter().all(|p| p == "hidden tile"),
                            "seat {me} sees {} in {}: {:?}",
                            z.pieces.join(","),
                            z.zone,
                            z.pieces
                        );
                    }
                    if private && owner == me {
                        assert!(
                            z.pieces.iter().all(|p| p != "hidden tile"),
                            "seat {me} cannot see its own {}",
                            z.zone
                        );
                    }
                }
                checked += 1;
            }
            // Every option has a label, as the decider sees it.
            for i in 0..n {
                assert!(
                    !m.option_label(i).is_empty(),
                    "option {i} of seat {decider} has no label"
                );
            }
            let i = bot.gen_range(0..n);
            m.apply(i).unwrap();
        }
        assert!(checked > 50 * players);
    }
}

/// What one seat is told of another's move hides what it may not see: the
/// cell choice after a draw reads `put hidden at …` for everyone but the drawer.
#[test]
fn other_seats_see_a_drawn_tile_as_hidden_in_labels() {
    let game = load(BASE);
    let mut bot = ChaCha8Rng::seed_from_u64(1);
    let mut found = false;
    for seed in 0..20 {
        let mut m = Match::new(game.clone(), &Setup::new(3, seed)).unwrap();
        while let Some((decider, n)) = m.pending() {
            if matches!(
                m.state.pending.as_ref().unwrap().kind,
                PendingKind::Choose { .. }
            ) && m.option_label(0).starts_with("put ")
            {
                let mine = m.option_label(0);
                let theirs = m.option_label_for(0, (decider + 1) % 3);
                assert!(!mine.contains("hidden"), "{mine}");
                assert!(theirs.starts_with("put hidden tile at "), "{theirs}");
                found = true;
                break;
            }
            let i = bot.gen_range(0..n);
            m.apply(i).unwrap();
        }
        if found {
            break;
        }
    }
    assert!(found, "some game draws a tile");
}

/// Plays whole seeded games and checks, at every decision and for every seat,
/// that each piece in a zone `secret(zone, seat)` names is shown to that seat
/// as hidden unless the rules revealed it. The check reads the state, not the
/// engine's own visibility function.
fn assert_secret(rel: &str, players: usize, games: u64, secret: &dyn Fn(&str, &str) -> bool) {
    let game = load(rel);
    let mut checked = 0usize;
    for seed in 0..games {
        let mut m = Match::new(game.clone(), &Setup::new(players, seed)).unwrap();
        let mut bot = ChaCha8Rng::seed_from_u64(seed);
        loop {
            for seat in 0..players {
                let me = &game.seats[seat];
                let view = m.view(Some(seat));
                for z in &view.zones {
                    if !secret(&z.zone, me) {
                        continue;
                    }
                    let id = (0..game.nzones)
                        .find(|&id| game.zone_name(id) == z.zone)
                        .unwrap();
                    for (k, &piece) in m.state.zones.slice(id).iter().enumerate() {
                        let shown = !z.pieces[k].starts_with("hidden ");
                        assert_eq!(
                            shown, m.state.revealed[piece as usize],
                            "{rel}: {me} sees `{}` in {} (seed {seed})",
                            z.pieces[k], z.zone
                        );
                        checked += 1;
                    }
                }
            }
            let Some((_, n)) = m.pending() else { break };
            m.apply(bot.gen_range(0..n)).unwrap();
        }
    }
    assert!(
        checked > 1000,
        "{rel}: only {checked} secret pieces were checked"
    );
}

/// HASP-14: a hand is seen only by its owner (bar cards shown by a prediction);
/// the deck and the set-aside cards by nobody — over whole matches, 2–4 players.
#[test]
fn hasp_no_seat_sees_another_hand_or_the_deck() {
    for players in 2..=4 {
        assert_secret("rulesets/hasp/hasp.rules", players, 8, &|zone, me| {
            zone == "deck"
                || zone == "aside"
                || (zone.ends_with(".hand") && !zone.starts_with(&format!("{me}.")))
        });
    }
}

/// HANSA-14.1: the goods stacks are face down to everyone.
#[test]
fn hansa_goods_stacks_are_hidden_from_everyone() {
    for players in 2..=4 {
        assert_secret("rulesets/hansa/hansa.rules", players, 3, &|zone, _| {
            zone.starts_with("stack")
        });
    }
}
