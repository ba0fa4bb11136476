//! The network queries an author builds on: `components(C)` of a node or an
//! edge collection, and sets of nodes or edges (the types `nodes` and
//! `edges`) passed to and returned by functions, with which an author writes
//! a recursive search of their own. Each test serves its rules and board from
//! memory, runs them with every rewrite and with none (the bytecode and the
//! tree evaluator), and checks that no set outlives its expression: the
//! scratch stack is empty when the match ends.

mod common;

use common::{compile, lines, loop_board, numbered_board};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use regel::eval::{Match, Setup};

/// Plays `rules` on `board` with two players, random decisions from `seed`,
/// with the rewrites given; returns the log, or the run-time error's message.
fn play(
    rules: &str,
    board: &str,
    passes: &regel::opt::Passes,
    seed: u64,
) -> Result<Vec<String>, String> {
    let game = compile(rules, board, passes);
    let mut setup = Setup::new(2, seed);
    setup.log = true;
    let mut m = Match::new(game, &setup).map_err(|e| e.message)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    m.playout(&mut rng).map_err(|e| e.message)?;
    assert!(m.is_over());
    m.standings().map_err(|e| e.message)?;
    assert!(
        m.state.scratch.is_empty(),
        "a set or a collection outlived its expression: {} values left",
        m.state.scratch.len()
    );
    Ok(m.state.log.clone())
}

/// [`play`] with every rewrite and with none: both give the same log.
fn play_both(rules: &str, board: &str, seed: u64) -> Vec<String> {
    let all = play(rules, board, &regel::opt::Passes::all(), seed).unwrap();
    let none = play(rules, board, &regel::opt::Passes::none(), seed).unwrap();
    assert_eq!(all, none, "the rewrites change the log");
    all
}

/// Components of node and edge collections on the loop board, listed, counted,
/// walked with `reachable` and read in `score`.
const COMPONENTS: &str = r#"
game "Groups"
players 2
board "board.toml"

fn groups() -> int = count(components(edges where it != @cd))

play {
  for c in components(edges) {
    log "edges: {c}"
  }
  for c in components(nodes) {
    log "nodes: {c}"
  }
  for c in components(edges where it != @cd) {
    log "without cd: {c} joins {count(reachable(c, edges where it != @cd))}"
  }
  for c in components(nodes where it != @c) {
    log "without c: {c}"
  }
  log "listed: {count(components([@de, @ab1]))} {first(components([@de, @ab1]))} {last(components([@de, @ab1]))}"
  log "none: {count(components(edges where false))} {count(components([edge_between(@a, @f)]))} {count(components(nodes where false))}"
  log "largest: {max(c in components(edges where it != @cd): count(reachable(c, edges where it != @cd)))}"
  log "lone f: {@f in components(nodes)} {@f in components(edges)}"
  log "arcs: {first(components([@ca, @cd]))} reaches {count(reachable(first(components([@ca, @cd])), [@ca, @cd]))}"
}
score(p) = groups()
"#;

#[test]
fn components_of_nodes_and_edges() {
    for directed in [false, true] {
        let log = play_both(COMPONENTS, &loop_board(directed), 1);
        // A directed board's groups ignore the arcs' direction; `reachable`
        // from a group's first node follows them (c→a leads away from a).
        let reaches = if directed { 1 } else { 3 };
        assert_eq!(
            lines(&log),
            [
                "edges: a".to_string(),
                "nodes: a".into(),
                "nodes: f".into(),
                "without cd: a joins 3".into(),
                "without cd: d joins 2".into(),
                "without c: a".into(),
                "without c: d".into(),
                "without c: f".into(),
                "listed: 2 a d".into(),
                "none: 0 0 0".into(),
                "largest: 3".into(),
                "lone f: true false".into(),
                format!("arcs: a reaches {reaches}"),
            ],
            "directed: {directed}"
        );
    }
}

/// Every operation on sets, through functions (a set lives only inside an
/// expression, so it is a function's parameter or result).
const SETS: &str = r#"
game "Sets"
players 2
board "board.toml"

fn size(s: edges) -> int = count(s)
fn towns(s: nodes) -> int = count(s)
fn plus(s: edges, e: edge) -> edges = s + e
fn cut(s: edges, e: edge) -> edges = s - e
fn join(a: edges, b: edges) -> edges = a + b
fn apart(a: edges, b: edges) -> edges = a - b
fn has(s: edges, e: edge) -> bool = e in s
fn same(a: edges, b: edges) -> bool = a == b
fn differ(a: edges, b: edges) -> bool = a != b
fn first_of(s: edges) -> edge = first(s)
fn pick(c: bool, a: edges, b: edges) -> edges = if c then a else b
fn same_set(s: edges) -> edges = s
fn pool(c: bool, s: edges) -> edges = if c then edges where it != @cd else s
fn around(n: node) -> nodes = reachable(n, edges where it != @cd)
fn touched(s: edges) -> int = count(n in nodes: any(e in edges_of(n): e in s))
fn route(s: edges) -> int = longest_path(s)
fn groups(s: edges) -> int = count(components(s))
fn grow(s: edges, k: int) -> int = if k == 0 then count(s) else grow(s + first(edges where not (it in s)), k - 1)

play {
  log "sizes {size([])} {size(edges)} {size(edges where it != @cd)} {size([@ab1, @ab1, @bc, edge_between(@a, @f)])}"
  log "plus {size(plus([@bc], @ab1))} {first_of(plus([@bc], @ab1))} {size(plus(edges, @de))} {size(plus([], edge_between(@a, @f)))}"
  log "cut {size(cut(edges, @de))} {size(cut([], @de))} {size(cut(cut(edges, @de), @cd))}"
  log "join {size(join([@ab1, @bc], [@bc, @cd]))} {size(join([@ab1], edges_of(@d)))} apart {size(apart(edges, [@ab1, @bc]))} {size(apart([@ab1], edges))}"
  log "has {has(edges, @cd)} {has(cut(edges, @cd), @cd)} {has([], none)}"
  log "same {same([@bc, @ab1], [@ab1, @bc])} {same([], edges where false)} {same(edges, cut(edges, @de))} {differ(edges, cut(edges, @de))}"
  log "pick {size(pick(true, [@de], edges))} {size(pick(false, [@de], edges))} {size(same_set(same_set([@de, @cd])))} {size(pool(true, []))} {size(pool(false, [@de]))}"
  log "nodes {towns(around(@a))} {towns(around(@d))} {towns(nodes where it != @f)} {towns([])}"
  log "queries {touched([@de])} {route(cut(edges, @ab2))} {route([])} {groups(apart(edges, [@cd]))}"
  log "grow {grow([], 0)} {grow([], 3)} {grow([@de], 10)}"
  for e in plus([@de], @ab1) {
    log "member {e}"
  }
  for n in around(@a) {
    log "around a: {n}"
  }
  log "in a procedure: {@bc in plus([], @bc)} {@cd in plus([], @bc)} {count(plus([], @bc))}"
}
score(p) = size(plus([], @de)) + grow([], 2)
"#;

#[test]
fn sets_of_nodes_and_edges() {
    let log = play_both(SETS, &loop_board(false), 1);
    assert_eq!(
        lines(&log),
        [
            // `none` is no element.
            "sizes 0 6 5 2",
            // Members are listed in board order.
            "plus 2 ab1 6 0",
            "cut 5 0 4",
            "join 3 3 apart 4 0",
            "has true false false",
            "same true true false true",
            "pick 1 6 2 5 1",
            "nodes 3 2 5 0",
            // e-d-c-a-b-c uses five of the six edges without ab2.
            "queries 2 5 0 2",
            "grow 0 3 6",
            "member ab1",
            "member de",
            "around a: a",
            "around a: b",
            "around a: c",
            "in a procedure: true false 1",
        ]
    );
}

/// The author's own longest trail by recursion over a set of used edges,
/// next to `longest_path`, after every decision of a game where two players
/// claim edges at random until none is left.
const TRAILS: &str = r#"
game "Trails"
players 2
board "board.toml"
var per edge claimer: player = none

fn other(e: edge, n: node) -> node = if e.from == n then e.to else e.from
fn trail(p: player, n: node, used: edges) -> int =
  if any(e in edges_of(n): e.claimer == p and not (e in used))
  then max(e in edges_of(n) where claimer == p and not (it in used): 1 + trail(p, other(e, n), used + e))
  else 0
fn longest_trail(p: player) -> int = max(n in nodes: trail(p, n, []))

action build(e in edges where claimer == none) label "{actor} builds {e}" {
  e.claimer = actor
}

play {
  while any(e in edges: e.claimer == none) {
    for p in players {
      if any(e in edges: e.claimer == none) {
        act p with build
      }
      log "{longest_trail(p)} {longest_path(edges where claimer == p)}"
    }
  }
}
score(p) = longest_trail(p)
"#;

/// The pairs of lengths the trail game logged, checked equal.
fn trails_agree(board: &str, seed: u64) -> usize {
    let log = play_both(TRAILS, board, seed);
    let pairs: Vec<(i64, i64)> = lines(&log)
        .iter()
        .filter_map(|l| {
            let mut w = l.split(' ').map(|x| x.parse::<i64>());
            Some((w.next()?.ok()?, w.next()?.ok()?))
        })
        .collect();
    assert!(!pairs.is_empty());
    for (own, builtin) in &pairs {
        assert_eq!(own, builtin, "seed {seed}: {log:?}");
    }
    pairs.iter().map(|p| p.0).max().unwrap_or(0) as usize
}

#[test]
fn a_recursive_trail_agrees_with_longest_path() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let map = |f: &str| std::fs::read_to_string(root.join("maps").join(f)).unwrap();
    let boards = [
        map("route-builder.toml"),
        map("tic-tac-toe.toml"),
        loop_board(false),
        loop_board(true),
    ];
    for board in &boards {
        let mut longest = 0;
        for seed in 1..=3 {
            longest = longest.max(trails_agree(board, seed));
        }
        // The games reach trails long enough to mean something.
        assert!(longest >= 3, "longest trail {longest}");
    }
}

/// A recursion deeper than the functions' call limit (200) ends the match
/// with that error, not a crash: a trail along a line of 250 edges.
#[test]
fn a_recursion_over_sets_stops_at_the_call_limit() {
    let board = numbered_board("line", 251, (1..251).map(|i| (i - 1, i)));
    let fns = TRAILS.split("action build").next().unwrap();
    let rules =
        fns.replace("player = none", "player = p1") + "play {\n  log \"{trail(p1, @n0, [])}\"\n}\n";
    // A debug build's frames are several times a release build's (where a
    // level takes about a kilobyte): the match runs on a stack large
    // enough for both.
    let run = move || {
        for passes in [regel::opt::Passes::all(), regel::opt::Passes::none()] {
            let e = play(&rules, &board, &passes, 1).unwrap_err();
            assert!(e.contains("too deeply"), "{e}");
        }
    };
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
}
