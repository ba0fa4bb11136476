//! What views show (issue 10, item 3): variables of nodes and edges by their
//! visibility, and zones that show only their top piece (`top visible`).

use regel::diag::Sources;
use regel::eval::{Match, Setup};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Checks `rules` (the tic-tac-toe board beside them) and plays a two-player
/// match, seed 1, to its first decision or its end.
fn start(rules: &str) -> Match {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = root.join("examples/views.rules");
    let (text, p) = (rules.to_string(), path.clone());
    let reader = move |q: &Path| -> std::io::Result<String> {
        if q == p {
            Ok(text.clone())
        } else {
            regel::cli::read_file(q)
        }
    };
    let mut sources = Sources::default();
    let game = match regel::pipeline::compile(
        &mut sources,
        &reader,
        &PathBuf::from(&path),
        &regel::opt::Passes::all(),
    ) {
        Ok((g, _)) => Arc::new(g),
        Err(d) => panic!(
            "check failed:\n{}",
            regel::diag::render(&sources, &d, false, 100)
        ),
    };
    Match::new(game, &Setup::new(2, 1)).unwrap_or_else(|e| panic!("run failed: {}", e.message))
}

fn vars(m: &Match, seat: Option<usize>) -> Vec<String> {
    m.view(seat)
        .vars
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect()
}

const NODE_VARS: &str = r#"game "Marks"
players 2
board "../maps/tic-tac-toe.toml"
var per node visits: int = 0
var per node trap: bool = false hidden
var per edge crossed: bool
var per player per node seen: bool = false owner
var per node holder: player
play {
  @r2c2.visits += 2
  @r1c1.trap = true
  @r1c3.holder = p2
  for e in edges_of(@r2c2) where it.to == @r1c2 or it.from == @r1c2 {
    e.crossed = true
  }
  p1.seen[@r3c3] = true
  act p1 with wait
}
action wait label "wait" { }
action stay label "stay" { }
"#;

#[test]
fn node_and_edge_variables_are_listed_where_set() {
    let m = start(&NODE_VARS.replace("act p1 with wait", "act p1 with wait, stay"));
    let public = vars(&m, None);
    assert!(public.contains(&"r2c2.visits=2".to_string()), "{public:?}");
    assert!(public.contains(&"r1c3.holder=p2".to_string()), "{public:?}");
    assert!(
        public.iter().any(|v| v.ends_with(".crossed=true")),
        "{public:?}"
    );
    // Cells at 0, false or none are not listed.
    assert!(
        !public
            .iter()
            .any(|v| v.starts_with("r1c1.visits") || v.starts_with("r2c2.holder")),
        "{public:?}"
    );
}

#[test]
fn hidden_and_owner_cells_stay_out_of_views() {
    let m = start(&NODE_VARS.replace("act p1 with wait", "act p1 with wait, stay"));
    for seat in [None, Some(0), Some(1)] {
        let v = vars(&m, seat);
        assert!(
            !v.iter().any(|x| x.contains("trap")),
            "a hidden variable shows: {v:?}"
        );
    }
    // The owner sees its own cell; the other seat and an onlooker do not
    // even learn that it is set.
    assert!(vars(&m, Some(0)).contains(&"p1.seen[r3c3]=true".to_string()));
    assert!(!vars(&m, Some(1)).iter().any(|x| x.contains("seen")));
    assert!(!vars(&m, None).iter().any(|x| x.contains("seen")));
}

const PILE: &str = r#"game "Pile"
players 2
piece card { v: int } in deck label "card {v}" {
  1 x { v: 1 }
  1 x { v: 2 }
  1 x { v: 3 }
}
zone deck: card hidden
zone pile: card top visible
action draw(c in pile) label "take {c}" { move c to actor.hand }
zone per player hand: card owner
play {
  move 2 of deck to pile
  act p1 with draw
}
"#;

#[test]
fn a_top_visible_zone_shows_its_top_piece_only() {
    let m = start(PILE);
    let pile = m
        .view(Some(1))
        .zones
        .into_iter()
        .find(|z| z.zone == "pile")
        .unwrap();
    assert_eq!(pile.pieces, ["hidden card", "card 2"]);
    // Option labels read through the same rule: the covered card is hidden.
    assert_eq!(m.option_labels(), ["take hidden card", "take card 2"]);
}

#[test]
fn the_piece_below_shows_once_the_top_is_taken() {
    let mut m = start(&PILE.replace(
        "act p1 with draw",
        "act p1 with draw\n  log \"{top(pile)} now shows\"",
    ));
    m.apply_label("take card 2").unwrap();
    let pile = m
        .view(None)
        .zones
        .into_iter()
        .find(|z| z.zone == "pile")
        .unwrap();
    assert_eq!(pile.pieces, ["card 3"]);
}
