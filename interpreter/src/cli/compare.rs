//! `regel compare BASE VARIANT --players N`: paired seeded games — game `i`
//! of each side has the same seed and the same bots with the same seeds —
//! and, for each measure, the difference the variant makes with a 95 %
//! confidence interval and a plain sentence. It plays in batches until every
//! interval is narrow enough or the game budget is spent. The statistics
//! themselves (which interval for which measure, p-values, Holm's correction
//! over the measures) live in the core's `stats` module, free of IO.
//!
//! Pairing removes the luck both sides share (the same shuffles where the
//! rules draw alike, the same bots), so a difference needs fewer games than
//! two independent samples would.

use super::simulate::{play_bots, seat_kinds, GameResult};
use super::{load_game, parse_options, Format, Io};
use crate::bot::SeatKind;
use crate::diag::Sources;
use crate::eval::Setup;
use crate::ir::Game;
use crate::stats::{self, Estimate, Kind, Paired};
use rayon::prelude::*;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;

pub struct Args {
    pub base: PathBuf,
    pub variant: PathBuf,
    pub players: usize,
    pub seed: u64,
    pub games: u64,
    pub batch: u64,
    pub precision: f64,
    pub seats: Vec<String>,
    pub options: Vec<String>,
    pub threads: Option<usize>,
    pub format: Format,
    pub step_budget: u64,
    /// Play only this slice of the pairs, all of them, and print a partial
    /// result for `regel merge` instead of the report (see `shard.rs`).
    pub shard: Option<super::shard::Shard>,
}

/// How a measure is counted: a share of games (shown in percentage points)
/// or a number per game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Rate,
    Decisions,
    Points,
    /// A statistic the rules declare, in whatever unit it counts.
    Number,
}

/// One measure: its values per pair of games, and the sentence parts.
struct Measure {
    name: String,
    unit: Unit,
    /// Whether each game gives 0 or 1 (a proportion) or any number.
    kind: Kind,
    /// "games last {} longer" / "shorter": the subject and the two directions.
    say: (String, &'static str, &'static str),
    base: Vec<f64>,
    variant: Vec<f64>,
}

#[derive(Serialize)]
struct MeasureOut {
    measure: String,
    unit: Unit,
    /// Which interval was used (the unit and `unseen` say the rest).
    #[serde(skip)]
    kind: Kind,
    base: Estimate,
    variant: Estimate,
    difference: Estimate,
    /// The pairs compared, and those where the variant's value is higher or lower.
    pairs: usize,
    higher: usize,
    lower: usize,
    /// The p-value of "no difference", and after Holm's correction over all measures.
    p: f64,
    p_holm: f64,
    /// Holm's p-value is below 5 %.
    clear: bool,
    /// When no pair differs: the smallest difference (a rate, or a share of
    /// pairs for other measures) that would have been seen 95 % of the time.
    #[serde(skip_serializing_if = "Option::is_none")]
    unseen: Option<f64>,
    sentence: String,
}

#[derive(Serialize)]
struct Out {
    base: String,
    variant: String,
    players: usize,
    bots: Vec<String>,
    seeds: (u64, u64),
    pairs: usize,
    errors: usize,
    first_errors: Vec<String>,
    /// `precise` (every interval narrow enough) or `budget` (the game budget spent).
    stopped: &'static str,
    measures: Vec<MeasureOut>,
    /// Statistics only one side declares (or declares per player on one
    /// side only): not compared.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unmatched_statistics: Vec<String>,
}

/// The statistics both sides declare under one name and of one kind (per
/// player or not), as (base index, variant index, per player); and a note
/// for each of the others.
fn paired_stats(
    gb: &crate::ir::Game,
    gv: &crate::ir::Game,
) -> (Vec<(usize, usize, bool)>, Vec<String>) {
    let mut pairs = vec![];
    let mut notes = vec![];
    for (i, s) in gb.statistics.iter().enumerate() {
        match gv.statistics.iter().position(|t| t.name == s.name) {
            Some(j) if gv.statistics[j].per_player == s.per_player => {
                pairs.push((i, j, s.per_player))
            }
            Some(_) => notes.push(format!("`{}` is per player on one side only", s.name)),
            None => notes.push(format!("`{}` is declared by the base only", s.name)),
        }
    }
    for t in &gv.statistics {
        if !gb.statistics.iter().any(|s| s.name == t.name) {
            notes.push(format!("`{}` is declared by the variant only", t.name));
        }
    }
    (pairs, notes)
}

/// The values of the paired statistics in one game, in the order of
/// [`stat_measures`]: a statistic per player gives its mean over the seats,
/// then each seat's value, with the variant's index when `variant` holds.
fn stat_values(r: &GameResult, pairs: &[(usize, usize, bool)], variant: bool) -> Vec<f64> {
    let mut v = vec![];
    for &(i, j, per_player) in pairs {
        let x = &r.stats[if variant { j } else { i }];
        if per_player {
            v.push(x.iter().map(|&v| v as i128).sum::<i128>() as f64 / x.len().max(1) as f64);
            v.extend(x.iter().map(|&y| y as f64));
        } else {
            v.push(x[0] as f64);
        }
    }
    v
}

fn stat_measures(
    g: &crate::ir::Game,
    pairs: &[(usize, usize, bool)],
    seats: &[String],
) -> Vec<Measure> {
    let m = |name: String, subject: String| Measure {
        name,
        unit: Unit::Number,
        kind: Kind::Mean,
        say: (subject, "higher", "lower"),
        base: vec![],
        variant: vec![],
    };
    let mut v = vec![];
    for &(i, _, per_player) in pairs {
        let name = &g.statistics[i].name;
        if per_player {
            v.push(m(
                format!("{name} (seat mean)"),
                format!("`{name}`, averaged over the seats, is"),
            ));
            for s in seats {
                v.push(m(format!("{name} ({s})"), format!("`{name}` of {s} is")));
            }
        } else {
            v.push(m(name.clone(), format!("`{name}` is")));
        }
    }
    v
}

/// The per-game values of every measure, in the order of [`measures`].
fn values(r: &GameResult, n: usize) -> Vec<f64> {
    let win: Vec<f64> = (0..n)
        .map(|s| r.winners.contains(&s) as u8 as f64)
        .collect();
    let winning_team = r.winners.first().map(|&w| r.teams[w]);
    // The runner-up: the best-ranked seat of a team that did not win.
    let runner = (0..n)
        .filter(|&s| !r.winners.contains(&s) && Some(r.teams[s]) != winning_team)
        .min_by_key(|&s| r.ranks[s]);
    let margin = match (r.winners.first(), runner) {
        (Some(&w), Some(ru)) => (r.scores[w] - r.scores[ru]).abs() as f64,
        _ => 0.0,
    };
    let spread = (r.scores.iter().max().unwrap_or(&0) - r.scores.iter().min().unwrap_or(&0)) as f64;
    let tie = r.winners.iter().any(|&w| Some(r.teams[w]) != winning_team) as u8 as f64;
    let others = if n > 1 {
        win[1..].iter().sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    let mut v = vec![r.decisions as f64, margin, spread, tie, win[0] - others];
    v.extend(win);
    v
}

fn measures(seats: &[String]) -> Vec<Measure> {
    let m = |name: &str, unit, subject: &str, up, down| Measure {
        name: name.into(),
        unit,
        // A rate is a yes or no per game, but for the first player's
        // advantage, a difference of two rates in every game.
        kind: if unit == Unit::Rate && name != "first-player advantage" {
            Kind::Proportion
        } else {
            Kind::Mean
        },
        say: (subject.into(), up, down),
        base: vec![],
        variant: vec![],
    };
    let mut v = vec![
        m(
            "game length",
            Unit::Decisions,
            "games last",
            "longer",
            "shorter",
        ),
        m(
            "winner's margin",
            Unit::Points,
            "the winner's margin is",
            "wider",
            "narrower",
        ),
        m(
            "score spread",
            Unit::Points,
            "the score spread (highest − lowest) is",
            "wider",
            "narrower",
        ),
        m(
            "ties",
            Unit::Rate,
            "games end in a tie",
            "more often",
            "less often",
        ),
        m(
            "first-player advantage",
            Unit::Rate,
            "the first player wins, against the average other seat,",
            "more often",
            "less often",
        ),
    ];
    for s in seats {
        v.push(m(
            &format!("{s} wins"),
            Unit::Rate,
            &format!("{s} wins"),
            "more often",
            "less often",
        ));
    }
    v
}

/// How a measure's numbers are written: scale, unit word, decimals.
fn style(u: Unit) -> (f64, &'static str, usize) {
    match u {
        Unit::Rate => (100.0, " points", 1),
        Unit::Decisions => (1.0, " decisions", 1),
        Unit::Points => (1.0, " points", 1),
        // A declared statistic may count small things (a fraction of a stall
        // per game): it gets two decimals.
        Unit::Number => (1.0, "", 2),
    }
}

/// The decimals to show a difference with: more than usual when its interval
/// excludes zero but its nearer end would round to zero, so that no clear
/// difference is ever written as 0.0.
fn decimals(d: Estimate, k: f64, dp: usize) -> usize {
    let near = if d.low > 0.0 {
        d.low * k
    } else if d.high < 0.0 {
        -d.high * k
    } else {
        return dp;
    };
    let mut dp = dp;
    while dp < 6 && near < 0.5 * 10f64.powi(-(dp as i32)) {
        dp += 1;
    }
    dp
}

/// A number with `dp` decimals (and a sign, if `sign`), never "-0.0": a
/// value that rounds to zero is written as zero.
fn num(x: f64, dp: usize, sign: bool) -> String {
    let t = if sign {
        format!("{x:+.dp$}")
    } else {
        format!("{x:.dp$}")
    };
    if t.starts_with('-') && t[1..].chars().all(|c| c == '0' || c == '.') {
        if sign {
            format!("+{}", &t[1..])
        } else {
            t[1..].to_string()
        }
    } else {
        t
    }
}

/// "the first player wins 6.2 points more often (95 %: +2.3 to +10.1; base
/// 31.0 %, variant 37.2 %; 300 pairs)", or what was and was not seen when no
/// pair differs.
fn sentence(m: &Measure, b: Estimate, v: Estimate, d: &Paired, clear: bool) -> String {
    let (k, unit, dp) = style(m.unit);
    let n = d.pairs;
    if let Some(x) = d.unseen {
        return match m.kind {
            Kind::Proportion => format!(
                "{}: no difference seen in {n} pairs; a difference of more than {:.1} points would have been seen",
                m.name,
                x * 100.0
            ),
            Kind::Mean => format!(
                "{}: no difference seen in {n} pairs; a change in more than {:.1} % of games would have been seen",
                m.name,
                x * 100.0
            ),
        };
    }
    let show = |x: f64| {
        if m.unit == Unit::Rate {
            format!("{} %", num(x * 100.0, 1, false))
        } else {
            num(x, dp, false)
        }
    };
    let e = d.difference;
    let dp = decimals(e, k, dp);
    let dir = if e.mean >= 0.0 { m.say.1 } else { m.say.2 };
    let few = if d.differing() == 1 {
        ", only 1 of them differs".to_string()
    } else if d.differing() < 20 {
        format!(", only {} of them differ", d.differing())
    } else {
        String::new()
    };
    let core = format!(
        "{} {}{unit} {dir} (95 %: {} to {}; base {}, variant {}; {n} pairs{few})",
        m.say.0,
        num((e.mean * k).abs(), dp, false),
        num(e.low * k, dp, true),
        num(e.high * k, dp, true),
        show(b.mean),
        show(v.mean)
    );
    if clear {
        core
    } else {
        format!("no clear difference: {core}")
    }
}

/// Whether a measure is known well enough to stop: a rate's interval within
/// `precision` percentage points; a count's within `precision` per cent of
/// the base's mean. Zero spread is no precision: a count that no pair (or
/// fewer than ten) changes is settled only when the share of games it could
/// change unseen is below `precision` per cent, and a rate's interval is
/// never narrower than what its pairs can show.
fn narrow(m: &Measure, d: &Paired, b: Estimate, precision: f64) -> bool {
    if m.kind == Kind::Proportion || m.unit == Unit::Rate && d.differing() >= 10 {
        return d.difference.half() * 100.0 <= precision;
    }
    match d.unseen {
        Some(x) => x * 100.0 <= precision,
        None if d.differing() < 10 => stats::wilson(d.differing(), d.pairs).1 * 100.0 <= precision,
        None => d.difference.half() <= precision / 100.0 * b.mean.abs().max(1.0),
    }
}

/// Both sides of a comparison, loaded, with the arguments checked.
pub(super) struct Sides {
    pub gb: Arc<Game>,
    pub gv: Arc<Game>,
    pub sb: Sources,
    pub sv: Sources,
    ob: Vec<(String, i64)>,
    ov: Vec<(String, i64)>,
    kinds: Vec<SeatKind>,
}

/// Loads both rulesets and checks the arguments against them; Err is the
/// exit code, its reason written on `io.err`.
pub(super) fn sides(a: &Args, io: &mut Io) -> Result<Sides, i32> {
    let usage = |io: &mut Io, e: String| {
        let _ = writeln!(io.err, "error: {e}");
        2
    };
    if let Err(e) = super::last_seed(a.seed, a.games) {
        return Err(usage(io, e));
    }
    let (gb, sb) = load_game(&a.base, io).ok_or(1)?;
    let (gv, sv) = load_game(&a.variant, io).ok_or(1)?;
    for g in [&gb, &gv] {
        if a.players < g.min_players || a.players > g.max_players {
            return Err(usage(
                io,
                format!(
                    "{} takes {}..{} players, not {}",
                    g.name, g.min_players, g.max_players, a.players
                ),
            ));
        }
    }
    let (ob, ov) = match (
        parse_options(&gb, &a.options),
        parse_options(&gv, &a.options),
    ) {
        (Ok(b), Ok(v)) => (b, v),
        (Err(e), _) | (_, Err(e)) => return Err(usage(io, e)),
    };
    let kinds = seat_kinds(&a.seats, a.players).map_err(|e| usage(io, e))?;
    if a.games == 0 || a.batch == 0 || a.precision.is_nan() || a.precision <= 0.0 {
        return Err(usage(
            io,
            "`--games`, `--batch` and `--precision` must be positive".into(),
        ));
    }
    Ok(Sides {
        gb,
        gv,
        sb,
        sv,
        ob,
        ov,
        kinds,
    })
}

/// The comparison so far: every measure's values over the pairs played, in
/// seed order, folded a batch at a time (by one run, or by `regel merge`
/// reading the shards' pairs back in the same batches).
pub(super) struct Tally {
    ms: Vec<Measure>,
    stats: Vec<(usize, usize, bool)>,
    unmatched: Vec<String>,
    played: u64,
    errors: Vec<String>,
    stopped: &'static str,
}

impl Tally {
    pub(super) fn new(a: &Args, s: &Sides) -> Tally {
        let seats: Vec<String> = s.gb.seats[..a.players].to_vec();
        let mut ms = measures(&seats);
        let (stats, unmatched) = paired_stats(&s.gb, &s.gv);
        ms.extend(stat_measures(&s.gb, &stats, &seats));
        Tally {
            ms,
            stats,
            unmatched,
            played: 0,
            errors: vec![],
            stopped: "budget",
        }
    }

    /// Adds a batch of pairs; true when every interval is now narrow enough
    /// (the comparison stops there).
    pub(super) fn batch(&mut self, pairs: &[(GameResult, GameResult)], a: &Args) -> bool {
        self.played += pairs.len() as u64;
        for (b, v) in pairs {
            if let Some(e) = b
                .error
                .as_ref()
                .map(|e| format!("base, seed {}: {e}", b.seed))
                .or(v
                    .error
                    .as_ref()
                    .map(|e| format!("variant, seed {}: {e}", v.seed)))
            {
                self.errors.push(e);
                continue;
            }
            let xs = values(b, a.players)
                .into_iter()
                .chain(stat_values(b, &self.stats, false));
            let ys = values(v, a.players)
                .into_iter()
                .chain(stat_values(v, &self.stats, true));
            for (m, (x, y)) in self.ms.iter_mut().zip(xs.zip(ys)) {
                m.base.push(x);
                m.variant.push(y);
            }
        }
        let precise = self.ms.iter().all(|m| {
            narrow(
                m,
                &diff_of(m),
                stats::one_side(m.kind, &m.base),
                a.precision,
            )
        });
        if precise {
            self.stopped = "precise";
        }
        precise
    }

    /// The widest interval of a rate, in points, for the progress bar.
    fn widest(&self) -> f64 {
        self.ms
            .iter()
            .filter(|m| m.unit == Unit::Rate)
            .map(|m| diff_of(m).difference.half() * 100.0)
            .fold(0.0, f64::max)
    }

    /// Prints the report in `a.format`; the exit code is 1 if a game failed.
    pub(super) fn print(self, a: &Args, s: &Sides, io: &mut Io) -> i32 {
        let mut out = report(
            a,
            &s.gb,
            &s.gv,
            &s.kinds,
            &self.ms,
            self.played,
            self.errors,
            self.stopped,
        );
        out.unmatched_statistics = self.unmatched;
        match a.format {
            Format::Json => {
                let _ = writeln!(
                    io.out,
                    "{}",
                    serde_json::to_string_pretty(&out).unwrap_or_default()
                );
            }
            Format::Text => print_text(&out, io),
        }
        if out.errors > 0 {
            1
        } else {
            0
        }
    }
}

pub fn run(a: &Args, io: &mut Io) -> i32 {
    let s = match sides(a, io) {
        Ok(s) => s,
        Err(code) => return code,
    };
    // A shard plays all of its slice of the seeds; a whole run plays from
    // the first until it is precise enough or the budget is spent.
    let slice = super::shard::games(a.shard, a.games);
    let (pool, bar) = match super::workers(
        a.threads,
        slice.end - slice.start,
        "{bar:40} {pos}/{len} pairs of games ({eta} left at most) {msg}",
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
    let mut partial = match a.shard {
        Some(k) => match super::shard::Writer::start_compare(a, k, &s.sb, &s.sv, io) {
            Ok(w) => Some(w),
            Err(code) => return code,
        },
        None => None,
    };
    // A shard writes its pairs as they come, a few per thread at a time.
    let step = match partial {
        Some(_) => (pool.current_num_threads() as u64 * 16).max(1),
        None => a.batch,
    };
    let mut tally = Tally::new(a, &s);
    let mut played = slice.start;
    while played < slice.end {
        let k = step.min(slice.end - played);
        let pairs: Vec<(GameResult, GameResult)> = pool.install(|| {
            (played..played + k)
                .into_par_iter()
                .map(|i| {
                    let seed = a.seed + i;
                    let side = |g, o: &Vec<(String, i64)>| {
                        let setup = Setup {
                            players: a.players,
                            seed,
                            options: o.clone(),
                            budget: a.step_budget,
                            log: false,
                        };
                        play_bots(g, &setup, &s.kinds, false, false)
                    };
                    let r = (side(&s.gb, &s.ob), side(&s.gv, &s.ov));
                    if shown {
                        bar.inc(1);
                    }
                    r
                })
                .collect()
        });
        played += k;
        match &mut partial {
            Some(w) => pairs.iter().for_each(|(b, v)| w.pair(b, v, io)),
            None => {
                let precise = tally.batch(&pairs, a);
                bar.set_message(format!("widest interval ±{:.1} points", tally.widest()));
                if precise {
                    break;
                }
            }
        }
    }
    bar.finish_and_clear();
    match partial {
        Some(w) => w.finish(None, io),
        None => tally.print(a, &s, io),
    }
}

fn diff_of(m: &Measure) -> Paired {
    stats::paired(m.kind, &m.base, &m.variant)
}

#[allow(clippy::too_many_arguments)]
fn report(
    a: &Args,
    gb: &crate::ir::Game,
    gv: &crate::ir::Game,
    kinds: &[SeatKind],
    ms: &[Measure],
    played: u64,
    errors: Vec<String>,
    stopped: &'static str,
) -> Out {
    let name = super::game_title;
    let diffs: Vec<Paired> = ms.iter().map(diff_of).collect();
    let holm = stats::holm(&diffs.iter().map(|d| d.p).collect::<Vec<_>>());
    Out {
        base: format!("{} [{}]", a.base.display(), name(gb)),
        variant: format!("{} [{}]", a.variant.display(), name(gv)),
        players: a.players,
        bots: kinds.iter().map(|k| k.name()).collect(),
        seeds: (a.seed, a.seed + played.saturating_sub(1)),
        pairs: ms.first().map(|m| m.base.len()).unwrap_or(0),
        errors: errors.len(),
        first_errors: errors.into_iter().take(5).collect(),
        stopped,
        unmatched_statistics: vec![],
        measures: ms
            .iter()
            .zip(&diffs)
            .zip(holm)
            .map(|((m, d), p_holm)| {
                let (b, v) = (
                    stats::one_side(m.kind, &m.base),
                    stats::one_side(m.kind, &m.variant),
                );
                let clear = p_holm < stats::ALPHA;
                MeasureOut {
                    measure: m.name.clone(),
                    unit: m.unit,
                    kind: m.kind,
                    base: b,
                    variant: v,
                    difference: d.difference,
                    pairs: d.pairs,
                    higher: d.higher,
                    lower: d.lower,
                    p: d.p,
                    p_holm,
                    clear,
                    unseen: d.unseen,
                    sentence: sentence(m, b, v, d, clear),
                }
            })
            .collect(),
    }
}

fn print_text(o: &Out, io: &mut Io) {
    let _ = writeln!(io.out, "base:    {}", o.base);
    let _ = writeln!(io.out, "variant: {}", o.variant);
    let _ = writeln!(
        io.out,
        "{} players, bots {}; {} pairs of games (seeds {}..{}), {} with errors",
        o.players,
        o.bots.join(", "),
        o.pairs,
        o.seeds.0,
        o.seeds.1,
        o.errors
    );
    for e in &o.first_errors {
        let _ = writeln!(io.out, "  {e}");
    }
    let _ = writeln!(
        io.out,
        "stopped: {}",
        if o.stopped == "precise" {
            "every interval is narrow enough"
        } else {
            "the game budget is spent (raise --games for narrower intervals)"
        }
    );
    let _ = writeln!(
        io.out,
        "\n{:<26} {:>20} {:>20} {:>28} {:>12}",
        "measure (95 % intervals)", "base", "variant", "difference", "pairs differ"
    );
    for m in &o.measures {
        let (k, _, dp) = style(m.unit);
        let pc = if m.unit == Unit::Rate { " %" } else { "" };
        let side = |e: Estimate| {
            format!(
                "{}{pc} [{}, {}]",
                num(e.mean * k, dp, false),
                num(e.low * k, dp, false),
                num(e.high * k, dp, false)
            )
        };
        let diff = match m.unseen {
            Some(x) if m.kind == Kind::Proportion => {
                format!("none seen (< {:.1} pt)", x * 100.0)
            }
            Some(x) => format!("none seen (< {:.1} % of games)", x * 100.0),
            None => {
                let e = m.difference;
                let dp = decimals(e, k, dp);
                let pt = if m.unit == Unit::Rate { " pt" } else { "" };
                format!(
                    "{}{pt} [{}, {}]",
                    num(e.mean * k, dp, true),
                    num(e.low * k, dp, true),
                    num(e.high * k, dp, true)
                )
            }
        };
        let mark = if m.clear { " *" } else { "" };
        let _ = writeln!(
            io.out,
            "{:<26} {:>20} {:>20} {:>28} {:>12}{mark}",
            m.measure,
            side(m.base),
            side(m.variant),
            diff,
            format!("{}/{}", m.higher + m.lower, m.pairs)
        );
    }
    let _ = writeln!(
        io.out,
        "(* clear at the 5 % level after Holm's correction for the {} measures compared; each interval alone is 95 %)",
        o.measures.len()
    );
    for s in &o.unmatched_statistics {
        let _ = writeln!(io.out, "statistic {s}: not compared");
    }
    let _ = writeln!(io.out);
    let _ = writeln!(io.out, "With the variant:");
    for m in &o.measures {
        let _ = writeln!(io.out, "- {}", m.sentence);
    }
}
