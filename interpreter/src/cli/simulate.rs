//! `regel simulate`: many seeded games between bots (random by default, MCTS
//! where `--seat` says so), in parallel, with a progress bar and a summary of
//! length, scores and wins per seat.

use super::{load_game, parse_options, Format, Io};
use crate::bot::SeatKind;
use crate::diag::Sources;
use crate::eval::Coverage;
use crate::eval::Setup;
use crate::ir::Game;
use rayon::prelude::*;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

pub struct Args {
    pub file: PathBuf,
    pub games: u64,
    pub players: usize,
    pub seed: u64,
    pub options: Vec<String>,
    pub format: Format,
    pub invariants: bool,
    pub threads: Option<usize>,
    pub records: Option<PathBuf>,
    pub step_budget: u64,
    /// Bots by seat, as `--seat` writes them; seats not named are random.
    pub seats: Vec<String>,
    /// Report the parts of the rules the games never exercised.
    pub coverage: bool,
    /// `--deadline`: seconds of wall-clock time one decision's work may take.
    pub deadline: Option<f64>,
    /// Play only this slice of the games and print a partial result for
    /// `regel merge` instead of the summary (see `shard.rs`).
    pub shard: Option<super::shard::Shard>,
    /// `--sampling draw`: random seats draw each `act`'s option
    /// (`eval/sample.rs`) instead of listing them all.
    pub draw: bool,
}

use crate::bot::seeded::Play;
pub use crate::bot::seeded::{bot_seed, play_bots, play_random, GameResult};

/// A seeded game (`bot::seeded::play_counted`), its match's coverage counters
/// added to `total` when given, each decision's work stopped after
/// `deadline` seconds when given.
fn play_counted(
    game: &Arc<Game>,
    setup: &Setup,
    kinds: &[SeatKind],
    mut how: Play,
    total: Option<&Mutex<Option<Coverage>>>,
    deadline: Option<f64>,
) -> GameResult {
    let clock = super::deadline::Deadline::new(deadline);
    how.coverage = total.is_some();
    let mut r = crate::bot::seeded::play_counted(
        game,
        setup,
        kinds,
        how,
        clock
            .as_ref()
            .map(|d| d as &dyn crate::bot::seeded::DecisionClock),
    );
    add_coverage(total, r.coverage.take());
    r
}

/// Adds a match's coverage counters to the run's total.
fn add_coverage(total: Option<&Mutex<Option<Coverage>>>, c: Option<Box<Coverage>>) {
    if let (Some(total), Some(c)) = (total, c) {
        // A poisoned lock means another game panicked; its counts are lost with it.
        if let Ok(mut t) = total.lock() {
            match &mut *t {
                Some(t) => t.add(&c),
                None => *t = Some(*c),
            }
        }
    }
}

#[derive(Serialize)]
struct Summary<'a> {
    ruleset: String,
    players: usize,
    games: u64,
    bots: Vec<String>,
    errors: usize,
    decisions_mean: f64,
    decisions_min: u32,
    decisions_max: u32,
    seats: Vec<SeatSummary>,
    first_errors: Vec<String>,
    /// The declared statistics' means over the games without errors.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    statistics: Vec<StatSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    coverage: Option<CoverageSummary<'a>>,
}

#[derive(Serialize)]
struct StatSummary {
    name: String,
    per_player: bool,
    /// Over every game (and, for a statistic per player, every seat).
    mean: f64,
    /// For a statistic per player: the mean of each seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    seats: Option<Vec<f64>>,
}

#[derive(Serialize)]
struct CoverageSummary<'a> {
    #[serde(flatten)]
    totals: crate::coverage::Totals,
    warnings: Vec<crate::diag::JsonDiagnostic<'a>>,
}

#[derive(Serialize)]
struct SeatSummary {
    seat: String,
    wins: u64,
    shared_wins: u64,
    score_mean: f64,
    score_min: i64,
    score_max: i64,
}

/// The summary's sums so far, games folded in seed order (by one run, or by
/// `regel merge` reading the shards' games back in the same order).
pub(super) struct Totals {
    /// Games without errors.
    ok: u64,
    errors: usize,
    /// The first few errors, as printed.
    first_errors: Vec<String>,
    decisions_sum: f64,
    decisions_min: Option<u32>,
    decisions_max: Option<u32>,
    wins: Vec<u64>,
    shared: Vec<u64>,
    score_sum: Vec<i128>,
    score_min: Vec<Option<i64>>,
    score_max: Vec<Option<i64>>,
    /// Per statistic: the sum over games of its mean over seats (or its
    /// value), and per seat the sum over games.
    stat_sum: Vec<f64>,
    stat_seat_sum: Vec<Vec<f64>>,
}

impl Totals {
    pub(super) fn new(seats: usize, stats: usize) -> Totals {
        // Float sums start where `Iterator::sum` starts, so the means are
        // the same to the last bit as when every game was kept.
        Totals {
            ok: 0,
            errors: 0,
            first_errors: vec![],
            decisions_sum: -0.0,
            decisions_min: None,
            decisions_max: None,
            wins: vec![0; seats],
            shared: vec![0; seats],
            score_sum: vec![0; seats],
            score_min: vec![None; seats],
            score_max: vec![None; seats],
            stat_sum: vec![-0.0; stats],
            stat_seat_sum: vec![vec![-0.0; seats]; stats],
        }
    }

    /// Adds one game of the run `a`; an error's line says where the rules
    /// were (in `sources`) and how to replay that game.
    pub(super) fn add(&mut self, r: &GameResult, a: &Args, sources: &Sources) {
        if let Some(e) = &r.error {
            self.errors += 1;
            if self.first_errors.len() < 5 {
                self.first_errors.push(describe_error(r, e, a, sources));
            }
            return;
        }
        self.ok += 1;
        self.decisions_sum += r.decisions as f64;
        self.decisions_min = Some(
            self.decisions_min
                .map_or(r.decisions, |m| m.min(r.decisions)),
        );
        self.decisions_max = Some(
            self.decisions_max
                .map_or(r.decisions, |m| m.max(r.decisions)),
        );
        for s in 0..self.wins.len() {
            let v = r.scores[s];
            self.wins[s] += (r.winners[..] == [s]) as u64;
            self.shared[s] += (r.winners.len() > 1 && r.winners.contains(&s)) as u64;
            self.score_sum[s] += v as i128;
            self.score_min[s] = Some(self.score_min[s].map_or(v, |m| m.min(v)));
            self.score_max[s] = Some(self.score_max[s].map_or(v, |m| m.max(v)));
        }
        for (i, v) in r.stats.iter().enumerate() {
            self.stat_sum[i] +=
                v.iter().map(|&x| x as i128).sum::<i128>() as f64 / v.len().max(1) as f64;
            for (s, sum) in self.stat_seat_sum[i].iter_mut().enumerate() {
                if let Some(&x) = v.get(s) {
                    *sum += x as f64;
                }
            }
        }
    }
}

/// A failed game's line in the summary: its error, where the rules were and
/// the command that replays the whole game (a drawn game has none: `trace`
/// lists its options).
fn describe_error(r: &GameResult, e: &str, a: &Args, sources: &Sources) -> String {
    let at = r
        .span
        .map(|s| format!("at {}, ", super::replay::location(sources, s)))
        .unwrap_or_default();
    if a.draw {
        return format!(
            "seed {}: {e} ({at}after {} decisions; drawn with `--sampling draw`, which `regel trace` does not replay: run the seeds with `--sampling list` to find a game to trace)",
            r.seed, r.decisions
        );
    }
    let opts: String = a.options.iter().map(|o| format!(" --option {o}")).collect();
    format!(
        "seed {}: {e} ({at}after {} decisions; the whole game: `regel trace {} --players {} --seed {}{opts}`)",
        r.seed,
        r.decisions,
        a.file.display(),
        a.players,
        r.seed
    )
}

pub fn run(a: &Args, io: &mut Io) -> i32 {
    if let Err(e) = super::last_seed(a.seed, a.games) {
        let _ = writeln!(io.err, "error: {e}");
        return 2;
    }
    let Some((game, sources)) = load_game(&a.file, io) else {
        return 1;
    };
    let options = match parse_options(&game, &a.options) {
        Ok(o) => o,
        Err(e) => {
            let _ = writeln!(io.err, "error: {e}");
            return 2;
        }
    };
    if a.players < game.min_players || a.players > game.max_players {
        let _ = writeln!(
            io.err,
            "error: {} takes {}..{} players, not {}",
            game.name, game.min_players, game.max_players, a.players
        );
        return 2;
    }
    let kinds = match seat_kinds(&a.seats, a.players) {
        Ok(k) => k,
        Err(e) => {
            let _ = writeln!(io.err, "error: {e}");
            return 2;
        }
    };
    if a.draw {
        let clash = if kinds.iter().any(|k| *k != SeatKind::Random) {
            Some("a bot other than `random` at a seat")
        } else if a.records.is_some() {
            Some("`--records` (a drawn game does not replay from its labels)")
        } else if a.coverage {
            Some("`--coverage` (coverage counts every option listed)")
        } else if a.shard.is_some() {
            Some("`--shard`")
        } else {
            None
        };
        if let Some(c) = clash {
            let _ = writeln!(
                io.err,
                "error: `--sampling draw` cannot be used with {c}; use `--sampling list`"
            );
            return 2;
        }
    }
    // A shard plays its slice of the seeds; a whole run, all of them.
    let slice = super::shard::games(a.shard, a.games);
    let (pool, bar) = match super::workers(
        a.threads,
        slice.end - slice.start,
        "{bar:40} {pos}/{len} games ({per_sec}, {eta} left)",
    ) {
        Ok(w) => w,
        Err(e) => {
            let _ = writeln!(io.err, "error: {e}");
            return 2;
        }
    };
    // A hidden bar is not ticked: ticking reads the clock and works out
    // an estimate each game, for nobody (and makes instruction counts
    // depend on how long the games took).
    let shown = !bar.is_hidden();
    let keep = a.records.is_some();
    let total: Mutex<Option<Coverage>> = Mutex::new(None);
    let counted = a.coverage.then_some(&total);
    if let Some(dir) = &a.records {
        if let Err(e) = std::fs::create_dir_all(dir) {
            let _ = writeln!(io.err, "error: cannot create {}: {e}", dir.display());
            return 2;
        }
    }
    let n = a.players;
    // Games are played in chunks of a few per thread and folded into the
    // summary in seed order, so memory grows with the threads, not with the
    // games, and every sum is taken in the order it always was.
    let chunk = (pool.current_num_threads() as u64 * 16).max(1);
    let mut acc = Totals::new(n, game.statistics.len());
    // A shard writes each game's outcome as it comes instead of summing it.
    let mut partial = match a.shard {
        Some(k) => match super::shard::Writer::start(a, k, &sources, io) {
            Ok(w) => Some(w),
            Err(code) => return code,
        },
        None => None,
    };
    let mut first = slice.start;
    while first < slice.end {
        let end = (first + chunk).min(slice.end);
        let results: Vec<GameResult> = pool.install(|| {
            (first..end)
                .into_par_iter()
                .map(|i| {
                    let setup = Setup {
                        players: a.players,
                        seed: a.seed + i,
                        options: options.clone(),
                        budget: a.step_budget,
                        log: false,
                    };
                    let how = Play {
                        invariants: a.invariants,
                        keep_labels: keep,
                        coverage: false,
                        draw: a.draw,
                    };
                    let r = play_counted(&game, &setup, &kinds, how, counted, a.deadline);
                    if shown {
                        bar.inc(1);
                    }
                    r
                })
                .collect()
        });
        if let Some(dir) = &a.records {
            for r in &results {
                let path = dir.join(format!("game-{}.toml", r.seed));
                let mut rec = super::record::Record::new(
                    &a.file,
                    Some(&path),
                    &game,
                    a.players,
                    r.seed,
                    &a.options,
                    r.labels.clone(),
                );
                if r.error.is_none() {
                    rec.scores = Some(r.scores.to_vec());
                }
                if let Err(e) = std::fs::write(&path, rec.to_toml()) {
                    bar.finish_and_clear();
                    let _ = writeln!(io.err, "error: cannot write {}: {e}", path.display());
                    return 2;
                }
            }
        }
        for r in &results {
            match &mut partial {
                Some(w) => w.game(r, io),
                None => acc.add(r, a, &sources),
            }
        }
        first = end;
    }
    bar.finish_and_clear();
    let counters = total.into_inner().ok().flatten();
    match partial {
        Some(w) => w.finish(counters, io),
        None => report(a, &game, &sources, &kinds, &acc, counters, io),
    }
}

/// The summary of a run's games (all of them: one run's, or the merged
/// shards'), printed in the run's format; the exit code is 1 if any failed.
pub(super) fn report(
    a: &Args,
    game: &Arc<Game>,
    sources: &Sources,
    kinds: &[SeatKind],
    acc: &Totals,
    counters: Option<Coverage>,
    io: &mut Io,
) -> i32 {
    let n = a.players;
    // Both callers refused a run whose seeds overflow.
    let last = a.seed + a.games.saturating_sub(1);
    let seats = (0..n)
        .map(|s| SeatSummary {
            seat: game.seats[s].clone(),
            wins: acc.wins[s],
            shared_wins: acc.shared[s],
            score_mean: if acc.ok == 0 {
                0.0
            } else {
                acc.score_sum[s] as f64 / acc.ok as f64
            },
            score_min: acc.score_min[s].unwrap_or(0),
            score_max: acc.score_max[s].unwrap_or(0),
        })
        .collect();
    // Every game of one player count runs the same program: its counters and
    // spans are those of the program for that count.
    let covered = match counters {
        Some(c) if a.coverage => Some(crate::coverage::report(
            &game.for_players(n),
            &c,
            sources,
            a.games,
        )),
        _ => None,
    };
    let s = Summary {
        ruleset: a.file.display().to_string(),
        players: n,
        games: a.games,
        bots: kinds.iter().map(|k| k.name()).collect(),
        errors: acc.errors,
        decisions_mean: if acc.ok == 0 {
            0.0
        } else {
            acc.decisions_sum / acc.ok as f64
        },
        decisions_min: acc.decisions_min.unwrap_or(0),
        decisions_max: acc.decisions_max.unwrap_or(0),
        seats,
        first_errors: acc.first_errors.clone(),
        statistics: game
            .statistics
            .iter()
            .enumerate()
            .map(|(i, st)| {
                let mean = |sum: f64| {
                    if acc.ok == 0 {
                        0.0
                    } else {
                        sum / acc.ok as f64
                    }
                };
                StatSummary {
                    name: st.name.clone(),
                    per_player: st.per_player,
                    mean: mean(acc.stat_sum[i]),
                    seats: st
                        .per_player
                        .then(|| acc.stat_seat_sum[i].iter().map(|&x| mean(x)).collect()),
                }
            })
            .collect(),
        coverage: covered.as_ref().map(|(diags, totals)| CoverageSummary {
            totals: totals.clone(),
            warnings: diags
                .iter()
                .map(|d| crate::diag::to_json(sources, d))
                .collect(),
        }),
    };
    match a.format {
        Format::Json => {
            let _ = writeln!(
                io.out,
                "{}",
                serde_json::to_string_pretty(&s).unwrap_or_default()
            );
        }
        Format::Text => {
            let _ = writeln!(
                io.out,
                "{} — {} games, {} players, seeds {}..{}",
                super::game_title(game),
                a.games,
                n,
                a.seed,
                last
            );
            if kinds.iter().any(|k| *k != SeatKind::Random) {
                let who: Vec<String> = (0..n)
                    .map(|i| format!("{} {}", game.seats[i], s.bots[i]))
                    .collect();
                let _ = writeln!(io.out, "bots: {}", who.join(", "));
            }
            let _ = writeln!(io.out, "errors: {}", s.errors);
            for e in &s.first_errors {
                let _ = writeln!(io.out, "  {e}");
            }
            let _ = writeln!(
                io.out,
                "decisions per game: mean {:.1}, min {}, max {}",
                s.decisions_mean, s.decisions_min, s.decisions_max
            );
            let _ = writeln!(
                io.out,
                "{:<10} {:>7} {:>7} {:>10} {:>8} {:>8}",
                "seat", "wins", "shared", "mean", "min", "max"
            );
            for st in &s.seats {
                let _ = writeln!(
                    io.out,
                    "{:<10} {:>7} {:>7} {:>10.1} {:>8} {:>8}",
                    st.seat, st.wins, st.shared_wins, st.score_mean, st.score_min, st.score_max
                );
            }
            for st in &s.statistics {
                let seats = match &st.seats {
                    Some(v) => format!(
                        " (per seat: {})",
                        v.iter()
                            .map(|x| format!("{x:.2}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    None => String::new(),
                };
                let _ = writeln!(io.out, "statistic {}: mean {:.2}{seats}", st.name, st.mean);
            }
            if let Some((diags, t)) = &covered {
                let _ = writeln!(io.out, "{}", crate::coverage::totals_line(t));
                let _ = write!(
                    io.out,
                    "{}",
                    crate::diag::render(sources, diags, io.color, 100)
                );
            }
        }
    }
    if s.errors > 0 {
        1
    } else {
        0
    }
}

/// The bots of `--seat` arguments, one per seat, random where none is named.
pub fn seat_kinds(seats: &[String], players: usize) -> Result<Vec<SeatKind>, String> {
    if seats.len() > players {
        return Err(format!(
            "{} `--seat`s given for {players} players",
            seats.len()
        ));
    }
    let mut k = seats
        .iter()
        .map(|s| SeatKind::parse(s))
        .collect::<Result<Vec<_>, _>>()?;
    if k.contains(&SeatKind::Human) {
        return Err("`human` cannot sit at a simulated game: use `regel play`".into());
    }
    k.resize(players, SeatKind::Random);
    Ok(k)
}
