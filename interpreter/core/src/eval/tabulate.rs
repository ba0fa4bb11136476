//! Calls evaluated at check time, for the `fn-tables` pass
//! (`opt/fn_tables.rs`): a function whose body reads only the static board
//! has the same value, the same steps and the same errors in every match,
//! so the pass calls it here once per argument and keeps the answers.
//! Entry: [`Tabulator::call`].

use super::expr::Exec;
use super::zones::Zones;
use super::{RunErrorKind, State, MAX_CALL_DEPTH};
use crate::diag::Span;
use crate::ir::{Expr, FnTable, Game, Val};

/// What one call at check time came to.
pub(crate) enum Called {
    /// The value, and the steps the call charged (its own step included).
    Value(Val, u64),
    /// A run-time error: the call has to run in the match, where it fails
    /// at its own place.
    Failed,
    /// The check-time step allowance ran out.
    OutOfSteps,
}

/// A blank position (no pieces, every variable 0) to call functions in.
pub(crate) struct Tabulator {
    st: State,
}

impl Tabulator {
    /// A tabulator that may charge `steps` steps in all its calls.
    pub(crate) fn new(g: &Game, steps: u64) -> Tabulator {
        let zones = Zones::new(g.nzones as usize, &[]);
        let mut st = State::blank(g, g.min_players.max(1), zones, 0);
        st.budget = steps;
        Tabulator { st }
    }

    /// Calls `func` with `args` from [`FnTable::DEPTH`] calls below the call
    /// depth limit: a call that succeeds here succeeds from any caller at
    /// most that deep, which is where a table answers.
    pub(crate) fn call(&mut self, g: &Game, func: u16, args: &[Val]) -> Called {
        let st = &mut self.st;
        st.locals.clear();
        st.scratch.clear();
        st.depth = MAX_CALL_DEPTH - FnTable::DEPTH;
        let before = st.steps;
        let call = Expr::Call {
            func,
            args: args.iter().map(|&v| Expr::Const(v)).collect(),
            span: Span::default(),
        };
        let mut cx = Exec { g, st, base: 0 };
        match cx.eval(&call, Span::default()) {
            Ok(v) => Called::Value(v, cx.st.steps - before),
            Err(e) if matches!(e.kind, RunErrorKind::Budget { .. }) => Called::OutOfSteps,
            Err(_) => Called::Failed,
        }
    }
}
