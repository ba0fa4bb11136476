//! The values a position keeps between decisions (`opt/bytecode/keep.rs`
//! says which): per site, the value, the steps its computation charged, the
//! call depth it was computed at, and when; per family (a zone or variable
//! declaration), when it last changed. A value is current while no family
//! it reads has changed since it was computed.
//!
//! **Invariant: a kept value that is read is the value, and the steps, a
//! computation would give now.** Every change of a zone or a variable is
//! noted ([`Kept::moved`] for a piece's move, [`Kept::changed`] for a
//! shuffle or an assignment, all in `vm.rs`) or forgets every value
//! ([`Kept::forget`]: a bot's re-deal of hidden pieces, a new match, the end
//! of the variables' initialisation); `Match::kept_agree` computes every
//! current value again, and `tests/passes.rs` calls it at every decision of
//! every shipped game.

use super::expr::Exec;
use super::State;
use crate::diag::Span;
use crate::ir::*;

/// One site's kept value. `at == 0`: none.
#[derive(Clone, Copy, Debug, Default)]
struct Cell {
    at: u64,
    depth: u32,
    value: Val,
    steps: u64,
}

/// A position's kept values: none until a value is first kept, so that a
/// game without sites carries one word for them (a position is cloned and
/// moved often). Not serialised: a match read back keeps nothing and
/// computes afresh.
#[derive(Clone, Debug, Default)]
pub struct Kept(Option<Box<Cells>>);

#[derive(Clone, Debug, Default)]
struct Cells {
    /// Counts changes and computations: the clock of `at` and `changed`.
    tick: u64,
    /// Per family: the tick of its last change, or 0.
    changed: Vec<u64>,
    cells: Vec<Cell>,
}

impl Kept {
    /// Family `f` changed: the values that read it are outdated. A family
    /// no site reads ([`KeptSites::UNREAD`]) lies beyond `changed`; while
    /// nothing is kept there is nothing to outdate (a value computed later
    /// is later than the change).
    #[inline]
    pub(crate) fn changed(&mut self, f: u16) {
        if let Some(k) = &mut self.0 {
            k.tick += 1;
            if let Some(c) = k.changed.get_mut(f as usize) {
                *c = k.tick;
            }
        }
    }

    /// A piece moved between zones of families `a` and `b`.
    #[inline]
    pub(crate) fn moved(&mut self, a: u16, b: u16) {
        if let Some(k) = &mut self.0 {
            k.tick += 1;
            let t = k.tick;
            if let Some(c) = k.changed.get_mut(a as usize) {
                *c = t;
            }
            if let Some(c) = k.changed.get_mut(b as usize) {
                *c = t;
            }
        }
    }

    /// Forgets every value.
    pub(crate) fn forget(&mut self) {
        self.0 = None;
    }

    /// Site `k`'s cell if it holds a value that no change of a family in
    /// `reads` has outdated.
    fn current(&self, k: usize, reads: &[u16]) -> Option<Cell> {
        let kc = self.0.as_deref()?;
        let c = *kc.cells.get(k)?;
        let fresh = c.at != 0
            && reads
                .iter()
                .all(|&f| kc.changed.get(f as usize).is_some_and(|&t| t < c.at));
        fresh.then_some(c)
    }
}

impl Exec<'_> {
    /// Site `k`'s value if it is current, computed at the depth of now, no
    /// seat's view is guarded and its steps end before the next checkpoint;
    /// its steps are then charged.
    #[inline(never)]
    pub(super) fn kept_get(&mut self, k: u32) -> Option<Val> {
        let st = &mut *self.st;
        let c = st
            .kept
            .current(k as usize, &self.g.kept.sites[k as usize].reads)?;
        if c.depth != st.depth || st.guard.is_some() || st.steps + c.steps > st.checkpoint {
            return None;
        }
        st.steps += c.steps;
        Some(c.value)
    }

    /// Keeps `v` as site `k`'s value, computed from step count `from`.
    #[inline(never)]
    pub(super) fn kept_set(&mut self, k: u32, v: Val, from: Val) {
        let st = &mut *self.st;
        if st.guard.is_some() {
            return;
        }
        let sites = &self.g.kept;
        let kc = st.kept.0.get_or_insert_with(|| {
            Box::new(Cells {
                tick: 0,
                changed: vec![0; sites.nfam as usize],
                cells: vec![Cell::default(); sites.sites.len()],
            })
        });
        kc.tick += 1;
        kc.cells[k as usize] = Cell {
            at: kc.tick,
            depth: st.depth,
            value: v,
            steps: st.steps - from as u64,
        };
    }
}

/// Whether every current kept value is what computing its site again gives,
/// value and steps: how many were compared, or the first difference.
pub(crate) fn agrees(g: &Game, st: &State) -> Result<usize, String> {
    let mut checked = 0;
    for (k, site) in g.kept.sites.iter().enumerate() {
        let Some(c) = st.kept.current(k, &site.reads) else {
            continue;
        };
        let mut st = st.clone();
        st.kept.forget();
        st.locals.clear();
        st.locals.resize(site.nlocals as usize, 0);
        st.scratch.clear();
        st.depth = c.depth;
        st.guard = None;
        st.budget = u64::MAX;
        st.checkpoint = u64::MAX;
        let before = st.steps;
        let mut cx = Exec {
            g,
            st: &mut st,
            base: 0,
        };
        let v = cx.eval(&site.expr, Span::default());
        let steps = st.steps - before;
        if v.as_ref().ok() != Some(&c.value) || steps != c.steps {
            return Err(format!(
                "kept value {k} ({}) is {} in {} steps, computed again {v:?} in {steps} steps",
                crate::ir::print::expr(g, &site.expr),
                c.value,
                c.steps
            ));
        }
        checked += 1;
    }
    Ok(checked)
}
