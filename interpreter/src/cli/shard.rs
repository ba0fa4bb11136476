//! Runs beyond one machine: `regel simulate --shard K/N` plays the K-th of N
//! slices of a run's seeds and prints a partial result instead of the
//! summary; **entry: `merge`** (`regel merge PARTS…`) checks that the partials
//! are the N slices of one run, of the ruleset as it is now, and prints
//! exactly what that run would have printed unsharded (text or JSON).
//!
//! A partial keeps every game's outcome (not only sums): the merge folds the
//! games into the summary's totals with the same code, in the same order, as
//! the unsharded run, so means and their rounding cannot drift. Both sides
//! stream: a partial is JSON lines (a head naming the run, one line per game
//! as it is played, an end line with the coverage counters), written as the
//! games finish and read back one line at a time, so neither a shard nor the
//! merge holds more than a few games whatever the run's size.

use super::simulate::{self, GameResult, Totals};
use super::{load_game, Format, Io};
use crate::diag::{Sources, Span};
use crate::eval::Coverage;
use crate::limits::MAX_FILE_BYTES;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Read};
use std::ops::Range;
use std::path::PathBuf;

/// The version of the partial format; a merge refuses any other.
const VERSION: u32 = 2;

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
    /// A deadline can end games the same seeds finish without one.
    deadline: Option<f64>,
}

/// A partial's first line.
#[derive(Serialize, Deserialize)]
struct Head {
    regel_partial: u32,
    run: Run,
    /// `[K, N]`.
    shard: [u64; 2],
}

/// Every later line: a game, in seed order, then the end.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Line {
    Game(Played),
    End(End),
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

/// The last line: how many games came before it (so that a partial cut short
/// is noticed) and the shard's coverage counters, with `--coverage`.
#[derive(Serialize, Deserialize)]
struct End {
    games: u64,
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
        deadline: a.deadline,
    })
}

/// Writes a shard's partial result on `io.out` as its games are played.
pub struct Writer {
    games: u64,
}

impl Writer {
    /// Writes the head line; Err is the exit code when the run cannot be named.
    pub fn start(
        a: &simulate::Args,
        shard: Shard,
        sources: &Sources,
        io: &mut Io,
    ) -> Result<Writer, i32> {
        let head = run_of(a, sources).map(|run| Head {
            regel_partial: VERSION,
            run,
            shard: [shard.k, shard.n],
        });
        match head {
            Ok(h) => {
                line(&h, io);
                Ok(Writer { games: 0 })
            }
            Err(e) => {
                let _ = writeln!(io.err, "error: {e}");
                Err(2)
            }
        }
    }

    /// Writes one game's line.
    pub fn game(&mut self, r: &GameResult, io: &mut Io) {
        self.games += 1;
        line(
            &Line::Game(Played {
                seed: r.seed,
                decisions: r.decisions,
                scores: r.scores.clone(),
                winners: r.winners.clone(),
                teams: r.teams.clone(),
                ranks: r.ranks.clone(),
                error: r.error.clone(),
                span: r.span,
                stats: r.stats.clone(),
            }),
            io,
        );
    }

    /// Writes the end line; 0 (the games' errors are in the partial, and
    /// `merge` reports them).
    pub fn finish(self, counters: Option<Coverage>, io: &mut Io) -> i32 {
        line(
            &Line::End(End {
                games: self.games,
                counters,
            }),
            io,
        );
        0
    }
}

/// One line of JSON. The partial's types hold only integers, strings and
/// lists, which always serialise.
fn line(v: &impl Serialize, io: &mut Io) {
    let _ = writeln!(io.out, "{}", serde_json::to_string(v).unwrap_or_default());
}

/// `regel merge PARTS…`: the summary of the run the partials are slices of.
pub fn merge(parts: &[PathBuf], format: Format, io: &mut Io) -> i32 {
    let mut open: Vec<(String, Box<dyn BufRead>)> = vec![];
    for p in parts {
        match super::files::open_file(p) {
            Ok(f) => open.push((
                p.display().to_string(),
                Box::new(std::io::BufReader::new(f)),
            )),
            Err(e) => {
                let _ = writeln!(io.err, "error: cannot read {}: {e}", p.display());
                return 2;
            }
        }
    }
    merge_from(open, format, io)
}

/// [`merge`] of partials already read: (name, text) pairs.
pub fn merge_texts(parts: &[(String, String)], format: Format, io: &mut Io) -> i32 {
    let open: Vec<(String, Box<dyn BufRead + '_>)> = parts
        .iter()
        .map(|(p, t)| (p.clone(), Box::new(t.as_bytes()) as Box<dyn BufRead>))
        .collect();
    merge_from(open, format, io)
}

/// A partial being read: its name, head and the rest of its lines.
struct Part<'r> {
    name: String,
    head: Head,
    rest: Box<dyn BufRead + 'r>,
}

/// [`merge`] of partials open for reading: the heads are read and checked
/// first, then each shard's games are folded in, shard by shard.
fn merge_from(parts: Vec<(String, Box<dyn BufRead + '_>)>, format: Format, io: &mut Io) -> i32 {
    let fail = |e: String, io: &mut Io| {
        let _ = writeln!(io.err, "error: {e}");
        2
    };
    let mut parts = match read_heads(parts) {
        Ok(p) => p,
        Err(e) => return fail(e, io),
    };
    let run = parts[0].head.run.clone();
    if let Err(e) = super::last_seed(run.seed, run.games) {
        return fail(e, io);
    }
    let file = PathBuf::from(&run.ruleset);
    let Some((game, sources)) = load_game(&file, io) else {
        return 1;
    };
    if fingerprint(&sources) != run.fingerprint {
        return fail(format!(
            "{} is not the ruleset the shards played: its files (or its board's, or its base's) have changed since\n  hint: run the shards again with the ruleset as it is now",
            run.ruleset
        ), io);
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
        deadline: run.deadline,
        shard: None,
    };
    let kinds = match simulate::seat_kinds(&a.seats, a.players) {
        Ok(k) => k,
        Err(e) => return fail(e, io),
    };
    let program = game.for_players(run.players);
    let mut acc = Totals::new(run.players, game.statistics.len());
    let mut counters: Option<Coverage> = None;
    for part in &mut parts {
        if let Err(e) = fold(part, &run, &a, &sources, &program, &mut acc, &mut counters) {
            return fail(e, io);
        }
    }
    simulate::report(&a, &game, &sources, &kinds, &acc, counters, io)
}

/// Reads one line of at most [`MAX_FILE_BYTES`] bytes; None at the end.
fn next_line(r: &mut dyn BufRead, name: &str) -> Result<Option<String>, String> {
    let mut s = String::new();
    match r.take(MAX_FILE_BYTES + 1).read_line(&mut s) {
        Ok(0) => Ok(None),
        Ok(_) if s.len() as u64 > MAX_FILE_BYTES => Err(format!(
            "{name} has a line of more than {MAX_FILE_BYTES} bytes: it is not a partial result"
        )),
        Ok(_) => Ok(Some(s)),
        Err(e) => Err(format!("cannot read {name}: {e}")),
    }
}

/// Reads each partial's head and checks that they are the N slices of one
/// run, each once; returns the partials in shard order.
fn read_heads<'r>(parts: Vec<(String, Box<dyn BufRead + 'r>)>) -> Result<Vec<Part<'r>>, String> {
    let mut read: Vec<Part> = vec![];
    for (name, mut rest) in parts {
        let text = next_line(&mut *rest, &name)?.unwrap_or_default();
        let not = |e: String| {
            format!("{name} is not a partial result of `regel simulate --shard K/N`: {e}")
        };
        // The version is read alone first, so that a partial of another
        // format is named as such rather than as damaged.
        #[derive(Deserialize)]
        struct Version {
            regel_partial: u32,
        }
        let v: Version = serde_json::from_str(&text).map_err(|e| not(e.to_string()))?;
        if v.regel_partial != VERSION {
            return Err(format!(
                "{name} is a partial result of format {}; this regel reads format {VERSION}\n  hint: run the shards again with this regel",
                v.regel_partial
            ));
        }
        let head: Head = serde_json::from_str(&text).map_err(|e| not(e.to_string()))?;
        read.push(Part { name, head, rest });
    }
    let Some(first) = read.first() else {
        return Err("give the partial results to merge".into());
    };
    let (name, run, [k0, n]) = (&first.name, &first.head.run, first.head.shard);
    let mut seen: Vec<Option<&str>> = vec![None; n.min(1 << 20) as usize];
    for p in &read {
        if p.head.run != *run {
            return Err(format!(
                "{} and {} are shards of different runs: {}\n  hint: merge only the shards of one `regel simulate` command line",
                name,
                p.name,
                differs(run, &p.head.run)
            ));
        }
        let [k, m] = p.head.shard;
        if m != n || k == 0 || k > n || n as usize > seen.len() {
            return Err(format!(
                "{} is shard {k}/{m}, {} is shard {k0}/{n}: every shard must be of the same N",
                p.name, name
            ));
        }
        if let Some(q) = seen[k as usize - 1].replace(&p.name) {
            return Err(format!(
                "shard {k}/{n} is given twice ({} and {})",
                q, p.name
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
    read.sort_by_key(|p| p.head.shard[0]);
    Ok(read)
}

/// Folds one partial's games into `acc` and its counters into `counters`,
/// checking that it holds exactly its shard's games, in order, and ends.
fn fold(
    part: &mut Part,
    run: &Run,
    a: &simulate::Args,
    sources: &Sources,
    program: &crate::ir::Game,
    acc: &mut Totals,
    counters: &mut Option<Coverage>,
) -> Result<(), String> {
    let [k, n] = part.head.shard;
    let want = games(Some(Shard { k, n }), run.games);
    let damaged = || {
        format!(
            "{} is shard {k}/{n} but does not hold that shard's games (seeds {}) in order: it is damaged",
            part.name,
            if want.is_empty() {
                "none".into()
            } else {
                format!("{}..{}", run.seed + want.start, run.seed + want.end - 1)
            }
        )
    };
    let mut next = want.start;
    loop {
        let Some(text) = next_line(&mut *part.rest, &part.name)? else {
            return Err(damaged());
        };
        match serde_json::from_str::<Line>(&text).map_err(|_| damaged())? {
            Line::Game(g) => {
                if next == want.end || g.seed != run.seed + next {
                    return Err(damaged());
                }
                next += 1;
                let r = GameResult {
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
                };
                fits(&r, program, run.players, sources)?;
                acc.add(&r, a, sources);
            }
            Line::End(e) => {
                if next != want.end || e.games != want.end - want.start {
                    return Err(damaged());
                }
                if let Some(c) = e.counters {
                    if !c.same_layout(&Coverage::new(program)) {
                        return Err(format!(
                            "{}'s coverage counters do not fit the ruleset: it is damaged",
                            part.name
                        ));
                    }
                    match counters {
                        Some(t) => t.add(&c),
                        None => *counters = Some(c),
                    }
                }
                return Ok(());
            }
        }
    }
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

/// Checks that a game's lists have the lengths the summary indexes by, and
/// that its spans lie in the ruleset's files.
fn fits(
    r: &GameResult,
    game: &crate::ir::Game,
    players: usize,
    sources: &Sources,
) -> Result<(), String> {
    let stats = &game.statistics;
    let bad = r
        .span
        .is_some_and(|s| s.file as usize >= sources.files.len())
        || r.error.is_none()
            && (r.scores.len() != players
                || r.stats.len() != stats.len()
                || r.winners.iter().any(|&w| w >= players)
                || stats
                    .iter()
                    .zip(&r.stats)
                    .any(|(st, v)| st.per_player && v.len() != players));
    if bad {
        return Err(format!(
            "the partial result of seed {} does not fit the ruleset ({players} players, {} statistics): it is damaged",
            r.seed,
            stats.len()
        ));
    }
    Ok(())
}
