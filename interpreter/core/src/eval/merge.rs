//! Identical options merged: options that are the same move are offered once.
//!
//! Two options of a decision are the same move when they are of the same
//! action (or answer the same `choose`), their values are equal except for
//! pieces that are twins (same kind, owner and fields: `check/twins.rs`)
//! lying in the same zone with the same visibility, and the deciding seat
//! reads the same label for both. The first of them in the usual order is
//! kept. Only actions marked at check time (`ActionDecl::merge`) and choices
//! among pieces of a kind with twins come here, so games without twins pay
//! nothing.

use super::expr::Exec;
use super::view::Viewer;
use super::{option_tuple, OptGroup};
use crate::diag::Span;
use crate::ir::*;
use smallvec::SmallVec;
use std::collections::HashMap;

/// What an option is up to twins: a twin piece is written as its class, its
/// zone and whether it is revealed (which, with the zone, is its visibility).
type Key = SmallVec<[Val; 8]>;

/// Options with one key, each with its label once it has been needed.
type Seen<T> = HashMap<Key, SmallVec<[(T, Option<String>); 2]>>;

impl<'a> Exec<'a> {
    fn push_key(&self, key: &mut Key, ty: Ty, v: Val) {
        if v >= 0 && crate::ir::may_twin(&self.g.kind_twins, ty) {
            let p = v as usize;
            key.extend_from_slice(&[
                self.g.piece_class[p] as Val,
                self.st.zones.zone_of[p] as Val,
                self.st.revealed[p] as Val,
            ]);
        } else {
            key.push(v);
        }
    }

    /// Merges the listed options of an `act` for seat `p` (some action has `merge`).
    // Kept out of line: the enumeration that calls it stays as it was.
    #[inline(never)]
    pub(crate) fn merge_actions(&mut self, p: Val) {
        let viewer = Viewer::Seat(p as usize);
        let with_twins: SmallVec<[usize; 4]> = (0..self.st.opt_groups.len())
            .filter(|&gi| self.group_has_twins(gi))
            .collect();
        if with_twins.is_empty() {
            return;
        }
        let mut seen: Seen<u32> = HashMap::new();
        let mut keep = vec![true; self.st.opt_count as usize];
        let mut dropped = false;
        for gi in with_twins {
            let (a, first, count) = {
                let grp = &self.st.opt_groups[gi];
                (grp.action, grp.first as usize, grp.count as usize)
            };
            let ad = &self.g.actions[a as usize];
            // `i` is the option's index in the match's option list: it reads
            // the option's values as well as indexing `keep`.
            #[allow(clippy::needless_range_loop)]
            for i in first..first + count {
                let (_, vals) = option_tuple(self.st, i);
                let mut key: Key = SmallVec::new();
                key.push(a as Val);
                for (prm, &v) in ad.params.iter().zip(&vals) {
                    self.push_key(&mut key, prm.ty, v);
                }
                let same = seen.entry(key).or_default();
                if same.is_empty() {
                    same.push((i as u32, None));
                    continue;
                }
                let label = self.action_label(a, &vals, p, viewer);
                let mut twin = false;
                for (j, l) in same.iter_mut() {
                    let lj = l.get_or_insert_with(|| {
                        let (_, vj) = option_tuple(self.st, *j as usize);
                        self.action_label(a, &vj, p, viewer)
                    });
                    if *lj == label {
                        twin = true;
                        break;
                    }
                }
                if twin {
                    keep[i] = false;
                    dropped = true;
                } else {
                    same.push((i as u32, Some(label)));
                }
            }
        }
        if dropped {
            self.keep_options(&keep);
        }
    }

    /// Whether some parameter of option group `gi` takes two different
    /// values that are twins in one zone: the cheap test that spares the
    /// rest of the work in the usual case, where a domain holds no twins.
    fn group_has_twins(&self, gi: usize) -> bool {
        let grp = &self.st.opt_groups[gi];
        let ad = &self.g.actions[grp.action as usize];
        if !ad.searches_twins() {
            return false;
        }
        let arity = ad.params.len();
        for (d, prm) in ad.params.iter().enumerate() {
            if !crate::ir::may_twin(&self.g.kind_twins, prm.ty) {
                continue;
            }
            // The parameter's values: a slice of a product's domain, or every
            // `arity`-th value of the listed tuples.
            let (at, len, step) = match grp.tuples {
                Some((at, _)) => (at as usize + d, grp.count as usize, arity),
                None => (grp.dims[d].0 as usize, grp.dims[d].1 as usize, 1),
            };
            if self.column_has_twins(at, len, step) {
                return true;
            }
        }
        false
    }

    /// Whether the `len` values at `at`, `at + step`, … (pieces or `none`)
    /// hold two different pieces that are twins in one zone, equally visible.
    fn column_has_twins(&self, at: usize, len: usize, step: usize) -> bool {
        let mut seen: SmallVec<[(u32, u32, Val); 16]> = SmallVec::new();
        // A bit per hash of (class, zone) seen: a piece whose bit is clear
        // has no twin among those seen, nor is it one of them, so neither
        // list walk is needed (Hansa Teutonica's pieces lie in many zones).
        let mut bits: u64 = 0;
        let mut last = Val::MIN;
        for k in 0..len {
            let v = self.st.opt_vals[at + k * step];
            // Listed tuples repeat a value in runs: look at each run once.
            if v < 0 || v == last {
                continue;
            }
            last = v;
            let p = v as usize;
            let (c, z) = (self.g.piece_class[p], self.st.zones.zone_of[p]);
            let h = ((c as u64) << 32 | z as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let bit = 1u64 << (h >> 58);
            if bits & bit == 0 {
                bits |= bit;
                seen.push((c, z, v));
                continue;
            }
            for &(c2, z2, u) in &seen {
                if c2 == c
                    && z2 == z
                    && u != v
                    && self.st.revealed[u as usize] == self.st.revealed[p]
                {
                    return true;
                }
            }
            if !seen.iter().any(|s| s.2 == v) {
                seen.push((c, z, v));
            }
        }
        false
    }

    /// Keeps only the options marked in `keep`: a group that loses options is
    /// listed again as tuples after the values already there.
    pub(super) fn keep_options(&mut self, keep: &[bool]) {
        let mut groups = Vec::with_capacity(self.st.opt_groups.len());
        let mut first = 0u32;
        for grp in &self.st.opt_groups {
            let (f, c) = (grp.first as usize, grp.count as usize);
            let kept = keep[f..f + c].iter().filter(|&&k| k).count() as u32;
            if kept == c as u32 {
                groups.push(OptGroup {
                    first,
                    ..grp.clone()
                });
            } else {
                let at = self.st.opt_vals.len() as u32;
                let arity = self.g.actions[grp.action as usize].params.len() as u16;
                for i in (f..f + c).filter(|&i| keep[i]) {
                    let (_, vals) = option_tuple(self.st, i);
                    self.st.opt_vals.extend_from_slice(&vals);
                }
                groups.push(OptGroup {
                    action: grp.action,
                    first,
                    count: kept,
                    dims: Default::default(),
                    tuples: Some((at, arity)),
                });
            }
            first += kept;
        }
        self.st.opt_groups = groups;
        self.st.opt_count = first;
    }

    /// Merges the values listed for a `choose` of seat `p` whose type may hold
    /// twins; `slot` is the chosen value's local, which its label reads.
    #[inline(never)]
    pub(crate) fn merge_choice(
        &mut self,
        p: Val,
        slot: u16,
        label: Option<u32>,
        ty: Ty,
        span: Span,
    ) {
        let n = self.st.opt_count as usize;
        if !self.column_has_twins(0, n, 1) {
            return;
        }
        let viewer = Viewer::Seat(p as usize);
        let mut seen: Seen<Val> = HashMap::new();
        let mut w = 0;
        for i in 0..n {
            let v = self.st.opt_vals[i];
            let mut key: Key = SmallVec::new();
            self.push_key(&mut key, ty, v);
            let same = seen.entry(key).or_default();
            let mut twin = false;
            if !same.is_empty() {
                let text = self.choice_text(slot, label, ty, v, viewer, span);
                for (u, l) in same.iter_mut() {
                    let lu = l
                        .get_or_insert_with(|| self.choice_text(slot, label, ty, *u, viewer, span));
                    if *lu == text {
                        twin = true;
                        break;
                    }
                }
                if !twin {
                    same.push((v, Some(text)));
                }
            } else {
                same.push((v, None));
            }
            if !twin {
                self.st.opt_vals[w] = v;
                w += 1;
            }
        }
        self.st.opt_vals.truncate(w);
        self.st.opt_count = w as u32;
        if let Some(grp) = self.st.opt_groups.first_mut() {
            grp.count = w as u32;
        }
    }

    /// The label of value `v` of a `choose`, as `viewer` reads it.
    pub(super) fn choice_text(
        &mut self,
        slot: u16,
        label: Option<u32>,
        ty: Ty,
        v: Val,
        viewer: Viewer,
        span: Span,
    ) -> String {
        match label {
            Some(t) => {
                let at = self.base + slot as usize;
                let old = std::mem::replace(&mut self.st.locals[at], v);
                let s = self
                    .format_template(t, Some(viewer), span)
                    .unwrap_or_else(|e| format!("<{}>", e.message));
                self.st.locals[at] = old;
                s
            }
            None => self.display(ty, v, viewer),
        }
    }
}
