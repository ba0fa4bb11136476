//! Measure: seeded games between bots, a batch at a time (the page shows
//! progress between batches), and the summary `regel simulate --format json`
//! writes: the same games (seed `seed + i`, bots seeded as the CLI seeds
//! them) and the same figures, which `tests/run`'s web section compares.

use regel_core::bot::seeded::{play_counted, GameResult, Play};
use regel_core::bot::SeatKind;
use regel_core::coverage::Totals;
use regel_core::diag::{self, Sources};
use regel_core::eval::Coverage;
use regel_core::eval::Setup;
use regel_core::ir::Game;
use serde::Serialize;
use std::sync::Arc;

/// Plays the game of seed `seed` between the bots `kinds`: `regel
/// simulate`'s own function, with its budget, no options and the declared
/// invariants checked wherever the rules are at rest (as `regel simulate` checks them
/// unless told not to: their work counts against the budget, so a game that
/// runs out of it ends where the CLI's ends), and with the match's coverage
/// counters (in [`GameResult::coverage`]) when asked.
pub fn play(
    game: &Arc<Game>,
    players: usize,
    seed: u64,
    kinds: &[SeatKind],
    coverage: bool,
) -> GameResult {
    let setup = Setup {
        players,
        seed,
        options: vec![],
        budget: regel_core::eval::DEFAULT_BUDGET,
        log: false,
    };
    let how = Play {
        invariants: true,
        coverage,
        ..Play::default()
    };
    play_counted(game, &setup, kinds, how, None)
}

#[derive(Serialize)]
pub struct Summary {
    players: usize,
    games: u64,
    bots: Vec<String>,
    errors: usize,
    decisions_mean: f64,
    decisions_min: u32,
    decisions_max: u32,
    seats: Vec<SeatSummary>,
    first_errors: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    statistics: Vec<StatSummary>,
    /// What the games never exercised, as `regel simulate --coverage
    /// --format json` writes it, when the run counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    coverage: Option<CoverageSummary>,
    /// Each game's length and scores, for the page's histograms.
    lengths: Vec<u32>,
    scores: Vec<Vec<i64>>,
}

#[derive(Serialize)]
struct CoverageSummary {
    #[serde(flatten)]
    totals: Totals,
    /// The warnings, as `regel check --format json` writes diagnostics.
    warnings: Vec<serde_json::Value>,
    /// The totals as `regel simulate --coverage` prints them.
    line: String,
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

#[derive(Serialize)]
struct StatSummary {
    name: String,
    per_player: bool,
    mean: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    seats: Option<Vec<f64>>,
}

/// The summary of `results`, with the formulas of `regel simulate`.
pub fn summary(
    game: &Game,
    sources: &Sources,
    n: usize,
    kinds: &[SeatKind],
    results: &[GameResult],
    coverage: Option<&Coverage>,
) -> Summary {
    let ok: Vec<&GameResult> = results.iter().filter(|r| r.error.is_none()).collect();
    let seats = (0..n)
        .map(|s| {
            let scores: Vec<i64> = ok.iter().map(|r| r.scores[s]).collect();
            SeatSummary {
                seat: game.seats[s].clone(),
                wins: ok.iter().filter(|r| r.winners[..] == [s]).count() as u64,
                shared_wins: ok
                    .iter()
                    .filter(|r| r.winners.len() > 1 && r.winners.contains(&s))
                    .count() as u64,
                score_mean: if scores.is_empty() {
                    0.0
                } else {
                    scores.iter().map(|&v| v as i128).sum::<i128>() as f64 / scores.len() as f64
                },
                score_min: scores.iter().copied().min().unwrap_or(0),
                score_max: scores.iter().copied().max().unwrap_or(0),
            }
        })
        .collect();
    let lens: Vec<u32> = ok.iter().map(|r| r.decisions).collect();
    let errors: Vec<String> = results
        .iter()
        .filter_map(|r| {
            let e = r.error.as_ref()?;
            let at = r
                .span
                .map(|s| {
                    let (l, c) = sources.line_col(s.file, s.start);
                    format!("at {}:{l}:{c}, ", sources.get(s.file).name)
                })
                .unwrap_or_default();
            Some(format!(
                "seed {}: {e} ({at}after {} decisions)",
                r.seed, r.decisions
            ))
        })
        .collect();
    let mean_of = |i: usize, f: &dyn Fn(&Vec<i64>) -> f64| {
        if ok.is_empty() {
            0.0
        } else {
            ok.iter().map(|r| f(&r.stats[i])).sum::<f64>() / ok.len() as f64
        }
    };
    Summary {
        players: n,
        games: results.len() as u64,
        bots: kinds.iter().map(|k| k.name()).collect(),
        errors: errors.len(),
        decisions_mean: if lens.is_empty() {
            0.0
        } else {
            lens.iter().map(|&x| x as f64).sum::<f64>() / lens.len() as f64
        },
        decisions_min: lens.iter().copied().min().unwrap_or(0),
        decisions_max: lens.iter().copied().max().unwrap_or(0),
        seats,
        first_errors: errors.iter().take(5).cloned().collect(),
        statistics: game
            .statistics
            .iter()
            .enumerate()
            .map(|(i, st)| StatSummary {
                name: st.name.clone(),
                per_player: st.per_player,
                mean: mean_of(i, &|v| {
                    v.iter().map(|&x| x as i128).sum::<i128>() as f64 / v.len().max(1) as f64
                }),
                seats: st
                    .per_player
                    .then(|| (0..n).map(|s| mean_of(i, &|v| v[s] as f64)).collect()),
            })
            .collect(),
        coverage: coverage.map(|c| {
            let (warnings, totals) =
                regel_core::coverage::report(game, c, sources, results.len() as u64);
            CoverageSummary {
                line: regel_core::coverage::totals_line(&totals),
                totals,
                warnings: warnings
                    .iter()
                    .filter_map(|d| serde_json::to_value(diag::to_json(sources, d)).ok())
                    .collect(),
            }
        }),
        lengths: lens,
        scores: ok.iter().map(|r| r.scores.to_vec()).collect(),
    }
}
