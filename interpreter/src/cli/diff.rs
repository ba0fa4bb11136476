//! `regel diff BASE VARIANT`: what one ruleset changes against another, item
//! by item (options, constants, pieces, zones, variables, functions,
//! procedures, phases, actions, `setup`, `play`, scoring) and on the board
//! (nodes, edges, attributes, component sets) — in words or as JSON.
//!
//! Items are matched by their kind and name (the key `override` uses) after
//! variants are merged, and compared as syntax trees without their spans, so
//! layout and comments never count as a change. A changed body is described
//! by the statements that differ, quoted from the sources with their lines,
//! nested as deep as the change: a statement whose condition and shape are
//! unchanged but whose branch or body differs is named as the place of the
//! change, and the comparison goes on inside it.
//!
//! The exit code is that of diff(1): 0 when the rulesets are the same, 1 when
//! they differ, 2 when either cannot be read or checked.

use super::{load_game, read_file, Format, Io};
use crate::ast::visit::{self, by_mut::Visit as _};
use crate::ast::{Block, Item, ItemKind, Stmt, StmtKind};
use crate::board::Board;
use crate::diag::{Sources, Span};
use crate::load;
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

/// One difference.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Change {
    /// The item's kind word (`option`, `action`, …) or a board part (`node`, `edge`, …).
    pub what: String,
    pub name: String,
    /// `added`, `removed` or `changed`.
    pub change: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// For changed bodies: the statements that differ.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<String>,
}

#[derive(Serialize)]
struct Out {
    base: String,
    variant: String,
    rules: Vec<Change>,
    board: Vec<Change>,
}

pub fn run(base: &Path, variant: &Path, format: Format, io: &mut Io) -> i32 {
    let Some(d) = diff(base, variant, io) else {
        return 2;
    };
    let code = if d.rules.is_empty() && d.board.is_empty() {
        0
    } else {
        1
    };
    match format {
        Format::Json => {
            let _ = writeln!(
                io.out,
                "{}",
                serde_json::to_string_pretty(&d).unwrap_or_default()
            );
        }
        Format::Text => {
            let _ = writeln!(io.out, "{} → {}", d.base, d.variant);
            let n = d.rules.len() + d.board.len();
            if n == 0 {
                let _ = writeln!(io.out, "no difference in the rules or on the board");
            }
            for c in d.rules.iter().chain(&d.board) {
                let _ = writeln!(io.out, "{}", sentence(c));
                for l in &c.details {
                    let _ = writeln!(io.out, "    {l}");
                }
            }
            if n > 0 {
                let _ = writeln!(
                    io.out,
                    "{n} difference(s): {} in the rules, {} on the board",
                    d.rules.len(),
                    d.board.len()
                );
            }
        }
    }
    code
}

/// A change as one line of text.
fn sentence(c: &Change) -> String {
    let head = if c.name.is_empty() {
        format!("`{}`", c.what)
    } else {
        format!("{} `{}`", c.what, c.name)
    };
    match (c.change, &c.from, &c.to) {
        ("changed", Some(f), Some(t)) => format!("{head}: {f} → {t}"),
        ("added", _, Some(t)) => format!("{head} added: {t}"),
        ("removed", Some(f), _) => format!("{head} removed (was {f})"),
        (what, _, _) => format!("{head} {what}"),
    }
}

fn diff(base: &Path, variant: &Path, io: &mut Io) -> Option<Out> {
    // Both must check: a difference between rulesets that do not run says little.
    let (gb, _) = load_game(base, io)?;
    let (gv, _) = load_game(variant, io)?;
    let mut sources = Sources::default();
    let mut merged = |p: &Path| match load::load(&mut sources, &read_file, p, None) {
        Ok(m) => Some(m),
        Err(d) => {
            let _ = writeln!(
                io.err,
                "{}",
                d.first().map(|d| d.message.clone()).unwrap_or_default()
            );
            None
        }
    };
    let mb = merged(base)?;
    let mv = merged(variant)?;
    let name = super::game_title;
    Some(Out {
        base: format!("{} [{}]", base.display(), name(&gb)),
        variant: format!("{} [{}]", variant.display(), name(&gv)),
        rules: items(&sources, &mb.items, &mv.items),
        board: board(&gb.board, &gv.board),
    })
}

/// An item's or a statement's syntax tree as JSON with every span cleared:
/// equal when the rules are.
fn shape<T: Clone + Serialize>(x: &T, clear: impl FnOnce(&mut NoSpans, &mut T)) -> Value {
    let mut x = x.clone();
    clear(&mut NoSpans, &mut x);
    serde_json::to_value(&x).unwrap_or(Value::Null)
}

fn item_shape(k: &ItemKind) -> Value {
    shape(k, |v, k| visit::by_mut::walk_item_kind(v, k))
}

fn stmt_shape(s: &Stmt) -> Value {
    shape(s, |v, s| v.stmt(s))
}

/// Sets every span it visits to the same value.
struct NoSpans;

impl visit::by_mut::Visit<'_> for NoSpans {
    fn span(&mut self, s: &mut Span) {
        *s = Span::default();
    }
}

/// The source text of a span on one line, shortened.
fn quote(sources: &Sources, s: Span) -> String {
    let text = &sources.get(s.file).text;
    let raw = text.get(s.start as usize..s.end as usize).unwrap_or("");
    // Comments end at the line's end; drop them before joining lines.
    let joined: Vec<&str> = raw
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .collect();
    let one = joined.join(" ");
    if one.chars().count() > 90 {
        format!("{}…", one.chars().take(89).collect::<String>())
    } else {
        one
    }
}

/// The part of an item worth quoting as its value: an option's or constant's
/// value, a variable's initial value, or the whole item.
fn value_span(it: &Item) -> Span {
    match &it.kind {
        ItemKind::Option { value, .. } | ItemKind::Const { value, .. } => value.span,
        ItemKind::Var { init: Some(e), .. } => e.span,
        _ => it.span,
    }
}

fn items(sources: &Sources, base: &[Item], variant: &[Item]) -> Vec<Change> {
    let key = |it: &Item| it.kind.key();
    let mut out = vec![];
    for b in base {
        let (what, name) = key(b);
        match variant.iter().find(|v| key(v) == (what, name.clone())) {
            None => out.push(Change {
                what: what.into(),
                name,
                change: "removed",
                from: Some(quote(sources, b.span)),
                to: None,
                details: vec![],
            }),
            Some(v) if item_shape(&b.kind) != item_shape(&v.kind) => {
                let mut c = Change {
                    what: what.into(),
                    name,
                    change: "changed",
                    from: None,
                    to: None,
                    details: vec![],
                };
                match (b.kind.body(), v.kind.body()) {
                    (Some(bb), Some(vb)) if head_shape(&b.kind) == head_shape(&v.kind) => {
                        statements(sources, bb, vb, 0, &mut c.details);
                    }
                    _ => {
                        c.from = Some(quote(sources, value_span(b)));
                        c.to = Some(quote(sources, value_span(v)));
                    }
                }
                out.push(c);
            }
            Some(_) => {}
        }
    }
    for v in variant {
        let (what, name) = key(v);
        if !base.iter().any(|b| key(b) == (what, name.clone())) {
            out.push(Change {
                what: what.into(),
                name,
                change: "added",
                from: None,
                to: Some(quote(sources, v.span)),
                details: vec![],
            });
        }
    }
    out
}

/// An item without its body: its name, parameters and label.
fn head_shape(k: &ItemKind) -> Value {
    let mut v = item_shape(k);
    // Serde writes an item as `{"Kind": {fields…}}`; `setup` and `play` are a bare block.
    if let Some(Value::Object(m)) = v.as_object_mut().and_then(|m| m.values_mut().next()) {
        m.remove("body");
        m.remove("stmts");
    }
    v
}

/// The blocks a statement holds, by position (an absent `else` is `None`),
/// and what each is called when the change lies inside it.
fn blocks(s: &Stmt) -> Vec<(Option<&Block>, &'static str)> {
    match &s.kind {
        StmtKind::If { then, els, .. } => {
            vec![(Some(then), "in"), (els.as_ref(), "in the `else` of")]
        }
        StmtKind::For { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::Named { body, .. } => vec![(Some(body), "in")],
        StmtKind::Act { els, .. } => vec![(els.as_ref(), "in the `else` of")],
        _ => vec![],
    }
}

/// A statement without the statements of its blocks: equal for two
/// statements with the same condition (or loop, or `act`) and the same
/// blocks present.
fn stmt_head(s: &Stmt) -> Value {
    let mut s = s.clone();
    let clear = |b: &mut Block| b.stmts.clear();
    match &mut s.kind {
        StmtKind::If { then, els, .. } => {
            clear(then);
            els.as_mut().map(clear);
        }
        StmtKind::For { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::Named { body, .. } => clear(body),
        StmtKind::Act { els, .. } => {
            els.as_mut().map(clear);
        }
        _ => return Value::Null,
    }
    stmt_shape(&s)
}

/// A statement's first line up to its block: `if leaders == 2`.
fn head_text(sources: &Sources, s: &Stmt) -> String {
    let q = quote(sources, s.span);
    q.split('{').next().unwrap_or("").trim().to_string()
}

/// The position of a span: `base line 12` or `house.rules line 14`.
fn at(sources: &Sources, s: Span, base: bool) -> String {
    let (l, _) = sources.line_col(s.file, s.start);
    if base {
        format!("base line {l}")
    } else {
        format!("{} line {l}", sources.get(s.file).name)
    }
}

/// The statements of two blocks that differ, written to `out` indented by
/// `depth`: statements equal on both sides are matched first (a longest
/// common subsequence); between them, a base statement and a variant
/// statement with the same head (an `if` with the same condition, a loop over
/// the same collection) are compared inside, and everything else is shown
/// as removed (`-`) or added (`+`).
fn statements(sources: &Sources, a: &Block, b: &Block, depth: usize, out: &mut Vec<String>) {
    let (sa, sb): (Vec<Value>, Vec<Value>) = (
        a.stmts.iter().map(stmt_shape).collect(),
        b.stmts.iter().map(stmt_shape).collect(),
    );
    let (n, m) = (sa.len(), sb.len());
    // lcs[i][j]: the longest common subsequence of sa[i..] and sb[j..].
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if sa[i] == sb[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let (mut gi, mut gj) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && sa[i] == sb[j] {
            gap(sources, &a.stmts[gi..i], &b.stmts[gj..j], depth, out);
            i += 1;
            j += 1;
            (gi, gj) = (i, j);
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            j += 1;
        } else {
            i += 1;
        }
    }
    gap(sources, &a.stmts[gi..], &b.stmts[gj..], depth, out);
}

/// A run of base statements replaced by a run of variant statements.
fn gap(sources: &Sources, a: &[Stmt], b: &[Stmt], depth: usize, out: &mut Vec<String>) {
    let pad = "  ".repeat(depth);
    let minus = |s: &Stmt, out: &mut Vec<String>| {
        out.push(format!(
            "{pad}- {}  ({})",
            quote(sources, s.span),
            at(sources, s.span, true)
        ));
    };
    let plus = |s: &Stmt, out: &mut Vec<String>| {
        out.push(format!(
            "{pad}+ {}  ({})",
            quote(sources, s.span),
            at(sources, s.span, false)
        ));
    };
    let mut j = 0;
    for x in a {
        let twin = (!blocks(x).is_empty())
            .then(|| b[j..].iter().position(|y| stmt_head(x) == stmt_head(y)))
            .flatten();
        let Some(k) = twin else {
            minus(x, out);
            continue;
        };
        for y in &b[j..j + k] {
            plus(y, out);
        }
        let y = &b[j + k];
        j += k + 1;
        for ((bx, what), (by, _)) in blocks(x).into_iter().zip(blocks(y)) {
            if let (Some(bx), Some(by)) = (bx, by) {
                let (ex, ey): (Vec<Value>, Vec<Value>) = (
                    bx.stmts.iter().map(stmt_shape).collect(),
                    by.stmts.iter().map(stmt_shape).collect(),
                );
                if ex != ey {
                    out.push(format!(
                        "{pad}{what} `{}`  ({}, {}):",
                        head_text(sources, x),
                        at(sources, x.span, true),
                        at(sources, y.span, false)
                    ));
                    statements(sources, bx, by, depth + 1, out);
                }
            }
        }
    }
    for y in &b[j..] {
        plus(y, out);
    }
}

/// The board's nodes, edges, attribute values and component sets.
fn board(a: &Board, b: &Board) -> Vec<Change> {
    let mut out = vec![];
    let ch = |what: &str,
              name: String,
              change: &'static str,
              from: Option<String>,
              to: Option<String>| Change {
        what: what.into(),
        name,
        change,
        from,
        to,
        details: vec![],
    };
    if a.name != b.name {
        out.push(ch(
            "board",
            String::new(),
            "changed",
            Some(a.name.clone()),
            Some(b.name.clone()),
        ));
    }
    if a.directed != b.directed {
        out.push(ch(
            "board",
            "directed".into(),
            "changed",
            Some(a.directed.to_string()),
            Some(b.directed.to_string()),
        ));
    }
    for n in &a.nodes {
        if !b.node_index.contains_key(&n.id) {
            out.push(ch(
                "node",
                n.id.clone(),
                "removed",
                Some("a node".into()),
                None,
            ));
        }
    }
    for n in &b.nodes {
        if !a.node_index.contains_key(&n.id) {
            out.push(ch(
                "node",
                n.id.clone(),
                "added",
                None,
                Some("a node".into()),
            ));
        }
    }
    let ends = |bd: &Board| -> Vec<String> {
        bd.edges
            .iter()
            .map(|e| {
                format!(
                    "{} {} {}",
                    bd.nodes[e.from as usize].id,
                    if bd.directed { "->" } else { "--" },
                    bd.nodes[e.to as usize].id
                )
            })
            .collect()
    };
    let (ea, eb) = (ends(a), ends(b));
    for e in ea.iter().filter(|e| !eb.contains(e)) {
        out.push(ch(
            "edge",
            e.clone(),
            "removed",
            Some("an edge".into()),
            None,
        ));
    }
    for e in eb.iter().filter(|e| !ea.contains(e)) {
        out.push(ch("edge", e.clone(), "added", None, Some("an edge".into())));
    }
    for (attr, col) in &a.node_attrs {
        let Some(colb) = b.node_attrs.get(attr) else {
            out.push(ch(
                "node attribute",
                attr.clone(),
                "removed",
                Some("an attribute".into()),
                None,
            ));
            continue;
        };
        for (i, n) in a.nodes.iter().enumerate() {
            if let Some(&j) = b.node_index.get(&n.id) {
                let (x, y) = (&col.values[i], &colb.values[j as usize]);
                if x != y {
                    out.push(ch(
                        "node attribute",
                        format!("{}.{attr}", n.id),
                        "changed",
                        Some(x.to_string()),
                        Some(y.to_string()),
                    ));
                }
            }
        }
    }
    for attr in b
        .node_attrs
        .keys()
        .filter(|k| !a.node_attrs.contains_key(*k))
    {
        out.push(ch(
            "node attribute",
            attr.clone(),
            "added",
            None,
            Some("an attribute".into()),
        ));
    }
    let count = |g: &[crate::board::PieceGroup]| g.iter().map(|p| p.count).sum::<u32>();
    for (kind, ga) in &a.pieces {
        match b.pieces.get(kind) {
            None => out.push(ch(
                "pieces",
                kind.clone(),
                "removed",
                Some(format!("{} piece(s)", count(ga))),
                None,
            )),
            Some(gb) => {
                let same = ga.len() == gb.len()
                    && ga.iter().zip(gb).all(|(x, y)| {
                        x.count == y.count
                            && x.fields
                                .iter()
                                .map(|f| (f.0, &f.1 .0))
                                .eq(y.fields.iter().map(|f| (f.0, &f.1 .0)))
                    });
                if !same {
                    out.push(ch(
                        "pieces",
                        kind.clone(),
                        "changed",
                        Some(format!("{} piece(s) in {} group(s)", count(ga), ga.len())),
                        Some(format!("{} piece(s) in {} group(s)", count(gb), gb.len())),
                    ));
                }
            }
        }
    }
    for (kind, gb) in b.pieces.iter().filter(|(k, _)| !a.pieces.contains_key(*k)) {
        out.push(ch(
            "pieces",
            kind.clone(),
            "added",
            None,
            Some(format!("{} piece(s)", count(gb))),
        ));
    }
    out
}
