//! What each reader of the per-seat log saw: a piece seen face up and then
//! put face down (a card played to a trick and gathered into a face-down
//! pile) is still known to those who watched it go, and a rules' `log` line
//! written afterwards names it to them (perfect recall).
//!
//! **Architecture Invariant:** recall never tells a reader what another
//! seat knows alone. A reader recalls a piece only while no seat can see it
//! (it lies face down for everyone) and only if the reader saw it and saw
//! every move it made since; a move of the piece out of the reader's sight,
//! or a shuffle of its zone, forgets it. A log line that named a recalled
//! piece keeps the name only if that piece does not reach a seat's sight
//! before the next move of it or the match's next stop; otherwise the reader
//! reads `hidden`, as it would have without recall. All of this runs only
//! while the per-seat log is on (`State::seat_logs`): bots and `simulate`
//! never pay for it.

use super::view::{in_sight, Viewer};
use super::State;
use crate::ir::Game;

/// The bit of a reader in `State::known`: seats by number, the onlooker last.
fn bit(st: &State, v: Viewer) -> u16 {
    match v {
        Viewer::Seat(s) => 1 << s,
        Viewer::Public => 1 << st.nplayers,
        Viewer::All => 0,
    }
}

/// Seats 0…n-1, then an onlooker: the readers of the per-seat log.
pub(crate) fn readers(n: usize) -> impl Iterator<Item = Viewer> {
    (0..n)
        .map(Viewer::Seat)
        .chain(std::iter::once(Viewer::Public))
}

/// No seat can see piece `p` where it lies now.
fn out_of_all_sight(g: &Game, st: &State, p: usize) -> bool {
    (0..st.nplayers as usize).all(|s| !in_sight(g, st, p, Viewer::Seat(s)))
}

/// Reader `v` may be told piece `p`, though not in its sight: it saw the
/// piece and followed it, and nobody can look at it now.
pub(crate) fn recallable(g: &Game, st: &State, p: usize, v: Viewer) -> bool {
    st.known
        .get(p)
        .is_some_and(|k| k & bit(st, v) != 0 && out_of_all_sight(g, st, p))
}

/// Every reader that sees piece `p` now knows it from here on.
pub(crate) fn note_seen(g: &Game, st: &mut State, p: usize) {
    for v in readers(st.nplayers as usize) {
        if in_sight(g, st, p, v) {
            st.known[p] |= bit(st, v);
        }
    }
}

/// Moves piece `p` to zone `to` while the per-seat log is on: the readers
/// that see it leave follow it, the others forget it; the piece it covers
/// on a zone that shows its top is remembered by those who saw it; moves
/// logged before are settled, and log lines recalling `p` are decided.
pub(crate) fn tracked_move(g: &Game, st: &mut State, p: u32, to: u32, top: bool) {
    let pu = p as usize;
    for v in readers(st.nplayers as usize) {
        let b = bit(st, v);
        if in_sight(g, st, pu, v) {
            st.known[pu] |= b;
        } else {
            st.known[pu] &= !b;
        }
    }
    if let Some(&under) = st.zones.slice(to).last() {
        note_seen(g, st, under as usize);
    }
    super::view::settle_seat_log(g, st);
    let from = st.zones.zone_of[pu];
    st.zones.move_piece(p, to, top);
    super::zindex::moved(g, st, p, from, to);
    decide(g, st, Some(p));
}

/// After zone `z` was shuffled: a reader that cannot see a piece in it now
/// no longer knows which it is.
pub(crate) fn shuffled(g: &Game, st: &mut State, z: u32) {
    let n = st.nplayers as usize;
    for i in 0..st.zones.len(z) {
        let p = st.zones.slice(z)[i] as usize;
        for v in readers(n) {
            if !in_sight(g, st, p, v) {
                st.known[p] &= !bit(st, v);
            }
        }
    }
}

/// Decides the log lines that recall piece `moved` (or, with `None`, every
/// line still open, as the match stops): a recalled piece that some seat
/// can see now, while the reader cannot, takes the name back; otherwise the
/// line keeps the piece named. A line whose pieces are all decided for its
/// reader reads them named.
pub(crate) fn decide(g: &Game, st: &mut State, moved: Option<u32>) {
    let mut log = std::mem::take(&mut st.seat_log);
    let n = st.nplayers as usize;
    for line in &mut log {
        for (k, v) in readers(n).enumerate() {
            let Some(Some((ps, _))) = line.recalled.get_mut(k) else {
                continue;
            };
            let mut denied = false;
            ps.retain(|&p| {
                if moved.is_some_and(|m| m != p) {
                    return true;
                }
                let pu = p as usize;
                denied |= !in_sight(g, st, pu, v) && !out_of_all_sight(g, st, pu);
                false
            });
            if denied {
                line.recalled[k] = None;
            } else if ps.is_empty() {
                if let Some((_, t)) = line.recalled[k].take() {
                    line.text[k] = t;
                }
            }
        }
    }
    st.seat_log = log;
}
