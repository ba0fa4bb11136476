//! Seeded games between bots, one at a time: what `regel simulate` and
//! `regel compare` play in parallel and the playground plays in batches, in
//! one place, so that the same seed gives the same game everywhere.

use super::{SeatKind, Table};
use crate::eval::{Coverage, Match, Setup, Spare};
use crate::ir::Game;
use serde::Serialize;
use std::cell::RefCell;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A host's clock on each decision's work. The core reads no clock: a host
/// that limits a decision's wall-clock time gives the match a flag to watch
/// ([`Match::set_interrupt`]) and is told when each decision's work starts
/// and ends, so that a bot's search never counts.
pub trait DecisionClock {
    /// The flag the host sets when the running decision is out of time.
    fn flag(&self) -> Arc<AtomicBool>;
    /// A decision's work starts.
    fn arm(&self);
    /// That decision's work has ended.
    fn disarm(&self);
}

/// Runs `f` (one decision's work) with `clock` armed, if there is one.
pub fn timed<T>(clock: Option<&dyn DecisionClock>, f: impl FnOnce() -> T) -> T {
    if let Some(c) = clock {
        c.arm();
    }
    let r = f();
    if let Some(c) = clock {
        c.disarm();
    }
    r
}

/// One value per seat, kept without a heap allocation for up to four
/// seats: a random playout of connect four spent about 1 % of its
/// instructions allocating and freeing the four lists of its result.
pub type Seats<T> = smallvec::SmallVec<[T; 4]>;

/// The outcome of one simulated game.
#[derive(Clone, Debug, Serialize)]
pub struct GameResult {
    pub seed: u64,
    pub decisions: u32,
    pub scores: Seats<i64>,
    pub winners: Seats<usize>,
    /// Each seat's team (its own number when the rules declare none).
    #[serde(skip)]
    pub teams: Seats<i64>,
    /// Each seat's rank (1 = best).
    #[serde(skip)]
    pub ranks: Seats<usize>,
    pub error: Option<String>,
    /// Where the rules were when the run-time error happened.
    #[serde(skip)]
    pub span: Option<crate::diag::Span>,
    #[serde(skip)]
    pub labels: Vec<String>,
    /// The declared statistics at the end: per statistic, one value per seat
    /// (a statistic per player) or one for the game.
    #[serde(skip)]
    pub stats: Vec<Vec<i64>>,
    /// The match's coverage counters, when they were asked for.
    #[serde(skip)]
    pub coverage: Option<Box<Coverage>>,
}

/// The seed of the bots' own generator for game seed `seed`: separate from the
/// match's generator, so the rules' randomness does not depend on the bots.
pub fn bot_seed(seed: u64) -> u64 {
    seed ^ 0x9e37_79b9_7f4a_7c15
}

/// Plays one game with uniform random bots.
pub fn play_random(
    game: &Arc<Game>,
    setup: &Setup,
    invariants: bool,
    keep_labels: bool,
) -> GameResult {
    play_bots(game, setup, &[], invariants, keep_labels)
}

/// Plays one game with the bots `kinds` (seats beyond the list are random).
/// Random seats draw from one generator seeded with [`bot_seed`], so a game
/// of random bots is the same whatever else sits at the table.
pub fn play_bots(
    game: &Arc<Game>,
    setup: &Setup,
    kinds: &[SeatKind],
    invariants: bool,
    keep_labels: bool,
) -> GameResult {
    let how = Play {
        invariants,
        keep_labels,
        ..Play::default()
    };
    play_counted(game, setup, kinds, how, None)
}

/// How [`play_counted`] plays a game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Play {
    /// Check the rules' invariants at every decision at rest.
    pub invariants: bool,
    /// Keep the label of every option taken ([`GameResult::labels`]).
    pub keep_labels: bool,
    /// Count coverage ([`GameResult::coverage`]).
    pub coverage: bool,
    /// Draw each `act`'s option instead of listing them
    /// ([`Match::sampled_playout_at_most`]): for random seats only, and a
    /// different game than listing gives for the seed.
    pub draw: bool,
}

/// [`play_bots`] as `how` says, each decision's work timed by `clock` when
/// given. A game that stops with an error keeps its decisions so far (the
/// one that failed last), so its record replays to the same error.
pub fn play_counted(
    game: &Arc<Game>,
    setup: &Setup,
    kinds: &[SeatKind],
    how: Play,
    clock: Option<&dyn DecisionClock>,
) -> GameResult {
    let Play {
        invariants,
        keep_labels,
        coverage,
        draw,
    } = how;
    let mut bots = Table::new(kinds, bot_seed(setup.seed));
    let mut labels = vec![];
    let mut res = GameResult {
        seed: setup.seed,
        decisions: 0,
        scores: Seats::new(),
        winners: Seats::new(),
        teams: Seats::new(),
        ranks: Seats::new(),
        error: None,
        span: None,
        labels: vec![],
        stats: vec![],
        coverage: None,
    };
    let flag = clock.map(|c| c.flag());
    let started = timed(clock, || {
        SPARE.with_borrow_mut(|s| Match::new_reusing(game.clone(), setup, coverage, flag, s))
    });
    let mut m = match started {
        Ok(m) => m,
        Err(e) => {
            res.span = e.span;
            res.error = Some(e.message);
            return res;
        }
    };
    m.state.sample = draw;
    loop {
        // Invariants hold where the rules are at rest (`Match::at_rest`):
        // in the middle of an action they may be broken for a moment. The
        // report's count of decisions is `res.decisions`, said once.
        if invariants && m.at_rest() {
            match m.broken_invariants() {
                Ok(b) if !b.is_empty() => {
                    res.error = Some(format!("invariant broken: {}", b.join("; ")));
                    res.decisions = m.state.decisions;
                    res.labels = labels;
                    return res;
                }
                Err(e) => {
                    res.decisions = m.state.decisions;
                    res.error = Some(e.message);
                    res.labels = labels;
                    return res;
                }
                _ => {}
            }
        }
        let Some((seat, _)) = m.pending() else { break };
        // The bots search copies of the match: those must not count.
        let cov = m.take_coverage();
        let i = bots.choose(seat, &m);
        m.state.coverage = cov;
        if keep_labels {
            labels.push(m.option_label(i));
        }
        if let Err(e) = timed(clock, || m.apply(i)) {
            res.decisions = m.state.decisions;
            res.span = e.span;
            res.error = Some(e.message);
            res.labels = labels;
            res.coverage = m.take_coverage();
            return res;
        }
    }
    res.coverage = m.take_coverage();
    res.decisions = m.state.decisions;
    match m.placings() {
        Ok(st) => {
            res.scores = st.iter().map(|s| s.score).collect();
            res.winners = st
                .iter()
                .enumerate()
                .filter(|(_, s)| s.winner)
                .map(|(i, _)| i)
                .collect();
            res.teams = st.iter().map(|s| s.team).collect();
            res.ranks = st.iter().map(|s| s.rank).collect();
        }
        Err(e) => res.error = Some(e.message),
    }
    match m.statistics() {
        Ok(s) => res.stats = s,
        Err(e) => {
            res.span = e.span;
            res.error = res.error.take().or(Some(e.message));
        }
    }
    res.labels = labels;
    SPARE.with_borrow_mut(|s| m.recycle(s));
    res
}

thread_local! {
    /// The buffers of the last match this thread finished, which the next
    /// one starts in (`eval/reuse.rs`): a game of tic-tac-toe spends about a
    /// tenth of its instructions allocating and freeing a position otherwise.
    static SPARE: RefCell<Option<Spare>> = const { RefCell::new(None) };
}
