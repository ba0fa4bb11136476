//! `regel draw`: a picture of a position as one seat (or an onlooker) sees
//! it, as SVG or Graphviz DOT. This module reads the files and the record,
//! plays the decisions and writes the picture; the picture itself is made by
//! the core's `draw` module, which the playground in the browser uses too.

use super::record::Record;
use super::replay::{apply_labels, start, Logs, Started};
use super::Io;
use crate::diag::{self, Sources};
use crate::draw;
use crate::eval::View;
use clap::ValueEnum;
use std::path::PathBuf;

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DrawFormat {
    Svg,
    Dot,
}

pub struct Args {
    pub file: PathBuf,
    pub record: Option<PathBuf>,
    pub step: Option<usize>,
    pub seat: Option<String>,
    pub players: Option<usize>,
    pub seed: u64,
    pub options: Vec<String>,
    pub format: DrawFormat,
}

pub fn run(a: &Args, io: &mut Io) -> i32 {
    if a.file.extension().is_some_and(|e| e == "toml") {
        if a.record.is_some() || a.seat.is_some() {
            let _ = writeln!(
                io.err,
                "error: `{}` is a board file: to draw a position, give the ruleset",
                a.file.display()
            );
            return 2;
        }
        return bare_board(a, io);
    }
    // A record gives the players, seed, options and decisions; the position
    // is the one after `--step` of them (all when not given).
    let (players, seed, options, labels) = match &a.record {
        Some(r) => {
            let text = match super::read_file(r) {
                Ok(t) => t,
                Err(e) => {
                    let _ = writeln!(
                        io.err,
                        "error: cannot read the record `{}`: {e}",
                        r.display()
                    );
                    return 1;
                }
            };
            let mut src = Sources::default();
            let rec = match Record::from_toml(&mut src, &r.display().to_string(), &text) {
                Ok(x) => x,
                Err(d) => {
                    let _ = write!(
                        io.err,
                        "{}",
                        diag::render(&src, std::slice::from_ref(&d), io.color, 100)
                    );
                    return 1;
                }
            };
            let n = a.step.unwrap_or(rec.decisions.len());
            if n > rec.decisions.len() {
                let _ = writeln!(
                    io.err,
                    "error: `--step {n}`: the record has {} decision(s)",
                    rec.decisions.len()
                );
                return 2;
            }
            (
                Some(rec.players),
                rec.seed,
                rec.options.clone(),
                rec.decisions[..n].to_vec(),
            )
        }
        None => {
            if a.step.is_some() {
                let _ = writeln!(io.err, "error: `--step` needs `--record`");
                return 2;
            }
            (a.players, a.seed, a.options.clone(), vec![])
        }
    };
    let players = match players {
        Some(p) => p,
        None => match super::load_game(&a.file, io) {
            Some((g, _)) => g.min_players,
            None => return 1,
        },
    };
    let Started {
        game,
        sources,
        mut m,
    } = match start(
        &a.file,
        players,
        seed,
        &options,
        Logs::Off,
        crate::eval::DEFAULT_BUDGET,
        io,
    ) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Err(e) = apply_labels(&mut m, &sources, &labels, 1) {
        e.print(&sources, io);
        return 1;
    }
    let seats = &game.seats[..players];
    let viewer = match &a.seat {
        None => None,
        Some(s) => match seats.iter().position(|n| n == s).or_else(|| {
            s.parse::<usize>()
                .ok()
                .filter(|&k| (1..=players).contains(&k))
                .map(|k| k - 1)
        }) {
            Some(i) => Some(i),
            None => {
                let _ = writeln!(
                    io.err,
                    "error: `--seat {s}`: the seats are {} (or 1 to {players})",
                    seats.join(", ")
                );
                return 2;
            }
        },
    };
    let view = crate::eval::view::with_names(|| m.view(viewer));
    let title = draw::title(&game, players, seed, labels.len(), m.is_over(), viewer);
    // The match's own board: a ruleset may have one per player count.
    if a.format == DrawFormat::Svg {
        let _ = write!(io.out, "{}", draw::scene_svg(&m.game, &view, &title, seats));
        return 0;
    }
    write_picture(&m.game.board, &view, title, seats, a.format, io)
}

fn write_picture(
    b: &crate::board::Board,
    view: &View,
    title: Vec<String>,
    seats: &[String],
    format: DrawFormat,
    io: &mut Io,
) -> i32 {
    let out = match format {
        DrawFormat::Svg => draw::plain_svg(b, view, title, seats),
        DrawFormat::Dot => draw::plain_dot(b, view, title, seats),
    };
    let _ = write!(io.out, "{out}");
    0
}

/// A board file alone: its nodes and edges, with no pieces.
fn bare_board(a: &Args, io: &mut Io) -> i32 {
    let mut sources = Sources::default();
    let text = match super::read_file(&a.file) {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(io.err, "error: cannot read `{}`: {e}", a.file.display());
            return 1;
        }
    };
    let id = sources.add(a.file.display().to_string(), text);
    let board = match crate::board::build(&sources, id) {
        Ok(b) => b,
        Err(d) => {
            let _ = write!(io.err, "{}", diag::render(&sources, &d, io.color, 100));
            return 1;
        }
    };
    let view = View {
        viewer: "public".into(),
        zones: vec![],
        vars: vec![],
        globals: vec![],
        table: vec![],
        grid: None,
        displays: vec![],
        node_looks: vec![],
        edge_looks: vec![],
    };
    let title = vec![
        board.name.clone(),
        format!(
            "{} nodes, {} edges (the board alone)",
            board.nodes.len(),
            board.edges.len()
        ),
    ];
    write_picture(&board, &view, title, &[], a.format, io)
}
