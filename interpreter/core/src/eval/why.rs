//! Why is this illegal? Given the pending `act` decision and a label that is
//! not among its options, find the rule that forbids it: the action instance
//! the label names (its parameters' domains are searched without their
//! `where` filters and without the action's `require`s, each candidate's
//! label is rendered and compared), then the first thing that rules it out —
//! a parameter value outside its domain, or the first leading `require` that
//! is false, with the values of its comparison's two sides. The answer
//! tells the deciding seat nothing it may not see: a `where` or `require`
//! made false by hidden pieces is not named (see [`seen`]).
//!
//! Entry point: [`why_illegal`]. It works on a copy of the state and runs only
//! when asked, so the normal enumeration of options pays nothing for it.

use super::expr::{Exec, R};
use super::view::Viewer;
use super::{Match, OptGroup, PendingKind, State};
use crate::ast::BinOp;
use crate::diag::{Sources, Span};
use crate::ir::*;

/// At most this many candidate instances are labelled before the search gives up.
const MAX_CANDIDATES: usize = 100_000;

/// Why a label is not a legal option now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    /// One sentence, e.g. "`require money >= 1` failed: `money` is 0".
    pub message: String,
    /// The rule to point at: the failing `require`, or the action.
    pub span: Option<Span>,
}

/// Why `label` is not a legal option of the pending decision, when the
/// decision is an `act` (`None` for a `choose`, or when the label is legal).
/// `sources` gives the rules' text, quoted in the answer.
pub fn why_illegal(m: &Match, label: &str, sources: &Sources) -> Option<Why> {
    let p = m.state.pending.as_ref()?;
    let PendingKind::Act { block, pc } = p.kind else {
        return None;
    };
    let g = &*m.game;
    let Op::Act { actions, .. } = &g.code[block as usize][pc as usize].op else {
        return None;
    };
    let actor = p.player as Val;
    let mut st = m.state.clone();
    st.budget = u64::MAX;
    let mut labels = m.state.clone();
    let mut search = Search {
        g,
        actor,
        label,
        labels: &mut labels,
        tried: 0,
    };
    for &a in actions {
        if let Some(found) = search.action(&mut st, a) {
            return Some(explain(g, &mut st, a, actor, &found, sources));
        }
    }
    Some(no_match(g, actions, label))
}

/// The answer when no instance of the offered actions has this label.
fn no_match(g: &Game, actions: &[u16], label: &str) -> Why {
    let offered: Vec<String> = actions
        .iter()
        .map(|&a| format!("`{}`", g.actions[a as usize].name))
        .collect();
    let word = crate::diag::echo(label.split_whitespace().next().unwrap_or(""));
    let label = crate::diag::echo(label);
    let named = g.actions.iter().position(|a| a.name == *word);
    let message = match named {
        Some(a) if actions.contains(&(a as u16)) => {
            format!("no instance of action `{word}` is labelled `{label}`: a parameter value is not in its domain, or the words differ (this decision offers {})", offered.join(", "))
        }
        Some(_) => format!(
            "no action `{word}` here: this decision offers only {}",
            offered.join(", ")
        ),
        None => format!(
            "no action `{word}` here: this decision offers {}",
            offered.join(", ")
        ),
    };
    Why {
        message,
        span: named.map(|a| g.actions[a].span),
    }
}

/// An action instance whose label is the one asked about.
struct Found {
    vals: Vec<Val>,
    /// The first parameter whose value lies outside its (filtered) domain,
    /// and whether that domain's `where` read what the seat may not see.
    outside: Option<(usize, bool)>,
}

struct Search<'a> {
    g: &'a Game,
    actor: Val,
    label: &'a str,
    /// A second copy of the state, whose option buffers hold one candidate
    /// while its label is rendered.
    labels: &'a mut State,
    tried: usize,
}

impl Search<'_> {
    /// Searches the instances of action `a` for the label.
    fn action(&mut self, st: &mut State, a: u16) -> Option<Found> {
        let ad = &self.g.actions[a as usize];
        let base = st.locals.len();
        st.locals.resize(base + ad.nlocals as usize, 0);
        st.locals[base] = self.actor;
        let mut cx = Exec {
            g: self.g,
            st,
            base,
        };
        let mut vals = vec![];
        let mut outside = None;
        let r = self.params(&mut cx, a, 0, &mut vals, &mut outside);
        cx.st.locals.truncate(base);
        r
    }

    fn params(
        &mut self,
        cx: &mut Exec,
        a: u16,
        i: usize,
        vals: &mut Vec<Val>,
        outside: &mut Option<(usize, bool)>,
    ) -> Option<Found> {
        let ad = &self.g.actions[a as usize];
        if i == ad.params.len() {
            self.tried += 1;
            return (self.render(a, vals) == self.label).then(|| Found {
                vals: vals.clone(),
                outside: *outside,
            });
        }
        if self.tried >= MAX_CANDIDATES {
            return None;
        }
        let prm = &ad.params[i];
        let wide = elements(cx, unfiltered(cx.g, &prm.domain))?;
        let (legal, peeked) = guarded(cx, self.actor, |cx| elements(cx, &prm.domain));
        let legal = legal?;
        for v in wide {
            cx.set_local(prm.slot, v);
            vals.push(v);
            let was = *outside;
            if was.is_none() && !legal.contains(&v) {
                *outside = Some((i, peeked));
            }
            let r = self.params(cx, a, i + 1, vals, outside);
            *outside = was;
            vals.pop();
            if r.is_some() {
                return r;
            }
        }
        None
    }

    /// The label of one instance, as the deciding seat would see it offered.
    fn render(&mut self, a: u16, vals: &[Val]) -> String {
        let st = &mut *self.labels;
        st.opt_vals.clear();
        st.opt_vals.extend_from_slice(vals);
        st.opt_groups.clear();
        st.opt_groups.push(OptGroup {
            action: a,
            first: 0,
            count: 1,
            dims: Default::default(),
            tuples: Some((0, vals.len() as u16)),
        });
        st.opt_count = 1;
        super::view::option_label_raw(self.g, st, 0, self.actor as usize)
    }
}

/// The elements of a collection (`None` if the rules fail on it).
fn elements(cx: &mut Exec, c: &Coll) -> Option<Vec<Val>> {
    let mark = cx.st.scratch.len();
    let r = cx.coll(c, Span::default());
    let out = cx.st.scratch[mark..].to_vec();
    cx.st.scratch.truncate(mark);
    r.ok().map(|_| out)
}

/// A domain without its `where` filters: what a label may name.
fn unfiltered<'g>(g: &'g Game, c: &'g Coll) -> &'g Coll {
    match c {
        Coll::Code(id) => match g.programs[*id as usize].listed() {
            Some(c) => unfiltered(g, c),
            None => c,
        },
        Coll::Filter(inner, ..) => unfiltered(g, inner),
        Coll::NodesWithAttr(..) | Coll::WhereZones(Elems::Nodes, _) => &Coll::Nodes,
        Coll::WhereZones(Elems::Edges, _) => &Coll::Edges,
        Coll::ZonesOwned {
            on: Elems::Nodes, ..
        } => &Coll::Nodes,
        Coll::ZonesOwned {
            on: Elems::Edges, ..
        } => &Coll::Edges,
        _ => c,
    }
}

/// Why the instance found is not offered.
fn explain(g: &Game, st: &mut State, a: u16, actor: Val, found: &Found, sources: &Sources) -> Why {
    let ad = &g.actions[a as usize];
    let shown = |st: &mut State, k: usize| {
        let prm = &ad.params[k];
        let viewer = Viewer::Seat(actor as usize);
        let Some(area) = prm.domain.subsets_area(&g.programs) else {
            let mut cx = Exec { g, st, base: 0 };
            return cx.display(prm.ty, found.vals[k], viewer);
        };
        // A subset is read in a frame of the action, its areas restored.
        let base = st.locals.len();
        st.locals.resize(base + ad.nlocals as usize, 0);
        let mut cx = Exec { g, st, base };
        cx.restore_areas(a);
        let s = cx.display_set(prm.ty, found.vals[k], area, viewer);
        cx.st.locals.truncate(base);
        s
    };
    // A `where` that read hidden things is not named: the requires are
    // explained instead, as when no part the seat sees is false.
    if let Some((k, false)) = found.outside {
        let v = shown(st, k);
        return Why {
            message: format!("parameter `{}` of `{}` cannot be {v}: the value is not in its domain (its `where` condition is false)", ad.params[k].name, ad.name),
            span: Some(ad.span),
        };
    }
    let base = st.locals.len();
    st.locals.resize(base + ad.nlocals as usize, 0);
    st.locals[base] = actor;
    let mut cx = Exec { g, st, base };
    cx.restore_areas(a);
    for (k, prm) in ad.params.iter().enumerate() {
        cx.set_local(prm.slot, found.vals[k]);
    }
    // The answer names the first false `require` that reads only what the
    // seat may see. Naming one that reads hidden things would tell the seat
    // that it is false, which it could not know (another may be false too).
    // A false one that reads hidden things may still be named when a part
    // of its `and` that the seat may see is false: the seat can tell that.
    let mut answer = None;
    let mut hidden_false = false;
    let mut fallback = None;
    for (e, _, span) in &ad.pre {
        match seen(&mut cx, e, *span, actor) {
            (Ok(0), false) => {
                answer = Some(failed_require(&mut cx, ad, e, *span, actor, sources));
                break;
            }
            (Ok(0), true) => {
                hidden_false = true;
                if fallback.is_none() && public_false_part(&mut cx, e, *span, actor) {
                    fallback = Some((e, *span));
                }
            }
            (Ok(_), _) => {}
            (Err(err), _) => {
                answer = Some(Why {
                    message: format!(
                        "`require {}` cannot be evaluated: {}",
                        text(sources, *span),
                        err.message
                    ),
                    span: Some(*span),
                });
                break;
            }
        }
    }
    if let (None, Some((e, span))) = (&answer, fallback) {
        answer = Some(failed_require(&mut cx, ad, e, span, actor, sources));
    }
    cx.st.locals.truncate(base);
    answer.unwrap_or_else(|| {
        let seat = &g.seats[actor as usize];
        let message = if matches!(found.outside, Some((_, true))) {
            format!("a `where` or `require` of `{}` that reads what {seat} cannot see rules this instance out", ad.name)
        } else if hidden_false {
            format!("a `require` of `{}` that reads what {seat} cannot see rules this instance out", ad.name)
        } else {
            format!("every `require` of `{}` holds for this instance, but it is not offered now", ad.name)
        };
        Why { message, span: Some(ad.span) }
    })
}

/// Whether `e` is an `and` with a false part that reads only what `actor` may see.
fn public_false_part(cx: &mut Exec, e: &Expr, span: Span, actor: Val) -> bool {
    let e = match e {
        Expr::Code(id) => cx.g.programs[*id as usize].source(),
        e => e,
    };
    let mut parts = vec![];
    chain(e, BinOp::And, &mut parts);
    parts.len() > 1
        && parts
            .into_iter()
            .any(|part| matches!(seen(cx, part, span, actor), (Ok(0), false)))
}

/// `e`'s value, and whether computing it read something that `actor` may not see.
fn seen(cx: &mut Exec, e: &Expr, span: Span, actor: Val) -> (R<Val>, bool) {
    guarded(cx, actor, |cx| cx.eval(e, span))
}

/// What `f` computes, and whether it read a piece that `actor` may not see.
fn guarded<T>(cx: &mut Exec, actor: Val, f: impl FnOnce(&mut Exec) -> T) -> (T, bool) {
    let saved = (cx.st.guard, cx.st.peeked);
    cx.st.guard = Some(Viewer::Seat(actor as usize));
    cx.st.peeked = false;
    let v = f(cx);
    let peeked = cx.st.peeked;
    (cx.st.guard, cx.st.peeked) = saved;
    (v, peeked)
}

/// The source text of a span, on one line.
fn text(sources: &Sources, span: Span) -> String {
    let f = sources.get(span.file);
    let s = f
        .text
        .get(span.start as usize..span.end as usize)
        .unwrap_or("");
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// "`require COND` failed: `LEFT` is 0": a requirement that does not hold,
/// with what made it false.
fn failed_require(
    cx: &mut Exec,
    ad: &ActionDecl,
    e: &Expr,
    span: Span,
    actor: Val,
    sources: &Sources,
) -> Why {
    let whole = text(sources, span);
    let mut said = vec![];
    why_false(cx, ad, e, &whole, span, actor, &mut said);
    let mut message = format!("`require {whole}` failed");
    // "`X` failed: `X` is false" says nothing twice.
    if said.len() == 1 && said[0] == format!("`{}` is false", strip_parens(&whole)) {
        said.clear();
    }
    if !said.is_empty() {
        message.push_str(&format!(": {}", said.join(", ")));
    }
    Why {
        message,
        span: Some(span),
    }
}

/// What makes the false expression `e` (written `src`) false: the false
/// conjunct of an `and`, every side of an `or`, the two values of a
/// comparison. The source text is followed only as far as its shape matches
/// the compiled expression (passes may have rewritten it).
fn why_false(
    cx: &mut Exec,
    ad: &ActionDecl,
    e: &Expr,
    src: &str,
    span: Span,
    actor: Val,
    said: &mut Vec<String>,
) {
    let src = strip_parens(src);
    // A compiled requirement is explained from the expression it came from
    // (its parts are evaluated by the tree evaluator, to the same values).
    let g = cx.g;
    let e = match e {
        Expr::Code(id) => g.programs[*id as usize].source(),
        e => e,
    };
    match e {
        Expr::Bin(op @ (BinOp::And | BinOp::Or), ..) => {
            let mut parts = vec![];
            chain(e, *op, &mut parts);
            let pieces = split_words(src, if *op == BinOp::And { " and " } else { " or " });
            if pieces.len() != parts.len() {
                return;
            }
            // A false `and` is explained by its first false part that the
            // seat may see: which hidden part is false is not for it to know.
            // Every part of a false `or` is false, so each may be named, but
            // a hidden one is not taken apart.
            for (part, piece) in parts.into_iter().zip(pieces) {
                match seen(cx, part, span, actor) {
                    (Ok(0), false) => {
                        why_false(cx, ad, part, &piece, span, actor, said);
                        if *op == BinOp::And {
                            return;
                        }
                    }
                    (Ok(0), true) if *op == BinOp::Or => {
                        said.push(format!("`{}` is false", strip_parens(&piece)))
                    }
                    _ => {}
                }
            }
        }
        Expr::Bin(op, l, r)
            if matches!(
                op,
                BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
            ) =>
        {
            let ty = ty_of(cx.g, ad, l)
                .or_else(|| ty_of(cx.g, ad, r))
                .unwrap_or(Ty::INT);
            let lv = side(cx, l, ty, span, actor);
            let rv = side(cx, r, ty, span, actor);
            match split_op(src, op.symbol()) {
                Some((ln, rn)) => {
                    for (n, v) in [(ln, lv), (rn, rv)] {
                        if n != v {
                            said.push(format!("`{n}` is {v}"));
                        }
                    }
                }
                None => said.push(format!("`{src}` compares {lv} with {rv}")),
            }
        }
        Expr::Not(_) if src.starts_with("not ") => {
            said.push(format!("`{}` is true", src["not ".len()..].trim()))
        }
        _ => said.push(format!("`{src}` is false")),
    }
}

/// The operands of `a OP b OP …`, left to right.
fn chain<'e>(e: &'e Expr, op: BinOp, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::Bin(o, a, b) if *o == op => {
            chain(a, op, out);
            chain(b, op, out);
        }
        _ => out.push(e),
    }
}

/// `(x)` without the brackets that enclose all of it.
fn strip_parens(s: &str) -> &str {
    let t = s.trim();
    if t.starts_with('(') && t.ends_with(')') {
        let inner = &t[1..t.len() - 1];
        let mut depth = 0i32;
        for c in inner.chars() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            if depth < 0 {
                return t;
            }
        }
        return strip_parens(inner);
    }
    t
}

/// One side's value as the deciding seat may see it (`hidden` where it reads
/// what the seat may not see).
fn side(cx: &mut Exec, e: &Expr, ty: Ty, span: Span, actor: Val) -> String {
    let viewer = Viewer::Seat(actor as usize);
    let (v, peeked) = seen(cx, e, span, actor);
    match v {
        Ok(_) if peeked => "hidden".into(),
        Ok(v) => cx.display(ty, v, viewer),
        Err(e) => format!("<{}>", e.message),
    }
}

/// The type of an expression where it is plain to see (for printing its value).
fn ty_of(g: &Game, ad: &ActionDecl, e: &Expr) -> Option<Ty> {
    match e {
        Expr::Var(base, _) => g.vars.iter().find(|v| v.base == *base).map(|v| v.ty),
        Expr::Local(0) => Some(Ty::PLAYER),
        Expr::Local(s) => ad.params.iter().find(|p| p.slot == *s).map(|p| p.ty),
        Expr::Field(f, _) => g
            .kinds
            .iter()
            .flat_map(|k| k.fields.iter())
            .find(|x| x.2 == *f)
            .map(|x| x.1),
        Expr::Owner(_) => Some(Ty::PLAYER),
        Expr::NodeAttr(i, _) => g.node_attrs.get(*i as usize).map(|a| a.1),
        Expr::EdgeAttr(i, _) => g.edge_attrs.get(*i as usize).map(|a| a.1),
        Expr::EdgeFrom(_) | Expr::EdgeTo(_) => Some(Ty::NODE),
        Expr::Call { func, .. } => g.symbols.fn_sigs.get(*func as usize).map(|s| s.1),
        Expr::ZoneLen(_) | Expr::Neg(_) => Some(Ty::INT),
        Expr::Bin(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem, ..) => {
            Some(Ty::INT)
        }
        _ => None,
    }
}

/// `s` cut at each top-level `sep` (outside brackets).
fn split_words(s: &str, sep: &str) -> Vec<String> {
    let mut out = vec![];
    let mut depth = 0i32;
    let mut start = 0;
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ if depth == 0 && s[i..].starts_with(sep) => {
                out.push(s[start..i].trim().to_string());
                i += sep.len();
                start = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(s[start..].trim().to_string());
    out
}

/// The two sides of a comparison written `L op R`, when `op` occurs once at
/// the top level.
fn split_op(s: &str, op: &str) -> Option<(String, String)> {
    let b = s.as_bytes();
    let mut depth = 0i32;
    let mut at = None;
    for i in 0..b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'<' | b'>' | b'=' | b'!' if depth == 0 => {
                // A whole operator token: not part of a longer one.
                let len = if b.get(i + 1) == Some(&b'=') { 2 } else { 1 };
                let prev_op = i > 0 && matches!(b[i - 1], b'<' | b'>' | b'=' | b'!');
                if !prev_op && &s[i..i + len] == op {
                    if at.is_some() {
                        return None;
                    }
                    at = Some(i);
                }
            }
            _ => {}
        }
    }
    let i = at?;
    Some((
        s[..i].trim().to_string(),
        s[i + op.len()..].trim().to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_at_the_top_level() {
        assert_eq!(
            split_words("a >= 1 and f(b and c) and d", " and "),
            vec!["a >= 1", "f(b and c)", "d"]
        );
        assert_eq!(
            split_op("actor.money >= price(x)", ">="),
            Some(("actor.money".into(), "price(x)".into()))
        );
        assert_eq!(split_op("a <= b", "<"), None);
        assert_eq!(
            split_op("count(x[a == b]) == 2", "=="),
            Some(("count(x[a == b])".into(), "2".into()))
        );
        assert_eq!(strip_parens("((a or b))"), "a or b");
        assert_eq!(strip_parens("(a) or (b)"), "(a) or (b)");
    }
}
