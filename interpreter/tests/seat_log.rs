//! Issue 12: the log as each seat may read it (`Match::new_with_seat_logs`), which is
//! what `regel play` shows. Hidden information is decided in `eval/view.rs`:
//! a rules' `log` line names a hidden card only to those who may see it, a
//! move names what it made public, and a card moved out of sight stays unnamed.

use regel::diag::Sources;
use regel::eval::{Match, Setup};
use std::path::Path;
use std::sync::Arc;

const RULES: &str = r#"game "Secrets"
players 2
seats a, b

piece card { rank: int } in deck label "c{rank}" {
  1 x { rank: 1 }
  1 x { rank: 2 }
  1 x { rank: 3 }
  1 x { rank: 4 }
}

zone deck: card hidden
zone per player hand: card owner
zone table: card public
zone pile: card hidden

var kept: int = 0 hidden

setup {
  for p in players {
    move 2 of deck to p.hand
  }
}

action show(c in actor.hand) label "show {c}" {
  move c to table
  log "{actor} keeps {top(actor.hand)}"
  log "{actor} keeps rank {top(actor.hand).rank}"
}

action bury(c in actor.hand) label "bury {c}" {
  move c to pile
}

play {
  act a with show
  act b with bury
}

score(p) = 0
"#;

fn game() -> Arc<regel::ir::Game> {
    let read = |_: &Path| Ok(RULES.to_string());
    let mut sources = Sources::default();
    let (g, _) = regel::pipeline::compile(
        &mut sources,
        &read,
        Path::new("secrets.rules"),
        &regel::opt::Passes::all(),
    )
    .unwrap_or_else(|d| panic!("{}", regel::diag::render(&sources, &d, false, 100)));
    Arc::new(g)
}

/// Seat texts of every line: `[a, b, onlooker]`.
fn lines(m: &mut Match) -> Vec<Vec<String>> {
    m.take_seat_log().into_iter().map(|l| l.text).collect()
}

#[test]
fn each_seat_reads_the_log_as_it_may_see_it() {
    let mut m = Match::new_with_seat_logs(game(), &Setup::new(2, 0)).unwrap();
    assert!(
        lines(&mut m).is_empty(),
        "nothing happens before the first decision"
    );
    let own = m.option_labels();
    // a's first card, as a sees it (its own hand).
    m.apply(0).unwrap();
    let l = lines(&mut m);
    let shown = own[0].trim_start_matches("show ");
    // The move: its card is face up now, so every reader sees which it was.
    assert_eq!(l[0], vec![format!("a: show {shown}"); 3], "{l:?}");
    // The rules' log line names a card in a's hand: only a may read it.
    assert!(l[1][0].starts_with("a keeps c"), "{l:?}");
    assert_eq!(l[1][1], "a keeps hidden card", "{l:?}");
    assert_eq!(l[1][2], "a keeps hidden card", "{l:?}");
    // A hole reading a field of that card reads `hidden` too.
    assert!(l[2][0].starts_with("a keeps rank "), "{l:?}");
    assert_eq!(l[2][1], "a keeps rank hidden", "{l:?}");
    assert_eq!(l[2][2], "a keeps rank hidden", "{l:?}");
    // b buries a card: it leaves b's hand face down and stays unnamed to others.
    let b_labels = m.option_labels();
    m.apply(0).unwrap();
    let l = lines(&mut m);
    assert_eq!(
        l[0][1],
        format!("b: {}", b_labels[0]),
        "b saw its card when it moved it"
    );
    assert_eq!(l[0][0], "b: bury hidden card", "{l:?}");
    assert_eq!(l[0][2], "b: bury hidden card", "{l:?}");
    assert!(m.is_over());
    // The engine's own log, which sees everything, is unchanged by all this.
    let all = m.take_log();
    assert!(all.iter().any(|l| l.starts_with("a keeps c")), "{all:?}");
}

/// Issue 12: a card face up only during the move that played it (played to
/// the table, then gathered face down by the same action) is named to every
/// reader; a card that never was in sight stays unnamed.
#[test]
fn a_card_face_up_only_during_the_move_is_named() {
    let rules = RULES.replace("action bury(c in actor.hand) label \"bury {c}\" {\n  move c to pile\n}", "action bury(c in actor.hand) label \"bury {c}\" {\n  move c to table\n  move all table to pile\n}");
    assert_ne!(rules, RULES);
    let read = move |_: &Path| Ok(rules.clone());
    let mut sources = Sources::default();
    let (g, _) = regel::pipeline::compile(
        &mut sources,
        &read,
        Path::new("flash.rules"),
        &regel::opt::Passes::all(),
    )
    .unwrap_or_else(|d| panic!("{}", regel::diag::render(&sources, &d, false, 100)));
    let mut m = Match::new_with_seat_logs(Arc::new(g), &Setup::new(2, 0)).unwrap();
    m.apply(0).unwrap();
    lines(&mut m);
    let b_labels = m.option_labels();
    m.apply(0).unwrap();
    let l = lines(&mut m);
    // b's card went over the table into the hidden pile: all saw it pass.
    assert_eq!(l[0], vec![format!("b: {}", b_labels[0]); 3], "{l:?}");
    assert!(!l[0][0].contains("hidden"), "{l:?}");
    assert!(m.is_over());
}

#[test]
fn a_variable_declared_hidden_is_in_no_view() {
    let m = Match::new(game(), &Setup::new(2, 0)).unwrap();
    for seat in [Some(0), Some(1), None] {
        let v = m.view(seat);
        assert!(v.vars.iter().all(|(k, _)| k != "kept"), "{:?}", v.vars);
        assert!(v.globals.iter().all(|(k, _)| k != "kept"));
    }
}
