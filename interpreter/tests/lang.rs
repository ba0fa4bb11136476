//! Language features that need a board of their own: piece fields of type
//! `node` or `edge` filled from the board file, and the network queries
//! `reachable` (over nodes or edges), `longest_path` and `distance`. Each test serves a rules file and a board
//! file from memory, plays the match with logging on, and compares the log
//! with what the rules must compute.

mod common;

use common::{compile, lines, loop_board, numbered_board};
use regel::eval::{Match, Setup};

/// Checks `rules` (with `board` as `board.toml` beside it), runs a match of
/// two players that needs no decision, and returns its log.
fn run(rules: &str, board: &str) -> Vec<String> {
    run_with(
        rules,
        board,
        &regel::opt::Passes::all(),
        regel::eval::DEFAULT_BUDGET,
    )
    .unwrap_or_else(|e| panic!("run failed: {e}"))
}

/// As [`run`], with the rewrites and the step budget given; a run-time
/// error comes back as its message.
fn run_with(
    rules: &str,
    board: &str,
    passes: &regel::opt::Passes,
    budget: u64,
) -> Result<Vec<String>, String> {
    let game = compile(rules, board, passes);
    let mut setup = Setup::new(2, 1);
    setup.log = true;
    setup.budget = budget;
    let m = Match::new(game, &setup).map_err(|e| e.message)?;
    assert!(m.is_over(), "the test rules take no decisions");
    Ok(m.state.log.clone())
}

/// Five nodes: a - b - c in a line, d - e apart; on a directed board the
/// arcs run a→b→c and d→e.
fn line_board(directed: bool) -> String {
    let mut s = format!("[board]\nname = \"line\"\ndirected = {directed}\n");
    for n in ["a", "b", "c", "d", "e"] {
        s.push_str(&format!("[[node]]\nid = \"{n}\"\n"));
    }
    for (f, t) in [("a", "b"), ("b", "c"), ("d", "e")] {
        s.push_str(&format!(
            "[[edge]]\nid = \"{f}{t}\"\nfrom = \"{f}\"\nto = \"{t}\"\n"
        ));
    }
    s.push_str("[[pieces.office]]\ncity = \"c\"\nroad = \"bc\"\n");
    s.push_str("[[pieces.office]]\ncount = 2\ncity = \"a\"\nroad = \"ab\"\n");
    s
}

#[test]
fn piece_fields_of_type_node_and_edge_come_from_the_board() {
    let rules = r#"
game "Offices"
players 2
board "board.toml"
piece office { city: node, road: edge } in stock label "office in {city}"
zone stock: office
play {
  for o in stock {
    log "{o} on {o.road} from {o.road.from}"
  }
  log "{count(o in stock: o.city == @a)} in a"
}
"#;
    let log = run(rules, &line_board(false));
    assert_eq!(
        lines(&log),
        [
            "office in c on bc from b",
            "office in a on ab from a",
            "office in a on ab from a",
            "2 in a"
        ]
    );
}

/// A 3 × 3 grid board (`r1c1` to `r3c3`, attributes `row` and `col`).
const GRID3: &str = "[board]\nname = \"grid\"\n[grid]\nrows = 3\ncols = 3\n";

const NETWORK: &str = r#"
game "Network"
players 2
board "board.toml"
piece office { city: node, road: edge } in stock
zone stock: office
var per node held: bool = false
play {
  @a.held = true
  @b.held = true
  @c.held = true
  @d.held = true
  log "from a: {count(reachable(@a, nodes where held))}"
  log "from c: {count(reachable(@c, nodes where held))}"
  log "from e: {count(reachable(@e, nodes where held))}"
  log "c joined to a: {@c in reachable(@a, nodes where held)}"
  log "largest group: {max(n in nodes where held: count(reachable(n, nodes where held)))}"
  for n in reachable(@b, nodes) {
    log "b reaches {n}"
  }
  log "a-c {distance(@a, @c)} c-a {distance(@c, @a)} a-e {distance(@a, @e)} d-d {distance(@d, @d)}"
  @b.held = false
  log "without b, c joined to a: {@c in reachable(@a, nodes where held)}"
}
"#;

#[test]
fn reachable_and_distance_on_an_undirected_board() {
    let log = run(NETWORK, &line_board(false));
    assert_eq!(
        lines(&log),
        [
            "from a: 3",
            "from c: 3",
            "from e: 0",
            "c joined to a: true",
            "largest group: 3",
            "b reaches a",
            "b reaches b",
            "b reaches c",
            "a-c 2 c-a 2 a-e -1 d-d 0",
            "without b, c joined to a: false",
        ]
    );
}

#[test]
fn reachable_and_distance_follow_arcs_on_a_directed_board() {
    let log = run(NETWORK, &line_board(true));
    assert_eq!(
        lines(&log),
        [
            "from a: 3",
            "from c: 1",
            "from e: 0",
            "c joined to a: true",
            "largest group: 3",
            "b reaches b",
            "b reaches c",
            "a-c 2 c-a -1 a-e -1 d-d 0",
            "without b, c joined to a: false",
        ]
    );
}

/// Past the size of the precomputed table, `distance` searches on demand
/// and gives the same answers.
#[test]
fn distance_on_a_board_too_large_for_a_table() {
    let n = regel::ir::DIST_TABLE_MAX + 6;
    let mut board = String::from("[board]\nname = \"long\"\n");
    for i in 0..n {
        board.push_str(&format!("[[node]]\nid = \"n{i}\"\n"));
    }
    for i in 1..n {
        board.push_str(&format!("[[edge]]\nfrom = \"n{}\"\nto = \"n{i}\"\n", i - 1));
    }
    let rules = format!(
        "game \"Long\"\nplayers 2\nboard \"board.toml\"\nplay {{\n  log \"{{distance(@n0, @n{last})}} {{distance(@n{last}, @n3)}} {{distance(@n5, @n5)}} {{count(reachable(@n0, nodes where it != @n10))}}\"\n}}\n",
        last = n - 1
    );
    let log = run(&rules, &board);
    assert_eq!(lines(&log), [format!("{} {} 0 10", n - 1, n - 4)]);
}

/// `sign(n)`: -1, 0 or 1, on values the checker cannot fold (a variable) and
/// on constants it folds; at the edge of the number range it cannot fail.
#[test]
fn sign_of_a_number() {
    let rules = r#"
game "Signs"
players 2
board "board.toml"
var x: int = -7
play {
  log "{sign(x)} {sign(0)} {sign(x * -3)} {sign(-9223372036854775807 - 1)} {abs(x) * sign(x)}"
}
"#;
    let log = run(rules, &line_board(false));
    assert_eq!(lines(&log), ["-1 0 1 -1 -7"]);
}

/// Issue 27: `%` is exact at the edge of the number range (the remainder of
/// the smallest number by -1 is 0, not an overflow); `/` there still is one.
#[test]
fn remainder_by_minus_one_is_exact() {
    let rules = r#"
game "Edge"
players 2
board "board.toml"
var x: int = -9223372036854775807 - 1
var d: int = -1
play {
  log "{x % d} {7 % d} {x % 2}"
}
"#;
    let log = run(rules, &line_board(false));
    assert_eq!(lines(&log), ["0 0 0"]);
}

/// The edge forms of the network queries, read in a `fn` and in `score`:
/// `mine` holds every edge but `ab2` and `bc` at first, then all of them.
const EDGE_NETWORK: &str = r#"
game "Routes"
players 2
board "board.toml"
var per edge mine: bool = true

fn reach(n: node) -> int = count(reachable(n, edges where mine))
fn route() -> int = longest_path(edges where mine)

play {
  @ab2.mine = false
  @bc.mine = false
  for x in reachable(@e, edges where mine) {
    log "e reaches {x}"
  }
  log "from a: {reach(@a)} from f: {reach(@f)} route {route()}"
  log "none: {first(reachable(@a, edges where false))} {reach(@a) - count(reachable(@a, edges where false))} {longest_path(edges where false)}"
  @ab2.mine = true
  @bc.mine = true
  for x in reachable(@e, edges where mine) {
    log "then e reaches {x}"
  }
  log "from c: {reach(@c)} route {route()} all {longest_path(edges)} one {longest_path([@de])}"
  log "cycle {longest_path([@ab1, @bc, @ca])} and apart {longest_path([@de, @ab1, @bc, @ca])}"
}
score(p) = route()
"#;

/// Both evaluators (the bytecode and the tree, with every rewrite off) give
/// the same log.
fn run_both(rules: &str, board: &str) -> Vec<String> {
    let budget = regel::eval::DEFAULT_BUDGET;
    let all = run_with(rules, board, &regel::opt::Passes::all(), budget).unwrap();
    let none = run_with(rules, board, &regel::opt::Passes::none(), budget).unwrap();
    assert_eq!(all, none, "the rewrites change the log");
    all
}

#[test]
fn reachable_and_longest_path_over_edges_on_an_undirected_board() {
    let log = run_both(EDGE_NETWORK, &loop_board(false));
    let mut want: Vec<String> = ["a", "b", "c", "d", "e"]
        .iter()
        .map(|n| format!("e reaches {n}"))
        .collect();
    want.push("from a: 5 from f: 1 route 4".into());
    want.push("none: a 4 0".into());
    want.extend(
        ["a", "b", "c", "d", "e"]
            .iter()
            .map(|n| format!("then e reaches {n}")),
    );
    // e-d-c-a-b-a: one of the three edges at a stays unused.
    want.push("from c: 5 route 5 all 5 one 1".into());
    // A component whose degrees are all even: the trail may start anywhere.
    want.push("cycle 3 and apart 3".into());
    assert_eq!(lines(&log), want);
}

#[test]
fn reachable_and_longest_path_follow_arcs_on_a_directed_board() {
    let log = run_both(EDGE_NETWORK, &loop_board(true));
    assert_eq!(
        lines(&log),
        [
            "e reaches e",
            "from a: 2 from f: 1 route 2",
            "none: a 1 0",
            "then e reaches e",
            // c→a→b→c→d→e; the second arc a→b cannot be reached again.
            "from c: 5 route 5 all 5 one 1",
            "cycle 3 and apart 3",
        ]
    );
}

/// The longest trail of a complete graph is an exponential search: it ends
/// with the step budget's error, with or without the rewrites.
#[test]
fn longest_path_ends_with_the_budget_error() {
    let n = 10;
    let board = numbered_board(
        "complete",
        n,
        (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))),
    );
    let rules = "game \"All\"\nplayers 2\nboard \"board.toml\"\nplay {\n  log \"{longest_path(edges)}\"\n}\n";
    for passes in [regel::opt::Passes::all(), regel::opt::Passes::none()] {
        let e = run_with(rules, &board, &passes, 200_000).unwrap_err();
        assert!(e.contains("budget"), "{e}");
    }
}

/// Three routes with a `length`: ab (1), bc (2) and de (1).
fn route_board() -> String {
    let mut s = "[board]\nname = \"routes\"\n".to_string();
    for n in ["a", "b", "c", "d", "e"] {
        s.push_str(&format!("[[node]]\nid = \"{n}\"\n"));
    }
    for (f, t, len) in [("a", "b", 1), ("b", "c", 2), ("d", "e", 1)] {
        s.push_str(&format!(
            "[[edge]]\nid = \"{f}{t}\"\nfrom = \"{f}\"\nto = \"{t}\"\nlength = {len}\n"
        ));
    }
    s
}

/// Tests of an edge's own zones against its own attributes, whole and as
/// the leading test of a longer one (looked for through calls), and leading
/// tests that do not read the edge: the `zone-pred` pass turns them into
/// walks over the edges that pass (`opt/zone_pred.rs`); the log is the same
/// without it, and so is an error raised by a test before a zone test.
const EDGE_ZONES: &str = r#"
game "Edge zones"
players 2
seats red, blue
board "board.toml"
piece stone per player { } in supply { 3 x { } }
zone per player supply: stone
zone per edge stops: stone
var zero: int = 0

fn open(r: edge) -> bool = count(r.stops) < r.length
fn mine_full(p: player, r: edge) -> bool = count(r.stops) == r.length and all(s in r.stops: s.owner == p)
fn contested(p: player, r: edge) -> bool = count(p.supply) >= 1 and any(s in r.stops: s.owner != p)

proc report() {
  log "open {count(r in edges: open(r))} {count(edges where open(it))} first {first(edges where open(it))}"
  log "full of red {count(edges where mine_full(red, it))} last {last(edges where mine_full(red, it))} of blue {any(r in edges: mine_full(blue, r))}"
  log "contested by red {any(r in edges: contested(red, r))} by blue {count(edges where contested(blue, it))}"
}

play {
  report()
  move top(red.supply) to @ab.stops
  move top(blue.supply) to @bc.stops
  report()
  move top(red.supply) to @bc.stops
  move top(red.supply) to @de.stops
  report()
  log "{count(r in edges: 10 / zero == 1 and count(r.stops) == r.length)}"
}
"#;

#[test]
fn zone_tests_over_edges_and_leading_tests() {
    let budget = regel::eval::DEFAULT_BUDGET;
    let run = |passes: &regel::opt::Passes| run_with(EDGE_ZONES, &route_board(), passes, budget);
    let none = run(&regel::opt::Passes::none());
    assert_eq!(
        run(&regel::opt::Passes::all()),
        none,
        "the rewrites change the game"
    );
    let err = none.unwrap_err();
    assert!(err.contains("division by zero"), "{err}");
    let log = run_with(
        &EDGE_ZONES.replace("10 / zero == 1 and ", ""),
        &route_board(),
        &regel::opt::Passes::all(),
        budget,
    )
    .unwrap();
    assert_eq!(
        lines(&log),
        [
            "open 3 3 first ab",
            "full of red 0 last none of blue false",
            "contested by red false by blue 0",
            "open 2 2 first bc",
            "full of red 1 last ab of blue false",
            "contested by red true by blue 1",
            "open 0 0 first none",
            "full of red 2 last de of blue false",
            "contested by red false by blue 3",
            "3",
        ]
    );
}

#[test]
fn instances_from_ranges_enumerations_lists_and_nodes_in_order() {
    let rules = r#"
game "Deck"
players 2
board "board.toml"
enum suit { hearts, spades }
const top = 4
piece card { suit: suit, value: int } in deck label "{suit}{value}" {
  for s in suit {
    for v in 3..top { 1 x { suit: s, value: v * 10 } }
  }
  2 x { suit: hearts, value: 0 }
  for v in [7, 9] { 1 x { suit: spades, value: v } }
  for v in 5..4 { 1 x { suit: spades, value: v } }
}
piece marker { at: node } in deck label "marker {at}" {
  for n in nodes { 1 x { at: n } }
}
zone deck public
play {
  for c in deck { log "{c}" }
}
"#;
    let log = run(rules, &line_board(false));
    assert_eq!(
        lines(&log),
        [
            "hearts30", "hearts40", "spades30", "spades40", "hearts0", "hearts0", "spades7",
            "spades9", "marker a", "marker b", "marker c", "marker d", "marker e"
        ]
    );
}

#[test]
fn an_enumeration_is_indexed_by_position_from_one() {
    let rules = r#"
game "Faces"
players 2
board "board.toml"
enum face { one, two, three "THREE" }
var k: int = 3
play {
  log "{face[1]} {face[2]} {face[k]} {face[k - 1] == two} {index(face[k], face)}"
  for i in 1..3 { log "{face[i]}" }
}
"#;
    let log = run_both(rules, &line_board(false));
    assert_eq!(lines(&log), ["one two THREE true 3", "one", "two", "THREE"]);
    let bad = rules.replace("var k: int = 3", "var k: int = 4");
    let err = run_with(
        &bad,
        &line_board(false),
        &regel::opt::Passes::all(),
        regel::eval::DEFAULT_BUDGET,
    )
    .unwrap_err();
    assert!(err.contains("index 4 is outside the list (1..3)"), "{err}");
}

#[test]
fn template_holes_choose_between_numbers_words_and_templates() {
    let rules = r#"
game "Labels"
players 2
board "board.toml"
enum level { low, high "HIGH" }
play {
  for w in 0..3 {
    log "{if w == 0 then "wager" else w}{if w > 0 then " + {w} loco{if w > 1 then "s" else ""}" else ""}"
  }
  for w in 1..3 {
    log "{if w == 1 then level.high else if w == 2 then "{{two}}" else w * 10}"
  }
  log "{if true then 1 else 2} {(if false then "a" else @c)}"
}
"#;
    let log = run_both(rules, &line_board(false));
    assert_eq!(
        lines(&log),
        [
            "wager",
            "1 + 1 loco",
            "2 + 2 locos",
            "3 + 3 locos",
            "HIGH",
            "{two}",
            "30",
            "1 c"
        ]
    );
}

#[test]
fn board_attributes_of_enumeration_type() {
    let rules = r#"
game "Paint"
players 2
board "board.toml"
enum colour { red, blue, green }
enum land { plain, hills }
attr per edge paint: colour
attr per node terrain: land
var per colour roads: int = 0
play {
  for k in colour {
    roads[k] = count(r in edges: r.paint == k)
    log "{k} {roads[k]} {first(edges where paint == k)}"
  }
  for n in nodes where terrain == hills { log "{n} {n.terrain}" }
  log "{count(nodes where terrain == plain)}"
}
"#;
    let mut board =
        String::from("[board]\nname = \"paint\"\n[defaults.node]\nterrain = \"plain\"\n");
    for (n, t) in [("a", "hills"), ("b", "plain"), ("c", "hills")] {
        board.push_str(&format!("[[node]]\nid = \"{n}\"\nterrain = \"{t}\"\n"));
    }
    for (f, t, p) in [("a", "b", "blue"), ("b", "c", "red"), ("c", "a", "blue")] {
        board.push_str(&format!(
            "[[edge]]\nid = \"{f}{t}\"\nfrom = \"{f}\"\nto = \"{t}\"\npaint = \"{p}\"\n"
        ));
    }
    let log = run_both(rules, &board);
    assert_eq!(
        lines(&log),
        [
            "red 1 bc",
            "blue 2 ab",
            "green 0 none",
            "a hills",
            "c hills",
            "1"
        ]
    );
}

/// `any`, `all` and `count` of `x.owner == p` over a zone are one step of
/// the bytecode (`BOp::ZoneOwner`): the answers are the loop's, for a seat,
/// for `none` (a piece no seat owns) and for an empty zone, and they count
/// the same steps against the budget with the rewrites on or off.
const OWNER_TESTS: &str = r#"
game "Owners"
players 2
seats red, blue
board "board.toml"
piece stone per player { } in supply { 2 x { } }
piece coin { } in bank { 2 x { } }
zone per player supply: stone
zone bank: coin
zone per edge stops
fn has(p: player, r: edge) -> bool = any(s in r.stops: s.owner == p)
fn only(p: player, r: edge) -> bool = all(s in r.stops: p == s.owner)
fn held(p: player, r: edge) -> int = count(s in r.stops: s.owner == p)

proc report(r: edge) {
  log "{r}: red {has(red, r)} {only(red, r)} {held(red, r)}, blue {has(blue, r)} {only(blue, r)} {held(blue, r)}, none {has(none, r)} {only(none, r)} {held(none, r)}"
}

play {
  move top(red.supply) to @ab.stops
  move top(red.supply) to @ab.stops
  move top(blue.supply) to @bc.stops
  move top(bank) to @bc.stops
  for r in edges { report(r) }
}
"#;

#[test]
fn owner_tests_over_a_zone() {
    let budget = regel::eval::DEFAULT_BUDGET;
    let run =
        |passes: &regel::opt::Passes, budget| run_with(OWNER_TESTS, &route_board(), passes, budget);
    let all = run(&regel::opt::Passes::all(), budget).unwrap();
    assert_eq!(
        lines(&all),
        [
            "ab: red true true 2, blue false false 0, none false false 0",
            "bc: red false false 0, blue true false 1, none true false 1",
            "de: red false true 0, blue false true 0, none false true 0",
        ]
    );
    assert_eq!(run(&regel::opt::Passes::none(), budget).unwrap(), all);
    // Both count the same steps: the smallest budget that is enough is
    // the same (and the reports take some of it).
    let least = |passes: &regel::opt::Passes| (1..1000).find(|&b| run(passes, b).is_ok());
    let on = least(&regel::opt::Passes::all());
    assert_eq!(on, least(&regel::opt::Passes::none()));
    assert!(on.unwrap() > 20, "{on:?}");
}

/// The options of an action whose parameters depend on each other are
/// listed by one program (`opt/bytecode/lister.rs`), except when coverage
/// counts each requirement. Both listings test each requirement on the same
/// values in the same order, so they list the same options, and a
/// requirement that fails to compute fails with the same error at the same
/// place: here `6 / (b - 2)` divides by zero at the tuple (1, 2), after
/// (1, 1) passed.
#[test]
fn an_action_lister_fails_where_the_requirements_fail() {
    let rules = |divisor: &str| {
        format!(
            r#"game "Pairs"
players 2
board "board.toml"
var picked: int = 0
action pick(a in 1..3, b in a..3 where it != 3 or a == 3) label "{{a}} {{b}}" {{
  require a + b < 6
  require 6 / ({divisor}) != 0
  picked = a * 10 + b
}}
play {{
  act first(players) with pick
  log "picked {{picked}}"
}}
"#
        )
    };
    let game = |divisor| {
        compile(
            &rules(divisor),
            &loop_board(false),
            &regel::opt::Passes::all(),
        )
    };
    let ok = game("b + 2");
    assert!(ok.actions[0].lister.is_some(), "the action has a lister");
    let setup = Setup::new(2, 1);
    let fast = Match::new(ok.clone(), &setup).unwrap();
    let slow = Match::new_with_coverage(ok, &setup).unwrap();
    assert_eq!(fast.option_labels(), ["1 1", "1 2", "2 2"]);
    assert_eq!(fast.option_labels(), slow.option_labels());
    let failing = game("b - 2");
    let fast = Match::new(failing.clone(), &setup).unwrap_err();
    let slow = Match::new_with_coverage(failing, &setup).unwrap_err();
    assert!(fast.message.contains("zero"), "{}", fast.message);
    assert_eq!(fast.message, slow.message);
    assert_eq!(fast.span, slow.span);
}

/// The `fn-tables` pass answers calls of a function that reads only the
/// static board from a table made at check time, with each call's value
/// and the steps it charges; a call the table cannot answer exactly runs
/// instead: one that fails (`12 / 0` next to `e`, whose degree is 1), one
/// made too close to the call depth limit (`deep(depth, …)` nests `depth`
/// calls before it calls `spread`; a variable, so that no pass folds the
/// chain away), one whose steps would pass the budget or the host's next
/// look at its interrupt flag. So the pass changes no outcome: not the log,
/// not the error or its place, not the steps a match counts, at every
/// budget around the one the match needs.
#[test]
fn function_tables_answer_exactly_as_the_calls_would() {
    let rules = |k: i64, depth: i64| {
        format!(
            r#"game "Tables"
players 2
board "board.toml"
var total: int = 0
var depth: int = {depth}
fn degree(n: node) -> int = sum(x in neighbors(n): 1)
fn spread(n: node) -> int = sum(y in neighbors(n): 12 / (degree(y) - ({k})))
fn link(a: node, b: node) -> bool = any(x in neighbors(a): x == b)
fn deep(d: int, n: node) -> int = if d == 0 then spread(n) else deep(d - 1, n)
play {{
  for a in nodes {{
    for b in nodes {{
      if link(a, b) {{ total = total + deep(depth, a) }}
    }}
  }}
  log "total {{total}}"
}}
"#
        )
    };
    let with = regel::opt::Passes::all();
    let without = without_tables();
    let mut answered = 0;
    let mut deep_fails = false;
    for (k, depth) in [
        (-1, 0),
        (-1, 150),
        (-1, 165),
        (-1, 200),
        (-1, 201),
        (1, 0),
        (1, 150),
    ] {
        let (fast, slow) = (
            compile(&rules(k, depth), &loop_board(false), &with),
            compile(&rules(k, depth), &loop_board(false), &without),
        );
        assert!(fast.fns[..3].iter().all(|f| f.table.is_some()));
        assert!(slow.fn_tables.is_empty());
        let misses = fast.fn_tables[1]
            .entries
            .iter()
            .filter(|e| e.0 == regel::ir::FnTable::MISS)
            .count();
        assert_eq!(misses > 0, k == 1, "calls next to `e` fail");
        let done = outcome(&slow, None);
        assert_eq!(outcome(&fast, None), done, "k = {k}, depth = {depth}");
        let Some(steps) = done
            .strip_suffix(" steps")
            .and_then(|s| s.rsplit(' ').next())
            .and_then(|n| n.parse::<u64>().ok())
        else {
            assert!(
                done.contains("zero") || done.contains("too deeply"),
                "{done}"
            );
            deep_fails |= done.contains("too deeply");
            continue;
        };
        answered += 1;
        for budget in steps.saturating_sub(40)..=steps {
            assert_eq!(
                outcome(&fast, Some(budget)),
                outcome(&slow, Some(budget)),
                "k = {k}, depth = {depth}, budget {budget}"
            );
        }
    }
    assert!(answered >= 3, "most cases run to the end");
    assert!(deep_fails, "a call of `spread` passes the depth limit");
}

/// A function of nodes or edges that reads `distance` (Hansa Teutonica's
/// `route_distance`) is read from its `fn-tables` table, which the distance
/// table built before the passes makes possible: the `inline` pass leaves
/// its calls as calls when that pass is on (`Tab2`, one read, where the
/// pasted body took two edge ends and a table read for each `distance`),
/// and pastes them as before when it is off. Both give the same log. On the
/// loop board (a triangle a-b-c, a tail c-d-e, a lone f) the distances from
/// a, b, c, d and e to those five sum to 7 + 7 + 5 + 6 + 9 = 34, f is at 0
/// from itself and at -1 (unreachable) from and to each of the five (ten
/// pairs): 36 calls of `1 + distance` make 36 + 34 - 10 = 60.
#[test]
fn functions_of_distance_are_read_from_their_table() {
    let rules = r#"game "Hops"
players 2
board "board.toml"
fn hop(a: node, b: node) -> int = 1 + distance(a, b)
var total: int = 0
play {
  for a in nodes {
    for b in nodes { total = total + hop(a, b) }
  }
  log "total {total}"
}
"#;
    let tabled = compile(rules, &loop_board(false), &regel::opt::Passes::all());
    let pasted = compile(rules, &loop_board(false), &without_tables());
    let hop = tabled.fns.iter().position(|f| f.name == "hop").unwrap();
    assert!(tabled.fns[hop].table.is_some());
    let ops = |g: &regel::ir::Game| -> Vec<String> {
        g.programs
            .iter()
            .flat_map(|p| p.ops())
            .map(|o| format!("{o:?}"))
            .collect()
    };
    assert!(ops(&tabled).iter().any(|o| o.starts_with("Tab2")));
    let call = format!("func: {hop},");
    assert!(!ops(&pasted).iter().any(|o| o.contains(&call)), "pasted");
    assert!(!ops(&pasted).iter().any(|o| o.starts_with("Tab2")));
    let log = |g| {
        let done = outcome(g, None);
        done.split(" in ").next().unwrap().to_string()
    };
    assert_eq!(log(&tabled), r#"["total 60"]"#);
    assert_eq!(log(&pasted), log(&tabled));
}

/// Inlining pastes a function's body into its caller's frame, so a body
/// that binds a name of its own is not pasted, even when it never reads the
/// name: `sum(x in neighbors(n): 1)` binds `x` in the callee's second slot,
/// which in `g`'s frame (and in `play`'s, where `g` is pasted in turn) is
/// `b`. Pasted, the sum overwrote `b` with each neighbour and `b == a` never
/// held (the log said `total 0`).
#[test]
fn inlining_leaves_the_callers_locals_alone() {
    let rules = r#"game "Clobber"
players 2
board "board.toml"
var total: int = 0
fn f(n: node) -> int = sum(x in neighbors(n): 1)
fn g(a: node, b: node) -> bool = f(a) > 0 and b == a
play {
  for a in nodes {
    for b in nodes { if g(a, b) { total = total + 1 } }
  }
  log "total {total}"
}
"#;
    for passes in [regel::opt::Passes::none(), regel::opt::Passes::all()] {
        let game = compile(rules, &loop_board(false), &passes);
        let mut setup = Setup::new(2, 1);
        setup.log = true;
        let mut m = Match::new(game, &setup).unwrap();
        // Every node but the lone `f` has a neighbour: five pairs (a, a).
        assert_eq!(lines(&m.take_log()), ["total 5"], "{passes:?}");
    }
}

/// A match of the fewest players the rules take, run to its end (or error) with the `budget`
/// given, if any: its log and steps, or the error and its span.
fn outcome(g: &std::sync::Arc<regel::ir::Game>, budget: Option<u64>) -> String {
    let mut setup = Setup::new(g.min_players, 1);
    setup.log = true;
    if let Some(b) = budget {
        setup.budget = b;
    }
    match Match::new(g.clone(), &setup) {
        Ok(mut m) => format!("{:?} in {} steps", m.take_log(), m.state.steps),
        Err(e) => format!("{} at {:?}", e.message, e.span),
    }
}

/// Every pass but `fn-tables` (and `keep`): calls of static functions run,
/// or are pasted, instead of reading tables.
fn without_tables() -> regel::opt::Passes {
    regel::opt::Passes::parse(
        "zone-len,inline,fold-board,consts,zone-pred,searches,board-index,splice,bytecode",
    )
    .unwrap()
}

/// Every pass but the bytecode (and `keep`, which lives inside it): the
/// tree evaluator's side of the comparisons below.
fn tree_passes() -> regel::opt::Passes {
    regel::opt::Passes::parse(
        "zone-len,inline,fold-board,consts,zone-pred,searches,board-index,splice",
    )
    .unwrap()
}

/// Runs `rules` compiled with every pass and with every pass but the
/// bytecode (the other passes may save steps, an inlined call's for one, so
/// the machine is compared with the tree after them), asserts that both give
/// the same outcome (the log and the steps, or the error and its span), also
/// under each budget in the `sweep` steps below the one the match needs, and
/// that the compiled programs use each of `ops` (a name, or a name and a
/// part of the operation's fields: `"IterLead key: 65535"`). Returns the
/// outcome.
fn same_as_the_tree(rules: &str, board: &str, sweep: u64, ops: &[&str]) -> String {
    let tree = tree_passes();
    let fast = compile(rules, board, &regel::opt::Passes::all());
    let slow = compile(rules, board, &tree);
    let listed: Vec<String> = fast
        .programs
        .iter()
        .flat_map(|p| p.ops())
        .map(|o| format!("{o:?}"))
        .collect();
    assert!(
        !listed.iter().any(|o| o.starts_with("Tree")),
        "all compiled"
    );
    // "Name text": an operation `Name` whose fields read as `text`.
    for op in ops {
        let (name, part) = op.split_once(' ').unwrap_or((op, ""));
        assert!(
            listed
                .iter()
                .any(|o| o.starts_with(name) && o.contains(part)),
            "{op} is used"
        );
    }
    let done = outcome(&slow, None);
    assert_eq!(outcome(&fast, None), done);
    if let Some(steps) = done
        .strip_suffix(" steps")
        .and_then(|s| s.rsplit(' ').next())
    {
        let steps: u64 = steps.parse().unwrap();
        for budget in steps.saturating_sub(sweep)..=steps {
            let want = outcome(&slow, Some(budget));
            assert_eq!(outcome(&fast, Some(budget)), want, "budget {budget}");
        }
    }
    done
}

/// The options of the first decision of `rules` (two players), asserted
/// to be the same compiled with every pass and without the bytecode.
fn options_as_the_tree(rules: &str, board: &str) -> Vec<String> {
    let fast = compile(rules, board, &regel::opt::Passes::all());
    let slow = compile(rules, board, &tree_passes());
    let setup = Setup::new(2, 1);
    let listed = Match::new(fast, &setup).unwrap().option_labels();
    assert_eq!(listed, Match::new(slow, &setup).unwrap().option_labels());
    listed
}

/// `C[i]` and `index(x, C)` are compiled to the machine (`BOp::ListAt`,
/// `BOp::IndexOf`, and `BOp::ConstAt` for a list of constants), and `x in
/// players` to a range test (`BOp::InPlayers`), not left to
/// the tree evaluator, and answer exactly as the tree does: with every pass
/// on, and with every pass but the bytecode, the same log in the same number
/// of steps, the same error at the same span for an index out of range, and
/// the same outcome under each budget in the 30 steps below the one the
/// match needs. (The other passes may save steps, an
/// inlined call's for one, so the machine is compared with the tree after
/// them.) The index is a variable, so that no rewrite folds it away.
#[test]
fn list_positions_and_seat_tests_compiled_answer_as_the_tree_does() {
    let rules = |i: i64| {
        format!(
            r#"game "Lists"
players 2
board "board.toml"
const prices = [3, 5, 7]
var i: int = {i}
var j: int = 2
var x: int = 0
var w: player = none
var w2: player = none
play {{
  w2 = first(players)
  x = prices[i] * 10
  log "at {{x}}"
  x = index(2 * i + 1, prices) * 100 + index(4, prices) * 10 + index(@b, [@a, @b])
  log "index {{x}}"
  x = index([@c, @a][i], [@a, @b, @c]) * 100 + [i, 2 * i, 3 * i][i]
  log "then {{x}}"
  x = count(n in nodes where index(it, [@a, @c]) > 0: true)
  log "count {{x}}"
  x = (if w in players then 1 else 0) + (if next(w2) in players then 10 else 0)
  log "seats {{x}}"
  x = (if i < j then 1 else 0) + (if i <= j then 2 else 0) + (if i > j then 4 else 0) + (if i >= j then 8 else 0)
  x = x + (if i == j then 16 else 0) + (if i != j then 32 else 0) + (if not (j < i) then 64 else 0)
  log "compare {{x}}"
}}
"#
        )
    };
    let ops = [
        "ConstAt",
        "ListAt",
        "IndexOf",
        "InPlayers",
        "JumpEq",
        "JumpNe",
        "JumpLt",
        "JumpLe",
    ];
    let seen: Vec<String> = (0..=3)
        .map(|i| same_as_the_tree(&rules(i), &line_board(false), 30, &ops))
        .collect();
    // Positions are 1-based: 0 is outside `prices`, 3 outside `[@c, @a]`.
    assert!(
        seen[0].contains("index 0 is outside the list (1..3)"),
        "{}",
        seen[0]
    );
    let (one, two) = (&seen[1], &seen[2]);
    assert!(
        one.starts_with(
            r#"["at 30", "index 102", "then 301", "count 2", "seats 10", "compare 99"]"#
        ),
        "{one}"
    );
    assert!(
        two.starts_with(
            r#"["at 50", "index 202", "then 104", "count 2", "seats 10", "compare 90"]"#
        ),
        "{two}"
    );
    assert!(
        seen[3].contains("index 3 is outside the list (1..2)"),
        "{}",
        seen[3]
    );
}

/// Aggregates and filters over a range, a zone, all nodes or a node's
/// neighbours read the elements where they lie (`BOp::RangeInit` and
/// `BOp::RangeNext` for a range, `BOp::IterInit` and `BOp::IterNext` for the
/// rest, the kept elements pushed), and answer exactly as the tree does
/// after the same passes: the same log in the same steps, and the same
/// outcome under each budget in the 60 steps below the one the match needs.
/// The ranges include an empty one, one that ends at the largest number and
/// one too long to list (an error at the same span either way). The sum
/// over the nodes multiplies inside, so that it walks them: a plain sum of
/// their zones' sizes reads the arena at once
/// (`sums_over_every_node_read_the_arena_at_once`).
#[test]
fn walks_in_place_answer_as_the_tree_does() {
    let rules = |lo: i64, hi: &str| {
        format!(
            r#"game "Walks"
players 2
seats red, blue
board "board.toml"
piece stone per player {{ }} in supply {{ 3 x {{ }} }}
zone per player supply: stone
zone per node pile: stone
var lo: int = {lo}
var hi: int = {hi}
var x: int = 0
play {{
  move top(red.supply) to @b.pile
  move top(blue.supply) to @b.pile
  move top(red.supply) to @c.pile
  x = count(k in lo..hi: k % 2 == 0) * 1000 + sum(k in lo..(lo + 3): k - lo) + count(lo..hi where it > lo + 1)
  log "range {{x}}"
  x = count(s in (@b.pile where owner == red): true) * 100 + count(red.supply where true) * 10 + count(nodes where not empty(it.pile)) + sum(n in nodes: count(n.pile) * 1000)
  log "zones {{x}}"
  x = count(neighbors(@c) where count(it.pile) > 0) * 10 + sum(k in (lo..(lo + 2) where it != lo + 1): 1) + count(n in neighbors(@b): true)
  log "neighbours {{x}}"
}}
"#
        )
    };
    let ops = [
        "RangeInit",
        "RangeNext",
        "IterInit",
        "IterNext { what: Nodes",
        "IterNext { what: Zone",
        "IterNext { what: Adj",
    ];
    let ranges = [
        (1, "6"),
        (5, "2"),
        (9223372036854775804, "9223372036854775807"),
        (0, "2000000"),
    ];
    let seen: Vec<String> = ranges
        .iter()
        .map(|&(lo, hi)| same_as_the_tree(&rules(lo, hi), &loop_board(false), 60, &ops))
        .collect();
    // 1..6: 2, 4, 6 are even (3000); 0 + 1 + 2 + 3 over 1..4 (6); 3, 4, 5
    // and 6 are above 2 (4). The nodes hold three stones in all (3000), red
    // has one stone on b (100) and one left in supply (10); b and c hold
    // stones (2). Of c's neighbours only b holds stones (10); 1 and 3 are
    // kept of 1..3 (2); b's neighbours are a and c (2, the two edges from a
    // to b give one neighbour).
    assert!(
        seen[0].starts_with(r#"["range 3010", "zones 3112", "neighbours 14"]"#),
        "{}",
        seen[0]
    );
    // 5..2 is empty; the sum's range 5..8 is not.
    assert!(
        seen[1].starts_with(r#"["range 6", "zones 3112", "neighbours 14"]"#),
        "{}",
        seen[1]
    );
    // The last four numbers: two even, two above the second.
    assert!(
        seen[2].starts_with(r#"["range 2008", "zones 3112", "neighbours 14"]"#),
        "{}",
        seen[2]
    );
    assert!(
        seen[3].contains("a range of 2000001 numbers"),
        "{}",
        seen[3]
    );
    assert!(
        seen[3].contains(" at Some("),
        "an error with a span: {}",
        seen[3]
    );
}

/// A walk over a zone whose test begins with the element's owner
/// (`it.owner == p and …`, `p != it.owner`, …) skips the other pieces in its
/// step (`BOp::IterLead` with the owner's key), in filters, `any`, `count` and `first`, and
/// answers exactly as the tree does after the same passes: the same log in
/// the same steps, and the same outcome under each budget in the 60 steps
/// below the one the match needs. The rest of the test runs only for the
/// pieces kept, so a division by zero there fails only when some piece is
/// kept; `all` keeps its plain walk, where a piece of another owner settles
/// the answer.
#[test]
fn owner_led_walks_answer_as_the_tree_does() {
    let rules = |d: i64| {
        format!(
            r#"game "Owners"
players 3
seats red, blue, green
board "board.toml"
piece stone per player {{ }} in supply {{ 3 x {{ }} }}
zone per player supply: stone
zone per node pile: stone
var d: int = {d}
var x: int = 0
play {{
  move top(red.supply) to @b.pile
  move top(blue.supply) to @b.pile
  move top(red.supply) to @b.pile
  move top(green.supply) to @b.pile
  move top(blue.supply) to @c.pile
  let p = red
  let q = blue
  x = count(s in (@b.pile where owner == p and it != first(@b.pile)): true) * 1000 + count(s in @b.pile: q == s.owner and s != last(@b.pile)) * 100 + count(s in @b.pile: s.owner != p) * 10 + count(s in @c.pile: s.owner == p and 10 / d > 0)
  log "filters {{x}}"
  x = count(s in @b.pile: s.owner != p and s.owner != q) * 100 + count(s in @b.pile: s == first(@b.pile where owner == q)) * 10 + count(s in @a.pile: s.owner == p)
  log "firsts {{x}}"
  x = (if any(s in @b.pile: s.owner != q and s != first(@b.pile)) then 100 else 0) + (if all(s in @b.pile: s.owner == p and true) then 10 else 0) + count(s in @b.pile: s.owner == p and 10 / d > 0)
  log "tests {{x}}"
}}
"#
        )
    };
    let ops = ["IterLead key: 65535"];
    let ok = same_as_the_tree(&rules(1), &loop_board(false), 60, &ops);
    // b holds red, blue, red and green stones; c a blue one. Filters: the
    // red stones but the first (1000), the blue ones but the last piece
    // (100), the pieces not red (20), no red one on c, so 10 / d is never
    // computed (0). Firsts: the green stone alone is neither red nor blue
    // (100), one piece is the first blue (10), a is empty (0). Tests: the
    // second red stone or the green one is not blue and not first (100),
    // not all are red (0), two red stones with 10 / 1 > 0 (2).
    assert!(
        ok.starts_with(r#"["filters 1120", "firsts 110", "tests 102"]"#),
        "{ok}"
    );
    let failed = same_as_the_tree(&rules(0), &loop_board(false), 60, &ops);
    // With d = 0 the first two lines never divide; the third does, for the
    // first red stone.
    assert!(failed.contains("division by zero"), "{failed}");
    assert!(
        failed.contains(" at Some("),
        "an error with a span: {failed}"
    );
}

/// An action's innermost parameter whose domain reads an earlier one and
/// that no requirement tests is emitted as its domain is walked, not
/// listed and then walked (`opt/bytecode/lister.rs`): a filter over a zone
/// (`s in n.pile where …`, with its owner test in the step) and a node's
/// neighbours. The listing charges the same steps in the same order, so
/// the match stops at the same place under every budget in the 80 steps
/// below the one the decision needs, and lists the same options (here
/// compared with the listing of the tree evaluator, with the bytecode pass
/// off). A filter that divides by zero for a piece it keeps fails with the
/// same error at the same span.
#[test]
fn innermost_domains_emitted_as_walked_list_as_the_tree_does() {
    let rules = |d: i64| {
        format!(
            r#"game "Lifts"
players 2
seats red, blue
board "board.toml"
piece stone per player {{ size: int }} in supply {{
  1 x {{ size: 1 }}
  1 x {{ size: 2 }}
  1 x {{ size: 3 }}
}}
zone per player supply: stone
zone per node pile: stone
var d: int = {d}
action lift(n in nodes where not empty(it.pile), s in n.pile where owner == actor and 4 / d > it.size) label "lift {{s.size}} from {{n}}" {{ }}
action step(n in nodes where count(it.pile) > 1, m in neighbors(n)) label "step from {{n}} to {{m}}" {{ }}
play {{
  move top(red.supply) to @b.pile
  move top(blue.supply) to @b.pile
  move top(red.supply) to @b.pile
  move top(blue.supply) to @c.pile
  move top(red.supply) to @d.pile
  log "placed"
  act red with lift, step
}}
"#
        )
    };
    let ops = ["IterLead key: 65535", "ChargeRange"];
    let ok = same_as_the_tree(&rules(1), &loop_board(false), 80, &ops);
    assert!(ok.starts_with(r#"["placed"] in "#), "{ok}");
    let tree = tree_passes();
    let fast = compile(&rules(1), &loop_board(false), &regel::opt::Passes::all());
    let slow = compile(&rules(1), &loop_board(false), &tree);
    // Both listers emit as they walk: neither lists its inner domain on
    // the scratch stack and drops it after (`Truncate`).
    for a in &fast.actions {
        let id = a.lister.expect("each action has a lister") as usize;
        let ops: Vec<String> = fast.programs[id]
            .ops()
            .iter()
            .map(|o| format!("{o:?}"))
            .collect();
        assert!(ops.iter().any(|o| o.starts_with("Emit")), "{ops:?}");
        assert!(!ops.iter().any(|o| o.starts_with("Truncate")), "{ops:?}");
    }
    let setup = Setup::new(2, 1);
    let listed = Match::new(fast, &setup).unwrap().option_labels();
    // Red's supply is taken from the top, size 3 first: b holds its sizes
    // 3 and 2 (4 / 1 > size keeps both) and d its size 1; c holds only a
    // blue stone. Only b holds two pieces,
    // and its neighbours are a (twice, by ab1 and ab2: `neighbors` lists
    // a node once) and c.
    assert_eq!(
        listed,
        [
            "lift 3 from b",
            "lift 2 from b",
            "lift 1 from d",
            "step from b to a",
            "step from b to c",
        ]
    );
    assert_eq!(listed, Match::new(slow, &setup).unwrap().option_labels());
    let failed = same_as_the_tree(&rules(0), &loop_board(false), 80, &ops);
    assert!(failed.contains("division by zero"), "{failed}");
    assert!(
        failed.contains(" at Some("),
        "an error with a span: {failed}"
    );
}

/// A lister's loop over a parameter whose domain reads an earlier one and
/// lies somewhere it can be read (a range, a node's neighbours, a zone)
/// walks it in place instead of listing it (`opt/bytecode/lister.rs`,
/// `walked`): the same options, steps and errors as the tree's listing,
/// under every budget in the 60 steps below the one the match needs. The
/// range too long, the neighbours of `none` and the zone of `none` fail
/// where the tree's fail.
#[test]
fn a_listers_domains_walked_in_place_answer_as_the_tree_does() {
    let rules = |hi: &str, far: &str, here: &str| {
        format!(
            r#"game "Walked"
players 2
seats red, blue
board "board.toml"
piece stone per player {{ }} in supply {{ 3 x {{ }} }}
zone per player supply: stone
zone per node pile: stone
var hi: int = {hi}
var far: node = {far}
var here: node = {here}
action pick(a in 1..3, b in a..hi) label "pick {{a}} {{b}}" {{
  require a + b < 6
}}
action hop(n in nodes where not empty(it.pile), m in neighbors(n)) label "hop {{n}} {{m}}" {{
  require m != n and count(m.pile) < 2
}}
fn spot(k: int) -> node = if k == 1 then here else @c
action take(k in 1..2, s in spot(k).pile) label "take {{k}} {{s}}" {{
  require s.owner == actor
}}
action jump(k in 1..2, m in neighbors(if k == 2 then far else @e)) label "jump {{k}} {{m}}" {{
  require k > 1
}}
play {{
  move top(red.supply) to @b.pile
  move top(blue.supply) to @b.pile
  move top(red.supply) to @c.pile
  act red with pick, hop, take, jump
}}
"#
        )
    };
    let board = loop_board(false);
    let ok = rules("4", "@d", "@b");
    let fast = compile(&ok, &board, &regel::opt::Passes::all());
    for (k, step) in [
        (0, "RangeNext"),
        (1, "IterNext { what: Adj"),
        (2, "IterNext { what: Zone"),
        (3, "IterNext { what: Adj"),
    ] {
        let lister = &fast.programs[fast.actions[k].lister.expect("listed") as usize];
        let ops: Vec<String> = lister.ops().iter().map(|o| format!("{o:?}")).collect();
        assert!(ops.iter().any(|o| o.starts_with(step)), "{k}: {ops:?}");
        assert!(
            !ops.iter().any(|o| o.starts_with("PushAdj")),
            "{k}: {ops:?}"
        );
    }
    same_as_the_tree(&ok, &board, 60, &[]);
    let listed = options_as_the_tree(&ok, &board);
    // pick: a + b below 6 (not 3 + 3); hop: from b to a and c (c holds one
    // stone), from c to a and d (b holds two); take: the red stones on b (k
    // = 1) and c (k = 2); jump: d's neighbours c and e, for k = 2.
    assert_eq!(
        listed,
        [
            "pick 1 1",
            "pick 1 2",
            "pick 1 3",
            "pick 1 4",
            "pick 2 2",
            "pick 2 3",
            "hop b a",
            "hop b c",
            "hop c a",
            "hop c d",
            "take 1 stone#2",
            "take 2 stone#1",
            "jump 2 c",
            "jump 2 e"
        ]
    );
    for (bad, says) in [
        (rules("9223372036854775807", "@d", "@b"), "range"),
        (rules("4", "none", "@b"), "none"),
        (rules("4", "@d", "none"), "none"),
    ] {
        let out = same_as_the_tree(&bad, &board, 60, &[]);
        assert!(out.contains(says), "{out}");
    }
}

/// A lister whose outer loop binds a node and whose innermost parameter
/// walks that node's pile with a leading test skips, in one operation
/// (`BOp::NextLead`), the nodes whose pile holds no piece passing the test,
/// charging each the length of its pile as the inner walk would: the same
/// options, the same steps, and the same outcome under every budget in the
/// 80 steps below the one the match needs. The leading tests: the owner
/// against the actor (`==`), the owner against the actor (`!=`) and a field
/// against a constant (put in a register before the loop). A field against
/// a variable is no leading test: that lister keeps its plain loop and
/// answers the same; nor is a skip made where the outer loop walks only the
/// nodes whose pile holds a piece of the actor's (the owner against the
/// actor, `==`), which the skip would never skip. A test that divides by zero for a piece it keeps fails
/// with the same error at the same span.
#[test]
fn lead_skips_of_a_listers_outer_loop_answer_as_the_tree_does() {
    let rules = |d: i64, act: &str| {
        format!(
            r#"game "Skips"
{STONES}var d: int = {d}
var want: int = 3
action mine(n in nodes, s in n.pile where owner == actor and 4 / d > it.size) label "mine {{s.size}} on {{n}}" {{ }}
action theirs(n in nodes, s in n.pile where owner != actor and 4 / d > 0) label "theirs {{s.size}} on {{n}}" {{ }}
action twos(n in nodes, s in n.pile where size == 2 and 4 / d > 0) label "two on {{n}}" {{ }}
action wanted(n in nodes, s in n.pile where it.size == want and 4 / d > 0) label "{{want}} of {{s.owner}} on {{n}}" {{ }}
action listed(n in [@a, @b, @e], s in n.pile where owner == actor and 4 / d > it.size) label "listed {{s.size}} on {{n}}" {{ }}
play {{
  move top(red.supply) to @b.pile
  move top(blue.supply) to @b.pile
  move top(red.supply) to @b.pile
  move top(blue.supply) to @c.pile
  move top(red.supply) to @e.pile
  log "placed"
  act red with {act}
}}
"#
        )
    };
    let tree = tree_passes();
    // Red's supply is taken from the top, size 3 first: b holds red 3,
    // blue 3 and red 2, c blue 2, e red 1; a, d and f hold nothing.
    // The action, whether its lister skips, and its options.
    let cases = [
        // `zone-pred` makes `n in nodes` the nodes whose pile holds a piece
        // of the actor's (`nodes-owned[pile of l0]`, from the index), so
        // every node passes the skip's test and the loop does not look
        // (`Comp::skips_nothing`).
        (
            "mine",
            false,
            vec!["mine 3 on b", "mine 2 on b", "mine 1 on e"],
        ),
        ("theirs", true, vec!["theirs 3 on b", "theirs 2 on c"]),
        ("twos", true, vec!["two on b", "two on c"]),
        ("wanted", false, vec!["3 of red on b", "3 of blue on b"]),
        // The same test over nodes listed by hand, where it skips: a's
        // empty pile is skipped, b and e are taken.
        (
            "listed",
            true,
            vec!["listed 3 on b", "listed 2 on b", "listed 1 on e"],
        ),
    ];
    for (k, (act, skips, want)) in cases.into_iter().enumerate() {
        let ok = same_as_the_tree(&rules(1, act), &loop_board(false), 80, &["NextLead"]);
        assert!(ok.starts_with(r#"["placed"] in "#), "{act}: {ok}");
        let setup = Setup::new(2, 1);
        let fast = compile(
            &rules(1, act),
            &loop_board(false),
            &regel::opt::Passes::all(),
        );
        let slow = compile(&rules(1, act), &loop_board(false), &tree);
        let lister = &fast.programs[fast.actions[k].lister.expect("listed") as usize];
        let uses = lister
            .ops()
            .iter()
            .any(|o| matches!(o, regel::ir::BOp::NextLead { .. }));
        assert_eq!(uses, skips, "{act}");
        let listed = Match::new(fast, &setup).unwrap().option_labels();
        assert_eq!(listed, want, "{act}");
        assert_eq!(listed, Match::new(slow, &setup).unwrap().option_labels());
        let failed = same_as_the_tree(&rules(0, act), &loop_board(false), 80, &["NextLead"]);
        assert!(failed.contains("division by zero"), "{act}: {failed}");
        assert!(failed.contains(" at Some("), "{act}: {failed}");
    }
}

/// A conjunct that the collection a loop walks already makes true of its
/// element is not tested again (`Comp::known`): `zone-pred` makes `n in
/// nodes` with a leading test of `n`'s own zones or variables the nodes
/// that pass it (`nodes-where[not count(pile) == 0]`), and the test itself,
/// written out or at the start of a called function (`held`, compiled in
/// place), is left out of the loop: in an `any`, a `count` of a filter, a
/// lister's domain, and for a per-node variable (`calm`). A test of the
/// same form of another element (`m`, a neighbour) stays. The answers,
/// options and steps are the tree's, under every budget in the 60 steps
/// below the one the match needs, and a division by zero after the left-out
/// test fails at the same span.
#[test]
fn a_test_the_walked_collection_makes_is_not_made_again() {
    let rules = |d: i64| {
        format!(
            r#"game "Known"
{STONES}var d: int = {d}
var per node mark: int = 0
fn busy(n: node) -> bool = not empty(n.pile) and 4 / d > 1
fn calm(n: node) -> bool = n.mark == 0 and 4 / d > 1
fn held(n: node, p: player) -> bool = not empty(n.pile) and all(s in n.pile: s.owner == p) and 4 / d > 0
action pick(n in nodes where busy(it)) label "pick {{n}}" {{ }}
play {{
  move top(red.supply) to @b.pile
  move top(blue.supply) to @b.pile
  move top(red.supply) to @e.pile
  move top(blue.supply) to @c.pile
  @c.mark = 1
  let h = any(n in nodes: held(n, red))
  let hc = count(nodes where held(it, red))
  let b = any(n in nodes: busy(n))
  let bc = count(nodes where busy(it))
  let cc = count(nodes where calm(it))
  let nb = count(nodes where busy(it) and any(m in neighbors(it): not empty(m.pile) and 4 / d > 0))
  log "{{h}} {{hc}} {{b}} {{bc}} {{cc}} {{nb}}"
  act red with pick
}}
"#
        )
    };
    let board = loop_board(false);
    let done = same_as_the_tree(&rules(1), &board, 60, &["PushZPred"]);
    assert!(done.starts_with(r#"["true 1 true 3 5 2"] in "#), "{done}");
    assert_eq!(
        options_as_the_tree(&rules(1), &board),
        ["pick b", "pick c", "pick e"]
    );
    // Every loop over a zone-predicate collection tests no zone's length
    // and reads no per-node variable but in the neighbour's test.
    let fast = compile(&rules(1), &board, &regel::opt::Passes::all());
    let mut walks = 0;
    for p in fast.programs.iter() {
        let ops: Vec<String> = p.ops().iter().map(|o| format!("{o:?}")).collect();
        let Some(start) = ops.iter().position(|o| o.starts_with("PushZPred")) else {
            continue;
        };
        walks += 1;
        let tests: Vec<&String> = ops[start..]
            .iter()
            .filter(|o| {
                [
                    "JumpZoneLen",
                    "ZoneLenOf",
                    "ZoneEmpty",
                    "VarAt",
                    "JumpVarAt",
                ]
                .iter()
                .any(|t| o.starts_with(t))
            })
            .collect();
        let neighbours = ops.iter().any(|o| o.contains("Neighbors"));
        assert_eq!(tests.len(), usize::from(neighbours), "{ops:#?}");
    }
    assert!(walks >= 3, "{walks} walks");
    let failed = same_as_the_tree(&rules(0), &board, 60, &["PushZPred"]);
    assert!(failed.contains("division by zero"), "{failed}");
    assert!(failed.contains(" at Some("), "{failed}");
}

/// A leading requirement that several actions of one `act` share (the
/// same pure expression, reading no parameter and no local but the actor)
/// is computed once per listing and read by the next action, its steps
/// charged again (`opt/bytecode/shared.rs`): the same options and the same
/// steps as the tree, and the same outcome under every budget in the 120
/// steps below the one the match needs, where a read whose steps would pass
/// the budget computes instead and fails where the tree fails. A
/// requirement that draws at random, or one written differently, is not
/// shared; one that divides by zero fails at the first action.
#[test]
fn requirements_shared_between_actions_answer_as_the_tree_does() {
    // `lucky` is left out of the comparisons with the tree: the machine
    // leaves `random` to the tree evaluator, which `same_as_the_tree` refuses.
    let rules = |d: i64, lucky: &str| {
        let lucky_decl = if lucky.is_empty() {
            ""
        } else {
            "action lucky label \"lucky\" {\n  require load(actor) + random(0..1) > 5\n}\n"
        };
        format!(
            r#"game "Shared"
{STONES}var d: int = {d}
fn load(p: player) -> int = sum(n in nodes: count(s in n.pile: s.owner == p) * 10 / d)
action one label "one" {{
  require load(actor) > 5
}}
action two label "two" {{
  require load(actor) > 5
}}
action three label "three" {{
  require load(actor) > 25
}}
{lucky_decl}action four label "four" {{
  require load(actor) > 5
}}
play {{
  move top(red.supply) to @b.pile
  move top(blue.supply) to @b.pile
  move top(red.supply) to @c.pile
  log "placed"
  act red with one, two, three, {lucky}four
}}
"#
        )
    };
    let tree = tree_passes();
    let ok = same_as_the_tree(&rules(1, ""), &loop_board(false), 120, &[]);
    assert!(ok.starts_with(r#"["placed"] in "#), "{ok}");
    let fast = compile(
        &rules(1, "lucky, "),
        &loop_board(false),
        &regel::opt::Passes::all(),
    );
    let slow = compile(&rules(1, "lucky, "), &loop_board(false), &tree);
    // `one`, `two` and `four` share a class; `three` compares with another
    // number and `lucky` draws, so they share nothing (an empty list).
    let classes: Vec<Vec<u16>> = fast.actions.iter().map(|a| a.shared.clone()).collect();
    assert_eq!(classes, [vec![0], vec![0], vec![], vec![], vec![0]]);
    // Red has two stones on the board: a load of 20.
    let setup = Setup::new(2, 1);
    let listed = Match::new(fast, &setup).unwrap().option_labels();
    assert_eq!(listed, ["one", "two", "lucky", "four"]);
    assert_eq!(listed, Match::new(slow, &setup).unwrap().option_labels());
    let failed = same_as_the_tree(&rules(0, ""), &loop_board(false), 120, &[]);
    assert!(failed.contains("division by zero"), "{failed}");
    assert!(failed.contains(" at Some("), "{failed}");
}

/// Two seats with three stones each, of sizes 1, 2 and 3, in their
/// supplies, and a pile on every node: the start of the rules of the tests
/// of kept values.
const STONES: &str = r#"players 2
seats red, blue
board "board.toml"
piece stone per player { size: int } in supply {
  1 x { size: 1 }
  1 x { size: 2 }
  1 x { size: 3 }
}
zone per player supply: stone
zone per node pile: stone
"#;

/// A call or an aggregate inside a loop that reads neither the loop's
/// element nor anything bound inside the loop is computed once per loop
/// and read afterwards (`opt/bytecode/memo.rs`, `BOp::MemoGet`), its steps
/// charged again at each read: the same log in the same steps as the tree,
/// and the same outcome under every budget in the 100 steps below the one
/// the match needs. The cases: a filter's test calling a function of an
/// outer local (`biggest(blue)`); an inner loop's invariant that reads the
/// outer loop's element (`load(n)`), kept per node and forgotten when the
/// inner loop starts again; a function that draws at random, which is
/// never kept (each element draws); an invariant that fails (`tenth(d)`
/// with `d = 0`) fails at its first computation, at the same span, and not
/// at all over an empty zone.
#[test]
fn loop_invariant_values_kept_answer_as_the_tree_does() {
    let rules = |d: i64, rolls: &str| {
        format!(
            r#"game "Kept"
{STONES}var d: int = {d}
var x: int = 0
fn biggest(p: player) -> int = max(s in p.supply: s.size)
fn load(n: node) -> int = sum(s in n.pile: s.size)
fn tenth(k: int) -> int = 10 / k
fn roll() -> int = random(1..3)
play {{
  move top(red.supply) to @b.pile
  move top(red.supply) to @c.pile
  x = count(s in blue.supply where it.size < biggest(blue))
  log "smaller {{x}}"
  x = sum(n in nodes: count(s in blue.supply: s.size <= load(n)))
  log "loads {{x}}"
  {rolls}
  x = count(s in @a.pile: s.size < tenth(d))
  log "empty {{x}}"
  x = count(s in blue.supply: s.size < tenth(d))
  log "tenths {{x}}"
}}
"#
        )
    };
    let ok = same_as_the_tree(
        &rules(1, ""),
        &loop_board(false),
        100,
        &["MemoGet", "MemoSet"],
    );
    // Blue's sizes 1, 2, 3: two below the biggest. Red's 3 is on b and its
    // 2 on c: per node a, b, c, d, e, f the blue stones of at most that
    // load: 0 + 3 + 2 + 0 + 0 + 0 = 5. Ten over one is 10: all three blue
    // stones are below it; none over the empty pile of a.
    assert!(
        ok.starts_with(r#"["smaller 2", "loads 5", "empty 0", "tenths 3"]"#),
        "{ok}"
    );
    // `random` is left to the tree evaluator, so this one is compared
    // outside `same_as_the_tree`: each element draws, with the bytecode as
    // without it (a kept draw would leave the generator behind and change
    // the steps).
    let rolls = rules(
        1,
        r#"x = count(s in blue.supply: s.size <= roll()) * 10 + count(s in blue.supply: s.size <= roll())
  log "rolls {x}""#,
    );
    let tree = tree_passes();
    let fast = compile(&rolls, &loop_board(false), &regel::opt::Passes::all());
    let slow = compile(&rolls, &loop_board(false), &tree);
    for seed in 0..20 {
        let mut setup = Setup::new(2, seed);
        setup.log = true;
        let run = |g: &std::sync::Arc<regel::ir::Game>| {
            let mut m = Match::new(g.clone(), &setup).unwrap();
            (m.take_log(), m.state.steps)
        };
        assert_eq!(run(&fast), run(&slow), "seed {seed}");
    }
    let failed = same_as_the_tree(&rules(0, ""), &loop_board(false), 100, &["MemoGet"]);
    assert!(failed.contains("division by zero"), "{failed}");
    assert!(
        failed.contains(" at Some("),
        "an error with a span: {failed}"
    );
}

/// An expression that reads no local is kept between decisions
/// (`opt/bytecode/keep.rs`, `BOp::KeepGet`) until a zone or variable it
/// reads changes, its steps charged again at each read: the same log in the
/// same steps as the tree, and the same outcome under every budget below
/// the one the match needs (653 steps; a read that crossed the budget
/// would stop the match at another span). The loop computes `weight()`
/// at the same place six times; it reads the piles and `k`: a stone moved
/// onto a pile and `k` changed outdate it, a stone moved into the bag, a
/// shuffle of the bag and `x` changed do not; the
/// value computed in `deep` at one depth is computed again at another, so
/// that the depth limit is met where the calls meet it (the depths are
/// variables: a constant would make the `consts` pass call a copy of `deep`
/// per depth, each with a site of its own); a site that fails
/// (`100 / d` with `d = 0`) fails at its first computation, at the same
/// span.
#[test]
fn values_kept_between_decisions_answer_as_the_tree_does() {
    let rules = |d: i64, depth: i64| {
        format!(
            r#"game "Kept"
{STONES}zone bag: stone
var k: int = 1
var d: int = {d}
var depth: int = {depth}
var shallow: int = 3
var x: int = 0
fn weight() -> int = sum(n in nodes: sum(m in nodes: count(n.pile) * count(m.pile) * k)) + 100 / d
fn deep(i: int) -> int = if i == 0 then weight() else deep(i - 1)
play {{
  for step in 1..6 {{
    x = weight()
    log "{{step}}: {{x}}"
    if step == 1 {{
      move top(red.supply) to @b.pile
    }} else if step == 3 {{
      k += 1
    }} else if step == 4 {{
      move top(blue.supply) to bag
      shuffle bag
    }} else if step == 5 {{
      move top(red.supply) to @c.pile
    }}
  }}
  x = deep(shallow) * 1000 + deep(depth)
  log "deep {{x}}"
}}
"#
        )
    };
    let ok = same_as_the_tree(
        &rules(1, 2),
        &loop_board(false),
        700,
        &["KeepGet", "KeepSet"],
    );
    // 100 / 1 = 100 added to the sum over pairs of piles: none, then one
    // stone (1 * 1 * k), then two stones on b and c (four pairs, k = 2).
    assert!(
        ok.starts_with(
            r#"["1: 100", "2: 101", "3: 101", "4: 102", "5: 102", "6: 108", "deep 108108"]"#
        ),
        "{ok}"
    );
    let mut deep_ok = 0;
    for depth in [150, 196, 197, 198, 199, 200] {
        let out = same_as_the_tree(&rules(1, depth), &loop_board(false), 40, &["KeepGet"]);
        if out.contains("too deeply") {
            assert!(depth >= 197, "{depth}: {out}");
        } else {
            deep_ok += 1;
        }
    }
    assert!(deep_ok >= 2, "the shallow ones succeed");
    let failed = same_as_the_tree(&rules(0, 2), &loop_board(false), 40, &["KeepGet"]);
    assert!(failed.contains("division by zero"), "{failed}");
    assert!(
        failed.contains(" at Some("),
        "an error with a span: {failed}"
    );
}

/// `min(a, b)`, `max(a, b)` and `distance(a, b)` are answered inside the
/// machine's builtin operation without a call (`distance` from the board's
/// table), as the tree answers them: the same log in the same steps under
/// every budget below the one the match needs, and `distance` from `none`
/// the same error at the same span.
#[test]
fn min_max_and_distance_in_the_machine_answer_as_the_tree_does() {
    let rules = |to: &str| {
        format!(
            r#"game "Far"
players 2
board "board.toml"
var far: node = {to}
var x: int = 0
play {{
  x = sum(n in nodes: min(distance(@a, n), 2) * 10 + max(distance(n, @a), 1))
  log "sum {{x}}"
  x = max(distance(@a, far), distance(far, @a))
  log "far {{x}}"
}}
"#
        )
    };
    let ops = ["Builtin b: Min2", "Builtin b: Max2", "Builtin b: Distance"];
    let ok = same_as_the_tree(&rules("@e"), &loop_board(false), 200, &ops);
    // From a: a 0, b 1, c 1, d 2, e 3, f unreachable (-1): the minimums
    // with 2 are 0, 1, 1, 2, 2, -1 and the maximums with 1 are 1, 1, 1, 2,
    // 3, 1: 50 + 9.
    assert!(ok.starts_with(r#"["sum 59", "far 3"]"#), "{ok}");
    let failed = same_as_the_tree(&rules("none"), &loop_board(false), 40, &ops);
    assert!(
        failed.contains(" at Some("),
        "an error with a span: {failed}"
    );
}

/// A call compiled in place whose body calls nothing (`BOp::CallLeaf`)
/// checks the call depth without raising and lowering it, and answers as
/// the call does at every depth around the limit: `deep` recurses `depth`
/// calls (a variable, so that no pass folds it), then calls `leaf`, which
/// counts the stones on a node; at 199 calls it is one below the limit of
/// 200, at 200 and more the call to `leaf` (or `deep` itself) is too deep.
/// The same log or error, at the same span, in the same steps, and under
/// every budget in the 40 steps below.
#[test]
fn leaf_calls_compiled_in_place_check_the_depth_as_calls_do() {
    let rules = |depth: i64| {
        format!(
            r#"game "Deep"
players 2
board "board.toml"
piece stone {{ }} in heap {{ 2 x {{ }} }}
zone heap: stone
zone per node pile: stone
var depth: int = {depth}
var x: int = 0
fn leaf(n: node) -> int = count(s in n.pile: s != none) * 2 + count(m in neighbors(n): true)
fn deep(d: int, n: node) -> int = if d == 0 then leaf(n) else deep(d - 1, n)
play {{
  move top(heap) to @a.pile
  x = deep(depth, @a)
  log "x {{x}}"
}}
"#
        )
    };
    let mut ok = 0;
    for depth in [0, 150, 197, 198, 199, 200, 201] {
        let out = same_as_the_tree(&rules(depth), &loop_board(false), 40, &["CallLeaf"]);
        if out.contains("too deeply") {
            assert!(depth >= 199, "{depth}: {out}");
        } else {
            ok += 1;
            assert!(out.starts_with(r#"["x "#), "{depth}: {out}");
        }
    }
    assert!(ok >= 4, "the shallow ones succeed");
}

/// The same for a test that begins with a field of the piece (`x.size ==
/// k`, `BOp::IterLead` with the field's key): the same log in the same steps as the tree, under
/// every budget in the 60 steps below the one the match needs, and the rest
/// of the test run only for the pieces kept.
#[test]
fn field_led_walks_answer_as_the_tree_does() {
    let rules = |d: i64, over_b: &str| {
        format!(
            r#"game "Sizes"
players 2
seats red, blue
board "board.toml"
piece stone per player {{ size: int }} in supply {{
  1 x {{ size: 1 }}
  1 x {{ size: 2 }}
  1 x {{ size: 3 }}
}}
zone per player supply: stone
zone per node pile: stone
var d: int = {d}
var x: int = 0
play {{
  move all red.supply to @b.pile
  move all blue.supply to @c.pile
  let k = 2
  let p = red
  x = (if first(@b.pile where size == 9) == none then 1000 else 0) + (if any(s in @c.pile: s.size == 3 and 10 / d > 0) then 100 else 0) + count(@b.pile where size != k) * 10 + count(s in @b.pile: k == s.size and s.owner == p)
  log "sizes {{x}}"
  let big = first(@c.pile where size == 3)
  x = count(s in @b.pile: s.size == big.size) * 10 + (if first(@a.pile where size != big.size) == none then 1 else 0)
  log "like {{x}}"
  let gone = first(@a.pile)
  x = count(s in @a.pile: s.size == gone.size) * 10{over_b}
  log "none {{x}}"
}}
"#
        )
    };
    let ops = ["IterLead key: 0,"];
    let ok = same_as_the_tree(&rules(1, ""), &loop_board(false), 60, &ops);
    // No stone of size 9 (1000); c holds blue's stone of size 3 and 10 / 1
    // is above 0 (100); two of red's three stones on b are not of size 2
    // (20); one is, and red's (1).
    // Red's stone of size 3 is like blue's on c (10); a is empty (1). A
    // piece from the empty a is `none`: over the empty a its size is never
    // read (0).
    assert!(
        ok.starts_with(r#"["sizes 1121", "like 11", "none 0"]"#),
        "{ok}"
    );
    // Over b it is read, and fails, at the same span as the scan's.
    let over_b = " + count(s in @b.pile: gone.size == s.size)";
    let none = same_as_the_tree(&rules(1, over_b), &loop_board(false), 60, &ops);
    assert!(none.contains("a field of `none`"), "{none}");
    let failed = same_as_the_tree(&rules(0, ""), &loop_board(false), 60, &ops);
    assert!(failed.contains("division by zero"), "{failed}");
}

/// `min`, `max` and `count` over a filter whose value is a constant, the
/// element or its attribute take their answer in the filter's own loop
/// (`Comp::agg_filtered`, connect four's `max(c in nodes where col == k and
/// free(it): c.row)`) and answer exactly as the tree does: the same log in
/// the same steps, under every budget in the 40 steps below the one the
/// match needs, with filters that keep some cells of a column, all of them
/// and none; `max` and `min` of none fail as the tree's do, at the same
/// span.
#[test]
fn aggregates_taken_in_a_filters_loop_answer_as_the_tree_does() {
    let rules = |last: &str| {
        format!(
            r#"game "Columns"
players 2
board "board.toml"
piece stone {{ }} in heap {{ 9 x {{ }} }}
zone heap: stone
zone per node cell: stone
play {{
  move top(heap) to @r1c1.cell
  move top(heap) to @r2c1.cell
  move top(heap) to @r3c1.cell
  move top(heap) to @r3c2.cell
  for k in 1..3 {{
    let free = count(c in nodes where col == k and empty(it.cell): true)
    let taken = count(c in nodes where col == k and not empty(it.cell): true)
    log "column {{k}}: {{free}} free, {{taken}} taken"
    if free > 0 {{
      let low = max(c in nodes where col == k and empty(it.cell): c.row)
      let high = min(c in nodes where col == k and empty(it.cell): c.row)
      log "  free rows {{high}} to {{low}}"
    }}
  }}
  log "last {{{last}}}"
}}
"#
        )
    };
    let board = GRID3;
    // `max` and `min` run as `MaxAcc` and `MinAcc` fused with the jump
    // back to their loop (`Draft::fuse`).
    let fused = ["AccJump max: true", "AccJump max: false", "CountIf", "Put"];
    let out = same_as_the_tree(&rules("1"), board, 40, &fused);
    assert!(
        out.contains(r#""column 1: 0 free, 3 taken", "column 2: 2 free, 1 taken", "  free rows 1 to 2", "column 3: 3 free, 0 taken", "  free rows 1 to 3""#),
        "{out}"
    );
    for none in [
        "max(c in nodes where col == 1 and empty(it.cell): c.row)",
        "min(c in nodes where col == 1 and empty(it.cell): c.row)",
    ] {
        let out = same_as_the_tree(&rules(none), board, 40, &fused);
        assert!(out.contains("of an empty collection"), "{none}: {out}");
    }
}

/// A loop-invariant value of plain reads and arithmetic (`src.row +
/// forward(actor)` tested for every neighbour of `src`) is computed at the
/// loop's first element that reaches it and read back after
/// (`BOp::HoldGet`, `opt/bytecode/memo.rs`), in a filter's loop and in an
/// action's lister, and answers exactly as the tree does: the same log and
/// options in the same steps, under every budget in the 40 steps below the
/// one the match needs. A value that fails (an attribute of `none`, an
/// overflow) fails where the tree's does, at the first element that
/// reaches it, not before the loop or at an element that does not.
#[test]
fn values_a_loop_holds_answer_as_the_tree_does() {
    let rules = |far: &str, big: &str| {
        format!(
            r#"game "Held"
players 2
seats white, black
board "board.toml"
piece stone {{ }} in heap {{ 9 x {{ }} }}
zone heap: stone
zone per node cell: stone
var far: node = {far}
var big: int = {big}
fn ahead(p: player) -> int = if p == white then -1 else 1
action step(src in nodes where not empty(it.cell), dst in neighbors(src))
    label "{{src}}-{{dst}}" {{
  require dst.row == src.row + ahead(actor)
  require empty(dst.cell)
}}
play {{
  move top(heap) to @r2c2.cell
  move top(heap) to @r3c1.cell
  let below = count(c in nodes where c.col > 1 and c.row == far.row - 1 + big: true)
  log "below {{below}}"
  let wide = count(c in nodes where empty(it.cell) and c.col * 2 != far.col * 2 - big: true)
  log "wide {{wide}}"
  act white with step
}}
"#
        )
    };
    let board = GRID3;
    let out = same_as_the_tree(&rules("@r3c3", "0"), board, 40, &["HoldGet", "HoldSet"]);
    assert!(out.contains(r#"["below 2", "wide 4"]"#), "{out}");
    let listed = options_as_the_tree(&rules("@r3c3", "0"), board);
    assert!(!listed.is_empty(), "{listed:?}");
    let out = same_as_the_tree(&rules("none", "0"), board, 40, &["HoldGet"]);
    assert!(out.contains("none"), "{out}");
    let out = same_as_the_tree(
        &rules("@r3c3", "9223372036854775807"),
        board,
        40,
        &["HoldGet"],
    );
    assert!(out.contains("overflow"), "{out}");
}

/// A value a loop would hold that cannot fail is computed before the loop
/// (`opt/bytecode/hoist.rs`): in a lister like breakthrough's, `src.row +
/// ahead(actor)` and `src.col` are read from registers set before the loop
/// over `dst`, with no `HoldGet` left anywhere; the same log, options and
/// steps as the tree under every budget. A value that may fail (an
/// attribute of a variable that may be `none`, a sum that may overflow)
/// stays held where the rules put it: in a loop whose elements never reach
/// it, it fails neither here nor in the tree.
#[test]
fn values_that_cannot_fail_are_computed_before_the_loop() {
    let board = GRID3;
    let step = r#"game "Hoisted"
players 2
seats white, black
board "board.toml"
piece stone { } in heap { 9 x { } }
zone heap: stone
zone per node cell: stone
fn ahead(p: player) -> int = if p == white then -1 else 1
action step(src in nodes where not empty(it.cell), dst in neighbors(src))
    label "{src}-{dst}" {
  require dst.row == src.row + ahead(actor)
  require empty(dst.cell) or dst.col != src.col
}
play {
  move top(heap) to @r2c2.cell
  move top(heap) to @r3c1.cell
  let c = count(n in nodes where n.row * 3 + n.col >= (@r2c2.row + ahead(black)) * 3: true)
  log "c {c}"
  act white with step
}
"#;
    let out = same_as_the_tree(step, board, 40, &[]);
    assert!(out.contains(r#"["c 4"]"#), "{out}");
    let fast = compile(step, board, &regel::opt::Passes::all());
    let ops: Vec<String> = fast
        .programs
        .iter()
        .flat_map(|p| p.ops())
        .map(|o| format!("{o:?}"))
        .collect();
    assert!(!ops.iter().any(|o| o.starts_with("Hold")), "{ops:?}");
    let listed = options_as_the_tree(step, board);
    assert_eq!(listed, ["r2c2-r1c2", "r3c1-r2c1"]);
    let unsure = |far: &str, big: &str| {
        format!(
            r#"game "Not hoisted"
players 2
board "board.toml"
piece stone {{ }} in heap {{ 9 x {{ }} }}
zone heap: stone
zone spare: stone
var far: node = {far}
var big: int = {big}
play {{
  let a = count(x in spare where x is stone and far.row + far.col > 0: true)
  let b = count(x in spare where x is stone and @r1c1.row + big > 1: true)
  let c = count(x in heap where x is stone and far.row + far.col > 0: true)
  log "{{a}} {{b}} {{c}}"
}}
"#
        )
    };
    let out = same_as_the_tree(
        &unsure("none", "9223372036854775807"),
        board,
        40,
        &["HoldGet"],
    );
    assert!(out.contains("none"), "{out}");
    let out = same_as_the_tree(
        &unsure("@r3c3", "9223372036854775807"),
        board,
        40,
        &["HoldGet"],
    );
    assert!(out.contains(r#"["0 0 9"]"#), "{out}");
}

/// Pairs of operations fused into one (`Draft::fuse`): a value and the
/// jump after it (`ConstJump`, `OwnerJump`, `AccJump`, `SumAccJump`; and
/// `ConstRet`, a constant and the `Ret` of it; `PushJump`, of a listed
/// collection, runs in connect four's lister and is compared with the tree
/// in `tests/passes.rs`), a call compiled in place and its first test
/// (`EnterJumpEqK`, `LeafZoneOwnerOf`, `LeafJumpZoneLen`), its end and the
/// addition after it (`LeaveAddK`), a key lookup with a constant
/// (`KeyPairK`), a zone and the walk that begins over it (`ZoneIter`, in
/// the inner `sum`), a zone's pieces of an owner counted without listing
/// them (`ZoneOwnerOf` and the list's charge, `ChargeRange`, in `owned`;
/// `worth`'s test on a field keeps its loop). They answer as the tree does: the same log in the same
/// steps under every budget in the 60 steps below the end (each call's
/// step, each zone's pieces charged before the call's depth is checked),
/// and the sum's overflow fails at the same span.
/// The log checked by hand: white's stones lie on r1c1 and r1c2, black's on
/// r1c3, so white's run rightwards from r1c1 is 2 and black's from r1c3 is
/// 1 (the board ends); white has none from r1c3. r1c1 holds one stone of
/// white's and none of black's; the heaps keep the stones not moved (each
/// heap had two of value 1 under two of value 5, and the tops were moved):
/// black's one of value 5, white's two of value 1 and none of value 5,
/// black's some of value 1. Row 1's squares hold a
/// stone each (white's, white's, black's: r1c1 is white's, r1c3 black's
/// and not white's, r2c1 nobody's); rows 2 and 3 hold none: the
/// first squares of columns 1 to 3 are all full, the highest row holding
/// a stone is 1, and the stones moved, each the top of its heap and so one
/// of value 5 (a heap's last piece is its top), sum to 15.
#[test]
fn fused_pairs_answer_as_the_tree_does() {
    let board = GRID3;
    let rules = |big: &str| {
        format!(
            r#"game "Pairs"
players 2
seats white, black
board "board.toml"
piece stone per player {{ v: int }} in heap {{
  2 x {{ v: 1 }}
  2 x {{ v: {big} }}
}}
zone per player heap: stone
zone per node cell: stone
fn mine(p: player, c: node) -> bool = any(x in c.cell: x.owner == p)
fn free(c: node) -> bool = empty(c.cell)
fn right(c: node) -> node = first(neighbors(c) where row == c.row and col == c.col + 1)
fn run(p: player, c: node) -> int = if c == none or not mine(p, c) then 0 else 1 + run(p, right(c))
var nobody: player = none
fn holds(p: player, c: node) -> bool = (if not empty(c.cell) then top(c.cell).owner else nobody) == p
fn owned(p: player, c: node) -> int = count(c.cell where owner == p)
fn worth(p: player, k: int) -> int = count(p.heap where v == k)
fn none_worth(p: player, k: int) -> bool = empty(p.heap where v == k)
play {{
  move top(white.heap) to @r1c1.cell
  move top(white.heap) to @r1c2.cell
  move top(black.heap) to @r1c3.cell
  log "{{run(white, @r1c1)}} {{run(black, @r1c3)}} {{run(white, @r1c3)}}"
  log "{{holds(white, @r1c1)}} {{holds(white, @r1c3)}} {{holds(black, @r1c3)}} {{holds(white, @r2c1)}}"
  log "{{owned(white, @r1c1)}} {{owned(black, @r1c1)}} {{worth(black, 5)}} {{worth(white, 1)}} {{none_worth(white, 5)}} {{none_worth(black, 1)}}"
  let full = count(k in 1..3 where not free(first(nodes where row == 1 and col == k)))
  let high = max(c in nodes where not empty(it.cell): c.row)
  let total = sum(c in nodes where row == 1: sum(x in c.cell: x.v))
  log "{{full}} {{high}} {{total}}"
}}
"#
        )
    };
    let fused = [
        "ConstJump",
        "EnterJumpEqK",
        "LeafZoneOwnerOf",
        "LeaveAddK",
        "KeyPairK",
        "LeafJumpZoneLen",
        "AccJump max: true",
        "SumAccJump",
        "OwnerJump",
        "ConstRet",
        "ZoneIter",
        "ChargeRange",
    ];
    let out = same_as_the_tree(&rules("5"), board, 60, &fused);
    assert!(
        out.contains(r#"["2 1 0", "true false true false", "1 0 1 2 true false", "3 1 15"]"#),
        "{out}"
    );
    let out = same_as_the_tree(&rules("9223372036854775807"), board, 60, &fused);
    assert!(out.contains("overflow"), "{out}");
}

/// A sum over every node of the size of a zone each node has, alone or
/// taken from a board attribute (`colls.rs::family_sum`), reads where the
/// first node's zone starts and the last one's ends in the zones' arena
/// (`IterInit` of the nodes, for their charge, then two `ZoneSpan`s), and
/// answers as the tree does: the same log in the same steps under every
/// budget in the 30 steps below the end. Checked by hand: three stones on
/// the 3 × 3 grid's cells, so the cells hold 3 in all; the rows sum to
/// 3 × (1 + 2 + 3) = 18, less the 3 stones, 15; a sum of something else
/// (the columns, `n.col + len(n.cell)`) walks the nodes as before: 18 + 3.
#[test]
fn sums_over_every_node_read_the_arena_at_once() {
    let board = GRID3;
    let rules = r#"game "Sums"
board "board.toml"
zone per node cell: stone
zone per player heap: stone
piece stone per player { } in heap {
  3 x { }
}
players 2
seats white, black
fn stones() -> int = sum(n in nodes: count(n.cell))
fn room() -> int = sum(n in nodes: n.row - count(n.cell))
fn other() -> int = sum(n in nodes: n.col + count(n.cell))
play {
  log "{stones()} {room()} {other()}"
  move top(white.heap) to @r1c1.cell
  move top(white.heap) to @r2c2.cell
  move top(black.heap) to @r3c3.cell
  log "{stones()} {room()} {other()}"
}
"#;
    let out = same_as_the_tree(rules, board, 30, &["ZoneSpan", "IterInit what: Nodes"]);
    assert!(out.contains(r#"["0 18 18", "3 15 21"]"#), "{out}");
}

/// A sum over a range of the sizes of zones of no dimension that a chain
/// of tests of the range's number picks (Hansa's `stack(i)`), each zone
/// picked once and the zones declared one after another
/// (`colls.rs::chain_sum`), reads where the first starts and the last ends
/// in the zones' arena (`RangeInit`, for the range's charge, then two
/// `ZoneSpan`s), in any order of picking, and answers as the tree does: the
/// same log in the same steps under every budget in the 30 steps below the
/// end. A chain whose zones do not lie side by side (`scattered`: `first`,
/// then `apart`, declared three zones later) walks the range as before.
/// Checked by hand: white's stones go to `first` and `third`, black's to
/// `second` and `apart`: `first` to `third` hold 3, `first` and `apart` 2.
#[test]
fn sums_over_a_chain_of_zones_read_the_arena_at_once() {
    let rules = r#"game "Piles"
board "board.toml"
zone first: stone
zone second: stone
zone third: stone
zone apart: stone
zone per player heap: stone
piece stone per player { } in heap {
  3 x { }
}
players 2
seats white, black
fn pile(i: int) -> zone of stone = if i == 1 then first else if i == 2 then second else third
fn backwards(i: int) -> zone of stone = if i == 3 then first else if i == 2 then second else third
fn scattered(i: int) -> zone of stone = if i == 1 then first else apart
fn piled() -> int = sum(i in 1..3: count(pile(i)))
fn back() -> int = sum(i in 1..3: count(backwards(i)))
fn spread() -> int = sum(i in 1..2: count(scattered(i)))
play {
  log "{piled()} {back()} {spread()}"
  move top(white.heap) to first
  move top(white.heap) to third
  move top(black.heap) to second
  move top(black.heap) to apart
  log "{piled()} {back()} {spread()}"
}
"#;
    let out = same_as_the_tree(rules, GRID3, 30, &["ZoneSpan", "RangeInit", "RangeNext"]);
    assert!(out.contains(r#"["0 0 0", "3 3 2"]"#), "{out}");
    let fast = compile(rules, GRID3, &regel::opt::Passes::all());
    let spans: usize = fast
        .programs
        .iter()
        .map(|p| {
            let span = |o: &&regel::ir::BOp| matches!(o, regel::ir::BOp::ZoneSpan { .. });
            p.ops().iter().filter(span).count()
        })
        .sum();
    assert_eq!(spans, 4, "two sums read the arena, the scattered one walks");
    // A range too long to walk is left to the walk, which refuses it as
    // the tree does (and the check does not try its 2^64 numbers).
    let huge = rules.replace(
        "fn spread() -> int = sum(i in 1..2:",
        "fn spread() -> int = sum(i in -9223372036854775807..9223372036854775807:",
    );
    let out = same_as_the_tree(&huge, GRID3, 0, &["RangeInit"]);
    assert!(out.contains("range"), "{out}");
}

/// A `for` whose body holds only lets, assignments, `if`s, moves,
/// `reveal`s and other such loops, and a run of such statements, run whole
/// in the machine (`opt/bytecode/stmts.rs`, `Op::ForCode`, `Op::RunCode`)
/// and answer as the executor does: the same log in the
/// same steps as with every pass but the bytecode, under every budget in
/// the 60 steps below the end (each statement's step, the jump over an
/// `else`, each later element's step, a filtered collection counted and a
/// zone not; a zone's pieces read where they lie when the body moves none,
/// as `c.cell`'s, and copied first when it moves them, as `white.heap`'s);
/// an overflow of `+=` and an index of `none` fail at the same
/// span; with coverage counted, the loops run as written and the counters
/// see their `if`s. A `while` ends a run.
/// The log checked by hand: white's stones (5 each) lie on r1c1 and r2c2,
/// black's on r2c2; of the six squares of rows 1 and 2, r1c1 adds 1 (its
/// count) to `total`, r2c2 adds 2 for white's and takes 1 for black's
/// (`total` 2), and the four empty squares and black's stone make `k` 5;
/// white got 5 + 5, black 5; then each gets 1 more, and white's is set
/// to 1 in black's round (`far` is white). White's last two stones go to
/// r3c3 (each shown, then the one of value 1 hidden again: both), and both
/// stones of r2c2 to black's heap (3 there already): "2 5 0".
#[test]
fn loops_compiled_whole_answer_as_the_executor_does() {
    let board = GRID3;
    let rules = |big: &str, far: &str| {
        format!(
            r#"game "Loops"
players 2
seats white, black
board "board.toml"
piece stone per player {{ v: int }} in heap {{
  2 x {{ v: 1 }}
  2 x {{ v: 5 }}
}}
zone per player heap: stone
zone per node cell: stone
var total: int = 0
var per player got: int = 0
var big: int = {big}
var far: player = {far}
play {{
  move top(white.heap) to @r1c1.cell
  move top(white.heap) to @r2c2.cell
  move top(black.heap) to @r2c2.cell
  let k = 0
  for c in nodes where row <= 2 {{
    let n = count(c.cell)
    for s in c.cell {{
      s.owner.got += s.v
      if s.owner == white {{
        total += n
      }} else {{
        total -= 1
        k = k + 1
      }}
    }}
    if n == 0 {{
      k += 1
    }}
  }}
  log "{{total}} {{k}} {{white.got}} {{black.got}}"
  while total < 0 {{
    total += 1
  }}
  for p in players {{
    p.got += big
  }}
  while total < 0 {{
    total += 1
  }}
  log "{{white.got}}"
  for p in players {{
    if p == black {{
      far.got = 1
    }}
  }}
  for p in players {{
    log "{{p}} {{p.got}}"
  }}
  for s in white.heap {{
    reveal s
    move s to @r3c3.cell
    if s.v == 1 {{
      hide s
    }}
  }}
  for c in nodes where row == 2 {{
    move all c.cell to black.heap
  }}
  log "{{count(@r3c3.cell)}} {{count(black.heap)}} {{count(white.heap)}}"
}}
"#
        )
    };
    let plain = rules("1", "white");
    let out = same_as_the_tree(
        &plain,
        board,
        60,
        &[
            "Stmt",
            "NextTick",
            "ZoneSpan",
            "ZoneNextTick",
            "SetVar",
            "MovePiece",
            "MoveListed",
            "Reveal",
        ],
    );
    assert_eq!(
        out,
        r#"["2 5 10 5", "11", "white 1", "black 6", "2 5 0"] in 134 steps"#
    );
    let fast = compile(&plain, board, &regel::opt::Passes::all());
    // Two runs of `play`, which the `while`s (which no program runs) end:
    // the three moves, the `let`, the first loop (whose inner loop runs in
    // its program) and the first log; the second log and what follows it.
    // The loop between the `while`s is a loop compiled whole. Nothing else
    // is compiled whole.
    let play = fast.play.0;
    let runs: Vec<_> = fast.run_code.iter().map(|(k, v)| (*k, v.0)).collect();
    assert_eq!(runs, [((play, 0), 6), ((play, 9), 15)]);
    let loops: Vec<_> = fast.loop_code.keys().copied().collect();
    assert_eq!(loops, [(play, 7)]);
    let overflow = same_as_the_tree(&rules("9223372036854775807", "white"), board, 0, &[]);
    assert!(overflow.contains("overflow"), "{overflow}");
    let none = same_as_the_tree(&rules("1", "none"), board, 0, &[]);
    assert!(none.contains("none"), "{none}");
    // With coverage counted the executor runs the loops, and the `if` in
    // the inner loop is seen to go both ways.
    let counted = |g: &std::sync::Arc<regel::ir::Game>| -> u64 {
        let mut m = Match::new_with_coverage(g.clone(), &Setup::new(2, 1)).unwrap();
        let cov = m.take_coverage().unwrap();
        (0..g.code.len())
            .flat_map(|b| (0..g.code[b].len()).map(move |pc| (b, pc)))
            .map(|(b, pc)| cov.step_counts(b, pc).iter().sum::<u64>())
            .sum()
    };
    // The `if`s of the first loop (6 squares, 3 stones), of the third (2
    // seats) and of the fifth (2 stones).
    assert_eq!(counted(&fast), 6 + 3 + 2 + 2);
    assert_eq!(
        counted(&compile(&plain, board, &tree_passes())),
        6 + 3 + 2 + 2
    );
}

/// A call compiled in place, `any` and `all` used as conditions jump on
/// their answer where it is found (`opt/bytecode/jumps.rs`): in filters,
/// under `not`, in `if`, with leaf bodies, bodies that call (and raise
/// the depth), a recursive function compiled in place once, and a zone
/// read in place. The same log and steps as the tree under every budget;
/// with `far` none, the error comes from inside a search as the tree's.
#[test]
fn calls_and_searches_tested_as_jumps_answer_as_the_tree_does() {
    let rules = |far: &str| {
        format!(
            r#"game "Jumps"
players 2
seats white, black
board "board.toml"
piece stone per player {{ }} in heap {{ 4 x {{ }} }}
zone per player heap: stone
zone per node cell: stone
var far: node = {far}
fn mine(p: player, c: node) -> bool = any(x in c.cell: x.owner == p)
fn near(p: player, c: node) -> bool =
  c.row < 3 and any(n in neighbors(c): mine(p, n) and n.col >= far.col)
fn deep(p: player, c: node, k: int) -> bool = k > 0 and (mine(p, c) or deep(p, c, k - 1))
play {{
  move top(white.heap) to @r2c2.cell
  move top(black.heap) to @r3c1.cell
  let a = count(c in nodes where near(white, it): true)
  let b = count(c in nodes where not near(black, it): true)
  let d = count(c in nodes where all(n in neighbors(c): not mine(white, n)): true)
  let e = count(c in nodes where not any(n in neighbors(c): mine(black, n) or deep(white, n, 3)): true)
  let f = count(c in nodes where any(x in c.cell: x.owner == white and c.row > 1) or all(y in c.cell: y.owner == black): true)
  if any(c in nodes: deep(black, c, 2)) {{
    log "deep"
  }}
  log "{{a}} {{b}} {{d}} {{e}} {{f}}"
}}
"#
        )
    };
    let board = GRID3;
    let out = same_as_the_tree(&rules("@r1c1"), board, 60, &["CallLeave", "CallLeaf"]);
    // White on r2c2, black on r3c1 of a 3 x 3 grid (four neighbours).
    assert!(out.contains(r#"["deep", "3 8 5 5 9"]"#), "{out}");
    let out = same_as_the_tree(&rules("none"), board, 60, &["CallLeave"]);
    assert!(out.contains("none"), "{out}");
}

/// An order with a constant, where a condition is needed, jumps on it
/// (`BOp::JumpLtK`, `BOp::JumpGtK`; `<=` and `>=` with the constant moved
/// by one, `not` as the opposite order). Every order, both ways, at the
/// constants on either side of each value and at the ends of the numbers,
/// where moving the constant would overflow and the value is tested
/// instead: the same counts as the tree.
#[test]
fn orders_with_a_constant_jump_as_the_tree_answers() {
    let rules = r#"game "Orders"
players 2
board "board.toml"
var lo: int = -9223372036854775807
var hi: int = 9223372036854775807
play {
  let a = count(k in 0..6 where it < 3 or it >= 5: true)
  let b = count(k in 0..6 where not (it <= 2) and it > 0: true)
  let c = count(k in 0..6 where it > 4 or not (it >= 1): true)
  let d = count(k in 0..6 where not (it < 2) and not (it > 3): true)
  let m = lo - 1
  let e = (if m <= -9223372036854775807 - 1 then 1 else 0) + (if hi >= 9223372036854775807 then 10 else 0)
  let f = (if m > -9223372036854775807 - 1 then 1 else 0) + (if hi < 9223372036854775807 then 10 else 0)
  let g = (if not (m >= -9223372036854775807 - 1) then 1 else 0) + (if not (hi <= 9223372036854775807) then 10 else 0)
  log "{a} {b} {c} {d} {e} {f} {g}"
}
"#;
    let board = "[board]\nname = \"grid\"\n[grid]\nrows = 1\ncols = 1\n";
    let out = same_as_the_tree(rules, board, 40, &["JumpLtK", "JumpGtK"]);
    // 0..6: 0, 1, 2, 5, 6 (5); 3..6 (4); 0, 5, 6 (3); 2, 3 (2); both ends
    // hold (11); neither passes its end (0, 0).
    assert!(out.contains(r#"["5 4 3 2 11 0 0"]"#), "{out}");
}

/// An element of a collection that never holds `none` compared with `none`
/// is settled at check time (`opt/consts.rs`): in `any(n in neighbors(c): n
/// != none and …)` the test goes, and the answers, steps and the printed
/// program say so. Compared with the program without passes.
#[test]
fn elements_compared_with_none_are_settled() {
    let rules = r#"game "Never none"
players 2
board "board.toml"
piece stone { } in heap { 3 x { } }
zone heap: stone
var w: node = none
play {
  let a = count(n in nodes: n != none)
  let b = count(n in neighbors(@r2c2): none != n and n.row == 1)
  let c = any(x in heap: x == none)
  let d = count(n in nodes where it != none and it != w: true)
  log "{a} {b} {c} {d}"
}
"#;
    let board = GRID3;
    let all = compile(rules, board, &regel::opt::Passes::all());
    let none = compile(rules, board, &regel::opt::Passes::parse("none").unwrap());
    // The other passes save steps of their own, so the logs are compared.
    let log = |g| outcome(g, None).split(" in ").next().unwrap().to_string();
    assert_eq!(log(&all), log(&none));
    assert_eq!(log(&all), r#"["9 1 false 9"]"#);
    // `it != w` stays: `w` may be none.
    let printed = regel::ir::print::print(&all);
    assert!(!printed.contains("!= -1"), "{printed}");
    assert!(printed.contains("!= w"), "{printed}");
}

/// A connective whose value is kept (`let v = a and (b or c)`) is compiled
/// as jumps, in the order written, and its answer written once
/// (`opt/bytecode/comp.rs`): it answers exactly as the tree does, skips
/// what the tree skips (an attribute of `none` behind a false `and` is
/// never read), and fails where the tree fails when it is read.
#[test]
fn connectives_kept_as_values_answer_as_the_tree_does() {
    let rules = |w: &str| {
        format!(
            r#"game "Connectives"
players 2
board "board.toml"
var w: node = {w}
var x: int = 3
play {{
  let a = w != none and w.row > 1
  let b = (x > 2 and x < 5) or w.col == 9
  let c = not (x == 3) or (x != 3 and w.row == 1)
  let d = (x == 4 or x == 3) and (w == none or w.col >= 2)
  log "{{a}} {{b}} {{c}} {{d}}"
  let e = x == 3 and w.row == 2
  log "e {{e}}"
}}
"#
        )
    };
    let board = GRID3;
    let out = same_as_the_tree(&rules("@r2c3"), board, 20, &["JumpNeK", "Jump"]);
    assert!(
        out.contains(r#"["true true false true", "e true"]"#),
        "{out}"
    );
    let out = same_as_the_tree(&rules("none"), board, 20, &[]);
    assert!(out.starts_with("an attribute of `none`"), "{out}");
    assert!(!out.contains("\"e "), "{out}");
}

/// A test of a node's (an edge's) own variable against a constant
/// (`n.mark == none`, `r.toll > 1`) that leads a walk over every node (edge)
/// is kept in the zone-predicate index (`ZPred::Var`, `eval/zindex.rs`):
/// the walk reads from the index the elements that pass. The index follows
/// the variables' first values (an initial value reads it while it is
/// being given them), every assignment, and `+=`. The logs and the options
/// at every decision are those of the program without any rewrite, which
/// tests every element; the numbers below are counted by hand. (Without
/// rewrites, `free_at_start`'s count binds a local: an initial value is
/// evaluated in a frame of its own, where it once indexed an empty one and
/// panicked.)
#[test]
fn tests_of_an_elements_own_variable_are_indexed() {
    let rules = r#"game "Marks"
players 2
seats red, blue
board "board.toml"
var per node mark: player = none
var per node weight: int = 2
var free_at_start: int = count(n in nodes: n.mark == none)
var per edge toll: int = 1
fn open(n: node) -> bool = n.mark == none and n.weight > 1
action claim(n in nodes where open(it)) label "claim {n}" {
  n.mark = actor
}
play {
  log "free {free_at_start}"
  @b.weight = 1
  @c.mark = blue
  @cd.toll += 2
  log "open {count(n in nodes: open(n))} free {count(n in nodes: n.mark == none)} dear {count(r in edges where toll > 1)}"
  act red with claim
  act blue with claim
  log "open {count(n in nodes: open(n))} red {count(n in nodes: n.mark == red)} left {any(n in nodes: open(n))}"
}
"#;
    let board = loop_board(false);
    let fast = compile(rules, &board, &regel::opt::Passes::all());
    let plain = compile(rules, &board, &regel::opt::Passes::none());
    let printed = regel::ir::print::print(&fast);
    for indexed in [
        "nodes-where[(mark == -1 and weight > 1)]",
        "count-nodes[mark == -1]",
        "edges-where[toll > 1]",
    ] {
        assert!(printed.contains(indexed), "{indexed}:\n{printed}");
    }
    assert!(!fast.zindex.var_watch.is_empty());
    let play = |g: &std::sync::Arc<regel::ir::Game>| {
        let mut setup = Setup::new(2, 1);
        setup.log = true;
        let mut m = Match::new(g.clone(), &setup).unwrap();
        let mut options = vec![];
        while m.pending().is_some() {
            m.indexes_agree().unwrap();
            options.push(m.option_labels());
            m.apply(1).unwrap();
        }
        (lines(&m.take_log()).join(" | "), options)
    };
    let (log, options) = play(&fast);
    assert_eq!((log.clone(), options.clone()), play(&plain));
    // Six free nodes at first; b too light and c taken leave a, d, e, f
    // open, five free; red claims d (the second option), blue e.
    assert_eq!(
        options,
        [
            vec!["claim a", "claim d", "claim e", "claim f"],
            vec!["claim a", "claim e", "claim f"]
        ]
    );
    assert!(log.starts_with("free 6 | open 4 free 5 dear 1 | "), "{log}");
    assert!(log.ends_with("open 2 red 1 left true"), "{log}");
}

/// The head of the rules of the tests of the zones holding a seat's piece.
const OWNED: &str = r#"game "Owned"
players 2
seats red, blue
board "board.toml"
piece stone per player { } in supply { 3 x { } }
zone per player supply: stone
"#;

/// A walk over every node (edge) whose whole test is `any(x in it.Z:
/// x.owner == p)`, written out or through a function (`mine(actor, it)`),
/// with `p` a constant or a local bound outside the walk, reads the elements
/// whose zone holds a piece of `p` from the zone-predicate index
/// (`Coll::ZonesOwned`, a `ZPred::Owns` per seat): in a domain, in `count`
/// and in `any`. Pieces moving onto, off and between zones keep it current;
/// `p` may be `none`, which no index answers (a scan does: no piece here is
/// without an owner). The logs and options at every decision are those of
/// the program without any rewrite, and the bytecode's outcome is the
/// tree's under every budget near the end; the numbers are counted by hand.
#[test]
fn walks_of_the_zones_holding_a_seats_piece_are_indexed() {
    let rules = OWNED.to_string()
        + r#"zone per node pile: stone
zone per edge rail: stone
var nobody: player = none
fn mine(p: player, n: node) -> bool = any(s in n.pile: s.owner == p)
fn held(p: player) -> int = count(n in nodes: mine(p, n))
action lift(n in nodes where mine(actor, it)) label "lift {n}" {
  move top(n.pile) to actor.supply
}
play {
  move top(red.supply) to @a.pile
  move top(red.supply) to @c.pile
  move top(blue.supply) to @c.pile
  move top(blue.supply) to @cd.rail
  let who = nobody
  log "red {count(n in nodes: mine(red, n))} blue {count(n in nodes: any(s in n.pile: blue == s.owner))} none {count(n in nodes: mine(who, n))} rails {any(r in edges: any(s in r.rail: s.owner == blue))}"
  act red with lift
  move top(@c.pile) to @e.pile
  log "red {held(red)} blue {count(n in nodes: mine(blue, n))}"
  act blue with lift
  log "blue {count(n in nodes: mine(blue, n))} rails {any(r in edges: any(s in r.rail: s.owner == red))}"
}
"#;
    let board = loop_board(false);
    let fast = compile(&rules, &board, &regel::opt::Passes::all());
    let plain = compile(&rules, &board, &regel::opt::Passes::none());
    let printed = regel::ir::print::print(&fast);
    for owned in [
        "l2 in nodes-owned[pile of l0]",
        "nodes-owned[pile of 0]",
        "nodes-owned[pile of 1]",
        "edges-owned[rail of 1]",
    ] {
        assert!(printed.contains(owned), "{owned}:\n{printed}");
    }
    // Every walk above: `held` and its copy for red (`held[0]`), the
    // domain, four in the first log line (`who` a local), one in the second
    // (`held` the other) and two in the third.
    assert_eq!(printed.matches("-owned[").count(), 10, "{printed}");
    let play = |g: &std::sync::Arc<regel::ir::Game>| {
        let mut setup = Setup::new(2, 1);
        setup.log = true;
        let mut m = Match::new(g.clone(), &setup).unwrap();
        let mut options = vec![];
        while m.pending().is_some() {
            m.indexes_agree().unwrap();
            options.push(m.option_labels());
            m.apply(0).unwrap();
        }
        (lines(&m.take_log()).join(" | "), options)
    };
    let (log, options) = play(&fast);
    assert_eq!((log.clone(), options.clone()), play(&plain));
    // Red holds a and c, blue c; red lifts its stone from a (the first
    // option), then the top of c (blue's, the last put there) goes to e:
    // blue's one option is e, taken as forced.
    assert_eq!(options, [vec!["lift a", "lift c"]]);
    assert_eq!(
        log,
        "red 2 blue 1 none 0 rails true | red: lift a | red 1 blue 1 | blue: lift e (forced) | blue 0 rails false"
    );
    same_as_the_tree(&rules, &board, 40, &["PushTree"]);
}

/// A filter whose test branches on tests that do not read its element
/// (`opt/bytecode/switch.rs`) keeps the chain's answer once per loop and
/// runs one loop per end of the chain, and answers as the tree does: the
/// same log in the same steps, under every budget in the 80 steps below
/// the end (the kept answer charges the steps of `has`'s scans again at
/// each card), and the same options listed in the same steps; a test of
/// the chain that fails fails at the same span.
/// The log checked by hand: white holds suits 1, 1, 2 and 3. With no lead
/// every card may be played (4); with lead 1 only the two 1s (2); with
/// lead 4, which white lacks, only the 3 (1); and once the 3 is gone,
/// any card (3). The action's options at the first decision (lead 1): the
/// two 1s.
#[test]
fn filters_branching_on_invariant_tests_split_into_one_loop_per_branch() {
    let rules = r#"game "Suits"
board "board.toml"
players 2
seats white, black
piece card per player { suit: int, n: int } in hand label "card {suit}.{n}" {
  1 x { suit: 1, n: 1 }
  1 x { suit: 1, n: 2 }
  1 x { suit: 2, n: 1 }
  1 x { suit: 3, n: 1 }
}
zone per player hand: card hidden
zone pile: card
var lead: int = 0
fn has(p: player, s: int) -> bool = any(c in p.hand: c.suit == s)
fn ok(p: player, c: card) -> bool =
  if lead == 0 then true
  else if has(p, lead) then c.suit == lead
  else if has(p, 3) then c.suit == 3
  else true
fn playable(p: player) -> int = count(c in p.hand where ok(p, it))
action play(c in actor.hand) label "play {c}" {
  require ok(actor, c)
  move c to pile
}
play {
  log "{playable(white)}"
  lead = 1
  log "{playable(white)}"
  lead = 4
  log "{playable(white)}"
  move first(white.hand where suit == 3) to pile
  log "{playable(white)}"
}
"#;
    let out = same_as_the_tree(rules, GRID3, 80, &["MemoGet", "JumpNeK"]);
    assert!(out.contains(r#"["4", "2", "1", "3""#), "{out}");
    // The split loops: the chain's answer is read at the first element and
    // in each end's loop (three ends: `true`, `suit == lead`, `suit == 3`),
    // in `playable`, in its copy pasted into `play` and in the action's
    // domain.
    // The hand shown, so that the two options' labels differ.
    let acting = rules
        .replace(
            "play {\n  log",
            "play {\n  lead = 1\n  act white with play\n  log",
        )
        .replace("hand: card hidden", "hand: card");
    let fast = compile(&acting, GRID3, &regel::opt::Passes::all());
    let split: Vec<usize> = fast
        .programs
        .iter()
        .map(|p| {
            let get = |o: &&regel::ir::BOp| matches!(o, regel::ir::BOp::MemoGet { .. });
            p.ops().iter().filter(get).count()
        })
        .filter(|&n| n >= 4)
        .collect();
    assert_eq!(
        split,
        [4, 4, 4],
        "three filters split into three loops each"
    );
    // Listing the options charges what the tree charges: the domain with
    // the requirement folded in (`ActionParam::fast`) charges the hand and
    // the tests, not also the options it kept (it did: 28 steps against
    // 26).
    let out = same_as_the_tree(&acting, GRID3, 40, &["MemoGet"]);
    assert_eq!(out, "[] in 26 steps");
    let listed = options_as_the_tree(&acting, GRID3);
    assert_eq!(listed, ["play card 1.1", "play card 1.2"], "the two 1s");
    // A test of the chain that fails (a field of the top of an empty
    // pile) fails at the first card, at the same span as the tree's.
    let failing = rules.replace("if lead == 0 then true", "if top(pile).suit == 0 then true");
    let out = same_as_the_tree(&failing, GRID3, 0, &["MemoGet", "JumpNeK"]);
    assert!(out.contains("a field of `none` was read"), "{out}");
}

/// A piece's field read through a search that does not vary in a loop
/// (`top(pile).suit` in a filter over a hand) is kept by the loop
/// (`memo.rs`): computed at the first element, read back after, and
/// answering as the tree does, the same log in the same steps under every
/// budget in the 40 steps below the end, and, read of an empty pile, the
/// same error at the same span. The log checked by hand: white holds suits
/// 1, 1, 2 and 3; with a 1 on the pile two of them match, with the 3 one.
#[test]
fn a_field_found_by_a_search_is_kept_by_the_loop() {
    let rules = r#"game "Match"
board "board.toml"
players 2
seats white, black
piece card per player { suit: int } in hand {
  2 x { suit: 1 }
  1 x { suit: 2 }
  1 x { suit: 3 }
}
zone per player hand: card
zone pile: card
fn matching(p: player) -> int = count(c in p.hand where suit == top(pile).suit)
play {
  move first(black.hand where suit == 1) to pile
  log "{matching(white)}"
  move first(black.hand where suit == 3) to pile
  log "{matching(white)}"
}
"#;
    let out = same_as_the_tree(rules, GRID3, 40, &["MemoGet", "Builtin b: Top"]);
    assert!(out.contains(r#"["2", "1"]"#), "{out}");
    let empty = rules.replace("  move first(black.hand where suit == 1) to pile\n", "");
    let out = same_as_the_tree(&empty, GRID3, 0, &["MemoGet"]);
    assert!(out.contains("a field of `none` was read"), "{out}");
}

/// The machine's moves, reveals and builtins of values charge and fail as
/// the tree's (issue 25, twenty-second part: the machine looks up their
/// spans only when a checkpoint is due or they fail, and answers `top`,
/// `bottom`, `next` and `numplayers()` in place). A deal of 130 cards from
/// one deck, each move shifting enough of the arena to cost a step of work
/// (`Zones::move_work`), each card dealt turned face up, white's turned
/// down again: the same log in the same steps as the tree under every
/// budget up to the end (so the budget runs out inside a move's work
/// too); a reveal of `none` and a move of
/// `none` fail at the tree's span. The log checked by hand: black's 65
/// cards are all face up, times two players; `next(white)` is black; the
/// pile's bottom card is a 1; black's 65 cards, face up, went to the pile.
#[test]
fn moves_and_reveals_charge_and_fail_as_the_tree() {
    let rules = r#"game "Deal"
board "board.toml"
players 2
seats white, black
piece card { n: int } in deck label "card {n}" {
  130 x { n: 1 }
}
zone deck: card hidden
zone per player hand: card
zone pile: card
var who: player = white
var shown: int = 0
var low: int = 0
play {
  for k in 1..65 {
    for p in players {
      move top(deck) to p.hand
      reveal top(p.hand)
    }
  }
  for c in white.hand {
    hide c
  }
  who = next(who)
  shown = count(c in black.hand: revealed(c)) * num_players
  move all black.hand to pile
  low = bottom(pile).n
  log "{shown} {who} {low} {count(c in pile: revealed(c))}"
}
"#;
    let ops = [
        "MovePiece",
        "MoveListed",
        "Reveal",
        "Builtin b: Top",
        "Builtin b: Bottom",
        "Builtin b: Next",
        "Builtin b: NumPlayers",
    ];
    let out = same_as_the_tree(rules, GRID3, u64::MAX, &ops);
    assert!(out.starts_with(r#"["130 black 1 65"] in "#), "{out}");
    let reveal_none = rules.replace("reveal top(p.hand)", "reveal top(pile)");
    let out = same_as_the_tree(&reveal_none, GRID3, 0, &["Reveal"]);
    assert!(out.contains("`reveal` of `none`"), "{out}");
    let move_none = rules.replace("move top(deck) to p.hand", "move top(pile) to p.hand");
    let out = same_as_the_tree(&move_none, GRID3, 0, &["MovePiece"]);
    assert!(out.contains("none"), "{out}");
}

/// A loop over a zone whose body only turns its piece face up or down
/// (`for c in deck { hide c }`) runs at once where the steps it charges end
/// before the next checkpoint (`BOp::StmtRevealRun`, issue 25,
/// twenty-second part), and one piece at a time otherwise: the same log in
/// the same steps as the tree under every budget up to the end, so the
/// budget also runs out inside each loop. The log checked by hand: the 7
/// cards turned up, then 3 of them down again (the loop over black's hand,
/// which holds the top 3 dealt), then the 4 left in the deck down, and
/// an empty zone's loop turns nothing.
#[test]
fn a_loop_that_only_turns_cards_runs_at_once() {
    let rules = r#"game "Turns"
board "board.toml"
players 2
seats white, black
piece card { n: int } in deck label "card {n}" {
  7 x { n: 1 }
}
zone deck: card hidden
zone per player hand: card
zone pile: card
play {
  for c in deck {
    reveal c
  }
  log "{count(c in deck: revealed(c))}"
  for k in 1..3 {
    move top(deck) to black.hand
  }
  for c in black.hand {
    hide c
  }
  log "{count(c in black.hand: revealed(c))} {count(c in deck: revealed(c))}"
  for c in deck {
    hide c
  }
  for c in pile {
    reveal c
  }
  log "{count(c in deck: revealed(c))}"
}
"#;
    let out = same_as_the_tree(rules, GRID3, u64::MAX, &["StmtRevealRun"]);
    assert!(out.starts_with(r#"["7", "0 4", "0"] in "#), "{out}");
}

/// `distinct(x in C: v)` is compiled (`BOp::Distinct`): the map listed,
/// then each value kept once where it first is, as the tree evaluator keeps
/// it (both call `eval::expr::dedupe`), with the same steps under every
/// budget. A list of 100 values (longer than 64: the way with a set) and
/// short ones; the values and their order worked out by hand: `x % 7` for
/// `x` from 1 gives 1, 2, …, 6, 0; `10 - x % 3` gives 9, 8, 10; the rows of
/// the 3 × 3 grid 1, 2, 3. A value that fails part way fails as the tree's.
#[test]
fn distinct_values_are_compiled_as_the_tree_keeps_them() {
    let head = "game \"Distinct\"\nboard \"board.toml\"\nplayers 2\nseats white, black\n";
    let rules = head.to_string()
        + r#"var n: int = 100
var a: int = 0
var b: int = 0
var k: int = 0
play {
  a = count(distinct(x in 1..n: x % 7))
  b = first(distinct(x in 1..n: x % 7))
  k = last(distinct(x in 1..n: x % 7))
  log "{a} {b} {k}"
  a = count(distinct(x in 1..n / 10: 10 - x % 3))
  b = first(distinct(x in 1..n / 10: 10 - x % 3))
  k = last(distinct(x in 1..n / 10: 10 - x % 3))
  log "{a} {b} {k}"
  a = sum(v in distinct(c in nodes: c.row + n - n): v)
  b = first(distinct(c in nodes: c.row + n - n))
  log "{a} {b}"
}
"#;
    let out = same_as_the_tree(&rules, GRID3, 400, &["Distinct"]);
    assert!(
        out.starts_with(r#"["7 1 0", "3 9 10", "6 1"] in "#),
        "{out}"
    );
    let fails = head.to_string()
        + r#"var n: int = 3
var a: int = 0
play {
  a = count(distinct(x in 0..n: 6 / (n - x)))
  log "{a}"
}
"#;
    let out = same_as_the_tree(&fails, GRID3, 20, &["Distinct"]);
    assert!(out.starts_with("division by zero"), "{out}");
}

/// An action every option of which needs a zone to hold a piece asks that
/// first (`ActionDecl::needs`, the `searches` pass): `use(k in 0..3)`
/// requires `k != 0 and holds(actor, k)`, `holds` being `any(c in
/// p.hand: c.n == k)`. White holds no card and is offered only `pass`;
/// black holds the cards 1 and 2 and is offered `use 1` and `use 2`, as
/// without the passes and without the `searches` pass alone. Asking first
/// saves steps (white's listing costs fewer with every pass than with every
/// pass but `searches`). Where a conjunct before it could
/// fail (`10 / (k - 1) > 0`, which divides by zero at `k = 1`), nothing is
/// asked first, and white's listing fails as it does without the pass
/// (asked first, white's empty hand would have skipped the division).
#[test]
fn an_action_whose_options_need_a_piece_asks_for_it_first() {
    let rules = |test: &str| {
        format!(
            r#"game "Needs"
board "board.toml"
players 2
seats white, black
piece card {{ n: int }} in deck label "card {{n}}" {{
  1 x {{ n: 1 }}
  1 x {{ n: 2 }}
}}
zone deck: card
zone per player hand: card
fn holds(p: player, k: int) -> bool = any(c in p.hand: c.n == k)
action use(k in 0..3) label "use {{k}}" {{
  require {test}
  log "{{actor}} uses {{k}}"
}}
action pass label "pass" {{
  log "{{actor}} passes"
}}
setup {{
  move all deck to black.hand
}}
play {{
  act white with use, pass
  act black with use, pass
}}
"#
        )
    };
    let all = regel::opt::Passes::all();
    let none = regel::opt::Passes::none();
    // Every pass but `searches`, which finds what every option needs.
    let but = regel::opt::Passes::parse(
        "zone-len,inline,fold-board,consts,zone-pred,board-index,splice,fn-tables,bytecode,keep",
    )
    .unwrap();
    let setup = Setup::new(2, 1);
    let needs = rules("k != 0 and holds(actor, k)");
    let asks = compile(&needs, GRID3, &all);
    assert!(asks.actions[0].needs.is_some(), "`use` asks first");
    let fast = Match::new(asks, &setup).unwrap();
    let slow = Match::new(compile(&needs, GRID3, &but), &setup).unwrap();
    let plain = Match::new(compile(&needs, GRID3, &none), &setup).unwrap();
    // White's only option, `pass`, was taken as forced: black decides.
    assert_eq!(fast.option_labels(), ["use 1", "use 2", "pass"]);
    assert_eq!(slow.option_labels(), fast.option_labels());
    assert_eq!(plain.option_labels(), fast.option_labels());
    assert!(
        fast.state.steps < slow.state.steps,
        "{} < {}",
        fast.state.steps,
        slow.state.steps
    );

    let unsure = rules("10 / (k - 1) > 0 and holds(actor, k)");
    let g = compile(&unsure, GRID3, &all);
    assert!(g.actions[0].needs.is_none(), "a conjunct before may fail");
    let (Err(a), Err(b)) = (
        Match::new(g, &setup),
        Match::new(compile(&unsure, GRID3, &but), &setup),
    ) else {
        panic!("white's listing fails");
    };
    assert!(a.message.contains("division by zero"), "{}", a.message);
    assert_eq!((a.message, a.span), (b.message, b.span));
}

/// A small procedure spliced into its caller (the `splice` pass) reads a
/// constant, or a local of the caller's, given to a parameter it never
/// binds again where it reads the parameter, with no `let`; an `if` on
/// such a constant keeps only the branch taken. A parameter the body
/// assigns (`bump`'s `k`) and one given an expression keep their `let`.
/// On the 3 × 3 grid: `rows` sums each node's row, 3 × (1 + 2 + 3) = 18;
/// `total` sums `col × (row + 1)`, 6 × 9 = 54, then `col + 1`, 27, then
/// `col`, 18: 99, with the passes and without.
#[test]
fn a_spliced_procedure_reads_the_constants_and_locals_given_to_it() {
    let rules = r#"game "Splice"
board "board.toml"
players 2
seats white, black
var total: int = 0
var rows: int = 0
proc add(is_row: bool, k: int, w: int) {
  if is_row {
    rows += k
  } else {
    total += k * w
  }
}
proc bump(k: int) {
  k = k + 1
  total += k
}
play {
  for c in nodes {
    let x = c.col
    add(true, c.row, 2)
    add(false, x, c.row + 1)
    bump(x)
    total += x
  }
  log "{rows} {total}"
}
"#;
    let none = regel::opt::Passes::none();
    let splice = regel::opt::Passes::parse("splice").unwrap();
    for passes in [&regel::opt::Passes::all(), &splice, &none] {
        let log = run_with(rules, GRID3, passes, regel::eval::DEFAULT_BUDGET).unwrap();
        assert_eq!(log, ["18 99"]);
    }
    // The loop's body after splicing: from `let x` to the next block.
    let printed = regel::ir::print::print(&compile(rules, GRID3, &splice));
    let body: Vec<&str> = printed
        .lines()
        .skip_while(|l| !l.ends_with("let l1 = l0.col"))
        .take_while(|l| !l.ends_with(':'))
        .map(|l| {
            l.trim_start_matches(|c: char| c == ' ' || c.is_ascii_digit())
                .trim()
        })
        .collect();
    assert_eq!(
        body,
        [
            "let l1 = l0.col",
            "let l3 = l0.row",
            "rows += l3",
            "let l7 = (l0.row + 1)",
            "total += (l1 * l7)",
            "let l8 = l1",
            "l8 = (l8 + 1)",
            "total += l8",
            "total += l1",
        ],
        "{printed}"
    );
}

/// Whether a seat has a piece on some edge, `any(r in edges: any(s in
/// r.stops: s.owner == p))`: the `zone-pred` pass makes it `any` of the
/// edges whose `stops` hold a piece of `p` (`Coll::ZonesOwned`) with a
/// body always true, which is counted, not listed (`Exec::any_owned`, a
/// `Tree` operation of the machine), from the index for a seat and by a
/// scan for `none`. The same log as without the passes and, with the
/// same steps and under each of the 40 budgets below them, as the count
/// of those edges (which lists them) above 0, by the machine and by the
/// tree: red has a piece on some edge,
/// blue none, then blue too; the seat `none` has none.
#[test]
fn whether_a_seat_has_a_piece_on_some_edge_is_counted_not_listed() {
    let rules = OWNED.to_string()
        + r#"zone per edge stops: stone
var nobody: player
var r: bool = false
var b: bool = false
var n: bool = false
fn on_board(p: player) -> bool = any(r in edges: any(s in r.stops: s.owner == p)) # any
play {
  move top(red.supply) to @bc.stops
  r = on_board(red)
  b = on_board(blue)
  n = on_board(nobody)
  log "red {r} blue {b} none {n}"
  move top(blue.supply) to @de.stops
  b = on_board(blue)
  log "red {r} blue {b}"
}
"#;
    let board = route_board();
    let fast = compile(&rules, &board, &regel::opt::Passes::all());
    let trees: Vec<String> = fast
        .programs
        .iter()
        .flat_map(|p| p.trees())
        .map(|e| regel::ir::print::expr(&fast, e))
        .collect();
    assert!(
        trees.iter().any(|t| t.contains("edges-owned[stops of")),
        "{trees:?}"
    );
    let slow = compile(&rules, &board, &tree_passes());
    // The same test as a count of those edges, which lists them, with
    // the steps of listing them (as `any` took before); the text as long,
    // so that every span after it is the same.
    let walked = rules.replace(
        "any(r in edges: any(s in r.stops: s.owner == p)) # any",
        "count(r in edges: any(s in r.stops: s.owner == p)) > 0",
    );
    assert_ne!(walked, rules);
    let listed = compile(&walked, &board, &regel::opt::Passes::all());
    let done = outcome(&listed, None);
    assert!(
        done.starts_with(r#"["red true blue false none false", "red true blue true"] in "#),
        "{done}"
    );
    assert_eq!(outcome(&fast, None), done);
    assert_eq!(outcome(&slow, None), done);
    let none = compile(&rules, &board, &regel::opt::Passes::none());
    assert_eq!(
        outcome(&none, None).split(" in ").next(),
        done.split(" in ").next()
    );
    let steps: u64 = done.rsplit(' ').nth(1).unwrap().parse().unwrap();
    for budget in steps - 40..=steps {
        let want = outcome(&listed, Some(budget));
        assert_eq!(outcome(&fast, Some(budget)), want, "budget {budget}");
        assert_eq!(outcome(&slow, Some(budget)), want, "budget {budget}");
    }
}

/// The `players` pass: a variable that only some player counts assign (here
/// `spare`, set only where two play, and `flag`, set only in a branch that
/// needs it already set) is a constant at the other counts, and so is what
/// tests it; one that every count assigns (`used`) is not. Each run of
/// counts that leave the same variables constant gets a program of its own
/// (two players, then three and four), `num_players` folded only in a
/// program for one count, and every count plays as without the passes.
#[test]
fn a_variable_only_some_player_counts_assign_is_a_constant_at_the_others() {
    let rules = r#"game "Counts"
board "board.toml"
players 2..4
seats white, black, red, green
var spare: player
var flag: int = 0
var used: int = 0
fn real(p: player) -> bool = spare == none or p in players
proc two_only() {
  spare = red
}
setup {
  if num_players == 2 {
    two_only()
  }
}
play {
  if flag != 0 {
    flag = 2
  }
  used += num_players
  log "{real(red)} {real(white)} {flag} {used}"
}
"#;
    let play = |passes: &regel::opt::Passes, n: usize| {
        let mut setup = Setup::new(n, 1);
        setup.log = true;
        let m = Match::new(compile(rules, GRID3, passes), &setup).unwrap();
        m.state.log.clone()
    };
    let (all, none) = (regel::opt::Passes::all(), regel::opt::Passes::none());
    // Where two play, red is the spare seat, not a player's.
    assert_eq!(play(&all, 2), ["false true 0 2"]);
    assert_eq!(play(&all, 3), ["true true 0 3"]);
    assert_eq!(play(&all, 4), ["true true 0 4"]);
    for n in [2, 3, 4] {
        assert_eq!(play(&all, n), play(&none, n), "{n} players");
    }
    let game = compile(rules, GRID3, &all);
    let runs: Vec<(usize, usize)> = game.by_players.iter().map(|g| (g.0, g.1)).collect();
    assert_eq!(runs, [(2, 2), (3, 4)]);
    let printed = |n: usize| regel::ir::print::print(&game.for_players(n));
    let real = |n: usize| {
        let p = printed(n);
        let line = p.lines().find(|l| l.contains(" real(")).unwrap_or("");
        line.split(" = ").nth(1).unwrap_or("").to_string()
    };
    // Two players: `spare` is assigned, and read. Three or four: `true`.
    assert_eq!(
        real(2),
        "((spare == -1) or (l0 in players))",
        "{}",
        printed(2)
    );
    assert_eq!(real(3), "1", "{}", printed(3));
    assert_eq!(real(4), "1", "{}", printed(4));
    // `flag` is a constant at every count, so its test is (the branch that
    // sets it stays, never taken) and the log reads `0`; `used` is read.
    // `num_players` is 2 in the program for two players, read in the one
    // for three and four.
    for (n, count) in [(2, "2"), (3, "numplayers()"), (4, "numplayers()")] {
        let p = printed(n);
        assert!(p.contains("0  unless 0 goto 2\n    1  flag = 2"), "{p}");
        assert!(p.contains("{0} {used}\""), "{p}");
        assert!(p.contains(&format!("used += {count}")), "{p}");
    }
    // Without the pass, one program for every count.
    assert!(compile(rules, GRID3, &none).by_players.is_empty());
}
