//! The command line, as a library function ([`run`]) so that tests call it
//! with arguments and in-memory output. All file and terminal IO of Regel
//! happens in this module.

mod check_cmd;
mod debug;
mod draw;
mod play;
pub mod record;
mod replay;
mod screen;
pub mod scenario;
pub mod simulate;

use crate::check::{self, Game};
use crate::diag::{self, Sources};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Parser, Debug)]
#[command(name = "regel", version, about = "Regel: game rules as data. Check, play, simulate and test rulesets.")]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Check rulesets and variants: every problem, with file, span and hint.
    Check {
        /// `.rules` files (games or variants).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Print a summary of each ruleset (phases, actions, decision points).
        #[arg(long)]
        summary: bool,
    },
    /// Play many seeded games with random bots and summarise them.
    Simulate {
        file: PathBuf,
        #[arg(long, default_value_t = 100)]
        games: u64,
        #[arg(long)]
        players: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Set an option: `--option name=value` (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Check the declared invariants after every decision (the default; kept for old scripts).
        #[arg(long, overrides_with = "no_invariants")]
        invariants: bool,
        /// Do not check the declared invariants (faster).
        #[arg(long)]
        no_invariants: bool,
        /// Threads to use (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Write each game's record into this folder.
        #[arg(long)]
        records: Option<PathBuf>,
        #[arg(long, default_value_t = crate::eval::DEFAULT_BUDGET)]
        step_budget: u64,
    },
    /// Play in the terminal: humans type an option's label or number; bots play the other seats.
    Play {
        file: PathBuf,
        #[arg(long)]
        players: usize,
        /// The seed of the game (default: a fresh one, printed so the game can be played again).
        #[arg(long)]
        seed: Option<u64>,
        /// Who sits where, one per seat: `human` or `random` (default: seat 1 human, the rest random).
        #[arg(long = "seat", value_name = "KIND")]
        seats: Vec<String>,
        /// Shorthand: every seat but the first is this bot (`random`).
        #[arg(long)]
        bot: Option<String>,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Write the game record here when the game ends.
        #[arg(long)]
        record: Option<PathBuf>,
        #[arg(long, default_value_t = crate::eval::DEFAULT_BUDGET)]
        step_budget: u64,
    },
    /// Re-run a game record against the current rules and print the final position and scores.
    Replay {
        record: PathBuf,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Run scenario files: a position set up by hand, decisions, and what must hold.
    Test {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// A picture of a position as a seat sees it: the board at its coordinates with the pieces, as SVG or DOT.
    Draw {
        /// The ruleset (or a `.toml` board file: the board alone).
        file: PathBuf,
        /// Draw a position of this game record (its players, seed, options and decisions).
        #[arg(long)]
        record: Option<PathBuf>,
        /// With `--record`: the position after this many decisions (default: all).
        #[arg(long)]
        step: Option<usize>,
        /// The seat whose view is drawn, by name or number (default: an onlooker, who sees public things only).
        #[arg(long)]
        seat: Option<String>,
        /// Without `--record`: the number of players (default: the fewest the game allows).
        #[arg(long)]
        players: Option<usize>,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        #[arg(long, value_enum, default_value = "svg")]
        format: draw::DrawFormat,
    },
    /// Debug view: the board of a ruleset (or a board file) as Graphviz DOT.
    Board { file: PathBuf },
    /// Debug view: the syntax tree of a rules file as JSON.
    Ast { file: PathBuf },
    /// Debug view: the legal options after some decisions, and the position as the deciding seat sees it.
    Moves {
        file: PathBuf,
        #[arg(long)]
        players: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Decisions to take first, by label.
        #[arg(long = "decide", value_name = "LABEL")]
        decisions: Vec<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Debug view: the full log of one seeded game between random bots.
    Trace {
        file: PathBuf,
        #[arg(long)]
        players: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
}

/// Terminal input and output, injectable for tests.
pub struct Io<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    pub input: &'a mut dyn BufRead,
    /// Colours in diagnostics (off for pipes and snapshots).
    pub color: bool,
    /// `out` is a terminal: `play` may clear the screen between seats.
    pub term: bool,
}

/// Runs a command line; returns the process exit code.
pub fn run(args: &[String], io: &mut Io) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = write!(io.err, "{}", e.render());
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match cli.cmd {
        Cmd::Check { files, format, summary } => check_cmd::run(&files, format, summary, io),
        Cmd::Simulate { file, games, players, seed, options, format, invariants: _, no_invariants, threads, records, step_budget } => {
            simulate::run(&simulate::Args { file, games, players, seed, options, format, invariants: !no_invariants, threads, records, step_budget }, io)
        }
        Cmd::Play { file, players, seed, seats, bot, options, record, step_budget } => {
            play::run(&play::Args { file, players, seed, seats, bot, options, record, step_budget }, io)
        }
        Cmd::Replay { record, format } => replay::run(&record, format, io),
        Cmd::Test { files, format } => scenario::run(&files, format, io),
        Cmd::Draw { file, record, step, seat, players, seed, options, format } => draw::run(&draw::Args { file, record, step, seat, players, seed, options, format }, io),
        Cmd::Board { file } => debug::board(&file, io),
        Cmd::Ast { file } => debug::ast(&file, io),
        Cmd::Moves { file, players, seed, options, decisions, format } => debug::moves(&file, players, seed, &options, &decisions, format, io),
        Cmd::Trace { file, players, seed, options } => debug::trace(&file, players, seed, &options, io),
    }
}

/// Reads files from the real file system (the only reader outside tests).
pub fn read_file(p: &Path) -> std::io::Result<String> {
    std::fs::read_to_string(p)
}

/// Loads and checks a ruleset, printing diagnostics on failure.
pub fn load_game(file: &Path, io: &mut Io) -> Option<(Arc<Game>, Sources)> {
    let mut sources = Sources::default();
    match check::check(&mut sources, &read_file, file) {
        Ok((g, warnings)) => {
            if !warnings.is_empty() {
                let _ = write!(io.err, "{}", diag::render(&sources, &warnings, io.color, 100));
            }
            Some((Arc::new(g), sources))
        }
        Err(diags) => {
            let _ = write!(io.err, "{}", diag::render(&sources, &diags, io.color, 100));
            None
        }
    }
}

/// Parses `name=value` option settings against the game's declared options.
pub fn parse_options(g: &Game, opts: &[String]) -> Result<Vec<(String, i64)>, String> {
    let mut out = vec![];
    for o in opts {
        let (name, value) = o.split_once('=').ok_or_else(|| format!("`{o}`: write an option as NAME=VALUE"))?;
        let Some(&vi) = g.options.get(name) else {
            return Err(format!("the ruleset has no option `{name}`; its options are: {}", g.options.keys().cloned().collect::<Vec<_>>().join(", ")));
        };
        let ty = g.vars[vi].ty;
        let v = match ty.scalar {
            crate::check::ir::Scalar::Bool => match value {
                "true" => 1,
                "false" => 0,
                _ => return Err(format!("option `{name}` is true or false, not `{value}`")),
            },
            crate::check::ir::Scalar::Enum(e) => match g.enums[e as usize].members.iter().position(|m| m == value) {
                Some(i) => i as i64,
                None => return Err(format!("option `{name}` is one of {}", g.enums[e as usize].members.join(", "))),
            },
            _ => value.parse().map_err(|_| format!("option `{name}` is a whole number, not `{value}`"))?,
        };
        out.push((name.to_string(), v));
    }
    Ok(out)
}
