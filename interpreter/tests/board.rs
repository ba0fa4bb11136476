//! Integration tests of the board stage: the shipped maps, the adjacency queries,
//! and the diagnostics for broken boards.

use regel::board::{build, AttrValue, Board};
use regel::diag::{Diagnostic, Sources};

fn map(name: &str) -> Board {
    let path = format!("{}/../maps/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut sources = Sources::default();
    let file = sources.add(name, text);
    match build(&sources, file) {
        Ok(board) => board,
        Err(diags) => panic!(
            "{name} failed:\n{}",
            regel::diag::render(&sources, &diags, false, 100)
        ),
    }
}

fn board(text: &str) -> Result<Board, Vec<Diagnostic>> {
    let mut sources = Sources::default();
    sources.add("dummy.txt", "another file, so the board is not file 0");
    let file = sources.add("test.toml", text);
    let result = build(&sources, file);
    if let Err(diags) = &result {
        for d in diags {
            assert_eq!(d.primary.map(|s| s.file), Some(file), "{d:?}");
        }
    }
    result
}

fn codes(text: &str) -> Vec<&'static str> {
    match board(text) {
        Ok(_) => panic!("expected errors for:\n{text}"),
        Err(diags) => diags.iter().map(|d| d.code).collect(),
    }
}

/// The text a diagnostic's primary span covers.
fn primary_text<'a>(text: &'a str, d: &Diagnostic) -> &'a str {
    let s = d.primary.expect("a span");
    &text[s.start as usize..s.end as usize]
}

fn ids(b: &Board, list: &[u32]) -> Vec<String> {
    list.iter()
        .map(|&n| b.nodes[n as usize].id.clone())
        .collect()
}

#[test]
fn auf_heller_und_pfennig_market() {
    let b = map("auf-heller-und-pfennig.toml");
    assert_eq!(b.name, "Auf Heller und Pfennig market");
    assert!(!b.directed);
    assert_eq!(b.nodes.len(), 30);
    assert_eq!(b.nodes[0].id, "r1c1");
    assert_eq!(b.nodes[6].id, "r2c1");
    assert_eq!(b.nodes[29].id, "r5c6");
    assert_eq!(b.edges.len(), 5 * 5 + 4 * 6);
    assert_eq!(b.graph.node_count(), 30);
    assert_eq!(b.graph.edge_count(), 2 * 49);

    let r1c1 = b.node_index["r1c1"];
    assert_eq!(ids(&b, b.neighbors(r1c1)), ["r1c2", "r2c1"]);
    let r3c3 = b.node_index["r3c3"];
    assert_eq!(ids(&b, b.neighbors(r3c3)), ["r2c3", "r3c2", "r3c4", "r4c3"]);
    assert_eq!(b.successors(r3c3), b.predecessors(r3c3));
    assert_eq!(b.out_edges(r3c3).len(), 4);

    assert_eq!(b.node_attrs.keys().collect::<Vec<_>>(), ["row", "col"]);
    let r5c6 = b.node_index["r5c6"] as usize;
    assert_eq!(b.node_attrs["row"].values[r5c6], AttrValue::Int(5));
    assert_eq!(b.node_attrs["col"].values[r5c6], AttrValue::Int(6));

    let tiles = &b.pieces["tile"];
    assert_eq!(tiles.len(), 21);
    assert_eq!(tiles.iter().map(|g| g.count).sum::<u32>(), 22);
    let count = |kind: &str| -> u32 {
        tiles
            .iter()
            .filter(|g| g.fields["kind"].0 == AttrValue::Str(kind.into()))
            .map(|g| g.count)
            .sum()
    };
    assert_eq!(
        [
            count("buyer"),
            count("rogue"),
            count("gold"),
            count("fire"),
            count("eye")
        ],
        [12, 6, 1, 2, 1]
    );
    let value_sum = |kind: &str| -> i64 {
        tiles
            .iter()
            .filter(|g| g.fields["kind"].0 == AttrValue::Str(kind.into()))
            .map(|g| match g.fields["value"].0 {
                AttrValue::Int(v) => v * i64::from(g.count),
                _ => panic!("value is not an int"),
            })
            .sum()
    };
    assert_eq!(value_sum("buyer"), 2 * 21);
    assert_eq!(value_sum("rogue"), 21);
    assert_eq!(tiles[0].fields["name"].0, AttrValue::Str("Knecht".into()));
    assert!(tiles
        .iter()
        .all(|g| g.fields.keys().collect::<Vec<_>>() == ["kind", "value", "name", "short"]));
}

#[test]
fn tic_tac_toe_and_connect_four() {
    let t = map("tic-tac-toe.toml");
    assert_eq!(t.nodes.len(), 9);
    assert_eq!(t.edges.len(), 12 + 8);
    let centre = t.node_index["r2c2"];
    assert_eq!(t.neighbors(centre).len(), 8);
    assert_eq!(
        ids(&t, t.neighbors(t.node_index["r1c1"])),
        ["r1c2", "r2c1", "r2c2"]
    );

    let c = map("connect-four.toml");
    assert_eq!(c.nodes.len(), 42);
    assert_eq!(c.edges.len(), 6 * 6 + 5 * 7);
    assert_eq!(c.nodes[41].id, "r6c7");
}

/// Breakthrough's and Reversi's board: a pawn's diagonal step and Reversi's
/// eight lines start from a neighbour, so every inner square has eight.
#[test]
fn board_8x8_with_diagonals() {
    let b = map("board-8x8.toml");
    assert_eq!(b.nodes.len(), 64);
    assert_eq!(b.edges.len(), 2 * 8 * 7 + 2 * 7 * 7);
    assert_eq!(b.neighbors(b.node_index["r4c5"]).len(), 8);
    assert_eq!(
        ids(&b, b.neighbors(b.node_index["r8c8"])),
        ["r7c7", "r7c8", "r8c7"]
    );
}

const DIRECTED: &str = r#"
[board]
name = "one way"
directed = true

[[node]]
id = "a"
[[node]]
id = "b"
[[node]]
id = "c"

[[edge]]
from = "a"
to = "b"
cost = 2
[[edge]]
from = "b"
to = "c"
id = "bc"
[[edge]]
from = "c"
to = "a"

[defaults.edge]
cost = 1
"#;

#[test]
fn directed_graph_queries() {
    let b = board(DIRECTED).unwrap();
    assert!(b.directed);
    let (a, bb, c) = (b.node_index["a"], b.node_index["b"], b.node_index["c"]);
    assert_eq!(b.successors(a), [bb]);
    assert_eq!(b.predecessors(a), [c]);
    assert_ne!(b.successors(a), b.predecessors(a));
    assert_eq!(b.neighbors(a), [bb, c]);
    assert_eq!(b.out_edges(bb), [1]);
    assert_eq!(
        b.edges.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
        ["a-b", "bc", "c-a"]
    );
    assert_eq!(b.edge_between(a, bb), Some(0));
    assert_eq!(b.edge_between(bb, a), None);
    assert_eq!(b.edge_between(c, a), Some(2));
    assert_eq!(b.graph.edge_count(), 3);
    assert_eq!(
        b.edge_attrs["cost"].values,
        [AttrValue::Int(2), AttrValue::Int(1), AttrValue::Int(1)]
    );
    // Out-of-range indices answer "nothing" instead of panicking.
    assert!(b.successors(99).is_empty());

    let dot = b.to_dot();
    assert!(dot.starts_with("digraph \"one way\" {\n"), "{dot}");
    assert!(
        dot.contains("  n0 -> n1 [label=\"a-b\\ncost=2\"];"),
        "{dot}"
    );
    assert_eq!(dot, board(DIRECTED).unwrap().to_dot());
}

#[test]
fn undirected_edge_between_and_attributes() {
    let text = r#"
[[node]]
id = "luebeck"
warehouses = 2
port = true
[[node]]
id = "danzig"
[[edge]]
from = "luebeck"
to = "danzig"
[defaults.node]
warehouses = 0
port = false
"#;
    let b = board(text).unwrap();
    assert_eq!(b.name, "test");
    assert_eq!(b.edge_between(0, 1), Some(0));
    assert_eq!(b.edge_between(1, 0), Some(0));
    assert_eq!(
        b.node_attrs["warehouses"].values,
        [AttrValue::Int(2), AttrValue::Int(0)]
    );
    assert_eq!(
        b.node_attrs["port"].values,
        [AttrValue::Bool(true), AttrValue::Bool(false)]
    );
    assert_eq!(b.successors(1), [0]);
    assert_eq!(b.predecessors(1), [0]);
}

#[test]
fn three_distinct_errors_are_all_reported() {
    let text = r#"
[board]
directed = "yes"

[[node]]
id = "a"
[[node]]
id = "b"
[[edge]]
from = "a"
to = "bb"

[[pieces.tile]]
count = 0
"#;
    let diags = board(text).unwrap_err();
    let got: Vec<_> = diags
        .iter()
        .map(|d| (d.code, primary_text(text, d)))
        .collect();
    assert_eq!(
        got,
        [("E0503", "\"yes\""), ("E0507", "\"bb\""), ("E0511", "0")]
    );
    assert_eq!(diags[1].help.as_deref(), Some("did you mean `b`?"));
}

#[test]
fn a_broken_grid_does_not_cascade() {
    // The cell ids are unknown when the grid is invalid, so edges to them are not judged.
    let text = "[grid]\nrows = \"five\"\ncols = 3\n[[node]]\nid = \"x\"\n[[edge]]\nfrom = \"x\"\nto = \"r1c1\"\n";
    let diags = board(text).unwrap_err();
    let got: Vec<_> = diags
        .iter()
        .map(|d| (d.code, primary_text(text, d)))
        .collect();
    assert_eq!(got, [("E0503", "\"five\"")]);
}

#[test]
fn toml_syntax_error_stops_with_its_span() {
    let text = "[board]\nname = \n";
    let diags = board(text).unwrap_err();
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code, "E0501");
    assert_eq!(diags[0].primary.unwrap().start, 15);
}

#[test]
fn each_problem_has_its_code() {
    assert_eq!(
        codes("[boards]\nname = \"x\"\n[grid]\nrows = 1\ncols = 1\n"),
        ["E0502"]
    );
    assert_eq!(
        codes("[grid]\nrows = 1\ncols = 1\nwide = true\n"),
        ["E0502"]
    );
    assert_eq!(codes("[grid]\nrows = 0\ncols = 1001\n"), ["E0504", "E0504"]);
    assert_eq!(
        codes("[grid]\nrows = 2\ncols = 2\nid = \"cell{row}\"\n"),
        ["E0505"]
    );
    assert_eq!(
        codes("[grid]\nrows = 11\ncols = 11\nid = \"{row}{col}\"\n"),
        ["E0505"]
    );
    assert_eq!(
        codes("[grid]\nrows = 2\ncols = 2\nid = \"{r}\"\n"),
        ["E0505"]
    );
    assert_eq!(
        codes("[[node]]\nid = \"a\"\n[[node]]\nid = \"a\"\n"),
        ["E0506"]
    );
    assert_eq!(
        codes("[[node]]\nid = \"a\"\nx = 1\n[[node]]\nid = \"b\"\nx = \"s\"\n"),
        ["E0508"]
    );
    assert_eq!(
        codes("[[node]]\nid = \"a\"\nx = 1\n[[node]]\nid = \"b\"\n"),
        ["E0509"]
    );
    assert_eq!(
        codes("[[node]]\nid = \"a\"\nx = 1.5\ny = [1]\nz = {a = 1}\nw = 1979-05-27\n"),
        ["E0510"; 4]
    );
    assert_eq!(
        codes("[[node]]\nid = \"a\"\n[[pieces.t]]\ncount = \"two\"\n"),
        ["E0511"]
    );
    assert_eq!(
        codes("[[node]]\nid = \"a\"\n[[edge]]\nfrom = \"a\"\nto = \"a\"\n"),
        ["E0512"]
    );
    assert_eq!(
        codes("[[node]]\nid = \"a\"\n[[node]]\nid = \"b\"\n[[edge]]\nfrom = \"a\"\nto = \"b\"\n[[edge]]\nfrom = \"b\"\nto = \"a\"\nid = \"a-b\"\n"),
        ["E0513"]
    );
    assert_eq!(
        codes("[[node]]\nid = \"a\"\n[defaults.node]\nid = \"x\"\n"),
        ["E0514"]
    );
    assert_eq!(codes("[[node]]\nx = 1\n"), ["E0515"]);
    assert_eq!(codes("[board]\nname = \"empty\"\n"), ["E0516"]);
    assert_eq!(
        codes("[[node]]\nid = \"a\"\n\"two words\" = 1\n"),
        ["E0517"]
    );
}

#[test]
fn errors_point_at_the_right_text() {
    let text = "[[node]]\nid = \"a\"\n[[node]]\nid = \"a\"\n";
    let diags = board(text).unwrap_err();
    assert_eq!(diags[0].labels.len(), 2);
    let spans: Vec<_> = diags[0].labels.iter().map(|(s, _)| s.start).collect();
    assert_eq!(spans, [32, 14]);

    let text = "[grid]\nrows = 2\ncols = 2\n[[node]]\nid = \"x\"\nlabel = \"X\"\n";
    let diags = board(text).unwrap_err();
    let got: Vec<_> = diags
        .iter()
        .map(|d| (d.code, d.message.as_str(), primary_text(text, d)))
        .collect();
    assert_eq!(
        got,
        [
            (
                "E0509",
                "node attribute `label` is missing on node `r1c1`, node `r1c2`, node `r2c1`, node `r2c2`",
                "grid"
            ),
            ("E0509", "node attribute `row` is missing on node `x`", "\"x\""),
            ("E0509", "node attribute `col` is missing on node `x`", "\"x\""),
        ]
    );

    // A grid combined with explicit nodes needs defaults for the grid's attributes.
    let text = "[grid]\nrows = 1\ncols = 2\n[[node]]\nid = \"x\"\n[[edge]]\nfrom = \"r1c2\"\nto = \"x\"\n[defaults.node]\nrow = 0\ncol = 0\n";
    let b = board(text).unwrap();
    assert_eq!(b.nodes.len(), 3);
    assert_eq!(
        b.node_attrs["row"].values,
        [AttrValue::Int(1), AttrValue::Int(1), AttrValue::Int(0)]
    );
    assert_eq!(ids(&b, b.neighbors(1)), ["r1c1", "x"]);
}

#[test]
fn directed_grid_has_arcs_both_ways() {
    let b = board("[board]\ndirected = true\n[grid]\nrows = 1\ncols = 3\n").unwrap();
    assert_eq!(
        b.edges.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
        ["r1c1-r1c2", "r1c2-r1c1", "r1c2-r1c3", "r1c3-r1c2"]
    );
    assert_eq!(b.successors(1), [0, 2]);
    assert_eq!(b.predecessors(1), [0, 2]);
    assert_eq!(b.out_edges(1), [1, 2]);
}

#[test]
fn rendered_report_names_code_place_and_hint() {
    let text = "[[node]]\nid = \"luebeck\"\n[[node]]\nid = \"danzig\"\n[[edge]]\nfrom = \"luebek\"\nto = \"danzig\"\n";
    let mut sources = Sources::default();
    let file = sources.add("hansa.toml", text);
    let diags = build(&sources, file).unwrap_err();
    let out = regel::diag::render(&sources, &diags, false, 100);
    assert!(out.contains("E0507"), "{out}");
    assert!(out.contains("edge names an unknown node `luebek`"), "{out}");
    assert!(out.contains("hansa.toml:6:8"), "{out}");
    assert!(out.contains("did you mean `luebeck`?"), "{out}");
}

#[test]
fn readme_example_builds() {
    let path = format!("{}/../maps/README.md", env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(path).unwrap();
    let example = readme.split("## A complete small example").nth(1).unwrap();
    let toml = example
        .split("```toml\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let b = board(toml).unwrap();
    assert_eq!(b.name, "Three ports");
    assert_eq!(
        b.node_attrs["warehouses"].values,
        [AttrValue::Int(2), AttrValue::Int(1), AttrValue::Int(1)]
    );
    assert_eq!(
        b.edge_attrs["cost"].values,
        [AttrValue::Int(2), AttrValue::Int(1), AttrValue::Int(1)]
    );
    assert_eq!(b.pieces["good"][0].count, 4);
    assert_eq!(
        b.successors(b.node_index["riga"]),
        [b.node_index["luebeck"]]
    );
}
