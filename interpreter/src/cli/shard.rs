//! Runs beyond one machine: `regel simulate --shard K/N` (or `compare`) plays
//! the K-th of N slices of a run's seeds and prints a partial result instead
//! of the summary; **entry: `merge`** (`regel merge PARTS…`) checks that the
//! partials are the N slices of one run, of the rulesets as they are now, and
//! prints exactly what that run would have printed unsharded (text or JSON).
//!
//! A partial keeps every game's outcome (not only sums): the merge folds the
//! games into the summary's totals with the same code, in the same order, as
//! the unsharded run, so means and their rounding cannot drift. A compare's
//! shard plays every pair of its slice; the merge folds them in the run's
//! batches and stops where the run would have stopped. A simulation streams
//! on both sides: a partial is JSON lines (a head naming the run, one line per
//! game as it is played, an end line with the coverage counters), written as
//! the games finish and read back one line at a time, so neither a shard nor
//! the merge holds more than a few games whatever the run's size.

use super::compare;
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
    /// For `compare`: what else identifies it (the ruleset above is the base).
    compare: Option<CompareRun>,
}

#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
struct CompareRun {
    variant: String,
    variant_fingerprint: String,
    batch: u64,
    precision: f64,
}

/// A partial's first line.
#[derive(Serialize, Deserialize)]
struct Head {
    regel_partial: u32,
    run: Run,
    /// `[K, N]`.
    shard: [u64; 2],
}

/// Every later line: a game (or for `compare` a pair of games, base and
/// variant), in seed order, then the end.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Line {
    Game(Played),
    Pair(Played, Played),
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
        compare: None,
    })
}

fn compare_run(a: &compare::Args, sb: &Sources, sv: &Sources) -> Result<Run, String> {
    // A comparison plays without invariants, coverage or deadline.
    let base = simulate::Args {
        file: a.base.clone(),
        games: a.games,
        players: a.players,
        seed: a.seed,
        options: a.options.clone(),
        format: a.format,
        invariants: false,
        threads: None,
        records: None,
        step_budget: a.step_budget,
        seats: a.seats.clone(),
        coverage: false,
        deadline: None,
        shard: None,
        draw: false,
    };
    Ok(Run {
        compare: Some(CompareRun {
            variant: a.variant.display().to_string(),
            variant_fingerprint: fingerprint(sv),
            batch: a.batch,
            precision: a.precision,
        }),
        ..run_of(&base, sb)?
    })
}

impl From<&GameResult> for Played {
    fn from(r: &GameResult) -> Played {
        Played {
            seed: r.seed,
            decisions: r.decisions,
            scores: r.scores.to_vec(),
            winners: r.winners.to_vec(),
            teams: r.teams.to_vec(),
            ranks: r.ranks.to_vec(),
            error: r.error.clone(),
            span: r.span,
            stats: r.stats.clone(),
        }
    }
}

impl From<Played> for GameResult {
    fn from(g: Played) -> GameResult {
        GameResult {
            seed: g.seed,
            decisions: g.decisions,
            scores: g.scores.into(),
            winners: g.winners.into(),
            teams: g.teams.into(),
            ranks: g.ranks.into(),
            error: g.error,
            span: g.span,
            labels: vec![],
            stats: g.stats,
            coverage: None,
        }
    }
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
        Writer::head(run_of(a, sources), shard, io)
    }

    /// [`Writer::start`] for `compare`.
    pub fn start_compare(
        a: &compare::Args,
        shard: Shard,
        sb: &Sources,
        sv: &Sources,
        io: &mut Io,
    ) -> Result<Writer, i32> {
        Writer::head(compare_run(a, sb, sv), shard, io)
    }

    fn head(run: Result<Run, String>, shard: Shard, io: &mut Io) -> Result<Writer, i32> {
        let head = run.map(|run| Head {
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
        line(&Line::Game(r.into()), io);
    }

    /// Writes one pair's line (`compare`).
    pub fn pair(&mut self, b: &GameResult, v: &GameResult, io: &mut Io) {
        self.games += 1;
        line(&Line::Pair(b.into(), v.into()), io);
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
/// first, then the games are folded in, shard by shard.
fn merge_from(parts: Vec<(String, Box<dyn BufRead + '_>)>, format: Format, io: &mut Io) -> i32 {
    let done = read_heads(parts).and_then(|mut parts| {
        let run = parts[0].head.run.clone();
        super::last_seed(run.seed, run.games)?;
        match &run.compare {
            None => merge_simulate(&mut parts, &run, format, io),
            Some(c) => merge_compare(&mut parts, &run, c, format, io),
        }
    });
    match done {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(io.err, "error: {e}");
            2
        }
    }
}

/// Checks that the ruleset named `name` is still what the shards played.
fn unchanged(name: &str, sources: &Sources, played: &str) -> Result<(), String> {
    if fingerprint(sources) == played {
        return Ok(());
    }
    Err(format!(
        "{name} is not the ruleset the shards played: its files (or its board's, or its base's) have changed since\n  hint: run the shards again with the ruleset as it is now"
    ))
}

/// The summary of a simulation's shards; Ok is the exit code.
fn merge_simulate(
    parts: &mut [Part],
    run: &Run,
    format: Format,
    io: &mut Io,
) -> Result<i32, String> {
    let file = PathBuf::from(&run.ruleset);
    let Some((game, sources)) = load_game(&file, io) else {
        return Ok(1);
    };
    unchanged(&run.ruleset, &sources, &run.fingerprint)?;
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
        // A sharded run lists its options (`simulate` refuses `--sampling draw` with `--shard`).
        draw: false,
    };
    let kinds = simulate::seat_kinds(&a.seats, a.players)?;
    let program = game.for_players(run.players);
    let empty = Coverage::new(&program);
    let mut acc = Totals::new(run.players, game.statistics.len());
    let mut counters: Option<Coverage> = None;
    for part in parts {
        let c = read_part(part, run, |line| {
            let Line::Game(g) = line else {
                return Err(());
            };
            let r = GameResult::from(g);
            fits(&r, &program, run.players, &sources).map_err(|_| ())?;
            acc.add(&r, &a, &sources);
            Ok(false)
        })?;
        if let Some(c) = c {
            if !c.same_layout(&empty) {
                return Err(format!(
                    "{}'s coverage counters do not fit the ruleset: it is damaged",
                    part.name
                ));
            }
            match &mut counters {
                Some(t) => t.add(&c),
                None => counters = Some(c),
            }
        }
    }
    Ok(simulate::report(
        &a, &game, &sources, &kinds, &acc, counters, io,
    ))
}

/// The report of a comparison's shards: the pairs folded in the run's
/// batches, up to where the run would have stopped; Ok is the exit code.
fn merge_compare(
    parts: &mut [Part],
    run: &Run,
    c: &CompareRun,
    format: Format,
    io: &mut Io,
) -> Result<i32, String> {
    let a = compare::Args {
        base: PathBuf::from(&run.ruleset),
        variant: PathBuf::from(&c.variant),
        players: run.players,
        seed: run.seed,
        games: run.games,
        batch: c.batch,
        precision: c.precision,
        seats: run.bots.clone(),
        options: run.options.clone(),
        threads: None,
        format,
        step_budget: run.step_budget,
        shard: None,
    };
    let s = match compare::sides(&a, io) {
        Ok(s) => s,
        Err(code) => return Ok(code),
    };
    unchanged(&run.ruleset, &s.sb, &run.fingerprint)?;
    unchanged(&c.variant, &s.sv, &c.variant_fingerprint)?;
    let (pb, pv) = (s.gb.for_players(run.players), s.gv.for_players(run.players));
    let mut tally = compare::Tally::new(&a, &s);
    let mut batch = vec![];
    let mut read = 0u64;
    let mut precise = false;
    for part in parts {
        read_part(part, run, |line| {
            let Line::Pair(b, v) = line else {
                return Err(());
            };
            let (b, v) = (GameResult::from(b), GameResult::from(v));
            fits(&b, &pb, run.players, &s.sb).map_err(|_| ())?;
            fits(&v, &pv, run.players, &s.sv).map_err(|_| ())?;
            batch.push((b, v));
            read += 1;
            if batch.len() as u64 == a.batch || read == a.games {
                precise = tally.batch(&batch, &a);
                batch.clear();
            }
            Ok(precise)
        })?;
        if precise {
            break;
        }
    }
    Ok(tally.print(&a, &s, io))
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

/// Reads one partial's games (or pairs) in order, handing each to `each`
/// until it says stop (true); checks that the partial holds exactly its
/// shard's seeds, in order, and ends, and returns its coverage counters.
/// `each` refuses a line (Err) that does not fit the run: a damaged partial.
fn read_part(
    part: &mut Part,
    run: &Run,
    mut each: impl FnMut(Line) -> Result<bool, ()>,
) -> Result<Option<Coverage>, String> {
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
        let line = serde_json::from_str::<Line>(&text).map_err(|_| damaged())?;
        let seeds = match line {
            Line::Game(ref g) => [g.seed, g.seed],
            Line::Pair(ref b, ref v) => [b.seed, v.seed],
            Line::End(e) => {
                if next != want.end || e.games != want.end - want.start {
                    return Err(damaged());
                }
                return Ok(e.counters);
            }
        };
        if next == want.end || seeds != [run.seed + next; 2] {
            return Err(damaged());
        }
        next += 1;
        if each(line).map_err(|_| damaged())? {
            return Ok(None);
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
