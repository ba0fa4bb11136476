//! The final standings: each seat's score, its rank and whether it shares
//! the win, from the rules' `score`, `tiebreak` and `team` expressions.
//! Computed after every simulated game, so it allocates only its answer:
//! the keys of a few seats lie on the stack.

use super::expr::Exec;
use super::{Match, RunError, Standing};
use crate::diag::Span;
use crate::ir::Val;
use smallvec::SmallVec;

impl Match {
    /// Each seat's score, rank (1 = best) and whether it shares the win.
    pub fn standings(&mut self) -> Result<Vec<Standing>, RunError> {
        let mut st = self.placings()?;
        for (p, s) in st.iter_mut().enumerate() {
            s.seat.clone_from(&self.game.seats[p]);
        }
        Ok(st)
    }

    /// [`Match::standings`] without the seats' names (each `seat` is
    /// empty): what a simulation keeps of a game.
    ///
    /// A seat's key is its score (negated when the lowest wins) followed by
    /// its tiebreaks, compared in that order. Teams pool their standing: a
    /// team's key is its best member's. A seat's rank is one more than the
    /// number of teams whose key is greater than its team's.
    pub fn placings(&mut self) -> Result<Vec<Standing>, RunError> {
        let g = self.game.clone();
        let n = self.state.nplayers as usize;
        let width = 1 + g.tiebreaks.len();
        let lowest = g.score.as_ref().is_some_and(|s| s.2);
        // Seat p's key is `keys[p * width..][..width]`.
        let mut keys: SmallVec<[i64; 32]> = SmallVec::with_capacity(n * width);
        let mut scores: SmallVec<[i64; 8]> = SmallVec::with_capacity(n);
        let mut team_of: SmallVec<[i64; 8]> = SmallVec::with_capacity(n);
        {
            let mut cx = Exec {
                g: &g,
                st: &mut self.state,
                base: 0,
            };
            for p in 0..n {
                let score = match &g.score {
                    Some((e, nl, _)) => cx.with_player(e, *nl, p as Val, Span::default())?,
                    None => 0,
                };
                keys.push(if lowest { -score } else { score });
                for (e, nl) in &g.tiebreaks {
                    keys.push(cx.with_player(e, *nl, p as Val, Span::default())?);
                }
                scores.push(score);
            }
            match &g.team {
                Some((e, nl)) => {
                    for p in 0..n {
                        team_of.push(cx.with_player(e, *nl, p as Val, Span::default())?);
                    }
                }
                None => team_of.extend(0..n as i64),
            }
        }
        let key = |p: usize| &keys[p * width..][..width];
        // Per seat, the teammate whose key is its team's (the best one).
        let best: SmallVec<[usize; 8]> = (0..n)
            .map(|p| {
                (0..n)
                    .filter(|&q| team_of[q] == team_of[p])
                    .max_by(|&a, &b| key(a).cmp(key(b)))
                    .expect("a seat is in its own team")
            })
            .collect();
        let team_key = |p: usize| key(best[p]);
        Ok((0..n)
            .map(|p| {
                // The teams ahead, each counted at its first member (all
                // members of a team share its key).
                let better = (0..n)
                    .filter(|&q| {
                        team_key(q) > team_key(p) && !(0..q).any(|r| team_of[r] == team_of[q])
                    })
                    .count();
                Standing {
                    seat: String::new(),
                    score: scores[p],
                    rank: better + 1,
                    winner: better == 0,
                    team: team_of[p],
                }
            })
            .collect())
    }
}
