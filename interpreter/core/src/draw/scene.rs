//! The picture of a position as shapes, for `regel draw --format svg`: the
//! board at its coordinates (or as a grid), each node's and edge's zones as
//! ordered slots (`draw ZONE slots = …`) or rows of tokens, pieces in their
//! declared shapes and colours (`draw KIND shape = …, colour = …`), a board
//! per player with its displays (tracks drawn as a row of spaces with the
//! value marked), the other zones as piles, and a legend with display names.
//!
//! The canvas is [`WIDTH`] pixels wide and no text is smaller than
//! [`SMALL`] pixels, so that the picture reads at that width. Every mark has
//! a dark outline, so that a white or yellow piece shows on white.

use super::esc;
use crate::eval::present::{Paint, PieceLook, Shown};
use crate::eval::view::ZoneView;
use crate::eval::View;
use std::fmt::Write as _;

/// The canvas width in pixels.
pub const WIDTH: f64 = 1600.0;
/// The smallest text drawn, in pixels.
pub const SMALL: f64 = 11.0;
/// The text of names and values.
const TEXT: f64 = 13.0;
/// The side of one slot or token.
const MARK: f64 = 16.0;
/// Where the right-hand column (legend, players' boards, piles) starts.
pub const COLUMN_START: f64 = 1110.0;
const COLUMN: f64 = COLUMN_START;

/// A node of the board with its place on the canvas.
pub struct Place {
    pub name: String,
    pub x: f64,
    pub y: f64,
}

/// What the scene is drawn from.
pub struct Scene<'a> {
    pub title: &'a [String],
    pub seats: &'a [String],
    pub colours: &'a [&'static str],
    pub view: &'a View,
    /// Nodes in board order, at canvas coordinates (already fitted), and
    /// whether the board is a grid of cells (`cell` is then their size).
    pub nodes: Vec<Place>,
    pub edges: Vec<(usize, usize)>,
    pub directed: bool,
    pub cell: Option<f64>,
}

/// The width of `s` in pixels at font size `size` (monospace: 0.6 em).
fn text_w(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * 0.6
}

/// A colour the rules name (`white`, `orange`, `#aabbcc`) as SVG paint;
/// names no palette knows are drawn grey.
fn paint_name(name: &str) -> String {
    if name.starts_with('#') && name.len() <= 9 && name[1..].chars().all(|c| c.is_ascii_hexdigit())
    {
        return name.to_string();
    }
    match name.to_ascii_lowercase().as_str() {
        "white" => "#ffffff",
        "black" => "#1a1a1a",
        "red" => "#d62728",
        "blue" => "#1f77b4",
        "green" => "#2ca02c",
        "yellow" => "#f2d21b",
        "orange" => "#ff7f0e",
        "purple" | "violet" => "#9467bd",
        "pink" => "#f49ac2",
        "brown" => "#8c564b",
        "grey" | "gray" => "#9a9a9a",
        "gold" => "#d4a017",
        _ => "#bdbdbd",
    }
    .to_string()
}

/// The fill of a piece: its declared colour, else its owner's, else light grey.
fn fill(look: &PieceLook, owner: i8, colours: &[&'static str]) -> String {
    match &look.colour {
        Paint::Seat(s) => colours.get(*s).copied().unwrap_or("#bdbdbd").to_string(),
        Paint::Named(n) => paint_name(n),
        Paint::Owner if owner >= 0 => colours
            .get(owner as usize)
            .copied()
            .unwrap_or("#bdbdbd")
            .to_string(),
        Paint::Owner => "#e8e8e8".into(),
    }
}

/// The colour `draw nodes colour = …` or `draw edges colour = …` gives the
/// node or edge `i`, if any (`none` gives none).
fn board_paint(looks: &[PieceLook], i: usize, colours: &[&'static str]) -> Option<String> {
    looks
        .get(i)
        .filter(|l| l.colour != Paint::Owner)
        .map(|l| fill(l, -1, colours))
}

/// A node's name with the text `draw nodes text = …` gives it, if any.
fn node_title(looks: &[PieceLook], i: usize, name: &str) -> String {
    match looks.get(i).map(|l| l.text.as_str()) {
        Some(t) if !t.is_empty() => format!("{name} · {t}"),
        _ => name.to_string(),
    }
}

/// One mark (slot or token) of side `d` with its top-left corner at (x, y).
fn mark(out: &mut String, shape: &str, x: f64, y: f64, d: f64, fill: &str, dash: bool) {
    let stroke = if dash {
        r##" stroke="#555" stroke-dasharray="3 2""##
    } else {
        r##" stroke="#222""##
    };
    let (cx, cy, r) = (x + d / 2.0, y + d / 2.0, d / 2.0);
    let _ = match shape {
        "disc" | "circle" | "round" | "trader" => writeln!(
            out,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}"{stroke} stroke-width="1.2"/>"#
        ),
        "diamond" => writeln!(
            out,
            r#"<path d="M {cx:.1} {y:.1} L {:.1} {cy:.1} L {cx:.1} {:.1} L {x:.1} {cy:.1} z" fill="{fill}"{stroke} stroke-width="1.2"/>"#,
            x + d,
            y + d
        ),
        "card" => writeln!(
            out,
            r#"<rect x="{:.1}" y="{y:.1}" width="{:.1}" height="{d:.1}" rx="2" fill="{fill}"{stroke} stroke-width="1.2"/>"#,
            x + d * 0.15,
            d * 0.7
        ),
        _ => writeln!(
            out,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{d:.1}" height="{d:.1}" rx="2" fill="{fill}"{stroke} stroke-width="1.2"/>"#
        ),
    };
}

fn text(out: &mut String, x: f64, y: f64, size: f64, bold: bool, s: &str) {
    let w = if bold { r#" font-weight="bold""# } else { "" };
    let _ = writeln!(
        out,
        r##"<text x="{x:.1}" y="{y:.1}" font-size="{size:.0}" fill="#111"{w}>{}</text>"##,
        esc(s)
    );
}

/// Whether dark text reads on `fill` (else white text is used).
fn light(fill: &str) -> bool {
    let h = fill.trim_start_matches('#');
    let v = |i: usize| u32::from_str_radix(h.get(i..i + 2).unwrap_or("ff"), 16).unwrap_or(255);
    h.len() != 6 || v(0) * 299 + v(2) * 587 + v(4) * 114 > 128_000
}

/// The width of a piece's mark of side `d`: wider than `d` when its declared
/// text would not fit on it, so that text is never smaller than [`SMALL`]
/// and never runs over the mark's edge.
fn piece_w(look: &PieceLook, d: f64) -> f64 {
    if look.text.is_empty() {
        d
    } else {
        d.max(text_w(&look.text, SMALL) + 2.0)
    }
}

/// A mark with its declared text (`draw KIND text = …`) written on it; a
/// text wider than the mark stretches it into a rounded bar ([`piece_w`]).
fn piece(
    out: &mut String,
    look: &PieceLook,
    owner: i8,
    colours: &[&'static str],
    x: f64,
    y: f64,
    d: f64,
) {
    let f = fill(look, owner, colours);
    let s = if look.shape.is_empty() {
        "disc"
    } else {
        look.shape.as_str()
    };
    let w = piece_w(look, d);
    if w > d {
        let round = if matches!(s, "disc" | "circle" | "round" | "trader") {
            d / 2.0
        } else {
            2.0
        };
        let _ = writeln!(
            out,
            r##"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{d:.1}" rx="{round:.1}" fill="{f}" stroke="#222" stroke-width="1.2"/>"##
        );
    } else {
        mark(out, s, x, y, d, &f, false);
    }
    if !look.text.is_empty() {
        let c = if light(&f) { "#111" } else { "#fff" };
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-size="{SMALL:.0}" text-anchor="middle" fill="{c}" font-weight="bold">{}</text>"#,
            x + w / 2.0,
            y + d / 2.0 + SMALL * 0.35,
            esc(&look.text)
        );
    }
}

/// A zone drawn in rows from (x, y), broken before `limit` (an x): its
/// slots in order with their occupants, or its pieces as marks (equal
/// neighbours counted, `×3`), or, for pieces without a declared look and
/// owner, their labels; hidden pieces as card backs. Returns the width and
/// the height used.
fn zone_row(
    out: &mut String,
    z: &ZoneView,
    colours: &[&'static str],
    (x, y): (f64, f64),
    head: Option<&str>,
    limit: f64,
) -> (f64, f64) {
    // Each zone is a group named by its display name, so that a reader (or
    // a test) can find its marks in order.
    let _ = writeln!(out, r#"<g data-zone="{}">"#, esc(&z.zone));
    let (w, h) = zone_marks(out, z, colours, (x, y), head, limit);
    out.push_str("</g>\n");
    (w, h)
}

/// The width and height a zone's row would take ([`zone_row`], drawn aside).
fn measure(z: &ZoneView, colours: &[&'static str], limit: f64) -> (f64, f64) {
    zone_row(&mut String::new(), z, colours, (0.0, 0.0), None, limit)
}

fn zone_marks(
    out: &mut String,
    z: &ZoneView,
    colours: &[&'static str],
    (x, y): (f64, f64),
    head: Option<&str>,
    limit: f64,
) -> (f64, f64) {
    let mut cx = x;
    let mut cy = y;
    let mut widest = 0.0f64;
    if let Some(h) = head {
        let h = format!("{h}:");
        text(out, cx, y + MARK - 3.0, SMALL, false, &h);
        cx += text_w(&h, SMALL) + 4.0;
    }
    let indent = cx;
    // Moves to the next line when `w` more pixels would pass the limit.
    let room = |cx: &mut f64, cy: &mut f64, w: f64| {
        if *cx + w > limit && *cx > indent {
            *cx = indent;
            *cy += MARK + 4.0;
        }
    };
    if let Some(sl) = &z.slots {
        for k in 0..sl.count.max(z.count) {
            room(&mut cx, &mut cy, MARK + 3.0);
            let over = sl.over.get(k);
            match over {
                Some((_, look)) => {
                    let shape = if look.shape.is_empty() {
                        "square"
                    } else {
                        look.shape.as_str()
                    };
                    mark(out, shape, cx, cy, MARK, &fill(look, -1, colours), false)
                }
                // An empty space is drawn dashed; an occupant covers it.
                None if k >= z.count => mark(out, "square", cx, cy, MARK, "#ffffff", true),
                None => {}
            }
            if k < z.count {
                let look = z.looks.get(k).cloned().unwrap_or_default();
                let o = z.owners.get(k).copied().unwrap_or(-1);
                // On a drawn slot the occupant sits inside it; an empty
                // space is filled by it.
                let inset = if over.is_some() { 3.5 } else { 0.0 };
                piece(
                    out,
                    &look,
                    o,
                    colours,
                    cx + inset,
                    cy + inset,
                    MARK - 2.0 * inset,
                );
            }
            cx += MARK + 3.0;
            widest = widest.max(cx - x);
        }
        return (widest, cy - y + MARK);
    }
    let mut i = 0;
    while i < z.count {
        let mut j = i + 1;
        while j < z.count
            && z.pieces[j] == z.pieces[i]
            && z.owners.get(j) == z.owners.get(i)
            && z.looks.get(j) == z.looks.get(i)
        {
            j += 1;
        }
        let look = z.looks.get(i).cloned().unwrap_or_default();
        let o = z.owners.get(i).copied().unwrap_or(-1);
        let hidden = z.pieces[i].starts_with("hidden ");
        let count = if j - i > 1 {
            format!("×{}", j - i)
        } else {
            String::new()
        };
        let plain = !hidden && look.shape.is_empty() && look.colour == Paint::Owner && o < 0;
        let mark_w = if hidden { MARK } else { piece_w(&look, MARK) };
        let w = if plain {
            text_w(&z.pieces[i], SMALL) + 8.0
        } else {
            mark_w + 2.0
        } + if count.is_empty() {
            0.0
        } else {
            text_w(&count, SMALL) + 4.0
        };
        room(&mut cx, &mut cy, w);
        if hidden {
            mark(out, "card", cx, cy, MARK, "#6b7b8c", false);
            cx += MARK + 2.0;
        } else if plain {
            // No look: the piece's label.
            let t = &z.pieces[i];
            let _ = writeln!(
                out,
                r##"<rect x="{cx:.1}" y="{cy:.1}" width="{:.1}" height="{MARK}" rx="3" fill="#fffbe6" stroke="#222"/>"##,
                text_w(t, SMALL) + 6.0
            );
            text(out, cx + 3.0, cy + MARK - 4.0, SMALL, false, t);
            cx += text_w(t, SMALL) + 8.0;
        } else {
            piece(out, &look, o, colours, cx, cy, MARK);
            cx += mark_w + 2.0;
        }
        if !count.is_empty() {
            text(out, cx, cy + MARK - 3.0, SMALL, false, &count);
            cx += text_w(&count, SMALL) + 4.0;
        }
        cx += 2.0;
        widest = widest.max(cx - x);
        i = j;
    }
    (widest, cy - y + MARK)
}

/// A track: spaces 0…max in rows of at most `per_row`, the value marked.
fn track(out: &mut String, x: f64, y: f64, max: i64, value: &str, fillc: &str) -> f64 {
    let v: i64 = value.parse().unwrap_or(-1);
    let per_row = 21;
    let d = 12.0;
    let n = max + 1;
    let rows = (n as f64 / per_row as f64).ceil();
    // Each row of spaces has its numbers below it.
    let row_h = d + SMALL + 4.0;
    for k in 0..n {
        let (r, c) = (k / per_row, k % per_row);
        let (sx, sy) = (x + c as f64 * (d + 2.0), y + r as f64 * row_h);
        // The marked space has a heavy outline too, so that a white marker shows.
        let (f, w) = if k == v.min(max) {
            (fillc, 2.5)
        } else {
            ("#ffffff", 0.8)
        };
        let _ = writeln!(
            out,
            r##"<rect x="{sx:.1}" y="{sy:.1}" width="{d}" height="{d}" fill="{f}" stroke="#222" stroke-width="{w}"/>"##
        );
        if k % 5 == 0 {
            text(out, sx + 1.0, sy + d + SMALL, SMALL, false, &k.to_string());
        }
    }
    rows * row_h
}

/// The scene as SVG.
pub fn svg(s: &Scene) -> String {
    let v = s.view;
    let mut body = String::new();
    let top = 20.0 + s.title.len() as f64 * 20.0 + 10.0;
    // Status line: the game's declared displays.
    let status: Vec<String> = v
        .displays
        .iter()
        .filter(|d| !d.per_player)
        .map(|d| format!("{}: {}", d.text, d.values.join(" ")))
        .collect();
    let mut board_top = top;
    if !status.is_empty() {
        text(
            &mut body,
            20.0,
            top + 4.0,
            TEXT,
            false,
            &status.join("   ·   "),
        );
        board_top += 22.0;
    }
    let at = |i: usize| (s.nodes[i].x, s.nodes[i].y + board_top);
    // Edges first, under the nodes.
    let mut edge_rows: Vec<Vec<&ZoneView>> = vec![vec![]; s.edges.len()];
    let mut node_rows: Vec<Vec<&ZoneView>> = vec![vec![]; s.nodes.len()];
    let mut owned: Vec<Vec<&ZoneView>> = vec![vec![]; s.seats.len()];
    let mut global: Vec<&ZoneView> = vec![];
    // A zone drawn as the slots of another is not drawn again on its own.
    let under: Vec<u32> = v
        .zones
        .iter()
        .filter_map(|z| z.slots.as_ref().and_then(|s| s.over_zone))
        .collect();
    for z in v.zones.iter().filter(|z| !under.contains(&z.id)) {
        if let Some(n) = &z.node {
            if let Some(i) = s.nodes.iter().position(|p| &p.name == n) {
                node_rows[i].push(z);
            }
        } else if let Some(e) = z.edge_index {
            if e < edge_rows.len() {
                edge_rows[e].push(z);
            }
        } else if let Some(o) = z.owner {
            if o < owned.len() && (z.count > 0 || z.slots.is_some()) {
                owned[o].push(z);
            }
        } else if z.count > 0 {
            global.push(z);
        }
    }
    if s.cell.is_none() {
        for (k, &(a, b)) in s.edges.iter().enumerate() {
            let (p, mut q) = (at(a), at(b));
            // A route the rules colour (`draw edges colour = …`) is drawn
            // thick in that colour, over a dark edge so that pale colours show.
            let paint = board_paint(&v.edge_looks, k, s.colours);
            if s.directed {
                // The arrow ends beside the target's box, not under it.
                let (dx, dy) = (q.0 - p.0, q.1 - p.1);
                let len = (dx * dx + dy * dy).sqrt().max(1.0);
                let cut = (len / 3.0).min(34.0);
                q = (q.0 - dx / len * cut, q.1 - dy / len * cut);
            }
            let arrow = if s.directed {
                r#" marker-end="url(#arrow)""#
            } else {
                ""
            };
            let strokes = match &paint {
                Some(c) => vec![("#222", "9", ""), (c.as_str(), "6", arrow)],
                None => vec![("#8a7f6a", "3", arrow)],
            };
            for (colour, width, end) in strokes {
                let _ = writeln!(
                    body,
                    r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="{width}"{end}/>"#,
                    p.0, p.1, q.0, q.1
                );
            }
        }
        for (k, &(a, b)) in s.edges.iter().enumerate() {
            let (p, q) = (at(a), at(b));
            let (mx, my) = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
            for (r, z) in edge_rows[k].iter().enumerate() {
                let far = f64::INFINITY;
                let (w, _) = measure(z, s.colours, far);
                let at = (mx - w / 2.0, my - MARK / 2.0 + r as f64 * (MARK + 3.0));
                zone_row(&mut body, z, s.colours, at, None, far);
            }
            // The edge's text (`draw edges text = …`) on a label at its
            // middle, below the rows of its zones.
            if let Some(t) = v
                .edge_looks
                .get(k)
                .map(|l| &l.text)
                .filter(|t| !t.is_empty())
            {
                let tw = text_w(t, SMALL) + 8.0;
                let ty = my - (SMALL + 6.0) / 2.0 + edge_rows[k].len() as f64 * (MARK + 3.0);
                let _ = writeln!(
                    body,
                    r##"<rect x="{:.1}" y="{ty:.1}" width="{tw:.1}" height="{:.1}" rx="4" fill="#ffffff" stroke="#555"/>"##,
                    mx - tw / 2.0,
                    SMALL + 6.0
                );
                text(
                    &mut body,
                    mx - tw / 2.0 + 4.0,
                    ty + SMALL + 1.5,
                    SMALL,
                    false,
                    t,
                );
            }
        }
    }
    for (i, p) in s.nodes.iter().enumerate() {
        let (x, y) = at(i);
        let rows = &node_rows[i];
        let shown: Vec<&&ZoneView> = rows
            .iter()
            .filter(|z| z.count > 0 || z.slots.is_some())
            .collect();
        match s.cell {
            Some(c) => {
                let _ = writeln!(
                    body,
                    r##"<rect x="{:.1}" y="{:.1}" width="{c:.1}" height="{c:.1}" fill="#fbf8ee" stroke="#555"/>"##,
                    x - c / 2.0,
                    y - c / 2.0
                );
                // A cell the rules colour (`draw nodes colour = …`) gets a
                // frame of that colour inside it, below its name, edged dark so
                // that white and pale colours show.
                if let Some(col) = board_paint(&v.node_looks, i, s.colours) {
                    for (stroke, width) in [("#222", 9.0), (col.as_str(), 6.0)] {
                        let _ = writeln!(
                            body,
                            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="{stroke}" stroke-width="{width}"/>"#,
                            x - c / 2.0 + 5.0,
                            y - c / 2.0 + SMALL + 7.0,
                            c - 10.0,
                            c - SMALL - 12.0
                        );
                    }
                }
                let _ = writeln!(
                    body,
                    r##"<text x="{:.1}" y="{:.1}" font-size="{SMALL:.0}" fill="#555">{}</text>"##,
                    x - c / 2.0 + 3.0,
                    y - c / 2.0 + SMALL + 1.0,
                    esc(&node_title(&v.node_looks, i, &p.name))
                );
                // Pieces grow with the cell: drawn at the origin, then scaled,
                // their block centred in the cell below its name (measured
                // by drawing it aside; each row ends in a gap of 3 or 4 px).
                let k = (c / 50.0).clamp(1.0, 3.0);
                let sizes: Vec<(f64, f64)> = shown
                    .iter()
                    .map(|z| measure(z, s.colours, (c - 8.0) / k))
                    .collect();
                let bw = sizes.iter().map(|r| r.0 - 4.0).fold(0.0, f64::max) * k;
                let bh = (sizes.iter().map(|r| r.1 + 4.0).sum::<f64>() - 4.0).max(0.0) * k;
                let top = y - c / 2.0 + SMALL + 6.0;
                let room = c - SMALL - 10.0;
                let _ = writeln!(
                    body,
                    r#"<g transform="translate({:.1} {:.1}) scale({k:.2})">"#,
                    (x - bw / 2.0).max(x - c / 2.0 + 4.0),
                    top + ((room - bh) / 2.0).max(0.0)
                );
                let mut ry = 0.0;
                for z in &shown {
                    ry += zone_row(&mut body, z, s.colours, (0.0, ry), None, (c - 8.0) / k).1 + 4.0;
                }
                body.push_str("</g>\n");
            }
            None => {
                let title = node_title(&v.node_looks, i, &p.name);
                // Each row measured by drawing it aside.
                let w = shown
                    .iter()
                    .map(|z| measure(z, s.colours, f64::INFINITY).0)
                    .fold(text_w(&title, TEXT), f64::max)
                    + 12.0;
                let h = TEXT + 8.0 + shown.len() as f64 * (MARK + 4.0);
                // A node the rules colour (`draw nodes colour = …`) has a
                // thick outline of that colour.
                let paint = board_paint(&v.node_looks, i, s.colours);
                if paint.is_some() {
                    // Edged dark outside, so that white and pale colours show.
                    let _ = writeln!(
                        body,
                        r##"<rect x="{:.1}" y="{:.1}" width="{w:.1}" height="{h:.1}" rx="5" fill="none" stroke="#222" stroke-width="7"/>"##,
                        x - w / 2.0,
                        y - h / 2.0
                    );
                }
                let outline = match &paint {
                    Some(c) => format!(r#"stroke="{c}" stroke-width="4""#),
                    None => r##"stroke="#444" stroke-width="1.2""##.to_string(),
                };
                let _ = writeln!(
                    body,
                    r##"<rect x="{:.1}" y="{:.1}" width="{w:.1}" height="{h:.1}" rx="5" fill="#fbf8ee" {outline}/>"##,
                    x - w / 2.0,
                    y - h / 2.0
                );
                text(
                    &mut body,
                    x - w / 2.0 + 6.0,
                    y - h / 2.0 + TEXT + 2.0,
                    TEXT,
                    true,
                    &title,
                );
                // A display of the game whose value is this node (`ship in`) marks it.
                let marks = v
                    .displays
                    .iter()
                    .filter(|d| !d.per_player && d.values.first() == Some(&p.name));
                for d in marks {
                    let tw = text_w(&d.text, SMALL) + 10.0;
                    let _ = writeln!(
                        body,
                        r##"<rect x="{:.1}" y="{:.1}" width="{tw:.1}" height="{:.1}" rx="8" fill="#1f3b63" stroke="#111"/>"##,
                        x - tw / 2.0,
                        y - h / 2.0 - SMALL - 8.0,
                        SMALL + 6.0
                    );
                    let _ = writeln!(
                        body,
                        r##"<text x="{:.1}" y="{:.1}" font-size="{SMALL:.0}" fill="#ffffff" font-weight="bold">{}</text>"##,
                        x - tw / 2.0 + 5.0,
                        y - h / 2.0 - 6.0,
                        esc(&d.text)
                    );
                }
                for (r, z) in shown.iter().enumerate() {
                    let at = (
                        x - w / 2.0 + 6.0,
                        y - h / 2.0 + TEXT + 6.0 + r as f64 * (MARK + 4.0),
                    );
                    zone_row(&mut body, z, s.colours, at, None, f64::INFINITY);
                }
            }
        }
    }
    // The right-hand column: legend, players' boards, piles (the whole
    // picture when there is no board).
    let col = if s.nodes.is_empty() { 20.0 } else { COLUMN };
    let mut y = board_top + 4.0;
    text(&mut body, col, y, TEXT, true, "players");
    y += 8.0;
    let per_player: Vec<&Shown> = v.displays.iter().filter(|d| d.per_player).collect();
    for (i, seat) in s.seats.iter().enumerate() {
        let c = s.colours.get(i).copied().unwrap_or("#bdbdbd");
        mark(&mut body, "square", col, y + 4.0, MARK, c, false);
        text(&mut body, col + MARK + 6.0, y + MARK, TEXT, true, seat);
        y += MARK + 10.0;
        let mut plain = vec![];
        for d in &per_player {
            let val = d.values.get(i).cloned().unwrap_or_default();
            match d.track {
                Some(max) => {
                    text(
                        &mut body,
                        col + 8.0,
                        y + SMALL,
                        SMALL,
                        false,
                        &format!("{}: {val}", d.text),
                    );
                    y += SMALL + 4.0;
                    y += track(&mut body, col + 8.0, y, max, &val, c) + 4.0;
                }
                None => plain.push(format!("{} {val}", d.text)),
            }
        }
        for line in pack(&plain, 60) {
            text(&mut body, col + 8.0, y + SMALL, SMALL, false, &line);
            y += SMALL + 5.0;
        }
        for z in &owned[i] {
            // `tray of north (Gold)` reads `tray (Gold)` on north's board.
            let h = z.zone.replace(&format!(" of {seat}"), "");
            y += zone_row(
                &mut body,
                z,
                s.colours,
                (col + 8.0, y),
                Some(&h),
                WIDTH - 20.0,
            )
            .1 + 5.0;
        }
        y += 8.0;
    }
    if !global.is_empty() {
        y += 6.0;
        text(&mut body, col, y + TEXT, TEXT, true, "on the table");
        y += TEXT + 8.0;
        for z in &global {
            y += zone_row(
                &mut body,
                z,
                s.colours,
                (col + 8.0, y),
                Some(&z.zone),
                WIDTH - 20.0,
            )
            .1 + 5.0;
        }
    }
    let board_h = s
        .nodes
        .iter()
        .map(|p| p.y + board_top + s.cell.unwrap_or(80.0))
        .fold(0.0, f64::max);
    let height = (y + 20.0).max(board_h + 20.0).max(300.0);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH:.0}" height="{height:.0}" viewBox="0 0 {WIDTH:.0} {height:.0}" font-family="DejaVu Sans Mono, monospace" font-size="{TEXT:.0}">"#
    );
    out.push_str(r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#8a7f6a"/></marker></defs>"##);
    out.push('\n');
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    for (k, t) in s.title.iter().enumerate() {
        let size = if k == 0 { 18.0 } else { TEXT };
        text(&mut out, 20.0, 26.0 + k as f64 * 20.0, size, k == 0, t);
    }
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// Cells joined with `  ·  ` into lines of at most `max` characters.
fn pack(cells: &[String], max: usize) -> Vec<String> {
    let mut lines: Vec<String> = vec![];
    for c in cells {
        match lines.last_mut() {
            Some(l) if l.chars().count() + c.chars().count() + 5 <= max => {
                l.push_str("  ·  ");
                l.push_str(c);
            }
            _ => lines.push(c.clone()),
        }
    }
    lines
}
