//! Debug views: the board as Graphviz DOT, the syntax tree as JSON and the
//! legal options after some decisions (the full log of one game is
//! `trace.rs`).

use super::replay::{apply_labels, run_diag, standings_text, start, Logs, Started};
use super::{load_game, read_file, Format, Io};
use crate::diag::{self, Sources};
use std::path::Path;

/// Reads a file into `sources`, or prints an error naming the path.
fn read_into(sources: &mut Sources, f: &Path, io: &mut Io) -> Option<u32> {
    match read_file(f) {
        Ok(t) => Some(sources.add(f.display().to_string(), t)),
        Err(e) => {
            let _ = writeln!(io.err, "error: cannot read `{}`: {e}", f.display());
            None
        }
    }
}

/// `regel board FILE`: a `.toml` board file, or the board of a `.rules` file.
pub fn board(f: &Path, io: &mut Io) -> i32 {
    if f.extension().and_then(|e| e.to_str()) == Some("toml") {
        let mut sources = Sources::default();
        let Some(id) = read_into(&mut sources, f, io) else {
            return 1;
        };
        match crate::board::build(&sources, id) {
            Ok(b) => {
                let _ = write!(io.out, "{}", b.to_dot());
                0
            }
            Err(d) => {
                let _ = write!(io.err, "{}", diag::render(&sources, &d, io.color, 100));
                1
            }
        }
    } else {
        let Some((game, _)) = load_game(f, io) else {
            return 1;
        };
        let _ = write!(io.out, "{}", game.board.to_dot());
        0
    }
}

/// `regel ast FILE`: the syntax tree of one rules file (a variant is shown as
/// written, not merged onto its base).
pub fn ast(f: &Path, io: &mut Io) -> i32 {
    let mut sources = Sources::default();
    let Some(id) = read_into(&mut sources, f, io) else {
        return 1;
    };
    match crate::syntax::parse(&sources, id) {
        Ok(file) => match serde_json::to_string_pretty(&file) {
            Ok(s) => {
                let _ = writeln!(io.out, "{s}");
                0
            }
            Err(e) => {
                let _ = writeln!(io.err, "error: cannot write the syntax tree as JSON: {e}");
                1
            }
        },
        Err(d) => {
            let _ = write!(io.err, "{}", diag::render(&sources, &d, io.color, 100));
            1
        }
    }
}

/// `regel ir FILE [--passes …] [--players N] [--bytecode]`: the compiled program as text.
pub fn ir(f: &Path, passes: &str, players: Option<usize>, bytecode: bool, io: &mut Io) -> i32 {
    let passes = match crate::opt::Passes::parse(passes) {
        Ok(p) => p,
        Err(e) => {
            let _ = writeln!(io.err, "error: {e}");
            return 2;
        }
    };
    let mut sources = Sources::default();
    let read = super::files::confined(super::files::root_for(f, io.root.as_deref()));
    match crate::pipeline::compile(&mut sources, &read, f, &passes) {
        Ok((g, _)) => {
            let g = std::sync::Arc::new(g);
            let g = match players {
                Some(n) => g.for_players(n),
                None => g,
            };
            let _ = write!(io.out, "{}", crate::ir::print::print(&g));
            if bytecode {
                let _ = write!(io.out, "{}", crate::ir::print::programs(&g));
            }
            0
        }
        Err(d) => {
            let _ = write!(io.err, "{}", diag::render(&sources, &d, io.color, 100));
            1
        }
    }
}

/// `regel moves`: apply some decisions, then show whose decision it is, that
/// seat's view and its numbered legal options.
pub fn moves(
    f: &Path,
    players: usize,
    seed: u64,
    options: &[String],
    decisions: &[String],
    format: Format,
    io: &mut Io,
) -> i32 {
    let Started {
        game,
        sources,
        mut m,
    } = match start(
        f,
        players,
        seed,
        options,
        Logs::Off,
        crate::eval::DEFAULT_BUDGET,
        io,
    ) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Err(e) = apply_labels(&mut m, &sources, decisions, 1) {
        e.print(&sources, io);
        return 1;
    }
    let Some((seat, _)) = m.pending() else {
        let st = match m.standings() {
            Ok(s) => s,
            Err(e) => {
                let _ = write!(
                    io.err,
                    "{}",
                    diag::render(&sources, &[run_diag(&e, m.state.decisions)], io.color, 100)
                );
                return 1;
            }
        };
        match format {
            Format::Json => {
                let j = serde_json::json!({ "over": true, "decisions": m.state.decisions, "seat": null, "options": [], "view": m.view_data(None), "standings": st });
                let _ = writeln!(
                    io.out,
                    "{}",
                    serde_json::to_string_pretty(&j).unwrap_or_default()
                );
            }
            Format::Text => {
                let _ = writeln!(
                    io.out,
                    "the game is over after {} decision(s)",
                    m.state.decisions
                );
                let _ = write!(io.out, "{}", m.view(None).to_text());
                let _ = write!(io.out, "{}", standings_text(&st));
            }
        }
        return 0;
    };
    let rule = super::replay::pending_span(&m).map(|s| super::replay::location(&sources, s));
    match format {
        Format::Json => {
            // Typed data for tools (`eval/typed.rs`; the shape is in the README).
            let j = serde_json::json!({
                "over": false,
                "decisions": m.state.decisions,
                "seat": game.seats[seat],
                "rule": rule,
                "options": m.options_data(),
                "view": m.view_data(Some(seat)),
            });
            let _ = writeln!(
                io.out,
                "{}",
                serde_json::to_string_pretty(&j).unwrap_or_default()
            );
        }
        Format::Text => {
            let labels = m.option_labels();
            let view = m.view(Some(seat));
            let _ = writeln!(
                io.out,
                "decision {}: {} to decide{}",
                m.state.decisions + 1,
                game.seats[seat],
                rule.map(|r| format!(" (asked at {r})")).unwrap_or_default()
            );
            let _ = writeln!(io.out, "position as {} sees it:", game.seats[seat]);
            let _ = write!(io.out, "{}", view.to_text());
            let _ = writeln!(io.out, "options:");
            let _ = write!(io.out, "{}", super::play::options_text(&labels));
        }
    }
    0
}
