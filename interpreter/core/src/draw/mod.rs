//! Pictures of a position as one seat (or an onlooker) sees it, as SVG or
//! Graphviz DOT: what `regel draw` writes and what the playground shows.
//! This module makes text only; reading the files and the record, and
//! writing the picture, is the caller's (`regel draw` in the CLI).
//!
//! Nothing here knows a game. Nodes stand where their `x`/`y` attributes put
//! them; without those, a board whose nodes have `row`/`col` is drawn as a
//! grid of cells, and any other board on a circle. Edges are lines (arrows on
//! a directed board); the pieces of each per-node and per-edge zone are
//! written on the node or beside the edge's middle, as the viewer may see
//! them (`eval::view` decides that), coloured by owner. Zones of nobody's
//! node — the deck, each player's hand — and the variables fill a panel on
//! the right.
//!
//! Two pictures: the scene (`scene.rs`, entry [`scene_svg`]: the board as
//! shapes with the ruleset's presentation) and the plain one (`plain.rs`,
//! entries [`plain_svg`] and [`plain_dot`]: boxes of text). Besides them,
//! the order and grouping of a decision's options (`options.rs`, entry
//! [`option_order`]).

mod options;
mod plain;
mod scene;

use crate::board::Board;
use crate::eval::View;
use crate::ir::Game;
use scene::{Place, Scene, COLUMN_START};

pub use options::{option_layout, option_order, option_runs};
pub use scene::{SMALL, WIDTH};

/// The plain picture as SVG: boxes of text at the nodes, a panel of the rest.
pub fn plain_svg(b: &Board, view: &View, title: Vec<String>, seats: &[String]) -> String {
    plain::svg(&plain::picture(b, view, title, seats))
}

/// The plain picture as Graphviz DOT, with fixed positions for `neato -n`.
pub fn plain_dot(b: &Board, view: &View, title: Vec<String>, seats: &[String]) -> String {
    plain::dot(&plain::picture(b, view, title, seats))
}

/// The title lines of a position's picture: the game and its variants; the
/// players, seed and decisions taken; whose view it is.
pub fn title(
    game: &Game,
    players: usize,
    seed: u64,
    decisions: usize,
    over: bool,
    viewer: Option<usize>,
) -> Vec<String> {
    let variants = if game.variants.is_empty() {
        String::new()
    } else {
        format!(" ({})", game.variants.join(" <- "))
    };
    vec![
        format!("{}{variants}", game.name),
        format!(
            "{players} players, seed {seed}, after {decisions} decision(s){}",
            if over { ", game over" } else { "" }
        ),
        format!(
            "as seen by {}",
            viewer
                .map(|i| game.seats[i].clone())
                .unwrap_or_else(|| "an onlooker".into())
        ),
    ]
}

/// The position as a picture of the board (`scene.rs`): nodes at their
/// `x`/`y` fitted into the board's part of the canvas, or a grid of cells by
/// `row`/`col`, or a circle; names are display names.
pub fn scene_svg(g: &Game, view: &View, title: &[String], seats: &[String]) -> String {
    let b = &g.board;
    let n = b.nodes.len();
    let (left, right, top) = (70.0, COLUMN_START - 80.0, 50.0);
    let xs = plain::node_ints(b, "x").zip(plain::node_ints(b, "y"));
    let rc = plain::node_ints(b, "row").zip(plain::node_ints(b, "col"));
    let mut cell = None;
    let pos: Vec<(f64, f64)> = if let Some((x, y)) = xs {
        let (x0, x1) = (
            x.iter().cloned().fold(f64::INFINITY, f64::min),
            x.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
        );
        let (y0, y1) = (
            y.iter().cloned().fold(f64::INFINITY, f64::min),
            y.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
        );
        let scale = ((right - left) / (x1 - x0).max(1.0)).min(900.0 / (y1 - y0).max(1.0));
        (0..n)
            .map(|i| (left + (x[i] - x0) * scale, top + (y[i] - y0) * scale))
            .collect()
    } else if let Some((r, c)) = rc {
        let rows = r.iter().cloned().fold(1.0, f64::max);
        let cols = c.iter().cloned().fold(1.0, f64::max);
        let size = ((right - 20.0) / cols).min(900.0 / rows).min(150.0);
        cell = Some(size);
        (0..n)
            .map(|i| (20.0 + (c[i] - 0.5) * size, 10.0 + (r[i] - 0.5) * size))
            .collect()
    } else {
        let rr = 380.0;
        (0..n)
            .map(|i| {
                let a = i as f64 / n.max(1) as f64 * std::f64::consts::TAU
                    - std::f64::consts::FRAC_PI_2;
                (left + rr + rr * a.cos(), top + rr + rr * a.sin())
            })
            .collect()
    };
    let nodes = pos
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| Place {
            name: g.node_shown(i).to_string(),
            x,
            y,
        })
        .collect();
    let colours = seat_colours(seats);
    let scene = Scene {
        title,
        seats,
        colours: &colours,
        view,
        nodes,
        edges: b
            .edges
            .iter()
            .map(|e| (e.from as usize, e.to as usize))
            .collect(),
        directed: b.directed,
        cell,
    };
    scene::svg(&scene)
}

/// Text as it may stand in SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Colours of seats 1, 2, …, for pieces they own.
const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
];

/// A colour for a seat named after one, darkened where it would not read on white.
fn named_colour(name: &str) -> Option<&'static str> {
    Some(match name {
        "red" => "#d62728",
        "blue" => "#1f77b4",
        "green" => "#2ca02c",
        "yellow" => "#f2d21b",
        "orange" => "#ff7f0e",
        "purple" => "#9467bd",
        "brown" => "#8c564b",
        "pink" => "#e377c2",
        "black" => "#000000",
        "grey" | "gray" => "#7f7f7f",
        "white" => "#ffffff",
        _ => return None,
    })
}

/// The colour of each seat: its own name when every seat is named after a
/// colour (a red seat's pieces drawn red), else a fixed palette.
pub fn seat_colours(seats: &[String]) -> Vec<&'static str> {
    let named: Option<Vec<&'static str>> = seats.iter().map(|s| named_colour(s)).collect();
    match named {
        Some(c)
            if {
                let mut d = c.clone();
                d.sort_unstable();
                d.dedup();
                d.len() == c.len()
            } =>
        {
            c
        }
        _ => (0..seats.len())
            .map(|i| PALETTE[i % PALETTE.len()])
            .collect(),
    }
}

fn colour(colours: &[&'static str], owner: i8) -> &'static str {
    if owner < 0 {
        "#222"
    } else {
        colours
            .get(owner as usize)
            .copied()
            .unwrap_or(PALETTE[owner as usize % PALETTE.len()])
    }
}
