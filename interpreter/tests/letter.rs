//! The shipped rulesets to the letter of their rulebooks (issue 13), and logs
//! that let a game be checked by hand: what the views show and what the log
//! says. Scenario files (`rulesets/*/scenarios/`) test positions and options;
//! these tests look at the two things scenarios cannot see, a seat's view and
//! the game log. Each test cites the rule ids it checks.
//!
//! A position is set up as a scenario does it: a variant of the ruleset whose
//! `play` block is replaced by the test's statements (run after `setup`).

use regel::eval::{Match, Setup, View};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .canonicalize()
        .unwrap()
}

/// A match of the scenario helpers beside `game` (e.g. "hasp"), with `given`
/// in place of `play`, after the `decisions` (by label).
fn position(
    game: &str,
    players: usize,
    seed: u64,
    options: &[&str],
    given: &str,
    decisions: &[&str],
) -> Match {
    position_with(game, "", players, seed, options, given, decisions)
}

/// As [`position`], with extra declarations (`rules`) in the variant.
fn position_with(
    game: &str,
    rules: &str,
    players: usize,
    seed: u64,
    options: &[&str],
    given: &str,
    decisions: &[&str],
) -> Match {
    let dir = root().join("rulesets").join(game).join("scenarios");
    let path = dir.join("letter.scenario.rules");
    let variant = format!(
        "variant \"letter\" extends \"helpers.rules\"\n{rules}\noverride play {{\n{given}\n}}\n"
    );
    let vp = path.clone();
    let reader = move |p: &Path| -> std::io::Result<String> {
        if p == vp {
            Ok(variant.clone())
        } else {
            regel::cli::read_file(p)
        }
    };
    let mut sources = regel::diag::Sources::default();
    let g = match regel::pipeline::compile(&mut sources, &reader, &path, &regel::opt::Passes::all())
    {
        Ok((g, _)) => Arc::new(g),
        Err(d) => panic!(
            "does not check:\n{}",
            regel::diag::render(&sources, &d, false, 100)
        ),
    };
    let opts: Vec<String> = options.iter().map(|s| s.to_string()).collect();
    let options = regel::cli::parse_options(&g, &opts).unwrap();
    let setup = Setup {
        players,
        seed,
        options,
        budget: regel::eval::DEFAULT_BUDGET,
        log: true,
    };
    let mut m = Match::new(g, &setup).unwrap_or_else(|e| panic!("setup: {}", e.message));
    for d in decisions {
        m.apply_label(d)
            .unwrap_or_else(|e| panic!("`{d}`: {} {:?}", e.message, e.help));
    }
    m
}

fn seat(m: &Match, name: &str) -> usize {
    m.game.seats.iter().position(|s| s == name).unwrap()
}

fn view_of(m: &Match, name: &str) -> View {
    m.view(Some(seat(m, name)))
}

fn var<'a>(v: &'a View, name: &str) -> Option<&'a str> {
    v.vars
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, x)| x.as_str())
}

fn zone<'a>(v: &'a View, name: &str) -> &'a regel::eval::view::ZoneView {
    v.zones
        .iter()
        .find(|z| z.zone == name)
        .unwrap_or_else(|| panic!("no zone {name} in the view"))
}

// ------------------------------------------------------------------ Hasp

const HASP_TRICK: &str = r#"
  start(west, river)
  trick_no = 1
  give(north, "forest-4")
  give(north, "rocks-5")
  give(north, "rocks-6")
  give(east, "forest-2")
  give(east, "river-5")
  give(east, "village-8")
  give(south, "prairie-3")
  give(south, "river-1")
  give(south, "village-10")
  give(west, "prairie-6")
  give(west, "rocks-2")
  rest_won_by(north)
  play_trick()
"#;

/// HASP-7.5, HASP-14.6: "le metterà a faccia in giù": every seat's view shows
/// south's won trick as four hidden cards, south's own included.
#[test]
fn hasp_won_tricks_are_face_down_in_every_view() {
    let m = position(
        "hasp",
        4,
        0,
        &[],
        HASP_TRICK,
        &["play forest-4", "play river-1", "play prairie-6"],
    );
    for s in ["north", "east", "south", "west"] {
        let v = view_of(&m, s);
        let won = zone(&v, "south.won");
        assert_eq!(won.count, 4, "{s}");
        assert!(
            won.pieces.iter().all(|p| p == "hidden card"),
            "{s} sees {:?}",
            won.pieces
        );
    }
}

/// HASP-AMB-17 as the option `public_history`: the won trick stays readable.
#[test]
fn hasp_public_history_option_shows_won_tricks() {
    let m = position(
        "hasp",
        4,
        0,
        &["public_history=true"],
        HASP_TRICK,
        &["play forest-4", "play river-1", "play prairie-6"],
    );
    let v = view_of(&m, "north");
    let won = zone(&v, "south.won");
    assert!(
        won.pieces.contains(&"river-1".to_string()),
        "{:?}",
        won.pieces
    );
}

/// HASP-5.3: no trump is shown before the announcement; "no trump" after it;
/// the suit the rules use, `trump_suit` (`village` stands for no trump), and the
/// bookkeeping variables are not in the view.
#[test]
fn hasp_view_shows_the_trump_only_once_announced() {
    let given = "dealer = north\n  deal_round()\n  predict(leader)";
    let m = position("hasp", 2, 0, &[], given, &[]);
    let v = view_of(&m, "east");
    assert_eq!(var(&v, "trump"), Some(""), "{:?}", v.vars);
    for hidden in [
        "trump_suit",
        "round_over",
        "north.played",
        "north.predicted",
        "north.did_minor",
        "north.did_major",
        "north.made",
    ] {
        assert_eq!(
            var(&v, hidden),
            None,
            "`{hidden}` is bookkeeping: {:?}",
            v.vars
        );
    }
    assert!(!v.to_text().contains("village"), "{}", v.to_text());
    let m = position("hasp", 2, 0, &[], given, &["no trump"]);
    assert_eq!(var(&view_of(&m, "north"), "trump"), Some("no trump"));
    let m = position("hasp", 2, 0, &[], given, &["trump rocks"]);
    assert_eq!(var(&view_of(&m, "north"), "trump"), Some("rocks"));
}

/// HASP-6.3, HASP-6.5: a prediction is logged once (the choice itself), the
/// pot it leads to on its own line; HASP-1.2, HASP-8.3: a side's win is one
/// line, not one per partner.
#[test]
fn hasp_logs_a_prediction_and_a_sides_win_once() {
    let given = r#"
  start(west, village)
  give(north, "forest-2")
  give(east, "forest-3")
  give(south, "forest-6")
  give(west, "forest-4")
  rest_won_by(north)
  while trick_no < 1 and not round_over {
    play_trick()
  }
  score_round()
"#;
    let mut m = position("hasp", 4, 0, &[], given, &["found all"]);
    let log = m.take_log();
    let found: Vec<&String> = log.iter().filter(|l| l.contains("found all")).collect();
    assert_eq!(
        found
            .iter()
            .filter(|l| !l.contains("fails") && !l.contains("succeeds"))
            .count(),
        1,
        "{log:#?}"
    );
    assert!(log.contains(&"north: found all".to_string()), "{log:#?}");
    assert!(
        log.contains(&"the round is worth 3".to_string()),
        "{log:#?}"
    );
    // South's forest-6 wins: north's side takes the trick, the prediction holds.
    let scored: Vec<&String> = log.iter().filter(|l| l.contains(" score ")).collect();
    assert_eq!(scored, vec!["north and south score 3 (now 3)"], "{log:#?}");
}

/// HASP-DP-02 and HASP-8.2 (part of issue 12's audit logs): the first dealer
/// and the reason of a broken tie are in the log.
#[test]
fn hasp_logs_the_first_dealer_and_the_tie_rule() {
    let mut m = position("hasp", 2, 3, &[], "", &[]);
    let log = m.take_log();
    assert!(
        log.iter()
            .any(|l| l.ends_with("deals first (drawn at random)")),
        "{log:#?}"
    );
    // Card points 15/15, given directly as in AT-09a.
    let rules = "override fn card_total(s: int) -> int = 15";
    let mut m = position_with(
        "hasp",
        rules,
        2,
        0,
        &[],
        "start(north, village)\n  score_round()",
        &[],
    );
    let log = m.take_log();
    assert!(
        log.contains(
            &"tie on card points: east announced the trump, so his side loses".to_string()
        ),
        "{log:#?}"
    );
    assert!(
        log.contains(&"north scores 1 (now 1)".to_string()),
        "{log:#?}"
    );
}

// ------------------------------------------------------------------ Hansa

const HANSA_SALE: &str = r#"
  clear_warehouses()
  put_stalls(grey, @danzig, 4)
  give(grey, orange, 1)
  give(grey, orange, 2)
  give(grey, orange, 3)
  give(grey, brown, 2)
  give(grey, brown, 3)
  give(yellow, orange, 1)
  give(yellow, orange, 3)
  current = grey
  ship = @danzig
  phase_actions()
"#;

/// HANSA-1.3, HANSA-14.3: "girate, coperte": the sold tiles are hidden in every
/// view, Grey's own included; with `sold_face_up` (HANSA-AMB-19) they show.
#[test]
fn hansa_sold_goods_are_face_down_in_every_view() {
    let d = [
        "sell orange",
        "sell orange 1+2+3",
        "also sell brown",
        "lose orange-1",
    ];
    let m = position("hansa", 3, 0, &["fixed_removal=true"], HANSA_SALE, &d);
    for s in ["grey", "yellow", "purple"] {
        let v = view_of(&m, s);
        let sold = zone(&v, "grey.sold");
        assert_eq!(sold.count, 5);
        assert!(
            sold.pieces.iter().all(|p| p == "hidden goods"),
            "{s}: {:?}",
            sold.pieces
        );
        for hidden in ["acted", "phase_over", "sell_last", "sell_done"] {
            assert_eq!(var(&v, hidden), None, "`{hidden}` is bookkeeping");
        }
    }
    let m = position(
        "hansa",
        3,
        0,
        &["fixed_removal=true", "sold_face_up=true"],
        HANSA_SALE,
        &d,
    );
    assert!(zone(&view_of(&m, "yellow"), "grey.sold")
        .pieces
        .contains(&"orange-3".to_string()));
}

/// HANSA-8.8, HANSA-8.9: the sale is one line per question asked (a colour,
/// then its tiles; a set with no alternative is taken at once and marked
/// forced), the loss is the loser's answer, and the sale's worth is summed up
/// once.
#[test]
fn hansa_logs_a_sale_once() {
    let d = [
        "sell orange",
        "sell orange 1+2+3",
        "also sell brown",
        "lose orange-1",
    ];
    let mut m = position("hansa", 3, 0, &["fixed_removal=true"], HANSA_SALE, &d);
    let log = m.take_log();
    let at = log
        .iter()
        .position(|l| l == "grey: sell orange")
        .unwrap_or_else(|| panic!("{log:#?}"));
    let want = [
        "grey: sell orange",
        "grey: sell orange 1+2+3",
        "grey: also sell brown",
        "grey: sell brown 2+3 (forced)",
        "grey: complete the sale (forced)",
        "yellow: lose orange-1",
        "grey sells 5 goods worth 16 points",
    ];
    assert_eq!(&log[at..at + 7], &want.map(String::from)[..], "{log:#?}");
}

/// Issue 12's audit logs for Hansa: income, every payment and who receives
/// it, the refill tile by tile, taxes, the removed colours and the first
/// player; the money in the log adds up.
#[test]
fn hansa_logs_money_refills_removed_colours_and_first_player() {
    let given = r#"
  clear_warehouses()
  put_stalls(purple, @copenhagen, 2)
  put_stalls(grey, @copenhagen, 1)
  put_stalls(grey, @tonsberg, 2)
  give(grey, brown, 3)
  stock(@copenhagen, orange, 1)
  push(1, red, 1)
  current = grey
  turn()
"#;
    let d = ["refill", "buy orange-1", "move to tonsberg", "end phase 3"];
    let mut m = position("hansa", 3, 0, &["fixed_removal=true"], given, &d);
    let log = m.take_log();
    for want in [
        "white goods are removed (option fixed_removal)",
        "grey takes 3 income from the bank (has 6, bank 10)",
        "grey pays 1 to the bank for the refill (has 5, bank 11)",
        "grey pays 1 to purple (grey has 4, purple has 4)",
        "grey pays 1 to the bank for the move (has 3, bank 12)",
    ] {
        assert!(
            log.iter().any(|l| l == want),
            "missing `{want}` in {log:#?}"
        );
    }
    assert!(
        log.iter()
            .any(|l| l.ends_with("goes first (drawn at random)")),
        "{log:#?}"
    );
    assert!(
        log.iter()
            .any(|l| l.starts_with("refill: red-1 from stack 1 to ")),
        "{log:#?}"
    );
}

/// HANSA-11.5: when the top score is tied, the log says how the tie was broken.
#[test]
fn hansa_logs_the_tie_break() {
    let given = r#"
  put_stalls(grey, @danzig, 5)
  put_stalls(grey, @riga, 4)
  put_stalls(yellow, @reval, 3)
  put_stalls(yellow, @kalmar, 4)
  final_scoring()
"#;
    let mut m = position("hansa", 2, 0, &["fixed_removal=true"], given, &[]);
    let log = m.take_log();
    assert!(
        log.contains(
            &"grey: 0 unsold goods, 0 for 0 sold, 8 for cities = 8 points; 9 stalls on the map"
                .to_string()
        ),
        "{log:#?}"
    );
    assert!(
        log.contains(
            &"yellow: 0 unsold goods, 0 for 0 sold, 8 for cities = 8 points; 7 stalls on the map"
                .to_string()
        ),
        "{log:#?}"
    );
    assert!(
        log.contains(&"highest score 8: a tie, broken by the most stalls on the map".to_string()),
        "{log:#?}"
    );
    // The same points and stalls: a shared win (HANSA-AMB-14); one alone: no tie.
    let shared = "put_stalls(grey, @danzig, 5)\n  put_stalls(yellow, @reval, 5)\n  final_scoring()";
    let mut m = position("hansa", 2, 0, &["fixed_removal=true"], shared, &[]);
    assert!(m.take_log().contains(&"highest score 4: a tie on points and on stalls on the map: the tied players share the win".to_string()));
    let alone = "put_stalls(grey, @danzig, 5)\n  final_scoring()";
    let mut m = position("hansa", 2, 0, &["fixed_removal=true"], alone, &[]);
    assert!(m
        .take_log()
        .contains(&"highest score 4: no tie".to_string()));
}

// ------------------------------------------------------------------ Auf Heller und Pfennig

/// AHUP-5.1 C, AHUP-12.1: when a private tile is played it is face up, and
/// the log names it.
#[test]
fn ahup_log_names_the_private_tile_when_played() {
    let given = r#"
  current = white
  move first(pool where short == "EYE") to white.private
  act white with play_private
"#;
    let mut m = position(
        "auf-heller-und-pfennig",
        3,
        0,
        &[],
        given,
        &["private at r4c2"],
    );
    let log = m.take_log();
    assert!(
        log.contains(&"white's private tile: EYE (Böser Blick) at r4c2".to_string()),
        "{log:#?}"
    );
}

/// AHUP-6, AHUP-AT-05: round scoring is logged per row and column: after each
/// line, every player's income so far, so that a line's value is the
/// difference from the line before. The example's rows (-3, 0, 20 in all for
/// white, grey and black: "Righe -3 0 20") and totals (41, 12, 39).
#[test]
fn ahup_round_scoring_is_logged_per_row_and_column() {
    let mut m = position(
        "auf-heller-und-pfennig",
        3,
        0,
        &[],
        "example_board()\n  score_round()",
        &[],
    );
    let log = m.take_log();
    for want in [
        "row 1: so far white -15, grey -3, black -3",
        "row 5: so far white -3, grey 0, black 20",
        "column 6: so far white 41, grey 12, black 39",
        "round 1: white earns 41, has 91",
        "round 1: grey earns 12, has 62",
        "round 1: black earns 39, has 89",
    ] {
        assert!(
            log.iter().any(|l| l == want),
            "missing `{want}` in {log:#?}"
        );
    }
    let lines = log
        .iter()
        .filter(|l| l.starts_with("row ") || l.starts_with("column "))
        .count();
    assert_eq!(lines, 11, "one line per row and column: {log:#?}");
}

/// AHUP-8.2 and HASP-AMB-12 (issue 12's audit logs): the end of the game says
/// whether the top was tied; the seeded game logs show the untied case.
#[test]
fn the_game_end_says_whether_the_top_is_tied() {
    let given = "white.money = 70\n  grey.money = 70\n  black.money = 12\n  log \"{end_text()}\"";
    let mut m = position("auf-heller-und-pfennig", 3, 0, &[], given, &[]);
    assert_eq!(
        m.take_log().last().map(String::as_str),
        Some("a tie at the top: the tied players share the win")
    );
    let given = "north.vp = 12\n  east.vp = 12\n  south.vp = 7\n  log \"{end_text()}\"";
    let mut m = position("hasp", 3, 0, &[], given, &[]);
    assert_eq!(
        m.take_log().last().map(String::as_str),
        Some("a tie at the top: the tied sides share the win")
    );
    let given = "north.vp = 12\n  south.vp = 12\n  log \"{end_text()}\"";
    let mut m = position("hasp", 4, 0, &[], given, &[]);
    assert_eq!(
        m.take_log().last().map(String::as_str),
        Some("the highest total wins"),
        "partners are one side"
    );
}
