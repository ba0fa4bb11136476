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

/// Checks what every picture promises (issue 21): 1,600 px wide, no text
/// under 11 px, and people's names only: no text with an `_` id.
fn readable(svg: &str, what: &str) {
    assert!(
        svg.starts_with("<svg") && svg.contains(r#"width="1600""#),
        "{what}: 1,600 px wide"
    );
    for size in svg.split("font-size=\"").skip(1) {
        let n: f64 = size.split('"').next().unwrap().parse().unwrap();
        assert!(n >= 11.0, "{what}: text of {n} px");
    }
    for t in svg.split("<text").skip(1) {
        let content = t
            .split_once('>')
            .unwrap()
            .1
            .split("</text>")
            .next()
            .unwrap();
        assert!(
            !content.contains('_'),
            "{what}: an id on the picture: {content}"
        );
    }
    for t in svg.split("data-zone=\"").skip(1) {
        let z = t.split('"').next().unwrap();
        assert!(!z.contains('_'), "{what}: a zone id on the picture: {z}");
    }
}

/// The marks (fill, shape) of a zone's group, in order, of side `size`.
fn marks(svg: &str, zone: &str, size: f64) -> Vec<(String, &'static str)> {
    let start = svg
        .find(&format!("data-zone=\"{zone}\""))
        .unwrap_or_else(|| panic!("no zone `{zone}` drawn"));
    group_marks(
        &svg[start..start + svg[start..].find("</g>").unwrap()],
        size,
    )
}

/// The marks (fill, shape) of side `size` in a stretch of SVG, in order.
fn group_marks(group: &str, size: f64) -> Vec<(String, &'static str)> {
    let attr = |el: &str, name: &str| -> Option<f64> {
        el.split(&format!(" {name}=\""))
            .nth(1)?
            .split('"')
            .next()?
            .parse()
            .ok()
    };
    let mut out = vec![];
    for el in group.split('<').skip(1) {
        let fill = el
            .split("fill=\"")
            .nth(1)
            .map(|f| f.split('"').next().unwrap().to_string());
        let (shape, side) = if el.starts_with("circle") {
            ("disc", attr(el, "r").map(|r| r * 2.0))
        } else if el.starts_with("rect") {
            ("square", attr(el, "width"))
        } else {
            continue;
        };
        if side == Some(size) {
            out.push((fill.unwrap(), shape));
        }
    }
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
    readable(&svg, "hansa");
    // The cities by their names on the map (maps/hansa.toml), umlauts and all.
    for city in [
        "Tønsberg",
        "Aalborg",
        "Copenhagen",
        "Lübeck",
        "Stockholm",
        "Kalmar",
        "Danzig",
        "Reval",
        "Riga",
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
    // The ship's city is marked, and the legend names every seat.
    assert!(svg.contains(">ship in</text>"));
    for seat in ["grey", "yellow", "purple", "black"] {
        assert!(svg.contains(&format!(">{seat}</text>")), "{seat}");
    }
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
    readable(&white, "ahup");
    assert!(white.contains(">r5c6</text>") && white.contains(">r1c1</text>"));
    // A grid has no edge lines: its cells are its adjacency.
    assert!(!white.contains("<line"));
    // The tile pile is face down: card backs, counted.
    assert!(white.contains(r#"data-zone="tile pile""#));
    // White's stalls are white with a dark outline and dark text.
    let stalls = marks(&white, "stalls of white", 16.0);
    assert!(!stalls.is_empty() && stalls.iter().all(|m| m.0 == "#ffffff"));
    insta::assert_snapshot!("draw-auf-heller-und-pfennig-white", white);
}

#[test]
fn hasp_has_no_board_only_zones_and_an_onlooker_sees_no_hand() {
    let svg = draw("rulesets/hasp/hasp.rules", 4, None, "svg", "hasp");
    readable(&svg, "hasp");
    assert!(svg.contains(r#"data-zone="hand of north""#));
    // An onlooker sees card backs only in the hands, never a card's value.
    let hand = marks(&svg, "hand of north", 16.0);
    assert!(hand.iter().all(|m| m.0 == "#6b7b8c"), "{hand:?}");
    assert!(svg.contains(">victory points "));
    insta::assert_snapshot!("draw-hasp-onlooker", svg);
}

#[test]
fn the_example_boards_are_grids() {
    for g in ["tic-tac-toe", "connect-four"] {
        let svg = draw(&format!("examples/{g}/{g}.rules"), 2, None, "svg", g);
        readable(&svg, g);
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

/// Issues 12 and 21: Hansa Teutonica half way through a game on each side
/// of the board (HT-3.11: the back for 2–3 players, the front for 4–5), as
/// red sees it. The PNGs were looked at: the cities at their coordinates by
/// name, each with its office row in order (squares and circles in the
/// office colours, occupied ones holding the occupant), each route's
/// villages as slots, bonus tokens on routes, and a board per player with
/// the prestige track and the abilities.
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
        readable(&svg, map);
        let text = std::fs::read_to_string(root().join(format!("maps/{map}.toml"))).unwrap();
        // The routes are undirected: one plain line each.
        assert_eq!(
            svg.matches("<line").count(),
            text.matches("[[edge]]").count(),
            "{map}: one line per route"
        );
        assert!(!svg.contains("marker-end"), "{map}: no arrows");
        for city in ["Groningen", "Coellen", "Lübeck", "Halle", "Göttingen"] {
            assert!(svg.contains(&format!(">{city}</text>")), "{map}: {city}");
        }
        // Each city's office row, slot by slot in the map's order, in the
        // office's colour and shape (HT-3.1).
        let toml: toml::Value = toml::from_str(&text).unwrap();
        let offices = toml["pieces"]["office"].as_array().unwrap();
        for (id, name) in [
            ("groningen", "Groningen"),
            ("coellen", "Coellen"),
            ("halle", "Halle"),
        ] {
            let want: Vec<(String, &str)> = offices
                .iter()
                .filter(|o| o["city"].as_str() == Some(id))
                .map(|o| {
                    let fill = match o["colour"].as_str().unwrap() {
                        "white" => "#ffffff",
                        "orange" => "#ff7f0e",
                        "pink" => "#f49ac2",
                        _ => "#1a1a1a",
                    };
                    let shape = if o["round"].as_bool().unwrap() {
                        "disc"
                    } else {
                        "square"
                    };
                    (fill.to_string(), shape)
                })
                .collect();
            assert_eq!(
                marks(&svg, &format!("offices of {name}"), 16.0),
                want,
                "{map}: {name}"
            );
        }
        // Every route's villages are slots: as many as the map gives it.
        let edges = toml["edge"].as_array().unwrap();
        let villages: i64 = edges
            .iter()
            .map(|e| e["villages"].as_integer().unwrap_or(0))
            .sum();
        let slots: usize = svg
            .split("data-zone=\"villages of ")
            .skip(1)
            .map(|g| group_marks(&g[..g.find("</g>").unwrap()], 16.0).len())
            .sum();
        assert!(
            villages > 0 && slots as i64 == villages,
            "{map}: {slots} village slots, {villages} villages"
        );
        // Red's board: the prestige track and the bonus tokens to draw face down.
        assert!(svg.contains(">points: "), "{map}: the prestige track");
        assert!(
            svg.contains(r#"data-zone="bonus tokens to draw""#),
            "{map}: the draw pile"
        );
        insta::assert_snapshot!(format!("draw-hansa-teutonica-{players}p-red"), svg);
    }
}

/// `draw edges colour = claimer, text = length` (Route Builder, RB-3): every
/// claimed route is drawn thick in its claimer's colour, and as many as the
/// players' "routes" displays count; every route shows its length.
#[test]
fn route_builder_draws_each_claimed_route_in_its_claimers_colour() {
    let svg = draw(
        "examples/route-builder/route-builder.rules",
        3,
        None,
        "svg",
        "route-builder",
    );
    readable(&svg, "route-builder");
    let coloured: Vec<&str> = svg
        .lines()
        .filter(|l| l.starts_with("<line") && l.contains(r#"stroke-width="6""#))
        .collect();
    let counted: usize = svg
        .split("·  routes ")
        .skip(1)
        .map(|t| t.split(|c: char| !c.is_ascii_digit()).next().unwrap())
        .map(|n| n.parse::<usize>().unwrap())
        .sum();
    assert!(counted > 0, "half way through, someone has claimed a route");
    assert_eq!(coloured.len(), counted, "{coloured:?}");
    // Seat colours only: red, blue and green (`draw::colours`).
    for l in &coloured {
        let c = l
            .split("stroke=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        assert!(["#d62728", "#1f77b4", "#2ca02c"].contains(&c), "{c}");
    }
    // The map's 26 routes each carry their length on a label.
    let labels = svg
        .lines()
        .filter(|l| l.contains(r##"fill="#ffffff" stroke="#555""##))
        .count();
    assert_eq!(labels, 26);
}

/// `draw nodes colour = …, text = …` on a grid: each cell a player has taken
/// is framed in that seat's colour (edged dark, so that white shows) and its
/// name followed by the text; the other cells have no frame.
#[test]
fn draw_nodes_tints_the_cells_the_rules_colour() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("draw-nodes");
    std::fs::create_dir_all(&dir).unwrap();
    let board = root().join("maps/tic-tac-toe.toml");
    let rules = dir.join("taken.rules");
    std::fs::write(
        &rules,
        format!(
            r#"game "Taken"
players 2
seats white, black
board "{}"
var per node taker: player = none
var turns: int = 0
draw nodes colour = taker, text = if taker == none then "" else "taken"
action take(c in nodes where taker == none) label "take {{c}}" {{
  c.taker = actor
}}
play {{
  while turns < 4 {{
    for p in players {{
      act p with take
    }}
    turns += 1
  }}
}}
score(p) = count(c in nodes where taker == p)
"#,
            board.display()
        ),
    )
    .unwrap();
    let rules = rules.display().to_string();
    let (rec, n) = record(&rules, 2, "draw-nodes");
    assert_eq!(n, 8);
    let args: Vec<String> = ["draw", &rules, "--record", &rec.display().to_string()]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (code, svg, err) = cli(&args);
    assert_eq!(code, 0, "{err}");
    readable(&svg, "taken");
    let frames: Vec<&str> = svg
        .lines()
        .filter(|l| l.contains(r#"fill="none""#) && l.contains(r#"stroke-width="6""#))
        .collect();
    // Eight cells taken, four by each seat, in the seats' colours.
    assert_eq!(frames.len(), 8, "{frames:?}");
    for c in ["#ffffff", "#000000"] {
        let k = frames
            .iter()
            .filter(|l| l.contains(&format!("stroke=\"{c}\"")))
            .count();
        assert_eq!(k, 4, "{c}: {frames:?}");
    }
    assert_eq!(svg.matches(" · taken</text>").count(), 8);
}
