//! The declared displays (`display "actions left"(p) = …`) as one viewer may
//! read them: each value evaluated under that viewer's guard, so that a value
//! read from a piece the viewer may not see shows as `hidden` (the rule of
//! `eval/view.rs`).

use super::expr::Exec;
use super::view::Viewer;
use crate::ir::Val;

/// One declared display as a viewer reads it: its text and one value (for
/// the game) or one per seat in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub text: String,
    pub per_player: bool,
    pub values: Vec<String>,
}

impl<'a> Exec<'a> {
    /// Every declared display for `who`, in declaration order.
    pub(crate) fn displays(&mut self, who: Viewer) -> Vec<Shown> {
        let g = self.g;
        let n = self.st.nplayers as Val;
        let mut out = Vec::with_capacity(g.present.displays.len());
        for d in &g.present.displays {
            let seats = if d.per_player { 0..n } else { 0..1 };
            let mut values = vec![];
            for p in seats {
                let saved = (self.st.guard, self.st.peeked);
                self.st.guard = (who != Viewer::All).then_some(who);
                self.st.peeked = false;
                let v = self.with_player(&d.expr, d.nlocals, p, d.span);
                let peeked = self.st.peeked;
                (self.st.guard, self.st.peeked) = saved;
                values.push(match v {
                    Ok(_) if peeked => "hidden".to_string(),
                    Ok(v) => self.display(d.ty, v, who),
                    Err(e) => format!("<{}>", e.message),
                });
            }
            out.push(Shown {
                text: d.text.clone(),
                per_player: d.per_player,
                values,
            });
        }
        out
    }
}
