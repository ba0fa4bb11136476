//! The command line, as a library function ([`run`]) so that tests call it
//! with arguments and in-memory output. All file and terminal IO of Regel
//! happens in this module.

mod check_cmd;
mod compare;
mod deadline;
mod debug;
mod diff;
mod diverge;
mod draw;
pub mod files;
mod fmt_cmd;
mod play;
pub mod record;
mod replay;
pub mod scenario;
mod screen;
pub mod shard;
pub mod simulate;
mod trace;

use crate::diag::{self, Sources};
use crate::ir::Game;
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Parser, Debug)]
#[command(
    name = "regel",
    version,
    about = "Regel: game rules as data. Check, play, simulate and test rulesets."
)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
    /// The folder a ruleset may read files from (its board, a variant's
    /// base). Default: the current folder if the file named lies inside it,
    /// else that file's folder.
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// How `simulate`'s random seats choose (`eval/sample.rs`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Sampling {
    /// List every legal option, then pick one: the games the seeds have always given.
    List,
    /// Draw candidates and test them until one is legal: as uniform, without listing them all.
    Draw,
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
    /// Play many seeded games between bots (random unless `--seat` says otherwise) and summarise them: length, wins and scores per seat, the means of the ruleset's declared statistics, and with `--coverage` the rules the games never exercised.
    Simulate {
        file: PathBuf,
        #[arg(long, default_value_t = 100, value_parser = games_parser())]
        games: u64,
        #[arg(long)]
        players: usize,
        #[arg(long, default_value_t = 0, value_parser = seed_parser())]
        seed: u64,
        /// Set an option: `--option name=value` (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Check the declared invariants wherever the rules are at rest (the default; kept for old scripts).
        #[arg(long, overrides_with = "no_invariants")]
        invariants: bool,
        /// Do not check the declared invariants (faster).
        #[arg(long)]
        no_invariants: bool,
        /// Threads to use (default: all cores; at most 256).
        #[arg(long, value_parser = threads_parser())]
        threads: Option<usize>,
        /// Write each game's record into this folder.
        #[arg(long)]
        records: Option<PathBuf>,
        #[arg(long, default_value_t = crate::eval::DEFAULT_BUDGET)]
        step_budget: u64,
        /// The bot at each seat in order: `random`, `mcts`, `mcts:ITERATIONS` or `mcts:ITERATIONS:DEPTH` (400 iterations and playouts of 200 decisions by default; seats not named are random).
        #[arg(long = "seat", value_name = "BOT")]
        seats: Vec<String>,
        /// Stop a decision whose rules' work runs longer than this many seconds of wall-clock time (a run-time error, E0901); for hosts where a person waits. Bots' search and a person's thinking do not count.
        #[arg(long, value_name = "SECONDS", value_parser = deadline::parse)]
        deadline: Option<f64>,
        /// Also list what the games never exercised, as warnings with source spans: actions never offered (W0101) or never taken (W0102), leading `require`s that never failed (W0103) or never held (W0104), `if` bodies and `else`s that never ran (W0105).
        #[arg(long)]
        coverage: bool,
        /// Play only slice K of N of the games (`--shard 2/8`, contiguous slices of the seeds) and print a partial result as JSON instead of the summary; `regel merge` turns the N partials into the summary of the whole run.
        #[arg(long, value_name = "K/N", value_parser = shard::parse_shard)]
        shard: Option<shard::Shard>,
        /// How random seats choose: `list` lists every legal option and picks one; `draw` draws candidates at random and tests them until one is legal, which is as uniform among the legal options and faster where options are many and cheap to test (reversi, breakthrough: twice as fast), but gives other games for the same seeds, and counts a drawn option as a decision where it may have been the only one. `draw` is for random seats only, without `--records`, `--coverage` or `--shard`.
        #[arg(long, value_enum, default_value = "list")]
        sampling: Sampling,
    },
    /// Merge the partial results of `simulate --shard K/N` or `compare --shard K/N` (one per K, in any order) into exactly what the whole run prints; the rulesets are read again from where the shards named them, and must be unchanged.
    Merge {
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Play in the terminal: humans type an option's label or number (at the prompt also `?` for help, `rules` for the game's summary and each action's help, `view`, `log`, `undo`, `quit`); bots play the other seats.
    ///
    /// A label that is not legal now is answered with the rule that forbids it: the first `require` that fails, with the values its comparison saw (`require money >= 1` failed: `money` is 0), a parameter value outside its domain, or an action this decision does not offer.
    Play {
        /// The ruleset (not needed with `--resume`: the record names it).
        #[arg(required_unless_present = "resume")]
        file: Option<PathBuf>,
        #[arg(long, required_unless_present = "resume")]
        players: Option<usize>,
        /// Continue a game left unfinished, from the record `--record` wrote
        /// (its ruleset, players, seed, options and decisions); the record
        /// goes on being written there unless `--record` names another file.
        #[arg(long, value_name = "RECORD")]
        resume: Option<PathBuf>,
        /// The seed of the game (default: a fresh one, printed so the game can be played again).
        #[arg(long, value_parser = seed_parser())]
        seed: Option<u64>,
        /// Who sits where, one per seat: `human`, `random`, `mcts`, `mcts:ITERATIONS` or `mcts:ITERATIONS:DEPTH` (default: seat 1 human, the rest random).
        #[arg(long = "seat", value_name = "KIND")]
        seats: Vec<String>,
        /// Shorthand: every seat but the first is this bot (`random`, `mcts`, `mcts:ITERATIONS`, `mcts:ITERATIONS:DEPTH`).
        #[arg(long)]
        bot: Option<String>,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Write the game record here, as the game goes (a game left unfinished can be resumed from it with `--resume`).
        #[arg(long)]
        record: Option<PathBuf>,
        #[arg(long, default_value_t = crate::eval::DEFAULT_BUDGET)]
        step_budget: u64,
        /// Stop a decision whose rules' work runs longer than this many seconds of wall-clock time (a run-time error, E0901); for hosts where a person waits. Bots' search and a person's thinking do not count.
        #[arg(long, value_name = "SECONDS", value_parser = deadline::parse)]
        deadline: Option<f64>,
    },
    /// What a variant changes against a base: options, constants, actions, phases, procedures, the board — in words or JSON.
    Diff {
        /// The ruleset compared against (a game or a variant).
        base: PathBuf,
        /// The ruleset whose changes are listed.
        variant: PathBuf,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Paired seeded games of a base and a variant: each measure's difference with a 95 % interval, in plain sentences. The measures are game length, the winner's margin, score spread, ties, first-player advantage, each seat's win rate, and every `statistic` both rulesets declare.
    Compare {
        /// The ruleset compared against (a game or a variant).
        base: PathBuf,
        /// The ruleset whose effect is measured.
        variant: PathBuf,
        /// Players in every game.
        #[arg(long)]
        players: usize,
        /// The first seed; pair `i` plays seed `seed + i` on both sides.
        #[arg(long, default_value_t = 0, value_parser = seed_parser())]
        seed: u64,
        /// The budget: at most this many pairs of games.
        #[arg(long, default_value_t = 2000, value_parser = games_parser())]
        games: u64,
        /// Pairs played between two looks at the intervals.
        #[arg(long, default_value_t = 100, value_parser = games_parser())]
        batch: u64,
        /// Stop when every interval's half-width is at most this many percentage points (win rates, ties) or per cent of the base's mean (length, margin, spread, statistics).
        #[arg(long, default_value_t = 3.0)]
        precision: f64,
        /// The bot at each seat in order, the same on both sides: `random`, `mcts`, `mcts:ITERATIONS` or `mcts:ITERATIONS:DEPTH` (seats not named are random).
        #[arg(long = "seat", value_name = "BOT")]
        seats: Vec<String>,
        /// Set an option on both sides: `--option name=value` (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Threads to use (default: all cores; at most 256).
        #[arg(long, value_parser = threads_parser())]
        threads: Option<usize>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        #[arg(long, default_value_t = crate::eval::DEFAULT_BUDGET)]
        step_budget: u64,
        /// Play only slice K of N of the pairs (`--shard 2/8`), all of them, and print a partial result instead of the report; `regel merge` turns the N partials into the report of the whole run, stopped where it would have stopped.
        #[arg(long, value_name = "K/N", value_parser = shard::parse_shard)]
        shard: Option<shard::Shard>,
    },
    /// Re-run a game record against the current rules and print the final position and scores.
    ///
    /// A label that is not legal now is answered with the rule that forbids it: the first `require` that fails, with the values its comparison saw (`require money >= 1` failed: `money` is 0), a parameter value outside its domain, or an action this decision does not offer.
    Replay {
        record: PathBuf,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Play the record on these edited rules beside its own, and show the first step where they part (exit 1 when they do).
        #[arg(long, value_name = "RULES")]
        against: Option<PathBuf>,
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
        #[arg(long, default_value_t = 0, value_parser = seed_parser())]
        seed: u64,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        #[arg(long, value_enum, default_value = "svg")]
        format: draw::DrawFormat,
    },
    /// Rewrite rules files in the canonical layout (comments kept); with `--check`, write nothing, list the files that would change and exit with 1 if any would.
    Fmt {
        /// `.rules` files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Change nothing; exit with 1 if a file is not in the canonical layout.
        #[arg(long)]
        check: bool,
    },
    /// The language server for editors, on stdin and stdout (Language Server Protocol).
    Lsp,
    /// Debug view: the board of a ruleset (or a board file) as Graphviz DOT.
    Board { file: PathBuf },
    /// Debug view: the syntax tree of a rules file as JSON.
    Ast { file: PathBuf },
    /// Debug view: the compiled program as the executor runs it, after the chosen rewrites.
    ///
    /// A leading `require` that several actions share, computed once per decision, is marked `shared#N`.
    Ir {
        file: PathBuf,
        /// The rewrites to apply: `all`, `none`, or a list such as `inline,splice`
        /// (passes, in the order they run: players, which compiles a copy per run of player counts that leave the same variables constant, zone-len, inline, fold-board, consts, zone-pred, searches, board-index, splice, fn-tables, bytecode; keep, which keeps values between decisions, works with bytecode).
        #[arg(long, default_value = "all")]
        passes: String,
        /// For a ruleset with a board per player count, or compiled per run of counts (the `players` pass): the program for this many players.
        #[arg(long)]
        players: Option<usize>,
        /// Also list the bytecode of every compiled expression (`code#N`), operation by operation, and the expressions whose values are kept between decisions (`kept#N`: estimated cost, declarations read).
        #[arg(long)]
        bytecode: bool,
    },
    /// Debug view: the legal options after some decisions, and the position as the deciding seat sees it.
    ///
    /// A label that is not legal now is answered with the rule that forbids it: the first `require` that fails, with the values its comparison saw (`require money >= 1` failed: `money` is 0), a parameter value outside its domain, or an action this decision does not offer.
    Moves {
        file: PathBuf,
        #[arg(long)]
        players: usize,
        #[arg(long, default_value_t = 0, value_parser = seed_parser())]
        seed: u64,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Decisions to take first, by label.
        #[arg(long = "decide", value_name = "LABEL")]
        decisions: Vec<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Debug view: the full log of one seeded game between random bots, or of a recorded game (`--record`).
    Trace(trace::Args),
}

/// Terminal input and output, injectable for tests.
pub struct Io<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    pub input: &'a mut dyn BufRead,
    /// Colours in diagnostics (off for pipes and snapshots).
    pub color: bool,
    /// The folder rulesets may read from (`--root`); see [`files::root_for`].
    pub root: Option<PathBuf>,
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
    if cli.root.is_some() {
        io.root = cli.root;
    }
    match cli.cmd {
        Cmd::Check {
            files,
            format,
            summary,
        } => check_cmd::run(&files, format, summary, io),
        // The server owns the process's real stdin and stdout: `main.rs`
        // starts it for `regel lsp` before stdin is locked. Here, behind
        // other options, stdin may be locked already, so it is refused.
        Cmd::Lsp => {
            let _ = writeln!(
                io.err,
                "error: start the language server as `regel lsp`, with no other arguments"
            );
            2
        }
        Cmd::Simulate {
            file,
            games,
            players,
            seed,
            options,
            format,
            invariants: _,
            no_invariants,
            threads,
            records,
            step_budget,
            seats,
            coverage,
            deadline,
            shard,
            sampling,
        } => simulate::run(
            &simulate::Args {
                file,
                games,
                players,
                seed,
                options,
                format,
                invariants: !no_invariants,
                threads,
                records,
                step_budget,
                seats,
                coverage,
                deadline,
                shard,
                draw: sampling == Sampling::Draw,
            },
            io,
        ),
        Cmd::Merge { parts, format } => shard::merge(&parts, format, io),
        Cmd::Play {
            file,
            players,
            seed,
            seats,
            bot,
            options,
            record,
            step_budget,
            resume,
            deadline,
        } => play::run(
            &play::Args {
                file,
                players,
                resume,
                seed,
                seats,
                bot,
                options,
                record,
                step_budget,
                deadline,
            },
            io,
        ),
        Cmd::Diff {
            base,
            variant,
            format,
        } => diff::run(&base, &variant, format, io),
        Cmd::Compare {
            base,
            variant,
            players,
            seed,
            games,
            batch,
            precision,
            seats,
            options,
            threads,
            format,
            step_budget,
            shard,
        } => compare::run(
            &compare::Args {
                base,
                variant,
                players,
                seed,
                games,
                batch,
                precision,
                seats,
                options,
                threads,
                format,
                step_budget,
                shard,
            },
            io,
        ),
        Cmd::Replay {
            record,
            format,
            against: Some(edited),
        } => diverge::run(&record, &edited, format, io),
        Cmd::Replay {
            record,
            format,
            against: None,
        } => replay::run(&record, format, io),
        Cmd::Test { files, format } => scenario::run(&files, format, io),
        Cmd::Draw {
            file,
            record,
            step,
            seat,
            players,
            seed,
            options,
            format,
        } => draw::run(
            &draw::Args {
                file,
                record,
                step,
                seat,
                players,
                seed,
                options,
                format,
            },
            io,
        ),
        Cmd::Fmt { files, check } => fmt_cmd::run(&files, check, io),
        Cmd::Board { file } => debug::board(&file, io),
        Cmd::Ast { file } => debug::ast(&file, io),
        Cmd::Ir {
            file,
            passes,
            players,
            bytecode,
        } => debug::ir(&file, &passes, players, bytecode, io),
        Cmd::Moves {
            file,
            players,
            seed,
            options,
            decisions,
            format,
        } => debug::moves(&file, players, seed, &options, &decisions, format, io),
        Cmd::Trace(args) => trace::run(args, io),
    }
}

pub use files::read_file;

/// Seeds are at most `i64::MAX`, the largest integer a TOML record can hold,
/// so that every seed the command line accepts can be written and replayed.
fn seed_parser() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(0..=i64::MAX as u64)
}

/// Games (and pairs of games) per run: results are kept per game, so the
/// count is bounded before anything is allocated.
fn games_parser() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=crate::limits::MAX_GAMES)
}

/// Threads: at least one, and not thousands (each has a stack).
fn threads_parser() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..=crate::limits::MAX_THREADS as u64)
}

/// The last seed of `games` games from `seed`, or a message when it would
/// pass the largest seed.
pub(crate) fn last_seed(seed: u64, games: u64) -> Result<u64, String> {
    seed.checked_add(games.saturating_sub(1))
        .filter(|&s| s <= i64::MAX as u64)
        .ok_or_else(|| {
            format!(
                "seeds {seed} and the {} after it pass the largest seed, {}; start from a smaller `--seed`",
                games.saturating_sub(1),
                i64::MAX
            )
        })
}

/// The thread pool of `--threads` (all cores by default) and a progress bar
/// of `len` items on stderr, drawn with `template`, hidden when stderr is not
/// a terminal: what `simulate` and `compare` play their games with.
pub(crate) fn workers(
    threads: Option<usize>,
    len: u64,
    template: &str,
) -> Result<(rayon::ThreadPool, indicatif::ProgressBar), String> {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| e.to_string())?;
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Ok((pool, bar))
}

/// A game's name with the variants applied to it, as headers show it:
/// `Base game (house rule: a variant's name)`.
pub(crate) fn game_title(g: &Game) -> String {
    if g.variants.is_empty() {
        g.name.clone()
    } else {
        format!("{} ({})", g.name, g.variants.join(" <- "))
    }
}

/// Loads and checks a ruleset, printing diagnostics on failure. The ruleset
/// reads files only under the run's root (see [`files`]).
pub fn load_game(file: &Path, io: &mut Io) -> Option<(Arc<Game>, Sources)> {
    let mut sources = Sources::default();
    let read = files::confined(files::root_for(file, io.root.as_deref()));
    match crate::pipeline::compile(&mut sources, &read, file, &crate::opt::Passes::all()) {
        Ok((g, warnings)) => {
            if !warnings.is_empty() {
                let _ = write!(
                    io.err,
                    "{}",
                    diag::render(&sources, &warnings, io.color, 100)
                );
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
    let mut out: Vec<(String, i64)> = vec![];
    for o in opts {
        let (name, value) = o
            .split_once('=')
            .ok_or_else(|| format!("`{o}`: write an option as NAME=VALUE"))?;
        if out.iter().any(|(n, _)| n == name) {
            return Err(format!(
                "option `{name}` is set twice; give each option once"
            ));
        }
        let Some(&vi) = g.options.get(name) else {
            return Err(format!(
                "the ruleset has no option `{name}`; its options are: {}",
                g.options.keys().cloned().collect::<Vec<_>>().join(", ")
            ));
        };
        let ty = g.vars[vi].ty;
        let v = match ty.scalar {
            crate::ir::Scalar::Bool => match value {
                "true" => 1,
                "false" => 0,
                _ => return Err(format!("option `{name}` is true or false, not `{value}`")),
            },
            crate::ir::Scalar::Enum(e) => {
                match g.enums[e as usize].members.iter().position(|m| m == value) {
                    Some(i) => i as i64,
                    None => {
                        return Err(format!(
                            "option `{name}` is one of {}",
                            g.enums[e as usize].members.join(", ")
                        ))
                    }
                }
            }
            _ => value
                .parse()
                .map_err(|_| format!("option `{name}` is a whole number, not `{value}`"))?,
        };
        out.push((name.to_string(), v));
    }
    Ok(out)
}
