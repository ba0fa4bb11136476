//! `regel draw` (issue 12): a mid-game position of every shipped board as
//! SVG, checked by snapshot. The SVGs were rendered to PNG (`rsvg-convert`)
//! and looked at before their snapshots were accepted.

use regel::cli::{run, Io};
use std::io::Cursor;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn cli(args: &[String]) -> (i32, String, String) {
    let mut argv = vec!["regel".to_string()];
    argv.extend(args.iter().cloned());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut inp = Cursor::new(Vec::new());
    let code = run(
        &argv,
        &mut Io {
            out: &mut out,
            err: &mut err,
            input: &mut inp,
            color: false,
            root: Some(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")),
            term: false,
        },
    );
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// A game between random bots recorded by `simulate`, and its number of decisions.
fn record(rules: &str, players: usize, name: &str) -> (PathBuf, usize) {
    let dir = std::env::temp_dir().join(format!("regel-draw-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args: Vec<String> = [
        "simulate",
        rules,
        "--players",
        &players.to_string(),
        "--games",
        "1",
        "--seed",
        "7",
        "--records",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([dir.display().to_string()])
    .collect();
    let (code, out, err) = cli(&args);
    assert_eq!(code, 0, "{out}{err}");
    let rec = dir.join("game-7.toml");
    let text = std::fs::read_to_string(&rec).unwrap();
    let n = text.lines().filter(|l| l.starts_with("  \"")).count();
    (rec, n)
}

/// Draws the position half way through a recorded game.
fn draw(rules: &str, players: usize, seat: Option<&str>, format: &str, name: &str) -> String {
    let rules = root().join(rules).display().to_string();
    let (rec, n) = record(&rules, players, name);
    let mut args: Vec<String> = [
        "draw",
        &rules,
        "--record",
        &rec.display().to_string(),
        "--step",
        &(n / 2).to_string(),
        "--format",
        format,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if let Some(s) = seat {
        args.extend(["--seat".to_string(), s.to_string()]);
    }
    let (code, out, err) = cli(&args);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn hansa_mid_game_is_the_one_way_map_at_its_coordinates() {
    let svg = draw(
        "rulesets/hansa/hansa.rules",
        4,
        Some("grey"),
        "svg",
        "hansa",
    );
    for city in [
        "tonsberg",
        "aalborg",
        "copenhagen",
        "luebeck",
        "stockholm",
        "kalmar",
        "danzig",
        "reval",
        "riga",
    ] {
        assert!(svg.contains(&format!(">{city}</text>")), "{city}");
    }
    // Every route is an arrow: the board is directed.
    let routes = svg.matches("marker-end=\"url(#arrow)\"").count();
    let map = std::fs::read_to_string(root().join("maps/hansa.toml")).unwrap();
    assert_eq!(
        routes,
        map.matches("[[edge]]").count(),
        "one arrow per route"
    );
    // The goods stacks are face down to grey.
    assert!(svg.contains("hidden goods"));
    insta::assert_snapshot!("draw-hansa-grey", svg);
}

#[test]
fn hansa_as_dot_places_nodes_at_their_coordinates() {
    let dot = draw("rulesets/hansa/hansa.rules", 4, None, "dot", "hansa-dot");
    assert!(dot.starts_with("digraph \"Hansa\""));
    assert!(dot.contains(" -> "));
    assert!(dot.contains("pos=\""));
    insta::assert_snapshot!("draw-hansa-onlooker-dot", dot);
}

#[test]
fn auf_heller_und_pfennig_mid_game_is_a_grid_with_hidden_tiles() {
    let white = draw(
        "rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules",
        4,
        Some("white"),
        "svg",
        "ahup",
    );
    assert!(white.contains(">r5c6</text>") && white.contains(">r1c1</text>"));
    // A grid has no edge lines: its cells are its adjacency.
    assert!(!white.contains("<line"));
    assert!(
        white.contains("hidden tile"),
        "the pool and the others' private tiles"
    );
    insta::assert_snapshot!("draw-auf-heller-und-pfennig-white", white);
}

#[test]
fn hasp_has_no_board_only_zones_and_an_onlooker_sees_no_hand() {
    let svg = draw("rulesets/hasp/hasp.rules", 4, None, "svg", "hasp");
    assert!(svg.contains("north.hand:"));
    assert!(svg.contains("hidden card"));
    insta::assert_snapshot!("draw-hasp-onlooker", svg);
}

#[test]
fn the_example_boards_are_grids() {
    for g in ["tic-tac-toe", "connect-four"] {
        let svg = draw(&format!("examples/{g}/{g}.rules"), 2, None, "svg", g);
        assert!(svg.contains(">r1c1</text>"), "{g}");
        insta::assert_snapshot!(format!("draw-{g}"), svg);
    }
}

#[test]
fn bad_arguments_are_clear_errors() {
    let rules = root()
        .join("rulesets/hasp/hasp.rules")
        .display()
        .to_string();
    let (code, _, err) = cli(&[
        "draw".into(),
        rules.clone(),
        "--seat".into(),
        "nobody".into(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("the seats are north, east"), "{err}");
    let (code, _, err) = cli(&["draw".into(), rules, "--step".into(), "3".into()]);
    assert_eq!(code, 2);
    assert!(err.contains("`--step` needs `--record`"), "{err}");
}

/// A board file alone (no ruleset, no pieces): the Hansa Teutonica boards,
/// whose ruleset does not check yet, at their coordinates with their routes.
#[test]
fn board_files_draw_alone() {
    for m in [
        "hansa-teutonica-2-3",
        "hansa-teutonica-4-5",
        "hansa-teutonica-tb-1",
    ] {
        let f = root().join(format!("maps/{m}.toml"));
        if !f.exists() {
            continue;
        }
        let (code, svg, err) = cli(&["draw".into(), f.display().to_string()]);
        assert_eq!(code, 0, "{m}: {err}");
        let text = std::fs::read_to_string(&f).unwrap();
        assert_eq!(
            svg.matches("<line").count(),
            text.matches("[[edge]]").count(),
            "{m}: one line per route"
        );
        assert_eq!(
            svg.matches("<rect x=").count(),
            text.matches("[[node]]").count(),
            "{m}: one box per city"
        );
        insta::assert_snapshot!(format!("draw-board-{m}"), svg);
    }
}

/// Issue 12: Hansa Teutonica half way through a game on each side of the
/// board (HT-3.11: the back for 2–3 players, the front for 4–5), as red sees
/// it. The SVGs were rendered to PNG with `rsvg-convert` and looked at: the
/// cities at their coordinates with their office rows and occupied offices,
/// the posts on each route coloured by owner, the bonus tokens waiting on
/// routes, and the side panel with each seat's desk, supply and prestige.
#[test]
fn hansa_teutonica_mid_game_on_both_sides_of_the_board() {
    for (players, map) in [(3, "hansa-teutonica-2-3"), (5, "hansa-teutonica-4-5")] {
        let svg = draw(
            "rulesets/hansa-teutonica/hansa-teutonica.rules",
            players,
            Some("red"),
            "svg",
            &format!("ht{players}"),
        );
        let text = std::fs::read_to_string(root().join(format!("maps/{map}.toml"))).unwrap();
        // The routes are undirected: one plain line each.
        assert_eq!(
            svg.matches("<line").count(),
            text.matches("[[edge]]").count(),
            "{map}: one line per route"
        );
        assert!(!svg.contains("marker-end"), "{map}: no arrows");
        for city in ["groningen", "coellen", "luebeck", "halle"] {
            assert!(svg.contains(&format!(">{city}</text>")), "{map}: {city}");
        }
        assert!(svg.contains("posts:"), "{map}: pieces on the routes");
        assert!(
            svg.contains("hidden token"),
            "{map}: the draw pile is face down"
        );
        insta::assert_snapshot!(format!("draw-hansa-teutonica-{players}p-red"), svg);
    }
}
