//! A piece kind's instance list written in the rules: each `N x { … }`
//! entry checked once, then every `for` entry over a constant collection
//! expanded, in order, into groups of identical pieces. The number of pieces
//! is bounded before anything is expanded, so a long range costs a
//! diagnostic, not memory.

use super::context::{Body, Checker};
use super::declare::const_eval_with;
use super::err;
use super::pieces::too_many_pieces;
use crate::ast;
use crate::diag::Span;
use crate::ir::*;
use crate::limits::MAX_PIECES;

/// A checked entry of an instance list.
enum Entry {
    /// `N x { … }`: the count and each field's value, still expressions
    /// because they may read the names of enclosing `for` entries. `failed`
    /// is set once a value could not be computed, so that it is reported
    /// once, not once per item of the loops around it.
    One {
        count: u32,
        vals: Vec<(Expr, Span)>,
        failed: Vec<bool>,
    },
    /// `for NAME in COLL { … }`: the local slot of the name, its items and
    /// the entries listed once per item.
    For {
        slot: u16,
        over: Over,
        body: Vec<Entry>,
    },
}

/// The items of a constant collection a `for` entry runs over.
enum Over {
    /// `a..b`, both included (empty when `b < a`); also an enumeration's
    /// members and the board's nodes or edges, which are numbered densely.
    Range(Val, Val),
    /// A constant list, in its order.
    List(Vec<Val>),
}

impl Over {
    fn len(&self) -> u64 {
        match self {
            Over::Range(a, b) if b >= a => (*b as i128 - *a as i128 + 1) as u64,
            Over::Range(..) => 0,
            Over::List(l) => l.len() as u64,
        }
    }
}

/// How many pieces the entries make (saturating). An entry whose count is
/// below 1 (an error already) counts as one, so that the bound also bounds
/// the number of groups expanded.
fn pieces(entries: &[Entry]) -> u64 {
    entries.iter().fold(0u64, |n, e| {
        n.saturating_add(match e {
            Entry::One { count, .. } => u64::from(*count).max(1),
            Entry::For { over, body, .. } => over.len().saturating_mul(pieces(body)),
        })
    })
}

/// The entries expanded into `(count, field values)` groups, in order, with
/// `env` holding the values of the enclosing `for` names by slot. A value
/// that cannot be computed is left 0 and its span added to `bad` (once).
fn expand(
    entries: &mut [Entry],
    env: &mut Vec<Val>,
    groups: &mut Vec<(u32, Vec<Val>)>,
    bad: &mut Vec<Span>,
) {
    for e in entries {
        match e {
            Entry::One {
                count,
                vals,
                failed,
            } => {
                let mut row = Vec::with_capacity(vals.len());
                for (i, (x, span)) in vals.iter().enumerate() {
                    row.push(const_eval_with(x, env).unwrap_or_else(|| {
                        if !failed[i] {
                            failed[i] = true;
                            bad.push(*span);
                        }
                        0
                    }));
                }
                groups.push((*count, row));
            }
            Entry::For { slot, over, body } => {
                let slot = *slot as usize;
                if env.len() <= slot {
                    env.resize(slot + 1, 0);
                }
                match over {
                    Over::Range(a, b) => {
                        for v in *a..=*b {
                            env[slot] = v;
                            expand(body, env, groups, bad);
                        }
                    }
                    Over::List(items) => {
                        for &v in items.iter() {
                            env[slot] = v;
                            expand(body, env, groups, bad);
                        }
                    }
                }
            }
        }
    }
}

impl Checker {
    /// The `(count, field values)` groups of an instance list of kind `k`,
    /// or `None` when the list would make more pieces than the limit (which
    /// is then reported).
    pub(super) fn listed_instances(
        &mut self,
        k: u16,
        list: &[ast::InstanceItem],
        span: Span,
    ) -> Option<Vec<(u32, Vec<Val>)>> {
        self.body = Body::default();
        self.body.scopes.push(vec![]);
        let mut entries = self.instance_entries(k, list);
        if pieces(&entries) > MAX_PIECES {
            self.error(too_many_pieces(span));
            return None;
        }
        let (mut groups, mut bad) = (vec![], vec![]);
        expand(&mut entries, &mut vec![], &mut groups, &mut bad);
        for span in bad {
            self.error(
                err(
                    "E0272",
                    span,
                    "a piece's field value must be computed before the game starts",
                    "not a constant",
                )
                .help("write constants, the names of enclosing `for` entries and arithmetic on them (a division by zero cannot be computed either)"),
            );
        }
        Some(groups)
    }

    /// The entries of one list level checked, names of `for` entries bound
    /// in a scope of their own.
    fn instance_entries(&mut self, k: u16, list: &[ast::InstanceItem]) -> Vec<Entry> {
        let mut out = vec![];
        for item in list {
            match item {
                ast::InstanceItem::One(inst) => out.push(self.instance_entry(k, inst)),
                ast::InstanceItem::For {
                    name,
                    coll,
                    items,
                    span: _,
                } => {
                    let (c, ty) = self.coll(coll);
                    let over = self.constant_items(&c, coll.span);
                    self.body.scopes.push(vec![]);
                    let slot = self.bind(&name.name, ty);
                    let body = self.instance_entries(k, items);
                    self.body.scopes.pop();
                    if let Some(over) = over {
                        out.push(Entry::For { slot, over, body });
                    }
                }
            }
        }
        out
    }

    /// The items of a `for` entry's collection, known at check time: a
    /// range of constants, an enumeration, a constant list or list of
    /// constants, the board's nodes or edges. Anything else is E0271.
    fn constant_items(&mut self, c: &Coll, span: Span) -> Option<Over> {
        let empty = Some(Over::List(vec![]));
        let over = match c {
            Coll::Range(a, b) => match (const_eval_with(a, &[]), const_eval_with(b, &[])) {
                (Some(a), Some(b)) => Some(Over::Range(a, b)),
                _ => None,
            },
            Coll::List(items) => items
                .iter()
                .map(|x| const_eval_with(x, &[]))
                .collect::<Option<Vec<_>>>()
                .map(Over::List),
            Coll::Nodes if self.board.nodes.is_empty() => empty,
            Coll::Nodes => Some(Over::Range(0, self.board.nodes.len() as Val - 1)),
            Coll::Edges if self.board.edges.is_empty() => empty,
            Coll::Edges => Some(Over::Range(0, self.board.edges.len() as Val - 1)),
            _ => None,
        };
        if over.is_none() {
            self.error(
                err(
                    "E0271",
                    span,
                    "a `for` in an instance list runs over a collection known before the game starts",
                    "not a constant collection",
                )
                .help("write a range of constants (`1..13`), an enumeration, a constant list, `nodes` or `edges`"),
            );
        }
        over
    }

    /// One `N x { … }` entry: its fields checked against kind `k`.
    fn instance_entry(&mut self, k: u16, inst: &ast::Instance) -> Entry {
        let nfields = self.g.kinds[k as usize].fields.len();
        let mut vals = vec![(Expr::Const(0), inst.span); nfields];
        let mut given = vec![false; nfields];
        for f in &inst.fields {
            let kind = &self.g.kinds[k as usize];
            match kind.fields.iter().position(|x| x.0 == f.name.name) {
                Some(i) => {
                    let want = kind.fields[i].1;
                    let (e, ty) = self.expr(&f.value);
                    self.expect(ty, want, f.value.span);
                    // A value of the wrong type is reported above; it is
                    // not computed as well.
                    vals[i] = if self.assignable(ty, want) {
                        (e, f.value.span)
                    } else {
                        (Expr::Const(0), f.value.span)
                    };
                    given[i] = true;
                }
                None => {
                    let d = err(
                        "E0219",
                        f.name.span,
                        format!("piece `{}` has no field `{}`", kind.name, f.name.name),
                        "unknown field",
                    )
                    .help(format!(
                        "its fields are: {}",
                        kind.fields
                            .iter()
                            .map(|f| f.0.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                    self.error(d);
                }
            }
        }
        for (i, g) in given.iter().enumerate() {
            if !g {
                let d = err(
                    "E0220",
                    inst.span,
                    format!(
                        "field `{}` is not given",
                        self.g.kinds[k as usize].fields[i].0
                    ),
                    "incomplete instance",
                )
                .help("give every field a value");
                self.error(d);
            }
        }
        if inst.count < 1 {
            self.error(
                err(
                    "E0221",
                    inst.span,
                    "an instance count must be at least 1",
                    "here",
                )
                .help("write `N x { … }` with N >= 1"),
            );
        }
        Entry::One {
            count: inst.count.clamp(0, u32::MAX.into()) as u32,
            failed: vec![false; nfields],
            vals,
        }
    }
}
