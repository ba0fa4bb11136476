//! Determinisation: a position the deciding seat cannot tell from the real
//! one. Entry: [`Hidden::of`] once per decision, then [`Hidden::sample`] per
//! search iteration.
//!
//! Every piece the seat may not see (as `eval::view::visible` decides) is
//! dealt again at random among the places of the unseen pieces of its own
//! kind and owner: zone sizes, kinds and everything visible stay as they are,
//! and what the seat cannot see is forgotten. The match's own generator is
//! replaced too, so the search cannot peek at the future draws of the rules.

use crate::eval::view::{visible, Viewer};
use crate::eval::Match;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// The places of the pieces a seat cannot see, grouped by kind and owner.
pub struct Hidden {
    /// Per group: arena positions and the zone each lies in.
    groups: Vec<(Vec<usize>, Vec<u32>)>,
}

impl Hidden {
    pub fn of(m: &Match, seat: usize) -> Hidden {
        let g = &*m.game;
        let st = &m.state;
        let mut by: BTreeMap<(u16, i8), (Vec<usize>, Vec<u32>)> = BTreeMap::new();
        for (pos, &p) in st.zones.arena.iter().enumerate() {
            if !visible(g, st, p as usize, Viewer::Seat(seat)) {
                let e = by
                    .entry((g.piece_kind[p as usize], g.piece_owner[p as usize]))
                    .or_default();
                e.0.push(pos);
                e.1.push(st.zones.zone_of[p as usize]);
            }
        }
        // A group of one piece has nothing to exchange.
        Hidden {
            groups: by.into_values().filter(|g| g.0.len() > 1).collect(),
        }
    }

    /// A copy of the match with the hidden pieces dealt again and a fresh
    /// generator for the rules, both drawn from `rng`.
    pub fn sample(&self, m: &Match, rng: &mut ChaCha8Rng) -> Match {
        let mut d = m.clone();
        let z = &mut d.state.zones;
        let mut pieces = vec![];
        for (positions, zones) in &self.groups {
            pieces.clear();
            pieces.extend(positions.iter().map(|&pos| z.arena[pos]));
            pieces.shuffle(rng);
            for (k, &pos) in positions.iter().enumerate() {
                z.arena[pos] = pieces[k];
                z.zone_of[pieces[k] as usize] = zones[k];
            }
        }
        // The re-deal moved pieces without a move: nothing kept holds.
        d.state.kept.forget();
        d.state.rng = ChaCha8Rng::seed_from_u64(rng.gen());
        // Nobody reads a search's logs. The per-seat log of `play` is off
        // too: with it on, every move of every playout followed each seat's
        // sight of the piece (`recall.rs`), which cost Hansa Teutonica's bot
        // a tenth of its time and changed none of its choices.
        d.state.log_on = false;
        d.state.log.clear();
        d.state.seat_logs = false;
        d.state.seat_log.clear();
        d.state.known.clear();
        d
    }
}
