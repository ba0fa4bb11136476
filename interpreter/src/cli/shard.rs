//! Runs beyond one machine: `regel simulate --shard K/N` plays the K-th of N
//! slices of a run's seeds and prints a partial result (JSON) instead of the
//! summary; **entry: `merge`** (`regel merge PARTS…`) checks that the partials
//! are the N slices of one run, of the ruleset as it is now, and prints
//! exactly what that run would have printed unsharded (text or JSON).
//!
//! A partial keeps every game's outcome (not only sums), so that the merged
//! summary is computed by the same code, over the same games in the same
//! order, as the unsharded run's: means and their rounding cannot drift.

use super::simulate::{self, GameResult};
use super::{load_game, Format, Io};
use crate::diag::{Sources, Span};
use crate::eval::Coverage;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::path::PathBuf;

/// The version of the partial format; a merge refuses any other.
const VERSION: u32 = 1;

/// Slice `k` (from 1) of `n`, as `--shard K/N` writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

/// Parses `K/N` (1 ≤ K ≤ N) for clap.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let bad = || format!("`{s}`: write a shard as K/N with 1 ≤ K ≤ N, as `--shard 2/8`");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n) = (
        k.trim().parse::<u64>().map_err(|_| bad())?,
        n.trim().parse::<u64>().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok(Shard { k, n })
}

/// The games (offsets from the first seed) that a shard plays: contiguous
/// slices of nearly equal length, the whole run without a shard.
pub fn games(shard: Option<Shard>, games: u64) -> Range<u64> {
    let Some(Shard { k, n }) = shard else {
        return 0..games;
    };
    let at = |i: u64| (games as u128 * i as u128 / n as u128) as u64;
    at(k - 1)..at(k)
}

/// What identifies a run: every setting that changes what it prints. Two
/// partials merge only if these are equal field by field.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
struct Run {
    /// The ruleset as it was named; `merge` reads it from there again.
    ruleset: String,
    /// A hash of every source text the ruleset was compiled from (rules,
    /// variants' bases, boards), so that an edited ruleset is noticed.
    fingerprint: String,
    players: usize,
    seed: u64,
    games: u64,
    options: Vec<String>,
    /// The bot at each seat, by its full name.
    bots: Vec<String>,
    invariants: bool,
    step_budget: u64,
    coverage: bool,
}

/// One game's outcome, everything the summary reads.
#[derive(Serialize, Deserialize)]
struct Played {
    seed: u64,
    decisions: u32,
    scores: Vec<i64>,
    winners: Vec<usize>,
    teams: Vec<i64>,
    ranks: Vec<usize>,
    error: Option<String>,
    span: Option<Span>,
    stats: Vec<Vec<i64>>,
}

#[derive(Serialize, Deserialize)]
struct Partial {
    regel_partial: u32,
    run: Run,
    /// `[K, N]`.
    shard: [u64; 2],
    games: Vec<Played>,
    /// The shard's coverage counters, with `--coverage`.
    counters: Option<Coverage>,
}

/// FNV-1a over each source's length and text: a fingerprint, not a defence
/// against someone forging partials.
fn fingerprint(sources: &Sources) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in &sources.files {
        let text = f.text.as_bytes();
        for b in (text.len() as u64).to_le_bytes().iter().chain(text) {
            h ^= *b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

fn run_of(a: &simulate::Args, sources: &Sources) -> Result<Run, String> {
    Ok(Run {
        ruleset: a.file.display().to_string(),
        fingerprint: fingerprint(sources),
        players: a.players,
        seed: a.seed,
        games: a.games,
        options: a.options.clone(),
        bots: simulate::seat_kinds(&a.seats, a.players)?
            .iter()
            .map(|k| k.name())
            .collect(),
        invariants: a.invariants,
        step_budget: a.step_budget,
        coverage: a.coverage,
    })
}

/// Prints a shard's partial result on `io.out`; 0 once it is written (the
/// games' errors are in it, and `merge` reports them).
pub fn write_partial(
    a: &simulate::Args,
    shard: Shard,
    sources: &Sources,
    results: &[GameResult],
    counters: Option<Coverage>,
    io: &mut Io,
) -> i32 {
    let run = match run_of(a, sources) {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(io.err, "error: {e}");
            return 2;
        }
    };
    let p = Partial {
        regel_partial: VERSION,
        run,
        shard: [shard.k, shard.n],
        games: results
            .iter()
            .map(|r| Played {
                seed: r.seed,
                decisions: r.decisions,
                scores: r.scores.clone(),
                winners: r.winners.clone(),
                teams: r.teams.clone(),
                ranks: r.ranks.clone(),
                error: r.error.clone(),
                span: r.span,
                stats: r.stats.clone(),
            })
            .collect(),
        counters,
    };
    match serde_json::to_string(&p) {
        Ok(s) => {
            let _ = writeln!(io.out, "{s}");
            0
        }
        Err(e) => {
            let _ = writeln!(io.err, "error: cannot write the partial result: {e}");
            2
        }
    }
}

/// `regel merge PARTS…`: the summary of the run the partials are slices of.
pub fn merge(parts: &[PathBuf], format: Format, io: &mut Io) -> i32 {
    let mut texts = vec![];
    for p in parts {
        match super::files::read_file(p) {
            Ok(t) => texts.push((p.display().to_string(), t)),
            Err(e) => {
                let _ = writeln!(io.err, "error: cannot read {}: {e}", p.display());
                return 2;
            }
        }
    }
    merge_texts(&texts, format, io)
}

/// [`merge`] of partials already read: (name, text) pairs.
pub fn merge_texts(parts: &[(String, String)], format: Format, io: &mut Io) -> i32 {
    let (run, games, counters) = match read_all(parts) {
        Ok(x) => x,
        Err(e) => {
            let _ = writeln!(io.err, "error: {e}");
            return 2;
        }
    };
    let file = PathBuf::from(&run.ruleset);
    let Some((game, sources)) = load_game(&file, io) else {
        return 1;
    };
    if fingerprint(&sources) != run.fingerprint {
        let _ = writeln!(
            io.err,
            "error: {} is not the ruleset the shards played: its files (or its board's, or its base's) have changed since\n  hint: run the shards again with the ruleset as it is now",
            run.ruleset
        );
        return 2;
    }
    let a = simulate::Args {
        file,
        games: run.games,
        players: run.players,
        seed: run.seed,
        options: run.options.clone(),
        format,
        invariants: run.invariants,
        threads: None,
        records: None,
        step_budget: run.step_budget,
        seats: run.bots.clone(),
        coverage: run.coverage,
        shard: None,
    };
    let kinds = match simulate::seat_kinds(&a.seats, a.players) {
        Ok(k) => k,
        Err(e) => {
            let _ = writeln!(io.err, "error: {e}");
            return 2;
        }
    };
    let counters = match sum_counters(&game.for_players(run.players), counters) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(io.err, "error: {e}");
            return 2;
        }
    };
    let results: Vec<GameResult> = games
        .into_iter()
        .map(|g| GameResult {
            seed: g.seed,
            decisions: g.decisions,
            scores: g.scores,
            winners: g.winners,
            teams: g.teams,
            ranks: g.ranks,
            error: g.error,
            span: g.span,
            labels: vec![],
            stats: g.stats,
        })
        .collect();
    if let Err(e) = fits(&results, &game, run.players) {
        let _ = writeln!(io.err, "error: {e}");
        return 2;
    }
    simulate::report(&a, &game, &sources, &kinds, &results, counters, io)
}

/// Reads the partials and checks that they are the N slices of one run, each
/// once and complete; returns the run, its games in seed order and each
/// shard's counters.
#[allow(clippy::type_complexity)]
fn read_all(parts: &[(String, String)]) -> Result<(Run, Vec<Played>, Vec<Coverage>), String> {
    let mut read: Vec<(&str, Partial)> = vec![];
    for (p, text) in parts {
        let part: Partial = serde_json::from_str(text).map_err(|e| {
            format!("{p} is not a partial result of `regel simulate --shard K/N`: {e}")
        })?;
        if part.regel_partial != VERSION {
            return Err(format!(
                "{p} is a partial result of format {}; this regel reads format {VERSION}\n  hint: run the shards again with this regel",
                part.regel_partial
            ));
        }
        read.push((p, part));
    }
    let Some((first, head)) = read.first() else {
        return Err("give the partial results to merge".into());
    };
    let n = head.shard[1];
    let run = head.run.clone();
    let mut seen: Vec<Option<&str>> = vec![None; n.min(1 << 20) as usize];
    for (p, part) in &read {
        if part.run != run {
            return Err(format!(
                "{} and {} are shards of different runs: {}\n  hint: merge only the shards of one `regel simulate` command line",
                first,
                p,
                differs(&run, &part.run)
            ));
        }
        let [k, m] = part.shard;
        if m != n || k == 0 || k > n || n as usize > seen.len() {
            return Err(format!(
                "{} is shard {k}/{m}, {} is shard {}/{n}: every shard must be of the same N",
                p, first, head.shard[0]
            ));
        }
        if let Some(q) = seen[k as usize - 1].replace(p) {
            return Err(format!("shard {k}/{n} is given twice ({} and {})", q, p));
        }
        let want = games(Some(Shard { k, n }), run.games);
        let seeds: Vec<u64> = part.games.iter().map(|g| g.seed).collect();
        let expected: Vec<u64> = want.map(|i| run.seed.saturating_add(i)).collect();
        if seeds != expected {
            return Err(format!(
                "{} is shard {k}/{n} but does not hold that shard's games (seeds {}) in order: it is damaged",
                p,
                match (expected.first(), expected.last()) {
                    (Some(a), Some(b)) => format!("{a}..{b}"),
                    _ => "none".into(),
                }
            ));
        }
    }
    let missing: Vec<String> = (0..n as usize)
        .filter(|&i| seen[i].is_none())
        .map(|i| format!("{}/{n}", i + 1))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "shard {} of the run {} missing: the merged summary would leave out games\n  hint: run `regel simulate … --shard K/{n}` for each missing K",
            missing.join(", "),
            if missing.len() == 1 { "is" } else { "are" }
        ));
    }
    read.sort_by_key(|(_, p)| p.shard[0]);
    let mut games = vec![];
    let mut counters = vec![];
    for (_, p) in read {
        games.extend(p.games);
        counters.extend(p.counters);
    }
    Ok((run, games, counters))
}

/// Names the first setting in which two runs differ.
fn differs(a: &Run, b: &Run) -> String {
    let (Ok(serde_json::Value::Object(x)), Ok(serde_json::Value::Object(y))) =
        (serde_json::to_value(a), serde_json::to_value(b))
    else {
        return "their settings differ".into();
    };
    for (k, v) in &x {
        if y.get(k) != Some(v) {
            let w = y.get(k).cloned().unwrap_or_default();
            return if k == "fingerprint" {
                "their ruleset's files differ".into()
            } else {
                format!("`{k}` is {v} in one and {w} in the other")
            };
        }
    }
    "their settings differ".into()
}

/// The shards' coverage counters added up, each checked against the layout
/// of the program they claim to count.
fn sum_counters(g: &crate::ir::Game, counters: Vec<Coverage>) -> Result<Option<Coverage>, String> {
    let mut total: Option<Coverage> = None;
    let empty = Coverage::new(g);
    for c in counters {
        if !c.same_layout(&empty) {
            return Err(
                "a partial's coverage counters do not fit the ruleset: it is damaged".into(),
            );
        }
        match &mut total {
            Some(t) => t.add(&c),
            None => total = Some(c),
        }
    }
    Ok(total)
}

/// Checks that each game's lists have the lengths the summary indexes by.
fn fits(results: &[GameResult], game: &crate::ir::Game, players: usize) -> Result<(), String> {
    let stats = &game.statistics;
    for r in results.iter().filter(|r| r.error.is_none()) {
        if r.scores.len() != players
            || r.stats.len() != stats.len()
            || r.winners.iter().any(|&w| w >= players)
            || stats
                .iter()
                .zip(&r.stats)
                .any(|(st, v)| st.per_player && v.len() != players)
        {
            return Err(format!(
                "the partial result of seed {} does not fit the ruleset ({players} players, {} statistics): it is damaged",
                r.seed,
                stats.len()
            ));
        }
    }
    Ok(())
}
