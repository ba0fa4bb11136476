//! Rule coverage: how often each part of the rules ran over a match (`regel
//! simulate --coverage`). The counters live in [`State::coverage`], which is
//! `None` unless a match was made by [`Match::new_with_coverage`]. The
//! executor's loop and the option enumeration come in two copies (a const
//! generic, `COVERAGE`), so that a match without counters runs the same code
//! as before and pays only a test of a pointer per decision and per `require`
//! inside a body. Every counter is keyed by dense ids (a block and a
//! statement index, an action, a leading `require`'s index), never by a name.
//!
//! What the counts mean is decided by the reader (`cli/coverage.rs`), which
//! sums the copies of one rule (a spliced procedure's statements appear once
//! per caller) by their source span.
//!
//! [`State::coverage`]: super::State::coverage
//! [`Match::new_with_coverage`]: super::Match::new_with_coverage

use crate::ir::Game;

/// The counters of one match, or of many merged with [`Coverage::add`].
/// Serialisable so that the counters of games played apart (shards of a run)
/// can be added up where they are merged.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Coverage {
    /// Where each block's statements start in `steps`.
    block_at: Vec<u32>,
    /// Per statement of `Game::code`: for an `if`'s test and a `require`, the
    /// times it held and the times it did not (zero for other statements).
    steps: Vec<[u64; 2]>,
    /// Per action: the decisions that offered it, and the times it was taken.
    pub offered: Vec<u64>,
    pub taken: Vec<u64>,
    /// Where each action's leading `require`s start in `pre`.
    pre_at: Vec<u32>,
    /// Per leading `require` of an action: the times it held and failed.
    pre: Vec<[u64; 2]>,
}

impl Coverage {
    /// Zeroed counters laid out for `g`'s code.
    pub fn new(g: &Game) -> Coverage {
        let mut block_at = Vec::with_capacity(g.code.len());
        let mut n = 0u32;
        for b in &g.code {
            block_at.push(n);
            n += b.len() as u32;
        }
        let mut pre_at = Vec::with_capacity(g.actions.len());
        let mut m = 0u32;
        for a in &g.actions {
            pre_at.push(m);
            m += a.pre.len() as u32;
        }
        Coverage {
            block_at,
            steps: vec![[0; 2]; n as usize],
            offered: vec![0; g.actions.len()],
            taken: vec![0; g.actions.len()],
            pre_at,
            pre: vec![[0; 2]; m as usize],
        }
    }

    /// Counts one outcome of the test at statement `pc` of `block`.
    #[inline]
    pub fn step(&mut self, block: u32, pc: usize, held: bool) {
        let i = self.block_at[block as usize] as usize + pc;
        self.steps[i][usize::from(!held)] += 1;
    }

    /// Counts one outcome of leading `require` `k` of action `a`.
    #[inline]
    pub fn pre(&mut self, a: u16, k: usize, held: bool) {
        let i = self.pre_at[a as usize] as usize + k;
        self.pre[i][usize::from(!held)] += 1;
    }

    /// How often the test at statement `pc` of `block` held and did not.
    pub fn step_counts(&self, block: usize, pc: usize) -> [u64; 2] {
        self.steps[self.block_at[block] as usize + pc]
    }

    /// How often leading `require` `k` of action `a` held and failed.
    pub fn pre_counts(&self, a: usize, k: usize) -> [u64; 2] {
        self.pre[self.pre_at[a] as usize + k]
    }

    /// Whether `o` counts the same program's statements, actions and
    /// `require`s as these counters (checked before adding counters read back).
    pub fn same_layout(&self, o: &Coverage) -> bool {
        self.block_at == o.block_at
            && self.pre_at == o.pre_at
            && self.steps.len() == o.steps.len()
            && self.pre.len() == o.pre.len()
            && self.offered.len() == o.offered.len()
            && self.taken.len() == o.taken.len()
    }

    /// Adds another match's counters (of the same game) to these.
    pub fn add(&mut self, o: &Coverage) {
        debug_assert_eq!(self.steps.len(), o.steps.len());
        let sum = |a: &mut [[u64; 2]], b: &[[u64; 2]]| {
            for (x, y) in a.iter_mut().zip(b) {
                x[0] += y[0];
                x[1] += y[1];
            }
        };
        sum(&mut self.steps, &o.steps);
        sum(&mut self.pre, &o.pre);
        for (x, y) in self.offered.iter_mut().zip(&o.offered) {
            *x += y;
        }
        for (x, y) in self.taken.iter_mut().zip(&o.taken) {
            *x += y;
        }
    }
}

/// Counts the actions among a decision's option groups as offered, each once.
pub(super) fn offered(cov: &mut Coverage, groups: &[super::OptGroup]) {
    let mut seen: smallvec::SmallVec<[u16; 8]> = smallvec::SmallVec::new();
    for g in groups {
        if g.action != super::CHOOSE && g.count > 0 && !seen.contains(&g.action) {
            seen.push(g.action);
            cov.offered[g.action as usize] += 1;
        }
    }
}

impl super::expr::Exec<'_> {
    /// Whether leading `require` `k` of action `a` holds, counted in the
    /// copy of the enumeration that keeps coverage (`COVERAGE`).
    #[inline(always)]
    pub(super) fn pre_holds<const COVERAGE: bool>(
        &mut self,
        a: u16,
        k: usize,
        e: &crate::ir::Expr,
        s: crate::diag::Span,
    ) -> super::expr::R<bool> {
        let held = self.eval(e, s)? != 0;
        if COVERAGE {
            if let Some(cov) = self.st.coverage.as_deref_mut() {
                cov.pre(a, k, held);
            }
        }
        Ok(held)
    }
}
