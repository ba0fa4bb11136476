//! What drawing options needs (`eval/sample.rs`), prepared once: each
//! parameter's domain split into its base and its `where` filters, the
//! filters compiled ([`ActionParam::draw`]), and whether and how an action's
//! options can be drawn ([`ActionDecl::draw`]).

use crate::ir::*;

/// Domain `c` as options are drawn from it: its base and its `where`
/// filters, innermost first; `None` for `subsets(…)`.
pub(super) fn form(c: &Coll) -> Option<(Coll, Vec<(u16, Expr)>)> {
    match c {
        Coll::Filter(inner, slot, cond) => {
            let (base, mut filters) = form(inner)?;
            filters.push((*slot, cond.clone()));
            Some((base, filters))
        }
        Coll::Subsets { .. } | Coll::Subset(..) => None,
        _ => Some((c.clone(), vec![])),
    }
}

/// How `ad`'s options are drawn, once its parameters have their draw
/// forms; `None` where they must be listed: `subsets(…)` or a written
/// `merge`, more than two parameters of which one reads another, or twins
/// that listing would merge in a parameter other than the last (or in a
/// last one not drawn from a zone, which could hold a piece twice).
pub(super) fn plan(g: &Game, ad: &ActionDecl) -> Option<DrawPlan> {
    if ad.merge_labels || !ad.areas.is_empty() {
        return None;
    }
    let bases: Vec<&Coll> = ad
        .params
        .iter()
        .map(|prm| prm.draw.as_ref().map(|d| &d.0))
        .collect::<Option<_>>()?;
    let nested = ad.params.iter().any(|prm| prm.deps != 0);
    if nested && ad.params.len() != 2 {
        return None;
    }
    let n = ad.params.len();
    let may = |i: usize| may_twin(&g.kind_twins, ad.params[i].ty);
    let twins = ad.merge && (0..n).any(may);
    if twins {
        let last_only = may(n - 1) && (0..n - 1).all(|i| !may(i));
        if !last_only || !matches!(bases[n - 1], Coll::Zone(_)) {
            return None;
        }
    }
    let every = |c: &Coll| matches!(c, Coll::Nodes | Coll::Edges | Coll::Players);
    let in_place = if nested { in_place(ad, &bases) } else { None };
    let counted = (0..n)
        .filter(|&i| match nested {
            false => every(bases[i]) || matches!(bases[i], Coll::Range(..)),
            // Its sums are then the zones' starts, one zone per value: so
            // only where every value of the base has its zone of the family.
            true => i == 0 && in_place.is_some_and(|p| p.in_range) && every(bases[i]),
        })
        .fold(0u32, |m, i| m | 1 << i);
    Some(DrawPlan {
        nested,
        twins,
        counted,
        in_place,
    })
}

/// Whether a nested plan's second base is the zone of the first parameter's
/// value (`r in edges, w in r.posts`), so that drawing reads its lengths and
/// elements in the arena ([`InPlace`]).
fn in_place(ad: &ActionDecl, bases: &[&Coll]) -> Option<InPlace> {
    let Coll::Zone(z) = bases[1] else {
        return None;
    };
    let (e, dim) = match &z.index {
        ZIndex::Node(e) => (e, ZDim::Node),
        ZIndex::Edge(e) => (e, ZDim::Edge),
        ZIndex::Player(e) => (e, ZDim::Player),
        _ => return None,
    };
    if !matches!(**e, Expr::Local(s) if s == ad.params[0].slot) {
        return None;
    }
    let in_range = matches!(
        (bases[0], dim),
        (Coll::Nodes, ZDim::Node)
            | (Coll::Edges, ZDim::Edge)
            | (Coll::Players, ZDim::Player)
            | (Coll::WhereZones(Elems::Nodes, _), ZDim::Node)
            | (Coll::WhereZones(Elems::Edges, _), ZDim::Edge)
            | (
                Coll::ZonesOwned {
                    on: Elems::Nodes,
                    ..
                },
                ZDim::Node
            )
            | (
                Coll::ZonesOwned {
                    on: Elems::Edges,
                    ..
                },
                ZDim::Edge
            )
    );
    Some(InPlace {
        zone: z.base,
        dim,
        in_range,
    })
}
