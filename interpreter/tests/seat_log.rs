//! Issue 12: the log as each seat may read it (`Match::new_with_seat_logs`), which is
//! what `regel play` shows. Hidden information is decided in `eval/view.rs`:
//! a rules' `log` line names a hidden card only to those who may see it, a
//! move names what it made public, and a card moved out of sight stays unnamed.

use regel::diag::Sources;
use regel::eval::{Match, Setup};
use std::path::Path;
use std::sync::Arc;

const RULES: &str = r#"game "Secrets"
players 2
seats a, b

piece card { rank: int } in deck label "c{rank}" {
  1 x { rank: 1 }
  1 x { rank: 2 }
  1 x { rank: 3 }
  1 x { rank: 4 }
}

zone deck: card hidden
zone per player hand: card owner
zone table: card public
zone pile: card hidden

var kept: int = 0 hidden

setup {
  for p in players {
    move 2 of deck to p.hand
  }
}

action show(c in actor.hand) label "show {c}" {
  move c to table
  log "{actor} keeps {top(actor.hand)}"
  log "{actor} keeps rank {top(actor.hand).rank}"
}

action bury(c in actor.hand) label "bury {c}" {
  move c to pile
}

play {
  act a with show
  act b with bury
}

score(p) = 0
"#;

fn game() -> Arc<regel::ir::Game> {
    let read = |_: &Path| Ok(RULES.to_string());
    let mut sources = Sources::default();
    let (g, _) = regel::pipeline::compile(
        &mut sources,
        &read,
        Path::new("secrets.rules"),
        &regel::opt::Passes::all(),
    )
    .unwrap_or_else(|d| panic!("{}", regel::diag::render(&sources, &d, false, 100)));
    Arc::new(g)
}

/// Seat texts of every line: `[a, b, onlooker]`.
fn lines(m: &mut Match) -> Vec<Vec<String>> {
    m.take_seat_log().into_iter().map(|l| l.text).collect()
}

#[test]
fn each_seat_reads_the_log_as_it_may_see_it() {
    let mut m = Match::new_with_seat_logs(game(), &Setup::new(2, 0)).unwrap();
    assert!(
        lines(&mut m).is_empty(),
        "nothing happens before the first decision"
    );
    let own = m.option_labels();
    // a's first card, as a sees it (its own hand).
    m.apply(0).unwrap();
    let l = lines(&mut m);
    let shown = own[0].trim_start_matches("show ");
    // The move: its card is face up now, so every reader sees which it was.
    assert_eq!(l[0], vec![format!("a: show {shown}"); 3], "{l:?}");
    // The rules' log line names a card in a's hand: only a may read it.
    assert!(l[1][0].starts_with("a keeps c"), "{l:?}");
    assert_eq!(l[1][1], "a keeps hidden card", "{l:?}");
    assert_eq!(l[1][2], "a keeps hidden card", "{l:?}");
    // A hole reading a field of that card reads `hidden` too.
    assert!(l[2][0].starts_with("a keeps rank "), "{l:?}");
    assert_eq!(l[2][1], "a keeps rank hidden", "{l:?}");
    assert_eq!(l[2][2], "a keeps rank hidden", "{l:?}");
    // b buries a card: it leaves b's hand face down and stays unnamed to others.
    let b_labels = m.option_labels();
    m.apply(0).unwrap();
    let l = lines(&mut m);
    assert_eq!(
        l[0][1],
        format!("b: {}", b_labels[0]),
        "b saw its card when it moved it"
    );
    assert_eq!(l[0][0], "b: bury hidden card", "{l:?}");
    assert_eq!(l[0][2], "b: bury hidden card", "{l:?}");
    assert!(m.is_over());
    // The engine's own log, which sees everything, is unchanged by all this.
    let all = m.take_log();
    assert!(all.iter().any(|l| l.starts_with("a keeps c")), "{all:?}");
}

/// Issue 12: a card face up only during the move that played it (played to
/// the table, then gathered face down by the same action) is named to every
/// reader; a card that never was in sight stays unnamed.
#[test]
fn a_card_face_up_only_during_the_move_is_named() {
    let rules = RULES.replace("action bury(c in actor.hand) label \"bury {c}\" {\n  move c to pile\n}", "action bury(c in actor.hand) label \"bury {c}\" {\n  move c to table\n  move all table to pile\n}");
    assert_ne!(rules, RULES);
    let (g, _) = compiled(&rules, "all", "");
    let mut m = Match::new_with_seat_logs(Arc::new(g), &Setup::new(2, 0)).unwrap();
    m.apply(0).unwrap();
    lines(&mut m);
    let b_labels = m.option_labels();
    m.apply(0).unwrap();
    let l = lines(&mut m);
    // b's card went over the table into the hidden pile: all saw it pass.
    assert_eq!(l[0], vec![format!("b: {}", b_labels[0]); 3], "{l:?}");
    assert!(!l[0][0].contains("hidden"), "{l:?}");
    assert!(m.is_over());
}

/// `rules` compiled with `passes`, and how many of its operations are `op`.
fn compiled(rules: &str, passes: &str, op: &str) -> (regel::ir::Game, usize) {
    let rules = rules.to_string();
    let read = move |_: &Path| Ok(rules.clone());
    let mut sources = Sources::default();
    let (g, _) = regel::pipeline::compile(
        &mut sources,
        &read,
        Path::new("scan.rules"),
        &regel::opt::Passes::parse(passes).unwrap(),
    )
    .unwrap_or_else(|d| panic!("{}", regel::diag::render(&sources, &d, false, 100)));
    let n = g
        .programs
        .iter()
        .flat_map(|p| p.ops())
        .filter(|o| format!("{o:?}").starts_with(op))
        .count();
    (g, n)
}

/// A compiled scan whose step skips the cards failing a leading field test
/// (`BOp::IterLead`) looks at each card as reading its field would: a
/// hole calling it reads `hidden` for a seat that may not see a card it
/// looked at, and the seats read the same log with the bytecode as with the
/// tree evaluator. A scan of an empty hand looks at no card.
#[test]
fn a_scan_skipping_cards_by_a_field_peeks_at_each_card_it_looks_at() {
    let rules = RULES
        .replace(
            "var kept: int = 0 hidden\n",
            "var kept: int = 0 hidden\nfn holds(p: player, r: int) -> bool = any(c in p.hand: c.rank == r and r > 0)\nfn dealt(r: int) -> bool = any(c in table: c.rank != r)\n",
        )
        .replace(
            "  log \"{actor} keeps rank {top(actor.hand).rank}\"\n",
            "  log \"{actor} keeps rank {top(actor.hand).rank}\"\n  log \"{actor} holds a 4: {holds(actor, 4)}; the table: {dealt(0)}\"\n  move all actor.hand to pile\n  log \"{actor} holds a 4 now: {holds(actor, 4)}\"\n",
        );
    assert!(rules.contains("holds a 4 now"));
    let play = |passes: &str| {
        let (g, fused) = compiled(&rules, passes, "IterLead");
        let mut m = Match::new_with_seat_logs(Arc::new(g), &Setup::new(2, 0)).unwrap();
        m.apply(0).unwrap();
        (lines(&mut m), fused)
    };
    let (fast, fused) = play("all");
    let (slow, none) =
        play("zone-len,inline,fold-board,consts,zone-pred,searches,board-index,splice");
    // The functions and their copies for the constant arguments (`consts`).
    assert!(
        fused >= 2 && none == 0,
        "the scans compiled with IterLead: {fused}, {none}"
    );
    assert_eq!(fast, slow);
    // a looked at its own card (hidden from b) and at the card on the
    // table (public to all): b and the onlooker read `hidden`.
    let holds = &fast[3];
    assert!(holds[0].starts_with("a holds a 4: "), "{fast:?}");
    assert!(holds[0].ends_with("; the table: true"), "{fast:?}");
    assert_eq!(holds[1], "a holds a 4: hidden; the table: true", "{fast:?}");
    assert_eq!(holds[2], "a holds a 4: hidden; the table: true", "{fast:?}");
    // An empty hand: no card looked at, every reader reads the answer.
    let last = fast.last().unwrap();
    assert_eq!(
        last,
        &vec!["a holds a 4 now: false".to_string(); 3],
        "{fast:?}"
    );
}

/// [`BOp::FirstAlike`] (`first(Z where it.k == y.k and …)` as one
/// operation) looks at the cards the walk it replaces looks at, in the
/// same order: the card whose keys it compares with (a's own card, hidden
/// from b) once, and each card of the zone it reaches. Each reader reads
/// the same log with it as with the tree evaluator; an empty hand looks at
/// nothing, and the card compared with is read only when there is a card
/// to compare it with (`none` then fails, as the walk's read fails, with
/// the same error).
#[test]
fn the_first_card_like_another_is_found_in_one_operation_that_peeks_as_the_walk() {
    let mut rules = RULES.to_string();
    for r in 1..=4 {
        rules = rules.replace(
            &format!("{{ rank: {r} }}"),
            &format!("{{ rank: {r}, suit: {} }}", r % 2),
        );
    }
    let rules = rules
        .replace("piece card { rank: int }", "piece card { rank: int, suit: int }")
        .replace(
            "var kept: int = 0 hidden\n",
            "var kept: int = 0 hidden\nfn alike(p: player, c: card) -> bool = first(p.hand where rank == c.rank and c.suit == suit) != none\nfn on_table(c: card) -> bool = first(table where rank == c.rank and c.suit == suit) != none\n",
        )
        .replace(
            "  log \"{actor} keeps rank {top(actor.hand).rank}\"\n",
            "  log \"{actor} keeps rank {top(actor.hand).rank}\"\n  log \"like its own: {alike(actor, top(actor.hand))}; like the shown: {alike(actor, c)}; on the table: {on_table(c)}\"\n  move all actor.hand to pile\n  log \"now: {alike(actor, c)}; none: {alike(actor, top(actor.hand))}\"\n  log \"{on_table(top(actor.hand))}\"\n",
        );
    assert!(
        rules.contains("suit: 0 }") && rules.contains("now: "),
        "{rules}"
    );
    let play = |passes: &str| {
        let (g, fused) = compiled(&rules, passes, "FirstAlike");
        let mut m = Match::new_with_seat_logs(Arc::new(g), &Setup::new(2, 0)).unwrap();
        let err = m
            .apply(0)
            .expect_err("the last line reads the suit of none");
        (
            lines(&mut m),
            format!("{:?} at {:?}", err.kind, err.span),
            fused,
        )
    };
    let (fast, fast_err, fused) = play("all");
    let (slow, slow_err, none) =
        play("zone-len,inline,fold-board,consts,zone-pred,searches,board-index,splice");
    assert!(fused >= 1 && none == 0, "FirstAlike: {fused}, {none}");
    assert_eq!(fast, slow);
    assert_eq!(fast_err, slow_err);
    assert!(fast_err.starts_with("NoneField"), "{fast_err}");
    // a's own card is like itself; the shown card is on the table, like
    // itself, and no other card has its rank. a reads all; b and the
    // onlooker may not see a's card, which every test in the hand reads.
    let like = fast
        .iter()
        .find(|l| l[0].starts_with("like its own"))
        .expect("the line");
    assert_eq!(
        like[0], "like its own: true; like the shown: false; on the table: true",
        "{fast:?}"
    );
    assert_eq!(
        like[1], "like its own: hidden; like the shown: hidden; on the table: true",
        "{fast:?}"
    );
    assert_eq!(like[1], like[2], "{fast:?}");
    // An empty hand: no card looked at, not even `none`'s.
    let now = fast
        .iter()
        .find(|l| l[0].starts_with("now"))
        .expect("the line");
    assert_eq!(
        now,
        &vec!["now: false; none: false".to_string(); 3],
        "{fast:?}"
    );
}

#[test]
fn a_variable_declared_hidden_is_in_no_view() {
    let m = Match::new(game(), &Setup::new(2, 0)).unwrap();
    for seat in [Some(0), Some(1), None] {
        let v = m.view(seat);
        assert!(v.vars.iter().all(|(k, _)| k != "kept"), "{:?}", v.vars);
        assert!(v.globals.iter().all(|(k, _)| k != "kept"));
    }
}

// ---------------------------------------------------------------- recall
//
// Issue 21, item 1: a rules' `log` line names a piece to a reader that saw
// it face up and followed it out of sight (perfect recall, `recall.rs`), and
// to no one else; a piece that reaches a seat's sight before the line is
// decided keeps its name from the others.

/// Checks a shipped ruleset by its path from the repository's root.
fn shipped(rel: &str) -> Arc<regel::ir::Game> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut sources = Sources::default();
    let (g, _) = regel::pipeline::compile(
        &mut sources,
        &regel::cli::read_file,
        &root.join(rel),
        &regel::opt::Passes::all(),
    )
    .unwrap_or_else(|d| panic!("{}", regel::diag::render(&sources, &d, false, 100)));
    Arc::new(g)
}

/// Plays a match to its end with seat logs on, options picked by a fixed
/// pseudo-random sequence, and gives the engine's own log and every
/// reader's text of each line.
fn play_out(g: Arc<regel::ir::Game>, setup: &Setup) -> (Vec<String>, Vec<Vec<String>>) {
    let mut m = Match::new_with_seat_logs(g, setup).unwrap();
    let mut seats = lines(&mut m);
    let mut x = setup.seed.wrapping_mul(6364136223846793005).wrapping_add(1);
    while !m.is_over() {
        let n = m.option_labels().len() as u64;
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        m.apply(((x >> 33) % n) as usize).unwrap();
        seats.extend(lines(&mut m));
    }
    (m.take_log(), seats)
}

/// The lines starting with `prefix`: in the engine's log, and per reader.
/// A prefix ending in `…` also asks the line to contain the text after the
/// `…` (`"grey: … points; "`): the engine's log names things by id, a
/// reader's by their display names, so lines that name places are compared
/// by what they say in numbers.
fn starting(
    log: &(Vec<String>, Vec<Vec<String>>),
    prefix: &str,
) -> (Vec<String>, Vec<Vec<String>>) {
    let (prefix, inner) = prefix.split_once('…').unwrap_or((prefix, ""));
    let matches = |l: &String| l.starts_with(prefix) && l.contains(inner);
    let all: Vec<String> = log.0.iter().filter(|l| matches(l)).cloned().collect();
    let n = log.1.iter().map(|l| l.len()).max().unwrap_or(0);
    let per = (0..n)
        .map(|k| {
            log.1
                .iter()
                .filter_map(|l| l.get(k))
                .filter(|t| matches(t))
                .cloned()
                .collect()
        })
        .collect();
    (all, per)
}

/// Every reader (each seat and the onlooker) reads the lines starting with
/// `prefix` exactly as the engine's log, which sees everything, writes them.
fn all_readers_read(log: &(Vec<String>, Vec<Vec<String>>), prefix: &str) -> usize {
    let (all, per) = starting(log, prefix);
    assert!(!all.is_empty(), "no `{prefix}` line was logged");
    for (k, lines) in per.iter().enumerate() {
        assert_eq!(lines, &all, "reader {k} reads `{prefix}` lines otherwise");
    }
    all.len()
}

fn hasp_setup(players: usize, seed: u64, public_history: bool) -> Setup {
    let mut s = Setup::new(players, seed);
    s.options
        .push(("public_history".into(), public_history as i64));
    s
}

/// HASP-7.5, HASP-14.6: the trick's cards are played face up (the `trick`
/// zone is public) and gathered face down into the winner's `won` pile
/// before the line `trick N: CARD wins` is logged. Every reader saw the
/// winning card, so every reader reads it named — with won piles face down
/// (the default) and face up (`public_history`, HASP-AMB-17's ruling).
/// HASP-8.1: the card points are a sum over the won piles, all of whose
/// cards were seen in tricks, so they read as numbers too.
#[test]
fn hasp_trick_winners_and_card_points_are_named_to_every_reader() {
    let g = shipped("rulesets/hasp/hasp.rules");
    for public_history in [false, true] {
        for (players, seed) in [(4, 5), (4, 1), (3, 2), (2, 3)] {
            let log = play_out(g.clone(), &hasp_setup(players, seed, public_history));
            let tricks = all_readers_read(&log, "trick ");
            assert!(tricks > 0);
            let (all, _) = starting(&log, "card points");
            if !all.is_empty() {
                all_readers_read(&log, "card points");
            }
            for lines in &log.1 {
                for t in lines {
                    if t.starts_with("trick ") || t.starts_with("card points") {
                        assert!(!t.contains("hidden"), "{t}");
                    }
                }
            }
        }
    }
    // Seed 1 with four players reaches a round scored on card points.
    let log = play_out(g, &hasp_setup(4, 1, false));
    assert!(all_readers_read(&log, "card points") > 0);
}

/// HANSA-1.3 (4), HANSA-14.3: goods are sold face up (`selling` is public)
/// and then turned face down into `sold`, unless `sold_face_up`
/// (HANSA-AMB-19). HANSA-11.1–11.5: the final scoring sums the sold goods'
/// barrels; every reader saw them sold, so every reader reads the sums, the
/// totals and the highest score as numbers.
#[test]
fn hansa_final_scoring_is_read_in_full_by_every_reader() {
    let g = shipped("rulesets/hansa/hansa.rules");
    for face_up in [false, true] {
        for (players, seed) in [(3, 1), (2, 2), (4, 3)] {
            let mut s = Setup::new(players, seed);
            s.options.push(("sold_face_up".into(), face_up as i64));
            let log = play_out(g.clone(), &s);
            all_readers_read(&log, "highest score");
            for seat in &g.seats[..players] {
                all_readers_read(&log, &format!("{seat}: … points; "));
            }
            let (_, per) = starting(&log, "highest score");
            assert!(
                per.iter().flatten().all(|t| !t.contains("hidden")),
                "{per:?}"
            );
        }
    }
}

const RECALL: &str = r#"game "Recall"
players 2
seats a, b

piece card { rank: int } in table label "c{rank}" {
  1 x { rank: 1 }
  1 x { rank: 2 }
  1 x { rank: 3 }
}

zone table: card public
zone pile: card hidden
zone per player hand: card owner

play {
  act a with bury
  act b with step
}

action bury(c in table) label "bury {c}" {
  move c to pile
  log "buried {c}, rank {c.rank}"
  # The whole table goes face down and is shuffled: no one can tell the
  # cards apart any more.
  SHUFFLE
}

action step() {
  HIDE
}

score(p) = 0
"#;

fn recall_game(shuffle: &str, hide: &str) -> Arc<regel::ir::Game> {
    let rules = RECALL.replace("SHUFFLE", shuffle).replace("HIDE", hide);
    Arc::new(compiled(&rules, "all", "").0)
}

/// A card seen face up on the table and moved face down is named to every
/// reader, in the log line written after it went face down.
#[test]
fn a_card_seen_going_face_down_is_recalled() {
    let g = recall_game("", "log \"pile has {count(pile)}\"");
    let mut m = Match::new_with_seat_logs(g, &Setup::new(2, 0)).unwrap();
    m.apply(0).unwrap();
    let l = lines(&mut m);
    assert_eq!(l[1], vec!["buried c1, rank 1".to_string(); 3], "{l:?}");
}

/// After a shuffle of the face-down pile no reader can tell its cards
/// apart: a line written then reads `hidden`.
#[test]
fn a_shuffle_forgets() {
    let g = recall_game(
        "move all table to pile\n  shuffle pile\n  log \"the top is {top(pile)}\"",
        "",
    );
    let mut m = Match::new_with_seat_logs(g, &Setup::new(2, 0)).unwrap();
    m.apply(0).unwrap();
    let l = lines(&mut m);
    let top = l.iter().find(|t| t[0].starts_with("the top")).unwrap();
    assert_eq!(top, &vec!["the top is hidden card".to_string(); 3], "{l:?}");
}

/// A recalled card that then goes into one seat's hand, still in the same
/// turn, is that seat's secret: the line naming it reads `hidden` to the
/// others, and is named to the seat that now holds it.
#[test]
fn a_recalled_card_that_reaches_a_hand_is_not_told_to_the_others() {
    let g = recall_game("move top(pile) to b.hand", "");
    let mut m = Match::new_with_seat_logs(g, &Setup::new(2, 0)).unwrap();
    m.apply(0).unwrap();
    let l = lines(&mut m);
    assert_eq!(l[1][0], "buried hidden card, rank hidden", "{l:?}");
    assert_eq!(l[1][1], "buried c1, rank 1", "{l:?}");
    assert_eq!(l[1][2], "buried hidden card, rank hidden", "{l:?}");
}

/// A card that moves while out of a reader's sight (from one hand to a
/// face-down pile) is forgotten by that reader, though it once saw it.
#[test]
fn a_card_moved_out_of_sight_is_forgotten() {
    let g = recall_game(
        "move c to b.hand\n  move c to pile\n  log \"again {c}\"",
        "",
    );
    let mut m = Match::new_with_seat_logs(g, &Setup::new(2, 0)).unwrap();
    m.apply(0).unwrap();
    let l = lines(&mut m);
    let again = l.iter().find(|t| t[0].starts_with("again")).unwrap();
    assert_eq!(again[0], "again hidden card", "{l:?}");
    assert_eq!(again[1], "again c1", "b saw it in its hand: {l:?}");
    assert_eq!(again[2], "again hidden card", "{l:?}");
}
