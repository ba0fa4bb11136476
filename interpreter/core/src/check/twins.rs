//! Interchangeable pieces, found once at check time so that equal options
//! can be merged at run time without cost for games that have none.
//!
//! Two pieces are *twins* when they are of the same kind, have the same
//! owner and the same value in every field: nothing but their identity tells
//! them apart. Options that differ only in twins lying in the same zone with
//! the same visibility, and that read the same, are one move
//! (`eval/merge.rs`). An action may offer such options only if one of its
//! parameters is a piece of a kind that has twins: that is `ActionDecl::merge`.

use crate::ir::*;

/// Fills `Game::piece_class` and `Game::kind_twins`, and marks the actions
/// whose options may need merging.
pub(super) fn mark(g: &mut Game) {
    let n = g.piece_kind.len();
    let mut first: std::collections::HashMap<(u16, i8, Vec<Val>), u32> =
        std::collections::HashMap::new();
    g.piece_class = Vec::with_capacity(n);
    g.kind_twins = vec![false; g.kinds.len()];
    for p in 0..n {
        let k = g.piece_kind[p];
        let fields = g.kinds[k as usize]
            .fields
            .iter()
            .map(|(_, _, fid)| g.fields[*fid as usize][p])
            .collect();
        let class = *first
            .entry((k, g.piece_owner[p], fields))
            .or_insert(p as u32);
        if class != p as u32 {
            g.kind_twins[k as usize] = true;
        }
        g.piece_class.push(class);
    }
    let twins = g.kind_twins.clone();
    for a in &mut g.actions {
        a.merge = a.params.iter().any(|prm| may_twin(&twins, prm.ty));
    }
}
