//! An action's lister: the options of an action whose parameters depend on
//! each other (`action step(src in nodes where mine(actor, it), dst in
//! neighbors(src))`), listed by one program instead of a recursion in the
//! executor that calls a program per domain and per requirement.
//!
//! The program does what `eval/options.rs` does, in the same order, so
//! that the same options come out and every requirement is tested on the
//! same values (and fails with the same error) as there:
//!
//! 1. the domains that read no other parameter are listed once, in order,
//!    below everything else;
//! 2. then nested loops, one per parameter: a domain that reads an earlier
//!    parameter is listed afresh for each value of it, a domain listed once
//!    is walked again (and charged again: each element visited is work);
//! 3. after binding a parameter, the requirements whose last parameter it is
//!    are tested in their order, the first false one skipping the value;
//! 4. the innermost loop appends the tuple to the option buffer
//!    ([`BOp::Emit`]); the program returns how many it appended. When its
//!    domain is listed afresh and no requirement is tested in it, it walks
//!    the domain where it lies and appends as it goes (`innermost_walked`).
//!
//! Requirements that read no parameter are tested before, by the executor.

use super::comp::Comp;
use super::Inlinable;
use crate::ir::*;

/// The local an action's actor is bound to: the first it binds.
const ACTOR: u16 = 0;

/// The lister of `ad` (its parameters and requirements as trees, before
/// they are compiled one by one), with temporaries from `temps`; the
/// highest register it uses, or `None` where it cannot be compiled.
pub(super) fn compile(
    g: &Game,
    inl: &Inlinable,
    ad: &ActionDecl,
    temps: u32,
    base_id: u32,
    out: &mut Vec<Program>,
) -> Option<u32> {
    let mut comp = Comp::new(g, inl, temps, base_id);
    // The actor (the first local an action binds, `check/stmt.rs`) is a
    // seat, and a parameter drawn from a collection that never holds
    // `none` is never `none` either: values read from them cannot fail
    // for that reason (`hoist.rs`).
    comp.sure_locals.push(ACTOR);
    for p in &ad.params {
        if crate::opt::consts::never_none(&p.domain) {
            comp.sure_locals.push(p.slot);
        }
    }
    let count = comp.temp();
    comp.emit(BOp::Const { d: count, v: 0 });
    // Domains listed once: the registers holding where each one starts and ends.
    let mut once: Vec<Option<(Reg, Reg)>> = vec![];
    for prm in &ad.params {
        once.push((prm.deps == 0).then(|| listed(&mut comp, &prm.domain)));
    }
    let args = comp.p.regs.len() as u32;
    let slots: Vec<Reg> = ad.params.iter().map(|p| comp.loc(p.slot)).collect();
    comp.p.regs.extend(&slots);
    level(&mut comp, ad, 0, &once, count, args);
    comp.emit(BOp::Ret { s: count });
    comp.finish(Expr::Const(0), out)
}

/// Lists `c` above the scratch stack's top: the registers holding the index
/// of its first element and the index past its last.
fn listed(comp: &mut Comp, c: &Coll) -> (Reg, Reg) {
    let m = comp.temp();
    comp.emit(BOp::Mark { d: m });
    comp.coll(c, m, CALLER_SPAN);
    let end = comp.temp();
    comp.emit(BOp::Mark { d: end });
    (m, end)
}

/// The loop over parameter `i` and everything inside it.
fn level(
    comp: &mut Comp,
    ad: &ActionDecl,
    i: usize,
    once: &[Option<(Reg, Reg)>],
    count: Reg,
    args: u32,
) {
    if i == ad.params.len() {
        comp.emit(BOp::Emit {
            d: count,
            args,
            n: ad.params.len() as u16,
        });
        return;
    }
    let prm = &ad.params[i];
    if i + 1 == ad.params.len() && once[i].is_none() && !tested(ad, i) {
        let walks = super::colls::walks_kept(&prm.domain);
        if walks || super::colls::walks(&prm.domain) {
            innermost_walked(comp, ad, i, count, args, walks);
            return;
        }
    }
    if once[i].is_none() && skips_to(ad, i, once).is_none() {
        if let Some(what) = super::colls::walk(&prm.domain) {
            return walked(comp, ad, i, what, once, count, args);
        }
    }
    let (m, end) = match once[i] {
        Some((m, end)) => {
            comp.emit(BOp::ChargeRange {
                a: m,
                b: end,
                sp: CALLER_SPAN,
            });
            (m, end)
        }
        None => listed(comp, &prm.domain),
    };
    let skip = skips_to(ad, i, once)
        .filter(|d| !comp.skips_nothing(&prm.domain, d, prm.slot))
        .and_then(|d| comp.lead_skip(d, prm.slot, CALLER_SPAN));
    comp.param_loop_enter(ad, i);
    let at = comp.temp();
    comp.emit(BOp::Mov { d: at, s: m });
    let top = comp.here();
    let slot = comp.loc(prm.slot);
    let next = comp.emit(match skip {
        Some((who, skip)) => BOp::NextLead {
            i: at,
            end,
            slot,
            who,
            skip,
            exit: 0,
        },
        None => BOp::Next {
            i: at,
            end,
            slot,
            exit: 0,
        },
    });
    let facts = comp.with_facts(&prm.domain, slot);
    each(comp, ad, i, (top, next), once, count, args);
    comp.facts.truncate(facts);
    if once[i].is_none() {
        comp.emit(BOp::Truncate { m });
    }
}

/// The loop over parameter `i` whose domain is listed afresh for each
/// value of the parameters before it and can be read where it lies (a
/// zone, all nodes, a node's neighbours, a range: `dst in neighbors(src)`):
/// it walks the domain in place (`BOp::IterInit` and the walk's step)
/// instead of listing it on the scratch stack and walking the list. The
/// walk charges the domain's length when it starts, as listing charged it,
/// and meets the same errors (the zone or the node of `none`, a range too
/// long) in the same place; the elements come in the same order.
fn walked(
    comp: &mut Comp,
    ad: &ActionDecl,
    i: usize,
    what: super::colls::Walk,
    once: &[Option<(Reg, Reg)>],
    count: Reg,
    args: u32,
) {
    let prm = &ad.params[i];
    let spare = comp.temp();
    let (src, at, end) = comp.iter_init(&prm.domain, what, spare, CALLER_SPAN);
    comp.param_loop_enter(ad, i);
    let top = comp.here();
    let slot = comp.loc(prm.slot);
    let next = comp.iter_next(what, src, at, end, slot);
    each(comp, ad, i, (top, next), once, count, args);
}

/// What the loop over parameter `i` does with each value, from its step
/// (`next`, at `top`) on: the requirements whose last parameter is `i`,
/// each tested once it is bound (the first false one goes back to `top`),
/// then the loops inside; and the loop's end.
fn each(
    comp: &mut Comp,
    ad: &ActionDecl,
    i: usize,
    (top, next): (u32, usize),
    once: &[Option<(Reg, Reg)>],
    count: Reg,
    args: u32,
) {
    comp.loop_live();
    for (e, mask, s) in &ad.pre {
        if last_read(*mask) == Some(i) {
            let sp = comp.span(*s);
            for j in comp.branch(e, false, sp) {
                comp.patch_to(j, top);
            }
        }
    }
    level(comp, ad, i + 1, once, count, args);
    comp.emit(BOp::Jump { to: top });
    comp.patch(next);
    comp.loop_exit();
}

/// The domain of the parameter after `i` when the loop over `i` may skip
/// the values for which it is empty ([`BOp::NextLead`]): that parameter is
/// the innermost, walked where it lies (`innermost_walked`), and no
/// requirement is tested after binding `i`. Then an element whose inner
/// walk finds nothing costs only that walk, which the skip charges, and
/// appends nothing: the same steps, the same options.
fn skips_to<'d>(ad: &'d ActionDecl, i: usize, once: &[Option<(Reg, Reg)>]) -> Option<&'d Coll> {
    let inner = ad.params.get(i + 1)?;
    let walked = i + 2 == ad.params.len()
        && once[i + 1].is_none()
        && !tested(ad, i + 1)
        && super::colls::walks_kept(&inner.domain);
    (walked && !tested(ad, i)).then_some(&inner.domain)
}

/// Whether a requirement is tested after binding parameter `i`.
fn tested(ad: &ActionDecl, i: usize) -> bool {
    ad.pre
        .iter()
        .any(|(_, mask, _)| last_read(*mask) == Some(i))
}

/// The innermost loop, over a domain listed afresh that no requirement
/// tests, emits each element as it walks the domain where it lies, rather
/// than listing it and walking the list (step 2 above). Nothing between
/// the listing and the walk could tell the two apart: the walk charges
/// nothing and tests nothing, and appending a tuple charges nothing and
/// cannot fail. So the same steps are charged in the same order (the
/// count of what a filter keeps, which its listing charges last, is
/// charged after the walk: the tuples it appended) and the same tuples come
/// out; a listing that fails part way has appended some of its tuples, but
/// an error ends the listing and its tuples are never read.
fn innermost_walked(comp: &mut Comp, ad: &ActionDecl, i: usize, count: Reg, args: u32, kept: bool) {
    let before = comp.temp();
    comp.emit(BOp::Mov {
        d: before,
        s: count,
    });
    let slot = comp.loc(ad.params[i].slot);
    let spare = comp.temp();
    let n = ad.params.len() as u16;
    let mut each = |comp: &mut Comp, s: Reg| {
        if s != slot {
            comp.emit(BOp::Mov { d: slot, s });
        }
        comp.emit(BOp::Emit { d: count, args, n });
    };
    if kept {
        comp.walk_kept(&ad.params[i].domain, spare, CALLER_SPAN, &mut each);
        comp.emit(BOp::ChargeRange {
            a: before,
            b: count,
            sp: CALLER_SPAN,
        });
    } else {
        comp.walk_all(&ad.params[i].domain, spare, CALLER_SPAN, &mut each);
    }
}
