//! The zone store: every piece is in exactly one zone, and all zones live in
//! one flat array (`arena`), zone `z` occupying `arena[start[z]..start[z+1]]`
//! bottom to top. Moving a piece rotates the stretch between its old and new
//! place by one, so a position is two small vectors that clone in one go.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Zones {
    pub arena: Vec<u32>,
    pub start: Vec<u32>,
    /// The zone each piece is in.
    pub zone_of: Vec<u32>,
}

impl Zones {
    /// All pieces start in the zones given, in piece order.
    pub fn new(nzones: usize, initial: &[u32]) -> Zones {
        let mut counts = vec![0u32; nzones + 1];
        for &z in initial {
            counts[z as usize + 1] += 1;
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let start = counts.clone();
        let mut fill = counts;
        let mut arena = vec![0; initial.len()];
        for (p, &z) in initial.iter().enumerate() {
            arena[fill[z as usize] as usize] = p as u32;
            fill[z as usize] += 1;
        }
        Zones {
            arena,
            start,
            zone_of: initial.to_vec(),
        }
    }

    #[inline(always)]
    pub fn len(&self, z: u32) -> usize {
        (self.start[z as usize + 1] - self.start[z as usize]) as usize
    }

    #[inline(always)]
    pub fn slice(&self, z: u32) -> &[u32] {
        &self.arena[self.start[z as usize] as usize..self.start[z as usize + 1] as usize]
    }

    pub fn slice_mut(&mut self, z: u32) -> &mut [u32] {
        let (a, b) = (
            self.start[z as usize] as usize,
            self.start[z as usize + 1] as usize,
        );
        &mut self.arena[a..b]
    }

    /// The work of moving piece `p` to zone `to`, in steps: the zones are
    /// one flat arena, so a move shifts the pieces and zone starts that lie
    /// between the two zones. A shift of 64 of them costs about one step
    /// (measured), so a move between neighbouring zones is free.
    pub fn move_work(&self, p: u32, to: u32) -> u64 {
        let from = self.zone_of[p as usize];
        let pieces = self.start[from as usize].abs_diff(self.start[to as usize]);
        (u64::from(from.abs_diff(to)) + u64::from(pieces) + self.len(from) as u64) / 64
    }

    /// Moves piece `p` to the top (end) of zone `to`, or to its bottom.
    pub fn move_piece(&mut self, p: u32, to: u32, top: bool) {
        let from = self.zone_of[p as usize];
        let s = self.start[from as usize] as usize;
        let e = self.start[from as usize + 1] as usize;
        self.shift(p, from, s, e, to, top);
    }

    /// Moves piece `p` as [`Zones::move_piece`] does if the move's work
    /// ([`Zones::move_work`]) is at most `left`, and returns the work and
    /// the zone `p` left; otherwise moves nothing. The machine's moves come
    /// here (`Exec::move_within`): the work and the move share their reads
    /// and one call, where a call for each cost Hasp 2.1 % (375 moves a
    /// game, issue 25).
    #[inline(always)]
    pub fn move_within(&mut self, p: u32, to: u32, top: bool, left: u64) -> Option<(u64, u32)> {
        let from = self.zone_of[p as usize];
        let s = self.start[from as usize];
        let e = self.start[from as usize + 1];
        let pieces = s.abs_diff(self.start[to as usize]);
        let work = (u64::from(from.abs_diff(to)) + u64::from(pieces) + u64::from(e - s)) / 64;
        if work > left {
            return None;
        }
        self.shift(p, from, s as usize, e as usize, to, top);
        Some((work, from))
    }

    /// The move itself: `p` lies in zone `from`, at `arena[s..e]`.
    #[inline(always)]
    fn shift(&mut self, p: u32, from: u32, s: usize, e: usize, to: u32, top: bool) {
        // The top piece, the one most moves take, is found without a walk.
        let pos = if e > s && self.arena[e - 1] == p {
            e - 1
        } else {
            s + self.arena[s..e]
                .iter()
                .position(|&x| x == p)
                .expect("zone_of is consistent with the arena")
        };
        let (from_u, to_u) = (from as usize, to as usize);
        if from == to {
            // Re-placing inside one zone: rotate within it.
            if top {
                shift_left(&mut self.arena, pos, e);
            } else {
                shift_right(&mut self.arena, s, pos);
            }
            return;
        }
        if from_u < to_u {
            // The piece travels right: everything between shifts left by one.
            let dest = if top {
                self.start[to_u + 1] as usize
            } else {
                self.start[to_u] as usize
            };
            shift_left(&mut self.arena, pos, dest);
            for s in &mut self.start[from_u + 1..=to_u] {
                *s -= 1;
            }
        } else {
            let dest = if top {
                self.start[to_u + 1] as usize
            } else {
                self.start[to_u] as usize
            };
            shift_right(&mut self.arena, dest, pos);
            for s in &mut self.start[to_u + 1..=from_u] {
                *s += 1;
            }
        }
        self.zone_of[p as usize] = to;
    }
}

/// `a[pos..end].rotate_left(1)`: the element at `pos` goes to `end - 1`.
/// A rotation by one is a single move of the stretch; the general
/// `rotate_left` costs several times more (measured).
#[inline]
fn shift_left(a: &mut [u32], pos: usize, end: usize) {
    let x = a[pos];
    a.copy_within(pos + 1..end, pos);
    a[end - 1] = x;
}

/// `a[dest..=pos].rotate_right(1)`: the element at `pos` goes to `dest`.
#[inline]
fn shift_right(a: &mut [u32], dest: usize, pos: usize) {
    let x = a[pos];
    a.copy_within(dest..pos, dest + 1);
    a[dest] = x;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(z: &Zones) {
        for zone in 0..z.start.len() - 1 {
            for &p in z.slice(zone as u32) {
                assert_eq!(z.zone_of[p as usize], zone as u32);
            }
        }
    }

    #[test]
    fn moves_keep_every_piece_in_one_zone() {
        let mut z = Zones::new(4, &[0, 0, 1, 2, 3, 3]);
        z.move_piece(0, 3, true);
        assert_eq!(z.slice(3), &[4, 5, 0]);
        assert_eq!(z.slice(0), &[1]);
        z.move_piece(5, 0, false);
        assert_eq!(z.slice(0), &[5, 1]);
        assert_eq!(z.slice(3), &[4, 0]);
        z.move_piece(2, 2, true);
        assert_eq!(z.slice(2), &[3, 2]);
        z.move_piece(3, 2, true);
        assert_eq!(z.slice(2), &[2, 3]);
        check(&z);
        assert_eq!(z.arena.len(), 6);
    }

    /// A move whose work is more than the steps left moves nothing; one
    /// within them moves as `move_piece` does and returns its work (as
    /// `move_work` counts it) and the zone left.
    #[test]
    fn a_move_within_the_steps_left_is_made_and_charged() {
        // 130 pieces in zone 0, none in zones 1 and 2.
        let mut z = Zones::new(3, &[0; 130]);
        let work = z.move_work(129, 2);
        assert_eq!(work, (2 + 130 + 130) / 64);
        let before = z.clone();
        assert_eq!(z.move_within(129, 2, true, work - 1), None);
        assert_eq!(z, before, "nothing moved");
        assert_eq!(z.move_within(129, 2, true, work), Some((work, 0)));
        let mut same = before;
        same.move_piece(129, 2, true);
        assert_eq!(z, same);
        assert_eq!(z.slice(2), &[129]);
        check(&z);
    }
}
