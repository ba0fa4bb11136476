//! Option enumeration: every legal instance of the actions a seat may take
//! (each parameter's domain filtered by its `where` and the action's
//! leading `require`s, independent parameters kept as a product, see
//! `eval::OptGroup`), and the start of the option taken.

use super::expr::{Exec, R};
use super::{RunError, RunErrorKind};
use crate::diag::Span;
use crate::ir::*;

/// A decision with more options than anyone could list or pick by label.
#[cold]
pub(super) fn too_many_options(span: Span, what: &str) -> Box<RunError> {
    RunError::at(RunErrorKind::TooManyOptions { what: what.into() }, span)
}

/// The domain option listing walks for `prm`, and whether it is the one
/// with the requirements folded in ([`ActionParam::fast`]). Coverage counts
/// each requirement, so it keeps them apart.
#[inline]
fn domain<const COVERAGE: bool>(prm: &ActionParam) -> (&Coll, bool) {
    match &prm.fast {
        Some(c) if !COVERAGE => (c, true),
        _ => (&prm.domain, false),
    }
}

/// The requirements shared between actions (`opt/bytecode/shared.rs`)
/// computed so far in one listing: class, value, and the steps computing
/// it charged.
pub(super) type Shared = smallvec::SmallVec<[(u16, bool, u64); 4]>;

impl Exec<'_> {
    /// A leading requirement of class `class`: read if another action's
    /// requirement of the class was computed in this listing and its steps,
    /// charged again, end before the next checkpoint; else computed (and
    /// kept, once computed without error) by [`Exec::shared_pre_computed`].
    ///
    /// Inlined where it is called: most requirements of a class are read,
    /// and the call cost more than the reading.
    #[inline(always)]
    fn shared_pre_holds(
        &mut self,
        shared: &mut Shared,
        class: u16,
        a: u16,
        k: usize,
        e: &Expr,
        s: Span,
    ) -> R<bool> {
        let known = shared.iter().position(|x| x.0 == class);
        if let Some(i) = known {
            let (_, holds, steps) = shared[i];
            if self.st.steps + steps <= self.st.checkpoint {
                self.st.steps += steps;
                return Ok(holds);
            }
        }
        self.shared_pre_computed(shared, known, class, a, k, e, s)
    }

    /// [`Exec::shared_pre_holds`] where the requirement is computed: kept
    /// in `shared` (at `known` if its class is there) once computed
    /// without error.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn shared_pre_computed(
        &mut self,
        shared: &mut Shared,
        known: Option<usize>,
        class: u16,
        a: u16,
        k: usize,
        e: &Expr,
        s: Span,
    ) -> R<bool> {
        let before = self.st.steps;
        let holds = self.pre_holds::<false>(a, k, e, s)?;
        let kept = (class, holds, self.st.steps - before);
        match known {
            Some(i) => shared[i] = kept,
            None => shared.push(kept),
        }
        Ok(holds)
    }

    /// Leading requirement `k` of action `a`, which reads no parameter: with
    /// `SHARE`, read from `shared` where [`Exec::shared_pre_holds`] can (a
    /// requirement of a class, no seat's view guarded), else computed.
    #[inline(always)]
    pub(super) fn plain_pre_holds<const COVERAGE: bool, const SHARE: bool>(
        &mut self,
        shared: &mut Shared,
        a: u16,
        k: usize,
        e: &Expr,
        s: Span,
    ) -> R<bool> {
        match self.g.actions[a as usize].shared.get(k) {
            Some(&c) if SHARE && c != ActionDecl::UNSHARED && self.st.guard.is_none() => {
                self.shared_pre_holds(shared, c, a, k, e, s)
            }
            _ => self.pre_holds::<COVERAGE>(a, k, e, s),
        }
    }

    /// Fills the option groups with every legal instance of `actions` for player `p`.
    pub(super) fn enumerate_actions(&mut self, p: Val, actions: &[u16], span: Span) -> R<()> {
        self.st.opt_vals.clear();
        self.st.opt_groups.clear();
        self.st.opt_count = 0;
        self.st.opt_areas.clear();
        self.st.opt_sets.clear();
        let (mut merge, mut merge_labels) = (false, false);
        let mut shared = Shared::new();
        for &a in actions {
            let ad = &self.g.actions[a as usize];
            merge |= ad.searches_twins();
            merge_labels |= ad.merge_labels;
            let base = self.st.locals.len();
            super::grow_zeroed(&mut self.st.locals, ad.nlocals as usize);
            let old = std::mem::replace(&mut self.base, base);
            self.st.locals[base] = p;
            // As in `run`, the copy without coverage counters has no trace of them.
            // An action sharing a requirement with another
            // (`opt/bytecode/shared.rs`) has a listing of its own, so that
            // the others' stays as it was.
            let r = if self.st.coverage.is_some() {
                self.enumerate_one::<true, false>(a, span, &mut shared)
            } else if ad.shared.is_empty() {
                self.enumerate_one::<false, false>(a, span, &mut shared)
            } else {
                self.enumerate_one::<false, true>(a, span, &mut shared)
            };
            if r.is_ok() {
                self.keep_areas(a);
            }
            self.base = old;
            self.st.locals.truncate(base);
            r?;
        }
        if merge && self.st.opt_count > 1 {
            self.merge_actions(p);
        }
        if merge_labels && self.st.opt_count > 1 {
            self.merge_labels(p);
        }
        if self.st.log_on && self.st.opt_count > 1 {
            self.distinct_action_labels(p, span)?;
        }
        if let Some(cov) = self.st.coverage.as_deref_mut() {
            super::coverage::offered(cov, &self.st.opt_groups);
        }
        Ok(())
    }

    /// The options of action `a`; with `SHARE`, requirements shared with
    /// other actions are read from `shared` where they can be.
    fn enumerate_one<const COVERAGE: bool, const SHARE: bool>(
        &mut self,
        a: u16,
        span: Span,
        shared: &mut Shared,
    ) -> R<()> {
        let ad = &self.g.actions[a as usize];
        for (k, (e, mask, s)) in ad.pre.iter().enumerate() {
            if *mask != 0 {
                continue;
            }
            if !self.plain_pre_holds::<COVERAGE, SHARE>(shared, a, k, e, *s)? {
                return Ok(());
            }
        }
        // A test every option needs (`opt/searches.rs`): false, nothing
        // is listed. Coverage counts each requirement, so it lists.
        if let (Some(e), false) = (&ad.needs, COVERAGE) {
            if self.eval(e, span)? == 0 {
                return Ok(());
            }
        }
        let first = self.st.opt_count;
        let vstart = self.st.opt_vals.len();
        if ad.product {
            let mut dims: smallvec::SmallVec<[(u32, u32); 4]> = smallvec::SmallVec::new();
            let mut count: u64 = 1;
            for (i, prm) in ad.params.iter().enumerate() {
                let start = self.st.opt_vals.len();
                let mark = self.st.scratch.len();
                let (domain, fast) = domain::<COVERAGE>(prm);
                if fast {
                    self.coll_folded(domain, span)?;
                } else {
                    self.coll(domain, span)?;
                }
                if fast || !ad.pre.iter().any(|(_, mask, _)| *mask == 1 << i) {
                    // No requirement reads this parameter alone, or the
                    // domain has them folded in: the whole domain is legal
                    // and is copied in one go.
                    let st = &mut *self.st;
                    st.opt_vals.extend_from_slice(&st.scratch[mark..]);
                    st.scratch.truncate(mark);
                    let len = st.opt_vals.len() - start;
                    dims.push((start as u32, len as u32));
                    count = count.saturating_mul(len as u64);
                    continue;
                }
                for k in mark..self.st.scratch.len() {
                    let v = self.st.scratch[k];
                    self.set_local(prm.slot, v);
                    let mut ok = true;
                    for (k, (e, mask, s)) in ad.pre.iter().enumerate() {
                        if *mask == 1 << i && !self.pre_holds::<COVERAGE>(a, k, e, *s)? {
                            ok = false;
                            break;
                        }
                    }
                    if ok {
                        self.st.opt_vals.push(v);
                    }
                }
                self.st.scratch.truncate(mark);
                let len = self.st.opt_vals.len() - start;
                dims.push((start as u32, len as u32));
                count = count.saturating_mul(len as u64);
            }
            if count == 0 {
                self.st.opt_vals.truncate(vstart);
                return Ok(());
            }
            if u64::from(self.st.opt_count) + count > crate::limits::MAX_OPTIONS {
                return Err(too_many_options(span, &ad.name));
            }
            self.st.opt_groups.push(super::OptGroup {
                action: a,
                first,
                count: count as u32,
                dims,
                tuples: None,
            });
            self.st.opt_count += count as u32;
        } else if let (Some(id), false) = (ad.lister, COVERAGE) {
            // The same listing as below, in one program (`opt/bytecode/lister.rs`).
            let mark = self.st.scratch.len();
            let r = self.run_bytecode(id, span);
            self.st.scratch.truncate(mark);
            let count = r? as u64;
            self.push_listed(a, first, vstart, count, span)?;
        } else {
            // Dependent parameters: list every tuple. Domains that read no other
            // parameter are listed once, below the recursion's scratch. The
            // domains as written, and the requirements tested one by one,
            // as the lister does: a domain with them folded in, listed once
            // and walked again for each tuple, would charge what it kept
            // where the tree charges its elements and tests again.
            let mark = self.st.scratch.len();
            let mut cached: smallvec::SmallVec<[(u32, u32); 4]> = smallvec::SmallVec::new();
            for prm in &ad.params {
                if prm.deps == 0 {
                    let s = self.st.scratch.len();
                    self.coll(&prm.domain, span)?;
                    cached.push((s as u32, (self.st.scratch.len() - s) as u32));
                } else {
                    cached.push((u32::MAX, 0));
                }
            }
            let mut count = 0u32;
            let r = self.enumerate_params::<COVERAGE>(a, 0, span, &cached, &mut count);
            self.st.scratch.truncate(mark);
            r?;
            self.push_listed(a, first, vstart, count.into(), span)?;
        }
        Ok(())
    }

    /// Records the `count` tuples of action `a` listed from `vstart` of the
    /// option buffer as one group of options.
    fn push_listed(&mut self, a: u16, first: u32, vstart: usize, count: u64, span: Span) -> R<()> {
        let ad = &self.g.actions[a as usize];
        if u64::from(self.st.opt_count) + count > crate::limits::MAX_OPTIONS {
            return Err(too_many_options(span, &ad.name));
        }
        if count > 0 {
            let arity = ad.params.len() as u16;
            self.st.opt_groups.push(super::OptGroup {
                action: a,
                first,
                count: count as u32,
                dims: Default::default(),
                tuples: Some((vstart as u32, arity)),
            });
            self.st.opt_count += count as u32;
        }
        Ok(())
    }

    fn enumerate_params<const COVERAGE: bool>(
        &mut self,
        a: u16,
        i: usize,
        span: Span,
        cached: &[(u32, u32)],
        count: &mut u32,
    ) -> R<()> {
        let ad = &self.g.actions[a as usize];
        // Requirements whose last parameter is the one just bound.
        if i > 0 {
            for (k, (e, mask, s)) in ad.pre.iter().enumerate() {
                if *mask != 0
                    && 32 - mask.leading_zeros() as usize == i
                    && !self.pre_holds::<COVERAGE>(a, k, e, *s)?
                {
                    return Ok(());
                }
            }
        }
        if i == ad.params.len() {
            for prm in &ad.params {
                let v = self.st.locals[self.base + prm.slot as usize];
                self.st.opt_vals.push(v);
            }
            *count += 1;
            return Ok(());
        }
        let prm = &ad.params[i];
        let mark = self.st.scratch.len();
        let (start, end) = match cached[i] {
            (u32::MAX, _) => {
                self.coll(&prm.domain, span)?;
                (mark, self.st.scratch.len())
            }
            (s, n) => {
                // A domain listed once is walked again for every tuple of
                // the parameters before it: each element visited is work.
                self.charge(u64::from(n), span)?;
                (s as usize, (s + n) as usize)
            }
        };
        for k in start..end {
            let v = self.st.scratch[k];
            self.set_local(prm.slot, v);
            self.enumerate_params::<COVERAGE>(a, i + 1, span, cached, count)?;
        }
        self.st.scratch.truncate(mark);
        Ok(())
    }

    /// Keeps the areas of action `a`'s `subsets(…)` parameters, as its
    /// enumeration left them in the running frame, for the frames that its
    /// options' labels and its start will make.
    fn keep_areas(&mut self, a: u16) {
        let areas = &self.g.actions[a as usize].areas;
        if areas.is_empty() {
            return;
        }
        let at = self.st.opt_sets.len() as u32;
        self.st.opt_areas.push((a, at));
        for &area in areas {
            let at = self.base + area as usize;
            let n = self.st.locals[at].max(0) as usize;
            let st = &mut *self.st;
            st.opt_sets.extend_from_slice(&st.locals[at..at + 1 + n]);
        }
    }

    /// Writes the areas kept by `keep_areas` for action `a` into the running
    /// frame (the action's, just made), so that its subsets can be read.
    ///
    /// Inlined where it is called: most actions have no such parameter, and
    /// the call cost more than the test (measured: 26 instructions a
    /// decision of connect four).
    #[inline]
    pub(super) fn restore_areas(&mut self, a: u16) {
        if !self.g.actions[a as usize].areas.is_empty() {
            self.restore_areas_now(a);
        }
    }

    /// [`Exec::restore_areas`] for an action with areas.
    #[inline(never)]
    fn restore_areas_now(&mut self, a: u16) {
        let areas = &self.g.actions[a as usize].areas;
        let Some(&(_, mut from)) = self.st.opt_areas.iter().find(|x| x.0 == a) else {
            return;
        };
        for &area in areas {
            let from_u = from as usize;
            let n = self.st.opt_sets[from_u].max(0) as usize;
            let to = self.base + area as usize;
            let st = &mut *self.st;
            st.locals[to..to + 1 + n].copy_from_slice(&st.opt_sets[from_u..from_u + 1 + n]);
            from += 1 + n as u32;
        }
    }

    /// Starts option `i` of the current option buffers as an action call.
    pub fn start_action(&mut self, p: Val, i: usize) {
        if self.st.log_on {
            return self.start_action_logged(p, i);
        }
        self.action_frame(p, i);
    }

    /// The frame of option `i`'s action, its parameters set; returns the
    /// action.
    fn action_frame(&mut self, p: Val, i: usize) -> u16 {
        let a = super::option_group(&self.st.opt_groups, i).action;
        if let Some(cov) = self.st.coverage.as_deref_mut() {
            cov.taken[a as usize] += 1;
        }
        let ad = &self.g.actions[a as usize];
        let base = self.push_call(ad.body, ad.nlocals);
        self.set_local(0, p);
        self.restore_areas(a);
        // The values go straight into the new frame, without a list
        // (measured on connect four: 124 instructions a decision).
        let st = &mut *self.st;
        let g = super::option_group(&st.opt_groups, i);
        super::option_values(g, &st.opt_vals, i, |k, v| {
            st.locals[base + ad.params[k].slot as usize] = v
        });
        a
    }

    /// [`Exec::start_action`] with the log on: the chosen option is logged
    /// as the deciding player saw it.
    #[inline(never)]
    fn start_action_logged(&mut self, p: Val, i: usize) {
        let label = super::view::option_label_raw(self.g, self.st, i, p as usize);
        let a = self.action_frame(p, i);
        let seat = &self.g.seats[p as usize];
        self.st.log.push(format!("{seat}: {label}"));
        if self.st.seat_logs {
            let (_, vals) = super::option_tuple(self.st, i);
            self.seat_act_line(p, a, &vals);
        }
    }
}
