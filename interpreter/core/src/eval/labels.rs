//! Equal labels: never two options of one decision that read the same.
//!
//! A record, a script and a person name an option by its label, so two
//! options with one label would make a decision ambiguous. An action
//! written `merge` says that its options that the deciding seat reads alike
//! are one move: the first of them (in the usual order) is offered, always,
//! so that every bot and every record sees the same list. Any other pair of
//! options with one label is refused with a run-time error naming both.
//! Labels are written only where a match keeps its log (`play`, `replay`,
//! `trace`, scenarios): that is where the refusal is checked, so playouts
//! that write no label pay nothing for it.

use super::expr::{Exec, R};
use super::option_tuple;
use super::view::Viewer;
use super::{RunError, RunErrorKind};
use crate::diag::Span;
use crate::ir::*;
use std::collections::HashMap;

impl Exec<'_> {
    /// Offers once each label of the options of actions written `merge`
    /// (per action) for seat `p`.
    #[inline(never)]
    pub(crate) fn merge_labels(&mut self, p: Val) {
        let viewer = Viewer::Seat(p as usize);
        let mut keep = vec![true; self.st.opt_count as usize];
        let mut seen: std::collections::HashSet<(u16, String)> = Default::default();
        let mut dropped = false;
        for gi in 0..self.st.opt_groups.len() {
            let grp = &self.st.opt_groups[gi];
            let (a, first, count) = (grp.action, grp.first as usize, grp.count as usize);
            if !self.g.actions[a as usize].merge_labels {
                continue;
            }
            for (i, k) in keep.iter_mut().enumerate().skip(first).take(count) {
                let (_, vals) = option_tuple(self.st, i);
                let label = self.action_label(a, &vals, p, viewer);
                if !seen.insert((a, label)) {
                    *k = false;
                    dropped = true;
                }
            }
        }
        if dropped {
            self.keep_options(&keep);
        }
    }

    /// Refuses two options of the pending `act` of seat `p` that read alike.
    #[inline(never)]
    pub(crate) fn distinct_action_labels(&mut self, p: Val, span: Span) -> R<()> {
        let viewer = Viewer::Seat(p as usize);
        let mut seen: HashMap<String, usize> = HashMap::new();
        for i in 0..self.st.opt_count as usize {
            let (a, vals) = option_tuple(self.st, i);
            let label = self.action_label(a, &vals, p, viewer);
            if let Some(&j) = seen.get(&label) {
                let (b, first) = option_tuple(self.st, j);
                let first = self.option_call(b, &first, viewer);
                let second = self.option_call(a, &vals, viewer);
                return Err(equal_labels(label, first, second, true, span));
            }
            seen.insert(label, i);
        }
        Ok(())
    }

    /// Refuses two values of the pending `choose` of seat `p` that read alike.
    #[inline(never)]
    pub(crate) fn distinct_choice_labels(
        &mut self,
        p: Val,
        slot: u16,
        label: Option<u32>,
        ty: Ty,
        span: Span,
    ) -> R<()> {
        let viewer = Viewer::Seat(p as usize);
        let mut seen: HashMap<String, Val> = HashMap::new();
        for i in 0..self.st.opt_count as usize {
            let v = self.st.opt_vals[i];
            let text = self.choice_text(slot, label, ty, v, viewer, span);
            if let Some(&u) = seen.get(&text) {
                let first = format!("`{}`", self.display(ty, u, viewer));
                let second = format!("`{}`", self.display(ty, v, viewer));
                return Err(equal_labels(text, first, second, false, span));
            }
            seen.insert(text, v);
        }
        Ok(())
    }

    /// An option as a call: `use_both(k = 1)`.
    fn option_call(&mut self, a: u16, vals: &[Val], viewer: Viewer) -> String {
        let g = self.g;
        let ad = &g.actions[a as usize];
        let args: Vec<String> = ad
            .params
            .iter()
            .zip(vals)
            .map(|(prm, &v)| format!("{} = {}", prm.name, self.display(prm.ty, v, viewer)))
            .collect();
        format!("`{}({})`", ad.name, args.join(", "))
    }
}

#[cold]
fn equal_labels(
    label: String,
    first: String,
    second: String,
    act: bool,
    span: Span,
) -> Box<RunError> {
    RunError::at(
        RunErrorKind::EqualLabels {
            label: crate::diag::echo(&label).into(),
            first: first.into(),
            second: second.into(),
            act,
        },
        span,
    )
}
