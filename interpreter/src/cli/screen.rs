//! The `play` screen: a position, the course of the game and the options
//! laid out to fit a terminal of 100 columns and about 40 rows.
//!
//! Everything here is layout of what `eval::view` already decided a seat may
//! see: runs of equal pieces become counts (`13× hidden goods`), zones are
//! packed by owner and by node, per-player variables form one table, and
//! many options are grouped by everything but their last word and paged.

use crate::draw::option_runs;
use crate::eval::view::ZoneView;
use crate::eval::View;

/// The width the screen is laid out for.
pub const WIDTH: usize = 100;
/// The height the screen is laid out for: the position and the options of
/// a decision fit it.
pub const ROWS: usize = 40;
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
        out.push(if j - i > 1 {
            format!("{}× {}", j - i, pieces[i])
        } else {
            pieces[i].clone()
        });
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
        let extra = if empty {
            c.chars().count()
        } else {
            sep.chars().count() + c.chars().count()
        };
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

/// A zone's name in its owner's row: `hand[gold]` for `red.hand[gold]`,
/// and the short name for every other zone.
fn own_name(z: &ZoneView, seats: &[String]) -> String {
    // In display mode a seat's zone indexed by a member reads `tray of
    // north (Gold)`: on north's row that is `tray[Gold]`, a member of a family.
    if let Some(seat) = z.owner.and_then(|o| seats.get(o)) {
        if let Some(rest) = z.zone.strip_prefix(&format!("{} of {seat}", z.short)) {
            if let Some(m) = rest.strip_prefix(" (").and_then(|r| r.strip_suffix(')')) {
                return format!("{}[{m}]", z.short);
            }
        }
    }
    let prefix = z.owner.and_then(|o| seats.get(o)).map(|s| format!("{s}."));
    match prefix.as_deref().and_then(|p| z.zone.strip_prefix(p)) {
        Some(rest) => rest.to_string(),
        None => z.short.clone(),
    }
}

/// The view a player's screen shows. When the rules declare displays
/// (`display "…" = …`), they take the place of the variables: the global ones
/// on the status line, the per-player ones in the table; the debug command
/// `view` still shows every variable.
pub fn declared(mut v: View) -> View {
    if v.displays.is_empty() {
        return v;
    }
    v.globals.clear();
    v.table = v
        .displays
        .iter()
        .filter(|d| d.per_player)
        .map(|d| (d.text.clone(), d.values.clone()))
        .collect();
    v
}

/// The status line: the declared displays for the whole game, `text: value`.
fn status(v: &View) -> Vec<String> {
    v.displays
        .iter()
        .filter(|d| !d.per_player)
        .map(|d| format!("{}: {}", d.text, d.values.join(" ")))
        .collect()
}

/// The position as `me` (a seat, or `None` for an onlooker) sees it.
pub fn position(v: &View, seats: &[String], me: Option<usize>) -> String {
    let grid = v.grid.clone().unwrap_or_default();
    grid + &wrap(&zones_and_vars(v, seats, me))
}

/// The position in at most `rows` lines: as [`position`] when it fits,
/// else compacted (see [`compact`]). `opening` is the same seat's view at
/// the first decision: board zones unchanged since then may be folded.
pub fn position_in(
    v: &View,
    seats: &[String],
    me: Option<usize>,
    rows: usize,
    opening: Option<&View>,
) -> String {
    let plain = position(v, seats, me);
    if plain.lines().count() <= rows {
        return plain;
    }
    compact(v, seats, me, rows, opening)
}

/// The position compacted to fit `rows` lines, in steps that each cost the
/// reader a little more:
/// 1. the per-player table folds into one row per seat, beside that seat's
///    own zones, whose pieces lose the seat's name (`cube`, not `red
///    cube`); zones indexed by a second dimension share one cell
///    (`hand: gold 4× cube, silver 3× cube`); the board is listed by
///    zone (`track: a-b 2× red cube  ·  b-c …`) rather than by place;
///    the list of empty zones is left out;
/// 2. board zones not changed since the first decision are folded into one
///    line naming them, largest first, until the rest fits;
/// 3. what still does not fit of the board is cut, with a line saying so.
///
/// Nothing is cut from the seats' rows, the global zones and the variables:
/// `view` shows the whole position.
fn compact(
    v: &View,
    seats: &[String],
    me: Option<usize>,
    rows: usize,
    opening: Option<&View>,
) -> String {
    let mut top: Vec<String> = v
        .grid
        .as_deref()
        .map(|g| g.lines().map(str::to_string).collect())
        .unwrap_or_default();
    // Global zones, in declaration order.
    let global: Vec<String> = v
        .zones
        .iter()
        .filter(|z| z.count > 0 && z.owner.is_none() && z.node.is_none() && z.edge.is_none())
        .map(|z| format!("{}: {}", z.short, runs(&z.pieces)))
        .collect();
    top.extend(
        pack_wide("", &global, "  ·  ")
            .into_iter()
            .filter(|l| !l.is_empty()),
    );
    // The board, by zone family (the zone's short name), in order of first appearance.
    let mut families: Vec<(String, Vec<String>)> = vec![];
    for z in v
        .zones
        .iter()
        .filter(|z| z.count > 0 && z.owner.is_none() && (z.node.is_some() || z.edge.is_some()))
    {
        if v.grid.is_some() && z.node.is_some() {
            continue;
        }
        let place = z
            .node
            .clone()
            .or_else(|| z.edge.clone())
            .unwrap_or_default();
        let cell = format!("{place} {}", runs(&z.pieces));
        match families.iter_mut().find(|(f, _)| *f == z.short) {
            Some(f) => f.1.push(cell),
            None => families.push((z.short.clone(), vec![cell])),
        }
    }
    // The seats' rows: folded table values, then the seat's own zones.
    let sw = seats.iter().map(|n| n.chars().count()).max().unwrap_or(0) + 2;
    let mut seat_lines = vec![];
    for (o, seat) in seats.iter().enumerate() {
        let mut cells: Vec<String> = v
            .table
            .iter()
            .filter_map(|(k, r)| r.get(o).map(|x| format!("{k} {x}")))
            .collect();
        cells.extend(owned_cells(v, seats, o));
        let name = if Some(o) == me {
            format!("{seat}*")
        } else {
            seat.clone()
        };
        seat_lines.extend(pack_wide(&format!("{name:<sw$}"), &cells, " · "));
    }
    let mut globals = status(v);
    globals.extend(v.globals.iter().map(|(k, x)| format!("{k}={x}")));
    let vars: Vec<String> = pack("", &globals, "  ", WIDTH)
        .into_iter()
        .filter(|l| !l.is_empty())
        .collect();
    let board_rows = rows.saturating_sub(top.len() + seat_lines.len() + vars.len());
    // The board without the folded families, and the line naming those.
    let board = |fold: &[usize]| -> (Vec<String>, Vec<String>) {
        let mut lines = vec![];
        for (i, (f, cells)) in families.iter().enumerate() {
            if !fold.contains(&i) {
                lines.extend(pack_wide(&format!("{f}: "), cells, " · "));
            }
        }
        let names: Vec<String> = fold
            .iter()
            .map(|&i| format!("{} ({})", families[i].0, families[i].1.len()))
            .collect();
        let note = if fold.is_empty() {
            vec![]
        } else {
            pack("as at the start, not shown: ", &names, ", ", WIDTH)
        };
        (lines, note)
    };
    // Families unchanged since the first decision, largest first.
    let mut still: Vec<usize> = match opening {
        Some(o) => (0..families.len())
            .filter(|&i| unchanged(&families[i].0, v, o))
            .collect(),
        None => vec![],
    };
    still.sort_by_key(|&i| {
        std::cmp::Reverse(
            families[i]
                .1
                .iter()
                .map(|c| c.chars().count())
                .sum::<usize>(),
        )
    });
    let mut fold: Vec<usize> = vec![];
    let (mut lines, mut note) = board(&fold);
    for &i in &still {
        if lines.len() + note.len() <= board_rows {
            break;
        }
        fold.push(i);
        (lines, note) = board(&fold);
    }
    let room = board_rows.saturating_sub(note.len());
    if lines.len() > room {
        let keep = room.saturating_sub(1);
        let cut = lines.len() - keep;
        lines.truncate(keep);
        lines.push(format!(
            "… {cut} more line(s) of the board: `view` shows the whole position"
        ));
    }
    lines.extend(note);
    let mut s = String::new();
    for l in top.iter().chain(&lines).chain(&seat_lines).chain(&vars) {
        s.push_str(l);
        s.push('\n');
    }
    s
}

/// Seat `o`'s own zones as cells, its name left out of its pieces, and
/// zones indexed by a second dimension gathered in one cell.
fn owned_cells(v: &View, seats: &[String], o: usize) -> Vec<String> {
    let prefix = format!("{} ", seats[o]);
    type Members = Vec<(Option<String>, Vec<String>)>;
    let mut cells: Vec<(String, Members)> = vec![];
    for z in v
        .zones
        .iter()
        .filter(|z| z.count > 0 && z.owner == Some(o) && z.node.is_none() && z.edge.is_none())
    {
        let pieces: Vec<String> = z
            .pieces
            .iter()
            .map(|p| p.strip_prefix(&prefix).unwrap_or(p).to_string())
            .collect();
        let name = own_name(z, seats);
        let (family, member) = match name.split_once('[') {
            Some((f, m)) => (f.to_string(), Some(m.trim_end_matches(']').to_string())),
            None => (name.clone(), None),
        };
        let text = (member, pieces);
        match cells.iter_mut().find(|(f, _)| *f == family) {
            Some(c) => c.1.push(text),
            None => cells.push((family, vec![text])),
        }
    }
    cells
        .into_iter()
        .map(|(f, members)| family_cell(&f, &members))
        .collect()
}

/// One cell for the zones of a family: `supply: disc 5× cube`, or for
/// zones indexed by a member, `hand (cube): a 4, b 3× disc, c 3`: the
/// label most members hold only is written once, after the family's name.
fn family_cell(family: &str, members: &[(Option<String>, Vec<String>)]) -> String {
    if let [(None, pieces)] = members {
        return format!("{family}: {}", runs(pieces));
    }
    let only = |p: &[String]| -> Option<String> {
        p.first().filter(|f| p.iter().all(|x| x == *f)).cloned()
    };
    let mut common: Vec<(String, usize)> = vec![];
    for (_, p) in members {
        if let Some(l) = only(p) {
            match common.iter_mut().find(|c| c.0 == l) {
                Some(c) => c.1 += 1,
                None => common.push((l, 1)),
            }
        }
    }
    let common = common
        .into_iter()
        .max_by_key(|c| c.1)
        .filter(|c| c.1 > 1)
        .map(|c| c.0);
    let texts: Vec<String> = members
        .iter()
        .map(|(m, p)| {
            let m = m.clone().unwrap_or_default();
            match &common {
                Some(c) if only(p).as_ref() == Some(c) => format!("{m} {}", p.len()),
                _ => format!("{m} {}", runs(p)),
            }
        })
        .collect();
    match common {
        Some(c) => format!("{family} ({c}): {}", texts.join(", ")),
        None => format!("{family}: {}", texts.join(", ")),
    }
}

/// Packs `cells` like [`pack`], but each goes into the first line with
/// room for it (so a short cell fills the end of an earlier line), and a
/// cell wider than the width is broken at spaces.
fn pack_wide(head: &str, cells: &[String], sep: &str) -> Vec<String> {
    let indent = " ".repeat(head.chars().count());
    let w = |s: &str| s.chars().count();
    let mut lines: Vec<String> = vec![];
    for c in cells {
        match lines.iter_mut().find(|l| w(l) + w(sep) + w(c) <= WIDTH) {
            Some(l) => {
                l.push_str(sep);
                l.push_str(c);
            }
            None => lines.push(format!(
                "{}{c}",
                if lines.is_empty() { head } else { &indent }
            )),
        }
    }
    if lines.is_empty() {
        lines.push(head.to_string());
    }
    let mut out = vec![];
    for l in lines {
        if l.chars().count() <= WIDTH {
            out.push(l);
            continue;
        }
        let (lead, rest) = l.split_at(l.len() - l.trim_start().len());
        let lead = if lead.is_empty() {
            head.to_string()
        } else {
            lead.to_string()
        };
        let body = rest
            .strip_prefix(head.trim_start())
            .unwrap_or(rest)
            .trim_start();
        let words: Vec<String> = body.split(' ').map(str::to_string).collect();
        let mut first = true;
        for w in pack("", &words, " ", WIDTH - indent.chars().count()) {
            out.push(format!("{}{w}", if first { &lead } else { &indent }));
            first = false;
        }
    }
    out
}

/// Whether every zone of board family `family` holds what it held in `opening`.
fn unchanged(family: &str, v: &View, opening: &View) -> bool {
    let of = |w: &View| -> Vec<(String, Vec<String>)> {
        w.zones
            .iter()
            .filter(|z| {
                z.short == family
                    && z.owner.is_none()
                    && (z.node.is_some() || z.edge.is_some())
                    && z.count > 0
            })
            .map(|z| (z.zone.clone(), z.pieces.clone()))
            .collect()
    };
    of(v) == of(opening)
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
        let cell = format!("{}: {}", own_name(z, seats), runs(&z.pieces));
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
    let nw = nodes
        .iter()
        .map(|(n, _)| n.chars().count())
        .max()
        .unwrap_or(0);
    // Several nodes to a line when they are short.
    let node_cells: Vec<String> = nodes
        .iter()
        .map(|(n, c)| format!("{n:<nw$}  {}", c.join("; ")))
        .collect();
    let cw = node_cells
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(0);
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
            for l in pack("", std::slice::from_ref(c), " ", WIDTH) {
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
        let name = if Some(o) == me {
            format!("{} (you)", seats[o])
        } else {
            seats[o].clone()
        };
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
    let mut globals = status(v);
    globals.extend(v.globals.iter().map(|(k, x)| format!("{k}={x}")));
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
    let kw = v
        .table
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let heads: Vec<String> = seats
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if Some(i) == me {
                format!("{n}*")
            } else {
                n.clone()
            }
        })
        .collect();
    let cw: Vec<usize> = (0..seats.len())
        .map(|i| {
            v.table
                .iter()
                .map(|(_, r)| r.get(i).map(|x| x.chars().count()).unwrap_or(0))
                .max()
                .unwrap_or(0)
                .max(heads[i].chars().count())
        })
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
    let mut lines = vec![];
    let mut singles: Vec<String> = vec![];
    let flush = |singles: &mut Vec<String>, lines: &mut Vec<String>| {
        if !singles.is_empty() {
            lines.extend(pack("  ", singles, "    ", WIDTH));
            singles.clear();
        }
    };
    for run in option_runs(labels) {
        let (i, j) = (run.start, run.end);
        if j - i >= 3 {
            flush(&mut singles, &mut lines);
            let k = labels[i]
                .rsplit_once(' ')
                .map(|(a, _)| a)
                .unwrap_or_default();
            let cells: Vec<String> = (i..j)
                .map(|x| {
                    format!(
                        "{:>w$}) {}",
                        x + 1,
                        labels[x].rsplit_once(' ').map(|p| p.1).unwrap_or("")
                    )
                })
                .collect();
            lines.extend(pack(&format!("  {k}: "), &cells, "  ", WIDTH));
        } else {
            for (x, label) in labels.iter().enumerate().take(j).skip(i) {
                singles.push(format!("{:>w$}) {}", x + 1, label));
            }
        }
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
        s.push_str(&format!(
            "  (options, page {} of {}: `more` shows the next)\n",
            page + 1,
            pages
        ));
    }
    s
}

/// One zone of the map as words to pack: `offices:` then a word per slot,
/// `[white: red merchant]` (the piece of the `over` zone the slot stands
/// for, then its occupant or `·`) when the rules draw it as slots, else the
/// zone's pieces. Nothing for an empty zone without slots.
fn map_cells(z: &ZoneView) -> Vec<String> {
    let Some(sl) = &z.slots else {
        if z.pieces.is_empty() {
            return vec![];
        }
        return vec![format!("{}: {}", z.short, runs(&z.pieces))];
    };
    let n = sl.count.max(z.pieces.len());
    let mut out = vec![format!("{}:", z.short)];
    out.extend((0..n).map(|k| {
        let on = z.pieces.get(k).map(String::as_str).unwrap_or("·");
        match sl.over.get(k) {
            Some((label, _)) => format!("[{label}: {on}]"),
            None => format!("[{on}]"),
        }
    }));
    out
}

/// Lines of `head` then the zones' words, zones parted by ` · `, in
/// [`WIDTH`] columns.
fn map_lines(head: &str, zones: &[Vec<String>]) -> Vec<String> {
    let mut words: Vec<String> = vec![];
    for (i, z) in zones.iter().enumerate() {
        if i > 0 {
            words.push("·".into());
        }
        words.extend(z.iter().cloned());
    }
    if words.is_empty() {
        words.push("(nothing here)".into());
    }
    pack(head, &words, " ", WIDTH)
}

/// The board as a text map, for the `map` command at the play prompt: a
/// grid board as its grid; any other board place by place (every zone on
/// it, slots in order, free slots as `·`), then every connection with the
/// zones on it (`A → B` on a directed board). `v` is a view with display
/// names.
pub fn map_text(v: &View, g: &crate::ir::Game) -> String {
    if let Some(grid) = &v.grid {
        return grid.clone();
    }
    let drawn_in_slots: Vec<u32> = v
        .zones
        .iter()
        .filter_map(|z| z.slots.as_ref().and_then(|s| s.over_zone))
        .collect();
    let nodes = g.board.nodes.len();
    let edges = g.board.edges.len();
    let mut at_node: Vec<Vec<Vec<String>>> = vec![vec![]; nodes];
    let mut at_edge: Vec<Vec<Vec<String>>> = vec![vec![]; edges];
    for z in &v.zones {
        let cells = map_cells(z);
        if drawn_in_slots.contains(&z.id) || cells.is_empty() {
            continue;
        }
        let (_, i) = g.zone_decl(z.id);
        if z.node.is_some() && (i as usize) < nodes {
            at_node[i as usize].push(cells);
        } else if let Some(e) = z.edge_index.filter(|&e| e < edges) {
            at_edge[e].push(cells);
        }
    }
    let pad = |names: Vec<String>| -> Vec<String> {
        let w = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
        names
            .into_iter()
            .map(|n| format!("{n}{}  ", " ".repeat(w - n.chars().count())))
            .collect()
    };
    let mut lines = vec![];
    let heads = pad((0..nodes).map(|n| g.node_shown(n).to_string()).collect());
    for (head, zones) in heads.iter().zip(&at_node) {
        lines.extend(map_lines(head, zones));
    }
    let routes: Vec<String> = (0..edges)
        .map(|e| {
            let x = &g.board.edges[e];
            if g.board.directed {
                let (a, b) = (x.from as usize, x.to as usize);
                format!("{} → {}", g.node_shown(a), g.node_shown(b))
            } else {
                g.edge_shown(e)
            }
        })
        .collect();
    if edges > 0 {
        lines.push(String::new());
    }
    for (head, zones) in pad(routes).iter().zip(&at_edge) {
        if zones.is_empty() {
            lines.push(head.clone());
        } else {
            lines.extend(map_lines(head, zones));
        }
    }
    let mut out = String::new();
    for l in lines {
        out.push_str(l.trim_end());
        out.push('\n');
    }
    out
}

/// A line of the course of the game as it is shown: phase starts become
/// markers that stand out; a line of several (a board shown by `show
/// board`) is indented as a whole.
pub fn course_line(l: &str) -> String {
    match l.strip_prefix("-- ") {
        Some(phase) => format!("─── {phase} ───"),
        None => l
            .lines()
            .map(|x| format!("  {x}"))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_count_equal_neighbours() {
        let p: Vec<String> = ["a", "a", "a", "b", "a"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(runs(&p), "3× a b a");
    }

    #[test]
    fn options_group_by_all_but_the_last_word() {
        let l: Vec<String> = ["put at r1", "put at r2", "put at r3", "draw", "pass"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            options(&l),
            vec![
                "  put at: 1) r1  2) r2  3) r3".to_string(),
                "  4) draw    5) pass".to_string()
            ]
        );
    }

    #[test]
    fn long_lines_wrap_within_the_width() {
        let long = format!("out: {}", "green-2 ".repeat(30));
        let w = wrap(&long);
        assert!(
            w.lines().count() > 1 && w.lines().all(|l| l.chars().count() <= WIDTH),
            "{w}"
        );
    }

    #[test]
    fn a_family_of_indexed_zones_is_one_cell_with_its_common_label_once() {
        let m = |k: &str, p: &[&str]| {
            (
                Some(k.to_string()),
                p.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            )
        };
        let cell = family_cell(
            "hand",
            &[
                m("a", &["cube"; 4]),
                m("b", &["disc", "disc"]),
                m("c", &["cube"; 3]),
            ],
        );
        assert_eq!(cell, "hand (cube): a 4, b 2× disc, c 3");
        let one = family_cell(
            "supply",
            &[(None, vec!["disc".into(), "cube".into(), "cube".into()])],
        );
        assert_eq!(one, "supply: disc 2× cube");
    }

    #[test]
    fn pack_wide_fills_earlier_lines_and_breaks_wide_cells() {
        let cells: Vec<String> = vec![
            "a".repeat(60),
            "b".repeat(50),
            "c".repeat(30),
            format!("{} {}", "d".repeat(60), "e".repeat(60)),
        ];
        let lines = pack_wide("head  ", &cells, " · ");
        assert!(
            lines.iter().all(|l| l.chars().count() <= WIDTH),
            "{lines:#?}"
        );
        // The short third cell goes after the first, not after the second.
        assert!(lines[0].ends_with(&"c".repeat(30)), "{lines:#?}");
        assert!(
            lines.iter().skip(1).all(|l| l.starts_with("      ")),
            "{lines:#?}"
        );
    }

    #[test]
    fn pack_wraps_with_a_hanging_indent() {
        let cells: Vec<String> = (0..30).map(|i| format!("cell{i:02}")).collect();
        let lines = pack("head: ", &cells, " ", 40);
        assert!(lines.iter().all(|l| l.chars().count() <= 40));
        assert!(lines[1].starts_with("      cell"));
    }
}
