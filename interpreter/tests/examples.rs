//! The teaching examples in `examples/`: each checks without warnings, plays
//! 500 seeded random games per supported player count without a run-time
//! error or a broken invariant, and gets a real outcome right when a game is
//! played out by option labels. The scenario files beside the examples pass,
//! and the classic games last as long on average as in the other engines
//! (RBG, Ludii) that they are compared with for speed.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use regel::cli::simulate::{bot_seed, play_random};
use regel::diag::Sources;
use regel::eval::{Match, Setup};
use regel::ir::Game;
use std::path::Path;
use std::sync::Arc;

const EXAMPLES: &[&str] = &[
    "tic-tac-toe/tic-tac-toe.rules",
    "connect-four/connect-four.rules",
    "breakthrough/breakthrough.rules",
    "reversi/reversi.rules",
    "nim/nim.rules",
    "nim/misere.rules",
    "yacht/yacht.rules",
    "route-builder/route-builder.rules",
    "coin-auction/coin-auction.rules",
];

fn load(rel: &str) -> Arc<Game> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(rel);
    let mut sources = Sources::default();
    match regel::pipeline::compile(
        &mut sources,
        &regel::cli::read_file,
        &path,
        &regel::opt::Passes::all(),
    ) {
        Ok((g, warnings)) => {
            assert!(
                warnings.is_empty(),
                "{rel} has warnings:\n{}",
                regel::diag::render(&sources, &warnings, false, 100)
            );
            Arc::new(g)
        }
        Err(d) => panic!(
            "{rel} does not check:\n{}",
            regel::diag::render(&sources, &d, false, 100)
        ),
    }
}

/// Starts a game and plays the given option labels in order.
fn play(rel: &str, labels: &[&str]) -> Match {
    let mut m = Match::new(load(rel), &Setup::new(2, 1)).expect("the match starts");
    for l in labels {
        assert!(!m.is_over(), "{rel}: the game ended before `{l}`");
        m.apply_label(l).unwrap_or_else(|e| {
            panic!(
                "{rel}: `{l}`: {} ({})",
                e.message,
                e.help.unwrap_or_default()
            )
        });
    }
    m
}

/// The seats that won, by name.
fn winners(m: &mut Match) -> Vec<String> {
    assert!(
        m.is_over(),
        "the game is not over; options: {:?}",
        m.option_labels()
    );
    m.standings()
        .expect("standings")
        .into_iter()
        .filter(|s| s.winner)
        .map(|s| s.seat)
        .collect()
}

#[test]
fn examples_check_without_warnings() {
    for rel in EXAMPLES {
        load(rel);
    }
}

#[test]
fn examples_play_500_random_games_per_player_count() {
    for rel in EXAMPLES {
        let game = load(rel);
        for players in game.min_players..=game.max_players {
            let mut finished = 0;
            for seed in 0..500u64 {
                let r = play_random(&game, &Setup::new(players, seed), true, false);
                assert!(
                    r.error.is_none(),
                    "{rel}, {players} players, seed {seed}: {}",
                    r.error.unwrap()
                );
                assert!(
                    !r.winners.is_empty(),
                    "{rel}, seed {seed}: nobody placed first"
                );
                finished += 1;
            }
            assert_eq!(finished, 500);
        }
    }
}

#[test]
fn tic_tac_toe_x_wins_on_a_row() {
    let mut m = play(
        "tic-tac-toe/tic-tac-toe.rules",
        &["X r1c1", "O r2c1", "X r1c2", "O r2c2", "X r1c3"],
    );
    assert_eq!(winners(&mut m), vec!["X"]);
    let st = m.standings().unwrap();
    assert_eq!((st[0].score, st[0].rank), (1, 1));
    assert_eq!((st[1].score, st[1].rank), (0, 2));
}

#[test]
fn tic_tac_toe_o_wins_on_a_diagonal() {
    let mut m = play(
        "tic-tac-toe/tic-tac-toe.rules",
        &["X r1c1", "O r1c3", "X r1c2", "O r2c2", "X r3c3", "O r3c1"],
    );
    assert_eq!(winners(&mut m), vec!["O"]);
}

#[test]
fn tic_tac_toe_full_grid_is_a_draw() {
    // X r1c1 O r1c2 X r1c3 / X r2c1 O r2c2 O r2c3 / O r3c1 X r3c2 X r3c3: no line.
    // The ninth move has one option, so it is taken automatically.
    let mut m = play(
        "tic-tac-toe/tic-tac-toe.rules",
        &[
            "X r1c1", "O r1c2", "X r1c3", "O r2c2", "X r2c1", "O r2c3", "X r3c2", "O r3c1",
        ],
    );
    assert_eq!(
        winners(&mut m),
        vec!["X", "O"],
        "a draw is a shared first place"
    );
    assert!(m.standings().unwrap().iter().all(|s| s.score == 0));
}

#[test]
fn tic_tac_toe_a_taken_cell_is_not_offered() {
    let m = play("tic-tac-toe/tic-tac-toe.rules", &["X r2c2"]);
    let labels = m.option_labels();
    assert_eq!(labels.len(), 8);
    assert!(!labels.contains(&"O r2c2".to_string()));
}

#[test]
fn connect_four_vertical_four_wins() {
    let mut m = play(
        "connect-four/connect-four.rules",
        &[
            "drop 1", "drop 2", "drop 1", "drop 2", "drop 1", "drop 2", "drop 1",
        ],
    );
    assert_eq!(winners(&mut m), vec!["red"]);
}

#[test]
fn connect_four_diagonal_four_wins() {
    // red: r6c1 r5c2 r4c3 r3c4 on the rising diagonal.
    let mut m = play(
        "connect-four/connect-four.rules",
        &[
            "drop 1", "drop 2", "drop 2", "drop 3", "drop 3", "drop 4", "drop 3", "drop 4",
            "drop 4", "drop 7", "drop 4",
        ],
    );
    assert_eq!(winners(&mut m), vec!["red"]);
}

#[test]
fn connect_four_three_is_not_enough_and_full_columns_close() {
    let m = play(
        "connect-four/connect-four.rules",
        &["drop 1", "drop 1", "drop 1", "drop 1", "drop 1", "drop 1"],
    );
    assert!(!m.is_over());
    let labels = m.option_labels();
    assert_eq!(
        labels,
        vec!["drop 2", "drop 3", "drop 4", "drop 5", "drop 6", "drop 7"]
    );
    let mut m = play(
        "connect-four/connect-four.rules",
        &["drop 1", "drop 7", "drop 2", "drop 7", "drop 3", "drop 6"],
    );
    assert!(!m.is_over(), "three in a row is not a win");
    m.apply_label("drop 4").unwrap();
    assert_eq!(winners(&mut m), vec!["red"], "four across wins");
}

/// first: heap 1 (3 sticks); second: heap 2 (4); first: heap 3 (5), the last stick.
/// With one heap left the heap is chosen automatically.
const LAST_STICK_BY_FIRST: &[&str] = &["heap 1", "take 3", "heap 2", "take 4", "take 5"];

#[test]
fn nim_taking_the_last_stick_wins() {
    let mut m = play("nim/nim.rules", LAST_STICK_BY_FIRST);
    assert_eq!(winners(&mut m), vec!["first"]);
}

#[test]
fn nim_misere_taking_the_last_stick_loses() {
    let mut m = play("nim/misere.rules", LAST_STICK_BY_FIRST);
    assert_eq!(winners(&mut m), vec!["second"]);
}

#[test]
fn nim_offers_only_what_a_heap_holds() {
    let m = play("nim/nim.rules", &["heap 2"]);
    assert_eq!(
        m.option_labels(),
        vec!["take 1", "take 2", "take 3", "take 4"]
    );
    let mut setup = Setup::new(2, 1);
    setup.options.push(("max_take".into(), 2));
    let mut m = Match::new(load("nim/nim.rules"), &setup).unwrap();
    m.apply_label("heap 3").unwrap();
    assert_eq!(m.option_labels(), vec!["take 1", "take 2"]);
}

/// Coin auction (examples/coin-auction/README.md, CA-3 to CA-6): red bids
/// its whole purse for the first lot in one decision; blue then buys the
/// other five lots a coin or two at a time and wins.
#[test]
fn coin_auction_a_bid_of_several_coins_is_one_decision() {
    let mut m = play("coin-auction/coin-auction.rules", &[]);
    // CA-3: the sets of 1, 1, 2, 3, 5 with one to five coins, the two 1s
    // counted once (3 * 2 * 2 * 2 - 1 = 23), and the pass.
    let labels = m.option_labels();
    assert_eq!(labels.len(), 24, "{labels:?}");
    assert_eq!(labels.iter().filter(|l| *l == "bid 1").count(), 1);
    assert!(labels.contains(&"bid 1, 1, 2, 3 and 5".to_string()));
    for l in [
        "bid 1, 1, 2, 3 and 5",
        "bid 1",
        "bid 1",
        "bid 2",
        "bid 3",
        "bid 5",
    ] {
        m.apply_label(l)
            .unwrap_or_else(|e| panic!("`{l}`: {}", e.message));
    }
    assert_eq!(winners(&mut m), vec!["blue"]);
    let st = m.standings().unwrap();
    let red = st.iter().find(|s| s.seat == "red").unwrap();
    let blue = st.iter().find(|s| s.seat == "blue").unwrap();
    // Six lots of 3 to 8 points: red has one, blue the other five.
    assert_eq!(red.score + blue.score, 33);
    assert!(red.score <= 8 && blue.score >= 25);
}

#[test]
fn example_scenarios_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files = vec![];
    for game in std::fs::read_dir(&root).unwrap() {
        if let Ok(entries) = std::fs::read_dir(game.unwrap().path().join("scenarios")) {
            files.extend(
                entries
                    .map(|e| e.unwrap().path())
                    .filter(|p| p.extension().and_then(|x| x.to_str()) == Some("toml")),
            );
        }
    }
    files.sort();
    assert!(
        files.len() >= 24,
        "expected the Breakthrough, Reversi, Yacht, Route Builder and Coin auction scenarios, found {}",
        files.len()
    );
    let mut argv: Vec<String> = vec!["regel".into(), "test".into()];
    argv.extend(files.iter().map(|f| f.display().to_string()));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut input = std::io::Cursor::new(Vec::new());
    let mut io = regel::cli::Io {
        out: &mut out,
        err: &mut err,
        input: &mut input,
        color: false,
        root: Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("..")),
        term: false,
    };
    let code = regel::cli::run(&argv, &mut io);
    let out = String::from_utf8_lossy(&out);
    assert_eq!(
        code,
        0,
        "scenarios failed:\n{out}\n{}",
        String::from_utf8_lossy(&err)
    );
    assert!(
        out.contains(&format!("{} passed, 0 failed", files.len())),
        "{out}"
    );
}

/// The mean number of plies of `games` seeded random games, counted as RBG
/// counts them: every move a player makes, including a move that was the only
/// legal one (taken without asking, so not among `decisions`) and a pass. A
/// pass is the `else` of an `act`, which leaves no decision behind, so it is
/// counted from the log line the rules write for it (a line with "passes").
fn mean_plies(rel: &str, games: u64) -> f64 {
    let game = load(rel);
    let mut plies = 0u64;
    for seed in 0..games {
        let mut setup = Setup::new(2, seed);
        setup.log = true;
        let mut m = Match::new(game.clone(), &setup).expect("the match starts");
        m.playout(&mut ChaCha8Rng::seed_from_u64(bot_seed(seed)))
            .unwrap_or_else(|e| panic!("{rel}, seed {seed}: {}", e.message));
        let passes = m.take_log().iter().filter(|l| l.contains("passes")).count() as u64;
        plies += (m.state.decisions + m.state.forced) as u64 + passes;
    }
    plies as f64 / games as f64
}

/// The mean lengths of random games in RBG and Ludii, in plies.
const PEER_LENGTHS: &[(&str, f64)] = &[
    ("tic-tac-toe/tic-tac-toe.rules", 7.63),
    ("connect-four/connect-four.rules", 21.3),
    ("breakthrough/breakthrough.rules", 64.1),
    ("reversi/reversi.rules", 60.4),
];

/// The classic games are the same games as the peers' (the speed comparison
/// is only fair then): random games last as long, within 2 %.
#[test]
fn classic_games_last_as_long_as_the_peers() {
    for (rel, peer) in PEER_LENGTHS {
        let mean = mean_plies(rel, 2000);
        assert!(
            (mean - peer).abs() <= 0.02 * peer,
            "{rel}: {mean:.2} plies on average, the peers {peer}"
        );
    }
}

/// The figures of the closing note: `cargo test --release --test examples -- --ignored --nocapture`.
#[test]
#[ignore]
fn classic_game_lengths_over_10000_games() {
    for (rel, peer) in PEER_LENGTHS {
        let mean = mean_plies(rel, 10_000);
        println!(
            "{rel}: {mean:.3} plies over 10000 games (peers {peer}, {:+.2} %)",
            (mean / peer - 1.0) * 100.0
        );
    }
}

#[test]
fn yacht_fills_every_box_once_and_scores_the_sheet() {
    // Always entering the first box offered: twelve rounds fill the twelve
    // boxes of each sheet, and the score is the sheet's total.
    let game = load("yacht/yacht.rules");
    let mut m = Match::new(game, &Setup::new(2, 7)).unwrap();
    let (mut turns, mut entered) = (0, [0i64; 2]);
    let mut boxes: Vec<Vec<String>> = vec![vec![], vec![]];
    while let Some((seat, n)) = m.pending() {
        let labels: Vec<String> = (0..n).map(|i| m.option_label(i)).collect();
        let i = labels
            .iter()
            .position(|l| l.contains(": "))
            .expect("a box is always offered");
        let (name, points) = labels[i].split_once(": ").unwrap();
        assert!(
            !boxes[seat].iter().any(|b| b == name),
            "{name} offered twice to seat {seat}"
        );
        boxes[seat].push(name.to_string());
        entered[seat] += points.parse::<i64>().unwrap();
        m.apply(i).unwrap();
        turns += 1;
    }
    assert_eq!(turns, 24);
    assert!(boxes.iter().all(|b| b.len() == 12));
    let standings = m.standings().unwrap();
    assert_eq!(
        standings.iter().map(|s| s.score).collect::<Vec<_>>(),
        entered
    );
}
