//! Identical options merged (issue 10, item 4; the rule is stated in
//! rulesets/README.md, "How a match runs"): options that differ only in twin
//! pieces (same kind, owner and fields) lying in the same zone with the same
//! visibility, and that read the same, are offered once.

use regel::diag::Sources;
use regel::eval::{Match, Setup};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Checks `rules` served from memory and starts a two-player match, seed 1,
/// keeping its log.
fn start(rules: &str) -> Match {
    start_logged(rules, true).unwrap_or_else(|e| panic!("run failed: {}", e.message))
}

/// Checks `rules` served from memory and starts a two-player match, seed 1,
/// keeping its log or not (equal labels are refused only where it is kept).
fn start_logged(rules: &str, log: bool) -> Result<Match, regel::eval::RunError> {
    let path = PathBuf::from("/memory/game.rules");
    let (text, p) = (rules.to_string(), path.clone());
    let reader = move |q: &Path| -> std::io::Result<String> {
        if q == p {
            Ok(text.clone())
        } else {
            Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "not served",
            ))
        }
    };
    let mut sources = Sources::default();
    let game =
        match regel::pipeline::compile(&mut sources, &reader, &path, &regel::opt::Passes::all()) {
            Ok((g, _)) => Arc::new(g),
            Err(d) => panic!(
                "check failed:\n{}",
                regel::diag::render(&sources, &d, false, 100)
            ),
        };
    let mut setup = Setup::new(2, 1);
    setup.log = log;
    Match::new(game, &setup)
}

/// A hand of cards 1, 1, 2 and 3 (the two 1s are twins) and a `DECIDE` line.
fn hand(decide: &str, extra: &str) -> String {
    format!(
        r#"game "Hand"
players 2
piece card {{ v: int }} in hand label "card {{v}}" {{
  2 x {{ v: 1 }}
  1 x {{ v: 2 }}
  1 x {{ v: 3 }}
}}
zone hand: card
zone table: card
zone aside: card hidden
var total: int = 0
{extra}
play {{
  {decide}
  log "total {{total}}, table {{count(table)}}"
}}
"#
    )
}

const PLAY: &str = r#"action put(c in hand) label "play {c}" { move c to table
  total += c.v }"#;

#[test]
fn twin_cards_in_one_hand_are_offered_once() {
    let m = start(&hand("act p1 with put", PLAY));
    assert_eq!(
        m.option_labels(),
        ["play card 1", "play card 2", "play card 3"]
    );
}

#[test]
fn the_merged_option_has_the_effect_of_either_twin() {
    let mut m = start(&hand("act p1 with put", PLAY));
    m.apply_label("play card 1").unwrap();
    assert!(m.is_over());
    assert_eq!(m.state.log.last().unwrap(), "total 1, table 1");
}

/// A parameter whose domain keeps, of the pieces of its zone, only the
/// first of each look (`first(hand where v == c.v) == c`, inside a function
/// or not, the look any function of the piece's kind, owner and fields:
/// `value(c)`) holds no two twins, so its options are not searched for
/// them (`ActionDecl::twin_free`, `check/twins.rs`): it offers what merging
/// would have kept. A look at where the piece lies (`index`), a first taken
/// in another zone, or no first at all are searched and merged as before.
#[test]
fn a_parameter_keeping_the_first_of_each_look_is_not_searched_for_twins() {
    let actions = r#"fn value(c: card) -> int = c.v * 10
fn first_look(c: card) -> bool = first(hand where value(it) == value(c)) == c
fn first_v(c: card) -> bool = first(hand where v == c.v) == c
fn first_placed(c: card) -> bool = first(hand where index(it, hand) == index(c, hand)) == c
fn first_on_table(c: card) -> bool = first(table where v == c.v) == c
action look(c in hand where first_look(it)) label "look {c}" { }
action plain(c in hand where first_v(it)) label "plain {c}" { }
action placed(c in hand where first_placed(it)) label "placed {c}" { }
action elsewhere(c in hand where first_on_table(it)) label "elsewhere {c}" { }
"#;
    let m = start(&hand(
        "act p1 with look, plain, placed, elsewhere, put",
        &format!("{actions}{PLAY}"),
    ));
    let free: Vec<(&str, bool, bool)> = m
        .game
        .actions
        .iter()
        .map(|a| (a.name.as_str(), a.merge, a.twin_free))
        .collect();
    assert_eq!(
        free,
        [
            ("look", true, true),
            ("plain", true, true),
            ("placed", true, false),
            ("elsewhere", true, false),
            ("put", true, false)
        ]
    );
    // Each twin once: by its own filter, or merged.
    let want: Vec<String> = ["look", "plain", "placed", "play"]
        .into_iter()
        .flat_map(|a| (1..=3).map(move |v| format!("{a} card {v}")))
        .collect();
    assert_eq!(m.option_labels(), want);
}

#[test]
fn same_labels_of_different_actions_stay_apart() {
    let rules = hand(
        "move first(hand where v == 1) to table\n  act p1 with from_hand, from_table",
        r#"action from_hand(c in hand) label "take {c}" { total += c.v }
action from_table(c in table) label "take {c}" { total += 10 * c.v }"#,
    );
    // Same label, different actions: never merged, so refused where labels
    // are written (rulesets/README.md, "How a match runs").
    let m = start_logged(&rules, false).unwrap();
    assert_eq!(m.pending().unwrap().1, 4);
    assert_eq!(
        start_logged(&rules, true).err().unwrap().message,
        "two options read `take card 1`: `from_hand(c = card 1)` and `from_table(c = card 1)`"
    );
}

#[test]
fn twins_in_different_zones_stay_apart() {
    // One of the two 1s is moved to the table first: `card 1` in the hand and
    // on the table read the same but lie apart: they are not merged.
    let rules = hand("move first(hand where v == 1) to table\n  let c = choose p1 from [first(hand where v == 1), first(table)] label \"pick {c}\"\n  move c to aside", "");
    let m = start_logged(&rules, false).unwrap();
    assert_eq!(m.pending().unwrap().1, 2);
    // Read alike, they are refused where labels are written.
    assert_eq!(
        start_logged(&rules, true).err().unwrap().message,
        "two options read `pick card 1`: `card 1` and `card 1`"
    );
}

#[test]
fn twins_with_different_labels_stay_apart() {
    // The label says where in the hand the card lies: the two 1s read differently.
    let rules = hand(
        "act p1 with put",
        r#"action put(c in hand) label "play {c} from place {index(c, hand)}" { move c to table }"#,
    );
    let m = start(&rules);
    assert_eq!(
        m.option_labels(),
        [
            "play card 1 from place 1",
            "play card 1 from place 2",
            "play card 2 from place 3",
            "play card 3 from place 4"
        ]
    );
}

#[test]
fn a_choice_among_twin_pieces_is_offered_once() {
    let rules = hand(
        "let c = choose p1 from hand label \"keep {c}\"\n  total = c.v",
        "",
    );
    let m = start(&rules);
    assert_eq!(
        m.option_labels(),
        ["keep card 1", "keep card 2", "keep card 3"]
    );
}

#[test]
fn a_choice_left_with_one_option_is_forced() {
    // Only the two twin 1s are left: one option, taken without asking.
    let rules = hand(
        "move all hand where v > 1 to aside\n  let c = choose p1 from hand\n  total = c.v",
        "",
    );
    let m = start(&rules);
    assert!(m.is_over());
    assert_eq!(m.state.log.last().unwrap(), "total 1, table 0");
    assert!(
        m.state.log.iter().any(|l| l.ends_with("(forced)")),
        "{:?}",
        m.state.log
    );
}

#[test]
fn several_parameters_merge_only_where_all_agree() {
    // Pairs of cards from the hand: {1a,2} and {1b,2} are one move; {1a,1b} is its own.
    let rules = hand(
        "act p1 with pair",
        r#"action pair(a in hand, b in hand) label "pair {a} and {b}" { require index(a, hand) < index(b, hand)
  total = a.v + b.v }"#,
    );
    let m = start(&rules);
    assert_eq!(
        m.option_labels(),
        [
            "pair card 1 and card 1",
            "pair card 1 and card 2",
            "pair card 1 and card 3",
            "pair card 2 and card 3"
        ]
    );
}

/// Two dice showing `first` and `second`, and an action taking both in
/// either order, written `merge` or not.
fn dice(first: i64, second: i64, merge: &str) -> String {
    format!(
        r#"game "Dice"
players 2
var per player moved: int = 0
fn die(k: int) -> int = if k == 1 then {first} else {second}
action use_both(k in 1..2) {merge} label "{{die(k)}} then {{die(3 - k)}}" {{
  actor.moved += 10 * die(k) + die(3 - k)
}}
action pass label "pass" {{ }}
play {{
  act p1 with use_both, pass
  log "moved {{p1.moved}}"
}}
"#
    )
}

#[test]
fn equal_labels_are_refused_where_the_log_is_kept() {
    // Rule: rulesets/README.md, "How a match runs", no two options read the same.
    let e = start_logged(&dice(3, 3, ""), true)
        .map(|_| ())
        .expect_err("refused");
    assert_eq!(
        e.message,
        "two options read `3 then 3`: `use_both(k = 1)` and `use_both(k = 2)`"
    );
    // A playout that writes no label is not refused: it offers both.
    let m = start_logged(&dice(3, 3, ""), false).unwrap();
    assert_eq!(m.pending().unwrap().1, 3);
}

#[test]
fn merge_offers_options_that_read_alike_once() {
    let mut m = start(&dice(3, 3, "merge"));
    assert_eq!(m.option_labels(), ["3 then 3", "pass"]);
    m.apply_label("3 then 3").unwrap();
    assert_eq!(m.state.log.last().unwrap(), "moved 33");
}

#[test]
fn merge_keeps_options_that_read_differently() {
    let mut m = start(&dice(2, 5, "merge"));
    assert_eq!(m.option_labels(), ["2 then 5", "5 then 2", "pass"]);
    m.apply_label("5 then 2").unwrap();
    assert_eq!(m.state.log.last().unwrap(), "moved 52");
}
