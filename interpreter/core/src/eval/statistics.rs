//! The declared statistics (`statistic NAME(p) = …`, `statistic NAME = …`),
//! read when a game has ended: what `regel simulate` averages and `regel
//! compare` compares besides its built-in measures.

use super::expr::Exec;
use super::{Match, RunError};
use crate::ir::Val;

impl Match {
    /// Each declared statistic's value now, in declaration order: one per
    /// seat for a statistic per player, one for the game otherwise.
    pub fn statistics(&mut self) -> Result<Vec<Vec<Val>>, RunError> {
        let g = self.game.clone();
        let n = self.state.nplayers as Val;
        let mut cx = Exec {
            g: &g,
            st: &mut self.state,
            base: 0,
        };
        let mut out = Vec::with_capacity(g.statistics.len());
        for s in &g.statistics {
            // A global statistic reads no player: it runs once, with the
            // same fresh locals a per-player one gets.
            let seats = if s.per_player { 0..n } else { 0..1 };
            let vals = seats
                .map(|p| cx.with_player(&s.expr, s.nlocals, p, s.span))
                .collect::<Result<Vec<_>, _>>()?;
            out.push(vals);
        }
        Ok(out)
    }
}
