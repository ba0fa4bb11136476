//! Check: resolves every name, type and board reference of a merged ruleset
//! and lowers it to a [`Game`] with structured blocks. It reports all
//! problems it finds, not only the first. Entry point: [`check`]; the
//! declaration limits ([`limits`]) run before it, on the syntax tree. Loading,
//! the rewrites and code generation are other stages, driven by
//! [`crate::pipeline`].
//!
//! **Architecture Invariant:** a ruleset that passes `check` cannot fail at
//! run time on a name or a type; what remains for run time is data-dependent
//! (an empty zone drawn from, the step budget).

mod adhoc;
mod bodies;
mod context;
mod counts;
mod declare;
mod expr;
mod index;
mod instances;
mod layout;
mod overrides;
mod pieces;
mod present;
mod prose;
mod ranges;
mod sets;
mod stmt;
mod subsets;
mod twins;

use crate::board::Board;
use crate::diag::{Diagnostic, Diagnostics, Span};
use crate::ir::*;
use crate::load::Merged;

pub use adhoc::{compile_expr, compile_exprs};
pub use index::{Index, Use};

/// A checked game, before the rewrites and code generation (see
/// [`crate::pipeline`]).
pub struct Checked {
    /// The program with its structured blocks; `code` and `dist` are empty.
    pub game: Game,
    pub warnings: Diagnostics,
    /// The rules call `distance`: the board's distance table is worth computing.
    pub uses_distance: bool,
}

/// Checks a merged ruleset against its board and lowers it, exactly as the
/// rules say it, to a [`Game`]. Returns all the errors found, not only the
/// first.
pub fn check(m: &Merged, board: Board) -> Result<Checked, Diagnostics> {
    check_indexed(m, board, None)
}

/// [`check`], also recording into `index` (when given) what each name
/// resolves to and each expression's type, for editors; the result is the
/// same with or without it.
pub fn check_indexed(
    m: &Merged,
    board: Board,
    index: Option<&mut Index>,
) -> Result<Checked, Diagnostics> {
    let mut ck = context::Checker::new(&m.game_name, &m.variants, board);
    if index.is_some() {
        ck.index = Some(Box::default());
    }
    ck.declare_all(&m.items);
    ck.override_types(&m.items, &m.replaced);
    ck.bodies(&m.items);
    let reads = std::mem::take(&mut ck.table_reads);
    ck.table_ranges(reads);
    ck.presentation(&m.items);
    ck.prose(&m.items);
    if let (Some(out), Some(ix)) = (index, ck.index.take()) {
        *out = *ix;
    }
    ck.unused();
    if !ck.errors.is_empty() {
        // Warnings found so far are shown with the errors, after them.
        let mut all = ck.errors;
        all.append(&mut ck.warnings);
        return Err(all);
    }
    ck.g.texts = ck.texts.keys().cloned().collect();
    ck.g.symbols = ck.symbols();
    twins::mark(&mut ck.g);
    Ok(Checked {
        game: ck.g,
        warnings: ck.warnings,
        uses_distance: ck.uses_distance,
    })
}

/// The declaration counts per kind and the locals per body, checked on the
/// syntax tree before anything gets a 16-bit index (and before the board is
/// read): empty when all are within their limits.
pub fn limits(items: &[crate::ast::Item]) -> Diagnostics {
    counts::check(items)
}

/// A short human summary of a checked game: what `regel check` prints and
/// what the ruleset snapshots record.
pub fn summary(g: &Game) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "game: {}", g.name);
    if !g.variants.is_empty() {
        let _ = writeln!(s, "variants: {}", g.variants.join(" <- "));
    }
    let _ = writeln!(s, "players: {}..{}", g.min_players, g.max_players);
    let _ = writeln!(
        s,
        "board: {} ({} nodes, {} edges{})",
        g.board.name,
        g.board.nodes.len(),
        g.board.edges.len(),
        if g.board.directed { ", directed" } else { "" }
    );
    let opts: Vec<String> = g
        .options
        .iter()
        .map(|(n, &v)| {
            format!(
                "{n} = {}",
                crate::ir::display_const(g, g.vars[v].ty, g.vars[v].init.as_ref())
            )
        })
        .collect();
    let _ = writeln!(
        s,
        "options: {}",
        if opts.is_empty() {
            "none".into()
        } else {
            opts.join(", ")
        }
    );
    let kinds: Vec<String> = g
        .kinds
        .iter()
        .map(|k| {
            let n = g
                .piece_kind
                .iter()
                .filter(|&&pk| g.kinds[pk as usize].name == k.name)
                .count();
            format!(
                "{} ({}{})",
                k.name,
                n,
                if k.per_player { ", per seat" } else { "" }
            )
        })
        .collect();
    let _ = writeln!(s, "pieces: {}", kinds.join(", "));
    let zones: Vec<String> = g
        .zones
        .iter()
        .filter(|z| z.name != "box")
        .map(|z| {
            let scope: String = z
                .dims
                .iter()
                .map(|d| match d {
                    Dim::Player => "per player ".to_string(),
                    Dim::Node => "per node ".to_string(),
                    Dim::Edge => "per edge ".to_string(),
                    Dim::Enum(e) => format!("per {} ", g.enums[*e as usize].name),
                })
                .collect();
            let vis = match z.vis {
                crate::ast::VisKind::Public => "public",
                crate::ast::VisKind::Hidden => "hidden",
                crate::ast::VisKind::Owner => "owner",
                crate::ast::VisKind::Top => "top visible",
            };
            format!(
                "{scope}{} ({vis}{})",
                z.name,
                if z.unless.is_some() {
                    ", conditional"
                } else {
                    ""
                }
            )
        })
        .collect();
    let _ = writeln!(s, "zones: {}", zones.join(", "));
    let phases: Vec<&str> = g
        .procs
        .iter()
        .filter(|p| p.is_phase)
        .map(|p| p.name.as_str())
        .collect();
    let _ = writeln!(
        s,
        "phases: {}",
        if phases.is_empty() {
            "none".into()
        } else {
            phases.join(", ")
        }
    );
    let actions: Vec<String> = g
        .actions
        .iter()
        .map(|a| {
            let ps: Vec<&str> = a.params.iter().map(|p| p.name.as_str()).collect();
            format!("{}({})", a.name, ps.join(", "))
        })
        .collect();
    let _ = writeln!(
        s,
        "actions: {}",
        if actions.is_empty() {
            "none".into()
        } else {
            actions.join(", ")
        }
    );
    let mut decisions = vec![];
    for b in &g.blocks {
        for st in b {
            match &st.s {
                Instr::Act { actions, .. } => decisions.push(format!(
                    "act [{}]",
                    actions
                        .iter()
                        .map(|&a| g.actions[a as usize].name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
                Instr::Choose { ty, .. } => {
                    decisions.push(format!("choose {}", crate::ir::type_name(g, *ty)))
                }
                _ => {}
            }
        }
    }
    let _ = writeln!(s, "decision points: {}", decisions.len());
    for d in decisions {
        let _ = writeln!(s, "  - {d}");
    }
    let _ = writeln!(s, "invariants: {}", g.invariants.len());
    s
}

pub(crate) fn err(
    code: &'static str,
    span: Span,
    msg: impl Into<String>,
    label: impl Into<String>,
) -> Diagnostic {
    Diagnostic::error(code, msg).at(span, label)
}

/// The closest of `candidates` to `name` by edit distance, for "did you mean" hints.
pub(crate) fn similar<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = edit_distance(name, c);
        if d <= (name.len().max(3) / 3).max(1) && best.map(|b| d < b.0).unwrap_or(true) {
            best = Some((d, c));
        }
    }
    best.map(|b| b.1.to_string())
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            cur[j] = (prev[j] + 1)
                .min(cur[j - 1] + 1)
                .min(prev[j - 1] + usize::from(a[i - 1] != b[j - 1]));
        }
        prev = cur;
    }
    prev[b.len()]
}
