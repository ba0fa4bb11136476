//! Eval: matches in progress. A [`Match`] is an immutable [`Game`] (shared)
//! plus a [`State`] that is plain data: `Clone`, serialisable, and resumable.
//! Entry points: [`Match::new`], [`Match::apply`].
//!
//! **Architecture Invariant:** nothing is decided silently. Whenever a player
//! must choose among two or more options the match stops with a [`Pending`]
//! decision; only the seeded ChaCha generator in the state makes random
//! choices. A decision with exactly one option is taken automatically.

// The one module allowed `unsafe` (see the crate root's `deny(unsafe_code)`).
#[allow(unsafe_code)]
mod bytecode;
pub mod coverage;
mod error;
mod expr;
mod kept;
mod labels;
mod merge;
mod options;
pub mod present;
mod recall;
mod reuse;
mod sample;
pub use sample::Audit;
mod standings;
mod statistics;
pub(crate) mod tabulate;
pub mod typed;
pub mod view;
mod vm;
mod why;
pub mod zindex;
pub mod zones;

use crate::diag::Span;
use crate::ir::Game;
use crate::ir::*;
pub use crate::ir::{display_const, type_name};
pub use coverage::Coverage;
pub use error::{Budgeted, RunError, RunErrorKind};
pub(crate) use expr::counted_any;
use expr::Exec;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
pub use reuse::Spare;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
pub use view::{View, Viewer};
pub use vm::{Frame, FrameKind};
pub use why::{why_illegal, Why};
use zones::Zones;

/// The default step budget of one match. A step is priced by its work (a
/// statement, a loop test, a call, an element of a collection, a node a
/// board-wide test looks at, a piece or zone a move shifts), so the budget
/// bounds time: on the worst constructs known it runs out within about a
/// second of one core, and no shipped game comes near it.
pub const DEFAULT_BUDGET: u64 = 50_000_000;

/// How many steps the executors run between two looks at the host's
/// interrupt flag, when one is set: about a millisecond of work, so a
/// deadline is met to within that, and the look costs nothing measurable.
pub const INTERRUPT_EVERY: u64 = 1 << 16;

/// How deep function calls may nest before the match stops with an error.
pub const MAX_CALL_DEPTH: u32 = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    Running,
    Finished,
    Failed,
}

/// What the rules are waiting for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub player: u8,
    pub kind: PendingKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PendingKind {
    /// A `choose` at statement `pc` of `block`; the answer goes to local `slot`.
    Choose { slot: u32, block: u32, pc: u32 },
    /// An `act` at statement `pc` of `block`.
    Act { block: u32, pc: u32 },
}

/// The `action` of a group of options that answer a `choose`.
pub const CHOOSE: u16 = u16::MAX;

/// A run of options of one action (or of one `choose`). Independent
/// parameters form a product of domains — `dims` holds each parameter's
/// legal values in `opt_vals` and the options are never listed one by one;
/// dependent parameters are listed as tuples of `arity` values at `tuples`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptGroup {
    pub action: u16,
    /// The index of this group's first option.
    pub first: u32,
    pub count: u32,
    pub dims: smallvec::SmallVec<[(u32, u32); 4]>,
    pub tuples: Option<(u32, u16)>,
}

/// A match's whole position: everything that changes while it is played.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    pub nplayers: u8,
    pub vars: Vec<Val>,
    pub zones: Zones,
    /// Values kept between decisions (`kept.rs`).
    #[serde(skip)]
    pub kept: kept::Kept,
    pub revealed: Vec<bool>,
    /// Per zone declaration: public because its `unless` condition held at the start.
    pub zone_open: Vec<bool>,
    pub rng: ChaCha8Rng,
    pub frames: Vec<Frame>,
    pub locals: Vec<Val>,
    pub items: Vec<Val>,
    pub pending: Option<Pending>,
    /// The pending decision's options: groups over `opt_vals` (see [`OptGroup`]).
    pub opt_vals: Vec<Val>,
    pub opt_groups: Vec<OptGroup>,
    pub opt_count: u32,
    /// The pending `act`'s subsets (`expr/subsets.rs`): per action with a
    /// `subsets(…)` parameter, its index and where its areas start in
    /// `opt_sets`, which holds each area (a count, then the elements) in
    /// parameter order. An option's mask means something only with them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opt_areas: Vec<(u16, u32)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opt_sets: Vec<Val>,
    pub status: Status,
    pub steps: u64,
    pub budget: u64,
    /// The step count at which the executors next look up from their work:
    /// the budget, or sooner when the host may interrupt the match (see
    /// [`Match::set_interrupt`]). Zero means "work it out at the next step".
    #[serde(skip)]
    pub checkpoint: u64,
    /// Set by the host (from another thread) to stop the match at its next
    /// checkpoint: a wall-clock deadline without a clock in the engine.
    #[serde(skip)]
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Decisions taken by players, and decisions with a single option taken for them.
    pub decisions: u32,
    pub forced: u32,
    #[serde(skip)]
    pub scratch: Vec<Val>,
    #[serde(skip)]
    pub depth: u32,
    /// Set while a label is written for one viewer: reading a field of a piece
    /// that viewer may not see sets `peeked`, and the label hides that hole.
    #[serde(skip)]
    pub guard: Option<view::Viewer>,
    #[serde(skip)]
    pub peeked: bool,
    pub log_on: bool,
    /// On in a random playout ([`Match::sampled_playout_at_most`]): an
    /// `act` draws one legal option with `rng` instead of listing them all
    /// (`sample.rs`) where it can, and that option is the decision's only one.
    #[serde(skip)]
    pub sample: bool,
    /// For tests: each drawn decision is listed too, and compared.
    #[serde(skip)]
    pub audit: Option<Box<sample::Audit>>,
    pub log: Vec<String>,
    /// Scripted results for the next `random(…)` calls (scenarios' `rolls`),
    /// used up from the front; the generator decides once they run out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<Val>,
    /// On for `play`: every log line is also written as each seat (and an
    /// onlooker) may read it, in `seat_log`. Costs nothing when off.
    pub seat_logs: bool,
    pub seat_log: Vec<SeatLine>,
    /// While a per-seat log line is written: the pieces it showed as hidden.
    #[serde(skip)]
    pub hid: Vec<u32>,
    /// Per piece, a bit per reader of the per-seat log (seat 0, 1, … and an
    /// onlooker at bit `nplayers`): the reader saw the piece and followed
    /// each of its moves since (see `recall.rs`). Empty unless `seat_logs`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub known: Vec<u16>,
    /// Set while a rules' `log` line is written a second time for one reader:
    /// a piece it recalls ([`recall::recallable`]) counts as in sight.
    #[serde(skip)]
    pub recall: bool,
    /// The zone-predicate index (`zindex.rs`): per predicate of
    /// `Game::zindex`, how many nodes pass it, and a bit per node passing
    /// it. Not saved: both follow from the zones. Empty means none kept.
    #[serde(skip)]
    pub zcount: Vec<u32>,
    #[serde(skip)]
    pub zbits: Vec<u64>,
    /// Rule coverage counters (`regel simulate --coverage`); `None`, and
    /// so free, unless the match was made by [`Match::new_with_coverage`].
    #[serde(skip)]
    pub coverage: Option<Box<Coverage>>,
}

impl State {
    /// The blank position of a match of `g` with `nplayers` seats: every
    /// piece in its starting zone (the pieces of seats that do not play in
    /// the box), seeded with `seed`.
    pub(crate) fn blank_of(g: &Game, nplayers: usize, seed: u64) -> State {
        // Pieces of seats that do not play stay in no zone's view: the box.
        let initial: Vec<u32> = (0..g.piece_kind.len())
            .map(|p| {
                let k = &g.kinds[g.piece_kind[p] as usize];
                let owner = g.piece_owner[p];
                if owner >= nplayers as i8 {
                    return g.zones[g.box_zone as usize].base;
                }
                match k.start {
                    None => g.zones[g.box_zone as usize].base,
                    Some(z) => {
                        let zd = &g.zones[z as usize];
                        if zd.scope == crate::ast::Scope::Player {
                            zd.base + owner.max(0) as u32
                        } else {
                            zd.base
                        }
                    }
                }
            })
            .collect();
        State::blank(g, nplayers, Zones::new(g.nzones as usize, &initial), seed)
    }

    /// A position of `nplayers` seats with the pieces where `zones` puts
    /// them, every variable 0, no decision pending, no log, the default
    /// budget and the generator seeded with `seed`: what a match starts
    /// from before its variables and setup run ([`Match::new`]), and what
    /// the `fn-tables` pass evaluates in.
    pub(crate) fn blank(g: &Game, nplayers: usize, zones: Zones, seed: u64) -> State {
        let vars = vec![0; g.nvars as usize];
        let (zcount, zbits) = zindex::build(g, &zones, &vars);
        State {
            nplayers: nplayers as u8,
            vars,
            zones,
            zcount,
            zbits,
            kept: kept::Kept::default(),
            revealed: vec![false; g.piece_kind.len()],
            zone_open: vec![false; g.zones.len()],
            rng: ChaCha8Rng::seed_from_u64(seed),
            // Working sizes up front: a fresh match would otherwise grow each
            // of these through several reallocations in its first turns.
            frames: Vec::with_capacity(16),
            locals: Vec::with_capacity(64),
            items: Vec::with_capacity(64),
            pending: None,
            opt_vals: Vec::with_capacity(64),
            opt_groups: Vec::with_capacity(4),
            opt_areas: Vec::new(),
            opt_sets: Vec::new(),
            opt_count: 0,
            status: Status::Running,
            steps: 0,
            budget: DEFAULT_BUDGET,
            checkpoint: 0,
            interrupt: None,
            decisions: 0,
            forced: 0,
            scratch: Vec::with_capacity(256),
            depth: 0,
            guard: None,
            peeked: false,
            log_on: false,
            sample: false,
            audit: None,
            log: vec![],
            rolls: vec![],
            seat_logs: false,
            seat_log: vec![],
            hid: vec![],
            known: vec![],
            recall: false,
            coverage: None,
        }
    }
}

/// One line of the match log as each viewer may read it (see `view.rs`).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SeatLine {
    /// The text for seat 0, 1, … and, last, for an onlooker.
    pub text: Vec<String>,
    /// Per viewer, for a move that named pieces as hidden: those pieces and
    /// the text with them named, used if they are all in sight when the
    /// match next stops (what the move itself made public).
    #[serde(skip)]
    pub named: Vec<Option<(Vec<u32>, String)>>,
    /// Per viewer, for a rules' `log` line that read pieces the viewer saw
    /// before they went out of everyone's sight: those pieces and the text
    /// with them named, used unless one of them reaches a seat's sight
    /// first (see `recall.rs`).
    #[serde(skip)]
    pub recalled: Vec<Option<(Vec<u32>, String)>>,
}

/// Settings a match starts with.
#[derive(Clone, Debug)]
pub struct Setup {
    pub players: usize,
    pub seed: u64,
    /// Option values by name; the rest keep their defaults.
    pub options: Vec<(String, Val)>,
    pub budget: u64,
    pub log: bool,
}

impl Setup {
    pub fn new(players: usize, seed: u64) -> Setup {
        Setup {
            players,
            seed,
            options: vec![],
            budget: DEFAULT_BUDGET,
            log: false,
        }
    }
}

/// A match in progress.
#[derive(Clone, Debug)]
pub struct Match {
    pub game: Arc<Game>,
    pub state: State,
}

/// The final standing of one seat.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Standing {
    pub seat: String,
    pub score: i64,
    pub rank: usize,
    pub winner: bool,
    /// The seat's team (its own number when the rules declare no teams).
    #[serde(skip)]
    pub team: i64,
}

/// The action (or [`CHOOSE`]) and the values of option `i` of the pending decision.
pub fn option_tuple(st: &State, i: usize) -> (u16, smallvec::SmallVec<[Val; 4]>) {
    let g = option_group(&st.opt_groups, i);
    let mut vals = smallvec::SmallVec::new();
    vals.resize(g.tuples.map_or(g.dims.len(), |(_, n)| n as usize), 0);
    option_values(g, &st.opt_vals, i, |d, v| vals[d] = v);
    (g.action, vals)
}

/// The group option `i` belongs to.
pub(crate) fn option_group(groups: &[OptGroup], i: usize) -> &OptGroup {
    groups
        .iter()
        .rev()
        .find(|g| g.first as usize <= i)
        .expect("option index within the groups")
}

/// The values of option `i` of group `g`, handed to `f` (parameter index,
/// value) without a list made of them: starting the chosen action writes
/// them straight into its frame.
pub(crate) fn option_values(
    g: &OptGroup,
    opt_vals: &[Val],
    i: usize,
    mut f: impl FnMut(usize, Val),
) {
    let mut k = i - g.first as usize;
    match g.tuples {
        Some((at, arity)) => {
            let s = at as usize + k * arity as usize;
            for (d, &v) in opt_vals[s..s + arity as usize].iter().enumerate() {
                f(d, v);
            }
        }
        None => {
            // Mixed radix, the last parameter varying fastest.
            for (d, &(at, len)) in g.dims.iter().enumerate().rev() {
                f(d, opt_vals[at as usize + k % len as usize]);
                k /= len as usize;
            }
        }
    }
}

impl Match {
    /// Sets up a match and runs it to its first decision.
    pub fn new(game: Arc<Game>, setup: &Setup) -> Result<Match, RunError> {
        Match::start(game, setup, false, vec![], false, None, None)
    }

    /// [`Match::new`], counting how often each `if`, `require` and action
    /// ran or was offered ([`Match::take_coverage`]).
    pub fn new_with_coverage(game: Arc<Game>, setup: &Setup) -> Result<Match, RunError> {
        Match::start(game, setup, false, vec![], true, None, None)
    }

    /// [`Match::new`] (with coverage counters when `coverage`), stopped by
    /// the host through `flag` (see [`Match::set_interrupt`]), the setup's
    /// work included.
    pub fn new_interruptible(
        game: Arc<Game>,
        setup: &Setup,
        coverage: bool,
        flag: Arc<AtomicBool>,
    ) -> Result<Match, RunError> {
        Match::start(game, setup, false, vec![], coverage, Some(flag), None)
    }

    /// [`Match::new`] (with coverage counters when `coverage`, stopped by
    /// `interrupt` when given), in the buffers of the finished match kept
    /// in `spare` ([`Match::recycle`]) when that was of the same game and
    /// seat count: the same match, without allocating a position.
    pub fn new_reusing(
        game: Arc<Game>,
        setup: &Setup,
        coverage: bool,
        interrupt: Option<Arc<AtomicBool>>,
        spare: &mut Option<Spare>,
    ) -> Result<Match, RunError> {
        Match::start(
            game,
            setup,
            false,
            vec![],
            coverage,
            interrupt,
            spare.as_mut(),
        )
    }

    /// Ends this match and keeps its position's buffers in `spare`, for
    /// [`Match::new_reusing`] to start the next match in.
    pub fn recycle(self, spare: &mut Option<Spare>) {
        Spare::keep(spare, &self.game, self.state);
    }

    /// Lets the host stop this match from another thread: once `flag` is
    /// set, the running decision ends with a run-time error
    /// ([`RunErrorKind::Interrupted`]) within [`INTERRUPT_EVERY`] steps.
    /// The engine reads no clock; a host with a deadline sets the flag
    /// from a timer of its own.
    pub fn set_interrupt(&mut self, flag: Arc<AtomicBool>) {
        self.state.interrupt = Some(flag);
        self.state.checkpoint = 0;
    }

    /// Takes the coverage counters (see [`Match::new_with_coverage`]).
    pub fn take_coverage(&mut self) -> Option<Box<Coverage>> {
        self.state.coverage.take()
    }

    /// As [`Match::new`], with the results of the first `random(…)` calls
    /// fixed (a scenario's `rolls`).
    pub fn scripted(game: Arc<Game>, setup: &Setup, rolls: Vec<Val>) -> Result<Match, RunError> {
        Match::start(game, setup, false, rolls, false, None, None)
    }

    /// [`Match::new`], keeping the log also as each seat may read it
    /// ([`Match::take_seat_log`]; what `regel play` shows). Implies `log`.
    pub fn new_with_seat_logs(game: Arc<Game>, setup: &Setup) -> Result<Match, RunError> {
        Match::start(game, setup, true, vec![], false, None, None)
    }

    fn start(
        game: Arc<Game>,
        setup: &Setup,
        seat_logs: bool,
        rolls: Vec<Val>,
        coverage: bool,
        interrupt: Option<Arc<AtomicBool>>,
        spare: Option<&mut Spare>,
    ) -> Result<Match, RunError> {
        if !game.by_players.is_empty() {
            let own = game.for_players(setup.players);
            if !Arc::ptr_eq(&own, &game) {
                return Match::start(own, setup, seat_logs, rolls, coverage, interrupt, spare);
            }
        }
        let g = &*game;
        let n = setup.players;
        if n < g.min_players || n > g.max_players {
            return Err(RunError::new(
                RunErrorKind::PlayerCount {
                    game: g.name.as_str().into(),
                    min: g.min_players,
                    max: g.max_players,
                    n,
                },
                None,
            ));
        }
        let mut state = match spare.and_then(|s| s.take(&game, n, setup.seed)) {
            Some(st) => st,
            None => State::blank_of(g, n, setup.seed),
        };
        state.budget = setup.budget;
        state.interrupt = interrupt;
        state.log_on = setup.log || seat_logs;
        state.rolls = rolls;
        state.seat_logs = seat_logs;
        if seat_logs {
            state.known = vec![0; g.piece_kind.len()];
        }
        state.coverage = coverage.then(|| Box::new(Coverage::new(g)));
        let mut m = Match {
            game: game.clone(),
            state,
        };
        m.init(setup)?;
        if m.state.seat_logs {
            view::finish_seat_log(&m.game, &mut m.state);
        }
        Ok(m)
    }

    fn init(&mut self, setup: &Setup) -> Result<(), RunError> {
        let g = &*self.game;
        // Options first (variables' initial values may read them), then variables.
        for (name, v) in &setup.options {
            match g.options.get(name) {
                Some(&i) => {
                    let slot = g.vars[i].base as usize;
                    self.state.vars[slot] = *v;
                    zindex::var_set(g, &mut self.state, slot);
                }
                None => {
                    return Err(RunError::new(
                        RunErrorKind::NoSuchOption {
                            name: name.as_str().into(),
                            known: g
                                .options
                                .keys()
                                .cloned()
                                .collect::<Vec<_>>()
                                .join(", ")
                                .into(),
                        },
                        None,
                    ))
                }
            }
        }
        let mut cx = Exec {
            g,
            st: &mut self.state,
            base: 0,
        };
        // Initial values are evaluated in a frame of their own, as large as
        // the most locals one binds (`n` in `count(n in nodes: …)`); it is
        // gone before `play` makes its own.
        let frame = g.vars.iter().map(|d| d.init_locals).max().unwrap_or(0);
        cx.st.locals.resize(frame as usize, 0);
        for d in &g.vars {
            if d.is_option && setup.options.iter().any(|(n, _)| n == &d.name) {
                continue;
            }
            let count = match d.scope {
                crate::ast::Scope::Player => cx.st.nplayers as u32,
                _ => d.count,
            };
            for i in 0..count {
                let v = match &d.init {
                    Some(e) => cx.eval(e, d.span)?,
                    None => d.blank(),
                };
                cx.st.vars[(d.base + i) as usize] = v;
                // An initial value may read a test of variables given theirs before.
                zindex::var_set(g, cx.st, (d.base + i) as usize);
            }
        }
        cx.st.locals.clear();
        for (i, z) in g.zones.iter().enumerate() {
            if let Some(u) = &z.unless {
                cx.st.zone_open[i] = cx.eval(u, z.span)? != 0;
            }
        }
        // Values computed while the variables were given theirs (an
        // initial value may read another variable) are not kept: those
        // writes did not go through `Kept::changed`.
        cx.st.kept.forget();
        // `play` runs under `setup`: setup is on top of the stack and runs first.
        cx.push_call(g.play.0, g.play.1);
        if let Some((b, n)) = g.setup {
            cx.push_call(b, n);
        }
        Ok(cx.run()?)
    }

    fn cx(&mut self) -> Exec<'_> {
        let base = self.current_base();
        Exec {
            g: &self.game,
            st: &mut self.state,
            base,
        }
    }

    fn current_base(&self) -> usize {
        self.state
            .frames
            .iter()
            .rev()
            .find_map(|f| match f.kind {
                FrameKind::Call { base, .. } => Some(base as usize),
                _ => None,
            })
            .unwrap_or(0)
    }

    pub fn is_over(&self) -> bool {
        self.state.status == Status::Finished
    }

    /// The player to decide and the number of options, if a decision is pending.
    pub fn pending(&self) -> Option<(usize, usize)> {
        self.state
            .pending
            .as_ref()
            .map(|p| (p.player as usize, self.state.opt_count as usize))
    }

    /// The label of option `i` of the pending decision, as the deciding seat sees it.
    pub fn option_label(&self, i: usize) -> String {
        match self.pending() {
            Some((p, n)) if i < n => view::option_label(self, i, p),
            _ => String::new(),
        }
    }

    /// The label of option `i` as another seat sees it: hidden pieces in it
    /// read `hidden KIND`. This is what a seat may be told of others' moves.
    pub fn option_label_for(&self, i: usize, viewer: usize) -> String {
        match self.pending() {
            Some((_, n)) if i < n => view::option_label(self, i, viewer),
            _ => String::new(),
        }
    }

    /// The labels of the pending decision's options (none when nothing is pending).
    pub fn option_labels(&self) -> Vec<String> {
        match self.pending() {
            Some((_, n)) => (0..n).map(|i| self.option_label(i)).collect(),
            None => vec![],
        }
    }

    /// Takes option `i` of the pending decision and runs to the next one.
    pub fn apply(&mut self, i: usize) -> Result<(), RunError> {
        // The label is built while the decision is still pending: it reads the
        // pending statement's template.
        let log_label = if self.state.log_on && i < self.state.opt_count as usize {
            self.state
                .pending
                .as_ref()
                .filter(|p| matches!(p.kind, PendingKind::Choose { .. }))
                .map(|p| (p.player, view::option_label(self, i, p.player as usize)))
        } else {
            None
        };
        let seat_line = match &log_label {
            Some((p, _)) if self.state.seat_logs => Some(view::choice_line(self, i, *p as usize)),
            _ => None,
        };
        let Some(p) = self.state.pending.take() else {
            return Err(self.nothing_pending(format!("option {i}")));
        };
        if i >= self.state.opt_count as usize {
            self.state.pending = Some(p);
            return Err(RunError::new(RunErrorKind::NoOptionNumbered { i }, None));
        }
        self.state.decisions += 1;
        let player = p.player as Val;
        match p.kind {
            PendingKind::Choose { slot, .. } => {
                let v = option_tuple(&self.state, i).1[0];
                if let Some((seat, label)) = log_label {
                    if let Some(l) = seat_line {
                        self.state.seat_log.push(l);
                    }
                    let seat = self.game.seats[seat as usize].clone();
                    self.state.log.push(format!("{seat}: {label}"));
                }
                self.state.locals[slot as usize] = v;
                let r = self.cx().run();
                self.finish(r)
            }
            PendingKind::Act { .. } => {
                let mut cx = self.cx();
                cx.start_action(player, i);
                let r = cx.run();
                self.finish(r)
            }
        }
    }

    /// Takes the option whose label is `label`.
    pub fn apply_label(&mut self, label: &str) -> Result<(), RunError> {
        if self.state.pending.is_none() {
            return Err(self.nothing_pending(format!("`{label}`")));
        }
        let labels = self.option_labels();
        match labels.iter().position(|l| l == label) {
            Some(i) => self.apply(i),
            None => Err(RunError::new(
                RunErrorKind::NotLegal {
                    label: crate::diag::echo(label).into(),
                    options: labels.join(", ").into(),
                },
                None,
            )),
        }
    }

    /// Why a decision cannot be taken when none is pending: the game has
    /// ended (or stopped with an error).
    fn nothing_pending(&self, what: String) -> RunError {
        let kind = match self.state.status {
            Status::Finished => RunErrorKind::Ended {
                decisions: self.state.decisions,
                what: what.into(),
            },
            _ => RunErrorKind::NothingPending { what: what.into() },
        };
        RunError::new(kind, None)
    }

    fn finish(&mut self, r: Result<(), Box<RunError>>) -> Result<(), RunError> {
        if r.is_err() {
            self.state.status = Status::Failed;
        }
        if self.state.seat_logs {
            view::finish_seat_log(&self.game, &mut self.state);
        }
        r.map_err(|e| *e)
    }

    /// Whether the rules are at rest: the game is over, or the pending
    /// decision is asked while no action's body is running (the turn
    /// structure of `setup` and `play`, and the procedures it calls, offering
    /// the next move). In the middle of an action (a `choose` or `act` it
    /// asks, another seat's answer included) the rules are at work, and a
    /// promise such as "pieces are conserved" may be broken for a moment.
    /// Invariants are checked only at rest (`bot/seeded.rs`, scenarios).
    pub fn at_rest(&self) -> bool {
        if self.state.pending.is_none() {
            return self.state.status == Status::Finished;
        }
        let g = &*self.game;
        !self.state.frames.iter().any(|f| {
            matches!(f.kind, FrameKind::Call { .. }) && g.actions.iter().any(|a| a.body == f.block)
        })
    }

    /// The declared invariants that do not hold now.
    pub fn broken_invariants(&mut self) -> Result<Vec<String>, RunError> {
        let g = self.game.clone();
        let mut cx = Exec {
            g: &g,
            st: &mut self.state,
            base: 0,
        };
        let mut out = vec![];
        for (text, e, nl, span) in &g.invariants {
            let base = cx.st.locals.len();
            cx.st.locals.resize(base + *nl as usize, 0);
            let old = std::mem::replace(&mut cx.base, base);
            let v = cx.eval(e, *span);
            cx.base = old;
            cx.st.locals.truncate(base);
            if v? == 0 {
                out.push(text.clone());
            }
        }
        Ok(out)
    }

    /// Evaluates a compiled expression (see [`crate::pipeline::compile_expr`]) on
    /// the current position.
    pub fn evaluate(&mut self, e: &Expr, nlocals: u16) -> Result<Val, RunError> {
        let g = self.game.clone();
        let mut cx = Exec {
            g: &g,
            st: &mut self.state,
            base: 0,
        };
        let base = cx.st.locals.len();
        cx.st.locals.resize(base + nlocals as usize, 0);
        cx.base = base;
        let r = cx.eval(e, Span::default());
        cx.st.locals.truncate(base);
        Ok(r?)
    }

    /// A value as the engine's log writes it (everything visible).
    pub fn display(&mut self, ty: Ty, v: Val) -> String {
        let g = self.game.clone();
        let mut cx = Exec {
            g: &g,
            st: &mut self.state,
            base: 0,
        };
        cx.display(ty, v, view::Viewer::All)
    }

    /// What `viewer` may see (`None`: an onlooker who sees only public things).
    pub fn view(&self, viewer: Option<usize>) -> View {
        view::view(self, viewer)
    }

    /// What keeps seat `seat` from taking this match back to `earlier` (an
    /// earlier position of the same match): randomness drawn since, or a
    /// piece hidden from the seat then and in its sight now. `None`: the
    /// seat has learnt nothing since that it could not have known then.
    pub fn learnt_since(&self, earlier: &Match, seat: usize) -> Option<&'static str> {
        if self.state.rng != earlier.state.rng || self.state.rolls != earlier.state.rolls {
            return Some("randomness was drawn since");
        }
        let g = &*self.game;
        let v = view::Viewer::Seat(seat);
        let came_into_sight = (0..g.piece_kind.len()).any(|p| {
            !view::in_sight(g, &earlier.state, p, v) && view::in_sight(g, &self.state, p, v)
        });
        came_into_sight.then_some("something hidden from you came into sight since")
    }

    /// Takes the log lines written so far.
    pub fn take_log(&mut self) -> Vec<String> {
        std::mem::take(&mut self.state.log)
    }

    /// Takes the log lines written so far as seat `viewer` (`None`: an
    /// onlooker) may read them; empty unless the match was made by [`Match::new_with_seat_logs`].
    pub fn take_seat_log(&mut self) -> Vec<SeatLine> {
        std::mem::take(&mut self.state.seat_log)
    }

    /// Whether every index the position keeps equals the scan it replaces
    /// (`zindex.rs`); the first difference otherwise. For tests.
    pub fn indexes_agree(&self) -> Result<(), String> {
        zindex::agrees(&self.game, &self.state)
    }

    /// Whether every value the position keeps between decisions is what
    /// computing it again gives (`kept.rs`): how many it compared, or the
    /// first difference. For tests.
    pub fn kept_agree(&self) -> Result<usize, String> {
        kept::agrees(&self.game, &self.state)
    }

    /// Plays the match to its end choosing uniformly at random with `rng`
    /// (not the match's own generator). Returns the number of decisions.
    pub fn playout<Rn: rand::Rng>(&mut self, rng: &mut Rn) -> Result<u32, RunError> {
        self.playout_at_most(rng, u32::MAX)?;
        Ok(self.state.decisions)
    }

    /// As [`Match::playout_at_most`], but each `act` that can draws its
    /// option with the match's own generator, uniformly among the legal
    /// ones, without listing them (`sample.rs`); other decisions are listed
    /// and picked with `rng`. The games differ from `playout_at_most`'s, as
    /// do the step count and what counts as a decision: a drawn option is
    /// one unless every other candidate was rejected, though it may have
    /// been the only option.
    pub fn sampled_playout_at_most<Rn: rand::Rng>(
        &mut self,
        rng: &mut Rn,
        limit: u32,
    ) -> Result<(), RunError> {
        self.state.sample = true;
        let r = self.playout_at_most(rng, limit);
        self.state.sample = false;
        r
    }

    /// For tests: from now on every drawn decision is also listed, and
    /// where the drawn option lies among the listed ones is recorded (see
    /// [`Match::sampling_audit`]).
    pub fn audit_sampling(&mut self) {
        self.state.audit = Some(Box::default());
    }

    /// What [`Match::audit_sampling`] has recorded.
    pub fn sampling_audit(&self) -> Option<&Audit> {
        self.state.audit.as_deref()
    }

    /// Plays on at random with `rng` for at most `limit` decisions; the
    /// match may not be over afterwards.
    pub fn playout_at_most<Rn: rand::Rng>(
        &mut self,
        rng: &mut Rn,
        limit: u32,
    ) -> Result<(), RunError> {
        for _ in 0..limit {
            let Some((_, n)) = self.pending() else { break };
            let i = rng.gen_range(0..n as u32) as usize;
            self.apply(i)?;
        }
        Ok(())
    }
}

/// `n` zeroed slots on top of `v`: a fresh frame's locals, copied from a
/// block of zeros (one `memcpy`) where `resize` writes them one by one.
/// Used where a frame is made for each action listed and each body
/// entered (measured: Hasp 4p 445,395 → 442,469 instructions a game,
/// connect four 137,300 → 136,908); in the machine's calls (`call_regs`,
/// inlined into its loop) it made every game about 1 % slower.
#[inline]
pub(crate) fn grow_zeroed(v: &mut Vec<Val>, n: usize) {
    const ZEROS: [Val; 64] = [0; 64];
    match ZEROS.get(..n) {
        Some(zeros) => v.extend_from_slice(zeros),
        None => v.resize(v.len() + n, 0),
    }
}
