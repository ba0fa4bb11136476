//! The `play` screen: a position, the course of the game and the options
//! laid out to fit a terminal of 100 columns and about 40 rows.
//!
//! Everything here is layout of what `eval::view` already decided a seat may
//! see: runs of equal pieces become counts (`13× hidden goods`), zones are
//! packed by owner and by node, per-player variables form one table, and
//! many options are grouped by everything but their last word and paged.

use crate::eval::View;

/// The width the screen is laid out for.
pub const WIDTH: usize = 100;
/// Lines of options shown at once; `more` shows the next page.
pub const OPTION_LINES: usize = 12;
/// Lines of the course of the game shown before a decision (older ones scroll
/// away; `log` shows them all again).
pub const COURSE_LINES: usize = 60;

/// Pieces bottom to top, with runs of equal labels written once with a count.
fn runs(pieces: &[String]) -> String {
    let mut out: Vec<String> = vec![];
    let mut i = 0;
    while i < pieces.len() {
        let mut j = i + 1;
        while j < pieces.len() && pieces[j] == pieces[i] {
            j += 1;
        }
        out.push(if j - i > 1 { format!("{}× {}", j - i, pieces[i]) } else { pieces[i].clone() });
        i = j;
    }
    out.join(" ")
}

/// Packs `cells` into lines of at most `width` columns, the first starting
/// with `head` and the others indented as far.
pub fn pack(head: &str, cells: &[String], sep: &str, width: usize) -> Vec<String> {
    let indent = " ".repeat(head.chars().count());
    let mut lines = vec![];
    let mut cur = head.to_string();
    let mut empty = true;
    for c in cells {
        let extra = if empty { c.chars().count() } else { sep.chars().count() + c.chars().count() };
        if !empty && cur.chars().count() + extra > width {
            lines.push(std::mem::replace(&mut cur, indent.clone()));
            empty = true;
        }
        if !empty {
            cur.push_str(sep);
        }
        cur.push_str(c);
        empty = false;
    }
    if !empty || lines.is_empty() {
        lines.push(cur);
    }
    lines
}

/// Breaks every line longer than [`WIDTH`] at spaces, continuing indented.
fn wrap(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.chars().count() <= WIDTH {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let words: Vec<String> = line.split(' ').map(str::to_string).collect();
        let mut first = true;
        for l in pack("", &words, " ", WIDTH - 4) {
            if !first {
                out.push_str("    ");
            }
            out.push_str(&l);
            out.push('\n');
            first = false;
        }
    }
    out
}

/// The position as `me` (a seat, or `None` for an onlooker) sees it.
pub fn position(v: &View, seats: &[String], me: Option<usize>) -> String {
    let grid = v.grid.clone().unwrap_or_default();
    grid + &wrap(&zones_and_vars(v, seats, me))
}

fn zones_and_vars(v: &View, seats: &[String], me: Option<usize>) -> String {
    let mut s = String::new();
    let mut empty = vec![];
    let mut global = vec![];
    let mut nodes: Vec<(String, Vec<String>)> = vec![];
    let mut owned: Vec<Vec<String>> = vec![vec![]; seats.len()];
    for z in &v.zones {
        if z.count == 0 {
            if z.owner.is_none() && z.node.is_none() && z.edge.is_none() {
                empty.push(z.zone.clone());
            }
            continue;
        }
        let cell = format!("{}: {}", z.short, runs(&z.pieces));
        // Zones on edges are listed like zones on nodes, by the edge's id.
        match (z.node.as_ref().or(z.edge.as_ref()), z.owner) {
            (Some(_), _) if v.grid.is_some() && z.node.is_some() => {}
            (Some(n), _) => match nodes.iter_mut().find(|(m, _)| m == n) {
                Some(e) => e.1.push(cell),
                None => nodes.push((n.clone(), vec![cell])),
            },
            (None, Some(o)) => owned[o].push(cell),
            (None, None) => global.push(cell),
        }
    }
    for l in pack("", &global, "  ·  ", WIDTH) {
        if !l.is_empty() {
            s.push_str(&l);
            s.push('\n');
        }
    }
    let nw = nodes.iter().map(|(n, _)| n.chars().count()).max().unwrap_or(0);
    // Several nodes to a line when they are short.
    let node_cells: Vec<String> = nodes.iter().map(|(n, c)| format!("{n:<nw$}  {}", c.join("; "))).collect();
    let cw = node_cells.iter().map(|c| c.chars().count()).max().unwrap_or(0);
    if cw > 0 && cw * 2 + 4 <= WIDTH {
        for pair in node_cells.chunks(2) {
            match pair {
                [a, b] => s.push_str(&format!("{a:<cw$}    {b}\n")),
                [a] => s.push_str(&format!("{a}\n")),
                _ => {}
            }
        }
    } else {
        for c in &node_cells {
            for l in pack("", &[c.clone()], " ", WIDTH) {
                s.push_str(&l);
                s.push('\n');
            }
        }
    }
    let sw = seats.iter().map(|n| n.chars().count()).max().unwrap_or(0) + 8;
    for (o, cells) in owned.iter().enumerate() {
        if cells.is_empty() {
            continue;
        }
        let name = if Some(o) == me { format!("{} (you)", seats[o]) } else { seats[o].clone() };
        for l in pack(&format!("{name:<sw$}"), cells, "  ·  ", WIDTH) {
            s.push_str(&l);
            s.push('\n');
        }
    }
    if !empty.is_empty() {
        for l in pack("empty: ", &empty, ", ", WIDTH) {
            s.push_str(&l);
            s.push('\n');
        }
    }
    let globals: Vec<String> = v.globals.iter().map(|(k, x)| format!("{k}={x}")).collect();
    for l in pack("", &globals, "  ", WIDTH) {
        if !l.is_empty() {
            s.push_str(&l);
            s.push('\n');
        }
    }
    s.push_str(&table(v, seats, me));
    s
}

/// The per-player variables: a row per variable, a column per seat.
pub fn table(v: &View, seats: &[String], me: Option<usize>) -> String {
    if v.table.is_empty() {
        return String::new();
    }
    let kw = v.table.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(0);
    let heads: Vec<String> = seats.iter().enumerate().map(|(i, n)| if Some(i) == me { format!("{n}*") } else { n.clone() }).collect();
    let cw: Vec<usize> = (0..seats.len())
        .map(|i| v.table.iter().map(|(_, r)| r.get(i).map(|x| x.chars().count()).unwrap_or(0)).max().unwrap_or(0).max(heads[i].chars().count()))
        .collect();
    let mut s = format!("{:kw$}", "");
    for (i, h) in heads.iter().enumerate() {
        s.push_str(&format!("  {h:>w$}", w = cw[i]));
    }
    s.push('\n');
    for (k, row) in &v.table {
        s.push_str(&format!("{k:<kw$}"));
        for (i, x) in row.iter().enumerate() {
            s.push_str(&format!("  {x:>w$}", w = cw[i]));
        }
        s.push('\n');
    }
    s
}

/// The options as lines: labels that differ only in their last word are one
/// group (`stall 1 at: 1) r1c1  2) r1c2 …`); single options share lines.
pub fn options(labels: &[String]) -> Vec<String> {
    let w = labels.len().to_string().len();
    let key = |l: &str| l.rsplit_once(' ').map(|(a, _)| a.to_string());
    let mut lines = vec![];
    let mut singles: Vec<String> = vec![];
    let flush = |singles: &mut Vec<String>, lines: &mut Vec<String>| {
        if !singles.is_empty() {
            lines.extend(pack("  ", singles, "    ", WIDTH));
            singles.clear();
        }
    };
    let mut i = 0;
    while i < labels.len() {
        let k = key(&labels[i]);
        let mut j = i + 1;
        if k.is_some() {
            while j < labels.len() && key(&labels[j]) == k {
                j += 1;
            }
        }
        if j - i >= 3 {
            flush(&mut singles, &mut lines);
            let k = k.unwrap_or_default();
            let cells: Vec<String> = (i..j).map(|x| format!("{:>w$}) {}", x + 1, labels[x].rsplit_once(' ').map(|p| p.1).unwrap_or(""))).collect();
            lines.extend(pack(&format!("  {k}: "), &cells, "  ", WIDTH));
        } else {
            for x in i..j {
                singles.push(format!("{:>w$}) {}", x + 1, labels[x]));
            }
        }
        i = j;
    }
    flush(&mut singles, &mut lines);
    lines
}

/// Page `page` of the option lines (pages of [`OPTION_LINES`]).
pub fn options_page(lines: &[String], page: usize) -> String {
    let pages = lines.len().div_ceil(OPTION_LINES).max(1);
    let page = page % pages;
    let mut s = String::new();
    for l in lines.iter().skip(page * OPTION_LINES).take(OPTION_LINES) {
        s.push_str(l);
        s.push('\n');
    }
    if pages > 1 {
        s.push_str(&format!("  (options, page {} of {}: `more` shows the next)\n", page + 1, pages));
    }
    s
}

/// A line of the course of the game as it is shown: phase starts become
/// markers that stand out.
pub fn course_line(l: &str) -> String {
    match l.strip_prefix("-- ") {
        Some(phase) => format!("─── {phase} ───"),
        None => format!("  {l}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_count_equal_neighbours() {
        let p: Vec<String> = ["a", "a", "a", "b", "a"].iter().map(|s| s.to_string()).collect();
        assert_eq!(runs(&p), "3× a b a");
    }

    #[test]
    fn options_group_by_all_but_the_last_word() {
        let l: Vec<String> = ["put at r1", "put at r2", "put at r3", "draw", "pass"].iter().map(|s| s.to_string()).collect();
        assert_eq!(options(&l), vec!["  put at: 1) r1  2) r2  3) r3".to_string(), "  4) draw    5) pass".to_string()]);
    }

    #[test]
    fn long_lines_wrap_within_the_width() {
        let long = format!("out: {}", "green-2 ".repeat(30));
        let w = wrap(&long);
        assert!(w.lines().count() > 1 && w.lines().all(|l| l.chars().count() <= WIDTH), "{w}");
    }

    #[test]
    fn pack_wraps_with_a_hanging_indent() {
        let cells: Vec<String> = (0..30).map(|i| format!("cell{i:02}")).collect();
        let lines = pack("head: ", &cells, " ", 40);
        assert!(lines.iter().all(|l| l.chars().count() <= 40));
        assert!(lines[1].starts_with("      cell"));
    }
}
