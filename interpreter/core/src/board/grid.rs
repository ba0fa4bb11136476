//! The `[grid]` shorthand: a rectangle of cells with generated ids and edges.
//!
//! The order of everything generated here is part of the format's contract
//! (node indices and edge ids appear in logs and snapshots), so it is fixed:
//! cells in row-major order, and for each cell its edges to the right, down,
//! down-right and down-left, in that order.

use super::raw::{Key, Raw, Spanned};
use super::values::Cx;
use crate::diag::{Diagnostic, Span};
use indexmap::IndexMap;

/// The largest number of rows or columns a grid may have.
pub(crate) const MAX_SIDE: i64 = 1000;

/// One piece of an id template: literal text or a placeholder.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Part {
    Text(String),
    Row,
    Col,
}

/// Splits a template such as `r{row}c{col}` into parts. On failure returns the
/// unknown placeholder (or the unclosed text) so the caller can report it.
pub(crate) fn parse_template(template: &str) -> Result<Vec<Part>, String> {
    let mut parts = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            parts.push(Part::Text(rest[..open].to_owned()));
        }
        let after = &rest[open..];
        let close = after.find('}').ok_or_else(|| after.to_owned())?;
        match &after[..=close] {
            "{row}" => parts.push(Part::Row),
            "{col}" => parts.push(Part::Col),
            other => return Err(other.to_owned()),
        }
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        parts.push(Part::Text(rest.to_owned()));
    }
    Ok(parts)
}

/// The id of the cell at 1-based `row`, `col`.
pub(crate) fn cell_id(parts: &[Part], row: u32, col: u32) -> String {
    let mut id = String::new();
    for p in parts {
        match p {
            Part::Text(t) => id.push_str(t),
            Part::Row => id.push_str(&row.to_string()),
            Part::Col => id.push_str(&col.to_string()),
        }
    }
    id
}

/// The generated edges as pairs of 0-based cell indices (row-major), in the
/// documented order. On a directed board each pair is used both ways by the caller.
pub(crate) fn edges(rows: u32, cols: u32, diagonals: bool) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let at = |r: u32, c: u32| r * cols + c;
    for r in 0..rows {
        for c in 0..cols {
            let here = at(r, c);
            if c + 1 < cols {
                out.push((here, at(r, c + 1)));
            }
            if r + 1 < rows {
                out.push((here, at(r + 1, c)));
                if diagonals && c + 1 < cols {
                    out.push((here, at(r + 1, c + 1)));
                }
                if diagonals && c > 0 {
                    out.push((here, at(r + 1, c - 1)));
                }
            }
        }
    }
    out
}

/// The keys a `[grid]` table may have.
const GRID_KEYS: &[&str] = &["rows", "cols", "id", "diagonals"];

/// The settings of a valid `[grid]` table.
pub(super) struct Grid {
    pub(super) rows: u32,
    pub(super) cols: u32,
    pub(super) parts: Vec<Part>,
    pub(super) diagonals: bool,
    pub(super) span: Span,
}

pub(super) fn read_grid(cx: &mut Cx, key: &Key, v: &Spanned<Raw>) -> Option<Grid> {
    let t = cx.table("grid", v)?;
    let span = cx.key(key, v);
    let (mut rows, mut cols, mut parts, mut diagonals) = (
        None,
        None,
        Some(vec![
            Part::Text("r".into()),
            Part::Row,
            Part::Text("c".into()),
            Part::Col,
        ]),
        false,
    );
    let mut template_span = span;
    let mut ok = true;
    for (k, val) in t {
        match k.name.as_str() {
            "rows" | "cols" => {
                let side = match val.get_ref() {
                    Raw::Int(i) if (1..=MAX_SIDE).contains(i) => Some(*i as u32),
                    Raw::Int(i) => {
                        let s = cx.val(val);
                        cx.push(
                            Diagnostic::error(
                                "E0504",
                                format!("grid `{}` is {i}, outside 1..={}", k.name, MAX_SIDE),
                            )
                            .at(s, "out of range")
                            .help("a grid has between 1 and 1000 rows and columns"),
                        );
                        None
                    }
                    _ => {
                        cx.wrong_type(
                            &format!("grid.{}", k.name),
                            val,
                            "an integer",
                            &format!("{} = 5", k.name),
                        );
                        None
                    }
                };
                ok &= side.is_some();
                if k.name == "rows" {
                    rows = side
                } else {
                    cols = side
                }
            }
            "id" => {
                template_span = cx.val(val);
                parts = match cx.string("grid.id", val) {
                    None => None,
                    Some(s) => match parse_template(&s) {
                        Ok(p) => Some(p),
                        Err(bad) => {
                            cx.push(
                                Diagnostic::error("E0505", format!("grid id template `{s}` has an unknown placeholder `{bad}`"))
                                    .at(template_span, "unknown placeholder")
                                    .help("the template may use `{row}` and `{col}` (1-based), for example \"r{row}c{col}\""),
                            );
                            None
                        }
                    },
                };
                ok &= parts.is_some();
            }
            "diagonals" => {
                diagonals = cx.boolean("grid.diagonals", val).unwrap_or_else(|| {
                    ok = false;
                    false
                })
            }
            _ => cx.unknown_key(k, val, "[grid]", GRID_KEYS),
        }
    }
    let has = |name: &str| t.iter().any(|(k, _)| k.name == name);
    for side in ["rows", "cols"] {
        if !has(side) {
            cx.missing(side, "[grid]", span, &format!("{side} = 3"));
            ok = false;
        }
    }
    let (rows, cols, parts) = (rows?, cols?, parts?);
    if u64::from(rows) * u64::from(cols) > crate::limits::MAX_GRID_CELLS {
        cx.push(
            Diagnostic::error(
                "E0518",
                format!(
                    "a grid of {rows} x {cols} cells is larger than the limit of {} cells",
                    crate::limits::MAX_GRID_CELLS
                ),
            )
            .at(span, "this grid")
            .help(
                "every cell is a node with its own storage in every position; use a smaller grid",
            ),
        );
        return None;
    }
    // Generating the ids is the only reliable test: "{row}{col}" looks complete
    // but gives row 1 col 11 and row 11 col 1 the same id.
    let mut seen: IndexMap<String, (u32, u32)> = IndexMap::new();
    for r in 1..=rows {
        for c in 1..=cols {
            let id = cell_id(&parts, r, c);
            if let Some(&(r0, c0)) = seen.get(&id) {
                cx.push(
                    Diagnostic::error(
                        "E0505",
                        format!("grid id template gives the id `{id}` to both row {r0} col {c0} and row {r} col {c}"),
                    )
                    .at(template_span, "ids generated from this template are not unique")
                    .help("include both `{row}` and `{col}` with a separator, for example \"r{row}c{col}\""),
                );
                return None;
            }
            seen.insert(id, (r, c));
        }
    }
    ok.then_some(Grid {
        rows,
        cols,
        parts,
        diagonals,
        span,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates() {
        let parts = parse_template("r{row}c{col}").unwrap();
        assert_eq!(cell_id(&parts, 2, 11), "r2c11");
        assert_eq!(parse_template("x{rows}"), Err("{rows}".to_owned()));
        assert_eq!(parse_template("x{row"), Err("{row".to_owned()));
    }

    #[test]
    fn edge_counts() {
        assert_eq!(edges(5, 6, false).len(), 49);
        // 3x3 with diagonals: 12 orthogonal + 8 diagonal.
        assert_eq!(edges(3, 3, true).len(), 20);
        assert_eq!(edges(1, 1, true).len(), 0);
    }
}
