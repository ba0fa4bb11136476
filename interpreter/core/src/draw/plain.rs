//! The plain picture of a position: every node a box with its zones written
//! in it, edges as lines, and a panel on the right with what lies on no node;
//! written as SVG or as Graphviz DOT (`regel draw --format dot`, and the SVG
//! of a board file alone).

use super::esc;
use super::{colour, seat_colours};
use crate::board::Board;
use crate::eval::View;
use std::fmt::Write as _;

/// The width of one character of the monospace font at size 12, in pixels.
const CHAR_W: f64 = 7.3;
const LINE_H: f64 = 15.0;

/// A run of equal pieces: its text and its owner's seat (-1: none shown).
type Run = (String, i8);

/// One line of text on a node, an edge or in the panel: runs of pieces after
/// a plain head.
#[derive(Clone, Debug)]
struct Line {
    head: String,
    runs: Vec<Run>,
}

impl Line {
    fn plain(s: impl Into<String>) -> Line {
        Line {
            head: s.into(),
            runs: vec![],
        }
    }
    fn text(&self) -> String {
        let mut s = self.head.clone();
        for (t, _) in &self.runs {
            s.push(' ');
            s.push_str(t);
        }
        s
    }
    fn width(&self) -> f64 {
        self.text().chars().count() as f64 * CHAR_W
    }
}

/// Breaks a line whose text is longer than `max` characters between runs;
/// the lines after the first are indented.
fn wrap(l: Line, max: usize) -> Vec<Line> {
    let mut out = vec![];
    let mut cur = Line {
        head: l.head.clone(),
        runs: vec![],
    };
    let mut len = l.head.chars().count();
    for r in l.runs {
        let w = r.0.chars().count() + 1;
        if !cur.runs.is_empty() && len + w > max {
            out.push(std::mem::replace(&mut cur, Line::plain(" ")));
            len = 1;
        }
        len += w;
        cur.runs.push(r);
    }
    out.push(cur);
    out
}

/// What is drawn, before it is written as SVG or DOT.
pub(super) struct Picture {
    title: Vec<String>,
    directed: bool,
    /// Grids are drawn as cells without edge lines.
    grid: bool,
    nodes: Vec<PNode>,
    edges: Vec<PEdge>,
    panel: Vec<Line>,
    seats: Vec<String>,
}

struct PNode {
    id: String,
    x: f64,
    y: f64,
    lines: Vec<Line>,
}

struct PEdge {
    from: usize,
    to: usize,
    lines: Vec<Line>,
}

/// The pieces of a zone as runs of equal labels with their owners.
fn runs(pieces: &[String], owners: &[i8]) -> Vec<Run> {
    let mut out: Vec<Run> = vec![];
    let mut i = 0;
    while i < pieces.len() {
        let mut j = i + 1;
        while j < pieces.len() && pieces[j] == pieces[i] && owners.get(j) == owners.get(i) {
            j += 1;
        }
        let text = if j - i > 1 {
            format!("{}×{}", j - i, pieces[i])
        } else {
            pieces[i].clone()
        };
        out.push((text, owners.get(i).copied().unwrap_or(-1)));
        i = j;
    }
    out
}

/// An integer attribute of every node, if the board has it.
pub(super) fn node_ints(b: &Board, name: &str) -> Option<Vec<f64>> {
    let col = b.node_attrs.get(name)?;
    col.values
        .iter()
        .map(|v| match v {
            crate::board::AttrValue::Int(i) => Some(*i as f64),
            _ => None,
        })
        .collect()
}

pub(super) fn picture(b: &Board, v: &View, title: Vec<String>, seats: &[String]) -> Picture {
    let n = b.nodes.len();
    let mut nodes: Vec<PNode> = b
        .nodes
        .iter()
        .map(|nd| PNode {
            id: nd.id.clone(),
            x: 0.0,
            y: 0.0,
            lines: vec![],
        })
        .collect();
    let mut edges: Vec<PEdge> = b
        .edges
        .iter()
        .map(|e| PEdge {
            from: e.from as usize,
            to: e.to as usize,
            lines: vec![],
        })
        .collect();
    let mut panel = vec![];
    let mut empty = vec![];
    for z in &v.zones {
        let line = Line {
            head: format!("{}:", z.short),
            runs: runs(&z.pieces, &z.owners),
        };
        if let Some(nd) = &z.node {
            if let Some(&i) = b.node_index.get(nd) {
                nodes[i as usize].lines.push(line);
            }
        } else if let Some(e) = &z.edge {
            if z.count > 0 {
                if let Some(i) = b.edges.iter().position(|x| &x.id == e) {
                    edges[i].lines.push(line);
                }
            }
        } else if z.count == 0 {
            empty.push(z.zone.clone());
        } else {
            panel.push(Line {
                head: format!("{}:", z.zone),
                runs: line.runs,
            });
        }
    }
    if !empty.is_empty() {
        panel.push(Line {
            head: "empty:".into(),
            runs: empty.iter().map(|z| (format!("{z},"), -1)).collect(),
        });
        if let Some(last) = panel.last_mut().and_then(|l| l.runs.last_mut()) {
            last.0.pop();
        }
    }
    for (k, x) in &v.globals {
        panel.push(Line::plain(format!("{k} = {x}")));
    }
    for (k, row) in &v.table {
        let cells: Vec<Run> = row
            .iter()
            .enumerate()
            .map(|(i, x)| (x.clone(), i as i8))
            .collect();
        panel.push(Line {
            head: format!("{k}:"),
            runs: cells,
        });
    }
    // Narrow boxes: a long list of pieces goes on several lines.
    for nd in &mut nodes {
        nd.lines = std::mem::take(&mut nd.lines)
            .into_iter()
            .flat_map(|l| wrap(l, 34))
            .collect();
    }
    for e in &mut edges {
        e.lines = std::mem::take(&mut e.lines)
            .into_iter()
            .flat_map(|l| wrap(l, 30))
            .collect();
    }
    let panel: Vec<Line> = panel.into_iter().flat_map(|l| wrap(l, 90)).collect();
    // Where the nodes stand.
    let xs = node_ints(b, "x").zip(node_ints(b, "y"));
    let grid = xs.is_none() && node_ints(b, "row").is_some() && node_ints(b, "col").is_some();
    let box_w = |nd: &PNode| {
        nd.lines
            .iter()
            .map(Line::width)
            .fold(nd.id.chars().count() as f64 * CHAR_W, f64::max)
            + 16.0
    };
    let box_h = |nd: &PNode| (nd.lines.len() as f64 + 1.0) * LINE_H + 10.0;
    if let Some((x, y)) = xs {
        // Spread the given coordinates until the largest box fits between the closest nodes.
        let (w, h) = nodes.iter().fold((0.0f64, 0.0f64), |(w, h), nd| {
            (w.max(box_w(nd)), h.max(box_h(nd)))
        });
        let mut scale = 1.0f64;
        for i in 0..n {
            for j in i + 1..n {
                let (dx, dy) = ((x[i] - x[j]).abs(), (y[i] - y[j]).abs());
                // Two boxes overlap unless they are apart by a box in x or in y.
                let need = (if dx > 0.0 {
                    (w + 24.0) / dx
                } else {
                    f64::INFINITY
                })
                .min(if dy > 0.0 {
                    (h + 24.0) / dy
                } else {
                    f64::INFINITY
                });
                if need.is_finite() {
                    scale = scale.max(need);
                }
            }
        }
        let scale = scale.min(8.0);
        let (x0, y0) = (
            x.iter().cloned().fold(f64::INFINITY, f64::min),
            y.iter().cloned().fold(f64::INFINITY, f64::min),
        );
        for (i, nd) in nodes.iter_mut().enumerate() {
            nd.x = (x[i] - x0) * scale;
            nd.y = (y[i] - y0) * scale;
        }
    } else if grid {
        let (rows, cols) = (
            node_ints(b, "row").unwrap_or_default(),
            node_ints(b, "col").unwrap_or_default(),
        );
        let (w, h) = nodes.iter().fold((70.0f64, 50.0f64), |(w, h), nd| {
            (w.max(box_w(nd)), h.max(box_h(nd)))
        });
        for (i, nd) in nodes.iter_mut().enumerate() {
            nd.x = (cols[i] - 1.0) * w;
            nd.y = (rows[i] - 1.0) * h;
        }
    } else if n > 0 {
        let w = nodes.iter().map(box_w).fold(60.0, f64::max);
        let r = (n as f64 * (w + 30.0) / std::f64::consts::TAU).max(80.0);
        for (i, nd) in nodes.iter_mut().enumerate() {
            let a = i as f64 / n as f64 * std::f64::consts::TAU - std::f64::consts::FRAC_PI_2;
            nd.x = r + r * a.cos();
            nd.y = r + r * a.sin();
        }
    }
    Picture {
        title,
        directed: b.directed,
        grid,
        nodes,
        edges,
        panel,
        seats: seats.to_vec(),
    }
}

/// One line of text at (x, y), its runs coloured by owner.
fn svg_line(out: &mut String, colours: &[&'static str], l: &Line, x: f64, y: f64, anchor: &str) {
    let _ = write!(
        out,
        r#"<text x="{x:.1}" y="{y:.1}" text-anchor="{anchor}">{}"#,
        esc(&l.head)
    );
    for (t, o) in &l.runs {
        let _ = write!(
            out,
            r#" <tspan fill="{}">{}</tspan>"#,
            colour(colours, *o),
            esc(t)
        );
    }
    out.push_str("</text>\n");
}

/// Where the line from `a` to `b` leaves the box of half-size (`hw`, `hh`) around `b`.
fn clip(a: (f64, f64), b: (f64, f64), hw: f64, hh: f64) -> (f64, f64) {
    let (dx, dy) = (a.0 - b.0, a.1 - b.1);
    if dx == 0.0 && dy == 0.0 {
        return b;
    }
    let t = (hw / dx.abs().max(1e-9))
        .min(hh / dy.abs().max(1e-9))
        .min(1.0);
    (b.0 + dx * t, b.1 + dy * t)
}

pub(super) fn svg(p: &Picture) -> String {
    let size = |nd: &PNode| {
        let w = nd
            .lines
            .iter()
            .map(Line::width)
            .fold(nd.id.chars().count() as f64 * CHAR_W, f64::max)
            + 16.0;
        let h = (nd.lines.len() as f64 + 1.0) * LINE_H + 10.0;
        (w, h)
    };
    // Grid cells all have the size of the largest.
    let cell = p
        .nodes
        .iter()
        .map(size)
        .fold((70.0f64, 50.0f64), |a, b| (a.0.max(b.0), a.1.max(b.1)));
    let dims: Vec<(f64, f64)> = p
        .nodes
        .iter()
        .map(|nd| if p.grid { cell } else { size(nd) })
        .collect();
    let margin = 20.0;
    let top = margin + p.title.len() as f64 * 18.0 + 10.0;
    let left = margin + dims.iter().map(|d| d.0 / 2.0).fold(0.0, f64::max);
    let board_w = p
        .nodes
        .iter()
        .zip(&dims)
        .map(|(nd, d)| nd.x + d.0 / 2.0)
        .fold(0.0, f64::max);
    let board_h = p
        .nodes
        .iter()
        .zip(&dims)
        .map(|(nd, d)| nd.y + d.1 / 2.0)
        .fold(0.0, f64::max);
    let top_nodes = top + dims.iter().map(|d| d.1 / 2.0).fold(0.0, f64::max);
    let panel_x = if p.nodes.is_empty() {
        margin
    } else {
        left + board_w + 40.0
    };
    let panel_w = p.panel.iter().map(Line::width).fold(200.0, f64::max);
    let legend = p.seats.len() as f64 * LINE_H + 10.0;
    let width = panel_x + panel_w + margin;
    let height =
        (top_nodes + board_h + margin).max(top + legend + p.panel.len() as f64 * LINE_H + margin);
    let pos = |i: usize| (left + p.nodes[i].x, top_nodes + p.nodes[i].y);
    let colours = seat_colours(&p.seats);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="monospace" font-size="12">"#
    );
    s.push_str(r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#555"/></marker></defs>"##);
    s.push('\n');
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    for (k, t) in p.title.iter().enumerate() {
        let weight = if k == 0 {
            r#" font-weight="bold" font-size="14""#
        } else {
            ""
        };
        let _ = writeln!(
            s,
            r#"<text x="{margin}" y="{:.1}"{weight}>{}</text>"#,
            margin + 14.0 + k as f64 * 18.0,
            esc(t)
        );
    }
    if !p.grid {
        for e in &p.edges {
            let (a, b) = (pos(e.from), pos(e.to));
            let mut start = clip(b, a, dims[e.from].0 / 2.0, dims[e.from].1 / 2.0);
            let mut end = clip(a, b, dims[e.to].0 / 2.0, dims[e.to].1 / 2.0);
            // Two one-way routes between the same nodes are drawn side by side.
            if p.directed && p.edges.iter().any(|o| o.from == e.to && o.to == e.from) {
                let (dx, dy) = (end.0 - start.0, end.1 - start.1);
                let len = (dx * dx + dy * dy).sqrt().max(1e-9);
                let (ox, oy) = (-dy / len * 5.0, dx / len * 5.0);
                start = (start.0 + ox, start.1 + oy);
                end = (end.0 + ox, end.1 + oy);
            }
            let marker = if p.directed {
                r#" marker-end="url(#arrow)""#
            } else {
                ""
            };
            let _ = writeln!(
                s,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#888" stroke-width="1.5"{marker}/>"##,
                start.0, start.1, end.0, end.1
            );
        }
    }
    for e in &p.edges {
        if e.lines.is_empty() {
            continue;
        }
        let (a, b) = (pos(e.from), pos(e.to));
        let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        for (k, l) in e.lines.iter().enumerate() {
            svg_line(
                &mut s,
                &colours,
                l,
                mx,
                my - 4.0 + k as f64 * LINE_H,
                "middle",
            );
        }
    }
    for (i, nd) in p.nodes.iter().enumerate() {
        let (x, y) = pos(i);
        let (w, h) = dims[i];
        let (rx, fill) = if p.grid {
            (0, "#fdfdf6")
        } else {
            (6, "#f4f7fb")
        };
        let _ = writeln!(
            s,
            r##"<rect x="{:.1}" y="{:.1}" width="{w:.1}" height="{h:.1}" rx="{rx}" fill="{fill}" stroke="#444"/>"##,
            x - w / 2.0,
            y - h / 2.0
        );
        let ty = y - h / 2.0 + LINE_H + 2.0;
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{ty:.1}" font-weight="bold" fill="#333">{}</text>"##,
            x - w / 2.0 + 8.0,
            esc(&nd.id)
        );
        for (k, l) in nd.lines.iter().enumerate() {
            svg_line(
                &mut s,
                &colours,
                l,
                x - w / 2.0 + 8.0,
                ty + (k as f64 + 1.0) * LINE_H,
                "start",
            );
        }
    }
    // The panel: who plays which colour, then what lies on no node.
    let mut y = top + 4.0;
    for (i, seat) in p.seats.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<rect x="{panel_x:.1}" y="{:.1}" width="10" height="10" fill="{}"/>"#,
            y - 9.0,
            colour(&colours, i as i8)
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{y:.1}">{}</text>"#,
            panel_x + 16.0,
            esc(seat)
        );
        y += LINE_H;
    }
    y += 10.0;
    for l in &p.panel {
        svg_line(&mut s, &colours, l, panel_x, y, "start");
        y += LINE_H;
    }
    s.push_str("</svg>\n");
    s
}

/// A DOT string of lines already escaped with [`dot_text`].
fn dot_quote(s: &str) -> String {
    format!("\"{s}\"")
}

/// Text as it may stand inside a DOT string.
fn dot_text(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

pub(super) fn dot(p: &Picture) -> String {
    let (kind, arrow) = if p.directed {
        ("digraph", "->")
    } else {
        ("graph", "--")
    };
    let mut s = String::new();
    let title: Vec<String> = p.title.iter().map(|t| dot_text(t)).collect();
    let _ = writeln!(
        s,
        "{kind} {} {{",
        dot_quote(title.first().map(String::as_str).unwrap_or("board"))
    );
    let _ = writeln!(
        s,
        "  graph [label={}, labelloc=t];",
        dot_quote(&title.join("\\n"))
    );
    let _ = writeln!(s, "  node [shape=box, fontname=monospace];");
    for (i, nd) in p.nodes.iter().enumerate() {
        let mut label = dot_text(&nd.id);
        for l in &nd.lines {
            label.push_str("\\n");
            label.push_str(&dot_text(&l.text()));
        }
        // `pos` (with `!`: fixed) is honoured by `neato -n`; points, y upwards.
        let _ = writeln!(
            s,
            "  n{i} [label={}, pos=\"{:.0},{:.0}!\"];",
            dot_quote(&label),
            nd.x,
            0.0 - nd.y
        );
    }
    if !p.grid {
        for e in &p.edges {
            let label: Vec<String> = e.lines.iter().map(|l| dot_text(&l.text())).collect();
            let attr = if label.is_empty() {
                String::new()
            } else {
                format!(" [label={}]", dot_quote(&label.join("\\n")))
            };
            let _ = writeln!(s, "  n{} {arrow} n{}{attr};", e.from, e.to);
        }
    }
    // The panel, each line left-justified (`\\l` ends a line).
    let mut panel: Vec<String> = p
        .seats
        .iter()
        .enumerate()
        .map(|(i, n)| dot_text(&format!("seat {}: {n}", i + 1)))
        .collect();
    panel.extend(p.panel.iter().map(|l| dot_text(&l.text())));
    let label: String = panel.iter().map(|l| format!("{l}\\l")).collect();
    let _ = writeln!(s, "  panel [shape=plaintext, label={}];", dot_quote(&label));
    s.push_str("}\n");
    s
}
