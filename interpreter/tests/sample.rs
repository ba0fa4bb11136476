//! Options drawn, not listed (`core/src/eval/sample.rs`): in random
//! playouts every drawn option is one that listing offers, a decision drawn
//! empty is one listing finds empty, and the drawn option is uniform among
//! the listed ones. Every drawn decision of these games is listed as well
//! (`Match::audit_sampling`) and compared.

mod common;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use regel::eval::{Match, Setup};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Per number of listed options: how often the drawn option was each of them.
type Tally = BTreeMap<u32, Vec<u64>>;

/// Plays `games` sampled playouts of `rel` (at most `limit` decisions
/// each) with every drawn decision listed too; returns the decisions drawn
/// and those drawn empty, adding the places of the drawn options to `tally`.
fn audited(
    rel: &str,
    game: &Arc<regel::ir::Game>,
    players: usize,
    games: u64,
    limit: u32,
    tally: &mut Tally,
) -> (usize, usize) {
    let (mut drawn, mut empty) = (0, 0);
    for seed in 0..games {
        let mut m = Match::new(game.clone(), &Setup::new(players, seed)).unwrap();
        m.audit_sampling();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        m.sampled_playout_at_most(&mut rng, limit)
            .unwrap_or_else(|e| panic!("{rel} seed {seed}: {e:?}"));
        let a = m.sampling_audit().unwrap();
        assert_eq!(a.fault, None, "{rel} seed {seed}");
        for &(n, at) in &a.draws {
            drawn += 1;
            match at {
                Some(i) => tally.entry(n).or_insert_with(|| vec![0; n as usize])[i as usize] += 1,
                None => empty += 1,
            }
        }
    }
    (drawn, empty)
}

/// The chi-square statistic of `counts` against equal frequencies.
fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

/// The chi-square statistic that uniform draws pass with probability 0.999,
/// for 1 to 9 degrees of freedom.
const CRITICAL: [f64; 9] = [
    10.83, 13.82, 16.27, 18.47, 20.52, 22.46, 24.32, 26.12, 27.88,
];

/// Twin cards (same kind and fields, in one zone) whose options listing
/// merges (`eval/merge.rs`), in an action with one parameter and in one
/// whose second parameter reads the first: a drawn option must be the one
/// listing keeps.
const TWINS: &str = r#"game "Twins"
players 2
piece card { v: int } in hand label "card {v}" {
  3 x { v: 1 }
  2 x { v: 2 }
  1 x { v: 3 }
}
zone hand: card
zone table: card
action put(c in hand) label "play {c}" {
  move c to table
}
action pair(n in 1..2, c in hand where it.v >= n) label "pair {n} with {c}" {
  move c to table
}
play {
  while count(hand) > 0 {
    act p1 with put, pair
  }
}
"#;

/// A second parameter drawn from the zone of the first's value, read in
/// place in the arena (`ir::InPlace`): the first drawn from every seat
/// (`take`: the sums are the zones' starts) or from some seats (`lay`:
/// listed, each value checked for its zone); `give`'s second base does not
/// read the first, which only its filter reads.
const IN_PLACE: &str = r#"game "In place"
players 3
piece card { v: int } in deck label "card {v}" {
  1 x { v: 1 }
  1 x { v: 2 }
  1 x { v: 3 }
  1 x { v: 4 }
  1 x { v: 5 }
  1 x { v: 6 }
}
zone deck: card
zone per player hand: card
zone table: card
action take(q in players, c in q.hand where it.v != 3) label "take {c} from {q}" {
  move c to actor.hand
}
action give(q in opponents(actor), c in actor.hand where q != actor) label "give {c} to {q}" {
  move c to q.hand
}
action lay(q in opponents(actor), c in q.hand) label "lay {c} of {q}" {
  move c to table
}
setup {
  for c in deck {
    move c to random(players).hand
  }
}
play {
  let p = p1
  while count(table) < 6 {
    act p with take, give, lay
    p = next(p)
  }
}
"#;

/// The zone of `none`, drawn from in place: the error listing gives.
const NONE_SEAT: &str = r#"game "None seat"
players 2
piece card { } in deck label "card" {
  4 x { }
}
zone deck: card
zone per player hand: card
var partner: player = none
action start label "start" { }
action wait label "wait" { }
action lay(q in [actor, partner], c in q.hand) label "lay {c} of {q}" {
  move c to deck
}
setup {
  for c in deck {
    move c to p1.hand
  }
}
play {
  act p1 with start, wait
  act p1 with lay
}
"#;

/// A range drawn from without listing it, too long to list.
const LONG_RANGE: &str = r#"game "Long range"
players 2
var n: int = 1000001
action start label "start" { }
action wait label "wait" { }
action pick(k in 1..n) label "pick {k}" { }
play {
  act p1 with start, wait
  act p1 with pick
}
"#;

/// The error a playout of `rules` stops with, listing (`false`) and drawing
/// (`true`) the options of each decision after the first.
fn errors_both_ways(rules: &str) -> Vec<String> {
    let game = common::compile(rules, "", &regel::opt::Passes::all());
    [false, true]
        .into_iter()
        .map(|drawn| {
            let mut m = Match::new(game.clone(), &Setup::new(2, 1)).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            let e = if drawn {
                m.sampled_playout_at_most(&mut rng, 10)
            } else {
                m.playout_at_most(&mut rng, 10)
            };
            format!("{:?}", e.expect_err("an error"))
        })
        .collect()
}

#[test]
fn the_zone_of_none_is_the_same_error_drawn_as_listed() {
    let game = common::compile(NONE_SEAT, "", &regel::opt::Passes::all());
    let plan = game.actions[2].draw.unwrap();
    assert!(plan.in_place.is_some_and(|i| !i.in_range), "{plan:?}");
    let errors = errors_both_ways(NONE_SEAT);
    assert!(errors[0].contains("NoneZone"), "{}", errors[0]);
    assert_eq!(errors[0], errors[1]);
}

/// A range is counted, not listed, when drawn from (`DrawPlan::counted`),
/// and one too long is the error listing gives.
#[test]
fn a_range_too_long_is_the_same_error_drawn_as_listed() {
    let game = common::compile(LONG_RANGE, "", &regel::opt::Passes::all());
    assert_eq!(game.actions[2].draw.unwrap().counted, 1);
    let errors = errors_both_ways(LONG_RANGE);
    assert!(errors[0].contains("RangeTooLong"), "{}", errors[0]);
    assert_eq!(errors[0], errors[1]);
}

#[test]
fn drawn_options_are_listed_options_drawn_uniformly() {
    let mut tally = Tally::new();
    let twins = common::compile(TWINS, "", &regel::opt::Passes::all());
    let (drawn, _) = audited("twins", &twins, 2, 400, u32::MAX, &mut tally);
    // Five decisions a game are drawn (the first is listed as the match starts).
    assert_eq!(drawn, 5 * 400);
    let in_place = common::compile(IN_PLACE, "", &regel::opt::Passes::all());
    let plans: Vec<_> = in_place.actions.iter().map(|a| a.draw.unwrap()).collect();
    let kinds: Vec<_> = plans
        .iter()
        .map(|p| (p.nested, p.counted, p.in_place.map(|i| i.in_range)))
        .collect();
    assert_eq!(
        kinds,
        [
            (true, 1, Some(true)),
            (true, 0, None),
            (true, 0, Some(false))
        ],
        "{plans:?}"
    );
    let (drawn, _) = audited("in place", &in_place, 3, 200, 200, &mut tally);
    assert!(drawn >= 2000, "in place: {drawn} decisions drawn");
    for (rel, players, games, limit, least) in [
        (
            "examples/tic-tac-toe/tic-tac-toe.rules",
            2,
            200,
            u32::MAX,
            1000,
        ),
        (
            "examples/connect-four/connect-four.rules",
            2,
            100,
            u32::MAX,
            1000,
        ),
        (
            "examples/breakthrough/breakthrough.rules",
            2,
            20,
            u32::MAX,
            1000,
        ),
        ("examples/reversi/reversi.rules", 2, 10, u32::MAX, 300),
        ("examples/nim/nim.rules", 2, 200, u32::MAX, 500),
        ("examples/yacht/yacht.rules", 2, 20, u32::MAX, 500),
        (
            "examples/route-builder/route-builder.rules",
            2,
            20,
            u32::MAX,
            100,
        ),
        // Its bids are `subsets(…)`: listed, never drawn.
        (
            "examples/coin-auction/coin-auction.rules",
            3,
            20,
            u32::MAX,
            0,
        ),
        (
            "rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules",
            4,
            20,
            u32::MAX,
            1000,
        ),
        ("rulesets/hasp/hasp.rules", 4, 20, u32::MAX, 700),
        ("rulesets/hansa/hansa.rules", 4, 10, u32::MAX, 300),
        (
            "rulesets/hansa-teutonica/hansa-teutonica.rules",
            3,
            3,
            3000,
            5000,
        ),
    ] {
        let (drawn, empty) = audited(rel, &common::load(rel), players, games, limit, &mut tally);
        eprintln!("{rel}: {drawn} decisions drawn, {empty} of them empty");
        assert!(drawn >= least, "{rel}: {drawn} decisions drawn");
        if least == 0 {
            assert_eq!(drawn, 0, "{rel}");
        }
    }
    // Where a drawn option lies among the listed ones is uniform: tested per
    // number of options, wherever there are 20 draws an option.
    let mut tested = 0;
    for (&n, counts) in &tally {
        let total: u64 = counts.iter().sum();
        if !(2..=10).contains(&n) || total < 20 * u64::from(n) {
            continue;
        }
        let chi = chi_square(counts);
        eprintln!("{n} options: {total} draws, chi-square {chi:.2}");
        assert!(chi < CRITICAL[n as usize - 2], "{n} options: {counts:?}");
        tested += 1;
    }
    assert_eq!(tested, 9);
}
