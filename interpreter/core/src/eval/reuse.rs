//! A finished match's buffers, kept to start the next match of the same
//! game without allocating: what `bot/seeded.rs` does between the games of
//! one thread. A small game spends a tenth of its instructions on the
//! allocator otherwise (tic-tac-toe: about 7,000 of 66,000 a game).
//!
//! The next match starts from a copy of a blank position made once per
//! game and seat count (the `template`), copied into the old buffers field
//! by field ([`State::reset_from`]), so it is the position [`State::blank`]
//! would make: the same pieces where they start, every variable 0, and the
//! generator seeded afresh.

use super::{State, Status};
use crate::ir::Game;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, Weak};

/// A blank position of one game and seat count, and a finished match's
/// position whose buffers the next match takes over.
pub struct Spare {
    /// The game the template is of. Weak: a spare kept by a thread does not
    /// keep a game alive, and a game dropped and another made at the same
    /// address is told apart (its `Weak` no longer upgrades).
    game: Weak<Game>,
    template: State,
    spare: Option<State>,
}

impl Spare {
    /// Whether the template is of `game` with `nplayers` seats.
    fn is_of(&self, game: &Arc<Game>, nplayers: usize) -> bool {
        self.game.upgrade().is_some_and(|g| Arc::ptr_eq(&g, game))
            && self.template.nplayers as usize == nplayers
    }

    /// A position to start a match of `game` (the one for `nplayers` seats)
    /// from, seeded with `seed`: the old buffers refilled from the template
    /// when they are of this game and seat count, else `None`.
    pub(crate) fn take(&mut self, game: &Arc<Game>, nplayers: usize, seed: u64) -> Option<State> {
        if !self.is_of(game, nplayers) {
            return None;
        }
        let mut st = self.spare.take()?;
        st.reset_from(&self.template, seed);
        Some(st)
    }

    /// Keeps `st`, the position of a finished match of `game`, for the next
    /// match; a template of `game` is made when the kept one is of another
    /// game or seat count.
    pub(crate) fn keep(slot: &mut Option<Spare>, game: &Arc<Game>, st: State) {
        let n = st.nplayers as usize;
        if !slot.as_ref().is_some_and(|s| s.is_of(game, n)) {
            *slot = Some(Spare {
                game: Arc::downgrade(game),
                template: State::blank_of(game, n, 0),
                spare: None,
            });
        }
        if let Some(s) = slot {
            s.spare = Some(st);
        }
    }
}

impl State {
    /// Makes this position the blank position `t` (made by
    /// [`State::blank`]) with the generator seeded with `seed`, keeping its
    /// own buffers. Every field is named (the pattern has no `..`), so a
    /// field added to `State` must be reset here before this compiles.
    pub(crate) fn reset_from(&mut self, t: &State, seed: u64) {
        let State {
            nplayers,
            vars,
            zones,
            kept,
            revealed,
            zone_open,
            rng,
            frames,
            locals,
            items,
            pending,
            opt_vals,
            opt_groups,
            opt_count,
            opt_areas,
            opt_sets,
            status,
            steps,
            budget,
            checkpoint,
            interrupt,
            decisions,
            forced,
            scratch,
            depth,
            guard,
            peeked,
            log_on,
            sample,
            audit,
            log,
            rolls,
            seat_logs,
            seat_log,
            hid,
            known,
            recall,
            zcount,
            zbits,
            coverage,
        } = self;
        *nplayers = t.nplayers;
        vars.clone_from(&t.vars);
        zones.arena.clone_from(&t.zones.arena);
        zones.start.clone_from(&t.zones.start);
        zones.zone_of.clone_from(&t.zones.zone_of);
        kept.forget();
        revealed.clone_from(&t.revealed);
        zone_open.clone_from(&t.zone_open);
        *rng = ChaCha8Rng::seed_from_u64(seed);
        // What `blank` leaves empty (with room to grow) is emptied.
        frames.clear();
        locals.clear();
        items.clear();
        *pending = None;
        opt_vals.clear();
        opt_groups.clear();
        *opt_count = t.opt_count;
        opt_areas.clear();
        opt_sets.clear();
        *status = Status::Running;
        *steps = t.steps;
        *budget = t.budget;
        *checkpoint = t.checkpoint;
        *interrupt = None;
        *decisions = t.decisions;
        *forced = t.forced;
        scratch.clear();
        *depth = t.depth;
        *guard = t.guard;
        *sample = t.sample;
        *audit = None;
        *peeked = t.peeked;
        *log_on = t.log_on;
        log.clear();
        rolls.clear();
        *seat_logs = t.seat_logs;
        seat_log.clear();
        hid.clear();
        known.clear();
        *recall = t.recall;
        zcount.clone_from(&t.zcount);
        zbits.clone_from(&t.zbits);
        *coverage = None;
    }
}
